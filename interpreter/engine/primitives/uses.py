"""The actions on card uses: use a card (or a card as another), convert names, ban names, nullify the use on
the stack, claim the used card, protect intel from names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.builtins import implements
from ...language.runtime import Ctx, asked_by
from .. import decisions as D
from ..core import ask_seat
from .common import as_list, card_use_of, stack_of, uses_for

if TYPE_CHECKING:
    pass


@implements("use_card")
def _use_card(ctx: Ctx, c, as_, by, at):
    g = ctx.game
    user = by if by is not None else ctx.me
    uses = uses_for(ctx, c, user, as_, at)
    if not uses:
        return False
    use = uses[0]
    if len(uses) > 1:
        use = ask_seat(g, ctx.chooser, D.CHOOSE, uses, "如何使用", use.card_type.id, asked_by(ctx))
    chooser = ctx.chooser if ctx.chooser is not user else None
    if at is None:
        card_use_of(ctx).use_card(user, c, use, chooser=chooser, converted=as_ is not None)
    else:  # at another moment, as if at idle point `at`
        card_use_of(ctx).use_card_at(user, c, use, at, chooser=chooser, converted=as_ is not None)
    return True


@implements("convert")
def _convert(ctx: Ctx, frm, to):
    g = ctx.game
    if frm is None or to is None or frm == to:
        return False
    card_use_of(ctx).convert(frm.id, g.content.card_types[to.id])
    return True


@implements("ban_cards")
def _ban_cards(ctx: Ctx, names):
    names = [n.id for n in as_list(names) if n is not None]
    card_use_of(ctx).ban(names)
    return bool(names)


@implements("nullify")
def _nullify(ctx: Ctx):
    return stack_of(ctx).nullify()


@implements("claim_used_card")
def _claim_used_card(ctx: Ctx, p):
    return stack_of(ctx).claim_used_card(p if p is not None else ctx.me)


@implements("protect_intel")
def _protect_intel(ctx: Ctx, names):
    return card_use_of(ctx).protect_intel([n.id for n in as_list(names) if n is not None])
