"""The mistakes a new designer makes, and what `validate` tells him (issue 14, item 8; docs/errors.md).

Each row is a role skill with one mistake in it: the line of the role file that holds the mistake,
the code, line and column reported, and a word the hint must contain. The role is checked as a
pack of its own over the bundled game (as `fengsheng validate PACK` does), so card names resolve.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from interpreter.cli import main

HEAD = "id: ce_shi\nname: 测试\ntitle: 新手\ngender: male\nhidden: true\nskills:\n"
ACTIVE = "  - id: yi\n    name: 一\n    text: 测试。\n    kind: active\n    timing: play_phase\n"
TRIGGERED = "  - id: yi\n    name: 一\n    text: 测试。\n    kind: triggered\n    trigger: received\n"
MOMENTS = (
    "  - id: yi\n    name: 一\n    text: 测试。\n    moments:\n      - {kind: active, timing: play_phase}\n"
    "      - {kind: triggered, trigger: received}\n"
)
# the skill starts at line 7; `kind` is line 10, `timing`/`trigger` line 11, what a row adds from line 12
# (MOMENTS: `moments:` line 10, its two moments lines 11 and 12, what a row adds from line 13)


def check(tmp_path: Path, skill: str) -> list:
    role = tmp_path / "pack" / "roles" / "ce_shi.yaml"
    role.parent.mkdir(parents=True)
    role.write_text(HEAD + skill, encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", "--format", "json", "--expansions", "none", str(role.parent.parent)])
    assert r.exit_code in (0, 1), r.output
    found = json.loads(r.stdout)
    return [SimpleNamespace(**e) for e in (found["errors"] if isinstance(found, dict) else found)]


ROWS = [
    # (what, the skill, [(code, line, col, a word of the hint)])
    (
        "misspelt trigger",
        TRIGGERED.replace("received", "recieved") + "    effect: draw(self, 1)\n",
        [("E113", 11, 14, "did you mean received?")],
    ),
    (
        "misspelt timing",
        ACTIVE.replace("play_phase", "play_phse") + "    effect: draw(self, 1)\n",
        [("E113", 11, 13, "did you mean play_phase?")],
    ),
    (
        "misspelt trigger in a list",
        TRIGGERED.replace("received", "[received, colect]") + "    effect: draw(self, 1)\n",
        [("E113", 11, 25, "did you mean collect?")],
    ),
    (
        "misspelt trigger: the rest of the skill is still checked",
        TRIGGERED.replace("received", "recieved") + "    effect: draw(slef, 1)\n",
        [("E113", 11, 14, "did you mean received?"), ("E301", 12, 18, "did you mean self?")],
    ),
    (
        "misspelt limit scope",
        ACTIVE + "    limit: {per: tern}\n    effect: draw(self, 1)\n",
        [("E113", 12, 18, "did you mean turn?")],
    ),
    (
        "misspelt victory check",
        "  - id: yi\n    name: 一\n    text: 测试。\n    kind: victory\n    check: declar\n    effect: win(self)\n",
        [("E113", 11, 12, "did you mean declare?")],
    ),
    (
        "misspelt skill kind",
        ACTIVE.replace("kind: active", "kind: activ") + "    effect: draw(self, 1)\n",
        [("E113", 10, 11, "did you mean active?")],
    ),
    (
        "misspelt key",
        ACTIVE + "    efect: draw(self, 1)\n",
        [("E111", 12, 5, "did you mean effect?")],
    ),
    ("= for ==", TRIGGERED + "    condition: subject = self\n", [("E201", 12, 24, "write `==`")]),
    ("&& for and", ACTIVE + "    condition: true && true\n", [("E201", 12, 21, "write `and`")]),
    ("|| for or", ACTIVE + "    condition: true || true\n", [("E201", 12, 21, "write `or`")]),
    ("<> for !=", ACTIVE + "    condition: count(hand(self)) <> 0\n", [("E201", 12, 35, "write `!=`")]),
    ("! for not", ACTIVE + "    condition: '!any_of(hand(self))'\n", [("E201", 12, 17, "write `not`")]),
    ("True for true", ACTIVE + "    effect: if True { draw(self, 1) }\n", [("E301", 12, 16, "write `true`")]),
    ("None for none", ACTIVE + "    effect: if self == None { draw(self, 1) }\n", [("E301", 12, 24, "write `none`")]),
    (
        "a player has a colour",
        ACTIVE + "    condition: self has red\n",
        [("E302", 12, 16, "a player's identity colour is `identity_color(p) == red`")],
    ),
    (
        "yes for true in code",
        ACTIVE + "    effect: |\n      put_on_deck(hand(self), bottom: yes)\n",
        [("E301", 13, 39, "write `true`")],
    ),
    (
        "a number in quotes",
        ACTIVE + '    condition: count(hand(self)) >= "2"\n',
        [("E302", 12, 37, "a number is written without quotes: 2")],
    ),
    (
        "a misspelt yes/no",
        ACTIVE + "    optional: flase\n    effect: draw(self, 1)\n",
        [("E113", 12, 15, "did you mean false?")],
    ),
    ("yes for true", ACTIVE + "    flips_up: yes\n    effect: draw(self, 1)\n", [("E113", 12, 15, "true or false")]),
    ("a YAML yes/no for code", ACTIVE + "    condition: true\n", [("E113", 12, 16, "quotes")]),
    (
        "`: ` in a one-line effect",
        ACTIVE + "    effect: discard(choose(from: hand(self)))\n",
        [("E101", 12, 32, "`effect: |`")],
    ),
    (
        "else if for elif",
        ACTIVE + "    effect: |\n      if true { draw(self, 1) } else if true { draw(self, 2) }\n",
        [("E201", 13, 38, "write `elif`")],
    ),
    (
        "a card name like none of the game's lists them",
        ACTIVE + "    condition: any_of(hand(self) where name_of(it) == 【飞鸽传书】)\n    effect: draw(self, 1)\n",
        [("E305", 12, 55, "the card names: 【利诱】、【威逼】")],
    ),
    (
        "a while loop, which the language does not have",
        ACTIVE + "    effect: |\n      while hand_count(self) < 5 { draw(self, 1) }\n",
        [("E201", 13, 13, "`repeat N { … }`")],
    ),
    (
        "a while loop with its condition in brackets",
        ACTIVE + "    effect: |\n      while (true) { draw(self, 1) }\n",
        [("E201", 13, 20, "no `while`")],
    ),
    (
        "a card name without 【】",
        ACTIVE + "    effect: use_card(self, 截获)\n",
        [("E201", 12, 28, "【截获】")],
    ),
    (
        "single quotes",
        ACTIVE + "    effect: draw(self, 1, 'x')\n",
        [("E201", 12, 27, "double quotes")],
    ),
    (
        "has with a card name",
        ACTIVE + "    effect: |\n      if choose(from: hand(self)) has 【截获】 { draw(self, 1) }\n",
        [("E302", 13, 39, "name_of(it) == 【牌名】")],
    ),
    (
        "a misspelt status is E306",
        ACTIVE + "    effect: add_status(self, cannot_recieve)\n",
        [("E306", 12, 30, "did you mean cannot_receive?")],
    ),
    (
        "a misspelt status in quotes is E306",
        ACTIVE + '    effect: add_status(self, "cannot_recieve")\n',
        [("E306", 12, 30, "did you mean cannot_receive?")],
    ),
    ("misspelt primitive", ACTIVE + "    effect: darw(self, 1)\n", [("E301", 12, 13, "did you mean draw?")]),
    (
        "misspelt keyword argument",
        ACTIVE + '    effect: |\n      discard(choose(from: hand(self), promt: "弃"))\n',
        [("E303", 13, 40, "did you mean prompt?")],  # at the keyword, not its value
    ),
    ("len for count", ACTIVE + "    condition: len(hand(self)) > 0\n", [("E301", 12, 16, "count(...)")]),
    (
        "misspelt card name",
        ACTIVE + "    effect: discard(hand(self) where name_of(it) == 【截货】)\n",
        [("E305", 12, 53, "did you mean 截获?")],
    ),
    (
        "a context variable of another timing",
        ACTIVE + "    effect: draw(subject, 1)\n",
        [("E304", 12, 18, "")],
    ),
    (
        "an event the skill does not react to",
        TRIGGERED.replace("received", "[intel_sent, received]") + '    condition: event == "recieved"\n',
        [("E304", 12, 25, "did you mean received?")],
    ),
    (
        "`event` outside a triggered skill",
        ACTIVE + '    condition: event == "received"\n',
        [("E304", 12, 16, "")],
    ),
    (
        "a misspelt trigger in a moment: the shared effect is still checked, and reported once",
        MOMENTS.replace("received", "recieved") + "    effect: draw(slef, 1)\n",
        [("E113", 12, 36, "did you mean received?"), ("E301", 13, 18, "did you mean self?")],
    ),
    (
        "a kind on a skill with moments",
        MOMENTS.replace("    moments:", "    kind: active\n    moments:") + "    effect: draw(self, 1)\n",
        [("E114", 10, 5, "into the moment")],
    ),
    (
        "two moments at one timing",
        MOMENTS.replace("kind: triggered, trigger: received", "kind: active, timing: play_phase")
        + "    effect: draw(self, 1)\n",
        [("E114", 12, 9, "one moment per timing")],
    ),
    (
        "a passive moment",
        MOMENTS.replace("kind: triggered, trigger: received", "kind: passive") + "    effect: draw(self, 1)\n",
        [("E114", 12, 10, "optional: false")],
    ),
    (
        "a limit of the wrong shape",
        ACTIVE + "    limit: 3\n    effect: draw(self, 1)\n",
        [("E113", 12, 12, "{per: turn}")],
    ),
    (
        "two skills with one id",
        ACTIVE + "    effect: draw(self, 1)\n" + ACTIVE.replace("name: 一", "name: 二") + "    effect: draw(self, 2)\n",
        [("E120", 13, 9, "moments:")],
    ),
    (
        "a skill that is not a mapping",
        "  - 一：摸一张牌\n",
        [("E113", 7, 5, "a skill: id, name")],
    ),
    (
        "a full-width colon after a key: at the colon, not the line after",
        ACTIVE.replace("kind: active", "kind：active") + "    effect: draw(self, 1)\n",
        [("E101", 10, 9, "ASCII colon and a space: `kind: ...`")],
    ),
    (
        "a quoted text never closed: at its opening quote, not the end of the file",
        ACTIVE.replace("text: 测试。", 'text: "测试。') + "    effect: draw(self, 1)\n",
        [("E101", 9, 11, "same quote mark")],
    ),
    (
        "a [ list never closed: the hint says where it opens",
        TRIGGERED.replace("received", "[intel_sent, received") + "    effect: draw(self, 1)\n",
        [("E101", 12, 11, "the `[` at line 11, column 14")],
    ),
    (
        "an unquoted #word in a [ list: at the `#` that hides the `]`, not at the line after",
        TRIGGERED.replace("received", "[intel_sent, #received]") + "    effect: draw(self, 1)\n",
        [("E101", 11, 27, 'put it in quotes, "#received"')],
    ),
    (
        "a [ list never closed, a comment after it: the hint says where it opens",
        TRIGGERED.replace("received", "[intel_sent, received   # 两个时机") + "    effect: draw(self, 1)\n",
        [("E101", 12, 5, "the `[` at line 11, column 14 is not closed by `]` before this")],
    ),
    (
        "a rulings item over two lines, `: ` in its first: at that colon, not at the next key (line 16)",
        ACTIVE
        + "    effect: draw(self, 1)\nrulings:\n  - 若目标没有手牌: 仍然可以使用\n    并且摸一张牌。\n"
        + "expansion: 测试\n",
        [("E101", 14, 12, "whole text in quotes")],
    ),
    (
        "a rulings item over two lines, `: ` in its second",
        ACTIVE
        + "    effect: draw(self, 1)\nrulings:\n  - 情报面朝上时也可以使用，\n    注意: 不能翻开。\n"
        + "expansion: 测试\n",
        [("E101", 15, 7, "whole text in quotes")],
    ),
    (
        "a key without its colon: at its line, not at the next key",
        ACTIVE + "    effect draw(self, 1)\nexpansion: 测试\n",
        [("E101", 12, 5, "a key needs `: `")],
    ),
    (
        "two slips in one effect: both are reported",
        ACTIVE + "    effect: |\n      if true && true { draw(self, 1) }\n      if 1 = 1 { draw(self, 1) }\n",
        [("E201", 13, 15, "write `and`"), ("E201", 14, 12, "write `==`")],
    ),
]


@pytest.mark.parametrize(("what", "skill", "expected"), ROWS, ids=[r[0] for r in ROWS])
def test_a_designer_slip_is_reported_at_its_place_with_a_hint(tmp_path, what, skill, expected):
    errors = check(tmp_path, skill)
    got = [(e.code, e.line, e.col) for e in errors]
    assert got == [(code, line, col) for code, line, col, _ in expected], [str(e) for e in errors]
    for e, (*_, hint) in zip(errors, expected, strict=True):
        assert hint in (e.hint or ""), e


def test_a_misspelt_trigger_does_not_claim_the_trigger_is_missing(tmp_path):
    errors = check(tmp_path, TRIGGERED.replace("received", "recieved") + "    effect: draw(self, 1)\n")
    assert [e.code for e in errors] == ["E113"]
    assert errors[0].message == "unknown trigger 'recieved'"


def test_a_misspelt_required_key_is_one_error(tmp_path):
    role = tmp_path / "pack" / "roles" / "ce_shi.yaml"
    role.parent.mkdir(parents=True)
    role.write_text(HEAD.replace("hidden: true", "hiden: true") + ACTIVE + "    effect: draw(self, 1)\n", "utf-8")
    r = CliRunner().invoke(main, ["validate", "--format", "json", "--expansions", "none", str(role.parent.parent)])
    found = json.loads(r.stdout)
    errors = found["errors"] if isinstance(found, dict) else found
    assert [(e["code"], e["line"], e["col"], e["hint"]) for e in errors] == [("E111", 5, 1, "did you mean hidden?")]


def test_schema_errors_never_stop_the_rest_of_the_file(tmp_path):
    """One role file with a slip of each kind, in every skill: each is reported, at its place, with its code."""
    skills = (
        ACTIVE
        + "    limit: {per: tern}\n    effect: darw(self, 1)\n"  # 7-13: schema, then code
        + TRIGGERED.replace("id: yi", "id: er").replace("received", "recieved")
        + "    condition: subject = self\n"  # 14-19: misspelt trigger, = for ==
        + "  - id: san\n    name: 三\n    text: 测试。\n    kind: active\n    timing: play_phase\n"
        + "    efect: draw(self, 1)\n    condition: hand_count(slef) > 0\n"  # 20-26: unknown key, name
        + ACTIVE.replace("name: 一", "name: 四")
        + "    effect: add_status(self, cannot_recieve)\n"  # 27-32: E120, E306
    )
    errors = check(tmp_path, skills)
    got = sorted((e.line, e.code) for e in errors)
    assert got == [
        (12, "E113"),  # limit per
        (13, "E301"),  # darw
        (18, "E113"),  # trigger
        (19, "E201"),  # =
        (25, "E111"),  # efect
        (26, "E301"),  # slef
        (27, "E120"),  # id yi again
        (32, "E306"),  # status
    ], [str(e) for e in errors]
    hints = {e.line: e.hint or "" for e in errors}
    assert "did you mean turn?" in hints[12] and "did you mean draw?" in hints[13]
    assert "did you mean received?" in hints[18] and "`==`" in hints[19]
    assert "did you mean effect?" in hints[25] and "did you mean self?" in hints[26]
    assert "did you mean cannot_receive?" in hints[32]


def test_an_unquoted_deck_id_in_a_scenarios_answers_is_named_at_its_place(tmp_path, monkeypatch):
    """`[pass, #27]`: YAML reads `#27` as a comment, which hides the `]`; the error pointed at the next key
    (`expect:`) and spoke of the bracket only. It now points at the `#` and says to quote it (docs/scenarios.md)."""
    error = _one_error(
        tmp_path,
        monkeypatch,
        "name: x\nplayers:\n  - identity: qian_fu_zhan_xian\n    hand: [27]\n  - identity: te_gong_ji_guan\n"
        "current: 0\nstart: play\nanswers:\n  0: [pass, #27]\n  1: [accept]\nexpect:\n  players:\n"
        "    1: {intel: [27]}\n",
    )
    assert (error["code"], error["line"], error["col"]) == ("E101", 9, 13)
    assert 'put it in quotes, "#27", or write the number alone, 27' in error["hint"]
    fixed = (tmp_path / "x.scenario.yaml").read_text(encoding="utf-8").replace("#27]", '"#27"]')
    (tmp_path / "x.scenario.yaml").write_text(fixed, encoding="utf-8")
    assert CliRunner().invoke(main, ["scenario", "run", "x.scenario.yaml"]).exit_code == 0


def test_a_deck_id_inside_an_answer_unquoted_is_named_with_the_whole_answer_to_quote(tmp_path, monkeypatch):
    """`[use #41, P1, …]`: the space before `#` starts a comment there too, hiding the `]`; the hint spoke of the
    bracket only (the `#` was taken for a comment of its own). It now names the `#41` and the answer to quote."""
    error = _one_error(
        tmp_path,
        monkeypatch,
        "name: x\nplayers:\n  - identity: qian_fu_zhan_xian\n    hand: [41, 27]\n  - identity: te_gong_ji_guan\n"
        'current: 0\nstart: play\nanswers:\n  0: [use #41, P1, pass, "#27"]\n  1: [accept]\n',
    )
    assert (error["code"], error["line"], error["col"]) == ("E101", 9, 11)
    assert "`#41` in `use #41` starts a comment" in error["hint"]
    assert 'put the whole item in quotes, "use #41"' in error["hint"]


def test_an_expectation_written_in_the_state_says_where_it_goes_and_errors_come_in_line_order(tmp_path, monkeypatch):
    """`not_offered:` under a seat of `players:` (the state), `skills_fired:` at the top: expectations written
    outside `expect:`. The hint listed the state's keys; it now says where the key goes, with the seat's number.
    The file's errors are listed by line, as validate lists them (the schema gave them in its own order)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.scenario.yaml").write_text(
        "name: x\nplayers:\n  - identity: qian_fu_zhan_xian\n  - identity: te_gong_ji_guan\n"
        "    not_offered: [use 截获]\n    role_face_up: true\ncurrent: 0\nstart: play\nskills_fired: [视死]\n",
        encoding="utf-8",
    )
    r = CliRunner().invoke(main, ["scenario", "run", "x.scenario.yaml", "--format", "json"])
    assert r.exit_code == 1
    errors = json.loads(r.stdout)["files"][0]["errors"]
    assert [(e["code"], e["line"], e["col"]) for e in errors] == [("E111", 5, 5), ("E111", 6, 5), ("E111", 9, 1)]
    assert "an expectation" in errors[0]["hint"] and "under `expect: players: 1:`" in errors[0]["hint"]
    assert "the state's key is `face_up`" in errors[1]["hint"] and "`expect: players: 1:`" in errors[1]["hint"]
    assert errors[2]["hint"] == "`skills_fired` is an expectation: write it under `expect:`"


def test_a_folder_that_holds_no_pack_is_refused_where_it_is_named(tmp_path, monkeypatch):
    """A scenario one folder below its pack's tests/ with `content: [..]`, an empty folder to validate or play with:
    each loaded as an empty pack, silently, and the scenario then failed far from the cause ("no role of the content
    has a skill …"), validate said ok. Each is now refused at the name, with the pack nearest to it."""
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "mine"
    (pack / "roles").mkdir(parents=True)
    (pack / "pack.yaml").write_text("id: mine\nname: 我的\nextends: [base]\n", encoding="utf-8")
    deep = pack / "tests" / "deeper"
    deep.mkdir(parents=True)
    (deep / "x.scenario.yaml").write_text(SCENE.replace("name: x\n", "name: x\ncontent: [..]\n"), encoding="utf-8")
    r = CliRunner().invoke(main, ["scenario", "run", str(deep / "x.scenario.yaml"), "--format", "json"])
    assert r.exit_code == 1
    (failure,) = json.loads(r.stdout)["files"][0]["failures"]
    assert (failure["line"], failure["col"]) == (2, 11)
    assert "is not a content pack: it holds no pack.yaml" in failure["message"]
    assert failure["message"].endswith("; a pack above it: '../..'")
    for command in (["validate", "mine/tests"], ["simulate", "-n", "1", "--content", "mine/tests"]):
        r = CliRunner().invoke(main, command)
        assert r.exit_code == 2 and "'mine/tests' is not a content pack" in r.output, r.output
        assert "a pack above it: 'mine'" in r.output and "Traceback" not in r.output


def test_flips_up_on_a_role_that_is_not_hidden_is_a_warning(tmp_path):
    """`flips_up: true` (翻开此角色牌: usable only while the role is face down) on a role left `hidden: false`: the
    role starts face up and the skill is never offered unless something turns it face down; validate said ok."""
    skill = ACTIVE + "    flips_up: true\n    effect: draw(self, 1)\n"
    for hidden, expected in (("false", [("W116", 12, 5)]), ("true", [])):
        role = tmp_path / hidden / "roles" / "ce_shi.yaml"  # (a pack a process loaded is not read again: two packs)
        role.parent.mkdir(parents=True)
        role.write_text(HEAD.replace("hidden: true", f"hidden: {hidden}") + skill, encoding="utf-8")
        r = CliRunner().invoke(main, ["validate", "--format", "json", "--expansions", "none", str(role.parent.parent)])
        assert r.exit_code == 0, r.output  # (a warning: the content loads)
        found = json.loads(r.stdout)
        assert [(w["code"], w["line"], w["col"]) for w in found["warnings"]] == expected
        assert not expected or "`hidden: true`" in found["warnings"][0]["hint"]


def test_a_skill_without_text_is_a_warning(tmp_path):
    """A skill with no `text:` (or a blank one) played, but a person at the table read only 【一】 with nothing after
    it, and validate said ok. A warning at the skill (or at its blank text), with the way to a text to start from."""
    body = "    kind: active\n    timing: play_phase\n    effect: draw(self, 1)\n"
    cases = (
        ("none", "", [("W117", 7, 5)]),
        ("blank", '    text: " "\n', [("W117", 9, 5)]),
        ("set", "    text: 摸牌。\n", []),
    )
    for name, text, expected in cases:
        role = tmp_path / name / "roles" / "ce_shi.yaml"  # (a pack a process loaded is not read again: a pack each)
        role.parent.mkdir(parents=True)
        role.write_text(HEAD + "  - id: yi\n    name: 一\n" + text + body, encoding="utf-8")
        r = CliRunner().invoke(main, ["validate", "--format", "json", "--expansions", "none", str(role.parent.parent)])
        assert r.exit_code == 0, r.output  # (a warning: the content loads)
        found = json.loads(r.stdout)
        assert [(w["code"], w["line"], w["col"]) for w in found["warnings"]] == expected, name
        assert not expected or "describe" in found["warnings"][0]["hint"]


@pytest.mark.parametrize(
    ("slip", "fixed", "said"),
    [
        (
            "    hand: [27]\n",
            "    role: 老汉\n    hand: [27]\n",
            "unknown role '老汉'; a role is named by its id: lao_han",
        ),
        (
            "    hand: [27]\n",
            "    role: lao_han\n    face_up: true\n    used: {视死: 1}\n    hand: [27]\n",
            "has no skill '视死' (its skills: shi_si, ru_gui); a skill is named by its id here: shi_si",
        ),
    ],
    ids=["a role by its name", "a skill's uses by its name"],
)
def test_a_role_or_skill_named_where_an_id_goes_says_the_id(tmp_path, monkeypatch, slip, fixed, said):
    """A scenario's state names a role (`role:`) and a limited skill (`used:`) by id; a designer writes the Chinese
    name he reads everywhere else (answers take `skill 视死`). The failure said only "unknown role"."""
    monkeypatch.chdir(tmp_path)
    assert slip in SCENE
    (tmp_path / "x.scenario.yaml").write_text(SCENE.replace(slip, fixed, 1), encoding="utf-8")
    r = CliRunner().invoke(main, ["scenario", "run", "x.scenario.yaml", "--format", "json"])
    assert r.exit_code == 1
    (failure,) = json.loads(r.stdout)["files"][0]["failures"]
    assert said in failure["message"], failure


SCENE = (
    "name: x\nplayers:\n  - identity: qian_fu_zhan_xian\n    hand: [27]\n  - identity: te_gong_ji_guan\n"
    'deck_top: [36]\ncurrent: 0\nstart: play\nanswers:\n  0: [pass, "#27"]\n  1: [accept]\n'
)


def _one_error(tmp_path, monkeypatch, text: str) -> dict:
    """A scenario file of `text` in tmp_path (as x.scenario.yaml), run: its one error (it fails with exactly one)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.scenario.yaml").write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["scenario", "run", "x.scenario.yaml", "--format", "json"])
    assert r.exit_code == 1
    (error,) = json.loads(r.stdout)["files"][0]["errors"]
    return error


def _the_scene_error(tmp_path, monkeypatch, slip: str, fixed: str) -> dict:
    """SCENE with `slip` written as `fixed`, run: its one error."""
    assert slip in SCENE
    return _one_error(tmp_path, monkeypatch, SCENE.replace(slip, fixed, 1))


@pytest.mark.parametrize(
    ("slip", "fixed", "where", "said", "hint"),
    [
        (
            "deck_top: [36]",
            "deck_top: #36",
            (6, 10),
            "nothing is written here; it should be a list",
            "write the list, [36]",
        ),
        ("hand: [27]", "hand:\n      - #27", (5, 8), "it should be a whole number", "write the deck id alone, 27"),
        ("  1: [accept]", "  1:\n    - #27", (12, 6), "nothing is written here", 'put it in quotes, "#27"'),
        ("hand: [27]", 'hand: ["#27"]', (4, 12), "'#27' should be a whole number", "write the deck id alone here: 27"),
    ],
    ids=["deck_top: #36", "a hand item #27", "an answer item #27", 'a hand item "#27"'],
)
def test_a_deck_id_read_as_a_comment_or_written_as_an_answer_in_the_state_says_what_to_write(
    tmp_path, monkeypatch, slip, fixed, where, said, hint
):
    """`#36` after `key:` or `- ` is a comment to YAML: the value is empty, and the error said "None should be
    array" (Python's None, JSON Schema's type name) with no word of the `#`. The state takes a deck id as a number,
    where answers take "#36": "'#36' should be integer" said nothing of that either."""
    error = _the_scene_error(tmp_path, monkeypatch, slip, fixed)
    assert (error["line"], error["col"]) == where, error
    assert said in error["message"] and "None" not in error["message"]
    assert hint in error["hint"]


@pytest.mark.parametrize(
    ("slip", "fixed", "where", "meant"),
    [
        ("hand: [27]", "hand: [利诱]", (4, 12), "利诱 is deck ids {ids}"),
        ("hand: [27]", "hand: [27, li_you]", (4, 16), "利诱 is deck ids {ids}"),
        ("deck_top: [36]", "deck_top: [利誘]", (6, 12), "did you mean 利诱 (deck ids {ids})?"),
        ("  1: [accept]\n", "  1: [accept]\nexpect:\n  discard_contains: [利诱]\n", (13, 22), "利诱 is deck ids {ids}"),
    ],
    ids=["a card's name in a hand", "a card's id in a hand", "a misspelt name on the deck", "an expectation"],
)
def test_a_cards_name_where_a_deck_id_goes_names_the_cards_ids(tmp_path, monkeypatch, slip, fixed, where, meant):
    """`hand: [利诱]`: a designer meant the card, and the schema's "'利诱' should be integer" said nothing of deck
    ids. The error stays where it was (the schema's, at the item) and its hint says that the state takes deck ids,
    and which the card has in the scenario's content (the closest name's, misspelt)."""
    from interpreter.content.loader import load_cached
    from interpreter.snippet import spans

    content = load_cached()
    ids = spans(sorted(e.uid for e in content.deck if content.card_types[e.card_type].name == "利诱"))
    error = _the_scene_error(tmp_path, monkeypatch, slip, fixed)
    assert (error["code"], error["line"], error["col"]) == ("E113", *where), error
    assert "should be integer" in error["message"]
    assert "a deck id: the number of one copy" in error["hint"] and "docs/scenarios.md" in error["hint"]
    assert meant.format(ids=ids) in error["hint"], error["hint"]


def test_a_key_left_empty_says_so_in_words(tmp_path):
    errors = check(tmp_path, ACTIVE.replace("name: 一", "name:") + "    effect: draw(self, 1)\n")
    assert [(e.code, e.line, e.message) for e in errors] == [
        ("E113", 8, "nothing is written here; it should be a text")
    ]


def test_a_deck_id_used_twice_says_where_the_other_copy_is_and_which_ids_are_free(tmp_path):
    """`card id 36 is used twice` of an id the newcomer wrote once (the base deck's 威逼 has it), with no word of
    the other copy nor of an id to use instead."""
    pack = tmp_path / "p"
    (pack / "cards").mkdir(parents=True)
    (pack / "cards" / "kc.yaml").write_text(
        "id: kc\nname: 快传\ntext: 出牌阶段使用。摸一张牌。\nuses:\n"
        "  - timing: play_phase\n    effect: draw(self, 1)\n",
        encoding="utf-8",
    )
    manifest = (
        "id: p\nname: 包\ndeck:\n  add:\n"
        "    - {id: 201, card: kc, colors: [red], direction: left}\n"
        "    - {id: 36, card: kc, colors: [blue], direction: right}\n"
        "    - {id: 201, card: kc, colors: [black], direction: up}\n"
        "    - {id: 230, card: kc, colors: [red], direction: up}\n"
    )
    (pack / "pack.yaml").write_text(manifest, encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", "--format", "json", "--expansions", "none", str(pack)])
    got = [(e["line"], e["message"], e["hint"]) for e in json.loads(r.stdout)["errors"]]
    assert got == [
        (
            6,
            "card id 36 is used twice (the deck already has it: a copy of 威逼)",
            "each copy has an id of its own: 231 and up are free",
        ),
        (7, "card id 201 is used twice (also at line 5)", "each copy has an id of its own: 231 and up are free"),
    ]


@pytest.mark.parametrize(
    ("written", "hint"),
    [("CeShi", "did you mean ce_shi?"), ("ce-shi", "did you mean ce_shi?"), ("测试", "the Chinese name goes under")],
)
def test_an_id_that_is_not_one_says_what_an_id_is(tmp_path, written, hint):
    """It said "'CeShi' does not match '^[a-z][a-z0-9_]*$'": a regular expression, and no id to write."""
    errors = check(tmp_path, ACTIVE.replace("id: yi", f"id: {written}") + "    effect: draw(self, 1)\n")
    assert [(e.code, e.line) for e in errors] == [("E113", 7)]
    assert errors[0].message == f"'{written}' is not an id: an id is lower-case pinyin, `_` between syllables"
    assert hint in errors[0].hint


@pytest.mark.parametrize(
    ("trigger", "code", "errors"),
    [
        ("turn_start", "condition: this_card has red", [("E304", 12, 16, "`this_card` is never set at turn_start")]),
        ("died", "condition: target == self", [("E304", 12, 16, "`target` is never set at died")]),
        ("[turn_start, received]", "condition: this_card has red", []),  # one of its events sets it
        ("hand_taken", "condition: target == self", []),
        ("received", "condition: this_card has red", []),
    ],
)
def test_a_triggered_skill_reading_what_its_event_never_sets_is_an_error(tmp_path, trigger, code, errors):
    """`this_card` at turn_start (or `target` at died) is none at every firing: the skill validated and then
    never fired, silently. Shipped content and examples read neither where its events do not set it."""
    skill = TRIGGERED.replace("trigger: received", f"trigger: {trigger}") + f"    {code}\n    effect: draw(self, 1)\n"
    found = check(tmp_path, skill)
    assert [(e.code, e.line, e.col) for e in found] == [x[:3] for x in errors], [str(e) for e in found]
    for e, (*_, said) in zip(found, errors, strict=True):
        assert e.message.startswith(said) and e.hint.startswith("it is set at ")


def test_an_active_skill_reading_this_card_at_dying_keeps_its_own_message(tmp_path):
    """`dying` is both an idle point and a trigger: an active skill there is told where the variable exists."""
    found = check(tmp_path, ACTIVE.replace("play_phase", "dying") + "    effect: draw(target, 1)\n")
    assert [e.code for e in found] == ["E304"] and "it exists in card uses" in found[0].message


@pytest.mark.parametrize(("written", "folder", "said"), [("roles", "cards", "role"), ("cards", "secret_tasks", "card")])
def test_a_file_in_the_folder_of_another_kind_is_one_error_that_says_where_it_goes(tmp_path, written, folder, said):
    """A role saved in cards/ got seven errors (missing text and uses, unknown title, gender, hidden, expansion,
    skills) and none said it was a role; now one error says so, with the folder to move it to."""
    role = HEAD + ACTIVE + "    effect: draw(self, 1)\n"
    card = "id: kc\nname: 快传\ntext: 出牌阶段使用。\nuses:\n  - timing: play_phase\n    effect: draw(self, 1)\n"
    pack = tmp_path / "pack"
    (pack / folder).mkdir(parents=True)
    (pack / folder / "x.yaml").write_text(role if written == "roles" else card, encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", "--format", "json", "--expansions", "none", str(pack)])
    errors = json.loads(r.stdout)["errors"]
    assert [(e["code"], e["path"].endswith(f"{folder}/x.yaml")) for e in errors] == [("E111", True)], errors
    assert f"this is a {said} file, in the folder of" in errors[0]["message"]
    assert errors[0]["hint"].startswith(f"move it to {written}/")
    (pack / written).mkdir()
    (pack / folder / "x.yaml").rename(pack / written / "x.yaml")  # moved as the hint says: it validates
    assert CliRunner().invoke(main, ["validate", "--expansions", "none", str(pack)]).exit_code == 0


@pytest.mark.parametrize(
    ("code", "hint"),
    [
        ("if hand_count(self) > 2 draw(self, 1)", "the statements of `if` go in braces: if CONDITION { … }"),
        ("may draw(self, 1)", "the statements of `may` go in braces: may { … }"),
        ("for p in others(self) draw(p, 1)", "the statements of `for` go in braces: for x in LIST { … }"),
        ("if true { draw(self, 1) } else draw(self, 2)", "the statements of `else` go in braces: else { … }"),
        ("if true: draw(self, 1)", "no `:` after it; the statements of `if` go in braces"),
    ],
)
def test_a_block_written_without_braces_says_where_they_go(tmp_path, code, hint):
    """`if x draw(…)` said only what the parser expected ('the end of the text, 'and', a comparison, …')."""
    found = check(tmp_path, ACTIVE + f'    effect: "{code}"\n')
    assert [e.code for e in found] == ["E201"] and found[0].hint.startswith(hint)
