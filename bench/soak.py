#!/usr/bin/env python
"""Soak: many random games at every player count with every bundled role; report anything that went wrong.

    python bench/soak.py [--games 20000] [--jobs N] [--seed S] [--agents random|heuristic|…]
                         [--content DIR ...] [--expansions all|none|ID,…]

The games are spread evenly over 2..10 players (``--games`` in all), played by
random agents through ``fengsheng simulate``'s own batch runner (so on every
core, ``--jobs``), each checked against the zone invariants after it ends. A
game that raises (an engine error, a stuck game, an internal error) or breaks
an invariant is listed with its player count, index and game seed, and the
``fengsheng simulate --game-seed … --trace`` command that plays it alone with its trace. Exit status 1 if any
game failed.

The content is what ``fengsheng simulate`` plays with the same ``--content`` and
``--expansions``: by default the full game, every role of the base game and
both expansions. At the end it lists the roles that were never in play and the
skills that were never used over the whole soak (a skill no random game uses
is dead content or a condition that can never hold): none is the goal.

Stalemates are measured too: the games that reached the turn limit with nobody winning (a draw), per player
count, with the seeds of the first few and their share of the soak. Between random agents a draw is rare;
``--agents heuristic`` (any kind ``--agents`` of simulate takes) soaks the bots a balance sweep uses, where a
stalemate between cautious bots would bias every figure. A draw is not a failure (the exit status ignores it).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    from collections import Counter

    from interpreter.content.loader import load_content
    from interpreter.content.packs import parse_expansions, resolve_packs
    from interpreter.sim import default_jobs, parse_agents, simulate

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="games in all (default 20000)")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    ap.add_argument("--seed", type=int, default=1, help="batch seed (default 1)")
    ap.add_argument("--agents", default="random", help="the seats' kind, as simulate's --agents (default random)")
    ap.add_argument("--content", action="append", default=None, help="content pack (repeat to layer)")
    ap.add_argument("--expansions", default=None, help="bundled expansions: all (default), none, or ids")
    args = ap.parse_args(argv)
    if args.games < 9:
        ap.error("--games must be at least 9 (one per player count)")
    paths = resolve_packs(args.content or (), parse_expansions(args.expansions))
    content = load_content(paths)
    jobs = args.jobs or default_jobs()
    counts = [n for n in range(2, 11) if n in content.rules.identity_table]
    per = args.games // len(counts)
    packs = "".join(f" --content {shlex.quote(p)}" for p in args.content or [])  # the same content to reproduce
    if args.expansions is not None:
        packs += f" --expansions {shlex.quote(args.expansions)}"
    in_play: Counter = Counter()
    used: Counter = Counter()
    if args.agents != "random":
        packs += f" --agents {shlex.quote(args.agents)}"
    failed = draws = 0
    t0 = time.perf_counter()
    print(
        f"{per} games at each of {counts} players, {len(content.roles)} roles, {args.agents} agents, "
        f"{jobs} job(s), seed {args.seed}"
    )
    for n in counts:
        try:
            kinds = parse_agents(args.agents, n)
        except ValueError as e:
            ap.error(str(e))
        summary = simulate(content, n, per, args.seed, content_paths=paths, jobs=jobs, agents=kinds)
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(summary.reasons.items(), key=lambda kv: -kv[1]))
        print(f"  {n:>2} players: {summary.games:>6} ok, {len(summary.failures)} failed   ({reasons})")
        for index, gseed, text in summary.failures:
            print(f"     game {index} (seed {gseed}): {text}")
            print(f"       reproduce: fengsheng simulate -p {n}{packs} --game-seed {gseed} --trace")
        if summary.turn_limit:
            shown = ", ".join(str(gseed) for _, gseed in summary.turn_limit[:3])
            more = f" and {len(summary.turn_limit) - 3} more" if len(summary.turn_limit) > 3 else ""
            print(f"     {len(summary.turn_limit)} reached the turn limit with no winner (game seeds {shown}{more})")
        failed += len(summary.failures)
        draws += len(summary.turn_limit)
        in_play.update(summary.role_dealt)
        used.update(summary.skill_uses)
    dt = time.perf_counter() - t0
    roles = {r.label(): r for r in content.roles.values()}
    skills = sorted({f"{label}·{sk.name}" for label, r in roles.items() for sk in r.skills})
    never_played = sorted(set(roles) - set(in_play))
    never_used = [s for s in skills if not used[s]]
    print(f"roles in play: {len(roles) - len(never_played)} of {len(roles)}" + _listed(never_played, "never"))
    print(f"skills used: {len(skills) - len(never_used)} of {len(skills)}" + _listed(never_used, "never"))
    rare = sorted((k, s) for s in skills if 0 < (k := used[s]) < 10)
    if rare:
        print("used fewer than 10 times: " + ", ".join(f"{s} ({k})" for k, s in rare))
    played = per * len(counts)
    print(
        f"stalemates: {draws} of {played} games ({100 * draws / played:.2f} %) reached the turn limit, nobody winning"
    )
    print(f"{played} games in {dt:.1f} s: {failed} failed (crashes, stuck games, broken invariants)")
    return 1 if failed else 0


def _listed(names: list[str], what: str) -> str:
    return f"; {what}: {', '.join(names)}" if names else ""


if __name__ == "__main__":
    sys.exit(main())
