"""What observations keep between calls (engine/observation.py, ``Views``) is what a fresh observation shows.

An observation reuses the parts that have not changed since the last one: a seat's history so far, cards'
faces, players' rows, piles kept while no card moved, a seat's known cards and removed face-down cards while it
finds the same. Two copies of one game (the same seed and answers) are observed at different moments: one at
every decision (every seat's and the spectator's), the other only now and then, so that most of what it keeps
is from long before; wherever both look, the two observations must be equal. A part kept past a change it did
not notice would differ.
"""

from __future__ import annotations

import random

import pytest

from interpreter.engine.step import GameState


def _observed(content, players: int, seed: int, every: int) -> list:
    state = GameState(content, players, seed)
    rng = random.Random(seed)
    seen, step = [], 0
    while not state.is_terminal():
        if step % every == 0:
            seen.append([state.observation(s) for s in range(players)] + [state.public_observation()])
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        step += 1
    seen.append([state.observation(s) for s in range(players)] + [state.public_observation()])
    return seen


@pytest.mark.parametrize(("players", "seed"), [(5, 3), (3, 11), (8, 5)])
def test_kept_parts_of_observations_are_what_fresh_ones_show(content, players, seed):
    often = _observed(content, players, seed, 1)
    seldom = _observed(content, players, seed, 7)
    assert len(often) > 50
    assert seldom[:-1] == often[:-1:7]
    assert seldom[-1] == often[-1]


def test_a_removed_card_that_leaves_and_comes_back_is_seen_as_it_is_now(content):
    """The removed face-down cards are kept per seat and only the cards removed since are walked: a card used face
    down, removed, then taken out and removed again face up (as the last card both times) must not keep the entry
    of its face-down stay."""
    from interpreter.engine.state import HAND, REMOVED

    state = GameState(content, 5, 3)
    g = state._game
    p1 = g.players[1]
    card = g.zones.deck[-1]
    down = next(t for t in content.card_types.values() if t.face_down)
    g.zones.start_use(card, down)
    g.zones.remove_used(card, down)
    before = g.observation(1)["removed_face_down"]
    assert before and before[-1] == {"id": None, "used_as": down.id}  # P1 does not follow it
    g.zones.move(card, HAND, p1)  # out of the removed cards, into P1's hand: P1 follows it now
    g.zones.move(card, REMOVED)  # back, face up this time
    assert g.observation(1)["removed_face_down"] == before[:-1]
    assert g.observation(1)["removed"][-1]["id"] == card.uid


def test_a_card_put_back_on_the_deck_is_followed_there(content):
    """Whether any deck card is followed is found again only when a card is put into the deck (or one is shown, or
    the deck shuffled): a card P1 held and put back on top is in P1's known cards, at depth 0, and in no one else's;
    drawn, it is followed into the hand."""
    from interpreter.engine.state import DECK, HAND

    state = GameState(content, 5, 3)
    g = state._game
    p1 = g.players[1]
    card = g.zones.deck[0]  # (the bottom card: drawing the top one below changes nothing of it)
    g.zones.move(card, HAND, p1)
    assert g.observation(1)["known_cards"] == () and g.observation(2)["known_cards"] == ()
    g.zones.move(card, DECK)
    assert [(k["card"]["id"], k["zone"], k["depth"]) for k in g.observation(1)["known_cards"]] == [
        (card.uid, "deck", 0)
    ]
    assert g.observation(2)["known_cards"] == ()
    g.zones.move(g.zones.deck[-1], HAND, g.players[2])  # drawn by P2: P1 follows it into P2's hand
    assert [(k["card"]["id"], k["zone"], k["seat"]) for k in g.observation(1)["known_cards"]] == [(card.uid, "hand", 2)]


def test_what_observations_kept_is_freed_after_a_redeal(content):
    """A re-deal (a search bot's sample, ``GameState.resample``, the seat-boundary checks) starts the observations'
    keeping again; what was kept, and the game it names, is freed with the game. Compiled, a Views initialised a
    second time in place kept every part it held for good (about 40 MB a game where every decision re-deals), so
    the game's players and cards outlived it: this counts the players alive before and after such a game."""
    import gc

    from interpreter.engine.state import Player
    from interpreter.engine.step import _redeal

    def players_alive() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o) is Player)

    before = players_alive()
    state = GameState(content, 5, 10_004)
    rng = random.Random(4)
    redeals = 0
    while not state.is_terminal():
        seat = state.current_player()
        state.observation(seat)
        if rng.random() < 0.2:
            _redeal(state._game, seat, rng)
            redeals += 1
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert redeals > 10
    del state
    assert players_alive() == before


# a field set as an agent may declare it (Agent.observation_fields): the heuristic bot's, and a few others
_SOME: list[frozenset[str]] = [
    frozenset(("seat", "players", "phase", "current", "transit", "me", "known_identities", "history", "decision")),
    frozenset(("known_cards",)),
    frozenset(("removed_face_down", "in_use", "discard", "staging", "removed", "result", "zones")),
    frozenset(),
]


@pytest.mark.parametrize(("players", "seed"), [(5, 3), (8, 5)])
def test_an_observation_of_some_fields_is_those_fields_of_the_whole_one(content, players, seed):
    """``observe(..., fields)`` (what the driver makes for an agent that declares ``observation_fields``) is the
    whole observation with the other fields left out: the same values, in the same order. Two copies of one game:
    one observed whole at every decision by every seat, the other by the same seats through the field sets above in
    turn (so that what the views keep is brought up to date by some fields and not others) and whole now and then;
    wherever both look, they agree."""
    from interpreter.engine.observation import FIELDS, observe

    whole_state, part_state = GameState(content, players, seed), GameState(content, players, seed)
    rng = random.Random(seed)
    step = 0
    while not whole_state.is_terminal():
        g, d = part_state._game, part_state._decision
        for s in range(players):
            whole = whole_state.observation(s)
            fields = _SOME[(step + s) % len(_SOME)]
            if (step + s) % 11 == 0:
                assert observe(g, s, d) == whole
            part = observe(g, s, d, fields)
            assert list(part) == [f for f in FIELDS if f in fields and f in whole]
            assert part == {f: whole[f] for f in part}
        legal = whole_state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        whole_state.apply_action(action)
        part_state.apply_action(action)
        step += 1
    assert step > 50


def test_a_field_that_is_not_one_is_refused(content):
    from interpreter.engine.observation import observe

    state = GameState(content, 5, 3)
    with pytest.raises(ValueError, match="no such observation field: hnad"):
        observe(state._game, 0, None, frozenset(("me", "hnad")))


def test_the_driver_hands_an_agent_the_fields_it_declares(content):
    """The synchronous driver makes an agent that declares ``observation_fields`` only those; the heuristic bot,
    which declares the fields it reads, plays the very game it plays handed every field (a field it reads and did
    not declare would be missing: a KeyError, or another answer where it reads one with ``get``)."""
    from interpreter.agents.heuristic import HeuristicAgent
    from interpreter.engine.step import drive

    class Whole(HeuristicAgent):
        observation_fields = None

    seen: set[tuple[str, ...]] = set()

    class Seen(HeuristicAgent):
        def act(self, observation, actions):
            seen.add(tuple(observation))
            return super().act(observation, actions)

    for n, seed in ((5, 21), (8, 22)):
        whole = drive(content, n, seed, [Whole(seed * 10 + s) for s in range(n)])
        some = drive(content, n, seed, [Seen(seed * 10 + s) for s in range(n)])
        assert some.actions_taken == whole.actions_taken and len(some.actions_taken) > 100
    assert {frozenset(keys) for keys in seen} == {HeuristicAgent(0).observation_fields}  # (compiled: an instance)
