"""Read-only plain data: what agents are given.

Observations and action descriptors are built from dicts, tuples, strings and
numbers only, so they serialise with :func:`json.dumps` as they are. The dicts
are :class:`FrozenDict`: a ``dict`` subclass whose mutators raise, so an agent
that writes to what it was given gets an error instead of a silently changed
copy — and the engine never reads anything back from it anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn, TypeVar, cast, overload

_T = TypeVar("_T")

try:  # only mypyc reads it (setup.py's compiled build); plain Python may have no mypy_extensions
    from mypy_extensions import mypyc_attr
except ImportError:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
        return lambda cls: cls


def _readonly(*_args: object, **_kwargs: object) -> NoReturn:
    raise TypeError("observations and actions are read-only")


# The keys are JSON object keys (str). The values are plain data of many shapes: each field's is given
# by docs/observation.md and the JSON schemas, not by Python types, so they are Any here.
# (the compiled build compiles this module for freeze and thaw; mypyc's own classes cannot subclass dict)
@mypyc_attr(native_class=False)
class FrozenDict(dict[str, Any]):
    """A dict that cannot be changed after it is made (hashable by identity only)."""

    __slots__ = ()
    # (one name a line: mypyc compiles no chained assignment in a class body)
    __setitem__ = _readonly
    __delitem__ = _readonly
    clear = _readonly
    pop = _readonly
    popitem = _readonly
    setdefault = _readonly
    update = _readonly
    __ior__ = _readonly

    def __hash__(self) -> int:  # type: ignore[override]
        return id(self)

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> FrozenDict:
        return self

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[str, Any]]]:
        return (FrozenDict, (dict(self),))


@overload
def freeze(value: dict[str, Any]) -> FrozenDict: ...
@overload
def freeze(value: object) -> object: ...
def freeze(value: object) -> object:
    """Deeply freeze plain data: dicts become FrozenDicts, lists become tuples."""
    t = type(value)
    if t in ATOMS:  # (most of a log record: numbers, texts, None; tested first, by type, for speed)
        return value
    if t is dict:
        d: dict[str, object] = value  # type: ignore[assignment]
        return FrozenDict({k: v if type(v) in ATOMS else freeze(v) for k, v in d.items()})
    if t is list:
        items: list[object] = value  # type: ignore[assignment]
        return tuple([v if type(v) in ATOMS else freeze(v) for v in items])
    # (below, each value is cast to object: a call with an Any is typed by the first overload, and the compiled
    # build would check it is a dict)
    if isinstance(value, dict) and not isinstance(value, FrozenDict):
        return FrozenDict({k: freeze(cast(object, v)) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(cast(object, v)) for v in value)
    return value


# The types of the values freeze leaves as they are (tested by type, not isinstance: a subclass goes the slow way).
ATOMS: Final = frozenset({int, str, type(None), bool, float})


@overload
def thaw(value: dict[str, Any]) -> dict[str, Any]: ...
@overload
def thaw(value: object) -> object: ...
def thaw(value: object) -> object:
    """A mutable deep copy (for JSON output or an agent that wants to scribble)."""
    if isinstance(value, dict):
        return {k: thaw(cast(object, v)) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(cast(object, v)) for v in value]
    return value
