"""A balance report in the terminal: rich tables of the verdicts, flags and each group's figures
(``print_report``), and a group's failed games with the commands that re-run them (``print_failures``), in
Chinese or English (messages.py). What a designer asks first comes first: the verdicts on the new items, what
the fork changes, the flags, then the new roles; in each table the new items lead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..screen_table import Column, ScreenTable
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
    players_short,
    reason_name,
    skill_kind_name,
    verdict_text,
)


def report_table(title: str, first: str, heads: Sequence[tuple[str, str]]) -> ScreenTable:
    """A report's table: a title above it, a first column of names that wraps on a narrow terminal, then figures
    (each head with its justification, "left" or "right") that never wrap; no box but the line under the header
    (rich's ``Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)``,
    drawn line by line when it fits the terminal: screen_table.py)."""
    from rich import box

    columns = [Column(first, ratio=1, overflow="ellipsis")]
    columns += [
        Column(h, justify="left" if j == "left" else "right", no_wrap=True, overflow="ellipsis") for h, j in heads
    ]
    return ScreenTable(columns, header_style="table.header", frame=box.SIMPLE_HEAD, title=title)


def _rate_table(
    title: str,
    head: str,
    rows: Sequence[dict],
    lang: str,
    roles: bool = False,
    new: set[str] | frozenset[str] = frozenset(),
) -> Any:
    """A compact table of rates: name, won/n, rate, 95% interval, ± points (roles: expected, flag); the names in
    `new` (what the pack adds to the bundled game) marked new and listed first."""
    from rich.markup import escape

    heads = ["won_n", "rate", "interval95_short", "plus_points_short"] + (["expected_short", "flag"] if roles else [])
    t = report_table(title, head, [(say(key, lang), "left" if key == "flag" else "right") for key in heads])
    for r in sorted(rows, key=lambda r: r["name"] not in new):  # (a stable sort: the new first, in their order)
        cells = [
            escape(str(r["name"]) + (say("new_suffix", lang) if r["name"] in new else "")),
            f"{r['won']}/{r['n']}",
            pct(r["rate"]),
            f"{100 * r['low']:.1f}–{100 * r['high']:.1f}",
            f"±{100 * r['half_width']:.1f}",
        ]
        if roles:
            flag = flag_name(r["flag"], lang) if r["flag"] else ""
            flag += "" if not r["flag"] or r["holm"] else say("lead_suffix", lang)
            cells += [pct(r["expected"]), flag]
        t.add_row(*cells)
    return t


MAX_DIFF_LINES = 20  # lines of a fork's pack diff in the terminal (the HTML and JSON report hold every one)


def _new_of(report: dict, pack: str, kind: str) -> set[str]:
    return set((report.get("new_items") or {}).get(pack, {}).get(kind, []))


def _card_table(g: dict, new: set[str], lang: str) -> Any:
    """Each card's uses per game and the win rate of the seats that used it (new cards marked, first)."""
    from rich.markup import escape

    heads = ("uses_per_game", "users_won", "rate", "interval95_short", "every_seat")
    t = report_table(say("card_table", lang), say("card", lang), [(say(key, lang), "right") for key in heads])
    for r in sorted(g["cards"], key=lambda r: r["name"] not in new):
        t.add_row(
            escape(r["name"] + (say("new_suffix", lang) if r["name"] in new else "")),
            f"{r['uses_per_game']:.2f}",
            f"{r['won']}/{r['n']}",
            pct(r["rate"]),
            f"{pct(r['low'])}–{pct(r['high'])}",
            pct(r["expected"]),
        )
    return t


def _rule_skill_table(g: dict, new: set[str], lang: str) -> Any | None:
    """The rules' skills (house rules every seat holds: the report's ``rule_skills``), figured as the cards are: the
    games each was offered and used in, its uses per game and the win rate of the seats that used it against every
    seat's (new ones marked, first), so a fork's house rules are seen in the terminal as its cards are (its roles'
    skills are told by the flags alone); None for rules without skills. A sweep that did not count the users leaves
    their columns blank."""
    from rich.markup import escape

    rows = g.get("rule_skills") or []
    if not rows:
        return None
    heads = (
        "kind",
        "games_offered",
        "games_used",
        "uses_per_game",
        "users_won",
        "rate",
        "interval95_short",
        "every_seat",
    )
    t = report_table(say("rule_skill_table", lang), say("rule_skill", lang), [(say(k, lang), "right") for k in heads])
    games = g["games"] - g["failed"]
    for r in sorted(rows, key=lambda r: r["name"] not in new):
        offered = r["games_offered"]
        counted = r["n"] is not None
        t.add_row(
            escape(r["name"] + (say("new_suffix", lang) if r["name"] in new else "")),
            skill_kind_name(r["kind"], lang) if r["kind"] else "",
            f"{offered}/{games}" if offered is not None else "",
            f"{r['games_used']}/{games}",
            f"{r['uses_per_game']:.2f}",
            f"{r['won']}/{r['n']}" if counted else "",
            pct(r["rate"]) if counted else "",
            f"{pct(r['low'])}–{pct(r['high'])}" if counted and r["n"] else "",  # (no interval of no seats)
            pct(r["expected"]) if counted else "",
        )
    return t


def _skills_of(report: dict, pack: str, role: str) -> list[dict]:
    """A role's skill rows from the group of its pack that pools every player count (or its only group)."""
    groups = [g for g in report["groups"] if g["pack"] == pack]
    pooled = next((g for g in groups if g["players"] == ALL), groups[-1] if groups else None)
    return [sk for sk in (pooled or {}).get("skills", []) if sk["role"] == role]


def _where(x: dict, lang: str) -> str:
    return f"{x['pack']} · {x['agents']} · {players_short(x['players'], lang)}"


def print_report(report: dict, console: Any, roles: bool = True, lang: str = DEFAULT_LANG) -> None:
    """The report as rich tables: the verdicts and flags first, then each group's figures."""
    from rich.markup import escape

    sweep = report["sweep"]
    # what was swept, the HTML page's first line: its seed above all, which replays it (or extends, or pairs it) —
    # a fresh one, when the grid seats an external bot, is nowhere else but in sweep.json
    console.print(meta_line(sweep, lang), markup=False, soft_wrap=True)
    for text in note_texts(report, lang):
        console.print(say("note", lang, text=text), markup=False, soft_wrap=True)
    pinned = pins_text(sweep.get("pins"), lang, sweep.get("pinned_cards"), sweep.get("pinned_names"))
    if pinned:
        console.print(say("pinned", lang, what=pinned), markup=False)
    if report.get("verdicts"):
        console.print(f"[bold]{say('verdicts_title', lang)}[/bold]")
        for v in report["verdicts"]:
            line = say(
                "verdict_line",
                lang,
                kind=kind_name(v["kind"], lang),
                name=v["name"],
                where=_where(v, lang),
                text=verdict_text(v, lang),
            )
            console.print("  " + line, markup=False)
    for pack, d in (report.get("pack_diffs") or {}).items():
        lines = fork_lines(d, lang)
        console.print(f"[bold]{escape(say('diff_title', lang, pack=pack))}[/bold]")
        for line in lines[:MAX_DIFF_LINES]:
            console.print(f"  {line}", markup=False)
        if len(lines) > MAX_DIFF_LINES:
            console.print("  " + say("diff_more", lang, n=len(lines) - MAX_DIFF_LINES), markup=False)
    flags = report["flags"]
    title = say("flags_title", lang, n=len(flags)) if flags else say("flags_none", lang)
    console.print(f"[bold]{escape(title)}[/bold]")
    for f in flags:
        mark = "" if f.get("holm", True) else say("lead_suffix", lang)
        console.print(
            f"  {flag_name(f['kind'], lang)}{mark}  {flag_subject(f, lang)}  [{_where(f, lang)}]  {flag_text(f, lang)}",
            markup=False,
        )
    console.print("  " + say("flags_legend", lang), markup=False)
    for pack, names in report.get("new_roles", {}).items():
        console.print()
        console.print(f"[bold]{escape(say('new_roles_title', lang, pack=pack))}[/bold]")
        for name in names:
            rows = [
                {**r, "name": f"{name} · {players_short(g['players'], lang)}"}
                for g in report["groups"]
                if g["pack"] == pack
                for r in g["roles"]
                if r["name"] == name
            ]
            if rows:
                console.print(_rate_table("", say("role", lang), rows, lang, roles=True))
            else:
                console.print("  " + escape(say("never_dealt", lang, name=name)))
            for sk in _skills_of(report, pack, name):
                line = say(
                    "skill_use",
                    lang,
                    skill=sk["skill"],
                    offered=offered_prefix(sk, lang),
                    used=sk["games_used"],
                    games=sk["games_in_play"],
                    share=pct(sk["share_of_games"]["rate"]),
                    per_game=f"{sk['uses_per_game'] or 0:.2f}",
                )
                console.print("  " + line + (f"  {flag_name(sk['flag'], lang)}" if sk["flag"] else ""), markup=False)
    for g in report["groups"]:
        _print_group(report, g, console, roles, lang)


def _print_group(report: dict, g: dict, console: Any, roles: bool, lang: str) -> None:
    """One group's tables: identities, tasks, cards, roles (new items first), game length, endings, failures."""
    from rich.markup import escape

    console.print()
    console.rule(escape(group_title(g, lang)))
    identities = identity_rows(g["identities"], lang)
    console.print(_rate_table(say("identity_table", lang), say("identity", lang), identities, lang))
    if g["tasks"]:
        new_tasks = _new_of(report, g["pack"], "tasks")
        console.print(_rate_table(say("task_table", lang), say("task", lang), g["tasks"], lang, new=new_tasks))
    if g.get("cards"):
        console.print(_card_table(g, _new_of(report, g["pack"], "cards"), lang))
    rule_skills = _rule_skill_table(g, _new_of(report, g["pack"], "rule_skills"), lang)
    if rule_skills is not None:
        console.print(rule_skills)
    if roles and g["roles"]:
        ordered = sorted(g["roles"], key=lambda r: -(r["rate"] or 0))
        new_roles = _new_of(report, g["pack"], "roles")
        console.print(_rate_table(say("role_table", lang), say("role", lang), ordered, lang, roles=True, new=new_roles))
    for what in ("turns", "decisions"):
        s = g[what]
        if s["games"]:
            word = say(what, lang)
            console.print(
                say(
                    "length_line",
                    lang,
                    what=word,
                    What=word.capitalize(),
                    mean=f"{s['mean']:.1f}",
                    median=f"{s['median']:g}",
                    p10=f"{s['p10']:g}",
                    p90=f"{s['p90']:g}",
                    min=s["min"],
                    max=s["max"],
                ),
                markup=False,
            )
    if g["end_reasons"]:
        items = [
            say("ending_item", lang, reason=reason_name(r["reason"], lang), games=r["games"], share=pct(r["share"]))
            for r in g["end_reasons"]
        ]
        console.print(say("endings", lang, items=say("item_sep", lang).join(items)), markup=False)
    if g["players"] != ALL:  # (a group pooling every player count holds their failures again)
        print_failures(g["failures"], console, lang)
        print_turn_limit_games(g.get("turn_limit_games") or [], console, lang)


MAX_FAILURES_SHOWN = 10  # per group, in the terminal (the JSON and HTML reports list every one)


def print_turn_limit_games(games: Sequence[dict], console: Any, lang: str = DEFAULT_LANG) -> None:
    """A group's games that reached the turn limit (draws), each with the command that re-runs it alone."""
    if games:
        console.print(say("turn_limit_games", lang, n=len(games)), markup=False)
    for f in games[:MAX_FAILURES_SHOWN]:
        console.print(
            "  " + say("turn_limit_game", lang, index=f["index"], seed=f["seed"], turns=f["turns"]), markup=False
        )
        if f.get("rerun"):
            console.print("    " + f["rerun"], markup=False, soft_wrap=True)
    if len(games) > MAX_FAILURES_SHOWN:
        console.print("  …" + str(len(games) - MAX_FAILURES_SHOWN), markup=False)


def print_failures(failures: Sequence[dict], console: Any, lang: str = DEFAULT_LANG) -> None:
    """A group's failed games, each with the command that re-runs it alone with its trace."""
    if failures:
        console.print(say("failed_games", lang, n=len(failures)), style="red", markup=False)
    for f in failures[:MAX_FAILURES_SHOWN]:
        line = say("failed_game", lang, index=f["index"], seed=f["seed"], failed=f["failed"])
        console.print("  " + line, markup=False, soft_wrap=True)
        if f.get("rerun"):
            console.print("    " + f["rerun"], markup=False, soft_wrap=True)
    if len(failures) > MAX_FAILURES_SHOWN:
        console.print("  " + say("failed_more", lang, n=len(failures) - MAX_FAILURES_SHOWN), markup=False)
