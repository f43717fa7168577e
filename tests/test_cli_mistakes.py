"""Every mistake on the command line is a clean message and a non-zero exit status, never a traceback.

A usage mistake (an unknown flag, a value out of range, a missing path) is one line, `error: ... (see
fengsheng CMD --help)`, with exit status 2; a file that cannot be used (a broken log, a binary file)
names the file and, where it has one, the line, with exit status 1.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import Result

from conftest import fengsheng
from interpreter.content.loader import BUNDLED_CONTENT, load_cached


def first_error(r: Result) -> str:
    """The error a log with a bad line prints first (replay reports that game and replays the others, naming the
    game it cost when its header was read: that note is taken off here)."""
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output
    return re.sub(r" \(game \d+, seed \d+: not replayed\)$", "", r.stderr.splitlines()[0])


def one_line(r: Result, status: int = 2) -> str:
    """The single line a mistake prints (on stderr; nothing on stdout)."""
    assert r.exit_code == status, r.output
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> Path:
    """A referee's log of two 3-player games."""
    path = tmp_path_factory.mktemp("log") / "g.jsonl"
    assert fengsheng("simulate", "-n", "2", "-p", "3", "-j", "1", "-s", "1", "--log", path).exit_code == 0
    return path


@pytest.fixture(scope="module")
def one_game(log, tmp_path_factory) -> Path:
    """The same log's first game alone (its lines up to its end record): for the checks of a record of the first
    game, which replaying the second game after it (a few games' worth of CPU per test) checks nothing of."""
    lines = lines_of(log)
    end = next(i for i, ln in enumerate(lines) if json.loads(ln)["type"] == "end")
    return write_lines(tmp_path_factory.mktemp("log") / "g1.jsonl", lines[: end + 1])


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["simulate", "--bogus"], "No such option '--bogus'"),
        (["simulate", "--player", "3"], "Did you mean '--players'?"),
        (["replay", "--gmae", "1", "x.jsonl"], "No such option '--gmae'"),
        (["validate", "--strict"], "No such option '--strict'"),
        (["scenario", "run", "--verbose", "."], "No such option '--verbose'"),
        (["simulatee"], "No such command 'simulatee'"),
        (["scenario", "walk"], "No such command 'walk'"),
    ],
)
def test_unknown_flag_or_command(args, says):
    line = one_line(fengsheng(*args))
    assert line.startswith("error: ") and says in line and line.endswith("--help)")


@pytest.mark.parametrize(
    ("args", "offered"),
    [
        (["simulate", "--game", "3"], "(Did you mean one of: '--game-seed', '--games'?)"),
        (["simulate", "--max", "3"], "Did you mean '--max-turns'?"),
        (["balance", "--pa", "x"], "Did you mean '--pack'?"),
    ],
)
def test_an_unknown_option_that_begins_some_is_offered_those_only(args, offered):
    """`simulate --game 3` offered '--game-seed', '--games' and '--trace' (click's close matches by spelling): an
    unknown option that begins some of the command's options is offered those."""
    line = one_line(fengsheng(*args))
    assert offered in line and "--trace" not in line, line


def test_a_bare_double_dash_option_is_offered_nothing():
    """`simulate --=` (an option with no name) was offered every option of the command: each begins with `--`."""
    line = one_line(fengsheng("simulate", "--="))
    assert "No such option '--'" in line and "Did you mean" not in line, line


@pytest.mark.parametrize(
    ("args", "help_of"),
    [
        (["simulate", "--games"], "fengsheng simulate"),
        (["balance", "--out"], "fengsheng balance"),
        (["scenario", "run", "--format"], "fengsheng scenario run"),
        (["balance", "compare", "--detect"], "fengsheng balance compare"),
        (["pack", "show", "--format"], "fengsheng pack show"),
    ],
)
def test_an_option_without_its_value_points_to_its_commands_help(args, help_of):
    """An option given without its value (click names no command for it) pointed to `fengsheng --help`; a group's
    subcommand's (`scenario run --format`) to the group's help."""
    line = one_line(fengsheng(*args))
    assert "requires an argument" in line and line.endswith(f"(see {help_of} --help)"), line


def test_a_pack_without_a_label_that_is_no_pack_is_not_offered_a_label(tmp_path):
    """`balance --pack DIR` is offered `--pack NAME=DIR` when DIR is a pack; a folder that is none (`/`, an empty
    one) was offered it too, and the sweep would then fail on it: it is told it is no pack."""
    line = one_line(fengsheng("balance", "--pack", str(tmp_path)))
    assert "is not a content pack" in line and "did you mean" not in line, line


@pytest.mark.parametrize("command", [["simulate"], ["describe", "看破"], ["replay", "g.jsonl"]])
def test_pack_where_the_command_takes_content_says_content(command):
    """`balance --pack LABEL=DIR` makes `simulate --pack DIR` a natural guess: the mistake names --content (click
    offered '--task', '--trace')."""
    line = one_line(fengsheng(*command, "--pack", "my_pack"))
    assert "No such option '--pack': a pack folder is given with --content DIRECTORY" in line, line
    assert "--task" not in line and line.endswith("--help)")


def test_pack_where_the_command_takes_no_content_is_the_usual_mistake():
    """A scenario names its packs in the file (`content:`): no --content to point to."""
    line = one_line(fengsheng("scenario", "run", "--pack", "x", "."))
    assert "No such option '--pack'" in line and "--content" not in line


@pytest.mark.parametrize(
    ("args", "option"),
    [
        # (the counts the content plays, checked once it is loaded: the bundled game's 2-10)
        (["-p", "1"], "'--players' / '-p': the rules have no identity table for 1 player (they have one for 2-10"),
        (["-p", "11"], "'--players' / '-p': the rules have no identity table for 11 players (they have one for 2-"),
        (["-p", str(10**30)], "'--players' / '-p': the rules have no identity table for 1000000000000000000000"),
        (["-p", "-3"], "'--players' / '-p'"),
        (["-p", "five"], "'--players' / '-p': 'five' is not a valid integer"),
        (["-n", "0"], "'--games' / '-n': 0 is not in the range 1<=x<=1000000"),
        (["-n", "-1"], "'--games' / '-n'"),
        (["-n", "1e3"], "'--games' / '-n'"),
        (["-n", "99999999999999999999"], "'--games' / '-n': 99999999999999999999 is not in the range 1<=x<=1000000"),
        (["-j", "0"], "'--jobs' / '-j'"),
        (["--max-turns", "0"], "'--max-turns'"),
        (["-p"], "Option '-p' requires an argument"),
    ],
)
def test_out_of_range_players_and_games(args, option):
    line = one_line(fengsheng("simulate", *args))
    assert line.startswith("error: ") and option in line and line.endswith(" --help)")


def test_players_the_rules_have_no_table_for(tmp_path):
    pack = tmp_path / "pack"
    shutil.copytree(BUNDLED_CONTENT, pack)
    rules = (pack / "rules.yaml").read_text(encoding="utf-8")
    assert "\n  9: {" in rules
    (pack / "rules.yaml").write_text(rules.replace("\n  9: {", "\n  # 9: {"), encoding="utf-8")
    assert fengsheng("validate", pack).exit_code == 0
    line = one_line(fengsheng("simulate", "-p", "9", "-n", "1", "--content", pack))
    assert "the rules have no identity table for 9 players (they have one for 2-8, 10 players)" in line
    # play says it the same way, as a usage error (exit 2), not a failure to set up the game (exit 1)
    line = one_line(fengsheng("play", "-p", "9", "--content", pack))
    assert "the rules have no identity table for 9 players (they have one for 2-8, 10 players)" in line


def test_a_player_count_the_rules_lack_names_the_counts_they_have_in_the_step_api():
    """GameState (and so PettingZoo's env, which makes one first) said only "rules.yaml has no identity table for
    11 players"; it names the counts the rules do deal identities for, from their identity table."""
    from interpreter.engine.step import GameState

    with pytest.raises(
        ValueError, match=r"^the rules have no identity table for 11 players \(they have one for 2-10 players\)$"
    ):
        GameState(load_cached(), 11, seed=1)


def test_players_the_rules_have_no_deck_for(tmp_path):
    """A pack whose rules pick no deck for 2 players (found by the slow fuzz run: it was a traceback)."""
    pack = tmp_path / "pack"
    shutil.copytree(BUNDLED_CONTENT, pack)
    rules = (pack / "rules.yaml").read_text(encoding="utf-8")
    assert "{players: [2, 4], deck: small}" in rules
    (pack / "rules.yaml").write_text(rules.replace("{players: [2, 4], deck: small}", "{players: [3, 4], deck: small}"))
    assert fengsheng("validate", pack).exit_code == 0
    line = one_line(fengsheng("simulate", "-p", "2", "-n", "1", "--content", pack))
    assert "no deck for 2 players" in line and "3-4" in line


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["validate", "{m}"], "{m} does not exist"),
        (["validate", "{m}/cards/x.yaml"], "does not exist"),
        (["replay", "{m}.jsonl"], "'LOG_PATH': File '{m}.jsonl' does not exist"),
        (["scenario", "run", "{m}.scenario.yaml"], "does not exist"),
        (["simulate", "--content", "{m}"], "'--content': Directory '{m}' does not exist"),
        (["replay", "--content", "{m}", "{log}"], "'--content': Directory '{m}' does not exist"),
        (["replay", "{tmp}"], "is a directory"),
        (["simulate", "--log", "{tmp}"], "is a directory"),
        (["simulate", "--content", "{log}"], "is a file"),
        (["replay"], "Missing argument 'LOG_PATH'"),
        (["scenario", "run"], "Missing argument"),
    ],
)
def test_missing_path(tmp_path, log, args, says):
    fill = {"m": tmp_path / "missing", "tmp": tmp_path, "log": log}
    line = one_line(fengsheng(*(a.format(**fill) for a in args)))
    assert line.startswith("error: ") and says.format(**fill) in line


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "-n", "1", "--content", "{file}"],
        ["describe", "利诱", "--content", "{file}"],
        ["replay", "--content", "{file}", "{file}"],
        ["balance", "-n", "1", "--pack", "b=", "--pack", "m={file}"],
    ],
)
@pytest.mark.parametrize("inside", ["pack.yaml", "roles/r.yaml"])
def test_a_file_of_a_pack_given_as_the_pack_names_the_packs_folder(tmp_path, monkeypatch, args, inside):
    """`--content my_pack/pack.yaml` (or a role's file) said only "Directory 'my_pack/pack.yaml' is a file."; a
    newcomer who pointed at the manifest is now told the folder to give. A file in no pack: as before."""
    (tmp_path / "my_pack" / "roles").mkdir(parents=True)
    (tmp_path / "my_pack" / "pack.yaml").write_text("id: my_pack\nname: 我的\nextends: [base]\n", encoding="utf-8")
    (tmp_path / "my_pack" / "roles" / "r.yaml").write_text("id: r\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    line = one_line(fengsheng(*(a.format(file=f"my_pack/{inside}") for a in args)))
    assert line.startswith("error: ") and "a pack is given by its folder: my_pack (see" in line, line
    line = one_line(fengsheng(*(a.format(file="notes.txt") for a in args)))
    assert "notes.txt" in line and "a pack is given by its folder" not in line, line


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "{d}/jia_gu"],
        ["pack", "show", "{d}/jia_gu"],
        ["pack", "diff", "base", "{d}/jia_gu"],
        ["scenario", "run", "{d}/jia_gu"],
        ["simulate", "--content", "{d}/jia_gu"],
    ],
)
def test_a_misspelt_pack_or_folder_gets_a_did_you_mean(tmp_path, args):
    """Every door that takes a pack's (or a scenario folder's) path answers a slip in it with the folder beside it
    closest in spelling, as --content did: validate, pack show and pack diff said only that it was not there."""
    (tmp_path / "jia_gui").mkdir()
    line = one_line(fengsheng(*(a.format(d=tmp_path) for a in args)))
    assert line.startswith("error: ") and f"did you mean {tmp_path / 'jia_gui'}?" in line


def test_a_misspelt_file_or_bundled_pack_gets_a_did_you_mean(tmp_path):
    (tmp_path / "x.scenario.yaml").write_text("name: x\n", encoding="utf-8")
    line = one_line(fengsheng("scenario", "run", tmp_path / "x.scenario.yml"))
    assert f"did you mean {tmp_path / 'x.scenario.yaml'}?" in line
    line = one_line(fengsheng("validate", tmp_path / "x.scenario.yml"))
    assert f"does not exist: did you mean {tmp_path / 'x.scenario.yaml'}?" in line
    assert "did you mean tie_wu_zi?" in one_line(fengsheng("pack", "show", "tie_wu_z"))


def test_a_misspelt_log_or_save_gets_a_did_you_mean(tmp_path):
    """The files replay and play --resume read: a slip in the name is told the file beside it closest in spelling
    (they said only that it did not exist); a file's near name is not offered for a folder given as the log."""
    (tmp_path / "game.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "fengsheng-save.json").write_text("{}", encoding="utf-8")
    line = one_line(fengsheng("replay", tmp_path / "game.jsnl"))
    assert line.startswith("error: ") and f"does not exist: did you mean {tmp_path / 'game.jsonl'}?" in line
    line = one_line(fengsheng("play", "--resume", tmp_path / "fengsheng-sav.json"), status=1)
    assert "cannot read the save: No such file or directory" in line
    assert f"did you mean {tmp_path / 'fengsheng-save.json'}?" in line
    assert "did you mean" not in one_line(fengsheng("replay", tmp_path))


def test_a_scenario_s_misspelt_content_pack_gets_a_did_you_mean(tmp_path):
    """A scenario's `content:` folder that is not there: the folder beside it closest in spelling, written as the
    file writes it (relative to the scenario's folder)."""
    (tmp_path / "packs" / "jia_gui").mkdir(parents=True)
    f = tmp_path / "t.scenario.yaml"
    f.write_text("name: t\ncontent: [packs/jia_gu]\nplayers: [{identity: none}, {identity: none}]\n", encoding="utf-8")
    r = fengsheng("scenario", "run", f)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "content pack 'packs/jia_gu' is not a folder (" in r.output and "); did you mean packs/jia_gui?" in r.output


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "{long}"],
        ["pack", "show", "{long}"],
        ["pack", "diff", "base", "{long}"],
        ["balance", "report", "{long}"],
        ["balance", "compare", "{long}", "{long}"],
        ["balance", "--pack", "a={long}"],
    ],
)
def test_a_name_too_long_for_the_system_is_one_line_not_a_traceback(tmp_path, args):
    """A path with a name longer than the file system allows (ENAMETOOLONG): Path.exists and Path.is_dir raise
    OSError for it where os.path's tests say no, and these doors asked Path, so they ended in a traceback (and a
    scenario's `content:` folder so named in an 'internal error, a bug in the engine')."""
    long = str(tmp_path / ("a" * 300))
    line = one_line(fengsheng(*(a.format(long=long) for a in args)))
    assert line.startswith("error: ") and "a" * 40 in line


def test_a_scenario_content_folder_with_a_name_too_long_is_not_a_folder(tmp_path):
    f = tmp_path / "t.scenario.yaml"
    f.write_text(f"name: t\ncontent: [{'a' * 300}]\nplayers: [{{identity: none}}, {{identity: none}}]\n")
    r = fengsheng("scenario", "run", f)
    assert r.exit_code == 1 and "internal error" not in r.output and "is not a folder" in r.output, r.output


def test_log_or_copy_into_a_missing_folder(tmp_path, log):
    target = tmp_path / "missing" / "g.jsonl"
    assert (
        one_line(fengsheng("simulate", "-n", "1", "--log", target), 1) == f"error: {target}: No such file or directory"
    )
    line = one_line(fengsheng("replay", log, "--as", "P1", "--out", target), 1)
    assert line == f"error: cannot write {target}: No such file or directory"


def test_seat_out_of_range_for_replay_as(log):
    assert one_line(fengsheng("replay", log, "--as", "P7")) == "error: game 0 has 3 seats (P0..P2)"
    assert one_line(fengsheng("replay", log, "--as", "seat1")).startswith("error: --as takes P<seat>")


# ---------------------------------------------------------------------- broken logs


def lines_of(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines()


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_log_truncated_in_a_line(tmp_path, log):
    # cut at a character, not a byte: half the bytes may split a multi-byte character (another error)
    text = log.read_text(encoding="utf-8")
    half = text[: len(text) // 2]
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(half.encode("utf-8"))
    r = fengsheng("replay", cut)
    assert r.exit_code == 1 and r.stdout == ""
    first = r.stderr.splitlines()[0]
    n = half.count("\n") + 1  # the line cut in two
    assert first.startswith(f"error: {cut}:{n}:") and "not a JSON line" in first


def test_log_truncated_between_lines(tmp_path, log):
    lines = lines_of(log)
    cut = write_lines(tmp_path / "cut.jsonl", lines[:40])
    r = fengsheng("replay", cut)
    assert r.exit_code == 1
    assert "MISMATCH" in r.stdout and "its records stop at line 40 (was the log cut off?)" in r.stdout


def test_log_cut_before_its_end_record(tmp_path, log):
    lines = lines_of(log)
    last_end = max(i for i, ln in enumerate(lines) if '"type": "end"' in ln)
    cut = write_lines(tmp_path / "cut.jsonl", lines[:last_end])
    r = fengsheng("replay", cut)
    assert r.exit_code == 1
    assert f"the log has no end record (was it cut off after line {last_end}?)" in r.stdout


def corrupt(tmp_path: Path, log: Path, pick, change) -> tuple[Path, int]:
    """The log with the first record `pick` accepts changed by `change`; and that record's line number."""
    lines = lines_of(log)
    i = next(i for i, ln in enumerate(lines) if pick(json.loads(ln)))
    rec = json.loads(lines[i])
    change(rec)
    lines[i] = json.dumps(rec, ensure_ascii=False)
    return write_lines(tmp_path / "bad.jsonl", lines), i + 1


def is_decision(rec: dict) -> bool:
    return rec.get("type") == "decision"


@pytest.mark.parametrize(
    ("pick", "change", "says"),
    [
        (is_decision, lambda r: r.update(choice=99), "choice 99 is not one of the decision's"),
        (is_decision, lambda r: r.pop("choice"), "a decision record needs `choice`, a whole number (got None)"),
        (is_decision, lambda r: r.update(seat="P1"), "a decision record needs `seat`, a whole number (got 'P1')"),
        (is_decision, lambda r: r.update(to=3), "`to` is a list of seats (got 3)"),
        (lambda r: "secret" in r, lambda r: r.update(secret=[0]), "`secret` maps fields to lists of seats"),
        (lambda r: r["type"] == "game", lambda r: r.pop("players"), "a game header needs `players`"),
        (lambda r: r["type"] == "game", lambda r: r.update(players=99), "a number from 2 to 32 (got 99)"),
        (lambda r: r["type"] == "game", lambda r: r.update(seed="x"), "`seed` is a whole number"),
        (lambda r: r["type"] == "game", lambda r: r.update(seed=-1), "`seed` is a whole number from 0 to 2**256 - 1"),
        (lambda r: r["type"] == "game", lambda r: r.update(seed=10**300), "(got 1000000000000000000000000000000000"),
        (lambda r: r["type"] == "game", lambda r: r.update(index="0"), "`index` is a whole number from 0 (got '0')"),
        (is_decision, lambda r: r.update(seat=99), "`seat` is a seat from 0 to 31 (got 99)"),
        (is_decision, lambda r: r.update(n=10**200, choice=1), "`n` is how many options, from 1 to 100000 (got 1000"),
        (lambda r: r["type"] == "end", lambda r: r.pop("digest"), "an end record needs `digest`"),
    ],
)
def test_log_with_a_corrupted_record(tmp_path, one_game, pick, change, says):
    """Each record changed is the first of its kind in the log: the first game's (`one_game`)."""
    bad, n = corrupt(tmp_path, one_game, pick, change)
    for extra in ([], ["--as", "P1"]):
        line = first_error(fengsheng("replay", bad, *extra))
        assert line.startswith(f"error: {bad}:{n}: ") and says in line


def test_log_with_a_changed_decision_names_its_line(tmp_path, log):
    """A record that is well formed but not what the game asks: the decision and its line."""
    bad, n = corrupt(tmp_path, log, is_decision, lambda r: r.update(n=r["n"] + 1))
    r = fengsheng("replay", bad)
    assert r.exit_code == 1 and f"MISMATCH — decision 1 (line {n}): log has" in r.stdout


def test_log_without_a_header(tmp_path, log):
    bad = write_lines(tmp_path / "bad.jsonl", lines_of(log)[1:])
    r = fengsheng("replay", bad)
    assert first_error(r) == f"error: {bad}:1: the log does not start with a game header"
    assert "game 1 (seed" in r.stdout and "OK" in r.stdout  # the game after it is replayed


def test_log_with_a_number_python_cannot_read(tmp_path, log):
    """A number of 5,000 digits (json refuses over 4,300): the line, not a ValueError traceback."""
    bad, n = corrupt(tmp_path, log, is_decision, lambda r: r.update(seat="SEAT"))
    text = bad.read_text(encoding="utf-8").replace('"SEAT"', "9" * 5000)
    bad.write_text(text, encoding="utf-8")
    line = first_error(fengsheng("replay", bad))
    assert line == f"error: {bad}:{n}: not a log record: a number of thousands of digits"


def test_no_message_prints_a_long_value_whole(tmp_path, one_game):
    """What a line holds is cut: a long record that differs is shown around the difference, a huge number by its
    first digits (the first game's first decision: `one_game`)."""
    bad, n = corrupt(tmp_path, one_game, is_decision, lambda r: r.update(to=list(range(50_000))))
    r = fengsheng("replay", bad)
    assert r.exit_code == 1 and "differs" in r.stdout and len(r.output) < 1500
    bad, n = corrupt(tmp_path, one_game, is_decision, lambda r: r.update(choice=10**4000, n=10**4001))
    line = first_error(fengsheng("replay", bad))
    assert len(line) < 300 and line.startswith(f"error: {bad}:{n}: a decision record's `n` is how many options")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["simulate", "-s", "9" * 5000], "'--seed' / '-s': '999"),
        (["describe", "x" * 20_000], "no card, secret task, role, skill or identity is named 'xxx"),
    ],
)
def test_a_long_argument_is_not_echoed_whole(args, says):
    line = one_line(fengsheng(*args))
    assert line.startswith("error: ") and says in line and len(line) < 400


def test_replay_a_game_the_log_does_not_have(log):
    assert one_line(fengsheng("replay", log, "--game", "7")) == (
        "error: --game 7: the log has no such game (its games: 0, 1)"
    )
    # a seat given in digits that are not 0-9, or of thousands of digits
    for seat in ("P²", "P" + "9" * 5000):
        assert one_line(fengsheng("replay", log, "--as", seat)).startswith("error: --as takes P<seat>")


def test_log_nested_too_deeply(tmp_path, log):
    bad = write_lines(tmp_path / "bad.jsonl", [*lines_of(log)[:3], "[" * 100_000 + "]" * 100_000])
    assert first_error(fengsheng("replay", bad)) == (
        f"error: {bad}:4: not a log record: values nested too deeply (more than 32 levels)"
    )


def test_binary_log(tmp_path):
    bad = tmp_path / "g.jsonl"
    bad.write_bytes(bytes(range(256)) * 4)
    r = fengsheng("replay", bad)
    assert r.exit_code == 1 and r.stderr.startswith(f"error: {bad}:1:1: not a JSON line (Expecting value)\n")
    bad.write_bytes(b"\xff\xd8\xff\xe0\0\x10JFIF")
    r = fengsheng("replay", bad)
    assert r.exit_code == 1 and r.stderr.startswith(f"error: {bad}:1:1: byte 0xff is not UTF-8\n")


# ---------------------------------------------------------------------- binary files to validate


def test_binary_file_of_no_kind(tmp_path):
    f = tmp_path / "photo.png"
    f.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)))
    r = fengsheng("validate", f)
    assert r.exit_code == 1
    assert r.stdout.splitlines()[0] == f"{f}:1:1: error E102: this is a binary file, not YAML text"


def test_binary_file_in_a_pack_folder(tmp_path):
    f = tmp_path / "cards" / "x.yaml"
    f.parent.mkdir()
    f.write_bytes(b"id: x\nname: \xe6\xb5\x8b\0\x01\x02\xff")
    r = fengsheng("validate", f)
    assert r.exit_code == 1
    assert r.stdout.splitlines()[0] == f"{f}:2:8: error E102: a NUL byte: this is a binary file, not YAML text"
    assert r.stdout.splitlines()[1] == "    hint: content files are YAML text, saved as UTF-8"  # no line shown


def test_binary_scenario(tmp_path):
    f = tmp_path / "x.scenario.yaml"
    f.write_bytes(bytes(range(256)))
    r = fengsheng("scenario", "run", f)
    assert r.exit_code == 1 and "error E102: a NUL byte" in r.stdout


# ---------------------------------------------------------------------- files that never end

ZERO = Path("/dev/zero")  # endless: a command that read all of it would never return


@pytest.mark.skipif(not ZERO.exists(), reason="no /dev/zero here")
def test_an_endless_file_is_refused_after_its_limit(tmp_path):
    r = fengsheng("validate", ZERO)
    assert r.exit_code == 1 and r.stdout.startswith(f"{ZERO}:1:1: error E102: this is a binary file")
    card = tmp_path / "cards" / "z.yaml"
    card.parent.mkdir()
    card.symlink_to(ZERO)
    r = fengsheng("validate", card)
    assert r.exit_code == 1
    assert r.stdout.startswith(f"{card}:1:1: error E104: the file is more than 1000000 bytes")
    assert one_line(fengsheng("replay", ZERO), 1) == (
        f"error: {ZERO}:1: not a log record (a line of more than 10,000,000 bytes)"
    )


def test_a_scenario_names_a_long_value_briefly(tmp_path):
    """A scenario's unknown role or identity of 15,000 characters is named by its ends and its length."""
    f = tmp_path / "x.scenario.yaml"
    long = "r" * 15_000
    f.write_text(
        f"name: x\nplayers:\n  - {{identity: {long}, role: {long}}}\n  - {{identity: te_gong_ji_guan}}\nstart: play\n",
        encoding="utf-8",
    )
    r = fengsheng("scenario", "run", f)
    assert r.exit_code == 1 and "unknown identity 'rrrr" in r.stdout and "(15,002 characters)" in r.stdout
    assert len(r.output) < 2000
