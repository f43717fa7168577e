"""A researcher's usual slips at the step API and the RL adapters get one line at the door that names the cure, not a
traceback from deep inside the engine — or, for an action id that is a numpy integer (``np.argmax`` over a policy's
output), no error at all, as the PettingZoo and OpenSpiel doors already took it. Found by a walk-through of
docs/rl.md and docs/step-api.md from an installed wheel; each test fails without its fix."""

from __future__ import annotations

import random

import pytest

from interpreter.agents import Agent
from interpreter.content.loader import load_cached
from interpreter.engine.errors import IllegalAction
from interpreter.engine.step import GameState, drive

np = pytest.importorskip("numpy", reason="the optional extra `rl` (numpy, PettingZoo, OpenSpiel) is not installed")


# ---------------------------------------------------------------------------------------------- action ids


def test_the_step_api_takes_an_action_id_that_is_a_numpy_integer():
    """apply_action(np.int64(392)) was refused, "answered np.int64(392) (int64); an answer is one of the action ids
    offered: [392, …]": the id it refused was in the list. It is the int it is; the history holds plain ints."""
    state, same = GameState(load_cached(), 5, 7), GameState(load_cached(), 5, 7)
    rng = random.Random(7)
    for _ in range(30):
        action = rng.choice(state.legal_actions())
        state.apply_action(np.int64(action))
        same.apply_action(action)
    assert state.history() == same.history() and all(type(a) is int for a in state.history())
    assert state.observation(0) == same.observation(0)
    before = state.history()
    for bad in (True, float(state.legal_actions()[0]), np.float64(state.legal_actions()[0])):
        with pytest.raises(IllegalAction, match="an answer is one of the action ids offered"):
            state.apply_action(bad)
    assert state.history() == before


def test_an_agent_may_answer_with_a_numpy_integer():
    """drive() refused an agent's np.int64 answer the same way; it is recorded as the int it is."""

    class Argmax(Agent):
        observes = False

        def act(self, observation, actions):
            return np.array([d["id"] for d in actions])[0]  # a numpy integer, as a policy's argmax gives

    game = drive(load_cached(), 3, 5, [Argmax() for _ in range(3)], max_turns=3)
    assert game.actions_taken and all(type(a) is int for a in game.actions_taken)
    state = GameState(load_cached(), 3, 5, max_turns=3)
    for a in game.actions_taken:
        state.apply_action(a)
    assert state.is_terminal() and state.result.reason == game.result.reason
