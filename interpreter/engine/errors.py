"""Errors the engine raises."""

from __future__ import annotations


class EngineError(RuntimeError):
    """The engine reached a state it must not reach (a bug or a runaway content loop)."""


class IllegalAction(ValueError):
    """An agent's answer is not one of the legal actions; nothing was applied."""
