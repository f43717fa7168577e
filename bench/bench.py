#!/usr/bin/env python
"""Benchmark: fengsheng random self-play (engine, driver, step API) vs RLCard's UNO, one core, one process.

    python bench/bench.py [--games N] [--players 5] [--seed S] [--uno-games N]
                          [--uno-players 2] [--repeat R] [--parts LIST]
                          [--clone-at K] [--clone-states M] [--obs-games G]
                          [--profile] [--json]

Every timing is wall-clock (``time.perf_counter``) on the bundled content with
all its roles dealt, ``--players`` seats (default 5). Each part is run once
untimed (warm-up), then ``--repeat`` times (default 3) on exactly the same
seeds and states; the best and the median of the repeats are reported (the
best is the headline figure: the run least disturbed by noise). Content loading
is never timed. A *decision* is one ``Game.ask`` call (``Game.decision_count``),
forced single-option choices included; an *action* is one answer given by an
agent / ``apply_action`` (forced choices are not asked, so actions <= decisions).

Parts (``--parts``, comma separated; default all):

* ``run``: N games through ``Game(content, n, seed, agents).run()``, the
  engine's synchronous path (no step API), every seat a ``RandomAgent(seed*100+seat)``,
  seeds ``S..S+N-1``. This is the figure the UNO ratio uses (as before).
* ``driver``: the same N games (same seeds, same agent seeds, so the same
  games) through ``interpreter.engine.step.drive(content, n, seed, agents)``:
  the thin driver over the step API (the engine paused in a greenlet at every
  action; the agent gets the action descriptors, no observation since
  ``RandomAgent.observes`` is False). games/s and decisions/s.
* ``step``: N games through the step API called directly: ``GameState(content,
  n, seed)`` then ``while not is_terminal(): legal = legal_actions();
  apply_action(legal[rng.randrange(len(legal))])`` with ``rng =
  random.Random(seed)`` per game. Different choices from the agents above, so
  different games: compare decisions/s, not games/s.
* ``clone``: M mid-game states (seeds S, S+1, ... played through the step API
  with ``random.Random(seed)`` until ``--clone-at`` actions, default 100, have
  been applied; games that end earlier are skipped). Timed: one ``clone()`` of
  each state -> ms per clone, and that divided by the actions applied (and by the
  decisions taken) so far -> µs per action (decision) already taken: a clone
  re-plays the game from its seed. Then one ``resample(current_player(), rng)``
  of each state (``rng = random.Random(seed)``) -> ms per resample.
* ``obs``: ``observation(seat)`` in µs, three ways: *in play*: G games played
  through the step API as in ``step``, with ``observation(current_player())``
  called (and timed call by call) before every action, which is what a driver
  with an observing agent pays per action; *mid-game, warm*: at the M clone
  states, every seat, after a first untimed call for that seat (the per-seat
  public history is kept incrementally); *mid-game, cold*: the first call for
  each seat on fresh clones of those states (the seat's history is projected
  from the whole log).
* ``uno``: RLCard's ``UnoGame`` driven at the game level (init_game /
  step / is_over, reading the legal actions step() returns), each player picking a uniformly random
  legal action. A decision is one ``step``. We deliberately do NOT use
  ``rlcard.make('uno')``: the env adds a numpy observation encoding per step,
  and the ``run`` part has no observation encoding either, so the game level is the
  like-for-like comparison.
  ratio = fengsheng decisions/s (``run``) / UNO decisions/s (project goal: >= 0.5);
  the same ratio with the ``driver`` figure is printed next to it.

rlcard is optional (``pip install -e '.[bench]'``); without it the UNO part is
skipped and the script still exits 0.
"""
from __future__ import annotations

import argparse
import os

# One core: keep numpy (imported by rlcard) from starting BLAS/OpenMP threads.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import io  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout without `pip install -e .`

GOAL_RATIO = 0.5
UNO_MAX_STEPS = 20_000  # safety cap for one UNO game (random UNO games average ~50 steps)
INSTALL_HINT = "pip install -e '.[bench]'   (or: pip install rlcard)"


def pin_to_one_core():
    """Restrict this process to a single CPU; returns the CPU id, or None where unsupported."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return cpu
    except OSError:
        return None


# ---------------------------------------------------------------------------- fengsheng

def run_fengsheng(content, n_games: int, n_players: int, seed: int):
    """Play n_games games (seeds seed..seed+n_games-1). Returns (seconds, stats dict)."""
    from interpreter.agents import RandomAgent
    from interpreter.engine.game import Game

    decisions = agent_calls = turns = 0
    reasons: Counter = Counter()
    errors: list = []
    t0 = time.perf_counter()
    for s in range(seed, seed + n_games):
        g = Game(content, n_players, s, [RandomAgent(s * 100 + i) for i in range(n_players)])
        try:
            result = g.run()
            reasons[result.reason] += 1
            turns += result.turns
        except Exception as e:  # an engine bug: count it, keep the numbers of what ran
            errors.append(f"seed {s}: {type(e).__name__}: {e}")
        decisions += g.decision_count
        agent_calls += len(g.decision_log)
    dt = time.perf_counter() - t0
    return dt, {"decisions": decisions, "agent_calls": agent_calls, "turns": turns,
                "reasons": dict(reasons), "errors": errors}


# ---------------------------------------------------------------------------- UNO

def rlcard_version():
    try:
        from importlib.metadata import version
        return version("rlcard")
    except Exception:
        return "?"


def run_uno(n_games: int, n_players: int, seed: int):
    """Play n_games RLCard UNO games with uniformly random legal actions. Returns (seconds, stats)."""
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=n_players)
    game.np_random.seed(seed)   # RLCard's own RNG: shuffles, wild colours
    pick = random.Random(seed)  # our action choice (same RNG kind as fengsheng's RandomAgent)
    decisions = 0
    capped = 0
    errors: list = []
    t0 = time.perf_counter()
    for i in range(n_games):
        state, _ = game.init_game()
        steps = 0
        try:
            while not game.is_over():
                if steps >= UNO_MAX_STEPS:
                    capped += 1
                    break
                # step() already returns the next player's legal actions: reuse them (the
                # fastest way to drive UNO, so the ratio below is a conservative one)
                legal = state["legal_actions"]
                state, _ = game.step(legal[pick.randrange(len(legal))])
                steps += 1
        except Exception as e:  # e.g. RLCard running out of cards to draw
            errors.append(f"game {i}: {type(e).__name__}: {e}")
        decisions += steps
    dt = time.perf_counter() - t0
    return dt, {"decisions": decisions, "capped": capped, "errors": errors}


# ---------------------------------------------------------------------------- driver

def best_of(repeat: int, fn, *args):
    """Run fn `repeat` times on identical input; keep the fastest run (least disturbed by noise)."""
    best = None
    times = []
    for _ in range(repeat):
        dt, stats = fn(*args)
        times.append(dt)
        if best is None or dt < best[0]:
            best = (dt, stats)
    return best[0], best[1], times


def profile_fengsheng(content, args, top: int = 25):
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    run_fengsheng(content, args.games, args.players, args.seed)
    prof.disable()
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf).sort_stats("tottime")
    stats.print_stats(top)
    rows = []
    for func, (cc, nc, tt, ct, _callers) in sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]:
        filename, line, name = func
        rows.append({"function": f"{_short_path(filename)}:{line}({name})", "ncalls": nc,
                     "tottime": round(tt, 4), "cumtime": round(ct, 4)})
    return buf.getvalue(), rows


def _short_path(filename: str) -> str:
    try:
        return str(Path(filename).resolve().relative_to(ROOT))
    except ValueError:
        return filename


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="fengsheng vs RLCard UNO decisions/s, one core, one process")
    ap.add_argument("--games", type=int, default=1000, help="fengsheng games per run (default 1000)")
    ap.add_argument("--players", type=int, default=5, help="fengsheng seats (default 5)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--uno-games", type=int, default=3000, help="UNO games per run (default 3000; 0 = skip)")
    ap.add_argument("--uno-players", type=int, default=2,
                    help="UNO players (default 2, RLCard's standard UNO configuration)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each part; the fastest counts (default 3)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    ap.add_argument("--profile", action="store_true",
                    help="also cProfile one (untimed) pass of the fengsheng part; print top 25 by tottime")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = ap.parse_args(argv)
    if args.games < 1 or args.repeat < 1 or args.players < 2 or args.uno_games < 0 or args.uno_players < 2:
        ap.error("need --games >= 1, --repeat >= 1, --players >= 2, --uno-games >= 0, --uno-players >= 2")

    cpu = None if args.no_pin else pin_to_one_core()
    out: dict = {"python": platform.python_version(), "implementation": platform.python_implementation(),
                 "machine": platform.machine(), "pinned_cpu": cpu, "repeat": args.repeat}
    lines: list = []
    say = lines.append

    # --- fengsheng
    from interpreter.content.loader import load_cached
    t0 = time.perf_counter()
    content = load_cached()
    load_s = time.perf_counter() - t0
    run_fengsheng(content, min(20, args.games), args.players, args.seed)  # warm-up (untimed)
    dt, st, times = best_of(args.repeat, run_fengsheng, content, args.games, args.players, args.seed)
    fs = {"games": args.games, "players": args.players, "seed": args.seed, "seconds": round(dt, 4),
          "runs_seconds": [round(t, 4) for t in times], "content_load_seconds": round(load_s, 4),
          "games_per_s": args.games / dt, "decisions_per_s": st["decisions"] / dt,
          "decisions_per_game": st["decisions"] / args.games,
          "agent_calls_per_game": st["agent_calls"] / args.games,
          "turns_per_game": st["turns"] / args.games, "end_reasons": st["reasons"],
          "errors": len(st["errors"]), "error_samples": st["errors"][:3]}
    out["fengsheng"] = fs
    say(f"python {out['python']} ({out['implementation']}, {out['machine']}), one process, "
        + (f"pinned to CPU {cpu}" if cpu is not None else "not pinned") + f", best of {args.repeat} runs")
    say("")
    say(f"fengsheng  {args.games} games x {args.players} players, seeds {args.seed}..{args.seed + args.games - 1},"
        f" RandomAgent, bundled content with its {len(content.roles)} roles dealt (content load {load_s:.2f}s, not timed)")
    say(f"  time            {dt:.3f} s   (runs: {', '.join(f'{t:.3f}' for t in times)})")
    say(f"  games/s         {fs['games_per_s']:,.1f}")
    say(f"  decisions/s     {fs['decisions_per_s']:,.0f}")
    say(f"  decisions/game  {fs['decisions_per_game']:.1f}   "
        f"(agent calls/game {fs['agent_calls_per_game']:.1f}; the rest are forced single-option choices)")
    say(f"  turns/game      {fs['turns_per_game']:.1f}   end reasons: "
        + ", ".join(f"{k} {v}" for k, v in sorted(st["reasons"].items(), key=lambda kv: -kv[1])))
    if st["errors"]:
        say(f"  !! {len(st['errors'])} game(s) raised; first: {st['errors'][0]}")

    # --- UNO
    say("")
    uno = None
    if args.uno_games == 0:
        out["uno"] = None
        say("UNO  skipped (--uno-games 0)")
    else:
        try:
            import rlcard  # noqa: F401
            from rlcard.games.uno.game import UnoGame  # noqa: F401
        except ImportError as e:
            out["uno"] = {"error": f"rlcard not installed ({e})", "install": INSTALL_HINT}
            say(f"UNO  rlcard is not installed ({e}): no comparison.")
            say(f"     install it with:  {INSTALL_HINT}")
        else:
            run_uno(min(50, args.uno_games), args.uno_players, args.seed)  # warm-up (untimed)
            udt, ust, utimes = best_of(args.repeat, run_uno, args.uno_games, args.uno_players, args.seed)
            uno = {"rlcard": rlcard_version(), "games": args.uno_games, "players": args.uno_players,
                   "seconds": round(udt, 4), "runs_seconds": [round(t, 4) for t in utimes],
                   "level": "game (rlcard.games.uno.game.UnoGame), not env",
                   "games_per_s": args.uno_games / udt, "decisions_per_s": ust["decisions"] / udt,
                   "decisions_per_game": ust["decisions"] / args.uno_games,
                   "capped_games": ust["capped"], "errors": len(ust["errors"]),
                   "error_samples": ust["errors"][:3]}
            out["uno"] = uno
            say(f"UNO  rlcard {uno['rlcard']}, {args.uno_games} games x {args.uno_players} players, "
                f"uniformly random legal actions, numpy RNG seeded {args.seed}")
            say("     game level (UnoGame: init_game/step/is_over, legal actions as step() returns them), not rlcard.make('uno'):")
            say("     the env adds a numpy observation encoding per step and our engine has none, so the game")
            say("     level is the like-for-like comparison. A decision = one step() (one action chosen).")
            say(f"  time            {udt:.3f} s   (runs: {', '.join(f'{t:.3f}' for t in utimes)})")
            say(f"  games/s         {uno['games_per_s']:,.1f}")
            say(f"  decisions/s     {uno['decisions_per_s']:,.0f}")
            say(f"  decisions/game  {uno['decisions_per_game']:.1f}")
            if ust["errors"] or ust["capped"]:
                say(f"  !! {len(ust['errors'])} game(s) raised, {ust['capped']} hit the {UNO_MAX_STEPS}-step cap"
                    + (f"; first: {ust['errors'][0]}" if ust["errors"] else ""))

    # --- ratio
    say("")
    if uno is not None:
        ratio = fs["decisions_per_s"] / uno["decisions_per_s"]
        out["ratio"] = ratio
        out["goal_ratio"] = GOAL_RATIO
        out["goal_met"] = ratio >= GOAL_RATIO
        say(f"ratio  fengsheng decisions/s / UNO decisions/s = {fs['decisions_per_s']:,.0f} / "
            f"{uno['decisions_per_s']:,.0f} = {ratio:.3f}   (goal >= {GOAL_RATIO}: "
            f"{'met' if ratio >= GOAL_RATIO else 'NOT met'})")
    else:
        out["ratio"] = None
        say("ratio  n/a (no UNO numbers)")

    # --- profile
    if args.profile:
        text, rows = profile_fengsheng(content, args)
        out["profile_top25_tottime"] = rows
        say("")
        say(f"profile  cProfile of one untimed pass of the fengsheng part ({args.games} games), top 25 by tottime")
        say(text.rstrip())

    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
