"""`event` (which trigger fired) is the same in a game that keeps no log as in one that does.

It was read from the log record's kind, which only a recorded game (scenarios, --log) writes: in
batch play a skill testing `event` never fired (王富贵·江湖令 was never used in a 20,000-game soak).
"""

from __future__ import annotations

from pathlib import Path

from interpreter.agents import RandomAgent
from interpreter.content.loader import load_cached
from interpreter.content.packs import resolve_packs
from interpreter.engine.game import Game

PACK = Path(__file__).parent / "fixtures" / "event_pack"


def _uses(record: bool) -> tuple[int, int]:
    content = load_cached(resolve_packs([PACK], ["none"]))
    dealt = uses = 0
    for seed in range(1, 400):
        g = Game(content, 10, seed, [RandomAgent(seed * 100 + i) for i in range(10)], record=record)
        g.run()
        if any(p.role is not None and p.role.id == "ce_shi_shi_ji" for p in g.players):
            dealt += 1
            uses += g.skills.skill_uses.get(("ce_shi_shi_ji", "两次"), 0)
        if dealt >= 3:
            break
    return dealt, uses


def test_event_is_known_without_a_log():
    dealt, uses = _uses(record=False)
    assert dealt == 3 and uses > 0
    assert _uses(record=True) == (dealt, uses)  # the same games, the same uses


def test_an_event_nobody_hears_is_counted_all_the_same():
    """The engine skips building an event that no dealt skill reacts to when no log is kept and nobody overrides
    emit (core.unheard); it still counts it as a change (what the collect check's stamp reads). A Game whose emit
    is overridden (a spy) gets every event built and counts the same changes, and the games are the same."""
    content = load_cached()
    heard: list[str] = []

    class Spied(Game):
        def emit(self, kind, to=None, secret=(), **data):
            heard.append(kind)
            super().emit(kind, to, secret, **data)

    for seed in range(6):
        quiet = Game(content, 5, seed, [RandomAgent(seed * 10 + i) for i in range(5)])
        quiet.run()
        spied = Spied(content, 5, seed, [RandomAgent(seed * 10 + i) for i in range(5)])
        spied.run()
        assert quiet.changes == spied.changes > 0 and not quiet.log
        assert quiet.decision_log == spied.decision_log and str(quiet.result) == str(spied.result)
    assert {"card_used", "card_resolved", "turn_start", "intel_arrives"} <= set(heard)
