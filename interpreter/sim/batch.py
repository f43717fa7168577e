"""Playing a batch: the agents of a game (seeded from its game seed), one game from its seed as a batch plays it,
and simulate(): games by index, in this process or over worker processes (pool.py), counted into a Summary and
written to the log in index order, so the same arguments give the same output whatever the number of jobs."""

from __future__ import annotations

import itertools
import sys

from ..agents import RandomAgent, external
from ..agents.external import BotBroken, BotError
from ..agents.kinds import factory_of
from ..engine.drivers import UniformDraws
from ..engine.errors import EngineError, IllegalAction
from ..engine.game import Game
from ..engine.pins import Pins
from ..engine.step import World
from ..model.content import rule_counts
from ..seeds import agent_seed, game_seed
from .logs import LogWriter
from .pool import (
    CHUNKS_AHEAD,
    MIN_GAMES_PER_JOB,
    after_game,
    batch_gc,
    chunks_of,
    tune_gc_for_batch,
    worker_pool,
    worker_signals,
)
from .summary import Summary, game_record


def random_agents(gseed: int, n: int) -> list:
    return [RandomAgent(agent_seed(gseed, seat)) for seat in range(n)]


def new_game(content, players: int, gseed: int, seated: list, record: bool = False, max_turns=None, pins=None) -> Game:
    """A game as a batch plays it, not yet run: its search bots get their seat's World, and the seats of
    RandomAgents are answered by the batch's driver (engine/drivers.py: the same draws from the agent's own
    generator, without building descriptors), every other seat through the game's own driver."""
    game = Game(content, players, gseed, seated, record=record, max_turns=max_turns, pins=pins, worlds=World.of_game)
    draws = [a.rng.getrandbits if type(a) is RandomAgent else None for a in seated]
    if any(d is not None for d in draws):
        game.decide = UniformDraws(game, draws, game.decide)
    return game


def drive(content, players: int, gseed: int, seated: list, max_turns=None, record: bool = False) -> Game:
    """Play a whole game as a batch does (new_game) and return it: step.drive's game, answered faster."""
    game = new_game(content, players, gseed, seated, record=record, max_turns=max_turns)
    game.run()
    return game


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
        game = new_game(content, players, gseed, seated, record=record, max_turns=max_turns, pins=pins)
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
    record = game_record(game, game.result) if failure is None and game is not None else None
    if game is not None:
        game.close()  # (read for the last time: freed as it goes, no collector's walk)
    return gseed, record, failure, text


# ---------------------------------------------------------------------- a batch over worker processes

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
        from ..content.loader import load_content

        _BATCH.update(batch, content=load_content(batch["content_paths"]))
    tune_gc_for_batch()  # (what the worker inherited or loaded: frozen)


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
    summary = Summary(players=players, agents=tuple(agents or ()), counts=rule_counts(content.rules))
    agents_header = ",".join(agents) if agents else "random"
    writer = (
        LogWriter(log_path, content_paths, players, agents=agents_header, max_turns=max_turns, content=content)
        if log_path
        else None
    )
    take = _Taker(summary, writer, progress)
    jobs = _jobs_worth(jobs, games, content_paths)
    try:
        if jobs <= 1:
            _play_here(take, content, players, games, seed, max_turns, writer, agents, pins)
            return summary
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
        _play_pooled(take, batch, games, jobs)
    finally:
        external.close_all()  # the batch's external bots, if any: one process per seat, ended with the batch
        if writer:
            writer.close()
            summary.log_written = writer.written
            summary.log_error = _said(writer.error) if writer.error is not None else None
    return summary


def _said(e: OSError) -> str:
    return f"{e.strerror or e}" + (f" ({e.filename})" if e.filename else "")


def _jobs_worth(jobs: int, games: int, content_paths) -> int:
    """The worker processes a batch is played over (1: in this process)."""
    import multiprocessing as mp

    if "fork" not in mp.get_all_start_methods() and not content_paths:
        jobs = 1  # a worker could only load the bundled content, which may not be `content`
    return min(jobs, games // MIN_GAMES_PER_JOB)  # a small batch is not worth starting processes for


class _Taker:
    """Takes each game of a batch back in index order: counts it into the summary (or its failure), writes its
    log lines, and reports progress."""

    def __init__(self, summary: Summary, writer: LogWriter | None, progress) -> None:
        self.summary, self.writer, self.progress = summary, writer, progress
        self.done = 0

    def __call__(self, i: int, gseed: int, rec, failure, text: str) -> None:
        if failure is not None:
            self.summary.failures.append((i, gseed, failure))
        else:
            self.summary.add_record(rec)
            if rec["reason"] == "turn_limit":
                self.summary.turn_limit.append((i, gseed))
        if self.writer is not None and text:
            self.writer.write(text)
        self.done += 1
        if self.progress:
            self.progress(self.done)


def _play_here(take: _Taker, content, players: int, games: int, seed: int, max_turns, writer, agents, pins) -> None:
    """A batch played in this process (the collector tuned for it unless it is too small to matter)."""
    if games < MIN_GAMES_PER_JOB:
        for i in range(games):
            take(i, *play_one(content, players, i, seed, max_turns, writer, agents, pins))
        return
    with batch_gc():
        for i in range(games):
            take(i, *play_one(content, players, i, seed, max_turns, writer, agents, pins))
            after_game()


def _play_pooled(take: _Taker, batch: dict, games: int, jobs: int) -> None:
    """A batch played over `jobs` worker processes, chunk by chunk, taken back in index order; a worker that
    dies raises WorkerDied with the games counted before."""
    import multiprocessing as mp
    from collections import deque
    from concurrent.futures.process import BrokenProcessPool

    methods = mp.get_all_start_methods()
    fork = "fork" in methods
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
        with worker_pool(jobs, ctx, _init_worker, (spawn_batch,)) as workers:

            def hand_out(n: int) -> None:
                for chunk in itertools.islice(todo, n):
                    out.append((chunk, workers.submit(_play_chunk, chunk)))

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
        died.summary = take.summary
        raise died from None
    finally:
        _BATCH.clear()
