"""The loader's in-process read cache (content/loader.py): a file read before, unchanged and clean, is not
parsed or schema-checked again; an edited file is read anew, and a file with a finding reports it every time."""

from __future__ import annotations

import shutil

import pytest

from interpreter.content import loader
from interpreter.content.loader import BUNDLED_CONTENT, ContentErrors, load_content


@pytest.fixture()
def pack(tmp_path):
    """The base game, copied: its files are read from a folder of the test's own."""
    shutil.copytree(BUNDLED_CONTENT, tmp_path / "pack", ignore=shutil.ignore_patterns("expansions"))
    return tmp_path / "pack"


def test_an_unchanged_clean_file_is_parsed_once_and_each_load_gets_its_own_data(pack, monkeypatch):
    first = load_content([pack])
    parsed = []
    real = loader.load_yaml
    monkeypatch.setattr(loader, "load_yaml", lambda text: parsed.append(text) or real(text))
    again = load_content([pack])
    assert parsed == []  # every file of the pack came from the cache
    assert set(again.card_types) == set(first.card_types) and set(again.roles) == set(first.roles)
    L = loader.Loader()
    card = next(iter(sorted((pack / "cards").glob("*.yaml"))))
    a, b = L.read(card, "card"), L.read(card, "card")
    assert a == b and a is not b and a.pos.line == b.pos.line  # equal, with positions, but not shared
    a["name"] = "changed"
    assert L.read(card, "card")["name"] == b["name"]  # a caller changing its copy changes no other


def test_an_edited_file_is_read_anew(pack):
    load_content([pack])
    card = next(iter(sorted((pack / "cards").glob("*.yaml"))))
    text = card.read_text(encoding="utf-8")
    card.write_text(text.replace("\nname:", "\nnmae:", 1), encoding="utf-8")
    with pytest.raises(ContentErrors) as e:
        load_content([pack])
    assert any(err.code == "E111" and err.path == str(card) for err in e.value.errors), e.value.errors
    card.write_text(text, encoding="utf-8")
    load_content([pack])  # clean again


def test_a_file_with_a_finding_reports_it_on_every_load(pack):
    card = next(iter(sorted((pack / "cards").glob("*.yaml"))))
    card.write_text(card.read_text(encoding="utf-8") + "colour: red\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ContentErrors) as e:
            load_content([pack])
        assert [err.code for err in e.value.errors if err.path == str(card)] == ["E111"], e.value.errors
