"""`fengsheng new`, `pack show` and `pack diff`: a modder's commands, end to end in a temporary folder."""

from __future__ import annotations

import json

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
        assert first.startswith("# yaml-language-server: $schema=file://") and first.endswith(".schema.json")
    r = run("validate", "jia_gui")
    assert r.exit_code == 0 and "14 cards, 120 deck cards, 8 secret tasks" in r.output, r.output
    r = run("scenario", "run", "jia_gui/tests")
    assert r.exit_code == 0 and "2 passed, 0 failed" in r.output, r.output
    sim = run("simulate", "-n", "30", "-j", "1", "--content", "jia_gui")
    assert sim.exit_code == 0 and "packs: base, lao_yang_fang, tie_wu_zi, jia_gui" in sim.output


def test_new_overwrites_nothing_and_checks_the_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("new", "pack", "p")
    again = CliRunner().invoke(main, ["new", "pack", "p"])
    assert again.exit_code == 1 and "exists already" in again.output
    bad = CliRunner().invoke(main, ["new", "role", "Ce-Shi"])
    assert bad.exit_code == 2 and "pinyin snake_case" in bad.output


def test_pack_show_lists_the_resolved_rule_set(tmp_path):
    fork = house_rules(tmp_path)
    r = run("pack", "show", str(fork), "--json")
    data = json.loads(r.output)
    assert [p["id"] for p in data["packs"]] == ["base", "lao_yang_fang", "tie_wu_zi", "jia_gui"]
    assert data["rules"]["draw_count"] == 2 and "diao_hu_li_shan" not in data["cards"]
    assert data["cards"]["mi_dian"]["pack"] == "jia_gui"
    text = run("pack", "show", str(fork)).output
    assert "draw_count: 2" in text and "jia_gui: rules draw_count 3 → 2" in text
    assert run("pack", "show", "tie_wu_zi", "--json").exit_code == 0
    unknown = CliRunner().invoke(main, ["pack", "show", "tie_wu"])
    assert unknown.exit_code == 2 and "neither a folder nor a bundled pack" in unknown.output


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
