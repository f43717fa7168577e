"""simulate --jobs: the games are split over processes, and nothing in the output depends on it."""

from __future__ import annotations

from click.testing import CliRunner

from interpreter import sim
from interpreter.cli import main
from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.sim import simulate


def test_summary_and_log_are_the_same_with_two_jobs(tmp_path, monkeypatch):
    monkeypatch.setattr(sim, "MIN_GAMES_PER_JOB", 1)  # split even this small batch
    content = load_cached()
    one = simulate(content, 5, 24, 11, log_path=tmp_path / "one.jsonl", content_paths=[BUNDLED_CONTENT], jobs=1)
    two = simulate(content, 5, 24, 11, log_path=tmp_path / "two.jsonl", content_paths=[BUNDLED_CONTENT], jobs=2)
    assert one.to_json() == two.to_json()
    assert one.text("h") == two.text("h")
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert one.games == 24 and one.decisions > 0


def test_progress_is_called_once_per_game_in_order(monkeypatch):
    monkeypatch.setattr(sim, "MIN_GAMES_PER_JOB", 1)
    seen: list[int] = []
    simulate(load_cached(), 4, 9, 2, jobs=2, progress=seen.append)
    assert seen == list(range(1, 10))


def test_cli_output_does_not_depend_on_jobs(monkeypatch):
    monkeypatch.setattr(sim, "MIN_GAMES_PER_JOB", 1)
    runner = CliRunner()
    outs = [runner.invoke(main, ["simulate", "-p", "6", "-n", "12", "-s", "5", "-j", j]) for j in ("1", "3")]
    assert all(r.exit_code == 0 for r in outs), [r.output for r in outs]
    assert outs[0].output == outs[1].output
    bad = runner.invoke(main, ["simulate", "-j", "0"])
    assert bad.exit_code == 2 and "--jobs" in bad.output


def test_a_crashing_game_is_reported_and_the_batch_goes_on(monkeypatch):
    """A bug in the engine (any exception) fails only its game, which is named with its seed."""
    real = sim.drive
    bad = sim.game_seed(3, 2)

    def drive(content, players, gseed, *args, **kw):
        if gseed == bad:
            raise KeyError("x" * 10_000)  # a huge message is cut short
        return real(content, players, gseed, *args, **kw)

    monkeypatch.setattr(sim, "drive", drive)
    summary = simulate(load_cached(), 4, 5, 3, jobs=1)
    assert summary.games == 4
    ((index, gseed, text),) = summary.failures
    assert (index, gseed) == (2, bad)
    assert text.startswith("internal error, please report it with this game seed: KeyError")
    assert len(text) < 400
