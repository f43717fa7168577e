"""What each primitive of the effect language does, on the engine side.

The primitives are declared (name, typed parameters, result, kind, where
they may be used, wording, doc) in ``interpreter/language/builtins.py``; each
function here registers itself there, by the declared name, with
``@implements``. Importing this module registers them all, which compiling
effect code needs: the compiler binds these functions into the code it
generates (one direct call per use, nothing looked up at run time).
The loader (its units stage, ``interpreter/content/units.py``) imports it for that.

Each implementation takes the run-time context (``ctx``: ``ctx.game`` is the
:class:`~interpreter.engine.game.Game`, ``ctx.me`` the player whose effect
runs) and then one argument per declared parameter, in order. An action
returns True when it fully resolved (the basis of 然后); a query or choice
returns its value.

An implementation reads whatever state it needs (from the Game or the
component that owns it: ``ctx.game.zones.pending``) but changes state only
through the owning component's named operations (``zones.move``, the turn
flow's ``send_intel``, the seats' ``add_status`` …, called on the typed
components: compiled, a direct call), never by assigning a field: each piece of
state has one owner (ARCHITECTURE.md, "The engine's components").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..language.builtins import EVERYONE, implements
from ..language.runtime import CardName, Ctx, source_of
from ..language.types import MAX_NUMBER
from . import decisions as D
from .core import ask_seat, emit_event, unheard
from .state import (
    BLACK,
    BLUE,
    DECK,
    DECLARED_ZONE,
    DISCARD,
    HAND,
    INTEL,
    PENDING,
    RED,
    REMOVED,
    Card,
    Color,
    Player,
)

if TYPE_CHECKING:
    from .card_use import CardUse
    from .core import GameCore
    from .flow import TurnFlow
    from .seats import Seats
    from .skills import Skills
    from .stack import EffectStack
    from .victory import Victory
    from .zones import Zones


# The components a primitive works with, typed: compiled, a call of their operations is a direct call (through
# `ctx.game.<operation>`, Game's bound method, it goes through Python's attribute lookup and calling convention)
def _core(ctx: Ctx) -> GameCore:
    return ctx.game  # (a Game: the language types it Any)


def _zones(ctx: Ctx) -> Zones:
    return cast("Zones", _core(ctx).zones)  # (GameCore declares it by its move count: no import of zones.py)


def _seats(ctx: Ctx) -> Seats:
    return ctx.game.seats


def _stack(ctx: Ctx) -> EffectStack:
    return ctx.game.stack


def _skills(ctx: Ctx) -> Skills:
    return ctx.game.skills


def _victory(ctx: Ctx) -> Victory:
    return ctx.game.victory


def _card_use(ctx: Ctx) -> CardUse:
    return ctx.game.card_use


def _flow(ctx: Ctx) -> TurnFlow:
    return ctx.game.flow


def _read_mark(ctx: Ctx, p: Any, key: Any) -> Any:
    seats: Seats = ctx.game.seats
    return seats.mark(p, key)


def as_list(x) -> list:
    """The language's as_list (builtins.py), compiled with the engine: a call from here is a direct call."""
    if x is None:
        return []
    if isinstance(x, list):
        return x
    return [x]


def as_cards(x) -> list:
    if x is None:
        return []
    if isinstance(x, Card):
        return [x]
    return list(x)


def _alive_ok(p) -> bool:
    return p is not None and p.alive


# ---------------------------------------------------------------- queries


@implements("alive")
def _alive(ctx: Ctx) -> list:
    seats: Seats = ctx.game.seats
    return seats.alive_from(ctx.game.current)


@implements("alive_from")
def _alive_from(ctx: Ctx, p) -> list:
    seats: Seats = ctx.game.seats
    return seats.alive_from(p if p is not None else ctx.game.current)


@implements("others")
def _others(ctx: Ctx, p) -> list:
    if p is None:
        return []
    seats: Seats = ctx.game.seats
    order = seats.alive_order(p)
    return list(order[1:] if order and order[0] is p else order)


@implements("neighbors")
def _neighbors(ctx: Ctx, p) -> list:
    if p is None:
        return []
    seats: Seats = ctx.game.seats
    return seats.neighbors(p)


@implements("hand")
def _hand(ctx: Ctx, p) -> list:
    return list(p.hand) if p is not None else []


@implements("intel")
def _intel(ctx: Ctx, p) -> list:
    return list(p.intel) if p is not None else []


@implements("count")
def _count(ctx: Ctx, xs):
    if xs is None:
        return 0
    if isinstance(xs, (list, tuple)):
        return len(xs)
    return 1


@implements("hand_count")
def _hand_count(ctx: Ctx, p):
    return len(p.hand) if p is not None else 0


@implements("any_of")
def _any_of(ctx: Ctx, xs):
    return bool(xs)


@implements("none_of")
def _none_of(ctx: Ctx, xs):
    return not xs


@implements("exists")
def _exists(ctx: Ctx, x):
    return x is not None


@implements("identity_color")
def _identity_color(ctx: Ctx, p):
    return p.identity.color if p is not None and p.identity is not None else None


def _visible_role(p):
    """p's role if it is face up (a face-down role shows no name and no gender), else None."""
    return p.role if p is not None and p.role_face_up else None


@implements("gender")
def _gender(ctx: Ctx, p):
    role = _visible_role(p)
    return role.gender if role is not None else None


@implements("role_name")
def _role_name(ctx: Ctx, p):
    role = _visible_role(p)
    return role.name if role is not None else None


@implements("role_face_up")
def _role_face_up(ctx: Ctx, p):
    return _visible_role(p) is not None


@implements("hidden_role")
def _hidden_role(ctx: Ctx, p):
    return p is not None and p.role is not None and p.role.hidden


@implements("pure")
def _pure(ctx: Ctx, c, color):
    return c is not None and c.mask == color


@implements("is_dual")
def _is_dual(ctx: Ctx, c):
    return c is not None and c.mask not in (RED, BLUE, BLACK)


@implements("shares_color")
def _shares_color(ctx: Ctx, a, b):
    return a is not None and b is not None and bool(a.mask & b.mask)


@implements("same_colored")
def _same_colored(ctx: Ctx, xs, ys) -> list:
    masks = {c.mask for c in as_list(ys) if c is not None}
    return [c for c in as_list(xs) if c is not None and c.mask in masks]


@implements("makes_three")
def _makes_three(ctx: Ctx, p, c):
    if p is None or c is None:
        return False
    counts = p.counts
    m = c.mask
    g = ctx.game  # the rule numbers: three of red or blue (collect), three black (dying)
    return any(m & b and counts[b] + 1 >= (g.dying_at if b == BLACK else g.collect_at) for b in (RED, BLUE, BLACK))


@implements("data")
def _data(ctx: Ctx, c, key):
    if c is None:
        return None
    return c.data.get(key)


# The typed reads of a mark or a data slot: what each gives back, and what it yields for anything else
# (not set, none, or a value of another kind), so that a value has the type the checker gave it.
def _is_number(v) -> bool:
    return type(v) is int  # not a bool, not a Color


def _is_text(v) -> bool:
    return type(v) is str


def _is_color(v) -> bool:
    return isinstance(v, Color)


def _is_player(v) -> bool:
    return isinstance(v, Player)


def _is_card(v) -> bool:
    return isinstance(v, Card)


def _is_cardname(v) -> bool:
    return isinstance(v, CardName)


def _typed(v, ok, absent=None):
    return v if ok(v) else absent


@implements("data_number")
def _data_number(ctx: Ctx, c, key):
    return _typed(c.data.get(key), _is_number, 0) if c is not None else 0


@implements("data_color")
def _data_color(ctx: Ctx, c, key):
    return _typed(c.data.get(key), _is_color) if c is not None else None


@implements("data_text")
def _data_text(ctx: Ctx, c, key):
    return _typed(c.data.get(key), _is_text) if c is not None else None


@implements("top_cards")
def _top_cards(ctx: Ctx, n) -> list:
    zones: Zones = ctx.game.zones
    return zones.top_cards(n)


@implements("top_card")
def _top_card(ctx: Ctx):
    zones: Zones = ctx.game.zones
    top = zones.top_cards(1)
    return top[0] if top else None


@implements("set_aside")
def _set_aside(ctx: Ctx) -> list:
    zones: Zones = ctx.game.zones
    return list(zones.staging)


@implements("alive_count")
def _alive_count(ctx: Ctx):
    return sum(1 for p in ctx.game.players if p.alive)


@implements("card_names")
def _card_names(ctx: Ctx) -> list:
    return [CardName(ct.id, ct.name) for ct in ctx.game.content.card_types.values()]


@implements("name_of")
def _name_of(ctx: Ctx, c):
    return CardName(c.type.id, c.type.name) if c is not None else None


@implements("is_face_up")
def _is_face_up(ctx: Ctx):
    zones = _zones(ctx)
    return zones.pending is not None and zones.pending_face_up


@implements("pending_direction")
def _pending_direction(ctx: Ctx):
    t = ctx.game.flow.transit
    return t.direction if t is not None else None


@implements("pending_lock")
def _pending_lock(ctx: Ctx):
    t = ctx.game.flow.transit
    return t.lock if t is not None else None


@implements("all_players")
def _all_players(ctx: Ctx) -> list:
    seats: Seats = ctx.game.seats
    return [p for p in seats.order_from(ctx.game.current) if not p.out]


@implements("has_identity")
def _has_identity(ctx: Ctx, p):
    return p is not None and p.identity is not None


@implements("usable")
def _usable(ctx: Ctx, c, by, as_):
    return bool(_uses_for(ctx, c, by if by is not None else ctx.me, as_))


def _uses_for(ctx: Ctx, c, user, as_):
    g = ctx.game
    if as_ is not None:
        ctype = g.content.card_types.get(as_.id)
    elif c is not None:  # a hand card as what it must be used as
        ctype = _card_use(ctx).hand_card_type(c)
    else:  # a virtual use needs a name
        ctype = None
    return _card_use(ctx).legal_uses(user, c, ctype)


@implements("mark")
def _mark(ctx: Ctx, p, key):
    return _read_mark(ctx, p, key) if p is not None and key is not None else None


# the typed reads of a mark: each a function of its own (a compiled closure has no signature to check)
@implements("mark_number")
def _mark_number(ctx: Ctx, p, key):
    return _typed(_read_mark(ctx, p, key), _is_number, 0) if p is not None and key is not None else 0


@implements("mark_color")
def _mark_color(ctx: Ctx, p, key):
    return _typed(_read_mark(ctx, p, key), _is_color, None) if p is not None and key is not None else None


@implements("mark_player")
def _mark_player(ctx: Ctx, p, key):
    return _typed(_read_mark(ctx, p, key), _is_player, None) if p is not None and key is not None else None


@implements("mark_card")
def _mark_card(ctx: Ctx, p, key):
    return _typed(_read_mark(ctx, p, key), _is_card, None) if p is not None and key is not None else None


@implements("mark_cardname")
def _mark_cardname(ctx: Ctx, p, key):
    return _typed(_read_mark(ctx, p, key), _is_cardname, None) if p is not None and key is not None else None


@implements("mark_text")
def _mark_text(ctx: Ctx, p, key):
    return _typed(_read_mark(ctx, p, key), _is_text, None) if p is not None and key is not None else None


@implements("has_mark")
def _has_mark(ctx: Ctx, p, key):
    if p is None or key is None:
        return False
    v = _read_mark(ctx, p, key)
    return v is not None and v is not False


# ---------------------------------------------------------------- actions


@implements("draw")
def _draw(ctx: Ctx, p, n):
    if not _alive_ok(p) or n <= 0:
        return n <= 0
    zones: Zones = ctx.game.zones
    return zones.draw(p, n)


@implements("discard")
def _discard(ctx: Ctx, xs):
    cards = as_cards(xs)
    zones: Zones = ctx.game.zones
    zones.discard_cards(cards)
    return bool(cards)


@implements("give")
def _give(ctx: Ctx, xs, to):
    zones: Zones = ctx.game.zones
    cards = as_cards(xs)
    if not cards or to is None:
        return False
    g = ctx.game
    frm = cards[0].owner
    taken = _hand_sources(cards, to)
    for c in cards:
        zones.move(c, HAND, to)
    _emit_taken(g, taken, to)
    emit_event(g, "give", seat=frm.seat if frm else None, to_seat=to.seat, n=len(cards), cards=[c.uid for c in cards])
    return True


@implements("put_in_hand")
def _put_in_hand(ctx: Ctx, xs, p):
    zones: Zones = ctx.game.zones
    cards = as_cards(xs)
    if not cards or p is None:
        return False
    g = ctx.game
    taken = _hand_sources(cards, p)
    for c in cards:
        zones.move(c, HAND, p)
    if not unheard(g, "to_hand"):
        emit_event(g, "to_hand", seat=p.seat, cards=[c.uid for c in cards])
    _emit_taken(g, taken, p)
    return True


@implements("put_in_zone")
def _put_in_zone(ctx: Ctx, xs, zone, p):
    zones = _zones(ctx)
    number = zones.zone_numbers.get(zone)  # (the compiler checked the name: E311)
    cards = as_cards(xs)
    if not cards or number is None or (p is None and zones.zone_decls[number - DECLARED_ZONE].per == "player"):
        return False
    g = ctx.game
    taken = _hand_sources(cards, p)
    zones.put_in_zone(cards, number, p)
    if p is not None:
        _emit_taken(g, taken, p)
    return True


@implements("zone_cards")
def _zone_cards(ctx: Ctx, zone, p) -> list:
    zones = _zones(ctx)
    number = zones.zone_numbers.get(zone)
    return zones.zone_cards(number, p) if number is not None else []


@implements("zone_top")
def _zone_top(ctx: Ctx, zone, p):
    zones = _zones(ctx)
    number = zones.zone_numbers.get(zone)
    cards = zones.zone_cards(number, p) if number is not None else []
    return cards[0] if cards else None


def _hand_sources(cards, to) -> list:
    """The other players whose hand cards are among `cards` (before they move), in order of first card."""
    out = []
    for c in cards:
        if c.zone == HAND and c.owner is not to and c.owner not in out:
            out.append(c.owner)
    return out


def _emit_taken(g, sources, to):
    for frm in sources:  # 获得你的手牌: once per player whose hand was taken from
        emit_event(g, "hand_taken", seat=to.seat, target=frm.seat)


@implements("collect")
def _collect(ctx: Ctx, xs, p):
    zones: Zones = ctx.game.zones
    cards = as_cards(xs)
    if not cards or not _alive_ok(p):
        return False
    g = ctx.game
    moved = [c for c in cards if not (c.zone == INTEL and c.owner is p)]  # from one's own area to itself: no move
    for c in cards:
        zones.move(c, INTEL, p)
    if not unheard(g, "collect"):
        emit_event(g, "collect", seat=p.seat, cards=[c.uid for c in cards])
    if moved and _stack(ctx).by_skill():
        for c in moved:
            emit_event(g, "skill_collect", seat=p.seat, card=c.uid)
    return True


@implements("replace_intel")
def _replace_intel(ctx: Ctx, old, new, old_to):
    g = ctx.game
    if old is None or new is None or old.zone != INTEL:
        return False
    owner = old.owner
    if old_to is not None:
        _zones(ctx).move(old, HAND, old_to)
        if not unheard(g, "to_hand"):
            emit_event(g, "to_hand", seat=old_to.seat, cards=[old.uid])
    else:
        _zones(ctx).discard_cards([old])
    moved = not (new.zone == INTEL and new.owner is owner)
    _zones(ctx).move(new, INTEL, owner)
    _zones(ctx).note_replaced(old, new)
    emit_event(g, "intel_replaced", seat=owner.seat, old=old.uid, new=new.uid)
    if not unheard(g, "collect"):
        emit_event(g, "collect", seat=owner.seat, cards=[new.uid])
    if moved and _stack(ctx).by_skill():
        emit_event(g, "skill_collect", seat=owner.seat, card=new.uid)
    return True


@implements("remove")
def _remove(ctx: Ctx, xs):
    zones: Zones = ctx.game.zones
    cards = as_cards(xs)
    for c in cards:
        zones.move(c, REMOVED)
    return bool(cards)


@implements("reveal")
def _reveal(ctx: Ctx, xs, to):
    cards = as_cards(xs)
    # `to` left out: 展示, to every player; given: 查看 by those players, by nobody when it is none at run time
    seats = None if to == EVERYONE else [p for p in (to if isinstance(to, list) else [to]) if p is not None]
    zones: Zones = ctx.game.zones
    zones.reveal(cards, seats)
    return True


@implements("move_pending")
def _move_pending(ctx: Ctx, p):
    return p is not None and _flow(ctx).move_pending(p)


@implements("swap_pending")
def _swap_pending(ctx: Ctx, c):
    g = ctx.game
    old = g.zones.pending
    if old is None or c is None:
        return False
    _zones(ctx).move(old, DISCARD)
    _zones(ctx).move(c, PENDING)
    _zones(ctx).set_pending_face(False)
    if not unheard(g, "pending_swapped"):
        emit_event(g, "pending_swapped", old=old.uid, new=c.uid)
    return True


@implements("flip_pending")
def _flip_pending(ctx: Ctx):
    g = ctx.game
    if g.zones.pending is None or g.zones.pending_face_up:
        return False
    _zones(ctx).set_pending_face(True)
    _zones(ctx).reveal([g.zones.pending])
    return True


@implements("send")
def _send(ctx: Ctx, c, by, face_up, lock):
    sender = by if by is not None else ctx.me
    if c is None or not sender.alive:
        return False
    if lock is not None:
        return _flow(ctx).send_intel(sender, c, face_up, lock=lock)
    return _flow(ctx).send_intel(sender, c, face_up)


@implements("send_instead")
def _send_instead(ctx: Ctx, p):
    if p is None or not p.alive:
        return False
    g = ctx.game
    before = g.flow.transit
    return g.card_use.offer_inside(p, "need_send", "需要传出情报时") and g.flow.transit is not before


@implements("take_top")
def _take_top(ctx: Ctx, n) -> list:
    zones: Zones = ctx.game.zones
    out = zones.take_top(n)
    if len(out) < n:
        ctx.incomplete = True
    return out


@implements("flip_role")
def _flip_role(ctx: Ctx, p, face_up):
    return p is not None and _skills(ctx).flip_role(p, bool(face_up))


@implements("add_status")
def _add_status(ctx: Ctx, xs, status, turns, secret):
    players = as_list(xs) if status is not None else []  # no status: nothing happens
    for p in players:
        _seats(ctx).add_status(p, status, turns, secret)
    return bool(players)


@implements("set_mark")
def _set_mark(ctx: Ctx, p, key, value):
    if p is None or key is None:
        return False
    if _is_number(value):
        value = max(-MAX_NUMBER, min(MAX_NUMBER, value))  # numbers stay in the range code can write
    _seats(ctx).set_mark(p, key, value)
    return True


@implements("keep_mark")
def _keep_mark(ctx: Ctx, p, key, value, secret):
    if p is None or key is None:
        return False
    if _is_number(value):
        value = max(-MAX_NUMBER, min(MAX_NUMBER, value))
    _seats(ctx).keep_mark(p, key, value, bool(secret))
    return True


@implements("add_mark")
def _add_mark(ctx: Ctx, p, key, n, most, secret):
    if p is None or key is None:
        return False
    now = _typed(_read_mark(ctx, p, key), _is_number, 0)
    top = MAX_NUMBER if most is None else max(0, most)
    new = max(0, min(top, now + n))
    if new == now:
        return False
    _seats(ctx).keep_mark(p, key, new if new else False, bool(secret))
    return True


# counters the rules declare (`counters:`, model/declared.py): the compiler has checked the name (E310)
@implements("counter")
def _counter(ctx: Ctx, p, name):
    c = ctx.game.content.declared.counters.get(name)
    return _seats(ctx).counter(p, c) if p is not None and c is not None else 0


@implements("add_counter")
def _add_counter(ctx: Ctx, p, name, n):
    c = ctx.game.content.declared.counters.get(name)
    if p is None or c is None:
        return False
    seats = _seats(ctx)
    return seats.set_counter(p, c, seats.counter(p, c) + n)


@implements("remove_counter")
def _remove_counter(ctx: Ctx, p, name, n):
    c = ctx.game.content.declared.counters.get(name)
    if p is None or c is None:
        return False
    seats = _seats(ctx)
    return seats.set_counter(p, c, seats.counter(p, c) - n)


@implements("set_counter")
def _set_counter(ctx: Ctx, p, name, n):
    c = ctx.game.content.declared.counters.get(name)
    return p is not None and c is not None and _seats(ctx).set_counter(p, c, n)


@implements("gain_skill")
def _gain_skill(ctx: Ctx, p, skill):
    return p is not None and skill is not None and _skills(ctx).change_skill(p, skill, True)


@implements("lose_skill")
def _lose_skill(ctx: Ctx, p, skill):
    return p is not None and skill is not None and _skills(ctx).change_skill(p, skill, False)


@implements("skill_yang")
def _skill_yang(ctx: Ctx, p, skill):
    return p is not None and skill is not None and _skills(ctx).skill_yang(p, skill)


@implements("put_on_deck")
def _put_on_deck(ctx: Ctx, xs, bottom):
    zones: Zones = ctx.game.zones
    g = ctx.game
    cards = as_cards(xs)
    for c in reversed(cards) if not bottom else cards:
        zones.move(c, DECK, top=not bottom)
    if cards:
        emit_event(g, "to_deck", n=len(cards), bottom=bool(bottom))
    return bool(cards)


@implements("use_card")
def _use_card(ctx: Ctx, c, as_, by):
    g = ctx.game
    user = by if by is not None else ctx.me
    uses = _uses_for(ctx, c, user, as_)
    if not uses:
        return False
    use = uses[0]
    if len(uses) > 1:
        use = ask_seat(g, ctx.chooser, D.CHOOSE, uses, "如何使用", use.card_type.id)
    _card_use(ctx).use_card(
        user, c, use, chooser=ctx.chooser if ctx.chooser is not user else None, converted=as_ is not None
    )
    return True


@implements("convert")
def _convert(ctx: Ctx, frm, to):
    g = ctx.game
    if frm is None or to is None or frm == to:
        return False
    _card_use(ctx).convert(frm.id, g.content.card_types[to.id])
    return True


@implements("ban_cards")
def _ban_cards(ctx: Ctx, names):
    names = [n.id for n in as_list(names) if n is not None]
    _card_use(ctx).ban(names)
    return bool(names)


@implements("nullify")
def _nullify(ctx: Ctx):
    return _stack(ctx).nullify()


@implements("claim_used_card")
def _claim_used_card(ctx: Ctx, p):
    return _stack(ctx).claim_used_card(p if p is not None else ctx.me)


@implements("replace_role")
def _replace_role(ctx: Ctx, p, look):
    p = p if p is not None else ctx.me
    return _skills(ctx).replace_role(p, look)


@implements("set_direction")
def _set_direction(ctx: Ctx, d):
    return _flow(ctx).set_direction(d) if d is not None else False


@implements("lock_intel")
def _lock_intel(ctx: Ctx, p):
    return _flow(ctx).lock_intel(p)


@implements("set_receivers")
def _set_receivers(ctx: Ctx, must, cannot, secret):
    return _flow(ctx).set_receivers(
        [p for p in as_list(must) if p is not None], [p for p in as_list(cannot) if p is not None], secret
    )


@implements("protect_intel")
def _protect_intel(ctx: Ctx, names):
    return _card_use(ctx).protect_intel([n.id for n in as_list(names) if n is not None])


@implements("add_draw")
def _add_draw(ctx: Ctx, n):
    _flow(ctx).add_draw(n)
    return True


@implements("look_identity")
def _look_identity(ctx: Ctx, p, by):
    return _skills(ctx).look_identity(by if by is not None else ctx.me, p)


@implements("take_identity")
def _take_identity(ctx: Ctx, p):
    return _skills(ctx).take_identity(ctx.me, p)


@implements("end_contest")
def _end_contest(ctx: Ctx):
    return _flow(ctx).end_contest()


@implements("set_pending")
def _set_pending(ctx: Ctx, c, face_up):
    g = ctx.game
    if c is None:
        return False
    old = g.zones.pending
    if old is not None:
        _zones(ctx).move(old, DISCARD)
    _zones(ctx).move(c, PENDING)
    _zones(ctx).set_pending_face(bool(face_up))
    emit_event(g, "pending_set", new=c.uid, face_up=bool(face_up))
    if face_up:
        _zones(ctx).reveal([c])
    return True


# ---------------------------------------------------------------- victory skills (stages 2 and 4)


@implements("winners")
def _winners(ctx: Ctx) -> list:
    return list(ctx.game.victory.check_winners or [])


@implements("declarers")
def _declarers(ctx: Ctx) -> list:
    return list(ctx.game.victory.check_declarers or [])


@implements("win")
def _win(ctx: Ctx, p, declared):
    return p is not None and _victory(ctx).add_winner(p, bool(declared))


@implements("block_win")
def _block_win(ctx: Ctx, p):
    return p is not None and _victory(ctx).block_winner(p)


@implements("same_camp")
def _same_camp(ctx: Ctx, a, b):
    return (
        a is not None
        and b is not None
        and a.identity is not None
        and b.identity is not None
        and a.identity.camp is not None
        and a.identity.camp == b.identity.camp
    )


# ---------------------------------------------------------------- choices


def _ask(ctx: Ctx, by, options, prompt, optional, kind=D.CHOOSE):
    g = ctx.game
    chooser = by if by is not None else ctx.chooser
    if not options:
        ctx.incomplete = True
        return None
    if optional:
        options = [*options, None]
    choice = ask_seat(g, chooser, kind, options, prompt or "", source_of(ctx, chooser))
    if choice is None:
        ctx.incomplete = True
    return choice


class BlindPick:
    """An option of a blind pick (抽取): a position, not the card, so the chooser learns nothing."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def label(self) -> str:
        return f"第{self.index + 1}张"

    def to_json(self):
        return {"blind": self.index}


@implements("choose")
def _choose(ctx: Ctx, options, by, prompt, optional, blind):
    items = as_list(options)
    if not blind:
        return _ask(ctx, by, items, prompt, optional)
    items = list(items)
    if len(items) > 1 and ctx.game.zones.showing:  # nobody sees which is drawn: a card on show is lost among them
        ctx.game.zones.hide_pick(items)
    ctx.game.rng.shuffle(items)
    pick = _ask(ctx, by, [BlindPick(i) for i in range(len(items))], prompt, optional)
    return items[pick.index] if pick is not None else None


@implements("declare")
def _declare(ctx: Ctx, options, by, prompt):
    value = _ask(ctx, by, as_list(options), prompt, False)
    who = by if by is not None else ctx.chooser
    if not unheard(ctx.game, "declare"):
        emit_event(ctx.game, "declare", seat=who.seat, value=D.option_json(value))
    return value


@implements("choose_many")
def _choose_many(ctx: Ctx, options, by, lo, hi, prompt):
    g = ctx.game
    chooser = by if by is not None else ctx.chooser
    left = list(as_list(options))
    picked: list[Any] = []
    while left and len(picked) < hi:
        opts = left + ([None] if len(picked) >= lo else [])
        choice = ask_seat(g, chooser, D.CHOOSE, opts, prompt or "", source_of(ctx, chooser))
        if choice is None:
            break
        picked.append(choice)
        left.remove(choice)
    if len(picked) < lo:
        ctx.incomplete = True
    return picked
