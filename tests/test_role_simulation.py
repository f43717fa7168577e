"""Random games with the bundled roles dealt: the issue's 2,000-game check.

2,000 games spread over 2 to 10 players, with random (seeded) agents and the
16 bundled roles dealt into them. Every game must end (no crash, no stuck
game: the engine raises on a runaway loop or too many decisions), every card
must be in exactly one zone at the end, and every skill of every bundled
role must have been used somewhere — a skill that never fires in 2,000
games is a sign its condition can never hold.
"""

from __future__ import annotations

from collections import Counter

import pytest

from interpreter.content.loader import load_cached
from interpreter.engine.game import Game
from interpreter.sim import simulate

GAMES = 2000
COUNTS = range(2, 11)

pytestmark = pytest.mark.slow  # about 10 s; CI runs it (pytest -q -n auto), the everyday run skips it (-m "not slow")


@pytest.fixture(scope="module")
def batch():
    content = load_cached()
    summaries = {}
    per = GAMES // len(COUNTS)
    Game.CHECK_EACH_TURN = True  # the zone invariant at every turn start, not only at the end
    try:
        for i, n in enumerate(COUNTS):
            games = per + (1 if i < GAMES % len(COUNTS) else 0)
            summaries[n] = simulate(content, n, games, seed=20261121 + n)
    finally:
        Game.CHECK_EACH_TURN = False
    return content, summaries


def test_two_thousand_games_end_cleanly(batch):
    _, summaries = batch
    assert sum(s.games + len(s.failures) for s in summaries.values()) == GAMES
    failures = [(n, f) for n, s in summaries.items() for f in s.failures]
    assert not failures, failures
    reasons = Counter()
    for s in summaries.values():
        reasons.update(s.reasons)
    assert reasons["turn_limit"] == 0, reasons  # no game ran out of turns without a result


def test_every_bundled_role_is_dealt_and_every_skill_is_used(batch):
    content, summaries = batch
    assert len(content.roles) >= 16
    dealt, used = Counter(), Counter()
    for s in summaries.values():
        dealt.update(s.role_dealt)
        used.update(s.skill_uses)
    for role in content.roles.values():
        assert dealt[role.label()] > 0, f"{role.label()} was never in play"
        for name in {sk.name for sk in role.skills}:
            assert used[f"{role.label()}·{name}"] > 0, f"{role.label()}·{name} never fired in {GAMES} games"
