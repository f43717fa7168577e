"""What each component of the engine may call upward: one typed ports object per component, given to its constructor.

The components are made in order (ARCHITECTURE.md, "The engine's components"): a component's
constructor takes the components made before it, and calls them directly. A call that must go
back up — to a component made later, or to whoever drives the game — is a *port*: a field of
the component's ports object here, which :class:`~interpreter.engine.game.Game` builds and
passes to the constructor. Nothing is assigned onto a component, or patched onto a class, after
it is made; a port the game does not use is None (a queued game has no stack-timing hooks).

The component copies each port into an attribute of its own as it is made (a hot path reads one
attribute, as before). A new component that must call upward gets a ports class here, a ports
parameter in its constructor, and a line in ARCHITECTURE.md's table (tests/test_layers.py checks
that the table names each ports class and its fields as they are).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .decisions import PlayOption
    from .state import Card, Player


@dataclass(frozen=True)
class CorePorts:
    """What GameCore's two channels call of Zones (made after the core): records naming a card are told only to
    the seats that see it, and a seat that picks a card in a decision can follow it."""

    sight: Callable[[int], int]  # Zones.sight: the seats that can see a card now, as a bit mask (-1: face up)
    note_pick: Callable[[Card, int, list[Any]], None]  # Zones.note_pick: a seat picked a card among options


@dataclass(frozen=True)
class ResolutionPorts:
    """What Resolution calls of the components made after it."""

    offer_idle: Callable[[Player, str, str], bool]  # CardUse.offer_idle: a dying player's rescue, asked of each
    stack_triggers: Callable[[], None] | None = None  # StackTiming.put_triggers (stack timing); None: queued


@dataclass(frozen=True)
class CardUsePorts:
    """What CardUse hands to stack timing (rules `resolution: stack`, priority.py); None: the queued model."""

    push_use: Callable[[Player, Callable[[], None]], None] | None = None  # StackTiming.push_use: a use's resolution
    stack_perform: Callable[[Player, PlayOption], None] | None = None  # StackTiming.perform: an idle point's answer
