"""The engine's shuffle draws exactly what random.Random.shuffle draws (same seed: the same order, the same
generator state after), so games dealt with it are the games dealt before it."""

import random

from interpreter.engine.state import shuffle


def test_the_engine_shuffle_is_random_shuffle():
    for seed in range(40):
        for n in (0, 1, 2, 3, 7, 61, 118, 129):
            a, b = random.Random(seed), random.Random(seed)
            x, y = list(range(n)), list(range(n))
            a.shuffle(x)
            shuffle(b, y)
            assert x == y
            assert a.getstate() == b.getstate()


class Loaded(random.Random):
    """A generator of another class: its own shuffle is used."""

    def shuffle(self, x):
        x.reverse()


def test_another_generator_keeps_its_own_shuffle():
    x = [1, 2, 3]
    shuffle(Loaded(0), x)
    assert x == [3, 2, 1]
