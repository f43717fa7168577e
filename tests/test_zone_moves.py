"""Moves within the zones the rules declare, and reading them (issue 26 item 1), with the made-up fork
tests/fixtures/zones_pack: put_in_zone onto a zone's top or under its bottom, a reorder by putting a zone's
cards back, overflow from the bottom, and the in_zone condition."""

from __future__ import annotations

from pathlib import Path

import interpreter.engine.primitives  # noqa: F401  (registers what each primitive does)
from conftest import S, Seat
from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.engine.state import DISCARD
from interpreter.engine.table import build, card
from interpreter.language.builtins import BUILTINS
from interpreter.language.runtime import Ctx

PACK = Path(__file__).parent / "fixtures" / "zones_pack"


def _game():
    content = load_cached([BUNDLED_CONTENT, PACK])
    seats = [S("red", hand=(27, 28, 29, 30)), S("blue", hand=(31,))]
    return build(content, seats, [Seat(()), Seat(())], deck_top=[60, 61, 62, 63])


def _call(g, name, *args):
    return BUILTINS[name].impl(Ctx(g, g.players[0]), *args)


def _cards(g, *uids):
    return [card(g, u) for u in uids]


def _listed(g, zone, p=None):
    return [c.uid for c in _call(g, "zone_cards", zone, p)]


def test_a_stack_takes_cards_on_its_top_or_under_its_bottom():
    g = _game()
    p0 = g.players[0]
    assert _call(g, "put_in_zone", _cards(g, 27, 28), "私藏", p0, False)
    assert _listed(g, "私藏", p0) == [28, 27]  # a stack: the last put there comes out first
    assert _call(g, "put_in_zone", _cards(g, 29), "私藏", p0, True)
    assert _listed(g, "私藏", p0) == [28, 27, 29]  # under the bottom: it comes out last
    assert _call(g, "zone_top", "私藏", p0).uid == 28


def test_putting_a_zones_cards_back_reorders_it():
    g = _game()
    p0 = g.players[0]
    _call(g, "put_in_zone", _cards(g, 27, 28, 29), "私藏", p0, False)
    assert _listed(g, "私藏", p0) == [29, 28, 27]
    _call(g, "put_in_zone", _cards(g, 29, 28), "私藏", p0, False)  # the two on top, put back: 28 now on top
    assert _listed(g, "私藏", p0) == [28, 29, 27]
    assert g.zones.knows(0, 27) and not g.zones.knows(1, 27)  # a reorder shows nobody anything
    g.check_invariants()


def test_a_queue_overflows_from_its_bottom_even_a_card_just_put_there():
    g = _game()
    _call(g, "put_in_zone", _cards(g, 27, 28, 29), "仁区", None, False)
    assert _listed(g, "仁区") == [27, 28, 29]  # a queue: its bottom (the oldest) first
    _call(g, "put_in_zone", _cards(g, 30), "仁区", None, False)
    assert _listed(g, "仁区") == [28, 29, 30] and card(g, 27).zone == DISCARD
    _call(g, "put_in_zone", _cards(g, 31), "仁区", None, True)  # under the bottom of a full zone: out at once
    assert _listed(g, "仁区") == [28, 29, 30] and card(g, 31).zone == DISCARD
    g.check_invariants()


def test_in_zone_tells_where_a_card_is():
    g = _game()
    p0, p1 = g.players
    _call(g, "put_in_zone", _cards(g, 27), "私藏", p0, False)
    _call(g, "put_in_zone", _cards(g, 28), "仁区", None, False)
    assert _call(g, "in_zone", card(g, 27), "私藏", p0) is True
    assert _call(g, "in_zone", card(g, 27), "私藏", None) is True  # anyone's
    assert _call(g, "in_zone", card(g, 27), "私藏", p1) is False
    assert _call(g, "in_zone", card(g, 27), "仁区", None) is False
    assert _call(g, "in_zone", card(g, 28), "仁区", None) is True
    assert _call(g, "in_zone", card(g, 29), "私藏", p0) is False  # a hand card
    assert _call(g, "in_zone", None, "仁区", None) is False
