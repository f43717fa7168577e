"""A resample deals a hidden face only among the cards of its pool (Zones.pools, deal.py): the copies a declared
zone's `start:` selects (examples/extra_pile's 额外牌堆: every 【澄清】) are publicly distinct cards, so what everyone
knows of a card's pool constrains its deal. Before, the faces of the extra pile's face-down cards were dealt with
the deck's and the hands': a sample could put a 【澄清】 in the deck and a 【威逼】 in the extra pile, a state no seat
could be in."""

from __future__ import annotations

import random
from pathlib import Path

from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.engine.state import DECLARED_ZONE
from interpreter.engine.step import GameState
from redeal import dealt_for

EXTRA_PILE = Path(__file__).parent.parent / "examples" / "extra_pile"


def _pools(state: GameState) -> list[int]:
    """Each card place's pool (by the face it holds now): the zone whose `start:` selects its copy, or -1."""
    z = state._game.zones
    return [z.pools.get(c.uid, -1) for c in state._game.cards]


def test_a_resample_deals_each_face_within_its_pool():
    content = load_cached([BUNDLED_CONTENT, EXTRA_PILE])
    looked = mixed = moved = 0
    for seed in range(2):  # about 110 resamples, each with faces of two pools hidden
        state, rng = GameState(content, 5, seed), random.Random(seed)
        z = state._game.zones
        assert z.pools and all(c.type.id == "cheng_qing" for c in state._game.cards if c.uid in z.pools)
        n = 0
        while not state.is_terminal() and n < 300:
            n += 1
            state.apply_action(rng.choice(state.legal_actions()))
            if n % 14:
                continue
            g = state._game
            for s in range(5):
                hidden = [c for c in g.cards if not g.zones.card_visible(c, s)]
                pools = {g.zones.pools.get(c.uid, -1) for c in hidden}
                if len(pools) < 2:
                    continue  # nothing to mix up here
                mixed += 1
                before = _pools(state)
                sample = dealt_for(state, s, random.Random(rng.getrandbits(64)))
                looked += 1
                assert _pools(sample) == before  # every place keeps a face of its own pool
                sz = sample._game.zones
                for (zone, _owner), pile in sz.piles.items():
                    if zone >= DECLARED_ZONE and sz.zone_decls[zone - DECLARED_ZONE].start is not None:
                        assert all(c.type.id == "cheng_qing" for c in pile)
                uids = [c.uid for c in g.cards]
                moved += uids != [c.uid for c in sample._game.cards]
    assert looked > 50 and mixed == looked
    assert moved > looked // 2  # the faces are dealt again all the same (within their pools)
