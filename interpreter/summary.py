"""The end of a game, told to everyone: every seat's identity, secret task and role, how the game ended and why.

At the end of a table game every card is turned up. :func:`game_summary` reads the referee's records of a finished
game (the deal, the roles and what replaced them, deaths, the victory) and, where given, the players as any seat's
final observation shows them (intel, standing: public); the terminal table (``play.py``), the browser table
(``web/tables.py``) and the replay viewer show it. It is made only for a game that is over: before then the
records it reads hold every secret of the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .model.colors import COLLECT_CHECKED, COLOR_NAMES, COLOR_ZH
from .seat_text import Names, ending_text


def game_summary(
    records: Sequence[Mapping[str, Any]], names: Names, players: Sequence[Mapping[str, Any]] | None = None
) -> dict[str, Any] | None:
    """The summary of a finished game from its referee's records; None if they hold no end (the game goes on).

    ``players``: the ``players`` of a final observation (any seat's: intel and standing are public), for the intel
    each seat ended with and who collected; without it the summary says what the records say."""
    over = next((r for r in reversed(records) if r.get("e") == "game_over"), None)
    if over is None:
        return None
    setup = next((r for r in records if r.get("e") == "setup"), {})
    dealt = next((r for r in records if r.get("e") == "roles"), {})
    n = int(setup.get("players") or len(dealt.get("roles") or ()) or len(players or ()))
    identities = list(setup.get("identities") or [None] * n)
    tasks = list(setup.get("tasks") or [None] * n)
    roles: list[Any] = list(dealt.get("roles") or [None] * n)
    fate = ["存活"] * n
    usurp = None
    last_dead = None
    for r in records:
        e = r.get("e")
        if e == "role_replaced" and isinstance(r.get("seat"), int) and r["seat"] < n:
            roles[r["seat"]] = r.get("new")
        elif e == "died" and isinstance(r.get("seat"), int) and r["seat"] < n:
            fate[r["seat"]], last_dead = "死亡", r["seat"]
        elif e == "abstain" and isinstance(r.get("seat"), int) and r["seat"] < n:
            fate[r["seat"]] = "弃权"
        elif e == "usurp":
            usurp = r
    winners = [int(w) for w in over.get("winners") or ()]
    reason = str(over.get("reason") or "")
    base = reason.split("+")[0]
    collect_at = names.content.rules.collect_count
    seats = []
    for s in range(n):
        task = names.content.tasks.get(tasks[s] or "") if s < len(tasks) else None
        row: dict[str, Any] = {
            "seat": s,
            "role": names.role(roles[s]) if s < len(roles) and roles[s] else "—",
            "identity": names.identity(identities[s]) if s < len(identities) else "？",
            "task": task.name if task is not None else "",
            "task_text": str(task.text) if task is not None else "",
            "fate": fate[s],
            "winner": s in winners,
            "intel": "",
        }
        if players is not None and s < len(players):
            c = players[s]["intel_counts"]
            row["intel"] = " ".join(f"{COLOR_ZH[b]}{c[name]}" for b, name in COLOR_NAMES.items())  # 红1 蓝0 黑2
        seats.append(row)
    ended = f"游戏结束（第 {over.get('turns')} 回合）：{ending_text(reason, names)}"
    who = "、".join(f"P{w}" for w in winners) or "无人"
    why = _why(base, winners, last_dead, players, collect_at, over.get("turns"))
    if usurp is not None:
        replaced = "、".join(f"P{w}" for w in usurp.get("replaced") or ()) or "无人"
        why += f"；随后 P{usurp.get('seat')} 篡夺了胜利（原本的胜者：{replaced}）"
    return {"ended": ended, "why": why, "winners": who, "seats": seats}


def _why(
    base: str,
    winners: list[int],
    dead: int | None,
    players: Sequence[Mapping[str, Any]] | None,
    collect_at: int,
    turns: Any,
) -> str:
    """Which check ended the game, and on whose intel or death."""
    who = "、".join(f"P{w}" for w in winners) or "无人"
    if base == "collect":
        full = []
        for p in players or ():
            for c in COLLECT_CHECKED:  # the colours that set the check off (whatever the winners' camp collects)
                n = p["intel_counts"][COLOR_NAMES[c]]
                if n >= collect_at:  # whose intel set the check off (maybe not a winner's)
                    full.append(f"P{p['seat']} 的情报区有 {n} 张{c.label()}情报")
        whose = "；".join(full) or f"有人收集了 {collect_at} 张同色情报"
        return f"收集检查：{whose}。胜者：{who}"
    if base == "death":
        return f"死亡检查：{'P' + str(dead) + ' 死亡后，' if dead is not None else ''}{who} 完成了秘密任务"
    if base == "turn_end":
        return f"回合结束检查：第 {turns} 回合结束时，{who} 完成了秘密任务"
    if base == "last_alive":
        return f"只剩一名角色存活：{who} 获胜"
    if base == "turn_limit":
        return f"达到回合上限（{turns} 回合），没有胜者"
    return f"胜者：{who}"


def summary_lines(summary: Mapping[str, Any]) -> list[str]:
    """The summary as lines of text (the terminal table). A secret task goes on a line of its own under its
    seat's: its text has no space for the terminal to break at, so on the seat's line it pushed the role and
    everything after it under a lone `★胜 P3`."""
    lines = [str(summary["ended"]), str(summary["why"])]
    for s in summary["seats"]:
        intel = f"，情报 {s['intel']}" if s["intel"] else ""
        mark = "★胜 " if s["winner"] else "　　 "
        lines.append(f"{mark}P{s['seat']} {s['role']}，身份：{s['identity']}，{s['fate']}{intel}")
        if s["task"]:
            lines.append(f"　　　　秘密任务：{s['task']}（{s['task_text']}）")
    return lines


def log_lines(records: Sequence[Mapping[str, Any]], names: Names, seat: int | None = None) -> list[str]:
    """A finished game's log in sentences of the message catalogue: the referee's (seat None: every record, the
    deal included) or one seat's copy (the records and fields that seat could read)."""
    from .engine.observation import project
    from .messages import event_text, setup_text

    out = []
    for raw in records:
        rec = {k: v for k, v in raw.items() if k not in ("to", "secret")} if seat is None else project(dict(raw), seat)
        if rec is None:
            continue
        me = seat if seat is not None else -1
        text = setup_text(rec, names) if rec.get("e") == "setup" else event_text(rec, me, names, {})
        if text:
            out.append(text)
    return out
