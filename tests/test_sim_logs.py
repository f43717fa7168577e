"""Logs read and written robustly (sim/logs.py, issue 29): a bad line costs its game only, a full disk costs
the log the games after it only (the summary counts every game), a game at the turn limit is named."""

from __future__ import annotations

import json
import resource
import signal
import sys
from pathlib import Path

import pytest

from interpreter import sim
from interpreter.sim.logs import read_log
from tests.conftest import fengsheng


@pytest.fixture(scope="module")
def three_games(tmp_path_factory) -> list[str]:
    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    assert fengsheng("simulate", "-n", "3", "-j", "1", "-s", "1", "--log", log).exit_code == 0
    return log.read_text(encoding="utf-8").splitlines()


def starts(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.startswith('{"type": "game"')]


@pytest.mark.parametrize(
    "bad",
    [
        '{"d": 1, "seat": 0, "n": 2, "choice": 9}',
        '{"type": "event", "x": ' + "[" * 40 + "]" * 40 + "}",
        '{"type": "event", "name": "\\ud800x"}',
        "not json",
    ],
    ids=["choice", "deep", "surrogate", "not-json"],
)
def test_a_bad_record_costs_its_game_only(tmp_path, three_games, bad):
    lines = list(three_games)
    lines[starts(lines)[1] + 5] = bad
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = fengsheng("replay", log)
    assert r.exit_code == 1
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"error: {log}:{starts(lines)[1] + 6}:") and "(game 1, seed " in first, r.stderr
    assert "game 0 (seed" in r.stdout and "game 2 (seed" in r.stdout and r.stdout.count("OK") == 2
    assert "1 game(s) did not replay identically (1 of them could not be read)" in r.stderr
    with pytest.raises(Exception, match=":"):  # read strictly (the web viewer, --as): the first bad line is the error
        read_log(log)
    assert [("broken" in g) for g in read_log(log, tolerant=True)] == [False, True, False]


def test_records_before_the_first_header_are_a_game_of_their_own(tmp_path, three_games):
    log = tmp_path / "headless.jsonl"
    log.write_text('{"type": "event", "e": "x"}\n' + "\n".join(three_games) + "\n", encoding="utf-8")
    r = fengsheng("replay", log)
    assert r.exit_code == 1 and "does not start with a game header" in r.stderr
    assert r.stdout.count("OK") == 3


def run_limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: int, *args: str):
    """`fengsheng ARGS` in `tmp_path` while this process's files may grow to `limit` bytes: a write past it fails
    as a full disk does (EFBIG instead of ENOSPC: the same OSError to the writer). In-process: the limit is set
    around the command alone (SIGXFSZ ignored, so a write past it is an OSError; a worker forked meanwhile
    inherits both), and no .pyc is written while it holds (one cut short would break the checkout's next imports)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    old_limit, old_signal = resource.getrlimit(resource.RLIMIT_FSIZE), signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, old_limit[1]))
    try:
        return fengsheng(*args)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old_limit)
        signal.signal(signal.SIGXFSZ, old_signal)


# one job in the slow run: every day two jobs, and test_balance_sweep's full disk
@pytest.mark.parametrize("jobs", [pytest.param("1", marks=pytest.mark.slow), "2"])
def test_a_full_disk_keeps_the_summary_and_whole_games(tmp_path, monkeypatch, jobs):
    """Eight games (seed 1's log is 294 kB after five, 341 kB after six: the limit falls in the sixth), over two
    workers indeed: the batch is split however small (at 50 games a job it was played here). A log writer that
    does not cut a failed game back fails it."""
    monkeypatch.setattr(sim.batch, "MIN_GAMES_PER_JOB", 1)
    r = run_limited(tmp_path, monkeypatch, 300_000, "simulate", "-n", "8", "-s", "1", "-j", jobs, "--log", "g.jsonl")
    assert r.exit_code == 1, r.stderr
    assert "How games ended:" in r.stdout and "Average turns" in r.stdout  # every game counted
    said = [line for line in r.stderr.splitlines() if line.startswith("error: the log g.jsonl stopped after ")]
    assert said and "of 8 games: File too large" in said[0], r.stderr
    written = int(said[0].split("stopped after ")[1].split(" ")[0])
    games = read_log(tmp_path / "g.jsonl")  # strictly: nothing cut in the middle of a game
    assert 0 < written == len(games) < 8 and all(g["end"] is not None for g in games)
    assert "Traceback" not in r.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_log_on_a_full_device(tmp_path):
    r = fengsheng("simulate", "-n", "4", "-s", "1", "-j", "1", "--log", "/dev/full", "--format", "json")
    assert r.exit_code == 1
    summary = json.loads(r.stdout)
    assert summary["games"] == 4 and summary["log_written"] == 0
    assert summary["log_error"].startswith("No space left on device")


def test_games_at_the_turn_limit_are_named_with_their_seeds():
    r = fengsheng("simulate", "-n", "6", "-s", "1", "-j", "1", "--max-turns", "2", "--format", "json")
    summary = json.loads(r.stdout)
    limited = summary["turn_limit_games"]
    assert len(limited) == summary["ended_by"]["turn_limit"] > 0
    assert all(isinstance(g["seed"], int) for g in limited)
    text = fengsheng("simulate", "-n", "6", "-s", "1", "-j", "1", "--max-turns", "2").output
    assert f"Games that reached the turn limit, nobody winning ({len(limited)})" in text
    assert f"game {limited[0]['index']} (game seed {limited[0]['seed']})" in text
    assert f"--game-seed {limited[0]['seed']}" in text


def test_a_seats_copy_is_said_not_replayable_not_a_mismatch(tmp_path, three_games):
    """A seat's copy (the table page's 下载你这一席的日志, replay --as) holds no seed: replay said 'game 0 (seed None):
    MISMATCH' and 'did not replay identically', as if the game had gone another way. Found by a newcomer's
    walk-through."""
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(three_games) + "\n", encoding="utf-8")
    copy = tmp_path / "p1.jsonl"
    assert fengsheng("replay", log, "--as", "P1", "--out", copy).exit_code == 0
    r = fengsheng("replay", copy)
    assert r.exit_code == 1
    assert r.stdout.count("(P1's copy): NOT REPLAYED") == 3, r.stdout
    assert "MISMATCH" not in r.stdout and "seed None" not in r.stdout
    assert "3 game(s) not replayed: a seat's copy holds no seed" in r.stderr, r.stderr
    assert "did not replay identically" not in r.stderr
    r = fengsheng("replay", log)  # (the referee's copy: as before)
    assert r.exit_code == 0 and r.stdout.count("OK") == 3
