"""The optional RL adapters (``pip install -e '.[rl]'``): PettingZoo's AEC API test, OpenSpiel's random
simulation test, and what the adapters promise on top (seat selection, dead seats, rewards, copies).

Skipped when PettingZoo / OpenSpiel are not installed.
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

from conftest import light_and_slow
from interpreter.content.loader import load_cached
from interpreter.engine.errors import IllegalAction
from interpreter.engine.frozen import thaw
from interpreter.engine.step import GameState

np = pytest.importorskip("numpy", reason="the optional extra `rl` (numpy, PettingZoo, OpenSpiel) is not installed")


def _pz():
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from interpreter.rl import pettingzoo_env

    return pettingzoo_env


def _spiel():
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.rl import openspiel_game  # noqa: F401  (registers python_fengsheng)

    return pyspiel


def _random_action(obs, rng):
    return rng.choice(np.flatnonzero(obs["action_mask"]).tolist())


# ---------------------------------------------------------------------------------------------- PettingZoo

# api_test's notes for any Dict observation (PettingZoo's own classic environments get them too)
_DICT_OBS_NOTES = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


@pytest.mark.parametrize("players", [3, 5])
@_DICT_OBS_NOTES[0]
@_DICT_OBS_NOTES[1]
def test_pettingzoo_api_test(players):
    pz = _pz()
    from pettingzoo.test import api_test

    api_test(pz.env(players=players), num_cycles=1000)


@_DICT_OBS_NOTES[0]
@_DICT_OBS_NOTES[1]
def test_pettingzoo_api_test_unwrapped_with_render():
    pz = _pz()
    from pettingzoo.test import api_test

    e = pz.FengshengAECEnv(players=4, render_mode="ansi")
    api_test(e, num_cycles=1000)
    e.reset(seed=1)
    assert "P3" in e.render()


def _play(e, seed, rng):
    """One whole game on an unwrapped env; checks the AEC protocol step by step. Returns (actions, dead_selected)."""
    e.reset(seed=seed)
    state = e.game_state
    actions = []
    died_turn: dict = {}
    while not state.is_terminal():
        agent = e.agent_selection
        seat = state.current_player()
        assert agent == f"player_{seat}"
        assert not e.terminations[agent] and not e.truncations[agent]
        assert set(e.agents) == set(e.possible_agents)  # nobody leaves before the end
        obs, reward, term, trunc, info = e.last()
        assert reward == 0 and not term and not trunc
        legal = set(state.legal_actions())
        assert set(np.flatnonzero(obs["action_mask"]).tolist()) == legal
        assert {d["id"] for d in info["actions"]} == legal
        assert info["observation"]["seat"] == seat
        for other in e.agents:  # only the agent to act has a mask
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
                assert e.infos[other]["actions"] == ()
        public = info["observation"]
        for p in public["players"]:
            if (not p["alive"] or p["out"]) and p["seat"] not in died_turn:
                died_turn[p["seat"]] = public["turn"]
        if seat in died_turn:  # a dead seat is only asked in the turn it died (its last gift)
            assert public["turn"] == died_turn[seat]
        a = _random_action(obs, rng)
        actions.append(a)
        e.step(a)
    returns = state.returns()
    truncated = state.result.reason == "turn_limit"
    assert all(e.terminations[a] != truncated and e.truncations[a] == truncated for a in e.agents)
    # every agent steps None once (dead steps), collecting its final reward, and leaves
    collected = {}
    while e.agents:
        agent = e.agent_selection
        obs, reward, term, trunc, info = e.last()
        assert term or trunc
        assert not obs["action_mask"].any()
        collected[agent] = reward
        e.step(None)
    assert collected == {f"player_{s}": returns[s] for s in range(e.n_players)}
    return actions, died_turn


@light_and_slow("games", 3, 6)
def test_pettingzoo_whole_games_follow_the_engine(games):
    pz = _pz()
    e = pz.FengshengAECEnv(players=5)
    rng = random.Random(2)  # answers in which a seat dies in the first three games (the rules as of issue 13)
    some_died = False
    for seed in range(games):
        _, died = _play(e, seed, rng)
        some_died = some_died or bool(died)
    assert some_died, "no seat died in these games: pick seeds where one does"


def test_pettingzoo_seeding_is_exact():
    pz = _pz()
    e = pz.FengshengAECEnv(players=3)
    a1, _ = _play(e, 11, random.Random(0))
    a2, _ = _play(e, 11, random.Random(0))
    assert a1 == a2
    state = GameState(load_cached(), 3, 11)  # reset(seed=s) deals engine seed s
    for a in a1:
        state.apply_action(a)
    assert state.is_terminal()
    e.reset(seed=5)
    first = e.game_state.seed
    e.reset()
    second = e.game_state.seed
    e.reset(seed=5)
    e.reset()
    assert e.game_state.seed == second and first == 5


def test_pettingzoo_turn_limit_is_a_truncation():
    pz = _pz()
    e = pz.FengshengAECEnv(players=3, max_turns=1)
    _play(e, 2, random.Random(0))
    assert e.game_state.result.reason == "turn_limit"


def test_pettingzoo_illegal_action():
    pz = _pz()
    e = pz.FengshengAECEnv(players=3)
    e.reset(seed=0)
    illegal = next(i for i in range(e.n_actions) if i not in e.game_state.legal_actions())
    with pytest.raises(IllegalAction):
        e.step(illegal)
    w = pz.env(players=3)
    w.reset(seed=0)
    agent = w.agent_selection
    w.step(illegal)  # PettingZoo logs "Illegal move made" and ends the game
    assert all(w.terminations.values()) and w.rewards[agent] == -1


def test_pettingzoo_observation_is_in_the_space_and_private():
    pz = _pz()
    e = pz.FengshengAECEnv(players=5)
    e.reset(seed=4)
    rng = random.Random(1)
    space = e.observation_space("player_0")
    enc = e.encoder
    for _ in range(120):
        if e.game_state.is_terminal():
            break
        for agent in e.agents:
            obs = e.observe(agent)
            assert space.contains(obs)
            raw = e.infos[agent]["observation"]
            hand = enc.views(obs["observation"])["hand"]
            assert sorted(np.flatnonzero(hand).tolist()) == sorted(enc.card_index[c["id"]] for c in raw["me"]["hand"])
        e.step(_random_action(e.observe(e.agent_selection), rng))


def test_pettingzoo_env_pickles():
    pz = _pz()
    e = pz.FengshengAECEnv(players=3)
    e2 = pickle.loads(pickle.dumps(e))
    e2.reset(seed=1)
    assert e2.agent_selection in e2.possible_agents


# ---------------------------------------------------------------------------------------------- OpenSpiel


@pytest.mark.parametrize(
    "players, max_turns, serialize, seed",
    [
        (3, 8, True, 1),
        (5, 6, False, 2),
        pytest.param(3, 8, True, 2, marks=pytest.mark.slow),
        pytest.param(5, 6, False, 1, marks=pytest.mark.slow),
    ],
)
def test_openspiel_random_sim_test(players, max_turns, serialize, seed):
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": players, "seed": seed, "max_turns": max_turns})
    pyspiel.random_sim_test(game, num_sims=1, serialize=serialize, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 5])
def test_openspiel_random_sim_test_whole_games(players):
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": players, "seed": 7})
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_openspiel_game_type_and_parameters():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng(players=4,seed=3)")
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == 4
    assert game.num_distinct_actions() == GameState(load_cached(), 4, 3).action_space_size
    assert game.max_chance_outcomes() == 0
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_fengsheng", {"players": 11})


def test_openspiel_state_follows_game_state():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 5})
    state = game.new_initial_state()
    ref = GameState(load_cached(), 3, 5)
    rng = random.Random(2)
    while not state.is_terminal():
        assert state.current_player() == ref.current_player()
        assert state.legal_actions() == sorted(ref.legal_actions())
        assert state.legal_actions((state.current_player() + 1) % 3) == []
        names = [state.action_to_string(a) for a in state.legal_actions()]
        assert len(set(names)) == len(names)
        a = rng.choice(state.legal_actions())
        state.apply_action(a)
        ref.apply_action(a)
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == ref.returns()
    assert state.history() == ref.history()


def test_openspiel_copies_pickles_and_shared_initial_state():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 6})
    s1, s2 = game.new_initial_state(), game.new_initial_state()
    blank = str(s2)
    s1.apply_action(s1.legal_actions()[0])
    assert str(s2) == blank and s2.history() == []  # the shared initial GameState is not changed
    rng = random.Random(0)
    for _ in range(30):
        s1.apply_action(rng.choice(s1.legal_actions()))
    for other in (s1.clone(), copy.deepcopy(s1), pickle.loads(pickle.dumps(s1))):
        assert str(other) == str(s1) and other.history() == s1.history()
        assert other.observation_tensor(1) == s1.observation_tensor(1)
        other.apply_action(other.legal_actions()[-1])
        assert other.history() != s1.history()
    held = pickle.loads(pickle.dumps(s1._replay))  # the holder itself pickles as seed + actions
    assert held.state.history() == s1.history() and held.state is not s1.game_state


def test_openspiel_observations_match_the_pettingzoo_encoding():
    pyspiel = _spiel()
    pz = _pz()
    game = pyspiel.load_game("python_fengsheng", {"players": 5, "seed": 9})
    state = game.new_initial_state()
    e = pz.FengshengAECEnv(players=5)
    e.reset(seed=9)
    observer = game.make_py_observer()
    rng = random.Random(4)
    for _ in range(40):
        for seat in range(5):
            vec = e.observe(f"player_{seat}")["observation"]
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), vec)
            observer.set_from(state, seat)
            assert np.array_equal(observer.tensor, vec)
            assert json.loads(state.observation_string(seat)) == json.loads(
                json.dumps(thaw(e.game_state.observation(seat)), ensure_ascii=False)
            )
        a = rng.choice(state.legal_actions())
        state.apply_action(a)
        e.step(a)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() == e.encoder.size


# ---------------------------------------------------------------------------------------------- docs/rl.md


def test_rl_doc_figures_are_generated_from_the_code():
    from interpreter.rl import rl_doc

    text = rl_doc.DOC.read_text(encoding="utf-8")
    assert text == rl_doc.generate(text), "docs/rl.md is out of date: run `python -m interpreter.rl.rl_doc --write`"
    content = load_cached()
    assert f"**{GameState(content, 3, 1).action_space_size}** action ids" in text
    from interpreter.rl.encoding import Encoder

    assert f"| {Encoder(content, 2).size} | " in text and f" | {Encoder(content, 10).size} |" in text
    last = rl_doc.action_groups(content)[-1]
    assert last[2] == GameState(content, 3, 1).action_space_size - 1
    assert f"| {last[1]}–{last[2]} | `use` |" in text
