#!/usr/bin/env python
"""What the engine alone costs for the very games of a heuristic sweep: the floor under bench/bots.py's figure.

    python bench/floor.py [--players 5] [--games 200] [--seed 1] [--rounds 3]

Plays the heuristic games of ``python bench/bots.py --kinds heuristic`` (``simulate -p N -n G --seed S --agents
heuristic``'s games, as a batch plays them: ``sim.batch.drive``, the batch's collector, ``Game.close`` and
``after_game`` after each), keeping each game's answers (``Game.decision_log``: the option index of every decision
asked). Then it plays the same games again with nobody seated: ``game.decide`` hands back the recorded answers in
turn, so no observation, no action descriptor and no bot is made, only the engine's rules (and, with the log kept,
the records an observation would read: ``record``). Every replay must end as its game did (the same number of
decisions and answers, the same winners and, with the log kept, the same log); the script stops otherwise.

It prints, on the CPU clock, CPU ms a game of the heuristic games and of their replays with the log kept and
without, and the share of the heuristic game the replay is: how much a faster bot and observation could win at
most, the engine's rules unchanged. Rounds alternate the three (``--rounds``), each figure the median. Issue 27
item 4 asks 10x ff65e4e's games per CPU second compiled: out of reach while the floor alone costs more than a tenth
of ff65e4e's compiled heuristic game (bench/README.md, the tenth round).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.content.loader import load_cached
from interpreter.engine import core
from interpreter.engine.game import Game
from interpreter.sim import after_game, batch_gc, game_seed, make_agents
from interpreter.sim.batch import drive


class Replayed:
    """``game.decide`` that answers each decision with the next recorded option index."""

    def __init__(self, answers: list[int]) -> None:
        self.answers = answers
        self.at = 0

    def __call__(self, decision: Any) -> int:
        i = self.at
        self.at = i + 1
        return self.answers[i]


def heuristic(content: Any, n: int, seeds: list[int]) -> tuple[float, list[tuple[Any, ...]]]:
    """CPU seconds of the heuristic games, and each game's (answers, decisions asked, winners, log)."""
    spent, kept = 0.0, []
    for gseed in seeds:
        agents = make_agents(("heuristic",) * n, gseed, content)
        t = time.process_time()
        game = drive(content, n, gseed, agents)
        end = (list(game.decision_log), game.decision_count, _winners(game), list(game.log))
        game.close()
        del game
        after_game()
        spent += time.process_time() - t
        kept.append(end)
    return spent, kept


def replay(content: Any, n: int, seeds: list[int], games: list[tuple[Any, ...]], record: bool) -> float:
    """CPU seconds of the same games replayed from their answers (`record`: the log kept), each checked."""
    spent = 0.0
    for gseed, (answers, asked, winners, log) in zip(seeds, games, strict=True):
        t = time.process_time()
        game = Game(content, n, gseed, [None] * n, record=record)
        game.decide = Replayed(answers)
        game.run()
        end = (game.decision_count, _winners(game), game.log if record else None)
        game.close()
        del game
        after_game()
        spent += time.process_time() - t
        if end != (asked, winners, log if record else None):
            raise SystemExit(f"game {gseed}: the replay did not end as the game did")
    return spent


def _winners(game: Any) -> tuple[int, ...]:
    return tuple(p.seat for p in game.result.winners) if game.result is not None else ()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    content = load_cached()
    compiled = core.__file__ is not None and core.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    print(f"build: {'compiled' if compiled else 'pure Python'} ({core.__file__})")
    n, count = args.players, args.games
    seeds = [game_seed(args.seed, i) for i in range(count)]
    heuristic(content, n, [game_seed(args.seed + 1, 0)])  # warm-up, untimed
    figures: dict[str, list[float]] = {"heuristic": [], "replay, log kept": [], "replay, no log": []}
    games: list[tuple[Any, ...]] = []
    with batch_gc():
        for _ in range(args.rounds):
            spent, games = heuristic(content, n, seeds)
            figures["heuristic"].append(spent)
            figures["replay, log kept"].append(replay(content, n, seeds, games, True))
            figures["replay, no log"].append(replay(content, n, seeds, games, False))
    decisions = sum(asked for _a, asked, _w, _l in games)
    whole = statistics.median(figures["heuristic"])
    print(f"{count} games of {n} players, {decisions} decisions, median of {args.rounds} rounds alternated:")
    for name, runs in figures.items():
        m = statistics.median(runs)
        print(
            f"  {name:<17} {m / count * 1e3:7.2f} CPU ms a game, {count / m:7.1f} games/s"
            f" ({m / decisions * 1e6:5.1f} µs a decision; {m / whole:5.1%} of the heuristic game)"
        )
    print(f"floor {statistics.median(figures['replay, log kept']) / count * 1e3:.3f} ms a game")


if __name__ == "__main__":
    main()
