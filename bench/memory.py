#!/usr/bin/env python
"""Memory over a long batch: does a process that plays many games stay the same size?

    python bench/memory.py [--games 100000] [--players 5] [--seed 1] [--installed]

The games are played by ``fengsheng simulate``'s own batch runner in this one
process (``--jobs 1``: a worker process of ``--jobs N`` runs the same loop, the
same collector set-up, ``interpreter.sim.tune_gc_for_batch`` and ``after_game``),
random agents, every bundled role. At ten checkpoints it prints the games
played, the process's resident memory now (``/proc/self/statm``; elsewhere the
peak, ``getrusage``), the objects the garbage collector tracks, and the rate so
far. The last line is ``growth X MB`` — resident memory at the end less at the
first checkpoint (after a tenth of the games, once the content's lazy tables and
the allocator's pools are in place); the project's goal is that it stays flat
(well under a megabyte per 10,000 games). ``--installed`` measures the
``interpreter`` package Python finds (a compiled build) instead of this checkout.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def resident_mb() -> float:
    """This process's resident memory now, in MB (Linux); elsewhere its peak so far."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000, help="games in all (default 100000)")
    ap.add_argument("--players", type=int, default=5, help="players per game (default 5)")
    ap.add_argument("--seed", type=int, default=1, help="batch seed (default 1)")
    ap.add_argument("--installed", action="store_true", help="measure the installed package, not this checkout")
    args = ap.parse_args(argv)
    if args.games < 10:
        ap.error("--games must be at least 10 (ten checkpoints)")
    if not 2 <= args.players <= 10:
        ap.error("--players must be 2 to 10 (as fengsheng simulate's)")
    if not args.installed and str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))

    from interpreter.content.loader import load_cached
    from interpreter.sim import simulate

    content = load_cached()
    marks = {args.games * k // 10 for k in range(1, 11)}
    start = time.perf_counter()
    first: list[float] = []

    def progress(done: int) -> None:
        if done in marks:
            mb = resident_mb()
            first.append(mb)
            rate = done / (time.perf_counter() - start)
            print(f"{done:>9} games  {mb:8.1f} MB  {len(gc.get_objects()):>8} tracked objects  {rate:7.0f} games/s")

    loaded = resident_mb()
    print(f"{args.games} games, {args.players} players, every bundled role, one process ({loaded:.1f} MB loaded)")
    summary = simulate(content, args.players, args.games, args.seed, progress=progress, jobs=1)
    if summary.failures:
        print(f"{len(summary.failures)} games failed (see fengsheng simulate): no figure", file=sys.stderr)
        return 1
    print(f"growth {first[-1] - first[0]:.1f} MB (from game {args.games // 10} to game {args.games})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
