"""The rule numbers a fork may change in rules.yaml (collect_count, death_count) are the engine's only numbers."""

from __future__ import annotations

import copy
import dataclasses

from interpreter.agents.random_agent import RandomAgent
from interpreter.content.loader import load_cached
from interpreter.engine.game import Game


class Spy(Game):
    """A game that notes how many black intel a player has when he becomes dying."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.black_when_dying: list[int] = []

    def emit(self, kind, to=None, secret=(), **data):
        if kind == "dying":
            self.black_when_dying.append(self.players[data["seat"]].counts[4])
        super().emit(kind, to, secret, **data)


def _content(**numbers):
    content = copy.copy(load_cached())
    content.rules = dataclasses.replace(content.rules, **numbers)
    return content


def _games(content, n_games=25):
    for seed in range(1, n_games + 1):
        g = Spy(content, 5, seed, [RandomAgent(seed * 10 + i) for i in range(5)])
        g.run()
        yield g


def test_the_bundled_rules_say_three():
    rules = load_cached().rules
    assert (rules.collect_count, rules.death_count) == (3, 3)


def test_death_count_is_how_many_black_intel_make_a_player_dying():
    for death_count in (2, 3):
        seen = [b for g in _games(_content(death_count=death_count)) for b in g.black_when_dying]
        assert seen, f"no one became dying with death_count={death_count}"
        assert min(seen) == death_count


def test_collect_count_is_where_the_collect_checks_start():
    """With collect_count 4, three red or blue intel no longer end the game, though the conditions say >= 3."""
    wins = 0
    for g in _games(_content(collect_count=4)):
        assert g.result is not None
        if g.result.reason == "collect":
            wins += 1
            assert max(max(p.counts[1], p.counts[2]) for p in g.players) >= 4
    assert wins
