"""The actions on roles, skills and identities: flip a role, gain or lose a skill, a 转换技's state, replace a
role, look at or take an identity.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.builtins import implements
from ...language.runtime import Ctx
from .common import skills_of

if TYPE_CHECKING:
    pass


@implements("flip_role")
def _flip_role(ctx: Ctx, p, face_up):
    return p is not None and skills_of(ctx).flip_role(p, bool(face_up))


@implements("gain_skill")
def _gain_skill(ctx: Ctx, p, skill):
    return p is not None and skill is not None and skills_of(ctx).change_skill(p, skill, True)


@implements("lose_skill")
def _lose_skill(ctx: Ctx, p, skill):
    return p is not None and skill is not None and skills_of(ctx).change_skill(p, skill, False)


@implements("skill_yang")
def _skill_yang(ctx: Ctx, p, skill):
    return p is not None and skill is not None and skills_of(ctx).skill_yang(p, skill)


@implements("has_skill")
def _has_skill(ctx: Ctx, p, skill):
    return p is not None and skill is not None and skills_of(ctx).has_skill(p, skill, p is ctx.me)


@implements("replace_role")
def _replace_role(ctx: Ctx, p, look):
    p = p if p is not None else ctx.me
    return skills_of(ctx).replace_role(p, look)


@implements("look_identity")
def _look_identity(ctx: Ctx, p, by):
    return skills_of(ctx).look_identity(by if by is not None else ctx.me, p)


@implements("take_identity")
def _take_identity(ctx: Ctx, p):
    return skills_of(ctx).take_identity(ctx.me, p)
