"""The collector set up for a batch (sim.batch_gc): what was loaded frozen, young collections rarer, a finished
game collected by after_game, and the process's collector as it was afterwards; the games played under it are the
games played without it."""

import gc
import weakref

from interpreter.agents import RandomAgent
from interpreter.engine.step import drive
from interpreter.sim import BATCH_GC_THRESHOLD, after_game, batch_gc


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


def test_after_game_collects_the_finished_game(content):
    with batch_gc():
        game = drive(content, 5, 3, [RandomAgent(300 + i) for i in range(5)])
        seen = weakref.ref(game)
        del game
        assert seen() is not None  # its reference cycles keep it: only the collector frees it
        after_game()
        assert seen() is None


def test_after_game_runs_the_older_collections_too(content):
    """Automatic collections hardly run in a batch, so after_game runs the older generations on CPython's schedule:
    a game kept alive past a young collection (promoted) is freed all the same."""
    with batch_gc():
        game = drive(content, 5, 4, [RandomAgent(400 + i) for i in range(5)])
        seen = weakref.ref(game)
        after_game()  # still held: promoted out of the young generation
        del game
        _, every1, every2 = gc.get_threshold()
        for _ in range((every1 + 1) * (every2 + 1)):  # (promoted once or twice: to the oldest generation at worst)
            after_game()
        assert seen() is None
