"""bench/peers.py runs end to end and says how it ran (a subprocess: it pins its CPU and sets up the collector)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _peers(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(ROOT / "bench" / "peers.py"), "--players", "5", "--games", "3", "--repeat", "1"]
    return subprocess.run([*cmd, "--peer-games", "3", *args], capture_output=True, text=True, timeout=120, check=False)


# the game driver's run in the slow run: every day test_conformance plays the same games through every driver
@pytest.mark.parametrize("driver", ["batch", pytest.param("game", marks=pytest.mark.slow)])
def test_peers_plays_the_same_games_whichever_driver_answers(driver: str) -> None:
    done = _peers("--json", "--driver", driver, "--gc", "default")
    assert done.returncode == 0, done.stderr
    body, _, last = done.stdout.rstrip().rpartition("\n")
    out = json.loads(body)
    assert out["driver"] == driver and out["gc"] == "default"
    # the batch driver's draw from the agent's generator is act()'s draw: the same games, the same answers
    assert out["fengsheng"]["5"]["all_roles"]["decisions"] == _decisions_of_three_games()  # one run of games 1-3
    assert last.startswith("ratio ")


def _decisions_of_three_games() -> int:
    from interpreter.agents import RandomAgent
    from interpreter.content.loader import load_cached
    from interpreter.engine.step import drive

    content = load_cached()
    return sum(len(drive(content, 5, s, [RandomAgent(s * 100 + i) for i in range(5)]).decision_log) for s in (1, 2, 3))
