"""`fengsheng new`, `pack show` and `pack diff`: a modder's commands, end to end in a temporary folder."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_pack_manifest import house_rules

from interpreter.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_new_writes_files_that_validate_and_scenarios_that_pass(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("new", "pack", "jia_gui").exit_code == 0
    assert run("new", "role", "ce_shi_yuan", "--in", "jia_gui").exit_code == 0
    r = run("new", "card", "mi_dian", "--in", "jia_gui")
    assert r.exit_code == 0 and "added copies #119 and #120" in r.output
    assert run("new", "task", "shou_cang", "--in", "jia_gui").exit_code == 0
    for f in ("pack.yaml", "roles/ce_shi_yuan.yaml", "cards/mi_dian.yaml", "secret_tasks/shou_cang.yaml"):
        first = (tmp_path / "jia_gui" / f).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=") and first.endswith(".schema.json")
    r = run("validate", "jia_gui")
    decks = "120 deck cards (90 at 2–4 players, 112 at 5–8, 120 at 9–10)"  # (the new card's copies in every deck)
    assert r.exit_code == 0 and f"14 cards, {decks}, 8 secret tasks" in r.output, r.output
    r = run("scenario", "run", "jia_gui/tests")
    assert r.exit_code == 0 and "2 passed, 0 failed" in r.output, r.output
    sim = run("simulate", "-n", "30", "-j", "1", "-s", "1", "--content", "jia_gui")
    assert sim.exit_code == 0 and "packs: base, tie_wu_zi, lao_yang_fang, jia_gui" in sim.output


def test_a_new_packs_commented_rules_show_a_rule_skill_that_validates_uncommented(tmp_path, monkeypatch):
    """The manifest `new pack` writes shows, commented out, a house rule every seat holds (a rule skill, with the
    pack's id as its prefix) beside a rule number; its `rules:` block uncommented validates and plays it. The
    template said nothing of rule skills: a modder starting there met only draw_count."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "pack", "jia_fa").exit_code == 0
    manifest = tmp_path / "jia_fa" / "pack.yaml"
    lines = manifest.read_text(encoding="utf-8").splitlines()
    start = lines.index("# rules:")
    block = list(itertools.takewhile(lambda line: line.startswith(("# rules:", "#   ")), lines[start:]))
    assert "#     - id: jia_fa_bu_pai" in block, lines
    lines[start : start + len(block)] = [line[2:] for line in block]
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run("validate", "jia_fa").exit_code == 0
    r = run("describe", "规则技能", "--content", "jia_fa")
    assert "【补牌】你的回合结束时，你可以摸一张牌。" in r.output, r.output


def test_new_writes_a_pack_that_works_in_another_folder_with_its_own_schemas(tmp_path, monkeypatch):
    """A co-designer clones the pack elsewhere: it validates, its scenarios pass, and each file's $schema names
    the pack's own copy of its schema, relative to the file (as yaml-language-server resolves it), which the
    file meets; no path of the author's machine is written in it."""
    import shutil

    import jsonschema
    import yaml

    from interpreter.paths import SCHEMA_DIR

    monkeypatch.chdir(tmp_path)
    assert run("new", "pack", "jia_gui").exit_code == 0
    for kind, name in (("role", "ce_shi"), ("card", "mi_dian"), ("task", "shou_cang")):
        assert run("new", kind, name, "--in", "jia_gui").exit_code == 0
    clone = tmp_path / "elsewhere" / "deeper" / "jia_gui"
    shutil.copytree(tmp_path / "jia_gui", clone)
    shutil.rmtree(tmp_path / "jia_gui")
    monkeypatch.chdir(tmp_path / "elsewhere")
    r = run("validate", "deeper/jia_gui")
    assert r.exit_code == 0 and r.output.startswith("ok: 14 cards, 120 deck cards"), r.output
    r = run("scenario", "run", "deeper/jia_gui")
    assert r.exit_code == 0 and "2 passed, 0 failed" in r.output, r.output
    files = sorted(clone.rglob("*.yaml"))
    assert len(files) == 6  # pack.yaml, a role, a card, a task, two scenarios
    validators: dict = {}  # by schema file: each schema checked once (the two scenarios share one)
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert str(tmp_path) not in text and "file:" not in text
        first = text.splitlines()[0]
        target = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert target is not None and not Path(target[1]).is_absolute(), first
        schema_file = (f.parent / target[1]).resolve()
        assert schema_file.parent == (clone / ".schema").resolve(), first
        assert schema_file.read_text(encoding="utf-8") == (SCHEMA_DIR / schema_file.name).read_text(encoding="utf-8")
        if schema_file not in validators:  # (what jsonschema.validate does, the schema's check once)
            schema = json.loads(schema_file.read_text(encoding="utf-8"))
            kind = jsonschema.validators.validator_for(schema)
            kind.check_schema(schema)
            validators[schema_file] = kind(schema)
        validators[schema_file].validate(yaml.safe_load(text))


def test_new_refreshes_the_packs_schema_copies(tmp_path, monkeypatch):
    """A pack made by an older fengsheng (or by hand): `new` brings this fengsheng's schemas into .schema/."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "pack.yaml").write_text("id: p\nname: p\nextends: [base]\n", encoding="utf-8")
    r = run("new", "task", "shou_cang", "--in", "p")
    assert r.exit_code == 0 and "wrote p/.schema/secret_task.schema.json" in r.output, r.output
    (tmp_path / "p" / ".schema" / "role.schema.json").write_text("{}", encoding="utf-8")
    r = run("new", "role", "ce_shi", "--in", "p")
    assert r.exit_code == 0 and "updated p/.schema/role.schema.json" in r.output, r.output
    assert "secret_task.schema.json" not in r.output  # unchanged: not written again
    assert json.loads((tmp_path / "p" / ".schema" / "role.schema.json").read_text(encoding="utf-8"))["$id"]


def test_a_scenario_playing_a_skill_the_role_no_longer_has_names_it(tmp_path, monkeypatch):
    """The designer replaced the new role's skill: its example scenario's first failure names the skill it
    plays, at its line, with the role's skill to use instead — not "answers left unused"."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "pack", "jia_gui").exit_code == 0
    assert run("new", "role", "ce_shi", "--in", "jia_gui").exit_code == 0
    role = tmp_path / "jia_gui" / "roles" / "ce_shi.yaml"
    text = role.read_text(encoding="utf-8")
    text = text[: text.index("skills:")] + (
        "skills:\n  - id: ce_shi_ji_lu\n    name: 记录\n    text: 你接收黑色情报后，可以摸两张牌。\n"
        "    kind: triggered\n    trigger: received\n    optional: true\n"
        "    condition: subject == self and this_card has black\n    effect: draw(self, 2)\n"
    )
    role.write_text(text, encoding="utf-8")
    r = run("scenario", "run", "jia_gui/tests")
    assert r.exit_code == 1, r.output
    first = next(line for line in r.output.splitlines() if line.startswith("  - "))
    assert "role_ce_shi_example.scenario.yaml:15:7: answers.0: 'skill 新技能' names no skill" in first, r.output
    assert "(P0's role ce_shi has: 记录); did you mean skill 记录?" in first
    assert "left unused" not in r.output


def test_new_overwrites_nothing_and_checks_the_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    again = CliRunner().invoke(main, ["new", "pack", "p"])
    assert again.exit_code == 1 and "exists already" in again.output
    bad = CliRunner().invoke(main, ["new", "role", "Ce-Shi"])
    assert bad.exit_code == 2 and "pinyin snake_case" in bad.output


def test_new_refuses_an_id_the_game_has_and_a_folder_that_is_no_pack(tmp_path, monkeypatch):
    """Either would write files that do not validate (E120) or are no pack at all; it writes nothing."""
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    made = sorted((tmp_path / "p").rglob("*"))  # pack.yaml, its folders and its schemas' copies
    for kind, name in (("role", "li_ning_yu"), ("card", "jie_huo"), ("task", "qing_dao_fu")):
        taken = CliRunner().invoke(main, ["new", kind, name, "--in", "p"])
        assert taken.exit_code == 1, taken.output
        assert f"the game already has a {kind} '{name}' (pack 'base'); nothing was written" in taken.output
        assert "replace:" in taken.output
    assert sorted((tmp_path / "p").rglob("*")) == made
    assert run("validate", "p").exit_code == 0
    loose = CliRunner().invoke(main, ["new", "role", "zhang_san", "--in", "nowhere"])
    # (a mistake in the command line: exit status 2, as the other commands' --content of no pack; it was 1)
    assert loose.exit_code == 2 and "nowhere is not a pack: it has no pack.yaml" in loose.output
    assert "fengsheng new pack" in loose.output and not (tmp_path / "nowhere").exists()


def test_pack_show_lists_the_resolved_rule_set(tmp_path):
    fork = house_rules(tmp_path)
    r = run("pack", "show", str(fork), "--format", "json")
    data = json.loads(r.output)
    assert [p["id"] for p in data["packs"]] == ["base", "tie_wu_zi", "lao_yang_fang", "jia_gui"]
    assert data["rules"]["draw_count"] == 2 and "diao_hu_li_shan" not in data["cards"]
    assert data["cards"]["mi_dian"]["pack"] == "jia_gui"
    text = run("pack", "show", str(fork)).output
    assert "draw_count: 2" in text and "jia_gui: rules draw_count 3 → 2" in text
    assert run("pack", "show", "tie_wu_zi", "--format", "json").exit_code == 0
    unknown = CliRunner().invoke(main, ["pack", "show", "tie_wu"])
    assert unknown.exit_code == 2 and "neither a folder nor a bundled pack" in unknown.output


def test_pack_show_words_an_unset_rule_as_none_not_pythons_none(tmp_path):
    """The base game leaves hand_limit unset: `pack show` says `none`, the word pack diff and the docs use (it
    printed Python's `None`); the JSON keeps null."""
    text = run("pack", "show").output
    assert "  hand_limit: none\n" in text and "None" not in text
    assert json.loads(run("pack", "show", "--format", "json").output)["rules"]["hand_limit"] is None
    limited = tmp_path / "limited"
    limited.mkdir()
    (limited / "pack.yaml").write_text("id: limited\nname: 手牌上限\nrules:\n  hand_limit: 4\n", encoding="utf-8")
    assert "  hand_limit: 4\n" in run("pack", "show", str(limited)).output


def test_pack_diff_says_exactly_what_a_fork_changes(tmp_path):
    fork = house_rules(tmp_path)
    r = CliRunner().invoke(main, ["pack", "diff", "base", str(fork)])
    assert r.exit_code == 1
    lines = r.output.splitlines()[1:]
    assert lines == [
        "  rules draw_count: 3 → 2",
        "  deck full (9-10 players): 118 → 116 cards (密电 0 → 2; 调虎离山 4 → 0)",
        "  deck small (2-4 players): 88 → 89 cards (密电 0 → 1)",  # 202 joins the full deck only
        "  deck standard (5-8 players): 110 → 107 cards (密电 0 → 1; 调虎离山 4 → 0)",
        "  - card 调虎离山 (diao_hu_li_shan)",
        "  + card 密电 (mi_dian, pack jia_gui)",
        "  + secret task 收藏家 (shou_cang_jia, pack jia_gui)",
    ], r.output
    same = CliRunner().invoke(main, ["pack", "diff", "base", "base"])
    assert same.exit_code == 0 and "the same game" in same.output


def test_pack_diff_compares_without_expansions_unless_told_and_its_help_says_so():
    """The balance report's diff of examples/jia_gui (a sweep plays every expansion) lists 阿芙罗拉（间谍）, an
    expansion's role the fork removes; `pack diff` alone compares the base game without expansions, so only
    `--expansions all` lists it. Its --help said "all (the default)" all the same."""
    fork = str(Path(__file__).parent.parent / "examples" / "jia_gui")
    removed = "  - role 阿芙罗拉（间谍） (a_fu_luo_la_jian_die)"
    assert removed not in run("pack", "diff", "base", fork).output.splitlines()
    assert removed in run("pack", "diff", "base", fork, "--expansions", "all").output.splitlines()
    said = " ".join(run("pack", "diff", "--help").output.split())
    assert "none (the default" in said and "all (the default" not in said


def test_pack_diff_json_is_a_record_per_change(tmp_path, monkeypatch):
    """Not the human lines: what kind of thing changed, which one, which field, from what to what."""
    fork = house_rules(tmp_path)
    r = run("pack", "diff", "base", str(fork), "--format", "json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert data["base"] == "base" and data["fork"] == str(fork) and data["same"] is False
    changes = data["changes"]
    none = {"object": None, "name": None, "pack": None, "field": None, "old": None, "new": None}
    assert changes[0] == {**none, "kind": "rules", "change": "changed", "field": "draw_count", "old": 3, "new": 2}
    deck = {**none, "kind": "deck", "change": "changed", "object": "standard (5-8 players)"}
    assert {**deck, "field": "调虎离山", "old": 4, "new": 0} in changes and {
        **deck,
        "field": "密电",
        "old": 0,
        "new": 1,
    } in changes
    removed = {
        **none,
        "kind": "card",
        "change": "removed",
        "object": "diao_hu_li_shan",
        "name": "调虎离山",
        "pack": "base",
    }
    assert removed in changes
    added = {
        **none,
        "kind": "secret_task",
        "change": "added",
        "object": "shou_cang_jia",
        "name": "收藏家",
        "pack": "jia_gui",
    }
    assert added in changes
    assert len(changes) == 1 + 5 + 3  # the rule, five deck counts, a card out, a card and a task in
    # a card changed in place: one record per field that differs
    monkeypatch.chdir(tmp_path)
    assert run("new", "pack", "a").exit_code == 0 and run("new", "card", "mi_dian", "--in", "a").exit_code == 0
    import shutil

    shutil.copytree(tmp_path / "a", tmp_path / "b")
    card = tmp_path / "b" / "cards" / "mi_dian.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("其摸一张牌。", "其摸两张牌。"), encoding="utf-8")
    data = json.loads(run("pack", "diff", "a", "b", "--format", "json").stdout)
    assert data["changes"] == [
        {
            "kind": "card",
            "change": "changed",
            "object": "mi_dian",
            "name": "mi_dian",
            "pack": "a",
            "field": "text",
            "old": "出牌阶段，对一名其他角色使用。其摸一张牌。",
            "new": "出牌阶段，对一名其他角色使用。其摸两张牌。",
        }
    ]
    assert run("pack", "diff", "a", "b").output.splitlines()[1:] == ["  ~ card mi_dian (mi_dian, pack a): text changed"]
    same = run("pack", "diff", "base", "base", "--format", "json")
    assert same.exit_code == 0 and json.loads(same.stdout) == {
        "base": "base",
        "fork": "base",
        "same": True,
        "changes": [],
    }


def test_pack_json_keeps_its_old_spelling_for_a_release(tmp_path):
    fork = house_rules(tmp_path)
    for command in (["pack", "show", str(fork)], ["pack", "diff", "base", str(fork)]):
        old, new = run(*command, "--json"), run(*command, "--format", "json")
        assert old.exit_code == new.exit_code and json.loads(old.stdout) == json.loads(new.stdout)
        assert "note: --json is deprecated and goes in the next release: use --format json" in old.stderr
        assert new.stderr == "" and "--json" not in run(*command[:2], "--help").output  # hidden


def _rule_set_copy(tmp_path, listed, extra):
    """A copy of the bundled rule set whose pack.yaml lists `listed` as its expansions; `extra`: more
    expansion folders, name -> what each extends."""
    import shutil

    from interpreter.content.loader import BUNDLED_CONTENT

    rs = tmp_path / "rs"
    shutil.copytree(BUNDLED_CONTENT, rs, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = rs / "pack.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(
        "\n".join(
            f"expansions: [{', '.join(listed)}]" if line.startswith("expansions:") else line
            for line in text.splitlines()
        )
        + "\n",
        encoding="utf-8",
    )
    for name, extends in extra.items():
        (rs / "expansions" / name).mkdir()
        (rs / "expansions" / name / "pack.yaml").write_text(
            f"id: {name}\nname: {name}\nversion: '1'\nextends: [{', '.join(extends)}]\n", encoding="utf-8"
        )
    return rs


def test_pack_show_lists_the_expansions_as_they_resolve(tmp_path):
    text = run("pack", "show").output.splitlines()
    assert [line.split()[0] for line in text[1:4]] == ["base", "tie_wu_zi", "lao_yang_fang"]  # 一扩, then 二扩
    # listed first in the order pack.yaml gives; one that extends another after it; the unlisted by name
    rs = _rule_set_copy(
        tmp_path, ["aa_later", "lao_yang_fang"], {"aa_later": ["../..", "../tie_wu_zi"], "zz_more": ["../.."]}
    )
    data = json.loads(run("pack", "show", str(rs), "--format", "json").output)
    assert [p["id"] for p in data["packs"]] == ["base", "tie_wu_zi", "aa_later", "lao_yang_fang", "zz_more"]


def test_a_listed_expansion_that_is_not_there_is_named(tmp_path):
    rs = _rule_set_copy(tmp_path, ["tie_wu_zi", "lao_yang_fan"], {})
    r = CliRunner().invoke(main, ["validate", "--format", "json", str(rs)])
    found = json.loads(r.stdout)
    errors = found["errors"] if isinstance(found, dict) else found
    assert [(e["code"], e["line"]) for e in errors] == [("E121", 7)], errors
    assert "lao_yang_fan" in errors[0]["message"] and "did you mean lao_yang_fang?" in errors[0]["hint"]


def test_a_rule_set_copied_without_a_listed_expansion_loads(tmp_path):
    import shutil

    rs = _rule_set_copy(tmp_path, ["tie_wu_zi", "lao_yang_fang"], {})
    shutil.rmtree(rs / "expansions" / "lao_yang_fang")
    r = CliRunner().invoke(main, ["validate", str(rs)])
    assert r.exit_code == 0, r.output


def test_the_balance_walkthrough_role_and_its_scenario_pass_as_docs_balance_md_shows_them(tmp_path, monkeypatch):
    """docs/balance.md §1: new pack, new role, the role's YAML and the scenario changed with it, as printed."""
    doc = (Path(__file__).parents[1] / "docs" / "balance.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", doc, re.S)
    role = next(b for b in blocks if b.startswith("id: lao_zhang"))
    scenario = next(b for b in blocks if b.startswith("name: 新技能"))
    monkeypatch.chdir(tmp_path)
    assert run("new", "pack", "my_pack").exit_code == 0
    assert run("new", "role", "lao_zhang", "--in", "my_pack").exit_code == 0
    (tmp_path / "my_pack" / "roles" / "lao_zhang.yaml").write_text(role, encoding="utf-8")
    example = tmp_path / "my_pack" / "tests" / "role_lao_zhang_example.scenario.yaml"
    r = run("scenario", "run", "my_pack/tests")  # the scenario `new role` wrote, as the doc says, fails
    assert r.exit_code == 1 and "P0 hand: expected [], got [110]" in r.output, r.output
    example.write_text(scenario, encoding="utf-8")
    assert run("validate", "my_pack").exit_code == 0
    r = run("scenario", "run", "my_pack/tests")
    assert r.exit_code == 0 and "1 passed, 0 failed" in r.output, r.output


def test_the_misspelt_rule_key_of_docs_modding_md_is_reported_where_the_doc_says(tmp_path, monkeypatch):
    """docs/modding.md §3 shows `validate`'s error for `draw_cont:` added at the end of the pack.yaml `new pack`
    writes. It said line 19, from a shorter template; the file has grown since and a newcomer got line 28."""
    doc = (Path(__file__).parents[1] / "docs" / "modding.md").read_text(encoding="utf-8")
    shown = re.search(r"```\n(jia_gui/pack\.yaml:\d+:\d+: error E111: unknown key 'draw_cont'\n.*?)```", doc, re.S)
    assert shown, "docs/modding.md lost its E111 example"
    monkeypatch.chdir(tmp_path)
    assert run("new", "pack", "jia_gui").exit_code == 0
    manifest = tmp_path / "jia_gui" / "pack.yaml"
    text = manifest.read_text(encoding="utf-8").replace("name: jia_gui\n", "name: 家规\n")  # §2: its Chinese name
    manifest.write_text(text + "rules:\n  draw_cont: 2\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", "jia_gui"])
    assert r.exit_code == 1 and r.output.startswith(shown.group(1)), r.output


def test_a_second_new_card_adds_its_own_copies_and_a_scenario_that_passes(tmp_path, monkeypatch):
    """Before, the second card got no deck copies and a scenario using the first card's copy: it failed."""
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    assert "added copies #119 and #120" in run("new", "card", "ka", "--in", "p").output
    second = run("new", "card", "kb", "--in", "p")
    assert second.exit_code == 0 and "added copies #121 and #122 of kb" in second.output
    text = (tmp_path / "p" / "pack.yaml").read_text(encoding="utf-8")
    assert (
        len(re.findall(r"^deck:", text, re.M)) == 1 and "{id: 122, card: kb, colors: [blue], direction: right}" in text
    )
    assert run("validate", "p").exit_code == 0
    r = run("scenario", "run", "p/tests")
    assert r.exit_code == 0 and "2 passed, 0 failed" in r.output, r.output


def test_new_card_adds_to_a_deck_block_the_designer_wrote(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    manifest = tmp_path / "p" / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "deck:\n  remove: [1]\n", encoding="utf-8")
    assert run("new", "card", "ka", "--in", "p").exit_code == 0
    assert "deck:\n  add:\n    - {id: 119, card: ka" in manifest.read_text(encoding="utf-8")
    assert run("validate", "p").exit_code == 0
    assert run("scenario", "run", "p/tests").exit_code == 0
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("deck:\n", "deck: {remove: [2]}\nx:\n"))
    before = sorted(p.name for p in (tmp_path / "p").rglob("*"))
    one_line = CliRunner().invoke(main, ["new", "card", "kc", "--in", "p"])
    assert one_line.exit_code == 1 and "written on one line; nothing was written" in one_line.output
    assert sorted(p.name for p in (tmp_path / "p").rglob("*")) == before


def test_new_writes_files_with_the_users_umask_and_keeps_the_manifests_mode(tmp_path, monkeypatch):
    """`new` wrote every file through mkstemp, private to its author (0600) whatever the umask: a pack in a shared
    folder was unreadable by the co-designers it is for, and `new card` turned pack.yaml private too."""
    import os
    import stat

    if os.name != "posix":
        pytest.skip("file modes and the umask are POSIX's")
    monkeypatch.chdir(tmp_path)
    old = os.umask(0o022)
    try:
        run("new", "pack", "p")
        manifest = tmp_path / "p" / "pack.yaml"
        assert stat.S_IMODE(manifest.stat().st_mode) == 0o644
        assert stat.S_IMODE((tmp_path / "p" / ".schema" / "role.schema.json").stat().st_mode) == 0o644
        manifest.chmod(0o664)
        os.umask(0o077)
        run("new", "card", "kc", "--in", "p")
        assert stat.S_IMODE(manifest.stat().st_mode) == 0o664  # rewritten with its copies, its mode kept
        assert stat.S_IMODE((tmp_path / "p" / "cards" / "kc.yaml").stat().st_mode) == 0o600  # this umask's
    finally:
        os.umask(old)


def test_new_writes_whole_or_nothing(tmp_path, monkeypatch):
    """A 250-character id: its scenario's name is too long for a file system. Before, the card and two deck
    copies were written, then the scenario failed: a pack left half-changed. Now nothing is written."""
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    manifest = (tmp_path / "p" / "pack.yaml").read_text(encoding="utf-8")
    made = sorted((tmp_path / "p").rglob("*"))
    r = CliRunner().invoke(main, ["new", "card", "k" * 250, "--in", "p"])
    assert r.exit_code == 1 and "more than the 255 a file system takes" in r.output
    assert "nothing was written" in r.output and "Traceback" not in r.output
    assert sorted((tmp_path / "p").rglob("*")) == made
    assert (tmp_path / "p" / "pack.yaml").read_text(encoding="utf-8") == manifest


def test_new_leaves_nothing_when_a_write_fails(tmp_path, monkeypatch):
    """A folder it cannot write in (read-only): the files written before it are taken away again."""
    import os

    if os.geteuid() == 0:  # root writes anywhere: a file in the folder's place fails instead
        monkeypatch.chdir(tmp_path)
        run("new", "pack", "p")
        (tmp_path / "p" / "tests").rmdir()
        (tmp_path / "p" / "tests").write_text("not a folder", encoding="utf-8")
        made = sorted((tmp_path / "p").rglob("*"))
        r = CliRunner().invoke(main, ["new", "role", "zhang_san", "--in", "p"])
        assert r.exit_code == 1 and "is not a folder; nothing was written" in r.output
        assert sorted((tmp_path / "p").rglob("*")) == made
        return
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    (tmp_path / "p" / "tests").chmod(0o500)
    made = sorted((tmp_path / "p").rglob("*"))
    try:
        r = CliRunner().invoke(main, ["new", "role", "zhang_san", "--in", "p"])
    finally:
        (tmp_path / "p" / "tests").chmod(0o700)
    assert r.exit_code == 1 and "nothing was written" in r.output
    assert sorted((tmp_path / "p").rglob("*")) == made


def test_new_help_says_which_kinds_come_with_a_scenario_as_new_writes_them(tmp_path, monkeypatch):
    """The help said every kind came 'with a scenario that passes': a pack and a task come with none (a newcomer
    then met 'no *.scenario.yaml files found' from the scenario run it suggested)."""
    monkeypatch.chdir(tmp_path)
    said = " ".join(run("new", "--help").output.split())
    assert "A role or card comes with a scenario that passes" in said and "a task its file alone" in said
    assert "role or card: with a scenario)" in " ".join(run("--help").output.split())
    run("new", "pack", "p")
    run("new", "task", "t", "--in", "p")
    assert list((tmp_path / "p" / "tests").iterdir()) == []
    run("new", "role", "r", "--in", "p")
    run("new", "card", "c", "--in", "p")
    assert sorted(f.name for f in (tmp_path / "p" / "tests").iterdir()) == [
        "card_c_example.scenario.yaml",
        "role_r_example.scenario.yaml",
    ]


def test_describe_of_a_packs_card_without_its_pack_says_where_it_looked(tmp_path, monkeypatch):
    """`describe 密电` without --content looked in the bundled game and offered 密令: it now says the bundled game
    was searched and how to name the pack; with --content, the pack's card is found."""
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    run("new", "card", "mi_dian", "--in", "p")
    card = tmp_path / "p" / "cards" / "mi_dian.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("name: mi_dian", "name: 密电"), encoding="utf-8")
    lost = CliRunner().invoke(main, ["describe", "密电"])
    assert lost.exit_code == 2 and "(in the bundled game: a pack's own with --content PACK)" in lost.output
    found = CliRunner().invoke(main, ["describe", "密电", "--content", "p"])
    assert found.exit_code == 0 and found.output.startswith("密电 · 卡牌 · mi_dian · pack p")
    typo = CliRunner().invoke(main, ["describe", "密点", "--content", "p"])
    assert typo.exit_code == 2 and "did you mean 密电 (mi_dian)" in typo.output and "bundled game" not in typo.output


def test_the_pack_schema_an_editor_reads_knows_the_rules_keys_and_validate_reports_a_slip_once(tmp_path, monkeypatch):
    """editing.md promises completion and inline errors for unknown keys; pack.schema.json left `rules:` a free
    mapping, so an editor said nothing of `draw_cont:`. It now lists the rules' keys (with their descriptions),
    as rules.schema.json has them, and `validate` still reports the slip once, from the rules' own schemas."""
    import jsonschema

    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    copy = json.loads((tmp_path / "p" / ".schema" / "pack.schema.json").read_text(encoding="utf-8"))
    rules = json.loads((Path(__file__).parent.parent / "schema" / "rules.schema.json").read_text(encoding="utf-8"))
    listed = copy["properties"]["rules"]["properties"]
    assert list(listed) == list(rules["properties"])
    assert all(listed[k].get("description") == v.get("description") for k, v in rules["properties"].items())
    editor = jsonschema.Draft202012Validator(copy)
    good = {"id": "p", "name": "包", "rules": {"draw_count": 2, "identity_table": {10: None}}}
    assert list(editor.iter_errors(json.loads(json.dumps(good)))) == []
    (slip,) = editor.iter_errors({"id": "p", "name": "包", "rules": {"draw_cont": 2}})
    assert "draw_cont" in slip.message
    manifest = tmp_path / "p" / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "rules:\n  draw_cont: 2\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", "--format", "json", "p"])
    assert [(e["code"], e["message"]) for e in json.loads(r.stdout)["errors"]] == [("E111", "unknown key 'draw_cont'")]


def test_a_rule_number_out_of_range_gives_its_range_not_the_input_limits(tmp_path, monkeypatch):
    """`draw_count: 25` and a draw phase's `count: 50` were hinted 'see docs/errors.md, Limits', a table that lists
    neither; a number below its least said jsonschema's words. Now each hint gives the range and what the number
    is; a deck id past 999,999, an input limit of that table, still points there."""
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    manifest = tmp_path / "p" / "pack.yaml"
    start = manifest.read_text(encoding="utf-8")
    cases = [
        ("rules:\n  draw_count: 25\n", "25 is more than the largest allowed, 20", "from 0 to 20"),
        (
            "rules:\n  turn: [{kind: draw, count: 50}, play, send, receive]\n",
            "50 is more than the largest allowed, 20",
            "from 0 to 20: draw: how many cards the phase draws",
        ),
        ("rules:\n  max_turns: 0\n", "0 is less than the smallest allowed, 1", "at least 1: a game still running"),
        (
            "deck:\n  remove: [1000000]\n",
            "1000000 is more than the largest allowed, 999,999",
            "see docs/errors.md, Limits",
        ),
    ]
    for added, said, hint in cases:
        manifest.write_text(start + added, encoding="utf-8")
        r = CliRunner().invoke(main, ["validate", "--format", "json", "p"])
        error = json.loads(r.stdout)["errors"][0]  # (a deck id removed past the limit is also not in the deck)
        assert (error["code"], error["message"]) == ("E113", said) and error["hint"].startswith(hint), error


def test_removing_a_card_a_role_names_says_which_id_to_remove_with_it(tmp_path, monkeypatch):
    """docs/modding.md §4: the E305 of a removed card's name told the rule (remove: / replace:) but not the id of
    what names it; a designer had to read it off the game's file name. The hint now gives the line to write."""
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    manifest = tmp_path / "p" / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "remove:\n  cards: [shi_tan]\n", encoding="utf-8")
    errors = json.loads(CliRunner().invoke(main, ["validate", "--format", "json", "p"]).stdout)["errors"]
    named = {re.search(r"remove: roles: \[(\w+)\]", e["hint"]).group(1) for e in errors if e["code"] == "E305"}
    assert named == {"li_ning_yu", "jian_xian_sheng", "ya_pao"}, [e["hint"] for e in errors]
    manifest.write_text(manifest.read_text(encoding="utf-8") + f"  roles: {sorted(named)}\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["validate", "p"]).exit_code == 0  # the hints followed: it validates


def test_a_removed_card_named_by_the_packs_own_role_is_not_told_to_remove_it(tmp_path, monkeypatch):
    """The E305 hint gave the remove line for whatever named the removed card, a role of the removing pack's own
    too (a copy of examples/jia_gui whose own 画眉 names 【调虎离山】): following it gave E121 (a pack removes only
    what the packs it extends define). A file of the removing pack says to name another card or keep the kind."""
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copytree(Path(__file__).parent.parent / "examples" / "jia_gui", tmp_path / "jg")
    role = tmp_path / "jg" / "roles" / "hua_mei.yaml"
    text = role.read_text(encoding="utf-8").replace("this_card has red", "this_card has red and 【调虎离山】 != none")
    role.write_text(text, encoding="utf-8")
    errors = json.loads(CliRunner().invoke(main, ["validate", "--format", "json", "jg"]).stdout)["errors"]
    e305 = [e for e in errors if e["code"] == "E305"]
    assert len(e305) == 1 and e305[0]["path"].endswith("hua_mei.yaml"), errors
    assert "remove: roles" not in e305[0]["hint"], e305[0]
    # (it said "this file is not below pack 'jia_gui'", of a file in that pack: true, and read as a wrong folder)
    assert e305[0]["hint"].startswith("this file is in pack 'jia_gui', which removes the card kind"), e305[0]


def test_a_misspelt_rule_does_not_undeclare_the_packs_counters(tmp_path, monkeypatch):
    """A fork's pack.yaml that declares a counter and misspells another rule (`colect_count`) lost its whole `rules:`
    block: besides the E111, every card and role naming the counter got E310 "unknown counter", with a hint to
    declare what the pack does declare. The keys that are right on their own are merged; only the mistake is told."""
    monkeypatch.chdir(tmp_path)
    errors = _counting_card_errors(tmp_path, "rules:\n  colect_count: 4\n  counters:\n    线索: {max: 3}\n")
    assert [(e["code"], e["message"]) for e in errors] == [("E111", "unknown key 'colect_count'")], errors


def _counting_card_errors(tmp_path: Path, rules: str) -> list[dict]:
    """validate's errors for a new pack whose pack.yaml ends with `rules` and whose one card adds to the counter
    线索 (what a pack that declares it, or means to, names)."""
    run("new", "pack", "p")
    manifest = tmp_path / "p" / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + rules, encoding="utf-8")
    run("new", "card", "c", "--in", "p")
    card = tmp_path / "p" / "cards" / "c.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("draw(target, 1)", 'add_counter(self, "线索", 1)'))
    return json.loads(CliRunner().invoke(main, ["validate", "--format", "json", "p"]).stdout)["errors"]


def test_a_deck_copy_of_a_card_whose_file_did_not_load_points_at_that_file(tmp_path, monkeypatch):
    """A card file with a bad indentation (E101) also gave E121 "unknown card type" at each deck copy `new card`
    added, with a hint listing the card types, the pack's own left out: as if the copies named a card that does
    not exist. The hint now says the card's file did not load and that its error comes first."""
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    run("new", "card", "c", "--in", "p")
    card = tmp_path / "p" / "cards" / "c.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("    target:", "   target:"), encoding="utf-8")
    errors = json.loads(CliRunner().invoke(main, ["validate", "--format", "json", "p"]).stdout)["errors"]
    assert [e["code"] for e in errors] == ["E101", "E121", "E121"], errors
    for e121 in errors[1:]:
        assert "c.yaml" in e121["hint"] and "did not load" in e121["hint"], e121


def test_a_pack_changes_one_key_of_an_identity_and_a_new_one_still_needs_its_name(tmp_path, monkeypatch):
    """modding.md: a pack's `rules:` merges key by key. A fork lowering `collect_count` to 2 must lower the
    identities' own `>= 3` too; `identities: {qian_fu_zhan_xian: {victory: [...]}}` was refused with E112
    "missing key 'name'" and 'color', though the merged identity has both. A new identity without a name still is."""
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    manifest = tmp_path / "p" / "pack.yaml"
    start = manifest.read_text(encoding="utf-8")
    rules = (
        "rules:\n  collect_count: 2\n  identities:\n    qian_fu_zhan_xian:\n      victory:\n"
        "        - {check: collect, condition: count(intel(self) where it has red) >= 2}\n"
    )
    manifest.write_text(start + rules, encoding="utf-8")
    assert CliRunner().invoke(main, ["validate", "p"]).exit_code == 0
    run("new", "pack", "q")  # (a pack validated clean is kept for the process: another folder)
    new = "    hui_que: {color: black, victory: [{check: turn_end, condition: current == self}]}\n"
    (tmp_path / "q" / "pack.yaml").write_text(start.replace("id: p", "id: q") + rules + new, encoding="utf-8")
    errors = json.loads(CliRunner().invoke(main, ["validate", "--format", "json", "q"]).stdout)["errors"]
    hui_que = len((start + rules).splitlines()) + 1  # (the line of `hui_que:`, after what `new pack` wrote)
    assert [(e["code"], e["message"], e["line"]) for e in errors] == [("E112", "missing key 'name'", hui_que)], errors
    assert "an identity the base rules lack needs it" in errors[0]["hint"]  # (it had no hint)


def test_pack_diff_shows_a_changed_identity_and_a_declared_counter(tmp_path, monkeypatch):
    """docs/modding.md §8: `pack diff` is "exactly what your pack changes". A fork that lowered the identities'
    collect condition to 2 and declared a counter showed only `collect_count`: the identities' conditions and
    the rules' declarations were not compared."""
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    manifest = tmp_path / "p" / "pack.yaml"
    rules = (
        "rules:\n  counters:\n    线索: {max: 3}\n  identities:\n    qian_fu_zhan_xian:\n      victory:\n"
        "        - {check: collect, condition: count(intel(self) where it has red) >= 2}\n"
    )
    manifest.write_text(manifest.read_text(encoding="utf-8") + rules, encoding="utf-8")
    r = CliRunner().invoke(main, ["pack", "diff", "base", "p"])
    assert r.exit_code == 1, r.output
    lines = r.output.splitlines()[1:]
    assert lines == [
        "  rules counters: none → 线索 (0-3)",
        "  rules identity qian_fu_zhan_xian: collect count(intel(self) where it has red) >= 3"
        " → collect count(intel(self) where it has red) >= 2",
    ], r.output


def test_a_pack_yaml_that_does_not_read_is_what_the_unknown_counters_hint_points_at(tmp_path, monkeypatch):
    """A pack.yaml with a bad indentation (E101) declares nothing, so every file naming its counter also got E310
    "unknown counter" with the hint to declare it, which it does. The hint now names the pack.yaml to fix first."""
    monkeypatch.chdir(tmp_path)
    errors = _counting_card_errors(tmp_path, "rules:\n  counters:\n    线索: {max: 3}\n   hand_limit: 5\n")
    assert [e["code"] for e in errors] == ["E310", "E101"] or [e["code"] for e in errors] == ["E101", "E310"], errors
    (e310,) = [e for e in errors if e["code"] == "E310"]
    assert e310["hint"].startswith(f"{Path('p') / 'pack.yaml'} did not load"), e310


def test_a_wrong_value_in_one_counter_does_not_undeclare_the_others(tmp_path, monkeypatch):
    """One level deeper than the misspelt rule above: a counter with a wrong value (`max: "3"`) dropped the whole
    `counters:` table, so a card naming another counter, declared right beside it, got E310 "unknown counter". The
    entries right on their own are kept; only the mistake is told."""
    monkeypatch.chdir(tmp_path)
    errors = _counting_card_errors(tmp_path, 'rules:\n  counters:\n    体力: {max: "3"}\n    线索: {max: 3}\n')
    assert [(e["code"], e["message"]) for e in errors] == [("E113", "'3' should be integer")], errors


def test_every_field_of_a_skill_is_compared_by_pack_diff_or_said_apart():
    """A field added to a skill that changes how it plays must be in pack_cmd.SKILL_RULES, or a fork changing only
    it reads as the same game (as a changed limit, `optional` or `timing` did: only the texts and code were read)."""
    from dataclasses import fields

    from interpreter.model.content import Skill
    from interpreter.pack_cmd import SKILL_RULES

    apart = {"id", "name", "text", "bot", "condition", "effect", "guard", "role", "moments", "of_rules"}
    assert {f.name for f in fields(Skill)} == set(SKILL_RULES) | apart
