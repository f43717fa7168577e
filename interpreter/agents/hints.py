"""What the heuristic bot knows of a content set before any game: the content's `bot:` hints and the rules' camps.

Read from the content only (nothing hidden): each card kind's tactic, each skill's tactic, each secret task's
style (catalogue.BOT_CARD_TACTICS, BOT_SKILL_TACTICS, BOT_TASK_STYLES), each identity's camp colour and identity
colour, and the identity table. Kept apart from heuristic.py (how the bot plays) so that other bots
(search.py's rollouts) read the same hints.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from ..model.colors import COLOR_NAMES
from ..model.content import Content

# (Final: compiled, a name read where it is used — a string inlined, any other value from a C static — not looked
# up in the module's dict at each use, about 140 instructions)
OPPOSITE: Final = {"red": "blue", "blue": "red"}

# The tactics of catalogue.BOT_CARD_TACTICS the rules below use.
GRAB: Final = "grab"
MISLEAD: Final = "mislead"
SWAP: Final = "swap"
DECODE: Final = "decode"
CLEAR: Final = "clear"
THREATEN: Final = "threaten"
PROBE: Final = "probe"
BALANCE: Final = "balance"
LURE: Final = "lure"
PICK_BEST: Final = "pick_best"
HELPFUL: Final = frozenset({CLEAR, "helpful"})  # aimed at a camp-mate (or itself)
HARMFUL: Final = frozenset({THREATEN, BALANCE, PROBE, "harmful"})  # aimed at an enemy
KNOWN: Final = frozenset({GRAB, MISLEAD, SWAP, DECODE, CLEAR, THREATEN, PROBE, BALANCE, LURE})  # with a play rule
# The tactics of catalogue.BOT_SKILL_TACTICS (a skill's `bot:`): when it takes a skill, and how it aims the skill's
# seat choices (those of HELPFUL_SKILL and HARMFUL_SKILL, as the cards' `helpful` and `harmful`).
GAIN_SKILL: Final = "gain"
HARMFUL_SKILL: Final = "harmful"
HELPFUL_SKILL: Final = "helpful"
SAVE_SKILL: Final = "save"
SEND_SKILL: Final = "send"
# The styles of catalogue.BOT_TASK_STYLES (a secret task's `bot:`; tasks.py plays them).
COLLECT: Final = "collect"  # three intel of either colour wins
SPREAD: Final = "spread"  # the others must hold two red or blue
DIE: Final = "die"  # its own death with a red or blue intel wins
USURP: Final = "usurp"  # whoever wins in its own turn, it wins instead


@dataclass(frozen=True)
class Hints:
    """What a player knows of the game's content, from the content (no hidden information):
    each card kind's tactic, each identity's camp colour, each secret task's style."""

    tactics: Mapping[str, str] = field(default_factory=dict)  # card kind -> its `bot:` tactic
    camps: Mapping[str, str] = field(default_factory=dict)  # identity -> the colour its camp collects
    styles: Mapping[str, str] = field(default_factory=dict)  # secret task -> its `bot:` style
    table: Mapping[int, Mapping[str, int]] = field(default_factory=dict)  # players -> identity -> how many
    skills: Mapping[str, str] = field(default_factory=dict)  # skill id -> its `bot:` tactic
    colors: Mapping[str, str] = field(default_factory=dict)  # identity -> its identity colour (red, blue, black)


_HINTS: dict[int, tuple[Content, Hints]] = {}


def hints_of(content: Content | None = None) -> Hints:
    """The hints of a content set (default: the bundled game), read once per content object."""
    if content is None:
        from ..content.loader import load_cached

        content = load_cached()
    kept = _HINTS.get(id(content))
    if kept is None or kept[0] is not content:
        hints = Hints(
            {ct.id: ct.bot for ct in content.card_types.values() if ct.bot},
            {i.id: i.camp for i in content.identities.values() if i.camp in OPPOSITE},
            {t.id: t.bot for t in content.tasks.values() if t.bot},
            {int(n): dict(ids) for n, ids in content.rules.identity_table.items()},
            {s.id: s.bot for r in content.roles.values() for s in r.skills if s.bot},
            {i.id: COLOR_NAMES[i.color] for i in content.identities.values() if i.color in COLOR_NAMES},
        )
        kept = _HINTS[id(content)] = (content, hints)
    return kept[1]
