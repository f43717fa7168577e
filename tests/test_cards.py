"""Every card of content/cards and the rulings of the reference card texts (FAQ), on built tables."""

from __future__ import annotations

import pytest

from conftest import S, asked, card_of, done, events, hand, intel, make, opt_cards, opt_players, opt_uses
from interpreter.agents import ScriptExhausted
from interpreter.engine.observation import history
from interpreter.engine.state import BLACK, BLUE, RED, REMOVED, UP
from interpreter.engine.table import put_pending

FIVE_PLAIN = [S("red"), S("blue"), S("red"), S("blue"), S("blue")]


def seats(**over):
    """Five plain seats (red, blue, red, blue, blue); over: seat index 'p0'..'p4' -> S(...)."""
    out = list(FIVE_PLAIN)
    for k, v in over.items():
        out[int(k[1:])] = v
    return out


# ====================================================================== the deck (content/deck.yaml)

# the reference deck list, copied by hand: id card colors direction lock | 试探/密令 data | in the 110-card deck
DECK_MD = """
1 试探 黑 → - 红-1蓝-1黑+1 - ; 2 试探 黑 → - 红-1蓝+1黑-1 y ; 3 试探 黑 → - 红+1蓝-1黑+1 y
4 试探 黑 ← - 红+1蓝+1黑-1 - ; 5 试探 黑 ← - 红-1蓝+1黑+1 y ; 6 试探 黑 ← - 红+1蓝-1黑-1 y
7 试探 红 → - 红-1蓝-1黑+1 y ; 8 试探 红 → - 红-1蓝+1黑-1 y ; 9 试探 红 → - 红+1蓝-1黑+1 -
10 试探 红 ← - 红+1蓝+1黑-1 y ; 11 试探 红 ← - 红-1蓝+1黑+1 y ; 12 试探 红 ← - 红+1蓝-1黑-1 -
13 试探 蓝 → - 红-1蓝-1黑+1 y ; 14 试探 蓝 → - 红-1蓝+1黑-1 - ; 15 试探 蓝 → - 红+1蓝-1黑+1 y
16 试探 蓝 ← - 红+1蓝+1黑-1 y ; 17 试探 蓝 ← - 红-1蓝+1黑+1 - ; 18 试探 蓝 ← - 红+1蓝-1黑-1 y
19 平衡 黑 ← 锁 . y ; 20 平衡 黑 → 锁 . y ; 21 平衡 蓝 ← 锁 . y ; 22 平衡 红 → 锁 . y
23 平衡 红黑 ↑ - . y ; 24 平衡 蓝黑 ↑ - . y ; 25 平衡 红黑 ← - . y ; 26 平衡 蓝黑 → - . y
27 威逼 红 ← - . y ; 28 威逼 红 ← - . y ; 29 威逼 红 ← - . y ; 30 威逼 红 → - . y
31 威逼 蓝 ← - . y ; 32 威逼 蓝 → - . y ; 33 威逼 蓝 → - . y ; 34 威逼 蓝 → - . y
35 威逼 黑 ← - . y ; 36 威逼 黑 ← - . y ; 37 威逼 黑 → - . y ; 38 威逼 黑 → - . y
39 威逼 蓝黑 ← - . y ; 40 威逼 红黑 → - . y
41 利诱 黑 ← 锁 . y ; 42 利诱 黑 → 锁 . y ; 43 利诱 黑 ← 锁 . y ; 44 利诱 黑 → 锁 . y
45 利诱 黑 ← 锁 . y ; 46 利诱 黑 → 锁 . y ; 47 利诱 蓝 ← 锁 . y ; 48 利诱 红 → 锁 . y
49 澄清 红 ↑ 锁 . y ; 50 澄清 红 ↑ 锁 . y ; 51 澄清 黑 ↑ 锁 . y ; 52 澄清 黑 ↑ 锁 . y
53 澄清 蓝 ↑ 锁 . y ; 54 澄清 蓝 ↑ 锁 . y ; 55 澄清 黑 ↑ 锁 . - ; 56 澄清 黑 ↑ 锁 . -
57 破译 红黑 ← 锁 . y ; 58 破译 蓝黑 ← 锁 . y ; 59 破译 红 ← 锁 . y ; 60 破译 蓝 ← 锁 . y
61 破译 黑 ← 锁 . y ; 62 破译 红黑 → 锁 . y ; 63 破译 蓝黑 → 锁 . y ; 64 破译 红 → 锁 . y
65 破译 蓝 → 锁 . y ; 66 破译 黑 → 锁 . y
67 调包 红 ↑ - . y ; 68 调包 红 ← - . y ; 69 调包 红 → - . y ; 70 调包 蓝 ↑ - . y
71 调包 蓝 ← - . y ; 72 调包 蓝 → - . y ; 73 调包 黑 ← - . y ; 74 调包 黑 → - . y
75 调包 红黑 ↑ - . y ; 76 调包 红黑 → - . y ; 77 调包 蓝黑 ↑ - . y ; 78 调包 蓝黑 ← - . y
79 截获 红 ↑ - . y ; 80 截获 红 ↑ - . y ; 81 截获 红 ↑ 锁 . y ; 82 截获 蓝 ↑ - . y
83 截获 蓝 ↑ - . y ; 84 截获 蓝 ↑ 锁 . y ; 85 截获 黑 ↑ - . y ; 86 截获 黑 ↑ - . y
87 截获 黑 ↑ 锁 . y ; 88 截获 黑 ↑ 锁 . y ; 89 截获 蓝黑 ↑ - . y ; 90 截获 红黑 ↑ - . y
91 误导 红 ↑ - . y ; 92 误导 红 ← - . y ; 93 误导 红 → - . y ; 94 误导 蓝 ↑ - . y
95 误导 蓝 ← - . y ; 96 误导 蓝 → - . y ; 97 误导 黑 ← - . y ; 98 误导 黑 → - . y
99 误导 蓝黑 ← - . y ; 100 误导 红黑 → - . y
101 风云变幻 黑 ↑ 锁 . y ; 102 风云变幻 黑 ↑ 锁 . y
103 密令 蓝黑 ↑ 锁 东蓝西黑静红 y ; 104 密令 蓝 → - 东黑西蓝静红 y ; 105 密令 蓝 ← - 东蓝西红静黑 y
106 密令 红黑 ↑ 锁 东红西黑静蓝 y ; 107 密令 红 ← - 东黑西红静蓝 y ; 108 密令 红 → - 东红西蓝静黑 y
109 调虎离山 黑 ↑ - . y ; 110 调虎离山 黑 ↑ 锁 . y ; 111 调虎离山 红黑 ← 锁 . y ; 112 调虎离山 蓝黑 → 锁 . y
113 欲擒故纵 红黑 ↑ - . y ; 114 欲擒故纵 红蓝 ← - . y ; 115 欲擒故纵 红蓝 → - . y
116 欲擒故纵 蓝黑 ↑ - . y ; 117 欲擒故纵 红蓝 ← - . y ; 118 欲擒故纵 红蓝 → - . y
"""
ZH_COLOR = {"红": RED, "蓝": BLUE, "黑": BLACK}
ZH_DIR = {"←": "left", "→": "right", "↑": "up"}


def _deck_rows():
    rows = []
    for chunk in DECK_MD.replace("\n", ";").split(";"):
        parts = chunk.split()
        if parts:
            rows.append(parts)
    return rows


def _mask(zh):
    m = 0
    for ch in zh:
        m |= ZH_COLOR[ch]
    return m


def test_deck_matches_reference(content):
    """deck.yaml: all 118 cards have deck.md's card, colors, direction, lock and per-copy data."""
    rows = _deck_rows()
    assert len(rows) == 118
    by_uid = {e.uid: e for e in content.deck}
    assert sorted(by_uid) == list(range(1, 119))
    for uid, name, colors, direction, lock, data, _ in rows:
        e = by_uid[int(uid)]
        assert content.card_types[e.card_type].name == name, uid
        assert e.mask == _mask(colors), uid
        assert e.direction == ZH_DIR[direction], uid
        assert e.lockable == (lock == "锁"), uid
        if name == "试探":
            expect = {ZH_COLOR[data[i]]: int(data[i + 1 : i + 3]) for i in (0, 3, 6)}
            assert e.data == expect, uid
        elif name == "密令":
            expect = {data[i] + "风": ZH_COLOR[data[i + 1]] for i in (0, 2, 4)}
            assert e.data == expect, uid


def test_deck_sizes_by_player_count(content):
    """deck.md: 88 cards for ≤4 players, the ✓ 110 for 5–8, all 118 for 9+."""
    rows = _deck_rows()
    standard = {int(r[0]) for r in rows if r[6] == "y"}
    small = set(range(19, 109)) - {55, 56}
    assert {e.uid for e in content.deck_for(5)} == standard
    assert {e.uid for e in content.deck_for(8)} == standard
    assert {e.uid for e in content.deck_for(9)} == set(range(1, 119))
    assert {e.uid for e in content.deck_for(4)} == small
    assert {e.uid for e in content.deck_for(2)} == small
    std = [e for e in content.deck if e.uid in standard]
    # deck.md's pie charts (110-card deck)
    assert sum(e.direction == "left" for e in std) == 38
    assert sum(e.direction == "up" for e in std) == 34
    # (deck.md's lock pie says 41, but its own table has 39 lockable cards among the 110: the table wins)
    assert sum(e.lockable for e in std) == sum(1 for r in rows if r[6] == "y" and r[4] == "锁") == 39
    assert sum(e.mask == RED | BLACK for e in std) == 12
    assert sum(e.mask == BLACK for e in std) == 32
    assert sum(e.mask == RED | BLUE for e in std) == 4


# ====================================================================== 平衡


def test_ping_heng_user_draws_first(content):
    """平衡: both discard their whole hand, then the USER draws 3 first, then the target draws 3."""
    g = make(
        content,
        seats(p0=S("red", hand=[19, 79, 91]), p1=S("blue", hand=[82, 83])),
        script={0: ["use #19", "P1"]},
        deck_top=[67, 68, 69, 70, 71, 72],
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    assert hand(g, 0) == {67, 68, 69}
    assert hand(g, 1) == {70, 71, 72}
    assert {79, 91, 82, 83, 19} <= {c.uid for c in g.discard_pile}
    draws = events(g, "draw")
    assert [d["seat"] for d in draws] == [0, 1]
    done(g)


def test_ping_heng_not_self_but_empty_hand_target(content):
    """平衡: cannot target oneself; can target a player with no hand cards."""
    g = make(
        content,
        seats(p0=S("red", hand=[20]), p2=S("red", hand=[])),
        script={0: ["use #20", "P2"]},
        deck_top=[67, 68, 69, 70, 71, 72],
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    (d,) = asked(g, 0, "target")
    assert opt_players(d) == [1, 2, 3, 4]
    assert hand(g, 2) == {70, 71, 72} and hand(g, 0) == {67, 68, 69}
    done(g)


# ====================================================================== 澄清


def test_cheng_qing_discards_dual_black(content):
    """澄清: discards one black intel; a 红黑 dual intel counts as black and goes whole."""
    g = make(content, seats(p0=S("red", hand=[49]), p2=S("red", intel=[23, 27])), script={0: ["use #49"]})
    g.flow.idle_loop(g.players[0], "play_phase")  # only P2 has black intel: the target is forced
    assert intel(g, 2) == {27}
    p2 = g.players[2]
    assert (p2.red, p2.black) == (1, 0)
    assert card_of(g, 23) in g.discard_pile and card_of(g, 49) in g.discard_pile
    done(g)


def test_cheng_qing_play_phase_any_player_with_black(content):
    """澄清 in one's play phase: any player (oneself included) with black intel; only black intel offered."""
    g = make(
        content,
        seats(p0=S("red", hand=[49], intel=[35]), p1=S("blue", intel=[31]), p3=S("blue", intel=[24, 32, 36])),
        script={0: ["use #49", "P3", "#24"]},
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    (t,) = asked(g, 0, "target")
    assert opt_players(t) == [0, 3]
    (c,) = asked(g, 0, "choose")
    assert sorted(opt_cards(c)) == [24, 36]
    assert intel(g, 3) == {32, 36}
    done(g)


def test_cheng_qing_not_usable_without_black_intel(content):
    """澄清: with no black intel on the table there is nothing to use it on."""
    g = make(content, seats(p0=S("red", hand=[49], intel=[27]), p1=S("blue", intel=[31, 114])))
    assert g.card_use.card_options(g.players[0], "play_phase") == []


def test_cheng_qing_in_dying_only_on_dying_player(content):
    """澄清 while a player is dying: only on that player (no target choice), from the dying player on."""
    g = make(
        content,
        seats(p2=S("red", intel=[35, 36], hand=[50]), p3=S("blue", hand=[49], intel=[37]), p0=S("red", hand=[51])),
        script={2: ["pass"], 3: ["use #49", "#35"]},
    )
    put_pending(g, 38, sender=0, holder=2)
    g.flow.receive_phase()
    assert [d.seat for d in (asked(g, 2) + asked(g, 3))] == [2, 3, 3]
    assert [d.kind for d in asked(g, 3)] == ["play", "choose"]  # no target decision: only the dying player
    assert sorted(opt_cards(asked(g, 3)[1])) == [35, 36, 38]  # P2's black intel, not P3's own 37
    assert intel(g, 2) == {36, 38} and intel(g, 3) == {37}
    assert g.players[2].alive and events(g, "saved", seat=2)
    assert not events(g, "died")
    done(g)  # P0 (after P3) was never asked: saved players stop the asking


# ====================================================================== 威逼


def test_wei_bi_target_gives_declared_card(content):
    """威逼: declare 截获; the target gives one 截获 of his choice, face down (seen by the two only)."""
    g = make(
        content,
        seats(p0=S("red", hand=[35]), p1=S("blue", hand=[79, 80, 91])),
        script={0: ["use #35", "P1", "jie_huo"], 1: ["#80"]},
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    (t,) = asked(g, 0, "target")
    assert opt_players(t) == [1, 2, 3, 4]  # not oneself
    (decl,) = asked(g, 0, "choose")
    assert sorted(o.id for o in decl.options) == sorted(["cheng_qing", "jie_huo", "diao_bao", "wu_dao"])
    assert hand(g, 0) == {80} and hand(g, 1) == {79, 91}
    (give,) = events(g, "give")
    assert give["secret"] == {"cards": [0, 1]}  # face down: only giver and receiver see which cards
    done(g)


def test_wei_bi_no_matching_card_shows_hand_to_user(content):
    """威逼: if the target has no declared card he shows his whole hand to the user (only)."""
    g = make(
        content, seats(p0=S("red", hand=[36]), p1=S("blue", hand=[91, 67])), script={0: ["use #36", "P1", "jie_huo"]}
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    assert hand(g, 1) == {91, 67} and hand(g, 0) == set()
    assert g.zones.knows(0, 91) and g.zones.knows(0, 67)
    assert not g.zones.knows(2, 91)
    (rev,) = [e for e in events(g, "reveal") if e["cards"]]
    assert rev["to"] == [0] and rev["private"] is True
    # the user's copy keeps no `to` (no seat's copy does) but says it was a look, not a show to the table
    (mine,) = [r for r in history(g, 0) if r.get("e") == "reveal" and r["cards"]]
    assert "to" not in mine and mine["private"] is True
    assert not [r for r in history(g, 2) if r.get("e") == "reveal" and r["cards"]]
    done(g)


def test_wei_bi_on_empty_hand_player(content):
    """威逼: can be used on a player without hand cards (nothing happens, no error)."""
    g = make(content, seats(p0=S("red", hand=[37]), p4=S("blue", hand=[])), script={0: ["use #37", "P4", "cheng_qing"]})
    g.flow.idle_loop(g.players[0], "play_phase")
    assert hand(g, 4) == set() and hand(g, 0) == set()
    assert card_of(g, 37) in g.discard_pile
    done(g)


# ====================================================================== 利诱


def test_li_you_puts_top_card_in_target_intel(content):
    """利诱: the top card of the deck goes into the target's intel (收集, not 接收)."""
    g = make(
        content, seats(p0=S("red", hand=[41]), p2=S("red", intel=[31])), script={0: ["use #41", "P2"]}, deck_top=[27]
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    (t,) = asked(g, 0, "target")
    assert opt_players(t) == [0, 1, 2, 3, 4]  # oneself included
    assert intel(g, 2) == {31, 27}
    assert not events(g, "received")
    done(g)


def test_li_you_on_self(content):
    """利诱 FAQ: may be used on oneself."""
    g = make(content, seats(p0=S("red", hand=[42])), script={0: ["use #42", "P0"]}, deck_top=[31])
    g.flow.idle_loop(g.players[0], "play_phase")
    assert intel(g, 0) == {31}
    done(g)


def test_li_you_1red_3blue_plus_red_goes_to_intel(content):
    """利诱 FAQ: target 1红3蓝, a red card → red becomes 2; blue was already 3: it goes to the intel."""
    g = make(
        content,
        seats(p0=S("red", hand=[43]), p2=S("red", intel=[27, 31, 32, 33])),
        script={0: ["use #43", "P2"]},
        deck_top=[28],
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    assert intel(g, 2) == {27, 28, 31, 32, 33}
    assert g.players[2].red == 2 and hand(g, 0) == set()
    done(g)


def test_li_you_1red_3blue_plus_red_blue_goes_to_user_hand(content):
    """利诱 FAQ: target 1红3蓝, a 红蓝 card → makes ≥3 blue: it goes to the USER's hand instead."""
    g = make(
        content,
        seats(p0=S("red", hand=[44]), p2=S("red", intel=[27, 31, 32, 33])),
        script={0: ["use #44", "P2"]},
        deck_top=[114],
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    assert intel(g, 2) == {27, 31, 32, 33}
    assert hand(g, 0) == {114} and hand(g, 2) == set()
    done(g)


def test_li_you_third_black_goes_to_user_hand(content):
    """利诱: a third black intel would also be '三张同色': it goes to the user's hand, nobody is dying."""
    g = make(
        content,
        seats(p0=S("red", hand=[45]), p3=S("blue", intel=[35, 36])),
        script={0: ["use #45", "P3", "pass"]},
        deck_top=[23],
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    assert hand(g, 0) == {23} and intel(g, 3) == {35, 36}
    assert not events(g, "dying")
    done(g)


def test_li_you_third_red_on_target_goes_to_user_hand(content):
    """利诱: 2 red + a red card → the target does not get a 3rd red (no win); the user takes it."""
    g = make(
        content,
        seats(p0=S("blue", hand=[46]), p2=S("red", intel=[27, 28])),
        script={0: ["use #46", "P2", "pass"]},
        deck_top=[29],
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    assert hand(g, 0) == {29} and g.players[2].red == 2
    done(g)


# ====================================================================== 试探


def test_shi_tan_draw_by_identity(content):
    """试探: the receiver acts by HIS identity (#2: 蓝+1 → a 特工机关 draws one); the card leaves the game."""
    g = make(content, seats(p0=S("red", hand=[2]), p1=S("blue", hand=[])), script={0: ["use #2", "P1"]}, deck_top=[70])
    g.flow.idle_loop(g.players[0], "play_phase")
    (t,) = asked(g, 0, "target")
    assert opt_players(t) == [1, 2, 3, 4]  # not oneself
    assert hand(g, 1) == {70}
    assert card_of(g, 2) in g.removed and card_of(g, 2).zone == REMOVED
    (used,) = events(g, "card_used")
    assert used["secret"] == {"uid": [0, 1]}  # face down: only user and target see which copy
    done(g)


def test_shi_tan_discard_by_identity(content):
    """试探: #2 says 红−1: a 潜伏战线 chooses one hand card and discards it."""
    g = make(
        content, seats(p0=S("blue", hand=[2]), p1=S("red", hand=[79, 80])), script={0: ["use #2", "P1"], 1: ["#80"]}
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    assert hand(g, 1) == {79}
    assert card_of(g, 80) in g.discard_pile and card_of(g, 2) in g.removed
    done(g)


def test_shi_tan_mysterious_person_is_black(content):
    """试探: a 神秘人 follows the 黑 instruction (#3: 黑+1 draws, #6: 黑−1 discards)."""
    g = make(
        content,
        seats(p0=S("red", hand=[3, 6]), p1=S(task="qing_dao_fu", hand=[79])),
        script={0: ["use #3", "P1", "use #6", "P1"], 1: ["#70"]},
        deck_top=[70],
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    # #3: drew 70; #6: discards one of 79/70 (he chose 70)
    assert hand(g, 1) == {79}
    assert {card_of(g, 3), card_of(g, 6)} <= set(g.removed)
    done(g)


def test_shi_tan_removed_even_if_target_has_no_hand(content):
    """试探 FAQ: a target who must discard but has no hand just says so; the card still leaves the game."""
    g = make(content, seats(p0=S("blue", hand=[7]), p1=S("red", hand=[])), script={0: ["use #7", "P1"]})
    g.flow.idle_loop(g.players[0], "play_phase")
    assert hand(g, 1) == set()
    assert card_of(g, 7) in g.removed and card_of(g, 7) not in g.discard_pile
    done(g)


# ====================================================================== 破译


def test_po_yi_flip_black_and_draw_then_choose(content):
    """破译: look at the face-down intel; black → may flip it and draw 1, then still choose to accept."""
    g = make(
        content,
        seats(p0=S("red", hand=[35]), p4=S("blue", hand=[61])),
        script={0: ["#35"], 4: ["use #61", "yes", "decline"], 3: ["accept"]},
        deck_top=[70],
    )
    assert g.flow.send_phase(g.players[0])
    assert g.flow.travel()
    assert g.pending_face_up
    assert hand(g, 4) == {70}
    assert g.zones.knows(4, 35)
    recv = asked(g, 4, "receive")
    assert opt_uses(recv[0]) == [61] and "decline" in recv[1].options  # asked again after 破译
    assert g.holder is g.players[3]
    done(g)


def test_po_yi_flip_is_optional(content):
    """破译: flipping a black intel is optional ('可以'); declining means no flip and no draw."""
    g = make(
        content,
        seats(p0=S("red", hand=[36]), p4=S("blue", hand=[66])),
        script={0: ["#36"], 4: ["use #66", "no", "accept"]},
        deck_top=[70],
    )
    g.flow.send_phase(g.players[0])
    g.flow.travel()
    assert not g.pending_face_up and hand(g, 4) == set()
    done(g)


def test_po_yi_non_black_cannot_flip(content):
    """破译 on a non-black intel: only look at it; no flip, no draw."""
    g = make(
        content,
        seats(p0=S("red", hand=[27]), p4=S("blue", hand=[60])),
        script={0: ["#27"], 4: ["use #60", "accept"]},
        deck_top=[70],
    )
    g.flow.send_phase(g.players[0])
    g.flow.travel()
    assert not g.pending_face_up and hand(g, 4) == set()
    assert asked(g, 4, "confirm") == []
    assert g.zones.knows(4, 27)
    done(g)


def test_po_yi_on_face_up_black_intel_no_flip_no_draw(content):
    """破译 FAQ: usable on a face-up intel, but even if black it cannot flip-and-draw (欲擒故纵 sends 红黑 face up)."""
    g = make(
        content,
        seats(p0=S("red", hand=[114], intel=[25]), p4=S("blue", hand=[61])),
        script={0: ["use #114"], 4: ["use #61", "accept"]},
        deck_top=[70, 71, 72],
    )
    assert g.flow.send_phase(g.players[0])
    assert g.pending.uid == 25 and g.pending_face_up
    assert g.flow.travel()
    assert asked(g, 4, "confirm") == []
    assert hand(g, 4) == set()  # no card drawn
    assert card_of(g, 61) in g.discard_pile
    done(g)


def test_po_yi_only_in_front_of_oneself(content):
    """破译: only the player the intel is in front of may use it (others are not asked)."""
    g = make(content, seats(p0=S("red", hand=[35]), p3=S("blue", hand=[66])), script={0: ["#35"], 4: ["accept"]})
    g.flow.send_phase(g.players[0])
    g.flow.travel()
    assert asked(g, 3) == [] and hand(g, 3) == {66}
    done(g)


# ====================================================================== 截获


def test_jie_huo_moves_intel_to_user(content):
    """截获: in the contest the pending intel moves in front of the user, who then receives it."""
    g = make(content, seats(p3=S("blue", hand=[79])), script={3: ["use #79"]})
    put_pending(g, 27, sender=0, holder=1)
    g.flow.contest_phase()
    assert g.holder is g.players[3]
    g.flow.receive_phase()
    assert intel(g, 3) == {27} and intel(g, 1) == set()
    (rec,) = events(g, "received")
    assert rec["seat"] == 3 and rec["sender"] == 0
    done(g)


def test_jie_huo_when_already_in_front_of_user(content):
    """截获 FAQ: usable when the intel is already in front of you; nothing moves."""
    g = make(content, seats(p1=S("blue", hand=[80])), script={1: ["use #80"]})
    put_pending(g, 27, sender=0, holder=1)
    g.flow.contest_phase()
    assert g.holder is g.players[1] and g.pending.uid == 27
    assert card_of(g, 80) in g.discard_pile
    assert events(g, "card_used", seat=1, card="jie_huo")
    done(g)


def test_contest_asks_again_from_holder_after_a_card(content):
    """争夺阶段: after a card the asking restarts from the (new) holder, counter-clockwise."""
    g = make(
        content, seats(p3=S("blue", hand=[79]), p1=S("red", hand=[82])), script={1: ["pass", "pass"], 3: ["use #79"]}
    )
    put_pending(g, 27, sender=0, holder=1)
    g.flow.contest_phase()
    # P1 (holder) asked first, then P3 intercepts, then asking restarts at P3: P4, P0, P1 ...
    seq = [e["seat"] for e in g.log if e.get("d") == "play"]
    assert seq == [1, 3, 1]
    assert g.holder is g.players[3]
    done(g)


# ====================================================================== 误导


def test_wu_dao_moves_to_a_neighbour_of_holder(content):
    """误导: anyone moves the pending intel to the holder's left or right living neighbour."""
    g = make(content, seats(p3=S("blue", hand=[91])), script={3: ["use #91", "P2"]})
    put_pending(g, 27, sender=0, holder=1)
    g.flow.contest_phase()
    (t,) = asked(g, 3, "target")
    assert sorted(opt_players(t)) == [0, 2]
    assert g.holder is g.players[2]
    done(g)


def test_wu_dao_skips_dead_neighbours(content):
    """误导 FAQ: to the first LIVING player on the left or right of the holder."""
    g = make(content, seats(p2=S("red", alive=False), p3=S("blue", hand=[92])), script={3: ["use #92", "P3"]})
    put_pending(g, 27, sender=0, holder=1)
    g.flow.contest_phase()
    (t,) = asked(g, 3, "target")
    assert sorted(opt_players(t)) == [0, 3]
    assert g.holder is g.players[3]
    done(g)


# ====================================================================== 调包


def test_diao_bao_replaces_intel_keeps_sender(content):
    """调包: the card replaces the intel face down; the old intel is discarded face up; the sender stays."""
    g = make(content, seats(p2=S("red", hand=[73])), script={2: ["use #73"]})
    put_pending(g, 27, sender=0, holder=1)
    g.flow.contest_phase()
    assert g.pending.uid == 73 and not g.pending_face_up
    assert card_of(g, 27) in g.discard_pile
    assert g.transit.sender is g.players[0]
    (sw,) = events(g, "pending_swapped")
    assert sw["secret"] == {"new": [2]}
    assert events(g, "card_used", card="diao_bao")[0]["secret"] == {"uid": [2]}  # played face down
    g.flow.receive_phase()
    assert intel(g, 1) == {73}
    (rec,) = events(g, "received")
    assert rec == {**rec, "seat": 1, "card": 73, "sender": 0}
    done(g)


def test_diao_bao_turns_a_face_up_intel_face_down(content):
    """调包 on a face-up intel: the new intel is face down."""
    g = make(content, seats(p2=S("red", hand=[74])), script={2: ["use #74"]})
    put_pending(g, 31, sender=0, holder=1, face_up=True)
    g.flow.contest_phase()
    assert g.pending.uid == 74 and not g.pending_face_up
    done(g)


# ====================================================================== 密令


def test_mi_ling_target_becomes_sender(content):
    """密令: the target sends a hand card of the declared color and IS the sender; the card leaves the game."""
    g = make(
        content,
        seats(
            p0=S("red", hand=[105, 79]),
            p1=S("blue", hand=[27, 31]),
            p2=S("red", hand=[]),
            p3=S("blue", hand=[32]),
            p4=S("blue", hand=[33]),
        ),
        script={
            0: ["use #105", "P1", "西风", "decline"],  # 105: 西风 = 红
            4: ["decline"],
            3: ["decline"],
            2: ["decline"],
            1: ["accept"],
        },
    )
    assert g.flow.send_phase(g.players[0])
    (t,) = asked(g, 0, "target")
    assert opt_players(t) == [1, 3, 4]  # others with hand cards (not oneself, not P2 with none)
    assert g.transit.sender is g.players[1] and g.pending.uid == 27
    assert card_of(g, 105) in g.removed
    assert hand(g, 1) == {31}
    assert g.flow.travel()  # 27 is ←: P0, P4, P3, P2 decline, back to the sender P1 who must accept
    assert [e["seat"] for e in events(g, "intel_arrives")] == [0, 4, 3, 2, 1]
    assert asked(g, 1, "receive")[0].options == ["accept"]
    done(g)


def test_mi_ling_no_matching_color_user_picks(content):
    """密令: no hand card of the declared color → the user looks at the target's hand and picks the card."""
    g = make(
        content, seats(p0=S("red", hand=[105]), p1=S("blue", hand=[27, 31])), script={0: ["use #105", "静风", "#31"]}
    )  # only P1 can be the target   # 105: 静风 = 黑; P1 has none
    g.flow.send_phase(g.players[0])
    (c,) = asked(g, 0, "choose")[1:]  # [0] is the code word
    assert sorted(opt_cards(c)) == [27, 31]
    assert g.zones.knows(0, 27) and g.zones.knows(0, 31)
    assert g.transit.sender is g.players[1] and g.pending.uid == 31
    assert asked(g, 1) == []
    done(g)


def test_mi_ling_target_chooses_among_matching(content):
    """密令: with several cards of the declared color the TARGET chooses which one to send."""
    g = make(
        content,
        seats(p0=S("red", hand=[104]), p2=S("red", hand=[27, 31, 32])),
        script={0: ["use #104", "西风"], 2: ["#32"]},
    )  # 104: 西风 = 蓝
    g.flow.send_phase(g.players[0])
    (c,) = asked(g, 2, "choose")
    assert sorted(opt_cards(c)) == [31, 32]
    assert g.pending.uid == 32 and g.transit.sender is g.players[2]
    done(g)


def test_mi_ling_dual_color_card_matches(content):
    """密令: a dual-color hand card has the declared color (蓝黑 is blue)."""
    g = make(
        content, seats(p0=S("red", hand=[105]), p3=S("blue", hand=[39, 27])), script={0: ["use #105", "东风"]}
    )  # 105: 东风 = 蓝; only 39 (蓝黑) matches
    g.flow.send_phase(g.players[0])
    assert g.pending.uid == 39 and g.transit.sender is g.players[3]
    done(g)


def test_mi_ling_sender_picks_up_target_and_lock(content):
    """密令: the card is sent by the target, who picks the ↑ target and the lock."""
    g = make(
        content,
        seats(p0=S("red", hand=[103]), p1=S("blue", hand=[49])),
        script={0: ["use #103", "静风"], 1: ["P3", "P3"]},
    )  # 103: 静风 = 红; 49 澄清 红 ↑ 锁
    g.flow.send_phase(g.players[0])
    assert g.transit.sender is g.players[1]
    assert g.transit.target is g.players[3] and g.transit.lock is g.players[3]
    assert [d.kind for d in asked(g, 1)] == ["send_target", "lock"]
    done(g)


def test_mi_ling_still_obeyed_when_target_cannot_use_cards(content):
    """调虎离山 FAQ: a player forbidden to use cards still has to send when hit by 密令 (sending is not using)."""
    g = make(
        content,
        seats(p0=S("red", hand=[109, 107]), p1=S("blue", hand=[27, 82])),
        script={0: ["use #109", "P1", "令其本回合不能出牌", "use #107", "西风"]},
    )  # 107: 西风 = 红
    g.flow.idle_loop(g.players[0], "play_phase")
    assert g.seats.has_status(g.players[1], "cannot_use_cards")
    assert g.flow.send_phase(g.players[0])
    assert g.transit.sender is g.players[1] and g.pending.uid == 27
    done(g)


def test_mi_ling_needs_another_player_with_hand(content):
    """密令: not usable when no other player has hand cards."""
    g = make(content, seats(p0=S("red", hand=[108, 27])))
    assert g.card_use.card_options(g.players[0], "send_start") == []


# ====================================================================== 调虎离山


def test_diao_hu_li_shan_on_self_still_must_send(content):
    """调虎离山 FAQ: used on oneself to forbid cards, one still has to send an intel (but cannot use 欲擒故纵)."""
    g = make(
        content,
        seats(p0=S("red", hand=[110, 114, 27], intel=[28])),
        script={0: ["use #110", "P0", "令其本回合不能出牌", "#27"]},
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    (t,) = asked(g, 0, "target")
    assert 0 in opt_players(t)  # may target oneself
    assert g.flow.send_phase(g.players[0])
    (send,) = asked(g, 0, "send")
    assert opt_uses(send) == [] and sorted(opt_cards(send)) == [27, 114]
    assert g.pending.uid == 27
    done(g)


def test_diao_hu_li_shan_blocks_cards_until_turn_end(content):
    """调虎离山: the target cannot use cards (e.g. 截获 in the contest) this turn; next turn he can."""
    g = make(
        content,
        seats(p0=S("red", hand=[111]), p2=S("red", hand=[79])),
        script={0: ["use #111", "P2", "令其本回合不能出牌"]},
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    assert events(g, "status", seat=2, status="cannot_use_cards")
    put_pending(g, 31, sender=0, holder=1)
    g.flow.contest_phase()
    assert asked(g, 2) == [] and g.holder is g.players[1]
    g.turn_no += 1
    assert len(g.card_use.card_options(g.players[2], "contest")) == 1
    done(g)


def test_diao_hu_li_shan_skills_option(content):
    """调虎离山: the other option makes the target's skills invalid for this turn."""
    g = make(content, seats(p0=S("red", hand=[112])), script={0: ["use #112", "P3", "令其本回合技能无效"]})
    g.flow.idle_loop(g.players[0], "play_phase")
    assert g.seats.has_status(g.players[3], "skills_disabled")
    assert not g.seats.has_status(g.players[3], "cannot_use_cards")
    done(g)


# ====================================================================== 风云变幻


def test_feng_yun_bian_huan(content):
    """风云变幻: N = living players cards; from the user on each takes one; no same color in intel → may collect."""
    g = make(
        content,
        seats(
            p0=S("red", hand=[101], intel=[28]),
            p1=S("blue"),
            p2=S("red", alive=False),
            p3=S("blue", intel=[36]),
            p4=S("blue"),
        ),
        script={0: ["use #101", "#31", "置入情报区"], 1: ["#27", "加入手牌"], 3: ["#23"], 4: ["置入情报区"]},
        deck_top=[27, 31, 35, 23],
    )
    g.flow.idle_loop(g.players[0], "play_phase")
    assert sorted(opt_cards(asked(g, 0, "choose")[0])) == [23, 27, 31, 35]  # 4 living players: 4 cards
    assert intel(g, 0) == {28, 31}
    assert hand(g, 1) == {27}
    assert hand(g, 3) == {23} and asked(g, 3, "option") == []  # 红黑 shares black with 36: hand only
    assert intel(g, 4) == {35}
    assert not events(g, "received")
    assert g.staging == [] and card_of(g, 101) in g.discard_pile
    done(g)


# ====================================================================== 欲擒故纵


def test_yu_qin_gu_zong_sends_face_up_intel_then_draws(content):
    """欲擒故纵: instead of sending a hand card, send a red/blue intel (dual counts) face up, then draw 2."""
    g = make(
        content,
        seats(p0=S("red", hand=[114], intel=[27, 35, 23])),
        script={0: ["use #114", "#23", "P2"]},
        deck_top=[70, 71],
    )
    assert g.flow.send_phase(g.players[0])
    (ch,) = asked(g, 0, "choose")
    assert sorted(opt_cards(ch)) == [23, 27]  # pure black 35 is not red/blue
    assert g.pending.uid == 23 and g.pending_face_up
    assert g.transit.direction == UP and g.transit.target is g.players[2] and g.transit.sender is g.players[0]
    assert intel(g, 0) == {27, 35}
    p0 = g.players[0]
    assert (p0.red, p0.black) == (1, 1)
    assert hand(g, 0) == {70, 71}
    assert card_of(g, 114) in g.discard_pile
    assert events(g, "intel_sent")[0]["face_up"] is True
    done(g)


def test_yu_qin_gu_zong_needs_red_or_blue_intel(content):
    """欲擒故纵: with only pure black intel it cannot be used (the card can still be sent as intel)."""
    g = make(content, seats(p0=S("red", hand=[115], intel=[35, 36])), script={0: ["#115"]})
    assert g.flow.send_phase(g.players[0])
    (send,) = asked(g, 0, "send")
    assert opt_uses(send) == [] and opt_cards(send) == [115]
    assert g.pending.uid == 115 and not g.pending_face_up
    done(g)


def test_yu_qin_gu_zong_red_blue_dual_counts(content):
    """欲擒故纵: a 红蓝 dual intel qualifies; the sent intel's own direction is used."""
    g = make(content, seats(p0=S("blue", hand=[116], intel=[117])), script={0: ["use #116"]}, deck_top=[70, 71])
    assert g.flow.send_phase(g.players[0])
    assert g.pending.uid == 117 and g.transit.direction == "left"
    assert intel(g, 0) == set() and hand(g, 0) == {70, 71}
    done(g)


def test_scripts_are_strict(content):
    """(harness) a decision the script does not cover raises ScriptExhausted: tests can fail."""
    g = make(content, seats(p0=S("red", hand=[35])))
    with pytest.raises(ScriptExhausted):
        g.flow.idle_loop(g.players[0], "play_phase")
