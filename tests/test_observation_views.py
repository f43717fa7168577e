"""What observations keep between calls (engine/observation.py, ``Views``) is what a fresh observation shows.

An observation reuses the parts that have not changed since the last one: a seat's history so far, cards'
faces, players' rows, piles kept while no card moved, a seat's known cards and removed face-down cards while it
finds the same. Two copies of one game (the same seed and answers) are observed at different moments: one at
every decision (every seat's and the spectator's), the other only now and then, so that most of what it keeps
is from long before; wherever both look, the two observations must be equal. A part kept past a change it did
not notice would differ.
"""

from __future__ import annotations

import random

import pytest

from interpreter.engine.step import GameState


def _observed(content, players: int, seed: int, every: int) -> list:
    state = GameState(content, players, seed)
    rng = random.Random(seed)
    seen, step = [], 0
    while not state.is_terminal():
        if step % every == 0:
            seen.append([state.observation(s) for s in range(players)] + [state.public_observation()])
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        step += 1
    seen.append([state.observation(s) for s in range(players)] + [state.public_observation()])
    return seen


@pytest.mark.parametrize(("players", "seed"), [(5, 3), (3, 11), (8, 5)])
def test_kept_parts_of_observations_are_what_fresh_ones_show(content, players, seed):
    often = _observed(content, players, seed, 1)
    seldom = _observed(content, players, seed, 7)
    assert len(often) > 50
    assert seldom[:-1] == often[:-1:7]
    assert seldom[-1] == often[-1]
