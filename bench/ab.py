#!/usr/bin/env python
"""A/B speed check: an older checkout's own bench vs this checkout's driver, alternating, same machine.

    git worktree add /tmp/fs-base <old commit>
    python bench/ab.py --base /tmp/fs-base [--new .] [--rounds 3] [--games 1000] [--python PY]

Each round runs, one after the other, each in a fresh process (cwd and
PYTHONPATH set to that checkout, so each imports its own ``interpreter``
package; the path each one imported is printed and checked):

* A, the old engine: ``<base>/bench/bench.py --json --uno-games 0`` — the old
  bench's own ``fengsheng`` part: ``Game(...).run()`` with ``RandomAgent(seed*100+seat)``.
* B, the new engine: ``<new>/bench/bench.py --json --parts run,driver`` — the
  ``driver`` part (``step.drive``, the same seeds and agent seeds) and, for
  telling the engine's own cost from the driver's, the ``run`` part (``Game.run``).

Every bench run warms up and keeps the best of its ``--repeat`` (3) runs; over
the rounds this script reports the best and the median of those figures, and
the slowdown = 1 - new/old of games/s and decisions/s (best vs best, median vs
median). Both sides play the same games when the engines agree on them; the
decisions/game column shows whether they did.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

WRAPPER = """
import runpy, sys
root = sys.argv[1]
sys.path.insert(0, root)
import interpreter
print("imported " + interpreter.__file__, file=sys.stderr)
sys.argv = [root + "/bench/bench.py"] + sys.argv[2:]
runpy.run_path(root + "/bench/bench.py", run_name="__main__")
"""


def run_bench(python: str, root: Path, bench_args: list) -> tuple[dict, str]:
    env = dict(os.environ, PYTHONPATH=str(root))
    p = subprocess.run(
        [python, "-c", WRAPPER, str(root), *bench_args], cwd=root, env=env, capture_output=True, text=True
    )
    if p.returncode != 0:
        raise SystemExit(f"bench in {root} failed ({p.returncode}):\n{p.stderr}")
    imported = next((ln.split(" ", 1)[1] for ln in p.stderr.splitlines() if ln.startswith("imported ")), "?")
    expected = str((root / "interpreter" / "__init__.py").resolve())
    if str(Path(imported).resolve()) != expected:
        raise SystemExit(f"the bench in {root} imported {imported}, not {expected}")
    return json.loads(p.stdout), imported


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="old bench vs new driver, alternating rounds")
    ap.add_argument("--base", required=True, type=Path, help="checkout of the old engine (e.g. a git worktree)")
    ap.add_argument("--new", type=Path, default=HERE, help="checkout of the new engine (default: this one)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs inside each bench run (default 3)")
    ap.add_argument("--python", default=sys.executable, help="interpreter for both sides (default: this one)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    common = ["--json", "--games", str(args.games), "--seed", str(args.seed), "--repeat", str(args.repeat)]

    rows: dict[str, list[dict]] = {"old Game.run (old bench)": [], "new Game.run": [], "new drive()": []}
    imported = {}
    for i in range(args.rounds):
        old, imported["old"] = run_bench(args.python, args.base.resolve(), [*common, "--uno-games", "0"])
        new, imported["new"] = run_bench(args.python, args.new.resolve(), [*common, "--parts", "run,driver"])
        rows["old Game.run (old bench)"].append(old["fengsheng"])
        rows["new Game.run"].append(new["fengsheng"])
        rows["new drive()"].append(new["driver"])
        print(
            f"round {i + 1}: old {old['fengsheng']['games_per_s']:.1f} g/s, new drive "
            f"{new['driver']['games_per_s']:.1f} g/s, new Game.run {new['fengsheng']['games_per_s']:.1f} g/s",
            file=sys.stderr,
        )

    def agg(rs, key):
        v = [r[key] for r in rs]
        return max(v), statistics.median(v), v

    table = {}
    for name, rs in rows.items():
        g = agg(rs, "games_per_s")
        d = agg(rs, "decisions_per_s")
        table[name] = {
            "games_per_s_best": g[0],
            "games_per_s_median": g[1],
            "games_per_s_rounds": g[2],
            "decisions_per_s_best": d[0],
            "decisions_per_s_median": d[1],
            "decisions_per_s_rounds": d[2],
            "decisions_per_game": rs[0]["decisions_per_game"],
        }
    old = table["old Game.run (old bench)"]
    for name in ("new Game.run", "new drive()"):
        t = table[name]
        for k in ("games_per_s", "decisions_per_s"):
            t[f"{k}_slowdown_best"] = 1 - t[f"{k}_best"] / old[f"{k}_best"]
            t[f"{k}_slowdown_median"] = 1 - t[f"{k}_median"] / old[f"{k}_median"]
    result = {
        "python": args.python,
        "imported": imported,
        "games": args.games,
        "seed": args.seed,
        "rounds": args.rounds,
        "table": table,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"old: {imported['old']}\nnew: {imported['new']}")
    print(
        f"{args.games} games x 5 players per bench run, seeds {args.seed}.., {args.rounds} alternating rounds; "
        f"each figure = best of {args.repeat} runs inside a bench run; best / median over rounds"
    )
    print(
        f"{'':28} {'games/s best/median':>22} {'decisions/s best/median':>26} {'dec/game':>9} "
        f"{'slowdown g/s':>14} {'slowdown d/s':>14}"
    )
    for name, t in table.items():
        sl = ""
        if "games_per_s_slowdown_best" in t:
            sl = (
                f"{100 * t['games_per_s_slowdown_best']:6.1f}%/{100 * t['games_per_s_slowdown_median']:5.1f}% "
                f"{100 * t['decisions_per_s_slowdown_best']:6.1f}%/"
                f"{100 * t['decisions_per_s_slowdown_median']:5.1f}%"
            )
        print(
            f"{name:28} {t['games_per_s_best']:10.1f} / {t['games_per_s_median']:8.1f} "
            f"{t['decisions_per_s_best']:12,.0f} / {t['decisions_per_s_median']:10,.0f} "
            f"{t['decisions_per_game']:9.1f}  {sl}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
