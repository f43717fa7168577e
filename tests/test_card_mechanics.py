"""Engine mechanisms behind role skills, tested with made-up roles written on the spot.

Each test writes a tiny role pack (one made-up role) into a temporary folder,
builds a mid-game table and drives the engine directly. The mechanisms:
card conversion and forced conversion, virtual use, one player making another
use a card, bans, nullification, claiming the used card, role replacement,
identity cards changing hands, direction override, secret statuses,
hand-taken and skill-collect events, shared limits of multi-event skills,
per-turn marks, put_on_deck, end_contest, set_pending and replace_intel.
"""

from __future__ import annotations

import textwrap

import pytest

from conftest import Seat
from interpreter.agents.scripted import ScriptExhausted
from interpreter.content.loader import BUNDLED_CONTENT, load_content
from interpreter.engine import decisions as D
from interpreter.engine.decisions import PlayOption
from interpreter.engine.state import DECK, DISCARD, HAND, INTEL
from interpreter.engine.table import build, card, put_pending

RED_ID, BLUE_ID = "qian_fu_zhan_xian", "te_gong_ji_guan"


class Recorder(Seat):
    """A scripted agent (the referee's view) that also keeps every decision it was asked."""


def pack(tmp_path, *roles: str):
    """A content pack with the given role files (YAML text), layered over the bundled content."""
    d = tmp_path / "pack" / "roles"
    d.mkdir(parents=True)
    for i, text in enumerate(roles):
        (d / f"r{i}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return load_content([BUNDLED_CONTENT, tmp_path / "pack"])


def role(rid, skills, hidden=False, gender="female", name=None):
    return (
        f"id: {rid}\nname: {name or rid}\ngender: {gender}\nhidden: {str(hidden).lower()}\nskills:\n"
        + textwrap.indent(textwrap.dedent(skills), "  ")
    )


def table(content, seats, roles=(), deck_top=(), current=0, answers=None):
    agents = [Recorder((answers or {}).get(i, ())) for i in range(len(seats))]
    g = build(content, seats, agents, deck_top=deck_top, current=current)
    for seat, rid in roles:
        g.players[seat].role = content.roles[rid]
        g.players[seat].role_face_up = True
    g.skills.index_triggers()
    return g, agents


def labels(options):
    return [D.option_label(o) for o in options]


def test_forced_conversion_offers_the_card_only_as_the_new_name(tmp_path):
    content = pack(
        tmp_path,
        role(
            "conv",
            """
        - id: force
          name: 强转
          kind: active
          timing: play_phase
          effect: convert(【截获】, 【误导】)
        """,
        ),
    )
    g, _ = table(
        content, [dict(identity=RED_ID, hand=[79]), dict(identity=BLUE_ID), dict(identity=BLUE_ID)], roles=[(0, "conv")]
    )
    p0 = g.players[0]
    put_pending(g, 91, sender=1, holder=1)
    before = [o.use.card_type.id for o in g.card_use.card_options(p0, "contest") if o.card is not None]
    assert before == ["jie_huo"]
    g.skills.use_skill(p0, content.roles["conv"].skills[0])
    after = [o for o in g.card_use.card_options(p0, "contest") if o.card is not None]
    assert [o.use.card_type.id for o in after] == ["wu_dao"]
    assert after[0].card.uid == 79
    # it ends with the turn
    g.turn_no += 1
    g.conversions.clear()  # what play_turn does at the start of a turn
    assert [o.use.card_type.id for o in g.card_use.card_options(p0, "contest") if o.card is not None] == ["jie_huo"]


# An optional conversion (A当B使用): an active skill that uses a 截获 as 误导.
AS_WU_DAO = """
        - id: as_wu_dao
          name: 改用式
          kind: active
          timing: contest
          condition: |
            any_of(hand(self) where name_of(it) == 【截获】 and usable(it, as: 【误导】))
          effect: |
            use_card(choose(from: hand(self) where name_of(it) == 【截获】), as: 【误导】)
"""


def test_converted_use_reports_the_new_name_and_discards_the_card(tmp_path):
    content = pack(
        tmp_path,
        role(
            "conv",
            AS_WU_DAO
            + """
        - id: seen
          name: 观察
          kind: triggered
          trigger: card_resolved
          optional: false
          condition: used_as == 【误导】
          effect: draw(self, 1)
        """,
        ),
    )
    g, _ = table(
        content,
        [dict(identity=RED_ID, hand=[79]), dict(identity=BLUE_ID), dict(identity=BLUE_ID)],
        roles=[(0, "conv")],
        answers={0: ["P2"]},
    )
    p0 = g.players[0]
    put_pending(g, 91, sender=1, holder=1)
    opts = g.card_use.card_options(p0, "contest")
    skill = [o for o in opts if o.card is None]
    assert len(skill) == 1
    g.card_use.perform(p0, skill[0])
    assert g.holder is g.players[2]  # used as 误导: moved to a neighbour of the holder
    assert card(g, 79).zone == DISCARD
    used = [e for e in g.log if e.get("e") == "card_used"]
    assert used[-1]["card"] == "wu_dao" and used[-1]["uid"] == 79
    assert len(p0.hand) == 1  # 观察 drew: used_as was 【误导】


def test_a_forced_conversion_blocks_optional_conversion_of_that_card(tmp_path):
    content = pack(tmp_path, role("conv", AS_WU_DAO))
    g, _ = table(content, [dict(identity=RED_ID, hand=[79]), dict(identity=BLUE_ID)], roles=[(0, "conv")])
    put_pending(g, 91, sender=1, holder=1)
    g.conversions["jie_huo"] = content.card_types["diao_bao"]
    opts = g.card_use.card_options(g.players[0], "contest")
    assert [o.card for o in opts] == [card(g, 79)]  # only as 调包; the skill is not offered
    assert opts[0].use.card_type.id == "diao_bao"


def test_virtual_use_ignores_bans_and_has_no_card(tmp_path):
    content = pack(
        tmp_path,
        role(
            "virt",
            """
        - id: steal
          name: 偷式
          kind: active
          timing: contest
          effect: |
            use_card(none, as: 【截获】)
        """,
        ),
    )
    g, _ = table(
        content, [dict(identity=RED_ID, hand=[80]), dict(identity=BLUE_ID), dict(identity=BLUE_ID)], roles=[(0, "virt")]
    )
    p0 = g.players[0]
    put_pending(g, 91, sender=1, holder=1)
    g.bans.add("jie_huo")
    opts = g.card_use.card_options(p0, "contest")
    assert all(o.card is None for o in opts)  # the physical 截获 is banned
    g.card_use.perform(p0, opts[0])
    assert g.holder is p0
    used = [e for e in g.log if e.get("e") == "card_used"][-1]
    assert used["card"] == "jie_huo" and used["uid"] is None
    assert card(g, 80).zone == HAND


def test_making_another_player_use_a_card(tmp_path):
    content = pack(
        tmp_path,
        role(
            "boss",
            """
        - id: puppet
          name: 指使式
          kind: active
          timing: contest
          effect: |
            let t = choose(from: others(self), prompt: "谁")
            reveal(hand(t), to: [self])
            use_card(choose(from: hand(t) where usable(it, by: t), prompt: "用哪张"), by: t)
        """,
        ),
        role(
            "user",
            """
        - id: after
          name: 用后
          kind: triggered
          trigger: card_used
          optional: false
          condition: subject == self
          effect: draw(self, 1)
        """,
        ),
    )
    g, ag = table(
        content,
        [dict(identity=RED_ID), dict(identity=BLUE_ID, hand=[94, 27]), dict(identity=BLUE_ID)],
        roles=[(0, "boss"), (1, "user")],
        answers={0: ["P1", "P0"]},
    )
    put_pending(g, 82, sender=2, holder=2)
    p0, p1 = g.players[0], g.players[1]
    opts = g.card_use.card_options(p0, "contest")
    g.card_use.perform(p0, opts[0])
    used = [e for e in g.log if e.get("e") == "card_used"][-1]
    assert used["seat"] == 1 and used["card"] == "wu_dao"  # P1 is the user
    assert g.holder is p0  # P0 chose the target of 误导
    assert not ag[1].asked  # P1 was never asked
    assert len(p1.hand) == 2  # P1's 用后 fired: 威逼 + one drawn


def test_cannot_make_a_player_use_cards_when_he_may_not(tmp_path):
    content = pack(
        tmp_path,
        role(
            "boss",
            """
        - id: puppet
          name: 指使式
          kind: active
          timing: contest
          condition: |
            any_of(hand(current) where usable(it, by: current))
          effect: |
            reveal(hand(current), to: [self])
            use_card(choose(from: hand(current) where usable(it, by: current)), by: current)
        """,
        ),
    )
    g, _ = table(content, [dict(identity=RED_ID), dict(identity=BLUE_ID, hand=[94])], roles=[(0, "boss")], current=1)
    put_pending(g, 82, sender=1, holder=1)
    assert [o for o in g.card_use.card_options(g.players[0], "contest") if o.card is None]
    g.seats.add_status(g.players[1], "cannot_use_cards")
    assert not [o for o in g.card_use.card_options(g.players[0], "contest") if o.card is None]


def test_nullify_and_claim_the_used_card(tmp_path):
    content = pack(
        tmp_path,
        role(
            "wary",
            """
        - id: counter
          name: 将计
          kind: triggered
          trigger: card_used
          flips_up: true
          condition: target == self and used_as in [【试探】, 【威逼】, 【利诱】]
          effect: |
            draw(self, 2)
            claim_used_card(self)
        - id: immune
          name: 免疫式
          kind: triggered
          trigger: card_resolving
          optional: false
          condition: target == self and used_as in [【试探】, 【威逼】]
          effect: nullify()
        """,
            hidden=True,
        ),
    )
    g, _ = table(
        content,
        [dict(identity=RED_ID, hand=[27]), dict(identity=BLUE_ID, hand=[94])],
        roles=[(1, "wary")],
        answers={0: ["P1"], 1: [True]},
    )
    p0, p1 = g.players
    p1.role_face_up = False
    g.card_use.perform(p0, PlayOption(card(g, 27), content.card_types["wei_bi"].uses[0]))
    assert p1.role_face_up  # 将计 flipped it
    assert any(e.get("e") == "nullified" for e in g.log)  # then 免疫式 made 威逼 invalid
    assert not any(e.get("e") == "declare" for e in g.log)  # its effect never ran
    assert card(g, 27).zone == HAND and card(g, 27).owner is p1  # and the card went to P1's hand
    assert len(p1.hand) == 4  # 误导 + 2 drawn + 威逼
    assert [e for e in g.log if e.get("e") == "card_resolved"]  # it still resolved


def test_face_down_immunity_does_not_work(tmp_path):
    content = pack(
        tmp_path,
        role(
            "wary",
            """
        - id: immune
          name: 免疫式
          kind: triggered
          trigger: card_resolving
          optional: false
          condition: target == self and used_as == 【威逼】
          effect: nullify()
        """,
            hidden=True,
        ),
    )
    g, _ = table(
        content,
        [dict(identity=RED_ID, hand=[27]), dict(identity=BLUE_ID, hand=[94])],
        roles=[(1, "wary")],
        answers={0: ["【误导】"], 1: ["#94"]},
    )
    g.players[1].role_face_up = False
    g.card_use.perform(g.players[0], PlayOption(card(g, 27), content.card_types["wei_bi"].uses[0]))
    assert not any(e.get("e") == "nullified" for e in g.log)
    assert card(g, 94).owner is g.players[0]  # 威逼 worked: P1 gave 误导


def test_replace_role_from_the_pile(tmp_path):
    content = pack(
        tmp_path,
        role("old", "- {id: x, name: 旧, kind: passive}\n"),
        role("a", "- {id: a1, name: 甲, kind: passive}\n", hidden=True),
        role("b", "- {id: b1, name: 乙, kind: passive}\n"),
        role("c", "- {id: c1, name: 丙, kind: passive}\n"),
        role("d", "- {id: d1, name: 丁, kind: passive}\n"),
    )
    from interpreter.language.builtins import BUILTINS
    from interpreter.language.runtime import Ctx

    g, ag = table(content, [dict(identity=RED_ID), dict(identity=BLUE_ID)], roles=[(0, "old")], answers={0: ["a"]})
    R = content.roles
    g.role_pile = [R["d"], R["c"], R["b"], R["a"]]  # a is on top
    assert BUILTINS["replace_role"].impl(Ctx(g, g.players[0]), None, 3)
    p0 = g.players[0]
    assert p0.role is R["a"] and p0.role_face_up is False  # a hidden role comes face down
    assert [r.id for r in g.role_pile] == ["b", "c", "d"]  # the other two went to the bottom, in order
    assert g.removed_roles == [R["old"]]
    assert ag[0].asked[-1].kind == D.ROLE and len(ag[0].asked[-1].options) == 3


def test_take_identity_leaves_the_other_without_one(tmp_path):
    content = pack(
        tmp_path,
        role(
            "heir",
            """
        - id: heir
          name: 承式
          kind: triggered
          trigger: died
          optional: false
          condition: subject != self
          effect: |
            put_in_hand(hand(subject), self)
            look_identity(subject)
            may "获得该身份牌" { take_identity(subject) }
        - id: tail
          name: 尾式
          kind: victory
          check: co_win
          optional: false
          condition: self in winners()
          effect: |
            for q in all_players() where not has_identity(it) { win(q) }
        """,
        ),
    )
    g, _ = table(
        content,
        [dict(identity=RED_ID), dict(identity=BLUE_ID, hand=[94], intel=[19, 20]), dict(identity=BLUE_ID)],
        roles=[(0, "heir")],
        answers={0: [True]},
    )
    p0, p1, p2 = g.players
    assert p0.known_identities == {}
    p2.known_identities = {1: p1.identity, 0: p0.identity}  # P2 had looked at both cards
    g.resolution.resolve_deaths([p1])
    assert p0.identity.id == BLUE_ID and p1.identity is None
    # who had seen the card taken knows who holds it now (a re-deal for P2 must keep it: Skills.redeal), and no
    # longer the taker's own, which left the game
    assert p2.known_identities == {0: p0.identity}
    assert card(g, 94).owner is p0
    assert g.removed_identities and g.removed_identities[0][0].id == RED_ID
    taken = [e for e in g.log if e.get("e") == "identity_taken"]
    assert taken and "to" not in taken[0]  # everyone hears it happened
    # P2 (特工机关) wins with three blue: P0 now shares his camp, and P1 (no identity) wins by 尾式
    for uid in (31, 32, 33):
        g.zones.move(card(g, uid), INTEL, p2)
    from interpreter.engine.victory import GameOver

    with pytest.raises(GameOver) as over:
        g.victory.check_collect_victory()
    assert set(p.seat for p in over.value.winners) == {0, 1, 2}


def test_direction_override_at_the_node_after_the_send(tmp_path):
    content = pack(
        tmp_path,
        role(
            "post",
            """
        - id: any_way
          name: 改向式
          kind: triggered
          trigger: intel_sent
          condition: subject == self
          effect: |
            set_direction(choose(from: [left, right, up], prompt: "方向"))
        """,
        ),
    )
    g, _ = table(
        content,
        [dict(identity=RED_ID, hand=[92]), dict(identity=BLUE_ID), dict(identity=BLUE_ID)],
        roles=[(0, "post")],
        answers={0: [True, "up", "P2"]},
    )
    assert g.flow.send_intel(g.players[0], card(g, 92), face_up=False)
    assert g.transit.direction != "up" and g.transit.target is None  # nothing reacts inside the send
    g.settle("传出情报时")  # the node after it: the skill fires, and ↑ asks the sender for the target
    assert g.transit.direction == "up" and g.transit.target is g.players[2]
    kinds = [e.get("e") for e in g.log]
    assert kinds.index("intel_sent") < kinds.index("skill_used") < kinds.index("direction_set")


def test_secret_status_is_told_only_to_its_player(tmp_path):
    content = pack(
        tmp_path,
        role(
            "lure",
            """
        - id: lure
          name: 诱式
          kind: active
          timing: play_phase
          effect: |
            add_status(others(self) where identity_color(it) == blue, must_receive, secret: true)
            add_status(others(self) where identity_color(it) != blue, cannot_receive, secret: true)
        """,
        ),
    )
    g, _ = table(content, [dict(identity=RED_ID), dict(identity=BLUE_ID), dict(identity=RED_ID)], roles=[(0, "lure")])
    g.skills.use_skill(g.players[0], content.roles["lure"].skills[0])
    statuses = [e for e in g.log if e.get("e") == "status"]
    assert [(e["seat"], e["status"], e["to"]) for e in statuses] == [
        (1, "must_receive", [1]),
        (2, "cannot_receive", [2]),
    ]
    assert g.seats.has_status(g.players[1], "must_receive") and g.seats.has_status(g.players[2], "cannot_receive")


def test_hand_taken_fires_once_per_taking_and_not_for_discard_pile_cards(tmp_path):
    content = pack(
        tmp_path,
        role(
            "stubborn",
            """
        - id: back
          name: 寸式
          kind: triggered
          trigger: hand_taken
          optional: false
          condition: target == self and subject != self
          effect: |
            put_in_hand(choose(from: hand(subject), blind: true), self)
        """,
        ),
    )
    g, _ = table(
        content,
        [dict(identity=RED_ID, hand=[91, 92]), dict(identity=BLUE_ID, hand=[93])],
        roles=[(0, "stubborn")],
        answers={0: ["第1张"]},
    )
    from interpreter.language.builtins import BUILTINS
    from interpreter.language.runtime import Ctx

    p0, p1 = g.players
    BUILTINS["put_in_hand"].impl(Ctx(g, p1), [card(g, 91), card(g, 92)], p1)
    g.settle("test")
    assert len(p0.hand) == 1 and len(p1.hand) == 2  # took two, one came back: fired once
    g.zones.move(card(g, 94), DISCARD)
    BUILTINS["put_in_hand"].impl(Ctx(g, p1), [card(g, 94)], p1)
    g.settle("test")
    assert len(p0.hand) == 1  # from the discard pile: no trigger


def test_skill_collect_only_for_skills_and_real_moves(tmp_path):
    content = pack(
        tmp_path,
        role(
            "put",
            """
        - id: put
          name: 置式
          kind: active
          timing: play_phase
          effect: |
            collect(choose(from: intel(self)), self)
        - id: put_hand
          name: 置手牌
          kind: active
          timing: play_phase
          effect: |
            collect(choose(from: hand(self)), self)
        - id: watch
          name: 看式
          kind: triggered
          trigger: skill_collect
          optional: false
          effect: draw(self, 1)
        """,
        ),
    )
    g, _ = table(content, [dict(identity=RED_ID, hand=[91], intel=[92]), dict(identity=BLUE_ID)], roles=[(0, "put")])
    p0 = g.players[0]
    own, from_hand = content.roles["put"].skills[:2]
    g.skills.use_skill(p0, own)  # its own intel to itself: no move, no trigger
    g.settle("test")
    assert len(p0.hand) == 1
    g.skills.use_skill(p0, from_hand)  # hand to intel: fires
    g.settle("test")
    assert len(p0.hand) == 1 and card(g, 91).zone == INTEL


def test_multi_event_trigger_shares_one_limit(tmp_path):
    content = pack(
        tmp_path,
        role(
            "gambler",
            """
        - id: bet
          name: 赌式
          kind: triggered
          trigger: [intel_arrives, card_resolved]
          optional: false
          limit: {per: turn}
          effect: draw(self, 1)
        """,
        ),
    )
    g, _ = table(content, [dict(identity=RED_ID), dict(identity=BLUE_ID)], roles=[(0, "gambler")])
    p0 = g.players[0]
    g.emit("intel_arrives", seat=0)
    g.emit("card_resolved", seat=1, card="jie_huo", uid=None, target=None)
    g.settle("test")
    assert len(p0.hand) == 1


def test_active_skill_with_two_timings_shares_its_limit(tmp_path):
    content = pack(
        tmp_path,
        role(
            "twice",
            """
        - id: both
          name: 双时
          kind: active
          timing: [play_phase, contest]
          limit: {per: game}
          effect: draw(self, 1)
        """,
        ),
    )
    g, _ = table(content, [dict(identity=RED_ID), dict(identity=BLUE_ID)], roles=[(0, "twice")])
    p0 = g.players[0]
    assert len(g.card_use.card_options(p0, "play_phase")) == 1 and len(g.card_use.card_options(p0, "contest")) == 1
    g.card_use.perform(p0, g.card_use.card_options(p0, "play_phase")[0])
    assert g.card_use.card_options(p0, "contest") == []


def test_add_draw_and_draw_phase_event(tmp_path):
    content = pack(
        tmp_path,
        role(
            "eager",
            """
        - id: more
          name: 多摸
          kind: triggered
          trigger: draw_phase
          optional: false
          condition: subject == self
          effect: add_draw(1)
        """,
        ),
    )
    g, _ = table(
        content, [dict(identity=RED_ID, hand=[91]), dict(identity=BLUE_ID)], roles=[(0, "eager")], answers={0: ["pass"]}
    )
    g.turn_no = 0
    with pytest.raises(ScriptExhausted):
        g.play_turn()  # draws, passes the play phase, then stops at sending (no answer scripted)
    draws = [e for e in g.log if e.get("e") == "draw"]
    assert draws[0]["n"] == g.rules.draw_count + 1


def test_marks_last_one_turn_and_put_on_deck_order(tmp_path):
    content = pack(tmp_path, role("m", "- {id: x, name: 记, kind: passive}\n"))
    g, _ = table(content, [dict(identity=RED_ID, hand=[91, 92]), dict(identity=BLUE_ID)], roles=[(0, "m")])
    from interpreter.language.builtins import BUILTINS as B
    from interpreter.language.runtime import Ctx

    ctx = Ctx(g, g.players[0])
    B["set_mark"].impl(ctx, g.players[0], "k", "v")
    assert B["mark"].impl(ctx, g.players[0], "k") == "v"
    g.turn_no += 1
    assert B["mark"].impl(ctx, g.players[0], "k") is None
    B["put_on_deck"].impl(ctx, [card(g, 91), card(g, 92)], False)
    assert g.deck[-1] is card(g, 91) and g.deck[-2] is card(g, 92)
    assert card(g, 91).zone == DECK


def test_replace_intel_is_seen_by_later_triggers(tmp_path):
    content = pack(
        tmp_path,
        role(
            "watch",
            """
        - id: see
          name: 见
          kind: triggered
          trigger: received
          optional: false
          condition: this_card has black
          effect: draw(self, 1)
        """,
        ),
    )
    g, _ = table(content, [dict(identity=RED_ID, hand=[19]), dict(identity=BLUE_ID)], roles=[(0, "watch")])
    from interpreter.language.builtins import BUILTINS as B
    from interpreter.language.runtime import Ctx

    p0, p1 = g.players
    g.zones.move(card(g, 91), INTEL, p1)  # a red intel was received ...
    g.emit("received", seat=1, card=91, sender=0)
    B["replace_intel"].impl(Ctx(g, p1), card(g, 91), card(g, 19), None)  # ... and replaced by a black card
    g.settle("test")
    assert card(g, 19).owner is p1 and card(g, 91).zone == DISCARD
    assert len(p0.hand) == 1  # the trigger saw the new, black card


def test_end_contest_and_set_pending(tmp_path):
    content = pack(
        tmp_path,
        role(
            "judge",
            """
        - id: stop
          name: 定式
          kind: active
          timing: contest
          condition: holder == self
          effect: end_contest()
        - id: put
          name: 换式
          kind: active
          timing: contest
          effect: |
            set_pending(choose(from: hand(self)), face_up: true)
        """,
        ),
    )
    g, ag = table(
        content,
        [dict(identity=RED_ID, hand=[94]), dict(identity=BLUE_ID, hand=[82])],
        roles=[(0, "judge")],
        answers={0: ["skill 换式", "skill 定式"]},
    )
    put_pending(g, 91, sender=1, holder=0)
    g.flow.contest_phase()
    assert g.pending is card(g, 94) and g.pending_face_up
    assert card(g, 91).zone == DISCARD
    assert not ag[1].asked  # the contest ended before P1 was asked


def test_a_use_whose_rules_read_this_card_is_checked_per_copy(tmp_path):
    """Legality is checked once per use for all copies, unless the condition or target reads this_card."""
    base = load_content([BUNDLED_CONTENT])
    assert not any(u.per_copy for t in base.card_types.values() for u in t.uses)  # no bundled rule reads it
    d = tmp_path / "pack" / "cards"
    d.mkdir(parents=True)
    (d / "wu_dao.yaml").write_text(
        textwrap.dedent("""\
        id: wu_dao
        name: 误导
        text: 争夺阶段，将待收情报移至相邻角色面前（测试：只有红色的可以）。
        uses:
          - timing: contest
            condition: this_card has red
            target: neighbors(holder)
            effect: move_pending(target)
        """),
        encoding="utf-8",
    )
    content = load_content([BUNDLED_CONTENT, tmp_path / "pack"])
    (use,) = content.card_types["wu_dao"].uses
    assert use.per_copy
    g, _ = table(content, [dict(identity=RED_ID, hand=[94, 91]), dict(identity=BLUE_ID), dict(identity=BLUE_ID)])
    put_pending(g, 82, sender=1, holder=1)
    offered = [o.card.uid for o in g.card_use.card_options(g.players[0], "contest") if o.card is not None]
    assert offered == [91]  # the blue copy (94) first in hand is not offered; the red one is


def test_a_question_about_a_face_down_intel_does_not_name_its_card(tmp_path):
    """A skill that reacts to another seat's face-down intel asks its owner without naming the card's type."""
    content = pack(
        tmp_path,
        role(
            "watcher",
            """
        - id: peek
          name: 旁观
          kind: triggered
          trigger: intel_sent
          optional: false
          condition: subject != self
          effect: |
            may { draw(self, 1) }
        """,
        ),
    )
    g, ag = table(
        content,
        [dict(identity=RED_ID), dict(identity=BLUE_ID, hand=[79])],
        roles=[(0, "watcher")],
        current=1,
        answers={0: ["yes"], 1: ["P0"]},
    )
    g.flow.send_intel(g.players[1], card(g, 79), face_up=False)
    g.settle()
    (confirm,) = [d for d in ag[0].asked if d.kind == D.CONFIRM]
    assert confirm.source == ""  # not "jie_huo": P0 cannot see the intel
    assert len(g.players[0].hand) == 1
