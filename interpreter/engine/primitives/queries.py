"""The query primitives: what they read of players, cards, marks, data slots, the deck and the pending intel.
A query changes nothing (but shuffled, which draws an order from the game's generator, as its shuffles do).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.builtins import implements
from ...language.runtime import CardName, Ctx
from ..state import BLACK, BLUE, RED, shuffle
from .common import (
    as_list,
    is_card,
    is_cardname,
    is_color,
    is_number,
    is_player,
    is_text,
    read_mark,
    typed,
    uses_for,
    zones_of,
)

if TYPE_CHECKING:
    from ..seats import Seats
    from ..zones import Zones


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


@implements("mentions")
def _mentions(ctx: Ctx, p, name):
    role = _visible_role(p)
    if role is None or name is None:
        return False
    written = f"【{name.name}】"
    return any(written in sk.text for sk in role.skills if sk.id not in p.lost_skills)


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


@implements("data_number")
def _data_number(ctx: Ctx, c, key):
    return typed(c.data.get(key), is_number, 0) if c is not None else 0


@implements("data_color")
def _data_color(ctx: Ctx, c, key):
    return typed(c.data.get(key), is_color) if c is not None else None


@implements("data_text")
def _data_text(ctx: Ctx, c, key):
    return typed(c.data.get(key), is_text) if c is not None else None


@implements("shuffled")
def _shuffled(ctx: Ctx, xs) -> list:
    """The items in an order drawn from the game's generator (a query that draws: effects only, E317); cards of
    two or more so ordered are followed by no seat once they go face down into the deck or a hidden zone."""
    items = list(as_list(xs))
    if len(items) > 1:
        g = ctx.game
        shuffle(g.rng, items)
        zones: Zones = g.zones
        zones.ordered(items)
    return items


@implements("top_cards")
def _top_cards(ctx: Ctx, n) -> list:
    zones: Zones = ctx.game.zones
    return zones.top_cards(n)


@implements("top_card")
def _top_card(ctx: Ctx):
    zones: Zones = ctx.game.zones
    top = zones.top_cards(1)
    return top[0] if top else None


@implements("discard_top")
def _discard_top(ctx: Ctx, n) -> list:
    zones: Zones = ctx.game.zones
    pile = zones.discard_pile
    return pile[-1 : -n - 1 : -1] if n > 0 else []


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
    zones = zones_of(ctx)
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
def _usable(ctx: Ctx, c, by, as_, at):
    return bool(uses_for(ctx, c, by if by is not None else ctx.me, as_, at))


@implements("mark")
def _mark(ctx: Ctx, p, key):
    return read_mark(ctx, p, key) if p is not None and key is not None else None


# the typed reads of a mark: each a function of its own (a compiled closure has no signature to check)
@implements("mark_number")
def _mark_number(ctx: Ctx, p, key):
    return typed(read_mark(ctx, p, key), is_number, 0) if p is not None and key is not None else 0


@implements("mark_color")
def _mark_color(ctx: Ctx, p, key):
    return typed(read_mark(ctx, p, key), is_color, None) if p is not None and key is not None else None


@implements("mark_player")
def _mark_player(ctx: Ctx, p, key):
    return typed(read_mark(ctx, p, key), is_player, None) if p is not None and key is not None else None


@implements("mark_card")
def _mark_card(ctx: Ctx, p, key):
    return typed(read_mark(ctx, p, key), is_card, None) if p is not None and key is not None else None


@implements("mark_cardname")
def _mark_cardname(ctx: Ctx, p, key):
    return typed(read_mark(ctx, p, key), is_cardname, None) if p is not None and key is not None else None


@implements("mark_text")
def _mark_text(ctx: Ctx, p, key):
    return typed(read_mark(ctx, p, key), is_text, None) if p is not None and key is not None else None


@implements("has_mark")
def _has_mark(ctx: Ctx, p, key):
    if p is None or key is None:
        return False
    v = read_mark(ctx, p, key)
    return v is not None and v is not False
