"""A sweep's files read back: the grid, the game records, an interrupted run's cut-off line, malformed lines."""

from __future__ import annotations

import json

import pytest

from interpreter.balance.records import (
    GAMES_FILE,
    SWEEP_FILE,
    Cell,
    GameRecord,
    Pack,
    RecordError,
    SeatRecord,
    SweepSpec,
    open_games,
    read_records,
    read_spec,
    record_line,
    write_record,
    write_spec,
)


def _spec(**kw) -> SweepSpec:
    base = dict(
        version="0.1.0",
        seed=7,
        players=(5, 6),
        agents=("heuristic", "heuristic,random,random,random,random"),
        packs=(Pack("base", (), None, "abc"), Pack("fork", ("my_pack",), "none", "def")),
        games=3,
        max_turns=None,
    )
    base.update(kw)
    return SweepSpec(**base)  # type: ignore[arg-type]


def _rec(players: int, pack: str, index: int, won: int = 0) -> GameRecord:
    seats = [
        SeatRecord(seat=s, identity="军情", task=None, role="老鬼", agent="heuristic", won=s == won)
        for s in range(players)
    ]
    return GameRecord(
        cell=Cell(players, "heuristic", pack),
        index=index,
        seed=1000 + index,
        roles=["老鬼"] * players,
        winner_roles=["老鬼"],
        skill_uses={"老鬼·移花接木": 2},
        reason="collect",
        turns=9,
        decisions=120,
        identities=["军情"] * players,
        winner_seats=[won],
        seats=seats,
    )


def test_the_grid_names_every_cell_a_per_seat_list_only_at_its_player_count():
    cells = _spec().cells()
    assert [c.label() for c in cells] == [
        "5 players · heuristic · base",
        "5 players · heuristic · fork",
        "5 players · heuristic,random,random,random,random · base",
        "5 players · heuristic,random,random,random,random · fork",
        "6 players · heuristic · base",
        "6 players · heuristic · fork",
    ]
    assert cells[2].seat_kinds() == ("heuristic", "random", "random", "random", "random")
    assert cells[0].seat_kinds() == ("heuristic",) * 5


def test_sweep_json_round_trips_and_differences_are_named(tmp_path):
    spec = _spec()
    write_spec(tmp_path, spec)
    assert json.loads((tmp_path / SWEEP_FILE).read_text())["packs"][1] == {
        "name": "fork",
        "content": ["my_pack"],
        "expansions": "none",
        "fingerprint": "def",
    }
    back = read_spec(tmp_path)
    assert back == spec
    assert back.differences(spec) == []
    assert back.differences(_spec(games=10, seed=8)) == [
        "seed: 7 in the directory, 8 now",
        "games: 3 in the directory, 10 now",
    ]


def test_a_bad_sweep_json_is_named(tmp_path):
    with pytest.raises(RecordError, match="no such file"):
        read_spec(tmp_path)
    (tmp_path / SWEEP_FILE).write_text('{"format": 1,\n "seed": }')
    with pytest.raises(RecordError, match=r"sweep.json:2:10: not JSON"):
        read_spec(tmp_path)
    d = _spec().to_dict()
    d["games"] = "many"
    (tmp_path / SWEEP_FILE).write_text(json.dumps(d))
    with pytest.raises(RecordError, match=r'`games` should be a whole number \(got "many"\)'):
        read_spec(tmp_path)
    d["format"] = 99
    (tmp_path / SWEEP_FILE).write_text(json.dumps(d))
    with pytest.raises(RecordError, match="format 99 is not one"):
        read_spec(tmp_path)


def test_a_sweep_json_with_bad_pins_is_named(tmp_path):
    """Pins that are not a role's and a task's ids are an error naming them: they were dropped without a word,
    so the report no longer said what was pinned and compare paired no pinned seat."""
    d = _spec().to_dict()
    for bad in ({"role": 5}, "hua_mei", {"role": ""}, {"card": "mi_dian"}, {"role": "hua_mei", "seat": 1}):
        d["pins"] = bad
        (tmp_path / SWEEP_FILE).write_text(json.dumps(d))
        with pytest.raises(RecordError, match=r"`pins` should be null or the ids of a role and a task"):
            read_spec(tmp_path)
    for good, pins in (
        (None, None),
        ({}, None),
        ({"role": "hua_mei"}, {"role": "hua_mei"}),
        ({"task": "x"}, {"task": "x"}),
    ):
        d["pins"] = good
        (tmp_path / SWEEP_FILE).write_text(json.dumps(d))
        assert read_spec(tmp_path).pins == pins


def test_records_round_trip_sorted_by_cell_and_index_whatever_the_order_written(tmp_path):
    write_spec(tmp_path, _spec())
    written = [_rec(6, "base", 1), _rec(5, "fork", 0), _rec(5, "base", 2), _rec(5, "base", 0, won=3)]
    with open_games(tmp_path) as f:
        for r in written:
            write_record(f, r)
        write_record(f, _rec(5, "base", 2))  # the same game twice: kept once
    back = read_records(tmp_path)
    assert [(r.cell.players, r.cell.pack, r.index) for r in back] == [
        (5, "base", 0),
        (5, "base", 2),
        (5, "fork", 0),
        (6, "base", 1),
    ]
    assert back[0] == written[3]
    assert back[0].seats[3].won and not back[0].seats[0].won
    assert back[0].skill_uses == {"老鬼·移花接木": 2}


def test_a_failed_game_is_a_record_and_can_be_left_out(tmp_path):
    write_spec(tmp_path, _spec())
    failed = GameRecord(cell=Cell(5, "heuristic", "base"), index=1, seed=5, failed="EngineError: stuck", turns=4)
    with open_games(tmp_path) as f:
        write_record(f, _rec(5, "base", 0))
        write_record(f, failed)
    assert read_records(tmp_path)[1] == failed
    assert [r.index for r in read_records(tmp_path, keep_failed=False)] == [0]


def test_an_interrupted_runs_last_line_is_dropped_and_cut_before_appending(tmp_path):
    write_spec(tmp_path, _spec())
    full = record_line(_rec(5, "base", 0)) + record_line(_rec(5, "base", 1))
    cut = record_line(_rec(5, "base", 2))[:40]
    (tmp_path / GAMES_FILE).write_text(full + cut, encoding="utf-8")
    assert [r.index for r in read_records(tmp_path)] == [0, 1]
    with open_games(tmp_path) as f:  # the resumed run plays game 2 again
        write_record(f, _rec(5, "base", 2))
    assert [r.index for r in read_records(tmp_path)] == [0, 1, 2]
    assert (tmp_path / GAMES_FILE).read_text(encoding="utf-8").count("\n") == 3


def test_a_line_cut_inside_a_character_is_dropped_too(tmp_path):
    write_spec(tmp_path, _spec())
    line = record_line(_rec(5, "base", 0)).encode()
    cut = record_line(_rec(5, "base", 1)).encode()
    at = cut.index("老".encode()) + 1  # in the middle of a three-byte character
    (tmp_path / GAMES_FILE).write_bytes(line + cut[:at])
    assert [r.index for r in read_records(tmp_path)] == [0]


def test_a_malformed_line_before_the_last_is_an_error_with_its_line(tmp_path):
    write_spec(tmp_path, _spec())
    good = record_line(_rec(5, "base", 0))
    (tmp_path / GAMES_FILE).write_text(good + '{"cell": oops}\n' + good, encoding="utf-8")
    with pytest.raises(RecordError, match=r"games.jsonl:2:10: not a JSON line"):
        read_records(tmp_path)
    bad = json.loads(good)
    bad["seats"][0]["won"] = "yes"
    (tmp_path / GAMES_FILE).write_text(good + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"games.jsonl:2: a seat should be"):
        read_records(tmp_path)
    del bad["index"]
    (tmp_path / GAMES_FILE).write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"games.jsonl:1: `index` should be a whole number \(got null\)"):
        read_records(tmp_path)


def test_a_record_no_game_of_the_grid_can_have_written_is_an_error(tmp_path):
    """An index beyond the games per cell, a cell not in the grid, a seat list of another size: refused with the
    line, not counted into a report."""
    write_spec(tmp_path, _spec())
    good = json.loads(record_line(_rec(5, "base", 0)))
    for change, says in (
        ({"index": 10**6}, "game index 1000000 is outside the sweep's"),
        ({"index": -1}, "game index -1 is outside"),
        ({"cell": {**good["cell"], "pack": "elsewhere"}}, "is not in the sweep's grid"),
        ({"cell": {**good["cell"], "players": 9}}, "is not in the sweep's grid"),
        ({"seats": good["seats"][:2]}, "2 seats in a game of 5 players"),
    ):
        (tmp_path / GAMES_FILE).write_text(json.dumps({**good, **change}) + "\n", encoding="utf-8")
        with pytest.raises(RecordError, match="games.jsonl:1: .*" + says):
            read_records(tmp_path)


def test_a_sweep_file_nested_deeply_or_with_huge_numbers_is_one_line(tmp_path):
    (tmp_path / "sweep.json").write_text('{"format": ' + "[" * 50_000 + "]" * 50_000 + "}", encoding="utf-8")
    with pytest.raises(RecordError, match=r"sweep.json: not a sweep description \(values nested too deeply"):
        read_spec(tmp_path)
    write_spec(tmp_path, _spec())
    good = record_line(_rec(5, "base", 0))
    (tmp_path / GAMES_FILE).write_text(good.replace('"index": 0', '"index": ' + "9" * 5000), encoding="utf-8")
    with pytest.raises(RecordError, match=r"games.jsonl:1: not a game record \(a number of thousands of digits"):
        read_records(tmp_path)


def test_a_directory_that_is_no_sweep_is_named(tmp_path):
    with pytest.raises(RecordError, match="not the output directory of a sweep"):
        read_records(tmp_path)
    write_spec(tmp_path, _spec())
    assert read_records(tmp_path) == []  # a sweep that has not finished a game yet


def test_a_record_as_plain_data_is_what_asdict_makes_and_shares_nothing():
    """to_dict builds the dict itself (asdict was most of a report's reading): the same keys in the same order, the
    same values, the cell as a dict, and copies: changing the dict changes no record. A seat's rule skill counts are
    left out where there are none to count (rules without skills: their lines as they were)."""
    from dataclasses import asdict

    def plain(r: GameRecord) -> dict:
        d = {**asdict(r), "cell": r.cell.to_dict()}
        for s in d["seats"]:
            if s["rule_skills"] is None:
                del s["rule_skills"]
        return d

    rec = _rec(5, "fork", 2, won=1)
    rec.seats[0].cards["截获"] = 2
    failed = GameRecord(cell=Cell(5, "heuristic", "base"), index=1, seed=5, failed="EngineError: stuck", turns=4)
    house = _rec(5, "fork", 3)
    for s in house.seats:
        s.rule_skills = {"换牌": 1} if s.seat == 0 else {}
    for r in (rec, failed, house):
        d = r.to_dict()
        assert d == plain(r) and list(d) == list(asdict(r))
        assert json.dumps(d, ensure_ascii=False) == json.dumps(plain(r), ensure_ascii=False)
    assert "rule_skills" not in rec.to_dict()["seats"][0] and house.to_dict()["seats"][1]["rule_skills"] == {}
    d = rec.to_dict()
    d["roles"].append("x")
    d["skill_uses"]["x"] = 1
    d["seats"][0]["cards"]["x"] = 1
    assert rec.roles == ["老鬼"] * 5 and "x" not in rec.skill_uses and "x" not in rec.seats[0].cards
    house.to_dict()["seats"][0]["rule_skills"]["x"] = 1
    assert house.seats[0].rule_skills == {"换牌": 1}
