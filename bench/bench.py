#!/usr/bin/env python
"""Benchmark: fengsheng random self-play (engine, driver, step API) vs RLCard's UNO, one core, one process.

    python bench/bench.py [--games N] [--players 5] [--seed S] [--uno-games N]
                          [--uno-players 2] [--repeat R] [--parts LIST]
                          [--clone-at K] [--clone-states M] [--obs-games G]
                          [--profile [driver|run]] [--profile-games N] [--json]

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
  the batch driver (what ``simulate`` uses): the engine calls each agent where
  it asks, with the option checks of the step API (``RandomAgent`` is a uniform
  agent, asked ``pick(n)``: no descriptor is built) and the answer's id recorded, no
  greenlet switch, no observation since ``RandomAgent.observes`` is False, no
  log. games/s and decisions/s.
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
  ratio = fengsheng decisions/s (``run``) / UNO decisions/s driven through ``step()``;
  the same ratio with the ``driver`` figure is printed under it. This is NOT the project's
  speed goal: ``step()`` rebuilds UNO's state at every step (about 3× UNO's rules alone), and
  the figure is wall-clock at 2 UNO players. The goal (ratio >= 0.5) is measured by
  ``bench/peers.py`` against UNO's rules alone, at 5 players, in CPU time (bench/README.md).

``--profile`` adds one separate, untimed cProfile pass of the ``driver`` part
(``--profile run``: of the ``run`` part) over ``--profile-games`` games, top 25
functions by tottime.

rlcard is optional (``pip install -e '.[bench]'``); without it the UNO part is
skipped and the script still exits 0.
"""

from __future__ import annotations

import argparse
import os

# One core: keep numpy (imported by rlcard) from starting BLAS/OpenMP threads.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import gc  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout without `pip install -e .`

UNO_MAX_STEPS = 20_000  # safety cap for one UNO game (random UNO games average ~50 steps)
INSTALL_HINT = "pip install -e '.[bench]'   (or: pip install rlcard)"
PARTS = ("run", "driver", "step", "clone", "obs", "uno")
OBS_WARM_CALLS = 10  # timed observation(seat) calls per seat and state in the "mid-game, warm" measure


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


def _agents(s: int, n_players: int) -> list:
    """The random agents of game seed `s` (the same in the `run` and `driver` parts, so the same games)."""
    from interpreter.agents import RandomAgent

    return [RandomAgent(s * 100 + i) for i in range(n_players)]


# ---------------------------------------------------------------------------- fengsheng: whole games


def _whole_games(play, n_games: int, n_players: int, seed: int):
    """Time n_games games (seeds seed..seed+n_games-1), each played by play(seed) -> finished Game."""
    decisions = agent_calls = turns = 0
    reasons: Counter = Counter()
    errors: list = []
    t0 = time.perf_counter()
    for s in range(seed, seed + n_games):
        try:
            g = play(s)
        except Exception as e:  # an engine bug: count it, keep the numbers of what ran
            errors.append(f"seed {s}: {type(e).__name__}: {e}")
            continue
        decisions += g.decision_count
        agent_calls += len(g.decision_log)
        over = g.result
        assert over is not None  # played to the end
        reasons[over.reason] += 1
        turns += over.turns
    dt = time.perf_counter() - t0
    return dt, {
        "decisions": decisions,
        "agent_calls": agent_calls,
        "turns": turns,
        "reasons": dict(reasons),
        "errors": errors,
    }


def run_fengsheng(content, n_games: int, n_players: int, seed: int):
    """`run` part: n_games games through Game.run() (seeds seed..seed+n_games-1). Returns (seconds, stats)."""
    from interpreter.engine.game import Game

    def play(s):
        g = Game(content, n_players, s, _agents(s, n_players))
        g.run()
        return g

    return _whole_games(play, n_games, n_players, seed)


def run_driver(content, n_games: int, n_players: int, seed: int):
    """`driver` part: the same games as run_fengsheng, through step.drive(). Returns (seconds, stats)."""
    from interpreter.engine.step import drive

    return _whole_games(lambda s: drive(content, n_players, s, _agents(s, n_players)), n_games, n_players, seed)


def run_step(content, n_games: int, n_players: int, seed: int):
    """`step` part: GameState + legal_actions/apply_action, choices from random.Random(game seed)."""
    from interpreter.engine.step import GameState

    def play(s):
        rng = random.Random(s)
        state = GameState(content, n_players, s)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        return state._game

    return _whole_games(play, n_games, n_players, seed)


# ---------------------------------------------------------------------------- fengsheng: step API costs


def mid_game_states(content, n_players: int, seed: int, count: int, at: int) -> list:
    """`count` states after `at` actions each (seeds seed, seed+1, ...; random.Random(seed) choices).

    Games that end before `at` actions are skipped (at most 20*count seeds are tried).
    """
    from interpreter.engine.step import GameState

    states: list[GameState] = []
    s = seed
    while len(states) < count and s < seed + 20 * count:
        rng = random.Random(s)
        state = GameState(content, n_players, s)
        done = 0
        while not state.is_terminal() and done < at:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
        if not state.is_terminal():
            states.append(state)
        s += 1
    return states


def _taken(states) -> tuple:
    """(actions applied, decisions taken) summed over the states."""
    return (sum(len(st.history()) for st in states), sum(st._game.decision_count for st in states))


def run_clone(states):
    """One clone() of each state; the clones are kept alive while timing (their release is not timed)."""
    gc.collect()
    copies = []
    t0 = time.perf_counter()
    for st in states:
        copies.append(st.clone())
    dt = time.perf_counter() - t0
    bad = sum(
        1
        for st, c in zip(states, copies, strict=True)
        if c.current_player() != st.current_player() or c.history() != st.history()
    )
    del copies
    gc.collect()
    return dt, {"calls": len(states), "mismatches": bad}


def run_resample(states, seed: int):
    """One resample(current_player(), rng) of each state, rng = random.Random(seed)."""
    gc.collect()
    rng = random.Random(seed)
    copies = []
    errors = []
    t0 = time.perf_counter()
    for st in states:
        try:
            copies.append(st.resample(st.current_player(), rng))
        except Exception as e:  # an engine bug: reported, and the figure is not printed
            errors.append(f"{type(e).__name__}: {e}")
    dt = time.perf_counter() - t0
    del copies
    gc.collect()
    return dt, {"calls": len(states), "errors": errors}


def run_obs_in_play(content, n_games: int, n_players: int, seed: int):
    """Step-API games as in run_step, observation(current_player()) before every action; only those calls timed."""
    from interpreter.engine.step import GameState

    clock = time.perf_counter
    spent = 0.0
    calls = 0
    for s in range(seed, seed + n_games):
        rng = random.Random(s)
        state = GameState(content, n_players, s)
        while not state.is_terminal():
            seat = state.current_player()
            t = clock()
            state.observation(seat)
            spent += clock() - t
            calls += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return spent, {"calls": calls}


def run_obs_warm(states, n_players: int):
    """At each mid-game state: observation(seat) for every seat, OBS_WARM_CALLS times, after one untimed call."""
    for st in states:
        for seat in range(n_players):
            st.observation(seat)
    t0 = time.perf_counter()
    for st in states:
        for seat in range(n_players):
            for _ in range(OBS_WARM_CALLS):
                st.observation(seat)
    dt = time.perf_counter() - t0
    return dt, {"calls": len(states) * n_players * OBS_WARM_CALLS}


def run_obs_cold(states, n_players: int):
    """The first observation(seat) of every seat on fresh clones of the states (clones made untimed)."""
    copies = [st.clone() for st in states]
    clock = time.perf_counter
    spent = 0.0
    for c in copies:
        for seat in range(n_players):
            t = clock()
            c.observation(seat)
            spent += clock() - t
    calls = len(copies) * n_players
    del copies
    gc.collect()
    return spent, {"calls": calls}


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
    game.np_random.seed(seed)  # RLCard's own RNG: shuffles, wild colours
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


# ---------------------------------------------------------------------------- harness


def repeated(repeat: int, fn, *args):
    """Run fn `repeat` times on identical input.

    Returns (best seconds, median seconds, the best run's stats, all times)."""
    runs = [fn(*args) for _ in range(repeat)]
    times = [dt for dt, _ in runs]
    best = min(range(repeat), key=times.__getitem__)
    return times[best], statistics.median(times), runs[best][1], times


def best_of(repeat: int, fn, *args):
    """Run fn `repeat` times on identical input; keep the fastest run (least disturbed by noise)."""
    best, _median, stats, times = repeated(repeat, fn, *args)
    return best, stats, times


def profile_part(content, args, part: str, top: int = 25):
    """cProfile one untimed pass of the `run` or `driver` part over --profile-games games."""
    import cProfile
    import pstats

    fn = run_driver if part == "driver" else run_fengsheng
    prof = cProfile.Profile()
    prof.enable()
    fn(content, args.profile_games, args.players, args.seed)
    prof.disable()
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf).sort_stats("tottime")
    stats.print_stats(top)
    rows = []
    raw = stats.stats  # type: ignore[attr-defined]  # set by Stats at run time; typeshed does not declare it
    for func, (_cc, nc, tt, ct, _callers) in sorted(raw.items(), key=lambda kv: -kv[1][2])[:top]:
        filename, line, name = func
        rows.append(
            {
                "function": f"{_short_path(filename)}:{line}({name})",
                "ncalls": nc,
                "tottime": round(tt, 4),
                "cumtime": round(ct, 4),
            }
        )
    return buf.getvalue(), rows


def _short_path(filename: str) -> str:
    try:
        return str(Path(filename).resolve().relative_to(ROOT))
    except ValueError:
        return filename


def _runs(times) -> str:
    return ", ".join(f"{t:.3f}" for t in times)


def _play_part(name: str, fn, content, args):
    """Warm up, time `repeat` runs of a whole-games part; its JSON dict."""
    fn(content, min(20, args.games), args.players, args.seed)  # warm-up (untimed)
    best, median, st, times = repeated(args.repeat, fn, content, args.games, args.players, args.seed)
    n = args.games
    return {
        "part": name,
        "games": n,
        "players": args.players,
        "seed": args.seed,
        "seconds": round(best, 4),
        "median_seconds": round(median, 4),
        "runs_seconds": [round(t, 4) for t in times],
        "games_per_s": n / best,
        "games_per_s_median": n / median,
        "decisions_per_s": st["decisions"] / best,
        "decisions_per_s_median": st["decisions"] / median,
        "actions_per_s": st["agent_calls"] / best,
        "decisions_per_game": st["decisions"] / n,
        "agent_calls_per_game": st["agent_calls"] / n,
        "turns_per_game": st["turns"] / n,
        "end_reasons": st["reasons"],
        "errors": len(st["errors"]),
        "error_samples": st["errors"][:3],
    }


PLAY_LABELS = {
    "run": "Game.run() (engine, sync agents)",
    "driver": "step.drive() (driver, RandomAgent)",
    "step": "step API loop (random.Random)",
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description="fengsheng engine / driver / step API speed, and RLCard UNO decisions/s, one core, one process"
    )
    ap.add_argument(
        "--games", type=int, default=1000, help="games per run of the run, driver and step parts (default 1000)"
    )
    ap.add_argument("--players", type=int, default=5, help="fengsheng seats (default 5)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--uno-games", type=int, default=3000, help="UNO games per run (default 3000; 0 = skip)")
    ap.add_argument(
        "--uno-players", type=int, default=2, help="UNO players (default 2, RLCard's standard UNO configuration)"
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="timed runs of each part after one warm-up; best and median reported (default 3)",
    )
    ap.add_argument(
        "--parts", default=",".join(PARTS), help=f"comma-separated parts to run (default all: {','.join(PARTS)})"
    )
    ap.add_argument(
        "--clone-at",
        type=int,
        default=100,
        help="actions applied before the mid-game clone/resample/observation states (default 100)",
    )
    ap.add_argument("--clone-states", type=int, default=50, help="mid-game states (default 50)")
    ap.add_argument("--obs-games", type=int, default=50, help="games of the 'observation in play' measure (default 50)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    ap.add_argument(
        "--profile",
        nargs="?",
        const="driver",
        choices=("driver", "run"),
        default=None,
        help="also cProfile one untimed pass of the driver part (or: --profile run, the Game.run "
        "part); print the top 25 functions by tottime",
    )
    ap.add_argument("--profile-games", type=int, default=None, help="games of the profile pass (default --games)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = ap.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        ap.error(f"unknown part(s) {unknown}; choose from {','.join(PARTS)}")
    if (
        args.games < 1
        or args.repeat < 1
        or args.players < 2
        or args.uno_games < 0
        or args.uno_players < 2
        or args.clone_at < 1
        or args.clone_states < 1
        or args.obs_games < 1
    ):
        ap.error(
            "need --games >= 1, --repeat >= 1, --players >= 2, --uno-games >= 0, --uno-players >= 2, "
            "--clone-at/--clone-states/--obs-games >= 1"
        )
    if args.profile_games is None:
        args.profile_games = args.games

    cpu = None if args.no_pin else pin_to_one_core()
    import interpreter

    out: dict = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "pinned_cpu": cpu,
        "repeat": args.repeat,
        "package": interpreter.__file__,
        "parts": parts,
    }
    lines: list = []
    say = lines.append

    from interpreter.content.loader import load_cached

    t0 = time.perf_counter()
    content = load_cached()
    load_s = time.perf_counter() - t0
    out["content_load_seconds"] = round(load_s, 4)
    say(
        f"python {out['python']} ({out['implementation']}, {out['machine']}), one process, "
        + (f"pinned to CPU {cpu}" if cpu is not None else "not pinned")
        + f"; every part: 1 untimed warm-up, then {args.repeat} timed runs, best (median)"
    )
    say(
        f"package {interpreter.__file__}; bundled content with its {len(content.roles)} roles dealt, "
        f"{args.players} players (content load {load_s:.2f} s, not timed)"
    )

    # --- whole games: run, driver, step
    play = {"run": run_fengsheng, "driver": run_driver, "step": run_step}
    results = {}
    for name in ("run", "driver", "step"):
        if name in parts:
            results[name] = _play_part(name, play[name], content, args)
    if "run" in results:
        out["fengsheng"] = results["run"]  # the key of the Game.run figures, as before
    for name in ("driver", "step"):
        if name in results:
            out[name] = results[name]
    if results:
        say("")
        say(
            f"whole games: {args.games} games per run, seeds {args.seed}..{args.seed + args.games - 1}. "
            "run and driver: RandomAgent(seed*100+seat) at every seat (the same games);"
        )
        say(
            "step: legal_actions()/apply_action() chosen by random.Random(seed) (other games). "
            "decision = Game.ask call (forced ones included); action = an agent's answer"
        )
        say(f"  {'':36} {'games/s':>17} {'decisions/s':>19} {'dec/game':>9} {'act/game':>9}   runs (s)")
        for name, r in results.items():
            say(
                f"  {PLAY_LABELS[name]:36} {r['games_per_s']:8,.1f} ({r['games_per_s_median']:6,.1f})"
                f" {r['decisions_per_s']:9,.0f} ({r['decisions_per_s_median']:7,.0f})"
                f" {r['decisions_per_game']:9.1f} {r['agent_calls_per_game']:9.1f}   {_runs(r['runs_seconds'])}"
            )
            if r["errors"]:
                say(f"    !! {r['errors']} game(s) raised; first: {r['error_samples'][0]}")
        if "run" in results and "driver" in results:
            a, b = results["run"], results["driver"]
            same = a["decisions_per_game"] == b["decisions_per_game"] and a["end_reasons"] == b["end_reasons"]
            say(
                f"  driver / Game.run decisions/s = {b['decisions_per_s'] / a['decisions_per_s']:.3f}"
                + ("" if same else "   !! the two parts did not play the same games")
            )
        first = next(iter(results.values()))
        say(
            f"  turns/game {first['turns_per_game']:.1f} ({first['part']}); end reasons: "
            + ", ".join(f"{k} {v}" for k, v in sorted(first["end_reasons"].items(), key=lambda kv: -kv[1]))
        )

    # --- step API costs at mid-game
    if "clone" in parts or "obs" in parts:
        states = mid_game_states(content, args.players, args.seed, args.clone_states, args.clone_at)
        acts, decs = _taken(states)
        say("")
        say(
            f"step API at mid-game: {len(states)} states, each after {args.clone_at} actions applied "
            f"({decs / max(len(states), 1):.0f} decisions taken on average); seeds from {args.seed}, "
            "random.Random(seed) choices"
        )
        out["mid_game"] = {
            "states": len(states),
            "actions_applied": args.clone_at,
            "decisions_taken_mean": decs / max(len(states), 1),
        }
        if not states:
            say("  !! no game lasted that long: lower --clone-at")
    else:
        states = []
    if "clone" in parts and states:
        run_clone(states[:3])  # warm-up
        best, median, st, times = repeated(args.repeat, run_clone, states)
        n = st["calls"]
        out["clone"] = {
            "ms": 1e3 * best / n,
            "ms_median": 1e3 * median / n,
            "us_per_action_taken": 1e6 * best / acts,
            "us_per_decision_taken": 1e6 * best / decs,
            "runs_seconds": [round(t, 4) for t in times],
            "mismatches": st["mismatches"],
        }
        c = out["clone"]
        say(
            f"  clone()                    {c['ms']:7.2f} ms ({c['ms_median']:.2f}) per clone = "
            f"{c['us_per_action_taken']:.1f} µs per action applied so far "
            f"({c['us_per_decision_taken']:.1f} µs per decision taken)"
        )
        if st["mismatches"]:
            say(f"    !! {st['mismatches']} clone(s) differ from their state (current player or history)")
        run_resample(states[:3], args.seed)  # warm-up
        best, median, st, times = repeated(args.repeat, run_resample, states, args.seed)
        if st["errors"]:
            out["resample"] = {"errors": len(st["errors"]), "error_samples": st["errors"][:3]}
            say(
                f"  resample(current seat,rng) !! raised in {len(st['errors'])} of {n} states, no figure; "
                f"first: {st['errors'][0]}"
            )
        else:
            out["resample"] = {
                "ms": 1e3 * best / n,
                "ms_median": 1e3 * median / n,
                "us_per_action_taken": 1e6 * best / acts,
                "runs_seconds": [round(t, 4) for t in times],
            }
            r = out["resample"]
            say(
                f"  resample(current seat,rng) {r['ms']:7.2f} ms ({r['ms_median']:.2f}) per call = "
                f"{r['us_per_action_taken']:.1f} µs per action applied so far (a clone + a re-deal)"
            )
    if "obs" in parts:
        obs: dict = {}
        run_obs_in_play(content, min(5, args.obs_games), args.players, args.seed)  # warm-up
        best, median, st, times = repeated(
            args.repeat, run_obs_in_play, content, args.obs_games, args.players, args.seed
        )
        obs["in_play"] = {
            "us": 1e6 * best / st["calls"],
            "us_median": 1e6 * median / st["calls"],
            "calls": st["calls"],
            "games": args.obs_games,
        }
        if states:
            run_obs_warm(states[:3], args.players)  # warm-up
            best, median, st, _ = repeated(args.repeat, run_obs_warm, states, args.players)
            obs["mid_game_warm"] = {
                "us": 1e6 * best / st["calls"],
                "us_median": 1e6 * median / st["calls"],
                "calls": st["calls"],
            }
            run_obs_cold(states[:3], args.players)  # warm-up
            best, median, st, _ = repeated(args.repeat, run_obs_cold, states, args.players)
            obs["mid_game_cold"] = {
                "us": 1e6 * best / st["calls"],
                "us_median": 1e6 * median / st["calls"],
                "calls": st["calls"],
            }
        out["observation"] = obs
        o = obs["in_play"]
        if not states:
            say("")
        say(
            f"  observation(seat), in play {o['us']:7.1f} µs ({o['us_median']:.1f}) per call: the acting seat's, "
            f"before every action of {args.obs_games} step-API games ({o['calls']:,} calls)"
        )
        if "mid_game_warm" in obs:
            o = obs["mid_game_warm"]
            say(
                f"  observation(seat), warm    {o['us']:7.1f} µs ({o['us_median']:.1f}) per call: every seat "
                "at the mid-game states, after a first call for that seat"
            )
            o = obs["mid_game_cold"]
            say(
                f"  observation(seat), cold    {o['us']:7.1f} µs ({o['us_median']:.1f}) per call: the first "
                "call for each seat on a fresh clone (history projected from the whole log)"
            )

    # --- UNO
    uno = None
    if "uno" in parts:
        say("")
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
                udt, umed, ust, utimes = repeated(args.repeat, run_uno, args.uno_games, args.uno_players, args.seed)
                uno = {
                    "rlcard": rlcard_version(),
                    "games": args.uno_games,
                    "players": args.uno_players,
                    "seconds": round(udt, 4),
                    "median_seconds": round(umed, 4),
                    "runs_seconds": [round(t, 4) for t in utimes],
                    "level": "game (rlcard.games.uno.game.UnoGame), not env",
                    "games_per_s": args.uno_games / udt,
                    "decisions_per_s": ust["decisions"] / udt,
                    "decisions_per_s_median": ust["decisions"] / umed,
                    "decisions_per_game": ust["decisions"] / args.uno_games,
                    "capped_games": ust["capped"],
                    "errors": len(ust["errors"]),
                    "error_samples": ust["errors"][:3],
                }
                out["uno"] = uno
                say(
                    f"UNO  rlcard {uno['rlcard']}, {args.uno_games} games x {args.uno_players} players, "
                    f"uniformly random legal actions, numpy RNG seeded {args.seed}"
                )
                say(
                    "     game level (UnoGame: init_game/step/is_over, legal actions as step() returns them), "
                    "not rlcard.make('uno'):"
                )
                say("     the env adds a numpy observation encoding per step and Game.run has none, so the game")
                say("     level is the like-for-like comparison. A decision = one step() (one action chosen).")
                say(f"  time            {udt:.3f} s   (runs: {_runs(utimes)})")
                say(f"  games/s         {uno['games_per_s']:,.1f}")
                say(f"  decisions/s     {uno['decisions_per_s']:,.0f} ({uno['decisions_per_s_median']:,.0f})")
                say(f"  decisions/game  {uno['decisions_per_game']:.1f}")
                if ust["errors"] or ust["capped"]:
                    say(
                        f"  !! {len(ust['errors'])} game(s) raised, {ust['capped']} hit the {UNO_MAX_STEPS}-step cap"
                        + (f"; first: {ust['errors'][0]}" if ust["errors"] else "")
                    )

        # --- ratio
        say("")
        out["ratio"] = None
        if uno is not None and "run" in results:
            fs = results["run"]
            ratio = fs["decisions_per_s"] / uno["decisions_per_s"]
            out["ratio"] = ratio
            say(
                f"ratio  fengsheng Game.run decisions/s / UNO step() decisions/s = {fs['decisions_per_s']:,.0f} / "
                f"{uno['decisions_per_s']:,.0f} = {ratio:.3f}   (not the goal's figure: bench/peers.py "
                "prints that, against UNO's rules alone)"
            )
        if uno is not None and "driver" in results:
            out["ratio_driver"] = results["driver"]["decisions_per_s"] / uno["decisions_per_s"]
            say(
                (
                    "       the same with step.drive(): "
                    if "run" in results
                    else "ratio  fengsheng step.drive() decisions/s / UNO decisions/s = "
                )
                + f"{results['driver']['decisions_per_s']:,.0f} / {uno['decisions_per_s']:,.0f} = "
                f"{out['ratio_driver']:.3f}"
            )
        if uno is None or not ({"run", "driver"} & set(results)):
            say("ratio  n/a (" + ("no UNO numbers" if uno is None else "neither the run nor the driver part ran") + ")")

    # --- profile
    if args.profile:
        text, rows = profile_part(content, args, args.profile)
        out["profile_part"] = args.profile
        out["profile_top25_tottime"] = rows
        say("")
        say(
            f"profile  cProfile of one untimed pass of the {args.profile} part ({args.profile_games} games), "
            "top 25 by tottime"
        )
        say(text.rstrip())

    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
