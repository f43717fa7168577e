"""A seeded random agent: uniform over the legal actions, reproducible from its seed."""

from __future__ import annotations

import random

from .base import Agent


class RandomAgent(Agent):
    observes = False

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def act(self, observation, actions) -> int:
        ids = actions.ids if hasattr(actions, "ids") else [d["id"] for d in actions]
        return ids[self.rng.randrange(len(ids))]
