"""Errors show the line of the file they point at, with a caret under the column (docs/errors.md).

Each test writes a broken file into a temporary folder and checks the exact text: the line as it
was loaded, and the caret placed by terminal cells (a Chinese character takes two, a tab runs to
the next multiple of eight).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli import main
from interpreter.content.loader import BUNDLED_CONTENT, ContentError, validate_paths
from interpreter.scenario import run_scenario
from interpreter.snippet import snippet

SCENARIOS = Path(__file__).parent / "scenarios"


def write(folder: Path, name: str, text: str | bytes) -> Path:
    f = folder / name
    f.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        f.write_bytes(text)
    else:
        f.write_text(text, encoding="utf-8")
    return f


def shown(f: Path) -> list[str]:
    """Every error of a single file as `validate` prints it, the file's folder left out."""
    return [str(e).replace(f"{f.parent}/", "") for e in validate_paths([f])]


CARD_HEAD = "id: test_card\nname: 测试牌\ntext: 测试。\nuses:\n  - timing: contest\n"


# ---------------------------------------------------------------- the effect language


def test_error_in_a_block_scalar_after_chinese_text(tmp_path):
    """Code line 2 of a `|` block is line 8 of the file; four wide characters come before the error."""
    f = write(
        tmp_path / "cards",
        "c.yaml",
        CARD_HEAD + '    effect: |\n      draw(self, 1)\n      may "摸两张牌" { draw(slef, 2) }\n',
    )
    assert shown(f) == [
        "c.yaml:8:25: error E301: unknown name `slef`\n"
        '          may "摸两张牌" { draw(slef, 2) }\n'
        "                                ^\n"  # 4 + 6 + 'may "' (5) + 4 × 2 + '" { draw(' (9)
        "    hint: did you mean self?"
    ]


def test_error_in_a_one_line_effect(tmp_path):
    f = write(tmp_path / "cards", "c.yaml", CARD_HEAD + "    effect: draw(self, 2))\n")
    assert shown(f) == [
        "c.yaml:6:26: error E201: unexpected ')'; expected the end of the text, 'instead', '}', ';', a new line\n"
        "        effect: draw(self, 2))\n"
        "                             ^"
    ]


def test_a_tab_before_the_error_is_expanded(tmp_path):
    """A tab inside the code counts as one column in the position and runs to the next tab stop on screen."""
    f = write(tmp_path / "cards", "c.yaml", CARD_HEAD + "    effect: |\n      draw(self,\tslef)\n")
    assert shown(f) == [
        "c.yaml:7:18: error E301: unknown name `slef`\n"
        "          draw(self,        slef)\n"  # the tab stood at cell 16: eight spaces to 24
        "                            ^\n"
        "    hint: did you mean self?"
    ]


def test_the_end_of_the_text_is_just_after_its_last_token(tmp_path):
    f = write(tmp_path / "cards", "c.yaml", CARD_HEAD + "    effect: |\n      draw(self, 1)\n      draw(self\n")
    (err,) = shown(f)
    assert err.startswith("c.yaml:8:16: error E201: unexpected end of text; expected ")
    assert err.splitlines()[1:] == ["          draw(self", "                   ^"]


# ---------------------------------------------------------------- YAML, the schema, cross references


def test_yaml_syntax_error_after_chinese_text(tmp_path):
    f = write(tmp_path / "cards", "c.yaml", "id: test_card\nname: 测试牌: 错\n")
    assert shown(f) == [
        "c.yaml:2:10: error E101: YAML syntax: mapping values are not allowed here\n"
        "    name: 测试牌: 错\n"
        "                ^\n"  # 4 + 'name: ' (6) + 3 × 2
        "    hint: a value with `: ` in it is put in quotes, or, code with a keyword argument (`from: ...`), "
        "written as a block: `effect: |` and the code on the lines below, indented"
    ]


def test_yaml_tab_indentation(tmp_path):
    f = write(tmp_path / "cards", "c.yaml", "id: test_card\nname: 测试牌\ntext: x\nuses:\n\t- timing: contest\n")
    assert shown(f) == [
        "c.yaml:5:1: error E101: YAML syntax: found character '\\t' that cannot start any token\n"
        "            - timing: contest\n"
        "    ^\n"
        "    hint: YAML indentation must use spaces, not tabs"
    ]


def test_not_utf8_shows_the_byte_and_counts_characters(tmp_path):
    """The column counts characters, like every other column: 测试 are 6 bytes but 2 characters."""
    f = write(tmp_path / "cards", "c.yaml", "id: test_card\nname: 测试".encode() + b"\xff\n")
    assert shown(f) == [
        "c.yaml:2:9: error E102: byte 0xff is not UTF-8\n"
        "    name: 测试\\xff\n"
        "              ^\n"
        "    hint: save the file as UTF-8"
    ]


def test_schema_error_under_a_chinese_value(tmp_path):
    f = write(
        tmp_path / "cards",
        "c.yaml",
        "id: test_card\nname: 测试牌\ntext: 测试。\nuses:\n  - timing: 争夺阶段\n    effect: draw(self, 1)\n",
    )
    assert shown(f) == [
        "c.yaml:5:13: error E113: unknown timing '争夺阶段'\n"
        "      - timing: 争夺阶段\n"
        "                ^\n"
        "    hint: allowed values: play_phase, send_start, need_send, send_idle, contest, dying, respond"
    ]


def test_unknown_key(tmp_path):
    f = write(tmp_path / "cards", "c.yaml", CARD_HEAD + "    effect: draw(self, 1)\n    targte: others(self)\n")
    assert shown(f) == [
        "c.yaml:7:5: error E111: unknown key 'targte'\n"
        "        targte: others(self)\n"
        "        ^\n"
        "    hint: did you mean target?"
    ]


def pack(tmp_path: Path) -> Path:
    """A copy of the bundled content to break."""
    shutil.copytree(BUNDLED_CONTENT, tmp_path / "pack")
    return tmp_path / "pack"


def test_cross_references_point_into_the_file(tmp_path):
    """An unknown card type in deck.yaml, and an unknown deck in rules.yaml (which had no position before)."""
    p = pack(tmp_path)
    deck = (p / "deck.yaml").read_text(encoding="utf-8")
    (p / "deck.yaml").write_text(deck.replace("card: jie_huo", "card: jie_hou", 1), encoding="utf-8")
    rules = (p / "rules.yaml").read_text(encoding="utf-8")
    (p / "rules.yaml").write_text(rules.replace("deck: standard}", "deck: standrd}"), encoding="utf-8")
    by_file = {Path(e.path).name: e for e in validate_paths([p]) if e.code == "E121"}
    deck_err, rules_err = by_file["deck.yaml"], by_file["rules.yaml"]
    assert deck_err.source is not None and "card: jie_hou" in deck_err.source
    assert deck_err.source[deck_err.col - 1 :].startswith("jie_hou")
    assert rules_err.message == "rules.yaml uses deck 'standrd', which deck.yaml does not define"
    assert rules_err.source is not None and rules_err.source[rules_err.col - 1 :] == "standrd}"
    assert str(rules_err).splitlines()[1:3] == [
        "    " + rules_err.source,
        " " * (4 + rules_err.col - 1) + "^",  # the line is ASCII: one cell a character
    ]


# ---------------------------------------------------------------- what is shown, and when not


def test_the_text_shown_is_the_text_that_was_loaded(tmp_path):
    """The line comes from the text read, not from the file read again after it changed."""
    f = write(tmp_path / "cards", "c.yaml", CARD_HEAD + "    effect: draw(slef, 1)\n")
    (err,) = validate_paths([f])
    f.write_text("changed\n", encoding="utf-8")
    assert str(err).splitlines()[1] == "        effect: draw(slef, 1)"


def test_no_position_no_snippet(tmp_path):
    """A pack without rules.yaml has no line to show; an error without its line shows none either."""
    (tmp_path / "cards").mkdir()
    errors = [e for e in validate_paths([tmp_path]) if e.code == "E100"]
    assert errors and all(e.source is None and "\n" not in str(e) for e in errors)
    bare = ContentError("x.yaml", 3, 4, "E113", "wrong")
    assert str(bare) == "x.yaml:3:4: error E113: wrong"


def test_snippet_cells():
    assert snippet("ab", 3) == "    ab\n      ^"  # past the end: just after the last character
    assert snippet("", 1) == "\n    ^"
    assert snippet("x\u200by", 2) == "    x<U+200B>y\n     ^"  # an invisible character is shown
    assert snippet("e\u0301x", 3) == "    e\u0301x\n     ^"  # a combining accent takes no cell
    assert snippet("（甲）x", 4, indent="") == "（甲）x\n      ^"  # full-width brackets are wide too


def test_a_long_line_is_cut_around_the_caret():
    line = "text: " + "这是一段很长的规则文字，" * 20 + "错"
    col = len(line)
    out = snippet(line, col, width=60)
    first, caret = out.splitlines()
    assert first.startswith("    ...") and first.endswith("文字，错")
    body = first[4:]
    cells = sum(2 if "\u4e00" <= c <= "\u9fff" or c == "，" else 1 for c in body)
    assert cells <= 60
    assert caret == " " * (4 + cells - 2) + "^"  # under 错, the last (wide) character
    assert snippet(line, 1, width=60).splitlines()[0].endswith("...")


# ---------------------------------------------------------------- the commands


def test_validate_prints_the_snippet_and_json_has_the_line(tmp_path):
    f = write(tmp_path / "cards", "c.yaml", CARD_HEAD + "    effect: draw(slef, 1)\n")
    runner = CliRunner()
    r = runner.invoke(main, ["validate", str(f)])
    assert r.exit_code == 1
    assert f"{f}:6:18: error E301: unknown name `slef`\n        effect: draw(slef, 1)\n" + " " * 21 + "^\n" in r.output
    r = runner.invoke(main, ["validate", "--format", "json", str(f)])
    (err,) = json.loads(r.output)["errors"]
    assert err["line"] == 6 and err["col"] == 18 and err["source"] == "    effect: draw(slef, 1)"


def test_other_commands_show_the_snippet_when_a_pack_fails(tmp_path):
    p = pack(tmp_path)
    card = p / "cards" / "jie_huo.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("timing: contest", "timing: contst", 1), encoding="utf-8")
    r = CliRunner().invoke(main, ["simulate", "-n", "1", "--content", str(p)])
    assert r.exit_code == 1
    assert "error E113: unknown timing 'contst'\n      - timing: contst\n                ^\n" in r.stderr


def test_scenario_file_errors(tmp_path):
    """A schema error in a scenario file is shown (indented) by `scenario run`."""
    text = (SCENARIOS / "card_li_you_on_self.scenario.yaml").read_text(encoding="utf-8")
    f = write(tmp_path, "x.scenario.yaml", text.replace("current: 0", "curent: 0"))
    r = CliRunner().invoke(main, ["scenario", "run", str(f)])
    assert r.exit_code == 1
    assert f"  {f}:10:1: error E111: unknown key 'curent'\n      curent: 0\n      ^\n" in r.output


def test_scenario_failures_point_at_the_answer(tmp_path):
    """An illegal scripted answer is shown where it is written; the line has Chinese before it."""
    text = (SCENARIOS / "card_li_you_on_self.scenario.yaml").read_text(encoding="utf-8")
    f = write(tmp_path, "x.scenario.yaml", text.replace('P0, "#68"]', 'P0, "#99"]'))
    result = run_scenario(f)
    assert not result.passed
    (failure,) = result.failures
    head, line, caret = failure.splitlines()
    assert head.startswith(f"{f}:13:19: P0's answer #3 '#99' is not a legal option")
    assert line == '      0: [use 利诱, P0, "#99"]'
    assert caret == " " * 24 + "^"  # 4 + '  0: [use ' (10) + 2 × 2 + ', P0, ' (6)
    assert f'  - {head}\n          0: [use 利诱, P0, "#99"]\n' in result.report()


def test_scenario_unused_answers_point_at_the_first_one(tmp_path):
    text = (SCENARIOS / "card_li_you_on_self.scenario.yaml").read_text(encoding="utf-8")
    f = write(tmp_path, "x.scenario.yaml", text.replace("  2: [accept]", "  2: [accept, 多余]"))
    (failure,) = run_scenario(f).failures
    assert failure.splitlines() == [
        f"{f}:14:15: P2 has 1 scripted answer(s) left unused: ['多余']",
        "      2: [accept, 多余]",
        "                  ^",
    ]


def test_scenario_unknown_role_has_a_position(tmp_path):
    text = (SCENARIOS / "card_li_you_on_self.scenario.yaml").read_text(encoding="utf-8")
    seat = "  - identity: te_gong_ji_guan\n"
    f = write(tmp_path, "x.scenario.yaml", text.replace(seat, seat + "    role: 无此人\n", 1))
    (failure,) = run_scenario(f).failures
    assert failure.splitlines() == [
        f"{f}:8:11: setup: seat 1: unknown role '无此人'",
        "        role: 无此人",
        "              ^",
    ]


def test_replay_shows_a_bad_log_line(tmp_path):
    log = write(tmp_path, "g.jsonl", '{"type": "game", "seed": 1, "players": 3}\n{"e": "中文", x}\n')
    r = CliRunner().invoke(main, ["replay", str(log)])
    assert r.exit_code == 1
    assert r.stderr == (
        f"error: {log}:2:13: not a JSON line (Expecting property name enclosed in double quotes)\n"
        '    {"e": "中文", x}\n'
        "                  ^\n"  # 4 + '{"e": "' (7) + 2 × 2 + '", ' (3)
    )
    log.write_bytes(b'{"type": "game", "seed": 1, "players": 3}\n  [1, "\xe4\xb8\xad\xff"]\n')
    r = CliRunner().invoke(main, ["replay", str(log)])
    caret = " " * 13 + "^\n"  # 4 + '  [1, "' (7) + 中 (2)
    assert r.stderr == f'error: {log}:2:9: byte 0xff is not UTF-8\n      [1, "中\\xff"]\n' + caret
    log.write_text('{"type": "game", "seed": 1, "players": 3}\n  [1, 2]\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["replay", str(log)])
    assert r.exit_code == 1 and r.stderr.endswith(
        ":2:3: not a JSON object (each line of a log is one record)\n" + "      [1, 2]\n      ^\n"
    )


def test_describe_warns_with_the_line_of_a_file_it_skips(tmp_path):
    p = pack(tmp_path)
    write(p / "cards", "zz.yaml", "id: zz\nname: 测试: 错\n")
    r = CliRunner().invoke(main, ["describe", "截获", "--content", str(p)])
    assert r.exit_code == 0
    warning = f"warning: {p / 'cards' / 'zz.yaml'}:2:9: cannot read: YAML syntax: mapping values are not allowed here\n"
    assert warning + "    name: 测试: 错\n" + " " * 14 + "^\n" in r.stderr
