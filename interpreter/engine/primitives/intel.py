"""The actions on the intel's journey and the turn: the pending intel (move, swap, flip, set), sending, the
direction, locks, receivers, the contest, extra draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.builtins import implements
from ...language.runtime import Ctx
from ..core import emit_event, unheard
from ..state import DISCARD, PENDING
from .common import as_list, flow_of, zones_of

if TYPE_CHECKING:
    pass


@implements("move_pending")
def _move_pending(ctx: Ctx, p):
    return p is not None and flow_of(ctx).move_pending(p)


@implements("swap_pending")
def _swap_pending(ctx: Ctx, c):
    g = ctx.game
    old = g.zones.pending
    if old is None or c is None:
        return False
    zones_of(ctx).move(old, DISCARD)
    zones_of(ctx).move(c, PENDING)
    zones_of(ctx).set_pending_face(False)
    if not unheard(g, "pending_swapped"):
        emit_event(g, "pending_swapped", old=old.uid, new=c.uid)
    return True


@implements("flip_pending")
def _flip_pending(ctx: Ctx):
    g = ctx.game
    if g.zones.pending is None or g.zones.pending_face_up:
        return False
    zones_of(ctx).set_pending_face(True)
    zones_of(ctx).reveal([g.zones.pending])
    return True


@implements("set_pending")
def _set_pending(ctx: Ctx, c, face_up):
    g = ctx.game
    if c is None:
        return False
    old = g.zones.pending
    if old is not None:
        zones_of(ctx).move(old, DISCARD)
    zones_of(ctx).move(c, PENDING)
    zones_of(ctx).set_pending_face(bool(face_up))
    emit_event(g, "pending_set", new=c.uid, face_up=bool(face_up))
    if face_up:
        zones_of(ctx).reveal([c])
    return True


@implements("send")
def _send(ctx: Ctx, c, by, face_up, lock):
    sender = by if by is not None else ctx.me
    if c is None or not sender.alive:
        return False
    if lock is not None:
        return flow_of(ctx).send_intel(sender, c, face_up, lock=lock)
    return flow_of(ctx).send_intel(sender, c, face_up)


@implements("send_instead")
def _send_instead(ctx: Ctx, p):
    if p is None or not p.alive:
        return False
    g = ctx.game
    before = g.flow.transit
    return g.card_use.offer_inside(p, "need_send", "需要传出情报时") and g.flow.transit is not before


@implements("set_direction")
def _set_direction(ctx: Ctx, d):
    return flow_of(ctx).set_direction(d) if d is not None else False


@implements("lock_intel")
def _lock_intel(ctx: Ctx, p):
    return flow_of(ctx).lock_intel(p)


@implements("set_receivers")
def _set_receivers(ctx: Ctx, must, cannot, secret):
    return flow_of(ctx).set_receivers(
        [p for p in as_list(must) if p is not None], [p for p in as_list(cannot) if p is not None], secret
    )


@implements("end_contest")
def _end_contest(ctx: Ctx):
    return flow_of(ctx).end_contest()


@implements("add_draw")
def _add_draw(ctx: Ctx, n):
    flow_of(ctx).add_draw(n)
    return True
