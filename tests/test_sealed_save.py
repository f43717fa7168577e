"""A play save hides its referee part (sealed.py): the seed and the action ids are sealed with the user's key,
resuming opens them, and a save that was changed, sealed with another key or read without the key says so."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from interpreter import sealed
from interpreter.cli import main
from interpreter.play import PlayError, Table


def _play(*args: object, answers: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["play", *map(str, args)], input=answers)
    assert "Traceback" not in r.output
    return r.exit_code, r.output


def _saved(tmp_path) -> tuple:
    save = tmp_path / "g.json"
    _, out = _play("-p", 4, "-s", 31, "--bots", "random", "--save", save, answers="1\n1\n1\ns\n\n")
    assert "已保存到" in out
    return save, json.loads(save.read_text(encoding="utf-8"))


def test_seal_round_trip_and_tamper():
    key = bytes(range(32))
    text = b'{"seed": 5, "actions": [1, 2, 3]}' * 10  # longer than one keystream block
    box = sealed.seal(key, text)
    assert sealed.open_sealed(key, box) == text
    assert b"seed" not in box.encode() and sealed.seal(key, text) != box  # a fresh nonce each time
    raw = bytearray(box.encode())
    raw[30] = ord("A") if raw[30] != ord("A") else ord("B")
    for bad, why in (
        (raw.decode(), "changed, or was sealed with another key"),
        ("not base64!", "not base64"),
        ("AAAA", "too short"),
    ):
        try:
            sealed.open_sealed(key, bad)
        except sealed.SealError as e:
            assert why in str(e)
        else:
            raise AssertionError(f"{bad!r} opened")
    try:
        sealed.open_sealed(bytes(32), box)
    except sealed.SealError as e:
        assert "another key" in str(e)
    else:
        raise AssertionError("another key opened it")


def test_the_save_names_no_seed_and_no_action_and_resumes(tmp_path):
    save, data = _saved(tmp_path)
    assert "seed" not in data and "actions" not in data and data["version"] == 2
    setup, actions = Table.read_save(save)
    assert setup.seed == 31 and len(actions) >= 3
    assert (sealed.data_dir() / sealed.KEY_FILE).stat().st_mode & 0o077 == 0  # the key: the user's alone


def test_a_save_tells_no_count_of_the_games_decisions(tmp_path):
    """A seat is asked at 争夺阶段 only when it holds something to use there, so the count of the game's actions
    between two saves told whether the bots held such a card: the save said it in the open ("decisions": 19), and
    so did `--resume` ("resumed after 19 decisions") and the line saying it was saved ("（19 个决定）"). Now none of
    them, and the sealed part's length (padded) is the same after one answer and after twelve. Found by a
    newcomer's walk-through."""
    lengths = {}
    for answers in (1, 12):
        save = tmp_path / f"g{answers}.json"
        _, out = _play("-p", 4, "-s", 31, "--bots", "random", "--save", save, answers="1\n" * answers + "s\n\n")
        assert "已保存到" in out, out[-500:]
        data = json.loads(save.read_text(encoding="utf-8"))
        assert not any("decision" in k or "action" in k for k in data), sorted(data)
        _, actions = Table.read_save(save)
        lengths[answers] = (len(actions), len(data["sealed"]))
        assert f"{len(actions)} 个决定" not in out and "个决定" not in out  # (the line saying it was saved)
        code, resumed = _play("--resume", save, answers="q\nn\n")
        assert code == 0 and f"after {len(actions)}" not in resumed and str(len(actions)) + " decisions" not in resumed
    (few, few_sealed), (many, many_sealed) = lengths[1], lengths[12]
    assert many > few + 10  # (the bots answered between: more actions than answers)
    assert few_sealed == many_sealed


def test_a_changed_save_a_missing_key_and_an_old_save(tmp_path, monkeypatch):
    save, data = _saved(tmp_path)
    box = data["sealed"]
    data["sealed"] = box[:40] + ("A" if box[40] != "A" else "B") + box[41:]
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out = _play("--resume", save, answers="")
    assert code == 1 and "cannot open the save's sealed part" in out and "changed" in out
    data["sealed"] = box
    save.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setenv("FENGSHENG_DATA_DIR", str(tmp_path / "elsewhere"))  # another machine: no key there
    code, out = _play("--resume", save, answers="")
    assert code == 1 and "sealed with the save key of the user who wrote it" in out and "FENGSHENG_DATA_DIR" in out
    # a save of version 1 (seed and actions in the open) still resumes
    old = {k: v for k, v in data.items() if k not in ("sealed", "decisions")} | {"version": 1, "seed": 31}
    old["actions"] = []
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    setup, actions = Table.read_save(tmp_path / "old.json")
    assert setup.seed == 31 and actions == []
    old["seed"] = -3
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    try:
        Table.read_save(tmp_path / "old.json")
    except PlayError as e:
        assert "seed: -3 is less than the minimum of 0" in str(e)
    else:
        raise AssertionError("a negative seed was read")


def test_an_edited_table_is_refused_and_the_save_still_resumes(tmp_path):
    """The table is in the open (who sits where, the bots' kind, the turn limit), and an edit of it resumed
    another game than the one saved: the bots made random, a turn limit of 1, a person's seat given to a bot.
    The sealed part keeps a copy; an edit is refused, saying what it said, and the save put back resumes."""
    save, data = _saved(tmp_path)
    for field, value in (
        ("bots", {k: "heuristic" for k in data["bots"]}),
        ("max_turns", 1),
        ("humans", [0, 1]),
        ("expansions", "none"),
    ):
        edited = dict(data, **{field: value})
        if field == "humans":
            edited["bots"] = {k: v for k, v in data["bots"].items() if k != "1"}
        (tmp_path / "e.json").write_text(json.dumps(edited), encoding="utf-8")
        code, out = _play("--resume", tmp_path / "e.json", answers="")
        assert code == 1 and "changed after it was saved" in out and field in out, (field, out[-400:])
        assert save.read_text(encoding="utf-8") == json.dumps(data, ensure_ascii=False) + "\n"  # lost nothing
    code, out = _play("--resume", save, answers="q\nn\n")
    assert code == 0 and "resumed" in out


def test_a_save_that_stops_replaying_names_no_sealed_action(tmp_path):
    """A save whose `content` was edited (it may be: its pack moved) stops replaying where the packs differ, and
    said which action id it stopped at: an id names a card (a face-down send), on the table's terminal."""
    import re

    save, data = _saved(tmp_path)
    _, actions = Table.read_save(save)
    data["content"] = [str(Path(__file__).parent.parent / "examples" / "rule_skills")]
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out = _play("--resume", save, answers="")
    stopped = re.search(r"action (\d+) of the save", out)
    assert code == 1 and stopped and "is not legal in this game" in out, out[-300:]
    assert f"({actions[int(stopped.group(1)) - 1]})" not in out
