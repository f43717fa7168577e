"""Play a balance sweep: every game of a grid (player counts × agents × packs × games), on local worker
processes or a Ray cluster, each game's record written to the sweep's directory as it finishes.

**The same records whatever runs them.** Game ``i`` of a cell is played from the game seed
``sim.game_seed(sweep seed, i)`` with the agents of the cell's spec seeded from it
(``sim.make_agents``): nothing depends on the process, the order or the backend. ``--jobs 1``,
``--jobs 8`` and a Ray cluster write the same set of records (in the order they finish;
``records.read_records`` sorts them by (cell, index)). A cell's games are those
``fengsheng simulate -p N --agents A --seed S`` plays: one re-runs alone with
``simulate --game-seed SEED --trace``.

**Resuming.** The directory's ``sweep.json`` holds the grid; a sweep started again on the same
directory with the same grid plays only the games missing from ``games.jsonl`` (a run killed
mid-way leaves the games it finished, and at most one cut-off line, which is dropped). A
different grid in the same directory is refused (:class:`SweepError`, saying what differs).
``sweep.json`` names each pack's folders as a log's header does (:func:`portable`: a bundled pack
by id, another relative to the sweep's directory), so the directory describes itself wherever it
is read from (``balance report`` from another folder) and the same grid typed from another folder
resumes it; an older ``sweep.json`` that keeps them as typed is rewritten so when it resumes.

**Work.** Games are handed out in chunks of one cell, each about CHUNK_SECONDS of play at the
pace measured for that cell (a cell's first chunks are single games; a search bot's games stay
single, a random table's are grouped by the dozen); a chunk's records come back together and are
appended and flushed at once, so an interruption loses at most the chunks in flight. (The clock
only sizes chunks: no game depends on it.)
Locally the workers are forked processes (the content is loaded once, before the fork), as
``sim.simulate`` does, and a worker that dies stops the sweep with what is done kept. On Ray each
worker loads a pack's content from its folders once and checks its fingerprint against the grid's:
a cluster's nodes need fengsheng installed and the packs' folders at the same absolute paths (a pack
typed relative to the current directory is handed to them by its absolute path).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..agents import external
from ..agents.external import BotBroken
from ..engine.pins import Pins
from ..sim import (
    MIN_GAMES_PER_JOB,
    after_game,
    batch_gc,
    content_fingerprint,
    default_jobs,
    game_record,
    game_seed,
    identity_name,
    parse_agents,
    play_game,
    tune_gc_for_batch,
    worker_pool,
    worker_signals,
)
from .records import (
    GAMES_FILE,
    SWEEP_FILE,
    Cell,
    GameRecord,
    Pack,
    RecordError,
    SeatRecord,
    SweepSpec,
    done_keys,
    flush,
    open_games,
    read_records,
    read_spec,
    write_record,
    write_spec,
)

BACKENDS = ("local", "ray")
CHUNK_SECONDS = 1.0  # the play a chunk holds, at its cell's pace: what an interruption may lose per worker
MAX_CHUNK = 50  # games in one chunk at most
CHUNKS_AHEAD = 2  # chunks handed out per worker beyond the one it plays


class SweepError(Exception):
    """A sweep that cannot start or go on: the message says why (and that what is done is kept)."""


class SweepInterrupted(SweepError):
    """Ctrl-C (or SIGINT) during a sweep: the games done are kept."""


@dataclass(frozen=True)
class PackSource:
    """A pack of the grid as the command gives it: its label, its folders as given (``--content``), its
    ``--expansions`` choice, and the folders those resolve to (what the loader reads)."""

    name: str
    content: tuple[str, ...]
    expansions: str | None
    paths: tuple[str, ...]

    def pack(self) -> Pack:
        return Pack(self.name, self.content, self.expansions, content_fingerprint(self.paths))


# What plays a game: the packages and modules of the interpreter whose code engine_fingerprint hashes.
PLAYING = ("engine", "language", "content", "agents", "model", "sim")
PLAYING_FILES = ("__init__.py", "catalogue.py", "seeds.py", "balance/sweep.py")
_ENGINE: list[str] = []


def engine_fingerprint() -> str:
    """A hash of the fengsheng code that plays a game (the modules of PLAYING and the grammar): a sweep resumed
    or spread over a cluster is played by one engine, or refused. The version alone does not tell: the code
    changes between releases. The commands, the reports and the other tools are left out."""
    if not _ENGINE:
        import hashlib

        root = Path(__file__).resolve().parents[1]  # the interpreter package
        h = hashlib.sha256()
        files = [f for part in PLAYING for f in (root / part).rglob("*") if f.suffix in (".py", ".lark")]
        files += [root / f for f in PLAYING_FILES]
        for f in sorted(files):
            if "__pycache__" in f.parts:
                continue
            h.update(f.relative_to(root).as_posix().encode())
            h.update(f.read_bytes())
        _ENGINE.append(h.hexdigest()[:16])
    return _ENGINE[0]


def make_spec(
    seed: int,
    players: Sequence[int],
    agents: Sequence[str],
    packs: Sequence[PackSource],
    games: int,
    max_turns: int | None = None,
    pins: dict[str, str] | None = None,
) -> SweepSpec:
    """The grid of a sweep. Raises SweepError for an agent spec that is wrong, or that names seats for none
    of the player counts."""
    for spec in agents:
        fits = []
        problem: ValueError | None = None
        for n in players:
            try:
                parse_agents(spec, n)
                fits.append(n)
            except ValueError as e:
                if len(spec.split(",")) == 1:
                    raise SweepError(f"--agents {spec!r}: {e}") from None
                problem = e
        if not fits:
            if "unknown agent" in str(problem):
                raise SweepError(f"--agents {spec!r}: {problem}")
            raise SweepError(
                f"--agents {spec!r} names {len(spec.split(','))} seats but the grid's player counts are "
                f"{', '.join(map(str, players))}: a list per seat joins only the player count it names seats for"
            )
    return SweepSpec(
        engine=engine_fingerprint(),
        version=__version__,
        seed=seed,
        players=tuple(players),
        agents=tuple(agents),
        packs=tuple(p.pack() for p in packs),
        games=games,
        max_turns=max_turns,
        pins={k: v for k, v in (pins or {}).items() if v} or None,
    )


def portable(spec: SweepSpec, out: str | Path) -> SweepSpec:
    """The grid as ``sweep.json`` keeps it: each pack's ``--content`` folders (as typed, relative to the current
    directory) named as a log's header names them (``content.packs.log_pack_ref``: a bundled pack by its id,
    another relative to the sweep's directory `out`)."""
    from ..content.packs import log_pack_ref

    packs = tuple(replace(p, content=tuple(log_pack_ref(c, Path(out)) for c in p.content)) for p in spec.packs)
    return replace(spec, packs=packs)


def _same_folders(old: SweepSpec, new: SweepSpec, d: Path) -> bool:
    """Whether the packs of two grids differ only in how their folders are written (an older ``sweep.json`` keeps
    them as typed, relative to where the sweep ran): the same labels, choices and content, the same folders."""
    from ..content.packs import find_log_pack

    if len(old.packs) != len(new.packs):
        return False
    for a, b in zip(old.packs, new.packs, strict=True):
        if replace(a, content=b.content) != b or len(a.content) != len(b.content):
            return False
        for x, y in zip(a.content, b.content, strict=True):
            fx, fy = find_log_pack(x, d)[0], find_log_pack(y, d)[0]
            if fx is None or fy is None or fx.resolve() != fy.resolve():
                return False
    return True


def prepare(out: str | Path, spec: SweepSpec, resume: bool = True) -> list[GameRecord]:
    """Make the sweep's directory ready and return the records already in it (to be kept).

    A new directory gets the grid; one that holds the same grid is resumed, or extended when only --games
    grew (the games done are the first ones of each cell); one that holds another grid, or games without
    a grid, is a SweepError. With ``resume=False`` (--restart) a sweep in the directory is discarded."""
    d = Path(out)
    if d.exists() and not d.is_dir():
        raise SweepError(f"{d}: not a directory (--out names the sweep's output directory)")
    has_spec, has_games = (d / SWEEP_FILE).exists(), (d / GAMES_FILE).exists()
    if not resume and (has_spec or not has_games):  # --restart: whatever sweep is there is discarded
        (d / GAMES_FILE).unlink(missing_ok=True)
        has_spec = has_games = False
    if has_spec:
        try:
            old = read_spec(d)
        except RecordError as e:
            raise SweepError(f"{e}\n(choose another --out, or remove the directory to start over)") from None
        if old.packs != spec.packs and _same_folders(old, spec, d):  # written as typed by an older fengsheng
            old = replace(old, packs=spec.packs)
            write_spec(d, old)
        if old.engine != spec.engine and not old.differences(replace(spec, engine=old.engine)):
            raise SweepError(
                f"{d} was played by other fengsheng code (engine {old.engine or 'unknown'}, now {spec.engine}): "
                "its games and new ones would come from two engines; --restart plays the grid again, or choose "
                "another --out"
            )
        diff = old.differences(spec)
        if diff and not old.differences(_with_games(spec, old.games)):  # only the games per cell differ
            if spec.games < old.games:
                raise SweepError(
                    f"{d} holds {old.games} games per cell and --games asks {spec.games}: give --games "
                    f"{old.games} or more to resume it (more games extend it), or choose another --out"
                )
            write_spec(d, spec)  # extended: the games done are the first ones of each cell, the same games
            diff = []
        if diff:
            raise SweepError(
                f"{d} holds a sweep of another grid ("
                + "; ".join(diff)
                + "): choose another --out, or give the same options to resume it"
            )
        try:
            return read_records(d)
        except RecordError as e:
            raise SweepError(f"{e}\n(the records cannot be resumed from: fix the line or --restart)") from None
    if has_games:
        raise SweepError(f"{d} holds {GAMES_FILE} but no {SWEEP_FILE}: not a sweep this command can resume")
    try:
        write_spec(d, spec)
    except OSError as e:
        raise SweepError(f"{d}: cannot write the sweep there ({e.strerror or e})") from None
    return []


def _with_games(spec: SweepSpec, games: int) -> SweepSpec:
    return replace(spec, games=games)


def todo(spec: SweepSpec, done: set[tuple[Cell, int]]) -> list[tuple[Cell, list[int]]]:
    """The games left to play, by cell in grid order: (cell, indices)."""
    out = []
    for cell in spec.cells():
        left = [i for i in range(spec.games) if (cell, i) not in done]
        if left:
            out.append((cell, left))
    return out


class Chunker:
    """Cuts the work into chunks of one cell, each about `seconds` of play at the cell's measured pace (a cell
    not yet measured: one game), at most `most` games."""

    def __init__(self, work: list[tuple[Cell, list[int]]], seconds: float = CHUNK_SECONDS, most: int = MAX_CHUNK):
        from collections import deque

        self.work = deque((cell, deque(ix)) for cell, ix in work)
        self.seconds, self.most = seconds, most
        self.pace: dict[Cell, float] = {}  # seconds per game, by cell

    def next(self) -> tuple[Cell, list[int]] | None:
        """The next chunk, or None when all is handed out."""
        while self.work and not self.work[0][1]:
            self.work.popleft()
        if not self.work:
            return None
        cell, left = self.work[0]
        pace = self.pace.get(cell)
        size = 1 if pace is None else max(1, min(self.most, int(self.seconds / max(pace, 1e-6))))
        return cell, [left.popleft() for _ in range(min(size, len(left)))]

    def played(self, cell: Cell, games: int, seconds: float) -> None:
        """A chunk came back: `games` of `cell` took `seconds` of a worker's time."""
        if games:
            now = seconds / games
            old = self.pace.get(cell)
            self.pace[cell] = now if old is None else 0.5 * old + 0.5 * now


# ---------------------------------------------------------------------- one game


def play_record(
    content: Any,
    cell: Cell,
    index: int,
    seed: int,
    max_turns: int | None = None,
    pins: dict[str, str] | None = None,
) -> GameRecord:
    """Game `index` of a cell, played and turned into its record (a failed game: a record with `failed`).
    `pins` (the grid's): that role and task dealt at seat ``index % players`` (engine/pins.py)."""
    kinds = parse_agents(cell.agents, cell.players)
    gseed = game_seed(seed, index)
    pinned = game_pins(pins, index, cell.players)
    game, failure = play_game(content, cell.players, gseed, max_turns, agents=kinds, pins=pinned)
    return record_of(cell, index, gseed, game, failure, kinds)


def game_pins(pins: dict[str, str] | None, index: int, players: int) -> Pins | None:
    """The pins of game `index` of a grid pinning `pins`: the seat rotates (``index % players``), so every seat
    position holds the pinned role (or task) equally often."""
    if not pins:
        return None
    return Pins(role=pins.get("role"), task=pins.get("task"), seat=index % players)


def record_of(cell: Cell, index: int, gseed: int, game: Any, failure: str | None, kinds: Sequence[str]) -> GameRecord:
    """A game's record: ``sim.game_record``'s fields and one entry per seat."""
    rec = GameRecord(cell=cell, index=index, seed=gseed, failed=failure)
    if game is None:
        return rec
    result = game.result if failure is None else None
    winners = set(result.winners) if result is not None else set()
    if result is not None:
        fields = game_record(game, result)
        fields["skill_uses"] = dict(sorted(fields["skill_uses"].items()))
        fields["skill_offers"] = dict(sorted(fields["skill_offers"].items()))
        for k, v in fields.items():
            setattr(rec, k, v)
    else:  # a failed game: what it got to
        rec.turns, rec.decisions = game.turn_no, game.decision_count
        rec.roles = [p.role.label() for p in game.players if p.role is not None]
        rec.identities = [identity_name(p) for p in game.players]
        rec.tasks = [p.task.name for p in game.players if p.task is not None]
    cards: dict[int, dict[str, int]] = {}
    for (seat, card), k in sorted(game.card_uses.items()):
        name = game.content.card_types[card].name
        cards.setdefault(seat, {})[name] = cards.get(seat, {}).get(name, 0) + k
    rec.seats = [
        SeatRecord(
            seat=p.seat,
            identity=identity_name(p),
            task=p.task.name if p.task is not None else None,
            role=p.role.label() if p.role is not None else None,
            agent=kinds[p.seat],
            won=p in winners,
            cards=cards.get(p.seat, {}),
        )
        for p in game.players
    ]
    return rec


# ---------------------------------------------------------------------- workers

# A worker process's sweep: set before the pool forks (inherited) or by _init_worker (spawn).
_SWEEP: dict[str, Any] = {}


def _init_worker(job: dict[str, Any]) -> None:
    worker_signals()
    external.adopt(job.get("bots") or {})  # the sweep's external bots (a forked worker has them already)
    if not _SWEEP:
        from ..content.loader import load_content

        _SWEEP.update(job, contents={name: load_content(list(p)) for name, p in job["paths"].items()})
    tune_gc_for_batch()  # (what the worker inherited or loaded: frozen)


def _play_chunk(cell: Cell, indices: list[int]) -> tuple[list[GameRecord], float]:
    """A chunk played by a worker process: its records and the seconds they took."""
    import time

    s = _SWEEP
    content = s["contents"][cell.pack]
    start = time.perf_counter()
    records = []
    for i in indices:
        records.append(play_record(content, cell, i, s["seed"], s["max_turns"], s.get("pins")))
        after_game()
    return records, time.perf_counter() - start


# Content a Ray worker has loaded, by its folders: (content, fingerprint). A worker process plays many chunks.
_RAY_CONTENT: dict[tuple[str, ...], tuple[Any, str]] = {}


def _ray_chunk(
    paths: tuple[str, ...],
    fingerprint: str,
    seed: int,
    max_turns: int | None,
    cell: dict[str, Any],
    indices: list[int],
    engine: str = "",
    pins: dict[str, str] | None = None,
) -> tuple[list[dict[str, Any]], float]:
    """A chunk played by a Ray worker (its records as plain data, and the seconds they took): the pack's content
    is loaded once per worker process, and must be the content the grid was made with, played by the same
    fengsheng code."""
    if engine and engine_fingerprint() != engine:
        import socket

        raise SweepError(
            f"the fengsheng code on {socket.gethostname()} is not the sweep's (engine {engine_fingerprint()}, the "
            f"sweep's {engine}): install the same fengsheng on every node"
        )
    if paths not in _RAY_CONTENT:
        from ..content.loader import load_content

        _RAY_CONTENT[paths] = (load_content(list(paths)), content_fingerprint(paths))
    content, found = _RAY_CONTENT[paths]
    if found != fingerprint:
        import socket

        raise SweepError(
            f"the content at {', '.join(paths)} on {socket.gethostname()} is not the content of the grid "
            f"(fingerprint {found}, the grid's {fingerprint}): every node needs the same packs at the same "
            "absolute paths"
        )
    import time

    c = Cell.from_dict(cell)
    start = time.perf_counter()
    records = [play_record(content, c, i, seed, max_turns, pins).to_dict() for i in indices]
    return records, time.perf_counter() - start


# ---------------------------------------------------------------------- the run


@dataclass
class Outcome:
    """What a sweep did: games played now, games found done before, games that failed (among all)."""

    played: int
    kept: int
    failed: int
    total: int


Progress = Callable[[int, int], None]  # (games done, games in the grid)


def run_sweep(
    out: str | Path,
    spec: SweepSpec,
    sources: Sequence[PackSource],
    contents: dict[str, Any] | None = None,
    *,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    resume: bool = True,
    progress: Progress | None = None,
) -> Outcome:
    """Play every game of the grid not yet in `out` and write each record there as it comes back.

    `contents` maps pack labels to loaded content (loaded here from `sources` when missing). Raises
    SweepError (a grid that differs from the directory's, a worker that died, a Ray failure); on any
    error or interruption the games written so far stay in `out` and the same call resumes from them."""
    if backend not in BACKENDS:
        raise SweepError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    paths = {s.name: s.paths for s in sources}
    spec = portable(spec, out)
    kept = prepare(out, spec, resume)
    done = done_keys(kept)
    work = todo(spec, done)
    total = len(spec.cells()) * spec.games
    count = {"done": total - sum(len(ix) for _, ix in work), "failed": sum(r.failed is not None for r in kept)}
    n_kept = count["done"]
    if progress:
        progress(count["done"], total)
    if not work:
        return Outcome(0, n_kept, count["failed"], total)
    jobs = jobs or default_jobs()

    with open_games(out) as f:

        def take(records: list[GameRecord]) -> None:
            for rec in records:
                write_record(f, rec, sync=False)
                count["done"] += 1
                count["failed"] += rec.failed is not None
            flush(f)  # a chunk's records reach the disk together
            if progress:
                progress(count["done"], total)

        def lost() -> str:
            return f"{count['done']} of {total} games are kept in {out}: the same command resumes the sweep"

        try:
            if backend == "ray":
                # a node reads the packs at the driver's absolute paths: its working directory is its own
                absolute = {name: tuple(str(Path(p).resolve()) for p in folders) for name, folders in paths.items()}
                _run_ray(spec, absolute, work, jobs, address, take, lost)
            else:
                if contents is None:
                    from ..content.loader import load_content

                    contents = {name: load_content(list(p)) for name, p in paths.items()}
                _run_local(spec, paths, contents, work, jobs, take, lost)
        except KeyboardInterrupt:
            raise SweepInterrupted(f"interrupted: {lost()}") from None
        except BotBroken as e:  # an external bot that cannot play on: the games done are kept
            raise SweepError(f"{e}; {lost()}") from None
        finally:
            external.close_all()  # the external bots this process started (the workers end their own)
    return Outcome(count["done"] - n_kept, n_kept, count["failed"], total)


def _run_local(
    spec: SweepSpec,
    paths: dict[str, tuple[str, ...]],
    contents: dict[str, Any],
    work: list[tuple[Cell, list[int]]],
    jobs: int,
    take: Callable[[list[GameRecord]], None],
    lost: Callable[[], str],
) -> None:
    import multiprocessing as mp

    methods = mp.get_all_start_methods()
    fork = "fork" in methods
    if jobs <= 1:
        batch = sum(len(indices) for _, indices in work) >= MIN_GAMES_PER_JOB
        with batch_gc() if batch else contextlib.nullcontext():
            for cell, indices in work:
                content = contents[cell.pack]
                for i in indices:
                    take([play_record(content, cell, i, spec.seed, spec.max_turns, spec.pins)])
                    if batch:
                        after_game()
        return
    import signal
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    job = {
        "seed": spec.seed,
        "max_turns": spec.max_turns,
        "pins": spec.pins,
        "paths": paths,
        "bots": external.defined(),
    }
    ctx = mp.get_context("fork" if fork else methods[0])
    if sys.platform == "win32":
        jobs = min(jobs, 61)  # ProcessPoolExecutor waits on at most 61 processes there
    _SWEEP.clear()
    if fork:
        _SWEEP.update(job, contents=contents)  # inherited: nothing to pickle or load again
    # SIGTERM (a job scheduler, `kill`) stops the sweep as Ctrl-C does: the workers are ended, the games done kept
    import threading

    main = threading.current_thread() is threading.main_thread()  # only the main thread sets a handler
    terminated = signal.getsignal(signal.SIGTERM)
    if main:
        signal.signal(signal.SIGTERM, _interrupt)
    chunker = Chunker(work)
    out: dict[Any, Cell] = {}
    try:
        with worker_pool(jobs, ctx, _init_worker, (job,)) as pool:

            def hand_out(n: int) -> None:
                for _ in range(n):
                    nxt = chunker.next()
                    if nxt is None:
                        return
                    out[pool.submit(_play_chunk, *nxt)] = nxt[0]

            hand_out(jobs * (1 + CHUNKS_AHEAD))
            while out:
                finished, _ = wait(out, return_when=FIRST_COMPLETED)
                for future in finished:
                    cell = out.pop(future)
                    records, seconds = future.result()
                    chunker.played(cell, len(records), seconds)
                    take(records)
                    hand_out(1)
    except BrokenProcessPool:
        raise SweepError(
            f"a worker process died (killed, out of memory, or a crash); {lost()} (--jobs 1 shows which game)"
        ) from None
    finally:
        if main:
            signal.signal(signal.SIGTERM, terminated)
        _SWEEP.clear()


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _run_ray(
    spec: SweepSpec,
    paths: dict[str, tuple[str, ...]],
    work: list[tuple[Cell, list[int]]],
    jobs: int,
    address: str | None,
    take: Callable[[list[GameRecord]], None],
    lost: Callable[[], str],
) -> None:
    try:
        import ray
    except ImportError:
        raise SweepError(
            "--backend ray needs Ray, the optional extra `balance`: python3 -m pip install 'fengsheng[balance]' "
            "(in a checkout of fengsheng: python3 -m pip install -e '.[balance]')"
        ) from None
    started = False
    if not ray.is_initialized():
        if address:
            _reachable(address)
        try:
            import logging

            if address:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
            else:
                ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        except Exception as e:  # Ray's own errors: no cluster at the address, a port in use …
            raise SweepError(f"Ray did not start{f' at {address}' if address else ''}: {_one_line(e)}") from None
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", jobs)))
        fingerprints = {p.name: p.fingerprint for p in spec.packs}
        remote = ray.remote(_ray_chunk).options(max_retries=2)
        chunker = Chunker(work, seconds=2 * CHUNK_SECONDS, most=2 * MAX_CHUNK)  # a task costs more on Ray
        pending: dict[Any, Cell] = {}

        def hand_out(n: int) -> None:
            for _ in range(n):
                nxt = chunker.next()
                if nxt is None:
                    return
                cell, indices = nxt
                ref = remote.remote(
                    paths[cell.pack],
                    fingerprints[cell.pack],
                    spec.seed,
                    spec.max_turns,
                    cell.to_dict(),
                    indices,
                    spec.engine,
                    spec.pins,
                )
                pending[ref] = cell

        hand_out(cpus * (1 + CHUNKS_AHEAD))
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                cell = pending.pop(ref)
                try:
                    dicts, seconds = ray.get(ref)
                except Exception as e:  # a worker lost, or the content check of a node
                    for r in pending:
                        ray.cancel(r, force=True)
                    cause = getattr(e, "cause", None)
                    text = str(cause) if isinstance(cause, SweepError) else _one_line(e)
                    raise SweepError(f"a Ray task failed: {text}; {lost()}") from None
                chunker.played(cell, len(dicts), seconds)
                take([GameRecord.from_dict(d) for d in dicts])
                hand_out(1)
    finally:
        if started:
            ray.shutdown()


def address_problem(address: str) -> str | None:
    """What is wrong with an --address, or None: HOST:PORT, ``auto`` or a ``ray://`` client address."""
    if address == "auto" or "://" in address:
        return None
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        return f"{address!r}: give the Ray head's HOST:PORT (e.g. 10.0.0.5:6379), auto, or ray://HOST:PORT"
    return None


def _reachable(address: str, timeout: float = 5.0) -> None:
    """A cluster's HOST:PORT answers (Ray itself would wait minutes for a head that is not there)."""
    import socket

    if address == "auto" or "://" in address:
        return  # the local cluster's address file, or a Ray client address: Ray checks those itself
    wrong = address_problem(address)
    if wrong:
        raise SweepError(wrong)
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise SweepError(
            f"no Ray cluster answers at {address} ({e.strerror or e}): start one with `ray start --head` there, "
            "or leave --address out to start a local Ray instance"
        ) from None


def _one_line(e: BaseException, limit: int = 600) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
