"""The static types of the effect language.

Types are short strings. A list type has an element type (``players`` →
``player``). A single value is accepted where a list of its kind is expected
(``discard(c)`` for one card). ``any`` is what per-copy card data yields; it
matches every type. Any single value may be ``none`` at run time (a choice
from nothing); actions given ``none`` do nothing and count as not fully
resolved.
"""

from __future__ import annotations

PLAYER, PLAYERS = "player", "players"
CARD, CARDS = "card", "cards"
COLOR, COLORS = "color", "colors"
TEXT, TEXTS = "text", "texts"
CARDNAME, CARDNAMES = "cardname", "cardnames"
INT, BOOL, ANY, NONE = "int", "bool", "any", "none"
STATUS = "status"
DIRECTION = "direction"

ELEMENT = {PLAYERS: PLAYER, CARDS: CARD, COLORS: COLOR, TEXTS: TEXT, CARDNAMES: CARDNAME}
LIST_OF = {v: k for k, v in ELEMENT.items()}
LIST = "list"  # a parameter accepting any list type

DESCRIPTIONS = {
    PLAYER: "a player",
    PLAYERS: "a list of players",
    CARD: "a card",
    CARDS: "a list of cards",
    COLOR: "a color (red, blue, black)",
    COLORS: "a list of colors",
    TEXT: 'a text ("...")',
    TEXTS: "a list of texts",
    CARDNAME: "a card name in 【】",
    CARDNAMES: "a list of card names",
    INT: "a number",
    BOOL: "a condition (true/false)",
    ANY: "any value",
    NONE: "none",
    LIST: "a list",
    STATUS: "a status name",
    DIRECTION: "a direction (left, right, up)",
}


def accepts(expected: str, actual: str) -> bool:
    """May a value of type `actual` be passed where `expected` is wanted?"""
    if expected == actual or ANY in (expected, actual) or actual == NONE:
        return True
    if expected == LIST:
        return actual in ELEMENT or actual in LIST_OF
    if expected in ELEMENT and ELEMENT[expected] == actual:
        return True  # a single value where a list is expected
    return expected == STATUS and actual == TEXT  # a status may be given by its name


def element_of(t: str) -> str:
    if t in ELEMENT:
        return ELEMENT[t]
    if t in LIST_OF:
        return t  # a single value used as a one-item list
    return ANY


def list_of(t: str) -> str:
    if t in LIST_OF:
        return LIST_OF[t]
    if t in ELEMENT:
        return t
    return ANY


def describe(t: str) -> str:
    return DESCRIPTIONS.get(t, t)
