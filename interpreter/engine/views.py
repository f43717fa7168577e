"""What observations keep between calls, per game (``GameCore.views``; observation.py makes and reads it).

A module of its own so that the core, which holds it, does not import observation.py: observation.py reads the
components (its hot paths typed, compiled to direct field reads), and they import the core.
"""

from __future__ import annotations

from typing import Any

from .frozen import FrozenDict
from .state import Card


class Views:
    """What observations keep between calls, per game (``GameCore.views``): every part made once and shared, read-only,
    by every observation (of every seat that may see all of it) while it is the same. Made again from the game
    when the game is re-dealt (a sample: ``GameCore.forget_views``)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.read = 0  # log records projected so far, for every seat at once (_read_log)
        self.histories: list[list[FrozenDict]] = [[] for _ in range(n)]  # per seat: its records so far
        self.made: dict[int | None, tuple[FrozenDict, ...]] = {}  # per seat: its history as last handed out
        self.public: tuple[int, tuple[FrozenDict, ...]] = (0, ())  # a spectator's: (records read, history)
        self.public_records: dict[Any, FrozenDict] = {}  # log index (and fields kept) -> a spectator's copy
        # deck id -> what the card prints (card_data); a dealt deck's are its content set's (Zones.load_deck)
        self.faces: dict[int, FrozenDict] = {}
        self.in_use: dict[tuple[int, bool, str], FrozenDict] = {}  # (deck id, seen, used as) -> its face in use
        # per player (by seat): the row every other seat and a spectator see, and its own seat's row, each (the
        # player's version and maybe the turn, the row) or None
        self.seen_rows: list[tuple[Any, FrozenDict] | None] = [None] * n
        self.own_rows: list[tuple[Any, FrozenDict] | None] = [None] * n
        # the transit as seats that do not see its card (0) and those that do (1) see it: (what it was made from, it)
        self.transit: list[tuple[tuple[Any, ...], FrozenDict] | None] = [None, None]
        self.piles: dict[str, tuple[Any, ...]] = {}  # face-up piles: (when, their cards, their faces)
        # seat -> ((Zones.sightings, Zones.unremoved), the removed list, its cards walked, its removed_face_down)
        self.removed: dict[int | None, tuple[Any, ...]] = {}
        # (Zones.unremoved, the removed list, its cards walked, the faces of those face up): _removed_face_up
        self.removed_up: tuple[int, list[Card], int, tuple[FrozenDict, ...]] | None = None
        self.known: dict[tuple[int, int], FrozenDict] = {}  # (deck id, where: _known) -> its entry
        # seat -> (found, its list, (Zones.moves, Zones.sightings) when it was found)
        self.known_of: dict[int, tuple[list[tuple[Card, int]], tuple[FrozenDict, ...], tuple[int, int]]] = {}
        self.hands: dict[int | None, tuple[tuple[Card, ...], tuple[FrozenDict, ...]]] = {}  # seat -> (its hand, faces)
        self.intel: dict[int, tuple[tuple[Card, ...], tuple[FrozenDict, ...]]] = {}  # seat -> (its intel, faces)
        # seat -> (its Player.version, `me`, what it shows besides the hand: its identity, task, role, dealt roles and
        # former identities as the objects `me` was made from)
        self.mine: dict[int | None, tuple[int, FrozenDict, Any]] = {}
        # ((Zones.sightings, Zones.decked), the deck, whether a card in it may be followed by some seat): _known
        self.deck_followed: tuple[tuple[int, int], list[Card], bool] | None = None
        # (kind, prompt, source, asker, skill) of a decision -> the observation's `decision` showing them
        self.decisions: dict[tuple[Any, ...], FrozenDict] = {}
        self.order: dict[int, int] = {}  # id(card) -> its place in Zones.cards (known cards are listed in it)
        self.ordered = 0  # how many cards `order` holds


__all__ = ["Views"]
