"""A balance report in the terminal: rich tables of the verdicts, flags and each group's figures
(``print_report``), and a group's failed games with the commands that re-run them (``print_failures``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .report import ALL
from .stats import pct


def pins_text(pins: Any) -> str:
    """What a sweep pinned, in words ("" when nothing)."""
    if not isinstance(pins, dict) or not pins:
        return ""
    what = " and ".join(
        f"{'role' if k == 'role' else 'secret task'} {pins[k]}" for k in ("role", "task") if pins.get(k)
    )
    return f"{what} dealt to a seat in every game (game i at seat i mod players)"


def group_title(g: dict) -> str:
    players = "all player counts" if g["players"] == ALL else f"{g['players']} players"
    failed = f", {g['failed']} failed" if g["failed"] else ""
    return f"{g['pack']} · {g['agents']} · {players}: {g['games']} games{failed}, {g['seats']} seats"


FLAG_TEXT = {
    "failures": "FAILED GAMES",
    "strong": "STRONG",
    "weak": "WEAK",
    "unused": "SKILL NEVER USED",
    "rare": "SKILL RARELY USED",
}


def _rate_table(
    title: str, head: str, rows: Sequence[dict], roles: bool = False, new: set[str] | frozenset[str] = frozenset()
) -> Any:
    """A compact rich table of rates: name, won/n, rate, 95% interval, ± points (roles: expected, flag); the names
    in `new` (what the pack adds to the bundled game) marked "(new)"."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    t.add_column(head, ratio=1)  # the name wraps on a narrow terminal, the figures never do
    for col in ("won/n", "rate", "95%", "±pts") + (("exp.", "flag") if roles else ()):
        t.add_column(col, justify="left" if col == "flag" else "right", no_wrap=True)
    for r in rows:
        cells = [
            escape(str(r["name"]) + (" (new)" if r["name"] in new else "")),
            f"{r['won']}/{r['n']}",
            pct(r["rate"]),
            f"{100 * r['low']:.1f}–{100 * r['high']:.1f}",
            f"±{100 * r['half_width']:.1f}",
        ]
        if roles:
            flag = (r["flag"] or "") + ("" if not r["flag"] or r["holm"] else " (lead)")
            cells += [pct(r["expected"]), flag]
        t.add_row(*cells)
    return t


MAX_DIFF_LINES = 20  # lines of a fork's pack diff in the terminal (the HTML and JSON report hold every one)


def _new_of(report: dict, pack: str, kind: str) -> set[str]:
    return set((report.get("new_items") or {}).get(pack, {}).get(kind, []))


def _card_table(g: dict, new: set[str]) -> Any:
    """Each card's uses per game and the win rate of the seats that used it (new cards marked)."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    t = Table(
        title="Cards: uses per game; win rate of the seats that used it (Wilson 95%) against every seat's",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        pad_edge=False,
    )
    t.add_column("card", ratio=1)
    for col in ("uses/game", "users won", "rate", "95%", "every seat"):
        t.add_column(col, justify="right", no_wrap=True)
    for r in g["cards"]:
        t.add_row(
            escape(r["name"] + (" (new)" if r["name"] in new else "")),
            f"{r['uses_per_game']:.2f}",
            f"{r['won']}/{r['n']}",
            pct(r["rate"]),
            f"{pct(r['low'])}–{pct(r['high'])}",
            pct(r["expected"]),
        )
    return t


def _skills_of(report: dict, pack: str, role: str) -> list[dict]:
    """A role's skill rows from the group of its pack that pools every player count (or its only group)."""
    groups = [g for g in report["groups"] if g["pack"] == pack]
    pooled = next((g for g in groups if g["players"] == ALL), groups[-1] if groups else None)
    return [sk for sk in (pooled or {}).get("skills", []) if sk["role"] == role]


def print_report(report: dict, console: Any, roles: bool = True) -> None:
    """The report as rich tables: the flags first, then each group's figures."""
    from rich.markup import escape

    for text in report.get("pack_notes", {}).values():
        console.print(f"note: {text}", markup=False, soft_wrap=True)
    pinned = pins_text(report["sweep"].get("pins"))
    if pinned:
        console.print(f"pinned: {pinned}", markup=False)
    if report.get("verdicts"):
        console.print("[bold]Is my new thing balanced?[/bold]")
        for v in report["verdicts"]:
            players = "all" if v["players"] == ALL else f"{v['players']}p"
            console.print(
                f"  new {v['kind']} {v['name']} [{v['pack']} · {v['agents']} · {players}]: {v['text']}", markup=False
            )
    for pack, d in (report.get("pack_diffs") or {}).items():
        lines = d["lines"]
        console.print(f"[bold]What {escape(pack)} changes[/bold] (pack diff against the bundled game):")
        for line in lines[:MAX_DIFF_LINES]:
            console.print(f"  {line}", markup=False)
        if len(lines) > MAX_DIFF_LINES:
            console.print(f"  … {len(lines) - MAX_DIFF_LINES} more in the HTML and JSON report", markup=False)
    flags = report["flags"]
    console.print(f"[bold]Flags[/bold] ({len(flags)})" if flags else "[bold]Flags[/bold]: none")
    for f in flags:
        players = "all" if f["players"] == ALL else f"{f['players']}p"
        mark = "" if f.get("holm", True) else " (lead)"
        console.print(
            f"  {FLAG_TEXT[f['kind']]}{mark}  {f['subject']}  [{f['pack']} · {f['agents']} · {players}]  {f['text']}",
            markup=False,
        )
    console.print(
        "  (strong/weak: the role's 95% interval excludes its expected rate, what the other roles won with the same "
        "identities; (lead): not significant after Holm's correction over the group's roles: play more games)",
        markup=False,
    )
    for pack, names in report.get("new_roles", {}).items():
        console.print()
        console.print(f"[bold]New roles[/bold] in {escape(pack)} (not in the bundled game):")
        for name in names:
            rows = [
                {**r, "name": f"{name} · {'all' if g['players'] == ALL else str(g['players']) + 'p'}"}
                for g in report["groups"]
                if g["pack"] == pack
                for r in g["roles"]
                if r["name"] == name
            ]
            if rows:
                console.print(_rate_table("", "role", rows, roles=True))
            else:
                console.print(f"  {escape(name)}: never dealt")
            for sk in _skills_of(report, pack, name):
                share = sk["share_of_games"]
                console.print(
                    f"  {sk['skill']}: "
                    + ("" if sk.get("games_offered") is None else f"offered in {sk['games_offered']}, ")
                    + f"used in {sk['games_used']} of {sk['games_in_play']} games "
                    f"({pct(share['rate'])}), {sk['uses_per_game'] or 0:.2f} uses per game"
                    + (f"  {FLAG_TEXT[sk['flag']]}" if sk["flag"] else ""),
                    markup=False,
                )
    for g in report["groups"]:
        console.print()
        console.rule(escape(group_title(g)))
        console.print(_rate_table("Win rate by identity (seats won / played, Wilson 95%)", "identity", g["identities"]))
        if g["tasks"]:
            console.print(
                _rate_table("Win rate by secret task", "task", g["tasks"], new=_new_of(report, g["pack"], "tasks"))
            )
        if g.get("cards"):
            console.print(_card_table(g, _new_of(report, g["pack"], "cards")))
        if roles and g["roles"]:
            ordered = sorted(g["roles"], key=lambda r: -(r["rate"] or 0))
            console.print(
                _rate_table(
                    "Win rate by role (its seats won / played)",
                    "role",
                    ordered,
                    roles=True,
                    new=_new_of(report, g["pack"], "roles"),
                )
            )
        for what in ("turns", "decisions"):
            s = g[what]
            if s["games"]:
                console.print(
                    f"{what.capitalize()} per game: mean {s['mean']:.1f}, median {s['median']:g}, "
                    f"10–90% {s['p10']:g}–{s['p90']:g}, min {s['min']}, max {s['max']}"
                )
        if g["end_reasons"]:
            console.print(
                "How games ended: "
                + "; ".join(f"{r['reason']} {r['games']} ({pct(r['share'])})" for r in g["end_reasons"]),
                markup=False,
            )
        if g["players"] != ALL:  # (a group pooling every player count holds their failures again)
            print_failures(g["failures"], console)


MAX_FAILURES_SHOWN = 10  # per group, in the terminal (the JSON and HTML reports list every one)


def print_failures(failures: Sequence[dict], console: Any) -> None:
    """A group's failed games, each with the command that re-runs it alone with its trace."""
    from rich.markup import escape

    if failures:
        console.print(f"[red]Failed games[/red] ({len(failures)}): each re-runs alone, with its resolution trace, by")
    for f in failures[:MAX_FAILURES_SHOWN]:
        console.print(f"  game {f['index']} (game seed {f['seed']}): {escape(str(f['failed']))}", soft_wrap=True)
        if f.get("rerun"):
            console.print("    " + f["rerun"], markup=False, soft_wrap=True)
    if len(failures) > MAX_FAILURES_SHOWN:
        console.print(f"  … and {len(failures) - MAX_FAILURES_SHOWN} more (the records with `failed` in games.jsonl)")
