"""The kinds of bots a command can seat, by name: ``heuristic`` (the preferred one), ``random`` and ``search``.

A kind is a factory ``(seed, content=None) -> Agent``; a command names kinds on its command line
(``fengsheng play --bots heuristic,random``) and builds one agent per seat with its own seed, handing
it the content being played (the heuristic bot reads its hints from it: the cards', skills' and secret tasks'
`bot:` keys; without it, the bundled game's).

A *spec* names a kind with an optional argument after a colon: ``search:50`` is the search bot with
50 simulations per decision (``search`` alone: 50) and random rollouts, ``search:50:heuristic`` the
same with heuristic bots playing the rollouts (about four times the cost), ``search:N:paired`` the paired
search (N samples per action compared, short heuristic rollouts: agents/search.py). :func:`factory_of` reads a
spec (``simulate --agents`` and ``balance`` seat bots by spec).

``ext:NAME`` is an external bot (agents/external.py, docs/bots-protocol.md): a program of its own, run as a
subprocess, that a command defined with ``--bot NAME=COMMAND``. The bots defined are kinds as well (a
server's lobby offers them), by ``ext:NAME``; a page can only name one, never give a command.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from ..model.content import Content
from . import external
from .base import Agent
from .heuristic import HeuristicAgent
from .hints import hints_of
from .random_agent import RandomAgent
from .search import ROLLOUTS, SearchAgent

AgentFactory = Callable[..., Agent]  # (seed, content=None) -> Agent


def _heuristic(seed: int, content: Content | None = None) -> Agent:
    return HeuristicAgent(seed, hints_of(content) if content is not None else None)


def _random(seed: int, content: Content | None = None) -> Agent:
    """A random bot: it needs nothing of the content."""
    return RandomAgent(seed)


DEFAULT_SIMULATIONS = 50  # `search` without a number
MAX_SIMULATIONS = 100_000  # about 10 CPU minutes a decision


def _search(
    seed: int, content: Content | None = None, simulations: int = DEFAULT_SIMULATIONS, rollout: str = "random"
) -> Agent:
    return SearchAgent(seed, simulations, hints_of(content) if content is not None else None, rollout)


def agent_kinds() -> dict[str, AgentFactory]:
    """The bot kinds available, the preferred one first (``search`` with its default budget), then the external
    bots this process defined (``ext:NAME``)."""
    kinds: dict[str, AgentFactory] = {"heuristic": _heuristic, "random": _random, "search": _search}
    for name in external.defined():
        kinds[external.KIND_PREFIX + name] = external.external_factory(name)
    return kinds


def factory_of(spec: str) -> AgentFactory:
    """The factory a spec names: a kind (``heuristic``), ``search:N`` / ``search:N:ROLLOUT`` (random, heuristic,
    paired), or ``ext:NAME`` (an external bot defined with ``--bot NAME=COMMAND``).

    Raises ValueError saying what is wrong (an unknown kind, a budget that is not a positive number, an external
    bot nobody defined)."""
    name, _, arg = spec.strip().partition(":")
    if name + ":" == external.KIND_PREFIX:
        return external.external_factory(arg.strip())
    kinds = agent_kinds()
    if name not in kinds:
        builtin = [k for k in kinds if not k.startswith(external.KIND_PREFIX)]
        raise ValueError(f"unknown agent {spec!r} (known: {', '.join(builtin)}, search:N, ext:NAME)")
    if not arg:
        return kinds[name]
    if name != "search":
        raise ValueError(f"agent {name!r} takes no argument (only search:N, N simulations per decision)")
    n, _, rollout = arg.partition(":")
    if not n.isdigit() or int(n) < 1:  # isdigit first: int() of thousands of digits is a ValueError of its own
        raise ValueError(f"search:{arg}: the number of simulations per decision is a positive integer (search:50)")
    if len(n) > 6 or int(n) > MAX_SIMULATIONS:  # beyond it a decision takes hours: a typo, or a job for a cluster
        raise ValueError(f"search:{n[:12]}…: at most {MAX_SIMULATIONS:,} simulations per decision")
    if rollout and rollout not in ROLLOUTS:
        raise ValueError(f"search:{arg}: unknown rollout policy {rollout!r} (known: {', '.join(ROLLOUTS)})")
    return functools.partial(_search, simulations=int(n), rollout=rollout or "random")


def default_kind() -> str:
    """The kind a command seats when none is named: the first of agent_kinds."""
    return next(iter(agent_kinds()))
