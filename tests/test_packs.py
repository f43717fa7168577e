"""Content packs: the base game, its expansions (content/expansions/<id>/) and a designer's packs.

What a user sees: every command plays the full game by default, `--expansions` chooses among the
expansions, a pack without rules.yaml (new roles) is layered over the bundled game from any
directory, and a rule set of its own brings its own expansions.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.content.packs import PackError, choose_expansions, expansions_of, resolve_packs
from interpreter.content.yamlpos import load as load_yaml

# what each bundled pack's roles say in their `expansion:` field
LABELS = {"": "基础", "tie_wu_zi": "一扩", "lao_yang_fang": "二扩"}

NEW_ROLE = """\
id: ce_shi_yuan
name: 测试员
title: 测试用
gender: male
hidden: false
expansion: 测试包
skills:
  - id: shi_yong_wu_dao
    name: 试用
    text: 出牌阶段限一次，你可以摸一张牌。
    kind: active
    timing: play_phase
    limit: {per: turn}
    effect: draw(self, 1)
  - id: kan_wu_dao
    name: 观误导
    text: 一名角色使用【误导】后，你可以摸一张牌。
    kind: triggered
    trigger: card_resolved
    condition: used_as == 【误导】
    effect: draw(self, 1)
"""


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def role_ids(packs) -> set[str]:
    return set(load_cached(packs).roles)


def roles_of(expansion: str) -> list[str]:
    """The ids of the roles an expansion's own folder holds."""
    folder = expansions_of(BUNDLED_CONTENT)[expansion] / "roles"
    return [load_yaml(f.read_text(encoding="utf-8"))["id"] for f in sorted(folder.glob("*.yaml"))]


def test_the_bundled_expansions_are_packs_of_the_base_game():
    assert list(expansions_of(BUNDLED_CONTENT)) == ["tie_wu_zi", "lao_yang_fang"]  # as pack.yaml lists them
    for exp, folder in [("", BUNDLED_CONTENT), *expansions_of(BUNDLED_CONTENT).items()]:
        files = sorted((folder / "roles").glob("*.yaml"))
        assert files, f"{folder} has no roles"
        for f in files:
            assert load_yaml(f.read_text(encoding="utf-8"))["expansion"] == LABELS[exp], f


def test_the_default_is_the_full_game_and_expansions_choose():
    full = role_ids(resolve_packs())
    base = role_ids(resolve_packs(expansions=["none"]))
    first = role_ids(resolve_packs(expansions=["tie_wu_zi"]))
    second = role_ids(resolve_packs(expansions=["lao_yang_fang"]))
    assert base and base < first < full and base < second < full
    assert first | second == full and first & second == base
    assert role_ids(resolve_packs(expansions=["all"])) == full
    assert role_ids(None) == full  # load_content's own default


def test_an_unknown_expansion_says_which_exist():
    with pytest.raises(PackError, match="did you mean 'tie_wu_zi'"):
        choose_expansions(BUNDLED_CONTENT, ["tie_wuzi"])
    r = run("simulate", "-n", "1", "--expansions", "tiewuzi")
    assert r.exit_code == 2
    assert "did you mean 'tie_wu_zi'" in r.output and "Traceback" not in r.output


def test_commands_take_expansions():
    base = run("simulate", "-n", "1", "-j", "1", "-s", "1", "--expansions", "none")
    assert base.exit_code == 0
    assert f"{len(role_ids(resolve_packs(expansions=['none'])))} roles)" in base.output
    r = run("validate", "--expansions", "lao_yang_fang")
    assert r.exit_code == 0 and f"{len(role_ids(resolve_packs(expansions=['lao_yang_fang'])))} roles" in r.output
    # describe: a role of the first expansion is not there without its expansion
    role = roles_of("tie_wu_zi")[0]
    assert run("describe", role, "--expansions", "lao_yang_fang").exit_code != 0


def test_a_role_pack_is_layered_over_the_bundled_game_from_anywhere(tmp_path, monkeypatch):
    pack = tmp_path / "my_pack"
    (pack / "roles").mkdir(parents=True)
    (pack / "roles" / "ce_shi_yuan.yaml").write_text(NEW_ROLE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # not the checkout: the bundled game comes from the package
    r = run("validate", "my_pack")
    assert r.exit_code == 0, r.output  # 【误导】 is the base game's card
    assert f"{len(role_ids(None)) + 1} roles" in r.output
    assert "观误导" in run("describe", "测试员", "--content", "my_pack", "--expansions", "none").output
    # the same pack after the base given by hand, as before: the same game
    assert resolve_packs([BUNDLED_CONTENT, pack]) == resolve_packs([pack])


def test_a_rule_set_of_its_own_brings_its_own_expansions(tmp_path):
    fork = tmp_path / "fork"
    shutil.copytree(BUNDLED_CONTENT, fork)
    packs = resolve_packs([fork])
    assert packs[0] == fork and all(fork in p.parents for p in packs[1:]) and len(packs) == 3
    assert role_ids(packs) == role_ids(None)
    assert resolve_packs([fork], ["none"]) == [fork]
    shutil.rmtree(fork / "expansions")
    assert resolve_packs([fork]) == [fork]
    with pytest.raises(PackError, match="has no expansion"):
        resolve_packs([fork], ["tie_wu_zi"])


def test_a_scenario_plays_the_full_game(tmp_path):
    role = load_cached(None).roles[roles_of("lao_yang_fang")[0]]
    scen = tmp_path / "x.scenario.yaml"
    scen.write_text(
        textwrap.dedent(
            f"""\
            name: an expansion role at the table
            players:
              - {{identity: qian_fu_zhan_xian, role: {role.id}}}
              - {{identity: te_gong_ji_guan}}
            current: 0
            start: play
            expect:
              players:
                0: {{hand: []}}
            """
        ),
        encoding="utf-8",
    )
    r = run("scenario", "run", str(scen))
    assert r.exit_code == 0 and "PASS" in r.output, r.output
    # the same table without that role's expansion: the role is unknown
    other = scen.read_text(encoding="utf-8").replace(role.id, role.id + "_x")
    scen.write_text(other, encoding="utf-8")
    assert "FAIL" in run("scenario", "run", str(scen)).output


def test_the_bundled_packs_ship_in_the_package():
    """interpreter/bundled/content is content/, expansions included (a wheel copies the tree)."""
    assert (Path(BUNDLED_CONTENT) / "expansions" / "tie_wu_zi" / "roles").is_dir()
