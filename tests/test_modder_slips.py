"""Slips a modder made writing a house-rules fork of his own from an installed fengsheng (rule skills, a counter, a
scenario for each), each reported where it was made with what to write instead."""

from __future__ import annotations

import textwrap

import pytest

from conftest import fengsheng

SCENARIO = """\
name: 换牌
players:
  - {identity: qian_fu_zhan_xian, hand: [27]}
  - {identity: te_gong_ji_guan}
current: 0
start: play
answers:
  0: [pass, "#27", accept]
  1: [decline]
expect:
  players:
    0: {intel: [27], %s}
"""


@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("used: {jia_fa_huan_pai: 1}", "`used` is part of the state (the uses made before the scenario starts)"),
        ("statuses: [must_receive]", "`statuses` is part of the state"),
        ("face_up: true", "the expectation is `role_face_up`; `face_up` is the state's key"),
    ],
)
def test_a_state_key_written_under_expect_says_where_it_goes(tmp_path, key, says):
    """A seat's `used:` (a rule skill's uses this turn) written under `expect: players:` was E111 "did you mean
    asked?", which sent the modder further astray; the other way round (an expectation in the state) said where."""
    f = tmp_path / "x.scenario.yaml"
    f.write_text(textwrap.dedent(SCENARIO % key), encoding="utf-8")
    out = fengsheng("scenario", "run", f).output
    assert "error E111: unknown key" in out and says in out and "did you mean" not in out, out


def test_answers_written_under_expect_say_they_go_beside_it(tmp_path):
    f = tmp_path / "x.scenario.yaml"
    text = textwrap.dedent(SCENARIO % "hand: []").replace("expect:\n", "expect:\n  answers: {0: [pass]}\n")
    f.write_text(text, encoding="utf-8")
    out = fengsheng("scenario", "run", f).output
    assert "`answers` is part of the scenario, not an expectation: write it at the top, beside `expect:`" in out, out
