"""Batches never die, and a failed game can be diagnosed: `simulate`, `scenario run` and `replay` report
any exception of one game or one file (with its seed or path) and go on, always print their summary and
exit 1; an internal error (a bug in the engine) says so and asks for a report. `simulate --log` keeps the
failed games, marked, and `replay` confirms they fail the same way; `simulate --game-seed N --trace` plays
one game alone with its resolution trace, and a failed game's line in the summary prints that command.

The runaway games use a rule set of their own (tests/fixtures/runaway_pack's looping role, with the
bundled rules, deck and cards), so that the looping role is always in play, whatever roles others add.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from links import link_tree

from conftest import fengsheng
from interpreter.content.loader import BUNDLED_CONTENT

RUNAWAY = Path(__file__).parent / "fixtures" / "runaway_pack"
SCENARIOS = Path(__file__).parent / "scenarios"


@pytest.fixture(scope="module")
def looping_rules(tmp_path_factory) -> Path:
    """The bundled rules, deck and cards with one role only: 测试循环, whose skill runs past the step budget."""
    pack = tmp_path_factory.mktemp("looping") / "rules"
    pack.mkdir()
    for name in ("rules.yaml", "deck.yaml"):
        shutil.copy(BUNDLED_CONTENT / name, pack / name)
    for folder in ("cards", "secret_tasks"):
        link_tree(BUNDLED_CONTENT / folder, pack / folder)
    (pack / "roles").mkdir()
    shutil.copy(RUNAWAY / "roles" / "demo_looper.yaml", pack / "roles")
    return pack


SEED = 8  # a batch of six games of which some fail and some do not
GAMES = ("-p", 2, "-n", 6, "-s", SEED)


@pytest.fixture(scope="module")
def batch(looping_rules, tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    return fengsheng("simulate", *GAMES, "--content", looping_rules, "--log", log), log


def _failures(out: str) -> list[tuple[int, int]]:
    """(game, game seed) of each failed game listed in a summary."""
    found = []
    for line in out.splitlines():
        if line.startswith("  game ") and "(game seed " in line:
            game = int(line.split()[1])
            found.append((game, int(line.split("(game seed ")[1].split(")")[0])))
    return found


def test_a_failed_game_is_listed_with_its_seed_and_the_command_that_reruns_it(batch, looping_rules):
    r, _ = batch
    assert r.exit_code == 1
    assert "How games ended:" in r.output and "Average turns:" in r.output  # the summary, all the same
    failed = _failures(r.output)
    assert failed, r.output
    lines = r.output.splitlines()
    for game, gseed in failed:
        at = next(i for i, line in enumerate(lines) if line.startswith(f"  game {game} "))
        assert "EngineError: E501 step budget exceeded" in lines[at]
        assert lines[at + 1].strip() == (
            f"fengsheng simulate -p 2 --content {looping_rules} --game-seed {gseed} --trace"
        )


def test_the_rerun_command_plays_that_game_alone_with_its_trace(batch, looping_rules):
    r, _ = batch
    game, gseed = _failures(r.output)[0]
    failure = next(line for line in r.output.splitlines() if line.startswith(f"  game {game} ")).split(": ", 1)[1]
    alone = fengsheng("simulate", "-p", 2, "--content", looping_rules, "--game-seed", gseed, "--trace")
    assert alone.exit_code == 1
    out = alone.output.splitlines()
    assert out[0] == "resolution trace:" and any(line.startswith("node ") for line in out)
    assert "P0 answers: skill 循环" in alone.output or "P1 answers: skill 循环" in alone.output
    assert out[-1].startswith(f"FAILED game seed {gseed}, 2 players (turn ") and out[-1].endswith(": " + failure)


def test_a_game_alone_that_does_not_fail_prints_how_it_ended(batch):
    r, _ = batch
    first_ok = next(i for i in range(6) if i not in dict(_failures(r.output)))
    from interpreter.sim import game_seed

    alone = fengsheng("simulate", "-p", 2, "--game-seed", game_seed(SEED, first_ok))
    assert alone.exit_code == 0 and "resolution trace" not in alone.output
    assert alone.output.startswith(f"game seed {game_seed(SEED, first_ok)}, 2 players: winners ")


def test_trace_needs_a_game_seed_and_a_game_seed_has_no_log():
    r = fengsheng("simulate", "--trace")
    assert r.exit_code == 2 and "--trace needs --game-seed" in r.stderr
    r = fengsheng("simulate", "--game-seed", 5, "--log", "x.jsonl")
    assert r.exit_code == 2 and "not with --log" in r.stderr


def test_the_log_keeps_failed_games_marked_and_replay_confirms_they_fail_alike(batch, looping_rules):
    r, log = batch
    failed = dict(_failures(r.output))
    games: dict[int, dict] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec["type"] == "game":
            games[rec["index"]] = {"records": 0}
        elif rec["type"] == "end":
            games[max(games)]["end"] = rec
        else:
            games[max(games)]["records"] += 1
    assert sorted(games) == list(range(6))  # every game, the failed ones too
    for index, g in games.items():
        if index in failed:
            assert g["end"]["failed"].startswith("EngineError: E501") and "digest" not in g["end"]
            assert g["records"] > 0  # as far as it got
        else:
            assert "digest" in g["end"] and "failed" not in g["end"]
    replay = fengsheng("replay", log, "--content", looping_rules)
    assert replay.exit_code == 0, replay.output
    for index in failed:
        line = next(ln for ln in replay.output.splitlines() if ln.startswith(f"game {index} "))
        assert "OK — identical failure after " in line and "E501 step budget exceeded" in line


def test_a_logged_good_game_that_fails_in_replay_is_a_mismatch_and_the_rest_are_replayed(
    batch, looping_rules, monkeypatch
):
    """An exception in one game of a replay (here: a bug put into the engine for game seed N) is reported for
    that game, as an internal error; the other games are replayed; exit 1."""
    from interpreter.engine.game import Game

    r, log = batch
    ok_games = [i for i in range(6) if i not in dict(_failures(r.output))]
    from interpreter.sim import game_seed

    broken = game_seed(SEED, ok_games[0])
    run = Game.run

    def buggy_run(self):
        if self.seed == broken:
            raise ZeroDivisionError("a bug")
        return run(self)

    monkeypatch.setattr(Game, "run", buggy_run)
    replay = fengsheng("replay", log, "--content", looping_rules)
    assert replay.exit_code == 1
    line = next(ln for ln in replay.output.splitlines() if ln.startswith(f"game {ok_games[0]} "))
    assert "MISMATCH" in line and "internal error (a bug in the engine; please report it" in line
    assert "ZeroDivisionError: a bug" in line
    assert all(f"game {i} " in replay.output for i in range(6))


def test_replay_goes_on_past_a_game_that_replay_itself_cannot_handle(batch, looping_rules, monkeypatch):
    import interpreter.sim as sim

    _, log = batch
    real = sim.replay_game
    calls = []

    def replay_game(content, logged, max_turns=None):
        calls.append(logged["header"]["index"])
        if logged["header"]["index"] == 1:
            raise KeyError("oops")
        return real(content, logged, max_turns)

    monkeypatch.setattr(sim, "replay_game", replay_game)
    replay = fengsheng("replay", log, "--content", looping_rules)
    assert calls == list(range(6)) and replay.exit_code == 1
    line = next(ln for ln in replay.output.splitlines() if ln.startswith("game 1 "))
    assert "MISMATCH — internal error" in line and "KeyError" in line and "the log file reproduces it" in line
    assert "1 game(s) did not replay identically" in replay.stderr


def test_simulate_reports_an_internal_error_with_its_seed_and_goes_on(monkeypatch):
    from interpreter.engine.game import Game
    from interpreter.sim import game_seed

    broken = game_seed(5, 1)
    run = Game.run

    def buggy_run(self):
        if self.seed == broken:
            raise RecursionError("maximum recursion depth exceeded")
        return run(self)

    monkeypatch.setattr(Game, "run", buggy_run)
    r = fengsheng("simulate", "-p", 3, "-n", 3, "-s", 5, "--expansions", "none")
    assert r.exit_code == 1
    assert "Average turns:" in r.output  # the summary of the other two games
    line = next(ln for ln in r.output.splitlines() if ln.startswith("  game 1 "))
    assert line == (
        f"  game 1 (game seed {broken}): internal error (a bug in the engine; please report it with the game "
        "seed): RecursionError: maximum recursion depth exceeded"
    )
    assert f"fengsheng simulate -p 3 --expansions none --game-seed {broken} --trace" in r.output


def test_scenario_run_reports_an_internal_error_per_file_and_goes_on(monkeypatch):
    """A bug that raises inside one scenario's game fails that scenario, with its trace so far; a bug outside
    the game fails that file; the other files run; the count is printed; exit 1."""
    import interpreter.scenario as scenario
    from interpreter.engine.game import Game

    files = sorted(SCENARIOS.glob("card_jie_huo_*.scenario.yaml"))[:2] + sorted(SCENARIOS.glob("card_li_you*"))[:1]
    assert len(files) == 3

    def buggy_play_turn(self, start="draw"):
        self.trace.append(("node", "a node before the bug", "contest"))
        raise IndexError("a bug in the engine")

    monkeypatch.setattr(Game, "play_turn", buggy_play_turn)
    real_run = scenario.run_scenario

    def run_scenario(path, allow_outside=False):
        if "li_you" in str(path):
            raise TypeError("a bug outside the game")
        return real_run(path, allow_outside)

    monkeypatch.setattr(scenario, "run_scenario", run_scenario)
    r = fengsheng("scenario", "run", *files)
    assert r.exit_code == 1
    out = r.output
    for f in files[:2]:
        assert f"FAIL {f}: " in out
    assert (
        out.count(
            "  - internal error (a bug in the engine, not in the scenario; please report it with this scenario file): "
            "IndexError: a bug in the engine"
        )
        == 2
    )
    assert out.count("    node a node before the bug  [contest]") == 2  # the trace so far
    assert f"FAIL {files[2]}: internal error (a bug in the engine, not in the scenario; please report it" in out
    assert "TypeError: a bug outside the game" in out
    assert out.rstrip().splitlines()[-1] == "0 passed, 3 failed"


def test_a_log_made_with_max_turns_replays(tmp_path):
    log = tmp_path / "short.jsonl"
    assert fengsheng("simulate", "-p", 5, "-n", 3, "-s", 7, "-j", 1, "--max-turns", 3, "--log", log).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    headers = [json.loads(line) for line in lines if '"type": "game"' in line]
    assert [h["max_turns"] for h in headers] == [3, 3, 3]  # the limit is in each game's header
    r = fengsheng("replay", log)
    assert r.exit_code == 0 and r.output.count("OK") == 3 and "turn_limit" in r.output, r.output
    # a log written before the header kept it: --max-turns gives the limit
    old = tmp_path / "old.jsonl"
    old.write_text(
        "\n".join(
            json.dumps({k: v for k, v in json.loads(line).items() if k != "max_turns"}, ensure_ascii=False)
            if '"type": "game"' in line
            else line
            for line in lines
        )
        + "\n",
        encoding="utf-8",
    )
    assert fengsheng("replay", old).exit_code == 1  # played on past turn 3: more decisions than logged
    r = fengsheng("replay", old, "--max-turns", 3)
    assert r.exit_code == 0 and r.output.count("OK") == 3, r.output
    plain = tmp_path / "plain.jsonl"
    fengsheng("simulate", "-p", 5, "-n", 1, "-s", 7, "-j", 1, "--log", plain)
    assert "max_turns" not in plain.read_text(encoding="utf-8").splitlines()[0]  # the rules' limit: not written


def test_a_forks_log_replays_with_the_packs_its_header_names(tmp_path):
    """simulate writes the packs it played in the header (`packs`), portably: the bundled ones by id, others
    relative to the log's folder. replay without --content plays them — from a copy of the log and the fork
    somewhere else too — falls back to the default content, saying why, when they changed, and says which pack
    it cannot find (an error, unless the default content is the content the log was played with)."""
    fork = tmp_path / "fork"
    shutil.copytree(Path(__file__).resolve().parents[1] / "examples" / "stack_timing", fork)
    log = tmp_path / "fork.jsonl"
    assert fengsheng("simulate", "-p", 5, "-n", 2, "-s", 3, "-j", 1, "--content", fork, "--log", log).exit_code == 0
    text = log.read_text(encoding="utf-8")
    header = json.loads(text.splitlines()[0])
    assert header["packs"] == ["base", "tie_wu_zi", "lao_yang_fang", "fork"]
    assert str(tmp_path) not in text and str(BUNDLED_CONTENT) not in text  # no absolute path: the same anywhere
    r = fengsheng("replay", log)
    assert r.exit_code == 0 and r.stdout.count("OK") == 2 and "(from the log)" in r.stderr, r.output
    # the log and its fork moved together (another folder, another machine): the fork is found beside the log
    moved = tmp_path / "elsewhere" / "deeper"
    shutil.copytree(fork, moved / "fork")
    shutil.copy(log, moved / "fork.jsonl")
    r = fengsheng("replay", moved / "fork.jsonl")
    assert r.exit_code == 0 and r.stdout.count("OK") == 2 and "deeper/fork" in r.stderr, r.output
    # a log in another folder than its pack names it relative to the log
    aside = tmp_path / "logs" / "fork.jsonl"
    aside.parent.mkdir()
    assert fengsheng("simulate", "-p", 5, "-n", 1, "-s", 3, "-j", 1, "--content", fork, "--log", aside).exit_code == 0
    assert json.loads(aside.read_text(encoding="utf-8").splitlines()[0])["packs"][-1] == "../fork"
    # the fork changed since: the default content is played, with a note (and the queued game differs)
    (fork / "pack.yaml").write_text(
        (fork / "pack.yaml").read_text(encoding="utf-8").replace("stack", "queued"), encoding="utf-8"
    )
    r = fengsheng("replay", log)
    assert "have changed since it was written" in r.stderr and "played with different content" in r.stderr, r.output
    # the fork is gone: an error naming it and where it was looked for, not a replay with other content
    shutil.rmtree(fork)
    r = fengsheng("replay", log)
    assert r.exit_code == 1 and "the pack fork" in r.stderr and "which is not here" in r.stderr, r.output
    assert str(tmp_path / "fork") in r.stderr and "--content" in r.stderr and "OK" not in r.stdout, r.output
    assert fengsheng("replay", log, "--content", moved / "fork").stdout.count("OK") == 2  # --content chooses


def test_a_seats_copy_names_the_pack_relative_to_its_own_folder(tmp_path, monkeypatch):
    """replay --as writes a seat's copy whose header names a pack of one's own relative to the copy's folder (or
    to the current directory when printed), not relative to the referee's log's folder."""
    fork = tmp_path / "fork"
    shutil.copytree(Path(__file__).resolve().parents[1] / "examples" / "stack_timing", fork)
    log = tmp_path / "logs" / "g.jsonl"
    log.parent.mkdir()
    assert fengsheng("simulate", "-p", 5, "-n", 1, "-s", 3, "-j", 1, "--content", fork, "--log", log).exit_code == 0
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["packs"][-1] == "../fork"
    copy = tmp_path / "copies" / "deep" / "p1.jsonl"
    copy.parent.mkdir(parents=True)
    assert fengsheng("replay", log, "--as", "P1", "--out", copy).exit_code == 0
    header = json.loads(copy.read_text(encoding="utf-8").splitlines()[0])
    assert header["packs"] == ["base", "tie_wu_zi", "lao_yang_fang", "../../fork"] and header["view"] == "P1"
    monkeypatch.chdir(fork)
    printed = fengsheng("replay", log, "--as", "public").stdout
    assert json.loads(printed.splitlines()[0])["packs"][-1] == "."


def test_a_log_naming_a_pack_that_is_gone_replays_when_the_default_content_is_the_same(tmp_path):
    """An older log names its packs by absolute path (another checkout's, say): when they are gone but the default
    content is the content it was played with (its fingerprint), it replays with a note."""
    log = tmp_path / "g.jsonl"
    assert fengsheng("simulate", "-p", 5, "-n", 1, "-s", 4, "-j", 1, "--log", log).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["packs"] == ["base", "tie_wu_zi", "lao_yang_fang"]
    header["packs"] = ["/another/checkout/content", "/another/checkout/content/expansions/tie_wu_zi"]
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    r = fengsheng("replay", log)
    assert r.exit_code == 0 and r.stdout.count("OK") == 1 and "which is not here" in r.stderr, r.output
