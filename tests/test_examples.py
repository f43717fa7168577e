"""The example packs in examples/ (docs/modding.md): each validates, passes its scenarios and plays cleanly.

Each is a short pack that extends the base game; CI plays 1,000 games of each (slow), the
everyday run 30 at two player counts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main

EXAMPLES = sorted(p for p in (Path(__file__).parents[1] / "examples").iterdir() if (p / "pack.yaml").is_file())


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("pack", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_the_example_validates_and_passes_its_scenarios(pack):
    r = run("validate", pack)
    assert r.exit_code == 0, r.output
    r = run("scenario", "run", pack / "tests")
    assert r.exit_code == 0 and " 0 failed" in r.output, r.output


# What `pack diff base PACK` says of the examples whose whole change is in the rules.
DIFFS = {
    "extra_phase": [
        "rules turn: [draw 摸牌阶段, play 出牌阶段, send 传递阶段, contest 争夺阶段, receive 接收阶段] → "
        "[draw 摸牌阶段, play 出牌阶段, send 传递阶段, contest 争夺阶段, receive 接收阶段, play_2 出牌阶段]"
    ],
    "stack_timing": ["rules resolution: queued → stack"],
    # the house rules: four switches, one phase's setting, two deck transforms (their copies counted from the
    # base deck: 77 of 118 copies are printed without the lock, 41 with ←)
    "house_rules": [
        "rules hand_limit: none → 4",
        "rules first_turn_skip: [] → [draw]",
        "rules send_arrows: [up, left, right] → [up, right]",
        "rules turn: [draw 摸牌阶段, play 出牌阶段, send 传递阶段, contest 争夺阶段, receive 接收阶段] → "
        "[draw 摸牌阶段, play 出牌阶段, send 传递阶段, contest 争夺阶段 (rounds 2), receive 接收阶段]",
        "77 copies: lockable false → true",
        "41 copies: direction left → right",
    ],
    # two rule skills, every seat's: nothing else changes
    "rule_skills": [
        "+ rule skill 黑报 (jia_gui_hei_bao, pack rule_skills)",
        "+ rule skill 换牌 (jia_gui_huan_pai, pack rule_skills)",
    ],
}


@pytest.mark.parametrize("name", sorted(DIFFS))
def test_pack_diff_shows_exactly_what_the_example_changes(name):
    r = run("pack", "diff", "base", Path(__file__).parents[1] / "examples" / name)
    assert r.exit_code == 1, r.output
    assert [ln.strip() for ln in r.output.splitlines()[1:]] == DIFFS[name]


@pytest.mark.parametrize("pack", EXAMPLES, ids=[p.name for p in EXAMPLES])
@pytest.mark.parametrize("players", [5, 9])
def test_the_example_plays(pack, players):
    r = run("simulate", "-n", 8, "-p", players, "-j", 1, "-s", 1, "--content", pack)
    assert r.exit_code == 0, r.output


@pytest.mark.slow
@pytest.mark.parametrize("pack", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_the_example_plays_a_thousand_games(pack):
    for players in range(2, 11):
        r = run("simulate", "-n", 1000 // 9 + 1, "-p", players, "--content", pack, "-s", players)
        assert r.exit_code == 0, r.output
