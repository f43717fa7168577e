"""The helpers the primitives share: the engine components a primitive works with (typed, so a compiled call
of their operations is a direct call), the list coercions, the typed reads of a mark or a data slot, and the
bookkeeping of cards taken from another's hand and of a card used from a hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ...language.runtime import CardName, Ctx
from ..core import emit_event
from ..state import DECLARED_ZONE, HAND, Card, Color, Player

if TYPE_CHECKING:
    from ..card_use import CardUse
    from ..core import GameCore
    from ..declared_zones import DeclaredZones
    from ..flow import TurnFlow
    from ..seats import Seats
    from ..skills import Skills
    from ..stack import EffectStack
    from ..victory import Victory
    from ..zones import Zones


# The components a primitive works with, typed: compiled, a call of their operations is a direct call (through
# `ctx.game.<operation>`, Game's bound method, it goes through Python's attribute lookup and calling convention)
def core_of(ctx: Ctx) -> GameCore:
    return ctx.game  # (a Game: the language types it Any)


def zones_of(ctx: Ctx) -> Zones:
    return cast("Zones", core_of(ctx).zones)  # (GameCore declares it by its move count: no import of zones.py)


def declared_zones_of(ctx: Ctx) -> DeclaredZones:
    return ctx.game.declared_zones


def seats_of(ctx: Ctx) -> Seats:
    return ctx.game.seats


def stack_of(ctx: Ctx) -> EffectStack:
    return ctx.game.stack


def skills_of(ctx: Ctx) -> Skills:
    return ctx.game.skills


def victory_of(ctx: Ctx) -> Victory:
    return ctx.game.victory


def card_use_of(ctx: Ctx) -> CardUse:
    return ctx.game.card_use


def flow_of(ctx: Ctx) -> TurnFlow:
    return ctx.game.flow


def read_mark(ctx: Ctx, p: Any, key: Any) -> Any:
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


def alive_ok(p) -> bool:
    return p is not None and p.alive


# The typed reads of a mark or a data slot: what each gives back, and what it yields for anything else
# (not set, none, or a value of another kind), so that a value has the type the checker gave it.
def is_number(v) -> bool:
    return type(v) is int  # not a bool, not a Color


def is_text(v) -> bool:
    return type(v) is str


def is_color(v) -> bool:
    return isinstance(v, Color)


def is_player(v) -> bool:
    return isinstance(v, Player)


def is_card(v) -> bool:
    return isinstance(v, Card)


def is_cardname(v) -> bool:
    return isinstance(v, CardName)


def typed(v, ok, absent=None):
    return v if ok(v) else absent


def hand_sources(cards, to) -> list:
    """The other players whose hand cards are among `cards` (before they move), in order of first card."""
    out = []
    for c in cards:
        if c.zone == HAND and c.owner is not to and c.owner not in out:
            out.append(c.owner)
    return out


def emit_taken(g, sources, to):
    for frm in sources:  # 获得你的手牌: once per player whose hand was taken from
        emit_event(g, "hand_taken", seat=to.seat, target=frm.seat)


def uses_for(ctx: Ctx, c, user, as_, at=None):
    g = ctx.game
    if as_ is not None:
        ctype = g.content.card_types.get(as_.id)
    elif c is not None and c.zone >= DECLARED_ZONE:  # a card in a declared zone: not a hand card, as itself
        ctype = c.type
    elif c is not None:  # a hand card as what it must be used as
        ctype = card_use_of(ctx).hand_card_type(c)
    else:  # a virtual use needs a name
        ctype = None
    return card_use_of(ctx).legal_uses(user, c, ctype, at)
