"""The file kept between runs (cache.py's store): a process that saves again and again reads the file back only when
another process has replaced it since its own last save, and what both kept stays."""

from __future__ import annotations

import pytest

from interpreter import cache as kept
from interpreter.language import parser


@pytest.fixture()
def store(tmp_path, monkeypatch):
    """A fresh private cache folder, forgotten before and after (what a new process finds)."""
    monkeypatch.setenv("FENGSHENG_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.delenv("FENGSHENG_CACHE", raising=False)
    kept.new_run()
    yield
    kept.new_run()


def _texts_in_file() -> list:
    return [key for _, _, key in kept._Store(kept._store().path).entries]


def test_a_save_reads_the_file_back_only_when_another_process_replaced_it(store, monkeypatch):
    reads = []
    real = kept._Store._read
    monkeypatch.setattr(kept._Store, "_read", lambda self: reads.append(self) or real(self))
    ours = kept._store()
    assert reads == [ours]  # what the file held when this process first looked (nothing yet)
    parser.parse("draw(self, 1)\n")
    kept.save()
    parser.parse("draw(self, 2)\n")
    kept.save()
    assert reads == [ours, ours]  # the first save reads the file; the second finds it is still the one it wrote
    other = kept._Store(ours.path)  # another process saves a text of its own
    key = next(k for k in other.entries if k[2] == ("start", "draw(self, 1)\n"))
    theirs = (key[0], key[1], ("start", "win(self)\n"))
    other.entries[theirs], other.used[theirs], other.new = other.entries[key], None, True
    other.save()
    parser.parse("draw(self, 3)\n")
    kept.save()
    assert reads == [ours, ours, other, other, ours]  # replaced since: read again, and merged
    texts = _texts_in_file()
    assert ("start", "win(self)\n") in texts
    assert all(("start", f"draw(self, {n})\n") in texts for n in (1, 2, 3))


def test_save_soon_saves_at_most_every_few_seconds_and_what_it_put_off_is_saved_later(store, monkeypatch):
    now = [100.0]
    monkeypatch.setattr(kept, "_clock", lambda: now[0])
    parser.parse("draw(self, 1)\n")
    kept.save_soon()  # the first save of the process: at once
    assert ("start", "draw(self, 1)\n") in _texts_in_file()
    parser.parse("draw(self, 2)\n")
    now[0] += kept.SAVE_EVERY / 2
    kept.save_soon()  # too soon: put off
    assert ("start", "draw(self, 2)\n") not in _texts_in_file()
    now[0] += kept.SAVE_EVERY / 2
    parser.parse("draw(self, 3)\n")
    kept.save_soon()  # long enough since the last: saved, with what was put off
    assert {("start", "draw(self, 2)\n"), ("start", "draw(self, 3)\n")} <= set(_texts_in_file())
    parser.parse("draw(self, 4)\n")
    kept.save_soon()
    assert ("start", "draw(self, 4)\n") not in _texts_in_file()
    path = kept._store().path
    kept.new_run()  # what a new process finds: what was put off is saved first (as at exit)
    assert ("start", "draw(self, 4)\n") in [key for _, _, key in kept._Store(path).entries]
