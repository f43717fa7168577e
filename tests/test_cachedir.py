"""The user cache folder is used only when it is private; the effect grammar's tables go there."""

from __future__ import annotations

import os

import pytest

from interpreter import cachedir


@pytest.fixture(autouse=True)
def _fresh():
    cachedir.cache_dir.cache_clear()
    yield
    cachedir.cache_dir.cache_clear()


def test_a_private_folder_is_made_and_used(tmp_path, monkeypatch):
    monkeypatch.setenv("FENGSHENG_CACHE_DIR", str(tmp_path / "c"))
    path = cachedir.cache_dir()
    assert path == tmp_path / "c" and path.is_dir()
    assert path.stat().st_mode & 0o077 == 0


def test_caching_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("FENGSHENG_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setenv("FENGSHENG_CACHE", "0")
    assert cachedir.cache_dir() is None


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_may_write_to_is_not_used(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("FENGSHENG_CACHE_DIR", str(shared))
    assert cachedir.cache_dir() is None


def test_an_unusable_folder_means_no_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FENGSHENG_CACHE_DIR", str(blocker / "c"))
    assert cachedir.cache_dir() is None
