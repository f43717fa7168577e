"""World.sample's `weigh`: the unseen identities dealt by a search bot's belief, for the cost of shuffles.

A search bot that infers something of the others' identities (the colours they took, what its 试探 showed) used to
deal a sample, look at its identities and deal again, each try a replay of the whole game. `weigh` moves the trying
into the re-deal (skills.redeal): the identities are shuffled again until a draw keeps the deal. The sample stays a
function of what the seat saw and of the generator (and of the bot's own weigh), and re-plays exactly.
"""

from __future__ import annotations

import random

from game_states import midgame

from interpreter.engine.step import GameState


def _unseen(state: GameState, me: int) -> int:
    known = state.observation(me)["known_identities"]
    return next(s for s in range(state.n_players) if s != me and str(s) not in known)


def test_weigh_deals_only_what_it_keeps_and_the_seat_sees_the_same(content):
    state = midgame(content, 5, 4, 40)
    me = state.current_player()
    world = state.world(me)
    other = _unseen(state, me)
    dealt = {world.sample(random.Random(i))._game.players[other].identity.id for i in range(40)}
    assert len(dealt) >= 2  # (the uniform re-deal gives that seat more than one identity)
    wanted = sorted(dealt)[0]
    seen: list[str] = []

    def weigh(deal: dict[int, str]) -> float:
        seen.append(deal[other])
        assert me not in deal  # only the seats it has not seen are dealt again
        return 1.0 if deal[other] == wanted else 0.0

    for i in range(20):
        sample = world.sample(random.Random(i), weigh)
        assert sample._game.players[other].identity.id == wanted
        assert sample.observation(me) == state.observation(me)  # its seat sees what it saw
        assert sample.legal_actions() == state.legal_actions()
        again = sample.clone()  # re-played with the same weigh: the very same sample
        assert [p.identity for p in again._game.players] == [p.identity for p in sample._game.players]
        assert [again.observation(s) for s in range(5)] == [sample.observation(s) for s in range(5)]
        sample.close()
        again.close()
    assert len(set(seen)) >= 2  # it was asked about deals it did not keep


def test_without_weigh_or_keeping_all_the_sample_is_a_uniform_re_deal(content):
    state = midgame(content, 5, 6, 40)
    me = state.current_player()
    world = state.world(me)
    other = _unseen(state, me)
    plain = [world.sample(random.Random(i))._game.players[other].identity.id for i in range(30)]
    assert plain == [world.sample(random.Random(i), None)._game.players[other].identity.id for i in range(30)]
    kept = [world.sample(random.Random(i), lambda _deal: 1.0)._game.players[other].identity.id for i in range(30)]
    assert len(set(kept)) >= 2  # one draw kept at once: no identity favoured
