"""Game states the tests start from: a step-API game played at random to somewhere in its middle."""

from __future__ import annotations

import random

from interpreter.engine.step import GameState


def midgame(content, n: int, seed: int, actions: int) -> GameState:
    """A game played at random for about `actions` actions, stopped at a decision with two options or more."""
    state, rng = GameState(content, n, seed), random.Random(seed)
    while not state.is_terminal() and (len(state.history()) < actions or len(state.legal_actions()) < 2):
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    return state
