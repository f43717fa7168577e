"""The rule vocabulary: every name the rules, the language and the logs share, declared once.

A leaf module (it imports nothing from the project). Each entry carries its
English documentation and its Chinese wording; the checker, the loader's
environments, ``describe``, the JSON Schema enums and the tables in
``docs/language.md`` come from here or are tested against it
(``tests/test_catalogue.py`` fails on drift). Adding a trigger event is one
entry here plus the engine hook that emits it.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------------- decision kinds


@dataclass(frozen=True)
class DecisionKind:
    """A kind of choice the rules give a player (stable names: logs, replays and scenario files use them)."""

    name: str
    doc: str


DECISIONS: dict[str, DecisionKind] = {
    d.name: d
    for d in (
        DecisionKind("play", "an idle point: use a card or a skill, or pass"),
        DecisionKind("send", "传递阶段: which hand card to send (or a card that replaces sending)"),
        DecisionKind("send_target", "an ↑ intel: to whom"),
        DecisionKind("lock", "a lockable intel: whom to lock (or nobody)"),
        DecisionKind("receive", "the intel is in front of you: accept it, or pass it on"),
        DecisionKind("target", "the target of a card"),
        DecisionKind("choose", "a choice inside an effect (a player, card, color, text or card name)"),
        DecisionKind("confirm", "可以: do it or not"),
        DecisionKind("option", "选择一项: one of an effect's options"),
        DecisionKind("death_give_target", "a dying player's last gift: to whom (or nobody)"),
        DecisionKind("death_give_card", "... and which cards, one at a time"),
        DecisionKind("role", "setup: which of the dealt roles to keep"),
    )
}
