"""The worker processes of a batch, shared by simulate and a sweep: the collector set up for playing many games,
games cut into chunks by index, a pool whose workers take their signals and die with the batch, how many cores.

Nothing here knows what a game is: the batch hands a worker its job (batch.py, balance/sweep.py).
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

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


# Fewer games than this per worker are played in the batch's own process: not worth starting processes for.
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
