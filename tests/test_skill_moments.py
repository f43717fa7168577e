"""A skill with moments of different kinds (`moments:`, docs/language.md "A skill with moments of different
kinds"): one skill with one limit, one use count and one entry in describe, whichever moment it is used at.
The made-up role is tests/fixtures/moments_pack (两时: 出牌阶段, or after receiving, once per game); the
scenarios fixture_moments_* play it."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Seat
from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.engine.table import build
from interpreter.language.describe_content import describe_role

PACK = Path(__file__).parent / "fixtures" / "moments_pack"
RED_ID, BLUE_ID = "qian_fu_zhan_xian", "te_gong_ji_guan"


@pytest.fixture(scope="module")
def content():
    return load_cached([BUNDLED_CONTENT, PACK])


def test_one_skill_two_moments(content):
    role = content.roles["demo_two_moments"]
    assert [sk.id for sk in role.skills] == ["demo_either"]  # one skill …
    assert [(m.kind, m.timing, m.on) for m in role.moments] == [
        ("active", ("play_phase",), None),
        ("triggered", None, ("received",)),
    ]  # … run at two moments, which share its id, name and limit
    assert {(m.id, m.name, m.limit_scope) for m in role.moments} == {("demo_either", "两时", "game")}
    # one line; the moments share what they do, so one sentence with both openings
    assert describe_role(role) == "【两时】出牌阶段，或你接收情报后，每局游戏限一次，你可以摸两张牌。"


def _table(content, answers):
    g = build(
        content,
        [dict(identity=RED_ID, hand=[27]), dict(identity=BLUE_ID)],
        [Seat(answers), Seat(())],
        deck_top=[31, 32, 33, 34, 35],
    )
    g.players[0].new_role(content.roles["demo_two_moments"], True)
    g.skills.index_triggers()
    return g


def test_the_moments_share_one_limit_and_one_use_count(content):
    g = _table(content, ())
    p0 = g.players[0]
    [active] = [m for m in p0.role.moments if m.kind == "active"]
    [triggered] = [m for m in p0.role.moments if m.kind == "triggered"]
    assert g.skills.skill_blocker(p0, triggered) is None
    assert [o.use for o in g.skills.skill_options(p0, "play_phase")] == [active]
    g.skills.use_skill(p0, active)  # used in the play phase …
    assert len(p0.hand) == 3
    assert g.skills.skill_options(p0, "play_phase") == []
    assert g.skills.skill_blocker(p0, triggered) == "used up (1 per game)"  # … it cannot fire on receiving
    assert g.skills.skill_uses == {("demo_two_moments", "两时"): 1}
    assert [r["skill"] for r in g.log if r.get("e") == "skill_used"] == ["demo_either"]
