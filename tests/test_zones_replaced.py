"""Zones.note_replaced / current: which card stands in an intel's place after 代替 (replace_intel).

Two intel swapped back and forth made a cycle in the map of replacements, and the trigger loop,
following it to the card in place, spun forever (game seed 10336504 at 2 players, found by the soak).
"""

from __future__ import annotations

from interpreter.agents import RandomAgent
from interpreter.content.loader import load_cached
from interpreter.engine.game import Game
from interpreter.engine.state import Card


def _zones():
    content = load_cached()
    g = Game(content, 2, 1, [RandomAgent(0), RandomAgent(1)])
    ctype = next(iter(content.card_types.values()))
    return g.zones, [Card(uid, ctype, 1, "left", False, {}, g.index.plans(ctype)) for uid in (1, 2, 3)]


def test_a_swap_back_leaves_no_cycle():
    zones, (a, b, c) = _zones()
    zones.note_replaced(a, b)
    assert zones.current(a) is b and zones.current(b) is b
    zones.note_replaced(b, a)  # swapped back: a is in the place again
    assert zones.current(a) is a and zones.current(b) is a
    zones.note_replaced(a, c)
    zones.note_replaced(c, b)
    assert zones.current(a) is b and zones.current(c) is b and zones.current(b) is b


def test_a_chain_follows_to_the_card_in_place():
    zones, (a, b, c) = _zones()
    zones.note_replaced(a, b)
    zones.note_replaced(b, c)
    assert zones.current(a) is c and zones.current(None) is None
    zones.note_replaced(a, a)  # nothing took its place
    assert zones.current(a) is c
