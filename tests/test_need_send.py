"""你需要传出情报时 (timing need_send) and send_instead(p): docs/rulings.md R54.

The scenarios (tests/scenarios/rules_send_instead_*, rules_need_send_*, role_han_mei_xue_yuan_ruling_mi_ling_*)
show the rule; these check what validate says of a need_send skill that never sends.
"""

from __future__ import annotations

from pathlib import Path

from interpreter.content.loader import BUNDLED_CONTENT, validate_paths

RULINGS_PACK = Path(__file__).parent / "fixtures" / "rulings_pack"

SILENT = """\
id: demo_silent
name: 测试无声
title: 测试用
gender: male
hidden: false
skills:
  - id: demo_silence
    name: 无声
    text: 你需要传出情报时，可以摸一张牌。
    kind: active
    timing: need_send
    effect: |
      draw(self, 1)
"""


def test_a_need_send_skill_that_never_sends_is_warned_of(tmp_path):
    (tmp_path / "roles").mkdir()
    (tmp_path / "roles" / "demo_silent.yaml").write_text(SILENT, encoding="utf-8")
    found = validate_paths([BUNDLED_CONTENT, tmp_path])
    assert [(e.code, e.level) for e in found] == [("W502", "warning")]
    assert "is used at need_send, instead of sending an intel" in found[0].message
    assert found[0].path.endswith("demo_silent.yaml") and found[0].line == 13


def test_need_send_skills_that_send_are_not_warned_of():
    assert validate_paths([BUNDLED_CONTENT, RULINGS_PACK]) == []
