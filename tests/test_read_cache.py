"""The loader's in-process caches (content/read.py, content/loader.py): a file read before, unchanged and clean,
is not parsed, schema-checked or built again; an edited file is read anew, a file with a finding reports it every
time, and a role is built again where the card names its code may name differ."""

from __future__ import annotations

import shutil

import pytest

from interpreter import cache
from interpreter.content import read
from interpreter.content.diagnostics import Diagnostics
from interpreter.content.loader import BUNDLED_CONTENT, ContentErrors, load_content


@pytest.fixture()
def pack(tmp_path):
    """The base game, copied: its files are read from a folder of the test's own."""
    shutil.copytree(BUNDLED_CONTENT, tmp_path / "pack", ignore=shutil.ignore_patterns("expansions"))
    return tmp_path / "pack"


def test_an_unchanged_clean_file_is_parsed_once_and_each_load_gets_its_own_data(pack, monkeypatch):
    first = load_content([pack])
    parsed = []
    real = read.load_yaml
    monkeypatch.setattr(read, "load_yaml", lambda text: parsed.append(text) or real(text))
    again = load_content([pack])
    assert parsed == []  # every file of the pack came from the cache
    assert set(again.card_types) == set(first.card_types) and set(again.roles) == set(first.roles)
    sink = Diagnostics()
    card = next(iter(sorted((pack / "cards").glob("*.yaml"))))
    a, b = read.read(sink, card, "card"), read.read(sink, card, "card")
    assert a == b and a is not b and a.pos.line == b.pos.line  # equal, with positions, but not shared
    a["name"] = "changed"
    assert read.read(sink, card, "card")["name"] == b["name"]  # a caller changing its copy changes no other


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


def _role(folder, name: str, effect: str) -> None:
    (folder / "roles").mkdir(parents=True, exist_ok=True)
    (folder / "roles" / f"{name}.yaml").write_text(
        f"id: {name}\nname: 测{name}\ngender: male\nhidden: false\nskills:\n"
        f"  - id: s\n    name: 技\n    text: 技。\n    kind: active\n    timing: play_phase\n"
        f"    effect: |\n      {effect}\n",
        encoding="utf-8",
    )


def test_a_clean_role_is_built_once_and_its_marks_still_count_in_every_load(tmp_path):
    """A role built before is the same object; the marks its code sets and reads are checked in each load
    (W301 names the file of this load), and new card names build it again."""
    for folder in (tmp_path / "a", tmp_path / "b"):
        _role(folder, "sets", 'set_mark(self, "计数", 1)')
        _role(folder, "reads", 'draw(self, mark_number(self, "计数") + mark(self, "记数"))')
    loads = [load_content([BUNDLED_CONTENT, folder]) for folder in (tmp_path / "a", tmp_path / "a", tmp_path / "b")]
    assert loads[0].roles["reads"] is loads[1].roles["reads"] is loads[2].roles["reads"]
    for content, folder in zip(loads, ("a", "a", "b"), strict=True):
        (w,) = [w for w in content.warnings if w.code == "W301"]
        assert (w.path, w.line, w.col) == (str(tmp_path / folder / "roles" / "reads.yaml"), 12, 44)
    # a role naming a card of its pack: built again when the card names differ
    _role(tmp_path / "c", "uses", "if usable(none, as: 【新牌】) { draw(self, 1) }")
    with pytest.raises(ContentErrors) as e:
        load_content([BUNDLED_CONTENT, tmp_path / "c"])
    assert [err.code for err in e.value.errors] == ["E305"]
    first = min(load_content([BUNDLED_CONTENT]).card_types.values(), key=lambda c: c.id)
    card = (BUNDLED_CONTENT / "cards" / f"{first.id}.yaml").read_text(encoding="utf-8")
    (tmp_path / "c" / "cards").mkdir()
    (tmp_path / "c" / "cards" / "xin_pai.yaml").write_text(
        card.replace(f"id: {first.id}\n", "id: xin_pai\n", 1).replace(f"name: {first.name}\n", "name: 新牌\n", 1),
        encoding="utf-8",
    )
    assert load_content([BUNDLED_CONTENT, tmp_path / "c"]).roles["uses"].skills[0].name == "技"
    (tmp_path / "c" / "cards" / "xin_pai.yaml").unlink()
    with pytest.raises(ContentErrors) as e:
        load_content([BUNDLED_CONTENT, tmp_path / "c"])
    assert [err.code for err in e.value.errors] == ["E305"]


def test_a_pack_adding_a_card_builds_only_what_names_it_again(tmp_path):
    """A card's name reaches code only through a 【name】 literal: the roles and cards of the base game are the
    objects built before when a pack adds a card kind; a role naming the new card is built for it."""
    base = load_content([BUNDLED_CONTENT])
    first = min(base.card_types.values(), key=lambda c: c.id)
    card = (BUNDLED_CONTENT / "cards" / f"{first.id}.yaml").read_text(encoding="utf-8")
    (tmp_path / "c" / "cards").mkdir(parents=True)
    (tmp_path / "c" / "cards" / "xin_pai.yaml").write_text(
        card.replace(f"id: {first.id}\n", "id: xin_pai\n", 1).replace(f"name: {first.name}\n", "name: 新牌\n", 1),
        encoding="utf-8",
    )
    _role(tmp_path / "c", "uses", "if usable(none, as: 【新牌】) { draw(self, 1) }")
    forked = load_content([BUNDLED_CONTENT, tmp_path / "c"])
    assert all(forked.roles[r] is base.roles[r] for r in base.roles)
    assert all(forked.card_types[c] is base.card_types[c] for c in base.card_types)
    assert forked.roles["uses"].skills[0].name == "技"


def test_a_file_is_opened_again_only_when_it_changed_or_was_written_just_now(pack, monkeypatch):
    """The text of a file last changed a while ago is kept by what the file is on disk (inode, size, times); a file
    written just now is read every time (two writes within one tick of the clock may leave the same times)."""
    sink = Diagnostics()
    card = next(iter(sorted((pack / "cards").glob("*.yaml"))))
    opened = []
    real = read._text
    monkeypatch.setattr(read, "_text", lambda sink, path: opened.append(path) or real(sink, path))
    read.read(sink, card, "card")
    read.read(sink, card, "card")
    assert opened == [card, card]  # copied just now: opened each time
    monkeypatch.setattr(cache, "SETTLED", -(10**18))  # every file counts as changed long ago
    first = read.read(sink, card, "card")
    assert read.read(sink, card, "card") == first and opened == [card] * 3  # kept: not opened again
    text = card.read_text(encoding="utf-8")
    card.write_text(text.replace(f"\nname: {first['name']}\n", f"\nname: {first['name']}改\n", 1), encoding="utf-8")
    assert read.read(sink, card, "card")["name"] == f"{first['name']}改" and opened == [card] * 4


def test_a_pack_declaring_a_counter_builds_only_what_names_it_again(tmp_path):
    """A counter reaches code only by its name: a pack declaring one keeps every object of the base game built
    before; a role naming it is built for the declaration (clean), and again without it (E310 at its name)."""
    base = load_content([BUNDLED_CONTENT])
    pack = tmp_path / "d"
    (pack).mkdir()
    (pack / "pack.yaml").write_text(
        "id: d\nname: 计\nextends: [base]\nrules:\n  counters:\n    护甲: {max: 5}\n", encoding="utf-8"
    )
    _role(pack, "armoured", 'add_counter(self, "护甲", 1)')
    forked = load_content([BUNDLED_CONTENT, pack])
    assert all(forked.roles[r] is base.roles[r] for r in base.roles)
    assert all(forked.card_types[c] is base.card_types[c] for c in base.card_types)
    assert "armoured" in forked.roles
    (pack / "pack.yaml").write_text("id: d\nname: 计\nextends: [base]\n", encoding="utf-8")
    with pytest.raises(ContentErrors) as e:
        load_content([BUNDLED_CONTENT, pack])
    assert [err.code for err in e.value.errors] == ["E310"]


def test_each_load_gets_deck_lists_of_its_own():
    """The deck's copies are built once per process for the same deck.yaml; the lists of each load are its own
    (a pack's manifest adds to them and removes from them)."""
    a = load_content([BUNDLED_CONTENT])
    name = next(iter(a.decks))
    copies, named = list(a.deck), list(a.decks[name])
    a.decks[name].append(-1)
    a.deck.append(a.deck[0])
    b = load_content([BUNDLED_CONTENT])
    assert b.decks[name] == named and b.deck == copies and b.deck[0] is copies[0]
