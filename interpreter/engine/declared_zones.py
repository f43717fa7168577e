"""The zones the rules declare (`zones:`, model/declared.py: 仁区, a private pile, 蓄谋区, 额外牌堆 …): the rules'
operations on them.

:class:`DeclaredZones` finds a declared zone by its name, lists its cards in the order they come out, puts cards
into it (on top or under the bottom, past its capacity to its overflow), fills it with its `start:` cards at setup,
empties a player's at his death and shows those declared `at_end: reveal` when the game ends. Every one of these is
made of :class:`~interpreter.engine.zones.Zones`' operations: the cards of a declared zone are where Zones keeps
them (``Zones.piles``, changed only by ``Zones.move``, which also keeps who sees them by the zone's `look`), with
each copy's pool and home (``Zones.pools``, ``Zones.homes``), so that where every card is and who may see it stay
with one owner; this module holds what the rules do with those zones.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .core import emit_event, unheard
from .deal import selected
from .errors import EngineError
from .state import DECK, DECLARED_ZONE, REMOVED, Card, Player

if TYPE_CHECKING:
    from ..model.declared import ZoneDecl
    from .core import GameCore
    from .zones import Zones


class DeclaredZones:
    """The rules' operations on the zones they declare (see the module docstring)."""

    def __init__(self, game: GameCore, zones: Zones) -> None:
        self.game = game
        self.zones = zones
        # the declarations, numbered DECLARED_ZONE + their place here (Zones' list: the numbers its piles are kept by)
        self.zone_decls: list[ZoneDecl] = zones.zone_decls
        self.zone_numbers: dict[str, int] = {z.name: DECLARED_ZONE + i for i, z in enumerate(self.zone_decls)}

    def declared_zone(self, name: str) -> int:
        """The number of the zone the rules declare as `name` (the compiler checked the name: E311)."""
        number = self.zone_numbers.get(name)
        if number is None:
            raise EngineError(f"no zone {name!r} is declared")
        return number

    def zone_pile(self, zone: int, owner: Player | None) -> list[Card]:
        """The cards of a declared zone (a per-player one: `owner`'s), oldest first; not a copy."""
        per_player = self.zone_decls[zone - DECLARED_ZONE].per == "player"
        if per_player and owner is None:
            return []
        return self.zones.piles.get((zone, owner.seat if per_player and owner is not None else -1), [])

    def zone_cards(self, zone: int, owner: Player | None) -> list[Card]:
        """A declared zone's cards, the one that comes out first first (the top of a stack: the newest; the
        oldest of a queue)."""
        pile = self.zone_pile(zone, owner)
        return pile[::-1] if self.zone_decls[zone - DECLARED_ZONE].order == "stack" else list(pile)

    def put_in_zone(self, cards: list[Card], zone: int, owner: Player | None, bottom: bool = False) -> None:
        """The cards go into a declared zone in order, each onto its top (`bottom`: each under its bottom); past
        its capacity, its bottom cards (the oldest, unless put at the bottom) go to its overflow (discarded, or
        removed), one per card beyond it (仁区: 超出上限时，仁区底的牌被置入弃牌堆). Cards already there move
        within it: a reorder."""
        decl = self.zone_decls[zone - DECLARED_ZONE]
        zones = self.zones
        if decl.per == "shared":
            owner = None
        for c in cards:
            zones.move(c, zone, owner, not bottom)
        pile = self.zone_pile(zone, owner)
        if decl.capacity is not None and len(pile) > decl.capacity:
            out = pile[: len(pile) - decl.capacity]  # the oldest
            if decl.overflow == "remove":
                for c in out:
                    zones.move(c, REMOVED)
            else:
                zones.discard_cards(out)
        if not unheard(self.game, "to_zone"):
            emit_event(
                self.game,
                "to_zone",
                zone=decl.name,
                seat=owner.seat if owner is not None else None,
                cards=[c.uid for c in cards],
            )

    def fill_start(self, keep: Iterable[int] = ()) -> None:
        """Setup: the copies each zone's `start:` selects go from the deck into that shared zone, shuffled (额外牌堆;
        but those of `keep`, a table's stacked top, and those a table put elsewhere); a zone that `returns` its
        cards becomes the home of every copy selected."""
        zones = self.zones
        kept = set(keep)
        for zone, decl in enumerate(self.zone_decls, DECLARED_ZONE):
            if decl.start is None:
                continue
            for c in selected(zones.cards, decl.start):  # every copy selected is one of its cards
                zones.note_start(c, zone, decl.returns)
                if c.zone == DECK and c.uid not in kept:
                    zones.move(c, zone, None)
            zones.shuffle_zone(zone)

    def empty_zones_of(self, p: Player) -> None:
        """p died: his declared zones whose rule is to discard them at death are discarded."""
        piles = self.zones.piles
        for zone, decl in enumerate(self.zone_decls, DECLARED_ZONE):
            if decl.per == "player" and decl.at_death == "discard":
                pile = piles.get((zone, p.seat))
                if pile:
                    self.zones.discard_cards(list(pile))

    def reveal_zones_at_end(self) -> None:
        """The game ended: the cards of the zones declared `at_end: reveal` are shown to everyone."""
        revealed = {zone for zone, decl in enumerate(self.zone_decls, DECLARED_ZONE) if decl.at_end == "reveal"}
        shown = [c for key, pile in sorted(self.zones.piles.items()) if key[0] in revealed for c in pile]
        if shown:
            self.zones.reveal(shown)
