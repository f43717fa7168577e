"""A 神秘人's secret task as the heuristic bot (heuristic.py) plays it, by the task's `bot:` style
(catalogue.BOT_TASK_STYLES): what an intel is worth to a seat when the bot has no camp, and the rules of play a
style changes. Plain functions of the style and a seat's intel counts: no task is named, only its hint.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .hints import COLLECT, DIE, SPREAD, USURP

# a `spread` task plays for its goal only while at most this many other living seats hold fewer than two red or blue
# intel; further from it, it plays as a task without a style (10 players, seeds 20-29: its games won 22 -> 33 of 280)
SPREAD_REACH: Final = 3


def task_value(style: str | None, counts: Mapping[str, int], own: bool, colors: Sequence[str]) -> float:
    """How good an intel of these colours is for a seat holding `counts` to receive, as a bot without a camp sees it
    (`own`: the seat is the bot's own), by its task's style (None: a task without a hint, or none): ``collect`` either
    colour is its own, three of one; ``spread`` the others need two red or blue; ``die`` its own death with a red or
    blue intel wins; otherwise stay alive. A third black is a death (-10), any other black -1."""
    v = 0.0
    colored = counts["red"] + counts["blue"]
    if style == COLLECT and own:  # either colour, three of one
        for c in ("red", "blue"):
            if c in colors:
                v += 5.0 if counts[c] >= 2 else 1.0
    elif style == SPREAD and not own and colored < 2:  # others need two red or blue
        v += 1.0 if "red" in colors or "blue" in colors else 0.0
    elif own and "black" in colors and death_wins(style, counts):
        return 5.0 if counts["black"] >= 2 else 1.0  # its own death with a coloured intel wins
    if "black" in colors:
        v -= 10.0 if counts["black"] >= 2 else 1.0
    if style is not None and style != USURP:  # (out of its turn a `usurp` task plays as one without a hint)
        return v + (0.3 if style == DIE and ("red" in colors or "blue" in colors) else 0.0)
    return v if "black" in colors else v + 0.2


def style_now(style: str | None, players: Sequence[Any], me: int) -> str | None:
    """The style a bot whose task has `style` plays by at this moment (`players`: the observation's rows). A ``spread``
    task (every other living seat must hold two red or blue intel at the end of its own turn) is out of reach while
    more than SPREAD_REACH of them hold fewer: it then plays as a task without a style (black to the others, every
    camp's third a loss) instead of feeding the camps red and blue, and takes up its style as the goal comes near."""
    if style != SPREAD:
        return style
    short = 0
    for p in players:
        if p["alive"] and p["seat"] != me:
            counts = p["intel_counts"]
            if counts["red"] + counts["blue"] < 2:
                short += 1
    return style if short <= SPREAD_REACH else None


def death_wins(style: str | None, counts: Mapping[str, int]) -> bool:
    """Whether its own death would now win for a bot whose task has this style, holding `counts`: a ``die`` task once
    it holds a red or blue intel. Such a bot welcomes a black (task_value), takes a face-down intel even with two
    blacks (heuristic.py's receive) and keeps the blacks it holds: no `clear` card on itself (7 and 10 players,
    seeds 0 and 1: its games won better in 14, worse in 2: docs/bots.md)."""
    return style == DIE and counts["red"] + counts["blue"] > 0


def needed_for_death(style: str | None, counts: Mapping[str, int], colors: Sequence[str]) -> bool:
    """Whether a card of these colours in the intel area of a bot whose task has this style, holding `counts`, is one
    its win needs there: a ``die`` task's only red or blue intel (its death wins only while it holds one). Taken out of
    its intel area (a card chosen there: choices.py's `from_intel`), the death it welcomes would no longer win."""
    if not death_wins(style, counts):
        return False
    left = {c: counts[c] - (1 if c in colors else 0) for c in ("red", "blue", "black")}
    return not death_wins(style, left)


def lures_itself(style: str | None, counts: Mapping[str, int]) -> bool:
    """Whether a bot without a camp, holding `counts`, aims a `lure` card (the deck's top card into a seat's intel) at
    itself, by its task's style: a ``collect`` task while it holds no black, as a camp bot does (7-10 players, twelve
    runs: its games won better in 52, worse in 26); a ``die`` task unless a black drawn would only kill it (no red or
    blue intel yet and two blacks): a colour or a black is progress (better 47, worse 30: docs/bots.md)."""
    if style == COLLECT:
        return counts["black"] == 0
    if style == DIE:
        return death_wins(style, counts) or counts["black"] < 2
    return False
