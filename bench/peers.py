#!/usr/bin/env python
"""fengsheng against two peers, honestly: decisions per second of random play, one core, one process.

    python bench/peers.py [--games N] [--repeat R] [--players 2,5,10] [--peer-games N] [--json]

What is compared (every figure: one untimed warm-up, then ``--repeat`` timed
runs on identical seeds; min / median / max of decisions per second):

* **fengsheng**: whole games as ``fengsheng simulate`` plays them
  (``interpreter.sim.drive``), every seat a ``RandomAgent`` that sees only its
  legal actions (the seat boundary included: every option checked; the batch's
  driver, engine/drivers.py, draws each answer from the agent's own generator, so
  no descriptor is built — ``--driver game`` asks the agent through the game's own
  driver instead, ``Agent.act`` with the descriptors, as ``step.drive`` does), no log kept. At 2, 5 and 10
  players, once with **every bundled role** dealt and once with **no roles**
  (the same content with its roles removed). A *decision* is one answer of
  an agent (``Game.decision_log``): a forced single-option choice, which the
  engine settles without asking anyone, is not counted (``decision_count``
  counts it, which would flatter us: by about 4 % at 5 players, 20 % at 2).
* **RLCard UNO, rules only** (the peer of the issue "Speed"): RLCard's
  ``UnoGame`` set up by ``init_game``, then only its rules engine:
  ``round.get_legal_actions(players, current)`` and
  ``round.proceed_round(players, action)`` until ``round.is_over``, a random
  legal action each time. No ``get_state`` (RLCard's ``step()`` rebuilds a
  string state of the hand and the whole history at every step, which would
  flatter us). A decision is one ``proceed_round``. At the same player counts.
* **OpenSpiel, a Python game** (if ``open_spiel`` is installed):
  ``python_team_dominoes`` (4 players, written in Python, like us), driven by
  the usual Python loop: ``legal_actions()`` / ``apply_action()``, chance
  outcomes sampled from ``chance_outcomes()``. A decision is a non-chance
  ``apply_action``.

The last line is ``ratio R``: fengsheng decisions/s at 5 players with every
bundled role ÷ RLCard UNO rules decisions/s at 5 players (medians). The
project's goal is R >= 0.5.

Garbage collection: by default the process is set up as ``fengsheng simulate``
sets up the process that plays its games (``interpreter.sim.tune_gc_for_batch``:
what is loaded frozen out of the collector's way, automatic young collections
rare, and one young collection after each game, ``after_game``), after loading
the content and importing the peers, so every engine here is timed under the
same collector. ``after_game`` is fengsheng's batch's own step and only its
loop takes it: in UNO's loop it makes UNO about 9 % slower (short games that
leave little for the collector), so UNO runs without it, at its best.
``--gc default`` keeps CPython's defaults for all (fengsheng about 10 % slower
compiled).

Clock: by default a second is a second of this process's CPU time
(``time.process_time``), so other sessions on this shared 2-core machine,
which take the CPU away from it for a while, do not count as its time (they
still slow it a little through the shared caches); ``--clock wall`` times
elapsed seconds, which equal CPU seconds on an idle machine. Both engines are
timed with the same clock, in the same process.
"""

from __future__ import annotations

import argparse
import copy
import importlib.machinery
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: keep numpy (rlcard, open_spiel) single-threaded

ROOT = Path(__file__).resolve().parents[1]  # this checkout: its `interpreter` is timed (not with --installed)

GOAL = 0.5


def _pin() -> int | None:
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return cpu
    except OSError:
        return None


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
clock = time.process_time  # set by --clock


def _timed(repeat: int, fn) -> dict:
    """Warm up once, then time `repeat` runs of fn() -> decisions; decisions/s min, median, max."""
    fn()
    rates = []
    for _ in range(repeat):
        t0 = clock()
        decisions = fn()
        rates.append(decisions / (clock() - t0))
    return {"min": min(rates), "median": statistics.median(rates), "max": max(rates), "decisions": decisions}


def _nothing() -> None:
    pass


def fengsheng(content, players: int, games: int, game_driver: bool = False, between=_nothing):
    """A batch of random games; `game_driver`: each agent is asked through the game's own driver (Agent.act with
    descriptors, step.drive) rather than the batch's (interpreter.sim.drive); `between`: called after each game
    (the batch's collection, interpreter.sim.after_game)."""
    from interpreter import sim
    from interpreter.agents import RandomAgent
    from interpreter.engine import step

    drive = step.drive if game_driver else sim.drive

    def agents(s: int) -> list:
        return [RandomAgent(s * 100 + i) for i in range(players)]

    def run() -> int:
        total = 0
        for s in range(1, games + 1):
            total += len(drive(content, players, s, agents(s)).decision_log)  # (forced choices not counted)
            between()
        return total

    return run


def uno_rules(players: int, games: int):
    from rlcard.games.uno.game import UnoGame

    def run() -> int:
        game = UnoGame(num_players=players)
        game.np_random.seed(players)
        pick = random.Random(players)
        total = 0
        for _ in range(games):
            game.init_game()
            rnd, seats = game.round, game.players
            steps = 0
            while not rnd.is_over and steps < 20_000:
                legal = rnd.get_legal_actions(seats, rnd.current_player)
                rnd.proceed_round(seats, legal[pick.randrange(len(legal))])
                steps += 1
            total += steps
        return total

    return run


def openspiel_python_game(games: int, name: str = "python_team_dominoes"):
    import pyspiel
    from open_spiel.python import games as _registered  # noqa: F401  (registers the python_* games)

    game = pyspiel.load_game(name)

    def run() -> int:
        pick = random.Random(7)
        total = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(pick.choices(outcomes, probs)[0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[pick.randrange(len(legal))])
                    total += 1
        return total

    return run


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="fengsheng games per run and setting (default 300)")
    ap.add_argument("--peer-games", type=int, default=1000, help="UNO and OpenSpiel games per run (default 1000)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per figure (default 3)")
    ap.add_argument("--players", default="2,5,10", help="player counts (default 2,5,10; 5 is needed for the ratio)")
    ap.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu: this process's CPU time (default; other work on the machine barely moves it); wall: elapsed time",
    )
    ap.add_argument(
        "--content",
        action="append",
        metavar="DIR",
        help="content pack(s) to play (default: the bundled game); to compare two checkouts on the same content",
    )
    ap.add_argument(
        "--installed",
        action="store_true",
        help="time the fengsheng package Python finds (an installed build, e.g. the compiled one: setup.py), "
        "not this checkout's",
    )
    ap.add_argument(
        "--gc",
        choices=("batch", "default"),
        default="batch",
        help="batch: the collector set up as simulate sets it up (default); default: CPython's defaults",
    )
    ap.add_argument(
        "--driver",
        choices=("batch", "game"),
        default="batch",
        help="batch: a RandomAgent's answer is drawn by the batch's driver from its generator (engine/drivers.py, "
        "what simulate does; default); game: the agent is asked through the game's own driver (act, descriptors)",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if not args.installed and str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    global clock
    clock = CLOCKS[args.clock]
    counts = [int(x) for x in args.players.split(",")]
    if args.games < 1 or args.peer_games < 1 or args.repeat < 1 or any(n < 2 or n > 10 for n in counts):
        ap.error("need --games, --peer-games, --repeat >= 1 and player counts in 2..10")
    cpu = _pin()

    from interpreter.content.loader import load_cached
    from interpreter.engine import zones

    compiled = zones.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))  # setup.py's mypyc build
    full = load_cached(args.content)
    bare = copy.copy(full)
    bare.roles = {}
    out: dict = {
        "pinned_cpu": cpu,
        "compiled": compiled,
        "clock": args.clock,
        "repeat": args.repeat,
        "fengsheng": {},
        "uno_rules": {},
        "openspiel": None,
    }
    lines = [
        f"one process pinned to CPU {cpu}; decisions per {args.clock} second: min / median / max of "
        f"{args.repeat} runs after a warm-up; engine: {'compiled (mypyc)' if compiled else 'pure Python'}; "
        f"collector: {'set up for a batch' if args.gc == 'batch' else 'defaults'}",
        f"fengsheng: {args.games} games per figure, RandomAgent ("
        f"{'drawn by the batch driver' if args.driver == 'batch' else 'asked act() by the game driver'}, every option "
        "checked); "
        f"UNO and OpenSpiel: {args.peer_games} games",
        "",
        f"{'players':>7}  {'fengsheng, all ' + str(len(full.roles)) + ' roles':>32}  {'fengsheng, no roles':>28}  "
        f"{'RLCard UNO rules':>28}",
    ]
    try:
        import rlcard  # noqa: F401

        have_uno = True
    except ImportError:
        have_uno = False
    if args.gc == "batch":
        from interpreter.sim import after_game, tune_gc_for_batch

        tune_gc_for_batch()
        between = after_game
    else:
        between = _nothing
    out["gc"] = args.gc
    out["driver"] = args.driver
    for n in counts:
        row = {}
        row["all_roles"] = _timed(args.repeat, fengsheng(full, n, args.games, args.driver == "game", between))
        row["no_roles"] = _timed(args.repeat, fengsheng(bare, n, args.games, args.driver == "game", between))
        out["fengsheng"][n] = row
        uno = _timed(args.repeat, uno_rules(n, args.peer_games)) if have_uno else None
        out["uno_rules"][n] = uno

        def fmt(r):
            return f"{r['min']:8,.0f} / {r['median']:8,.0f} / {r['max']:8,.0f}" if r else f"{'not installed':>28}"

        lines.append(f"{n:>7}  {fmt(row['all_roles']):>32}  {fmt(row['no_roles']):>28}  {fmt(uno):>28}")
    med = {n: 1e6 / out["fengsheng"][n]["all_roles"]["median"] for n in counts}
    if len(counts) > 1:
        lo, hi = min(counts), max(counts)
        per_seat = (med[hi] - med[lo]) / (hi - lo)
        out["us_per_decision"] = med
        out["us_per_extra_seat"] = per_seat
        lines.append(
            "µs per decision (all roles, medians): "
            + ", ".join(f"{n} players {med[n]:.1f}" for n in counts)
            + f"; {per_seat:+.2f} µs per extra seat (goal <= 1.5)"
        )
    try:
        spiel = _timed(args.repeat, openspiel_python_game(args.peer_games))
        out["openspiel"] = {"game": "python_team_dominoes", **spiel}
        lines.append(
            f"OpenSpiel python_team_dominoes (Python loop): {spiel['min']:,.0f} / {spiel['median']:,.0f} / "
            f"{spiel['max']:,.0f} decisions/s"
        )
    except ImportError:
        lines.append("OpenSpiel: not installed (pip install -e '.[rl]')")
    if have_uno and 5 in counts:
        ratio = out["fengsheng"][5]["all_roles"]["median"] / out["uno_rules"][5]["median"]
        out["ratio"] = ratio
        verdict = "met" if ratio >= GOAL else "not met"
        if not compiled:
            verdict += " by the pure-Python engine (the default install); see README, 'A compiled engine'"
        tail = (
            f"ratio {ratio:.3f}  (fengsheng 5 players, all roles ÷ RLCard UNO rules, 5 players; goal {GOAL}: {verdict})"
        )
    else:
        tail = "ratio n/a  (needs rlcard — pip install -e '.[bench]' — and 5 in --players)"
    if args.json:
        print(json.dumps(out, indent=2, default=str))
    else:
        print("\n".join(lines))
    print(tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
