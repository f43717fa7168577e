"""A balance A/B comparison (compare.py, paired.py) as one self-contained HTML file: what moved between the base
and the fork, each kind of figure charted as fork − base with its interval, the paired test's table.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .charts import interval_chart, legend
from .html import page, players_text
from .stats import pct


def _lead(r: dict) -> str:
    """A role row's flag, marked a lead when it does not survive Holm's correction (as the report marks it)."""
    return (r["flag"] or "") + ("" if not r["flag"] or r.get("holm", True) else " (lead)")


def _diff_tip(row: str, s: str, pt: dict) -> str:
    x = pt["figure"]
    moved = "moved" + ("" if x["holm"] else " (not after Holm)") if x["significant"] else "did not move"
    return (
        f"{row} · {s}: {_side(x, 'base')} → {_side(x, 'fork')}, {_diff(x)}, p = {x['p_value']:.3g}, {moved}; "
        f"games to see the difference: {x['games_needed'] or '—'}"
    )


def _side(x: dict, side: str) -> str:
    s = x[side]
    if "mean" in s:
        return f"{s['mean']:.1f} (n={s['n']})"
    return f"{pct(s['rate'])} ({s['won']}/{s['n']})"


def _diff(x: dict) -> str:
    if "mean" in x["base"]:
        return f"{x['difference']:+.2f} [{x['low']:+.2f}, {x['high']:+.2f}]"
    return f"{100 * x['difference']:+.1f} [{100 * x['low']:+.1f}, {100 * x['high']:+.1f}] points"


def diff_chart(figures: Sequence[dict], title: str) -> str:
    """Fork − base of proportions with Newcombe's 95% interval; one row per figure, a colour per player count."""
    rows = sorted({str(x["name"]) for x in figures})
    series = sorted({players_text(x["players"]) for x in figures}, key=lambda s: (s == "all counts", s.zfill(12)))
    points = {}
    for x in figures:
        flag = ("moved" if x["holm"] else "moved?") if x["significant"] else None
        points[str(x["name"]), players_text(x["players"])] = {
            "rate": x["difference"],
            "low": x["low"],
            "high": x["high"],
            "n": x["fork"]["n"],
            "flag": flag,
            "figure": x,
        }
    reach = max([abs(x["low"]) for x in figures] + [abs(x["high"]) for x in figures] + [0.05])
    reach = next(r for r in (0.05, 0.1, 0.25, 0.5, 1.0) if r >= min(reach, 1.0))  # ticks at a tenth of a round figure
    return legend(series) + interval_chart(rows, series, points, title, domain=(-reach, reach), tip=_diff_tip)


def compare_table(figures: Sequence[dict], detect: str) -> str:
    rows = []
    for x in sorted(figures, key=lambda x: (x["p_value"], str(x["name"]))):
        cls = ' class="sig"' if x["significant"] else ""
        moved = ("yes" if x["holm"] else "yes, not after Holm") if x["significant"] else ""
        needed = "" if x["games_needed"] is None else f"{x['games_needed']:,}"
        rows.append(
            f'<tr{cls}><td class="name">{escape(str(x["name"]))}</td><td>{escape(players_text(x["players"]))}</td>'
            f"<td>{escape(_side(x, 'base'))}</td><td>{escape(_side(x, 'fork'))}</td><td>{escape(_diff(x))}</td>"
            f'<td>{x["p_value"]:.3g}</td><td class="name">{moved}</td><td>{needed}</td></tr>'
        )
    return (
        '<table><tr><th class="name">figure</th><th>players</th><th>base</th><th>fork</th><th>fork − base [95%]</th>'
        f'<th>p</th><th class="name">moved</th><th>games per side to see {escape(detect)}</th></tr>'
        f"{''.join(rows)}</table>"
    )


COMPARE_KINDS = {
    "identity": "Win rate by identity",
    "task": "Win rate by secret task",
    "role": "Win rate by role",
    "end_reason": "How games ended (share of games)",
    "turns": "Turns per game",
    "decisions": "Decisions per game",
}


def paired_section(paired: dict | None) -> str:
    """The paired comparison (paired.py) as a table: the same deals under both packs, McNemar's test."""
    if not paired or not paired.get("figures"):
        return ""
    rows = []
    for x in paired["figures"]:
        mean = "mean" in x["base"]

        def side(v: dict, mean: bool = mean) -> str:
            return f"{v['mean']:.1f}" if mean else pct(v["rate"])

        k = 1 if mean else 100
        saved = "" if x["games_saved"] is None else f"{100 * x['games_saved']:.0f}% (×{x['variance_ratio']:.2f})"
        rows.append(
            f"<tr><td>{escape(PAIRED_HEADS[x['kind']])}: {escape(str(x['name']))} · "
            f"{escape(players_text(x['players']))}</td><td>{x['n']}</td><td>{side(x['base'])}</td><td>{side(x['fork'])}</td>"
            f"<td>{k * x['difference']:+.1f} [{k * x['low']:+.1f}, {k * x['high']:+.1f}]</td>"
            f"<td>{x['p_value']:.2g}</td><td>{saved}</td></tr>"
        )
    return (
        f'<h2>Paired: the same {paired["games_paired"]} deals under both packs</h2><table class="paired"><tr>'
        "<th>figure</th><th>games</th><th>base</th><th>fork</th><th>Δ [95%]</th><th>p (McNemar)</th>"
        f"<th>games saved by pairing</th></tr>{''.join(rows)}</table>"
        '<p class="note">Each game is played from the same seed under both packs (a pinned sweep deals both packs '
        "alike wherever they share cards and roles), so the figures are compared game by game: McNemar's exact "
        "test on the games won under one pack only. <i>Games saved</i>: the share of games two independent samples "
        "would need on top for the same precision (in brackets, the variance ratio).</p>"
    )


PAIRED_HEADS = {"pinned_seat": "pinned seat won", "identity": "a seat of the identity won", "turns": "turns per game"}


def render_compare(result: dict, title: str = "fengsheng balance A/B") -> str:
    """The A/B comparison as one HTML document."""
    body = [f"<h1>{escape(title)}</h1>"]
    for p in result["pairs"]:
        body.append(
            f'<p class="meta">{escape(players_text(p["players"]))} · {escape(p["agents"])}: base '
            f"<b>{escape(p['base_pack'])}</b> ({p['base_games']} games) vs fork <b>{escape(p['fork_pack'])}</b> "
            f"({p['fork_games']} games)</p>"
        )
    body.append(paired_section(result.get("paired")))
    moved = sorted((x for x in result["figures"] if x["significant"]), key=lambda x: x["p_value"])
    holm_count = sum(1 for x in moved if x["holm"])
    if moved:
        items = "".join(
            f'<li><span class="tag {"up" if x["difference"] > 0 else "down"}">{escape(x["kind"])}</span>'
            + ("" if x["holm"] else '<span class="tag lead">not after Holm</span>')
            + f'<b>{escape(str(x["name"]))}</b> <span class="meta">[{escape(players_text(x["players"]))}]</span> '
            f"{escape(_diff(x))}, p = {x['p_value']:.3g}</li>"
            for x in moved
        )
        body.append(
            f'<div class="flags"><b>Moved at the 5% level: {len(moved)} of {result["figures_tested"]} figures '
            f"({holm_count} after Holm's correction)</b><ul>{items}</ul></div>"
        )
    else:
        body.append(f'<div class="flags none"><b>No figure moved</b> ({result["figures_tested"]} compared).</div>')
    body.append(
        '<p class="note">Each proportion is compared with the two-proportion z test; the interval is Newcombe\'s '
        "for the difference (fork − base). Means use Welch's z. With many figures some move by chance (about 5 in "
        "100 at the 5% level): only a move that survives Holm's correction over every figure is a finding; "
        "the others are leads. <i>Games per side to see</i> is how many games each side needs for an 80% chance of "
        f"seeing a difference of {100 * result['detect']:g} points ({result['detect_turns']:g} turn for turns) at "
        "the 5% level: a figure that did not move with far fewer games than that is not shown to be unchanged.</p>"
    )
    for kind, heading in COMPARE_KINDS.items():
        figures = [x for x in result["figures"] if x["kind"] == kind]
        if not figures:
            continue
        body.append(f"<h2>{escape(heading)}</h2>")
        if kind not in ("turns", "decisions"):
            body.append(diff_chart(figures, heading + ": fork − base"))
        detect = f"{result['detect_turns']:g} turn" if kind == "turns" else f"{100 * result['detect']:g} points"
        table = compare_table(figures, "—" if kind == "decisions" else detect)
        if kind == "role":
            body.append(f"<details><summary>Table ({len(figures)} figures)</summary>{table}</details>")
        else:
            body.append(table)
    if result["only_fork"]:
        body.append("<h2>Roles only in the fork</h2>")
        body.append(
            '<p class="note">Against the fork\'s own pool: its expected rate is what the other roles won with the '
            "same identities.</p>"
        )
        rows = "".join(
            f'<tr><td class="name">{escape(str(r["name"]))}</td><td>{escape(players_text(r["players"]))}</td>'
            f"<td>{r['won']}</td><td>{r['n']}</td><td>{pct(r['rate'])}</td>"
            f"<td>{100 * r['low']:.1f}–{100 * r['high']:.1f}%</td><td>{pct(r['expected'])}</td>"
            f'<td class="name">{escape(_lead(r))}</td></tr>'
            for r in result["only_fork"]
        )
        body.append(
            '<table><tr><th class="name">role</th><th>players</th><th>won</th><th>n</th><th>rate</th>'
            f'<th>95% interval</th><th>expected</th><th class="name">flag</th></tr>{rows}</table>'
        )
    if result["only_base"]:
        names = sorted({str(r["name"]) for r in result["only_base"]})
        body.append(f"<h2>Roles only in the base</h2><p>{escape(', '.join(names))}</p>")
    return page(title, "\n".join(body))
