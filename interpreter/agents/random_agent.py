"""A seeded random agent: uniform over the legal options, reproducible from its seed."""
from __future__ import annotations

import random

from .base import Agent


class RandomAgent(Agent):
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def decide(self, decision, view) -> int:
        return self.rng.randrange(len(decision.options))
