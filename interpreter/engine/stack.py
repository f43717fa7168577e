"""What is resolving now: the cards in use and the skills whose effects are running, innermost last.

A card's use is a :class:`UseFrame` from its target to its disposal; effects and
triggers may change it while it resolves (无效, a player claiming the card).
:class:`EffectStack` owns the frames and the stack; card use (card_use.py) and
skills (skills.py) push onto it and pop, effects change a use through its
operations (:meth:`EffectStack.nullify`, :meth:`EffectStack.claim_used_card`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Final

from ..catalogue import LIMITS
from .errors import EngineError
from .state import Card, Player

if TYPE_CHECKING:
    from .core import GameCore
    from .zones import Zones

MAX_NESTING: Final[int] = LIMITS["max_nesting"].value
MAX_STACK: Final[int] = LIMITS["max_stack"].value


class UseFrame:
    """A card in use (使用中), from its target to its disposal: effects and triggers may change the use."""

    __slots__ = (
        "card",
        "used_as",
        "nullified",
        "claimed_by",
        "user",
        "target",
        "answers",
        "timing",
        "at_idle",
        "in_effect",
    )

    def __init__(self, card: Card | None, used_as: Any = None, user: Player | None = None) -> None:
        self.card = card  # the physical card, or None for a virtual use (视为使用)
        self.used_as = used_as  # the card type it is used as (its label names it in messages)
        self.nullified = False  # 无效: the effect does not happen; the card still counts as used
        self.claimed_by: Player | None = None  # a player who takes the card into his hand once it has resolved
        self.user = user  # who uses it
        self.target: Player | None = None  # its target, once chosen
        # a use made at the `respond` idle point: the use it answers (its effect's nullify() makes that one void)
        self.answers: UseFrame | None = None
        self.timing: str | None = None  # the idle point its use is written for (a use at `dying` has effect regardless)
        # used as an idle point's answer (CardUse.perform: the play phase, the contest, dying, respond ...), not by an
        # effect: the queued rules offer `respond` for it (EffectStack.answer_chain)
        self.at_idle = False
        self.in_effect = False  # its effect has begun (CardUse._resolve_use): a card used inside it is not answered

    def chain(self) -> tuple[tuple[int | None, str, int | None], ...]:
        """What everyone knows of this use and of those it answers in turn (each a `card_used` record's user, card
        used as and target), this one first: the decision of a seat asked at the `respond` idle point carries it
        (observation.md, the decision's `answering`)."""
        got: list[tuple[int | None, str, int | None]] = []
        f: UseFrame | None = self
        while f is not None:
            user, target = f.user, f.target
            got.append(
                (user.seat if user is not None else None, f.used_as.id, target.seat if target is not None else None)
            )
            f = f.answers
        return tuple(got)

    def answerable(self, in_death: AbstractSet[Player]) -> bool:
        """May it still be answered at the `respond` idle point (一张牌生效前)? Not once it is void, nor once its
        target is dead unless it was used at `dying`, nor once its user is dead and his death has resolved
        (`in_death`: those whose death is resolving): it would do nothing (CardUse._resolve_use; docs/rulings.md
        R171, R174; the queued and the stack rules both ask this)."""
        return not self.nullified and self.takes_effect(in_death)

    def takes_effect(self, in_death: AbstractSet[Player]) -> bool:
        """Would it take effect, if not void: its target alive (or it is used at `dying`, whatever its target) and its
        user alive or his death resolving (`in_death`: a 死亡前 skill's use)? Else the card is spent and does nothing
        (docs/rulings.md R16, R174)."""
        target, user = self.target, self.user
        return (target is None or target.alive or self.timing == "dying") and (
            user is None or user.alive or user in in_death
        )


class EffectStack:
    """The cards in use (UseFrame) and the skills being resolved, innermost last."""

    def __init__(self, game: GameCore, zones: Zones) -> None:
        self.game = game
        self.zones = zones
        # E502's limit: under stack timing a card waiting on the stack (priority.py) keeps its frame here, so the
        # cards waiting (at most MAX_STACK: E505) come on top of those resolving inside one another
        self.limit = MAX_NESTING + (MAX_STACK if game.rules.resolution == "stack" else 0)
        self.resolving: list[Any] = []  # UseFrames and Skills
        # per item resolving, how many cards were on show when it began (Zones.showing): its end ends the shows
        # made since (a shown card is on show while the effect that showed it resolves: Zones.reveal)
        self.shows_before: list[int] = []
        # the card use being answered while the `respond` idle point is offered (CardUse.offer_respond; under stack
        # timing the top of the stack while priority is given, StackTiming): what `answered` reads then
        self.answering: UseFrame | None = None

    def push(self, item: Any) -> None:
        """A card use (its UseFrame) or a skill starts resolving: one step of the game's budget (E501), and
        at most MAX_NESTING inside one another (E502: a use that keeps re-triggering itself; `limit`)."""
        resolving = self.resolving
        if len(resolving) >= self.limit:
            waiting = f" + max_stack {MAX_STACK}, the cards waiting on the stack" if self.limit > MAX_NESTING else ""
            raise EngineError(
                f"nesting too deep: more than {self.limit} cards and skills resolving inside one another (the nesting "
                f"limit, max_nesting {MAX_NESTING}{waiting}): a use that triggers itself again? "
                + self.chain([*resolving, item]),
                "E502",
            )
        resolving.append(item)
        self.shows_before.append(len(self.zones.showing))
        game = self.game
        game.budget_line -= 1
        if game.changes + game.zones.moves > game.budget_line:
            game.over_budget()

    def pop(self) -> None:
        """The innermost one has resolved: the cards it showed are no longer on show (with the last one, none is:
        a card shown while nothing resolved is on show until then)."""
        self.resolving.pop()
        mark = self.shows_before.pop()
        zones = self.zones
        if len(zones.showing) > mark or (zones.showing and not self.resolving):
            zones.end_shows(mark if self.resolving else 0)
        if zones.drawn and not self.resolving:  # an order drawn at random (shuffled) lasts while effects resolve
            zones.drawn.clear()

    def chain(self, items: list[Any] | None = None) -> str:
        """What is resolving, outermost first, for messages (`【卡名】 → 角色（称号）·技能 → …`), a long
        chain cut in the middle, and how often each name occurs in it."""
        items = self.resolving if items is None else items
        if not items:
            return "no card or skill resolving"
        return chain_text([_label(i) for i in items])

    def current_use(self) -> UseFrame | None:
        """The innermost card in use, if any."""
        resolving = self.resolving
        for i in range(len(resolving) - 1, -1, -1):  # innermost first (no reversed(): mypyc)
            item = resolving[i]
            if isinstance(item, UseFrame):
                return item
        return None

    def by_skill(self) -> bool:
        """Is a role skill (not a card) the innermost effect resolving now?"""
        return bool(self.resolving) and not isinstance(self.resolving[-1], UseFrame)

    def answered(self) -> UseFrame | None:
        """The card use a `respond` use answers: the one being answered while the idle point is offered, else the
        one the innermost card in use answers (its effect resolving, under stack timing after the offer)."""
        if self.answering is not None:
            return self.answering
        frame = self.current_use()
        return frame.answers if frame is not None else None

    def answer_chain(self) -> bool:
        """May the innermost card use be answered under the queued rules: was it used at an idle point (an answer at
        `respond` included: an answer to an answer), not by an effect, with no skill's effect resolving around it,
        nor a card's? The card uses below it wait at `respond` for their answers, or at a node before their effect
        (指定目标后, 卡牌生效前) where a dying round is asked."""
        resolving = self.resolving
        if not resolving:
            return False
        top = resolving[-1]
        if not isinstance(top, UseFrame) or not top.at_idle:
            return False
        # (none below it has begun its effect: a dying round inside a card's effect inserts nothing into it, as
        # inside a skill's: seed 004)
        return all(isinstance(item, UseFrame) and not item.in_effect for item in resolving)

    def nullify(self) -> bool:
        """无效: the innermost card in use will not take effect — or, run by the effect of a card used at the
        `respond` idle point itself (not by a skill it triggered), the card it answers. False if there is none or
        it already is."""
        frame = self.current_use()
        if frame is not None and frame.answers is not None and self.resolving[-1] is frame:
            frame = frame.answers
        if frame is None or frame.nullified:
            return False
        frame.nullified = True
        return True

    def claim_used_card(self, p: Player) -> bool:
        """p takes the innermost card in use into his hand once it has resolved. False if no card is in use."""
        frame = self.current_use()
        if frame is None or frame.card is None:
            return False
        frame.claimed_by = p
        return True


def chain_text(names: list[str]) -> str:
    """Names outermost first, `a → b → …`, a long chain cut in the middle, and how often each name occurs in it."""
    shown = names if len(names) <= 8 else [*names[:4], "…", *names[-3:]]
    text = " → ".join(shown)
    counts = Counter(names)
    if len(names) > len(counts):
        text += " (" + ", ".join(f"{n} ×{k}" for n, k in counts.most_common()) + ")"
    return text


def _label(item: Any) -> str:
    """A card in use by what it is used as; a skill by its name and its role's."""
    if isinstance(item, UseFrame):
        return str(item.used_as.label()) if item.used_as is not None else "a card"
    role = getattr(item, "role", None)
    return f"{role.label()}·{item.name}" if role is not None else str(getattr(item, "name", item))
