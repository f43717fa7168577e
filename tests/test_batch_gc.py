"""The collector set up for a batch (sim.batch_gc): what was loaded frozen, young collections rarer, and the
process's collector as it was afterwards; the games played under it are the games played without it."""

import gc

from interpreter.agents import RandomAgent
from interpreter.engine.step import drive
from interpreter.sim import BATCH_GC_THRESHOLD, batch_gc


def test_batch_gc_sets_up_the_collector_and_puts_it_back():
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    with batch_gc():
        assert gc.get_threshold() == (BATCH_GC_THRESHOLD, *before[1:])
        assert gc.get_freeze_count() > frozen
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_batch_gc_leaves_games_as_they_are(content):
    def play():
        out = []
        for s in range(3):
            g = drive(content, 5, s, [RandomAgent(s * 100 + i) for i in range(5)])
            out.append((g.decision_log, g.actions_taken, g.digest_text()))
        return out

    plain = play()
    with batch_gc():
        tuned = play()
    assert tuned == plain
