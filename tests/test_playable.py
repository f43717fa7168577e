"""What validates, plays (content/playable.py, issue 29): a rule set the engine cannot play is an error at
validate time, with a position; one it can play, it plays. The property test: every `speeds:` assignment
under stack timing is either refused (a fast idle point whose uses send: E128) or plays games without an
engine error."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from interpreter.content.loader import BUNDLED_CONTENT
from interpreter.content.playable import SENDING_IDLE_POINTS
from interpreter.model.content import TIMINGS
from tests.conftest import fengsheng

TASKS = sorted(p.stem for p in (BUNDLED_CONTENT / "secret_tasks").glob("*.yaml"))


def pack(tmp: Path, body: str) -> Path:
    folder = tmp / "fork"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text(f"id: fork\nname: t\nextends: [base]\n{body}\n", encoding="utf-8")
    return folder


def test_no_secret_task_left_for_a_mysterious_one(tmp_path):
    p = pack(tmp_path, f"remove: {{secret_tasks: [{', '.join(TASKS)}]}}")
    r = fengsheng("validate", p)
    assert r.exit_code == 1
    assert "pack.yaml:4:24: error E126: with 3 players the identity table deals 1 神秘人 a secret task" in r.output
    assert "0 secret tasks" in r.output


def test_two_tasks_are_too_few_for_nine_players(tmp_path):
    p = pack(tmp_path, f"remove: {{secret_tasks: [{', '.join(TASKS[2:])}]}}")
    r = fengsheng("validate", p)
    assert r.exit_code == 1
    assert "E126: with 9 players the identity table deals 3 神秘人 a secret task each" in r.output


def test_as_many_tasks_as_mysterious_ones_is_enough(tmp_path):
    p = pack(tmp_path, f"remove: {{secret_tasks: [{', '.join(TASKS[3:])}]}}")
    assert fengsheng("validate", p).exit_code == 0
    r = fengsheng("simulate", "-p", "9", "-n", "6", "-j", "1", "-s", "1", "--content", p)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize(("keep", "players"), [(0, 4), (10, 4), (29, 8)])
def test_a_deck_too_small_for_its_player_counts(tmp_path, keep, players):
    p = pack(tmp_path, "deck:\n  remove: [" + ", ".join(str(i) for i in range(keep + 1, 119)) + "]")
    r = fengsheng("validate", p)
    assert r.exit_code == 1
    assert any(
        "pack.yaml:5:11: error E127: deck '" in line and f"too few for {players} players" in line
        for line in r.output.splitlines()
    ), r.output


def test_a_deck_just_large_enough_plays(tmp_path):
    p = pack(tmp_path, "deck:\n  remove: [" + ", ".join(str(i) for i in range(46, 119)) + "]")  # 45 copies
    assert fengsheng("validate", p).exit_code == 0
    r = fengsheng("simulate", "-p", "10", "-n", "6", "-j", "1", "-s", "1", "--content", p)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("point", SENDING_IDLE_POINTS)
def test_a_fast_send_is_refused_at_its_speed(tmp_path, point):
    p = pack(tmp_path, f"rules: {{resolution: stack, speeds: {{{point}: fast}}}}")
    r = fengsheng("validate", p)
    assert r.exit_code == 1
    assert f"pack.yaml:4:{38 + len(point) + 1}: error E128: {point} cannot be fast" in r.output


def test_a_fast_send_under_queued_timing_means_nothing(tmp_path):
    p = pack(tmp_path, "rules: {speeds: {send_start: fast}}")
    assert fengsheng("validate", p).exit_code == 0


def test_a_slow_respond_is_refused(tmp_path):
    """`respond` answers a card use on the stack: slow (made only with the stack empty), it would never be
    offered."""
    p = pack(tmp_path, "rules: {resolution: stack, speeds: {respond: slow}}")
    r = fengsheng("validate", p)
    assert r.exit_code == 1
    assert "pack.yaml:4:46: error E128: respond cannot be slow" in r.output, r.output


OTHER_POINTS = [t for t in TIMINGS if t not in SENDING_IDLE_POINTS]
# the idle points whose speed may be either (respond is fast or refused, above: left at its default)
VARIED = [t for t in TIMINGS if t != "respond"]
ASSIGNMENTS = [
    dict(zip(VARIED, speeds, strict=True)) for speeds in itertools.product(("slow", "fast"), repeat=len(VARIED))
]


def check_speeds(tmp: Path, speeds: dict[str, str], games: int) -> None:
    written = ", ".join(f"{k}: {v}" for k, v in speeds.items())
    p = pack(tmp, f"rules: {{resolution: stack, speeds: {{{written}}}}}")
    r = fengsheng("validate", p)
    if any(speeds[point] == "fast" for point in SENDING_IDLE_POINTS):
        assert r.exit_code == 1 and "E128" in r.output, r.output
        return
    assert r.exit_code == 0, r.output
    r = fengsheng("simulate", "-p", "10", "-n", games, "-j", "1", "-s", "3", "--content", p)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize(
    "speeds",
    [ASSIGNMENTS[0], ASSIGNMENTS[-1], dict.fromkeys(VARIED, "fast") | dict.fromkeys(SENDING_IDLE_POINTS, "slow")],
    ids=["all-slow", "all-fast", "fast-but-the-sends"],
)
def test_speeds_refused_or_played(tmp_path, speeds):
    check_speeds(tmp_path, speeds, games=4)


@pytest.mark.slow
def test_every_speed_assignment_is_refused_or_played(tmp_path):
    """All 2**6 assignments of the six idle points (respond left fast): the 48 with a fast send refused, the 16
    others play 40 ten-player games each without an engine error (before: send_start fast failed 6 games in 30)."""
    for n, speeds in enumerate(ASSIGNMENTS):
        check_speeds(tmp_path / str(n), speeds, games=40)
