"""Seat guards (language/guard.py): the seat tests a triggered skill's condition implies, read from the payload."""

from __future__ import annotations

import itertools

import pytest

import interpreter.engine.primitives  # noqa: F401  (registers what each primitive does; this test builds a Compiler)
from interpreter.agents import RandomAgent
from interpreter.content.loader import load_cached, skill_env
from interpreter.engine.game import Game, GameOver
from interpreter.engine.skills import (
    CALL_GUARD,
    NO_GUARD,
    SUBJECT_IS_NOT_SELF,
    SUBJECT_IS_SELF,
    TARGET_IS_SELF,
    guard_test,
)
from interpreter.engine.step import drive
from interpreter.language.compiler import CONTEXT_VARS, Compiler
from interpreter.language.guard import seat_guard
from interpreter.language.runtime import Ctx

TRIGGERED = {"kind": "triggered", "trigger": "card_used"}


def _guard(text: str):
    env = skill_env(TRIGGERED)
    comp = Compiler(env, "card_used", {"试探": "shi_tan", "威逼": "wei_bi"})
    comp.expression(text, "bool")
    assert not comp.errors, comp.errors
    assert comp.tree is not None
    return seat_guard(comp.tree, env, CONTEXT_VARS)


SEATS = (0, 1, 2, None)


def _table(guard):
    """The guard's value for every (self, subject, target); self is always a seat."""
    return {(s, sub, t): guard(s, sub, t) for s in (0, 1, 2) for sub in SEATS for t in SEATS}


def test_a_seat_comparison_is_its_own_guard():
    g = _guard("subject == self")
    assert g is not None
    assert _table(g) == {(s, sub, t): sub == s for s in (0, 1, 2) for sub in SEATS for t in SEATS}


def test_and_keeps_the_seat_side_and_or_needs_both_sides():
    g = _guard("target == self and used_as in [【试探】, 【威逼】]")
    assert g is not None and _table(g) == {k: k[2] == k[0] for k in _table(g)}
    g = _guard("subject != target and (subject == self or target == self) and any_of(hand(self))")
    assert g is not None
    assert _table(g) == {(s, sub, t): sub != t and (sub == s or t == s) for (s, sub, t) in _table(g)}
    assert _guard("any_of(hand(self)) or subject == self") is None  # the other side may hold alone
    assert _guard("any_of(hand(self))") is None
    assert _guard("true") is None


def test_not_and_none():
    g = _guard("not (subject == self) and target != none")
    assert g is not None
    assert _table(g) == {(s, sub, t): sub != s and t is not None for (s, sub, t) in _table(g)}
    assert _guard("not (subject == self and any_of(hand(self)))") is None  # only an exact test can be negated


@pytest.mark.parametrize(
    "text, comparison, test",
    [
        ("subject == self and any_of(hand(self))", ("subject", "==", "self"), SUBJECT_IS_SELF),
        ("self != subject", ("self", "!=", "subject"), SUBJECT_IS_NOT_SELF),
        ("target == self", ("target", "==", "self"), TARGET_IS_SELF),
        ("not (target == self)", None, CALL_GUARD),  # (not ...): called
        ("subject != self and target == self", None, CALL_GUARD),
        ("subject == target", ("subject", "==", "target"), CALL_GUARD),  # not about the owner: called
    ],
)
def test_a_guard_that_compares_the_owner_with_one_seat_is_tested_without_a_call(text, comparison, test):
    """The trigger loop tests `subject == self` and the like on the event's payload itself (Skills.guard_test);
    any other guard is called. Both give what the guard gives."""
    g = _guard(text)
    assert g is not None and g.comparison == comparison and guard_test(g) == test
    if test != CALL_GUARD:
        field = 1 if test in (SUBJECT_IS_SELF, SUBJECT_IS_NOT_SELF) else 2
        equal = test in (SUBJECT_IS_SELF, TARGET_IS_SELF)
        assert _table(g) == {k: (k[field] == k[0]) == equal for k in _table(g)}
    assert guard_test(None) == NO_GUARD


def test_only_the_standard_meaning_of_a_variable_counts():
    env = dict(skill_env(TRIGGERED))
    env["subject"] = (env["subject"][0], lambda ctx: ctx.me, "somewhere")  # a unit where `subject` means another
    comp = Compiler(env, "card_used", {})
    comp.expression("subject == self", "bool")
    assert comp.tree is not None
    assert seat_guard(comp.tree, env, CONTEXT_VARS) is None


def test_bundled_guards_never_rule_out_a_condition_that_holds():
    """For every bundled triggered skill with a guard, at positions of real games and every payload seat,
    a false guard means the compiled condition is false."""
    content = load_cached()
    guarded = [sk for r in content.roles.values() for sk in r.skills if sk.kind == "triggered" and sk.guard is not None]
    assert len(guarded) >= 8  # most bundled triggers compare seats
    checked = 0
    for seed in range(1, 6):
        g = Game(content, 5, seed, [RandomAgent(seed * 10 + i) for i in range(5)])
        g.setup()
        try:
            for _ in range(3):
                g.play_turn()
                g.current = g.flow.next_turn_player()
        except GameOver:
            pass  # an early win: the table as it stands still serves
        for sk in guarded:
            for me, sub, tgt in itertools.product(range(5), [*range(5), None], [*range(5), None]):
                if sk.guard(me, sub, tgt):
                    continue
                ctx = Ctx(
                    g,
                    g.players[me],
                    target=g.players[tgt] if tgt is not None else None,
                    subject=g.players[sub] if sub is not None else None,
                )
                assert not sk.condition(ctx), (sk.id, me, sub, tgt)
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("players", [2, 5, 10])
def test_a_traced_game_asks_every_condition_and_plays_the_same(players):
    """With a trace too the guards rule conditions out (the trace says why each skill did not fire); the same game."""
    content = load_cached()
    for seed in range(1, 9):
        plain = drive(content, players, seed, [RandomAgent(seed * 100 + i) for i in range(players)])
        traced = Game(content, players, seed, [RandomAgent(seed * 100 + i) for i in range(players)])
        traced.trace = []
        traced.run()
        assert traced.decision_log == plain.decision_log
        assert traced.digest() == plain.digest()


_PEEKER = """\
id: demo_peeker
name: 窥顶
gender: male
hidden: false
skills:
  - id: demo_peeker
    name: 窥顶
    text: 你接收情报后，若牌堆有二百张牌，你可以摸一张牌。
    kind: triggered
    trigger: received
    condition: count(top_cards(200)) >= 200 and subject == self
    effect: |
      draw(self, 1)
"""


def test_a_trace_tests_no_condition_its_guard_rules_out(tmp_path):
    """A condition that reads the top of a short deck forms the new deck (rulings R30), so a condition tested with a
    trace and not without one moved the game's generator: the traced game went another way. With a trace too, a
    skill whose seat guard is false is not tested (the trace says its condition is false)."""
    from interpreter.content.loader import load_content
    from interpreter.engine.pins import Pins
    from interpreter.paths import BUNDLED_CONTENT

    (tmp_path / "pack.yaml").write_text(
        "id: peek_pack\nname: 测试\nversion: 0.1.0\ndescription: 测试\nextends:\n  - base\n", encoding="utf-8"
    )
    (tmp_path / "roles").mkdir()
    (tmp_path / "roles" / "demo_peeker.yaml").write_text(_PEEKER, encoding="utf-8")
    errors: list = []
    content = load_content([BUNDLED_CONTENT, tmp_path], errors)
    assert not errors, errors
    traced_at_all = False
    for seed in range(1, 5):
        games = []
        for trace in (None, []):
            g = Game(content, 5, seed, [RandomAgent(seed * 100 + i) for i in range(5)], pins=Pins("demo_peeker"))
            g.trace = trace
            g.run()
            games.append(g)
        plain, traced = games
        traced_at_all |= any(t[0] == "skill" and t[2] == "窥顶" and "condition false" in t[4] for t in traced.trace)
        assert traced.decision_log == plain.decision_log, seed
        assert traced.digest() == plain.digest(), seed
    assert traced_at_all  # the trace still says why the skill did not fire
