#!/usr/bin/env python
"""How long the `fengsheng` command takes to start and do a small job, each run a fresh process.

    python bench/cli.py [--runs N]

Each command is run ``--runs`` times (default 7) after one untimed run (which
fills the OS file cache and the user cache, as any earlier use would: the
modules' bytecode, the grammar's tables, what interpreter/cache.py keeps
between runs: parsed effect texts, compiled units, files that read clean),
exactly as the installed ``fengsheng`` script runs it
(``from interpreter.cli import main; sys.exit(main())``) with this checkout
first on ``PYTHONPATH`` and ``PYTHONDONTWRITEBYTECODE`` unset (as installed,
Python keeps bytecode); its output is thrown away. For each it prints the
fastest and the median run in two clocks:

* **wall**: what a user waits, from process start to exit (Python's own
  start-up included);
* **cpu**: the user + system CPU time of that process (``getrusage`` of the
  children), which other work on a busy machine barely moves — on this 2-core
  machine, shared with other sessions, compare cpu figures, or wall figures
  taken when it is idle.

The commands and the project's goals (issue "Speed"): ``fengsheng --help``
≤ 0.15 s; ``fengsheng validate`` (the bundled content) ≤ 0.5 s;
``fengsheng simulate -n 1 -j 1`` (one 5-player game) ≤ 0.4 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMMANDS = [
    ("fengsheng --help", ["--help"], 0.15),
    ("fengsheng validate", ["validate"], 0.5),
    ("fengsheng simulate -n 1 -j 1 -s 1", ["simulate", "-n", "1", "-j", "1", "-s", "1"], 0.4),
]
LAUNCH = "import sys; from interpreter.cli import main; sys.argv[0] = 'fengsheng'; sys.exit(main())"


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process running `fengsheng args`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", LAUNCH, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"fengsheng {' '.join(args)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="timed runs per command (default 7)")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("need --runs >= 1")
    env = dict(os.environ)
    # as installed: Python keeps the modules' bytecode (__pycache__) between runs; a session that turns it
    # off (PYTHONDONTWRITEBYTECODE) would time compiling every module of the project and its libraries
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    print(f"{args.runs} fresh processes per command after one untimed; seconds, best / median")
    print(f"{'command':32} {'wall':>15} {'cpu':>15}   goal")
    for label, cmd, goal in COMMANDS:
        _run(cmd, env)
        walls, cpus = zip(*(_run(cmd, env) for _ in range(args.runs)), strict=True)
        verdict = "met" if statistics.median(cpus) <= goal else "not met"
        print(
            f"{label:32} {min(walls):6.3f} / {statistics.median(walls):6.3f} "
            f"{min(cpus):6.3f} / {statistics.median(cpus):6.3f}   <= {goal} ({verdict}, cpu median)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
