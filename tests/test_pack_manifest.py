"""pack.yaml: a pack that extends the base game and changes rule numbers, cards, tasks, roles and the deck.

A modder's fork is a short folder: a manifest and the new definitions. These tests build one in a
temporary folder and check what the loaded game is, what the commands say, and that every mistake in
a manifest is reported at its line with a hint.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.content.loader import ContentErrors, load_cached, load_content, load_packs
from interpreter.content.packs import resolve_packs

NEW_CARD = """\
id: mi_dian
name: 密电
text: 出牌阶段，摸两张牌。
uses:
  - timing: play_phase
    effect: draw(self, 2)
"""

NEW_TASK = """\
id: shou_cang_jia
name: 收藏家
text: 你的手牌达到八张时，你获得胜利。
victory:
  - check: turn_end
    condition: hand_count(self) >= 8
"""


def write(folder: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        f = folder / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def house_rules(tmp: Path, manifest: str | None = None) -> Path:
    """The house-rules fork of docs/modding.md: one number changed, 调虎离山 out, a new card and a new task."""
    return write(
        tmp / "jia_gui",
        {
            "pack.yaml": manifest
            or """\
                id: jia_gui
                name: 家规
                version: 0.1.0
                extends: [base]
                rules:
                  draw_count: 2
                remove:
                  cards: [diao_hu_li_shan]
                  roles: [a_fu_luo_la_jian_die]   # 浑水摸鱼 names 调虎离山
                deck:
                  add:
                    - {id: 201, card: mi_dian, colors: [red], direction: left}
                    - {id: 202, card: mi_dian, colors: [blue, black], direction: up, decks: [full]}
                """,
            "cards/mi_dian.yaml": NEW_CARD,
            "secret_tasks/shou_cang_jia.yaml": NEW_TASK,
        },
    )


def load(*packs, expansions=None):
    return load_content(resolve_packs(packs, expansions))


def errors_of(*packs, expansions=("none",)) -> list:
    """The errors of loading the packs (over the base game alone unless `expansions` says otherwise)."""
    with pytest.raises(ContentErrors) as e:
        load(*packs, expansions=None if expansions is None else list(expansions))
    return e.value.errors


def test_a_fork_changes_a_number_removes_a_card_and_adds_a_card_and_a_task(tmp_path):
    base = load(expansions=["none"])
    fork = load(house_rules(tmp_path), expansions=["none"])
    assert (base.rules.draw_count, fork.rules.draw_count) == (3, 2)
    assert fork.rules.start_hand == base.rules.start_hand  # merged, not replaced
    assert "diao_hu_li_shan" in base.card_types and "diao_hu_li_shan" not in fork.card_types
    assert not [e for e in fork.deck if e.card_type == "diao_hu_li_shan"]
    removed = [e for e in base.deck_for(5) if e.card_type == "diao_hu_li_shan"]
    assert removed and len(fork.deck_for(5)) == len(base.deck_for(5)) - len(removed) + 1  # 201 joins
    assert [e.uid for e in fork.deck if e.card_type == "mi_dian"] == [201, 202]
    assert 201 in fork.decks["standard"] and 202 not in fork.decks["standard"] and 202 in fork.decks["full"]
    assert "shou_cang_jia" in fork.tasks and set(base.tasks) < set(fork.tasks)
    assert fork.origins["card", "mi_dian"].pack == "jia_gui"
    assert fork.origins["card", "po_yi"].pack == "base"
    assert [p.id for p in fork.packs] == ["base", "jia_gui"]
    assert "jia_gui: rules draw_count 3 → 2" in fork.changes
    assert "jia_gui: card diao_hu_li_shan removed" in fork.changes
    assert "jia_gui: card mi_dian added" in fork.changes


def test_the_fork_validates_and_plays_from_the_command_line(tmp_path, monkeypatch):
    house_rules(tmp_path)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["validate", "jia_gui"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["simulate", "-n", "20", "-j", "1", "-s", "1", "--content", "jia_gui", "-p", "9"])
    assert r.exit_code == 0, r.output
    assert "13 card types" in r.output  # 13 - 调虎离山 + 密电
    assert "收藏家" in r.output


def test_a_removed_card_kind_is_gone_and_what_names_it_says_so(tmp_path):
    """张一挺 declares from card_names(): the fork's cards. 城府 names 【试探】: removing 试探 is an error there."""
    fork = load(house_rules(tmp_path), expansions=["none"])
    assert "密电" in {ct.name for ct in fork.card_types.values()}
    manifest = "id: jia_gui\nname: 家规\nextends: [base]\nremove:\n  cards: [shi_tan]\n"
    errs = errors_of(house_rules(tmp_path, manifest), expansions=None)  # the expansions' roles name 试探 too
    assert errs and all(e.code == "E305" for e in errs)
    naming = sorted({Path(e.path).stem for e in errs})
    assert {"li_ning_yu", "jian_xian_sheng"} <= set(naming)  # 城府, 从容应对 name 【试探】
    assert "【试探】 was removed by pack 'jia_gui'" in errs[0].message and "remove:" in errs[0].hint
    # removing the roles the errors name makes a game without 试探
    manifest += f"  roles: [{', '.join(naming)}]\n"
    (tmp_path / "jia_gui" / "pack.yaml").write_text(manifest, encoding="utf-8")
    content = load(tmp_path / "jia_gui")
    assert "shi_tan" not in content.card_types and not set(naming) & set(content.roles)


def test_a_rule_row_removed_with_null(tmp_path):
    manifest = """\
        id: jia_gui
        name: 家规
        extends: [base]
        rules:
          identity_table: {10: null}
        """
    fork = load(house_rules(tmp_path, manifest))
    assert 10 not in fork.rules.identity_table and 9 in fork.rules.identity_table
    r = CliRunner().invoke(main, ["simulate", "-p", "10", "-n", "1", "-s", "1", "--content", str(tmp_path / "jia_gui")])
    assert r.exit_code == 2 and "no identity table for 10 players" in r.output


def test_a_merged_rule_that_breaks_is_reported_in_the_pack_yaml(tmp_path):
    manifest = """\
        id: jia_gui
        name: 家规
        extends: [base]
        rules:
          identity_table:
            5: {qian_fu_zhan_xian: 3}
        """
    [err] = errors_of(house_rules(tmp_path, manifest))
    assert err.code == "E122" and err.path.endswith("jia_gui/pack.yaml") and err.line == 6


@pytest.mark.parametrize(
    "manifest, code, line, hint",
    [
        ("id: p\nname: P\nrules:\n  draw_cont: 2\n", "E111", 4, "draw_count"),
        ("id: p\nname: P\nrules:\n  draw_count: two\n", "E113", 4, None),
        ("id: p\nname: P\nremove:\n  cards: [shi_tam]\n", "E121", 4, "shi_tan"),
        ("id: p\nname: P\nreplace:\n  roles: [lao_bei]\n", "E121", 4, "lao_bie"),
        ("id: p\nname: P\nextends: [bsae]\n", "E121", 3, "base"),
        ("id: p\nname: P\ndeck:\n  remove: [999]\n", "E121", 4, None),
        ("id: p\nname: P\ndeck:\n  add:\n    - {id: 5, card: po_yi, colors: [red], direction: up}\n", "E120", 5, None),
        (
            "id: p\nname: P\ndeck:\n  add:\n    - {id: 300, card: po_yi, colors: [red], direction: up, decks: [big]}\n",
            "E121",
            5,
            None,
        ),
        ("id: p\nname: P\nremvoe:\n  cards: [shi_tan]\n", "E111", 3, "remove"),
    ],
)
def test_every_manifest_mistake_is_reported_at_its_line(tmp_path, manifest, code, line, hint):
    pack = write(tmp_path / "p", {"pack.yaml": manifest})
    errs = errors_of(pack)
    assert [(e.code, e.line) for e in errs] == [(code, line)], [str(e) for e in errs]
    assert errs[0].path.endswith("p/pack.yaml")
    if hint:
        assert hint in (errs[0].hint or ""), errs[0].hint


def test_a_slip_in_an_expansion_role_id_is_hinted_with_it_whatever_is_played(tmp_path):
    """The hint names a_fu_luo_la_jian_die (老洋房·二扩), played or not — not a_fu_luo_la, a shorter id."""
    pack = write(tmp_path / "p", {"pack.yaml": "id: p\nname: P\nremove:\n  roles: [a_fu_luo_la_jian_dei]\n"})
    for expansions in (None, ("none",)):
        [err] = errors_of(pack, expansions=expansions)
        assert (err.code, err.line, err.hint) == ("E121", 4, "did you mean a_fu_luo_la_jian_die?")


def test_a_second_definition_needs_replace(tmp_path):
    role = (Path(__file__).parents[1] / "content" / "roles" / "lao_bie.yaml").read_text(encoding="utf-8")
    files = {"roles/lao_bie.yaml": role.replace("name: 老鳖", "name: 老鳖二")}
    pack = write(tmp_path / "p", {"pack.yaml": "id: p\nname: P\n", **files})
    [err] = errors_of(pack)
    assert err.code == "E120" and "already defined by pack 'base'" in err.message and "replace:" in err.hint
    (pack / "pack.yaml").write_text("id: p\nname: P\nreplace:\n  roles: [lao_bie]\n", encoding="utf-8")
    content = load(pack)
    assert content.roles["lao_bie"].name == "老鳖二" and content.origins["role", "lao_bie"].pack == "p"
    assert "p: role lao_bie replaced" in content.changes


def test_a_folder_beside_the_pack_named_bare_is_hinted_with_its_relative_name(tmp_path):
    """`extends: [lib]` names tmp/p/lib (a folder is relative to the pack's own), not the pack lib beside it: the
    hint says to write ../lib, not a bundled pack's name."""
    write(tmp_path / "lib", {"pack.yaml": "id: lib\nname: L\nextends: [base]\n"})
    pack = write(tmp_path / "p", {"pack.yaml": "id: p\nname: P\nextends: [base, lib]\n"})
    [err] = errors_of(pack)
    assert (err.code, err.line) == ("E121", 3) and "relative to the pack's own folder" in err.message
    assert "'../lib'" in (err.hint or ""), err.hint
    (pack / "pack.yaml").write_text("id: p\nname: P\nextends: [base, ../lib]\n", encoding="utf-8")
    assert load(pack).packs[-1].id == "p"  # (the same name as the hint writes it: loaded)


def test_packs_that_extend_each_other(tmp_path):
    write(tmp_path / "a", {"pack.yaml": "id: a\nname: A\nextends: [../b]\n"})
    write(tmp_path / "b", {"pack.yaml": "id: b\nname: B\nextends: [../a]\n"})
    errs = errors_of(tmp_path / "a")
    assert [e.code for e in errs] == ["E124"] and "the packs extend each other" in errs[0].message


def test_a_fork_loaded_alone_is_told_its_base_is_not_loaded():
    """load_cached loads the folders exactly as given: a pack.yaml fork alone was told the pack it extends is
    "loaded after it: the packs extend each other", which it is not (it is not loaded at all). The first error
    says so and points to load_packs, which lays the fork over the bundled game."""
    fork = Path(__file__).parents[1] / "examples" / "jia_gui"
    with pytest.raises(ContentErrors) as e:
        load_cached([fork])
    first = e.value.errors[0]
    assert first.code == "E124" and "'base', which is not among the folders loaded" in first.message, first
    assert "extend each other" not in first.message and "load_packs" in (first.hint or "")
    assert load_packs([fork]).rules.draw_count == 2  # (what it points to loads it)


def test_extends_loads_what_a_pack_needs(tmp_path):
    """A pack that extends an expansion gets it even with --expansions none; one that extends a folder gets it first."""
    write(tmp_path / "lib", {"pack.yaml": "id: lib\nname: Lib\n", "cards/mi_dian.yaml": NEW_CARD})
    write(tmp_path / "top", {"pack.yaml": "id: top\nname: Top\nextends: [tie_wu_zi, ../lib]\n"})
    packs = resolve_packs([tmp_path / "top"], ["none"])
    assert [p.name for p in packs[1:]] == ["tie_wu_zi", "lib", "top"]
    content = load_content(packs)
    assert "mi_dian" in content.card_types and "qian_min" in content.roles


def test_a_pack_replacing_a_rule_another_pack_changed_is_warned_once_per_pack(tmp_path):
    """Packs layered side by side (neither extends the other) that set the same rule: the later one's list or value
    replaces the earlier one's change without a word (house rules' second contest round dropped by a pack listing the
    turn's phases again). W118 at the later pack's rule, once per pack it undoes; none for the same value again, for
    an edit of the turn by phase id (it builds on what is there), or for a pack that extends the other."""

    def pack(name: str, extends: str, rules: str) -> Path:
        return write(tmp_path / name, {"pack.yaml": f"id: {name}\nname: {name}\nextends: [{extends}]\nrules:\n{rules}"})

    a = pack("a", "base", "  hand_limit: 4\n  draw_count: 3\n  turn:\n    set: {contest: {rounds: 2}}\n")
    b = pack("b", "base", "  hand_limit: 5\n  draw_count: 1\n  turn: [draw, play, send, contest, receive]\n")
    same = pack("same", "base", "  hand_limit: 4\n")
    edits = pack("edits", "base", "  turn:\n    set: {draw: {count: 3}}\n")
    heir = pack("heir", "base, ../a", "  hand_limit: 6\n")

    def warned(*packs: Path) -> list[tuple[str, int, str]]:
        found = load(*packs, expansions=["none"]).warnings
        return [(w.code, w.line, w.message) for w in found if w.code == "W118"]

    [(_, line, message)] = warned(a, b)
    assert line == 5 and "replaces the rules' hand_limit (and 2 more of its rules), which pack 'a' changed" in message
    [(_, _, message)] = warned(b, a)  # (a's turn edit builds on b's turn: two rules lost, not three)
    assert "replaces the rules' hand_limit (and 1 more of its rules), which pack 'b' changed" in message
    assert warned(a, same) == [] and warned(a, edits) == [] and warned(a, heir) == []
