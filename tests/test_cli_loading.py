"""The content a command loads (cli_options.load_or_exit): kept in the process while nothing under its packs'
folders changed, so commands run again and again in one process (the tests, a script calling `main`) load an
unchanged pack once; a file changed, added or removed, or anything changed in the last seconds, is loaded again."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import fengsheng
from interpreter import cache, cli_options
from interpreter.content import loader

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "jia_gui"


@pytest.fixture
def loads(monkeypatch) -> list[list[str]]:
    """The packs of each load the commands make, from an empty keep."""
    made: list[list[str]] = []
    load = loader.load_content

    def counted(paths=None, errors=None):
        made.append([str(p) for p in paths or ()])
        return load(paths, errors)

    monkeypatch.setattr(loader, "load_content", counted)
    cli_options.LOADED.clear()
    return made


def _simulate(pack: Path | None = None):
    r = fengsheng("simulate", "-p", 4, "-n", 1, "-s", 1, *(["--content", pack] if pack else []))
    assert r.exit_code == 0, r.output
    return r.output


def test_an_unchanged_pack_is_loaded_once(loads):
    first = _simulate()
    assert _simulate() == first and len(loads) == 1  # the bundled game
    _simulate(EXAMPLE)
    _simulate(EXAMPLE)
    assert len(loads) == 2 and loads[1][-1] == str(EXAMPLE)


def test_a_pack_changed_in_any_way_is_loaded_again(loads, tmp_path, monkeypatch):
    """(Its files are new: here a change is seen at once, not only SETTLED after the last one.)"""
    monkeypatch.setattr(cache, "SETTLED", 0)
    pack = tmp_path / "pack"
    shutil.copytree(EXAMPLE, pack)
    _simulate(pack)
    _simulate(pack)
    assert len(loads) == 1
    role = next((pack / "roles").glob("*.yaml"))
    text = role.read_text(encoding="utf-8")
    role.write_text(text + "\n", encoding="utf-8")  # a file changed
    _simulate(pack)
    assert len(loads) == 2
    st = role.stat()
    role.write_text(text + " ", encoding="utf-8")  # changed again, the same size, its modification time set back
    os.utime(role, ns=(st.st_atime_ns, st.st_mtime_ns))  # (as it was: its change time moved on)
    assert role.stat().st_mtime_ns == st.st_mtime_ns and role.stat().st_size == st.st_size
    _simulate(pack)
    assert len(loads) == 3
    shutil.copy(role, pack / "roles" / "copy.yml.bak")  # a file added (the loader would not read it)
    _simulate(pack)
    (pack / "roles" / "copy.yml.bak").unlink()  # and removed
    _simulate(pack)
    assert len(loads) == 5
    _simulate(pack)
    assert len(loads) == 5


def test_a_pack_changed_in_the_last_seconds_is_not_kept(loads, tmp_path):
    pack = tmp_path / "pack"
    shutil.copytree(EXAMPLE, pack)
    _simulate(pack)
    _simulate(pack)
    assert len(loads) == 2 and len(cli_options.LOADED) == 0
