"""What each primitive of the effect language does, on the engine side, one module per family.

The primitives are declared (name, typed parameters, result, kind, where
they may be used, wording, doc) in ``interpreter/language/builtins.py``; each
function of this package registers itself there, by the declared name, with
``@implements``. Importing this package registers them all, which compiling
effect code needs: the compiler binds these functions into the code it
generates (one direct call per use, nothing looked up at run time).
The loader (its units stage, ``interpreter/content/units.py``) imports it for that.

The families: ``queries`` (what a query reads; it changes nothing), ``cards``
(moving and showing cards), ``zones`` (the zones the rules declare),
``intel`` (the pending intel, sending, the turn), ``marks`` (statuses, marks,
declared counters), ``roles`` (roles, skills, identities), ``uses`` (card
uses on the stack), ``victory`` (victory skills), ``choices`` (a seat is
asked), ``events`` (the events the rules declare: emit, 改判, 判定; hidden picks); ``common`` holds what
they share.

Each implementation takes the run-time context (``ctx``: ``ctx.game`` is the
:class:`~interpreter.engine.game.Game`, ``ctx.me`` the player whose effect
runs) and then one argument per declared parameter, in order. An action
returns True when it fully resolved (the basis of 然后); a query or choice
returns its value.

An implementation reads whatever state it needs (from the Game or the
component that owns it: ``ctx.game.zones.pending``) but changes state only
through the owning component's named operations (``zones.move``, the turn
flow's ``send_intel``, the seats' ``add_status`` …, called on the typed
components: compiled, a direct call), never by assigning a field: each piece of
state has one owner (ARCHITECTURE.md, "The engine's components").
"""

from __future__ import annotations

from . import cards, choices, events, intel, marks, queries, roles, uses, victory, zones
from .choices import BlindPick

__all__ = ["BlindPick", "cards", "choices", "events", "intel", "marks", "queries", "roles", "uses", "victory", "zones"]
