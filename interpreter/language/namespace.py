"""What a compiled code unit runs with: the names of its namespace, the context variables' getters, and the
key of a unit compiled ahead of time.

The compiler (compiler.py and the classes it is built from) writes Python source that names only what this
module puts in a unit's namespace (``BASE_NAMESPACE``: a few builtins and the helpers below) besides its own
constants and primitives, and reads a context variable either directly from the ``Ctx`` (``CONTEXT_CODE``) or
through its getter (``CONTEXT_VARS``). The compiled build (content/precompile.py) keys each unit it compiles
ahead of time by ``unit_key`` and records them with ``recording``.
"""

from __future__ import annotations

import contextlib
import hashlib
import operator
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from .. import catalogue
from . import types as T
from .builtins import as_list
from .runtime import Card, CardName, Ctx, Player, StopEffect, asked_by, loop_over, source_of

# A value of the language at run time (a player, a card, a number, a list of them, none …). Like the
# engine's objects in runtime.py it is Any by design: the static types of the language are the strings
# of types.py, checked here, not Python types.
Value = Any
# A compiled code unit: the generated `run(ctx)`. An effect returns None, a condition a bool, a
# target rule a list of players: a Value.
CompiledUnit = Callable[[Ctx], Value]
# How the code reads a context variable from its Ctx.
Getter = Callable[[Ctx], Value]
# The context variables a unit may read: name -> (type, getter, where it exists (human wording)).
Env = dict[str, tuple[str, Getter, str]]
# A unit compiled ahead of time (the optional compiled build, content/precompiled.py): given the namespace the
# compiler built for the unit, its run(ctx).
Factory = Callable[[dict[str, Any]], CompiledUnit]
# Where the code runs: a timing or a victory check, or several (a skill used at more than one).
UnitKind = str | tuple[str, ...]
# What an expression compiles to: (its type in the language, Python source of its value).
Typed = tuple[str, str]

MAX_REPEAT = catalogue.LIMITS["max_repeat"].value
STEP_BUDGET = catalogue.LIMITS["step_budget"].value


def _sender(ctx: Ctx) -> Player | None:
    t = ctx.game.transit
    return t.sender if t is not None else None


def _answered(ctx: Ctx) -> Any:
    """The card use a `respond` use answers (engine/stack.py's UseFrame), if any."""
    return ctx.game.stack.answered()


def _answered_name(ctx: Ctx) -> Value:
    frame = _answered(ctx)
    ctype = frame.used_as if frame is not None else None
    return CardName(ctype.id, ctype.name) if ctype is not None else None


def _answered_user(ctx: Ctx) -> Player | None:
    frame = _answered(ctx)
    return frame.user if frame is not None else None


def _answered_target(ctx: Ctx) -> Player | None:
    frame = _answered(ctx)
    return frame.target if frame is not None else None


# How each context variable of the catalogue is read from a Ctx.
_GETTERS: dict[str, Getter] = {
    "self": operator.attrgetter("me"),
    "current": lambda ctx: ctx.game.current,
    "this_card": operator.attrgetter("card"),
    "target": operator.attrgetter("target"),
    "dying": operator.attrgetter("dying"),
    "pending": lambda ctx: ctx.game.pending,
    "holder": lambda ctx: ctx.game.holder,
    "sender": _sender,
    "used_as": operator.attrgetter("used_as"),
    "event": operator.attrgetter("event"),
    "subject": operator.attrgetter("subject"),
    "answered": _answered_name,
    "answered_user": _answered_user,
    "answered_target": _answered_target,
}

# Context variables: name -> (type, getter, where it exists (human wording)), from the catalogue.
CONTEXT_VARS: Env = {name: (v.type, _GETTERS[name], v.where) for name, v in catalogue.CONTEXT_VARS.items()}


# Context variables the generated code reads directly (the rest are called through their getter).
CONTEXT_CODE = {
    "self": "ctx.me",
    "current": "ctx.game.current",
    "this_card": "ctx.card",
    "target": "ctx.target",
    "dying": "ctx.dying",
    "pending": "ctx.game.pending",
    "holder": "ctx.game.holder",
    "used_as": "ctx.used_as",
    "event": "ctx.event",
    "subject": "ctx.subject",
}


def _has(card: Card | None, color: int | None) -> bool:
    """`card has color` (none, e.g. a data slot the card does not have, matches no card)."""
    return card is not None and color is not None and bool(card.mask & color)


def _compare(op: Callable[[Value, Value], bool]) -> Callable[[Value, Value], bool]:
    def cmp(x: Value, y: Value) -> bool:
        return x is not None and y is not None and op(x, y)

    return cmp


def _loop_times(ctx: Ctx, n: int | None) -> range:
    """What a `repeat n` runs: n capped to 0..MAX_REPEAT, spent from the game's step budget."""
    n = 0 if n is None or n < 0 else n if n < MAX_REPEAT else MAX_REPEAT
    game = ctx.game
    game.budget_line -= n
    if game.changes + game.zones.moves > game.budget_line:
        game.over_budget()
    return range(n)


# What generated code may name besides its own constants and primitives.
BASE_NAMESPACE: dict[str, object] = {
    "__builtins__": {},
    "range": range,
    "len": len,
    "max": max,
    "min": min,
    "StopEffect": StopEffect,
    "as_list": as_list,
    "source_of": source_of,
    "asked_by": asked_by,
    "has": _has,
    "lt": _compare(operator.lt),
    "le": _compare(operator.le),
    "gt": _compare(operator.gt),
    "ge": _compare(operator.ge),
    "loop_over": loop_over,
    "loop_times": _loop_times,
    "MAX_REPEAT": MAX_REPEAT,
}
CMP_NAMES = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def direct_calls(namespace: Mapping[str, object]) -> dict[str, tuple[str, str]]:
    """The functions of a unit's namespace that code compiled ahead of time calls directly, not through the
    namespace (the primitives, `loop_over` …): name in the code -> (module, function name), each a function of
    this package defined at the top of its module."""
    out: dict[str, tuple[str, str]] = {}
    for name, value in namespace.items():
        module, fname = getattr(value, "__module__", None), getattr(value, "__name__", None)
        if isinstance(module, str) and module.startswith("interpreter.") and isinstance(fname, str):
            mod = sys.modules.get(module)
            if mod is not None and getattr(mod, fname, None) is value:
                out[name] = (module, fname)
    return out


def unit_key(source: str, namespace: Mapping[str, object]) -> str:
    """What identifies a unit compiled ahead of time: its generated source and what the names it calls directly
    stand for (everything else it reads from the namespace it is given). A changed unit has another key."""
    h = hashlib.sha256(source.encode())
    for name, (module, fname) in sorted(direct_calls(namespace).items()):
        h.update(f"\0{name}={module}.{fname}".encode())
    return h.hexdigest()[:32]


# While a list is set here, every unit compiled is added to it: (its source, its namespace) (for the generator of
# the units compiled ahead of time, content/precompiled.py).
_recording: list[list[tuple[str, dict[str, object]]]] = []


@contextlib.contextmanager
def recording() -> Iterator[list[tuple[str, dict[str, object]]]]:
    """The units compiled inside the block: (source, namespace) each."""
    units: list[tuple[str, dict[str, object]]] = []
    _recording.append(units)
    try:
        yield units
    finally:
        _recording.remove(units)


def note_compiled(source: str, namespace: Mapping[str, object]) -> None:
    """Add a unit just compiled to every `recording` block open."""
    for units in _recording:
        units.append((source, dict(namespace)))


def context_env(names: Iterable[str]) -> Env:
    return {n: CONTEXT_VARS[n] for n in names}


def field_var(name: str, typ: str, events: str) -> tuple[str, Getter, str]:
    """The context variable of a field of an event the rules declare (model/declared.py), for the skills that
    react to it: its value in the event being reacted to (a number 0 and a condition false where it is not set)."""
    missing = 0 if typ == T.INT else False if typ == T.BOOL else None

    def get(ctx: Ctx) -> Value:
        fields = ctx.fields
        return fields.get(name, missing) if fields is not None else missing

    return typ, get, f"triggered skills reacting to {events}"
