"""The seat boundary: what an agent is given depends only on what its seat may know, and it can change nothing.

* resample invariance: at a decision, re-dealing everything seat s cannot see
  leaves observation(s) identical (checked in place while random games go on,
  and through GameState.resample);
* clone: a clone continued with the same actions ends exactly like the original;
* sandbox: what agents get is plain data with no engine object in it; writing
  to it fails or changes nothing; answers that were not offered are refused
  and nothing is applied;
* per-seat logs: a seat's copy never names another seat's hidden cards,
  identity, task or decisions (checked against the referee's log by the rules
  of visibility, not by the engine's own bookkeeping).
"""

from __future__ import annotations

import json
import random

import pytest

from conftest import light_and_slow
from interpreter.agents import Agent, RandomAgent
from interpreter.engine.errors import IllegalAction
from interpreter.engine.frozen import FrozenDict
from interpreter.engine.observation import project
from interpreter.engine.step import GameState, _redeal, drive
from redeal import dealt_for


def _random_play(state: GameState, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def _resample_everywhere(content, games: int, every_seat: bool, min_checks: int = 0, max_turns: int | None = None):
    """Random games in which, at every decision, a seat gets everything it cannot see re-dealt in place.

    every_seat: the seats take turns (decision k re-deals seat k mod n), so every seat is
    checked throughout every game; otherwise the seat is drawn at random. min_checks: more games
    (up to four times as many) until at least this many decisions were checked, so the check
    keeps its size when new content makes the seeded games shorter. max_turns: games cut short.
    """
    checked = 0
    gi = 0
    while gi < games or (checked < min_checks and gi < 4 * games):
        n = 2 + gi % 9
        rng = random.Random(gi)
        state = GameState(content, n, 10_000 + gi, max_turns=max_turns)
        g = state._game
        while not state.is_terminal():
            seats = (g.decision_count % n,) if every_seat else (rng.randrange(n),)
            for s in seats:
                before = state.observation(s)
                _redeal(g, s, rng)
                after = state.observation(s)
                assert before == after, f"game {gi} ({n} players), decision {g.decision_count}, seat {s}"
                checked += 1
            g.check_invariants()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        g.check_invariants()
        gi += 1
    return checked


def test_observation_depends_only_on_what_the_seat_may_know(content):
    """9 games or more, at each count from 2 to 10 players: a random seat re-dealt at every decision, play goes on.

    (500 decisions or more checked every day, in games of at most 2 turns: a leak shows at nearly every decision
    after the fact it leaks, as a re-deal changes it; the slow run checks over 100,000, in 1,000 whole games.)"""
    assert _resample_everywhere(content, 9, every_seat=False, min_checks=501, max_turns=2) > 500


@pytest.mark.slow
def test_observation_invariance_over_1000_games(content):
    """The property at scale: 1,000 games at 2–10 players, a re-deal at every decision, seats in rotation."""
    assert _resample_everywhere(content, 1000, every_seat=True) > 100_000


def test_resample_keeps_the_observation_and_plays_on(content):
    """At one decision of a game at each count from 2 to 10 players: the seat to act's sample shows it the same, is
    the same from the same generator, clones exactly and plays on to the end; a sample for any other seat is refused
    (the question pending was made from the acting seat's true cards), and the re-deal alone for it shows that seat
    the same too."""
    rng = random.Random(5)
    for gi in range(9):  # one game at each count from 2 to 10 players
        n = 2 + gi % 9
        state = GameState(content, n, 500 + gi)
        _random_play(state, rng, rng.randrange(20, 160))
        if state.is_terminal():
            continue
        for s in range(n):
            if s != state.current_player():
                with pytest.raises(ValueError, match=f"seat to act \\(P{state.current_player()}\\), not for P{s}"):
                    state.resample(s, random.Random(gi * 100 + s))
                with pytest.raises(ValueError, match="seat to act"):
                    state.world(s)
                assert dealt_for(state, s, random.Random(gi * 100 + s)).observation(s) == state.observation(s)
                continue
            sample = state.resample(s, random.Random(gi * 100 + s))
            assert sample.observation(s) == state.observation(s)
            assert sample.legal_actions() == state.legal_actions()
            again = state.resample(s, random.Random(gi * 100 + s))  # same generator, same sample
            assert again._game.digest() == sample._game.digest()
            copy = sample.clone()  # a resampled state clones exactly too
            assert copy._game.digest() == sample._game.digest()
            _random_play(sample, rng, 10_000)
            assert sample.is_terminal()


def test_a_game_stopped_before_its_end_deals_no_sample(content):
    """A state stopped before its end (close(), or a game_state kept across PettingZoo's reset) re-plays to the
    question it was stopped at. Having no decision in hand, it was sampled for any seat, as a finished game is: a
    sample for a seat other than the one asked there kept that question as the truth asked it (the acting seat's
    options made from its true hand), the leak the seat-to-act rule shuts. No sample is dealt of it; its clone plays
    on and is sampled at its question as any game."""
    state, rng = GameState(content, 5, 3), random.Random(3)
    _random_play(state, rng, 40)
    asked = state.current_player()
    stopped = state.clone()
    stopped.close()
    for s in range(5):
        assert "stopped before its end" in stopped.sample_refused(s)
        with pytest.raises(ValueError, match=r"stopped before its end .* a clone\(\) of it plays on"):
            stopped.resample(s, random.Random(1))
        with pytest.raises(ValueError, match="stopped before its end"):
            stopped.world(s)
    again = stopped.clone()
    assert again.current_player() == asked
    assert again.resample(asked, random.Random(1)).observation(asked) == state.observation(asked)


def test_resample_redeals_what_the_seat_cannot_see(content):
    """Hidden hands and identities really change across samples; the seat's own hand never does."""
    state = GameState(content, 6, 77)
    _random_play(state, random.Random(1), 60)
    s = state.current_player()
    hands, idents = set(), set()
    for k in range(30):
        sample = state.resample(s, random.Random(k))
        g = sample._game
        assert sorted(c.uid for c in g.players[s].hand) == sorted(c.uid for c in state._game.players[s].hand)
        hands.add(tuple(sorted(c.uid for p in g.players if p.seat != s for c in p.hand)))
        idents.add(tuple(p.identity.id if p.identity else None for p in g.players))
    assert len(hands) > 20 and len(idents) > 3


def test_clone_continues_identically(content):
    """One game at each count from 2 to 10 players, cloned somewhere in its first 200 decisions."""
    rng = random.Random(9)
    for gi in range(9):
        n = 2 + gi % 9
        state = GameState(content, n, 900 + gi)
        _random_play(state, rng, rng.randrange(0, 200))
        copy = state.clone()
        assert copy.history() == state.history()
        assert [copy.observation(s) for s in range(n)] == [state.observation(s) for s in range(n)]
        cont = random.Random(gi)
        while not state.is_terminal():
            assert copy.legal_actions() == state.legal_actions()
            a = state.legal_actions()[cont.randrange(len(state.legal_actions()))]
            state.apply_action(a)
            copy.apply_action(a)
        assert copy.is_terminal()
        assert copy._game.digest_text() == state._game.digest_text()
        assert copy._game.log == state._game.log
        assert copy.returns() == state.returns()


def test_seed_and_actions_replay_the_game(content):
    """The fast driver and the step API play the same game from the same seed and answers."""
    a = drive(content, 7, 31, [RandomAgent(i) for i in range(7)], record=True)
    b = GameState(content, 7, 31)
    for action in a.actions_taken:
        b.apply_action(action)
    assert b.is_terminal() and b._game.digest_text() == a.digest_text()
    assert b._game.log == a.log


class DescriptorReader(RandomAgent):
    """A RandomAgent of its own class: the batch driver does not draw for it, it is handed every decision's
    descriptors through the game's driver and it reads them."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.answered = 0

    def act(self, observation, actions):
        assert all(d["id"] == i for d, i in zip(actions, actions.ids, strict=True))
        self.answered += 1
        return super().act(observation, actions)


def test_the_batch_driver_plays_the_game_the_agents_would_play_on_descriptors(content):
    """The batch driver (engine/drivers.py, sim.drive) draws a RandomAgent's answers from its generator without
    descriptors: the same answers, ids and game as the same agents answering act() from the descriptors through
    the game's own driver (step.drive), and as agents of a subclass, which the batch driver leaves to them."""
    from interpreter import sim
    from interpreter.engine.drivers import UniformDraws

    for n, seed in ((2, 3), (5, 11), (9, 4)):
        a = sim.drive(content, n, seed, [RandomAgent(seed * 10 + i) for i in range(n)])
        assert isinstance(a.decide, UniformDraws)  # (the batch's driver answered)
        b = drive(content, n, seed, [RandomAgent(seed * 10 + i) for i in range(n)])
        readers = [DescriptorReader(seed * 10 + i) for i in range(n)]
        c = sim.drive(content, n, seed, readers)
        assert a.decision_log == b.decision_log == c.decision_log and len(a.decision_log) > 20
        assert a.actions_taken == b.actions_taken == c.actions_taken
        assert a.digest_text() == b.digest_text() == c.digest_text()
        assert sum(r.answered for r in readers) == len(c.decision_log)  # every answer was act's


def test_the_batch_driver_draws_what_act_draws():
    from interpreter.engine.state import below

    for seed in range(20):
        a, b = RandomAgent(seed), RandomAgent(seed)
        for n in [*range(1, 70), 1, 2, 3, 200, 1000]:
            assert below(a.rng.getrandbits, n) == b.act(None, [{"id": i} for i in range(n)])


def test_the_batch_driver_checks_its_seats(content):
    """A driver for a different table size is refused; a mixed table (a heuristic bot among random agents) leaves
    the bot to the game's driver, with the same game as step.drive."""
    from interpreter import sim
    from interpreter.agents.heuristic import HeuristicAgent
    from interpreter.engine.drivers import UniformDraws
    from interpreter.engine.errors import EngineError
    from interpreter.engine.game import Game

    g = Game(content, 3, 1, [RandomAgent(i) for i in range(3)])
    with pytest.raises(EngineError, match="2 seats' draws for a game of 3"):
        UniformDraws(g, [None, None], g.decide)
    seats = lambda: [RandomAgent(1), HeuristicAgent(2), RandomAgent(3), RandomAgent(4)]  # noqa: E731
    a, b = sim.drive(content, 4, 9, seats()), drive(content, 4, 9, seats())
    assert a.actions_taken == b.actions_taken and a.digest_text() == b.digest_text()


def test_a_uniform_agent_gets_the_checks_every_agent_gets(content):
    """Without descriptors, the options are still checked: a card the seat cannot see, or two options that
    are the same action, is an engine error, as describe says it; legal options give describe's ids."""
    from interpreter.engine.decisions import Decision
    from interpreter.engine.errors import EngineError
    from interpreter.engine.game import Game

    g = Game(content, 5, 3, [RandomAgent(i) for i in range(5)])
    g.setup()
    other = g.players[1].hand[0]  # P1's card: P0 cannot see it
    ok = Decision("choose", 0, [*g.players[0].hand, g.players[2], None, True, False, "accept", "甲", "left", 7])
    ids, _ = g.describer.describe(ok)
    assert [g.describer.id_at(ok, i) for i in range(len(ok.options))] == list(ids)
    for bad, says in (
        (Decision("choose", 0, [g.players[0].hand[0], other]), "cannot see"),
        (Decision("confirm", 0, [True, True]), "the same action"),
        (Decision("choose", 0, [None, g.players[1], None]), "the same action"),
    ):
        for index in range(len(bad.options)):
            with pytest.raises(EngineError, match=says):
                g.describer.id_at(bad, index)


# ------------------------------------------------------------------ sandbox

PLAIN = (str, int, float, bool, type(None))


def _assert_plain(x, path="obs", walked: dict | None = None):
    """Every value in x is plain data. walked: the containers walked already, by id (kept alive in it, so an id is
    never reused): one an observation shares with an earlier one (its history records: about 500 records in
    116,000 places over a game's observations) is walked once, not 900,000 nodes a game."""
    if isinstance(x, (dict, tuple)) and walked is not None:
        if id(x) in walked:
            return
        walked[id(x)] = x
    if isinstance(x, dict):
        for k, v in x.items():
            assert isinstance(k, str), f"{path}: key {k!r}"
            _assert_plain(v, f"{path}.{k}", walked)
    elif isinstance(x, tuple):
        for i, v in enumerate(x):
            _assert_plain(v, f"{path}[{i}]", walked)
    else:
        assert isinstance(x, PLAIN), f"{path} is a {type(x).__name__}, not plain data"


def test_agents_get_plain_read_only_data(content):
    state = GameState(content, 5, 4)
    rng = random.Random(4)
    walked: dict = {}
    for _ in range(150):
        if state.is_terminal():
            break
        for s in range(5):
            obs = state.observation(s)
            _assert_plain(obs, walked=walked)  # (str keys, tuples and plain values: JSON writes it as it is)
            with pytest.raises(TypeError):
                obs["seat"] = 3  # type: ignore[index]
        for d in state.action_descriptors():
            _assert_plain(d, "action")
            with pytest.raises(TypeError):
                d["id"] = 0  # type: ignore[index]
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    for s in range(5):  # and it does: each seat's last observation, with all the history it was handed
        json.dumps(state.observation(s))


class Vandal(Agent):
    """Scribbles over everything it is given (bypassing the read-only guard), then answers like a random agent."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def act(self, observation, actions):
        choice = actions[self.rng.randrange(len(actions))]["id"]
        for d in actions:
            dict.__setitem__(d, "id", 999_999)
            dict.__setitem__(d, "kind", "pass")
        dict.__setitem__(observation, "me", FrozenDict({"identity": "shen_mi_ren"}))
        dict.clear(observation)
        return choice


class Polite(Agent):
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def act(self, observation, actions):
        return actions[self.rng.randrange(len(actions))]["id"]


class CopyVandal(Agent):
    """Takes plain copies of its actions (ActionList.copies, as the heuristic bot does), checks them, scribbles over
    them, then answers like a random agent."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def act(self, observation, actions):
        copies = actions.copies()
        # the descriptors' top levels, key for key and in order, as plain dicts
        assert [list(c.items()) for c in copies] == [list(d.items()) for d in actions]
        assert all(type(c) is dict for c in copies)
        choice = copies[self.rng.randrange(len(copies))]["id"]
        for c in copies:
            c["id"] = 999_999
            c["kind"] = "pass"
        assert all(c["id"] != 999_999 for c in actions.copies())  # a fresh copy at each call
        assert all(d["id"] != 999_999 for d in actions)
        return choice


@pytest.mark.parametrize("vandal", [Vandal, CopyVandal])
def test_an_agent_that_scribbles_changes_nothing(content, vandal):
    """Three whole games of 5 (about 650 decisions, each scribbled over): what an agent writes into what it was
    handed (Vandal), or into its plain copies of the actions (CopyVandal), reaches nothing else."""
    for seed in range(3):
        a = drive(content, 5, seed, [vandal(seed * 10 + i) for i in range(5)])
        b = drive(content, 5, seed, [Polite(seed * 10 + i) for i in range(5)])
        assert a.digest_text() == b.digest_text()
        assert a.actions_taken == b.actions_taken


class _Big(int):
    """An int subclass too long to print (repr raises ValueError past 4,300 digits)."""


@pytest.mark.parametrize(
    "answer",
    [
        -1,
        10**9,
        "0",
        1.0,
        None,
        True,
        (0,),
        pytest.param(10**4400, id="10**4400"),
        pytest.param(-(10**5000), id="-10**5000"),
        pytest.param(_Big(10**4400), id="int-subclass-10**4400"),
        pytest.param("x" * 10_000, id="long-text"),
    ],
)
def test_answers_that_were_not_offered_are_refused(content, answer):
    state = GameState(content, 5, 8)
    _random_play(state, random.Random(8), 30)
    before = (state.history(), state.legal_actions(), state._game.digest_text(), len(state._game.log))
    with pytest.raises(IllegalAction) as refused:
        state.apply_action(answer)
    assert len(str(refused.value)) < 2000  # the refusal names the answer briefly (a huge int was a ValueError)
    assert (state.history(), state.legal_actions(), state._game.digest_text(), len(state._game.log)) == before
    state.apply_action(state.legal_actions()[0])  # and the game goes on


def test_a_legal_id_of_another_decision_is_refused(content):
    state = GameState(content, 5, 2)
    offered = set(state.legal_actions())
    foreign = next(i for i in range(state.action_space_size) if i not in offered)
    with pytest.raises(IllegalAction):
        state.apply_action(foreign)


def test_no_engine_object_reachable_from_a_descriptor(content):
    """A card option carries the card's printed face, never its owner or zone."""
    state = GameState(content, 4, 3)
    seen_card = False
    rng = random.Random(3)
    for _ in range(200):
        if state.is_terminal():
            break
        for d in state.action_descriptors():
            if "card" in d:
                seen_card = True
                assert set(d["card"]) <= {"id", "card", "name", "colors", "direction", "lockable", "data"}
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert seen_card


# ------------------------------------------------------------------ per-seat logs


@pytest.fixture(scope="module")
def referee_games(content):
    """Random games with the referee's log, game `gi` at 2 + gi % 9 players: played once for the tests that read them
    (they only read them), each the first time one asks for it."""
    played: list = []

    def first(count: int) -> list:
        for gi in range(len(played), count):
            n = 2 + gi % 9
            played.append(drive(content, n, 3_000 + gi, [RandomAgent(gi * 20 + i) for i in range(n)], record=True))
        return played[:count]

    return first


def _named_before(x, seen: set) -> bool:
    """Is every deck id in x (one id, a list of ids, or None) among those `seen` already?"""
    return x is None or set(x if isinstance(x, list) else [x]) <= seen


@light_and_slow("games", 11, 60)
def test_per_seat_logs_hold_no_hidden_value_of_another_seat(referee_games, games):
    """Rules of visibility, checked record by record on referee logs (2–10 players, each count once or more; the
    everyday 11 games hold every kind of record checked: 411 draws, 158 face-down intel, 144 cards used face down,
    22 gifts, 85 declarations and the 11th game's identity_seen records)."""
    checked = 0
    for g in referee_games(games):
        setup = next(r for r in g.log if r.get("e") == "setup")
        texts: dict[int, str] = {}  # a record without secret fields, as JSON: any seat that reads it reads the same
        for seat in [*range(g.n), None]:
            seen: set = set()  # deck ids this seat's own copy has already named
            for rec in g.log:
                v = project(rec, seat)
                if v is None:
                    continue
                checked += 1
                kind = v.get("e")
                assert kind not in ("setup", "roles"), "the referee's set-up record (seed, identities, deck)"
                assert "seed" not in v
                if "d" in v:
                    assert v["seat"] == seat, "another seat's decision"
                actor = v.get("seat")
                if kind == "draw" and actor != seat:
                    assert _named_before(v["cards"], seen), f"P{seat} sees the cards P{actor} drew"
                if kind == "intel_sent" and not v["face_up"] and actor != seat:
                    assert _named_before(v["card"], seen), f"P{seat} sees a face-down intel of P{actor}"
                if (
                    kind in ("card_used", "card_resolving", "card_resolved", "nullified")
                    and rec.get("uid") is not None
                    and g.content.card_types[rec["card"]].face_down
                    and seat not in (actor, v.get("target"))
                ):
                    assert _named_before(v["uid"], seen), f"P{seat} sees which face-down {rec['card']} was used"
                if kind == "give" and seat not in (actor, v.get("to_seat")) and rec.get("cards"):
                    assert _named_before(v["cards"], seen), f"P{seat} sees cards given face down"
                for f in ("card", "cards", "uid", "old", "new"):
                    x = v.get(f)
                    if (isinstance(x, int) and f != "card") or (isinstance(x, int) and kind != "card_used"):
                        seen.add(x)
                    elif isinstance(x, list):
                        seen.update(x)
                if kind == "game_over":
                    winners = set(v["winners"])
                    assert {int(s) for s in v["identities"]} <= winners  # only declared winners show identities
                    continue
                if seat is None:
                    continue
                # identities appear nowhere else in a seat's copy
                if kind == "identity_seen":
                    assert v["seat"] == seat
                text = texts.get(id(rec)) if not rec.get("secret") else None
                if text is None:
                    text = json.dumps(v, ensure_ascii=False)
                    if not rec.get("secret"):
                        texts[id(rec)] = text
                for other, ident in enumerate(setup["identities"]):
                    if other != seat and f'"{ident}"' in text:
                        # an identity id in a record is only legitimate as a declared value
                        assert v.get("e") == "declare", (seat, v)
    assert checked > 1_000 * games


def test_face_up_discards_are_public(referee_games):
    """Every card that reaches the discard pile is named in the public record."""
    for g in referee_games(20):
        public_named = set()
        for rec in g.log:
            v = project(rec, None)
            if v is None:
                continue
            for f in ("cards", "card", "old", "uid", "new"):
                x = v.get(f)
                if isinstance(x, int):
                    public_named.add(x)
                elif isinstance(x, list):
                    public_named.update(x)
        for c in g.discard_pile:
            assert c.uid in public_named, f"{c} lies face up in the discard pile but no public record names it"


@light_and_slow("games", 10, 40)
def test_a_card_used_face_down_stays_hidden_after_it_leaves_the_game(content, games):
    """试探 and 密令 are removed after use: face down, so only user and target (or a seat that saw it) know the copy.
    (Everyday 10 games of 3 to 10 players: about 330 removed cards checked in the seats' observations.)"""
    checked = 0
    for gi in range(games):
        n = 3 + gi % 8
        g = drive(content, n, 7_000 + gi, [RandomAgent(gi * 20 + i) for i in range(n)], record=True)
        users = {}
        for rec in g.log:
            if rec.get("e") == "card_used" and rec.get("uid") is not None:
                users[rec["uid"]] = {rec["seat"], rec.get("target")}
        for seat in range(n):
            obs = g.observation(seat)
            named = {
                x
                for rec in obs["history"]
                for f in ("cards", "uid", "old", "new", "card")
                for x in (rec.get(f) if isinstance(rec.get(f), list) else [rec.get(f)])
                if isinstance(x, int)
            }
            for entry in obs["removed_face_down"]:
                checked += 1
                if entry["id"] is not None:
                    assert seat in users.get(entry["id"], ()) or entry["id"] in named, (gi, seat, entry)
            assert all(not c.face_down for c in g.removed if c.uid in {r["id"] for r in obs["removed"]})
    assert checked > 10 * games


def test_resampled_face_down_roles_are_hidden_roles(content):
    """A game at each count from 3 to 9 players, resampled for every seat: about 100 face-down roles dealt."""
    rng = random.Random(12)
    seen = 0
    for gi in range(7):
        n = 3 + gi % 7
        state = GameState(content, n, 1_200 + gi)
        _random_play(state, rng, 15)
        if state.is_terminal():
            continue
        for s in range(n):
            g = dealt_for(state, s, random.Random(gi * 10 + s))._game
            for p in g.players:
                if p.role is not None and not p.role_shown:
                    seen += 1
                    assert p.role.hidden, (gi, s, p.seat, p.role.id)
    assert seen > 50


def test_a_spectator_sees_only_what_every_seat_sees(content):
    """GameState.public_observation (the browser table's spectator): at every decision of games of 2, 5 and 10 players
    cut after 2 turns, re-dealing everything any one seat cannot see leaves it identical (so it depends on nothing
    some seat does not know), it has nothing of a seat's own, and every card face, role and status it shows every
    seat's observation shows too (each decision compared with one seat's observation, the seats in turn: what the
    spectator shows stays shown, so a face some seat cannot see is caught within n decisions)."""
    from web_helpers import card_ids

    checked = 0
    for gi, n in enumerate((2, 5, 10)):
        rng = random.Random(700 + gi)
        state = GameState(content, n, 700 + gi, max_turns=2)
        g = state._game
        while not state.is_terminal():
            public = state.public_observation()
            assert public["seat"] is None and public["decision"] is None
            assert public["me"] == {
                "identity": None,
                "task": None,
                "role": None,
                "dealt_roles": (),
                "former_identities": (),
                "hand": (),
            }
            assert public["known_cards"] == () and public["known_identities"] == {}
            seat = g.decision_count % n
            obs = state.observation(seat)
            assert card_ids(public) <= card_ids(obs)
            for p, q in zip(public["players"], obs["players"], strict=True):
                assert p["role"] is None or p["role"] == q["role"]
                assert set(p["statuses"]) <= set(q["statuses"])
            assert len(public["history"]) <= len(obs["history"])
            _redeal(g, seat, rng)
            assert state.public_observation() == public, f"game {gi}, decision {g.decision_count}"
            checked += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 100


@pytest.mark.parametrize("players", [3, 5, 8])
def test_a_seat_choosing_its_role_does_not_see_the_roles_chosen_before_it(content, players):
    """Roles are chosen in turn and turned up together (the log's roles_shown, after every seat chose): a seat that
    chooses later must not see the earlier choices, which it could have read from `players[].role` (a role was
    turned face up as soon as it was chosen). Once all have chosen, every public role is there for everyone."""
    state = GameState(content, players, seed=11)
    asked = 0
    while (obs := state.observation(state.current_player()))["decision"]["kind"] == "role":
        seat = obs["seat"]
        others = [(p["seat"], p["role"]) for p in obs["players"] if p["seat"] != seat]
        assert all(role is None for _, role in others), (seat, others)
        assert not any(r.get("e") == "roles_shown" for r in obs["history"])
        state.apply_action(state.legal_actions()[0])
        asked += 1
    assert asked >= 2  # (several seats chose in turn)
    shown = next(r for r in obs["history"] if r.get("e") == "roles_shown")["roles"]
    assert [p["role"] if p["role_face_up"] else None for p in obs["players"]] == list(shown)
    assert sum(role is not None for role in shown) >= players - 2  # (the public ones: all but a hidden role or two)


def test_a_resample_while_the_roles_are_chosen_knows_only_what_the_seat_knows(content):
    """At a seat's role choice the others' chosen roles are face down, hidden or not, and the roles still to deal
    are in no one's view: a resample for that seat drew the others' roles only among the few dealt to them so far
    (the rest of the pile was a local of the deal) and kept whether each was a hidden role, two facts the seat
    does not know. It draws from every role the seat has not seen, and the deal goes on from the pile it left:
    every role once, in a hand, the pile or out of the game."""
    state = GameState(content, 5, seed=3)
    while (obs := state.observation(state.current_player()))["seat"] != 0:
        state.apply_action(state.legal_actions()[0])
    assert obs["decision"]["kind"] == "role"
    chose = [p.seat for p in state._game.players if p.role is not None]
    assert len(chose) >= 2
    drawn: dict[int, set[tuple[str, bool]]] = {}
    for i in range(60):
        sample = state.resample(0, random.Random(i))
        for s in chose:
            role = sample._game.players[s].role
            drawn.setdefault(s, set()).add((role.id, role.hidden))
        while sample.observation(sample.current_player())["decision"]["kind"] == "role":
            sample.apply_action(sample.legal_actions()[0])
        g = sample._game
        every = [p.role.id for p in g.players] + [r.id for r in (*g.skills.role_pile, *g.skills.unchosen_roles)]
        assert sorted(every) == sorted(content.roles), i
    for s in chose:
        assert len(drawn[s]) > 2 * len(chose), (s, drawn[s])  # (more than the roles dealt so far)
        assert {hidden for _, hidden in drawn[s]} == {True, False}, (s, drawn[s])


def test_a_resample_for_another_seat_deals_the_chooser_its_roles_again(content):
    """While a seat chooses its role, the roles it was dealt are in its view alone: a resample for any other seat
    kept them with it and out of everything else it drew (so the sample named the roles the chooser was offered).
    They are drawn with the rest the seat has not seen, and the question offers the roles drawn."""
    state = GameState(content, 5, seed=3)
    while (chooser := state.current_player()) == 0 or not any(p.role for p in state._game.players):
        state.apply_action(state.legal_actions()[0])
    assert state.decision_kind == "role"
    offered = {r.id for r in state._game.players[chooser].dealt_roles}
    for s in (s for s in range(5) if s != chooser):
        pairs, elsewhere = set(), set()
        for i in range(30):
            sample = state.resample(s, random.Random(i))
            g = sample._game
            pair = tuple(r.id for r in g.players[chooser].dealt_roles)
            pairs.add(pair)
            assert sorted(d["value"] for d in sample.action_descriptors()) == sorted(pair), (s, i)
            assert sample.observation(s) == state.observation(s), (s, i)
            others = [p.role for p in g.players if p.role is not None] + g.skills.role_pile + g.skills.unchosen_roles
            elsewhere |= {r.id for r in others} & offered
            while sample.decision_kind == "role":  # (the deal goes on: every role once)
                sample.apply_action(sample.legal_actions()[-1])
            every = [p.role.id for p in g.players] + [r.id for r in (*g.skills.role_pile, *g.skills.unchosen_roles)]
            assert sorted(every) == sorted(content.roles), (s, i)
            sample.close()
        assert len(pairs) > 20, (s, pairs)
        assert elsewhere == offered, s


def test_a_resample_while_the_roles_are_chosen_deals_the_pinned_role_with_the_rest(content):
    """A role pinned to a seat (a balance sweep's --role) waits at the bottom of the pile for that seat's turn of
    the deal, which asks it to keep that role, its one option; while the others choose, no seat has seen it, nor
    knows of a pin. A resample then kept it for that seat in every sample (40 of 40): now it is dealt with the other
    unseen roles, and the sample goes on as a game without a pin (the seat it was pinned to is dealt from the pile
    and chooses, as every seat does). The real game still deals the pin."""
    from interpreter.engine.pins import Pins

    state = GameState(content, 5, 3, None, Pins(role="lao_han", seat=4))
    assert state.decision_kind == "role"
    kept: list[str] = []
    for i in range(40):
        sample = state.resample(state.current_player(), random.Random(i))
        asked = set()
        while sample.decision_kind == "role":
            asked.add(sample.current_player())
            sample.apply_action(sample.legal_actions()[0])
        assert 4 in asked, i  # (the pinned seat chooses in the sample, as in a game without a pin)
        kept.append(sample._game.players[4].role.id)
        g = sample._game  # (every role once: in a hand, the pile or out of the game)
        every = [p.role.id for p in g.players] + [r.id for r in (*g.skills.role_pile, *g.skills.unchosen_roles)]
        assert sorted(every) == sorted(content.roles), i
        sample.close()
    assert kept.count("lao_han") < 5 and len(set(kept)) > 20, kept
    asked = {}
    while state.decision_kind == "role":
        asked[state.current_player()] = len(state.legal_actions())
        state.apply_action(state.legal_actions()[0])
    assert asked[4] == 1 and state._game.players[4].role.id == "lao_han"


def _deal_seen(state) -> list:
    """What a spectator sees at each stop of the deal (its public observation, the public history's length), and the
    seat each stop waits for; then the count of roles left in the pile once they are dealt (which roles were turned
    up then is the deal's: it differs from game to game)."""
    seen = []
    while state.decision_kind == "role":
        public = state.public_observation()
        rest = {k: v for k, v in public.items() if k != "history"}
        seen.append((state.current_player(), len(public["history"]), rest))
        state.apply_action(state.legal_actions()[0])
    seen.append(state.public_observation()["role_pile_count"])
    return seen


def test_a_pinned_face_down_role_deals_as_a_game_without_a_pin_in_every_seats_sight(content):
    """Which seat a face-down role was pinned to (fengsheng serve's lobby, play --role, a sweep's --role) is that
    seat's secret: the deal stops at every seat in turn, the pinned one too (asked to keep its role), with the same
    count of roles in the pile at each stop as a game without a pin, and ends with the same count. Dealt last without
    a question, as it was, the pinned seat made no stop (a browser table's seats were sent none for it) and the
    count a seat chose at told whether it was dealt before it (every seat from the first player to the pinned one saw
    one role fewer than in a game without a pin)."""
    from interpreter.engine.pins import Pins

    hidden = next(r for r in sorted(content.roles) if content.roles[r].hidden)
    for players, seed in ((5, 1), (7, 2)):
        for seat in range(players):
            plain = _deal_seen(GameState(content, players, seed, None, Pins(keyed=True)))
            pinned = _deal_seen(GameState(content, players, seed, None, Pins(role=hidden, seat=seat)))
            assert pinned == plain, (players, seat)
