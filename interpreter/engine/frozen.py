"""Read-only plain data: what agents are given.

Observations and action descriptors are built from dicts, tuples, strings and
numbers only, so they serialise with :func:`json.dumps` as they are. The dicts
are :class:`FrozenDict`: a ``dict`` subclass whose mutators raise, so an agent
that writes to what it was given gets an error instead of a silently changed
copy — and the engine never reads anything back from it anyway.
"""

from __future__ import annotations


def _readonly(*_args, **_kwargs):
    raise TypeError("observations and actions are read-only")


class FrozenDict(dict):
    """A dict that cannot be changed after it is made (hashable by identity only)."""

    __slots__ = ()
    __setitem__ = __delitem__ = _readonly
    clear = pop = popitem = setdefault = update = _readonly
    __ior__ = _readonly

    def __hash__(self):  # type: ignore[override]
        return id(self)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (FrozenDict, (dict(self),))


def freeze(value):
    """Deeply freeze plain data: dicts become FrozenDicts, lists become tuples."""
    if isinstance(value, dict) and not isinstance(value, FrozenDict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value):
    """A mutable deep copy (for JSON output or an agent that wants to scribble)."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value
