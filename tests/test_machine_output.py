"""One spelling of machine output: `--format json` on every command that prints results, each printing one JSON
document on stdout (parsed here, its fields checked); the old spellings kept for a release, hidden, with a note."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from conftest import fengsheng
from interpreter.cli import main

SCENARIOS = Path(__file__).parent / "scenarios"
PASSING = SCENARIOS / "card_diao_bao_keeps_sender.scenario.yaml"
NOTE = "note: --json is deprecated and goes in the next release: use --format json"


def _commands(group: click.Group, ctx: click.Context, path: str = "") -> dict[str, click.Command]:
    out = {}
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        out[f"{path}{name}"] = command
        if isinstance(command, click.Group):
            out.update(_commands(command, ctx, f"{path}{name} "))
    return out


def test_every_command_that_prints_results_has_format_json_and_no_visible_json_option():
    with click.Context(main) as ctx:
        commands = _commands(main, ctx)
    results = ["simulate", "replay", "validate", "scenario run", "pack show", "pack diff", "balance"]
    results += ["balance report", "balance compare", "describe"]
    for name in results:
        (option,) = [p for p in commands[name].params if "--format" in p.opts]
        assert isinstance(option.type, click.Choice) and {"text", "json"} <= set(option.type.choices), name
        assert option.default == "text", name
    for name, command in commands.items():
        visible = [p for p in command.params if isinstance(p, click.Option) and not p.hidden]
        assert not any("--json" in p.opts for p in visible), name  # the old spelling only as a hidden alias


def test_simulate_json_and_its_old_spelling():
    args = ["simulate", "-p", 5, "-n", 3, "-s", 1, "-j", 1]
    r = fengsheng(*args, "--format", "json")
    assert r.exit_code == 0 and r.stderr == ""
    data = json.loads(r.stdout)
    assert data["seed"] == 1 and data["games"] == 3 and data["players"] == 5 and data["failures"] == []
    assert sum(data["ended_by"].values()) == 3
    old = fengsheng(*args, "--json")
    assert old.exit_code == 0 and json.loads(old.stdout) == data and NOTE in old.stderr


def test_simulate_one_game_as_json():
    r = fengsheng("simulate", "-p", 5, "--game-seed", 5, "--format", "json")
    assert r.exit_code == 0
    game = json.loads(r.stdout)
    assert {k: game[k] for k in ("game_seed", "players", "ok", "failure")} == {
        "game_seed": 5,
        "players": 5,
        "ok": True,
        "failure": None,
    }
    assert game["turns"] > 0 and game["decisions"] > 0 and game["reason"] and "trace" not in game
    assert all(0 <= seat < 5 for seat in game["winners"])
    text = fengsheng("simulate", "-p", 5, "--game-seed", 5).stdout
    assert f"{game['turns']} turns, {game['decisions']} decisions" in text
    traced = json.loads(fengsheng("simulate", "-p", 5, "--game-seed", 5, "--trace", "--format", "json").stdout)
    assert traced["turns"] == game["turns"] and any(line.startswith("node ") for line in traced["trace"])


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "g.jsonl"
    assert fengsheng("simulate", "-p", 4, "-n", 2, "-s", 3, "-j", 1, "--log", path).exit_code == 0
    return path


def test_replay_json_has_a_record_per_game(log, tmp_path):
    r = fengsheng("replay", log, "--format", "json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert data["ok"] is True and [g["index"] for g in data["games"]] == [0, 1]
    for g in data["games"]:
        assert g["ok"] is True and g["same_content"] is True and isinstance(g["seed"], int)
        assert g["message"].startswith("identical: ")
    # a decision changed: that game's record says so, exit 1
    lines = log.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if '"d": "send"' in line or '"d":"send"' in line)
    record = json.loads(lines[at])
    record["choice"] = record["choice"] + 1
    lines[at] = json.dumps(record, ensure_ascii=False)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = fengsheng("replay", bad, "--format", "json", "--game", 0)
    assert r.exit_code == 1
    (game,) = json.loads(r.stdout)["games"]
    assert game["index"] == 0 and game["ok"] is False and game["message"]


def test_replay_as_a_seat_is_json_lines_in_both_formats(log, tmp_path):
    text = fengsheng("replay", log, "--as", "P1").stdout
    r = fengsheng("replay", log, "--as", "P1", "--format", "json")
    assert r.exit_code == 0 and r.stdout == text
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["type"] for x in records].count("game") == 2 and all("seed" not in x for x in records)
    out = tmp_path / "p1.jsonl"
    r = fengsheng("replay", log, "--as", "P1", "--out", out, "--format", "json")
    assert r.exit_code == 0 and json.loads(r.stdout) == {"view": "P1", "games": 2, "out": str(out)}
    assert out.read_text(encoding="utf-8") == text


def test_scenario_run_json_has_each_files_result(tmp_path):
    broken = tmp_path / "broken.scenario.yaml"
    broken.write_text("players: [\n", encoding="utf-8")
    r = fengsheng("scenario", "run", PASSING, broken, "--format", "json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert (data["ok"], data["passed"], data["failed"]) == (False, 1, 1)
    passed, wrong = data["files"]
    assert passed["file"] == str(PASSING) and passed["passed"] is True and passed["failures"] == []
    assert passed["name"] and passed["errors"] == [] and "trace" not in passed
    assert wrong["file"] == str(broken) and wrong["passed"] is False and wrong["name"] is None
    assert wrong["errors"][0]["code"] == "E101" and wrong["errors"][0]["line"] == 2
    traced = json.loads(fengsheng("scenario", "run", PASSING, "--format", "json", "--trace").stdout)
    assert traced["ok"] is True and traced["files"][0]["trace"]


def test_scenario_failures_carry_their_line_and_column(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert fengsheng("new", "pack", "p").exit_code == 0
    assert fengsheng("new", "card", "mi_dian", "--in", "p").exit_code == 0
    scenario = tmp_path / "p" / "tests" / "card_mi_dian_example.scenario.yaml"
    lines = scenario.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if "1: {hand: [36]}" in line)
    lines[at] = lines[at].replace("[36]", "[37]")
    scenario.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = fengsheng("scenario", "run", "p/tests", "--format", "json")
    assert r.exit_code == 1
    (result,) = json.loads(r.stdout)["files"]
    assert result["failures"] == [
        {"message": "P1 hand: expected [37], got [36]", "line": at + 1, "col": lines[at].index("[37]") + 1}
    ]
    assert result["trace"]  # a failing scenario's resolution trace, as the text report shows it
    text = fengsheng("scenario", "run", "p/tests").stdout
    assert f"card_mi_dian_example.scenario.yaml:{at + 1}:" in text and "P1 hand: expected [37], got [36]" in text


def test_validate_json_keeps_its_shape(tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "c.yaml").write_text("id: c\nname: 测试\ntext: x\nuses: 3\n", encoding="utf-8")
    r = fengsheng("validate", "--format", "json", cards / "c.yaml")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert data["ok"] is False and data["warnings"] == []
    assert set(data["errors"][0]) == {"path", "line", "col", "code", "message", "hint", "source"}
    assert json.loads(fengsheng("validate", "--format", "json").stdout)["ok"] is True


def test_describe_json_has_each_items_texts():
    r = fengsheng("describe", "li_you", "--format", "json")
    assert r.exit_code == 0
    (item,) = json.loads(r.stdout)["items"]
    assert {k: item[k] for k in ("kind", "id", "name", "pack")} == {
        "kind": "card",
        "id": "li_you",
        "name": "利诱",
        "pack": "base",
    }
    assert item["original"].startswith("出牌阶段") and item["generated"] and isinstance(item["same"], bool)
    every = json.loads(fengsheng("describe", "--all", "--format", "json").stdout)["items"]
    assert {"card", "role", "secret_task", "identity"} <= {i["kind"] for i in every} and item in every


def test_balance_prints_its_sweeps_report_as_json(tmp_path):
    out = tmp_path / "sweep"
    r = fengsheng(
        "balance", "-p", 4, "-n", 2, "-s", 1, "--agents", "random", "-j", 1, "-q", "-o", out, "--format", "json"
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["format"] == 1 and data["sweep"]["records"] == 2
    assert f"HTML report: {out / 'report.html'}" in r.stderr
    again = fengsheng("balance", "report", out, "--format", "json", "--no-html")
    assert json.loads(again.stdout) == data
