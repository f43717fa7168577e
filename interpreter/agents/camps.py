"""What the heuristic bot (heuristic.py) reckons of another seat's camp: the odds that it is a camp-mate, an enemy
or a seat without a camp, from the identities the rules deal at this player count, those it knows, what its own
probes ruled out (probes.py) and how the seat took intel it could see (its lean). Plain functions of the bot's
hints and of what it read: the bot keeps their results (per observation, or for the game)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Final

# the places of the three odds
MATE: Final = 0
ENEMY: Final = 1
NO_CAMP: Final = 2
LEAN: Final = 0.7  # each intel of a colour a seat accepted when it could see it: ×e^±LEAN


def camp_index(camps: Mapping[str, str], ident: str | None, mine: str | None) -> int:
    """MATE: an identity of the camp `mine`, ENEMY: of another camp, NO_CAMP: of none."""
    camp = camps.get(ident or "")
    return MATE if camp == mine else ENEMY if camp is not None else NO_CAMP


def identities_left(
    camps: Mapping[str, str], dealt: Mapping[str, int], mine: str | None, out: Iterable[str | None]
) -> tuple[float, float, float]:
    """How many of the identities `dealt` (identity -> copies at this player count) are left by camp once those
    `out` (its own, the ones it knows) are taken out. Whole numbers: the sums are exact in any order."""
    left = [0.0, 0.0, 0.0]
    for ident, count in dealt.items():
        left[camp_index(camps, ident, mine)] += count
    for gone in out:
        left[camp_index(camps, gone, mine)] -= 1
    return left[MATE], left[ENEMY], left[NO_CAMP]


def camps_allowed(
    camps: Mapping[str, str], colors: Mapping[str, str], mine: str | None, allowed: frozenset[str]
) -> set[int]:
    """The camps (as camp_index) of the identities whose colour is among `allowed` (what its probes left)."""
    return {camp_index(camps, i, mine) for i, c in colors.items() if c in allowed}


def weigh(left: list[float], lean: float, mine: str | None) -> tuple[float, float, float]:
    """The odds (mate, enemy, no camp) from the identities a seat may have, by camp (`left`), moved by its lean
    (red minus blue intel it took when it could see them) towards the camp whose colour it took."""
    mate, enemy, neutral = (max(x, 0.0) for x in left)
    if mate + enemy + neutral <= 0:  # (a table the rules do not list: as many mates as enemies)
        mate, enemy, neutral = 1.0, 1.0, 0.0
    tilt = lean * (1 if mine == "red" else -1) * LEAN
    mate, enemy = mate * math.exp(tilt), enemy * math.exp(-tilt)
    total = mate + enemy + neutral
    return mate / total, enemy / total, neutral / total
