"""The primitives of the effect language: queries, actions and choices.

Each primitive has a typed signature (checked when content loads), a short
Chinese wording (for ``describe`` and logs) and an implementation that calls
the engine. An action returns True when it fully resolved (the basis of
然后); a query or choice returns its value. Every primitive is general: none
is named after, or only useful to, a single card, role or task.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine import decisions as D
from ..engine.state import (
    BLACK,
    BLUE,
    DECK,
    DISCARD,
    HAND,
    INTEL,
    LEFT,
    PENDING,
    RED,
    REMOVED,
    RIGHT,
    STAGING,
    UP,
    Card,
)
from . import types as T
from .runtime import CardName, source_of

REQUIRED = object()

# Statuses an effect may put on a player until the end of a turn. The engine honours each.
STATUSES = {
    "cannot_use_cards": "本回合不能使用手牌",
    "skills_disabled": "本回合角色技能无效",
    "cannot_receive": "本回合不能选择接收情报",
    "must_receive": "本回合必须接收情报",
}


@dataclass
class Param:
    name: str
    type: str
    default: object = REQUIRED


@dataclass
class Builtin:
    name: str
    kind: str  # query | action | choice
    params: list
    returns: str | Callable[[dict[str, str]], str]  # a type, or a function(arg types by name) -> type
    impl: Callable
    zh: str  # Chinese wording, {param} placeholders
    doc: str = ""
    contexts: frozenset | None = None  # None: anywhere; else the unit kinds where it may be used
    extra: dict = field(default_factory=dict)


BUILTINS: dict[str, Builtin] = {}


def builtin(name, kind, params, returns, zh, doc="", contexts=None):
    def wrap(fn):
        BUILTINS[name] = Builtin(
            name, kind, [Param(*p) for p in params], returns, fn, zh, doc, frozenset(contexts) if contexts else None
        )
        return fn

    return wrap


def as_cards(x) -> list:
    if x is None:
        return []
    if isinstance(x, Card):
        return [x]
    return list(x)


def _alive_ok(p) -> bool:
    return p is not None and p.alive


# ---------------------------------------------------------------- queries


@builtin("alive", "query", [], T.PLAYERS, "所有存活角色", "Living players, counter-clockwise from the current player.")
def _alive(ctx):
    return ctx.game.alive_from(ctx.game.current)


@builtin(
    "alive_from",
    "query",
    [("p", T.PLAYER)],
    T.PLAYERS,
    "从{p}开始逆时针的所有存活角色",
    "Living players counter-clockwise starting at p (从你开始，逆时针).",
)
def _alive_from(ctx, p):
    return ctx.game.alive_from(p if p is not None else ctx.game.current)


@builtin(
    "others",
    "query",
    [("p", T.PLAYER)],
    T.PLAYERS,
    "{p}以外的存活角色",
    "Living players other than p (其他角色), counter-clockwise from p.",
)
def _others(ctx, p):
    if p is None:
        return []
    return [q for q in ctx.game.alive_from(p) if q is not p]


@builtin(
    "neighbors", "query", [("p", T.PLAYER)], T.PLAYERS, "{p}相邻的角色", "The nearest living player on each side of p."
)
def _neighbors(ctx, p):
    return ctx.game.neighbors(p) if p is not None else []


@builtin("hand", "query", [("p", T.PLAYER)], T.CARDS, "{p}的手牌", "p's hand cards.")
def _hand(ctx, p):
    return list(p.hand) if p is not None else []


@builtin("intel", "query", [("p", T.PLAYER)], T.CARDS, "{p}的情报区", "The intel in front of p (情报区).")
def _intel(ctx, p):
    return list(p.intel) if p is not None else []


@builtin("count", "query", [("xs", T.LIST)], T.INT, "{xs}的数量", "How many items a list has.")
def _count(ctx, xs):
    if xs is None:
        return 0
    if isinstance(xs, (list, tuple)):
        return len(xs)
    return 1


@builtin("hand_count", "query", [("p", T.PLAYER)], T.INT, "{p}的手牌数", "How many hand cards p has.")
def _hand_count(ctx, p):
    return len(p.hand) if p is not None else 0


@builtin("any_of", "query", [("xs", T.LIST)], T.BOOL, "{xs}存在", "True if the list is not empty.")
def _any_of(ctx, xs):
    return bool(xs)


@builtin("none_of", "query", [("xs", T.LIST)], T.BOOL, "没有{xs}", "True if the list is empty.")
def _none_of(ctx, xs):
    return not xs


@builtin("exists", "query", [("x", T.ANY)], T.BOOL, "{x}存在", "True unless x is none (a choice from nothing).")
def _exists(ctx, x):
    return x is not None


@builtin(
    "identity_color",
    "query",
    [("p", T.PLAYER)],
    T.COLOR,
    "{p}的身份颜色",
    "The color of p's identity: red 潜伏战线, blue 特工机关, black 神秘人 (or as rules.yaml says).",
)
def _identity_color(ctx, p):
    return p.identity.color if p is not None and p.identity is not None else None


def _visible_role(p):
    """p's role if it is face up (a face-down role shows no name and no gender), else None."""
    return p.role if p is not None and p.role_face_up else None


@builtin(
    "gender",
    "query",
    [("p", T.PLAYER)],
    T.TEXT,
    "{p}的性别",
    'The gender of p\'s role: "male" or "female"; none when the role is face down or p has none '
    "(a face-down role has no gender).",
)
def _gender(ctx, p):
    role = _visible_role(p)
    return role.gender if role is not None else None


@builtin(
    "role_name",
    "query",
    [("p", T.PLAYER)],
    T.TEXT,
    "{p}的角色名",
    "The name of p's role (every version of a role shares the name; title and id tell them apart); "
    "none while it is face down.",
)
def _role_name(ctx, p):
    role = _visible_role(p)
    return role.name if role is not None else None


@builtin(
    "role_face_up", "query", [("p", T.PLAYER)], T.BOOL, "{p}的角色牌面朝上", "True if p has a role and it is face up."
)
def _role_face_up(ctx, p):
    return _visible_role(p) is not None


@builtin(
    "hidden_role",
    "query",
    [("p", T.PLAYER)],
    T.BOOL,
    "{p}是隐藏角色",
    "True if p's role is a hidden role (隐藏角色). Everyone can tell: a face-down role is always hidden.",
)
def _hidden_role(ctx, p):
    return p is not None and p.role is not None and p.role.hidden


@builtin(
    "pure",
    "query",
    [("c", T.CARD), ("color", T.COLOR)],
    T.BOOL,
    "{c}是纯{color}",
    "True if the card has exactly this one color (纯色).",
)
def _pure(ctx, c, color):
    return c is not None and c.mask == color


@builtin("is_dual", "query", [("c", T.CARD)], T.BOOL, "{c}是双色", "True for a card with two colors.")
def _is_dual(ctx, c):
    return c is not None and c.mask not in (RED, BLUE, BLACK)


@builtin(
    "shares_color",
    "query",
    [("a", T.CARD), ("b", T.CARD)],
    T.BOOL,
    "{a}与{b}含有相同颜色",
    "True if the two cards have at least one color in common.",
)
def _shares_color(ctx, a, b):
    return a is not None and b is not None and bool(a.mask & b.mask)


@builtin(
    "makes_three",
    "query",
    [("p", T.PLAYER), ("c", T.CARD)],
    T.BOOL,
    "会让{p}收集三张或更多同色情报",
    "True if putting c into p's intel would make p hold 3 or more intel of one of c's colors.",
)
def _makes_three(ctx, p, c):
    if p is None or c is None:
        return False
    counts = p.counts
    m = c.mask
    return any(m & b and counts[b] + 1 >= 3 for b in (RED, BLUE, BLACK))


@builtin(
    "data",
    "query",
    [("c", T.CARD), ("key", T.ANY)],
    T.ANY,
    "{c}上{key}对应的值",
    "A per-copy value printed on this copy (deck.yaml `data:`), looked up by key (text or color).",
)
def _data(ctx, c, key):
    if c is None:
        return None
    return c.data.get(key)


@builtin(
    "top_cards",
    "query",
    [("n", T.INT, 1)],
    T.CARDS,
    "牌堆顶的{n}张牌",
    "The top n cards of the deck, without moving them.",
)
def _top_cards(ctx, n):
    return ctx.game.top_cards(n)


@builtin(
    "top_card",
    "query",
    [],
    T.CARD,
    "牌堆顶的一张牌",
    "The top card of the deck (none if deck and discard pile are empty), without moving it.",
)
def _top_card(ctx):
    top = ctx.game.top_cards(1)
    return top[0] if top else None


@builtin(
    "set_aside",
    "query",
    [],
    T.CARDS,
    "翻开的牌",
    "The cards this effect has turned up with take_top and not yet moved on.",
)
def _set_aside(ctx):
    return list(ctx.game.staging)


@builtin("alive_count", "query", [], T.INT, "存活角色数", "How many players are alive.")
def _alive_count(ctx):
    return sum(1 for p in ctx.game.players if p.alive)


@builtin("name_of", "query", [("c", T.CARD)], T.CARDNAME, "{c}的牌名", "The card name of c, to compare with 【...】.")
def _name_of(ctx, c):
    return CardName(c.type.id, c.type.name) if c is not None else None


@builtin("is_face_up", "query", [], T.BOOL, "待收情报正面朝上", "True if there is a pending intel and it is face up.")
def _is_face_up(ctx):
    return ctx.game.pending is not None and ctx.game.pending_face_up


@builtin(
    "pending_direction",
    "query",
    [],
    T.DIRECTION,
    "待收情报的传递方向",
    "The direction the intel of this turn travels in (left, right or up); none if no intel is in transit.",
)
def _pending_direction(ctx):
    t = ctx.game.transit
    return t.direction if t is not None else None


@builtin(
    "all_players",
    "query",
    [],
    T.PLAYERS,
    "所有角色",
    "Every player, dead or alive (not those out of the game by abstaining), counter-clockwise from the current player.",
)
def _all_players(ctx):
    g = ctx.game
    return [p for p in g.order_from(g.current) if not p.out]


@builtin(
    "has_identity",
    "query",
    [("p", T.PLAYER)],
    T.BOOL,
    "{p}有身份牌",
    "False once p's identity card was taken from him (没有身份牌的玩家).",
)
def _has_identity(ctx, p):
    return p is not None and p.identity is not None


@builtin(
    "usable",
    "query",
    [("c", T.CARD), ("by", T.PLAYER, None), ("as", T.CARDNAME, None)],
    T.BOOL,
    "{c}可由{by}现在使用",
    "True if `by` (default self) could use hand card c now, at this idle point: as `as` (default: what c "
    "must be used as — its own name, or a forced conversion's), with its timing, condition and a legal "
    "target; bans, forced conversions and 不能使用手牌 apply.",
)
def _usable(ctx, c, by, as_):
    return bool(_uses_for(ctx, c, by if by is not None else ctx.me, as_))


def _uses_for(ctx, c, user, as_):
    g = ctx.game
    if as_ is not None:
        ctype = g.content.card_types.get(as_.id)
    elif c is not None:  # a hand card as what it must be used as
        ctype = g.hand_card_type(c)
    else:  # a virtual use needs a name
        ctype = None
    return g.legal_uses(user, c, ctype)


@builtin(
    "mark",
    "query",
    [("p", T.PLAYER), ("key", T.TEXT)],
    T.ANY,
    "{p}本回合的标记{key}",
    "The value set_mark gave p under `key` this turn; none if not set this turn.",
)
def _mark(ctx, p, key):
    if p is None:
        return None
    turn, value = p.marks.get(key, (None, None))
    return value if turn == ctx.game.turn_no else None


# ---------------------------------------------------------------- actions


@builtin("draw", "action", [("p", T.PLAYER), ("n", T.INT, 1)], T.BOOL, "{p}摸{n}张牌", "p draws n cards.")
def _draw(ctx, p, n):
    if not _alive_ok(p) or n <= 0:
        return n <= 0
    return ctx.game.draw(p, n)


@builtin(
    "discard",
    "action",
    [("xs", T.CARDS)],
    T.BOOL,
    "弃置{xs}",
    "弃置: the cards go face up to the discard pile, from wherever they are.",
)
def _discard(ctx, xs):
    cards = as_cards(xs)
    ctx.game.discard_cards(cards)
    return bool(cards)


@builtin(
    "give",
    "action",
    [("xs", T.CARDS), ("to", T.PLAYER)],
    T.BOOL,
    "将{xs}交给{to}",
    "交给: the cards go face down into `to`'s hand; only giver and receiver see them.",
)
def _give(ctx, xs, to):
    cards = as_cards(xs)
    if not cards or to is None:
        return False
    g = ctx.game
    frm = cards[0].owner
    taken = _hand_sources(cards, to)
    for c in cards:
        g.move(c, HAND, to)
    _emit_taken(g, taken, to)
    g.emit("give", seat=frm.seat if frm else None, to_seat=to.seat, n=len(cards), cards=[c.uid for c in cards])
    return True


@builtin(
    "put_in_hand",
    "action",
    [("xs", T.CARDS), ("p", T.PLAYER)],
    T.BOOL,
    "将{xs}加入{p}的手牌",
    "加入手牌: the cards go into p's hand; cards from a face-up place stay known to all.",
)
def _put_in_hand(ctx, xs, p):
    cards = as_cards(xs)
    if not cards or p is None:
        return False
    g = ctx.game
    taken = _hand_sources(cards, p)
    for c in cards:
        g.move(c, HAND, p)
    g.emit("to_hand", seat=p.seat, cards=[c.uid for c in cards])
    _emit_taken(g, taken, p)
    return True


def _hand_sources(cards, to) -> list:
    """The other players whose hand cards are among `cards` (before they move), in order of first card."""
    out = []
    for c in cards:
        if c.zone == HAND and c.owner is not to and c.owner not in out:
            out.append(c.owner)
    return out


def _emit_taken(g, sources, to):
    for frm in sources:  # 获得你的手牌: once per player whose hand was taken from
        g.emit("hand_taken", seat=to.seat, target=frm.seat)


@builtin(
    "collect",
    "action",
    [("xs", T.CARDS), ("p", T.PLAYER)],
    T.BOOL,
    "将{xs}置入{p}的情报区",
    "置入情报区: face up into p's intel. This is collecting, not receiving (接收).",
)
def _collect(ctx, xs, p):
    cards = as_cards(xs)
    if not cards or not _alive_ok(p):
        return False
    g = ctx.game
    moved = [c for c in cards if not (c.zone == INTEL and c.owner is p)]  # from one's own area to itself: no move
    for c in cards:
        g.move(c, INTEL, p)
    g.emit("collect", seat=p.seat, cards=[c.uid for c in cards])
    if moved and g.by_skill():
        for c in moved:
            g.emit("skill_collect", seat=p.seat, card=c.uid)
    return True


@builtin(
    "replace_intel",
    "action",
    [("old", T.CARD), ("new", T.CARD), ("old_to", T.PLAYER, None)],
    T.BOOL,
    "用{new}代替{old}",
    "new takes old's place in the intel area old is in (代替 / 互换); old goes to old_to's hand, or to the "
    "discard pile. Later triggers of an event about old (e.g. other 接收后 skills) see new instead.",
)
def _replace_intel(ctx, old, new, old_to):
    g = ctx.game
    if old is None or new is None or old.zone != INTEL:
        return False
    owner = old.owner
    if old_to is not None:
        g.move(old, HAND, old_to)
        g.emit("to_hand", seat=old_to.seat, cards=[old.uid])
    else:
        g.discard_cards([old])
    moved = not (new.zone == INTEL and new.owner is owner)
    g.move(new, INTEL, owner)
    g.replaced[old.uid] = new
    g.emit("intel_replaced", seat=owner.seat, old=old.uid, new=new.uid)
    g.emit("collect", seat=owner.seat, cards=[new.uid])
    if moved and g.by_skill():
        g.emit("skill_collect", seat=owner.seat, card=new.uid)
    return True


@builtin("remove", "action", [("xs", T.CARDS)], T.BOOL, "将{xs}移出游戏", "移出游戏: the cards leave the game.")
def _remove(ctx, xs):
    cards = as_cards(xs)
    for c in cards:
        ctx.game.move(c, REMOVED)
    return bool(cards)


@builtin(
    "reveal",
    "action",
    [("xs", T.CARDS), ("to", T.PLAYERS, None)],
    T.BOOL,
    "展示{xs}",
    "展示 (to everyone) or 查看 (to: the players who look). The cards stay where they are.",
)
def _reveal(ctx, xs, to):
    cards = as_cards(xs)
    seats = None if to is None else ([to] if not isinstance(to, list) else to)
    ctx.game.reveal(cards, seats)
    return True


@builtin(
    "move_pending",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "将待收情报移至{p}面前",
    "The pending intel (待收情报) moves in front of p.",
    contexts=("contest",),
)
def _move_pending(ctx, p):
    g = ctx.game
    if g.pending is None or p is None:
        return False
    # moving it to where it already is changes nothing (e.g. taking an intel that is already in front of you)
    if g.holder is not p:
        g.holder = p
        g.emit("pending_moved", seat=p.seat)
    return True


@builtin(
    "swap_pending",
    "action",
    [("c", T.CARD)],
    T.BOOL,
    "用{c}面朝下代替待收情报",
    "c becomes the pending intel, face down; the old one goes face up to the discard pile. The sender stays.",
    contexts=("contest",),
)
def _swap_pending(ctx, c):
    g = ctx.game
    old = g.pending
    if old is None or c is None:
        return False
    g.move(old, DISCARD)
    g.move(c, PENDING)
    g.pending_face_up = False
    g.emit("pending_swapped", old=old.uid, new=c.uid)
    return True


@builtin(
    "flip_pending",
    "action",
    [],
    T.BOOL,
    "翻开待收情报",
    "The pending intel is turned face up.",
    contexts=("send_idle", "contest"),
)
def _flip_pending(ctx):
    g = ctx.game
    if g.pending is None or g.pending_face_up:
        return False
    g.pending_face_up = True
    g.reveal([g.pending])
    return True


@builtin(
    "send",
    "action",
    [("c", T.CARD), ("by", T.PLAYER, None), ("face_up", T.BOOL, False), ("lock", T.PLAYER, None)],
    T.BOOL,
    "由{by}将{c}作为情报传出",
    "c is sent as this turn's intel by `by` (default: self), who picks "
    "the target of an ↑ card and the lock; `by` becomes the sender (情报传出者). `lock:` given, that "
    "player is locked and nobody is asked (any card, lockable or not).",
    contexts=("send_start",),
)
def _send(ctx, c, by, face_up, lock):
    sender = by if by is not None else ctx.me
    if c is None or not sender.alive:
        return False
    if lock is not None:
        return ctx.game.send_intel(sender, c, face_up, lock=lock)
    return ctx.game.send_intel(sender, c, face_up)


@builtin(
    "take_top",
    "action",
    [("n", T.INT)],
    T.CARDS,
    "翻开牌堆顶的{n}张牌",
    "翻开: the top n cards are turned face up and set aside for this effect; effects must move them on "
    "(leftovers go to the discard pile when the effect ends).",
)
def _take_top(ctx, n):
    g = ctx.game
    out = []
    for _ in range(n):
        if not g.deck and not g._refill_deck():
            break
        c = g.deck[-1]
        g.move(c, STAGING)
        out.append(c)
    g.reveal(out)
    if len(out) < n:
        ctx.incomplete = True
    return out


@builtin(
    "flip_role",
    "action",
    [("p", T.PLAYER), ("face_up", T.BOOL)],
    T.BOOL,
    "将{p}的角色牌翻面（面朝上：{face_up}）",
    "Turn p's role face up (翻开) or face down (翻至面朝下). Not fully resolved if it already was.",
)
def _flip_role(ctx, p, face_up):
    if p is None or p.role is None or p.role_face_up == bool(face_up):
        return False
    p.role_face_up = bool(face_up)
    ctx.game.emit("role_flipped", seat=p.seat, role=p.role.id, face_up=p.role_face_up)
    return True


@builtin(
    "add_status",
    "action",
    [("xs", T.PLAYERS), ("status", T.STATUS), ("turns", T.INT, 0), ("secret", T.BOOL, False)],
    T.BOOL,
    "令{xs}{status}",
    "Put a status on each player until the end of this turn (turns: that many turns more). "
    "secret: true tells only each player himself (a status that depends on hidden information, such as his "
    "identity, must not be announced). Statuses: " + ", ".join(STATUSES),
)
def _add_status(ctx, xs, status, turns, secret):
    players = as_list(xs)
    for p in players:
        ctx.game.add_status(p, status, turns, secret)
    return bool(players)


@builtin(
    "set_mark",
    "action",
    [("p", T.PLAYER), ("key", T.TEXT), ("value", T.ANY, True)],
    T.BOOL,
    "令{p}本回合记下{key}",
    "Remember a value on p under `key` until the end of this turn (a declared "
    "name, 本回合首次, ...); read it with mark(p, key).",
)
def _set_mark(ctx, p, key, value):
    if p is None:
        return False
    p.marks[key] = (ctx.game.turn_no, value)
    ctx.game.changes += 1  # a mark is state a victory condition may read (see Game.changes)
    return True


@builtin(
    "put_on_deck",
    "action",
    [("xs", T.CARDS), ("bottom", T.BOOL, False)],
    T.BOOL,
    "将{xs}放回牌堆顶",
    "放回牌堆顶 (bottom: 牌堆底): face down onto the deck; the first card of the list ends on top "
    "(or, at the bottom, lowest).",
)
def _put_on_deck(ctx, xs, bottom):
    g = ctx.game
    cards = as_cards(xs)
    for c in reversed(cards) if not bottom else cards:
        g.move(c, DECK, top=not bottom)
    if cards:
        g.emit("to_deck", n=len(cards), bottom=bool(bottom))
    return bool(cards)


@builtin(
    "use_card",
    "action",
    [("c", T.CARD), ("as", T.CARDNAME, None), ("by", T.PLAYER, None)],
    T.BOOL,
    "令{by}使用{c}（当作{as}）",
    "`by` (default self) uses hand card c now, at this idle point, as `as` (default: what c must be used "
    "as). c none and `as` given: a virtual use (视为使用【as】) — the card's target rule, effect and events "
    "without a physical card, free of bans and conversions. Whoever runs this effect makes the user's "
    "choices (one player making another use a card). Not fully resolved if the use is not legal now "
    "(check with usable).",
)
def _use_card(ctx, c, as_, by):
    g = ctx.game
    user = by if by is not None else ctx.me
    uses = _uses_for(ctx, c, user, as_)
    if not uses:
        return False
    use = uses[0]
    if len(uses) > 1:
        use = g.ask(ctx.chooser, D.CHOOSE, uses, "如何使用", use.card_type.id)
    g.use_card(user, c, use, chooser=ctx.chooser if ctx.chooser is not user else None)
    return True


@builtin(
    "convert",
    "action",
    [("from", T.CARDNAME), ("to", T.CARDNAME)],
    T.BOOL,
    "本回合所有{from}只能当作{to}使用",
    "Until the end of the turn every player's hand copies of `from` can be used only as `to` (a forced "
    "conversion: A只能当作B使用). Virtual uses are not affected, and a converted card is not converted "
    "again.",
)
def _convert(ctx, frm, to):
    g = ctx.game
    if frm is None or to is None or frm == to:
        return False
    g.conversions[frm.id] = g.content.card_types[to.id]
    g.emit("convert", source=frm.id, into=to.id)
    return True


@builtin(
    "ban_cards",
    "action",
    [("names", T.CARDNAMES)],
    T.BOOL,
    "本回合所有角色不能使用{names}",
    "Until the end of the turn nobody may use hand cards of these names (as what they are used as).",
)
def _ban_cards(ctx, names):
    g = ctx.game
    names = [n for n in as_list(names) if n is not None]
    for n in names:
        g.bans.add(n.id)
    if names:
        g.emit("ban", cards=[n.id for n in names])
    return bool(names)


@builtin(
    "nullify",
    "action",
    [],
    T.BOOL,
    "令该牌无效",
    "The card being used (the innermost one) becomes invalid (无效): its effect does not happen, but it "
    "still counts as used and resolved, and goes where it would have gone. Use it in card_used or "
    "card_resolving triggers.",
)
def _nullify(ctx):
    frame = ctx.game.current_use()
    if frame is None or frame.nullified:
        return False
    frame.nullified = True
    return True


@builtin(
    "claim_used_card",
    "action",
    [("p", T.PLAYER, None)],
    T.BOOL,
    "在该牌结算后将其加入{p}的手牌",
    "When the card being used (the innermost one) has resolved, it goes into p's hand (default self) "
    "instead of the discard pile or out of the game. Nothing happens for a virtual use.",
)
def _claim_used_card(ctx, p):
    frame = ctx.game.current_use()
    if frame is None or frame.card is None:
        return False
    frame.claimed_by = p if p is not None else ctx.me
    return True


@builtin(
    "replace_role",
    "action",
    [("p", T.PLAYER, None), ("look", T.INT, 3)],
    T.BOOL,
    "{p}的角色牌移出游戏，从角色牌堆顶抽取{look}张牌选择一张作为新角色牌",
    "p's role card leaves the game; p secretly looks at the top `look` roles of the role pile and keeps "
    "one as his new role (a hidden role face down); the rest go to the bottom of the pile.",
)
def _replace_role(ctx, p, look):
    p = p if p is not None else ctx.me
    return ctx.game.replace_role(p, look)


@builtin(
    "set_direction",
    "action",
    [("d", T.DIRECTION)],
    T.BOOL,
    "将情报的箭头视作{d}",
    "The intel being sent travels in direction d instead of its arrow (an ↑ target is then asked).",
    contexts=("intel_sending",),
)
def _set_direction(ctx, d):
    if d not in (LEFT, RIGHT, UP):
        return False
    ctx.game.send_direction = d
    return True


@builtin(
    "add_draw",
    "action",
    [("n", T.INT, 1)],
    T.BOOL,
    "摸牌阶段多摸{n}张牌",
    "This draw phase draws n more cards (摸牌阶段多摸).",
    contexts=("draw_phase",),
)
def _add_draw(ctx, n):
    ctx.game.extra_draw += n
    return True


@builtin(
    "look_identity",
    "action",
    [("p", T.PLAYER), ("by", T.PLAYER, None)],
    T.BOOL,
    "{by}查看{p}的身份牌",
    "`by` (default self) looks at p's identity card (and secret task).",
)
def _look_identity(ctx, p, by):
    who = by if by is not None else ctx.me
    if p is None or p.identity is None:
        return False
    who.known_identities[p.seat] = p.identity
    ctx.game.emit("identity_seen", seat=who.seat, of=p.seat, to=[who.seat])
    return True


@builtin(
    "take_identity",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "获得{p}的身份牌，并将你原本的身份牌面朝下移出游戏",
    "Self takes p's identity card (with its secret task, if any); self's own identity card leaves the game "
    "face down, and p has no identity any more. Everyone hears that it happened, not what the cards are.",
)
def _take_identity(ctx, p):
    return ctx.game.take_identity(ctx.me, p)


@builtin(
    "end_contest",
    "action",
    [],
    T.BOOL,
    "结束争夺阶段",
    "强制结束争夺阶段: nobody else acts; the pending intel is received where it is.",
    contexts=("contest",),
)
def _end_contest(ctx):
    g = ctx.game
    if g.pending is None:
        return False
    g.contest_over = True
    return True


@builtin(
    "set_pending",
    "action",
    [("c", T.CARD), ("face_up", T.BOOL, False)],
    T.BOOL,
    "将{c}作为待收情报",
    "c becomes the pending intel in front of the same player (the sender stays). If there still is a "
    "pending intel, it goes to the discard pile face up first; move it elsewhere before to keep it.",
    contexts=("send_idle", "contest"),
)
def _set_pending(ctx, c, face_up):
    g = ctx.game
    if c is None:
        return False
    old = g.pending
    if old is not None:
        g.move(old, DISCARD)
    g.move(c, PENDING)
    g.pending_face_up = bool(face_up)
    g.emit("pending_set", new=c.uid, face_up=bool(face_up))
    if face_up:
        g.reveal([c])
    return True


# ---------------------------------------------------------------- victory skills (stages 2 and 4)

_VICTORY_UNITS = ("declare", "co_win")


@builtin(
    "winners",
    "query",
    [],
    T.PLAYERS,
    "胜利的角色",
    "The players winning so far in this victory check (declarers and those winning with them).",
    contexts=_VICTORY_UNITS,
)
def _winners(ctx):
    return list(ctx.game.check_winners or [])


@builtin(
    "declarers",
    "query",
    [],
    T.PLAYERS,
    "宣告胜利的角色",
    "The players who declared victory in this check (not those who only win with them).",
    contexts=_VICTORY_UNITS,
)
def _declarers(ctx):
    return list(ctx.game.check_declarers or [])


@builtin(
    "win",
    "action",
    [("p", T.PLAYER), ("declared", T.BOOL, False)],
    T.BOOL,
    "{p}获得胜利",
    "p wins too (joins the winners of this check). declared: true counts p as declaring victory (宣胜), "
    "which later stages (usurping, co-victory skills) see in declarers().",
    contexts=_VICTORY_UNITS,
)
def _win(ctx, p, declared):
    g = ctx.game
    w = g.check_winners
    if p is None or p.out:
        return False
    if declared and p not in g.check_declarers:
        g.check_declarers.append(p)
    if p in w:
        return bool(declared)
    w.append(p)
    return True


@builtin(
    "block_win",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "{p}无法胜利",
    "p does not win after all.",
    contexts=_VICTORY_UNITS,
)
def _block_win(ctx, p):
    w = ctx.game.check_winners
    if p is None or p not in w:
        return False
    w.remove(p)
    return True


@builtin(
    "same_camp",
    "query",
    [("a", T.PLAYER), ("b", T.PLAYER)],
    T.BOOL,
    "{a}与{b}同阵营",
    "True if both have the same camp identity (神秘人 have no camp). Hidden information: use it only "
    "in effects the rules resolve without a player choosing on it.",
)
def _same_camp(ctx, a, b):
    return (
        a is not None
        and b is not None
        and a.identity is not None
        and b.identity is not None
        and a.identity.camp is not None
        and a.identity.camp == b.identity.camp
    )


# ---------------------------------------------------------------- choices


def _elem_type(argtypes):
    return T.element_of(argtypes.get("from", T.ANY))


def _list_type(argtypes):
    return T.list_of(argtypes.get("from", T.ANY))


def _ask(ctx, by, options, prompt, optional, kind=D.CHOOSE):
    g = ctx.game
    chooser = by if by is not None else ctx.chooser
    if not options:
        ctx.incomplete = True
        return None
    if optional:
        options = [*options, None]
    choice = g.ask(chooser, kind, options, prompt, source_of(ctx, chooser))
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


@builtin(
    "choose",
    "choice",
    [
        ("from", T.LIST),
        ("by", T.PLAYER, None),
        ("prompt", T.TEXT, ""),
        ("optional", T.BOOL, False),
        ("blind", T.BOOL, False),
    ],
    _elem_type,
    "{by}从{from}中选择一个",
    "`by` (default self) picks one item of the list; none if the list is empty "
    "(or if optional and they decline). blind: true picks without seeing (抽取, 随机): the options are "
    "positions in a shuffled order.",
)
def _choose(ctx, options, by, prompt, optional, blind):
    items = as_list(options)
    if not blind:
        return _ask(ctx, by, items, prompt, optional)
    items = list(items)
    ctx.game.rng.shuffle(items)
    pick = _ask(ctx, by, [BlindPick(i) for i in range(len(items))], prompt, optional)
    return items[pick.index] if pick is not None else None


@builtin(
    "declare",
    "choice",
    [("from", T.LIST), ("by", T.PLAYER, None), ("prompt", T.TEXT, "")],
    _elem_type,
    "{by}宣言{from}中的一个",
    "宣言: like choose, but everyone hears the answer.",
)
def _declare(ctx, options, by, prompt):
    value = _ask(ctx, by, as_list(options), prompt, False)
    who = by if by is not None else ctx.chooser
    ctx.game.emit("declare", seat=who.seat, value=D.option_json(value))
    return value


@builtin(
    "choose_many",
    "choice",
    [("from", T.LIST), ("by", T.PLAYER, None), ("min", T.INT, 0), ("max", T.INT, 99), ("prompt", T.TEXT, "")],
    _list_type,
    "{by}从{from}中选择{min}至{max}个",
    "`by` picks between min and max items, one at a time.",
)
def _choose_many(ctx, options, by, lo, hi, prompt):
    g = ctx.game
    chooser = by if by is not None else ctx.chooser
    left = list(as_list(options))
    picked: list[Any] = []
    while left and len(picked) < hi:
        opts = left + ([None] if len(picked) >= lo else [])
        choice = g.ask(chooser, D.CHOOSE, opts, prompt, source_of(ctx, chooser))
        if choice is None:
            break
        picked.append(choice)
        left.remove(choice)
    if len(picked) < lo:
        ctx.incomplete = True
    return picked


def as_list(x):
    if x is None:
        return []
    if isinstance(x, list):
        return x
    return [x]


# Names every unit can read, and the unit kinds that provide the others.
CONSTANTS = {
    "red": (T.COLOR, RED),
    "blue": (T.COLOR, BLUE),
    "black": (T.COLOR, BLACK),
    "left": (T.DIRECTION, LEFT),
    "right": (T.DIRECTION, RIGHT),
    "up": (T.DIRECTION, UP),
    "true": (T.BOOL, True),
    "false": (T.BOOL, False),
    "none": (T.NONE, None),
}
