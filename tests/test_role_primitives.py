"""General primitives roles need: the event's card and target, blind picks (抽取), flipping a role, gender."""

from __future__ import annotations

from pathlib import Path

import interpreter.engine.primitives  # noqa: F401  (registers what each primitive does; this test builds a Compiler)
from conftest import Seat
from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.engine import decisions as D
from interpreter.engine.table import build, card
from interpreter.language.compiler import Compiler, context_env

PACK = Path(__file__).parent / "fixtures" / "role_pack"


class Recorder(Seat):
    """A scripted agent (the referee's view) that also keeps every decision it was asked."""


def _table(answers0, answers1, thief_face_up=True):
    content = load_cached([BUNDLED_CONTENT, PACK])
    a0, a1 = Recorder(answers0), Recorder(answers1)
    g = build(
        content,
        [
            dict(identity="qian_fu_zhan_xian", hand=[19]),  # 平衡
            dict(identity="te_gong_ji_guan", hand=[27]),
        ],
        [a0, a1],
        deck_top=[31, 32, 33, 34, 35, 36],
    )
    thief = g.players[1]
    thief.role = content.roles["demo_thief"]
    thief.role_face_up = thief_face_up
    g.skills.index_triggers()
    return g, a0, a1


def test_trigger_sees_the_event_card_and_target_and_steals_blind():
    """A card_resolved trigger reads this_card and target; the blind pick offers positions, not cards."""
    g, a0, a1 = _table([], [True, 0])
    p0, p1 = g.players
    use = card(g, 19).type.uses_by_timing["play_phase"][0]
    a0.answers = ["P1"]
    g.card_use.use_card(p0, card(g, 19), use)
    picks = [d for d in a1.asked if d.kind == D.CHOOSE]
    assert picks and all(type(o).__name__ == "BlindPick" for o in picks[0].options)
    assert picks[0].labels() == ["第1张", "第2张", "第3张"]
    assert len(p0.hand) == 2 and len(p1.hand) == 4  # 平衡: both drew 3; then one stolen
    assert set(c.uid for c in p0.hand + p1.hand) == {31, 32, 33, 34, 35, 36}
    assert p1.role_face_up is False  # then flip_role(self, false)
    assert any(e.get("e") == "role_flipped" and e["face_up"] is False for e in g.log)


def test_face_down_role_cannot_use_a_non_flip_skill():
    """A face-down role can use only flip-up skills: the trigger is not offered."""
    g, _, a1 = _table(["P1"], [], thief_face_up=False)
    p0 = g.players[0]
    g.card_use.use_card(p0, card(g, 19), card(g, 19).type.uses_by_timing["play_phase"][0])
    assert a1.asked == [] and len(g.players[1].hand) == 3


def test_condition_false_when_the_card_targets_someone_else():
    """The trigger's condition reads the event's target: a 平衡 between others does not fire it."""
    content = load_cached([BUNDLED_CONTENT, PACK])
    a = [Recorder(["P2"]), Recorder([]), Recorder([])]
    g = build(
        content,
        [
            dict(identity="qian_fu_zhan_xian", hand=[19]),
            dict(identity="te_gong_ji_guan"),
            dict(identity="te_gong_ji_guan"),
        ],
        a,
    )
    g.players[1].role = content.roles["demo_thief"]
    g.skills.index_triggers()
    g.card_use.use_card(g.players[0], card(g, 19), card(g, 19).type.uses_by_timing["play_phase"][0])
    assert a[1].asked == [] and g.players[1].role_face_up


def _eval(text, game, seat):
    from interpreter.language.runtime import Ctx

    c = Compiler(context_env(["self", "current"]), "play_phase", {})
    f = c.expression(text)
    assert not c.errors, c.errors
    return f(Ctx(game, game.players[seat]))


def _run(text, game, seat):
    """Run `text` as an effect (an action is refused in an expression: E317)."""
    from interpreter.language.runtime import Ctx

    c = Compiler(context_env(["self", "current"]), "play_phase", {})
    run = c.program(text)
    assert not c.errors, c.errors
    run(Ctx(game, game.players[seat]))


def test_gender_only_when_face_up_and_role_queries():
    """gender() is none for a face-down role (面朝下的角色没有性别); role queries read the slot."""
    g, _, _ = _table([], [], thief_face_up=False)
    assert _eval('gender(self) == "female"', g, 1) is False  # face down: no gender
    assert _eval("hidden_role(self) and not role_face_up(self)", g, 1) is True
    g.players[1].role_face_up = True
    assert _eval("gender(self)", g, 1) == "female"
    assert _eval("hidden_role(self) and role_face_up(self)", g, 1) is True
    assert _eval("role_face_up(self)", g, 0) is False  # no role at all


def test_reveal_to_a_player_who_turns_out_none_shows_nobody():
    """`reveal(xs, to: p)` with p none when the code runs shows the cards to nobody; only a `to` left out is 展示
    to everyone. The compiler passes a left-out `to` as EVERYONE, so the primitive never reads a none audience
    as "everyone", whatever expression produced it."""
    from interpreter.language.builtins import BUILTINS, EVERYONE
    from interpreter.language.runtime import Ctx

    g, _, _ = _table([], [])
    hand = list(g.players[1].hand)
    assert hand and not any(g.zones.knows(0, c.uid) for c in hand)
    _run('reveal(hand(self), to: mark_player(self, "nobody"))\nreveal(hand(self), to: [])', g, 1)
    BUILTINS["reveal"].impl(Ctx(g, g.players[1]), hand, None)  # a none audience reaching the primitive
    assert not any(g.zones.knows(0, c.uid) for c in hand)  # P0 was shown nothing
    BUILTINS["reveal"].impl(Ctx(g, g.players[1]), hand, EVERYONE)
    assert all(g.zones.knows(0, c.uid) for c in hand)
    g2, _, _ = _table([], [])
    _run("reveal(hand(self))", g2, 1)  # left out: everyone
    assert all(g2.zones.knows(0, c.uid) for c in g2.players[1].hand)


def test_mentions_reads_the_texts_of_the_skills_a_face_up_role_has():
    """记述: mentions(p, 【X】) is true when a skill p has names 【X】 in its text (the made-up 测试妙手's 顺手 names
    【平衡】); a face-down role's texts are hidden, a lost skill records nothing, and none is false."""
    from interpreter.language.builtins import BUILTINS
    from interpreter.language.runtime import CardName, Ctx

    g, _, _ = _table([], [])
    p0, thief = g.players
    mentions = BUILTINS["mentions"].impl
    ping_heng, wei_bi = CardName("ping_heng", "平衡"), CardName("wei_bi", "威逼")
    assert mentions(Ctx(g, p0), thief, ping_heng) is True
    assert mentions(Ctx(g, p0), thief, wei_bi) is False
    assert mentions(Ctx(g, p0), p0, ping_heng) is False  # no role
    assert mentions(Ctx(g, p0), thief, None) is False and mentions(Ctx(g, p0), None, ping_heng) is False
    thief.lost_skills.add("demo_snatch")
    assert mentions(Ctx(g, p0), thief, ping_heng) is False
    thief.lost_skills.clear()
    thief.role_face_up = False
    assert mentions(Ctx(g, p0), thief, ping_heng) is False


def test_has_skill_reads_the_skills_a_player_has_now():
    """has_skill(p, "名"): p's role's skill (by name or id) he has not lost; another player's face-down role shows
    none, one's own does; a lost skill (or a dormant one not gained) is not had, nor any skill of a dead player;
    none is false."""
    from interpreter.language.builtins import BUILTINS
    from interpreter.language.runtime import Ctx

    g, _, _ = _table([], [])
    p0, thief = g.players
    has_skill = BUILTINS["has_skill"].impl
    assert has_skill(Ctx(g, p0), thief, "顺手") is True
    assert has_skill(Ctx(g, p0), thief, "demo_snatch") is True  # its id
    assert has_skill(Ctx(g, p0), thief, "妙手空空") is False  # no such skill
    assert has_skill(Ctx(g, p0), p0, "顺手") is False  # no role
    assert has_skill(Ctx(g, p0), None, "顺手") is False and has_skill(Ctx(g, p0), thief, None) is False
    thief.role_face_up = False
    assert has_skill(Ctx(g, p0), thief, "顺手") is False  # another's face-down role: its skills are hidden
    assert has_skill(Ctx(g, thief), thief, "顺手") is True  # his own he knows
    thief.role_face_up = True
    thief.alive = False  # a dead player's skills are void (seed 004), his role face up or not
    assert has_skill(Ctx(g, p0), thief, "顺手") is False and has_skill(Ctx(g, thief), thief, "顺手") is False
    thief.alive = True
    thief.lost_skills.add("demo_snatch")
    assert has_skill(Ctx(g, thief), thief, "顺手") is False
    assert _eval('has_skill(self, "顺手")', g, 1) is False


def test_has_skill_of_a_rule_skill_is_every_seats():
    """A rule skill (the rules' `skills:`) is had by every seat, whatever its role, until it loses it."""
    from interpreter.language.builtins import BUILTINS
    from interpreter.language.runtime import Ctx

    content = load_cached([BUNDLED_CONTENT, Path(__file__).parents[1] / "examples" / "rule_skills"])
    g = build(content, [dict(identity="qian_fu_zhan_xian"), dict(identity="te_gong_ji_guan")], [Seat(), Seat()])
    p0, p1 = g.players
    has_skill = BUILTINS["has_skill"].impl
    assert has_skill(Ctx(g, p0), p1, "黑报") is True
    p1.lost_skills.add("jia_gui_hei_bao")
    assert has_skill(Ctx(g, p0), p1, "黑报") is False and has_skill(Ctx(g, p0), p0, "黑报") is True


def test_has_skill_of_a_dead_player_whose_death_resolves_reads_his_death_skills():
    """Seed 004: at his death all a player's skills are void but his 死亡前 ones, which he uses while his death
    resolves: has_skill reads them had then (a 死亡前 skill's 若你拥有技能X), his other skills not, and none once
    his death has resolved."""
    from interpreter.language.builtins import BUILTINS
    from interpreter.language.runtime import Ctx

    g, _, _ = _table([], [])
    p0, old = g.players
    old.role = g.content.roles["lao_han"]  # 视死 (received), 如归 (死亡前)
    g.skills.index_triggers()
    has_skill = BUILTINS["has_skill"].impl
    old.alive = False
    g.seats.in_death.add(old)
    assert has_skill(Ctx(g, old), old, "如归") is True and has_skill(Ctx(g, p0), old, "如归") is True
    assert has_skill(Ctx(g, old), old, "视死") is False
    assert g.skills.skill_blocker(old, g.skills.skill_named(old, "如归")) is None  # (what the engine lets him use)
    g.seats.in_death.discard(old)
    assert has_skill(Ctx(g, old), old, "如归") is False
