"""Pins (engine/pins.py): a role or secret task dealt to a seat in every game, the seat rotating; seed + pins
replay a game; two packs dealt from the same seed with the same pins share their common deals; the commands
take --role/--task with did-you-mean errors and record the pins (a log's setup record, sweep.json)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import fengsheng
from interpreter.balance.records import read_records, read_spec
from interpreter.content.loader import load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.pins import PairedDeal, Pins, pin_problems
from interpreter.sim import play_game, read_log, replay_game

FIXTURES = Path(__file__).parent / "fixtures"
EXAMPLES = Path(__file__).parent.parent / "examples"
ROLE = "demo_clerk"  # a made-up role (tests/fixtures/role_pack)


@pytest.fixture(scope="module")
def one_role_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pack adding one made-up role to the bundled game."""
    d = tmp_path_factory.mktemp("one_role") / "pack"
    (d / "roles").mkdir(parents=True)
    shutil.copy(FIXTURES / "role_pack" / "roles" / f"{ROLE}.yaml", d / "roles")
    return d


@pytest.fixture(scope="module")
def base():
    return load_content(resolve_packs([], None))


@pytest.fixture(scope="module")
def fork(one_role_pack: Path):
    return load_content(resolve_packs([one_role_pack], None))


def _roles(game) -> list:
    return next(e for e in game.log if e.get("e") == "roles")["roles"]


def test_a_pinned_role_and_task_are_dealt_to_the_seat(fork) -> None:
    """The deal, at each seat: each game stops after its first turn (the deal is all it reads; pinned games are
    played to their end and replayed by test_simulate_pins_and_replays and test_balance_pins_every_game...)."""
    task = sorted(fork.tasks)[1]
    for seat in range(5):
        pins = Pins(ROLE, task, seat)
        game, failure = play_game(fork, 5, 40 + seat, max_turns=1, record=True, agents=("random",) * 5, pins=pins)
        assert failure is None
        p = game.players[seat]
        assert p.dealt_roles[0].id == ROLE and _roles(game)[seat] == ROLE
        assert game.log[0]["tasks"][seat] == task and p.identity is not None
        assert game.log[0]["pins"] == {"seat": seat, "role": ROLE, "task": task}
        assert _roles(game).count(ROLE) == 1


def test_an_unpinned_game_deals_as_before(base) -> None:
    """No pins: no pins in the setup record, and the same deal as a game made without the argument."""
    a, _ = play_game(base, 5, 7, record=True, agents=("random",) * 5)
    b, _ = play_game(base, 5, 7, record=True, agents=("random",) * 5, pins=None)
    assert "pins" not in a.log[0] and a.log == b.log


def test_paired_deals_share_what_both_packs_have(base, fork) -> None:
    """The base lacks the pinned role: its seat is dealt from the bottom of the pile; the identities, tasks, first
    player and deck of both packs are the same, and so are the other seats' roles (the packs differ in that one role
    only)."""
    for i in range(6):  # each game stops after its first turn: the deal is all it reads
        pins = Pins(ROLE, None, i % 5)
        a, _ = play_game(base, 5, 100 + i, max_turns=1, record=True, agents=("random",) * 5, pins=pins)
        b, _ = play_game(fork, 5, 100 + i, max_turns=1, record=True, agents=("random",) * 5, pins=pins)
        for k in ("identities", "tasks", "first", "deck"):
            assert a.log[0][k] == b.log[0][k], k
        ra, rb = _roles(a), _roles(b)
        assert rb[pins.seat] == ROLE and ROLE not in ra
        assert [r for s, r in enumerate(ra) if s != pins.seat] == [r for s, r in enumerate(rb) if s != pins.seat]


def test_a_keyed_deal_pairs_unpinned_games_of_two_packs(base, fork) -> None:
    """Nothing pinned, the games of a sweep of several packs are dealt in the keyed order (Pins(keyed=True)): the
    identities, tasks, first player and deck alike, and most seats the same role (the fork's new role shifts only
    the roles dealt after it: over 40 games 164 of 200 seats alike). A plain shuffle pairs far fewer (51 of 200:
    the role piles differ in size, so every role after the first draw moves)."""
    same_roles = {True: 0, False: 0}
    seats = 0
    for i in range(8):
        for keyed in (True, False):
            pins = Pins(keyed=True) if keyed else None
            a, _ = play_game(base, 5, 300 + i, max_turns=1, record=True, agents=("random",) * 5, pins=pins)
            b, _ = play_game(fork, 5, 300 + i, max_turns=1, record=True, agents=("random",) * 5, pins=pins)
            if keyed:
                for k in ("identities", "tasks", "first", "deck"):
                    assert a.log[0][k] == b.log[0][k], k
                assert a.log[0]["pins"] == {"keyed": True}
                seats += 5
            same_roles[keyed] += sum(x == y for x, y in zip(_roles(a), _roles(b), strict=True))
    assert same_roles[True] >= seats - 8 and same_roles[True] > same_roles[False] + 10, same_roles


def test_a_keyed_deal_is_kept_in_the_log_and_replays(tmp_path: Path, one_role_pack: Path) -> None:
    log = tmp_path / "k.jsonl"
    args = ["simulate", "-p", 5, "-n", 2, "-s", 4, "-j", 1, "--content", one_role_pack, "--keyed-deal"]
    r = fengsheng(*args, "--log", log)
    assert r.exit_code == 0 and "dealt in the keyed order" in r.output, r.output
    assert fengsheng("replay", log).exit_code == 0
    games = read_log(log)
    assert all(g["records"][0]["pins"] == {"keyed": True} for g in games)
    plain = tmp_path / "p.jsonl"
    fengsheng("simulate", "-p", 5, "-n", 2, "-s", 4, "-j", 1, "--content", one_role_pack, "--log", plain)
    assert [g["records"][0].get("deck") for g in read_log(plain)] != [g["records"][0].get("deck") for g in games]


def test_a_sweep_of_several_packs_is_keyed_and_its_games_rerun_alone(tmp_path: Path, one_role_pack: Path) -> None:
    """Two packs, nothing pinned: sweep.json and the report say {"keyed": true} (one pack alone is dealt as usual),
    and the command that re-runs a game alone (a failed or drawn game's, pack_facts.rerun_command; a batch's,
    simulate's) deals it in the keyed order, so it plays that very game."""
    from interpreter.balance import pack_facts, report as rep
    from interpreter.simulate_cmd import _rerun_command

    out = tmp_path / "lab"
    args = ["balance", "--pack", "base=", "--pack", f"mine={one_role_pack}", "-p", 5, "-n", 2, "-s", 3, "-j", 1]
    r = fengsheng(*args, "--agents", "random", "-o", out, "-q", "--format", "json")
    assert r.exit_code == 0, r.output
    assert read_spec(out).pins == {"keyed": True} and json.loads(r.stdout)["sweep"]["pins"] == {"keyed": True}
    meta, _ = pack_facts.locate_packs(rep.load_sweep(out).meta, out)
    for rec in read_records(out):
        command = pack_facts.rerun_command(meta, rec.cell.pack, "random", 5, rec.seed, rec.index)
        assert command is not None and "--keyed-deal" in command and "--pin-seat" not in command, command
        one = fengsheng(*command.split()[1:-1], "--format", "json")  # (without `fengsheng` and `--trace`)
        assert one.exit_code == 0, one.output
        assert (json.loads(one.stdout)["turns"], json.loads(one.stdout)["decisions"]) == (rec.turns, rec.decisions)
    single = tmp_path / "one"
    r = fengsheng("balance", "--pack", f"mine={one_role_pack}", "-p", 5, "-n", 1, "-j", 1, "--agents", "random",
                  "-o", single, "-q")  # fmt: skip
    assert r.exit_code == 0 and read_spec(single).pins is None, r.output
    compared, fork = tmp_path / "compared", tmp_path / "mine"  # (balance compare's packs mode sweeps so too)
    shutil.copytree(one_role_pack, fork)
    (fork / "pack.yaml").write_text("id: mine\nname: 测\nversion: 0.1.0\nextends: [base]\n", encoding="utf-8")
    r = fengsheng("balance", "compare", "base", fork, "-p", 5, "-n", 1, "-j", 1, "--agents", "random",
                  "-o", compared, "--no-html")  # fmt: skip
    assert r.exit_code == 0 and read_spec(compared).pins == {"keyed": True}, r.output
    assert "--keyed-deal" in _rerun_command(5, [], None, None, "random", Pins(keyed=True))
    assert "--keyed-deal" not in _rerun_command(5, [], None, None, "random", Pins(role=ROLE))


def test_paired_deal_orders_common_items_alike() -> None:
    deal = PairedDeal(12345)
    a = deal.order("x", ["a", "b", "c", "d"], str)
    b = deal.order("x", ["a", "b", "new", "c", "d"], str)
    assert [x for x in b if x != "new"] == a
    assert deal.order("x", ["a", "a"], str) == ["a", "a"] and 0 <= deal.below("first", 5) < 5


def test_pin_problems_suggest(base) -> None:
    problems = pin_problems(base, "lao_hann", "nobody", [2, 5])
    assert "did you mean lao_han?" in problems[0]
    assert "the tasks are" in problems[1]
    assert any("2 players" in p for p in problems)
    assert pin_problems(base, "lao_han", None, [2, 5]) == []


def test_simulate_pins_and_replays(tmp_path: Path, fork, one_role_pack: Path) -> None:
    log = tmp_path / "g.jsonl"
    r = fengsheng("simulate", "-p", 5, "-n", 5, "-s", 3, "--content", one_role_pack, "--role", ROLE, "--log", log)
    assert r.exit_code == 0, r.output
    games = read_log(log)
    for i, g in enumerate(games):
        assert g["records"][0]["pins"] == {"seat": i % 5, "role": ROLE}
        ok, message = replay_game(fork, g)
        assert ok, message
    # the pins are what replays it: without them the game is another one
    g = games[1]
    del g["records"][0]["pins"]
    assert not replay_game(fork, g)[0]
    r = fengsheng("replay", log)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize(
    "pins",
    [{"role": ROLE, "seat": 99}, {"role": ROLE, "seat": -7}, {"role": [1], "seat": 0}, {"task": {"a": 1}}],
)
def test_a_log_whose_pins_are_junk_is_a_mismatch_not_an_engine_bug(tmp_path: Path, fork, one_role_pack, pins) -> None:
    """A hand-edited setup record's pins (a seat not at the table, a role that is no id) ended replay in 'internal
    error (a bug in the engine; please report it …): IndexError' or 'TypeError: unhashable type'."""
    log = tmp_path / "g.jsonl"
    r = fengsheng("simulate", "-p", 5, "-n", 1, "-s", 3, "--content", one_role_pack, "--role", ROLE, "--log", log)
    assert r.exit_code == 0, r.output
    g = read_log(log)[0]
    g["records"][0]["pins"] = pins
    ok, message = replay_game(fork, g)
    assert not ok and "internal error" not in message, message


def test_simulate_says_what_it_pinned(one_role_pack: Path) -> None:
    """The summary says what every game pinned, as the balance report's first line does (text: by name and id;
    JSON: `pins`); a batch pinning nothing says nothing of pins."""
    args = ["simulate", "-p", 5, "-n", 2, "-s", 3, "-j", 1, "--content", one_role_pack]
    text = fengsheng(*args, "--role", ROLE, "--task", "xian_xing_zhe").output
    assert (
        "pinned: role 测试文书（测试用） (demo_clerk) and secret task 先行者 (xian_xing_zhe) dealt to a seat in every "
        "game (game i at seat i mod 5)"
    ) in text
    assert json.loads(fengsheng(*args, "--role", ROLE, "--format", "json").stdout)["pins"] == {"role": ROLE}
    assert "pinned" not in fengsheng(*args).output
    assert "pins" not in json.loads(fengsheng(*args, "--format", "json").stdout)


def test_the_commands_check_the_ids(one_role_pack: Path, tmp_path: Path) -> None:
    r = fengsheng("simulate", "-p", 5, "-n", 2, "--role", "demo_clerc", "--content", one_role_pack)
    assert r.exit_code == 2 and "did you mean demo_clerk?" in r.output
    r = fengsheng("balance", "-p", 5, "-n", 2, "--task", "nobody", "-o", tmp_path / "x", "-q")
    assert r.exit_code == 2 and "no secret task 'nobody'" in r.output
    r = fengsheng("simulate", "-p", 5, "--pin-seat", 2, "--game-seed", 5)
    assert r.exit_code == 2 and "--pin-seat" in r.output
    one = fengsheng("simulate", "-p", 5, "--role", "lao_han", "--pin-seat", 3, "--game-seed", 99, "--format", "json")
    assert one.exit_code == 0, one.output


def test_a_pin_given_by_its_name_gets_its_id(base, tmp_path: Path) -> None:
    """A designer types the name on the card (小九, 李宁玉（SP）（译电科科长）, 先行者, 利诱); the pins take ids: the
    error names the id of each item so named. A grid of several packs says the id is in none of them before the
    hint, not after it."""
    assert pin_problems(base, "小九", "先行者", [5]) == [
        "no role '小九' in the content: a name, not an id: did you mean xiao_jiu (小九（报童）) or xiao_jiu_zhui_meng "
        "(小九（追梦少年）) or xiao_jiu_fan_te (小九（反特砥柱）) or xiao_jiu_sp (小九（SP）（情报站长）)?",
        "no secret task '先行者' in the content: a name, not an id: did you mean xian_xing_zhe (先行者)?",
    ]
    assert (
        "did you mean li_ning_yu_sp (李宁玉（SP）（译电科科长）)?"
        in pin_problems(base, "李宁玉（SP）（译电科科长）", None, [5])[0]
    )
    grid = ["balance", "--pack", "base=", "--pack", f"jia={EXAMPLES / 'jia_gui'}", "-n", 1, "-o", tmp_path / "x", "-q"]
    r = fengsheng(*grid, "--role", "画眉")
    assert (
        r.exit_code == 2
        and "no role '画眉' in any pack of the grid: a name, not an id: did you mean hua_mei (画眉（歌女）)?"
        in r.output
    )
    r = fengsheng(*grid, "--card", "利诱=4")
    assert (
        r.exit_code == 2
        and "no card '利诱' in any pack of the grid: a name, not an id: did you mean li_you (利诱)?" in r.output
    )
    r = fengsheng("balance", "-n", 1, "-o", tmp_path / "x", "-q", "--role", "huamei")  # one pack
    assert r.exit_code == 2 and "no role 'huamei' in the content" in r.output and "grid" not in r.output, r.output
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("option", ["--role", "--task"])
def test_a_pin_given_twice_is_a_usage_error_not_the_last_one(option: str, tmp_path: Path) -> None:
    for args in (["simulate", "-p", 5, "-n", 1], ["balance", "-p", 5, "-n", 1, "-o", tmp_path / "x", "-q"]):
        r = fengsheng(*args, option, "lao_han", option, "xiao_jiu")
        assert r.exit_code == 2 and "given 2 times (lao_han, xiao_jiu)" in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_balance_pins_every_game_and_records_it(tmp_path: Path, one_role_pack: Path) -> None:
    out = tmp_path / "lab"
    args = ["balance", "--pack", "base=", "--pack", f"mine={one_role_pack}", "-p", 5, "-n", 10, "-j", 1]
    r = fengsheng(*args, "--agents", "random", "--role", ROLE, "-o", out, "-q", "--format", "json")
    assert r.exit_code == 0, r.output
    assert read_spec(out).pins == {"role": ROLE}
    report = json.loads(r.stdout)
    assert report["sweep"]["pins"] == {"role": ROLE}
    recs = read_records(out)
    mine = [x for x in recs if x.cell.pack == "mine"]
    assert len(mine) == 10
    for x in mine:  # at seat index % 5, every game
        assert x.seats[x.index % 5].role is not None and "测试文书" in x.seats[x.index % 5].role
    assert not any("测试文书" in (s.role or "") for x in recs if x.cell.pack == "base" for s in x.seats)
    # the same command resumes (the pins are part of the grid); another pin is another grid
    again = fengsheng(*args, "--agents", "random", "--role", ROLE, "-o", out, "-q", "--format", "json")
    assert again.exit_code == 0 and json.loads(again.stdout)["sweep"]["records"] == 20
    other = fengsheng(*args, "--agents", "random", "-o", out, "-q")
    assert other.exit_code != 0 and "pins" in other.output
    # the report names the pinned role as its pack does (its id where no pack of the grid loads it)
    text = fengsheng("balance", "report", out, "--no-html", "--lang", "en")
    assert "pinned: role 测试文书（测试用） dealt to a seat" in text.output
    assert "固定：每局都把角色测试文书（测试用）发给一个座位" in fengsheng("balance", "report", out, "--no-html").output
    assert fengsheng("balance", "report", out).exit_code == 0
    assert "角色测试文书（测试用）" in (out / "report.html").read_text()
