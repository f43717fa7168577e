"""The search bot (determinized IS-MCTS over its seat's World): honest, seeded, legal; the World it samples.

Honest means more than "it is handed only its observation": the determinizations it searches
must not depend on what its seat cannot see. So a World built from two games the seat cannot tell
apart (the real one and a resample of it) deals the very same samples, and the bot gives the same
answers with the same statistics.
"""

from __future__ import annotations

import math
import random

import pytest
from game_states import midgame

from interpreter.agents import RandomAgent
from interpreter.agents.kinds import factory_of
from interpreter.agents.search import SearchAgent
from interpreter.engine.errors import EngineError
from interpreter.engine.game import Game
from interpreter.engine.step import GameState, World, drive
from interpreter.sim import make_agents, parse_agents


def _hands(state: GameState) -> list:
    return [[c["id"] for c in state.observation(s)["me"]["hand"]] for s in range(state.n_players)]


@pytest.mark.parametrize("n, seed", [(5, 3), (7, 11)])
def test_a_world_deals_the_same_samples_whatever_the_seat_cannot_see(content, n, seed):
    state = midgame(content, n, seed, 50)
    me = state.current_player()
    twin = state.resample(me, random.Random(99))  # another game `me` cannot tell from this one
    assert twin.observation(me) == state.observation(me)
    others = [s for s in range(n) if s != me]
    assert [_hands(twin)[s] for s in others] != [_hands(state)[s] for s in others]
    for k in range(3):
        a = state.world(me).sample(random.Random(k))
        b = twin.world(me).sample(random.Random(k))
        assert a.observation(me) == state.observation(me)
        assert [a.observation(s) for s in range(n)] == [b.observation(s) for s in range(n)]
        assert [p.identity for p in a._game.players] == [p.identity for p in b._game.players]
        rng = random.Random(k)
        while not a.is_terminal():  # the same future too: the generator of chance is the sample's
            assert a.legal_actions() == b.legal_actions()
            action = rng.choice(a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
        assert a.returns() == b.returns()
    assert _hands(state.world(me).sample(random.Random(0))) != _hands(state.world(me).sample(random.Random(1)))


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_answers_do_not_depend_on_what_the_seat_cannot_see(content, rollout):
    budget = 6 if rollout == "random" else 2
    for seed in (5, 8):
        state = midgame(content, 5, seed, 40)
        me = state.current_player()
        twin = state.resample(me, random.Random(seed))
        assert _hands(twin) != _hands(state)
        bot, bot_twin = SearchAgent(7, budget, rollout=rollout), SearchAgent(7, budget, rollout=rollout)
        answer = bot.search(state.observation(me), state.action_descriptors(), state.world(me))
        answer_twin = bot_twin.search(twin.observation(me), twin.action_descriptors(), twin.world(me))
        assert answer == answer_twin
        assert bot.last == bot_twin.last  # every simulation alike, not only the answer
        assert sum(v for v, _mean in bot.last.values()) == budget
        assert answer in state.legal_actions()


def test_seeded_and_its_seed_matters(content):
    state = midgame(content, 5, 21, 60)
    me = state.current_player()

    def stats(seed: int) -> dict:
        bot = SearchAgent(seed, 8, rollout="random")
        bot.search(state.observation(me), state.action_descriptors(), state.world(me))
        return bot.last

    assert stats(1) == stats(1)
    assert any(stats(1) != stats(s) for s in (2, 3, 4))


class _HandedWorlds:
    """A search bot that notes the seat of every World it is handed (everything else is the bot's own)."""

    def __init__(self, bot: SearchAgent) -> None:
        self.bot = bot
        self.seats: list[int] = []
        self.observes, self.searches, self.referee = bot.observes, bot.searches, bot.referee

    def __getattr__(self, name: str):
        return getattr(self.bot, name)

    def search(self, obs, actions, world):
        self.seats.append(world.seat)
        return self.bot.search(obs, actions, world)


def test_a_game_with_a_search_bot_replays_and_the_driver_hands_the_same_world(content):
    """drive() gives the bot its World through the game (its `worlds` port, World.of_game); the step API from
    the state: the same answers, so a seed replays a game with search bots exactly, and every answer was legal
    (the engine checks each one). Games cut at 3 turns (37 answers; the whole game is about 120). The search bot
    sits at seat 1, not 0, and every World the driver hands it is its own seat's: a driver that handed seat 0's
    view (a bug a search bot at seat 0 could not show) would let the bot sample from another seat's secrets."""
    kinds = ("random", "search:2:random", "heuristic")
    agents = make_agents(kinds, 17, content)
    assert isinstance(agents[1], SearchAgent)
    searcher = _HandedWorlds(agents[1])
    game = drive(content, 3, 17, [agents[0], searcher, agents[2]], max_turns=3)
    assert game.result is not None
    assert searcher.seats and set(searcher.seats) == {1}
    again = drive(content, 3, 17, make_agents(kinds, 17, content), max_turns=3)
    assert again.actions_taken == game.actions_taken
    agents = make_agents(kinds, 17, content)
    state = GameState(content, 3, 17, max_turns=3)
    while not state.is_terminal():
        seat = state.current_player()
        agent = agents[seat]
        obs = state.observation(seat) if agent.observes else None
        if agent.searches:
            action = agent.search(obs, state.action_descriptors(), state.world(seat))
        else:
            action = agent.act(obs, state.action_descriptors())
        state.apply_action(action)
    assert state.history() == game.actions_taken
    assert sum(1 for a in agents if isinstance(a, SearchAgent)) == 1


def test_without_a_world_it_answers_as_its_heuristic_guide(content):
    state = midgame(content, 4, 2, 30)
    me = state.current_player()
    bot = SearchAgent(4, 10)
    assert bot.act(state.observation(me), state.action_descriptors()) in state.legal_actions()
    assert bot.last == {}


def test_specs(content):
    assert parse_agents("search:20", 3) == ("search:20",) * 3
    assert parse_agents("search,heuristic,search:3:random", 3) == ("search", "heuristic", "search:3:random")
    bot = factory_of("search:12:heuristic")(1, content)
    assert isinstance(bot, SearchAgent) and bot.simulations == 12 and bot.rollout == "heuristic"
    bot = factory_of("search")(1, content)
    assert isinstance(bot, SearchAgent) and bot.simulations == 50 and bot.rollout == "random"
    assert factory_of("search:7")(1, content).rollout == "random"
    assert isinstance(factory_of("random")(1), RandomAgent)
    for bad, says in [
        ("search:0", "positive integer"),
        ("search:x", "positive integer"),
        ("search:5:greedy", "unknown rollout"),
        ("heuristic:5", "takes no argument"),
        ("minimax", "unknown agent"),
    ]:
        with pytest.raises(ValueError, match=says):
            factory_of(bad)
    with pytest.raises(ValueError, match="unknown rollout"):
        parse_agents("heuristic,search:2:bad", 2)


def test_a_sample_the_engine_stops_counts_as_a_draw_not_a_crash(content):
    """A sample whose play the engine stops (an EngineError: e.g. E503, a game stuck in a loop) must not end
    the real game: the simulation counts as a draw and is counted in `failed`."""
    from interpreter.engine.errors import EngineError

    state = midgame(content, 5, 9, 30)
    me = state.current_player()

    class Stuck:
        def __init__(self, inner: GameState) -> None:
            self.inner = inner

        def __getattr__(self, name: str):
            return getattr(self.inner, name)

        def apply_action(self, action: int) -> None:
            if self.inner.current_player() != me:
                raise EngineError("E503 the game is stuck (made up)")
            self.inner.apply_action(action)

    class World:
        def sample(self, rng: random.Random):
            return Stuck(state.world(me).sample(rng))

    bot = SearchAgent(3, 5)
    answer = bot.search(state.observation(me), state.action_descriptors(), World())
    assert answer in state.legal_actions()
    assert bot.failed == 5
    assert all(mean == 0.5 for _visits, mean in bot.last.values())


# ---------------------------------------------------------------------- the paired search (search:N:paired)


def _at_kind(content, n: int, seed: int, kinds: frozenset, actions: int = 30) -> GameState:
    """A game of heuristic bots stopped at a decision of one of `kinds` with two options or more."""
    from interpreter.agents.heuristic import HeuristicAgent

    state = GameState(content, n, seed)
    bots = [HeuristicAgent(seed * 31 + s) for s in range(n)]
    while not state.is_terminal():
        kind, legal = state.decision_kind, state.legal_actions()
        if len(state.history()) >= actions and kind in kinds and len(legal) > 1:
            return state
        s = state.current_player()
        state.apply_action(bots[s].act(state.observation(s), state.action_descriptors()))
    raise AssertionError("the game ended first")


def test_paired_answers_do_not_depend_on_what_the_seat_cannot_see(content):
    """At a send (seed 4) and a send_target (seed 8) decision: the same answer and statistics from twin games. (Seed
    4's send, not seed 5's: the same kind, searched in a fifth of the CPU.)"""
    from interpreter.agents.search import PAIRED_KINDS

    for seed in (4, 8):
        state = _at_kind(content, 5, seed, PAIRED_KINDS)
        me = state.current_player()
        twin = state.resample(me, random.Random(seed))
        assert twin.observation(me) == state.observation(me)
        assert _hands(twin) != _hands(state)
        bot, bot_twin = SearchAgent(7, 2, rollout="paired"), SearchAgent(7, 2, rollout="paired")
        answer = bot.search(state.observation(me), state.action_descriptors(), state.world(me))
        answer_twin = bot_twin.search(twin.observation(me), twin.action_descriptors(), twin.world(me))
        assert answer == answer_twin and answer in state.legal_actions()
        assert len(bot.last) >= 2 and bot.last == bot_twin.last  # it searched, and every result alike


def test_paired_keeps_the_guides_answer_unless_another_does_clearly_better(content):
    """The sign test, on a World whose samples decide the result by the action answered: an action that wins
    in every sample replaces the guide's answer; when every action does the same, the guide's answer stays."""
    state = _at_kind(content, 5, 3, frozenset({"receive", "send"}))
    me = state.current_player()
    obs, actions = state.observation(me), state.action_descriptors()
    ids = [int(d["id"]) for d in actions]
    prior = SearchAgent(11, 1, rollout="paired").guide.act(obs, actions)
    winner = next(a for a in ids if a != prior)

    class Decided:
        """A sample in which `winner` wins the game at once for `me` (any other action: the game goes on)."""

        def __init__(self, inner: GameState, wins: bool) -> None:
            self.inner, self.wins, self.chosen = inner, wins, None

        def __getattr__(self, name: str):
            return getattr(self.inner, name)

        def apply_action(self, action: int) -> None:
            if self.chosen is None:
                self.chosen = action
            self.inner.apply_action(action)

        def is_terminal(self) -> bool:
            # over once answered: a game played on would score nobody won all the same (returns), only slower
            return self.chosen is not None or self.inner.is_terminal()

        def returns(self) -> list[float]:
            if self.wins and self.chosen == winner:
                return [1.0 if s == me else -1.0 for s in range(state.n_players)]
            return [0.0] * state.n_players  # (nobody won)

    class World:
        def __init__(self, wins: bool) -> None:
            self.wins = wins

        def sample(self, rng: random.Random, weigh=None):
            return Decided(state.world(me).sample(rng, weigh), self.wins)

    bot = SearchAgent(11, 6, rollout="paired", horizon=0)
    assert bot.search(obs, actions, World(True)) == winner
    assert bot.last[winner] == (6, 1.0)
    bot = SearchAgent(11, 6, rollout="paired", horizon=0)
    assert bot.search(obs, actions, World(False)) == prior


def test_paired_samples_fit_the_colours_a_seat_accepted(content):
    """A seat that accepted red intel by choice is dealt a red identity in more of the samples kept than in the
    uniform re-deal. Measured over 400 samples each: red in 26% of the uniform ones, 88.5% of the weighed ones;
    over 30 each the difference is about 18.8 (sd 3.0): at least 8 is missed with chance under 0.0002, and a
    weigh that changed nothing (both 26%, sd of the difference 3.4) would pass with chance under 0.01."""
    state = _at_kind(content, 5, 4, frozenset({"receive", "send"}))
    me = state.current_player()
    world = state.world(me)
    other = next(s for s in range(5) if s != me and str(s) not in state.observation(me)["known_identities"])
    bot = SearchAgent(2, 1, rollout="paired")
    camps = bot.guide.camps

    def red(seed: int) -> bool:
        identity = world.sample(random.Random(seed))._game.players[other].identity
        return identity is not None and camps.get(identity.id) == "red"

    weigh = bot._weigh({other: 3.0}, {})

    def red_weighed(seed: int) -> bool:
        sample = world.sample(random.Random(seed), weigh)
        again = world.sample(random.Random(seed), weigh)  # the same seed and belief: the same sample
        assert [p.identity for p in sample._game.players] == [p.identity for p in again._game.players]
        assert sample.observation(me) == again.observation(me) == state.observation(me)
        identity = sample._game.players[other].identity
        sample.close()
        again.close()
        return identity is not None and camps.get(identity.id) == "red"

    uniform = sum(red(bot.rng.getrandbits(64)) for _ in range(30))
    leaning = sum(red_weighed(bot.rng.getrandbits(64)) for _ in range(30))
    assert leaning >= uniform + 8


def test_paired_samples_keep_to_what_its_probes_showed(content):
    """A seat its 试探 showed to be red (the guide's probe readings) is red in every sample dealt by the search's
    belief; with no reading and no lean it has no belief to deal by."""
    state = _at_kind(content, 5, 4, frozenset({"receive", "send"}))
    me = state.current_player()
    world = state.world(me)
    other = next(s for s in range(5) if s != me and str(s) not in state.observation(me)["known_identities"])
    bot = SearchAgent(3, 1, rollout="paired")
    assert bot._weigh({}, {}) is None
    weigh = bot._weigh({}, {other: frozenset({"red"})})
    for i in range(20):
        identity = world.sample(random.Random(i), weigh)._game.players[other].identity
        assert identity is not None and bot.guide.memory.identity_colors[identity.id] == "red"


def test_a_sample_left_before_its_end_is_freed_once_closed(content):
    """A suspended engine cannot be garbage-collected: a search that leaves its samples a few turns on must close
    them, or every sample keeps its whole game (a paired run grew by about 100 MB a game)."""
    import gc
    import weakref

    state = midgame(content, 5, 6, 30)
    world = state.world(state.current_player())

    def left(close: bool) -> weakref.ref:  # (left(False) stays alive after gc.collect(): greenlet's limit)
        sample = world.sample(random.Random(1))
        sample.apply_action(sample.legal_actions()[0])
        game = weakref.ref(sample._game)
        if close:
            sample.close()
            assert sample.is_terminal() and sample.legal_actions() == ()
        return game

    freed = left(True)
    gc.collect()
    assert freed() is None


def test_a_search_bot_in_a_game_made_without_its_world_is_told_how_to_seat_it(content):
    """The World is a port the driver passes into Game (worlds=World.of_game): a game made without it cannot
    seat a search bot, and says so, whatever modules are imported; made with it, the bot plays."""
    agents = make_agents(("search:2:random", "random", "random"), 5, content)
    with pytest.raises(EngineError, match="made without its World"):
        Game(content, 3, 5, agents, max_turns=2).run()
    agents = make_agents(("search:2:random", "random", "random"), 5, content)
    assert Game(content, 3, 5, agents, max_turns=2, worlds=World.of_game).run() is not None


def test_paired_searches_only_the_kinds_and_candidates_it_is_given(content):
    """`kinds`: a decision of a kind it is not given is answered as its guide answers, unsearched; the same decision
    is searched when its kind is given. `candidates`: how many actions it compares, the guide's included."""
    from interpreter.agents.heuristic import HeuristicAgent

    state = _at_kind(content, 5, 4, frozenset({"send"}))
    me = state.current_player()
    obs, actions = state.observation(me), state.action_descriptors()
    assert len(actions) > 2
    prior = HeuristicAgent(7).act(obs, actions)
    off = SearchAgent(7, 2, rollout="paired", kinds=frozenset({"receive"}))
    assert off.search(obs, actions, state.world(me)) == prior and off.last == {}
    kept = SearchAgent(7, 2, rollout="paired")
    kept.search(obs, actions, state.world(me))
    assert len(kept.last) == min(4, len(actions)) and prior in kept.last
    two = SearchAgent(7, 2, rollout="paired", kinds=frozenset({"send"}), candidates=2)
    two.search(obs, actions, state.world(me))
    assert len(two.last) == 2 and prior in two.last
    with pytest.raises(ValueError, match="at least two actions"):
        SearchAgent(7, 2, rollout="paired", candidates=1)


def test_paired_lean_weight_sets_how_much_accepted_colours_count(content):
    """A deal that makes blue a seat that accepted three red intel more than blue: kept e^(-0.7 * 6) of the time by
    default, always with a lean weight of 0 (the probes' readings still rule deals out)."""
    bot = SearchAgent(2, 1, rollout="paired")
    blue = next(i for i, camp in bot.guide.camps.items() if camp == "blue")
    red = next(i for i, camp in bot.guide.camps.items() if camp == "red")
    kept, flat = bot._weigh({1: 3.0}, {}), SearchAgent(2, 1, rollout="paired", lean_weight=0.0)._weigh({1: 3.0}, {})
    assert kept is not None and flat is not None
    assert kept({1: blue}) == pytest.approx(math.exp(-4.2)) and kept({1: red}) == 1.0
    assert flat({1: blue}) == 1.0 == flat({1: red})
    probed = SearchAgent(2, 1, rollout="paired", lean_weight=0.0)._weigh({1: 3.0}, {1: frozenset({"red"})})
    assert probed is not None and probed({1: blue}) == 0.0


def test_paired_ranked_candidates_are_the_guides_next_best_cards(content):
    """`rank="guide"`: at a send with more options than candidates, the card compared with the guide's answer is the
    one the guide itself sends when its answer is not on offer (its next-best card); drawn at random, another. The
    guide's answer is the same either way."""
    from interpreter.agents.heuristic import HeuristicAgent

    for seed in (4, 8):
        state = _at_kind(content, 5, seed, frozenset({"send"}))
        me = state.current_player()
        obs, actions = state.observation(me), state.action_descriptors()
        prior = HeuristicAgent(7).act(obs, actions)
        following = HeuristicAgent(7).act(obs, [d for d in actions if int(d["id"]) != prior])
        ranked = SearchAgent(7, 1, rollout="paired", candidates=2, rank="guide")
        ranked.search(obs, actions, state.world(me))
        assert set(ranked.last) == {prior, following}
        drawn = SearchAgent(7, 1, rollout="paired", candidates=2)
        drawn.search(obs, actions, state.world(me))
        assert prior in drawn.last and following not in drawn.last
    with pytest.raises(ValueError, match="unknown ranking"):
        SearchAgent(7, 2, rollout="paired", rank="best")


def test_paired_ranked_targets_follow_the_guides_plan_and_leave_its_answers(content):
    """`rank="guide"` at its own ↑ sends' targets (8 players, seven seats; a search bot at every seat): the target
    compared with the guide's is a seat the guide values next for the card sent (read from its own send's record),
    valued as the guide valued the target it planned; and all game long each guide's answers and generator are those
    of a heuristic bot in its seat (ranking reads the guide's values, never its generator)."""
    n, checked = 8, 0
    for seed in (6, 7):
        checked += _ranked_targets_checked(content, n, seed)
    assert checked >= 3


def _ranked_targets_checked(content, n: int, seed: int) -> int:
    """One game of the test above; how many ↑ targets it checked."""
    from interpreter.agents.heuristic import HeuristicAgent

    state = GameState(content, n, seed)
    twins = [HeuristicAgent(seed * 31 + s) for s in range(n)]  # each guide's twin, answering the same observations
    # (one sample: it never overrules, the sign test asks for three that differ)
    bots = [
        SearchAgent(seed * 31 + s, 1, rollout="paired", candidates=2, rank="guide", kinds=frozenset({"send_target"}))
        for s in range(n)
    ]
    plans: list = [[] for _ in range(n)]  # each guide's plan of each option at its seat's last send
    checked = 0
    while not state.is_terminal():
        s = state.current_player()
        obs, actions = state.observation(s), state.action_descriptors()
        bot, twin = bots[s], twins[s]
        answer = twin.act(obs, actions)
        assert bot.search(obs, actions, state.world(s)) == answer
        assert bot.guide.rng.getstate() == twin.rng.getstate()
        if state.decision_kind == "send":
            plans[s] = list(twin._plans)
        elif state.decision_kind == "send_target" and obs["transit"] is None and len(actions) > 2:
            values = bot._guide_values(obs, actions, "send_target")
            sent = next(r["choice"] for r in reversed(obs["history"]) if r.get("d") == "send" and r.get("seat") == s)
            assert values[answer] == pytest.approx(plans[s][sent][0])  # the guide's own value of the planned target
            (compared,) = set(bot.last) - {answer}
            assert values[compared] == max(v for a, v in values.items() if a != answer)  # (of several alike: drawn)
            checked += 1
        state.apply_action(answer)
    return checked


def test_paired_confirm_plays_an_overrule_again_on_fresh_samples(content):
    """`confirm`: an action that won every sample it was chosen on but none of the fresh ones played after is not
    taken; without `confirm` it is (a World whose samples let the other action win only while it deals the first
    twelve samples: six for each of the two actions)."""
    state = _at_kind(content, 5, 3, frozenset({"receive"}))
    me = state.current_player()
    obs, actions = state.observation(me), state.action_descriptors()
    assert len(actions) == 2
    prior = SearchAgent(11, 1, rollout="paired").guide.act(obs, actions)
    (winner,) = (int(d["id"]) for d in actions if int(d["id"]) != prior)

    class Dealt:
        """A sample over at once: `me` wins if it answered `winner` and the World called it lucky."""

        def __init__(self, inner: GameState, lucky: bool) -> None:
            self.inner, self.lucky, self.chosen = inner, lucky, None

        def __getattr__(self, name: str):
            return getattr(self.inner, name)

        def apply_action(self, action: int) -> None:
            self.chosen = action

        def is_terminal(self) -> bool:
            return True

        def returns(self) -> list[float]:
            won = self.lucky and self.chosen == winner
            return [1.0 if s == me and won else -1.0 if won else 0.0 for s in range(state.n_players)]

    class World:
        def __init__(self) -> None:
            self.dealt = 0

        def sample(self, rng: random.Random, weigh=None):
            self.dealt += 1
            return Dealt(state.world(me).sample(rng, weigh), self.dealt <= 12)

    kept = SearchAgent(11, 6, rollout="paired", horizon=0)
    assert kept.search(obs, actions, World()) == winner
    confirmed = SearchAgent(11, 6, rollout="paired", horizon=0, confirm=4)
    world = World()
    assert confirmed.search(obs, actions, world) == prior and world.dealt == 12 + 2 * 4
