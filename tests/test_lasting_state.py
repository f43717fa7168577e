"""State that lasts, with a made-up role (tests/fixtures/lasting_pack): a counter kept for the game with a
maximum (蓄力), a secret mark only its owner sees, a 转换技 alternating 阳/阴, a mission that loses itself
and gains a dormant skill, a 持恒技 that skills_disabled does not stop, the round_end timing, and a list
collected in a loop."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from conftest import Seat
from interpreter.agents.random_agent import RandomAgent
from interpreter.content.loader import BUNDLED_CONTENT, load_cached, validate_paths
from interpreter.engine.observation import history, observe
from interpreter.engine.table import build
from interpreter.language.builtins import BUILTINS
from interpreter.language.runtime import Ctx

PACK = Path(__file__).parent / "fixtures" / "lasting_pack"
EXAMPLE = Path(__file__).parent.parent / "examples" / "san_guo_mechanics"
RED_ID, BLUE_ID = "qian_fu_zhan_xian", "te_gong_ji_guan"


@pytest.fixture(scope="module")
def content():
    return load_cached([BUNDLED_CONTENT, PACK])


def _game(content, hands=((19, 20), (27,)), agents=None):
    agents = agents or [Seat(()), Seat(())]
    g = build(
        content,
        [dict(identity=RED_ID, hand=list(hands[0])), dict(identity=BLUE_ID, hand=list(hands[1]))],
        agents,
        deck_top=[31, 32, 33, 34, 35, 36, 37, 38, 39, 40],
    )
    g.players[0].new_role(content.roles["demo_lasting"], True)
    g.skills.index_triggers()
    return g, agents


def _skill(content, sid):
    return next(sk for sk in content.roles["demo_lasting"].skills if sk.id == sid)


def test_a_counter_lasts_the_game_and_keeps_to_its_maximum(content):
    g, _ = _game(content)
    p0 = g.players[0]
    add = BUILTINS["add_mark"].impl
    assert [add(Ctx(g, p0), p0, "蓄力", 1, 3, False) for _ in range(4)] == [True, True, True, False]  # full: no gain
    g.turn_no += 5  # turns later, the counter is still there (a set_mark would be gone)
    assert g.seats.mark(p0, "蓄力") == 3
    assert add(Ctx(g, p0), p0, "蓄力", 5, 3, False) is False
    spend = _skill(content, "demo_spend")
    assert g.skills.skill_blocker(p0, spend) is None
    before = len(p0.hand)
    g.skills.use_skill(p0, spend)
    assert g.seats.mark(p0, "蓄力") == 1 and len(p0.hand) == before + 2
    assert not spend.condition(Ctx(g, p0))  # one point left: 发力 is not offered
    assert add(Ctx(g, p0), p0, "蓄力", -4, None, False) is True and g.seats.mark(p0, "蓄力") is None  # 0: cleared
    # everyone sees a public counter, in the log and in observations
    assert [r["value"] for r in history(g, 1) if r["e"] == "mark"] == [1, 2, 3, 1, None]
    g.seats.keep_mark(p0, "蓄力", 2)
    assert observe(g, 1)["players"][0]["marks"] == {"蓄力": 2}


def test_a_secret_mark_is_seen_by_its_owner_alone(content):
    g, _ = _game(content)
    p0, p1 = g.players
    BUILTINS["keep_mark"].impl(Ctx(g, p0), p0, "败", True, True)
    BUILTINS["keep_mark"].impl(Ctx(g, p0), p1, "旗", True, False)
    assert BUILTINS["has_mark"].impl(Ctx(g, p0), p0, "败") is True
    assert observe(g, 0)["players"][0]["marks"] == {"败": True}
    assert "marks" not in observe(g, 1)["players"][0]  # seat 1 sees nothing of it
    assert observe(g, 0)["players"][1]["marks"] == {"旗": True}
    assert [r["key"] for r in history(g, 0) if r["e"] == "mark"] == ["败", "旗"]
    assert [r["key"] for r in history(g, 1) if r["e"] == "mark"] == ["旗"]
    BUILTINS["keep_mark"].impl(Ctx(g, p0), p0, "败", False, True)  # cleared: its owner alone hears of it
    assert g.seats.mark(p0, "败") is None
    assert [r["value"] for r in history(g, 0) if r["e"] == "mark"][-1] is None
    assert [r["key"] for r in history(g, 1) if r["e"] == "mark"] == ["旗"]


def test_a_mark_holding_a_card_or_a_player_says_so_in_its_record(content):
    """A card kept as a mark is recorded as None (its face may be hidden from some seats) with card_value, so it does
    not read as the mark cleared; a player as his seat with player_value, so it does not read as a number."""
    g, _ = _game(content)
    p0, p1 = g.players
    g.seats.keep_mark(p0, "信物", p0.hand[0])
    g.seats.keep_mark(p0, "盟友", p1)
    g.seats.keep_mark(p0, "体力", 1)
    g.seats.keep_mark(p0, "信物", None)
    marks = [{k: v for k, v in r.items() if k != "e"} for r in history(g, 1) if r["e"] == "mark"]
    assert marks == [
        {"seat": 0, "key": "信物", "value": None, "card_value": True},
        {"seat": 0, "key": "盟友", "value": 1, "player_value": True},
        {"seat": 0, "key": "体力", "value": 1},
        {"seat": 0, "key": "信物", "value": None},
    ]


def test_a_switch_skill_alternates_and_shows_its_state(content):
    g, agents = _game(content, hands=((19, 20), (27,)))
    p0 = g.players[0]
    switch = _skill(content, "demo_switch")
    dormant = {"demo_reward": "lost"}  # (a dormant skill is shown as not had)
    assert g.skills.skill_yang(p0, "阴阳") and observe(g, 1)["players"][0]["skills"] == dormant
    g.skills.use_skill(p0, switch)  # 阳: draw one
    assert len(p0.hand) == 3 and not g.skills.skill_yang(p0, "阴阳")
    assert observe(g, 1)["players"][0]["skills"] == dormant | {"demo_switch": "yin"}
    assert any(r["e"] == "skill_switched" and r["state"] == "yin" for r in history(g, 1))
    g.turn_no += 1
    agents[0].answers = ["#19"]
    g.skills.use_skill(p0, switch)  # 阴: discard one
    assert len(p0.hand) == 2 and 19 not in {c.uid for c in p0.hand} and g.skills.skill_yang(p0, "阴阳")
    assert observe(g, 1)["players"][0]["skills"] == dormant


def test_a_mission_loses_itself_and_gains_a_dormant_skill(content):
    g, _ = _game(content)
    p0 = g.players[0]
    mission, reward = _skill(content, "demo_mission"), _skill(content, "demo_reward")
    assert g.skills.skill_blocker(p0, reward) is not None and g.skills.skill_blocker(p0, mission) is None
    assert observe(g, 1)["players"][0]["skills"] == {"demo_reward": "lost"}
    assert BUILTINS["gain_skill"].impl(Ctx(g, p0), p0, "奖励") is True
    assert BUILTINS["lose_skill"].impl(Ctx(g, p0), p0, "使命") is True
    assert BUILTINS["lose_skill"].impl(Ctx(g, p0), p0, "使命") is False  # lost already
    assert BUILTINS["gain_skill"].impl(Ctx(g, p0), p0, "没有这个技能") is False
    assert g.skills.skill_blocker(p0, reward) is None and g.skills.skill_blocker(p0, mission) is not None
    assert observe(g, 1)["players"][0]["skills"] == {"demo_mission": "lost"}
    assert [(r["skill"], r["has"]) for r in history(g, 1) if r["e"] == "skill_changed"] == [
        ("demo_reward", True),
        ("demo_mission", False),
    ]


def test_a_face_down_role_s_skill_changes_are_its_owner_s_alone(content):
    g, _ = _game(content)
    p0 = g.players[0]
    p0.new_role(content.roles["demo_lasting"], False)
    BUILTINS["gain_skill"].impl(Ctx(g, p0), p0, "奖励")
    assert [r["e"] for r in history(g, 1) if r["e"] == "skill_changed"] == []
    assert [r["e"] for r in history(g, 0) if r["e"] == "skill_changed"] == ["skill_changed"]
    assert "skills" not in observe(g, 1)["players"][0]


def test_a_persistent_skill_works_while_skills_are_disabled(content):
    g, _ = _game(content)
    p0 = g.players[0]
    g.seats.add_status(p0, "skills_disabled")
    assert g.skills.skill_blocker(p0, _skill(content, "demo_steady")) is None
    assert g.skills.skill_blocker(p0, _skill(content, "demo_switch")) == "skills are disabled this turn"


def test_a_list_collected_in_a_loop(content):
    g, agents = _game(content, hands=((19, 27), (28,)))  # 19 is black; 27, 28 red
    p0 = g.players[0]
    agents[0].answers, agents[1].answers = ["#27"], ["#28"]
    g.skills.use_skill(p0, _skill(content, "demo_show"))
    shown = [r for r in g.log if r.get("e") == "reveal"]
    assert shown and sorted(shown[-1]["cards"]) == [27, 28]
    assert len(p0.hand) == 3  # two red shown, no black: one card drawn


def test_round_end_fires_once_a_round(content):
    g, _ = _game(content, agents=[RandomAgent(1), RandomAgent(2)])
    ends = 0
    for _ in range(6):
        if g.result is not None:
            break
        try:
            g.play_turn()
            g.current = g.flow.next_turn_player()
        except Exception as over:  # the game may end early: count what was played
            if type(over).__name__ != "GameOver":
                raise
            break
        ends = sum(1 for r in g.log if r.get("e") == "round_end")
    turns = sum(1 for r in g.log if r.get("e") == "turn_end")
    assert ends == turns // 2 and ends >= 1
    assert g.seats.mark(g.players[0], "轮数") == ends


def test_a_role_names_only_its_own_skills(tmp_path):
    role = (PACK / "roles" / "demo_lasting.yaml").read_text(encoding="utf-8")
    (tmp_path / "roles").mkdir()
    f = tmp_path / "roles" / "demo_lasting.yaml"
    f.write_text(role.replace('skill_yang(self, "阴阳")', 'skill_yang(self, "阴养")'), encoding="utf-8")
    (e,) = validate_paths([BUNDLED_CONTENT, tmp_path])
    assert (e.code, e.line, e.col) == ("E121", 36, 27)
    assert e.message == 'the role 测试长存 has no skill "阴养"' and e.hint == "did you mean 阴阳?"


def test_the_mechanics_pack_keeps_the_seat_boundary():
    """Games with the example pack's roles (secret and public state, skills gained and switched): every
    seat's observation stays the same when all it cannot see is re-dealt."""
    from test_seat_boundary import _resample_everywhere

    full = load_cached([BUNDLED_CONTENT, EXAMPLE])
    ours = {rid: r for rid, r in full.roles.items() if full.origins[("role", rid)].pack == "san_guo_mechanics"}
    assert len(ours) == 9
    content = dataclasses.replace(full, roles=ours)  # only the pack's roles are dealt
    assert _resample_everywhere(content, 4, every_seat=True) > 300


def test_has_skill_names_a_skill_of_the_content(tmp_path):
    """has_skill(self, "名") of a skill no role nor the rules have would always be false: E121 with the closest."""
    role = (PACK / "roles" / "demo_lasting.yaml").read_text(encoding="utf-8")
    (tmp_path / "roles").mkdir()
    f = tmp_path / "roles" / "demo_lasting.yaml"
    f.write_text(role.replace('skill_yang(self, "阴阳")', 'has_skill(self, "阴养")'), encoding="utf-8")
    (e,) = validate_paths([BUNDLED_CONTENT, tmp_path])
    assert (e.code, e.line, e.col) == ("E121", 36, 26)
    assert e.message.startswith('no skill of the content is called "阴养"') and e.hint == "did you mean 阴阳?"


def test_has_skill_of_anyone_and_a_cards_code_name_a_skill_of_the_content(tmp_path):
    """has_skill(p, "名") of any player, and the skill primitives in a card's code (its user may hold any role) or a
    victory's, name a skill of the content too: a name no skill has would always be false (or do nothing): E121 with
    the closest. Only a role's and a rule skill's code, of self, were checked."""
    (tmp_path / "pack.yaml").write_text(
        "id: e121_pack\nname: e121\nversion: 0.1.0\ndescription: x\nextends: [base]\n"
        "deck:\n  add:\n    - {id: 601, card: demo_probe, colors: [black], direction: left}\n",
        encoding="utf-8",
    )
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "demo_probe.yaml").write_text(
        "id: demo_probe\nname: 探针\ntext: x\n"
        'effect: |\n  draw(self, 1)\n  lose_skill(self, "遗心")\n'  # a shared effect: reported once
        "uses:\n"
        "  - timing: play_phase\n"
        '    condition: has_skill(self, "遗信") and has_skill(current, "遗言")\n'
        "  - timing: contest\n",
        encoding="utf-8",
    )
    errs = sorted(validate_paths([BUNDLED_CONTENT, tmp_path]), key=lambda e: e.line)
    assert [(e.code, e.line, e.hint) for e in errs] == [
        ("E121", 6, "did you mean 遗信?"),
        ("E121", 9, "did you mean 遗信?"),
    ], errs
    assert errs[0].message.startswith('the rules have no skill "遗心", nor does any role')
    assert errs[1].message.startswith('no skill of the content is called "遗言"')
