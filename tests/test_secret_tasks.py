"""The seven secret tasks of 神秘人 (content/secret_tasks) and the FAQ of the reference secret-task texts."""

from __future__ import annotations

import pytest

from conftest import S, done, events, index, make
from interpreter.engine.state import REMOVED
from interpreter.engine.table import put_pending
from interpreter.engine.victory import GameOver


def table(**over):
    """Five seats (red, blue, red, blue, blue) with overrides p0..p4."""
    out = [S("red"), S("blue"), S("red"), S("blue"), S("blue")]
    for k, v in over.items():
        out[int(k[1:])] = v
    return out


def receive(g, uid, holder, sender=None):
    """`holder` receives intel `uid` (sent by `sender`, default the current player)."""
    put_pending(g, uid, sender=g.current.seat if sender is None else sender, holder=holder)
    g.flow.receive_phase()


def wins(g, uid, holder, sender=None):
    with pytest.raises(GameOver) as over:
        receive(g, uid, holder, sender)
    return sorted(p.seat for p in over.value.winners), over.value.reason


# ====================================================================== 镇压者


def test_zhen_ya_zhe_player_with_2_red_blue_dies_on_his_turn(content):
    """镇压者: on his turn a player with ≥2 red+blue intel dies → he wins."""
    g = make(content, table(p0=S(task="zhen_ya_zhe"), p1=S("blue", intel=[27, 31, 35, 36])))
    assert wins(g, 37, holder=1) == ([0], "death")


def test_zhen_ya_zhe_himself_dies_on_his_turn(content):
    """镇压者 FAQ: dying on his own turn with ≥2 red+blue intel, he wins himself."""
    g = make(content, table(p0=S(task="zhen_ya_zhe", intel=[27, 31, 35, 36])))
    assert wins(g, 37, holder=0) == ([0], "death")


def test_zhen_ya_zhe_needs_two(content):
    """镇压者: a dying player with only one red/blue intel is not enough."""
    g = make(content, table(p0=S(task="zhen_ya_zhe"), p1=S("blue", intel=[31, 35, 36])))
    receive(g, 37, holder=1)
    assert events(g, "died", seat=1) and not events(g, "victory")


# ====================================================================== 篡夺者


def test_cuan_duo_zhe_replaces_winner_on_his_turn(content):
    """篡夺者: on his turn someone declares victory → he wins instead; the winner's camp does not win."""
    g = make(content, table(p0=S(task="cuan_duo_zhe"), p1=S("blue", intel=[31, 32])))
    assert wins(g, 33, holder=1) == ([0], "collect+usurp")
    (u,) = events(g, "usurp")
    assert u["seat"] == 0 and sorted(u["replaced"]) == [1, 3, 4]


def test_cuan_duo_zhe_not_on_others_turn(content):
    """篡夺者: on another player's turn the winner wins normally."""
    g = make(content, table(p0=S(task="cuan_duo_zhe"), p1=S("blue", intel=[31, 32])), current=2)
    assert wins(g, 33, holder=1) == ([1, 3, 4], "collect")
    assert not events(g, "usurp")


def test_cuan_duo_zhe_replaces_several_declarers(content):
    """篡夺者 FAQ: several players declare at once (先行者 and 清道夫 on one death) → he replaces them all."""
    g = make(
        content,
        table(p0=S(task="cuan_duo_zhe"), p1=S(task="xian_xing_zhe", intel=[27, 35, 36]), p2=S(task="qing_dao_fu")),
    )
    assert wins(g, 37, holder=1) == ([0], "death+usurp")
    (u,) = events(g, "usurp")
    assert sorted(u["replaced"]) == [1, 2]


def test_cuan_duo_zhe_already_winning_is_not_replaced(content):
    """篡夺者 FAQ: if he already wins by another condition, the usurp is not resolved (he is last alive)."""
    g = make(content, [S(task="cuan_duo_zhe"), S("red", intel=[35, 36])])
    assert wins(g, 37, holder=1) == ([0], "last_alive")
    assert not events(g, "usurp")


# ====================================================================== 双面间谍


def test_shuang_mian_jian_die_three_red(content):
    """双面间谍: collects 3 red → wins alone."""
    g = make(content, table(p2=S(task="shuang_mian_jian_die", intel=[27, 28])))
    assert wins(g, 29, holder=2) == ([2], "collect")


# ====================================================================== 诱变者


def test_you_bian_zhe_himself(content):
    """诱变者 FAQ: he collects 3 red himself → he wins."""
    g = make(content, table(p4=S(task="you_bian_zhe", intel=[27, 28])))
    assert wins(g, 29, holder=4) == ([4], "collect")


def test_you_bian_zhe_not_when_the_collector_wins(content):
    """诱变者: a 潜伏战线 with 3 red declares victory himself → no 诱变者 win."""
    g = make(content, table(p2=S("red", intel=[27, 28]), p4=S(task="you_bian_zhe")))
    assert wins(g, 29, holder=2) == ([0, 2], "collect")


def test_you_bian_zhe_dead_cannot_win(content):
    """诱变者 FAQ: a dead 诱变者 does not win."""
    g = make(content, table(p1=S("blue", intel=[27, 28]), p4=S(task="you_bian_zhe", alive=False)))
    receive(g, 29, holder=1)
    assert not events(g, "victory") and g.players[1].red == 3


def test_you_bian_zhe_other_mysterious_person(content):
    """诱变者: another 神秘人 (not 双面间谍) with 3 blue has not won → 诱变者 wins."""
    g = make(content, table(p1=S(task="qing_dao_fu", intel=[31, 32]), p4=S(task="you_bian_zhe")))
    assert wins(g, 33, holder=1) == ([4], "collect")


# ====================================================================== 先行者


def test_xian_xing_zhe_dies_with_only_black(content):
    """先行者: dying with only pure black intel is not enough."""
    g = make(content, table(p3=S(task="xian_xing_zhe", intel=[35, 36])))
    receive(g, 37, holder=3)
    assert events(g, "died", seat=3) and not events(g, "victory")


def test_xian_xing_zhe_only_his_own_death(content):
    """先行者: another player's death does not count."""
    g = make(content, table(p3=S(task="xian_xing_zhe", intel=[27]), p1=S("blue", intel=[31, 35, 36])))
    receive(g, 37, holder=1)
    assert events(g, "died", seat=1) and not events(g, "victory")


# ====================================================================== 搅局者

JJZ_OTHERS = dict(
    p1=S("blue", intel=[23, 27]),  # 红黑 + 纯红 counts as two
    p2=S("red", intel=[31, 32]),
    p3=S("blue", intel=[114, 28]),
    p4=S("blue", intel=[33, 115]),
)


def test_jiao_ju_zhe_wins_at_his_turn_end(content):
    """搅局者: at the end of his turn every other player has ≥2 red/blue intel → he wins, only at turn end."""
    g = make(
        content,
        table(p0=S(task="jiao_ju_zhe"), **JJZ_OTHERS),
        deck_top=[79, 80, 82],
        script={0: ["#79", "P1", "accept", "pass"], 1: ["decline"]},
    )
    with pytest.raises(GameOver) as over:
        g.play_turn()  # the condition already holds at the start, but he wins only at turn end
    assert [p.seat for p in over.value.winners] == [0] and over.value.reason == "turn_end"
    assert index(g, "received") < index(g, "turn_end") < index(g, "victory")
    done(g)


def test_jiao_ju_zhe_single_red_blue_dual_not_enough(content):
    """搅局者 FAQ: a player holding just one 红蓝 dual intel does not have two red/blue intel."""
    others = dict(JJZ_OTHERS, p3=S("blue", intel=[114]))
    g = make(content, table(p0=S(task="jiao_ju_zhe"), **others))
    g.victory.check_turn_end_victory()
    assert not events(g, "victory")
    g2 = make(content, table(p0=S(task="jiao_ju_zhe"), **JJZ_OTHERS))
    with pytest.raises(GameOver):
        g2.victory.check_turn_end_victory()


def test_jiao_ju_zhe_pure_black_does_not_count(content):
    """搅局者: pure black intel is not red/blue."""
    others = dict(JJZ_OTHERS, p2=S("red", intel=[31, 35, 36]))
    g = make(content, table(p0=S(task="jiao_ju_zhe"), **others))
    g.victory.check_turn_end_victory()
    assert not events(g, "victory")


def test_jiao_ju_zhe_only_living_others(content):
    """搅局者 FAQ: only the other LIVING players need two red/blue intel."""
    others = dict(JJZ_OTHERS, p2=S("red", intel=[], alive=False))
    g = make(content, table(p0=S(task="jiao_ju_zhe"), **others))
    with pytest.raises(GameOver):
        g.victory.check_turn_end_victory()


def test_jiao_ju_zhe_not_on_others_turn(content):
    """搅局者: the condition is checked at the end of HIS turn only."""
    g = make(
        content,
        table(p0=S(task="jiao_ju_zhe", intel=[29, 30]), **JJZ_OTHERS),
        current=1,
        deck_top=[79, 80, 82],
        script={1: ["#79", "P2", "pass"], 2: ["accept"]},
    )
    g.play_turn()
    assert not events(g, "victory") and events(g, "turn_end", seat=1)
    done(g)


def test_jiao_ju_zhe_dead_on_his_own_turn_still_wins(content):
    """搅局者 FAQ: he dies during his own turn; at its end the condition holds → he still wins."""
    g = make(
        content,
        table(p0=S(task="jiao_ju_zhe", intel=[35, 36]), **JJZ_OTHERS),
        deck_top=[37, 67, 68],
        script={
            0: ["pass", "#37", "accept", "pass", "none"],
            1: ["decline"],
            2: ["decline"],
            3: ["decline"],
            4: ["decline"],
        },
    )
    with pytest.raises(GameOver) as over:
        g.play_turn()
    assert [p.seat for p in over.value.winners] == [0] and over.value.reason == "turn_end"
    assert index(g, "died", seat=0) < index(g, "turn_end") < index(g, "victory")
    assert not g.players[0].alive
    done(g)


def test_jiao_ju_zhe_who_abstained_cannot_win(content):
    """弃权 + 搅局者: out on his own turn (no card to send), he cannot win at its end."""
    g = make(content, table(p0=S(task="jiao_ju_zhe", hand=[]), **JJZ_OTHERS))
    for c in list(g.deck):
        g.zones.move(c, REMOVED)  # nothing to draw
    g.play_turn()
    assert g.players[0].out and events(g, "abstain", seat=0)
    assert events(g, "turn_end", seat=0) and not events(g, "victory")


# ====================================================================== 清道夫


def test_qing_dao_fu_not_with_two_red(content):
    """清道夫: a dead player with 2 red intel does not count."""
    g = make(content, table(p1=S("blue", intel=[27, 28, 35, 36]), p2=S(task="qing_dao_fu")))
    receive(g, 37, holder=1)
    assert events(g, "died", seat=1) and not events(g, "victory")


def test_qing_dao_fu_dead_cannot_win(content):
    """清道夫 FAQ: an already dead 清道夫 does not win."""
    g = make(content, table(p1=S("blue", intel=[35, 36]), p2=S(task="qing_dao_fu", alive=False)))
    receive(g, 37, holder=1)
    assert events(g, "died", seat=1) and not events(g, "victory")
