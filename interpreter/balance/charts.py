"""The balance report's charts as inline SVG: rates with their 95% intervals (``interval_chart``), a histogram of
a game-length figure, the stacked bars of how games ended, and their legends. Used by html.py (the report) and
html_compare.py (A/B); nothing is fetched, every chart is text in the page.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from html import escape

from .messages import DEFAULT_LANG, say
from .stats import ALL, pct
from .words import reason_name

SERIES_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"]


REASON_COLOURS = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac"]


def _w(text: str) -> int:
    """The width in pixels of a label at 13px (a CJK character is a square)."""
    return sum(13 if ord(ch) > 0x2E80 else 7 for ch in text)


def rate_tip(row: str, s: str, pt: dict, lang: str = DEFAULT_LANG) -> str:
    """The tooltip of a rate's dot: its figure, interval and the rate expected of it."""
    half = 100 * (pt["high"] - pt["low"]) / 2
    tip = say(
        "chart_tip",
        lang,
        row=row,
        series=s,
        rate=pct(pt["rate"]),
        n=pt["n"],
        low=f"{100 * pt['low']:.1f}",
        high=f"{100 * pt['high']:.1f}%",
        half=f"{half:.1f}",
    )
    if pt.get("expected") is not None:
        tip += say("chart_tip_expected", lang, expected=pct(pt["expected"]))
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
    tip: Callable[[str, str, dict], str] | None = None,
    lang: str = DEFAULT_LANG,
    labels: Mapping[str, str] | None = None,
) -> str:
    """Values with their 95% intervals: one line per row, one dot and error bar per series (a colour each).

    ``points[(row, series)]`` is a report row (``rate``, ``low``, ``high``, ``n``, optionally
    ``expected`` drawn as a grey tick, and ``flag``: the dot is filled and the flag written at the
    right). ``domain``: the values at the two ends of the axis (rates: 0 to 1; differences: ±d,
    with a line at 0). ``tip``: a dot's tooltip (``rate_tip`` in `lang` when not given). ``labels``: a row's label
    where it is not the row itself (a new item's name marked new)."""
    if tip is None:

        def tip(row: str, s: str, pt: dict) -> str:
            return rate_tip(row, s, pt, lang)

    shown = {r: (labels or {}).get(r, r) for r in rows}
    label_w = max([_w(t) for t in shown.values()] + [60]) + 12
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
        out.append(f'<text x="{label_w - 8}" y="{ty:.1f}" font-size="13" text-anchor="end">{escape(shown[row])}</text>')
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


def histogram(values: Sequence[Sequence[int]], title: str, what: str, lang: str = DEFAULT_LANG) -> str:
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
            f"<title>{escape(say('histogram_bar', lang, name=name, what=what, games=k))}</title></rect>"
        )
        if i % label_every == 0 or i >= nbins:
            out.append(
                f'<text x="{xx + bw / 2:.1f}" y="{h + 14}" font-size="11" text-anchor="middle">{escape(name)}</text>'
            )
    out.append(
        f'<text x="{left + w / 2}" y="{h + 28}" font-size="11" text-anchor="middle">'
        f"{escape(say('per_game', lang, what=what))}</text>"
    )
    out.append("</svg>")
    return "".join(out)


def reason_bars(groups: Sequence[dict], lang: str = DEFAULT_LANG) -> str:
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
        name = say("all_counts", lang) if g["players"] == ALL else say("n_players", lang, n=g["players"])
        out.append(f'<text x="{label_w - 8}" y="{y + 15}" font-size="13" text-anchor="end">{escape(name)}</text>')
        xx = float(label_w)
        for r in g["end_reasons"]:
            rw = w * r["share"]
            out.append(
                f'<rect x="{xx:.1f}" y="{y}" width="{rw:.1f}" height="{bh}" fill="{colour[r["reason"]]}">'
                f"<title>{escape(_ending_tip(r, lang))}</title></rect>"
            )
            if rw > 34:
                out.append(
                    f'<text x="{xx + rw / 2:.1f}" y="{y + 15}" font-size="11" fill="#fff" text-anchor="middle">'
                    f"{pct(r['share'])}</text>"
                )
            xx += rw
    out.append("</svg>")
    items = "".join(
        f'<span><i style="background:{colour[r]}"></i>{escape(_reason_label(groups, r, lang))}</span>' for r in reasons
    )
    return "".join(out) + f'<div class="legend">{items}</div>'


def _ending_tip(r: dict, lang: str) -> str:
    return say("ending_bar", lang, reason=reason_name(r["reason"], lang), games=r["games"], share=pct(r["share"]))


def _reason_label(groups: Sequence[dict], reason: str, lang: str) -> str:
    """The legend's words for an ending: its short name, and in English the sentence sim.REASON_TEXT has."""
    name = reason_name(reason, lang)
    if lang != "en":
        return name
    return name + " — " + next((r["text"] for g in groups for r in g["end_reasons"] if r["reason"] == reason), reason)
