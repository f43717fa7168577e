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


def matches(desc: Descriptor, answer: object) -> bool:
    """Does a written answer (str or bool) name this action descriptor?"""
    kind: str = desc["kind"]
    if isinstance(answer, bool):
        return kind == ("yes" if answer else "no")
    if not isinstance(answer, str):
        return False
    a = answer.strip()
    if a == desc["label"]:
        return True
    if kind == "none":
        return a in _NONE_WORDS
    if kind == "yes":
        return a in _YES
    if kind == "no":
        return a in _NO
    if kind == "card":
        c = desc["card"]
        return a in (f"#{c['id']}", str(c["id"]), c["name"], c["card"])
    if kind == "seat":
        return a in (f"P{desc['seat']}", str(desc["seat"]))
    if kind == "pass":
        return a == "pass"
    if kind == "skill":
        return a in (f"skill {desc['name']}", f"skill {desc['skill']}", f"use {desc['name']}")
    if kind == "use":
        if not a.startswith("use "):
            return False
        c = desc["card"]
        return a[4:].strip() in (f"#{c['id']}", str(c["id"]), c["name"], c["card"], desc["as"], desc["as_name"])
    if kind == "color":
        color: str = desc["value"]
        return a == color
    if kind == "blind":
        return a == f"blind {desc['index'] + 1}"
    if kind == "card_name":
        return a in (desc["value"], desc["name"], f"【{desc['name']}】")
    if kind in ("role", "identity", "task", "direction", "option"):
        return a == str(desc["value"])
    return False


def find(actions: Iterable[Descriptor], answer: object) -> int | None:
    """The id of the first action the answer names, or None."""
    for d in actions:
        if matches(d, answer):
            aid: int = d["id"]
            return aid
    return None
