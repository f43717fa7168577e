"""What a seat learns of other seats' identities from the probes (cards hinted `bot: probe`) it used itself.

A probe card's copy says, per identity colour, whether its target draws a card or discards one
(`data`: ``{"red": -1, "blue": 1, "black": -1}``). Its user saw the copy in its hand, and every seat
sees whether the target drew or discarded: so the user knows the target's identity colour is one of
those for which the copy says what the target did. Only the seat's own observation is read: the
copies it held (their `data`), its own ``card_used`` records (which name the deck id, ``uid``, for
the user only) and the public ``draw`` / ``discard`` records of the target that follow, up to
``card_resolved``. A probe that did nothing (nullified, no draw and no discard) teaches nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .base import Part, mypyc_attr

PROBE_EVENTS: Final = frozenset(("card_used", "card_resolved", "draw", "discard"))  # the only records `read` reads


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # (as Agent, base.py: a bot holding it is copied)
class ProbeReadings:
    """The identity colours each seat may still have, after the probes this seat used on it."""

    def __init__(self, probe_cards: frozenset[str]) -> None:
        """`probe_cards`: the card kinds whose tactic is `probe`."""
        self.probe_cards = probe_cards
        self.allowed: dict[int, frozenset[str]] = {}  # seat -> the identity colours it may have
        self._data: dict[int, Mapping[str, Any]] = {}  # deck id -> the per-colour data of a copy it held
        # a probe of its own resolving: (target, data); while None, only its own records can teach it anything
        self.resolving: tuple[int, Mapping[str, Any]] | None = None

    def reset(self) -> None:
        self.allowed, self._data, self.resolving = {}, {}, None

    def saw_hand(self, hand: Sequence[Part]) -> None:
        for c in hand:
            if c.get("data"):
                self._data[c["id"]] = c["data"]

    def read(self, rec: Part, me: int) -> int | None:
        """Read one history record. Returns the seat whose identity colours it ruled out some of, if any."""
        e = rec.get("e")
        if e == "card_used" and rec.get("seat") == me and rec.get("card") in self.probe_cards:
            data, target = self._data.get(rec.get("uid") or -1), rec.get("target")
            self.resolving = (target, data) if data is not None and isinstance(target, int) else None
        elif e == "card_resolved" and rec.get("seat") == me:
            self.resolving = None
        elif (e == "draw" or e == "discard") and self.resolving is not None and rec.get("seat") == self.resolving[0]:
            target, data = self.resolving
            drew = e == "draw"
            fits = frozenset(c for c, v in data.items() if isinstance(v, int) and (v > 0) == drew)
            self.allowed[target] = self.allowed.get(target, fits) & fits
            self.resolving = None
            return target
        return None
