"""A scenario loads content packs only from inside its folder or the current directory, unless allowed."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli import main
from interpreter.scenario import run_scenario

FIXTURES = Path(__file__).parent / "fixtures"
SCENARIO = """\
name: outside
content: [{pack}]
players:
  - identity: qian_fu_zhan_xian
  - identity: te_gong_ji_guan
start: settle
"""


def _setup(tmp_path) -> tuple[Path, Path]:
    pack = tmp_path / "elsewhere" / "role_pack"
    shutil.copytree(FIXTURES / "role_pack", pack)
    home = tmp_path / "home"
    home.mkdir()
    f = home / "outside.scenario.yaml"
    f.write_text(SCENARIO.format(pack="../elsewhere/role_pack"), encoding="utf-8")
    return f, pack


def test_a_pack_outside_is_refused_with_its_position(tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).parent)  # a current directory that does not hold the pack
    f, _ = _setup(tmp_path)
    result = run_scenario(f)
    assert not result.passed
    (failure,) = result.failures
    assert failure.startswith(f"{f}:2:11: content pack '../elsewhere/role_pack' is outside")
    assert "--allow-outside" in failure


def test_allow_outside_and_the_current_directory_let_it_load(tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).parent)
    f, _ = _setup(tmp_path)
    assert run_scenario(f, allow_outside=True).passed
    monkeypatch.chdir(tmp_path)  # now the pack is inside the current directory
    assert run_scenario(f).passed


def test_the_cli_flag(tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).parent)
    f, _ = _setup(tmp_path)
    refused = CliRunner().invoke(main, ["scenario", "run", str(f)])
    assert refused.exit_code == 1 and "is outside" in refused.output
    allowed = CliRunner().invoke(main, ["scenario", "run", "--allow-outside", str(f)])
    assert allowed.exit_code == 0, allowed.output
