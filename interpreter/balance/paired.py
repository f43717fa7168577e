"""Paired A/B: the same deals played under both packs, their differences tested game by game.

Game ``i`` of a cell has the game seed ``game_seed(sweep seed, i)`` in every pack of a grid (records.py),
and a sweep of several packs (any pinned game too) deals in a keyed order (engine/pins.py) so both packs share
every deal they can. The luck of the deal then mostly cancels between the packs: a figure compared game by game
needs far fewer games than two independent samples.

* A win/loss figure (the pinned seat won; a seat of an identity won) is tested with **McNemar's exact
  test** on the discordant games (won under one pack only): b = base only, c = fork only, a two-sided
  binomial test of c out of b + c at one half. The difference fork − base is (c − b) / n, its 95%
  interval from the paired variance ((b + c) / n − d²) / n.
* A mean (turns per game) is compared by the mean of the per-game differences (paired z).
* ``variance_ratio``: the variance the difference would have from two independent samples of n games
  each, over its paired variance: an independent comparison needs that many times the games for the same
  precision; ``games_saved``: the share of games pairing saves (1 − 1 / ratio).

Games are paired by (players, agents, index) and only when their game seeds are equal (two sweep
directories of different seeds pair nothing) and both finished.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from .stats import Z95, binomial_p_two_sided

MIN_PAIRS = 10  # paired games a figure needs to be tested


def _key(rec: dict) -> tuple[int, str, int]:
    c = rec["cell"]
    return (int(c["players"]), str(c["agents"]), int(rec["index"]))


def pair_games(base: Sequence[dict], fork: Sequence[dict]) -> dict[tuple[int, str], list[tuple[dict, dict]]]:
    """The games both sides played from the same seed and finished, by (players, agents)."""
    by_key = {_key(r): r for r in fork}
    out: dict[tuple[int, str], list[tuple[dict, dict]]] = defaultdict(list)
    for r in base:
        other = by_key.get(_key(r))
        if other is None or other.get("seed") != r.get("seed"):
            continue
        if r.get("failed") is not None or other.get("failed") is not None:
            continue
        out[_key(r)[:2]].append((r, other))
    return dict(sorted(out.items()))


def mcnemar(pairs: Sequence[tuple[bool, bool]]) -> dict[str, Any]:
    """McNemar's exact test of paired win/loss outcomes (base, fork) and what pairing saved."""
    n = len(pairs)
    b = sum(1 for x, y in pairs if x and not y)
    c = sum(1 for x, y in pairs if y and not x)
    k1 = sum(1 for x, _ in pairs if x)
    k2 = sum(1 for _, y in pairs if y)
    p1, p2 = k1 / n, k2 / n
    d = (c - b) / n
    var_paired = max((b + c) / n - d * d, 0.0) / n
    var_indep = (p1 * (1 - p1) + p2 * (1 - p2)) / n
    half = Z95 * math.sqrt(var_paired)
    ratio = var_indep / var_paired if var_paired > 0 else None
    return {
        "n": n,
        "base": {"won": k1, "rate": p1},
        "fork": {"won": k2, "rate": p2},
        "base_only": b,
        "fork_only": c,
        "difference": d,
        "low": d - half,
        "high": d + half,
        "p_value": binomial_p_two_sided(c, b + c, 0.5) if b + c else 1.0,
        "variance_ratio": ratio,
        "games_saved": (1 - 1 / ratio) if ratio else None,
    }


def paired_mean(pairs: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """The paired difference of a per-game figure (turns): mean of fork − base, its 95% interval, p."""
    n = len(pairs)
    diffs = [y - x for x, y in pairs]
    d = sum(diffs) / n
    var_d = sum((x - d) ** 2 for x in diffs) / (n - 1) if n > 1 else 0.0
    xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
    mx, my = sum(xs) / n, sum(ys) / n
    var_x = sum((x - mx) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    var_y = sum((y - my) ** 2 for y in ys) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var_d / n)
    z = d / se if se > 0 else 0.0
    ratio = (var_x + var_y) / var_d if var_d > 0 else None
    return {
        "n": n,
        "base": {"mean": mx},
        "fork": {"mean": my},
        "difference": d,
        "low": d - Z95 * se,
        "high": d + Z95 * se,
        "p_value": math.erfc(abs(z) / math.sqrt(2)) if se > 0 else 1.0,
        "variance_ratio": ratio,
        "games_saved": (1 - 1 / ratio) if ratio else None,
    }


def _seat_won(rec: dict, seat: int) -> bool:
    return any(s["seat"] == seat and s["won"] for s in rec["seats"])


def _identity_won(rec: dict, identity: str) -> bool | None:
    seats = [s for s in rec["seats"] if s["identity"] == identity]
    return any(s["won"] for s in seats) if seats else None


def paired_figures(base: Sequence[dict], fork: Sequence[dict], pins: dict | None) -> dict[str, Any]:
    """The paired comparison of two sides' records (plain data: docs/balance.md): per (players, agents) the
    pinned seat's win (with --role/--task), each identity's win, turns per game; and the games paired."""
    figures = []
    paired = 0
    for (players, agents), games in pair_games(base, fork).items():
        paired += len(games)
        where = {"players": players, "agents": agents}
        if len(games) < MIN_PAIRS:
            continue
        if pins and (pins.get("role") or pins.get("task")):  # (a card pin alone pins no seat)
            what = ", ".join(f"{k} {pins[k]}" for k in ("role", "task") if pins.get(k))
            outcomes = [(_seat_won(a, a["index"] % players), _seat_won(b, b["index"] % players)) for a, b in games]
            pinned = {k: pins[k] for k in ("role", "task") if pins.get(k)}
            figures.append(
                {"kind": "pinned_seat", "name": f"the seat of {what}", "pins": pinned, **where, **mcnemar(outcomes)}
            )
        names = sorted({s["identity"] for a, _ in games for s in a["seats"]})
        for ident in names:
            pairs = [
                (x, y)
                for a, b in games
                if (x := _identity_won(a, ident)) is not None and (y := _identity_won(b, ident)) is not None
            ]
            if len(pairs) >= MIN_PAIRS:
                figures.append({"kind": "identity", "name": ident, **where, **mcnemar(pairs)})
        figures.append(
            {"kind": "turns", "name": "turns", **where, **paired_mean([(a["turns"], b["turns"]) for a, b in games])}
        )
    return {"games_paired": paired, "min_pairs": MIN_PAIRS, "figures": figures}
