"""The actions on a player's statuses, marks and declared counters (`counters:`, model/declared.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.builtins import implements
from ...language.runtime import Ctx
from ...language.types import MAX_NUMBER
from .common import as_list, is_number, read_mark, seats_of, typed

if TYPE_CHECKING:
    pass


@implements("add_status")
def _add_status(ctx: Ctx, xs, status, turns, secret):
    players = as_list(xs) if status is not None else []  # no status: nothing happens
    for p in players:
        seats_of(ctx).add_status(p, status, turns, secret)
    return bool(players)


@implements("set_mark")
def _set_mark(ctx: Ctx, p, key, value):
    if p is None or key is None:
        return False
    if is_number(value):
        value = max(-MAX_NUMBER, min(MAX_NUMBER, value))  # numbers stay in the range code can write
    seats_of(ctx).set_mark(p, key, value)
    return True


@implements("keep_mark")
def _keep_mark(ctx: Ctx, p, key, value, secret):
    if p is None or key is None:
        return False
    if is_number(value):
        value = max(-MAX_NUMBER, min(MAX_NUMBER, value))
    seats_of(ctx).keep_mark(p, key, value, bool(secret))
    return True


@implements("add_mark")
def _add_mark(ctx: Ctx, p, key, n, most, secret):
    if p is None or key is None:
        return False
    now = typed(read_mark(ctx, p, key), is_number, 0)
    top = MAX_NUMBER if most is None else max(0, most)
    new = max(0, min(top, now + n))
    if new == now:
        return False
    seats_of(ctx).keep_mark(p, key, new if new else False, bool(secret))
    return True


# counters the rules declare (`counters:`, model/declared.py): the compiler has checked the name (E310)
@implements("counter")
def _counter(ctx: Ctx, p, name):
    c = ctx.game.content.declared.counters.get(name)
    return seats_of(ctx).counter(p, c) if p is not None and c is not None else 0


@implements("add_counter")
def _add_counter(ctx: Ctx, p, name, n):
    c = ctx.game.content.declared.counters.get(name)
    if p is None or c is None:
        return False
    seats = seats_of(ctx)
    return seats.set_counter(p, c, seats.counter(p, c) + n)


@implements("remove_counter")
def _remove_counter(ctx: Ctx, p, name, n):
    c = ctx.game.content.declared.counters.get(name)
    if p is None or c is None:
        return False
    seats = seats_of(ctx)
    return seats.set_counter(p, c, seats.counter(p, c) - n)


@implements("set_counter")
def _set_counter(ctx: Ctx, p, name, n):
    c = ctx.game.content.declared.counters.get(name)
    return p is not None and c is not None and seats_of(ctx).set_counter(p, c, n)
