#!/usr/bin/env python
"""All cores: how much faster ``fengsheng simulate --jobs N`` plays a batch than ``--jobs 1``.

    python bench/jobs.py [--games 2000] [--jobs 2] [--rounds 3] [--players 5] [--seed 7] [--installed]

Each round runs ``fengsheng simulate -p P -n G -s S --jobs 1`` and then the same
with ``--jobs N``, each a fresh process exactly as the installed script runs it
(``from interpreter.cli import main``; this checkout first on ``PYTHONPATH``
unless ``--installed``; ``PYTHONDONTWRITEBYTECODE`` dropped, as bench/cli.py
does: an installed copy keeps its bytecode), and times it on the wall clock from start to exit:
what a user waits, Python's and the content's start-up included (in both). The
two outputs must be the same byte for byte (the summary does not depend on
``--jobs``); a difference is an error. It prints each round and then the
median times; the last line is ``speed-up X`` (median ``--jobs 1`` time ÷
median ``--jobs N`` time). The project's goal is ≥ 1.8 with ``--jobs 2`` on
2,000 five-player games on a 2-core machine — measure on an idle one: other
work on the machine takes cores away from the workers, not from one process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = "import sys; from interpreter.cli import main; sys.exit(main())"


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[3:])} failed (exit {done.returncode}):\n{done.stderr.decode()[-2000:]}")
    return seconds, done.stdout


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="games per run (default 2000)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes to compare with one (default 2)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of both runs (default 3)")
    ap.add_argument("--players", type=int, default=5, help="players per game (default 5)")
    ap.add_argument("--seed", type=int, default=7, help="batch seed (default 7)")
    ap.add_argument("--installed", action="store_true", help="run the installed package, not this checkout")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1 (the speed-up is a median of rounds)")
    env = dict(os.environ)
    # as installed, Python keeps the modules' bytecode (bench/cli.py does the same): with it off
    # (PYTHONDONTWRITEBYTECODE) each run would also compile every module, about 0.1 s in both
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not args.installed:
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    base = [sys.executable, "-c", RUN, "simulate", "-p", str(args.players), "-n", str(args.games)]
    base += ["-s", str(args.seed)]
    one_cmd, many_cmd = [*base, "--jobs", "1"], [*base, "--jobs", str(args.jobs)]
    print(f"fengsheng simulate -p {args.players} -n {args.games} -s {args.seed}: --jobs 1 against --jobs {args.jobs},")
    print(f"wall seconds, fresh processes, {os.cpu_count()} cores here")
    timed(one_cmd, env)  # untimed: the file cache and the parse cache filled, as by any earlier use
    ones, manys = [], []
    for r in range(1, args.rounds + 1):
        t1, out1 = timed(one_cmd, env)
        tn, outn = timed(many_cmd, env)
        if out1 != outn:
            raise SystemExit(f"round {r}: the output of --jobs {args.jobs} differs from --jobs 1's (a bug)")
        ones.append(t1)
        manys.append(tn)
        print(f"round {r}:  --jobs 1 {t1:6.2f} s   --jobs {args.jobs} {tn:6.2f} s   ({t1 / tn:.2f}x)")
    one, many = statistics.median(ones), statistics.median(manys)
    print(f"median:   --jobs 1 {one:6.2f} s   --jobs {args.jobs} {many:6.2f} s   outputs the same byte for byte")
    print(f"speed-up {one / many:.2f}  (--jobs {args.jobs} against --jobs 1, {args.games} games; goal with 2: 1.8)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
