"""The compiler writes one Python function per code unit: what it may name, and what it computes."""

from __future__ import annotations

import pytest

import interpreter.engine.primitives  # noqa: F401  (registers what each primitive does; this test builds a Compiler)
from interpreter.content.loader import load_cached
from interpreter.engine.table import build
from interpreter.language.compiler import Compiler, context_env
from interpreter.language.errors import LanguageError
from interpreter.language.runtime import Ctx

NAMES = {"截获": "jie_huo"}


def _compiler(*names: str) -> Compiler:
    return Compiler(context_env(names or ("self", "current")), "send_idle", NAMES)


@pytest.mark.parametrize(
    "text",
    [
        "\"\\'); __import__('os').system('true') #\"",  # a string cannot close the generated literal
        '"__builtins__"',
        "\"'''\"",
    ],
)
def test_string_literals_stay_literals(text):
    """Whatever a string holds, it is a value in the generated code, never code."""
    comp = _compiler()
    f = comp.expression(text)
    assert not comp.errors
    assert f(None) == text[1:-1]


def test_generated_code_has_no_python_builtins():
    """The namespace holds only what the generated code uses: no open, no __import__, no getattr."""
    comp = _compiler()
    f = comp.expression("count(others(self)) >= 1")
    builtins = f.__globals__["__builtins__"]
    assert builtins == {}
    for name in ("open", "__import__", "getattr", "eval", "exec"):
        assert name not in f.__globals__


def test_source_is_one_function_with_locals_and_a_comprehension():
    """`let` and `for` variables are locals, `where` a list comprehension, a primitive one call."""
    comp = _compiler()
    comp.program("let n = count(intel(self) where it has red)\nfor p in others(self) {\n  draw(p, n)\n}")
    src = comp.source
    assert src.startswith("def run(ctx):")
    assert "v1 = " in src and "for v2 in b_others_" in src  # n and p (an outermost loop: no step budget spent)
    assert "[v0 for v0 in b_intel_" in src  # it (a primitive that returns a list: walked as it is)
    assert "(v0.mask & 1) != 0" in src  # `it has red` inline
    assert "v1 = len([v0 " in src  # count of a list: its length, no call
    assert "lambda" not in src and "as_list" not in src


def test_simple_queries_and_number_comparisons_are_written_out_where_nothing_changes():
    """any_of, none_of, exists and count of a list, a comparison of two numbers: Python operations, not calls;
    a value that may be none or one item still goes through the primitive or as_list."""
    comp = _compiler()
    comp.expression("any_of(others(self)) and not none_of(hand(self)) and count(hand(self)) >= 2", "bool")
    assert "b_" + "any_of" not in comp.source and "(True if b_others_" in comp.source
    assert "(False if b_hand_" in comp.source and "(len(b_hand_" in comp.source and " >= (2))" in comp.source
    comp = _compiler("self", "target", "this_card")
    comp.expression("exists(target) and count(target) > 0 and exists(none)", "bool")
    assert "(ctx.target is not None)" in comp.source  # a context variable: written out
    assert "b_count_" in comp.source  # one value (maybe none) counted by the primitive
    assert "b_exists_" in comp.source  # exists(none): a constant, through the call (no `None is not None`)
    comp.program("draw(target, 1)\nreveal(this_card)\ndiscard(hand(self))")
    assert "([] if ctx.card is None else [ctx.card])" in comp.source  # one card where a list is wanted
    assert "(ctx, b_hand_" in comp.source and "as_list" not in comp.source  # a list already: as it is


def test_a_primitive_that_returns_a_list_must_say_so():
    """The compiler walks such a result as it is: its implementation is annotated `-> list` (mypy and, compiled,
    mypyc check it), or registering it fails."""
    from interpreter.language import builtins as B

    b = B.BUILTINS["others"]
    saved, b.impl = b.impl, None
    try:

        def others(ctx, p):
            return [p]

        with pytest.raises(TypeError, match="annotate it `-> list`"):
            B.implements("others")(others)
    finally:
        b.impl = saved


def _game():
    content = load_cached()
    return build(
        content,
        [
            dict(identity="qian_fu_zhan_xian", intel=[1, 2, 3]),
            dict(identity="te_gong_ji_guan", intel=[4]),
            dict(identity="qian_fu_zhan_xian", alive=False),
        ],
        [None, None, None],
    )


def test_compiled_expressions_compute_what_the_language_says():
    """where, has, and/or, comparisons, in, arithmetic: checked against the table."""
    g = _game()
    me = g.players[0]
    ctx = Ctx(g, me)
    reds = sum(1 for c in me.intel if c.mask & 1)
    cases = {
        "count(intel(self) where it has red)": reds,
        "count(intel(self) where it has red or it has blue)": sum(1 for c in me.intel if c.mask & 3),
        "count(intel(self) where not (it has black))": sum(1 for c in me.intel if not c.mask & 4),
        "count(others(self))": 1,  # the dead seat is not among the others
        "count(others(self)) + 2 - 1": 2,
        "-count(intel(self))": -3,
        "self in others(self)": False,
        "current == self or count(intel(self)) > 2": True,
        "count(intel(self)) >= 3 and count(intel(self)) < 3": False,
    }
    for text, expected in cases.items():
        comp = _compiler()
        f = comp.expression(text)
        assert not comp.errors, (text, comp.errors)
        assert f(ctx) == expected, text


def test_a_list_written_out_leaves_out_what_is_none_when_it_runs():
    """`none` in a list is not an item (E302 when written); nor is a value that is none at run time: `[holder]`
    with no intel on its way is [], `[pending, ...]` without one holds the rest (a primitive walking the list never
    meets none: tests/test_pending_intel.py found `reveal(pending, to: [holder])` failing on it)."""
    g = _game()
    ctx = Ctx(g, g.players[0])
    assert g.holder is None and g.pending is None
    cases = {"count([holder])": 0, "count([self, holder, current])": 2, "count([pending])": 0, "count([self])": 1}
    for text, expected in cases.items():
        comp = Compiler(context_env(("self", "current", "holder", "pending")), "send_idle", NAMES)
        f = comp.expression(text)
        assert not comp.errors, (text, comp.errors)
        assert f(ctx) == expected, text
    for text in ("count([self])", "count([red, blue])", "count([【截获】])"):
        comp = _compiler()
        comp.expression(text)
        assert not comp.errors, (text, comp.errors)
        assert "is not None" not in comp.source, text  # literals, constants and self are never none: as written


def test_each_call_has_its_own_variables():
    """A unit's variables are locals of one call: a nested run of the same unit cannot overwrite them."""
    comp = _compiler()
    f = comp.expression("count(others(self) where count(others(it) where count(others(it)) > 0) > 0)")
    g = _game()
    assert f(Ctx(g, g.players[0])) == 1
    assert f(Ctx(g, g.players[1])) == 1


@pytest.mark.parametrize(
    "text, start",
    [
        ("".join(f"for p{i} in others(self) {{\n" for i in range(20)) + "draw(self, 1)\n" + "}\n" * 20, "start"),
        ("repeat 2 {\n" * 25 + "draw(self, 1)\n" + "}\n" * 25, "start"),
        ("if true {\n" * 120 + "draw(self, 1)\n" + "}\n" * 120, "start"),
        ("if true {\n" * 300 + "draw(self, 1)\n" + "}\n" * 300, "start"),  # deeper than the parser's recursion
        (" + ".join(["1"] * 300), "expression"),
        ("not " * 250 + "true", "expression"),
    ],
    ids=["20 loops", "25 repeats", "120 ifs", "300 ifs", "300 additions", "250 nots"],
)
def test_code_nested_beyond_pythons_limits_is_an_error_not_a_traceback(text, start):
    """Python refuses 20 nested loops, 100 levels of indentation, 200 nested parentheses: content gets E201."""
    comp = _compiler()
    with pytest.raises(LanguageError) as e:
        comp.program(text) if start == "start" else comp.expression(text)
    assert e.value.code == "E201" and "nested too deeply" in e.value.message


def test_a_number_too_long_is_a_syntax_error_at_its_place():
    """Numbers have at most 9 digits: no huge values in arithmetic or messages (and no lark traceback)."""
    from interpreter.language.errors import LanguageError

    comp = _compiler()
    with pytest.raises(LanguageError) as e:
        comp.expression("count(others(self)) > " + "9" * 5000)
    assert (e.value.code, e.value.line, e.value.col) == ("E201", 1, 23)
    assert "5000 digits" in e.value.message and len(str(e.value)) < 200
    assert comp.expression("count(others(self)) < 999999999")  # nine digits are fine


def test_loops_and_wheres_inside_a_loop_spend_the_step_budget_and_the_outermost_do_not():
    """The outermost loop and a `where` on its own walk one list once (plain code, as cheap as before); a loop
    or a `where` inside a loop, or a `where` in another where's predicate, spends the step budget (E501 catches
    them nested without end)."""
    comp = _compiler()
    comp.program(
        "let a = hand(self) where it has red\n"
        "for p in others(self) {\n  let b = hand(p) where it has blue\n  repeat 2 { draw(p, 1) }\n}\n"
        "let c = others(self) where count(hand(it) where it has black) > 0\n"
        "repeat 3 { for q in others(self) { draw(q, 1) } }"
    )
    lines = [line.strip() for line in comp.source.splitlines()]
    a = next(line for line in lines if "mask & 1" in line)
    loop = next(line for line in lines if line.startswith("for v2 "))
    b = next(line for line in lines if "mask & 2" in line)
    inner_repeat = next(line for line in lines if line.startswith("for _ in loop_times(ctx, (2))"))
    c = next(line for line in lines if "mask & 4" in line)
    outer_repeat = next(line for line in lines if "(3)" in line)
    inner_for = lines[lines.index(outer_repeat) + 1]
    assert a.startswith("v1 = [v0 for v0 in b_hand_")  # on its own: a plain list
    assert loop.startswith("for v2 in b_others_")  # the outermost loop: free
    assert "in loop_over(ctx, b_hand_" in b and inner_repeat  # inside the loop: spent
    assert c.count("loop_over(ctx, ") == 1 and " = [v5 for v5 in b_others_" in c  # the predicate's where
    assert outer_repeat.startswith("for _ in range(max(0, min(MAX_REPEAT, (3) or 0))):")
    assert inner_for.startswith("for v") and "in loop_over(ctx, b_others_" in inner_for
