"""Play a balance sweep: every game of a grid (player counts × agents × packs × games), on local worker
processes or a Ray cluster (ray_backend.py), each game's record written to the sweep's directory as it finishes.
The grid, the directory and one game are grid.py's.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents import external
from ..agents.external import BotBroken
from ..sim import (
    MIN_GAMES_PER_JOB,
    after_game,
    batch_gc,
    default_jobs,
    tune_gc_for_batch,
    worker_pool,
    worker_signals,
)
from .grid import (
    BACKENDS,
    CHUNKS_AHEAD,
    Chunker,
    PackSource,
    SweepError,
    SweepInterrupted,
    make_spec,
    play_record,
    portable,
    prepare,
    todo,
)
from .ray_backend import address_problem, run_ray
from .records import (
    Cell,
    GameRecord,
    SweepSpec,
    done_keys,
    flush,
    open_games,
    read_records,
    write_record,
)

# What the commands and tests import from here: the grid's names (grid.py) and the Ray backend's check.
__all__ = [
    "Outcome",
    "PackSource",
    "SweepError",
    "SweepInterrupted",
    "address_problem",
    "make_spec",
    "play_record",
    "run_sweep",
]


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

    try:
        return _play_and_write(
            spec, sources, contents, out, work, jobs, backend, address, progress, count, n_kept, total
        )
    except OSError as e:  # games.jsonl cannot be written (a full disk): say how many games it keeps, exactly
        try:
            kept_now = len(read_records(out))
        except Exception:  # (what it holds is read again, and checked, by the command that resumes)
            kept_now = None
        held = f"{kept_now} of {total} games" if kept_now is not None else "the games written before it"
        raise SweepError(
            f"{out}: records could not be written ({e.strerror or e}): {held} are kept in {out} "
            "(a last line cut short is dropped on resuming); the same command resumes the sweep"
        ) from None


def _play_and_write(
    spec: SweepSpec,
    sources: Sequence[PackSource],
    contents: dict[str, Any] | None,
    out: Any,
    work: list[tuple[Cell, list[int]]],
    jobs: int,
    backend: str,
    address: str | None,
    progress: Progress | None,
    count: dict[str, int],
    n_kept: int,
    total: int,
) -> Outcome:
    """Play what is left of the sweep, each chunk's records appended to games.jsonl as it comes back."""
    paths = {s.name: s.paths for s in sources}
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
                run_ray(spec, absolute, work, jobs, address, take, lost)
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
