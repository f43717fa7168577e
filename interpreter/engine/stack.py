"""What is resolving now: the cards in use and the skills whose effects are running, innermost last.

A card's use is a :class:`UseFrame` from its target to its disposal; effects and
triggers may change it while it resolves (无效, a player claiming the card).
:class:`EffectStack` owns the frames and the stack; card use (card_use.py) and
skills (skills.py) push onto it and pop, effects change a use through its
operations (:meth:`EffectStack.nullify`, :meth:`EffectStack.claim_used_card`).
"""

from __future__ import annotations

from typing import Any

from .state import Card, Player


class UseFrame:
    """A card in use (使用中), from its target to its disposal: effects and triggers may change the use."""

    __slots__ = ("card", "nullified", "claimed_by")

    def __init__(self, card: Card | None) -> None:
        self.card = card  # the physical card, or None for a virtual use (视为使用)
        self.nullified = False  # 无效: the effect does not happen; the card still counts as used
        self.claimed_by: Player | None = None  # a player who takes the card into his hand once it has resolved


class EffectStack:
    """The cards in use (UseFrame) and the skills being resolved, innermost last."""

    def __init__(self) -> None:
        self.resolving: list[Any] = []  # UseFrames and Skills

    def push(self, item: Any) -> None:
        """A card use (its UseFrame) or a skill starts resolving."""
        self.resolving.append(item)

    def pop(self) -> None:
        """The innermost one has resolved."""
        self.resolving.pop()

    def current_use(self) -> UseFrame | None:
        """The innermost card in use, if any."""
        for item in reversed(self.resolving):
            if isinstance(item, UseFrame):
                return item
        return None

    def by_skill(self) -> bool:
        """Is a role skill (not a card) the innermost effect resolving now?"""
        return bool(self.resolving) and not isinstance(self.resolving[-1], UseFrame)

    def nullify(self) -> bool:
        """无效: the innermost card in use will not take effect. False if there is none or it already is."""
        frame = self.current_use()
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
