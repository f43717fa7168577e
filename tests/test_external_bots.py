"""External bots (agents/external.py, docs/bots-protocol.md): a program of its own, spoken to in JSON lines,
plays whole games through simulate, play's table, a server's table and balance; a bot that answers junk, an
id that was not offered, exits or hangs gets a clear error naming its seat and command, never a traceback or
a hang; and all it is ever sent is its seat's observation and legal actions."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

from conftest import fengsheng
from interpreter import sim
from interpreter.agents import external
from interpreter.agents.kinds import agent_kinds, factory_of
from interpreter.content.loader import load_cached
from interpreter.engine.frozen import thaw
from interpreter.engine.step import GameState
from interpreter.play import Setup, Table
from interpreter.sim import agent_seed, play_game


@pytest.fixture(autouse=True)
def _port_free(monkeypatch):
    """These tests start no server (uvicorn.run is replaced) on fixed ports (8000, 8080) that a real server on this
    machine may hold: the check that serve can listen there is test_serve_listen.py's."""
    monkeypatch.setattr("interpreter.serve_cmd.cannot_listen", lambda host, port: None)


EXAMPLE = Path(__file__).parents[1] / "examples" / "external_bot.py"
# The bots these tests start read only the standard library: their Python skips the site module (-S), which
# halves the CPU of a start (17 ms against 35), and these tests start some thirty.
PY = f"{shlex.quote(sys.executable)} -S"


def example(name: str = "mine") -> str:
    return f"{name}={PY} {shlex.quote(str(EXAMPLE))}"


@pytest.fixture(autouse=True)
def _no_bots_left():
    """Each test defines its own bots, and leaves no bot process running."""
    yield
    external.close_all()
    external.adopt({})
    assert external.running() == 0


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{PY} {shlex.quote(str(path))}"


# A bot that writes down what it is given (argv, environment, every line of stdin) in the file named by its
# first argument, and answers the first action of each decision.
RECORDER = """
    import json, os, sys
    out = open(sys.argv[1], "a", encoding="utf-8")
    out.write(json.dumps({"argv": sys.argv, "env": dict(os.environ), "pid": os.getpid()}) + "\\n")
    for line in sys.stdin:
        out.write(line)
        out.flush()
        message = json.loads(line)
        if message["type"] == "decide":
            print(message["actions"][0]["id"], flush=True)
"""


# ---------------------------------------------------------------------- whole games


def test_the_example_bot_plays_a_batch_through_simulate():
    r = fengsheng(
        "simulate",
        "-p",
        "5",
        "-n",
        "2",
        "-s",
        "1",
        "--agents",
        "ext:mine,random,heuristic,ext:mine,random",
        "--bot",
        example(),
    )
    assert r.exit_code == 0, r.output[-3000:]
    assert "Agents: P0 ext:mine, P1 random, P2 heuristic, P3 ext:mine, P4 random" in r.output
    assert "ext:mine" in r.output.split("Win rate by agent")[1].split("How games ended")[0]
    assert "FAILED" not in r.output
    again = fengsheng(
        "simulate",
        "-p",
        "5",
        "-n",
        "2",
        "-s",
        "1",
        "--agents",
        "ext:mine,random,heuristic,ext:mine,random",
        "--bot",
        example(),
    )
    assert again.output == r.output  # the bot is seeded by `hello`: seed + answers replay the batch (a bot seeded
    # otherwise fails it over these two games: tried)


def test_one_process_per_seat_serves_the_whole_batch(tmp_path):
    log = tmp_path / "seen.jsonl"
    bot = _script(tmp_path, "recorder", RECORDER)
    r = fengsheng(
        "simulate",
        "-p",
        "4",
        "-n",
        "2",
        "-s",
        "2",
        "--agents",
        "random,ext:rec,random,ext:rec",
        "--bot",
        f"rec={bot} {shlex.quote(str(log))}",
    )
    assert r.exit_code == 0, r.output[-3000:]
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    starts = [x for x in lines if "argv" in x]
    assert len(starts) == 2  # two seats, two processes, two games (a process started each game fails it: tried)
    hellos = [x for x in lines if x.get("type") == "hello"]
    ends = [x for x in lines if x.get("type") == "end"]
    assert sorted(h["seat"] for h in hellos) == [1] * 2 + [3] * 2
    assert len(ends) == 4 and all(e["result"] is not None for e in ends)
    assert all(h["protocol"] == external.PROTOCOL and h["players"] == 4 for h in hellos)
    assert external.running() == 0  # ended with the batch


# every day: the bots through simulate with one job (test_the_example_bot_plays_a_batch_through_simulate), and
# --jobs without external bots (test_simulate_jobs.py)
@pytest.mark.slow
def test_simulate_jobs_gives_the_same_batch_with_the_bots_in_each_worker(monkeypatch):
    monkeypatch.setattr(sim.batch, "MIN_GAMES_PER_JOB", 1)  # 16 games in four chunks over both workers
    args = [
        "simulate",
        "-p",
        "4",
        "-n",
        "16",
        "-s",
        "4",
        "--agents",
        "ext:mine,random,random,random",
        "--bot",
        example(),
    ]
    one = fengsheng(*args, "--jobs", "1")
    two = fengsheng(*args, "--jobs", "2")
    assert one.exit_code == 0 and two.exit_code == 0, two.output[-2000:]
    assert one.output == two.output


def test_a_bot_plays_a_whole_game_at_plays_table_and_hears_its_end(tmp_path):
    log = tmp_path / "seen.jsonl"
    external.define([f"rec={_script(tmp_path, 'recorder', RECORDER)} {shlex.quote(str(log))}", example()])
    setup = Setup(players=4, seed=9, humans=[0], bots={1: "ext:rec", 2: "ext:mine", 3: "random"}, max_turns=40)
    table = Table(load_cached(), setup)
    while not table.state.is_terminal():
        table.run_bots()
        if not table.state.is_terminal():
            table.state.apply_action(table.state.legal_actions()[0])
    table.finish()
    external.close_all()  # (the bot has written down all it was sent once it exits)
    seen = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert [x.get("type") for x in seen[:2]] == [None, "hello"]
    assert seen[-1]["type"] == "end" and seen[-1]["result"] == thaw(table.state.observation(1)["result"])


def test_play_seats_external_bots_and_a_saved_game_resumes_with_its_bot_given_again(tmp_path):
    """play seats external bots from the command line; a save names them by name only, so resuming needs the
    --bot again (the hint on saving gives it), and with it the game plays to its end, no bot failing."""
    save = tmp_path / "save.json"
    args = ["play", "-p", "4", "-s", "3", "--bots", "ext:mine,random,ext:mine", "--max-turns", "30", "--bot", example()]
    args += ["--save", save]
    r = _play_input([str(a) for a in args], "1\n1\n1\nq\n\n")
    assert "bots: P1 ext:mine, P2 random, P3 ext:mine" in " ".join(r.output.splitlines())  # (folded at 80)
    again = f"fengsheng play --resume {shlex.quote(str(save))} --bot {shlex.quote(example())}"
    assert r.exit_code == 0 and again in r.output  # the hint gives the --bot the save cannot keep
    r = _play_input(["play", "--resume", str(save)], "1\n")
    assert r.exit_code == 1 and "no external bot named 'mine': define it with --bot mine='COMMAND'" in r.output
    r = _play_input(["play", "--resume", str(save), "--bot", example()])
    assert r.exit_code == 0 and "游戏结束" in r.output, r.output[-3000:]
    assert "[bot]" not in r.output  # no bot failed


def _play_input(args: list[str], answers: str = "1\n" * 3000):
    from click.testing import CliRunner

    from interpreter.cli import main

    r = CliRunner().invoke(main, args, input=answers, prog_name="fengsheng")
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    return r


def test_a_servers_lobby_offers_the_bots_it_was_given_and_its_tables_play_them():
    from web_helpers import finish_table

    from interpreter.web.tables import Tables

    external.define([example()])
    assert "ext:mine" in agent_kinds()
    tables = Tables(lambda packs: load_cached(), lambda text: [])
    web = tables.create(["human", "ext:mine", "ext:mine", "random"], seed=3)
    finish_table(web)
    assert web.table.ended  # its bots were told, their processes kept for another table
    assert external.running() == 2


def test_serve_offers_its_bots_in_the_lobby_and_refuses_a_bad_one_before_it_starts(monkeypatch):
    pytest.importorskip("uvicorn")
    pytest.importorskip("httpx", reason="starlette's test client needs httpx")
    started: list = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: started.append(app))
    r = fengsheng("serve", "--bot", example())
    assert r.exit_code == 0 and len(started) == 1
    with warnings.catch_warnings():  # (starlette 1.x prefers httpx2 for its test client; httpx works the same here)
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    # (the server answers for its own address only: 127.0.0.1 by default)
    kinds = TestClient(started[0], base_url="http://127.0.0.1:8000").get("/api/options").json()["kinds"]
    assert "ext:mine" in kinds and not any("python" in k for k in kinds)  # a name, never the command
    r = fengsheng("serve", "--bot", "mine")
    assert r.exit_code == 2 and "give a name and the command, NAME=COMMAND" in r.output and len(started) == 1


# A bot that writes down the seed `hello` hands it (its seat's, a hash of its game's) and answers the first action.
SEED_SPY = """
    import json, sys
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            with open(sys.argv[1], "a", encoding="utf-8") as out:
                out.write(json.dumps([message["seat"], message["seed"]]) + "\\n")
        elif message["type"] == "decide":
            print(message["actions"][0]["id"], flush=True)
"""


def test_balance_sweeps_an_external_bot_from_a_seed_it_cannot_guess(tmp_path):
    """A sweep given no --seed played from seed 0, so a bot found its game's seed, which deals every hidden card, by
    hashing the sweep's games as the sweep does (agent_seed(game_seed(0, i), seat) equal to its own: a few thousand
    hashes, in a container with no file of the sweep's to read), though docs/bots-protocol.md says to leave --seed
    out for a bot one does not trust. A grid that seats an external bot gets a fresh seed, kept in sweep.json, and
    the same command resumes it (a larger --games extends it from that seed)."""
    hellos = tmp_path / "hellos.jsonl"
    bot = f"spy={_script(tmp_path, 'spy', SEED_SPY)} {shlex.quote(str(hellos))}"
    lab = tmp_path / "lab"

    def sweep(games: int) -> list[dict]:
        r = fengsheng("balance", "-p", "4", "-n", str(games), "--agents", "ext:spy", "--bot", bot, "-o", lab, "-q")
        assert r.exit_code == 0, r.output[-3000:]
        return [json.loads(x) for x in (lab / "games.jsonl").read_text().splitlines()]

    records = sweep(2)
    assert len(records) == 2 and all(s["agent"] == "ext:spy" for rec in records for s in rec["seats"])
    told = {tuple(json.loads(x)) for x in hellos.read_text().splitlines()}
    assert len(told) == 8  # (4 seats, 2 games)
    guessed = {(s, agent_seed(sim.game_seed(0, i), s)) for i in range(500) for s in range(4)}
    assert not told & guessed
    seed = json.loads((lab / "sweep.json").read_text())["seed"]
    assert seed.bit_length() > 64
    records = sweep(3)  # resumed: the two games kept, a third from the same seed
    assert len(records) == 3 and json.loads((lab / "sweep.json").read_text())["seed"] == seed
    assert all(rec["seed"] == sim.game_seed(seed, rec["index"]) for rec in records)


# ---------------------------------------------------------------------- a bot that misbehaves

# After a good answer it does one thing wrong (its first argument says what). (One good answer, the first, which
# is given START_GRACE more. Only the bot that hangs is given a short --bot-timeout: the others' wrong answer or
# exit has to arrive within theirs, and on a loaded machine a crash took longer than 0.2 s to be seen, so the
# test once read "did not answer" where the bot had exited.)
MISBEHAVING = """
    import json, sys, time
    mode, n = sys.argv[1], 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] != "decide":
            continue
        n += 1
        if n < 2:
            print(message["actions"][0]["id"], flush=True)
        elif mode == "junk":
            print("I pick the second one", flush=True)
        elif mode == "illegal":
            print(123456789, flush=True)
        elif mode == "crash":
            print("giving up", file=sys.stderr, flush=True)
            sys.exit(3)
        elif mode == "hang":
            time.sleep(60)
"""

EXPECTED = {
    "junk": "answered 'I pick the second one' to a decision",
    "illegal": "answered 123456789 to a decision",
    "crash": "exited (status 3) before answering a decision",
    "hang": "did not answer a decision",
}


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_a_bot_that_misbehaves_fails_its_game_with_a_clear_error(tmp_path, mode):
    bot = _script(tmp_path, "bad", MISBEHAVING) + " " + mode + " {x}"  # (braces: the rerun line is format()ted)
    r = fengsheng(
        "simulate",
        "-p",
        "4",
        "-n",
        "1",
        "-s",
        "1",
        "--agents",
        "random,ext:bad,random,random",
        "--bot",
        f"bad={bot}",
        "--bot-timeout",
        "0.2" if mode == "hang" else "30",  # (the others' failing answer comes at once: no race with a loaded CPU)
    )
    assert r.exit_code == 1
    failed = r.output.split("FAILED games (1)")[1]
    assert f"BotError: P1's bot ext:bad ({bot})" in failed and EXPECTED[mode] in failed
    assert "internal error" not in failed
    if mode == "crash":
        assert "its last line on stderr: giving up" in failed
    if mode == "hang":  # its own timeout: the start's grace was for its first answer only
        assert "within 0.2 s (--bot-timeout)" in failed
    rerun = failed.splitlines()[2]  # the command that plays the game alone, with the bot given again
    assert rerun.strip().startswith("fengsheng simulate") and f"--bot {shlex.quote('bad=' + bot)}" in rerun


# A bot that answers without flushing: its line stays in its own output buffer (a pipe is not a terminal), so its
# first answer never arrives. The commonest newcomer's mistake; the message must say where the figure comes from.
UNFLUSHED = """
    import json, sys
    for line in sys.stdin:
        if json.loads(line)["type"] == "decide":
            sys.stdout.write("0\\n")
"""


def test_a_first_answer_that_never_comes_names_the_grace_and_the_flush(tmp_path, monkeypatch):
    monkeypatch.setattr(external, "START_GRACE", 0.3)
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)  # (a developer's shell may set it: the bot would flush)
    bot = external.parse_definition(f"slow={_script(tmp_path, 'unflushed', UNFLUSHED)}", timeout=0.2)
    proc = external.BotProcess(bot, 1)
    try:
        proc.send({"type": "decide", "history_from": 0, "observation": {}, "actions": [{"id": 0}]})
        with pytest.raises(external.BotError) as failed:
            proc.answer("a decision (play, 1 actions)")
    finally:
        proc.kill()
    message = str(failed.value)
    assert "did not answer a decision (play, 1 actions), its first, within 0.5 s" in message
    assert "(--bot-timeout 0.2 s + 0.3 s for a process just started)" in message
    assert "flush" in message


def test_a_batch_whose_every_game_failed_gives_no_figures(tmp_path):
    """Every game failed: the summary said so only below empty tables and 'Average turns: 0.00 (min 0, max 0)', which
    read as results. It says no game finished, and still who sat where and each failure."""
    bot = _script(tmp_path, "bad", MISBEHAVING) + " junk"
    r = fengsheng(
        "simulate", "-p", "4", "-n", "2", "-s", "1", "--agents", "random,ext:bad,random,random", "--bot", f"bad={bot}"
    )
    assert r.exit_code == 1
    assert "No game finished: every game failed (below)." in r.output
    assert "Average turns" not in r.output and "Win rate by agent" not in r.output and "How games ended" not in r.output
    assert "Agents: P0 random, P1 ext:bad" in r.output and "FAILED games (2)" in r.output


def test_a_log_with_a_game_a_bot_failed_replays(tmp_path):
    """simulate --log keeps a game a bot failed as far as it got; replay read the log's end as cut off ('MISMATCH —
    the game asks more decisions than the log has … was the log cut off?', exit 1), though simulate had said to check
    the log so. The replay plays it to the question the bot did not answer, at the seat the failure names."""
    bot = _script(tmp_path, "bad", MISBEHAVING) + " junk"
    log = tmp_path / "games.jsonl"
    r = fengsheng(
        "simulate", "-p", "4", "-n", "1", "-s", "1", "--agents", "random,ext:bad,random,random", "--bot", f"bad={bot}",
        "--log", log,
    )  # fmt: skip
    assert r.exit_code == 1 and "FAILED games (1)" in r.output
    r = fengsheng("replay", log)
    assert r.exit_code == 0, r.output
    decisions = sum('"d":' in line for line in log.read_text(encoding="utf-8").splitlines())
    assert f"OK — identical up to the question its external bot failed, {decisions} decisions" in r.output
    assert "BotError: P1's bot ext:bad" in r.output
    lines = log.read_text(encoding="utf-8").splitlines()  # the failure said to be another seat's: the game parts there
    end = json.loads(lines[-1])
    end["failed"] = end["failed"].replace("P1's bot", "P2's bot")
    log.write_text("\n".join([*lines[:-1], json.dumps(end, ensure_ascii=False)]) + "\n", encoding="utf-8")
    r = fengsheng("replay", log)
    assert r.exit_code == 1 and "the game asks more decisions than the log has" in r.output


def test_a_bot_that_fails_game_after_game_stops_the_batch(tmp_path):
    bot = _script(tmp_path, "bad", MISBEHAVING) + " illegal"
    r = fengsheng(
        "simulate",
        "-p",
        "4",
        "-n",
        "50",
        "-s",
        "1",
        "--agents",
        "ext:bad,random,random,random",  # (one seat's bot: a process a game, not four)
        "--bot",
        f"bad={bot}",
        "--jobs",
        "1",
    )
    assert r.exit_code == 1
    assert re.search(rf"error: P0's bot ext:bad \({re.escape(bot)}\) answered 123456789", r.output)
    assert "FAILED" not in r.output  # stopped, not 50 failed games
    assert f"it failed {external.FAILURES_IN_A_ROW} games in a row" in r.output


def test_a_bot_that_fails_at_the_table_hands_its_seat_to_the_default_bot(tmp_path):
    external.define([f"bad={_script(tmp_path, 'bad', MISBEHAVING)} crash"])
    setup = Setup(players=4, seed=9, humans=[0], bots={1: "ext:bad", 2: "random", 3: "random"}, max_turns=40)
    table = Table(load_cached(), setup)
    told: list[str] = []
    table.notify = told.append
    while not table.state.is_terminal():
        table.run_bots()
        if not table.state.is_terminal():
            table.state.apply_action(table.state.legal_actions()[0])
    assert len(told) == 1 and "P1's bot ext:bad" in told[0] and "exited (status 3)" in told[0]
    assert told[0].endswith("P1 is played by the heuristic bot from now on")
    # the game is its seed and its actions, whoever answered
    again = GameState(load_cached(), 4, 9, max_turns=40)
    for action in table.state.history():
        again.apply_action(action)
    assert again.is_terminal()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bot", "python3 bot.py"], "give a name and the command, NAME=COMMAND"),
        (["--bot", "x=no-such-program-here --fast"], "the program 'no-such-program-here' is not found on PATH"),
        (["--bot", "x='unclosed"], "does not split into words"),
        (["--bot", "x=true", "--bot", "x=true"], "--bot x is given twice"),
        (["--bot", "x=true", "--bot-timeout", "0"], "--bot-timeout"),
        ([], "no external bot named 'x': define it with --bot x='COMMAND'"),
    ],
)
def test_a_bad_bot_definition_is_a_usage_error(args, message):
    r = fengsheng("simulate", "-p", "4", "-n", "1", "--agents", "ext:x", *args)
    assert r.exit_code == 2 and message in r.output


def test_a_bot_that_cannot_start_stops_the_batch_at_once(tmp_path):
    script = tmp_path / "bot"
    script.write_text("#!/no/such/interpreter\n")
    script.chmod(0o755)
    r = fengsheng("simulate", "-p", "4", "-n", "5", "--agents", "ext:x", "--bot", f"x={script}")
    assert r.exit_code == 1
    assert re.fullmatch(rf"error: P\d's bot ext:x \({re.escape(str(script))}\) cannot be started: .+\n", r.output)


# ---------------------------------------------------------------------- the seat boundary


def test_the_bot_is_sent_its_seats_observation_and_legal_actions_and_nothing_else(tmp_path):
    """Every decide line holds exactly the seat's observation at that decision (the history sent in parts) and its
    legal actions; hello holds the bot's own seed; the game seed and the other seats' identities and tasks appear
    nowhere in what the process was given (argv, environment, stdin)."""
    log = tmp_path / "seen.jsonl"
    external.define([f"rec={_script(tmp_path, 'recorder', RECORDER)} {shlex.quote(str(log))}"])
    content, gseed, seat = load_cached(), 987654321987654321, 2
    game, failure = play_game(content, 5, gseed, agents=("random", "heuristic", "ext:rec", "random", "random"))
    assert failure is None
    external.close_all()
    lines = log.read_text(encoding="utf-8").splitlines()
    start, messages = json.loads(lines[0]), [json.loads(x) for x in lines[1:]]
    assert messages[0] == {
        "type": "hello",
        "protocol": external.PROTOCOL,
        "seat": seat,
        "players": 5,
        "seed": agent_seed(gseed, seat),
        "content": external.content_id(content),
        "timeout": external.DEFAULT_TIMEOUT,
    }
    decides = [m for m in messages if m["type"] == "decide"]
    # the same game, step by step: at each of the seat's decisions, what it was sent is what the step API gives it
    state, history, k = GameState(content, 5, gseed), [], 0
    for action in game.actions_taken:
        if state.current_player() == seat:
            sent = decides[k]
            assert sent["history_from"] == len(history)
            history += sent["observation"]["history"]
            truth = json.loads(json.dumps(state.observation(seat)))
            assert {**sent["observation"], "history": history} == truth
            assert sent["actions"] == json.loads(json.dumps(state.action_descriptors()))
            k += 1
        state.apply_action(action)
    assert k == len(decides) > 10
    end = messages[-1]
    assert end["type"] == "end" and end["result"] == json.loads(json.dumps(state.observation(seat)["result"]))
    # nothing else: the game seed is nowhere in its argv, its environment (ours, nothing added) or its stdin
    given = json.dumps([start["argv"], start["env"]]) + "\n".join(lines[1:])
    assert str(gseed) not in given
    assert {t for m in messages for t in [m["type"]]} == {"hello", "decide", "end"}
    plain = subprocess.run(
        [sys.executable, "-c", "import json, os; print(json.dumps(dict(os.environ)))"],
        capture_output=True,
        check=True,
    )
    assert start["env"] == json.loads(plain.stdout)  # what any program we start gets


def test_an_external_kind_is_named_only_by_a_definition():
    with pytest.raises(ValueError, match="no external bot named 'nobody'"):
        factory_of("ext:nobody")
    with pytest.raises(ValueError, match="the name is missing"):
        factory_of("ext:")
    external.define(["x=true"])
    assert "ext:x" in agent_kinds() and "ext:nobody" not in agent_kinds()


def test_the_protocol_page_shows_the_example_bot_as_shipped():
    """docs/bots-protocol.md's example is examples/external_bot.py, its docstring aside."""
    page = (Path(__file__).parents[1] / "docs" / "bots-protocol.md").read_text(encoding="utf-8")
    shown = re.search(r"## 3\. An example bot.*?```python\n(.*?)```", page, re.S)
    assert shown is not None
    code = EXAMPLE.read_text(encoding="utf-8")
    assert code.endswith(shown[1]) and code[: -len(shown[1])].strip().endswith('"""')


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_a_bot_that_fails_at_the_table_tells_the_people_there_nothing_of_its_hand(tmp_path, mode):
    """The message a failed bot leaves at a table (play's screen, serve's console) said its decision's legal action
    ids — the deck ids of the cards its seat could use, its dealt roles — and their kind and count: 'answered 999999
    to a decision (role, 2 actions), not one of the legal action ids (201, 211)'. Now what went wrong and what the
    bot answered, no more (simulate's error, read where no person sits, keeps them). Found by a newcomer's
    walk-through."""
    external.define([f"bad={_script(tmp_path, 'bad', MISBEHAVING)} {mode}"], 0.2 if mode == "hang" else 30)
    setup = Setup(players=4, seed=9, humans=[0], bots={1: "ext:bad", 2: "random", 3: "random"}, max_turns=40)
    table = Table(load_cached(), setup)
    told: list[str] = []
    table.notify = told.append
    asked: list[tuple[int, ...]] = []  # the legal action ids at each of P1's decisions
    while not table.state.is_terminal():
        if table.state.current_player() == 1:
            asked.append(tuple(table.state.legal_actions()))
            table.bot_move()
        elif table.state.current_player() == 0:
            table.state.apply_action(table.state.legal_actions()[0])
        else:
            table.bot_move()
    assert len(told) == 1 and EXPECTED[mode] in told[0], told
    assert "a decision (" not in told[0] and "here one of" not in told[0] and "action ids (" not in told[0]
    failed_at = asked[1]  # (the script answers its first decision well, then fails)
    assert len(failed_at) > 1 and f"{failed_at[0]}, {failed_at[1]}" not in told[0], (failed_at, told[0])
