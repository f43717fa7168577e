#!/usr/bin/env python
"""What the effect language costs: code compiled from the language vs the same code hand-written in Python.

    python bench/dsl_overhead.py [--calls N] [--repeat R]

Each pair runs on the same engine, the same table and the same context
object: the language's version is the function the loader compiled from the
bundled content (one Python function per code unit, see
``interpreter/language/compiler.py``); the Python version is what a hand-coded
server would write, calling the same engine operations (``Game.alive_from``,
``Game.ask``, ``Game.discard_cards`` …), not the language's primitives.

* 【澄清】's target rule ``alive() where any_of(intel(it) where it has black)``
  (asked at every idle point where the card could be used);
* 潜伏战线's victory condition ``count(intel(self) where it has red) >= 3``;
* 【密令】's target rule ``others(self) where hand_count(it) > 0``;
* 【澄清】's effect ``discard(choose(from: intel(target) where it has black, …))``:
  a choice asked of a scripted seat and a discard. After each call the card is
  put back, outside the timed part: only the effect's own calls are timed (a
  cost added to both versions alike would pull the ratio towards 1).

Timings: ``--repeat`` runs (default 5) of ``--calls`` calls each after a
warm-up, the two versions' runs alternating (so a busy spell of the shared
machine falls on both alike); the best run per version. Before each run the
game's step budget (E501, spent by loops between two decisions) is refilled,
untimed: the calls are made without decisions in between. Clock: this
process's CPU time by default (``--clock wall``: elapsed time), so other
sessions on the shared machine do not count. The last line is
the ratio language ÷ Python of the effect (the project's goal: at most 1.3).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GOAL = 1.3
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
CLOCK = [time.process_time]  # set by --clock


def _table():
    """Seat 0 to play (one red intel); seat 1 has three black intel (the effect's target), seat 2 two red."""
    from interpreter.content.loader import load_cached
    from interpreter.engine.table import build

    content = load_cached()
    black = [e.uid for e in content.deck if e.mask == 4][:3]
    red = [e.uid for e in content.deck if e.mask == 1][:3]
    hands = [e.uid for e in content.deck if e.mask not in (1, 4)][:6]

    class FirstOption:
        referee = True
        observes = False

        def decide(self, decision, game):
            return 0

    seats = [
        dict(identity="qian_fu_zhan_xian", hand=hands[:3], intel=red[:1]),
        dict(identity="te_gong_ji_guan", hand=hands[3:], intel=black),
        dict(identity="qian_fu_zhan_xian", intel=red[1:]),
    ]
    g = build(content, seats, [FirstOption() for _ in seats])
    g.MAX_DECISIONS = 1 << 62  # one effect asked 100 000 times is not a stuck game
    return content, g


def _pairs(content):
    from interpreter.language.runtime import source_of
    from interpreter.model.colors import BLACK, RED

    cheng_qing = content.card_types["cheng_qing"]
    mi_ling = content.card_types["mi_ling"]
    red_collect = next(v for v in content.identities["qian_fu_zhan_xian"].victories if v.check == "collect")

    def cheng_qing_target(ctx):
        g = ctx.game
        return [p for p in g.seats.alive_from(g.current) if any(c.mask & BLACK for c in p.intel)]

    def red_condition(ctx):
        return sum(1 for c in ctx.me.intel if c.mask & RED) >= 3

    def mi_ling_target(ctx):
        me = ctx.me
        return [p for p in ctx.game.seats.alive_from(me) if p is not me and p.hand]

    def cheng_qing_effect(ctx):
        ctx.incomplete = False
        target = ctx.target
        black = [c for c in target.intel if c.mask & BLACK] if target is not None else []
        if not black:
            ctx.incomplete = True
            return
        card = ctx.game.ask(ctx.chooser, "choose", black, "弃置一张黑色情报", source_of(ctx, ctx.chooser))
        ctx.game.zones.discard_cards([card])

    play = next(u for u in cheng_qing.uses if u.timing == "play_phase")
    return [
        ("【澄清】 target rule", play.target, cheng_qing_target),
        ("潜伏战线 collect condition", red_collect.condition, red_condition),
        ("【密令】 target rule", mi_ling.uses[0].target, mi_ling_target),
        ("【澄清】 effect", play.effect, cheng_qing_effect),
    ]


def _best_pair(repeat: int, calls: int, a, b) -> tuple[float, float]:
    """Seconds per call of two versions, each the best of `repeat` runs, the runs alternating (a, b, a, b …)
    so that a busy spell of the machine falls on both alike; each warmed up first."""
    a(min(calls, 100))
    b(min(calls, 100))
    best_a = best_b = float("inf")
    for _ in range(repeat):
        best_a = min(best_a, a(calls))
        best_b = min(best_b, b(calls))
    return best_a / calls, best_b / calls


def _timer_cost(calls: int) -> float:
    """What reading the clock around one call adds (subtracted from the effect's per-call timings)."""
    clock = CLOCK[0]
    best = float("inf")
    for _ in range(5):
        spent = 0.0
        for _ in range(calls):
            t0 = clock()
            spent += clock() - t0
        best = min(best, spent)
    return best / calls


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=20_000, help="calls per timed run (default 20000)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per version (default 5)")
    ap.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu: this process's CPU time (default; other work on the machine barely moves it); wall: elapsed time",
    )
    args = ap.parse_args(argv)
    CLOCK[0] = CLOCKS[args.clock]
    if args.calls < 1 or args.repeat < 1:
        ap.error("need --calls and --repeat >= 1")

    from interpreter.engine.state import INTEL
    from interpreter.language.runtime import Ctx

    content, g = _table()
    me, target = g.players[0], g.players[1]
    timer = _timer_cost(args.calls)
    print(f"{'code unit':44} {'language':>10} {'Python':>10} {'ratio':>7}")
    ratio = 0.0
    for name, compiled, by_hand in _pairs(content):
        is_effect = "effect" in name
        ctx = Ctx(g, me, target=target if is_effect else None)
        assert compiled(ctx) == by_hand(ctx) if not is_effect else True, name

        def loop(fn, ctx=ctx, is_effect=is_effect):
            def run(n):
                # the step budget between two decisions (E501) is spent by the loops these calls run, and
                # no decision comes in between: give each run enough (not timed)
                g.steps_left = 1 << 60
                clock = CLOCK[0]
                if not is_effect:
                    t0 = clock()
                    for _ in range(n):
                        fn(ctx)
                    return clock() - t0
                spent = 0.0
                for _ in range(n):
                    t0 = clock()
                    fn(ctx)
                    spent += clock() - t0
                    g.zones.move(g.discard_pile[-1], INTEL, target)  # put the discarded black intel back (not timed)
                return spent - n * timer

            return run

        lang, py = _best_pair(args.repeat, args.calls, loop(compiled), loop(by_hand))
        ratio = lang / py
        print(f"{name:44} {lang * 1e6:8.2f}µs {py * 1e6:8.2f}µs {ratio:7.2f}")
    verdict = "met" if ratio <= GOAL else "not met"
    print(f"ratio {ratio:.2f}  (【澄清】's effect, language ÷ hand-written Python; goal <= {GOAL}: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
