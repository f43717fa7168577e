"""The primitives of victory skills (stages 2 and 4 of the check): the winners and declarers so far, add or
block a winner, same camp.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.builtins import implements
from ...language.runtime import Ctx
from .common import victory_of

if TYPE_CHECKING:
    pass


@implements("winners")
def _winners(ctx: Ctx) -> list:
    return list(ctx.game.victory.check_winners or [])


@implements("declarers")
def _declarers(ctx: Ctx) -> list:
    return list(ctx.game.victory.check_declarers or [])


@implements("win")
def _win(ctx: Ctx, p, declared):
    return p is not None and victory_of(ctx).add_winner(p, bool(declared))


@implements("block_win")
def _block_win(ctx: Ctx, p):
    return p is not None and victory_of(ctx).block_winner(p)


@implements("same_camp")
def _same_camp(ctx: Ctx, a, b):
    return (
        a is not None
        and b is not None
        and a.identity is not None
        and b.identity is not None
        and a.identity.camp is not None
        and a.identity.camp == b.identity.camp
    )
