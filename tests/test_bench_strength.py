"""bench/strength.py: the sign test (McNemar's exact test), the paired line's wording, the ratio's
interval and how --players is read."""

from __future__ import annotations

import argparse

import pytest
from bench_scripts import load_bench


def _strength():
    return load_bench("strength")


def test_the_sign_test_is_the_exact_two_sided_binomial() -> None:
    strength = _strength()
    # 176 better of 314 changed (docs/bots.md's run at 5 players): R's binom.test(176, 314) gives p = 0.03663
    assert round(strength.sign_test(176, 138), 5) == 0.03663
    assert strength.sign_test(138, 176) == strength.sign_test(176, 138)  # two-sided
    assert round(strength.sign_test(81, 47), 5) == 0.00337
    assert round(strength.sign_test(5, 5), 9) == 1.0
    assert strength.sign_test(0, 0) == 1.0
    assert round(strength.sign_test(10, 0), 6) == round(2 / 2**10, 6)  # every change better: 2 * 0.5^10


def test_the_paired_line_gives_the_changed_results_and_p() -> None:
    strength = _strength()
    a = argparse.Namespace(bot="search:8:paired", against="heuristic")
    timing = {"better": 176.0, "worse": 138.0, "base_wins": 502.0, "same_game": 642.0}
    line = strength._paired(a, timing, 1500)
    assert "858 games differ, the result in 314: better 176, worse 138" in line
    assert "better in 56.1% [50.5, 61.4] of those; sign test p = 0.037" in line
    assert "search:8:paired seat   540/1500" in line


def test_player_counts_are_read_as_simulate_reads_them_and_a_bad_one_is_refused(capsys, monkeypatch) -> None:
    strength = _strength()
    monkeypatch.setattr("sys.argv", ["strength.py", "--players", "7,x", "--games", "1"])
    with pytest.raises(SystemExit) as e:
        strength.main()
    assert e.value.code == 2
    assert "--players: 'x' is not a player count" in capsys.readouterr().err


def test_a_table_where_the_other_seats_won_nothing_gives_no_ratio() -> None:
    strength = _strength()
    assert strength.ratio_line(8, 8, 0, 12, "random") == "ratio none (random seats won no game)"
    none = "ratio at 2 players: none (the bot won no game)"
    assert strength.ratio_line(0, 8, 3, 12, "random", " at 2 players:") == none


def test_the_ratio_has_its_interval_on_the_log_scale() -> None:
    strength = _strength()
    # 629 of 1,000 against 1,902 of 6,000 (7 players, seed 0): Katz's interval, by hand: se of the log
    # sqrt(1/629 - 1/1000 + 1/1902 - 1/6000) = 0.03081, so 1.984 x/÷ exp(1.96 x 0.03081) = 1.0623
    assert strength.ratio_line(629, 1000, 1902, 6000, "random") == "ratio 1.98 [1.87, 2.11]"
    assert strength.ratio_line(491, 1000, 2427, 9000, "random", " at 10 players:") == (
        "ratio at 10 players: 1.82 [1.69, 1.96]"
    )
