"""A seat's history: the game's log as that seat may read it (docs/observation.md, section 4).

``project(record, seat)`` is the rule for one record; ``history(game, seat)`` the log so projected, kept per game
(``GameCore.views``) and grown as records are logged: each record frozen once per set of fields kept from the seats
reading it, and shared by their copies. observation.py hands it out as the observation's ``history``; a module of
its own so that observation.py stays within the module size limit.
"""

from __future__ import annotations

from typing import Any, Final

from .frozen import ATOMS as _ATOMS, FrozenDict, freeze
from .views import Views

# The engine's Game (Any: see observation.py).
Game = Any
# A record of the game log: plain JSON data, its fields by kind of event (catalogue.EVENTS).
Record = dict[str, Any]

# dict's own methods, taken once: `dict.__setitem__(...)` looks the method up on the type at each call (compiled
# about 1,000 instructions a call); `pop` is a method descriptor, called directly (no argument tuple)
_SET: Final = dict.__setitem__
_POP: Final = dict.pop

# Log keys that only describe visibility; a seat's copy of a record does not carry them.
_META: Final = ("to", "secret")


def project(record: Record, seat: int | None) -> Record | None:
    """A log record as `seat` may read it (None: a spectator), or None if it may not read it at all."""
    to = record.get("to")
    if to is not None and (seat is None or seat not in to):
        return None
    secret = record.get("secret")
    out = {k: v for k, v in record.items() if k not in _META}
    if secret:
        for f, seats in secret.items():
            if seat is None or seat not in seats:
                out[f] = None
    return out


def _read_log(views: Views, log: list[Record]) -> None:
    """Project the records logged since the last call for every seat at once, each record frozen once per set of
    fields kept from the seats reading it: one copy for every seat that reads it whole, shared (read-only, so
    sharing it tells nothing)."""
    lists = views.histories
    start = views.read
    # (the new records by a slice, not by index over a range: a range made at each call costs more than its walk)
    for rec in log[start:] if start else log:
        to = rec.get("to")
        secret = rec.get("secret")
        if not secret:  # every seat that reads it (every seat; or those it is to: a decision's) reads it whole
            if "e" in rec:
                if "to" in rec or "secret" in rec:
                    v = _frozen(rec, ())
                else:  # a public event's (most records): _frozen(rec, ()) inline (a call costs more than its work)
                    v = FrozenDict(rec)
                    x: object  # (not Any: see _frozen)
                    for k, x in rec.items():
                        if type(x) not in _ATOMS:
                            _SET(v, k, freeze(x))
            else:  # a decision's record (ask_seat's; every event's has "e"): its values numbers and texts, but `to`
                v = FrozenDict(rec)
                _POP(v, "to", None)
            if to is None:
                for lst in lists:
                    lst.append(v)
            elif len(to) == 1 and type(to[0]) is int and 0 <= to[0] < len(lists):  # (to one seat: a decision's)
                lists[to[0]].append(v)
            else:
                for seat in range(len(lists)):
                    if seat in to:
                        lists[seat].append(v)
            continue
        if len(secret) == 1 and to is None:  # one secret field (a draw's cards …): a copy for its readers (seats, as
            # emit_event lists them), one for the others: the others' copy appended for every seat, then replaced
            ((field, readers),) = secret.items()
            blank = _frozen(rec, (field,))
            for lst in lists:
                lst.append(blank)
            whole: FrozenDict | None = None
            for seat in readers:
                if type(seat) is int and 0 <= seat < len(lists):  # (as `seat in readers` read it)
                    if whole is None:
                        whole = _frozen(rec, ())
                    lists[seat][-1] = whole
            continue
        made: dict[tuple[str, ...], FrozenDict] = {}
        for seat in range(len(lists)):
            if to is not None and seat not in to:
                continue
            hidden = _hidden(secret, seat)
            copy = made.get(hidden)
            if copy is None:
                copy = made[hidden] = _frozen(rec, hidden)
            lists[seat].append(copy)
    views.read = len(log)


def _hidden(secret: dict[str, Any], seat: int) -> tuple[str, ...]:
    """A record's fields kept from `seat`. (A function of its own: a comprehension in _read_log that read its seat
    would make it a cell of _read_log at each call.)"""
    return tuple([f for f, readers in secret.items() if seat not in readers])


def _frozen(rec: Record, hidden: tuple[str, ...]) -> FrozenDict:
    """``freeze(project(rec, seat))`` for a seat that reads the record and is kept from the fields `hidden`: its
    fields in their order, without ``to`` and ``secret``, the hidden ones None (one copy, changed in place before
    anyone holds it: through dict's own methods, which FrozenDict's read-only guard does not stop)."""
    out = FrozenDict(rec)
    # (the log's record is read, not its copy: compiled, an exact dict's `in` and walk are direct, a subclass's walk
    # goes through its `items` method and a generic iterator)
    if "to" in rec:
        _POP(out, "to")
    if "secret" in rec:
        _POP(out, "secret")
    for f in hidden:
        _SET(out, f, None)
    v: object  # (not Any: freeze's first overload would type the result a dict, and compiled code would check it)
    for k, v in rec.items():  # (the copy's values replaced, none added)
        if type(v) not in _ATOMS and k not in _META and k not in hidden:
            _SET(out, k, freeze(v))
    return out


def history(game: Game, seat: int | None) -> tuple[FrozenDict, ...]:
    """The game's log as `seat` saw it (frozen records), kept incrementally: each call returns one tuple, the same
    one while nothing new was logged; a record is frozen once per set of fields kept from the seats reading it and
    shared by their copies."""
    return seat_history(game.views, game.log, seat)


def seat_history(views: Views, log: list[Record], seat: int | None) -> tuple[FrozenDict, ...]:
    if seat is None:
        return _public_history(views, log)
    if views.read != len(log):
        _read_log(views, log)
    records = views.histories[seat]
    made = views.made.get(seat)
    if made is None or len(made) != len(records):
        made = views.made[seat] = tuple(records)
    return made


def _public_history(views: Views, log: list[Record]) -> tuple[FrozenDict, ...]:
    """A spectator's history: the records every seat reads, fields secret to any seat blanked."""
    done, records = views.public
    if done == len(log):
        return records
    new: list[FrozenDict] = []
    shared = views.public_records
    for i in range(done, len(log)):
        rec = log[i]
        if rec.get("to") is not None:
            continue
        v = shared.get(i)
        if v is None:
            secret = rec.get("secret")
            v = shared[i] = _frozen(rec, tuple(secret) if secret else ())
        new.append(v)
    if new:
        records += tuple(new)
    views.public = (len(log), records)
    return records


__all__ = ["Record", "history", "project", "seat_history"]
