"""A/B: which figures of a fork moved against its base, whether the move is significant, and how many
games it would take to see a given difference.

Both sides are reports of the same shape (report.build_report); their groups are matched by player
count and agents, and by pack: the same pack label on both sides, or, when each side holds exactly one
pack, that pack (the base game in one directory, the fork in the other). Each figure is a proportion
(a win rate of an identity, a secret task or a role, seats won / seats played; the share of games that
ended one way) or a mean (turns, decisions per game).

* A proportion is compared with the two-proportion z test (pooled variance, two-sided) and Newcombe's
  hybrid score interval for the difference (fork − base, from the two Wilson intervals).
* A mean is compared with Welch's z (the games are many: the normal approximation holds).
* A figure with fewer than ``MIN_TEST_N`` seats on either side is not tested (counted in ``too_few``).
* ``significant``: p < 0.05 for that figure alone. ``holm``: still significant after Holm's
  correction over every figure of the comparison: with a hundred figures, five "move" by chance.
* ``games_needed``: games per side for an 80% chance of seeing a difference of ``detect`` (default
  5 points; for turns, ``detect_turns``) at the 5% level, at the base's rate and the base's number
  of seats of that figure per game. It says whether a non-significant figure is "no change" or
  "not enough games to tell".

A sweep that plays both packs in one grid (``fengsheng balance --pack A= --pack B=…``) deals the same
seeds to both: the tests above treat the two sides as independent samples, which is conservative for
paired games; ``paired.py`` tests them game by game (McNemar), the result's ``paired``, printed first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

from ..sim import wilson
from .messages import DEFAULT_LANG, say
from .stats import holm, pct
from .words import figure_name, flag_name, paired_label, pins_differ_text, players_short, players_text

COMPARE_FORMAT = 1
ALPHA = 0.05
POWER = 0.8
DETECT = 0.05
DETECT_TURNS = 1.0
MIN_TEST_N = 10  # seats (or games) a figure needs on each side to be tested: fewer are counted in too_few

_N = NormalDist()


class CompareError(Exception):
    """Two reports that cannot be compared: the message says why."""


# ---------------------------------------------------------------------- statistics


def two_proportion_z(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """The two-proportion z statistic (pooled variance) of k2/n2 − k1/n1 and its two-sided p-value."""
    if n1 == 0 or n2 == 0:
        return 0.0, 1.0
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (k2 / n2 - k1 / n1) / se
    return z, math.erfc(abs(z) / math.sqrt(2))


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """Newcombe's hybrid score interval (his method 10) for the difference p2 − p1, at 95%."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def n_for_proportions(p1: float, diff: float, alpha: float = ALPHA, power: float = POWER) -> int:
    """Units per side for a two-sided two-proportion z test to see p1 → p1 ± diff with the given power."""
    p1 = min(max(p1, 0.0), 1.0)
    p2 = p1 + diff if p1 + diff <= 1 else p1 - diff
    za, zb = _N.inv_cdf(1 - alpha / 2), _N.inv_cdf(power)
    pbar = (p1 + p2) / 2
    num = za * math.sqrt(2 * pbar * (1 - pbar)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil(num * num / (diff * diff))


def n_for_means(sd: float, diff: float, alpha: float = ALPHA, power: float = POWER) -> int:
    """Games per side for a two-sided z test on means to see a difference of diff with the given power."""
    za, zb = _N.inv_cdf(1 - alpha / 2), _N.inv_cdf(power)
    return math.ceil(2 * ((za + zb) * sd / diff) ** 2)


def _mean_sd(histogram: Sequence[Sequence[int]]) -> tuple[float, float, int]:
    n = sum(k for _, k in histogram)
    if n == 0:
        return 0.0, 0.0, 0
    mean = sum(v * k for v, k in histogram) / n
    var = sum(k * (v - mean) ** 2 for v, k in histogram) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var), n


# ---------------------------------------------------------------------- matching the groups


def _pairs(base: dict, fork: dict) -> list[tuple[dict, dict]]:
    base_packs = {g["pack"] for g in base["groups"]}
    fork_packs = {g["pack"] for g in fork["groups"]}
    one_each = len(base_packs) == 1 and len(fork_packs) == 1

    def key(g: dict, pack: bool) -> tuple:
        return (g["agents"], str(g["players"])) + ((g["pack"],) if pack else ())

    fork_by = {key(g, not one_each): g for g in fork["groups"]}
    out = [(g, fork_by[key(g, not one_each)]) for g in base["groups"] if key(g, not one_each) in fork_by]
    if not out:
        b = sorted({f"{g['pack']} · {g['agents']} · {g['players']}" for g in base["groups"]})
        f = sorted({f"{g['pack']} · {g['agents']} · {g['players']}" for g in fork["groups"]})
        raise CompareError(
            "the two sweeps have no cell in common (pack · agents · players): "
            f"base has {', '.join(b) or 'no games'}; fork has {', '.join(f) or 'no games'}"
        )
    return out


def _lacks(report: dict, pack: str, role: str) -> bool:
    """Whether the pack's content is known (it loaded for the report) and has no such role: a role of both
    sides that one side never dealt is too rare to compare, not new; unknown content proves nothing."""
    roles = (report["sweep"].get("content_roles") or {}).get(pack)
    return roles is not None and role not in roles


def _rate_side(r: dict) -> dict:
    return {k: r[k] for k in ("won", "n", "rate", "low", "high")}


def _proportion(kind: str, name: str, where: dict, b: dict, f: dict, units_per_game: float, detect: float) -> dict:
    z, p = two_proportion_z(b["won"], b["n"], f["won"], f["n"])
    lo, hi = newcombe(b["won"], b["n"], f["won"], f["n"])
    units = n_for_proportions(b["rate"], detect)
    return {
        "kind": kind,
        "name": name,
        **where,
        "base": _rate_side(b),
        "fork": _rate_side(f),
        "difference": f["rate"] - b["rate"],
        "low": lo,
        "high": hi,
        "z": z,
        "p_value": p,
        "significant": p < ALPHA,
        "games_needed": math.ceil(units / units_per_game) if units_per_game > 0 else None,
    }


def _mean(kind: str, where: dict, b: dict, f: dict, detect: float | None) -> dict | None:
    mb, sb, nb = _mean_sd(b["histogram"])
    mf, sf, nf = _mean_sd(f["histogram"])
    if nb < 2 or nf < 2:
        return None
    se = math.sqrt(sb * sb / nb + sf * sf / nf)
    z = (mf - mb) / se if se > 0 else 0.0
    p = math.erfc(abs(z) / math.sqrt(2)) if se > 0 else 1.0
    half = NormalDist().inv_cdf(0.975) * se
    return {
        "kind": kind,
        "name": kind,
        **where,
        "base": {"mean": mb, "sd": sb, "n": nb},
        "fork": {"mean": mf, "sd": sf, "n": nf},
        "difference": mf - mb,
        "low": mf - mb - half,
        "high": mf - mb + half,
        "z": z,
        "p_value": p,
        "significant": p < ALPHA,
        "games_needed": n_for_means(sb, detect) if detect and sb > 0 else None,
    }


def compare_reports(base: dict, fork: dict, detect: float = DETECT, detect_turns: float = DETECT_TURNS) -> dict:
    """The A/B comparison of two reports (plain data, keys documented in docs/balance.md)."""
    if not 0 < detect < 1:
        raise CompareError(f"the difference to detect is a share between 0 and 1 (got {detect})")
    figures: list[dict] = []
    pairs = []
    only_base: list[dict] = []
    only_fork: list[dict] = []
    too_few = 0
    for b, f in _pairs(base, fork):
        where = {"players": b["players"], "agents": b["agents"]}
        pairs.append(
            {
                **where,
                "base_pack": b["pack"],
                "fork_pack": f["pack"],
                "base_games": b["games"],
                "fork_games": f["games"],
            }
        )
        games = max(b["games"] - b["failed"], 1)
        for kind, key in (("identity", "identities"), ("task", "tasks"), ("role", "roles")):
            fork_rows = {r["name"]: r for r in f[key]}
            base_names = set()
            for r in b[key]:
                base_names.add(r["name"])
                other = fork_rows.get(r["name"])
                if other is None or not r["n"] or not other["n"]:
                    if kind == "role" and r["n"] and _lacks(fork, f["pack"], r["name"]):
                        only_base.append({**where, "name": r["name"], **_rate_side(r)})
                    else:
                        too_few += 1
                    continue
                if r["n"] < MIN_TEST_N or other["n"] < MIN_TEST_N:
                    too_few += 1
                    continue
                figures.append(_proportion(kind, r["name"], where, r, other, r["n"] / games, detect))
            if kind == "role":
                only_fork += [
                    {
                        **where,
                        "name": r["name"],
                        **_rate_side(r),
                        "expected": r["expected"],
                        "flag": r["flag"],
                        "holm": r["holm"],
                    }
                    for r in f[key]
                    if r["name"] not in base_names and _lacks(base, b["pack"], r["name"])
                ]
        b_ok, f_ok = b["games"] - b["failed"], f["games"] - f["failed"]
        fork_reasons = {r["reason"]: r["games"] for r in f["end_reasons"]}
        for reason in sorted({r["reason"] for r in b["end_reasons"]} | set(fork_reasons)):
            kb = next((r["games"] for r in b["end_reasons"] if r["reason"] == reason), 0)
            kf = fork_reasons.get(reason, 0)
            if b_ok and f_ok:
                rb = {
                    "won": kb,
                    "n": b_ok,
                    "rate": kb / b_ok,
                    **dict(zip(("low", "high"), wilson(kb, b_ok), strict=True)),
                }
                rf = {
                    "won": kf,
                    "n": f_ok,
                    "rate": kf / f_ok,
                    **dict(zip(("low", "high"), wilson(kf, f_ok), strict=True)),
                }
                figures.append(_proportion("end_reason", reason, where, rb, rf, 1.0, detect))
        for kind, d in (("turns", detect_turns), ("decisions", None)):
            m = _mean(kind, where, b[kind], f[kind], d)
            if m is not None:
                figures.append(m)
    for fig, survives in zip(figures, holm([x["p_value"] for x in figures]), strict=True):
        fig["holm"] = survives
    moved = sorted((x for x in figures if x["significant"]), key=lambda x: x["p_value"])
    return {
        "format": COMPARE_FORMAT,
        "base": base["sweep"],
        "fork": fork["sweep"],
        "alpha": ALPHA,
        "power": POWER,
        "detect": detect,
        "detect_turns": detect_turns,
        "figures_tested": len(figures),
        "too_few": too_few,
        "min_test_n": MIN_TEST_N,
        "pairs": pairs,
        "moved": [_ref(x) for x in moved],
        "figures": figures,
        "only_base": only_base,
        "only_fork": only_fork,
        "fork_flags": fork["flags"],
        "paired": None,  # the game-by-game comparison (paired.py), when the records are at hand: the command's
    }


def _ref(x: dict) -> dict:
    return {k: x[k] for k in ("kind", "name", "players", "agents", "difference", "low", "high", "p_value", "holm")}


# ---------------------------------------------------------------------- the terminal


def diff_text(x: dict) -> str:
    """Fork − base and its 95% interval: in points for a proportion, in turns or decisions for a mean."""
    if x["kind"] in ("turns", "decisions"):
        return f"{x['difference']:+.1f} [{x['low']:+.1f}, {x['high']:+.1f}]"
    return f"{100 * x['difference']:+.1f} [{100 * x['low']:+.1f}, {100 * x['high']:+.1f}]"


def side_text(x: dict, side: str) -> str:
    s = x[side]
    return f"{s['mean']:.1f}" if "mean" in s else pct(s["rate"])


KINDS = ("identity", "task", "role", "end_reason", "turns", "decisions")  # the tables, in this order


def _table(title: str, heads: Sequence[str], lang: str, left: Sequence[str] = ()) -> Any:
    from .terminal import report_table

    return report_table(title, say("figure", lang), [(say(k, lang), "left" if k in left else "right") for k in heads])


def print_paired(paired: dict, console: Any, lang: str = DEFAULT_LANG) -> None:
    """The paired comparison (paired.py): each figure's difference, McNemar's p and what pairing saved."""
    from rich.markup import escape

    figures = paired.get("figures") or []
    if paired.get("pins_differ"):
        why = pins_differ_text(paired["pins_differ"], lang, paired.get("pinned_names"))
        console.print(why, markup=False, soft_wrap=True)
        return
    if not figures:
        console.print(say("paired_none", lang, n=paired.get("games_paired", 0)), markup=False)
        return
    t = _table(
        say("paired_title", lang, n=paired["games_paired"]), ("games", "base", "fork", "delta95", "p", "saved"), lang
    )
    for x in figures:
        mean = "mean" in x["base"]
        side = (lambda v: f"{v['mean']:.1f}") if mean else (lambda v: pct(v["rate"]))
        diff = (
            f"{x['difference']:+.2f} [{x['low']:+.2f}, {x['high']:+.2f}]"
            if mean
            else f"{100 * x['difference']:+.1f} [{100 * x['low']:+.1f}, {100 * x['high']:+.1f}]"
        )
        saved = "" if x["games_saved"] is None else f"{100 * x['games_saved']:.0f}% (×{x['variance_ratio']:.2f})"
        t.add_row(
            escape(f"{paired_label(x, lang, paired.get('pinned_names'))} · {players_short(x['players'], lang)}"),
            str(x["n"]),
            side(x["base"]),
            side(x["fork"]),
            diff,
            f"{x['p_value']:.2g}",
            saved,
        )
    console.print(t)
    console.print(say("paired_legend", lang), markup=False)


def print_compare(result: dict, console: Any, roles: bool = True, lang: str = DEFAULT_LANG) -> None:
    from rich.markup import escape

    if result.get("paired") is not None:
        print_paired(result["paired"], console, lang)
    console.print(
        say(
            "ab_summary",
            lang,
            n=len(result["figures"]),
            moved=len(result["moved"]),
            holm=sum(1 for x in result["figures"] if x["holm"]),
            few=result["too_few"],
            min_n=result["min_test_n"],
        ),
        markup=False,
    )
    for p in result["pairs"]:
        line = say(
            "ab_pair",
            lang,
            players=players_text(p["players"], lang),
            agents=p["agents"],
            base=p["base_pack"],
            base_games=p["base_games"],
            fork=p["fork_pack"],
            fork_games=p["fork_games"],
        )
        console.print("  " + line, markup=False)
    for kind in KINDS:
        rows = [x for x in result["figures"] if x["kind"] == kind]
        if not rows or (kind == "role" and not roles):
            continue
        t = _table(say("kind_" + kind, lang), ("base", "fork", "delta95", "p", "moved", "games"), lang, ("moved",))
        for x in sorted(rows, key=lambda x: (x["p_value"], str(x["name"]))):
            moved = (say("moved_yes", lang) if x["holm"] else say("lead", lang)) if x["significant"] else ""
            t.add_row(
                escape(f"{figure_name(x, lang)} · {players_short(x['players'], lang)}"),
                side_text(x, "base"),
                side_text(x, "fork"),
                diff_text(x),
                f"{x['p_value']:.2g}",
                moved,
                "" if x["games_needed"] is None else f"{x['games_needed']:,}",
            )
        console.print(t)
    legend = say("ab_legend", lang, detect=f"{100 * result['detect']:g}", turns=f"{result['detect_turns']:g}")
    console.print(legend, markup=False)
    if result["only_fork"]:
        console.print(f"[bold]{escape(say('only_fork_title', lang))}[/bold]")
        for r in result["only_fork"]:
            flag = ""
            if r["flag"]:
                flag = "  " + flag_name(r["flag"], lang) + ("" if r.get("holm", True) else say("lead_suffix", lang))
            line = say(
                "only_fork_line",
                lang,
                name=r["name"],
                players=players_short(r["players"], lang),
                rate=pct(r["rate"]),
                n=r["n"],
                low=f"{100 * r['low']:.1f}",
                high=f"{100 * r['high']:.1f}%",
                expected=pct(r["expected"]),
                flag=flag,
            )
            console.print("  " + line, markup=False)
    if result["only_base"]:
        names = sorted({str(r["name"]) for r in result["only_base"]})
        console.print(escape(say("only_base_title", lang, names=", ".join(names))))
