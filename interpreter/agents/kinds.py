"""The kinds of bots a command can seat, by name: ``random`` always, ``heuristic`` once its module exists.

A kind is a factory ``seed -> Agent``; a command names kinds on its command line (``fengsheng play
--bots heuristic,random``) and builds one agent per seat with its own seed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .base import Agent
from .random_agent import RandomAgent

AgentFactory = Callable[[int], Agent]


def _heuristic() -> AgentFactory | None:
    """The heuristic bot's factory, if ``interpreter/agents/heuristic.py`` is there (it is written separately)."""
    try:
        module = importlib.import_module(".heuristic", __package__)
    except ImportError:
        return None
    cls = getattr(module, "HeuristicAgent", None)
    if cls is None:
        return None

    def make(seed: int) -> Agent:
        try:
            agent: Agent = cls(seed)
        except TypeError:  # a bot without a seed of its own
            agent = cls()
        return agent

    return make


def agent_kinds() -> dict[str, AgentFactory]:
    """The bot kinds available, the preferred one first."""
    kinds: dict[str, AgentFactory] = {}
    heuristic = _heuristic()
    if heuristic is not None:
        kinds["heuristic"] = heuristic
    kinds["random"] = RandomAgent
    return kinds


def default_kind() -> str:
    """The kind a command seats when none is named: the heuristic bot if it exists, else random."""
    return next(iter(agent_kinds()))
