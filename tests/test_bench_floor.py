"""bench/floor.py: the heuristic games replayed from their answers alone end as they did, and the script says so."""

from __future__ import annotations

import subprocess
import sys

import pytest
from bench_scripts import ROOT, load_bench

from interpreter.content.loader import load_cached
from interpreter.sim import game_seed

floor = load_bench("floor")


def test_a_replay_of_the_answers_alone_plays_the_heuristic_games_again() -> None:
    content = load_cached()
    seeds = [game_seed(1, i) for i in range(3)]
    spent, games = floor.heuristic(content, 5, seeds)
    assert spent > 0 and len(games) == 3
    for answers, asked, winners, log in games:
        assert answers and asked >= len(answers) and winners and log  # (forced choices are asked, not answered)
    # the same decisions, the same winners and, with the log kept, the same log record for record (checked inside)
    assert floor.replay(content, 5, seeds, games, True) > 0
    assert floor.replay(content, 5, seeds, games, False) > 0
    # another answer somewhere is another game: refused, not timed as if it were the same
    answers, asked, winners, log = games[0]
    changed = [*answers]
    at = next(i for i, a in enumerate(changed) if a > 0)
    changed[at] = 0
    with pytest.raises((SystemExit, IndexError)):
        floor.replay(content, 5, seeds[:1], [(changed, asked, winners, log)], True)


def test_floor_prints_the_three_costs_and_its_last_line() -> None:
    cmd = [sys.executable, str(ROOT / "bench" / "floor.py"), "--games", "2", "--rounds", "1"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for name in ("heuristic", "replay, log kept", "replay, no log"):
        assert f"  {name} " in out
    assert out.rstrip().rpartition("\n")[2].startswith("floor ")
