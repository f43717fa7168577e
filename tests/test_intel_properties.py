"""Hooks on the intel's properties (docs/language.md "The intel's properties"): protect_intel binds a
card ban to the pending intel, not to the turn; lock_intel locks an intel whose card has no lock.
The made-up roles are in tests/fixtures/intel_pack; the scenarios fixture_*intel* play them."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Seat
from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.engine.observation import history
from interpreter.engine.table import build
from interpreter.language.builtins import BUILTINS
from interpreter.language.runtime import Ctx

PACK = Path(__file__).parent / "fixtures" / "intel_pack"
RED_ID, BLUE_ID = "qian_fu_zhan_xian", "te_gong_ji_guan"


@pytest.fixture(scope="module")
def content():
    return load_cached([BUNDLED_CONTENT, PACK])


def _game(content):
    return build(
        content,
        [dict(identity=RED_ID, hand=[27, 28]), dict(identity=BLUE_ID, hand=[92]), dict(identity=BLUE_ID)],
        [Seat(()), Seat(()), Seat(())],
        deck_top=[31, 32, 33],
    )


def _wu_dao_uses(g):
    p1 = g.players[1]
    card = p1.hand[0]
    return g.card_use.legal_uses(p1, card, card.type, "contest")


def test_protect_intel_lasts_while_that_intel_is_pending_and_no_longer(content):
    g = _game(content)
    p0 = g.players[0]
    protect = BUILTINS["protect_intel"].impl
    wu_dao = BUILTINS["card_names"].impl(Ctx(g, p0))
    names = [n for n in wu_dao if n.name == "误导"]
    assert protect(Ctx(g, p0), names) is False  # no intel pending: nothing to bind it to
    g.flow.send_intel(p0, p0.hand[0], face_up=False)
    assert _wu_dao_uses(g)  # unprotected, 误导 may be used on it in the 争夺阶段
    assert protect(Ctx(g, p0), names) is True
    assert _wu_dao_uses(g) == []  # from hand
    virtual = content.card_types["wu_dao"]
    assert g.card_use.legal_uses(g.players[1], None, virtual, "contest") == []  # and virtually (视为使用)
    g.zones.discard_cards([g.zones.pending])  # the intel is gone: the property goes with it
    assert _wu_dao_uses(g)
    assert [r["cards"] for r in g.log if r.get("e") == "intel_protected"] == [["wu_dao"]]


def test_protect_intel_binds_to_the_intel_not_the_turn(content):
    g = _game(content)
    p0 = g.players[0]
    g.flow.send_intel(p0, p0.hand[0], face_up=False)
    g.card_use.protect_intel(["wu_dao"])
    first = g.zones.pending
    g.zones.discard_cards([first])
    g.flow.send_intel(p0, p0.hand[0], face_up=False)  # another intel the same turn (密令, 调包 …) is not protected
    assert _wu_dao_uses(g)


def test_lock_intel_locks_once_and_not_the_sender(content):
    g = _game(content)
    p0, p1, p2 = g.players
    lock = BUILTINS["lock_intel"].impl
    assert lock(Ctx(g, p0), p1) is False  # no intel on its way
    g.flow.send_intel(p0, p0.hand[0], face_up=False)
    assert BUILTINS["pending_lock"].impl(Ctx(g, p0)) is None
    assert lock(Ctx(g, p0), None) is False  # declined
    assert lock(Ctx(g, p0), p0) is False  # not the sender
    assert lock(Ctx(g, p0), p1) is True
    assert BUILTINS["pending_lock"].impl(Ctx(g, p0)) is p1
    assert lock(Ctx(g, p0), p2) is False  # the lock stays
    assert [(r["seat"], r["target"]) for r in g.log if r.get("e") == "lock_set"] == [(0, 1)]


def test_set_receivers_binds_who_may_accept_to_the_intel(content):
    g = build(
        content,
        [dict(identity=RED_ID, hand=[30, 28]), dict(identity=BLUE_ID), dict(identity=BLUE_ID)],
        [Seat(()), Seat(["decline"]), Seat(["accept", "decline", "accept"])],
        deck_top=[31, 32, 33],
    )
    p0, p1, p2 = g.players
    g.trace = []
    assert g.flow.set_receivers([p2], [p1]) is False  # no intel pending
    g.flow.send_intel(p0, p0.hand[0], face_up=False)
    assert g.flow.set_receivers([p2], [p1]) is True
    t = g.flow.transit
    assert g.flow.receive_choice(p1, t) is False
    assert g.flow.receive_choice(p2, t) is True
    asked = [(seat, labels) for kind, seat, dkind, _, labels in (e for e in g.trace if e[0] == "ask")]
    assert asked == [(1, ["decline"]), (2, ["accept"])]  # P1 may not accept, P2 may not decline
    g.zones.discard_cards([g.zones.pending])  # the intel is gone; another one is not bound
    g.flow.send_intel(p0, p0.hand[0], face_up=False)
    assert g.flow.receive_choice(p2, g.flow.transit) is False  # he may decline this one
    assert [r["must"] for r in g.log if r.get("e") == "receivers_set"] == [[2]]


def test_secret_set_receivers_tells_each_bound_player_only_his_own_binding(content):
    g = build(
        content,
        [dict(identity=RED_ID, hand=[30, 28]), dict(identity=BLUE_ID), dict(identity=BLUE_ID), dict(identity=RED_ID)],
        [Seat(()), Seat(["decline"]), Seat(["accept"]), Seat(())],
        deck_top=[31, 32, 33],
    )
    p0, p1, p2, _p3 = g.players
    g.trace = []
    g.flow.send_intel(p0, p0.hand[0], face_up=False)
    assert BUILTINS["set_receivers"].impl(Ctx(g, p0), [p2], [p1], True) is True
    t = g.flow.transit
    assert g.flow.receive_choice(p1, t) is False
    assert g.flow.receive_choice(p2, t) is True
    asked = [(seat, labels) for kind, seat, dkind, _, labels in (e for e in g.trace if e[0] == "ask")]
    assert asked == [(1, ["decline"]), (2, ["accept"])]  # bound as the public form binds
    records = [r for r in g.log if r.get("e") == "receivers_set"]
    assert [(r["must"], r["cannot"], r["to"]) for r in records] == [([], [1], [1]), ([2], [], [2])]
    for seat in (None, 0, 1, 2, 3):  # each seat's copy of the log holds its own binding only
        seen = [r for r in history(g, seat) if r.get("e") == "receivers_set"]
        assert [(r["must"], r["cannot"]) for r in seen] == {1: [((), (1,))], 2: [((2,), ())]}.get(seat, [])
