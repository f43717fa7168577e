"""The primitives of the zones the rules declare (`zones:`, model/declared.py): put cards in one, read one.
The compiler has checked each zone's name (E311).
"""

from __future__ import annotations

from ...language.builtins import implements
from ...language.runtime import Ctx
from ..state import DECLARED_ZONE
from .common import as_cards, declared_zones_of, emit_taken, hand_sources


@implements("put_in_zone")
def _put_in_zone(ctx: Ctx, xs, zone, p, bottom):
    declared = declared_zones_of(ctx)
    number = declared.zone_numbers.get(zone)  # (the compiler checked the name: E311)
    cards = as_cards(xs)
    if not cards or number is None or (p is None and declared.zone_decls[number - DECLARED_ZONE].per == "player"):
        return False
    g = ctx.game
    taken = hand_sources(cards, p)
    declared.put_in_zone(cards, number, p, bool(bottom))
    if p is not None:
        emit_taken(g, taken, p)
    return True


@implements("zone_cards")
def _zone_cards(ctx: Ctx, zone, p) -> list:
    declared = declared_zones_of(ctx)
    number = declared.zone_numbers.get(zone)
    return declared.zone_cards(number, p) if number is not None else []


@implements("in_zone")
def _in_zone(ctx: Ctx, c, zone, p):
    number = declared_zones_of(ctx).zone_numbers.get(zone)
    return c is not None and c.zone == number and (p is None or c.owner is p)


@implements("zone_top")
def _zone_top(ctx: Ctx, zone, p):
    declared = declared_zones_of(ctx)
    number = declared.zone_numbers.get(zone)
    cards = declared.zone_cards(number, p) if number is not None else []
    return cards[0] if cards else None
