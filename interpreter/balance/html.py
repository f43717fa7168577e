"""Balance reports as one self-contained HTML file: inline CSS, charts drawn here as inline SVG.

Nothing is fetched: no script, no stylesheet, no font, no image from anywhere (the file opens offline
and can be mailed). Chinese names render with the reader's CJK fonts (Noto Sans CJK first).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

from .report import ALL
from .stats import pct
from .terminal import FLAG_TEXT, group_title, pins_text

SERIES_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"]
REASON_COLOURS = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac"]

CSS = """
body { font-family: "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei",
  sans-serif; margin: 24px auto; max-width: 1100px; color: #222; padding: 0 16px; }
h1 { font-size: 24px; margin-bottom: 4px; } h2 { font-size: 20px; margin-top: 36px; border-bottom: 2px solid #ddd; }
h3 { font-size: 16px; margin: 20px 0 6px; }
.meta, .note { color: #555; font-size: 13px; }
.flags { border: 1px solid #e0b4b4; background: #fff6f6; padding: 8px 16px; border-radius: 6px; }
.flags.none { border-color: #b4e0b4; background: #f6fff6; }
.flags li { margin: 3px 0; font-size: 14px; }
.tag { display: inline-block; font-size: 11px; font-weight: bold; padding: 1px 6px; border-radius: 3px; color: #fff;
  margin-right: 6px; }
.tag.strong { background: #c0392b; } .tag.weak { background: #2c6fbb; } .tag.unused, .tag.rare { background: #8e44ad; }
.tag.failures { background: #555; } .tag.lead { background: #bbb; color: #222; }
.tag.up { background: #c0392b; } .tag.down { background: #2c6fbb; }
.tag.open, .tag.unseen { background: #7f8c8d; } .tag.new { background: #27ae60; }
.verdicts { background: #f4faf4; border: 1px solid #cde5cd; padding: 4px 14px; border-radius: 4px; }
table { border-collapse: collapse; font-size: 13px; margin: 6px 0 12px; }
th, td { padding: 3px 8px; border-bottom: 1px solid #eee; text-align: right; }
th { background: #f4f4f4; } td.name, th.name { text-align: left; }
tr.strong td { background: #fdecea; } tr.weak td { background: #eaf1fb; } tr.sig td { background: #fff7e0; }
details { margin: 8px 0; } summary { cursor: pointer; font-weight: bold; }
svg text { font-family: inherit; }
.legend span { display: inline-block; margin-right: 14px; font-size: 13px; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; border-radius: 5px; }
"""


def _lead(r: dict) -> str:
    """A role row's flag, marked a lead when it does not survive Holm's correction (as the report marks it)."""
    return (r["flag"] or "") + ("" if not r["flag"] or r.get("holm", True) else " (lead)")


def page(title: str, body: str) -> str:
    """A whole HTML document around `body`."""
    return (
        '<!DOCTYPE html>\n<html lang="zh-Hans"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n</body></html>\n"
    )


def _w(text: str) -> int:
    """The width in pixels of a label at 13px (a CJK character is a square)."""
    return sum(13 if ord(ch) > 0x2E80 else 7 for ch in text)


# ---------------------------------------------------------------------- charts


def _rate_tip(row: str, s: str, pt: dict) -> str:
    half = 100 * (pt["high"] - pt["low"]) / 2
    tip = f"{row} · {s}: {pct(pt['rate'])} of {pt['n']} (95% {100 * pt['low']:.1f}–{100 * pt['high']:.1f}%, "
    tip += f"±{half:.1f} points)"
    if pt.get("expected") is not None:
        tip += f", expected {pct(pt['expected'])}"
    return tip


def rate_domain(points: dict) -> tuple[float, float]:
    """0 to a tenth past the highest interval's end: the rates spread over the chart's width."""
    top = max([p["high"] for p in points.values() if p.get("rate") is not None] + [0.0])
    return 0.0, min(1.0, math.ceil((top + 0.02) * 10) / 10)


def interval_chart(
    rows: Sequence[str],
    series: Sequence[str],
    points: dict,
    title: str = "",
    domain: tuple[float, float] | None = None,
    tip: Callable[[str, str, dict], str] = _rate_tip,
) -> str:
    """Values with their 95% intervals: one line per row, one dot and error bar per series (a colour each).

    ``points[(row, series)]`` is a report row (``rate``, ``low``, ``high``, ``n``, optionally
    ``expected`` drawn as a grey tick, and ``flag``: the dot is filled and the flag written at the
    right). ``domain``: the values at the two ends of the axis (rates: 0 to 1; differences: ±d,
    with a line at 0)."""
    label_w = max([_w(r) for r in rows] + [60]) + 12
    plot_w = 560
    step = 9
    row_h = max(22, 8 + step * len(series))
    top = 24
    height = top + row_h * len(rows) + 28
    width = label_w + plot_w + 70
    lo_d, hi_d = domain or rate_domain(points)

    def x(v: float) -> float:
        v = min(max(v, lo_d), hi_d)
        return label_w + plot_w * (v - lo_d) / (hi_d - lo_d)

    out = [f'<svg width="{width}" height="{height}" role="img">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    ticks = (
        [lo_d + (hi_d - lo_d) * k / 10 for k in range(11)]
        if lo_d < 0
        else [k / 10 for k in range(round(hi_d * 10) + 1)]
    )
    for k, value in enumerate(ticks):
        xx = x(value)
        colour = "#999" if abs(value) < 1e-9 and lo_d < 0 else "#bbb" if k % 5 == 0 else "#eee"
        label = f"{100 * value:+.0f}" if lo_d < 0 else f"{100 * value:.0f}%"
        out.append(f'<line x1="{xx:.1f}" y1="{top - 4}" x2="{xx:.1f}" y2="{height - 24}" stroke="{colour}"/>')
        out.append(f'<text x="{xx:.1f}" y="{height - 8}" font-size="11" text-anchor="middle">{label}</text>')
    for i, row in enumerate(rows):
        y0 = top + i * row_h
        if i % 2:
            out.append(f'<rect x="0" y="{y0}" width="{label_w + plot_w}" height="{row_h}" fill="#fafafa"/>')
        ty = y0 + row_h / 2 + 4
        out.append(f'<text x="{label_w - 8}" y="{ty:.1f}" font-size="13" text-anchor="end">{escape(row)}</text>')
        for j, s in enumerate(series):
            pt = points.get((row, s))
            if pt is None or pt.get("rate") is None:
                continue
            y = y0 + (row_h - step * len(series)) / 2 + step * j + step / 2
            colour = SERIES_COLOURS[j % len(SERIES_COLOURS)]
            if pt.get("expected") is not None:
                ex = x(pt["expected"])
                out.append(_line(ex, y - 4, ex, y + 4, "#888", 2))
            out.append(f"<g><title>{escape(tip(row, s, pt))}</title>")
            out.append(_line(x(pt["low"]), y, x(pt["high"]), y, colour, 1.5))
            for end in (pt["low"], pt["high"]):
                out.append(_line(x(end), y - 3, x(end), y + 3, colour, 1))
            filled = colour if pt.get("flag") else "#fff"
            out.append(
                f'<circle cx="{x(pt["rate"]):.1f}" cy="{y:.1f}" r="3.5" fill="{filled}" stroke="{colour}" '
                'stroke-width="1.5"/>'
            )
            out.append("</g>")
            if pt.get("flag"):
                out.append(
                    f'<text x="{label_w + plot_w + 6}" y="{y + 4:.1f}" font-size="11" fill="{colour}">'
                    f"{escape(pt['flag'])}</text>"
                )
    out.append("</svg>")
    return "".join(out)


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, width: float) -> str:
    return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" stroke-width="{width:g}"/>'


def legend(series: Sequence[str], extra: str = "") -> str:
    items = "".join(
        f'<span><i style="background:{SERIES_COLOURS[j % len(SERIES_COLOURS)]}"></i>{escape(s)}</span>'
        for j, s in enumerate(series)
    )
    return f'<div class="legend">{items}{extra}</div>'


def histogram(values: Sequence[Sequence[int]], title: str, what: str = "turns") -> str:
    """A histogram from (value, games) pairs; values past the 98th percentile go to one last bar."""
    if not values:
        return ""
    flat = sorted(v for v, k in values for _ in range(k))
    lo = flat[0]
    cap = flat[min(len(flat) - 1, math.ceil(0.98 * (len(flat) - 1)))]
    width_bins = max(1, math.ceil((cap - lo + 1) / 40))
    nbins = (cap - lo) // width_bins + 1
    counts = [0] * nbins
    over = 0
    for v in flat:
        if v > cap:
            over += 1
        else:
            counts[(v - lo) // width_bins] += 1
    bars = counts + ([over] if over else [])
    w, h, left, bottom = 560, 150, 40, 30
    bw = w / len(bars)
    peak = max(bars)
    out = [f'<svg width="{w + left + 10}" height="{h + bottom + 10}" role="img">']
    out.append(f"<title>{escape(title)}</title>")
    out.append(f'<line x1="{left}" y1="{h}" x2="{left + w}" y2="{h}" stroke="#999"/>')
    out.append(f'<text x="{left - 4}" y="12" font-size="11" text-anchor="end">{peak}</text>')
    out.append(f'<text x="{left - 4}" y="{h}" font-size="11" text-anchor="end">0</text>')
    label_every = max(1, math.ceil(len(bars) / 12))
    for i, k in enumerate(bars):
        bh = (h - 8) * k / peak if peak else 0
        xx = left + i * bw
        if i < nbins:
            a = lo + i * width_bins
            name = f"{a}" if width_bins == 1 else f"{a}–{a + width_bins - 1}"
        else:
            name = f">{cap}"
        fill = "#999" if i >= nbins else "#4c78a8"
        out.append(
            f'<rect x="{xx + 1:.1f}" y="{h - bh:.1f}" width="{max(bw - 2, 1):.1f}" height="{bh:.1f}" fill="{fill}">'
            f"<title>{escape(name)} {what}: {k} games</title></rect>"
        )
        if i % label_every == 0 or i >= nbins:
            out.append(
                f'<text x="{xx + bw / 2:.1f}" y="{h + 14}" font-size="11" text-anchor="middle">{escape(name)}</text>'
            )
    out.append(
        f'<text x="{left + w / 2}" y="{h + 28}" font-size="11" text-anchor="middle">{escape(what)} per game</text>'
    )
    out.append("</svg>")
    return "".join(out)


def reason_bars(groups: Sequence[dict]) -> str:
    """How games ended: one stacked bar per group (player count), a colour per ending."""
    reasons: list[str] = []
    for g in groups:
        for r in g["end_reasons"]:
            if r["reason"] not in reasons:
                reasons.append(r["reason"])
    if not reasons:
        return ""
    colour = {r: REASON_COLOURS[i % len(REASON_COLOURS)] for i, r in enumerate(reasons)}
    label_w, w, bh = 140, 560, 22
    out = [f'<svg width="{label_w + w + 10}" height="{len(groups) * (bh + 6) + 6}" role="img">']
    for i, g in enumerate(groups):
        y = 4 + i * (bh + 6)
        name = "all counts" if g["players"] == ALL else f"{g['players']} players"
        out.append(f'<text x="{label_w - 8}" y="{y + 15}" font-size="13" text-anchor="end">{escape(name)}</text>')
        xx = float(label_w)
        for r in g["end_reasons"]:
            rw = w * r["share"]
            out.append(
                f'<rect x="{xx:.1f}" y="{y}" width="{rw:.1f}" height="{bh}" fill="{colour[r["reason"]]}">'
                f"<title>{escape(r['reason'])}: {r['games']} games ({pct(r['share'])})</title></rect>"
            )
            if rw > 34:
                out.append(
                    f'<text x="{xx + rw / 2:.1f}" y="{y + 15}" font-size="11" fill="#fff" text-anchor="middle">'
                    f"{pct(r['share'])}</text>"
                )
            xx += rw
    out.append("</svg>")
    items = "".join(
        f'<span><i style="background:{colour[r]}"></i>{escape(r)} — {escape(_reason_text(groups, r))}</span>'
        for r in reasons
    )
    return "".join(out) + f'<div class="legend">{items}</div>'


def _reason_text(groups: Sequence[dict], reason: str) -> str:
    return next((r["text"] for g in groups for r in g["end_reasons"] if r["reason"] == reason), reason)


# ---------------------------------------------------------------------- tables


def rate_cells(r: dict) -> str:
    return (
        f"<td>{r['won']}</td><td>{r['n']}</td><td>{pct(r['rate'])}</td>"
        f"<td>{100 * r['low']:.1f}–{100 * r['high']:.1f}%</td><td>±{100 * r['half_width']:.1f}</td>"
    )


RATE_HEAD = "<th>won</th><th>n</th><th>rate</th><th>95% interval</th><th>± points</th>"


def role_table(g: dict, new: set[str] | frozenset[str] = frozenset()) -> str:
    rows = []
    for r in sorted(g["roles"], key=lambda r: -(r["rate"] or 0)):
        flag = r["flag"] or ""
        cls = f' class="{flag}"' if flag else ""
        lead = "" if not flag or r["holm"] else ' <span class="tag lead">lead</span>'
        rows.append(
            f'<tr{cls}><td class="name">{escape(str(r["name"]))}{NEW_TAG if r["name"] in new else ""}</td>'
            f"{rate_cells(r)}<td>{pct(r['expected'])}</td>"
            f'<td>{r["p_value"]:.3g}</td><td class="name">{escape(flag)}{lead}</td>'
            f"<td>{r['seats_for_5_points']}</td></tr>"
        )
    return (
        f'<table><tr><th class="name">role</th>{RATE_HEAD}<th>expected</th><th>p</th><th class="name">flag</th>'
        f"<th>seats for ±5</th></tr>{''.join(rows)}</table>"
    )


def simple_table(rows: Sequence[dict], head: str, new: set[str] | frozenset[str] = frozenset()) -> str:
    body = "".join(
        f'<tr><td class="name">{escape(str(r["name"]))}{NEW_TAG if r["name"] in new else ""}</td>{rate_cells(r)}</tr>'
        for r in rows
    )
    return f'<table><tr><th class="name">{escape(head)}</th>{RATE_HEAD}</tr>{body}</table>'


def skill_table(g: dict) -> str:
    rows = []
    for s in sorted(g["skills"], key=lambda s: (s["flag"] is None, s["role"], s["skill"])):
        flag = s["flag"] or ""
        per_game = "" if s["uses_per_game"] is None else f"{s['uses_per_game']:.2f}"
        rows.append(
            f'<tr><td class="name">{escape(s["role"])}·{escape(s["skill"])}</td>'
            f'<td class="name">{escape(s["kind"] or "")}</td>'
            f"<td>{s['games_in_play']}</td><td>{s['games_used']}</td><td>{pct(s['share_of_games']['rate'])}</td>"
            f"<td>{s['uses']}</td><td>{per_game}</td>"
            f'<td class="name">{escape(flag)}</td></tr>'
        )
    return (
        '<table><tr><th class="name">skill</th><th class="name">kind</th><th>games in play</th><th>games used</th>'
        f'<th>share</th><th>uses</th><th>uses / game</th><th class="name">flag</th></tr>{"".join(rows)}</table>'
    )


def length_table(groups: Sequence[dict]) -> str:
    rows = []
    for g in groups:
        name = "all counts" if g["players"] == ALL else f"{g['players']} players"
        for what in ("turns", "decisions"):
            s = g[what]
            if s["games"]:
                rows.append(
                    f'<tr><td class="name">{escape(name)}</td><td class="name">{what}</td><td>{s["games"]}</td>'
                    f"<td>{s['mean']:.1f}</td><td>{s['median']:g}</td><td>{s['p10']:g}</td><td>{s['p90']:g}</td>"
                    f"<td>{s['min']}</td><td>{s['max']}</td></tr>"
                )
    return (
        '<table><tr><th class="name">players</th><th class="name">figure</th><th>games</th><th>mean</th><th>median</th>'
        f"<th>10%</th><th>90%</th><th>min</th><th>max</th></tr>{''.join(rows)}</table>"
    )


# ---------------------------------------------------------------------- the report


def _flag_item(f: dict) -> str:
    players = "all counts" if f["players"] == ALL else f"{f['players']} players"
    lead = "" if f.get("holm", True) else '<span class="tag lead">lead</span>'
    return (
        f'<li><span class="tag {f["kind"]}">{escape(FLAG_TEXT[f["kind"]])}</span>{lead}'
        f"<b>{escape(str(f['subject']))}</b> "
        f'<span class="meta">[{escape(f["pack"])} · {escape(f["agents"])} · {players}]</span> '
        f"{escape(f['text'])}</li>"
    )


def flag_list(flags: Sequence[dict]) -> str:
    """The flags: findings listed, leads (strong/weak before Holm's correction only) folded below them."""
    if not flags:
        return (
            '<div class="flags none"><b>No flags.</b> No role\'s interval excludes its expected rate, '
            "no skill is unused.</div>"
        )
    findings = [f for f in flags if f.get("holm", True)]
    leads = [f for f in flags if not f.get("holm", True)]
    out = [f'<div class="flags"><b>Flags ({len(findings)})</b>']
    out.append(
        f"<ul>{''.join(map(_flag_item, findings))}</ul>" if findings else "<p>None that survives Holm's correction.</p>"
    )
    if leads:
        out.append(
            f"<details><summary>{len(leads)} leads: outside the expected rate, but not after Holm's correction "
            f"(play more games)</summary><ul>{''.join(map(_flag_item, leads))}</ul></details>"
        )
    out.append("</div>")
    return "".join(out)


def new_role_section(report: dict) -> str:
    """The roles a pack adds to the game, first: their win rate per player count and their skills' use."""
    out = []
    for pack, names in report.get("new_roles", {}).items():
        groups = [g for g in report["groups"] if g["pack"] == pack]
        series = [_series(g) for g in groups]
        pts = {
            (r["name"], _series(g)): {**r, "flag": r["flag"] and r["flag"] + ("" if r["holm"] else "?")}
            for g in groups
            for r in g["roles"]
            if r["name"] in names
        }
        out.append(f'<h2>New roles in {escape(pack)} <span class="meta">(not in the bundled game)</span></h2>')
        tick = '<span><i style="background:#888;border-radius:0;width:3px"></i>expected (same identities)</span>'
        out.append(legend(series, tick) + interval_chart(names, series, pts, f"new roles in {pack}"))
        rows = []
        for name in names:
            for g in groups:
                r = next((r for r in g["roles"] if r["name"] == name), None)
                if r is None:
                    continue
                lead = "" if not r["flag"] or r["holm"] else " (lead)"
                rows.append(
                    f'<tr><td class="name">{escape(name)}</td><td>{escape(_series(g))}</td>{rate_cells(r)}'
                    f'<td>{pct(r["expected"])}</td><td class="name">{escape((r["flag"] or "") + lead)}</td>'
                    f"<td>{r['seats_for_5_points']}</td></tr>"
                )
        out.append(
            f'<table><tr><th class="name">role</th><th>players</th>{RATE_HEAD}<th>expected</th>'
            f'<th class="name">flag</th><th>seats for ±5</th></tr>{"".join(rows)}</table>'
        )
        pooled = next((g for g in groups if g["players"] == ALL), groups[-1] if groups else None)
        skills = [sk for sk in (pooled or {}).get("skills", []) if sk["role"] in names]
        if skills:
            items = "".join(
                f"<li><b>{escape(sk['role'])}·{escape(sk['skill'])}</b>: used in {sk['games_used']} of the "
                f"{sk['games_in_play']} games its role was in play ({pct(sk['share_of_games']['rate'])}), "
                f"{sk['uses_per_game'] or 0:.2f} uses per game"
                + (f' <span class="tag {sk["flag"]}">{escape(FLAG_TEXT[sk["flag"]])}</span>' if sk["flag"] else "")
                + "</li>"
                for sk in skills
            )
            out.append(f"<ul>{items}</ul>")
    return "\n".join(out)


def _series(g: dict) -> str:
    return "all counts" if g["players"] == ALL else f"{g['players']} players"


ROLES_PER_CHART = 40  # rows of one role chart: more roles are paged into folded charts below it


def role_charts(roles: Sequence[str], pooled: dict, series: str, pts: dict, tick: str) -> str:
    """The role chart, readable with 60+ roles: one dot and interval per role (the group pooling the player
    counts, or the one count; the per-count figures are in the tables), sorted by how far the role is from its
    expected rate (the strongest first, the weakest last), ROLES_PER_CHART rows a chart, the rest folded."""
    gap = {r["name"]: (r["rate"] or 0) - (r["expected"] or 0) for r in pooled["roles"]}
    ordered = sorted((r for r in roles if (r, series) in pts), key=lambda r: (-gap.get(r, 0), str(r)))
    parts = []
    for start in range(0, len(ordered), ROLES_PER_CHART):
        page = ordered[start : start + ROLES_PER_CHART]
        chart = legend([series], tick) + interval_chart(page, [series], pts, "win rate by role")
        if start == 0:
            parts.append(chart)
        else:
            parts.append(
                f"<details><summary>roles {start + 1}–{start + len(page)} of {len(ordered)}</summary>{chart}</details>"
            )
    return "".join(parts)


def diff_section(report: dict) -> str:
    """What each fork of the sweep changes of the bundled game (`pack diff`), folded."""
    out = []
    for pack, d in (report.get("pack_diffs") or {}).items():
        items = "".join(f"<li>{escape(line)}</li>" for line in d["lines"])
        out.append(
            f'<details class="diff"><summary><b>What {escape(pack)} changes</b> ({len(d["changes"])} changes: '
            f"pack diff against the bundled game)</summary><ul>{items}</ul></details>"
        )
    return "".join(out)


def verdict_section(report: dict) -> str:
    """Is my new thing balanced? A verdict in words on each new role, card and task, first on the page."""
    verdicts = report.get("verdicts") or []
    if not verdicts:
        return ""
    items = "".join(
        f'<li><span class="tag {escape(v["status"])}">{escape(v["status"])}</span> new {escape(v["kind"])} '
        f'<b>{escape(str(v["name"]))}</b> <span class="meta">[{escape(v["pack"])} · {escape(v["agents"])} · '
        f"{escape(_players(v['players']))}]</span>: {escape(v['text'])}</li>"
        for v in verdicts
    )
    return f'<div class="verdicts"><h2>Is my new thing balanced?</h2><ul>{items}</ul></div>'


NEW_TAG = ' <span class="tag new">new</span>'


def card_table(g: dict, new: set[str]) -> str:
    """Each card's uses per game and the win rate of the seats that used it, new cards marked."""
    rows = "".join(
        f"<tr><td>{escape(r['name'])}{NEW_TAG if r['name'] in new else ''}</td>"
        f"<td>{r['uses_per_game']:.2f}</td><td>{r['won']}/{r['n']}</td><td>{pct(r['rate'])}</td>"
        f"<td>{pct(r['low'])}–{pct(r['high'])}</td><td>{pct(r['expected'])}</td></tr>"
        for r in g["cards"]
    )
    return (
        '<table class="cards"><tr><th>card</th><th>uses per game</th><th>users won</th><th>rate</th><th>95%</th>'
        f"<th>every seat</th></tr>{rows}</table>"
    )


def render_report(report: dict, title: str = "fengsheng balance report") -> str:
    """The whole report as one HTML document."""
    sw = report["sweep"]
    body = [f"<h1>{escape(title)}</h1>"]
    body.append(
        f'<p class="meta">fengsheng {escape(str(sw["version"]))} · seed {sw["seed"]} · '
        f"players {escape(str(sw['players']))} · agents {escape(', '.join(map(str, sw['agents'] or [])))} · "
        f"packs {escape(', '.join(map(str, sw['packs'])))} · "
        f"{sw['games_per_cell']} games per cell · {sw['records']} games read</p>"
    )
    body += [f'<p class="note"><b>Note:</b> {escape(t)}</p>' for t in report.get("pack_notes", {}).values()]
    pinned = pins_text(sw.get("pins"))
    if pinned:
        body.append(f'<p class="pinned"><b>Pinned:</b> {escape(pinned)}</p>')
    body.append(verdict_section(report))
    body.append(diff_section(report))
    body.append(flag_list(report["flags"]))
    body.append(new_role_section(report))
    body.append(
        '<p class="note">Every rate is seats that won / seats played, with its Wilson 95% interval (the bar) '
        "and how many seats it rests on (n). A role's <b>expected</b> rate (grey tick) is what the other roles "
        "won with the same identities at the same table size; it is flagged <b>strong</b> or <b>weak</b> when "
        f"its whole interval lies above or below that (after at least {report['rules']['min_role_seats']} seats). "
        "With dozens of roles about one in twenty is flagged by chance: a flag marked <i>lead</i> does not survive "
        "Holm's correction and needs more games. A skill is flagged when its role was in play in at "
        f"least {report['rules']['min_skill_games']} games and it was used in none (unused) or in under "
        f"{100 * report['rules']['rare_skill_share']:.0f}% of them (rare).</p>"
    )
    by_pack: dict[tuple[str, str], list[dict]] = {}
    for g in report["groups"]:
        by_pack.setdefault((g["pack"], g["agents"]), []).append(g)
    for (pack, agents), groups in by_pack.items():
        series = [_series(g) for g in groups]
        games = sum(g["games"] for g in groups if g["players"] != ALL)
        body.append(f'<h2>{escape(pack)} · {escape(agents)} <span class="meta">({games} games)</span></h2>')
        roles = sorted({r["name"] for g in groups for r in g["roles"]}, key=str)
        pooled = groups[-1]
        order = {r["name"]: -(r["rate"] or 0) for r in pooled["roles"]}
        roles.sort(key=lambda r: (order.get(r, 0), str(r)))
        body.append("<h3>Win rate by identity</h3>")
        idents = sorted({r["name"] for g in groups for r in g["identities"]}, key=str)
        pts = {(r["name"], _series(g)): r for g in groups for r in g["identities"]}
        body.append(legend(series) + interval_chart(idents, series, pts, "win rate by identity"))
        tasks = sorted({r["name"] for g in groups for r in g["tasks"]}, key=str)
        if tasks:
            body.append("<h3>Win rate by secret task</h3>")
            pts = {(r["name"], _series(g)): r for g in groups for r in g["tasks"]}
            body.append(legend(series) + interval_chart(tasks, series, pts, "win rate by secret task"))
        body.append("<h3>Win rate by role</h3>")
        pts = {  # a lead (not significant after Holm's correction) is marked with a question mark
            (r["name"], _series(g)): {**r, "flag": r["flag"] and r["flag"] + ("" if r["holm"] else "?")}
            for g in groups
            for r in g["roles"]
        }
        tick = '<span><i style="background:#888;border-radius:0;width:3px"></i>expected (same identities)</span>'
        body.append(role_charts(roles, pooled, _series(pooled), pts, tick))
        body.append("<h3>Game length</h3>")
        body.append(length_table(groups))
        for g in groups:
            if g["players"] != ALL or len(groups) == 1:
                body.append(f'<div class="meta">{escape(_series(g))}: turns</div>')
                body.append(histogram(g["turns"]["histogram"], f"turns per game, {_series(g)}"))
        body.append("<h3>How games ended</h3>")
        body.append(reason_bars(groups))
        for g in groups:
            body.append(f"<details><summary>Tables: {escape(group_title(g))}</summary>")
            body.append(simple_table(g["identities"], "identity"))
            if g["tasks"]:
                news = (report.get("new_items") or {}).get(g["pack"], {})
                body.append(simple_table(g["tasks"], "secret task", set(news.get("tasks", []))))
            body.append(role_table(g, set((report.get("new_items") or {}).get(g["pack"], {}).get("roles", []))))
            if g["skills"]:
                body.append(skill_table(g))
            if g.get("cards"):
                new = set((report.get("new_items") or {}).get(g["pack"], {}).get("cards", []))
                body.append(card_table(g, new))
            if g["failures"] and g["players"] != ALL:  # (a group pooling every player count: theirs again)
                items = "".join(
                    f"<li>game {f['index']} (game seed {f['seed']}): {escape(str(f['failed']))}"
                    + (f"<br><code>{escape(f['rerun'])}</code>" if f.get("rerun") else "")
                    + "</li>"
                    for f in g["failures"]
                )
                body.append(f"<p>Failed games:</p><ul>{items}</ul>")
            body.append("</details>")
    return page(title, "\n".join(body))


# ---------------------------------------------------------------------- A/B


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


def _players(p: object) -> str:
    return "all counts" if p == ALL else f"{p} players"


def diff_chart(figures: Sequence[dict], title: str) -> str:
    """Fork − base of proportions with Newcombe's 95% interval; one row per figure, a colour per player count."""
    rows = sorted({str(x["name"]) for x in figures})
    series = sorted({_players(x["players"]) for x in figures}, key=lambda s: (s == "all counts", s.zfill(12)))
    points = {}
    for x in figures:
        flag = ("moved" if x["holm"] else "moved?") if x["significant"] else None
        points[str(x["name"]), _players(x["players"])] = {
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
            f'<tr{cls}><td class="name">{escape(str(x["name"]))}</td><td>{escape(_players(x["players"]))}</td>'
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
            f"<tr><td>{escape(PAIRED_HEADS[x['kind']])}: {escape(str(x['name']))} · {escape(_players(x['players']))}"
            f"</td><td>{x['n']}</td><td>{side(x['base'])}</td><td>{side(x['fork'])}</td>"
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
            f'<p class="meta">{escape(_players(p["players"]))} · {escape(p["agents"])}: base '
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
            + f'<b>{escape(str(x["name"]))}</b> <span class="meta">[{escape(_players(x["players"]))}]</span> '
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
            f'<tr><td class="name">{escape(str(r["name"]))}</td><td>{escape(_players(r["players"]))}</td>'
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
