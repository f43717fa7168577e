"""One test per error code of docs/errors.md: a broken file gives that code at the right line and column."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.content.loader import BUNDLED_CONTENT, validate_paths

GOOD_CARD = """\
id: test_card
name: 测试牌
text: 测试。
uses:
  - timing: contest
    effect: |
      draw(self, 1)
"""


def check_file(tmp_path, kind_dir: str, name: str, text, code: str, line: int, col: int):
    folder = tmp_path / kind_dir if kind_dir else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    f = folder / name
    if isinstance(text, bytes):
        f.write_bytes(text)
    else:
        f.write_text(text, encoding="utf-8")
    errors = validate_paths([f])
    found = [(e.code, e.line, e.col) for e in errors]
    assert (code, line, col) in found, f"expected {code} at {line}:{col}, got {found}"
    return errors


def card_with_effect(effect: str, timing="contest", extra="") -> str:
    body = "\n".join("      " + ln for ln in effect.splitlines())
    return f"id: test_card\nname: 测试牌\ntext: 测试。\nuses:\n  - timing: {timing}\n{extra}    effect: |\n{body}\n"


# ---------------------------------------------------------------- E1xx: files


def test_e100_pack_without_rules(tmp_path):
    """E100: a content directory without rules.yaml / deck.yaml."""
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "c.yaml").write_text(GOOD_CARD, encoding="utf-8")
    errors = validate_paths([tmp_path])
    assert any(e.code == "E100" and "rules.yaml" in e.message for e in errors)


def test_e101_tab_indentation(tmp_path):
    """E101: a tab in the indentation, with the YAML position and a hint about tabs."""
    text = "id: test_card\nname: 测试牌\ntext: x\nuses:\n\t- timing: contest\n"
    errors = check_file(tmp_path, "cards", "c.yaml", text, "E101", 5, 1)
    assert any("tab" in (e.hint or "") for e in errors)


def test_e101_bad_indentation(tmp_path):
    """E101: a key indented deeper than its siblings."""
    text = "id: test_card\nname: 测试牌\n  text: x\n"
    check_file(tmp_path, "cards", "c.yaml", text, "E101", 3, 7)


def test_e102_not_utf8(tmp_path):
    """E102: a byte that is not UTF-8, located by line and column."""
    text = "id: test_card\nname: \xff\xfe\n".encode("latin-1")
    check_file(tmp_path, "cards", "c.yaml", text, "E102", 2, 7)


def test_e101_character_yaml_does_not_allow(tmp_path):
    """E101: a control character, placed by line and column (YAML's own message has no position)."""
    errors = check_file(tmp_path, "cards", "c.yaml", "id: test_card\nname: 测\x07试\n", "E101", 2, 8)
    assert [e.message for e in errors] == ["YAML syntax: the character U+0007 is not allowed in a YAML file"]
    assert errors[0].hint == "remove it: a YAML file holds printable characters, tabs and line breaks"


def test_e102_binary_file(tmp_path):
    """E102: a NUL byte says the file is binary; its line is not shown. A binary file of no kind: the same code."""
    (error,) = check_file(tmp_path, "cards", "c.yaml", b"id: x\nname: \xe6\xb5\x8b\0\x01", "E102", 2, 8)
    assert error.message == "a NUL byte: this is a binary file, not YAML text" and error.source is None
    (error,) = check_file(tmp_path, "misc", "a.out", b"\x7fELF\x02\x01\x01\0\0\0", "E102", 1, 1)
    assert error.message == "this is a binary file, not YAML text"


def test_e103_empty_file(tmp_path):
    """E103: an empty file (comments only)."""
    check_file(tmp_path, "cards", "c.yaml", "# nothing yet\n\n", "E103", 1, 1)


def test_e104_huge_file(tmp_path):
    """E104: a file over the size limit is refused without parsing it."""
    check_file(tmp_path, "cards", "c.yaml", "# " + "x" * 1_100_000 + "\n", "E104", 1, 1)


def test_e104_nested_too_deeply(tmp_path):
    """E104: values nested more than 100 levels deep, placed at the first value too deep (libyaml or not)."""
    for text in (
        "id: x\nuses: " + "[" * 100_000 + "]" * 100_000 + "\n",
        "id: x\nuses: " + "[" * 150 + "]" * 150 + "\n",
    ):
        (error,) = check_file(tmp_path, "cards", "c.yaml", text, "E104", 2, 106)
        assert error.message == "the file is too large: values nested more than 100 levels deep"


@pytest.mark.parametrize("digits", [19, 5000])
def test_e104_a_number_too_long(tmp_path, digits):
    """E104: a number of more than 18 digits, at its place (5,000 digits was a ValueError traceback)."""
    text = GOOD_CARD.replace("name: 测试牌", "name: 测试牌\nface_down: " + "9" * digits)
    (error,) = check_file(tmp_path, "cards", "c.yaml", text, "E104", 3, 12)
    assert error.message == f"a number of {digits} digits is too large"
    assert "at most 18 digits" in (error.hint or "")
    # 18 digits read as a number (the schema then says it is no boolean)
    ok = GOOD_CARD.replace("name: 测试牌", "name: 测试牌\nface_down: " + "9" * 18)
    assert [e.code for e in check_file(tmp_path, "cards", "c.yaml", ok, "E113", 3, 12)] == ["E113"]


def test_e104_a_text_too_long(tmp_path):
    """E104: a text (a value or a key) of more than 20,000 characters, at its place; not printed whole."""
    text = GOOD_CARD.replace("text: 测试。", "text: " + "字" * 20_001)
    (error,) = check_file(tmp_path, "cards", "c.yaml", text, "E104", 3, 7)
    assert error.message == "a text of 20001 characters is too long"
    assert len(str(error)) < 600
    ok = GOOD_CARD.replace("text: 测试。", "text: " + "字" * 20_000)
    f = tmp_path / "cards" / "c.yaml"
    f.write_text(ok, encoding="utf-8")
    assert validate_paths([f]) == []


@pytest.mark.parametrize(
    "effect,code",
    [
        ("draw(" + "x" * 15_000 + ")", "E301"),  # an unknown name
        ("draw(self) " + "x" * 15_000, "E201"),  # an unexpected token
        ("draw(self, " + "n" * 15_000 + ": 1)", "E303"),  # an unknown parameter
        ("if name_of(this_card) == 【" + "截" * 15_000 + "】 { draw(self) }", "E305"),
        ('add_status(self, "' + "s" * 15_000 + '")', "E306"),
    ],
    ids=["name", "token", "parameter", "card name", "status"],
)
def test_no_message_prints_a_long_value_whole(tmp_path, effect, code):
    """A long name, token or text read from the file is cut in the middle in the message (the line shown with the
    caret is cut too, at 100 cells)."""
    f = tmp_path / "cards" / "c.yaml"
    f.parent.mkdir()
    f.write_text(card_with_effect(effect), encoding="utf-8")
    errors = validate_paths([f])
    assert code in [e.code for e in errors] and errors[0].line == 7
    assert all(len(e.message) < 250 and len(str(e)) < 800 for e in errors), [str(e) for e in errors]
    assert "15,000 characters)" in str(errors[0]) or "15,002 characters)" in str(errors[0])


def test_a_schema_error_names_a_large_value_briefly(tmp_path):
    """E113 of a list of 5,000 numbers (or a mapping of 4,000 keys) names its first items and how many."""
    text = GOOD_CARD.replace("name: 测试牌", "name: 测试牌\nface_down: [" + ",".join(["1"] * 5_000) + "]")
    (error,) = check_file(tmp_path, "cards", "c.yaml", text, "E113", 3, 12)
    assert error.message == "[1, 1, 1, 1, 1, 1, 1, 1, … (5,000 items)] should be boolean"
    text = GOOD_CARD.replace(
        "name: 测试牌", "name: 测试牌\nafter_use: {" + ",".join(f"k{i}: {i}" for i in range(4_000)) + "}"
    )
    errors = check_file(tmp_path, "cards", "c.yaml", text, "E113", 3, 12)
    assert all(len(str(e)) < 800 for e in errors) and "(4,000 keys)" in str(errors)


def test_e104_aliases_that_stand_for_too_much(tmp_path):
    """E104: aliases of aliases (a "billion laughs") are refused at the value that grows too large."""
    levels = ", ".join(
        ["&a0 [x, x, x, x, x, x, x, x, x, x]"] + [f"&a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    )
    text = f"zz: [{levels}]\nid: x\nname: *a8\n"
    (error,) = check_file(tmp_path, "cards", "c.yaml", text, "E104", 1, 1 + text.index("&a4"))
    assert "stands for more than 100000 values" in error.message
    # an alias of a plain value, as the bundled roles use, is fine
    ok = GOOD_CARD.replace(
        "    effect: |\n      draw(self, 1)", "    effect: &e draw(self, 1)\n  - timing: dying\n    effect: *e"
    )
    f = tmp_path / "cards" / "ok.yaml"
    f.write_text(ok, encoding="utf-8")
    assert validate_paths([f]) == []


def test_e105_unknown_kind(tmp_path):
    """E105: validate a single file whose kind cannot be told."""
    check_file(tmp_path, "misc", "c.yaml", GOOD_CARD, "E105", 1, 1)


def test_e110_not_a_mapping(tmp_path):
    """E110: a list where a mapping is expected."""
    check_file(tmp_path, "cards", "c.yaml", "- a\n- b\n", "E110", 1, 1)


def test_e111_unknown_key_with_suggestion(tmp_path):
    """E111: a typo in a key points at the key and suggests the right one."""
    text = GOOD_CARD.replace("    effect: |", "    efect: |")
    errors = check_file(tmp_path, "cards", "c.yaml", text, "E111", 6, 5)
    assert any("effect" in (e.hint or "") for e in errors if e.code == "E111")


def test_e112_missing_key(tmp_path):
    """E112: a required key is missing."""
    text = GOOD_CARD.replace("name: 测试牌\n", "")
    errors = check_file(tmp_path, "cards", "c.yaml", text, "E112", 1, 1)
    assert any("name" in e.message for e in errors)


def test_e113_wrong_value_with_suggestion(tmp_path):
    """E113: a value outside the allowed set, with the closest allowed value."""
    text = GOOD_CARD.replace("timing: contest", "timing: contset")
    errors = check_file(tmp_path, "cards", "c.yaml", text, "E113", 5, 13)
    assert any("contest" in (e.hint or "") for e in errors)


def test_e120_duplicate_id(tmp_path):
    """E120: two cards with one id in a pack."""
    pack = tmp_path / "pack"
    shutil.copytree(BUNDLED_CONTENT, pack)
    (pack / "cards" / "copy.yaml").write_text(
        (pack / "cards" / "jie_huo.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    errors = validate_paths([pack])
    assert any(
        (e.code == "E120" and e.path.endswith("jie_huo.yaml")) or (e.code == "E120" and e.path.endswith("copy.yaml"))
        for e in errors
    )


def test_e121_unknown_card_in_deck(tmp_path):
    """E121: deck.yaml names a card type that does not exist, with a suggestion."""
    pack = tmp_path / "pack"
    shutil.copytree(BUNDLED_CONTENT, pack)
    deck = pack / "deck.yaml"
    lines = deck.read_text(encoding="utf-8").splitlines()
    i = next(n for n, ln in enumerate(lines) if "card: jie_huo" in ln)
    lines[i] = lines[i].replace("card: jie_huo", "card: jie_hou")
    deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
    errors = validate_paths([pack])
    col = lines[i].index("jie_hou") + 1
    hits = [e for e in errors if e.code == "E121"]
    assert hits and (hits[0].line, hits[0].col) == (i + 1, col)
    assert "jie_huo" in (hits[0].hint or "")


def test_e122_identity_table_sum(tmp_path):
    """E122: an identity-table row that does not add up to its player count."""
    text = (BUNDLED_CONTENT / "rules.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "5: {qian_fu_zhan_xian: 2, te_gong_ji_guan: 2, shen_mi_ren: 1}",
        "5: {qian_fu_zhan_xian: 2, te_gong_ji_guan: 2, shen_mi_ren: 2}",
    )
    lines = text.splitlines()
    line = next(n for n, ln in enumerate(lines, 1) if ln.strip().startswith("5:"))
    check_file(tmp_path, "", "rules.yaml", text, "E122", line, 6)


# ---------------------------------------------------------------- E2xx/E3xx: the effect language


def test_e201_syntax_error_inside_block(tmp_path):
    """E201: a syntax error inside a multi-line effect block maps to the YAML line and column."""
    text = card_with_effect("draw(self, 1)\ndraw(self，1)")
    check_file(tmp_path, "cards", "c.yaml", text, "E201", 8, 16)


def test_e301_unknown_name(tmp_path):
    """E301: an unknown name, with did-you-mean."""
    errors = check_file(tmp_path, "cards", "c.yaml", card_with_effect("draw(slef, 1)"), "E301", 7, 12)
    assert any("self" in (e.hint or "") for e in errors)


def test_e301_unknown_function(tmp_path):
    """E301: an unknown function, with did-you-mean."""
    errors = check_file(tmp_path, "cards", "c.yaml", card_with_effect("drew(self, 1)"), "E301", 7, 7)
    assert any("draw" in (e.hint or "") for e in errors)


def test_e301_a_function_name_with_a_word_added_suggests_the_function_it_starts_with(tmp_path):
    """E301: `draw_card` (a designer's guess) suggests draw, not mark_card, which is spelt closer."""
    errors = check_file(tmp_path, "cards", "c.yaml", card_with_effect("draw_card(self, 1)"), "E301", 7, 7)
    assert [e.hint for e in errors if e.code == "E301"] == ["did you mean draw?"]


def test_e302_wrong_argument_type(tmp_path):
    """E302: a number where a player is expected."""
    check_file(tmp_path, "cards", "c.yaml", card_with_effect("draw(3, 1)"), "E302", 7, 12)


def test_e303_wrong_arguments(tmp_path):
    """E303: an unknown keyword argument, with the signature in the hint."""
    check_file(tmp_path, "cards", "c.yaml", card_with_effect("draw(self, count: 2)"), "E303", 7, 18)  # at `count`


@pytest.mark.parametrize(
    ("code", "col"),
    [
        ("draw(self, n: 1, n: 2)", 24),  # written twice by name: at the second `n` (it was taken without a word)
        ("draw(self, 1, n: 2)", 21),  # by place and by name: at `n`, not its value
    ],
)
def test_e303_an_argument_given_twice_is_told_at_its_name(tmp_path, code, col):
    check_file(tmp_path, "cards", "c.yaml", card_with_effect(code), "E303", 7, col)


def test_e304_wrong_context(tmp_path):
    """E304: `dying` used at a timing that has no dying player."""
    check_file(tmp_path, "cards", "c.yaml", card_with_effect("draw(dying, 1)", timing="play_phase"), "E304", 7, 12)


def test_e305_unknown_card_name(tmp_path):
    """E305: an unknown card name in 【】 with a suggestion."""
    errors = check_file(
        tmp_path, "cards", "c.yaml", card_with_effect("let n = declare(from: [【截或】])"), "E305", 7, 30
    )
    assert any("截获" in (e.hint or "") for e in errors)


def test_e306_unknown_status(tmp_path):
    """E306: an unknown status name."""
    check_file(tmp_path, "cards", "c.yaml", card_with_effect('add_status(self, "cannot_use_card")'), "E306", 7, 24)


def test_e307_useless_statement(tmp_path):
    """E307: a query on its own line does nothing."""
    check_file(tmp_path, "cards", "c.yaml", card_with_effect("count(hand(self))"), "E307", 7, 7)


def test_e308_let_redefines_language_name(tmp_path):
    """E308: `let self = ...` is refused."""
    check_file(tmp_path, "cards", "c.yaml", card_with_effect("let self = current"), "E308", 7, 7)


def test_e309_hidden_hand_offered_face_up(tmp_path):
    """E309: choosing from another player's hand, face up, without seeing it."""
    check_file(
        tmp_path,
        "cards",
        "c.yaml",
        card_with_effect("discard(choose(from: hand(target)))", extra="    target: others(self)\n"),
        "E309",
        8,
        15,
    )


@pytest.mark.parametrize(
    "code",
    [
        "discard(choose(from: hand(target), blind: true))",
        "discard(choose(from: hand(target), by: target))",
        "reveal(hand(target), to: [self])\ndiscard(choose(from: hand(target) where it has red))",
        "reveal(hand(target))\ndiscard(choose(from: hand(target)))",
        "discard(choose(from: hand(self)))",
    ],
)
def test_e309_not_for_blind_own_or_shown_hands(tmp_path, code):
    f = tmp_path / "cards" / "c.yaml"
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(card_with_effect(code, extra="    target: others(self)\n"), encoding="utf-8")
    from interpreter.content.loader import ContentErrors, load_content

    try:
        load_content([BUNDLED_CONTENT, tmp_path])
    except ContentErrors as e:
        assert not [x for x in e.errors if x.code == "E309"], e.errors


def test_e309_shown_to_someone_else_is_not_enough(tmp_path):
    check_file(
        tmp_path,
        "cards",
        "c.yaml",
        card_with_effect(
            "reveal(hand(target), to: [target])\ndiscard(choose(from: hand(target)))",
            extra="    target: others(self)\n",
        ),
        "E309",
        9,
        15,
    )


def test_all_problems_reported_not_just_first(tmp_path):
    """Every problem of a file is reported in one run."""
    text = card_with_effect("draw(slef, 1)\ndrew(self)\nlet x = count(hand(self))", extra="    targte: alive()\n")
    f = tmp_path / "cards" / "c.yaml"
    f.parent.mkdir(exist_ok=True)
    f.write_text(text, encoding="utf-8")
    errors = validate_paths([f])
    assert {e.code for e in errors} >= {"E111", "E301"}
    assert len([e for e in errors if e.code == "E301"]) == 2


def test_docs_list_every_code():
    """docs/errors.md lists every code the sources can emit."""
    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "errors.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| (E\d{3}) \|", doc, re.M))
    used = set()
    for f in (root / "interpreter").rglob("*.py"):
        used |= set(re.findall(r'"(E\d{3})"', f.read_text(encoding="utf-8")))
    assert used <= listed, f"codes without documentation: {sorted(used - listed)}"
    assert listed <= used, f"documented codes never emitted: {sorted(listed - used)}"


def test_validate_prints_findings_by_file_then_line(tmp_path):
    """The loader finds a file's schema errors before its code's; validate prints them in the files' order."""
    cards = tmp_path / "cards"
    cards.mkdir()
    late_key = "  - timing: contest\n    bogus_key: 1\n    effect: |\n      draw(self, 1)\n"
    (cards / "a.yaml").write_text(card_with_effect("draw(slef, 1)") + late_key, encoding="utf-8")
    other = (
        card_with_effect("draw(slef, 1)\ndraw(sefl, 1)")
        .replace("test_card", "test_card_b")
        .replace("测试牌", "测试牌二")
    )
    (cards / "b.yaml").write_text(other, encoding="utf-8")
    found = validate_paths([tmp_path])
    assert [(Path(e.path).name, e.line) for e in found if e.code in ("E111", "E301")][:2] == [
        ("a.yaml", 9),
        ("a.yaml", 7),
    ]
    r = CliRunner().invoke(main, ["validate", str(tmp_path)])
    places = [(Path(m[1]).name, int(m[2]), int(m[3])) for m in re.finditer(r"^(\S+?):(\d+):(\d+): ", r.output, re.M)]
    assert ("a.yaml", 7, 12) in places and ("a.yaml", 9, 5) in places and ("b.yaml", 8, 12) in places
    assert places == sorted(places)
    data = json.loads(CliRunner().invoke(main, ["validate", "--format", "json", str(tmp_path)]).output)
    assert [(Path(e["path"]).name, e["line"]) for e in data["errors"]] == sorted(p[:2] for p in places)


def test_cli_exit_codes_and_json(tmp_path):
    """validate exits 0 when clean, 1 on errors, 2 on usage errors; --format json has the fields."""
    runner = CliRunner()
    assert runner.invoke(main, ["validate"]).exit_code == 0
    bad = tmp_path / "cards"
    bad.mkdir()
    (bad / "c.yaml").write_text(card_with_effect("draw(slef, 1)"), encoding="utf-8")
    r = runner.invoke(main, ["validate", str(bad / "c.yaml")])
    assert r.exit_code == 1 and "c.yaml:7:12: error E301" in r.output
    r = runner.invoke(main, ["validate", "--format", "json", str(bad / "c.yaml")])
    assert r.exit_code == 1 and '"code": "E301"' in r.output and '"line": 7' in r.output
    assert runner.invoke(main, ["validate", str(tmp_path / "missing")]).exit_code == 2
