"""Balance reports as one self-contained HTML file: inline CSS, charts drawn as inline SVG (charts.py); the A/B
comparison's page is html_compare.py's.

Nothing is fetched: no script, no stylesheet, no font, no image from anywhere (the file opens offline
and can be mailed). Chinese names render with the reader's CJK fonts (Noto Sans CJK first).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .charts import histogram, interval_chart, legend, reason_bars
from .report import ALL
from .stats import pct
from .terminal import FLAG_TEXT, group_title, pins_text

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


def page(title: str, body: str) -> str:
    """A whole HTML document around `body`."""
    return (
        '<!DOCTYPE html>\n<html lang="zh-Hans"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n</body></html>\n"
    )


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
            f"<td>{s['games_in_play']}</td><td>{'' if s.get('games_offered') is None else s['games_offered']}</td>"
            f"<td>{s['games_used']}</td><td>{pct(s['share_of_games']['rate'])}</td>"
            f"<td>{s['uses']}</td><td>{per_game}</td>"
            f'<td class="name">{escape(flag)}</td></tr>'
        )
    return (
        '<table><tr><th class="name">skill</th><th class="name">kind</th><th>games in play</th><th>games offered</th>'
        "<th>games used</th>"
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
                f"<li><b>{escape(sk['role'])}·{escape(sk['skill'])}</b>: "
                + ("" if sk.get("games_offered") is None else f"offered in {sk['games_offered']}, ")
                + f"used in {sk['games_used']} of the "
                f"{sk['games_in_play']} games its role was in play ({pct(sk['share_of_games']['rate'])}), "
                f"{sk['uses_per_game'] or 0:.2f} uses per game"
                + (f' <span class="tag {sk["flag"]}">{escape(FLAG_TEXT[sk["flag"]])}</span>' if sk["flag"] else "")
                + "</li>"
                for sk in skills
            )
            out.append(f"<ul>{items}</ul>")
    return "\n".join(out)


def players_text(p: object) -> str:
    """A group's player count in words ("5 players"; "all counts" for the group pooling them)."""
    return "all counts" if p == ALL else f"{p} players"


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
        f"{escape(players_text(v['players']))}]</span>: {escape(v['text'])}</li>"
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
