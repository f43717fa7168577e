#!/usr/bin/env python
"""What sensible play costs: µs per decision of each kind of bot, and games per CPU second of a heuristic sweep.

    python bench/bots.py [--players 5] [--games 200] [--search-games 2] [--search search:8:paired] [--seed 1]
    python bench/bots.py --kinds heuristic --games 100 --profile     # cProfile the heuristic games, top 30

One process, the CPU clock (``time.process_time``: this machine is shared, and elapsed time counts the others'
turns), content loading and one untimed game never timed. Every game is played as ``simulate``'s batches play it
(``sim.batch.drive``: game seeds ``game_seed(seed, i)``, each agent seeded from its game's seed, a random bot's
seats answered by the batch's own draws, the collector set up as a batch sets it up: ``sim.batch_gc``, and
``after_game`` after each game, timed with it; ``--gc default`` for CPython's defaults), so ``--kinds heuristic
--games 200 --seed 1`` plays the very games of ``fengsheng simulate -p 5 -n 200 --seed 1 --agents heuristic``.
The first line says which build it measures (compiled, or pure Python) and where the engine's core comes from.

For ``random`` and ``heuristic`` every seat is that kind: it prints games per CPU second (the figure of a sweep of
that kind at that table size, a default ``balance`` sweep being the heuristic one) and µs per decision (the game's CPU
time, engine and observations included, over the decisions its agents answered; nothing timed inside the games, as in
a sweep), and for a bot that observes also the part spent in the agent itself (its ``act``, timed around each call in
a second pass of the same games: the clock's calls cost about 1.4 µs a decision). For ``search`` the first seat is the
search bot (``--search``, a spec as ``simulate --agents`` takes it) and the others heuristic bots; it prints CPU
seconds per game and µs per decision of the search seat (its ``search`` calls, timed), and how many decisions a game
it searched (those it kept statistics of: ``search:N:paired`` searches only the kinds that carry the game) and ms per
searched decision. The last line is ``heuristic G games/s`` (the sweep's figure) for a script to read.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import importlib.machinery
import pstats
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.content.loader import load_cached
from interpreter.engine import core
from interpreter.sim import after_game, batch_gc, game_seed, make_agents
from interpreter.sim.batch import drive


class Timed:
    """An agent whose ``act`` and ``search`` calls are timed (CPU); everything else is the agent's own."""

    def __init__(self, agent: Any) -> None:
        self.__dict__["_agent"] = agent
        self.__dict__["spent"] = 0.0
        self.__dict__["calls"] = 0
        for flag in ("observes", "searches", "referee", "hears_end"):  # (read at every decision: no __getattr__ then)
            self.__dict__[flag] = getattr(agent, flag)
        # the fields it reads, if it says (an older checkout's agents do not: compared in bench/README.md)
        self.__dict__["observation_fields"] = getattr(agent, "observation_fields", None)
        self.__dict__["searched"] = 0  # search calls that searched (a search bot's ``last`` statistics set)
        self.__dict__["searched_spent"] = 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._agent, name)

    def act(self, obs: Any, actions: Any) -> Any:
        t = time.process_time()
        try:
            return self._agent.act(obs, actions)
        finally:
            self.__dict__["spent"] += time.process_time() - t
            self.__dict__["calls"] += 1

    def search(self, obs: Any, actions: Any, world: Any) -> Any:
        t = time.process_time()
        try:
            return self._agent.search(obs, actions, world)
        finally:
            took = time.process_time() - t
            self.__dict__["spent"] += took
            self.__dict__["calls"] += 1
            if getattr(self._agent, "last", None):  # (its statistics of this decision: it searched it)
                self.__dict__["searched"] += 1
                self.__dict__["searched_spent"] += took


def play(
    content: Any, kinds: tuple[str, ...], seeds: list[int], timed: set[int], between: Any = None
) -> tuple[float, int, float, int, float, int]:
    """Play the games; (CPU seconds, decisions answered, CPU seconds in the timed seats' agents, their calls, and of
    those the CPU seconds and number of the decisions a search bot searched).
    `between`: called after each game, timed with it (the batch's collection of the finished game)."""
    spent, decisions, in_agents, calls, in_searched, searched = 0.0, 0, 0.0, 0, 0.0, 0
    for gseed in seeds:
        agents = make_agents(kinds, gseed, content)
        wrapped = [Timed(a) if s in timed else a for s, a in enumerate(agents)]
        t = time.process_time()
        game = drive(content, len(kinds), gseed, wrapped)
        decisions += len(game.actions_taken) or game.decision_count
        if hasattr(game, "close"):  # (as a batch does once it has read the game; an older checkout has none)
            game.close()
        del game
        if between is not None:
            between()
        spent += time.process_time() - t
        for s in timed:
            in_agents += wrapped[s].spent
            calls += wrapped[s].calls
            in_searched += wrapped[s].searched_spent
            searched += wrapped[s].searched
    return spent, decisions, in_agents, calls, in_searched, searched


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=200, help="games of each of random and heuristic")
    ap.add_argument("--search-games", type=int, default=2)
    ap.add_argument("--search", default="search:8:paired", help="the search bot's spec")
    ap.add_argument("--kinds", default="random,heuristic,search")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="cProfile the heuristic games (untimed figures)")
    ap.add_argument(
        "--gc",
        choices=("batch", "default"),
        default="batch",
        help="batch: the collector set up as a batch sets it up (sim.batch_gc, after_game after each game; the "
        "default); default: CPython's defaults",
    )
    args = ap.parse_args()

    def collector() -> contextlib.AbstractContextManager[object]:
        """The collector as the games are played under it: a batch's (the default), or CPython's own."""
        return batch_gc() if args.gc == "batch" else contextlib.nullcontext()

    content = load_cached()
    compiled = core.__file__ is not None and core.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    print(f"build: {'compiled' if compiled else 'pure Python'} ({core.__file__})")
    n = args.players
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    last = None
    for kind in kinds:
        if kind == "search":
            table: tuple[str, ...] = (args.search, *(["heuristic"] * (n - 1)))
            count, timed = args.search_games, {0}
        else:
            table, count, timed = (kind,) * n, args.games, (set(range(n)) if kind != "random" else set())
        if args.profile:
            timed = set()  # (the profiler makes the clock's calls costly)
        play(content, table, [game_seed(args.seed + 1, 0)], set())  # warm-up, untimed
        seeds = [game_seed(args.seed, i) for i in range(count)]
        if args.profile and kind == "heuristic":
            prof = cProfile.Profile()
            prof.enable()
        between = after_game if args.gc == "batch" else None
        # A sweep times nothing: the games per CPU second are played without the clock's calls around each bot's
        # (two a decision, about 1.4 µs with the wrapper's own frame: 5% of a compiled decision); the bot's part
        # is timed in a second pass of the same games. A search seat is timed in its one pass (its figures are its
        # own calls).
        twice = kind != "search" and bool(timed)
        with collector():
            spent, decisions, in_agents, calls, in_searched, searched = play(
                content, table, seeds, set() if twice else timed, between
            )
        if twice:
            with collector():
                _s, _d, in_agents, calls, _i, _n = play(content, table, seeds, timed, between)
        if args.profile and kind == "heuristic":
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        if kind == "search":
            print(
                f"{args.search:<18} {count} games ({n} seats, the others heuristic): {spent / count:.2f} CPU s a game,"
                f" {in_agents / max(calls, 1) * 1e6:,.0f} µs per decision it was asked ({calls} decisions);"
                f" {searched / count:.1f} searched a game, {in_searched / max(searched, 1) * 1e3:,.1f} ms each"
            )
            continue
        line = (
            f"{kind:<18} {count} games, {decisions} decisions: {count / spent:,.1f} games/s,"
            f" {spent / decisions * 1e6:,.1f} µs per decision"
        )
        if timed:
            line += f" (of which in the bot {in_agents / max(calls, 1) * 1e6:,.1f})"
        print(line)
        if kind == "heuristic":
            last = count / spent
    if last is not None:
        print(f"heuristic {last:.2f} games/s")


if __name__ == "__main__":
    main()
