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


def _mid_game(players: int = 5, seed: int = 4, actions: int = 40) -> GameState:
    state, rng = GameState(load_cached(), players, seed), random.Random(seed)
    for _ in range(actions):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


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
    first = state.legal_actions()[0]
    # (an array of one id, as argmax(..., keepdims=True) gives, raised numpy's "only integer scalar arrays …")
    for bad in (True, float(first), np.float64(first), np.array([first])):
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


# ---------------------------------------------------------------------------------------------- samples


@pytest.mark.parametrize("seat", [5, 9, -1])
def test_a_sample_for_a_seat_not_at_the_table_is_an_index_error(seat):
    """resample(9, rng) while the seats chose their roles failed in the engine's role re-deal ("IndexError: list index
    out of range", skills.py); in mid-game it was refused as "not the seat to act", naming P9 as if it sat there."""
    for state in (GameState(load_cached(), 5, 7), _mid_game()):
        with pytest.raises(IndexError, match=rf"seat {seat} is not at this table \(0..4\)"):
            state.resample(seat, random.Random(1))
        with pytest.raises(IndexError, match=rf"seat {seat} is not at this table \(0..4\)"):
            state.world(seat)
        with pytest.raises(IndexError, match=rf"seat {seat} is not at this table \(0..4\)"):
            state.sample_refused(seat)
    with pytest.raises(TypeError, match="a seat is a whole number"):
        _mid_game().resample(True, random.Random(1))


@pytest.mark.parametrize("rng", [None, 7, "np"])
def test_a_sample_is_drawn_from_a_random_generator(rng):
    """resample(seat, 7) or with numpy's Generator failed with "'int' object has no attribute 'getrandbits'"."""
    state = _mid_game()
    me = state.current_player()
    if rng == "np":
        rng = np.random.default_rng(0)
    with pytest.raises(TypeError, match=r"a sample is drawn from a random\.Random"):
        state.resample(me, rng)
    with pytest.raises(TypeError, match=r"a sample is drawn from a random\.Random"):
        state.world(me).sample(rng)
    assert state.resample(me, random.Random(1)).observation(me) == state.observation(me)


# ---------------------------------------------------------------------------------------------- turn limits


@pytest.mark.parametrize("max_turns", [-1, 0, 2.5, True, "3"])
def test_a_turn_limit_is_a_whole_number_of_turns_from_one(max_turns):
    """GameState(..., max_turns=-1) ended the game at its first turn with no winner, 2.5 played three turns and 0 the
    rules' 300; the commands' --max-turns takes 1 or more. The step API, drive and PettingZoo's env say so."""
    with pytest.raises(ValueError, match="a turn limit is a whole number of turns, 1 or more"):
        GameState(load_cached(), 3, 1, max_turns=max_turns)
    with pytest.raises(ValueError, match="a turn limit is a whole number of turns, 1 or more"):
        drive(load_cached(), 3, 1, [Agent()] * 3, max_turns=max_turns)
    assert GameState(load_cached(), 3, 1, max_turns=np.int64(1)).max_turns == 1


def test_pettingzoo_refuses_a_turn_limit_below_one():
    pytest.importorskip("pettingzoo")
    from interpreter.rl.pettingzoo_env import env

    with pytest.raises(ValueError, match="a turn limit is a whole number of turns, 1 or more"):
        env(players=3, max_turns=-1)


# ---------------------------------------------------------------------------------------------- OpenSpiel


def _spiel():
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.rl import openspiel_game  # noqa: F401  (registers python_fengsheng)

    return pyspiel


def test_openspiel_refuses_a_negative_max_turns_at_load_game():
    """max_turns=-1 loaded (with a negative max_game_length) and every deal ended at the first turn, no winner."""
    pyspiel = _spiel()
    with pytest.raises(ValueError, match=r"max_turns must be 0 .* or a number of turns >= 1, not -1"):
        pyspiel.load_game("python_fengsheng", {"players": 3, "max_turns": -1})
    assert pyspiel.load_game("python_fengsheng", {"players": 3, "max_turns": 0}).max_game_length() > 0


def test_openspiel_resample_for_a_player_not_at_the_table_is_a_spiel_error():
    """resample_from_infostate(9, …) at the role choice failed deep in the engine (IndexError in skills.py); before
    the deal and at the end it returned a copy for a seat that is not there."""
    pyspiel = _spiel()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 4, "max_turns": 2}).new_initial_state()
    rng = random.Random(4)
    while True:  # the chance node, the role choice, mid-game, the end
        for player in (3, 9, -1):
            with pytest.raises(pyspiel.SpielError, match=f"player {player} is not at this table"):
                state.resample_from_infostate(player, sampler)
        if state.is_terminal():
            break
        state.apply_action(0 if state.is_chance_node() else rng.choice(state.legal_actions()))


def test_openspiel_resample_names_what_a_sampler_is():
    """A random.Random (or None) as the sampler failed with "'Random' object is not callable"."""
    pyspiel = _spiel()
    state = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 4}).new_initial_state()
    state.apply_action(0)
    me = state.current_player()
    for sampler in (random.Random(1), None):
        with pytest.raises(TypeError, match=r"a probability sampler is a callable giving floats in \[0, 1\)"):
            state.resample_from_infostate(me, sampler)
    assert state.resample_from_infostate(me, random.Random(1).random).current_player() == me


def test_openspiel_action_to_string_of_an_id_out_of_the_space():
    """action_to_string(99999) was an IndexError from the action space ("tuple index out of range")."""
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 4})
    state = game.new_initial_state()
    state.apply_action(0)
    size = game.num_distinct_actions()
    for action in (size, 99999, -5):
        with pytest.raises(pyspiel.SpielError, match=rf"{action} is not an action id of this game \(0..{size - 1}\)"):
            state.action_to_string(state.current_player(), action)
    assert state.action_to_string(state.current_player(), size - 1).endswith(f"#{size - 1}")


# ---------------------------------------------------------------------------------------------- content and agents


def test_the_step_api_is_given_a_content_set_not_a_folder():
    """GameState("examples/jia_gui", 5, 1) — the RL adapters take folders — failed in the content index with
    "cannot create weak reference to 'str' object"; it names the two loaders instead."""
    from pathlib import Path

    for wrong in ("examples/jia_gui", Path("examples/jia_gui"), None):
        with pytest.raises(TypeError, match=r"a loaded content set — load_cached\(\) .* or load_packs\(\[folder"):
            GameState(wrong, 5, 1)
        with pytest.raises(TypeError, match="a loaded content set"):
            drive(wrong, 3, 1, [Agent()] * 3)


def test_one_folder_given_alone_is_one_pack(monkeypatch):
    """load_packs("examples/jia_gui") read a folder per letter ("Directory 'e' does not exist"), load_cached one E100
    per letter; a text or a path alone is one folder, as PettingZoo's content= takes it."""
    from pathlib import Path

    from interpreter.content.loader import BUNDLED_CONTENT, load_packs

    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    fork = load_packs("examples/jia_gui")
    assert fork is load_packs(["examples/jia_gui"]) is load_packs(Path("examples/jia_gui"))
    assert load_cached(str(BUNDLED_CONTENT)) is load_cached([str(BUNDLED_CONTENT)])
    assert load_packs(None) is load_packs([])  # (None: the bundled game, as load_cached(None); it was a TypeError)


@pytest.mark.parametrize("count", [2, 4])
def test_drive_needs_one_agent_per_seat(count):
    """Four agents for three seats were ignored in part; two failed at the third seat's first question with "list
    index out of range"."""
    from interpreter.agents import RandomAgent

    with pytest.raises(ValueError, match=f"3 players need 3 agents, one per seat, not {count}"):
        drive(load_cached(), 3, 1, [RandomAgent(i) for i in range(count)])


def test_openspiel_content_folders_joined_by_a_comma_are_told_the_separator(monkeypatch):
    """{"content": "examples/jia_gui,examples/armor"} said only "Directory '…,…' does not exist."."""
    import os
    from pathlib import Path

    from interpreter.content.packs import PackError

    pyspiel = _spiel()
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    with pytest.raises(PackError, match=f"separates folders with {os.pathsep!r}"):
        pyspiel.load_game("python_fengsheng", {"content": "examples/jia_gui,examples/armor"})
    both = pyspiel.load_game("python_fengsheng", {"content": f"examples/jia_gui{os.pathsep}examples/armor"})
    assert both.num_distinct_actions() > 0


def test_a_game_stopped_before_its_end_says_so_when_answered():
    """A game_state kept across PettingZoo's reset (which stops it) answered "the game is over", with no result."""
    pytest.importorskip("pettingzoo")
    from interpreter.rl.pettingzoo_env import FengshengAECEnv

    e = FengshengAECEnv(players=3)
    e.reset(seed=1)
    for _ in range(5):
        e.step(e.game_state.legal_actions()[0])
    kept = e.game_state
    e.reset(seed=2)
    assert kept.is_terminal() and kept.result is None
    with pytest.raises(IllegalAction, match=r"stopped before its end .* a clone\(\) of it plays on"):
        kept.apply_action(0)
    again = kept.clone()
    assert again.history() == kept.history() and not again.is_terminal()
    finished = drive_to_end(GameState(load_cached(), 3, 1, max_turns=1))
    with pytest.raises(IllegalAction, match="the game is over"):
        finished.apply_action(0)


def drive_to_end(state: GameState) -> GameState:
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("players", [1, 0])
def test_too_few_players_are_told_the_counts_the_rules_play(players):
    """A table of fewer than two is refused as every door refuses a count the rules do not play (simulate, OpenSpiel):
    naming the counts they do, not only the least."""
    with pytest.raises(ValueError, match=r"no identity table for \d+ players? \(they have one for 2-10 players\)"):
        GameState(load_cached(), players, 1)


def test_an_encoder_says_which_table_it_encodes():
    """An observation of another table size than the encoder's is a ValueError naming both (it was a numpy
    IndexError inside the players' rows, or a vector made of the first rows only)."""
    np = pytest.importorskip("numpy")
    from interpreter.rl.encoding import Encoder, InfoStateEncoder

    content = load_cached()
    state = GameState(content, 5, 1)
    obs = state.observation(state.current_player())
    assert Encoder(content, 5).encode(obs).dtype == np.float32
    for encoder in (Encoder(content, 3), Encoder(content, 8), InfoStateEncoder(content, 3)):
        with pytest.raises(ValueError, match=r"for \d+ players; the observation is of a table of 5"):
            encoder.encode(obs)


def test_an_agent_that_answers_nothing_says_what_an_agent_does():
    """Agent itself (or a subclass without act) seated at a table: its NotImplementedError says what act must do
    (it had no message)."""
    with pytest.raises(NotImplementedError, match=r"Agent answers no decision: .*act\(observation, actions\)"):
        drive(load_cached(), 2, 1, [Agent(), Agent()])
