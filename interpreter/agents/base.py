"""The agent interface."""
from __future__ import annotations


class Agent:
    """Answers decisions for one seat.

    ``decide`` receives the :class:`~interpreter.engine.decisions.Decision`
    (whose options the engine has made legal) and the seat's
    :class:`~interpreter.engine.view.PlayerView`, which exposes only what that
    seat may see. It returns an index into ``decision.options``.
    """

    def decide(self, decision, view) -> int:  # pragma: no cover - interface
        raise NotImplementedError
