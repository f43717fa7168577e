"""A sample (GameState.resample, World.sample: step._redeal) carries of the other seats' knowledge only what the
seat it is dealt for may know: who can follow a card (Card.knowers, and what a pick or a show adds to it: chosen,
shown) and whose identity card a seat looked at (Player.known_identities) are kept where everyone was told of it
(Card.told: a card given face down, a show to all, the target of a card used face down), and dropped where only the
seat that looked was (a 查看 whose record went to it alone, Skills.look_identity). Else the sample — its state, and
the others' observations in it, which a search bot plays them from — tells the seat that another one looked."""

from __future__ import annotations

import random

from interpreter.content.loader import load_cached
from interpreter.engine.state import HAND
from interpreter.engine.step import GameState, _redeal


def _played(actions: int, seed: int = 3) -> GameState:
    """A 5-player game after `actions` answers, each the last option offered."""
    state = GameState(load_cached(), 5, seed, None)
    while len(state.history()) < actions and not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    assert not state.is_terminal()
    return state


def _seats(state: GameState) -> tuple[int, int, int]:
    """The seat to act (A), another (B) and a third with cards in hand (C)."""
    a = state.current_player()
    g = state._game
    c = next(p.seat for p in g.players if p.seat != a and len(p.hand) >= 2)
    b = next(p.seat for p in g.players if p.seat not in (a, c))
    return a, b, c


def _knowledge(state: GameState) -> list:
    """Everything a sample keeps of who knows what: per card place, who follows it, picked it, has it on show; per
    seat, whose identity it looked at; and every seat's observation (its known cards, its history)."""
    g = state._game
    cards = [(c.uid, c.knowers, c.chosen, c.shown) for c in g.cards]
    looks = [sorted(p.known_identities) for p in g.players]
    return [cards, looks, [state.observation(s) for s in range(g.n)]]


def test_a_sample_forgets_what_another_seat_looked_at_privately():
    """Two games seat A cannot tell apart, in one of which B looked at a card of C's hand (查看, its record to B
    alone), picked it, and looked at C's identity card: the samples dealt for A from the same generator are the
    same, in who follows each card and in B's observation (known cards, history)."""
    state = _played(25)
    a, b, c = _seats(state)
    plain, looked = state.clone(), state.clone()
    g = looked._game
    seen = g.players[c].hand[0]
    mark = len(g.zones.showing)
    g.zones.reveal([seen], [g.players[b]])
    g.zones.note_pick(seen, b, list(g.players[c].hand))
    g.zones.end_shows(mark)  # (the effect that showed it has resolved)
    assert g.skills.look_identity(g.players[b], g.players[c])
    assert seen.knowers >> b & 1 and seen.chosen >> b & 1
    assert plain.observation(a) == looked.observation(a)  # A was not told
    _redeal(plain._game, a, random.Random(1))
    _redeal(looked._game, a, random.Random(1))
    assert _knowledge(plain) == _knowledge(looked)


def test_a_sample_keeps_what_everyone_saw_of_the_others_knowledge():
    """What the whole table was told stays: a card B gave C face down is followed by B (and C) in A's sample, a card
    of C's hand shown to all by everyone, a face-down card used on a target by its target; A's own looks stay."""
    state = _played(25)
    a, b, c = _seats(state)
    g = state.clone()._game
    pb, pc = g.players[b], g.players[c]
    given = pb.hand[0] if pb.hand else g.zones.deck[-1]
    g.zones.move(given, HAND, pc)  # given face down (or drawn, then given): B and C follow it
    shown = next(x for x in pc.hand if x is not given)
    g.zones.reveal([shown])  # 展示: to everyone
    private = next((x for x in pc.hand if x is not given and x is not shown), None)
    if private is not None:
        g.zones.reveal([private], [g.players[a]])  # A's own look stays A's
    target = g.zones.deck[-2]
    g.zones.show_to(target, b)  # (as the target of a face-down use is shown the card: its use names the target)
    _redeal(g, a, random.Random(1))
    bits = (1 << b) | (1 << c)
    assert given.knowers & bits == bits and given.told & bits == bits
    assert shown.knowers == g.all_mask and target.knowers >> b & 1
    if private is not None:
        assert private.knowers >> a & 1 and not private.knowers & ~(1 << a | 1 << c)
    g.check_invariants()


def test_a_sample_through_the_step_api_forgets_a_look_told_to_another_seat_alone():
    """A real game (seed 2): P1 used a card on P4 that had P4 show P1 its hand (its record to P1 alone). P2's sample
    has nobody but P4 follow P4's hand, and P1's observation in it knows none of it; the truth is left as it was."""
    state, rng = GameState(load_cached(), 5, 2), random.Random(2)
    while len(state.history()) < 25:
        state.apply_action(rng.choice(state.legal_actions()))
    g = state._game
    assert state.current_player() == 2
    looks = [r for r in g.log if r.get("e") == "reveal" and r.get("to") == [1] and r.get("seat") == 4]
    assert looks and all(g.by_uid[u].knowers >> 1 & 1 for u in looks[0]["cards"])
    truth = [c.knowers for c in g.cards]
    sample = state.resample(2, random.Random(5))
    h = sample._game
    assert all(c.knowers == 1 << 4 for c in h.players[4].hand)
    assert not any(k["seat"] == 4 for k in sample.observation(1)["known_cards"])
    assert not any(r.get("e") == "reveal" and r.get("private") for r in sample.observation(1)["history"])
    assert sample.observation(2) == state.observation(2)
    assert [c.knowers for c in g.cards] == truth


def test_a_look_of_an_effect_still_resolving_stays_in_the_sample():
    """A card on show to B while the effect that showed it resolves stays followed by B in A's sample: the sample
    plays that effect on, which may ask B to pick among what it saw (offered by id: B must see them)."""
    state = _played(25)
    a, b, c = _seats(state)
    g = state.clone()._game
    seen = g.players[c].hand[0]
    g.zones.reveal([seen], [g.players[b]])  # (not ended: its effect is resolving)
    _redeal(g, a, random.Random(1))
    assert seen.knowers >> b & 1 and seen.shown >> b & 1 and not seen.told >> b & 1


def test_a_sample_carries_no_record_another_seat_alone_was_told_of():
    """Two games A cannot tell apart, in one of which B was asked one more question (its record, to B alone, as
    ask_seat logs it: how many options it had tells of its hand), deal the same sample, every seat's observation
    included: the sample's log is the records A reads."""
    state = _played(25)
    a, b, _c = _seats(state)
    plain, asked = state.clone(), state.clone()
    g = asked._game
    question = next(r for r in g.log if "d" in r and r.get("to") == [b])
    g.log.append(dict(question))
    assert plain.observation(a) == asked.observation(a)
    _redeal(plain._game, a, random.Random(1))
    _redeal(asked._game, a, random.Random(1))
    assert _knowledge(plain) == _knowledge(asked)
    assert not [r for r in asked._game.log if r.get("to") is not None and a not in r["to"]]


def test_a_sample_names_no_reader_of_a_record_that_only_a_look_made_one():
    """B looked at the top of the deck alone, then C drew that card: the draw's record names its cards to the seats
    that could see them (C, and B), so B's copy named C's card. Two games A cannot tell apart, with and without
    B's look, deal the same sample: a field of a record A may not read is read by nobody in the sample."""
    state = _played(25)
    a, b, c = _seats(state)
    plain, looked = state.clone(), state.clone()
    g = looked._game
    mark = len(g.zones.showing)
    g.zones.reveal([g.zones.deck[-1]], [g.players[b]])
    g.zones.end_shows(mark)
    for s in (plain, looked):
        s._game.zones.draw(s._game.players[c], 1)
    assert [r.get("secret") for r in g.log[-1:]] == [{"cards": sorted([b, c])}]
    assert plain.observation(a) == looked.observation(a)
    _redeal(plain._game, a, random.Random(1))
    _redeal(looked._game, a, random.Random(1))
    assert _knowledge(plain) == _knowledge(looked)


def test_an_event_still_to_be_heard_names_the_card_now_in_its_place_and_the_log_blanks_it():
    """A public record whose card field the sampling seat may not read (a card used face down: its id secret to the
    user and the target) may also be an event a trigger has still to hear (Game.events, a batch of run_triggers: the
    same dict). The sample blanked it in place, so a trigger heard a use of no card (ctx.card None: a world the seat
    could not tell from what it saw); the event now names the card the re-deal put in that place, and the log's copy
    reads as the seat reads it (no card, read by nobody)."""
    from interpreter.engine.core import emit_event

    state = _played(25)
    g = state._game
    a, b, c = _seats(state)
    card = g.players[b].hand[0]
    g.zones.show_to(card, c)  # (a face-down use's target sees the card; its user holds it)
    g.watched = frozenset((*g.watched, "card_used"))  # (a frozenset: the compiled engine types it so)
    emit_event(g, "card_used", seat=b, card="shi_tan", uid=card.uid, timing="play_phase", target=c)
    _kind, event = g.events[-1]
    assert event["secret"] == {"uid": sorted((b, c))}
    _redeal(g, a, random.Random(1))
    assert event["uid"] == card.uid and g.by_uid[event["uid"]] is card  # the card in that place, re-dealt or not
    logged = next(r for r in reversed(g.log) if r.get("e") == "card_used")
    assert logged is not event and logged["uid"] is None and logged["secret"] == {"uid": []}
