"""The card pin (``--card ID=N``; model/deck_counts.py, engine/pins.py): every deck the rules use holds exactly N
copies of a card kind; the game is played with that deck (its setup record's deck, its replay), a sweep keeps the pin
(sweep.json, its resume, the report's first line), and bad input is a one-line usage error."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import fengsheng
from interpreter.balance.pack_facts import rerun_command
from interpreter.balance.records import SWEEP_FILE, RecordError, read_records, read_spec
from interpreter.content.loader import load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.pins import Pins, pinned_content
from interpreter.model.deck_counts import DeckCountError, with_deck_counts
from interpreter.sim import read_log, replay_game

REPO = Path(__file__).resolve().parent.parent
JIA_GUI = REPO / "examples" / "jia_gui"  # adds 密电 (mi_dian): ids 201, 202 in every deck, 203 in the full deck
CARD = "mi_dian"


@pytest.fixture(scope="module")
def base():
    return load_content(resolve_packs([], None))


@pytest.fixture(scope="module")
def fork():
    return load_content(resolve_packs([JIA_GUI], None))


def _kind_in(content, deck: str, kind: str) -> list[int]:
    """The deck ids of the copies of `kind` in the deck named `deck`, in id order."""
    wanted = set(content.decks[deck])
    return sorted(e.uid for e in content.deck if e.uid in wanted and e.card_type == kind)


def _entry(content, uid: int):
    return next(e for e in content.deck if e.uid == uid)


def test_more_copies_are_cloned_from_the_decks_own_with_new_ids_in_order(fork) -> None:
    before = copy.deepcopy((fork.deck, fork.decks))
    pinned = with_deck_counts(fork, [(CARD, 6)])
    assert [_kind_in(pinned, name, CARD) for name in ("small", "standard", "full")] == [
        [201, 202, 204, 205, 206, 207],  # the rules' order of decks: small (2-4), standard (5-8), full (9-10)
        [201, 202, 208, 209, 210, 211],
        [201, 202, 203, 212, 213, 214],
    ]
    for new, model in ((204, 201), (205, 202), (206, 201), (212, 201), (213, 202), (214, 203)):
        a, b = _entry(pinned, new), _entry(fork, model)  # cloned in turn from that deck's own copies
        assert (a.card_type, a.mask, a.direction, a.lockable, a.data) == (CARD, b.mask, b.direction, b.lockable, b.data)
        assert a.data is not b.data
    # every other card of each deck stays, and nothing else of the content is another object
    for name in fork.decks:
        assert set(pinned.decks[name]) - set(fork.decks[name]) == set(_kind_in(pinned, name, CARD)) - {201, 202, 203}
        assert set(fork.decks[name]) <= set(pinned.decks[name])
    for f in dataclasses.fields(fork):
        if f.name not in ("deck", "decks"):
            assert getattr(pinned, f.name) is getattr(fork, f.name), f.name
    assert (fork.deck, fork.decks) == before  # the content given is left as it was
    again = with_deck_counts(fork, [(CARD, 6)])
    assert (again.deck, again.decks) == (pinned.deck, pinned.decks)  # the same counts, the same deck ids


def test_fewer_copies_keep_the_lowest_ids_and_zero_takes_the_kind_out(base, fork) -> None:
    pinned = with_deck_counts(base, [("shi_tan", 2)])
    full, standard = _kind_in(base, "full", "shi_tan"), _kind_in(base, "standard", "shi_tan")
    assert _kind_in(pinned, "full", "shi_tan") == full[:2] and _kind_in(pinned, "standard", "shi_tan") == standard[:2]
    assert len(pinned.decks["full"]) == len(base.decks["full"]) - (len(full) - 2)
    top = max(e.uid for e in base.deck)
    assert _kind_in(base, "small", "shi_tan") == [] and _kind_in(pinned, "small", "shi_tan") == [top + 1, top + 2]
    assert [_entry(pinned, u).data for u in (top + 1, top + 2)] == [_entry(base, u).data for u in full[:2]]
    kept = {*full[:2], *standard[:2]}
    assert {e.uid for e in pinned.deck} == ({e.uid for e in base.deck} - (set(full) - kept)) | {top + 1, top + 2}
    out = with_deck_counts(fork, [(CARD, 0)])
    assert all(_kind_in(out, name, CARD) == [] for name in out.decks)
    assert not any(e.card_type == CARD for e in out.deck)
    assert len(out.deck_for(5)) == len(fork.deck_for(5)) - 2


def test_a_deck_without_the_kind_gets_copies_of_the_contents_others(fork) -> None:
    """A deck holding no copy of the kind clones the content's copies (id order): here a small deck without 密电."""
    small = [u for u in fork.decks["small"] if u not in (201, 202)]
    content = dataclasses.replace(fork, decks={**fork.decks, "small": small})
    pinned = with_deck_counts(content, [(CARD, 4)])
    assert _kind_in(pinned, "small", CARD) == [204, 205, 206, 207]
    assert [_entry(pinned, u).direction for u in (204, 205, 206, 207)] == ["left", "right", "up", "left"]
    assert _kind_in(pinned, "standard", CARD) == [201, 202, 208, 209]


def test_a_kind_the_content_lacks_or_already_holds_leaves_it_as_it_is(base, fork) -> None:
    assert with_deck_counts(base, [(CARD, 6)]) is base  # a pack of the grid without the card
    assert with_deck_counts(fork, [(CARD, 2)]) is not fork  # (the full deck holds 3)
    standard_only = dataclasses.replace(fork, decks={**fork.decks, "full": [u for u in fork.decks["full"] if u != 203]})
    assert with_deck_counts(standard_only, [(CARD, 2)]) is standard_only
    no_copy = with_deck_counts(fork, [(CARD, 0)])  # the kind, but no copy of it
    with pytest.raises(DeckCountError, match="no copy of card 'mi_dian'"):
        with_deck_counts(no_copy, [(CARD, 1)])


def test_a_game_is_made_with_the_pinned_content_once_per_batch(fork) -> None:
    """The pins carry the counts (a log's setup record, a sweep's grid) and make the content once per content and
    counts, so a batch's games share one derived content and its index."""
    pins = Pins(cards=((CARD, 6),))
    assert pins and Pins.from_dict(pins.to_dict()) == pins and pins.to_dict() == {"cards": {CARD: 6}}
    assert Pins.from_dict({"seat": 0, "cards": {CARD: -1, "x": "3"}}) is None
    # a card pin deals no seat anything: no rotating seat in the record, where it would mean nothing
    assert pins.at(3) == pins and pins.at(3).to_dict() == {"cards": {CARD: 6}} and pins.label() == "card mi_dian=6"
    assert Pins(role="lao_han", cards=pins.cards).at(3).to_dict() == {"seat": 3, "role": "lao_han", "cards": {CARD: 6}}
    assert pinned_content(fork, pins) is pinned_content(fork, pins.at(2))
    assert pinned_content(fork, Pins(role="lao_han")) is fork and pinned_content(fork, None) is fork


@pytest.mark.parametrize("players, deck", [(5, "standard"), (9, "full")])
def test_simulate_plays_every_game_with_n_copies_and_the_log_replays(tmp_path: Path, fork, players, deck) -> None:
    log = tmp_path / "g.jsonl"
    args = ["simulate", "-p", players, "-n", 3, "-s", 5, "-j", 1, "--content", JIA_GUI, "--card", f"{CARD}=6"]
    r = fengsheng(*args, "--log", log)
    assert r.exit_code == 0, r.output
    assert "pinned: card 密电 (mi_dian) kept at 6 copies in every deck" in r.output
    had = _kind_in(fork, deck, CARD)
    top = max(e.uid for e in fork.deck)
    games = read_log(log)
    for g in games:
        setup = g["records"][0]
        assert setup["pins"]["cards"] == {CARD: 6}
        ids = setup["deck"]  # the whole deck, in its order, before the starting hands are drawn
        assert len([u for u in ids if u in had or u > top]) == 6  # the kind's copies: its own and new ones
        assert len(set(ids)) == len(ids) == len(fork.decks[deck]) + 6 - len(had)
        ok, message = replay_game(fork, g)
        assert ok, message
    assert fengsheng("replay", log).exit_code == 0
    del games[0]["records"][0]["pins"]  # the pin is what replays it: without it the deck is another one
    assert not replay_game(fork, games[0])[0]


def test_simulate_says_the_card_pin_in_json_and_in_the_rerun_command() -> None:
    args = ["simulate", "-p", 5, "-n", 2, "-s", 3, "-j", 1, "--content", JIA_GUI, "--card", f"{CARD}=4"]
    out = json.loads(fengsheng(*args, "--format", "json").stdout)
    assert out["pins"] == {"cards": {CARD: 4}}
    meta = {"packs": [{"name": "mine", "content": ["my_pack"]}], "pins": {"cards": {CARD: 4}}}
    assert rerun_command(meta, "mine", "random", 5, 77, 3) == (
        "fengsheng simulate -p 5 --agents random --content my_pack --card mi_dian=4 --game-seed 77 --trace"
    )


def test_balance_keeps_the_card_pin_in_its_grid_its_report_and_its_resume(tmp_path: Path) -> None:
    out = tmp_path / "lab"
    args = ["balance", "--pack", "base=", "--pack", f"mine={JIA_GUI}", "-p", 5, "-n", 4, "-j", 1, "--agents", "random"]
    r = fengsheng(*args, "--card", f"{CARD}=6", "-o", out, "-q", "--format", "json")
    assert r.exit_code == 0, r.output
    assert read_spec(out).pins == {"cards": {CARD: 6}}
    report = json.loads(r.stdout)
    assert report["sweep"]["pins"] == {"cards": {CARD: 6}}
    assert report["sweep"]["pinned_cards"] == {CARD: {"name": "密电", "without": ["base"]}}
    again = fengsheng(*args, "--card", f"{CARD}=6", "-o", out, "-q", "--format", "json")
    assert again.exit_code == 0 and json.loads(again.stdout)["sweep"]["records"] == 8
    other = fengsheng(*args, "--card", f"{CARD}=5", "-o", out, "-q")
    assert other.exit_code != 0 and "pins" in other.output
    text = fengsheng("balance", "report", out, "--no-html", "--lang", "en").output
    assert "pinned: card 密电 kept at 6 copies in every deck (base without it: decks unchanged)" in text
    zh = fengsheng("balance", "report", out, "--no-html").output
    assert "固定：卡牌密电在每副牌堆中固定为6张（base没有这张牌：牌堆不变）" in zh


def test_compare_sweeps_both_packs_with_the_card_pin(tmp_path: Path) -> None:
    out = tmp_path / "ab"
    r = fengsheng(
        "balance", "compare", "base", JIA_GUI, "-p", 5, "-n", 4, "-j", 1, "--agents", "random",
        "--card", f"{CARD}=6", "-o", out, "--no-html", "--format", "json",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert read_spec(out).pins == {"cards": {CARD: 6}}
    assert not any(f["kind"] == "pinned_seat" for f in json.loads(r.stdout)["paired"]["figures"])  # no seat pinned


@pytest.mark.parametrize(
    "value, says",  # (a pattern: compare's two packs are a grid)
    [
        ("mi_dian", "'mi_dian' is not ID=N"),
        ("mi_dian=-1", "the copies are a whole number from 0 to 999"),
        ("mi_dain=6", "no card 'mi_dain' in (the content|any pack of the grid): did you mean mi_dian\\?"),
        ("mi_dian=2 --card mi_dian=3", "card 'mi_dian' is given twice"),
    ],
)
def test_bad_card_pins_are_one_line_usage_errors(tmp_path: Path, value: str, says: str) -> None:
    cards = [w for v in value.split(" --card ") for w in ("--card", v)]
    for args in (
        ["simulate", "-p", 5, "-n", 1, "--content", JIA_GUI],
        ["balance", "-p", 5, "-n", 1, "--content", JIA_GUI, "-o", tmp_path / "x", "-q"],
        ["balance", "compare", "base", JIA_GUI, "-p", 5, "-n", 1, "-o", tmp_path / "y"],
    ):
        r = fengsheng(*args, *cards)
        assert r.exit_code == 2 and re.search(says, r.output) and len(r.output.strip().splitlines()) == 1, r.output
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_a_card_with_no_copy_to_clone_is_a_usage_error(tmp_path: Path) -> None:
    """A pack with the card kind but no copy of it in its deck cannot add copies (it may take it out: 0)."""
    pack = tmp_path / "no_copy"
    (pack / "cards").mkdir(parents=True)
    shutil.copy(JIA_GUI / "cards" / "mi_dian.yaml", pack / "cards")
    r = fengsheng("simulate", "-p", 5, "-n", 1, "--content", pack, "--card", f"{CARD}=2")
    assert r.exit_code == 2 and "card 'mi_dian' has no copy in the deck to make 2 copies of" in r.output
    r = fengsheng("balance", "--pack", "a=", "--pack", f"b={pack}", "-p", 5, "-n", 1, "--card", f"{CARD}=2", "-o",
                  tmp_path / "x", "-q")  # fmt: skip
    assert r.exit_code == 2 and "pack b: card 'mi_dian' has no copy" in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert fengsheng("simulate", "-p", 5, "-n", 1, "-j", 1, "--content", pack, "--card", f"{CARD}=0").exit_code == 0


def test_a_corrupt_card_pin_in_sweep_json_is_named(tmp_path: Path) -> None:
    out = tmp_path / "lab"
    r = fengsheng("balance", "-p", 5, "-n", 1, "-j", 1, "--agents", "random", "--content", JIA_GUI, "--card",
                  f"{CARD}=3", "-o", out, "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    d = json.loads((out / SWEEP_FILE).read_text())
    for bad in ({CARD: -1}, {CARD: "6"}, {CARD: 2.5}, {"": 3}, [CARD, 6], {}, {CARD: True}):
        d["pins"] = {"cards": bad}
        (out / SWEEP_FILE).write_text(json.dumps(d))
        with pytest.raises(RecordError, match=r"`pins` should be null or the ids of a role and a task and the copies"):
            read_spec(out)
        r = fengsheng("balance", "report", out, "--no-html")
        assert r.exit_code != 0 and "`pins` should be" in r.output


def test_the_rerun_command_replays_a_pinned_game_of_a_pack_without_the_pins(tmp_path: Path) -> None:
    """A failed or drawn game's command (pack_facts.rerun_command) names the grid's pins; for the pack of the grid
    that lacks the role and the card (here the bundled game) it plays the same game, the lacking pins a note (they
    were a usage error, so the base pack's games of a pinned sweep could not be re-run)."""
    out = tmp_path / "lab"
    args = ["balance", "--pack", "base=", "--pack", f"mine={JIA_GUI}", "-p", 5, "-n", 2, "-j", 1, "--agents", "random"]
    r = fengsheng(*args, "--role", "hua_mei", "--card", f"{CARD}=6", "-o", out, "-q")
    assert r.exit_code == 0, r.output
    meta = json.loads((out / SWEEP_FILE).read_text())
    for rec in read_records(out):
        command = rerun_command(meta, rec.cell.pack, "random", 5, rec.seed, rec.index)
        assert command is not None and f"--card {CARD}=6" in command and "--role hua_mei" in command
        words = command.split()[1:-1]  # (without `fengsheng` and `--trace`)
        one = fengsheng(*words, "--format", "json")
        assert one.exit_code == 0, one.output
        played = json.loads(one.stdout)
        assert (played["turns"], played["decisions"]) == (rec.turns, rec.decisions)
        assert ("note: no role 'hua_mei'" in one.stderr) == (rec.cell.pack == "base")
    r = fengsheng("simulate", "-p", 5, "-n", 1, "--card", f"{CARD}=6")  # a batch: still a usage error
    assert r.exit_code == 2 and "no card 'mi_dian'" in r.output


def test_a_card_pin_too_large_or_unmet_is_refused_in_a_line(tmp_path: Path, fork) -> None:
    """A count past MAX_COPIES never builds a deck (a hand-edited sweep.json or log must not make a billion entries),
    and a log whose card pin the content cannot meet says so instead of failing inside the engine."""
    with pytest.raises(DeckCountError, match="a pin keeps 0 to 999 copies"):
        with_deck_counts(fork, [(CARD, 10**9)])
    r = fengsheng("simulate", "-p", 5, "-n", 1, "--content", JIA_GUI, "--card", f"{CARD}=1000")
    assert r.exit_code == 2 and "a whole number from 0 to 999" in r.output
    out = tmp_path / "lab"
    r = fengsheng("balance", "-p", 5, "-n", 1, "-j", 1, "--agents", "random", "--content", JIA_GUI, "--card",
                  f"{CARD}=3", "-o", out, "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    d = json.loads((out / SWEEP_FILE).read_text())
    d["pins"] = {"cards": {CARD: 10**9}}
    (out / SWEEP_FILE).write_text(json.dumps(d))
    with pytest.raises(RecordError, match="a whole number from 0 to 999"):
        read_spec(out)
    assert Pins.from_dict({"cards": {CARD: 10**9}}) is None  # (a log's setup record: not a pin)
    log = tmp_path / "g.jsonl"
    assert fengsheng("simulate", "-p", 5, "-n", 1, "-j", 1, "--content", JIA_GUI, "--card", f"{CARD}=4", "--log",
                     log).exit_code == 0  # fmt: skip
    (game,) = read_log(log)
    ok, message = replay_game(fork, game)
    assert ok, message
    pack = tmp_path / "no_copy"  # 密电 as a card kind, with no copy in any deck: none to copy for 4
    (pack / "cards").mkdir(parents=True)
    shutil.copy(JIA_GUI / "cards" / "mi_dian.yaml", pack / "cards")
    ok, message = replay_game(load_content(resolve_packs([pack], None)), game)
    assert not ok and message.startswith("the log's card pin cannot be played with this content"), message
