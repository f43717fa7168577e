"""The user cache folder is used only when it is private; the effect grammar's tables go there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter import cache


@pytest.fixture(autouse=True)
def _fresh():
    cache.cache_dir.cache_clear()
    yield
    cache.cache_dir.cache_clear()


def test_a_private_folder_is_made_and_used(tmp_path, monkeypatch):
    monkeypatch.setenv("FENGSHENG_CACHE_DIR", str(tmp_path / "c"))
    path = cache.cache_dir()
    assert path == tmp_path / "c" and path.is_dir()
    assert path.stat().st_mode & 0o077 == 0


def test_caching_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("FENGSHENG_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setenv("FENGSHENG_CACHE", "0")
    assert cache.cache_dir() is None


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_may_write_to_is_not_used(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("FENGSHENG_CACHE_DIR", str(shared))
    assert cache.cache_dir() is None


def test_an_unusable_folder_means_no_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FENGSHENG_CACHE_DIR", str(blocker / "c"))
    assert cache.cache_dir() is None


def test_no_home_folder_means_no_cache(monkeypatch):
    """A process with no $HOME and a user id with no name (a container run as --user 1234) still parses."""

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    for var in ("FENGSHENG_CACHE_DIR", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(Path, "home", no_home)
    assert cache.cache_dir() is None
