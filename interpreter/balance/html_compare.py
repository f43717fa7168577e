"""A balance A/B comparison (compare.py, paired.py) as one self-contained HTML file: what moved between the base
and the fork, each kind of figure charted as fork − base with its interval, the paired test's table; in Chinese
or English (``lang``; messages.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .charts import interval_chart, legend
from .html import ROLES_PER_CHART, page, players_text
from .messages import DEFAULT_LANG, say
from .stats import ALL, pct
from .words import figure_name, flag_name, paired_label, pins_differ_text


def _lead(r: dict, lang: str) -> str:
    """A role row's flag, marked a lead when it does not survive Holm's correction (as the report marks it)."""
    if not r["flag"]:
        return ""
    return flag_name(r["flag"], lang) + ("" if r.get("holm", True) else say("lead_suffix", lang))


def _side(x: dict, side: str, lang: str) -> str:
    s = x[side]
    if "mean" in s:
        return f"{s['mean']:.1f} (n={s['n']})"
    return f"{pct(s['rate'])} ({s['won']}/{s['n']})"


def _diff(x: dict, lang: str) -> str:
    if "mean" in x["base"]:
        return f"{x['difference']:+.2f} [{x['low']:+.2f}, {x['high']:+.2f}]"
    points = say("points_unit", lang)
    return f"{100 * x['difference']:+.1f} [{100 * x['low']:+.1f}, {100 * x['high']:+.1f}]{points}"


def _tip(lang: str):
    def tip(row: str, s: str, pt: dict) -> str:
        x = pt["figure"]
        moved = (
            say("tip_moved" if x["holm"] else "tip_moved_lead", lang)
            if x["significant"]
            else say("tip_not_moved", lang)
        )
        return say(
            "diff_tip",
            lang,
            row=row,
            series=s,
            base=_side(x, "base", lang),
            fork=_side(x, "fork", lang),
            diff=_diff(x, lang),
            p=f"{x['p_value']:.3g}",
            moved=moved,
            needed=x["games_needed"] or "—",
        )

    return tip


def diff_chart(figures: Sequence[dict], title: str, lang: str = DEFAULT_LANG) -> str:
    """Fork − base of proportions with Newcombe's 95% interval; one row per figure, a colour per player count;
    the figures that moved most first, ROLES_PER_CHART rows a chart, the rest folded (60+ roles stay readable)."""
    reach_of = {figure_name(x, lang): max(abs(x["difference"]), 0) for x in figures}
    rows = sorted({figure_name(x, lang) for x in figures}, key=lambda r: (-reach_of.get(r, 0), r))
    all_counts = players_text(ALL, lang)
    series = sorted({players_text(x["players"], lang) for x in figures}, key=lambda s: (s == all_counts, s.zfill(12)))
    points = {}
    for x in figures:
        flag = say("moved", lang) + ("" if x["holm"] else "?") if x["significant"] else None
        points[figure_name(x, lang), players_text(x["players"], lang)] = {
            "rate": x["difference"],
            "low": x["low"],
            "high": x["high"],
            "n": x["fork"]["n"],
            "flag": flag,
            "figure": x,
        }
    reach = max([abs(x["low"]) for x in figures] + [abs(x["high"]) for x in figures] + [0.05])
    reach = next(r for r in (0.05, 0.1, 0.25, 0.5, 1.0) if r >= min(reach, 1.0))  # ticks at a tenth of a round figure
    parts = []
    for start in range(0, len(rows), ROLES_PER_CHART):
        chunk = rows[start : start + ROLES_PER_CHART]
        svg = interval_chart(chunk, series, points, title, domain=(-reach, reach), tip=_tip(lang), lang=lang)
        chart = legend(series) + f'<div class="chart">{svg}</div>'
        if start == 0:
            parts.append(chart)
        else:
            summary = say("roles_range", lang, first=start + 1, last=start + len(chunk), total=len(rows))
            parts.append(f"<details><summary>{escape(summary)}</summary>{chart}</details>")
    return "".join(parts)


def _th(key: str, lang: str, name: bool = False, **fields: object) -> str:
    text = escape(say(key, lang, **fields))
    return f'<th class="name">{text}</th>' if name else f"<th>{text}</th>"


def compare_table(figures: Sequence[dict], detect: str, lang: str = DEFAULT_LANG) -> str:
    rows = []
    for x in sorted(figures, key=lambda x: (x["p_value"], str(x["name"]))):
        cls = ' class="sig"' if x["significant"] else ""
        moved = say("moved_yes" if x["holm"] else "moved_yes_lead", lang) if x["significant"] else ""
        needed = "" if x["games_needed"] is None else f"{x['games_needed']:,}"
        rows.append(
            f'<tr{cls}><td class="name">{escape(figure_name(x, lang))}</td>'
            f"<td>{escape(players_text(x['players'], lang))}</td>"
            f"<td>{escape(_side(x, 'base', lang))}</td><td>{escape(_side(x, 'fork', lang))}</td>"
            f"<td>{escape(_diff(x, lang))}</td>"
            f'<td>{x["p_value"]:.3g}</td><td class="name">{escape(moved)}</td><td>{needed}</td></tr>'
        )
    head = _th("figure", lang, True) + _th("players", lang) + _th("base", lang) + _th("fork", lang)
    head += _th("fork_minus_base_head", lang) + _th("p", lang) + _th("moved", lang, True)
    head += _th("games_to_see", lang, detect=detect)
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


COMPARE_KINDS = ("identity", "task", "role", "end_reason", "turns", "decisions")


def paired_section(paired: dict | None, lang: str = DEFAULT_LANG) -> str:
    """The paired comparison (paired.py) as a table: the same deals under both packs, McNemar's test."""
    if paired and paired.get("pins_differ"):
        why = pins_differ_text(paired["pins_differ"], lang, paired.get("pinned_names"))
        return f'<p class="note">{escape(why)}</p>'
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
            f"<tr><td>{escape(paired_label(x, lang, paired.get('pinned_names')))} · "
            f"{escape(players_text(x['players'], lang))}</td><td>{x['n']}</td><td>{side(x['base'])}</td>"
            f"<td>{side(x['fork'])}</td>"
            f"<td>{k * x['difference']:+.1f} [{k * x['low']:+.1f}, {k * x['high']:+.1f}]</td>"
            f"<td>{x['p_value']:.2g}</td><td>{saved}</td></tr>"
        )
    head = _th("figure", lang) + _th("games", lang) + _th("base", lang) + _th("fork", lang)
    head += _th("delta95", lang) + _th("p_mcnemar", lang) + _th("games_saved", lang)
    return (
        f"<h2>{escape(say('paired_heading', lang, n=paired['games_paired']))}</h2>"
        f'<table class="paired"><tr>{head}</tr>{"".join(rows)}</table>'
        f'<p class="note">{say("paired_note", lang)}</p>'
    )


def render_compare(result: dict, title: str | None = None, lang: str = DEFAULT_LANG) -> str:
    """The A/B comparison as one HTML document, in `lang`."""
    title = title or say("ab_title", lang)
    body = [f"<h1>{escape(title)}</h1>"]
    for p in result["pairs"]:
        line = say(
            "ab_pair_html",
            lang,
            players=escape(players_text(p["players"], lang)),
            agents=escape(p["agents"]),
            base=escape(p["base_pack"]),
            base_games=p["base_games"],
            fork=escape(p["fork_pack"]),
            fork_games=p["fork_games"],
        )
        body.append(f'<p class="meta">{line}</p>')
    body.append(paired_section(result.get("paired"), lang))
    moved = sorted((x for x in result["figures"] if x["significant"]), key=lambda x: x["p_value"])
    holm_count = sum(1 for x in moved if x["holm"])
    if moved:
        lead = f'<span class="tag lead">{escape(say("not_after_holm", lang))}</span>'
        items = "".join(
            f'<li><span class="tag {"up" if x["difference"] > 0 else "down"}">'
            + f"{escape(say('tag_' + x['kind'], lang))}</span>"
            + ("" if x["holm"] else lead)
            + f'<b>{escape(figure_name(x, lang))}</b> <span class="meta">[{escape(players_text(x["players"], lang))}]'
            f"</span> {escape(_diff(x, lang))}, p = {x['p_value']:.3g}</li>"
            for x in moved
        )
        summary = say("moved_html", lang, moved=len(moved), tested=result["figures_tested"], holm=holm_count)
        body.append(f'<div class="flags"><b>{escape(summary)}</b><ul>{items}</ul></div>')
    else:
        body.append(f'<div class="flags none">{say("nothing_moved", lang, n=result["figures_tested"])}</div>')
    detect_points = f"{100 * result['detect']:g}"
    turns = f"{result['detect_turns']:g}"
    body.append(f'<p class="note">{say("ab_note", lang, detect=detect_points, turns=turns)}</p>')
    for kind in COMPARE_KINDS:
        figures = [x for x in result["figures"] if x["kind"] == kind]
        if not figures:
            continue
        heading = say("kind_" + kind, lang)
        body.append(f"<h2>{escape(heading)}</h2>")
        if kind not in ("turns", "decisions"):
            body.append(diff_chart(figures, say("fork_minus_base", lang, heading=heading), lang))
        if kind == "turns":
            detect = say("detect_turns", lang, n=f"{result['detect_turns']:g}")
        else:
            detect = say("detect_points", lang, n=detect_points)
        table = compare_table(figures, "—" if kind == "decisions" else detect, lang)
        if kind == "role":
            body.append(f"<details><summary>{escape(say('table_n', lang, n=len(figures)))}</summary>{table}</details>")
        else:
            body.append(table)
    if result["only_fork"]:
        body.append(f"<h2>{escape(say('only_fork_heading', lang))}</h2>")
        body.append(f'<p class="note">{escape(say("only_fork_note", lang))}</p>')
        rows = "".join(
            f'<tr><td class="name">{escape(str(r["name"]))}</td><td>{escape(players_text(r["players"], lang))}</td>'
            f"<td>{r['won']}</td><td>{r['n']}</td><td>{pct(r['rate'])}</td>"
            f"<td>{100 * r['low']:.1f}–{100 * r['high']:.1f}%</td><td>{pct(r['expected'])}</td>"
            f'<td class="name">{escape(_lead(r, lang))}</td></tr>'
            for r in result["only_fork"]
        )
        head = _th("role", lang, True) + _th("players", lang) + _th("won", lang) + _th("n", lang)
        head += _th("rate", lang) + _th("interval95", lang) + _th("expected", lang) + _th("flag", lang, True)
        body.append(f"<table><tr>{head}</tr>{rows}</table>")
    if result["only_base"]:
        names = sorted({str(r["name"]) for r in result["only_base"]})
        body.append(f"<h2>{escape(say('only_base_heading', lang))}</h2><p>{escape(', '.join(names))}</p>")
    return page(title, "\n".join(body), lang)
