"""Batch simulation, game logs and replay.

A game is fully determined by the content, the player count, its seed and the
answers given to its decisions. The log (JSONL) therefore holds a header with
the seed, every event and every decision, and the end-state digest; replay
re-runs the game from the seed, feeding the logged answers back, and checks
that every event and the end state come out the same.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import itertools
import json
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .agents import RandomAgent, external
from .agents.external import BotBroken, BotError
from .agents.kinds import factory_of
from .engine.errors import EngineError, IllegalAction
from .engine.game import Game
from .engine.observation import project
from .engine.pins import Pins
from .engine.step import GameState
from .seeds import SEED_RANGE, agent_seed, game_seed, is_seed
from .snippet import snippet

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

LOG_FORMAT = 1


# The collector's first threshold while a process plays a batch (tune_gc_for_batch): CPython's default is 700.
# A batch collects each finished game itself (after_game); this is only a safety net for a game that makes
# garbage fast (a search bot's samples), high enough that a random game never reaches it.
BATCH_GC_THRESHOLD = 20_000


def tune_gc_for_batch() -> tuple[int, ...]:
    """Set up this process's garbage collector for playing many games; returns the thresholds it replaced.

    A finished game is a web of reference cycles (the game and its components hold each other, a card its
    owner and the owner his hand, the game's end its traceback), so only the collector frees it. With
    CPython's defaults a game's live objects are walked by several young collections and promoted, and its
    cycles freed by older collections that also walk everything loaded before the batch (the content, its
    compiled code, the modules). Here what is there is frozen out of the collector's way (``gc.freeze``:
    moved to a generation it never walks; nothing is collected first, so no finalizer runs at a time of this
    function's choosing; in a forked worker that includes the parent's garbage, which the worker must not
    finalize), automatic young collections become rare (BATCH_GC_THRESHOLD), and the batch calls after_game
    once a game is over: one young collection that walks that game's objects once, when all of them are
    garbage. That is as fast as no collector at all (faster: the memory is reused while it is still in the
    cache), about 11 % of the time per decision compiled against a threshold of 10,000 (bench/README.md,
    "Per-game cost"), and memory stays flat. Nothing a game does depends on when the collector runs. The
    tools that play batches call it, in their worker processes too (simulate, a sweep, bench/peers.py); a
    library's caller (the step API, the RL environments) decides for its own process."""
    gc.freeze()
    old = gc.get_threshold()
    gc.set_threshold(BATCH_GC_THRESHOLD, *old[1:])
    return old


def after_game() -> None:
    """Between two games of a batch (tune_gc_for_batch): collect the finished game, which the caller no longer
    holds, now — a young collection, and an older one on CPython's own schedule (every threshold[1] young
    ones, every threshold[2] of those), since automatic collections no longer come to run them."""
    count, threshold = gc.get_count(), gc.get_threshold()
    if count[1] < threshold[1]:
        gc.collect(0)
    else:
        gc.collect(2 if count[2] >= threshold[2] else 1)


@contextlib.contextmanager
def batch_gc() -> Iterator[None]:
    """tune_gc_for_batch for the duration of a batch played in this process; then the collector as it was.
    The batch calls after_game after each game."""
    old = tune_gc_for_batch()
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def pad(s: str, width: int) -> str:
    """Left-justify to a display width (a CJK character takes two columns)."""
    return s + " " * max(0, width - _width(s))


def content_fingerprint(paths) -> str:
    """A hash of every content file of the packs, so a replay can tell if the content changed.

    The files the loader reads: the pack's own (rules.yaml, deck.yaml) and those of its kind
    folders, not the packs inside it (content/expansions/…), which are packs of their own.
    """
    h = hashlib.sha256()
    for root in paths:
        root = Path(root)
        for f in sorted([*root.glob("*.y*ml"), *root.glob("*/*.y*ml")]):
            h.update(str(f.relative_to(root)).encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def random_agents(gseed: int, n: int) -> list:
    return [RandomAgent(agent_seed(gseed, seat)) for seat in range(n)]


def parse_agents(spec: str, players: int) -> tuple[str, ...]:
    """`--agents`: one kind for the whole table (``heuristic``) or one per seat (``heuristic,random,…``).

    Raises ValueError with what is wrong: an unknown kind, or a list that does not name every seat."""
    kinds = tuple(k.strip() for k in spec.split(","))
    for k in kinds:
        factory_of(k)  # the bots a command can seat, by spec (agents/kinds.py); raises ValueError
    if len(kinds) == 1:
        return kinds * players
    if len(kinds) != players:
        raise ValueError(
            f"--agents names {len(kinds)} seats but a game has {players} players: give one kind for the "
            f"whole table or one per seat"
        )
    return kinds


def make_agents(kinds: tuple[str, ...], gseed: int, content=None) -> list:
    """The agents of one game: seat s gets its kind seeded with agent_seed(gseed, s) (as random_agents does),
    and the content being played (a bot's hints)."""
    return [factory_of(k)(agent_seed(gseed, seat), content) for seat, k in enumerate(kinds)]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion of wins out of n."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def _identity_name(p) -> str:
    """The identity a player ends the game with (an identity card can change hands)."""
    return p.identity.name if p.identity is not None else "无身份牌"


def _won_of_dealt(title: str, wins: Counter, dealt: Counter, width: int) -> list:
    lines = [title]
    for name in sorted(dealt):
        k, d = wins.get(name, 0), dealt[name]
        lines.append(f"  {pad(name, width)} {k:>6} / {d:<6} {100 * k / d:5.1f}%")
    return lines


@dataclass
class Summary:
    games: int = 0
    players: int = 0
    reasons: Counter = field(default_factory=Counter)
    identity_wins: Counter = field(default_factory=Counter)
    identity_dealt: Counter = field(default_factory=Counter)
    task_wins: Counter = field(default_factory=Counter)
    task_dealt: Counter = field(default_factory=Counter)
    turns: Counter = field(default_factory=Counter)  # games by their length in turns (flat over any batch)
    decisions: int = 0
    role_dealt: Counter = field(default_factory=Counter)
    role_wins: Counter = field(default_factory=Counter)
    skill_uses: Counter = field(default_factory=Counter)  # "角色·技能" -> uses over all games
    failures: list = field(default_factory=list)  # (game index, game seed, error text)
    rerun: str = ""  # the command that re-runs one game alone with its trace: "{seed}" stands for its game seed
    agents: tuple = ()  # --agents: the kind of agent at each seat (empty: random agents, nothing reported)
    agent_seats: Counter = field(default_factory=Counter)  # kind -> seats played (games × seats of that kind)
    agent_wins: Counter = field(default_factory=Counter)  # kind -> seats of that kind that won

    def add(self, game: Game, result) -> None:
        self.add_record(game_record(game, result))

    def add_record(self, rec: dict) -> None:
        """Count one game from its record (plain data: what a worker process sends back)."""
        self.games += 1
        self.role_dealt.update(rec["roles"])
        self.role_wins.update(rec["winner_roles"])
        self.skill_uses.update(rec["skill_uses"])
        self.reasons[rec["reason"]] += 1
        self.turns[rec["turns"]] += 1
        self.decisions += rec["decisions"]
        self.identity_dealt.update(rec["identities"])
        self.task_dealt.update(rec["tasks"])
        self.identity_wins.update(rec["won_identities"])
        self.task_wins.update(rec["winner_tasks"])
        if self.agents:
            self.agent_seats.update(self.agents)
            self.agent_wins.update(self.agents[s] for s in rec["winner_seats"])

    def agent_lines(self) -> list:
        """Who sat where, and the win rate of each kind of agent per seat played, with its Wilson 95% interval."""
        seats = ", ".join(f"P{s} {k}" for s, k in enumerate(self.agents))
        lines = [f"Agents: {seats}", "", "Win rate by agent (seats that won / seats played, Wilson 95% interval):"]
        width = max([10, *(len(kind) for kind in self.agent_seats)])
        for kind in sorted(self.agent_seats):
            k, n = self.agent_wins[kind], self.agent_seats[kind]
            lo, hi = wilson(k, n)
            rate = f"{100 * k / n:5.1f}%  [{100 * lo:5.1f}%, {100 * hi:5.1f}%]"
            lines.append(f"  {pad(kind, width)} {k:>6} / {n:<6} {rate}")
        return lines

    def text(self, header: str) -> str:
        g = max(self.games, 1)
        lines = [header, ""]
        if self.agents:
            lines += [*self.agent_lines(), ""]
        lines.append("How games ended:")
        for reason, k in sorted(self.reasons.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"  {pad(REASON_TEXT.get(reason, reason), 58)} {k:>6}  {100 * k / g:5.1f}%")
        lines.append("")
        lines.append("Wins by identity (games in which a player of this identity won):")
        for name in sorted(self.identity_dealt):
            k = self.identity_wins.get(name, 0)
            lines.append(f"  {pad(name, 10)} {k:>6}  {100 * k / g:5.1f}%")
        if self.task_dealt:
            lines.append("")
            lines += _won_of_dealt("Wins by secret task (won / times dealt):", self.task_wins, self.task_dealt, 10)
        if self.role_dealt:
            lines.append("")
            lines += _won_of_dealt(
                "Wins by role (won / times in play at the end):", self.role_wins, self.role_dealt, 28
            )
            lines.append("")
            lines.append("Skill uses (all games):")
            for name in sorted(self.skill_uses):
                lines.append(f"  {pad(name, 36)} {self.skill_uses[name]:>7}")
        average, least, most = self._turns()
        lines.append("")
        lines.append(f"Average turns: {average:.2f} (min {least}, max {most})")
        lines.append(f"Average decisions per game: {self.decisions / g:.1f}")
        if self.failures:
            lines.append("")
            lines.append(f"FAILED games ({len(self.failures)}): each re-runs alone, with its resolution trace, by")
            for index, gseed, err in self.failures:
                lines.append(f"  game {index} (game seed {gseed}): {err}")
                if self.rerun:
                    lines.append("    " + self.rerun.format(seed=gseed, pin_seat=index % self.players))
        return "\n".join(lines)

    def _turns(self) -> tuple[float, int, int]:
        """Average, shortest and longest game in turns (0s before any game)."""
        t = self.turns or Counter({0: 1})
        return sum(k * n for k, n in t.items()) / t.total(), min(t), max(t)

    def to_json(self) -> dict:
        average, least, most = self._turns()
        return {
            "games": self.games,
            "players": self.players,
            "ended_by": dict(self.reasons),
            "identity_wins": dict(self.identity_wins),
            "task_wins": dict(self.task_wins),
            "task_dealt": dict(self.task_dealt),
            "average_turns": average,
            "min_turns": least,
            "max_turns": most,
            "decisions": self.decisions,
            "role_wins": dict(self.role_wins),
            "role_dealt": dict(self.role_dealt),
            "skill_uses": dict(self.skill_uses),
            **(
                {
                    "agents": list(self.agents),
                    "agent_wins": {
                        kind: {
                            "won": self.agent_wins[kind],
                            "seats": n,
                            "wilson95": list(wilson(self.agent_wins[kind], n)),
                        }
                        for kind, n in sorted(self.agent_seats.items())
                    },
                }
                if self.agents
                else {}
            ),
            "failures": [
                {
                    "game": i,
                    "seed": s,
                    "error": e,
                    **({"rerun": self.rerun.format(seed=s, pin_seat=i % self.players)} if self.rerun else {}),
                }
                for i, s, e in self.failures
            ],
        }


def game_record(game: Game, result) -> dict:
    """What a batch summary counts of one finished game, as plain data."""
    skill_uses: Counter = Counter()
    for (rid, name), k in game.skill_uses.items():
        skill_uses[f"{game.content.roles[rid].label()}·{name}"] += k
    return {
        "roles": [p.role.label() for p in game.players if p.role is not None],
        "winner_roles": [p.role.label() for p in result.winners if p.role is not None],
        "skill_uses": skill_uses,
        "reason": result.reason,
        "turns": game.turn_no,
        "decisions": game.decision_count,
        "identities": [_identity_name(p) for p in game.players],
        "tasks": [p.task.name for p in game.players if p.task is not None],
        "won_identities": sorted({_identity_name(p) for p in result.winners}),
        "winner_tasks": [p.task.name for p in result.winners if p.task is not None],
        "winner_seats": sorted(p.seat for p in result.winners),
    }


REASON_TEXT = {
    "collect": "a player collected three red or blue intel",
    "death": "a death fulfilled a secret task",
    "turn_end": "a secret task fulfilled at turn end",
    "last_alive": "only one player was left alive",
    "turn_limit": "draw: turn limit reached",
    "no_players": "draw: no player left",
}
for _k in list(REASON_TEXT):
    REASON_TEXT[_k + "+usurp"] = REASON_TEXT[_k] + ", then usurped"


class LogWriter:
    """Writes games as JSONL: header, events and decisions, end digest."""

    def __init__(
        self,
        path,
        content_paths,
        players: int,
        fingerprint: str | None = None,
        agents: str = "random",
        max_turns: int | None = None,
        packs: list[str] | None = None,
    ):
        # the writer holds the file open; close() closes it (no file: it only formats, in a worker)
        self.f = open(path, "w", encoding="utf-8") if path is not None else None  # noqa: SIM115
        self.fingerprint = fingerprint if fingerprint is not None else content_fingerprint(content_paths)
        # the header's `packs`: the folders played, so `replay` finds a fork's content without --content; named
        # portably (a bundled pack by id, another relative to the log's folder: content.packs.log_pack_ref).
        # `packs` gives them made already (a worker formats games for the log its batch writes)
        if packs is None and content_paths:
            from .content.packs import log_pack_ref

            base = Path(path).parent if path is not None else None
            packs = [log_pack_ref(p, base) for p in content_paths]
        self.packs = packs
        self.players = players
        self.agents = agents  # the header's `agents`: "random", or the kinds per seat of --agents
        self.max_turns = max_turns  # the header's `max_turns` (--max-turns; absent: the rules' limit)

    def game_text(self, index: int, gseed: int, game: Game, failed: str | None = None) -> str:
        """One game's lines: its header, every record of the referee's log, its end digest (a failed game: its
        records as far as it got, and an end record with `failed`, the failure, instead of the digest)."""
        header = {
            "type": "game",
            "format": LOG_FORMAT,
            "version": __version__,
            "index": index,
            "view": "referee",
            "seed": gseed,
            "players": self.players,
            "content": self.fingerprint,
            "agents": self.agents,
        }
        if self.packs is not None:
            header["packs"] = self.packs
        if self.max_turns is not None:  # a turn limit other than the rules': replay plays to the same one
            header["max_turns"] = self.max_turns
        out = [json.dumps(header, ensure_ascii=False)]
        for rec in game.log:
            kind = "decision" if "d" in rec else "event"
            out.append(json.dumps({"type": kind, **rec}, ensure_ascii=False, sort_keys=True))
        end = {"type": "end", "failed": failed} if failed is not None else {"type": "end", "digest": game.digest()}
        out.append(json.dumps(end, ensure_ascii=False, sort_keys=True))
        return "\n".join(out) + "\n"

    def write_game(self, index: int, gseed: int, game: Game) -> None:
        self.write(self.game_text(index, gseed, game))

    def write(self, text: str) -> None:
        assert self.f is not None  # a writer made with a path
        self.f.write(text)

    def close(self) -> None:
        if self.f is not None:
            self.f.close()


def state_log_text(state: GameState, content_paths, agents: str, index: int = 0, base: Path | None = None) -> str:
    """The referee's log of a game played on the step API with the packs `content_paths` (a table of ``fengsheng
    serve``), as ``simulate --log`` writes a game: ``fengsheng replay`` re-runs it from its seed and decisions.

    Its header names the packs as ``simulate --log`` does (``content.packs.log_pack_ref``: a bundled pack by id)
    but a pack of one's own relative to `base` — by default the current directory, the folder the server was
    started in, since the folder the log will be saved in is not known — never by an absolute path of the
    machine that played it: saved in that folder, or replayed from it, the log finds its pack."""
    from .content.packs import log_pack_ref

    where = Path.cwd() if base is None else Path(base)
    packs = [log_pack_ref(p, where) for p in content_paths] if content_paths else None
    writer = LogWriter(None, content_paths, state.n_players, agents=agents, max_turns=state.max_turns, packs=packs)
    return writer.game_text(index, state.seed, state._game)


def _short(e: BaseException, limit: int = 600) -> str:
    """An exception's message on one line, cut to `limit` characters (it may hold a huge value)."""
    text = " ".join(str(e).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def failure_text(e: BaseException) -> str:
    """How a failed game is reported: a limit or a broken rule of the engine as it is; anything else is a bug."""
    # a runaway loop, a stuck game, a broken zone; an external bot's failure (it names the seat and the bot)
    if isinstance(e, (EngineError, IllegalAction, AssertionError, BotError)):
        return f"{type(e).__name__}: {_short(e)}"
    return f"internal error (a bug in the engine; please report it with the game seed): {type(e).__name__}: {_short(e)}"


def play_game(
    content,
    players: int,
    gseed: int,
    max_turns=None,
    record: bool = False,
    trace: list | None = None,
    agents: tuple[str, ...] | None = None,
    pins=None,
):
    """One game from its game seed, as a batch plays it: (the game, the failure text or None).

    The seats are random agents, or the kinds of `agents` (parse_agents), each seeded from the game seed.

    The game is returned even when it failed (as far as it got: its log, its trace)."""
    game = None
    seated: list = []
    try:
        seated = make_agents(agents, gseed, content) if agents else random_agents(gseed, players)
        game = Game(content, players, gseed, seated, record=record, max_turns=max_turns, pins=pins)
        game.trace = trace
        game.run()  # what step.drive does
        game.check_invariants()
    except BotBroken:  # an external bot that cannot play on: the batch stops (agents/external.py)
        tell_end(seated, None)
        raise
    except Exception as e:  # a bug in the engine itself too: the batch goes on, the game is reported
        tell_end(seated, None)
        return game, failure_text(e)
    tell_end(seated, game)
    return game, None


def tell_end(seated: list, game: Game | None) -> None:
    """Tell the agents that hear it (Agent.hears_end: an external bot) that the game is over: each its seat's
    final observation, or None when the game stopped before its end."""
    for seat, agent in enumerate(seated):
        if getattr(agent, "hears_end", False):
            agent.end(game.observation(seat) if game is not None else None)


def play_one(
    content,
    players: int,
    index: int,
    seed: int,
    max_turns=None,
    log: LogWriter | None = None,
    agents: tuple[str, ...] | None = None,
    pins: Pins | None = None,
):
    """Game `index` of a batch: (game seed, its record or None, the failure text or None, its log lines).

    A failed game is logged too, as far as it got, its end record marked with the failure. `pins`: what the
    batch pins (engine/pins.py), at seat ``index % players`` in this game."""
    gseed = game_seed(seed, index)
    pinned = pins.at(index % players) if pins else None
    game, failure = play_game(content, players, gseed, max_turns, record=log is not None, agents=agents, pins=pinned)
    text = log.game_text(index, gseed, game, failure) if log is not None and game is not None else ""
    if failure is not None:
        return gseed, None, failure, text
    return gseed, game_record(game, game.result), None, text


MIN_GAMES_PER_JOB = 50
# Chunks handed out but not yet taken back, per worker: bounds what waits in memory behind a slow chunk.
CHUNKS_AHEAD = 4
MAX_CHUNK = 100  # games in a chunk of a batch over several processes, at most
MIN_CHUNK = 4  # ... and at least (the last one may be shorter)


def chunks_of(games: int, jobs: int) -> list[range]:
    """A batch of `games` cut into chunks for `jobs` workers, by index: large while much is left, shorter towards
    the end (each about an eighth of a worker's share of what is left), so the workers finish at about the same
    time: with chunks of one size, the last could keep one worker busy alone for a whole chunk's time."""
    out = []
    start = 0
    while start < games:
        size = max(MIN_CHUNK, min(MAX_CHUNK, (games - start) // (jobs * 8)))
        out.append(range(start, min(start + size, games)))
        start += size
    return out


# A worker process's batch: set before the pool starts (a forked worker inherits it) or by _init_worker.
_BATCH: dict = {}


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed, out of memory, a crash in C): its games are lost.
    `summary`: the games counted before (printed all the same)."""

    summary: Summary | None = None


def _init_worker(batch: dict) -> None:
    """Make a worker ready: the content comes with the fork, or is loaded again from its paths (spawn)."""
    worker_signals()
    external.adopt(batch.get("bots") or {})  # the batch's external bots (a forked worker has them already)
    if not _BATCH:
        from .content.loader import load_content

        _BATCH.update(batch, content=load_content(batch["content_paths"]))
    tune_gc_for_batch()  # (what the worker inherited or loaded: frozen)


def worker_signals() -> None:
    """A worker's signals: Ctrl-C is the parent's (it stops the workers); SIGTERM ends the worker at once, as by
    default — a forked worker would otherwise inherit a parent's handler (a sweep's turns SIGTERM into
    KeyboardInterrupt, which the pool's worker loop catches as a task's error and lives on, so the parent's
    terminate() never ended it); and it dies with the parent."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent()


def die_with_parent() -> None:
    """On Linux, a worker is killed when the batch's process dies, even by SIGKILL (it would otherwise play its
    chunk to the end and wait for work forever)."""
    if not sys.platform.startswith("linux"):
        return
    import contextlib
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _play_chunk(indices: range) -> list:
    b = _BATCH
    log = (
        LogWriter(
            None,
            b["content_paths"],
            b["players"],
            fingerprint=b["fingerprint"],
            agents=b["agents_header"],
            max_turns=b["max_turns"],
            packs=b["packs"],
        )
        if b["log"]
        else None
    )
    out = []
    for i in indices:
        out.append(
            (i, *play_one(b["content"], b["players"], i, b["seed"], b["max_turns"], log, b["agents"], b["pins"]))
        )
        after_game()
    return out


STOP_GRACE = 5.0  # seconds a worker is given to end on SIGTERM before it is killed


def _stop_workers(pool) -> None:
    """Cancel what has not started and end the workers now (shutdown alone would wait for every chunk)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # (shutdown forgets it)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(STOP_GRACE)
        if proc.is_alive():  # it did not die of SIGTERM within the grace: it is killed, never waited on forever
            proc.kill()
            proc.join()
    # the pool's own thread reaps the workers too: whichever of the two waits on a worker first takes its exit
    # status, and the other may read it before it is stored; once that thread is done, every exit code is settled
    if manager is not None:
        manager.join(STOP_GRACE)


@contextlib.contextmanager
def worker_pool(jobs: int, ctx, initializer, initargs: tuple) -> Iterator[ProcessPoolExecutor]:
    """A process pool for a batch (simulate, a sweep): shut down when the batch is done; on any exception
    (Ctrl-C, a dead worker: BrokenProcessPool, an error) its workers are ended at once, then it propagates."""
    from concurrent.futures import ProcessPoolExecutor  # imported when a pool is made, not at start-up

    pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=initializer, initargs=initargs)
    try:
        yield pool
    except BaseException:
        _stop_workers(pool)
        raise
    pool.shutdown()


def default_jobs() -> int:
    """Every core this process may run on."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def simulate(
    content,
    players: int,
    games: int,
    seed: int,
    log_path=None,
    content_paths=None,
    max_turns=None,
    progress=None,
    jobs: int = 1,
    agents: tuple[str, ...] | None = None,
    pins: Pins | None = None,
) -> Summary:
    """Play a batch; the same arguments give the same summary and log, byte for byte, whatever `jobs`.

    With jobs > 1 the games are split by index over worker processes in chunks,
    and their records (and log lines) are taken back in index order, so nothing
    depends on which worker finished first. Memory stays flat: at most
    CHUNKS_AHEAD chunks per worker are out at a time, and a chunk is counted
    and written as soon as its turn comes. Where processes cannot be forked
    (Windows), a worker loads the content again from `content_paths`; without
    them the batch runs in this process (the content given may not be the
    bundled one). A worker that dies raises WorkerDied instead of waiting for
    it forever. `agents` (parse_agents) seats those bots instead of random
    agents, and the summary reports their win rates. `pins` deals a role or task to a seat in every game (the
    seat rotating: play_one).
    """
    summary = Summary(players=players, agents=tuple(agents or ()))
    agents_header = ",".join(agents) if agents else "random"
    writer = (
        LogWriter(log_path, content_paths, players, agents=agents_header, max_turns=max_turns) if log_path else None
    )
    done = 0

    def take(i: int, gseed: int, rec, failure, text: str) -> None:
        nonlocal done
        if failure is not None:
            summary.failures.append((i, gseed, failure))
        else:
            summary.add_record(rec)
        if writer is not None and text:
            writer.write(text)
        done += 1
        if progress:
            progress(done)

    import multiprocessing as mp

    methods = mp.get_all_start_methods()
    fork = "fork" in methods
    if not fork and not content_paths:
        jobs = 1  # a worker could only load the bundled content, which may not be `content`
    jobs = min(jobs, games // MIN_GAMES_PER_JOB)  # a small batch is not worth starting processes for
    try:
        if jobs <= 1:
            if games < MIN_GAMES_PER_JOB:
                for i in range(games):
                    take(i, *play_one(content, players, i, seed, max_turns, writer, agents, pins))
                return summary
            with batch_gc():
                for i in range(games):
                    take(i, *play_one(content, players, i, seed, max_turns, writer, agents, pins))
                    after_game()
            return summary
        from collections import deque
        from concurrent.futures.process import BrokenProcessPool

        batch = {
            "content": content,
            "content_paths": [str(p) for p in content_paths] if content_paths else None,
            "players": players,
            "seed": seed,
            "max_turns": max_turns,
            "log": writer is not None,
            "agents": agents,
            "pins": pins,
            "agents_header": agents_header,
            "bots": external.defined(),
            "fingerprint": writer.fingerprint if writer is not None else "",
            "packs": writer.packs if writer is not None else None,
        }
        ctx = mp.get_context("fork" if fork else methods[0])
        if sys.platform == "win32":
            jobs = min(jobs, 61)  # ProcessPoolExecutor waits on at most 61 processes there
        chunks = chunks_of(games, jobs)
        _BATCH.clear()
        if fork:
            _BATCH.update(batch)  # inherited: nothing to pickle or load again
        spawn_batch = {k: v for k, v in batch.items() if k != "content"}
        todo = iter(chunks)
        out: deque = deque()  # (chunk, its future), in index order
        first = 0  # the first game not yet taken back
        try:
            with worker_pool(jobs, ctx, _init_worker, (spawn_batch,)) as pool:

                def hand_out(n: int) -> None:
                    for chunk in itertools.islice(todo, n):
                        out.append((chunk, pool.submit(_play_chunk, chunk)))

                hand_out(jobs * CHUNKS_AHEAD)
                while out:
                    chunk, future = out[0]
                    results = future.result()
                    out.popleft()
                    hand_out(1)
                    for item in results:
                        take(*item)
                    first = chunk.stop
        except BrokenProcessPool:
            died = WorkerDied(
                f"a worker process died (killed, out of memory, or a crash) while games {first} to "
                f"{(out[-1][0].stop if out else games) - 1} were being played; run the batch with --jobs 1 to see "
                "which game"
            )
            died.summary = summary
            raise died from None
        finally:
            _BATCH.clear()
    finally:
        external.close_all()  # the batch's external bots, if any: one process per seat, ended with the batch
        if writer:
            writer.close()
    return summary


# ---------------------------------------------------------------------- replay


class ReplayMismatch(Exception):
    pass


MAX_LOG_LINE = 10_000_000  # bytes in one line of a log: far more than any record


def read_log(path) -> list[dict]:
    """Split a JSONL log into games: [{header, records, end}]."""
    with open(path, "rb") as f:  # decoded line by line, so that a bad byte is placed exactly
        return _read_log_lines(f, path)


def read_log_text(text: str | bytes, name: str = "the log") -> list[dict]:
    """:func:`read_log` of a log held in memory (an upload); `name` stands for the path in messages."""
    return _read_log_lines(io.BytesIO(text.encode("utf-8") if isinstance(text, str) else text), name)


def _read_log_lines(f, path) -> list[dict]:
    games: list[dict] = []
    for n, raw in enumerate(iter(lambda: f.readline(MAX_LOG_LINE + 1), b""), 1):
        if len(raw) > MAX_LOG_LINE:  # no record is this long (a device such as /dev/zero never ends)
            raise ReplayMismatch(f"{path}:{n}: not a log record (a line of more than {MAX_LOG_LINE:,} bytes)")
        try:
            line = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as e:
            col = len(raw[: e.start].decode("utf-8")) + 1
            shown = raw.rstrip(b"\r\n").decode("utf-8", "backslashreplace")
            raise ReplayMismatch(
                f"{path}:{n}:{col}: byte 0x{raw[e.start]:02x} is not UTF-8\n{snippet(shown, col)}"
            ) from None
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise ReplayMismatch(f"{path}:{n}:{e.colno}: not a JSON line ({e.msg})\n{snippet(line, e.colno)}") from None
        except RecursionError:
            raise ReplayMismatch(f"{path}:{n}: not a log record (values nested too deeply)") from None
        except ValueError:  # Python reads no number of more than 4,300 digits
            raise ReplayMismatch(f"{path}:{n}: not a log record (a number of thousands of digits)") from None
        if not isinstance(rec, dict):
            col = len(line) - len(line.lstrip()) + 1
            raise ReplayMismatch(
                f"{path}:{n}:{col}: not a JSON object (each line of a log is one record)\n{snippet(line, col)}"
            )
        t = rec.get("type")
        wrong = _malformed(rec, t)
        if wrong:
            raise ReplayMismatch(f"{path}:{n}: {wrong}")
        if t == "game":
            games.append({"header": rec, "records": [], "end": None, "lines": []})
        elif not games:
            raise ReplayMismatch(f"{path}:{n}: the log does not start with a game header")
        elif t == "end":
            games[-1]["end"] = rec
        else:
            rec = dict(rec)
            rec.pop("type", None)
            games[-1]["records"].append(rec)
            games[-1]["lines"].append(n)
    return games


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _shown(value: object, limit: int = 60) -> str:
    """A value of a log record in a message: its repr on one line, cut short."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_MAX_OPTIONS = 100_000  # far more than any decision of the game offers


def _around_difference(a: str, b: str, width: int = 160) -> tuple[str, str]:
    """Two lines that differ, each cut to `width` characters around where they first differ (a record may be long)."""
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    start = max(0, at - width // 2)

    def cut(s: str) -> str:
        end = start + width
        return ("…" if start else "") + s[start:end] + ("…" if end < len(s) else "")

    return cut(a), cut(b)


def _malformed(rec: dict, kind: object) -> str | None:
    """What is wrong with the fields of a log record that replay reads, or None (the rest is compared as it is)."""
    if kind == "game":
        players = rec.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 10:
            return f"a game header needs `players`, a number from 2 to 10 (got {_shown(players)})"
        if "seed" in rec and not is_seed(rec["seed"]):
            return f"a game header's `seed` is {SEED_RANGE} (got {_shown(rec['seed'])})"
        if "index" in rec and not (_is_int(rec["index"]) and 0 <= rec["index"] < 2**63):
            return f"a game header's `index` is a whole number from 0 (got {_shown(rec['index'])})"
        return None
    if kind == "end":
        if isinstance(rec.get("failed"), str) or isinstance(rec.get("digest"), dict):
            return None
        return "an end record needs `digest`, the end state (or `failed`, why the game failed)"
    to, secret = rec.get("to"), rec.get("secret")
    if to is not None and not (isinstance(to, list) and all(map(_is_int, to))):
        return f"`to` is a list of seats (got {_shown(to)})"
    if secret is not None and not (
        isinstance(secret, dict) and all(isinstance(v, list) and all(map(_is_int, v)) for v in secret.values())
    ):
        return f"`secret` maps fields to lists of seats (got {_shown(secret)})"
    if "d" in rec:
        for key in ("seat", "n", "choice"):
            if not _is_int(rec.get(key)):
                return f"a decision record needs `{key}`, a whole number (got {_shown(rec.get(key))})"
        if not 0 <= rec["seat"] < 10:
            return f"a decision record's `seat` is a seat from 0 to 9 (got {_shown(rec['seat'])})"
        if not 0 < rec["n"] <= _MAX_OPTIONS:
            return f"a decision record's `n` is how many options, from 1 to {_MAX_OPTIONS} (got {_shown(rec['n'])})"
        if not 0 <= rec["choice"] < rec["n"]:
            return f"choice {_shown(rec['choice'])} is not one of the decision's {_shown(rec['n'])} options"
    return None


def replay_game(content, logged: dict, max_turns: int | None = None) -> tuple[bool, str]:
    """Re-run one logged game; returns (identical?, message). The turn limit is `max_turns` if given, else the
    header's (a log made with simulate --max-turns), else the rules'."""
    h = logged["header"]
    if max_turns is None and isinstance(h.get("max_turns"), int) and not isinstance(h.get("max_turns"), bool):
        max_turns = h["max_turns"] if h["max_turns"] >= 1 else None
    if "seed" not in h:
        return False, "this is one seat's copy of the log (no seed): only the referee's copy can be replayed"
    decisions: list[dict] = []
    at = []  # where each decision is: its number, and its line of the log file if read from one
    for rec, line in zip(logged["records"], logged.get("lines") or [None] * len(logged["records"]), strict=False):
        if "d" in rec:
            decisions.append(rec)
            at.append(f"decision {len(decisions)}" + (f" (line {line})" if line else ""))
    if h["players"] not in content.rules.identity_table:
        return False, f"the content has no identity table for {h['players']} players"
    end = logged.get("end")
    failed = end.get("failed") if end is not None else None  # simulate logs a failed game as far as it got
    state = None
    error = None
    pos = 0
    try:
        first = logged["records"][0] if logged["records"] else {}
        state = GameState(content, h["players"], h["seed"], max_turns=max_turns, pins=Pins.from_dict(first.get("pins")))
        while not state.is_terminal():
            if pos >= len(decisions):
                last = (logged.get("lines") or [None])[-1]
                return (
                    False,
                    f"the game asks more decisions than the log has ({state.decision_kind} for "
                    f"P{state.current_player()})"
                    + (f"; its records stop at line {last} (was the log cut off?)" if last else ""),
                )
            rec = decisions[pos]
            pos += 1
            legal = state.legal_actions()
            if rec["seat"] != state.current_player() or rec["d"] != state.decision_kind or rec["n"] != len(legal):
                return False, (
                    f"{at[pos - 1]}: log has {rec['d']} for P{rec['seat']} with {rec['n']} options, the "
                    f"game asks {state.decision_kind} for P{state.current_player()} with {len(legal)}"
                )
            state.apply_action(legal[rec["choice"]])
        state._game.check_invariants()  # as simulate checks every game it plays
    except Exception as e:  # the game fails in the replay: as logged (a failed game), or a new failure
        error = failure_text(e)
    if state is None:
        return False, f"the replay failed as it started: {error}"
    game = state._game
    if pos != len(decisions):
        return False, f"the game ended after {pos} of {len(decisions)} logged decisions" + (
            f" ({error})" if error else ""
        )
    logged_recs = [json.dumps(r, sort_keys=True, ensure_ascii=False) for r in logged["records"]]
    new_recs = [json.dumps(r, sort_keys=True, ensure_ascii=False) for r in game.log]
    if logged_recs != new_recs:
        for i, (a, b) in enumerate(zip(logged_recs, new_recs, strict=False)):  # they may differ in length
            if a != b:
                la, lb = _around_difference(a, b)
                return False, f"record {i + 1} differs:\n  log:    {la}\n  replay: {lb}"
        return False, f"the log has {len(logged_recs)} records, the replay {len(new_recs)}" + (
            f" ({error})" if error else ""
        )
    if end is None:
        last = (logged.get("lines") or [None])[-1]  # a game without records has no end either: not replayed
        return False, f"the log has no end record (was it cut off{f' after line {last}' if last else ''}?)"
    if failed is not None or error is not None:
        if failed is None:
            return False, f"the replay failed: {error}"
        if error is None:
            return False, f"the logged game failed ({failed}); the replay did not"
        if error != failed:
            return False, f"the game failed differently:\n  log:    {failed}\n  replay: {error}"
        return True, f"identical failure after {len(decisions)} decisions, {len(new_recs)} records: {error}"
    if json.dumps(end["digest"], sort_keys=True) != json.dumps(game.digest(), sort_keys=True):
        return False, "the end state differs from the logged one"
    winners = ", ".join(f"P{s}" for s in game.digest()["winners"]) or "nobody"
    over = game.result
    assert over is not None  # the replay ran to the end
    return True, (
        f"identical: {len(decisions)} decisions, {len(new_recs)} records, "
        f"{game.turn_no} turns, winners {winners} ({over.reason})"
    )


# ---------------------------------------------------------------------- per-seat copies


def seat_records(logged: dict, seat: int | None) -> list[dict]:
    """One game of a referee's log as `seat` saw it (None: a spectator): hidden records and fields left out."""
    out = []
    for rec in logged["records"]:
        v = project(rec, seat)
        if v is not None:
            out.append(v)
    return out


def seat_header(logged: dict, seat: int | None) -> dict:
    """The game header of a per-seat copy: no seed (it would regenerate every hidden card)."""
    h = {k: v for k, v in logged["header"].items() if k != "seed"}
    h["view"] = "public" if seat is None else f"P{seat}"
    return h
