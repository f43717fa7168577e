"""A batch's driver: the answers of seats that draw uniformly, made without descriptors or agent calls.

The core asks every question through one channel, ``game.decide(decision) -> option index``, and
knows nothing of the agents behind it. :class:`Game` (game.py) answers through its synchronous
driver, which hands each agent its observation and the action descriptors (``Agent.act``). A batch
of games between random agents spends most of its time there, building descriptors nobody reads:
so the batch runner (``interpreter.sim``), which knows which of its agents draw uniformly from a
generator, installs a :class:`UniformDraws` as the game's ``decide`` instead. It answers those seats
itself, drawing from the same generator exactly as ``random.Random.randrange(n)`` draws (CPython's
``_randbelow``: ``getrandbits`` of n's bit length until a number below n), so the games are the same
as the synchronous driver's, byte for byte; every option is still checked (``Describer.id_at``) and
the chosen action id recorded. Any other seat is passed to the driver it replaced.

This is speed kept in a driver, outside the rules: nothing in the core or in the agent interface
depends on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .errors import EngineError
from .state import below

if TYPE_CHECKING:
    from .core import GameCore
    from .decisions import Decision


class UniformDraws:
    """``game.decide`` for a batch: seat ``s`` with ``draws[s]`` (a generator's getrandbits) is answered here with
    a uniform draw; any other seat by ``fallback`` (the driver this one replaces)."""

    def __init__(
        self,
        game: GameCore,
        draws: Sequence[Callable[[int], int] | None],
        fallback: Callable[[Decision], int],
    ) -> None:
        if len(draws) != game.n:
            raise EngineError(f"{len(draws)} seats' draws for a game of {game.n}")
        self.game = game
        self.draws: list[Callable[[int], int] | None] = list(draws)
        self.fallback = fallback

    def __call__(self, decision: Decision) -> int:
        draw = self.draws[decision.seat]
        if draw is None:
            return self.fallback(decision)
        game = self.game
        index = below(draw, len(decision.options))
        game.actions_taken.append(game.describer.id_at(decision, index))  # every option checked
        return index
