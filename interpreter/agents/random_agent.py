"""A seeded random agent: uniform over the legal actions, reproducible from its seed."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .base import Agent, Descriptor, Observation


class RandomAgent(Agent):
    observes = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        ids: Sequence[int] = actions.ids if hasattr(actions, "ids") else [d["id"] for d in actions]
        return ids[self.rng.randrange(len(ids))]
