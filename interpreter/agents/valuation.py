"""What an intel is worth, to the heuristic bot's side, in front of a seat: the values its choices weigh.

A card's colours are worth something to the seat that receives them (its camp's colour, a third black its death,
a secret task's style for a seat without a camp: tasks.py), and that worth is the bot's gain or loss by the odds that
the seat is a camp-mate or an enemy (memory.py). Every decision of the bot that moves an intel — a send's plan, a
contest card, a card into an intel area, an intel received — weighs these values, often the same seat and colours
again and again within one decision and from one decision to the next: so they are kept per observation (what they
are worked out from is fixed while the bot decides) and, where nothing they read changed, from one observation to the
next. The decisions themselves are heuristic.py's; this module is its base class, so that each stays one job.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .base import Agent, Observation, mypyc_attr
from .hints import OPPOSITE, SPREAD, USURP, Hints
from .memory import Memory
from .tasks import needed_for_death, style_now, task_value

# (Final: compiled, read where used, not looked up in the module's dict: hints.py)
OPPOSING_VALUE: Final = -0.3  # a visible intel of the opposing colour: not worth taking
KILL_OTHERS: Final = 1.0  # another seat's third black (its death) is worth to that seat what any black is, not -10
USURP_GAIN: Final = 5.0  # a `usurp` task, in its own turn: another seat's third red or blue (its win is the bot's)
# a bot without a camp: another seat's red or blue intel brings a camp's win, its loss, nearer: -RIVAL_STEP to it
# (not to a `spread` task, which wants the others to hold two), -RIVAL_THIRD when it is that seat's third of the colour
RIVAL_STEP: Final = 0.3
RIVAL_THIRD: Final = 1.5


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # (as Agent, base.py)
class Valuation(Agent):
    """The values of a bot that reads its seat's observation with a Memory: the base of HeuristicAgent."""

    def __init__(self, hints: Hints) -> None:
        self.camps, self.styles = hints.camps, hints.styles
        self.memory = Memory(hints)  # what it has read of the game, and the odds of each seat's camp
        self._values_of: Observation | None = None  # the observation the values below were worked out for
        self._benefits: dict[int, dict[tuple[str, ...], float]] = {}  # seat -> colours -> _benefit (asked often)
        self._paths: dict[tuple[str, int | None], list[tuple[int, float]]] = {}  # a send's way and rates, so too
        # (colours, direction, lockable) -> the plan of a card sent so, so too
        self._plan_of: dict[tuple[tuple[str, ...], str, bool], tuple[float, int | None, int | None]] = {}
        self._mine: str | None = None  # the colour its camp collects (None: no camp), so too
        self._style: str | None = None  # its secret task's style (None: no task, or one without a hint), so too
        # seat -> _hidden_benefit with what it was worked out from (its benefits, the kinds seen and their count)
        self._hidden: dict[int, tuple[dict[tuple[str, ...], float], dict[tuple[str, ...], int], int, float]] = {}
        self._counts_of: dict[int, dict[str, int]] = {}  # seat -> its intel counts by colour (_counts), so too
        # seat -> (what its benefits are worked out from, those worked out): kept from one observation to the next
        self._values_kept: dict[int, tuple[tuple[Any, ...], dict[tuple[str, ...], float]]] = {}

    def _keep(self, obs: Observation) -> None:
        """What a decision asks more than once (benefits, a send's ways) is kept per observation:
        what it is worked out from is fixed while the bot decides on it (_remember forgets it)."""
        if obs is not self._values_of:
            self._values_of, self._benefits, self._paths, self._plan_of = obs, {}, {}, {}
            self._counts_of = {}
            self._mine = self.camps.get(obs["me"]["identity"] or "")
            style = self.styles.get(obs["me"].get("task") or "")
            # (only a `spread` task's style depends on the table: the others' are their own, no call needed)
            self._style = style_now(style, obs["players"], obs["seat"]) if style == SPREAD else style

    # ------------------------------------------------------------------ values

    def _counts(self, obs: Observation, seat: int) -> dict[str, int]:
        """A seat's intel counts by colour, as a plain dict kept per observation (the values read them again and
        again: a plain dict's lookup is the fast one, compiled)."""
        if obs is not self._values_of:
            self._keep(obs)
        counts = self._counts_of.get(seat)
        if counts is None:
            counts = self._counts_of[seat] = dict(obs["players"][seat]["intel_counts"])
        return counts

    def _value_to(self, obs: Observation, seat: int, colors: Sequence[str]) -> float:
        """How good an intel of these colours is for `seat` to receive: for itself, or for any seat when the
        bot has no camp (its secret task's style says what it wants)."""
        if obs is not self._values_of:
            self._keep(obs)
        mine = self._mine
        if mine is not None:
            return self._value_as(obs, seat, colors, mine)
        return task_value(self._style, self._counts(obs, seat), seat == obs["seat"], colors)

    def _value_as(self, obs: Observation, seat: int, colors: Sequence[str], good: str | None) -> float:
        """How good an intel of these colours is for `seat` if its camp collects `good` (None: no camp). A third
        black is its own death (-10); for another seat it counts as any black: the bot does not count on a
        death at the table, neither an enemy's nor a camp-mate's (KILL_OTHERS: 10 players 391 -> 422 won)."""
        counts = self._counts(obs, seat)
        third = 10.0 if seat == obs["seat"] else KILL_OTHERS
        v = -(third if counts["black"] >= 2 else 1.0) if "black" in colors else 0.0
        if good is None:
            return v if "black" in colors else v + 0.2
        if good in colors:
            v += 5.0 if counts[good] >= 2 else 1.0
        if OPPOSITE[good] in colors:
            v += OPPOSING_VALUE
        return v

    def _benefit(self, obs: Observation, seat: int, colors: Sequence[str]) -> float:
        """How good it is for this bot's side that `seat` receives this intel (kept, as the odds: a send's plans ask it
        of the same seats and colours again and again, and most observations change nothing it is worked out from)."""
        if obs is not self._values_of:
            self._keep(obs)
        if type(colors) is not tuple:
            return self._work_out_benefit(obs, seat, colors)
        values = self._benefits.get(seat)
        if values is None:
            values = self._benefits[seat] = self._values(obs, seat)
        v = values.get(colors)
        if v is None:
            v = values[colors] = self._work_out_benefit(obs, seat, colors)
        return v

    def _values(self, obs: Observation, seat: int) -> dict[tuple[str, ...], float]:
        """The benefits to `seat` worked out so far, by colours: the same dict from one observation to the next while
        all that _work_out_benefit reads is the same (whether the seat is its own; for a camp bot its camp, which of
        the seat's intel counts are two or more and the seat's odds; else the seat's counts, the bot's task style and
        whether it is its own turn). Most observations change that for no seat: a seat's counts change as it takes an
        intel, its odds as the bot sees what it took. Equal odds and counts: the same values."""
        me, mine = obs["seat"], self._mine
        counts = obs["players"][seat]["intel_counts"]
        key: tuple[Any, ...]
        if mine is not None:
            twos = (counts["black"] >= 2, counts[mine] >= 2, counts[OPPOSITE[mine]] >= 2)
            key = (seat == me, mine, twos, self.memory.odds(obs, seat) if seat != me else None)
        else:
            key = (seat == me, None, counts, self._style, seat != me and obs["current"] == me)  # (`usurp`: its turn)
        kept = self._values_kept.get(seat)
        if kept is not None and kept[0] == key:
            return kept[1]
        values: dict[tuple[str, ...], float] = {}
        self._values_kept[seat] = (key, values)
        return values

    def _work_out_benefit(self, obs: Observation, seat: int, colors: Sequence[str]) -> float:
        mine = self._mine
        if mine is not None:  # (a camp bot's two cases worked out here in _value_as's steps: the commonest values;
            # its counts read only as two or more of a colour: _values keeps the values while those are the same)
            counts, other, own = self._counts(obs, seat), OPPOSITE[mine], seat == obs["seat"]
            third = 10.0 if own else KILL_OTHERS
            as_mine = as_other = -(third if counts["black"] >= 2 else 1.0) if "black" in colors else 0.0
            if mine in colors:
                as_mine += 5.0 if counts[mine] >= 2 else 1.0
            if other in colors:
                as_mine += OPPOSING_VALUE
                as_other += 5.0 if counts[other] >= 2 else 1.0
            if own:  # its own intel: _value_as(.., mine), its friendliness to itself being 1
                return as_mine
            if mine in colors:
                as_other += OPPOSING_VALUE
            # a camp-mate's gain is the bot's, an enemy's its loss; a seat without a camp counts neither way:
            # mate * _value_as(.., mine) - enemy * _value_as(.., the other camp's colour)
            mate, enemy, _ = self.memory.odds(obs, seat)
            return mate * as_mine - enemy * as_other
        me = obs["seat"]  # (a bot without a camp from here on)
        usurp = seat != me and obs["current"] == me and self._style == USURP
        if usurp and any(c in colors and self._counts(obs, seat)[c] >= 2 for c in ("red", "blue")):  # its own turn:
            return USURP_GAIN  # whoever wins, it wins instead, so another seat's third red or blue is its own win
        f = self.memory.friend(obs, seat)
        v = self._value_to(obs, seat, colors)
        b = f * v if f > 0 else -abs(f) * v if f < 0 else -0.1 * v
        if seat != me:  # whoever wins, it loses (a `spread` task wants the others to hold two: only a third counts)
            counts, spread = self._counts(obs, seat), self._style == SPREAD
            for c in ("red", "blue"):
                if c in colors and (counts[c] >= 2 or not spread):
                    b -= RIVAL_THIRD if counts[c] >= 2 else RIVAL_STEP
        return b

    def _kept_worth(self, obs: Observation, seat: int, colors: Sequence[str]) -> float:
        """What a card of these colours lying in `seat`'s intel area is worth there to this bot's side (a card chosen
        out of an intel area goes: the one worth least there): as if received (_benefit), and a card its own win
        needs there (a `die` task's only red or blue intel: tasks.py) kept above any other."""
        v = self._benefit(obs, seat, colors)
        if seat == obs["seat"] and needed_for_death(self._style, self._counts(obs, seat), colors):
            v += 10.0
        return v

    def _hidden_benefit(self, obs: Observation, seat: int) -> float:
        """What a face-down intel is worth to this bot's side in front of `seat`: the average over the colours
        of every card it has seen (its best guess of the deck's). Kept while the seat's benefits are kept (_values)
        and the cards seen by kind are the same: their dict grows only as the count of cards seen does, else is new."""
        if obs is not self._values_of:
            self._keep(obs)
        total, kinds = len(self.memory.colors), self.memory.kinds()
        values = self._benefits.get(seat)
        if values is None:
            values = self._benefits[seat] = self._values(obs, seat)
        kept = self._hidden.get(seat)
        if kept is not None and kept[0] is values and kept[1] is kinds and kept[2] == total:
            return kept[3]
        benefit = self._benefit
        v = sum([k * benefit(obs, seat, colors) for colors, k in kinds.items()]) / total if total else 0.0
        self._hidden[seat] = (values, kinds, total, v)
        return v
