"""The zones' invariant, checked by tests and by batches that ask for it (``Game.check_invariants``; a rule set's
``CHECK_EACH_TURN`` at every turn start): every card in exactly one zone, and the zones, the cards' own idea of
where they are, the players' intel counters and who is told to follow a card (among who does) agreeing. Apart
from zones.py, which moves the cards: a check reads, it never plays."""

from __future__ import annotations

from typing import Any

from .state import (
    BLACK,
    BLUE,
    DECK,
    DECLARED_ZONE,
    DISCARD,
    HAND,
    INTEL,
    PENDING,
    PROCESSING,
    RED,
    REMOVED,
    STAGING,
    ZONE_NAMES,
    Card,
    Player,
)


def check_zones(zones: Any) -> None:
    """Raise AssertionError, saying what is wrong, unless every card of `zones` (the game's Zones; Any here: zones.py
    imports this module) is in exactly one zone and the zones agree with the cards."""
    seen: dict[int, int] = {}
    places: list[tuple[int, Player | None, list[Card]]] = [
        (DECK, None, zones.deck),
        (DISCARD, None, zones.discard_pile),
        (REMOVED, None, zones.removed),
        (PROCESSING, None, zones.processing),
        (STAGING, None, zones.staging),
    ]
    for p in zones.players:
        places.append((HAND, p, p.hand))
        places.append((INTEL, p, p.intel))
    if zones.pending is not None:
        places.append((PENDING, None, [zones.pending]))
    for (zone, seat), pile in zones.piles.items():
        places.append((zone, zones.players[seat] if seat >= 0 else None, pile))

    def name(zone: int) -> str:
        return ZONE_NAMES[zone] if zone < DECLARED_ZONE else zones.zone_decls[zone - DECLARED_ZONE].name

    for zone, owner, cards in places:
        for c in cards:
            if c.uid in seen:
                raise AssertionError(f"{c} is in {name(zone)} and {name(seen[c.uid])}")
            seen[c.uid] = zone
            if c.zone != zone or c.owner is not owner:
                raise AssertionError(f"{c} thinks it is in {name(c.zone)}, found in {name(zone)}")
            if c.told & ~c.knowers:  # (what everyone was told of who follows it is part of who does)
                raise AssertionError(f"{c}: seats told to follow it ({c.told:b}) do not ({c.knowers:b})")
    if len(seen) != len(zones.cards):
        raise AssertionError(f"{len(zones.cards) - len(seen)} cards are in no zone")
    for p in zones.players:
        for bit in (RED, BLUE, BLACK):
            if p.counts[bit] != sum(1 for c in p.intel if c.mask & bit):
                raise AssertionError(f"P{p.seat}'s {bit} counter is wrong")
