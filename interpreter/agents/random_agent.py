"""A seeded random agent: uniform over the legal actions, reproducible from its seed."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .base import Agent, Descriptor, Observation, mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # (as Agent, base.py)
class RandomAgent(Agent):
    """Answers each decision with one legal action drawn uniformly from its generator (``rng``).

    ``act`` draws exactly as ``rng.randrange(len(actions))`` does. A batch (``interpreter.sim``) answers
    the seats of RandomAgents itself with the same draws from the same generator, without building
    descriptors (engine/drivers.py); that is the batch runner's business, not part of this interface."""

    observes = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        # randrange(n) for n >= 1 is exactly _randbelow(n) (CPython's random.py): the same numbers
        # from the same seed, without randrange's argument handling at every decision
        self._below: Callable[[int], int] = self.rng._randbelow  # type: ignore[attr-defined]

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        ids: Sequence[int] | None = getattr(actions, "ids", None)  # an ActionList carries them
        if ids is None:
            ids = [d["id"] for d in actions]
        if not ids:
            raise ValueError("no legal action to choose from")
        return ids[self._below(len(ids))]
