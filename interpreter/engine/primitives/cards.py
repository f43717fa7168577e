"""The actions that move cards between the deck, hands, intel areas, the discard pile and the removed pile, and
show them (展示/查看).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.builtins import EVERYONE, implements
from ...language.runtime import Ctx
from ..core import emit_event, unheard
from ..state import DECK, HAND, INTEL, REMOVED
from .common import alive_ok, as_cards, emit_taken, hand_sources, stack_of, zones_of

if TYPE_CHECKING:
    from ..zones import Zones


@implements("draw")
def _draw(ctx: Ctx, p, n):
    if not alive_ok(p) or n <= 0:
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
    taken = hand_sources(cards, to)
    for c in cards:
        zones.move(c, HAND, to)
    emit_taken(g, taken, to)
    emit_event(g, "give", seat=frm.seat if frm else None, to_seat=to.seat, n=len(cards), cards=[c.uid for c in cards])
    return True


@implements("put_in_hand")
def _put_in_hand(ctx: Ctx, xs, p):
    zones: Zones = ctx.game.zones
    cards = as_cards(xs)
    if not cards or p is None:
        return False
    g = ctx.game
    taken = hand_sources(cards, p)
    for c in cards:
        zones.move(c, HAND, p)
    if not unheard(g, "to_hand"):
        emit_event(g, "to_hand", seat=p.seat, cards=[c.uid for c in cards])
    emit_taken(g, taken, p)
    return True


@implements("collect")
def _collect(ctx: Ctx, xs, p):
    zones: Zones = ctx.game.zones
    cards = as_cards(xs)
    if not cards or not alive_ok(p):
        return False
    g = ctx.game
    moved = [c for c in cards if not (c.zone == INTEL and c.owner is p)]  # from one's own area to itself: no move
    for c in cards:
        zones.move(c, INTEL, p)
    if not unheard(g, "collect"):
        emit_event(g, "collect", seat=p.seat, cards=[c.uid for c in cards])
    if moved and stack_of(ctx).by_skill():
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
        zones_of(ctx).move(old, HAND, old_to)
        if not unheard(g, "to_hand"):
            emit_event(g, "to_hand", seat=old_to.seat, cards=[old.uid])
    else:
        zones_of(ctx).discard_cards([old])
    moved = not (new.zone == INTEL and new.owner is owner)
    zones_of(ctx).move(new, INTEL, owner)
    zones_of(ctx).note_replaced(old, new)
    emit_event(g, "intel_replaced", seat=owner.seat, old=old.uid, new=new.uid)
    if not unheard(g, "collect"):
        emit_event(g, "collect", seat=owner.seat, cards=[new.uid])
    if moved and stack_of(ctx).by_skill():
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


@implements("take_top")
def _take_top(ctx: Ctx, n) -> list:
    zones: Zones = ctx.game.zones
    out = zones.take_top(n)
    if len(out) < n:
        ctx.incomplete = True
    return out


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
