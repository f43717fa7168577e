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


def _fork(tmp_path, rules: str):
    """A pack `fork` over the base game in tmp_path whose pack.yaml has `rules` (YAML under `rules:`)."""
    fork = tmp_path / "fork"
    fork.mkdir()
    (fork / "pack.yaml").write_text(f"id: fork\nname: 分支\nextends: [base]\nrules:\n{rules}", encoding="utf-8")
    return fork


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


def test_a_misspelt_rule_skill_answer_is_matched_among_the_rules_skills_too(tmp_path):
    """`skill 换排` at a seat whose role has one skill (白昆山's 毒计) was hinted "did you mean skill 毒计?" — a role's
    only skill is taken for any misspelling of it — though the rules give every seat 换牌; the message now lists the
    rules' skills beside the role's."""
    skill = "{id: fork_huan_pai, name: 换牌, kind: active, timing: play_phase, effect: 'draw(self, 1)'}"
    _fork(tmp_path, f"  skills:\n    - {skill}\n")
    f = tmp_path / "x.scenario.yaml"
    text = textwrap.dedent(SCENARIO % "hand: []").replace("name: 换牌\n", "name: 换牌\ncontent: [fork]\n")
    text = text.replace("- {identity: qian_fu_zhan_xian,", "- {identity: qian_fu_zhan_xian, role: bai_kun_shan,")
    f.write_text(text.replace('0: [pass, "#27"', '0: [skill 换排, pass, "#27"'), encoding="utf-8")
    out = fengsheng("scenario", "run", f).output
    assert (
        "answers.0: 'skill 换排' names no skill of any role of the content (nor of its rules) (P0's role 白昆山 has: "
        "毒计; the rules: 换牌); did you mean skill 换牌?"
    ) in out, out


def test_a_rule_skills_wrong_value_is_told_once_not_also_as_missing(tmp_path):
    """`limit: {per: turns}` in a pack's rule skill was E113 (unknown per, did you mean turn?) and E112 "missing key
    'per'" at the same place: the wrong value, taken out, was then missing from the merged rules. A role's file said
    the E113 alone."""
    from interpreter.content.loader import ContentErrors, load_content
    from interpreter.content.packs import resolve_packs

    fork = _fork(
        tmp_path,
        "  skills:\n    - id: fork_a\n      name: 甲\n"
        "      kind: active\n      timing: play_phase\n      limit: {per: turns}\n      effect: draw(self, 1)\n",
    )
    with pytest.raises(ContentErrors) as e:
        load_content(resolve_packs([fork], ["none"]))
    assert [(x.code, x.line, x.message) for x in e.value.errors] == [("E113", 10, "unknown per 'turns'")], [
        str(x) for x in e.value.errors
    ]


def test_a_rule_skill_added_or_replaced_without_its_id_is_told_not_left_out(tmp_path):
    """A pack's `rules: skills: {replace: [...], add: [...]}` item written without `id:` was left out without a word
    (a pack's rules are checked without their required keys, and the edit skipped what had no id): the house rule
    was simply not there. E112 at the item now; an id of the wrong type is told once, as before (E113)."""
    from interpreter.content.loader import ContentErrors, load_content
    from interpreter.content.packs import resolve_packs

    skill = "{name: 换牌, kind: active, timing: play_phase, effect: 'draw(self, 1)'}"
    numbered = skill.replace("{", "{id: 5, ")
    fork = _fork(tmp_path, f"  skills:\n    add:\n      - {skill}\n    replace:\n      - {numbered}\n")
    with pytest.raises(ContentErrors) as e:
        load_content(resolve_packs([fork], ["none"]))
    got = [(x.code, x.line, x.message, x.hint) for x in e.value.errors]
    assert got == [
        ("E113", 9, "5 should be string", "pinyin snake_case id, e.g. li_ning_yu"),
        (
            "E112",
            7,
            "missing key 'id': pack 'fork' adds the rule skill 换牌 without its id",
            "give it an id no skill has, e.g. fork_…",
        ),
    ], got
