#!/usr/bin/env python
"""The bots' strength table: one bot in mixed tables against other bots, by identity, with 95% intervals.

    python bench/strength.py [--bot heuristic] [--against random] [--players 5 | --players 2-10]
                             [--games 1000] [--seed 0] [--jobs N]
    python bench/strength.py --bot search:16:paired --against heuristic --games 400 --paired --jobs 2

Each game seats one bot of the kind measured (``--bot``, a spec as ``simulate --agents`` takes it:
``heuristic``, ``search:20`` ...) and bots of the ``--against`` kind (default ``random``) at every
other seat; the bot's seat turns round the table from game to game (game g: seat g mod n), and every agent
is seeded from the game seed (``sim.make_agents``), so the same arguments print the same table, with any
``--jobs``. For each player count it prints, by the identity a seat ended the game with, the win rate of the
bot's seats and of the other seats (seats that won / seats played) with their Wilson 95% intervals, then
the same over all identities. A seat wins when its player is among the game's winners (a camp wins
together). The last line is ``ratio R [lo, hi]``: the bot's seat win rate ÷ another seat's, over every game
played (all player counts), with its 95% interval (each count's line too). The goals: R ≥ 1.5 for the
heuristic bot against random bots, R > 1 for the search bot against heuristic bots (issue 15); R ≥ 2.0 at every
count from 2 to 10 (issue 27). With ``--paired`` each game is played again with the ``--against`` kind in
the bot's seat (the same seed) and the paired line gives the games whose seat result changed, better and worse,
and the exact two-sided p-value of the sign test (McNemar's) on those.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.agents.kinds import factory_of
from interpreter.balance.stats import Z95, binomial_p_two_sided
from interpreter.cli_options import parse_players
from interpreter.content.loader import load_cached
from interpreter.engine.step import drive
from interpreter.sim import game_seed, make_agents, pad, wilson

ALL = "全部"


def play(args: tuple) -> tuple[Counter, Counter, Counter, Counter, dict[str, float]]:
    """Games `indices` at `n` players: (bot wins, bot seats, other wins, other seats), by identity, and the
    time taken (`seconds`, and for a search bot `searched` decisions and `search_seconds` spent on them)."""
    bot, others, n, seed, indices, paired = args
    content = load_cached()
    bw: Counter = Counter()
    bn: Counter = Counter()
    rw: Counter = Counter()
    rn: Counter = Counter()
    timing = dict.fromkeys(
        ("seconds", "searched", "search_seconds", "overruled", "base_wins", "same_game", "better", "worse"), 0.0
    )
    for g in indices:
        seat = g % n
        kinds = tuple(bot if s == seat else others for s in range(n))
        agents = make_agents(kinds, game_seed(seed, g), content)
        if agents[seat].searches:
            agents[seat].search = _timed(agents[seat].search, timing)
        start = time.process_time()
        game = drive(content, n, game_seed(seed, g), agents)
        timing["seconds"] += time.process_time() - start
        timing["overruled"] += getattr(agents[seat], "overruled", 0)
        assert game.result is not None
        winners = {p.seat for p in game.result.winners}
        if paired:  # the same game with the other kind in the bot's seat too: does the seat's result change?
            twin = drive(content, n, game_seed(seed, g), make_agents((others,) * n, game_seed(seed, g), content))
            assert twin.result is not None
            base_won = seat in {p.seat for p in twin.result.winners}
            timing["base_wins"] += base_won
            timing["same_game"] += twin.actions_taken == game.actions_taken
            timing["better"] += (seat in winners) and not base_won
            timing["worse"] += base_won and seat not in winners
        for p in game.players:
            identity = p.identity.name if p.identity is not None else "无身份牌"
            won, played = (bw, bn) if p.seat == seat else (rw, rn)
            for key in (identity, ALL):
                played[key] += 1
                won[key] += p.seat in winners
    return bw, bn, rw, rn, timing


def _paired(a: argparse.Namespace, t: dict[str, float], games: int) -> str:
    """The bot's seat against the same seat of the same game played by the other kind."""
    won, base = int(t["better"] + t["base_wins"] - t["worse"]), int(t["base_wins"])
    changed = int(t["better"] + t["worse"])
    line = f"{a.bot} seat {cell(won, games)}; that seat played by {a.against} {cell(base, games)}; "
    line += f"{games - int(t['same_game'])} games differ, the result in {changed}: "
    line += f"better {int(t['better'])}, worse {int(t['worse'])}"
    if changed:
        lo, hi = wilson(int(t["better"]), changed)
        line += f" (better in {100 * t['better'] / changed:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of those"
        line += f"; sign test p = {sign_test(int(t['better']), int(t['worse'])):.2g})"
    return line


def sign_test(better: int, worse: int) -> float:
    """The exact two-sided p-value of McNemar's test on the games whose result changed (a sign test): how likely a
    split at least this uneven is if a changed result is as likely to be better as worse."""
    return binomial_p_two_sided(better, better + worse, 0.5) if better + worse else 1.0


def _timed(search: Callable, timing: dict[str, float]) -> Callable:
    """A search bot's search, counting the decisions it searched (two actions or more) and their time."""

    def timed(observation, actions, world):
        start = time.process_time()
        answer = search(observation, actions, world)
        if len(actions) > 1:
            timing["searched"] += 1
            timing["search_seconds"] += time.process_time() - start
        return answer

    return timed


def cell(k: int, n: int) -> str:
    if n == 0:
        return pad("-", 30)
    lo, hi = wilson(k, n)
    return f"{k:>5}/{n:<5} {100 * k / n:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="heuristic", help="the bot measured, one per table (heuristic, search:20 ...)")
    ap.add_argument("--against", default="random", help="the bots at the other seats (default random)")
    ap.add_argument("--players", default="5", help="counts and ranges: 5, 2-10, 7,10 (as fengsheng simulate)")
    ap.add_argument("--games", type=int, default=1000, help="games per player count")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (the table does not depend on it)")
    ap.add_argument("--progress", action="store_true", help="print the figures so far after every chunk of games")
    ap.add_argument(
        "--paired",
        action="store_true",
        help="also play each game with the other kind in the bot's seat, and compare the seat's results game by game",
    )
    a = ap.parse_args()
    for spec in (a.bot, a.against):
        try:
            factory_of(spec)
        except ValueError as e:
            ap.error(str(e))
    try:
        counts = parse_players(a.players)
    except ValueError as e:
        ap.error(f"--players: {e}")
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # each count shows as it ends
    total = [0, 0, 0, 0]
    print(f"{a.bot} bot, one per table, against {a.against} bots: seats that won / seats played, Wilson 95%")
    for n in counts:
        size = max(1, min(a.games // (a.jobs * 4), 10))
        chunks = [
            (a.bot, a.against, n, a.seed + n, range(i, min(i + size, a.games)), a.paired)
            for i in range(0, a.games, size)
        ]
        parts = []
        with ProcessPoolExecutor(a.jobs) if a.jobs > 1 else nullcontext() as pool:
            for part in pool.map(play, chunks) if pool is not None else map(play, chunks):
                parts.append(part)
                if a.progress:  # the figures so far, on stderr (a long run can be read before it ends)
                    won = sum(p[0][ALL] for p in parts), sum(p[1][ALL] for p in parts)
                    other = sum(p[2][ALL] for p in parts), sum(p[3][ALL] for p in parts)
                    print(
                        f"  {n} players, {won[1]} games: {a.bot} {cell(*won)}; {a.against} {cell(*other)}",
                        file=sys.stderr,
                    )
                    if a.paired:
                        so_far = {k: sum(p[4][k] for p in parts) for k in parts[0][4]}
                        print(f"    {_paired(a, so_far, won[1])}", file=sys.stderr)
        bw: Counter = sum((p[0] for p in parts), Counter())
        bn: Counter = sum((p[1] for p in parts), Counter())
        rw: Counter = sum((p[2] for p in parts), Counter())
        rn: Counter = sum((p[3] for p in parts), Counter())
        timing = {k: sum(p[4][k] for p in parts) for k in parts[0][4]}
        print(f"\n{n} players, {a.games} games ({timing['seconds'] / a.games:.2f} CPU s per game)")
        if timing["searched"]:
            per = 1000 * timing["search_seconds"] / timing["searched"]
            print(
                f"  {a.bot}: {timing['searched'] / a.games:.1f} decisions with a choice per game, {per:.0f} ms each;"
                f" its guide overruled in {timing['overruled'] / a.games:.2f} a game"
            )
        print(f"  {pad('identity', 10)} {pad(a.bot, 30)} {pad(a.against, 30)}")
        for identity in [*sorted(k for k in rn if k != ALL), ALL]:
            print(f"  {pad(identity, 10)} {cell(bw[identity], bn[identity])} {cell(rw[identity], rn[identity])}")
        print(f"  {ratio_line(bw[ALL], bn[ALL], rw[ALL], rn[ALL], a.against, f' at {n} players:')}")
        if a.paired:
            print(f"  paired: {_paired(a, timing, a.games)}")
        for i, c in enumerate((bw, bn, rw, rn)):
            total[i] += c[ALL]
    bw_, bn_, rw_, rn_ = total
    print(f"\nall counts: {a.bot} {cell(bw_, bn_)}; {a.against} {cell(rw_, rn_)}")
    print(ratio_line(bw_, bn_, rw_, rn_, a.against))


def ratio_line(won: int, seats: int, other_won: int, other_seats: int, against: str, where: str = "") -> str:
    """The bot's seat win rate over the other seats', with its 95% interval: normal on the log of the ratio of two
    proportions (Katz), the seats taken as independent (a camp's seats win together, so it is a little narrow at
    large tables). "none" when either side won nothing (a few games at 2 players can end so): no division by zero."""
    if not won or not other_won:
        return f"ratio{where} none ({'the bot' if not won else against + ' seats'} won no game)"
    r = (won / seats) / (other_won / other_seats)
    half = Z95 * math.sqrt(1 / won - 1 / seats + 1 / other_won - 1 / other_seats)
    return f"ratio{where} {r:.2f} [{r * math.exp(-half):.2f}, {r * math.exp(half):.2f}]"


if __name__ == "__main__":
    main()
