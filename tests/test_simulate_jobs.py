"""simulate --jobs: the games are split over processes, and nothing in the output depends on it."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter import sim
from interpreter.cli import main
from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.engine.game import Game
from interpreter.sim import simulate

ROLE_PACK = Path(__file__).resolve().parent / "fixtures" / "role_pack"


def test_summary_and_log_are_the_same_with_two_jobs(tmp_path, monkeypatch):
    monkeypatch.setattr(sim.batch, "MIN_GAMES_PER_JOB", 1)  # split even this small batch
    content = load_cached()
    one = simulate(content, 5, 24, 11, log_path=tmp_path / "one.jsonl", content_paths=[BUNDLED_CONTENT], jobs=1)
    two = simulate(content, 5, 24, 11, log_path=tmp_path / "two.jsonl", content_paths=[BUNDLED_CONTENT], jobs=2)
    assert one.to_json() == two.to_json()
    assert one.text("h") == two.text("h")
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert one.games == 24 and one.decisions > 0


def test_progress_is_called_once_per_game_in_order(monkeypatch):
    monkeypatch.setattr(sim.batch, "MIN_GAMES_PER_JOB", 1)
    seen: list[int] = []
    simulate(load_cached(), 4, 9, 2, jobs=2, progress=seen.append)
    assert seen == list(range(1, 10))


def test_cli_output_does_not_depend_on_jobs(monkeypatch):
    """The command's output with three jobs (a game or two each) is the one job's. (The batch's games merged in
    order, over 24 games: the test above; a command that prints anything of its jobs fails this one.)"""
    monkeypatch.setattr(sim.batch, "MIN_GAMES_PER_JOB", 1)
    runner = CliRunner()
    outs = [runner.invoke(main, ["simulate", "-p", "6", "-n", "6", "-s", "5", "-j", j]) for j in ("1", "3")]
    assert all(r.exit_code == 0 for r in outs), [r.output for r in outs]
    assert outs[0].output == outs[1].output
    bad = runner.invoke(main, ["simulate", "-j", "0"])
    assert bad.exit_code == 2 and "--jobs" in bad.output


def test_a_crashing_game_is_reported_and_the_batch_goes_on(monkeypatch):
    """A bug in the engine (any exception) fails only its game, which is named with its seed."""
    real = Game.run
    bad = sim.game_seed(3, 2)

    def run(self):
        if self.seed == bad:
            raise KeyError("x" * 10_000)  # a huge message is cut short
        return real(self)

    monkeypatch.setattr(Game, "run", run)
    summary = simulate(load_cached(), 4, 5, 3, jobs=1)
    assert summary.games == 4
    ((index, gseed, text),) = summary.failures
    assert (index, gseed) == (2, bad)
    assert text.startswith("internal error (a bug in the engine; please report it with the game seed): KeyError")
    assert len(text) < 700


class _Hung(BaseException):
    """Raised by the alarm when a batch outlives its time (a BaseException: `except Exception` lets it by)."""


def test_a_worker_that_dies_is_an_error_not_a_hang(monkeypatch):
    """A worker killed in the middle of a chunk (out of memory, a crash in C) stops the batch with WorkerDied and
    the summary of the games counted before; within a minute (an alarm: a hang fails this test, not the run)."""
    here = os.getpid()
    real = Game.run
    dying = sim.game_seed(1, 3)

    def run(self):
        if self.seed == dying:
            if os.getpid() == here:  # (never this process: the games are the forked workers')
                raise AssertionError("the batch was played in this process, not in its workers")
            os._exit(9)  # the worker dies, as if killed
        return real(self)

    def ring(signum, frame) -> None:
        raise _Hung("the batch still waits a minute after its worker died")

    monkeypatch.setattr(Game, "run", run)  # (inherited by the workers: forked)
    monkeypatch.setattr(sim.batch, "MIN_GAMES_PER_JOB", 1)
    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, 60)
    try:
        with pytest.raises(sim.WorkerDied, match="a worker process died") as died:
            simulate(load_cached(), 4, 40, 1, jobs=2)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert died.value.summary.games < 40  # the summary of the games before (printed by the CLI)


def test_without_fork_or_content_paths_the_batch_runs_here(monkeypatch):
    """A spawned worker can only load content from paths: without them, the content given is played here."""
    monkeypatch.setattr(sim.batch, "MIN_GAMES_PER_JOB", 1)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    pack = load_cached([BUNDLED_CONTENT, ROLE_PACK])
    one = simulate(pack, 5, 6, 3, jobs=1)
    two = simulate(pack, 5, 6, 3, jobs=2)
    assert one.to_json() == two.to_json()


@pytest.mark.slow
def test_spawned_workers_load_the_content_from_its_paths(tmp_path, monkeypatch):
    """Where there is no fork (Windows), workers load the content again: the output is still the same."""
    monkeypatch.setattr(sim.batch, "MIN_GAMES_PER_JOB", 1)
    paths = [BUNDLED_CONTENT, ROLE_PACK]
    pack = load_cached(paths)
    one = simulate(pack, 5, 8, 3, log_path=tmp_path / "one.jsonl", content_paths=paths, jobs=1)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    two = simulate(pack, 5, 8, 3, log_path=tmp_path / "two.jsonl", content_paths=paths, jobs=2)
    assert one.to_json() == two.to_json()
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers die with their parent through prctl (Linux)")
def test_workers_die_with_a_killed_batch():
    """simulate's process killed outright (SIGKILL: no handler runs) takes its workers with it, not orphans
    playing their chunks and waiting for work forever."""
    import os
    import signal
    import time

    batch = subprocess.Popen(
        [sys.executable, "-m", "interpreter.cli", "simulate", "-p", "5", "-n", "100000", "-j", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parents[1],
    )
    children: list[int] = []
    deadline = time.monotonic() + 60
    while len(children) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        with open(f"/proc/{batch.pid}/task/{batch.pid}/children") as f:
            children = [int(c) for c in f.read().split()]
    assert len(children) >= 2, "the batch started no workers"
    time.sleep(1.0)  # the workers are playing
    os.kill(batch.pid, signal.SIGKILL)
    batch.wait()
    deadline = time.monotonic() + 20
    alive = children
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [c for c in alive if Path(f"/proc/{c}").exists() and "Z" not in _state(c)]
    assert not alive, f"workers {alive} outlived their batch"


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def _sleep(started: str, seconds: float) -> int:
    import time

    Path(started, str(os.getpid())).touch()
    time.sleep(seconds)
    return 0


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
@pytest.mark.parametrize("init", ["simulate", "sweep"])
def test_stopping_a_pool_ends_its_workers_by_sigterm_whatever_handler_the_parent_has(monkeypatch, tmp_path, init):
    """A sweep turns SIGTERM into KeyboardInterrupt in its own process; a forked worker used to inherit that
    handler, the pool's worker loop caught the KeyboardInterrupt as a task's error and lived on, and stopping
    the pool waited on it for ever. Each worker now takes SIGTERM's default: it dies of it (exit code -15)."""
    import signal

    from interpreter.balance import sweep

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    if init == "simulate":
        monkeypatch.setitem(sim.batch._BATCH, "content", object())  # set: the worker loads nothing
        initializer, initargs = sim.batch._init_worker, ({},)
    else:
        monkeypatch.setitem(sweep._SWEEP, "contents", {})
        initializer, initargs = sweep._init_worker, ({},)
    monkeypatch.setattr(sim.pool, "STOP_GRACE", 60.0)
    old = signal.signal(signal.SIGTERM, interrupt)
    try:
        ctx = multiprocessing.get_context("fork")
        with pytest.raises(RuntimeError), sim.worker_pool(2, ctx, initializer, initargs) as pool:
            for _ in range(4):
                pool.submit(_sleep, str(tmp_path), 30)
            import time

            while len(list(tmp_path.iterdir())) < 2:  # both workers are inside a task
                time.sleep(0.01)
            procs = list(pool._processes.values())
            raise RuntimeError("stop the batch")
    finally:
        signal.signal(signal.SIGTERM, old)
    assert procs and all(p.exitcode == -signal.SIGTERM for p in procs), [p.exitcode for p in procs]


@pytest.mark.parametrize(("games", "jobs"), [(2000, 2), (100, 2), (50_000, 8), (7, 3)])
def test_chunks_cover_the_batch_in_order_and_shrink_towards_the_end(games, jobs):
    chunks = sim.chunks_of(games, jobs)
    assert [i for c in chunks for i in c] == list(range(games))
    sizes = [len(c) for c in chunks]
    assert max(sizes) <= sim.MAX_CHUNK
    assert all(n >= sim.MIN_CHUNK for n in sizes[:-1])
    assert sizes == sorted(sizes, reverse=True)  # the workers end together: no long chunk last
    if games >= 2000:
        assert sizes[0] == sim.MAX_CHUNK and sizes[-1] <= sim.MIN_CHUNK


def test_a_closed_game_leaves_the_collector_little():
    """Game.close (called by a batch once it has read a game: sim.play_one, balance's play_record) breaks the game's
    own reference cycles and lets go of what it holds, so that most of it is freed by reference counts as its last
    reference goes: with the collector off, a closed heuristic game leaves under a quarter of the objects (the
    collector's to walk) that the same game leaves unclosed (2,419 here; 298 closed)."""
    import gc

    from interpreter.content.loader import load_cached
    from interpreter.sim import drive, make_agents

    content = load_cached()
    kinds = ("heuristic",) * 5
    drive(content, 5, 30, make_agents(kinds, 30, content)).close()  # (lazy imports and caches made first)
    was = gc.isenabled()
    gc.disable()
    try:
        left = {}
        for close in (False, True):
            # (with the collector off every object made stays in the youngest generation: counting that one alone
            # is counting what the game left, without a walk of the whole heap of a test run, seconds serially)
            gc.collect(0)
            before = len(gc.get_objects(generation=0))
            game = drive(content, 5, 31, make_agents(kinds, 31, content))
            assert game.result is not None
            if close:
                game.close()
            del game
            left[close] = len(gc.get_objects(generation=0)) - before
        gc.collect(0)
        assert left[False] > 1000 and left[True] < left[False] / 4, left
    finally:
        if was:
            gc.enable()
