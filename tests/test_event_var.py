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
