"""The content fingerprint is of what the game is made of (content/fingerprint.py), not of the packs' files as
bytes: a comment fixed, a scenario added, a file's keys reordered keep it; a number, a shown text, effect code,
a card's copies in the deck, a role's presence or the expansions chosen change it. `replay` of a log played
before a comment-only edit gives no warning; a log or sweep of an older fengsheng (whose fingerprint hashed the
files) is said to be so, not taken for changed content."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.content.fingerprint import PREFIX, content_fingerprint, older_fingerprint
from interpreter.content.loader import load_content
from interpreter.content.packs import resolve_packs
from interpreter.sim import content_fingerprint as sim_fingerprint
from tests.conftest import fengsheng

ROOT = Path(__file__).resolve().parents[1]
FORK = ROOT / "examples" / "jia_gui"


def fingerprint(pack: Path, expansions: list[str] | None = None) -> str:
    return content_fingerprint(load_content(resolve_packs([pack], expansions)))


@pytest.fixture
def pack(tmp_path) -> Path:
    copy = tmp_path / "pack"
    shutil.copytree(FORK, copy)
    return copy


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _one_game(content: Path, log: Path) -> tuple[str, list[str]]:
    """Game seed 3 at 5 players on `content` (no expansions), logged: (the log's content fingerprint, its records)."""
    r = fengsheng(
        "simulate", "-p", 5, "-n", 1, "-s", 3, "-j", 1, "--content", content, "--expansions", "none", "--log", log
    )
    assert r.exit_code == 0, r.output
    lines = log.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0])["content"], lines[1:]


def test_comments_layout_key_order_and_files_that_are_no_content_keep_it(pack):
    before = fingerprint(pack)
    assert before.startswith(PREFIX) and fingerprint(FORK) == before  # (the folder it sits in does not count)
    card, role = pack / "cards" / "mi_dian.yaml", pack / "roles" / "hua_mei.yaml"
    edit(card, "id: mi_dian\n", "# a comment of one's own\nid:   mi_dian   # and another\n")
    edit(role, "# for the heuristic bot: used", "# (comment fixed) for the heuristic bot, used")
    edit(role, "limit: {per: phase}", "limit:\n      per: phase")  # flow style to block style
    # a file's top-level keys in another order (each is read by its name)
    text = card.read_text(encoding="utf-8")
    head, uses = text.split("uses:\n", 1)
    card.write_text("uses:\n" + uses + head, encoding="utf-8")
    edit(pack / "pack.yaml", "version: 0.1.0", "version: 0.2.0  # the pack's own words")
    shutil.copy(pack / "tests" / "card_mi_dian.scenario.yaml", pack / "tests" / "another.scenario.yaml")
    (pack / "README.md").write_text("# notes\n", encoding="utf-8")
    assert fingerprint(pack) == before


@pytest.mark.parametrize(
    ("where", "old", "new"),
    [
        ("cards/mi_dian.yaml", "draw(self, 1)", "draw(self, 2)"),  # a number in a card's effect
        ("roles/hua_mei.yaml", "hand_count(self) >= 1", "hand_count(self) >= 2"),  # a number in a role's skill
        ("roles/hua_mei.yaml", "name: 密报", "name: 密信"),  # a text the game shows
        ("cards/mi_dian.yaml", "你与其各摸一张牌。", "你与其各摸一张牌！"),
        ("roles/hua_mei.yaml", "effect: draw(self, 1)", "effect: draw(subject, 1)"),  # effect code
        ("pack.yaml", "draw_count: 2", "draw_count: 1"),  # a rule a manifest merges
        ("pack.yaml", "    - {id: 202, card: mi_dian, colors: [blue], direction: right}\n", ""),  # a copy fewer
        (
            "pack.yaml",
            "  roles:\n    - a_fu_luo_la_jian_die",
            "  roles:\n    - a_fu_luo_la_jian_die\n    - bai_kun_shan",
        ),
    ],
)
def test_what_the_game_is_made_of_changes_it(pack, where, old, new):
    before = fingerprint(pack)
    edit(pack / where, old, new)
    assert fingerprint(pack) != before


def test_a_role_removed_and_the_expansions_chosen_change_it(pack):
    before = fingerprint(pack)
    assert fingerprint(pack, []) != before  # without the expansions
    (pack / "roles" / "hua_mei.yaml").unlink()
    assert fingerprint(pack) != before


def test_the_order_of_a_mapping_below_a_files_top_level_counts(tmp_path):
    """The engine reads some mappings in their order: the identity table deals in it, so a table written in
    another order deals other games for the same seed, and has another fingerprint. A file's top-level keys in
    another order play the same games, with the same fingerprint."""
    base = ROOT / "content"
    rows = {}
    table = "5: {qian_fu_zhan_xian: 2, te_gong_ji_guan: 2, shen_mi_ren: 1}"
    for name in ("same", "table", "top"):
        copy = tmp_path / name
        shutil.copytree(base, copy, ignore=shutil.ignore_patterns("expansions"))
        rules = copy / "rules.yaml"
        if name == "table":  # the 5-player table's identities in another order
            edit(rules, table, "5: {shen_mi_ren: 1, te_gong_ji_guan: 2, qian_fu_zhan_xian: 2}")
        elif name == "top":  # the identity table moved to the end of the file
            text = rules.read_text(encoding="utf-8")
            start, end = text.index("identity_table:"), text.index("\n# Which deck")
            rules.write_text(text[:start] + text[end:] + "\n" + text[start:end] + "\n", encoding="utf-8")
        rows[name] = _one_game(copy, tmp_path / f"{name}.jsonl")
    assert rows["top"] == rows["same"]
    assert rows["table"][0] != rows["same"][0] and rows["table"][1] != rows["same"][1]


def test_folders_given_are_fingerprinted_as_they_are_now(pack):
    """sim.content_fingerprint of folders loads them: an edit made in this process is seen."""
    paths = resolve_packs([pack], None)
    before = sim_fingerprint(paths)
    assert before == sim_fingerprint(load_content(paths)) == fingerprint(pack)
    edit(pack / "cards" / "mi_dian.yaml", "draw(target, 1)", "draw(target, 2)")
    assert sim_fingerprint(paths) != before


def test_replay_after_a_comment_only_edit_gives_no_warning(pack, tmp_path):
    log = tmp_path / "g.jsonl"
    assert fengsheng("simulate", "-p", 5, "-n", 2, "-s", 1, "-j", 1, "--content", pack, "--log", log).exit_code == 0
    edit(pack / "roles" / "hua_mei.yaml", "# 接收情报后", "# 接收情报之后 (a comment fixed)")
    (pack / "tests" / "new.scenario.yaml").write_text("# a scenario begun\n", encoding="utf-8")
    r = fengsheng("replay", log)
    assert r.exit_code == 0 and r.stdout.count("OK") == 2, r.output
    assert "warning" not in r.stderr and "changed" not in r.stderr, r.stderr
    edit(pack / "cards" / "mi_dian.yaml", "draw(target, 1)", "draw(target, 2)")  # the game changed: said so
    r = fengsheng("replay", log, "--content", pack)
    assert r.stderr.count("was played with different content") == 2, r.output


def test_a_log_of_an_older_fengsheng_is_said_to_be_so(tmp_path):
    """A log whose header carries the fingerprint of the files (fengsheng before this one) replays, with one
    note saying its fingerprint cannot be compared; --format json says same_content null (not known)."""
    log = tmp_path / "g.jsonl"
    assert fengsheng("simulate", "-p", 5, "-n", 2, "-s", 1, "-j", 1, "--log", log).exit_code == 0
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        if line["type"] == "game":
            assert not older_fingerprint(line["content"])
            line["content"] = "dc25e8929358b1e0"
    log.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    r = fengsheng("replay", log)
    assert r.exit_code == 0 and r.stdout.count("OK") == 2, r.output
    assert "warning" not in r.stderr and r.stderr.count("content fingerprint of an older fengsheng") == 1, r.stderr
    r = fengsheng("replay", log, "--format", "json")
    assert [g["same_content"] for g in json.loads(r.stdout)["games"]] == [None, None]


def test_a_sweep_of_an_older_fengsheng_is_not_resumed_and_its_report_says_why(tmp_path):
    from interpreter.balance.grid import PackSource, SweepError, make_spec, prepare
    from interpreter.balance.pack_facts import locate_packs
    from interpreter.balance.words import note_text

    paths = tuple(str(p) for p in resolve_packs([], None))
    spec = make_spec(1, [5], ["random"], [PackSource("base", (), None, paths)], 1)
    assert spec.packs[0].fingerprint == sim_fingerprint(load_content(list(paths)))
    out = tmp_path / "sweep"
    prepare(out, spec)
    meta = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    meta["packs"][0]["fingerprint"] = "dc25e8929358b1e0"
    (out / "sweep.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(SweepError, match=r"begun by an older fengsheng.*--restart"):
        prepare(out, spec)
    _, notes = locate_packs(meta, out)
    assert notes["base"]["kind"] == "older"
    assert "older fengsheng" in note_text(notes["base"], "en") and "较早" in note_text(notes["base"], "zh")
    assert prepare(out, spec, resume=False) == []  # --restart plays it again


def test_a_role_or_task_file_renamed_keeps_it_and_the_games_a_card_file_renamed_does_not(tmp_path):
    """Roles and secret tasks are dealt in id order (the role pile is built sorted by id, the tasks dealt sorted by
    id), so a role or task file renamed past the others plays the same games and has the same fingerprint (each
    changed it, hashed in the loader's file order). A card file renamed past the others puts its card last in the
    order a card's name is offered in: another fingerprint."""
    base = ROOT / "content"
    rows = {}
    for name, folder_name in (("same", ""), ("role", "roles"), ("task", "secret_tasks"), ("card", "cards")):
        copy = tmp_path / name
        shutil.copytree(base, copy, ignore=shutil.ignore_patterns("expansions"))
        if folder_name:
            folder = copy / folder_name
            first = sorted(folder.glob("*.yaml"))[0]
            first.rename(folder / f"zz_{first.name}")
        rows[name] = _one_game(copy, tmp_path / f"{name}.jsonl")
        assert rows[name][0] == fingerprint(copy, [])
    assert rows["role"] == rows["same"]
    assert rows["task"] == rows["same"]
    assert rows["card"][0] != rows["same"][0]
