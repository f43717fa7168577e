"""The player counts a game is played at are the content's: its identity table (and decks). A made-up pack that
plays 3 to 12 players (docs/modding.md's example) is played at 12 from the command line, its log replayed, its
save read back, a web table of 12 made, and the step API and the RL adapters play it; a count it has no table for
is refused at every door with one line naming the counts it plays. Beyond MAX_SEATS (model/content.py) only the
step API and the RL adapters seat a table, and validate says so (W129)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conftest import TWELVE, fengsheng
from interpreter.content.loader import load_content
from interpreter.content.packs import resolve_packs
from interpreter.model.content import MAX_SEATS, MIN_PLAYERS
from interpreter.paths import SCHEMA_DIR

REFUSED = "the rules have no identity table for {} players (they have one for 3-12 players)"


def _pack(folder: Path, manifest: str = TWELVE) -> Path:
    """A pack over the bundled game made of its pack.yaml alone: by default docs/modding.md's "Player counts"
    example, which deals 3 to 12 players (no row for 2; rows for 11 and 12, played with the full deck)."""
    pack = folder / "shi_er"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(manifest, encoding="utf-8")
    return pack


def _load(pack: Path):
    return load_content(resolve_packs([pack], None))


def test_the_example_is_docs_modding_md():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "modding.md").read_text(encoding="utf-8")
    assert TWELVE[TWELVE.index("rules:") :] in doc


@pytest.fixture(scope="module")
def twelve(tmp_path_factory) -> Path:
    return _pack(tmp_path_factory.mktemp("seats"))


@pytest.fixture(scope="module")
def twelve_content(twelve):
    return _load(twelve)


def test_the_pack_validates_and_says_which_counts_it_plays(twelve, twelve_content):
    r = fengsheng("validate", twelve)
    assert r.exit_code == 0 and "warning" not in r.output, r.output
    assert twelve_content.rules.player_counts() == list(range(3, 13))


def test_twelve_players_from_the_command_line_and_the_log_replays(twelve, tmp_path):
    log = tmp_path / "g.jsonl"
    r = fengsheng("simulate", "-p", 12, "-n", 1, "-s", 5, "-j", 1, "--content", twelve, "--log", log)
    assert r.exit_code == 0, r.output
    assert "1 games, 12 players, seed 5" in r.output
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert records[0]["players"] == 12
    assert {rec["seat"] for rec in records if "d" in rec} == set(range(12))  # seats 10 and 11 decided too
    r = fengsheng("replay", log, "--content", twelve)
    assert r.exit_code == 0, r.output
    assert r.output.count("OK — identical") == 1


def test_twelve_players_through_the_step_api(twelve_content):
    from interpreter.engine.step import GameState

    state = GameState(twelve_content, 12, seed=3)
    pick = random.Random(3)
    for _ in range(20_000):
        if state.is_terminal():
            break
        state.apply_action(pick.choice(state.legal_actions()))
    assert state.is_terminal() and len(state.returns()) == 12
    assert len(state.observation(11)["players"]) == 12


@pytest.mark.parametrize(
    ("command", "count"),
    [
        (["simulate", "-n", "1"], 2),
        (["simulate", "-n", "1"], 13),
        (["play"], 2),
        (["balance", "-n", "1", "-j", "1"], 13),
    ],
)
def test_a_count_the_pack_has_no_table_for_is_refused_naming_the_counts_it_plays(twelve, tmp_path, command, count):
    """One line, exit 2, as any other mistake on the command line (click's error path), once the content is known:
    not click's fixed range, which refused 11 and 12 and let 2 through to a failure at the deal."""
    r = fengsheng(*command, "-p", count, "--content", twelve, *(["-o", tmp_path / "o"] if "balance" in command else []))
    assert r.exit_code == 2 and r.stdout == "", r.output
    (line,) = r.stderr.splitlines()
    assert line.startswith("error: Invalid value for '--players'") and REFUSED.format(count) in line


def test_the_step_api_and_the_replay_refuse_it_the_same_way(twelve, twelve_content, tmp_path):
    from interpreter.engine.step import GameState

    with pytest.raises(ValueError, match=rf"^{REFUSED.format(2)}$".replace("(", r"\(").replace(")", r"\)")):
        GameState(twelve_content, 2, seed=1)
    log = tmp_path / "g.jsonl"
    assert fengsheng("simulate", "-p", 2, "-n", 1, "-s", 1, "--log", log).exit_code == 0  # the bundled game's 2
    r = fengsheng("replay", log, "--content", twelve)
    assert r.exit_code == 1 and REFUSED.format(2) in r.output


def test_a_save_of_twelve_players_reads_back(twelve, twelve_content, tmp_path):
    from interpreter.play import Setup, Table

    setup = Setup(players=12, seed=9, humans=[11], bots={s: "random" for s in range(11)}, content=[str(twelve)])
    table = Table(twelve_content, setup)
    table.save(tmp_path / "s.json")
    read, actions = Table.read_save(tmp_path / "s.json")
    assert read.players == 12 and read.humans == [11] and sorted(read.bots) == list(range(11)) and actions == []


def test_a_web_table_of_twelve_and_the_lobbys_counts(twelve):
    from interpreter.web.tables import TableError, Tables

    tables = Tables(lambda packs: load_content(packs), lambda text: resolve_packs([twelve], None))
    assert tables.player_counts() == list(range(3, 13))  # what /api/options offers the lobby
    web = tables.create(["human", *["random"] * 11], seed=4)
    assert web.table.setup.players == 12
    with pytest.raises(TableError, match=REFUSED.format(2).replace("(", r"\(").replace(")", r"\)")):
        tables.create(["human", "random"], seed=4)
    with pytest.raises(TableError, match=f"a table has 2 to {MAX_SEATS} seats"):
        tables.create(["human"] * (MAX_SEATS + 1), seed=4)


def test_the_rl_adapters_read_the_counts_from_the_content(twelve, twelve_content):
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    import interpreter.rl.openspiel_game  # noqa: F401  (registers the game)
    from interpreter.rl.pettingzoo_env import FengshengAECEnv

    # (OpenSpiel's `content` is resolved as --content: the pack alone is laid over the bundled game)
    folders = str(twelve)
    game = pyspiel.load_game("python_fengsheng", {"players": 12, "content": folders, "seed": 1})
    kind = game.get_type()
    assert (kind.min_num_players, kind.max_num_players, game.num_players()) == (3, 12, 12)
    bundled = pyspiel.load_game("python_fengsheng", {"players": 5}).get_type()
    assert (bundled.min_num_players, bundled.max_num_players) == (2, 10)
    with pytest.raises(Exception, match=r"no identity table for 2 players \(they have one for 3-12 players\)"):
        pyspiel.load_game("python_fengsheng", {"players": 2, "content": folders})
    env = FengshengAECEnv(players=12, content=twelve_content)
    env.reset(seed=2)
    assert len(env.possible_agents) == 12


def test_validate_warns_of_a_row_beyond_what_the_doors_seat_and_refuses_one_below_two(tmp_path):
    """A row for 33 players loads (the step API plays it) with a warning naming the doors that do not seat it; a
    row for 1 is an error at its key (the engine refused it at the deal, after validate said nothing)."""
    # (a starting hand of 2: the full deck's 118 copies are too few for 33 hands of 3 and a card more, E127)
    far = TWELVE.replace("rules:\n", "rules:\n  start_hand: 2\n").replace("[9, 12]", "[9, 33]")
    far = far.replace("    2: null\n", "    33: {qian_fu_zhan_xian: 16, te_gong_ji_guan: 16, shen_mi_ren: 1}\n")
    pack = _pack(tmp_path, far)
    r = fengsheng("validate", pack)
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.output.splitlines() if "W129" in ln)
    rows = (pack / "pack.yaml").read_text(encoding="utf-8").splitlines()
    at = next(i for i, text in enumerate(rows, 1) if text.startswith("    33:"))  # (where the pack writes it)
    assert line.startswith(f"{pack / 'pack.yaml'}:{at}:5: warning W129: a table of 33 players is more than the ")
    assert f"{MAX_SEATS} seats" in line and "simulate" in line and "serve" in line and "replay" in line
    content = _load(pack)
    assert 33 in content.rules.player_counts() and 33 not in content.rules.door_counts()
    r = fengsheng("simulate", "-p", 33, "-n", 1, "--content", pack)
    assert r.exit_code == 2 and f"33 players is more than the {MAX_SEATS} seats" in r.stderr

    low = _pack(tmp_path / "low", TWELVE.replace("    2: null\n", "    1: {qian_fu_zhan_xian: 1}\n"))
    r = fengsheng("validate", low)
    assert r.exit_code == 1 and "error E113: 1 is not a player count: a game has at least 2 players" in r.output


def test_the_schemas_seat_as_many_as_the_doors():
    """The JSON schemas cannot import MAX_SEATS: they say the same number, and this keeps them together."""
    save = json.loads((SCHEMA_DIR / "save.schema.json").read_text(encoding="utf-8"))["properties"]
    assert save["players"]["minimum"] == MIN_PLAYERS and save["players"]["maximum"] == MAX_SEATS
    assert save["humans"]["items"]["maximum"] == MAX_SEATS - 1 and save["humans"]["maxItems"] == MAX_SEATS
    assert save["bots"]["maxProperties"] == MAX_SEATS - 1
    scenario = json.loads((SCHEMA_DIR / "scenario.schema.json").read_text(encoding="utf-8"))["properties"]
    assert scenario["players"]["minItems"] == MIN_PLAYERS and scenario["players"]["maxItems"] == MAX_SEATS


def test_one_player_is_refused_in_the_singular(twelve):
    """`-p 1` reaches the same message: "for 1 player", not "1 players"."""
    r = fengsheng("simulate", "-n", "1", "-p", 1, "--content", twelve)
    assert r.exit_code == 2 and "no identity table for 1 player (they have one for 3-12 players)" in r.stderr, r.output
