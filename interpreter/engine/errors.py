"""Errors the engine raises, and GameOver: how a game ends (raised where a victory check finds winners)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import Player


class EngineError(RuntimeError):
    """The engine reached a state it must not reach (a bug or a runaway content loop).

    A safety limit that content ran into has a `code` (E501 … E505, docs/errors.md), shown first.
    """

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(f"{code} {message}" if code else message)
        self.code = code


class IllegalAction(ValueError):
    """An agent's answer is not one of the legal actions; nothing was applied."""


class GameOver(Exception):
    """The game is over: its winners (maybe none) and why (``collect``, ``death``, ``turn_limit`` …)."""

    def __init__(self, winners: list[Player], reason: str) -> None:
        super().__init__(reason)
        self.winners = winners
        self.reason = reason
        self.turns = 0
