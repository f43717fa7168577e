"""The content set's index (engine/index.py): what the engine derives once from a content set and reads in every
game is kept in one declared object, never written onto the content objects, and numbered per content set."""

from __future__ import annotations

import copy
import dataclasses
import gc
import random
import threading
import time

from interpreter import sim
from interpreter.agents import RandomAgent
from interpreter.content import loader
from interpreter.content.loader import BUNDLED_CONTENT, load_content
from interpreter.engine import index as index_module
from interpreter.engine.index import ContentIndex, index_of


def _bits(content) -> dict[tuple[str, int, int], int]:
    out = {}
    idx = index_of(content)
    for ctype in content.card_types.values():
        _, table = idx.plans(ctype)
        for ti, plans in enumerate(table):
            for k, (_use, _cond, _target, bit) in enumerate(plans):
                if bit:
                    out[(ctype.id, ti, k)] = bit
    return out


def test_shared_uses_have_distinct_single_bits_within_a_content_set():
    bits = _bits(load_content([BUNDLED_CONTENT]))
    assert bits  # the bundled cards have uses checked once for all copies
    assert all(b & (b - 1) == 0 for b in bits.values())  # one bit each
    assert len(set(bits.values())) == len(bits)  # none shared: a question keeps each use's answer apart


def test_each_content_set_numbers_its_own(monkeypatch):
    """Two loads of the same files: separate indexes, the same numbers and bits (nothing grows process-wide)."""
    monkeypatch.setattr(loader.BUILDS, "_memo", {})  # no object built once reused: each load builds its own
    one = load_content([BUNDLED_CONTENT])
    monkeypatch.setattr(loader.BUILDS, "_memo", {})
    two = load_content([BUNDLED_CONTENT])
    assert all(one.card_types[i] is not two.card_types[i] for i in one.card_types)  # new objects, the same uses
    assert index_of(one) is not index_of(two)
    assert _bits(two) == _bits(one)
    assert index_of(two).timings == index_of(one).timings


def _content_state(content) -> list:
    """Every attribute of the content set and of every object it holds, by path (what a game could write on)."""
    seen: set[int] = set()
    out: list = []

    def walk(x, path: str) -> None:
        if id(x) in seen or isinstance(x, (str, int, float, bool, type(None), bytes)):
            return
        seen.add(id(x))
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            names = sorted(vars(x)) if hasattr(x, "__dict__") else [f.name for f in dataclasses.fields(x)]
            out.append((path, type(x).__name__, tuple(names)))
            for n in names:
                walk(getattr(x, n), f"{path}.{n}")
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(v, f"{path}[{k!r}]")
        elif isinstance(x, (list, tuple, set, frozenset)):
            for i, v in enumerate(x):
                walk(v, f"{path}[{i}]")

    walk(content, "content")
    return out


def test_games_write_nothing_onto_the_content_objects(monkeypatch):
    """Playing games (random and heuristic seats, a replay, a resample) adds no attribute to the content set or to
    any object in it: what the engine derives is in the index. Every content object's attributes are its declared
    fields."""
    monkeypatch.setattr(loader.BUILDS, "_memo", {})
    content = load_content([BUNDLED_CONTENT])
    before = _content_state(content)
    for _, _, names in before:
        assert all(not n.startswith("_") for n in names), names  # no private attribute on a content object
    sim.simulate(content, 4, 30, seed=5, jobs=1)
    for seed in range(6):
        sim.drive(content, 3 + seed, seed, [RandomAgent(seed * 10 + i) for i in range(3 + seed)], record=True)
    from interpreter.agents.heuristic import HeuristicAgent
    from interpreter.engine.step import GameState

    sim.drive(content, 5, 9, [HeuristicAgent(i) for i in range(5)])
    state = GameState(content, 5, 3)
    for _ in range(40):
        state.apply_action(state.legal_actions()[0])
    state.resample(state.current_player(), random.Random(1))
    assert _content_state(content) == before


def test_a_changed_copy_gets_its_own_index():
    """A copy of a content set (a tool's edited copy, bench/peers.py's one without roles) is another set: its own
    index, and its games see its own roles and deck."""
    content = load_content([BUNDLED_CONTENT])
    bare = copy.copy(content)
    bare.roles = {}
    assert index_of(bare) is not index_of(content)
    g = sim.drive(bare, 5, 2, [RandomAgent(i) for i in range(5)])
    assert all(p.role is None for p in g.players)
    assert index_of(bare).roles_in_order(bare) == []
    assert len(index_of(content).roles_in_order(content)) == len(content.roles)


def test_an_index_lives_as_long_as_its_content_set():
    content = load_content([BUNDLED_CONTENT])
    key = id(content)
    idx = index_of(content)
    assert index_module._REGISTRY[key] is idx
    del content
    gc.collect()
    assert index_module._REGISTRY.get(key) is not idx


def test_threads_meeting_a_new_idle_point_at_once_get_one_number():
    """Search bots on a server's worker threads may meet an idle point first at the same time: one number for it."""
    idx = ContentIndex(load_content([BUNDLED_CONTENT]))

    class Slow(dict):  # widens the window between looking a name up and giving it a number
        def get(self, key, default=None):
            found = super().get(key, default)
            time.sleep(0.002)
            return found

    idx.timings = Slow()
    got: list[int] = []
    threads = [threading.Thread(target=lambda: got.append(idx.timing("a_new_idle_point"))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [0] * 8 and dict(idx.timings) == {"a_new_idle_point": 0}
