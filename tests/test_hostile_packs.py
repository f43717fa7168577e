"""Packs a hostile or careless user writes (issue 29): each is a clean error at its place, or plays.

Limits by design (a deck id at most 999,999, and no structure sized by one), one text policy (no lone
surrogate or control character written as an escape), `extends:` chains normalised and bounded, a removal
list without repeats. Each pack here is also an entry of tests/fuzz_corpus/ (`fork/`), which
tests/test_fuzz.py replays and tests/test_memory_cap.py runs under a memory cap.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.content.loader import load_content
from interpreter.content.packs import MAX_EXTENDS_DEPTH, pack_ref, resolve_packs
from interpreter.engine.actions import _Entries
from tests.conftest import fengsheng


def pack(tmp: Path, name: str, body: str, extends: str = "base") -> Path:
    folder = tmp / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text(f"id: {name}\nname: t\nextends: [{extends}]\n{body}\n", encoding="utf-8")
    return folder


def one_error(r, where: str, code: str, words: str) -> None:
    assert r.exit_code == 1, r.output
    first = r.output.splitlines()[0]
    assert where in first and f"error {code}" in first and words in first, r.output


def test_a_deck_id_beyond_the_limit_is_refused_at_its_place(tmp_path):
    p = pack(tmp_path, "big", "deck:\n  add: [{id: 30000000, card: wei_bi, colors: [red], direction: left}]")
    one_error(fengsheng("validate", p), "pack.yaml:5:14:", "E113", "more than the largest allowed, 999,999")


def test_the_largest_deck_id_sizes_nothing():
    """A copy of id 999,999 (the limit) costs the descriptor tables one entry, not a million slots."""
    content = load_content(resolve_packs([]))
    entries = _Entries(content)
    assert isinstance(entries.cards, dict) and isinstance(entries.card_ids, dict)


def test_a_pack_with_the_largest_deck_id_plays(tmp_path):
    p = pack(tmp_path, "top", "deck:\n  add: [{id: 999999, card: wei_bi, colors: [red], direction: left}]")
    r = fengsheng("simulate", "-n", "2", "-j", "1", "-s", "1", "--content", p)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("command", [["validate"], ["pack", "show"], ["pack", "diff", "base"]])
def test_an_id_removed_twice_is_named_at_its_second_place(tmp_path, command):
    p = pack(tmp_path, "twice", "remove: {cards: [wei_bi, wei_bi]}")
    r = fengsheng(*command, p)
    assert r.exit_code == 1, r.output
    assert "pack.yaml:4:26: error E113: 'wei_bi' is listed twice" in r.output
    assert "KeyError" not in r.output


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (r'"\ud800x"', "a lone surrogate U+D800"),
        (r'"\udfff"', "a lone surrogate U+DFFF"),
        (r'"a\x07b"', "the control character U+0007"),
        (r'"\u001b[31mred"', "the control character U+001B"),
        (r'"\x9b"', "the control character U+009B"),
    ],
)
def test_a_text_that_is_not_text_is_refused_at_load(tmp_path, text, what):
    folder = tmp_path / "esc"
    folder.mkdir()
    (folder / "pack.yaml").write_text(f"id: esc\nname: {text}\nextends: [base]\n", encoding="utf-8")
    one_error(fengsheng("validate", folder), "pack.yaml:2:7:", "E101", what)
    r = fengsheng("simulate", "-n", "1", "-j", "1", "-s", "1", "--content", folder)
    assert r.exit_code == 1 and "E101" in r.output


def test_tabs_line_breaks_and_any_plane_are_text(tmp_path):
    folder = tmp_path / "ok"
    folder.mkdir()
    (folder / "pack.yaml").write_text('id: ok\nname: "a\\tb\\nc \\U0001F600 风声"\nextends: [base]\n', encoding="utf-8")
    assert fengsheng("validate", folder).exit_code == 0


def chain(tmp: Path, n: int, relative: bool) -> Path:
    for i in range(n):
        ref = "base" if i == 0 else (f"../p{i - 1}" if relative else str(tmp / f"p{i - 1}"))
        pack(tmp, f"p{i}", "", extends=f'"{ref}"')
    return tmp / f"p{n - 1}"


def test_a_relative_chain_is_normalised(tmp_path):
    """`../p1` from `p2` is `p1`, not `p2/../p1`: a long chain never makes a path too long for the system."""
    chain(tmp_path, 3, relative=True)
    assert pack_ref("../p1", tmp_path / "p2") == tmp_path / "p1"
    assert resolve_packs([tmp_path / "p2"])[-3:] == [tmp_path / "p0", tmp_path / "p1", tmp_path / "p2"]


@pytest.mark.parametrize("relative", [True, False], ids=["relative", "absolute"])
def test_a_chain_deeper_than_the_limit_is_said_as_such(tmp_path, relative):
    top = chain(tmp_path, 700 if relative else 1100, relative)
    r = fengsheng("validate", top)
    one_error(r, f"{top.name}/pack.yaml:3:", "E124", f"a chain of more than {MAX_EXTENDS_DEPTH} packs")
    assert "extending each other" in r.output and "loaded after it" not in r.output
    assert r.output.count("error E124") == 1


def test_a_chain_at_the_limit_loads(tmp_path):
    top = chain(tmp_path, MAX_EXTENDS_DEPTH + 1, relative=True)  # p64 stands on 64 packs: p63 … p0
    assert fengsheng("validate", top).exit_code == 0, fengsheng("validate", top).output
    r = fengsheng("validate", chain(tmp_path / "more", MAX_EXTENDS_DEPTH + 2, relative=True))
    assert r.exit_code == 1 and "E124" in r.output and "64 packs" in r.output
