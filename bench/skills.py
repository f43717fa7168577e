#!/usr/bin/env python
"""Does the heuristic bot use every skill? A heuristic sweep, and each skill's offered / taken figures.

    python bench/skills.py [--games 1000] [--players 2-10] [--seed 0] [--jobs N] [--content DIR ...]

Plays ``--games`` games of heuristic bots at every seat, spread evenly over the player counts (game g at
``counts[g % len(counts)]`` players, seeded ``sim.game_seed(seed, g)``), with the bundled game and both
expansions (or the packs of ``--content``). For each usable skill (active, triggered, victory) of every role it
counts the games its role was dealt in, the games in which it was **offered** (its owner could use it: an idle
point offering it, the ask whether to use a ready triggered or victory skill, a forced one firing; the engine's
``Game.skill_offers``) and the games in which it was **taken** (used). Every skill never taken is a line
starting ``FAILING`` — saying whether it was offered at all — and the exit status is 1 if there is one.

It also prints the CPU time per answered decision (``time.process_time``): of the whole game, and of the bots'
answers alone, which is what a sweep of heuristic bots pays for its sense (bench/README.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.content.loader import load_cached
from interpreter.engine.step import drive
from interpreter.sim import game_seed, make_agents


def usable_skills(content: Any) -> dict[str, list[str]]:
    """Each role's skills that can be offered (every kind but passive), by role label."""
    out: dict[str, list[str]] = {}
    for role in content.roles.values():
        names = [s.name for s in role.skills if any(m.kind != "passive" for m in (s.moments or (s,)))]
        if names:
            out[role.label()] = names
    return out


class _Timed:
    """An agent whose answers are timed (CPU): the bot's share of a decision."""

    def __init__(self, agent: Any, clock: list[float]) -> None:
        self.agent, self.clock = agent, clock
        self.observes = agent.observes
        self.searches = getattr(agent, "searches", False)

    def act(self, observation: Any, actions: Any) -> int:
        start = time.process_time()
        try:
            return int(self.agent.act(observation, actions))
        finally:
            self.clock[0] += time.process_time() - start

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)


def play(args: tuple) -> tuple[Counter, Counter, Counter, Counter, Counter, list[float]]:
    """Games `indices`: (games in play, games offered, games taken, offers, uses) per "角色·技能", and
    [CPU s of the games, CPU s of the bots' answers, answered decisions, games, failed games]."""
    paths, counts, seed, indices = args
    content = load_cached(paths or None)
    in_play: Counter = Counter()
    offered: Counter = Counter()
    taken: Counter = Counter()
    offers: Counter = Counter()
    uses: Counter = Counter()
    skills = usable_skills(content)
    clock = [0.0]
    stats = [0.0, 0.0, 0.0, 0.0, 0.0]
    for g in indices:
        n = counts[g % len(counts)]
        gseed = game_seed(seed, g)
        agents = [_Timed(a, clock) for a in make_agents(("heuristic",) * n, gseed, content)]
        before, start = clock[0], time.process_time()
        try:
            game = drive(content, n, gseed, agents)
        except Exception:  # a failed game is counted and the run goes on
            stats[4] += 1
            continue
        stats[0] += time.process_time() - start
        stats[1] += clock[0] - before
        stats[2] += len(game.decision_log)
        stats[3] += 1
        for label in {p.role.label() for p in game.players if p.role is not None}:
            for name in skills.get(label, ()):
                in_play[f"{label}·{name}"] += 1
        for (rid, name), k in game.skill_offers.items():
            key = f"{content.roles[rid].label()}·{name}"
            offered[key] += 1
            offers[key] += k
        for (rid, name), k in game.skill_uses.items():
            key = f"{content.roles[rid].label()}·{name}"
            taken[key] += 1
            uses[key] += k
    return in_play, offered, taken, offers, uses, stats


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games in all, spread over the player counts")
    ap.add_argument("--players", default="2-10", help="a count (5) or a range (2-10)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (the figures do not depend on it)")
    ap.add_argument("--content", action="append", default=[], help="content folders (default: all bundled packs)")
    ap.add_argument("--all", action="store_true", help="list every skill, not only those never taken")
    a = ap.parse_args()
    lo, _, hi = a.players.partition("-")
    counts = tuple(range(int(lo), int(hi or lo) + 1))
    size = max(1, min(a.games // (a.jobs * 4), 25))
    chunks = [(tuple(a.content), counts, a.seed, range(i, min(i + size, a.games))) for i in range(0, a.games, size)]
    parts = []
    with ProcessPoolExecutor(a.jobs) if a.jobs > 1 else nullcontext() as pool:
        parts = list(pool.map(play, chunks) if pool is not None else map(play, chunks))
    tallies: list[Counter] = [Counter() for _ in range(5)]
    for part in parts:
        for tally, counted in zip(tallies, part[:5], strict=True):
            tally.update(counted)
    in_play, offered, taken, offers, uses = tallies
    seconds, bot_seconds, decisions, games, failed = (sum(p[5][i] for p in parts) for i in range(5))
    skills = usable_skills(load_cached(a.content or None))
    keys = [f"{label}·{name}" for label, names in sorted(skills.items()) for name in names]
    print(
        f"{int(games)} games of heuristic bots at {a.players} players (seed {a.seed}), {int(failed)} failed; "
        f"{len(keys)} usable skills"
    )
    print(
        f"CPU per answered decision: {1e6 * seconds / max(decisions, 1):.1f} µs a game, "
        f"{1e6 * bot_seconds / max(decisions, 1):.1f} µs of it the bot's answer "
        f"({decisions / max(games, 1):.0f} decisions a game)"
    )
    never = [k for k in keys if not taken[k]]
    width = max(map(len, keys), default=10)
    header = f"  {'skill'.ljust(width)} {'in play':>8} {'offered':>8} {'taken':>8}  (games; offers / uses)"
    if a.all:
        print(header)
        for k in keys:
            print(f"  {k.ljust(width)} {in_play[k]:>8} {offered[k]:>8} {taken[k]:>8}  ({offers[k]} / {uses[k]})")
    for k in never:
        why = "never offered" if not offered[k] else f"offered in {offered[k]} games ({offers[k]} times)"
        print(f"FAILING: {k} never taken: its role in play in {in_play[k]} games, {why}")
    print(f"{len(keys) - len(never)} of {len(keys)} skills taken; {len(never)} never taken")
    return 1 if never else 0


if __name__ == "__main__":
    sys.exit(main())
