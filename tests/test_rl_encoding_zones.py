"""The RL encoding of the zones the rules declare (interpreter/rl/encoding.py, pieces z:<name> and zn:<name>):
a seat's vector holds the faces its observation shows and how many cards each zone holds, never the face of a
card it may not see; a content without declared zones keeps the base vector."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import S, Seat
from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.engine.observation import observe
from interpreter.engine.table import build, card

np = pytest.importorskip("numpy")
encoding = pytest.importorskip("interpreter.rl.encoding")

PACK = Path(__file__).parent / "fixtures" / "zones_pack"


def test_a_private_zone_is_encoded_by_its_visibility():
    content = load_cached([BUNDLED_CONTENT, PACK])
    g = build(content, [S("red", hand=(27, 28)), S("blue", hand=(31,))], [Seat(()), Seat(())], deck_top=[60])
    dz = g.declared_zones
    dz.put_in_zone([card(g, 27)], dz.declared_zone("私藏"), g.players[0])
    dz.put_in_zone([card(g, 28)], dz.declared_zone("仁区"), None)
    enc = encoding.Encoder(content, 2)
    col = {uid: i for i, uid in enumerate(enc.card_ids)}
    mine, theirs = (enc.views(enc.encode(observe(g, s))) for s in (0, 1))
    assert mine["z:私藏"][0, col[27]] == 1 and mine["zn:私藏"][0] == 1
    assert theirs["z:私藏"].sum() == 0 and theirs["zn:私藏"][0] == 1  # P1: how many, not which
    for v in (mine, theirs):
        assert v["z:仁区"][col[28]] == 1 and v["zn:仁区"][0] == 1  # face up: everyone
        assert v["z:蓄谋区"].sum() == 0 and v["zn:蓄谋区"].sum() == 0


def test_the_base_game_has_no_zone_pieces():
    enc = encoding.Encoder(load_cached([BUNDLED_CONTENT]), 5)
    assert not enc.zones and not any(name.startswith("z") for name, *_ in enc.pieces)
