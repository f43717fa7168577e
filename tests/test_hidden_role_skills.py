"""Skills of a face-down role (issue 26 item 7): `while_face_down: silent | announced` lets a skill work while its
role card is face down, and says what the others hear of its use. With examples/hidden_roles' made-up 蛰伏者: a
silent use is in its owner's history alone (and no other skill triggers on it), an announced one in everyone's
with the skill hidden; a sample for another seat (the step API's resample) re-deals the face-down role and keeps
no record that names a skill of the role it really is."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conftest import S, make
from interpreter.agents.base import Agent
from interpreter.content.loader import BUNDLED_CONTENT, ContentErrors, load_cached, load_content
from interpreter.engine.observation import observe
from interpreter.engine.step import _redeal
from interpreter.engine.table import build

PACK = Path(__file__).parents[1] / "examples" / "hidden_roles"
SKILL_IDS = ("xu_li", "an_shao", "po_jian")


@pytest.fixture(scope="module")
def content():
    return load_cached([BUNDLED_CONTENT, PACK])


def _table(content):
    """Three seats; P0 holds 蛰伏者 face down; the role pile holds another hidden role (a re-deal may swap them)."""
    g = make(content, [S("red"), S("blue"), S("blue")])
    p0 = g.players[0]
    p0.new_role(content.roles["zhe_fu_zhe"], False)
    g.skills.set_role_pile([content.roles["gu_xiao_meng"]])
    g.skills.index_triggers()
    return g


def _use(g, skill_id: str) -> None:
    p0 = g.players[0]
    skill = next(s for s in p0.role.skills if s.id == skill_id)
    assert g.skills.skill_blocker(p0, skill) is None  # usable face down
    g.skills.use_skill(p0, skill)


def _history(g, seat: int) -> list:
    return [dict(r) for r in observe(g, seat)["history"] if r.get("e") == "skill_used"]


def test_a_face_down_role_uses_only_the_skills_that_say_so(content):
    g = _table(content)
    p0 = g.players[0]
    po_jian = next(s for s in p0.role.skills if s.id == "po_jian")
    assert g.skills.skill_blocker(p0, po_jian) is None  # flips_up: its cost turns the role face up
    p0.role_face_up = True
    xu_li = next(s for s in p0.role.skills if s.id == "xu_li")
    assert g.skills.skill_blocker(p0, xu_li) is None  # (and face up, as any skill)


def test_a_silent_use_is_heard_by_its_owner_alone(content):
    g = _table(content)
    _use(g, "xu_li")
    assert _history(g, 0) == [{"e": "skill_used", "seat": 0, "skill": "xu_li"}]
    assert _history(g, 1) == [] and _history(g, 2) == []
    assert g.seats.counter(g.players[0], g.content.declared.counters["蓄力"]) == 1
    assert "蓄力" not in json.dumps(observe(g, 1), ensure_ascii=False, default=str)  # an owner-only counter


def test_an_announced_use_tells_the_others_that_a_skill_was_used_not_which(content):
    g = _table(content)
    _use(g, "an_shao")
    assert [r["skill"] for r in _history(g, 0)] == ["an_shao"]
    for seat in (1, 2):
        (rec,) = _history(g, seat)
        assert rec["seat"] == 0 and rec["skill"] is None


@pytest.mark.parametrize("heard", ["silent", "announced"])
def test_a_face_down_roles_switch_skill_switches_in_its_owners_sight_alone(content, heard):
    """A 转换技 of a face-down role used as `while_face_down` allows: its switch (skill_switched, naming the skill and
    its state) was told to everyone whatever the use was, so a silent use showed that it happened and which skill
    the face-down role has. It is told as the use was: to the owner alone; a sample for another seat drops it."""
    import dataclasses

    def played():
        g = _table(content)
        p0 = g.players[0]
        skill = dataclasses.replace(next(s for s in p0.role.skills if s.while_face_down == heard), switch=True)
        g.skills.use_skill(p0, skill)
        return g, skill

    def switched(g, seat: int) -> list:
        return [dict(r) for r in observe(g, seat)["history"] if r.get("e") == "skill_switched"]

    g, skill = played()
    assert skill.id in g.players[0].yin
    assert switched(g, 0) == [{"e": "skill_switched", "seat": 0, "skill": skill.id, "state": "yin"}]
    assert switched(g, 1) == [] and switched(g, 2) == []
    re_dealt = 0
    for seed in range(12):  # a sample for P1 that deals P0 the other hidden role keeps no switch of the true one's
        g, _ = played()
        _redeal(g, 1, random.Random(seed))
        if g.players[0].role.id != "zhe_fu_zhe":
            re_dealt += 1
            assert not [r for r in g.log if r.get("e") == "skill_switched"]
    assert re_dealt > 0


@pytest.mark.parametrize("seed", range(12))
def test_a_sample_for_another_seat_names_no_skill_of_the_role_it_re_dealt(content, seed):
    g = _table(content)
    _use(g, "xu_li")
    _use(g, "an_shao")
    _redeal(g, 1, random.Random(seed))
    role = g.players[0].role.id
    text = json.dumps(g.log, ensure_ascii=False, default=str)
    if role != "zhe_fu_zhe":  # the sample dealt P0 the other hidden role: no record of the true one's skills
        assert not any(s in text for s in SKILL_IDS), text
    else:  # the sample dealt her true role: her own records may stay (they are of the role she holds)
        assert g.players[0].role_face_up is False
    assert _history(g, 1) == [{"e": "skill_used", "seat": 0, "skill": None}]  # the announced use, as seat 1 saw it


def test_the_samples_deal_the_face_down_role_both_ways(content):
    """(The test above meets both cases: a re-deal that swapped the role, and one that kept it.)"""
    dealt = set()
    for seed in range(12):
        g = _table(content)
        _redeal(g, 1, random.Random(seed))
        dealt.add(g.players[0].role.id)
    assert dealt == {"zhe_fu_zhe", "gu_xiao_meng"}


@pytest.mark.slow
def test_random_games_never_name_a_face_down_skill_to_another_seat(content):
    """Random games with 蛰伏者 dealt: while her role is face down no other seat's observation names 蓄力 or 暗哨,
    and no sample for another seat that re-deals her role keeps a record naming them (20 games; at this writing
    7,668 observations, 41 face-down uses and 85 such samples)."""
    from interpreter.engine.pins import Pins
    from interpreter.engine.step import GameState
    from redeal import dealt_for

    hidden = ("xu_li", "an_shao")
    uses = samples = 0
    for seed in range(20):
        state = GameState(content, 5, seed, None, Pins(role="zhe_fu_zhe", seat=seed % 5))
        rng = random.Random(seed)
        while not state.is_terminal():
            g = state._game
            # (no one before the roles are dealt, nor after a skill replaced her role)
            owner = next((p for p in g.players if p.role is not None and p.role.id == "zhe_fu_zhe"), None)
            if owner is not None and not owner.role_face_up:
                for seat in range(5):
                    if seat != owner.seat:
                        text = json.dumps(state.observation(seat), ensure_ascii=False, default=str)
                        assert not any(i in text for i in hidden), (seed, seat)
                if rng.random() < 0.05:
                    sample = dealt_for(state, (owner.seat + 1) % 5, random.Random(rng.random()))
                    if sample._game.players[owner.seat].role.id != "zhe_fu_zhe":
                        samples += 1
                        log = json.dumps(sample._game.log, ensure_ascii=False, default=str)
                        assert not any(i in log for i in hidden), seed
            state.apply_action(rng.choice(state.legal_actions()))
        uses += sum(1 for r in state._game.log if r.get("e") == "skill_used" and r.get("skill") in hidden)
    assert uses and samples  # the check met face-down uses and samples that re-dealt her role


def test_a_skill_that_flips_its_role_up_and_works_face_down_is_an_error_at_its_key(tmp_path):
    """E115: `flips_up: true` (its use reveals the role) and `while_face_down:` (it works hidden) on one skill."""
    fork = tmp_path / "hidden_roles"
    (fork / "roles").mkdir(parents=True)
    (fork / "pack.yaml").write_text((PACK / "pack.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    role = (PACK / "roles" / "zhe_fu_zhe.yaml").read_text(encoding="utf-8")
    role = role.replace("    flips_up: true\n", "    flips_up: true\n    while_face_down: silent\n", 1)
    (fork / "roles" / "zhe_fu_zhe.yaml").write_text(role, encoding="utf-8")
    line = role.splitlines().index("    flips_up: true") + 2  # the line after it
    with pytest.raises(ContentErrors) as e:
        load_content([BUNDLED_CONTENT, fork])
    (err,) = [x for x in e.value.errors if x.code == "E115"]
    assert err.path.endswith("zhe_fu_zhe.yaml") and (err.line, err.col) == (line, 5)
    assert "破茧" in err.message and "flips_up" in (err.hint or "") and "while_face_down" in (err.hint or "")


def test_a_sample_for_another_seat_keeps_no_trace_of_a_silent_use(content):
    """A silent use of a face-down role's skill (蓄力: its owner-only counter goes up) left in a sample for another
    seat neither the counter's record (counter_changed, told to the owner alone) nor, for a skill with a limit, its
    count of uses (Player.usage names the skill), nor the use's own record where the sample dealt her true role
    again: two tables P1 cannot tell apart deal it the same sample."""
    import dataclasses

    def table(used: bool):
        g = _table(content)
        p0 = g.players[0]
        xu_li = dataclasses.replace(next(s for s in p0.role.skills if s.id == "xu_li"), limit_scope="game")
        if used:
            g.skills.use_skill(p0, xu_li)
        return g

    plain, used = table(False), table(True)
    assert used.players[0].usage and any(r.get("e") == "counter_changed" for r in used.log)
    assert observe(plain, 1) == observe(used, 1)
    for seed in range(4):
        a, b = table(False), table(True)
        _redeal(a, 1, random.Random(seed))
        _redeal(b, 1, random.Random(seed))
        assert b.players[0].usage == a.players[0].usage == {}
        assert all(observe(a, s)["history"] == observe(b, s)["history"] for s in (0, 2))


# Two face-down roles a seat cannot tell apart but by what they hear: 夜守 gathers 蓄力 silently at the end of each
# round (轮结束时), 昼守 at its own draw phase (for a test, neither does anything the others are told of).
WATCH = """\
id: {id}
name: {name}
title: 守夜的人
gender: female
hidden: true
skills:
  - id: {id}_xu
    name: {name}蓄力
    text: 锁定技，你的角色牌面朝下时，{when}，你获得一点蓄力（其他角色不知道）。
    kind: triggered
    trigger: {trigger}
    optional: false
    while_face_down: silent
    condition: {mine}not role_face_up(self)
    effect: add_counter(self, "蓄力", 1)
"""


class _First(Agent):
    def act(self, observation, actions):
        return actions[0]["id"]


def test_a_moment_a_face_down_role_hears_is_recorded_whoever_was_dealt_it(tmp_path):
    """轮结束时 (`round_end`; so 游戏开始时, 游戏结束时) was recorded only in a game where a dealt role reacted to it,
    so a face-down role's silent skill at the end of a round put a public `round_end` record in every seat's history:
    the table learnt that a role hearing it was dealt. It is recorded in every game of a content one of whose
    skills hears it, and the two tables below — P0's face-down role one or the other — look alike to P1 and P2."""
    fork = tmp_path / "night"
    (fork / "roles").mkdir(parents=True)
    (fork / "pack.yaml").write_text(
        (PACK / "pack.yaml").read_text(encoding="utf-8").replace("id: hidden_roles", "id: night"), encoding="utf-8"
    )
    for rid, name, trigger, when, mine in (
        ("ye_shou", "夜守", "round_end", "每轮结束时", ""),
        ("zhou_shou", "昼守", "draw_phase", "你的摸牌阶段开始时", "subject == self and "),
    ):
        (fork / "roles" / f"{rid}.yaml").write_text(
            WATCH.format(id=rid, name=name, trigger=trigger, when=when, mine=mine), encoding="utf-8"
        )
    night = load_content([BUNDLED_CONTENT, fork])

    def ended_round(role: str):  # P2's turn, the last of the round, played to its end
        g = build(night, [S("red"), S("blue"), S("blue")], [_First(), _First(), _First()], current=2)
        g.players[0].new_role(night.roles[role], False)
        g.skills.index_triggers()
        g.play_turn()
        return g

    heard, unheard = ended_round("ye_shou"), ended_round("zhou_shou")
    assert any(r.get("e") == "counter_changed" for r in heard.log)  # (夜守 gathered, face down)
    assert not heard.players[0].role_face_up and not unheard.players[0].role_face_up
    for seat in (1, 2):
        assert observe(heard, seat)["history"] == observe(unheard, seat)["history"]
    assert any(r.get("e") == "round_end" for r in observe(unheard, 1)["history"])
