"""A determinization (GameState.resample / World.sample re-deal through step._redeal) carries nothing only
another seat was told of: its secret statuses, its secret lasting marks, its secret receiver binding — a
search bot's rollouts would otherwise play out facts its seat cannot know."""

from __future__ import annotations

import random

from interpreter.content.loader import load_cached
from interpreter.engine.game import Game
from interpreter.engine.step import GameState, _redeal


def _game_with_secrets() -> Game:
    """A game paused with an intel on its way, seat 1 told secrets, seat 2 public ones."""
    state = GameState(load_cached(), 5, 3, None)
    while state._game.zones.pending is None and not state.is_terminal():  # until an intel is on its way
        state.apply_action(state.legal_actions()[-1])
    assert not state.is_terminal()
    g = state._game
    p1, p2 = g.players[1], g.players[2]
    g.seats.add_status(p1, "cannot_receive", secret=True)
    g.seats.add_status(p2, "cannot_receive")  # public: everyone heard it
    g.seats.keep_mark(p1, "蓄力", 2, secret=True)
    g.seats.keep_mark(p2, "蓄力", 1)
    g.flow.set_receivers([p1], [p2], secret=True)
    return g


def test_a_sample_for_another_seat_drops_the_secrets_of_the_others():
    g = _game_with_secrets()
    p1, p2 = g.players[1], g.players[2]
    _redeal(g, 0, random.Random(1))
    assert "cannot_receive" not in p1.statuses and "蓄力" not in p1.marks
    assert g.seats.has_status(p2, "cannot_receive") and g.seats.mark(p2, "蓄力") == 1
    assert g.flow.receivers is not None and g.flow.receivers[1:] == (frozenset(), frozenset())


def test_a_sample_for_the_seat_told_keeps_its_own_secrets_only():
    g = _game_with_secrets()
    p1, p2 = g.players[1], g.players[2]
    _redeal(g, 1, random.Random(1))
    assert g.seats.has_status(p1, "cannot_receive") and g.seats.mark(p1, "蓄力") == 2
    assert g.flow.receivers is not None and g.flow.receivers[1:] == (frozenset({p1}), frozenset())
    assert p2 not in g.flow.receivers[2]  # seat 2's binding was told to seat 2 alone


def test_a_resample_leaves_the_real_game_as_it_is():
    state = GameState(load_cached(), 5, 3, None)
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    before = state.observation(1)
    state.resample(state.current_player(), random.Random(2))
    assert state.observation(1) == before


def test_a_resampled_card_is_used_by_its_new_face_not_the_one_it_had():
    """What follows from a card's type moves with the face: a re-dealt card offers its new type's uses, so a
    sample's legal plays are not the real hidden cards' (Card.FACE includes the uses kept on the card)."""
    moved = 0
    for seed in range(3):
        state = GameState(load_cached(), 5, seed, None)
        rng = random.Random(seed)
        for _ in range(30):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        real = [c.type for c in state._game.cards]  # by position: a resample moves faces, ids included
        twin = state.resample(state.current_player(), random.Random(seed))
        g = twin._game
        moved += sum(1 for c, t in zip(g.cards, real, strict=True) if c.type is not t)
        plans = g.index.plans
        assert all(c.use_plans is plans(c.type)[1] for c in g.cards)  # the uses of its face's type
        assert all(c.use_timings == plans(c.type)[0] for c in g.cards)
        for p in g.players:
            for timing in ("play", "contest"):
                by_card = {o.card.uid: o.use for o in g.card_use.card_options(p, timing) if o.card is not None}
                for uid, use in by_card.items():
                    assert use in g.by_uid[uid].type.uses_by_timing.get(timing, ())
    assert moved > 0  # the samples did re-deal faces


def _played(actions: int) -> GameState:
    """A 5-player game (seed 3) after `actions` answers, each the last option offered."""
    state = GameState(load_cached(), 5, 3, None)
    while len(state.history()) < actions and not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    return state


def test_a_sample_carries_no_count_of_the_questions_asked_before_it():
    """Two games seat 0 cannot tell apart that asked the other seats a different number of questions (a seat is
    asked at 争夺阶段 only when it holds something it may use there, so the count tells of its hand) deal the
    same sample: its game counts its questions from the deal (decision_count, decision_log, the digest's
    `decisions`), and the truth's count is nowhere in it."""
    state = _played(25)
    seat = state.current_player()
    a, b = state.clone(), state.clone()
    g, h = a._game, b._game
    h.decision_count += 3  # three more questions of the others, answered with their only sensible option
    h.decision_log += [0, 0, 0]
    assert a.observation(seat) == b.observation(seat)
    _redeal(g, seat, random.Random(1))
    _redeal(h, seat, random.Random(1))
    assert g.digest() == h.digest() and g.decision_log == h.decision_log == []
    assert g.decision_count == 0
    sample = state.resample(seat, random.Random(2))  # and through the step API: counted from its deal
    assert sample._game.decision_count == 0 < state._game.decision_count


def _stamps(g: Game) -> list[int]:
    z = g.zones
    counts = [g.changes, z.moves, z.sightings, z.intel_changes, z.unremoved, z.decked, g.seats.standing]
    return counts + [p.version for p in g.players]


def test_a_sample_carries_no_count_of_what_only_another_seat_saw():
    """The engine's change counters (the stamps of what it keeps) counted what only another seat was told of: a
    hand card shown to one seat (Zones.sightings), a secret status (the player's version). Two games the acting
    seat cannot tell apart, one with such things, deal samples with the same counters: they start again above
    every value they had, from the number of re-deals alone. The sample plays on and clones alike (the stale
    records kept under the old counters are made again)."""
    state = _played(25)
    seat = state.current_player()
    a, b = state.clone(), state.clone()
    g, h = a._game, b._game
    others = [p for p in h.players if p.seat != seat and p.hand]
    looker = next(p for p in h.players if p.seat not in (seat, others[0].seat))
    h.zones.show_to(others[0].hand[0], looker.seat)  # nobody is told
    h.seats.add_status(others[1], "cannot_receive", secret=True)
    assert a.observation(seat) == b.observation(seat) and _stamps(g) != _stamps(h)
    _redeal(g, seat, random.Random(1))
    _redeal(h, seat, random.Random(1))
    assert _stamps(g) == _stamps(h)
    sample = state.resample(seat, random.Random(2))
    copy = sample.clone()
    rng = random.Random(3)
    while not sample.is_terminal():
        action = rng.choice(sample.legal_actions())
        sample.apply_action(action)
        copy.apply_action(action)
    assert copy._game.digest() == sample._game.digest() and copy.returns() == sample.returns()


def test_a_sample_carries_no_statistics_of_the_truths_play():
    """The statistics a game keeps for simulate (which role's skill was offered and used, how often; each seat's card
    uses) name the roles of the seats they were offered to: a face-down role's skill offered at its idle points. A
    sample re-deals that role, and counts them from its deal, as its questions."""
    state = _played(60)
    seat = state.current_player()
    g = state._game
    hidden = {p.role.id for p in g.players if p.seat != seat and p.role is not None and not p.role_shown}
    assert hidden & {role for role, _ in g.skill_offers}  # the truth's offers name a role the seat has not seen
    sample = state.resample(seat, random.Random(2))._game
    assert sample.skill_offers == sample.skill_uses == sample.card_uses == {}
    assert g.skill_offers and g.card_uses  # (the truth's kept)
