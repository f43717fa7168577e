"""bench/jobs.py and bench/memory.py run end to end and print what they promise (subprocesses, small batches)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(ROOT / "bench" / name), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


# whole bench runs (two batches, worker processes): the slow run; every day the benches still start, parse their
# arguments and report a failing command (the last two tests)
@pytest.mark.slow
def test_jobs_bench_compares_the_same_output_and_prints_the_speed_up() -> None:
    # 100 games: two worker processes (simulate splits a batch of 50 games a job or more)
    done = _bench("jobs.py", "--games", "100", "--rounds", "1", "--players", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("round 1:") for line in lines)
    assert "outputs the same byte for byte" in done.stdout
    last = lines[-1].split()
    assert last[0] == "speed-up" and float(last[1]) > 0


@pytest.mark.slow
def test_memory_bench_prints_ten_checkpoints_and_the_growth() -> None:
    done = _bench("memory.py", "--games", "60")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    checkpoints = [line.split() for line in lines if line.split()[1:2] == ["games"]]
    assert [int(c[0]) for c in checkpoints] == [6 * k for k in range(1, 11)]
    assert all(float(c[2]) > 0 for c in checkpoints)  # resident MB
    assert lines[-1].startswith("growth ") and lines[-1].split()[2] == "MB"


def test_jobs_bench_reports_a_failing_command_without_a_traceback() -> None:
    done = _bench("jobs.py", "--games", "5", "--rounds", "1", "--players", "99")
    assert done.returncode != 0
    assert "failed (exit" in done.stderr and "Traceback" not in done.stderr


def test_the_benches_refuse_arguments_they_cannot_measure_with_a_usage_error() -> None:
    # no rounds: no median (it was a StatisticsError traceback); a player count simulate refuses: every game failed,
    # and a growth figure printed all the same
    cases = [("jobs.py", ("--rounds", "0"), "--rounds"), ("memory.py", ("--players", "99"), "--players")]
    for name, args, option in cases:
        done = _bench(name, "--games", "10", *args)
        assert done.returncode == 2, (name, done.stderr)
        assert option in done.stderr and "Traceback" not in done.stderr
        assert "growth" not in done.stdout and "speed-up" not in done.stdout
