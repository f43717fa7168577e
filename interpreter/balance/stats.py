"""The statistics of a balance report: Wilson rates, Holm's correction, the exact binomial test, percentiles and
the spread of a game-length figure, and how many seats a ±5-point interval takes.

Plain functions of counts, shared by the report (report.py), the A/B comparison (compare.py) and the paired
tests (paired.py).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from statistics import NormalDist

from ..sim import wilson

ALL = "all"  # the players of a group that pools every player count

CONFIDENCE = 0.95


TRUST_POINTS = 0.05  # the half-width a figure should reach: seats_for_5_points says how many it takes


Z95 = NormalDist().inv_cdf(0.975)


def holm(pvalues: Sequence[float], alpha: float = 1 - CONFIDENCE) -> list[bool]:
    """Holm's step-down correction: which of the hypotheses are rejected at family-wise level alpha."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    out = [False] * len(pvalues)
    m = len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (m - rank):
            break
        out[i] = True
    return out


def binomial_p_two_sided(k: int, n: int, p: float) -> float:
    """Exact two-sided binomial test of k successes in n at rate p: the probability of an outcome no likelier than k."""
    if n == 0 or p <= 0 or p >= 1:
        return 1.0 if (p <= 0 and k == 0) or (p >= 1 and k == n) or n == 0 else 0.0
    lp, lq = math.log(p), math.log(1 - p)

    def logpmf(i: int) -> float:
        return math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq

    at = logpmf(k) + 1e-9  # a relative tolerance, as R's binom.test uses
    return min(1.0, sum(math.exp(v) for v in map(logpmf, range(n + 1)) if v <= at))


def seats_for_half_width(p: float, half: float = TRUST_POINTS, z: float = Z95) -> int:
    """Seats needed for a 95% interval of about ±half around a rate p (normal approximation)."""
    p = min(max(p, 0.05), 0.95)  # an interval at 0% or 100% is not symmetric: plan for a rate of at least 5%
    return math.ceil(z * z * p * (1 - p) / (half * half))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) of sorted values, interpolated linearly between ranks."""
    if not values:
        return 0.0
    pos = (len(values) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def rate(won: int, n: int) -> dict:
    """A win rate with its Wilson 95% interval, as the report's JSON holds it."""
    lo, hi = wilson(won, n)
    return {
        "won": won,
        "n": n,
        "rate": won / n if n else None,
        "low": lo,
        "high": hi,
        "half_width": (hi - lo) / 2,
    }


def spread(values: Iterable[int]) -> dict:
    """Mean, median, percentiles and extremes of a game-length figure, and its histogram (value, games)."""
    v = sorted(values)
    if not v:
        return {
            "games": 0,
            "mean": None,
            "median": None,
            "p10": None,
            "p90": None,
            "min": None,
            "max": None,
            "histogram": [],
        }
    return {
        "games": len(v),
        "mean": sum(v) / len(v),
        "median": percentile(v, 50),
        "p10": percentile(v, 10),
        "p90": percentile(v, 90),
        "min": v[0],
        "max": v[-1],
        "histogram": [[value, k] for value, k in sorted(Counter(v).items())],
    }


def pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"
