"""(c) Nothing reachable from a sample or a World names the true seed.

A sample (GameState.resample, World.sample) used to be re-played from the game's own seed: it carried it in
``sample.seed``, in its game's referee record (``setup``: the seed and the whole deal) and in ``World._seed``.
Now the recipe that re-plays it stays in the referee's ledger (engine/step.py) under a key the sample holds, and a
sample's seed is the seed of its own chance, drawn in its re-deal. The walk below follows every object a sample or
a World refers to (gc.get_referents, and a paused engine's frames by their locals), except the program itself —
modules, classes, functions and code, and through them the module's globals, where the ledger lives (in process a
bot is trusted code: docs/step-api.md, section 5).
"""

from __future__ import annotations

import gc
import random
import types

from greenlet import greenlet

from interpreter.engine.step import GameState

SEED = 2**100 + 12_345  # far from every other number a game holds (seats, counts, deck ids, turns)
_PROGRAM = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)


def holders_of(root: object, value: int, bound: int = 2_000_000) -> list[str]:
    """Where `value` is found from `root` (as an int, or in a string), as the types of the objects on the way."""
    text = str(value)
    seen: set[int] = set()
    stack: list[tuple[object, tuple[str, ...]]] = [(root, ())]
    found: list[str] = []
    while stack and len(seen) < bound:
        obj, path = stack.pop()
        if id(obj) in seen or isinstance(obj, _PROGRAM):
            continue
        seen.add(id(obj))
        if (type(obj) is int and obj == value) or (type(obj) is str and text in obj):
            found.append(" > ".join(path))
            continue
        where = (*path[-6:], type(obj).__name__)
        if isinstance(obj, types.FrameType):
            refs: list[object] = [*obj.f_locals.values(), obj.f_back]
        elif isinstance(obj, greenlet):
            refs = [obj.gr_frame, obj.parent]
        else:
            refs = gc.get_referents(obj)
        stack.extend((r, where) for r in refs if r is not None)
    assert len(seen) < bound, "the walk did not finish"
    return found


def _midgame(content, actions: int) -> GameState:
    state, rng = GameState(content, 5, SEED), random.Random(3)
    while not state.is_terminal() and len(state.history()) < actions:
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    return state


def test_the_walk_finds_the_seed_where_it_is(content):
    """The control: the real game holds its seed (the referee's), and the walk finds it there."""
    state = _midgame(content, 20)
    assert holders_of(state, SEED)
    assert holders_of(state._game.log, SEED)  # the referee's record of the deal


def test_no_sample_and_no_world_names_the_true_seed(content):
    state = _midgame(content, 40)
    me = state.current_player()
    world = state.world(me)
    sample = state.resample(me, random.Random(1))
    from_world = world.sample(random.Random(2))
    for x in (world, sample, from_world):
        assert holders_of(x, SEED) == []
    assert sample.seed != SEED and from_world.seed != SEED
    assert not any(rec.get("e") == "setup" for rec in sample._game.log)
    # played on, cloned, sampled again: still nothing
    rng = random.Random(4)
    for _ in range(15):
        if sample.is_terminal():
            break
        sample.apply_action(rng.choice(sample.legal_actions()))
    now = sample.current_player() if not sample.is_terminal() else me  # (a sample is dealt for the seat to act)
    again = sample.resample(now, random.Random(5))
    for x in (sample.clone(), again, sample.world(now), again.world(now).sample(random.Random(6))):
        assert holders_of(x, SEED) == []


def test_a_sample_clones_exactly_and_plays_on_alike(content):
    """A sample is re-played from the ledger, then by its own actions: its clone is the same game (every hidden
    thing, every seat's observation, the same future)."""
    from tests.test_resample_exact import hidden_content

    state = _midgame(content, 30)
    me = state.current_player()
    sample = state.resample(me, random.Random(7))
    assert sample.observation(me) == state.observation(me)
    rng = random.Random(8)
    for _ in range(10):
        if sample.is_terminal():
            break
        sample.apply_action(rng.choice(sample.legal_actions()))
    assert sample.history() and len(sample.history()) <= 10  # its own actions, not the game's before it
    copy = sample.clone()
    assert copy.seed == sample.seed
    assert hidden_content(copy) == hidden_content(sample)
    assert [copy.observation(s) for s in range(5)] == [sample.observation(s) for s in range(5)]
    while not sample.is_terminal():
        action = rng.choice(sample.legal_actions())
        sample.apply_action(action)
        copy.apply_action(action)
    assert copy.returns() == sample.returns()
    assert copy._game.digest() == sample._game.digest()


def test_the_ledger_lets_go_of_a_recipe_nobody_holds(content):
    """A recipe is kept while a sample, a clone or a World holds its key, and goes with the last of them."""
    from interpreter.engine import step

    state = _midgame(content, 20)
    gc.collect()
    before = len(step._LEDGER)
    world = state.world(state.current_player())
    sample = world.sample(random.Random(1))
    copy = sample.clone()
    assert len(step._LEDGER) == before + 2  # the World's game, the sample's (its clone shares it)
    for s in (sample, copy):
        s.close()  # (a suspended engine is never collected: docs/step-api.md)
    del world, sample, copy, s
    gc.collect()
    assert len(step._LEDGER) == before


def test_a_pinned_game_clones_and_samples_without_its_pins(content):
    """A game dealt with pins (engine/pins.py: a role or task dealt to a seat) re-plays with them — its clone, its
    samples and their clones are the same games — and a sample carries neither the pins (which seat was dealt
    what) nor the seed."""
    from interpreter.engine.pins import Pins
    from tests.test_resample_exact import hidden_content

    task = sorted(content.tasks)[0]
    state, rng = GameState(content, 5, SEED, pins=Pins(None, task, 2)), random.Random(3)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.clone()._game.digest() == state._game.digest()
    me = state.current_player()
    sample = state.resample(me, random.Random(1))
    assert sample._game.pins is None and sample._pins is None
    assert hidden_content(sample.clone()) == hidden_content(sample)
    for x in (sample, state.world(me)):
        assert holders_of(x, SEED) == []
