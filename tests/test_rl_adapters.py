"""The optional RL adapters (``pip install -e '.[rl]'``): PettingZoo's AEC API test, OpenSpiel's random
simulation test, and what the adapters promise on top (seat selection, dead seats, rewards, copies).

Skipped when PettingZoo / OpenSpiel are not installed.
"""

from __future__ import annotations

import copy
import itertools
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


@pytest.mark.parametrize("players, info_state", [(3, False), (5, False), (4, True)])
@_DICT_OBS_NOTES[0]
@_DICT_OBS_NOTES[1]
def test_pettingzoo_api_test(players, info_state):
    pz = _pz()
    from pettingzoo.test import api_test

    e = pz.env(players=players, info_state=info_state)
    e.action_space("player_0").seed(players)  # api_test plays the space's samples; it deals seed 0 and its successors
    api_test(e, num_cycles=1000)


@_DICT_OBS_NOTES[0]
@_DICT_OBS_NOTES[1]
def test_pettingzoo_api_test_unwrapped_with_render():
    pz = _pz()
    from pettingzoo.test import api_test

    e = pz.FengshengAECEnv(players=4, render_mode="ansi")
    e.action_space("player_0").seed(4)  # (one space object for every agent)
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
    assert second >= 2**32 or second != 5  # derived (a 128-bit hash), not a 32-bit draw
    fresh = pz.FengshengAECEnv(players=3)
    fresh.reset()
    other = pz.FengshengAECEnv(players=3)
    other.reset()
    assert fresh.game_state.seed != other.game_state.seed  # no seed given: a fresh 128-bit seed each
    assert max(fresh.game_state.seed, other.game_state.seed) >= 2**32


@pytest.mark.parametrize("seed", [-1, 1.5, True, "1", 2**256])
def test_pettingzoo_reset_refuses_what_is_not_a_seed(seed):
    """reset(seed=1.5) or True played seed 1, and -1 (the engine's generator takes its absolute value) the game of
    seed 1 too: two different seeds, one game. A seed is a whole number of the range every door accepts."""
    pz = _pz()
    e = pz.FengshengAECEnv(players=3)
    with pytest.raises(ValueError, match="a seed is a whole number"):
        e.reset(seed=seed)
    e.reset(seed=np.int64(7))  # a numpy integer is a whole number: the game of seed 7
    assert e.game_state.seed == 7 and type(e.game_state.seed) is int


def test_pettingzoo_refuses_a_player_count_that_is_not_a_whole_number_first():
    """FengshengAECEnv(players='5') failed in its observation encoder with a bare TypeError ("'>' not supported
    between instances of 'int' and 'str'") before the player count was checked; it is checked first."""
    pz = _pz()
    with pytest.raises(TypeError, match="a table's number of players is a whole number, not '5'"):
        pz.FengshengAECEnv(players="5")


def test_pettingzoo_names_the_player_counts_the_rules_have():
    pz = _pz()
    with pytest.raises(ValueError, match=r"no identity table for 11 players \(they have one for 2-10 players\)"):
        pz.FengshengAECEnv(players=11)


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


def _dealt(game, rng=None, decisions=0):
    """A new state of `game`, dealt, then `decisions` random answers on (stops early at the end)."""
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1.0)]
    state.apply_action(0)
    rng = rng or random.Random(0)
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _hand(state, seat):
    return sorted(c["id"] for c in state.game_state.observation(seat)["me"]["hand"])


def _unseen(state, seat, holder):
    """The cards in `holder`'s hand that `seat` cannot locate (a re-deal from `seat`'s view may move them)."""
    followed = {k["card"]["id"] for k in state.game_state.observation(seat)["known_cards"]}
    return [c for c in _hand(state, holder) if c not in followed]


def _at_unseen_cards(game, rng, decisions, seat_of, holders_of):
    """A dealt state `decisions` or more random answers on, stopped at the first decision where another seat
    holds a card the seat ``seat_of(state)`` cannot locate (in one of ``holders_of(state)``): a re-deal can
    only be told from the truth there. The game's seed is fixed, so this is one state every run."""
    state = _dealt(game, rng, decisions)
    while not state.is_terminal():
        seat = seat_of(state)
        if any(_unseen(state, seat, h) for h in holders_of(state)):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("the game ended before another hand held a card the seat cannot see: pick another seed")


# OpenSpiel's serialize_game_and_state asks a sampled-stochastic game for its C++ generator (GetRNGState), which a
# Python game cannot provide: the state pickles itself instead (test_openspiel_copies_...), so serialize=False here
@pytest.mark.parametrize(
    "players, max_turns",
    [
        (3, 2),  # everyday: fewer turns, the same checks at every step; the slow run plays the longer cuts
        (5, 2),
        *(pytest.param(*cut, marks=pytest.mark.slow) for cut in [(3, 8), (5, 6), (2, 8), (10, 4)]),
    ],
)
def test_openspiel_random_sim_test(players, max_turns):
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": players, "max_turns": max_turns, "seed": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)  # its own generator is seeded


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 5])
def test_openspiel_random_sim_test_whole_games(players):
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": players, "seed": players})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)  # one deal, three ways to play it


def test_openspiel_game_type_and_parameters():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng(players=4,seed=3)")
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.provides_information_state_string and t.provides_information_state_tensor
    assert game.num_players() == 4
    assert game.num_distinct_actions() == GameState(load_cached(), 4, 3).action_space_size
    assert game.max_chance_outcomes() == 1
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_fengsheng", {"players": 11})
    with pytest.raises(Exception, match="seed"):
        pyspiel.load_game("python_fengsheng", {"seed": -2})
    # the seed parameter is a C int (docs/rl.md says so): the largest deals itself, one more is OpenSpiel's error
    top = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 2**31 - 1}).new_initial_state()
    top.apply_action(0)
    assert top.game_state.seed == 2**31 - 1
    with pytest.raises((RuntimeError, pyspiel.SpielError)):
        pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 2**31})


def test_openspiel_deal_is_a_chance_node_with_a_fresh_seed():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": 5})
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE and state.legal_actions() == [0]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal"
    assert state.observation_string(0) == "" and not any(state.observation_tensor(0))
    seeds = set()
    for _ in range(4):
        s = _dealt(game)
        seeds.add(s.game_state.seed)
    assert len(seeds) == 4 and min(seeds) >= 0 and max(seeds) < 2**128
    assert max(seeds) >= 2**64  # 128-bit seeds (all four below 2**64 has probability 2**-256)
    fixed = pyspiel.load_game("python_fengsheng", {"players": 5, "seed": 7})
    assert _dealt(fixed).game_state.observation(0) == GameState(load_cached(), 5, 7).observation(0)


def test_openspiel_state_follows_game_state():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 5})
    state = _dealt(game)
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
    assert state.history() == [0, *ref.history()]


def test_openspiel_exact_copies_are_pickles_and_deep_copies():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 2})
    blank = pickle.loads(pickle.dumps(game.new_initial_state()))
    assert blank.is_chance_node()
    s1 = _dealt(game, random.Random(0), 30)
    for other in (copy.deepcopy(s1), pickle.loads(pickle.dumps(s1))):
        assert str(other) == str(s1) and other.history() == s1.history()
        assert other.game_state.seed == s1.game_state.seed
        for seat in range(3):
            assert other.game_state.observation(seat) == s1.game_state.observation(seat)
        other.apply_action(other.legal_actions()[-1])
        assert other.history() != s1.history()
    with pytest.raises(pickle.PicklingError, match="re-dealt"):
        pickle.dumps(s1.clone())


CLONE_SEED = 3  # the game's deal (with a fresh deal, 1 run in 100 ended before the decision it read, or the
# acting seat could locate every card of the other hands, so a re-deal had nothing to move)


def test_openspiel_clone_is_re_dealt_from_the_acting_seat():
    """clone() keeps everything the acting seat knows and deals the rest again; clones made at one point share
    one re-deal (a search tree stays consistent), and a re-dealt copy names no seed."""
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": 4, "seed": CLONE_SEED})
    state = _at_unseen_cards(
        game, random.Random(3), 40, lambda s: s.current_player(), lambda s: set(range(4)) - {s.current_player()}
    )
    seat = state.current_player()
    c1, c2 = state.clone(), state.clone()
    for c in (c1, c2):
        assert c.history() == state.history() and str(c) == str(state)
        assert c.game_state.observation(seat) == state.game_state.observation(seat)
        assert c.information_state_string(seat) == state.information_state_string(seat)
        assert c.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert c.legal_actions() == state.legal_actions()
        assert c._world.seed is None
    others = [s for s in range(4) if s != seat]
    assert [_hand(c1, s) for s in others] == [_hand(c2, s) for s in others]  # one re-deal per point
    assert [_hand(c1, s) for s in others] != [_hand(state, s) for s in others]
    state.apply_action(state.legal_actions()[0])
    if not state.is_terminal():  # a new point, a new re-deal
        c3 = state.clone()
        assert c3.game_state.observation(state.current_player()) == state.game_state.observation(state.current_player())


def _hidden_match_rate(truth, hands):
    """Of the cards in other seats' hands that the acting seat cannot follow, the share the copies put in the
    same hand, and what an honest re-deal gives on average (each such card lands in a given hidden hand slot
    with probability 1 / the number of cards the seat cannot locate)."""
    seat = truth.current_player()
    obs = truth.game_state.observation(seat)
    followed = {k["card"]["id"] for k in obs["known_cards"]}
    hidden = {s: [c for c in _hand(truth, s) if c not in followed] for s in range(truth.num_players()) if s != seat}
    pool = sum(len(h) for h in hidden.values()) + obs["deck_count"]
    cards = sum(len(h) for h in hidden.values())
    if not cards:
        return 0, 0, 0.0
    matched = sum(len(set(h) & set(copy[s])) for copy in hands for s, h in hidden.items())
    expected = sum(len(h) * len(h) / pool for h in hidden.values()) / cards
    return matched, cards * len(hands), expected


class _Watcher:
    """An MCTS evaluator that evaluates nothing (zeros) and notes the hands in the root clone the search expands."""

    def __init__(self, players, history_length):
        self.players, self.at, self.roots = players, history_length, []

    def evaluate(self, state):
        return np.zeros(self.players)

    def prior(self, state):
        if len(state.history()) == self.at:  # the search's own clone of the root, before any action
            self.roots.append({s: _hand(state, s) for s in range(self.players)})
        legal = state.legal_actions()
        return [(a, 1 / len(legal)) for a in legal]


@light_and_slow("decisions", 12, 60)
def test_openspiel_mcts_clones_cannot_reproduce_other_hands(decisions):
    """OpenSpiel's MCTSBot searches clones; they hold the acting seat's view re-dealt, not the other hands.

    The statistic: of the other seats' hand cards the acting seat cannot follow, the share a clone puts in the
    same hand. A peeking copy (copy.deepcopy, exact) scores 1.0; the clones must score near an honest re-deal's
    rate (a few per cent), far below."""
    pyspiel = _spiel()
    from open_spiel.python.algorithms import mcts

    rng = random.Random(5)
    matched = total = 0
    expected = []
    done = 0
    for deal in itertools.count():  # a deal of its own (a fixed seed) for each decision searched
        if done == decisions:
            break
        game = pyspiel.load_game("python_fengsheng", {"players": 4, "seed": 500 + deal})
        state = _dealt(game, rng, rng.randrange(5, 40))
        if state.is_terminal():
            continue
        watcher = _Watcher(4, len(state.history()))
        bot = mcts.MCTSBot(game, 2.0, 3, watcher, random_state=np.random.RandomState(done))
        bot.step(state)
        assert watcher.roots, "the search expanded no root clone"
        peek = copy.deepcopy(state)  # exact
        exact = _hidden_match_rate(state, [{s: _hand(peek, s) for s in range(4)}])
        if exact[1]:
            assert exact[0] == exact[1]  # the statistic sees a peek
        m, n, e = _hidden_match_rate(state, watcher.roots[:1])
        matched, total = matched + m, total + n
        if n:
            expected.append(e)
        done += 1
    assert total >= decisions  # enough hidden cards to judge
    rate, honest = matched / total, sum(expected) / len(expected)
    assert rate < 0.35, f"clones put {rate:.0%} of hidden cards back in their hands (honest: {honest:.0%})"
    assert rate <= 3 * honest + 0.1


def test_openspiel_other_seats_information_states_in_a_clone_are_re_dealt():
    """In a clone, another seat's information state (its hand, the cards its history says it drew) names the
    clone's cards: its true hidden cards come back at an honest re-deal's rate, not always."""
    pyspiel = _spiel()
    rng = random.Random(1)
    in_hand = in_draws = total = 0
    expected = []
    for deal in range(16):
        game = pyspiel.load_game("python_fengsheng", {"players": 4, "seed": 600 + deal})
        state = _dealt(game, rng, rng.randrange(5, 60))
        if state.is_terminal():
            continue
        seat, clone = state.current_player(), state.clone()
        in_truth = {s: _hand(state, s) for s in range(4)}
        m, n, e = _hidden_match_rate(state, [in_truth])
        assert m == n  # the truth matches itself: the statistic sees a peek
        followed = {k["card"]["id"] for k in state.game_state.observation(seat)["known_cards"]}
        for other in (s for s in range(4) if s != seat):
            info = json.loads(clone.information_state_string(other))
            drawn = {
                c for r in info["history"] if r.get("e") == "draw" and r["seat"] == other for c in r["cards"] or ()
            }
            hidden = set(in_truth[other]) - followed
            in_hand += len(hidden & {c["id"] for c in info["me"]["hand"]})
            in_draws += len(hidden & drawn)
            total += len(hidden)
        expected.append(e)
    honest = sum(expected) / len(expected)
    assert total >= 50
    for found in (in_hand, in_draws):
        assert found / total <= 3 * honest + 0.1, (
            f"{found}/{total} true hidden cards in the clone (honest {honest:.0%})"
        )


def test_dropped_copies_stop_their_engines():
    """A search drops clones by the thousand; a paused engine is freed only once stopped, so a state stops its
    GameState when it is freed (and a PettingZoo reset stops the last episode's)."""
    pyspiel = _spiel()
    pz = _pz()
    game = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 4})
    state = _dealt(game, random.Random(0), 20)
    clone = state.clone()
    engine = clone.game_state
    assert not engine.is_terminal()
    del clone
    assert engine.is_terminal() and engine.result is None  # stopped, not played to an end
    assert not state.game_state.is_terminal()  # the real game goes on
    e = pz.FengshengAECEnv(players=3)
    e.reset(seed=1)
    first = e.game_state
    e.reset(seed=2)
    assert first.is_terminal() and not e.game_state.is_terminal()
    e.close()
    assert e.game_state.is_terminal()


RESAMPLE_SEED = 8  # the game's deal and the sampler's seed (with a fresh deal, 1 run in 25 met an acting seat
# with an empty hand, which every re-deal leaves empty)


def test_openspiel_resample_from_infostate():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_fengsheng", {"players": 4, "seed": RESAMPLE_SEED})
    state = _at_unseen_cards(  # the next seat holds cards the acting seat cannot see, so re-deals can differ there
        game, random.Random(8), 30, lambda s: s.current_player(), lambda s: {(s.current_player() + 1) % 4}
    )
    seat, other = state.current_player(), (state.current_player() + 1) % 4
    key = state.information_state_string(seat)
    sampler = pyspiel.UniformProbabilitySampler(RESAMPLE_SEED, 0.0, 1.0)  # seeded: the same samples every run
    samples = [state.resample_from_infostate(seat, sampler) for _ in range(3)]
    for s in samples:
        assert s.information_state_string(seat) == key
        assert s.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert s.current_player() == seat and s.history() == [] and s.legal_actions() == state.legal_actions()
        assert s._world.seed is None
    hands = [tuple(_hand(s, other)) for s in samples]
    assert len(set(hands)) > 1  # a fresh re-deal each call
    same = [state.resample_from_infostate(seat, iter([0.25, 0.5, 0.75] * 2).__next__) for _ in range(2)]
    assert _hand(same[0], other) == _hand(same[1], other)  # the sampler decides
    # for a seat not to act, no sample: the question pending was made from the acting seat's true hand
    with pytest.raises(pyspiel.SpielError, match=f"seat to act \\(P{seat}\\), not for P{other}"):
        state.resample_from_infostate(other, sampler)


def test_openspiel_resample_of_a_stopped_game_is_refused():
    """A state whose game_state was stopped (close()) is terminal to OpenSpiel, and resample_from_infostate gave its
    exact copy, which plays on from the question it was stopped at: the truth, for any player. It is refused."""
    pyspiel = _spiel()
    state = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 4}).new_initial_state()
    state.apply_action(0)  # the deal
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    state.game_state.close()
    assert state.is_terminal()
    for player in range(3):
        with pytest.raises(pyspiel.SpielError, match="stopped before its end"):
            state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(4, 0.0, 1.0))


def test_openspiel_information_state_has_perfect_recall():
    """The information state string is the seat's observation: its history only grows (every record it read and
    every decision it answered stays); the tensor is InfoStateEncoder's vector of the same observation."""
    pyspiel = _spiel()
    from interpreter.rl.encoding import InfoStateEncoder

    game = pyspiel.load_game("python_fengsheng", {"players": 3, "seed": 6})
    state = _dealt(game)
    enc = InfoStateEncoder(load_cached(), 3)
    assert game.information_state_tensor_size() == enc.size
    rng = random.Random(1)
    before = {s: [] for s in range(3)}
    for _ in range(80):
        if state.is_terminal():
            break
        for s in range(3):
            info = json.loads(state.information_state_string(s))
            assert info["history"][: len(before[s])] == before[s]
            before[s] = info["history"]
        seat = state.current_player()
        answered = sum(1 for r in before[seat] if "d" in r)
        state.apply_action(rng.choice(state.legal_actions()))
        vec = np.asarray(state.information_state_tensor(seat), np.float32)
        assert np.array_equal(vec, enc.encode(state.game_state.observation(seat)))
        mine = json.loads(state.information_state_string(seat))["history"]
        assert sum(1 for r in mine if "d" in r) >= answered  # a forced choice is not a decision
    assert enc.views(vec)["own_kinds"].sum() == sum(1 for r in mine if "d" in r)


class _CutRollouts:
    """OpenSpiel's random-rollout evaluator with rollouts cut at `length` actions (its own max_length is not in
    open_spiel 1.5, the oldest the extra allows): the returns where the rollout stops (0 for all mid-game)."""

    def __init__(self, evaluator, rs, length):
        self.prior, self.rs, self.length = evaluator.prior, rs, length

    def evaluate(self, state):
        state = state.clone()
        for _ in range(self.length):
            if state.is_terminal():
                break
            outcomes = state.chance_outcomes() if state.is_chance_node() else None
            state.apply_action(outcomes[0][0] if outcomes else self.rs.choice(state.legal_actions()))
        return np.array(state.returns())


@pytest.mark.parametrize("games, max_turns", [(1, 1), pytest.param(2, 0, marks=pytest.mark.slow)])
def test_openspiel_ismcts_plays_whole_games(games, max_turns):
    """OpenSpiel's own ISMCTSBot at every seat, to the end: everyday one game cut after its first turn (every seat
    answers: about 12 searched steps, the first bot's 2 of them with 4 simulations over its 2 worlds), the slow run
    two games to their natural end (rollouts cut at 30 actions). In the last game the first bot reuses two sampled
    worlds (max_world_samples), so it searches clones of samples."""
    pyspiel = _spiel()
    from open_spiel.python.algorithms import ismcts, mcts

    rs = np.random.RandomState(0)
    evaluator = _CutRollouts(mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs), rs, 30)
    for g in range(games):
        game = pyspiel.load_game("python_fengsheng", {"players": 3, "max_turns": max_turns, "seed": 20 + g})
        bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rs) for _ in range(3)]
        if g == games - 1:
            bots[0] = ismcts.ISMCTSBot(game, evaluator, 2.0, 4, max_world_samples=2, random_state=rs)
        for bot in bots:  # its own resampler draws from an unseeded UniformProbabilitySampler: seed it from rs
            bot.set_resampler(lambda s, seat: s.resample_from_infostate(seat, rs.uniform))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(0)
                continue
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        result = state.game_state.result
        assert result is not None and (max_turns or result.reason != "turn_limit")


def test_openspiel_observations_match_the_pettingzoo_encoding():
    pyspiel = _spiel()
    pz = _pz()
    game = pyspiel.load_game("python_fengsheng", {"players": 5, "seed": 9})
    state = _dealt(game)
    e = pz.FengshengAECEnv(players=5, info_state=True)
    e.reset(seed=9)
    observer = game.make_py_observer()
    info_observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(4)
    for _ in range(25):
        for seat in range(5):
            pz_obs = e.observe(f"player_{seat}")
            vec = pz_obs["observation"]
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), vec)
            assert np.array_equal(np.asarray(state.information_state_tensor(seat), np.float32), pz_obs["info_state"])
            observer.set_from(state, seat)
            assert np.array_equal(observer.tensor, vec)
            info_observer.set_from(state, seat)
            assert np.array_equal(info_observer.tensor, pz_obs["info_state"])
            assert json.loads(state.observation_string(seat)) == json.loads(
                json.dumps(thaw(e.game_state.observation(seat)), ensure_ascii=False)
            )
            assert state.information_state_string(seat) == state.observation_string(seat)
        a = rng.choice(state.legal_actions())
        state.apply_action(a)
        e.step(a)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() == e.encoder.size
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size() == e.info_encoder.size
    with pytest.raises(ValueError, match="one seat"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False, public_info=False))


# ---------------------------------------------------------------------------------------------- docs/rl.md


def test_rl_doc_python_examples_run(monkeypatch):
    """Each ```python block of docs/rl.md runs as written (a fresh namespace, the repository as working directory):
    the page says so, as docs/step-api.md does of its own (tests/test_observation_schema.py)."""
    import re
    from pathlib import Path

    _pz(), _spiel()
    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "rl.md").read_text(encoding="utf-8")
    blocks = [body for lang, body in re.findall(r"```(\w+)\n(.*?)```", text, re.S) if lang == "python"]
    assert len(blocks) >= 3, "docs/rl.md lost its examples"
    monkeypatch.chdir(root)
    for i, body in enumerate(blocks, 1):
        try:
            exec(compile(body, f"rl.md example {i}", "exec"), {"__name__": f"rl_example_{i}"})
        except Exception as e:  # pragma: no cover - the message is the point
            raise AssertionError(f"rl.md, python example {i} fails: {type(e).__name__}: {e}\n{body}") from e


def test_rl_doc_figures_are_generated_from_the_code():
    from interpreter.rl import rl_doc

    text = rl_doc.DOC.read_text(encoding="utf-8")
    assert text == rl_doc.generate(text), "docs/rl.md is out of date: run `python -m interpreter.rl.rl_doc --write`"
    content = load_cached()
    assert f"**{GameState(content, 3, 1).action_space_size}** action ids" in text
    from interpreter.rl.encoding import DECISION_KINDS, Encoder, InfoStateEncoder

    assert f"| {Encoder(content, 2).size} | " in text and f" | {Encoder(content, 10).size} |" in text
    assert f"| {InfoStateEncoder(content, 2).size} | " in text and f" | {InfoStateEncoder(content, 10).size} |" in text
    assert (
        f"`K` = {len(DECISION_KINDS) + 1} decision" in text
        and f"`InfoStateEncoder.LAST` = {InfoStateEncoder.LAST}" in text
    )
    last = rl_doc.action_groups(content)[-1]
    assert last[2] == GameState(content, 3, 1).action_space_size - 1
    assert f"| {last[1]}–{last[2]} | `use` |" in text
