"""Scenario files and the zones the rules declare (interpreter/scenario_zones.py): a seat's `zones:` and the
scenario's own `zones:` set them up, `expect` checks them, and a slip is said at its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.scenario import run_scenario

PACK = Path(__file__).parents[1] / "examples" / "san_guo_more"
OVERFLOW = PACK / "tests" / "role_ren_jun_bu_shi_overflow.scenario.yaml"


def _run_changed(tmp_path: Path, old: str, new: str):
    text = OVERFLOW.read_text(encoding="utf-8").replace("content: [..]", f"content: [{PACK}]")
    assert old in text, old
    f = tmp_path / OVERFLOW.name
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    return run_scenario(f, allow_outside=True)


def test_the_zones_set_up_and_expected_pass():
    result = run_scenario(OVERFLOW)
    assert result.passed, result.report()


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        # the end state differs: the expectation fails, naming the zone and both lists
        ("仁区: [2, 3, 4, 5, 40, 35]", "仁区: [1, 2, 3, 4, 5, 35]", "zone 仁区: expected [1, 2, 3, 4, 5, 35]"),
        # a zone the rules do not declare, at setup and at the end, with the closest name
        ("  仁区: [1, 2, 3, 4, 5]", "  仁曲: [1, 2, 3, 4, 5]", "no zone '仁曲'"),
        ("    仁区: [2, 3, 4, 5, 40, 35]", "    仁曲: [2]", "the rules declare no such zone"),
        # a card that is already somewhere else (a hand)
        ("  仁区: [1, 2, 3, 4, 5]", "  仁区: [1, 27]", "card #27 is already placed"),
        # more cards than the zone holds
        ("  仁区: [1, 2, 3, 4, 5]", "  仁区: [1, 2, 3, 4, 5, 6, 7]", "holds at most 6 cards, 7 given"),
        # a shared zone set in a seat's zones
        ("    face_up: true\n", "    face_up: true\n    zones: {仁区: [9]}\n", "zone '仁区' is the table's"),
    ],
)
def test_a_zone_slip_fails_the_scenario_at_its_line(tmp_path, old, new, said):
    result = _run_changed(tmp_path, old, new)
    assert not result.passed
    report = result.report()
    assert said in report, report
    assert f"{OVERFLOW.name}:" in report  # file:line:col
