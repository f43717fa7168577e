#!/usr/bin/env python
"""The bots' strength table: one bot in mixed tables against other bots, by identity, with 95% intervals.

    python bench/strength.py [--bot heuristic] [--against random] [--players 5 | --players 2-10]
                             [--games 1000] [--seed 0] [--jobs N]
    python bench/strength.py --bot search:20 --against heuristic --games 200

Each game seats one bot of the kind measured (``--bot``, a spec as ``simulate --agents`` takes it:
``heuristic``, ``search:20`` ...) and bots of the ``--against`` kind (default ``random``) at every
other seat; the bot's seat turns round the table from game to game (game g: seat g mod n), and every agent
is seeded from the game seed (``sim.make_agents``), so the same arguments print the same table, with any
``--jobs``. For each player count it prints, by the identity a seat ended the game with, the win rate of the
bot's seats and of the other seats (seats that won / seats played) with their Wilson 95% intervals, then
the same over all identities. A seat wins when its player is among the game's winners (a camp wins
together). The last line is ``ratio R``: the bot's seat win rate ÷ another seat's, over every game played
(all player counts). The goals (issue 15): R ≥ 1.5 for the heuristic bot against random bots, R > 1 for
the search bot against heuristic bots.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.agents.kinds import factory_of
from interpreter.content.loader import load_cached
from interpreter.engine.step import drive
from interpreter.sim import game_seed, make_agents, pad, wilson

ALL = "全部"


def play(args: tuple) -> tuple[Counter, Counter, Counter, Counter]:
    """Games `indices` at `n` players: (bot wins, bot seats, other wins, other seats), by identity."""
    bot, others, n, seed, indices = args
    content = load_cached()
    bw: Counter = Counter()
    bn: Counter = Counter()
    rw: Counter = Counter()
    rn: Counter = Counter()
    for g in indices:
        seat = g % n
        kinds = tuple(bot if s == seat else others for s in range(n))
        game = drive(content, n, game_seed(seed, g), make_agents(kinds, game_seed(seed, g), content))
        assert game.result is not None
        winners = {p.seat for p in game.result.winners}
        for p in game.players:
            identity = p.identity.name if p.identity is not None else "无身份牌"
            won, played = (bw, bn) if p.seat == seat else (rw, rn)
            for key in (identity, ALL):
                played[key] += 1
                won[key] += p.seat in winners
    return bw, bn, rw, rn


def cell(k: int, n: int) -> str:
    if n == 0:
        return pad("-", 30)
    lo, hi = wilson(k, n)
    return f"{k:>5}/{n:<5} {100 * k / n:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="heuristic", help="the bot measured, one per table (heuristic, search:20 ...)")
    ap.add_argument("--against", default="random", help="the bots at the other seats (default random)")
    ap.add_argument("--players", default="5", help="a count (5) or a range (2-10)")
    ap.add_argument("--games", type=int, default=1000, help="games per player count")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (the table does not depend on it)")
    a = ap.parse_args()
    for spec in (a.bot, a.against):
        try:
            factory_of(spec)
        except ValueError as e:
            ap.error(str(e))
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # each count shows as it ends
    lo_n, _, hi_n = a.players.partition("-")
    counts = range(int(lo_n), int(hi_n or lo_n) + 1)
    total = [0, 0, 0, 0]
    print(f"{a.bot} bot, one per table, against {a.against} bots: seats that won / seats played, Wilson 95%")
    for n in counts:
        size = max(1, a.games // (a.jobs * 4))
        chunks = [(a.bot, a.against, n, a.seed + n, range(i, min(i + size, a.games))) for i in range(0, a.games, size)]
        if a.jobs > 1:
            with ProcessPoolExecutor(a.jobs) as pool:
                parts = list(pool.map(play, chunks))
        else:
            parts = [play(c) for c in chunks]
        bw, bn, rw, rn = (sum((p[i] for p in parts), Counter()) for i in range(4))
        print(f"\n{n} players, {a.games} games")
        print(f"  {pad('identity', 10)} {pad(a.bot, 30)} {pad(a.against, 30)}")
        for identity in [*sorted(k for k in rn if k != ALL), ALL]:
            print(f"  {pad(identity, 10)} {cell(bw[identity], bn[identity])} {cell(rw[identity], rn[identity])}")
        if rw[ALL]:
            print(f"  ratio at {n} players: {(bw[ALL] / bn[ALL]) / (rw[ALL] / rn[ALL]):.2f}")
        for i, c in enumerate((bw, bn, rw, rn)):
            total[i] += c[ALL]
    bw_, bn_, rw_, rn_ = total
    print(f"\nall counts: {a.bot} {cell(bw_, bn_)}; {a.against} {cell(rw_, rn_)}")
    print(f"ratio {(bw_ / bn_) / (rw_ / rn_):.2f}")


if __name__ == "__main__":
    main()
