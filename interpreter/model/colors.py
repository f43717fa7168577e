"""The three colors as values: a bit each, so a dual-color card is two bits set.

A leaf module: content (identity colors, per-copy card data), the language and
the engine all use these values, and it imports nothing of the project.
"""

from __future__ import annotations

from typing import Final


class Color(int):
    """A color as a value (its bit), labelled in Chinese when offered as an option."""

    __slots__ = ()

    def label(self) -> str:
        return COLOR_ZH.get(int(self), str(int(self))) + "色"

    def to_json(self) -> str | int:
        return COLOR_NAMES.get(int(self), int(self))


# The bits as plain int literals: an index by colour (Player.counts) or a mask test the compiled engine inlines
RED_BIT: Final = 1
BLUE_BIT: Final = 2
BLACK_BIT: Final = 4
RED, BLUE, BLACK = Color(RED_BIT), Color(BLUE_BIT), Color(BLACK_BIT)
COLOR_BITS = {"red": RED, "blue": BLUE, "black": BLACK}
COLOR_NAMES: dict[int, str] = {RED: "red", BLUE: "blue", BLACK: "black"}
COLOR_ZH: dict[int, str] = {RED: "红", BLUE: "蓝", BLACK: "黑"}

# The colours whose count sets off the collect check: engine/resolution.py and engine/victory.py test RED_BIT and
# BLUE_BIT against the rules' collect_count. The engine fixes them, not the content: a camp's `collects:` (rules.yaml)
# only describes the camp (describe shows it), so a third camp that collects black wins by its own conditions, at a
# collect check that red or blue set off. The texts that name the check (a game's ending, describe's victory
# conditions) read the colours here and the count from the rules, so they say what the engine does.
COLLECT_CHECKED: Final = (RED, BLUE)


def collect_check_words() -> str:
    """The collect check's colours as the texts say them (Color.label, joined by 或)."""
    return "或".join(c.label() for c in COLLECT_CHECKED)


def collect_check_names() -> str:
    """The collect check's colours in English (their ids, joined by "or"), as simulate's and the balance report's
    endings say them."""
    return " or ".join(COLOR_NAMES[c] for c in COLLECT_CHECKED)
