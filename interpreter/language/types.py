"""The static types of the effect language.

Types are short strings. A list type has an element type (``players`` →
``player``). A single value is accepted where a list of its kind is expected
(``discard(c)`` for one card); the empty list ``[]`` is accepted where any list
is. A player, a card, a color, a text, a card name, a direction may be
``none`` at run time (a choice from nothing); actions given ``none`` do nothing
and count as not fully resolved. A number and a condition never are: the
constant ``none`` is refused where one is wanted, and what could yield nothing
yields 0 (a mark or a data slot read as a number) or false.

``any`` is not a type a value has. It is what ``exists(x)`` accepts (every
value), and the type the checker gives an expression it has already reported
as wrong, so that one mistake is reported once.
"""

from __future__ import annotations

PLAYER, PLAYERS = "player", "players"
CARD, CARDS = "card", "cards"
COLOR, COLORS = "color", "colors"
TEXT, TEXTS = "text", "texts"
CARDNAME, CARDNAMES = "cardname", "cardnames"
INT, BOOL, ANY, NONE = "int", "bool", "any", "none"
EMPTY = "empty"  # the list literal []: accepted where any list is
KEY = "key"  # a data slot's key: a text or a color
NOT_NONE = (INT, BOOL)  # the types `none` does not stand in for
BY_PLACE = "by place"  # mark(...) and data(...): the type the place of the call asks for (compiler.py)
MARK_VALUE = "mark value"  # what set_mark remembers: one value a typed read gives back (builtins.MARK_READS)
MARK_VALUES = (INT, COLOR, PLAYER, CARD, CARDNAME, TEXT, BOOL)
MAX_NUMBER = 999_999_999  # numbers kept in marks are clamped to ±this (the largest number code may write)
STATUS = "status"
COUNTER = "counter"  # a counter's name, as the rules declare it (`counters:`): a text written out
ZONE = "zone"  # a zone's name, as the rules declare it (`zones:`): a text written out
EVENT = "event"  # an event's name, as the rules declare it (`events:`): a text written out
TIMING = "timing"  # an idle point's name (catalogue.TIMINGS): a text written out
DIRECTION, DIRECTIONS = "direction", "directions"

ELEMENT = {PLAYERS: PLAYER, CARDS: CARD, COLORS: COLOR, TEXTS: TEXT, CARDNAMES: CARDNAME, DIRECTIONS: DIRECTION}
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
    EMPTY: "an empty list []",
    KEY: "a text or a color",
    BY_PLACE: "the type its place asks for",
    MARK_VALUE: "one number, color, player, card, card name, text or true/false",
    LIST: "a list",
    STATUS: "a status name",
    COUNTER: "a counter the rules declare (its name in quotes)",
    ZONE: "a zone the rules declare (its name in quotes)",
    EVENT: "an event the rules declare (its name in quotes)",
    TIMING: 'an idle point (its name in quotes: "play_phase", "contest" …)',
    DIRECTION: "a direction (left, right, up)",
    DIRECTIONS: "a list of directions",
}


def accepts(expected: str, actual: str) -> bool:
    """May a value of type `actual` be passed where `expected` is wanted?"""
    if expected == actual or ANY in (expected, actual):
        return True
    if actual == NONE:
        return expected not in NOT_NONE
    if actual == EMPTY:
        return expected in ELEMENT or expected == LIST
    if expected == MARK_VALUE:
        return actual in MARK_VALUES
    if expected == KEY:
        return actual in (TEXT, COLOR)
    if expected == LIST:
        return actual in ELEMENT or actual in LIST_OF
    if expected in ELEMENT and ELEMENT[expected] == actual:
        return True  # a single value where a list is expected
    # a status, counter, zone, event or idle point: by name
    return expected in (STATUS, COUNTER, ZONE, EVENT, TIMING) and actual == TEXT


def element_of(t: str) -> str:
    if t in (EMPTY, NONE):
        return NONE  # the item of an empty list (or of none): a choice from it yields none
    if t in ELEMENT:
        return ELEMENT[t]
    if t in LIST_OF:
        return t  # a single value used as a one-item list
    return ANY


def list_of(t: str) -> str:
    if t in (EMPTY, NONE):
        return EMPTY
    if t in LIST_OF:
        return LIST_OF[t]
    if t in ELEMENT:
        return t
    return ANY


def describe(t: str) -> str:
    return DESCRIPTIONS.get(t, t)
