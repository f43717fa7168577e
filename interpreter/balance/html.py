"""Balance reports as one self-contained HTML file: inline CSS, charts drawn as inline SVG (charts.py); the A/B
comparison's page is html_compare.py's. In Chinese or English (``lang``; messages.py): every heading, label
and sentence of the page, the charts' included. What a designer asks first comes first: the verdicts on the
new items, what the fork changes, the flags, the new roles; in each table the new items lead.

Nothing is fetched: no script, no stylesheet, no font, no image from anywhere (the file opens offline
and can be mailed). Chinese names render with the reader's CJK fonts (Noto Sans CJK first).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .charts import histogram, interval_chart, legend, reason_bars
from .diff_words import fork_lines
from .messages import DEFAULT_LANG, say
from .stats import ALL, pct
from .words import (
    flag_name,
    flag_subject,
    flag_text,
    group_title,
    identity_rows,
    kind_name,
    meta_line,
    note_texts,
    offered_prefix,
    pins_text,
    players_text as players_words,
    skill_kind_name,
    status_name,
    verdict_text,
)

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
.chart { overflow-x: auto; }
.legend span { display: inline-block; margin-right: 14px; font-size: 13px; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; border-radius: 5px; }
"""


def page(title: str, body: str, lang: str = DEFAULT_LANG) -> str:
    """A whole HTML document around `body`."""
    code = "en" if lang == "en" else "zh-Hans"
    return (
        f'<!DOCTYPE html>\n<html lang="{code}"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n</body></html>\n"
    )


def players_text(p: object, lang: str = DEFAULT_LANG) -> str:
    """A group's player count in words ("5人局", "5 players"; all counts for the group pooling them)."""
    return players_words(p, lang)


def new_tag(lang: str) -> str:
    return f' <span class="tag new">{escape(say("new", lang))}</span>'


def new_labels(new: set[str] | frozenset[str], lang: str) -> dict[str, str]:
    """A chart's labels of the new items: the name marked new, as the tables mark it (画眉（歌女）（新）)."""
    return {name: name + say("new_suffix", lang) for name in new}


def _new_first(rows: Sequence[dict], new: set[str] | frozenset[str]) -> list[dict]:
    return sorted(rows, key=lambda r: r["name"] not in new)  # (stable: the new first, each part in its order)


# ---------------------------------------------------------------------- tables


def rate_cells(r: dict) -> str:
    return (
        f"<td>{r['won']}</td><td>{r['n']}</td><td>{pct(r['rate'])}</td>"
        f"<td>{100 * r['low']:.1f}–{100 * r['high']:.1f}%</td><td>±{100 * r['half_width']:.1f}</td>"
    )


def rate_head(lang: str) -> str:
    return "".join(f"<th>{escape(say(k, lang))}</th>" for k in ("won", "n", "rate", "interval95", "plus_points"))


def _th(key: str, lang: str, name: bool = False) -> str:
    return f'<th class="name">{escape(say(key, lang))}</th>' if name else f"<th>{escape(say(key, lang))}</th>"


def _flag_cell(r: dict, lang: str) -> str:
    """A role row's flag in words, with its lead tag where it does not survive Holm's correction."""
    flag = flag_name(r["flag"], lang) if r["flag"] else ""
    lead = "" if not r["flag"] or r["holm"] else f' <span class="tag lead">{escape(say("lead", lang))}</span>'
    return f'<td class="name">{escape(flag)}{lead}</td>'


def role_table(g: dict, new: set[str] | frozenset[str] = frozenset(), lang: str = DEFAULT_LANG) -> str:
    rows = []
    for r in _new_first(sorted(g["roles"], key=lambda r: -(r["rate"] or 0)), new):
        cls = f' class="{r["flag"]}"' if r["flag"] else ""
        rows.append(
            f'<tr{cls}><td class="name">{escape(str(r["name"]))}{new_tag(lang) if r["name"] in new else ""}</td>'
            f"{rate_cells(r)}<td>{pct(r['expected'])}</td>"
            f"<td>{r['p_value']:.3g}</td>{_flag_cell(r, lang)}"
            f"<td>{r['seats_for_5_points']}</td></tr>"
        )
    head = _th("role", lang, True) + rate_head(lang) + _th("expected", lang) + _th("p", lang)
    head += _th("flag", lang, True) + _th("seats_for_5", lang)
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def simple_table(
    rows: Sequence[dict], head: str, new: set[str] | frozenset[str] = frozenset(), lang: str = DEFAULT_LANG
) -> str:
    body = "".join(
        f'<tr><td class="name">{escape(str(r["name"]))}{new_tag(lang) if r["name"] in new else ""}</td>'
        f"{rate_cells(r)}</tr>"
        for r in _new_first(rows, new)
    )
    return f'<table><tr><th class="name">{escape(head)}</th>{rate_head(lang)}</tr>{body}</table>'


def skill_table(g: dict, lang: str = DEFAULT_LANG) -> str:
    rows = []
    for s in sorted(g["skills"], key=lambda s: (s["flag"] is None, s["role"], s["skill"])):
        flag = flag_name(s["flag"], lang) if s["flag"] else ""
        per_game = "" if s["uses_per_game"] is None else f"{s['uses_per_game']:.2f}"
        rows.append(
            f'<tr><td class="name">{escape(s["role"])}·{escape(s["skill"])}</td>'
            f'<td class="name">{escape(skill_kind_name(s["kind"], lang) if s["kind"] else "")}</td>'
            f"<td>{s['games_in_play']}</td><td>{'' if s.get('games_offered') is None else s['games_offered']}</td>"
            f"<td>{s['games_used']}</td><td>{pct(s['share_of_games']['rate'])}</td>"
            f"<td>{s['uses']}</td><td>{per_game}</td>"
            f'<td class="name">{escape(flag)}</td></tr>'
        )
    head = _th("skill", lang, True) + _th("kind", lang, True)
    head += "".join(
        _th(k, lang) for k in ("games_in_play", "games_offered", "games_used", "share", "uses", "uses_per_game_long")
    )
    return f"<table><tr>{head}{_th('flag', lang, True)}</tr>{''.join(rows)}</table>"


def length_table(groups: Sequence[dict], lang: str = DEFAULT_LANG) -> str:
    rows = []
    for g in groups:
        name = players_text(g["players"], lang)
        for what in ("turns", "decisions"):
            s = g[what]
            if s["games"]:
                rows.append(
                    f'<tr><td class="name">{escape(name)}</td><td class="name">{escape(say(what, lang))}</td>'
                    f"<td>{s['games']}</td><td>{s['mean']:.1f}</td><td>{s['median']:g}</td><td>{s['p10']:g}</td>"
                    f"<td>{s['p90']:g}</td><td>{s['min']}</td><td>{s['max']}</td></tr>"
                )
    head = _th("players", lang, True) + _th("figure", lang, True)
    head += "".join(_th(k, lang) for k in ("games", "mean", "median")) + "<th>10%</th><th>90%</th>"
    head += _th("min", lang) + _th("max", lang)
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


# ---------------------------------------------------------------------- the report


def _where(x: dict, lang: str) -> str:
    return (
        f'<span class="meta">[{escape(x["pack"])} · {escape(x["agents"])} · '
        f"{escape(players_text(x['players'], lang))}]</span>"
    )


def _flag_item(f: dict, lang: str) -> str:
    lead = "" if f.get("holm", True) else f'<span class="tag lead">{escape(say("lead", lang))}</span>'
    return (
        f'<li><span class="tag {f["kind"]}">{escape(flag_name(f["kind"], lang))}</span>{lead}'
        f"<b>{escape(flag_subject(f, lang))}</b> {_where(f, lang)} {escape(flag_text(f, lang))}</li>"
    )


def flag_list(flags: Sequence[dict], lang: str = DEFAULT_LANG) -> str:
    """The flags: findings listed, leads (strong/weak before Holm's correction only) folded below them."""
    if not flags:
        return f'<div class="flags none">{say("no_flags_html", lang)}</div>'
    findings = [f for f in flags if f.get("holm", True)]
    leads = [f for f in flags if not f.get("holm", True)]
    out = [f'<div class="flags"><b>{escape(say("flags_title", lang, n=len(findings)))}</b>']
    items = "".join(_flag_item(f, lang) for f in findings)
    out.append(f"<ul>{items}</ul>" if findings else f"<p>{escape(say('no_findings', lang))}</p>")
    if leads:
        out.append(
            f"<details><summary>{escape(say('leads_summary', lang, n=len(leads)))}</summary>"
            f"<ul>{''.join(_flag_item(f, lang) for f in leads)}</ul></details>"
        )
    out.append("</div>")
    return "".join(out)


def _tick(lang: str) -> str:
    """The legend's entry of the expected rate's grey tick."""
    return f'<span><i style="background:#888;border-radius:0;width:3px"></i>{escape(say("expected_tick", lang))}</span>'


def _lead_marked(r: dict, lang: str) -> dict:
    """A role row for the charts: its flag in words, a lead (not significant after Holm's correction) marked with a
    question mark."""
    return {**r, "flag": r["flag"] and flag_name(r["flag"], lang) + ("" if r["holm"] else "?")}


def new_role_section(report: dict, lang: str = DEFAULT_LANG) -> str:
    """The roles a pack adds to the game, first: their win rate per player count and their skills' use."""
    out = []
    for pack, names in report.get("new_roles", {}).items():
        groups = [g for g in report["groups"] if g["pack"] == pack]
        series = [_series(g, lang) for g in groups]
        pts = {
            (r["name"], _series(g, lang)): _lead_marked(r, lang)
            for g in groups
            for r in g["roles"]
            if r["name"] in names
        }
        heading = escape(say("new_roles_heading", lang, pack=pack))
        out.append(f'<h2>{heading} <span class="meta">{escape(say("not_in_bundled", lang))}</span></h2>')
        chart = interval_chart(names, series, pts, say("new_roles_chart", lang, pack=pack), lang=lang)
        out.append(legend(series, _tick(lang)) + f'<div class="chart">{chart}</div>')
        rows = []
        for name in names:
            for g in groups:
                r = next((r for r in g["roles"] if r["name"] == name), None)
                if r is None:
                    continue
                rows.append(
                    f'<tr><td class="name">{escape(name)}</td><td>{escape(_series(g, lang))}</td>{rate_cells(r)}'
                    f"<td>{pct(r['expected'])}</td>{_flag_cell(r, lang)}<td>{r['seats_for_5_points']}</td></tr>"
                )
        head = _th("role", lang, True) + _th("players", lang) + rate_head(lang) + _th("expected", lang)
        head += _th("flag", lang, True) + _th("seats_for_5", lang)
        out.append(f"<table><tr>{head}</tr>{''.join(rows)}</table>")
        pooled = next((g for g in groups if g["players"] == ALL), groups[-1] if groups else None)
        skills = [sk for sk in (pooled or {}).get("skills", []) if sk["role"] in names]
        if skills:
            items = "".join(
                f"<li><b>{escape(sk['role'])}·{escape(sk['skill'])}</b>{'：' if lang != 'en' else ': '}"
                + escape(
                    say(
                        "skill_use_html",
                        lang,
                        offered=offered_prefix(sk, lang),
                        used=sk["games_used"],
                        games=sk["games_in_play"],
                        share=pct(sk["share_of_games"]["rate"]),
                        per_game=f"{sk['uses_per_game'] or 0:.2f}",
                    )
                )
                + (
                    f' <span class="tag {sk["flag"]}">{escape(flag_name(sk["flag"], lang))}</span>'
                    if sk["flag"]
                    else ""
                )
                + "</li>"
                for sk in skills
            )
            out.append(f"<ul>{items}</ul>")
    return "\n".join(out)


def _series(g: dict, lang: str = DEFAULT_LANG) -> str:
    return players_text(g["players"], lang)


ROLES_PER_CHART = 40  # rows of one role chart: more roles are paged into folded charts below it


def role_charts(
    roles: Sequence[str],
    pooled: dict,
    series: str,
    pts: dict,
    tick: str,
    lang: str = DEFAULT_LANG,
    new: set[str] | frozenset[str] = frozenset(),
) -> str:
    """The role chart, readable with 60+ roles: one dot and interval per role (the group pooling the player
    counts, or the one count; the per-count figures are in the tables), the new roles first and marked, then
    sorted by how far the role is from its expected rate (the strongest first, the weakest last),
    ROLES_PER_CHART rows a chart, the rest folded."""
    gap = {r["name"]: (r["rate"] or 0) - (r["expected"] or 0) for r in pooled["roles"]}
    ordered = sorted((r for r in roles if (r, series) in pts), key=lambda r: (r not in new, -gap.get(r, 0), str(r)))
    labels = new_labels(new, lang)
    parts = []
    for start in range(0, len(ordered), ROLES_PER_CHART):
        rows = ordered[start : start + ROLES_PER_CHART]
        svg = interval_chart(rows, [series], pts, say("by_role", lang), lang=lang, labels=labels)
        chart = legend([series], tick) + f'<div class="chart">{svg}</div>'
        if start == 0:
            parts.append(chart)
        else:
            summary = say("roles_range", lang, first=start + 1, last=start + len(rows), total=len(ordered))
            parts.append(f"<details><summary>{escape(summary)}</summary>{chart}</details>")
    return "".join(parts)


def diff_section(report: dict, lang: str = DEFAULT_LANG) -> str:
    """What each fork of the sweep changes of the bundled game (`pack diff`), folded."""
    out = []
    for pack, d in (report.get("pack_diffs") or {}).items():
        items = "".join(f"<li>{escape(line)}</li>" for line in fork_lines(d, lang))
        out.append(
            f'<details class="diff"><summary><b>{escape(say("diff_summary", lang, pack=pack))}</b> '
            f"{escape(say('diff_count', lang, n=len(d['changes'])))}</summary><ul>{items}</ul></details>"
        )
    return "".join(out)


def verdict_section(report: dict, lang: str = DEFAULT_LANG) -> str:
    """Is my new thing balanced? A verdict in words on each new role, card and task, first on the page."""
    verdicts = report.get("verdicts") or []
    if not verdicts:
        return ""
    items = "".join(
        f'<li><span class="tag {escape(v["status"])}">{escape(status_name(v["status"], lang))}</span>'
        + say(
            "verdict_item_html",
            lang,
            kind=escape(kind_name(v["kind"], lang)),
            name=escape(str(v["name"])),
            where=_where(v, lang),
            text=escape(
                verdict_text(v, lang) if "n" in v or v["status"] == "unseen" or v.get("uncounted") else v["text"]
            ),
        )
        + "</li>"
        for v in verdicts
    )
    return f'<div class="verdicts"><h2>{escape(say("verdicts_title", lang))}</h2><ul>{items}</ul></div>'


def card_table(g: dict, new: set[str], lang: str = DEFAULT_LANG) -> str:
    """Each card's uses per game and the win rate of the seats that used it, new cards marked and first, under its
    title (as the rule skills' table: what the columns say)."""
    rows = "".join(
        f"<tr><td>{escape(r['name'])}{new_tag(lang) if r['name'] in new else ''}</td>"
        f"<td>{r['uses_per_game']:.2f}</td><td>{r['won']}/{r['n']}</td><td>{pct(r['rate'])}</td>"
        f"<td>{pct(r['low'])}–{pct(r['high'])}</td><td>{pct(r['expected'])}</td></tr>"
        for r in _new_first(g["cards"], new)
    )
    head = "".join(
        _th(k, lang) for k in ("card", "uses_per_game_card", "users_won_long", "rate", "interval95_short", "every_seat")
    )
    title = f"<p>{escape(say('card_table', lang))}</p>"
    return f'{title}<table class="cards"><tr>{head}</tr>{rows}</table>'


def rule_skill_table(g: dict, new: set[str], lang: str = DEFAULT_LANG) -> str:
    """The rules' skills (house rules every seat holds), figured as the cards are: the games each was offered and
    used in, its uses per game and the win rate of the seats that used it against every seat's, new ones marked and
    first ("" for rules without skills; a sweep that did not count the users leaves their cells blank)."""
    games = g["games"] - g["failed"]
    rows = []
    for r in _new_first(g.get("rule_skills") or [], new):
        offered = "" if r["games_offered"] is None else f"{r['games_offered']}/{games}"
        users = ["", "", "", ""]
        if r["n"] is not None:
            interval = f"{pct(r['low'])}–{pct(r['high'])}" if r["n"] else ""  # (no interval of no seats)
            users = [f"{r['won']}/{r['n']}", pct(r["rate"]), interval, pct(r["expected"])]
        rows.append(
            f'<tr><td class="name">{escape(r["name"])}{new_tag(lang) if r["name"] in new else ""}</td>'
            f'<td class="name">{escape(skill_kind_name(r["kind"], lang) if r["kind"] else "")}</td>'
            f"<td>{offered}</td><td>{r['games_used']}/{games}</td><td>{r['uses_per_game']:.2f}</td>"
            + "".join(f"<td>{cell}</td>" for cell in users)
            + "</tr>"
        )
    if not rows:
        return ""
    head = _th("rule_skill", lang, True) + _th("kind", lang, True)
    head += "".join(
        _th(k, lang)
        for k in ("games_offered", "games_used", "uses_per_game_card", "users_won_long", "rate", "interval95_short")
    )
    head += _th("every_seat", lang)
    title = f"<p>{escape(say('rule_skill_table', lang))}</p>"
    return f'{title}<table class="rule-skills"><tr>{head}</tr>{"".join(rows)}</table>'


def _news(report: dict, pack: str, kind: str) -> set[str]:
    return set((report.get("new_items") or {}).get(pack, {}).get(kind, []))


def render_report(report: dict, title: str = "fengsheng balance report", lang: str = DEFAULT_LANG) -> str:
    """The whole report as one HTML document, in `lang`."""
    sw = report["sweep"]
    body = [f"<h1>{escape(title)}</h1>"]
    meta = meta_line(sw, lang)
    body.append(f'<p class="meta">{escape(meta)}</p>')
    note = escape(say("note_html", lang))
    body += [f'<p class="note"><b>{note}</b> {escape(t)}</p>' for t in note_texts(report, lang)]
    pinned = pins_text(sw.get("pins"), lang, sw.get("pinned_cards"), sw.get("pinned_names"))
    if pinned:
        body.append(f'<p class="pinned"><b>{escape(say("pinned_html", lang))}</b> {escape(pinned)}</p>')
    body.append(verdict_section(report, lang))
    body.append(diff_section(report, lang))
    body.append(flag_list(report["flags"], lang))
    body.append(new_role_section(report, lang))
    rules = report["rules"]
    body.append(
        '<p class="note">'
        + say(
            "how_to_read",
            lang,
            min_seats=rules["min_role_seats"],
            min_games=rules["min_skill_games"],
            rare=f"{100 * rules['rare_skill_share']:.0f}",
        )
        + "</p>"
    )
    by_pack: dict[tuple[str, str], list[dict]] = {}
    for g in report["groups"]:
        by_pack.setdefault((g["pack"], g["agents"]), []).append(g)
    for (pack, agents), groups in by_pack.items():
        body += _pack_section(report, pack, agents, groups, lang)
    return page(title, "\n".join(body), lang)


def _pack_section(report: dict, pack: str, agents: str, groups: list[dict], lang: str) -> list[str]:
    """One pack and agents: the charts by identity, task and role, game length, endings, and the tables."""
    series = [_series(g, lang) for g in groups]
    games = sum(g["games"] for g in groups if g["players"] != ALL)
    games_text = escape(say("section_games", lang, n=games))
    body = [f'<h2>{escape(pack)} · {escape(agents)} <span class="meta">{games_text}</span></h2>']
    roles = sorted({r["name"] for g in groups for r in g["roles"]}, key=str)
    pooled = groups[-1]
    order = {r["name"]: -(r["rate"] or 0) for r in pooled["roles"]}
    roles.sort(key=lambda r: (order.get(r, 0), str(r)))
    body.append(f"<h3>{escape(say('by_identity', lang))}</h3>")
    idents = sorted({r["name"] for g in groups for r in identity_rows(g["identities"], lang)}, key=str)
    pts = {(r["name"], _series(g, lang)): r for g in groups for r in identity_rows(g["identities"], lang)}
    svg = interval_chart(idents, series, pts, say("by_identity", lang), lang=lang)
    body.append(legend(series) + f'<div class="chart">{svg}</div>')
    tasks = sorted({r["name"] for g in groups for r in g["tasks"]}, key=str)
    new_tasks = _news(report, pack, "tasks")
    tasks.sort(key=lambda t: t not in new_tasks)
    if tasks:
        body.append(f"<h3>{escape(say('by_task', lang))}</h3>")
        pts = {(r["name"], _series(g, lang)): r for g in groups for r in g["tasks"]}
        svg = interval_chart(tasks, series, pts, say("by_task", lang), lang=lang, labels=new_labels(new_tasks, lang))
        body.append(legend(series) + f'<div class="chart">{svg}</div>')
    body.append(f"<h3>{escape(say('by_role', lang))}</h3>")
    pts = {(r["name"], _series(g, lang)): _lead_marked(r, lang) for g in groups for r in g["roles"]}
    body.append(role_charts(roles, pooled, _series(pooled, lang), pts, _tick(lang), lang, _news(report, pack, "roles")))
    body.append(f"<h3>{escape(say('game_length', lang))}</h3>")
    body.append(length_table(groups, lang))
    for g in groups:
        if g["players"] != ALL or len(groups) == 1:
            name = _series(g, lang)
            body.append(f'<div class="meta">{escape(say("turns_of", lang, series=name))}</div>')
            title = say("turns_per_game_of", lang, series=name)
            body.append(histogram(g["turns"]["histogram"], title, say("turns", lang), lang))
    body.append(f"<h3>{escape(say('how_ended', lang))}</h3>")
    body.append(reason_bars(groups, lang))
    for g in groups:
        body.append(f"<details><summary>{escape(say('tables_of', lang, title=group_title(g, lang)))}</summary>")
        body.append(simple_table(identity_rows(g["identities"], lang), say("identity", lang), lang=lang))
        if g["tasks"]:
            body.append(simple_table(g["tasks"], say("task", lang), _news(report, g["pack"], "tasks"), lang))
        body.append(role_table(g, _news(report, g["pack"], "roles"), lang))
        if g["skills"]:
            body.append(skill_table(g, lang))
        if g.get("cards"):
            body.append(card_table(g, _news(report, g["pack"], "cards"), lang))
        if g.get("rule_skills"):
            body.append(rule_skill_table(g, _news(report, g["pack"], "rule_skills"), lang))
        if g["players"] != ALL:  # (a group pooling every player count: theirs again)
            body += _game_list(g["failures"], "failed_games_html", "failed_game", "failed", lang)
            body += _game_list(
                g.get("turn_limit_games") or [], "turn_limit_games_html", "turn_limit_game", "turns", lang
            )
        body.append("</details>")
    return body


def _game_list(games: list[dict], title: str, line: str, field: str, lang: str) -> list[str]:
    """Games named one by one (failed ones, draws at the turn limit), each with the command that re-runs it."""
    if not games:
        return []
    items = "".join(
        f"<li>{escape(say(line, lang, index=f['index'], seed=f['seed'], **{field: f[field]}))}"
        + (f"<br><code>{escape(f['rerun'])}</code>" if f.get("rerun") else "")
        + "</li>"
        for f in games
    )
    return [f"<p>{escape(say(title, lang))}</p><ul>{items}</ul>"]
