"""A seeded random agent: uniform over the legal actions, reproducible from its seed."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .base import Agent, Descriptor, Observation


class RandomAgent(Agent):
    observes = False
    uniform = True  # the batch driver asks pick(n): no descriptors are made for it

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        # pick(n) is its _randbelow(n): the batch driver may draw it itself — unless a subclass picks its own way
        self.draws_from = self.rng if type(self).pick is RandomAgent.pick else None
        # randrange(n) for n >= 1 is exactly _randbelow(n) (CPython's random.py): the same numbers
        # from the same seed, without randrange's argument handling at every decision
        self._below: Callable[[int], int] = self.rng._randbelow  # type: ignore[attr-defined]
        self._bits = self.rng.getrandbits

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        ids: Sequence[int] | None = getattr(actions, "ids", None)  # an ActionList carries them
        if ids is None:
            ids = [d["id"] for d in actions]
        if not ids:
            raise ValueError("no legal action to choose from")
        return ids[self._below(len(ids))]

    def pick(self, n: int) -> int:
        """The index act() would answer among n legal actions (the same draw from the same generator:
        CPython's _randbelow for a Random, inline; tests/test_seat_boundary.py plays both ways)."""
        bits = self._bits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r
