"""The agent interface."""
from __future__ import annotations


class Agent:
    """Answers decisions for one seat.

    ``decide`` receives the :class:`~interpreter.engine.decisions.Decision` and
    the game; an honest agent reads the game only through ``game.view(seat)``,
    which exposes what that seat may see. It returns an index into
    ``decision.options``.
    """

    def decide(self, decision, game) -> int:  # pragma: no cover - interface
        raise NotImplementedError
