"""The order of receiving, victory, dying and death (faq.md 接收情报, detail_rules.md), intel travel,
abstaining, the last player alive and the deck running out."""

from __future__ import annotations

import pytest

from conftest import S, asked, card_of, done, events, hand, index, intel, make, opt_cards, opt_players, opt_uses
from interpreter.engine.state import DISCARD, REMOVED
from interpreter.engine.table import put_pending
from interpreter.engine.victory import GameOver


def five(**over):
    out = [S("red"), S("blue"), S("red"), S("blue"), S("blue")]
    for k, v in over.items():
        out[int(k[1:])] = v
    return out


def winners(over) -> list:
    return sorted(p.seat for p in over.value.winners)


# ====================================================================== receive → victory → dying → death


def test_receive_then_dying_then_death(content):
    """接收情报: receive → dying (ask for 澄清) → death → gift → discard, in that order."""
    g = make(
        content, five(p1=S("blue", intel=[35, 36], hand=[27]), p3=S("blue", hand=[49])), script={3: ["pass"], 1: ["P2"]}
    )
    put_pending(g, 37, sender=0, holder=1)
    g.flow.receive_phase()
    i_recv = index(g, "received", seat=1)
    i_dying = index(g, "dying", seat=1)
    i_died = index(g, "died", seat=1)
    i_give = index(g, "give", seat=1)
    i_disc = index(g, "dead_discard", seat=1)
    assert i_recv < i_dying < i_died < i_give < i_disc
    assert not g.players[1].alive and not g.players[1].out
    assert hand(g, 2) == {27}  # one hand card: the card choice is forced
    assert intel(g, 1) == set() and all(card_of(g, u).zone == DISCARD for u in (35, 36, 37))
    done(g)


def test_not_winning_player_with_3_black_dies(content):
    """A 特工机关 with 2红2黑 receiving 红黑 does not win (red is not his color) and is dying."""
    g = make(content, five(p1=S("blue", intel=[27, 28, 35, 36])))
    put_pending(g, 23, sender=0, holder=1)
    g.flow.receive_phase()
    assert events(g, "dying", seat=1) and events(g, "died", seat=1)
    assert not events(g, "victory")
    done(g)


def test_simultaneous_dying_in_seat_order_from_current(content):
    """Several players with 3 black: each is dying in turn from the current player; they die together."""
    g = make(
        content,
        five(p1=S("blue", intel=[35, 36, 37]), p3=S("blue", intel=[38, 41, 42], hand=[50]), p0=S("red", hand=[49])),
        current=2,
        script={3: ["pass", "pass", "none"], 0: ["pass", "pass"]},
    )
    g.settle()
    assert [e["seat"] for e in events(g, "dying")] == [3, 1]  # from P2 on: P3 first, then P1
    last_dying = max(i for i, e in enumerate(g.log) if e.get("e") == "dying")
    died = [i for i, e in enumerate(g.log) if e.get("e") == "died"]
    assert [g.log[i]["seat"] for i in died] == [3, 1]
    assert min(died) > last_dying  # nobody dies before every dying player has asked for help
    # P3, already doomed, is still alive while P1 asks for help (and is asked for 澄清 in P1's round)
    seq = [(e["seat"], e["prompt"]) for e in g.log if e.get("d") == "play"]
    assert seq == [(3, "P3濒死"), (0, "P3濒死"), (3, "P1濒死"), (0, "P1濒死")]
    assert not g.players[1].alive and not g.players[3].alive
    (gift,) = asked(g, 3, "death_give_target")
    assert opt_players(gift) == [0, 2, 4]  # not to P1, who dies at the same time
    done(g)


def test_simultaneous_dying_both_count_for_death_victories(content):
    """Players dying together are all checked for death victories (清道夫 wins from either)."""
    g = make(
        content,
        five(p1=S("blue", intel=[35, 36, 37, 31, 32]), p3=S("blue", intel=[38, 41, 42, 33]), p4=S(task="qing_dao_fu")),
        current=2,
    )
    with pytest.raises(GameOver) as over:
        g.settle()
    assert winners(over) == [4] and over.value.reason == "death"
    assert [e["seat"] for e in events(g, "died")] == [3, 1]
    assert index(g, "victory") > index(g, "died", seat=1)  # checked once both are dead


def test_cheng_qing_during_dying_asks_from_the_dying_player(content):
    """濒死: asking starts at the dying player, counter-clockwise; saved as soon as black < 3."""
    g = make(
        content,
        five(
            p2=S("red", intel=[35, 36], hand=[50]),
            p4=S("blue", hand=[51]),
            p0=S("red", hand=[49]),
            p1=S("blue", hand=[52]),
        ),
        script={2: ["pass"], 4: ["pass"], 0: ["use #49", "#36"]},
    )
    put_pending(g, 37, sender=0, holder=2)
    g.flow.receive_phase()
    assert [e["seat"] for e in g.log if e.get("d") == "play"] == [2, 4, 0]
    assert g.players[2].alive and g.players[2].black == 2
    assert events(g, "saved", seat=2)
    done(g)  # P1 never asked


def test_still_dying_after_cheng_qing_asks_same_player_again(content):
    """濒死: if black is still ≥ 3 after a 澄清, asking continues with the same player (no new round)."""
    g = make(
        content,
        five(p2=S("red", intel=[35, 36, 37]), p3=S("blue", hand=[49, 50]), p4=S("blue", hand=[51])),
        script={3: ["use #49", "#35", "use #50", "#36"]},
    )
    put_pending(g, 38, sender=0, holder=2)
    g.flow.receive_phase()
    assert [e["seat"] for e in g.log if e.get("d") == "play"] == [3, 3]
    assert intel(g, 2) == {37, 38} and g.players[2].alive
    done(g)  # P4 was never asked


def test_dying_player_may_save_himself(content):
    """濒死: the dying player is asked first and may use 澄清 on himself."""
    g = make(
        content, five(p2=S("red", intel=[35, 36], hand=[50]), p3=S("blue", hand=[49])), script={2: ["use #50", "#37"]}
    )
    put_pending(g, 37, sender=0, holder=2)
    g.flow.receive_phase()
    assert intel(g, 2) == {35, 36} and g.players[2].alive
    done(g)


def test_nobody_saves_the_dying_player(content):
    """濒死: after a full round with no 澄清 the dying player dies."""
    g = make(
        content,
        five(p2=S("red", intel=[35, 36]), p3=S("blue", hand=[49]), p1=S("blue", hand=[50])),
        script={3: ["pass"], 1: ["pass"]},
    )
    put_pending(g, 37, sender=0, holder=2)
    g.flow.receive_phase()
    assert [e["seat"] for e in g.log if e.get("d") == "play"] == [3, 1]
    assert not g.players[2].alive and events(g, "died", seat=2)
    done(g)


def test_death_gives_up_to_three_cards_to_one_living_player(content):
    """死亡: give at most 3 hand cards to one living player; the rest of the hand and all intel are discarded."""
    g = make(
        content, five(p2=S("red", intel=[35, 36], hand=[27, 28, 29, 30, 31])), script={2: ["P4", "#27", "#28", "#29"]}
    )
    put_pending(g, 37, sender=0, holder=2)
    g.flow.receive_phase()
    (d,) = asked(g, 2, "death_give_target")
    assert opt_players(d) == [0, 1, 3, 4] and None in d.options
    assert hand(g, 4) == {27, 28, 29}
    assert all(card_of(g, u).zone == DISCARD for u in (30, 31, 35, 36, 37))
    assert hand(g, 2) == set() and intel(g, 2) == set()
    assert len(asked(g, 2, "death_give_card")) == 3  # stops by itself after 3
    done(g)


def test_death_may_give_fewer_or_nothing(content):
    """死亡: the gift is optional ('至多') — one card, or none."""
    g = make(content, five(p2=S("red", intel=[35, 36], hand=[27, 28])), script={2: ["P1", "#28", "none"]})
    put_pending(g, 37, sender=0, holder=2)
    g.flow.receive_phase()
    assert hand(g, 1) == {28} and card_of(g, 27).zone == DISCARD
    g2 = make(content, five(p2=S("red", intel=[35, 36], hand=[27, 28])), script={2: ["none"]})
    put_pending(g2, 37, sender=0, holder=2)
    g2.flow.receive_phase()
    assert all(card_of(g2, u).zone == DISCARD for u in (27, 28))
    assert not events(g2, "give")
    done(g)
    done(g2)


def test_dead_player_is_no_longer_a_target(content):
    """死亡: a dead player cannot be the target of cards."""
    g = make(content, five(p0=S("red", hand=[41]), p2=S("red", alive=False)))
    (opt,) = g.card_use.card_options(g.players[0], "play_phase")
    from interpreter.language.runtime import Ctx

    targets = opt.use.target(Ctx(g, g.players[0], card=opt.card))
    assert [p.seat for p in targets] == [0, 1, 3, 4]


# ====================================================================== last alive, abstaining


def test_last_player_alive_wins_with_camp(content):
    """The last living player wins, and his (dead) teammates win with him."""
    g = make(content, [S("red"), S("blue", intel=[35, 36]), S("red", alive=False), S("blue", alive=False)])
    put_pending(g, 37, sender=0, holder=1)
    with pytest.raises(GameOver) as over:
        g.flow.receive_phase()
    assert winners(over) == [0, 2] and over.value.reason == "last_alive"


def test_one_camp_left_game_goes_on(content):
    """Several living players of one camp: the game goes on (identities stay hidden)."""
    g = make(content, [S("red"), S("blue", intel=[35, 36]), S("red")])
    put_pending(g, 37, sender=0, holder=1)
    g.flow.receive_phase()
    assert not g.players[1].alive and g.result is None
    assert not events(g, "victory")


def test_abstain_empty_hand_is_out_not_dead(content):
    """弃权: no hand card at the send phase → out: cards discarded, not dead (no death check), cannot win."""
    g = make(content, [S("red", hand=[], intel=[27, 35]), S(task="qing_dao_fu"), S("red", intel=[28, 29]), S("blue")])
    assert g.flow.send_phase(g.players[0]) is False
    p0 = g.players[0]
    assert p0.out and not p0.alive
    assert events(g, "abstain", seat=0) and not events(g, "died") and not events(g, "dying")
    assert card_of(g, 27).zone == DISCARD and card_of(g, 35).zone == DISCARD
    # his teammate wins later: the abstained player does not win with the camp
    put_pending(g, 30, sender=3, holder=2)
    with pytest.raises(GameOver) as over:
        g.flow.receive_phase()
    assert winners(over) == [2]


def test_abstain_can_leave_last_player(content):
    """弃权 of the second-to-last player leaves one alive: he wins."""
    g = make(content, [S("red", hand=[]), S("blue"), S("blue", alive=False)])
    with pytest.raises(GameOver) as over:
        g.flow.send_phase(g.players[0])
    assert winners(over) == [1, 2] and over.value.reason == "last_alive"


def test_play_turn_abstains_when_nothing_to_draw(content):
    """弃权 through a whole turn: deck and discard pile empty, no hand → the player is out."""
    g = make(content, [S("red"), S("blue"), S("red")])
    for c in list(g.deck):
        g.zones.move(c, REMOVED)  # REMOVED: nothing left to draw
    g.play_turn()
    assert g.players[0].out and events(g, "abstain", seat=0)
    g.check_invariants()


def test_dead_and_out_players_take_no_turn(content):
    """回合: the next turn goes counter-clockwise to the next living player (dead and out players are skipped)."""
    g = make(content, [S("red"), S("blue", alive=False), S("red", hand=[]), S("blue"), S("blue")])
    g.current = g.players[2]
    g.flow.send_phase(g.players[2])  # P2 abstains
    g.current = g.players[0]
    assert g.flow.next_turn_player() is g.players[3]
    g.current = g.players[4]
    assert g.flow.next_turn_player() is g.players[0]


# ====================================================================== intel travel


def _travel(content, uid, decline, accept_seat, dead=(), lock=None):
    seats = [S("red", hand=[uid]), S("blue"), S("red"), S("blue"), S("blue")]
    for d in dead:
        seats[d] = S("blue", alive=False)
    script = {0: ["#" + str(uid)] + ([] if lock is None else [lock])}
    for s in decline:
        script.setdefault(s, []).append("decline")
    script.setdefault(accept_seat, []).append("accept")
    g = make(content, seats, script=script)
    assert g.flow.send_phase(g.players[0])
    assert g.flow.travel()
    return g


def test_direction_right_goes_counter_clockwise(content):
    """→ intel: passes to seat+1 (right-hand, counter-clockwise), back to the sender who must accept."""
    g = _travel(content, 30, decline=[1, 2, 3, 4], accept_seat=0)
    assert [e["seat"] for e in events(g, "intel_arrives")] == [1, 2, 3, 4, 0]
    assert asked(g, 0, "receive")[0].options == ["accept"]
    assert g.holder is g.players[0]
    done(g)


def test_direction_left_goes_clockwise(content):
    """← intel: passes to seat−1 (left-hand, clockwise)."""
    g = _travel(content, 27, decline=[4, 3], accept_seat=2)
    assert [e["seat"] for e in events(g, "intel_arrives")] == [4, 3, 2]
    assert g.holder is g.players[2]
    done(g)


def test_direction_skips_dead_players(content):
    """Intel passes over dead players."""
    g = _travel(content, 30, decline=[1, 3], accept_seat=4, dead=[2])
    assert [e["seat"] for e in events(g, "intel_arrives")] == [1, 3, 4]
    done(g)


def test_direction_up_back_to_sender(content):
    """↑ intel: to a chosen player; if he declines it returns to the sender, who must accept."""
    g = make(content, five(p0=S("red", hand=[79])), script={0: ["#79", "P3", "accept"], 3: ["decline"]})
    g.flow.send_phase(g.players[0])
    (tgt,) = asked(g, 0, "send_target")
    assert opt_players(tgt) == [1, 2, 3, 4]
    assert g.flow.travel()
    assert [e["seat"] for e in events(g, "intel_arrives")] == [3, 0]
    assert asked(g, 0, "receive")[0].options == ["accept"]
    done(g)


def test_lock_forces_accept(content):
    """锁定: the locked player cannot decline (he may still use 破译)."""
    g = make(
        content,
        five(p0=S("red", hand=[41]), p3=S("blue", hand=[61])),
        script={0: ["#41", "P3"], 4: ["decline"], 3: ["accept"]},
    )
    g.flow.send_phase(g.players[0])
    (lock,) = asked(g, 0, "lock")
    assert None in lock.options and opt_players(lock) == [1, 2, 3, 4]
    assert g.transit.lock is g.players[3]
    assert g.flow.travel()
    (r,) = asked(g, 3, "receive")
    assert "decline" not in r.options and "accept" in r.options and opt_uses(r) == [61]
    assert "decline" in asked(g, 4, "receive")[0].options
    done(g)


def test_no_lock_when_card_is_not_lockable(content):
    """Only a card with the lock symbol asks for a lock."""
    g = make(content, five(p0=S("red", hand=[27])), script={0: ["#27"]})
    g.flow.send_phase(g.players[0])
    assert asked(g, 0, "lock") == [] and g.transit.lock is None
    done(g)


def test_dead_locked_player_is_passed_over(content):
    """Intel whose locked player died passes on to the next player (无论死亡角色是否被锁定)."""
    g = make(
        content, five(p0=S("red", hand=[41])), script={0: ["#41", "P3"], 4: ["decline"], 2: ["decline"], 1: ["accept"]}
    )
    g.flow.send_phase(g.players[0])
    g.seats.place_dead(g.players[3])  # dies while the intel travels (as by a role skill)
    assert g.flow.travel()
    assert [e["seat"] for e in events(g, "intel_arrives")] == [4, 2, 1]
    done(g)


def test_intel_back_to_dead_sender_is_discarded(content):
    """Intel that comes back to a dead sender is discarded; no contest, no receive."""
    g = make(
        content,
        five(p0=S("red", hand=[30])),
        script={1: ["decline"], 2: ["decline"], 3: ["decline"], 4: ["decline"], 0: ["#30"]},
    )
    g.flow.send_phase(g.players[0])
    g.seats.place_dead(g.players[0])
    assert g.flow.travel() is False
    assert card_of(g, 30).zone == DISCARD and g.pending is None
    assert [e["seat"] for e in events(g, "intel_arrives")] == [1, 2, 3, 4, 0]
    done(g)


def test_intel_in_front_of_dead_holder_at_receive_is_discarded(content):
    """Contest over with the intel in front of a dead player: it is discarded, nobody receives it."""
    g = make(content, five(p3=S("blue", hand=[79])), script={3: ["pass"]})
    put_pending(g, 27, sender=0, holder=1)
    g.seats.place_dead(g.players[1])
    g.flow.contest_phase()  # the asking starts from the next living player
    g.flow.receive_phase()
    assert card_of(g, 27).zone == DISCARD and intel(g, 1) == set()
    assert not events(g, "received")
    done(g)


def test_sender_must_accept_own_intel(content):
    """传出者 must accept when the intel comes back; he cannot decline."""
    g = _travel(content, 29, decline=[4, 3, 2, 1], accept_seat=0)
    (r,) = asked(g, 0, "receive")
    assert "decline" not in r.options
    done(g)


# ====================================================================== the deck


def test_reshuffle_discard_pile_when_deck_runs_out(content):
    """牌堆 empty: the discard pile is shuffled into a new deck and drawing goes on."""
    g = make(content, five(), deck_top=[27])
    for c in list(g.deck):
        if c.uid != 27:
            g.zones.move(c, DISCARD)
    before = [c.uid for c in g.discard_pile]
    n_disc = len(before)
    assert g.zones.draw(g.players[0], 3)
    assert 27 in hand(g, 0) and len(hand(g, 0)) == 3
    (r,) = events(g, "reshuffle")
    assert r["n"] == n_disc
    assert g.discard_pile == [] and len(g.deck) == n_disc - 2
    assert set(before) == {c.uid for c in g.deck} | (hand(g, 0) - {27})
    assert [c.uid for c in g.deck] != before[: n_disc - 2]  # shuffled, not just turned over
    g.check_invariants()


def test_li_you_with_empty_deck_reshuffles(content):
    """利诱 with an empty deck: the discard pile becomes the deck first."""
    g = make(content, five(p0=S("red", hand=[41])), script={0: ["use #41", "P1"]})
    for c in list(g.deck):
        if c.uid != 31:
            g.zones.move(c, REMOVED)
    g.zones.move(card_of(g, 31), DISCARD)
    g.flow.idle_loop(g.players[0], "play_phase")
    assert events(g, "reshuffle") and intel(g, 1) == {31}
    done(g)


def test_looking_at_more_cards_than_the_deck_holds_puts_the_discard_pile_under_it(content):
    """查看牌堆顶的五张牌 with three left (运筹帷幄): the discard pile is shuffled and put under those three, which stay
    on top; he looks at the three and two of the pile (docs/rulings.md R30). He looked at the three alone before."""
    g = make(content, five(), deck_top=[31, 32, 33], script={0: ["skill 运筹帷幄", 0, 0, 0, 0, "pass"]})
    g.players[0].new_role(content.roles["lao_hu"], False)  # hidden, face down: 运筹帷幄 turns it up
    g.skills.index_triggers()
    for c in list(g.deck):
        if c.uid not in (31, 32, 33):
            g.zones.move(c, DISCARD)
    pile = len(g.discard_pile)
    g.flow.idle_loop(g.players[0], "play_phase")
    looked = opt_cards(asked(g, 0, "choose")[0])
    assert len(looked) == 5 and looked[:3] == [31, 32, 33]  # top first: the three left, then two of the pile
    (r,) = events(g, "reshuffle")
    assert r["n"] == pile and g.discard_pile == []
    assert hand(g, 0) == {31, 32, 33} and len(g.deck) == pile  # three taken, two put back on top
    done(g)


def test_draw_with_nothing_left(content):
    """Deck and discard pile both empty: drawing draws what there is and reports it."""
    g = make(content, five(), deck_top=[27])
    for c in list(g.deck):
        if c.uid != 27:
            g.zones.move(c, REMOVED)
    assert g.zones.draw(g.players[0], 3) is False
    assert hand(g, 0) == {27}
    g.check_invariants()


# ====================================================================== a whole turn


def test_whole_turn_phase_order(content):
    """回合: draw 3 → play → send → contest → receive → turn end, in that order."""
    g = make(content, five(), deck_top=[79, 80, 82], script={0: ["#79", "P2", "pass"], 2: ["accept"]})
    g.play_turn()
    kinds = [
        e["e"]
        for e in g.log
        if e.get("e") in ("turn_start", "draw", "intel_sent", "intel_accepted", "received", "turn_end")
    ]
    assert kinds == ["turn_start", "draw", "intel_sent", "intel_accepted", "received", "turn_end"]
    assert intel(g, 2) == {79} and hand(g, 0) == {80, 82}
    done(g)
