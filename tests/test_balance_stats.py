"""The statistics of a balance report (interpreter/balance/stats.py), checked against published values."""

from __future__ import annotations

from interpreter.balance import stats
from interpreter.sim import wilson


def test_wilson_matches_newcombe_1998():
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I: score method
    assert [round(v, 4) for v in wilson(81, 263)] == [0.2553, 0.3662]
    assert [round(v, 4) for v in wilson(15, 148)] == [0.0624, 0.1605]
    assert wilson(0, 0) == (0.0, 1.0)


def test_seats_for_half_width_is_the_textbook_formula():
    # a 95% interval of ±5 points at 50%: 1.96^2 * 0.25 / 0.0025 = 384.1 -> 385
    assert stats.seats_for_half_width(0.5) == 385


def test_binomial_test_and_holm():
    # R: binom.test(c(682, 243), p = 3/4) -> p-value = 0.3825; binom.test(7, 20) -> 0.2632
    assert round(stats.binomial_p_two_sided(682, 925, 0.75), 4) == 0.3825
    assert round(stats.binomial_p_two_sided(7, 20, 0.5), 4) == 0.2632
    # Holm at 5%: 0.005 <= 0.05/4, 0.01 <= 0.05/3, 0.03 > 0.05/2 stops
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert stats.percentile([1, 2, 3, 4], 50) == 2.5
