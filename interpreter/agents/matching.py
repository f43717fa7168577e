"""Which action a written answer names: the one matcher used by scripted seats, scenarios and replays.

Accepted forms (besides the action's id as an int, or its position where a
caller says so): its label; for a card its deck id (``#79`` or ``79``) or its
card name/id; for a seat ``P3`` or ``3``; at an idle point ``pass``,
``use <card name | #id>`` or ``skill <name>``; ``yes`` / ``no``; ``none``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .base import Descriptor

_NONE_WORDS = ("none", "no", "不", "skip", "stop")
_YES = ("yes", "是", "true")
_NO = ("no", "否", "false")


def forms(desc: Descriptor) -> tuple[str, ...]:
    """The written answers besides its label that name this action descriptor: what `matches` accepts, and what a
    did-you-mean picks from for an answer that names no option (agents.scripted)."""
    kind: str = desc["kind"]
    if kind == "none":
        return _NONE_WORDS
    if kind == "yes":
        return _YES
    if kind == "no":
        return _NO
    if kind == "card":
        c = desc["card"]
        return (f"#{c['id']}", str(c["id"]), c["name"], c["card"])
    if kind == "seat":
        return (f"P{desc['seat']}", str(desc["seat"]))
    if kind == "pass":
        return ("pass",)
    if kind == "skill":
        return (f"skill {desc['name']}", f"skill {desc['skill']}", f"use {desc['name']}")
    if kind == "use":
        c = desc["card"]
        cards = (f"#{c['id']}", str(c["id"]), c["name"], c["card"], desc["as"], desc["as_name"])
        return tuple(f"use {x}" for x in cards)
    if kind == "color":
        return (str(desc["value"]),)
    if kind == "blind":
        return (f"blind {desc['index'] + 1}",)
    if kind == "card_name":
        return (desc["value"], desc["name"], f"【{desc['name']}】")
    if kind in ("role", "identity", "task", "direction", "option"):
        return (str(desc["value"]),)
    return ()


def matches(desc: Descriptor, answer: object) -> bool:
    """Does a written answer (str or bool) name this action descriptor?"""
    if isinstance(answer, bool):
        return bool(desc["kind"] == ("yes" if answer else "no"))
    if not isinstance(answer, str):
        return False
    a = answer.strip()
    if desc["kind"] == "use" and a.startswith("use "):
        a = "use " + a[4:].strip()  # (any spaces after `use`)
    return a == desc["label"] or a in forms(desc)


def find(actions: Iterable[Descriptor], answer: object) -> int | None:
    """The id of the first action the answer names, or None."""
    for d in actions:
        if matches(d, answer):
            aid: int = d["id"]
            return aid
    return None
