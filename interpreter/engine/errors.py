"""Errors the engine raises, and GameOver: how a game ends (raised where a victory check finds winners)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..catalogue import ERROR_CODES

if TYPE_CHECKING:
    from .state import Player


class EngineError(RuntimeError):
    """The engine reached a state it must not reach (a bug or a runaway content loop).

    A safety limit that content ran into has a `code` (E501 … E505, docs/errors.md), shown first.

    The message is the referee's: it may name what only some seats may know (a card in a hand, a face-down
    role's skill). `public` is what the people at a table are shown instead (`play`, `serve`'s pages and
    output): given by the raiser, else the code's line of the catalogue (catalogue.ERROR_CODES), which names
    nothing of the game.
    """

    def __init__(self, message: str, code: str | None = None, public: str | None = None) -> None:
        super().__init__(f"{code} {message}" if code else message)
        self.code = code
        if public is None:
            public = ERROR_CODES.get(code, "") if code else ""
            public = public or "the engine stopped the game (an error of the engine, not of the players)"
        self.public = f"{code} {public}" if code else public


class IllegalAction(ValueError):
    """An agent's answer is not one of the legal actions; nothing was applied."""


class GameOver(Exception):
    """The game is over: its winners (maybe none) and why (``collect``, ``death``, ``turn_limit`` …)."""

    def __init__(self, winners: list[Player], reason: str) -> None:
        super().__init__(reason)
        self.winners = winners
        self.reason = reason
        self.turns = 0
