"""The plans card_options reads a card type's uses from (engine/state.py type_plans): a shared use's bit is its own
within a content set, and a process that loads content again and again reuses the bits instead of growing them."""

from __future__ import annotations

from interpreter.content import loader
from interpreter.content.loader import BUNDLED_CONTENT, load_content
from interpreter.engine.state import type_plans


def _bits(content) -> dict[tuple[str, int, int], int]:
    out = {}
    for ctype in content.card_types.values():
        _, table = type_plans(ctype)
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


def test_loading_again_reuses_the_bits(monkeypatch):
    monkeypatch.setattr(loader.BUILDS, "_memo", {})  # no object built once reused: each load builds its own
    one = load_content([BUNDLED_CONTENT])
    monkeypatch.setattr(loader.BUILDS, "_memo", {})
    two = load_content([BUNDLED_CONTENT])
    assert all(one.card_types[i] is not two.card_types[i] for i in one.card_types)  # new objects, the same uses
    assert _bits(two) == _bits(one)


def test_threads_meeting_a_new_idle_point_at_once_get_one_number(monkeypatch):
    """Search bots on a server's worker threads may meet an idle point first at the same time: one number for it."""
    import threading
    import time

    from interpreter.engine import state

    class Slow(dict):  # widens the window between looking a name up and giving it a number
        def get(self, key, default=None):
            found = super().get(key, default)
            time.sleep(0.002)
            return found

    monkeypatch.setattr(state, "TIMING_INDEX", Slow())
    got: list[int] = []
    threads = [threading.Thread(target=lambda: got.append(state.timing_index("a_new_idle_point"))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [0] * 8 and dict(state.TIMING_INDEX) == {"a_new_idle_point": 0}
