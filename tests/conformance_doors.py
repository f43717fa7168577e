"""The doors of the conformance suite (tests/test_conformance.py): one adapter per way a game is driven.

fengsheng plays one engine through several doors: the batch driver (``step.drive``: ``Game.run`` with an agent
per seat; ``sim.drive``: a game as ``simulate`` builds it, with the batch's driver, engine/drivers.py), the step
API (``GameState``), the PettingZoo and OpenSpiel adapters, the terminal table (``play.Table``), the web server's
table (``web.tables.WebTable``: what its websocket sends and takes) and external bots (``agents.external``: a
subprocess spoken to in JSON lines). An adapter plays one game through its door with given answers and records
what the door handed each seat at each decision, in the door's own format; :meth:`Door.project` turns what the
step API gives a seat into that format, so the suite can ask of every door the same thing: did the seat get
exactly the step API's observation and actions?

The answers are the step API's reference game's, per seat in order (:func:`reference`): a door that plays the
same seed with the same answers must give the same game.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.agents.base import Agent
from interpreter.content.loader import load_cached
from interpreter.engine.errors import IllegalAction
from interpreter.engine.step import GameState, drive
from interpreter.seeds import derive


def _plain(value: Any) -> Any:
    """What JSON cannot write as is: a read-only mapping or sequence (the batch driver's lazy ActionList)."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, Sequence):
        return list(value)
    raise TypeError(f"not plain data: {type(value).__name__}")


def canon(value: Any) -> str:
    """Plain data as one canonical JSON text (FrozenDicts, tuples and int keys as JSON reads them back)."""
    return json.dumps(json.loads(json.dumps(value, ensure_ascii=False, default=_plain)), sort_keys=True)


def digest(value: Any) -> str:
    return hashlib.sha256(canon(value).encode()).hexdigest()[:16]


def choose(observation: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> int:
    """A fixed choice from what the seat is given (no generator: any door, any process, makes the same one)."""
    return int(actions[int(digest([observation, [a["id"] for a in actions]]), 16) % len(actions)]["id"])


def seed_of(index: int) -> int:
    """The suite's game seeds: below 2**31, because OpenSpiel's game parameters are C++ ints (pyspiel's
    ``load_game`` cannot cast a larger seed); 2**30 and above, ten digits, so a seed written into something a
    seat is sent would be found there."""
    return 2**30 + derive(20261129, "conformance", index) % 2**30


@dataclass
class Decision:
    seat: int
    observation: Any  # the step API's observation(seat) at the decision
    actions: tuple  # the step API's action_descriptors()
    answer: int


@dataclass
class Played:
    """A game through one door: what each seat was handed at each decision (door format), and the end."""

    given: list = field(default_factory=list)  # [(seat, door-format data)] in the order handed
    history: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    reason: str | None = None
    final: list[str] = field(default_factory=list)  # canon(observation(seat)) at the end, per seat


@dataclass
class Reference:
    players: int
    seed: int
    max_turns: int | None
    decisions: list[Decision]
    played: Played

    def answers(self) -> dict[int, list[int]]:
        """Each seat's answers, in order (what an agent at that seat is given to answer)."""
        out: dict[int, list[int]] = {s: [] for s in range(self.players)}
        for d in self.decisions:
            out[d.seat].append(d.answer)
        return out


def _ending(state: GameState, played: Played) -> Played:
    played.history = list(state.history())
    played.returns = list(state.returns())
    result = state.result
    played.winners = sorted(p.seat for p in result.winners) if result is not None else []
    played.reason = result.reason if result is not None else None
    played.final = [canon(state.observation(s)) for s in range(state.n_players)]
    return played


def reference(players: int, seed: int, max_turns: int | None) -> Reference:
    """The game the step API plays with :func:`choose` at every seat: the suite's yardstick."""
    state = GameState(load_cached(), players, seed, max_turns)
    decisions = []
    while not state.is_terminal():
        seat = state.current_player()
        obs, actions = state.observation(seat), state.action_descriptors()
        answer = choose(obs, actions)
        decisions.append(Decision(seat, obs, actions, answer))
        state.apply_action(answer)
    played = Played(given=[(d.seat, (canon(d.observation), canon(d.actions))) for d in decisions])
    return Reference(players, seed, max_turns, decisions, _ending(state, played))


NO_BAD = object()  # Scripted's "no bad answer to give" (None is one of the bad answers the suite gives)


class Scripted(Agent):
    """An agent that answers its seat's given answers in order and keeps what it was handed."""

    def __init__(self, seat: int, answers: list[int], given: list, bad: Any = NO_BAD) -> None:
        self.seat = seat
        self.answers = list(answers)
        self.given = given
        self.bad = bad  # unless NO_BAD: the first answer, an illegal one

    def act(self, observation, actions):
        self.given.append((self.seat, (canon(observation), canon(actions))))
        if self.bad is not NO_BAD:
            bad, self.bad = self.bad, NO_BAD
            return bad
        return self.answers.pop(0)


class Door:
    """One door: plays a game with given answers (:meth:`play`), says how it refuses a bad answer
    (:meth:`refuses`) and how it seeds a game nobody seeded (:meth:`fresh`). A door that cannot do one of these
    says why in ``cannot`` (the suite skips with that reason)."""

    name = ""
    cannot: dict[str, str] = {}  # noqa: RUF012  (property -> the reason this door cannot be asked it)

    def project(self, seat: int, observation: Any, actions: Sequence[Any]) -> Any:
        """What the step API gives `seat`, in this door's format."""
        return (canon(observation), canon(actions))

    def arrange(self, given: list) -> list:
        """The records in the order this door can know them (by default: the order handed)."""
        return given

    def play(self, ref: Reference) -> Played:
        raise NotImplementedError

    def refuses(self, ref: Reference, bad: Any) -> tuple[bool, Played | None]:
        """Answer `bad` at the first decision: (refused with nothing applied, the game played on, if it can)."""
        raise NotImplementedError

    def fresh(self, players: int) -> tuple[int, list[str]]:
        """A game nobody seeded: (its seed, the texts the door handed the seats)."""
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------- the step API


class StepDoor(Door):
    name = "step"
    cannot = {"fresh": "GameState takes the seed as an argument; its callers draw one (seeds.fresh_seed)"}  # noqa: RUF012

    def play(self, ref):
        state = GameState(load_cached(), ref.players, ref.seed, ref.max_turns)
        answers = ref.answers()
        played = Played()
        while not state.is_terminal():
            seat = state.current_player()
            played.given.append((seat, self.project(seat, state.observation(seat), state.action_descriptors())))
            state.apply_action(answers[seat].pop(0))
        return _ending(state, played)

    def refuses(self, ref, bad):
        state = GameState(load_cached(), ref.players, ref.seed, ref.max_turns)
        seat = state.current_player()
        before = (state.history(), canon(state.observation(seat)), state.legal_actions())
        try:
            state.apply_action(bad)
        except IllegalAction:
            pass
        else:
            return False, None
        after = (state.history(), canon(state.observation(seat)), state.legal_actions())
        if before != after:
            return False, None
        answers = ref.answers()
        while not state.is_terminal():
            state.apply_action(answers[state.current_player()].pop(0))
        return True, _ending(state, Played())


# ---------------------------------------------------------------------------------------------- the batch driver


class BatchDoor(Door):
    name = "batch"
    cannot = {"fresh": "drive/Game.run take the seed; simulate draws the batch seed (checked through the CLI)"}  # noqa: RUF012

    def _game(self, ref, bad=NO_BAD):
        given: list = []
        answers = ref.answers()
        first = ref.decisions[0].seat
        agents = [Scripted(s, answers[s], given, bad if s == first else NO_BAD) for s in range(ref.players)]
        return drive(load_cached(), ref.players, ref.seed, agents, max_turns=ref.max_turns), given

    def play(self, ref):
        game, given = self._game(ref)
        return _game_ending(game, Played(given=given))

    def refuses(self, ref, bad):
        try:
            self._game(ref, bad)
        except IllegalAction:
            return True, None  # the batch driver stops the game there: an agent's bad answer is a bug to report
        return False, None


class SimDoor(BatchDoor):
    """The batch driver as ``simulate`` builds a game: ``interpreter.sim.drive`` (``sim.batch.new_game``: the
    search bots' World port, the batch's driver, engine/drivers.py ``UniformDraws``, wrapping the game's own for
    the seats of plain RandomAgents). Scripted seats are not RandomAgents, so they are answered through the game's
    driver with their descriptors, as any other agent of a batch is; that UniformDraws's own draws give the game
    the RandomAgents would play on descriptors is tests/test_seat_boundary.py's
    test_the_batch_driver_plays_the_game_the_agents_would_play_on_descriptors."""

    name = "sim"

    def _game(self, ref, bad=NO_BAD):
        from interpreter.sim import drive as sim_drive

        given: list = []
        answers = ref.answers()
        first = ref.decisions[0].seat
        agents = [Scripted(s, answers[s], given, bad if s == first else NO_BAD) for s in range(ref.players)]
        return sim_drive(load_cached(), ref.players, ref.seed, agents, max_turns=ref.max_turns), given


def _game_ending(game, played: Played) -> Played:
    """A finished Game (the batch driver's) as a Played."""
    result = game.result
    won = {p.seat for p in result.winners} if result is not None else set()
    played.history = list(game.actions_taken)
    played.returns = [(1.0 if s in won else -1.0) if won else 0.0 for s in range(game.n)]
    played.winners = sorted(won)
    played.reason = result.reason if result is not None else None
    played.final = [canon(game.observation(s)) for s in range(game.n)]
    return played


# ---------------------------------------------------------------------------------------------- RL adapters


def _vector(x) -> str:
    import numpy as np

    return hashlib.sha256(np.asarray(x, dtype=np.float32).tobytes()).hexdigest()[:16]


class PettingZooDoor(Door):
    """The AEC env: a seat is handed ``observe(agent)`` (the encoded vector and the action mask) and, in
    ``infos``, the raw observation and descriptors."""

    name = "pettingzoo"

    def _env(self, ref_players, max_turns):
        from interpreter.rl.pettingzoo_env import FengshengAECEnv

        return FengshengAECEnv(players=ref_players, max_turns=max_turns)

    def project(self, seat, observation, actions):
        from interpreter.rl.encoding import Encoder

        enc = Encoder(load_cached(), self.players, self.max_turns)
        return (canon(observation), canon(actions), _vector(enc.encode(observation)), sorted(a["id"] for a in actions))

    def _given(self, env, agent):
        import numpy as np

        seen = env.observe(agent)
        info = env.infos[agent]
        mask = sorted(int(i) for i in np.flatnonzero(seen["action_mask"]))
        return (canon(info["observation"]), canon(info["actions"]), _vector(seen["observation"]), mask)

    def _run(self, env, answers, played: Played | None) -> None:
        """Play `answers` to the end; `played`: record what each seat is handed (None: where the game goes alone)."""
        while not all(env.terminations[a] or env.truncations[a] for a in env.agents):
            agent = env.agent_selection
            seat = env.agent_seat[agent]
            if played is not None:
                played.given.append((seat, self._given(env, agent)))
            env.step(answers[seat].pop(0))

    def play(self, ref):
        self.players, self.max_turns = ref.players, ref.max_turns
        env = self._env(ref.players, ref.max_turns)
        env.reset(seed=ref.seed)
        played = Played()
        self._run(env, ref.answers(), played)
        assert [env.rewards[a] for a in env.possible_agents] == env.game_state.returns()
        return _ending(env.game_state, played)

    def refuses(self, ref, bad):
        self.players, self.max_turns = ref.players, ref.max_turns
        env = self._env(ref.players, ref.max_turns)
        env.reset(seed=ref.seed)
        agent = env.agent_selection
        before = (env.game_state.history(), self._given(env, agent))
        try:
            env.step(bad)
        except (IllegalAction, TypeError, ValueError):
            pass
        else:
            return False, None
        if (env.game_state.history(), self._given(env, agent)) != before or env.agent_selection != agent:
            return False, None
        self._run(env, ref.answers(), None)  # (what the seats are handed is property 2's: compared in play)
        return True, _ending(env.game_state, Played())

    def fresh(self, players):
        env = self._env(players, 2)
        env.reset()
        texts = [canon(env.infos[a]) for a in env.possible_agents]
        texts += [_vector(env.observe(a)["observation"]) for a in env.possible_agents]
        return env.game_state.seed, texts


class OpenSpielDoor(Door):
    """``python_fengsheng``: a seat is handed the observer's tensor and JSON string, the legal actions (sorted
    ids) and their strings. There are no descriptors: each action's string carries its label."""

    name = "openspiel"

    def _game(self, players, seed, max_turns):
        import pyspiel

        from interpreter.rl import openspiel_game  # noqa: F401  (registers python_fengsheng)

        return pyspiel.load_game("python_fengsheng", {"players": players, "seed": seed, "max_turns": max_turns or 0})

    def project(self, seat, observation, actions):
        from interpreter.rl.encoding import Encoder

        enc = Encoder(load_cached(), self.players, self.max_turns)
        labels = [f"{a['label']} #{a['id']}" for a in sorted(actions, key=lambda a: a["id"])]
        return (canon(observation), _vector(enc.encode(observation)), sorted(a["id"] for a in actions), labels)

    def _given(self, game, state, seat):
        observer = game.make_py_observer()
        observer.set_from(state, seat)
        legal = state.legal_actions()
        labels = [state.action_to_string(seat, a) for a in legal]
        return (canon(json.loads(observer.string_from(state, seat))), _vector(observer.tensor), list(legal), labels)

    def _dealt(self, ref):
        self.players, self.max_turns = ref.players, ref.max_turns
        game = self._game(ref.players, ref.seed, ref.max_turns)
        state = game.new_initial_state()
        assert state.is_chance_node() and [a for a, _ in state.chance_outcomes()] == [0]
        state.apply_action(0)
        return game, state

    def _run(self, game, state, answers, played: Played | None) -> None:
        """Play `answers` to the end; `played`: record what each seat is handed (None: where the game goes alone)."""
        while not state.is_terminal():
            seat = state.current_player()
            if played is not None:
                played.given.append((seat, self._given(game, state, seat)))
            state.apply_action(answers[seat].pop(0))

    def play(self, ref):
        game, state = self._dealt(ref)
        played = Played()
        self._run(game, state, ref.answers(), played)
        assert list(state.returns()) == state.game_state.returns()
        return _ending(state.game_state, played)

    def refuses(self, ref, bad):
        import pyspiel

        game, state = self._dealt(ref)
        seat = state.current_player()
        before = (state.history(), self._given(game, state, seat))
        try:
            state.apply_action(bad)
        except (pyspiel.SpielError, IllegalAction, TypeError, ValueError):
            pass
        else:
            return False, None
        if (state.history(), self._given(game, state, seat)) != before:
            return False, None
        self._run(game, state, ref.answers(), None)  # (what the seats are handed is property 2's: compared in play)
        return True, _ending(state.game_state, Played())

    def fresh(self, players):
        game = self._game(players, -1, 2)
        state = game.new_initial_state()
        state.apply_action(0)
        seat = state.current_player()
        texts = [str(state), *[t for t in self._given(game, state, seat) if isinstance(t, str)]]
        texts += [str(game.get_parameters())]
        return state.game_state.seed, texts


# ---------------------------------------------------------------------------------------------- tables


class TableDoor(Door):
    """The terminal's ``play.Table``, its seats played by bots (the door a bot seat at ``fengsheng play`` uses:
    ``Table.bot_question``). The human seats' screen is drawn from the same observation (tests/test_play.py)."""

    name = "table"
    cannot = {"fresh": "play.Table takes a Setup with a seed; `play` draws it (tests/test_seeds.py checks that)"}  # noqa: RUF012

    def _table(self, ref, bad=NO_BAD):
        from interpreter.play import Setup, Table

        setup = Setup(players=ref.players, seed=ref.seed, humans=[], bots=dict.fromkeys(range(ref.players), "random"))
        setup.max_turns = ref.max_turns
        table = Table(load_cached(), setup)
        given: list = []
        answers = ref.answers()
        first = ref.decisions[0].seat
        table.agents = {s: Scripted(s, answers[s], given, bad if s == first else NO_BAD) for s in range(ref.players)}
        return table, given

    def play(self, ref):
        table, given = self._table(ref)
        table.run_bots()
        table.finish()
        return _ending(table.state, Played(given=given))

    def refuses(self, ref, bad):
        table, _ = self._table(ref, bad)
        seat = table.state.current_player()
        before = (table.state.history(), canon(table.state.observation(seat)))
        try:
            table.bot_move()
        except IllegalAction:
            pass
        else:
            return False, None
        if (table.state.history(), canon(table.state.observation(seat))) != before:
            return False, None
        table.run_bots()  # the same decision is asked again, and the game goes on
        return True, _ending(table.state, Played())


# the fields of a web state message besides the observation and the actions, and what each may be
WEB_OTHER_FIELDS = {
    "type",
    "table",
    "seat",
    "players",
    "seq",
    "history_from",
    "view",
    "over",
    "bots",
    "chosen_seed",
    "timer",  # the host's move timer: a public setting of the table
    "summary",  # None until the game is over, then the end's reveal (every card turned up)
    "stopped",  # None unless the engine stopped the game: its public words (EngineError.public, no hidden card)
}


class WebDoor(Door):
    """The server's table (``web.tables.Tables``/``WebTable``) with every seat human: a seat is handed
    ``WebTable.message`` — what the websocket sends it — and answers with ``WebTable.act`` (what a socket's
    ``act`` does). The socket itself (joins, rejoins, the fingerprint that skips messages) is tests/test_web.py's.
    The server has no turn-limit option: the table it made is given the suite's ``max_turns`` (the same Setup
    otherwise)."""

    name = "web"

    def _tables(self):
        from interpreter.content.packs import parse_expansions, resolve_packs
        from interpreter.web.tables import Tables

        return Tables(lambda packs: load_cached(), lambda text: resolve_packs([], parse_expansions(text)))

    def _web(self, players, seed, max_turns):
        from dataclasses import replace

        from interpreter.play import Table

        web = self._tables().create(["human"] * players, seed=seed, host_seat=None, expansions=None)
        if max_turns is not None:
            web.table = Table(web.table.content, replace(web.table.setup, max_turns=max_turns))
        return web

    def _given(self, web, seat, since=0):
        from interpreter.seat_text import Names
        from interpreter.web.view import seat_view

        message, _, _ = web.message(seat, since)
        assert set(message) == WEB_OTHER_FIELDS | {"observation", "actions"}, set(message)
        # everything else a message carries is public or drawn from what the seat is given
        obs = web.state.observation(seat)
        assert canon(message["view"]) == canon(seat_view(obs, message["actions"], Names(web.table.content), since))
        assert message["seat"] == seat and message["players"] == web.players and message["over"] is web.over()
        assert message["bots"] == {} and message["table"] == web.id
        assert message["summary"] == (web.table.final_summary() if web.over() else None)
        return (canon(message["observation"]), canon(message["actions"])), message

    def _run(self, web, answers, played: Played) -> None:
        while not web.over():
            seat = web.waiting_for()
            assert seat is not None
            given, message = self._given(web, seat)
            played.given.append((seat, given))
            assert web.act(seat, message["seq"], answers[seat].pop(0)) is None

    def play(self, ref):
        web = self._web(ref.players, ref.seed, ref.max_turns)
        assert web.chosen_seed  # a seed given is the host's: every seat is told
        played = Played()
        self._run(web, ref.answers(), played)
        return _ending(web.state, played)

    def refuses(self, ref, bad):
        web = self._web(ref.players, ref.seed, ref.max_turns)
        seat = web.waiting_for()
        assert seat is not None
        before, message = self._given(web, seat)
        refused = web.act(seat, message["seq"], bad)
        if refused is None or self._given(web, seat)[0] != before or web.state.history():
            return False, None
        self._run(web, ref.answers(), Played())
        return True, _ending(web.state, Played())

    def fresh(self, players):
        web = self._tables().create(["human"] * players, seed=None, host_seat=None, expansions=None)
        assert not web.chosen_seed
        texts = [json.dumps(web.message(s, 0)[0], ensure_ascii=False, default=str) for s in range(players)]
        texts.append(json.dumps(web.summary(), ensure_ascii=False, default=str))
        return web.table.setup.seed, texts


# ---------------------------------------------------------------------------------------------- external bots

_BOT = """\
import json, sys
log, answers = sys.argv[1], json.load(open(sys.argv[2], encoding="utf-8"))
out, queue = None, None
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        queue = list(answers[str(m["seat"])])
        out = open(log + "." + str(m["seat"]), "a", encoding="utf-8")
    out.write(line)
    out.flush()
    if m["type"] == "decide":
        print(queue.pop(0), flush=True)
"""


class ExternalDoor(Door):
    """An external bot at every seat of a batch game (``play_game`` with ``ext:`` kinds, as ``simulate --bot``
    plays): a seat's process is handed ``hello``, one ``decide`` line per decision (the observation, its history
    sent from ``history_from`` on, and the descriptors) and ``end``. The bot writes down every line it is sent;
    a seat's process sees only its own decisions, so the records are compared seat by seat."""

    name = "external"
    cannot = {"fresh": "a bot is handed its seat's bot seed (seeds.derive), never the game's: checked in play"}  # noqa: RUF012

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp

    def arrange(self, given):
        return sorted(given, key=lambda g: g[0])  # stable: each seat's decisions in order

    def _play(self, ref, answers):
        from interpreter.agents import external
        from interpreter.sim.batch import play_game

        log = self.tmp / f"bot{len(list(self.tmp.iterdir()))}"
        (self.tmp / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
        script = self.tmp / "bot.py"
        script.write_text(_BOT, encoding="utf-8")
        # -S: no site (the bot needs only json and sys): a bot process costs 15 ms of CPU to start, not 35 (13 a run)
        cmd = f"{sys.executable} -S {script} {log} {self.tmp / 'answers.json'}"
        external.adopt(external.define([f"conf={cmd}"]))
        try:
            game, failure = play_game(
                load_cached(), ref.players, ref.seed, ref.max_turns, agents=("ext:conf",) * ref.players
            )
        finally:
            external.close_all()
        return game, failure, log

    def _lines(self, log: Path, seat: int) -> list[dict]:
        path = Path(f"{log}.{seat}")
        return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []

    def play(self, ref):
        game, failure, log = self._play(ref, ref.answers())
        assert failure is None, failure
        played = Played()
        for seat in range(ref.players):
            history: list = []
            for m in self._lines(log, seat):
                if m["type"] == "hello":
                    assert set(m) == {"type", "protocol", "seat", "players", "seed", "content", "timeout"}
                    assert m["seed"] != ref.seed and m["seat"] == seat
                    continue
                if m["observation"] is None:
                    continue
                assert m["history_from"] == len(history)
                history += m["observation"]["history"]
                obs = {**m["observation"], "history": history}
                if m["type"] == "decide":
                    assert set(m) == {"type", "history_from", "observation", "actions"}
                    played.given.append((seat, (canon(obs), canon(m["actions"]))))
                else:  # the end: the seat's final observation
                    assert canon(obs) == canon(game.observation(seat))
        return _game_ending(game, played)

    def refuses(self, ref, bad):
        answers = ref.answers()
        first = ref.decisions[0].seat
        answers[first] = [bad, *answers[first]]
        game, failure, _ = self._play(ref, answers)
        # the bot's answer is refused before anything is applied: its game stops there, reported (a table hands
        # the seat to the default bot: tests/test_external_bots.py)
        refused = failure is not None and "BotError" in failure and game is not None and not game.actions_taken
        return refused, None


def doors(tmp: Path) -> list[Door]:
    return [
        StepDoor(),
        BatchDoor(),
        SimDoor(),
        PettingZooDoor(),
        OpenSpielDoor(),
        TableDoor(),
        WebDoor(),
        ExternalDoor(tmp),
    ]
