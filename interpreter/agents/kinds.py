"""The kinds of bots a command can seat, by name: ``heuristic`` (the preferred one) and ``random``.

A kind is a factory ``(seed, content=None) -> Agent``; a command names kinds on its command line
(``fengsheng play --bots heuristic,random``) and builds one agent per seat with its own seed, handing
it the content being played (the heuristic bot reads its hints from it: the cards' and secret tasks'
`bot:` keys; without it, the bundled game's).
"""

from __future__ import annotations

from collections.abc import Callable

from ..model.content import Content
from .base import Agent
from .heuristic import HeuristicAgent, hints_of
from .random_agent import RandomAgent

AgentFactory = Callable[..., Agent]  # (seed, content=None) -> Agent


def _heuristic(seed: int, content: Content | None = None) -> Agent:
    return HeuristicAgent(seed, hints_of(content) if content is not None else None)


def _random(seed: int, content: Content | None = None) -> Agent:
    """A random bot: it needs nothing of the content."""
    return RandomAgent(seed)


def agent_kinds() -> dict[str, AgentFactory]:
    """The bot kinds available, the preferred one first."""
    return {"heuristic": _heuristic, "random": _random}


def default_kind() -> str:
    """The kind a command seats when none is named: the first of agent_kinds."""
    return next(iter(agent_kinds()))
