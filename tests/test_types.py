"""The effect language's types have no holes: what type-checks cannot fail with a Python error in play.

`none` does not stand in for a number or a condition, lists hold one kind of value (never numbers,
conditions or none), and a value read from a mark or a data slot has a type: the one its place
asks for (mark(...), data(...)), the card's declared data type, or the typed read's (mark_number,
data_color …). Each hostile expression below is an error at its line and column when the content
loads; each primitive given none where its parameter allows none, or an extreme number, does not
raise; and a made-up role (tests/fixtures/typed_pack) counts, remembers colors and reads card data
with the typed reads in play.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import interpreter.engine.primitives  # noqa: F401  (registers what each primitive does; this test builds a Compiler)
from conftest import Seat
from interpreter.agents.random_agent import RandomAgent
from interpreter.content.loader import BUNDLED_CONTENT, load_cached, validate_paths
from interpreter.engine.table import build
from interpreter.language import types as T
from interpreter.language.builtins import BUILTINS, REQUIRED, TYPED_READS
from interpreter.language.compiler import Compiler, context_env
from interpreter.language.errors import LanguageError
from interpreter.language.runtime import CardName, Ctx
from interpreter.model.colors import RED

PACK = Path(__file__).parent / "fixtures" / "typed_pack"
RED_ID, BLUE_ID = "qian_fu_zhan_xian", "te_gong_ji_guan"


def _errors(code: str, data_types: dict[str, str] | None = None, unit: str = "play_phase") -> list[LanguageError]:
    names = {c.name: c.id for c in load_cached().card_types.values()}
    comp = Compiler(context_env(["self", "current", "target", "this_card"]), unit, names, data_types)
    try:
        comp.program(code)
    except LanguageError as e:
        comp.errors.append(e)
    return comp.errors


# (code, the column of the error, a piece of its message); every one compiled without an error before
HOSTILE = [
    ('let x = mark(self, "k")', 9, "does not say what kind of value"),
    ('set_mark(self, "k", mark(self, "j"))', 21, "does not say what kind of value"),
    ('set_mark(self, "k", [red])', 21, "must be one number, color"),
    ('if mark(self, "k") == mark(self, "j") { draw(self) }', 4, "does not say what kind of value"),
    ('add_status(self, mark(self, "s"))', 18, "does not say what kind of value"),
    ('let d = data(this_card, "x")', 9, "does not say what kind of value"),
    ("draw(self, count(data(this_card, red)))", 18, "does not say what kind of value"),
    ("draw(self, none)", 12, "must be a number, but this is none"),
    ("draw(self, none + 1)", 12, "expected a number, but this is none"),
    ("draw(self, -none)", 13, "expected a number, but this is none"),
    ("if none { draw(self) }", 4, "expected a condition"),
    ("repeat none { draw(self) }", 8, "expected a number, but this is none"),
    ("if none < 3 { draw(self) }", 4, "compares numbers, but this is none"),
    ("if count(hand(self)) == none { draw(self) }", 4, "is always false"),
    ("draw(self, [])", 12, "must be a number, but this is an empty list"),
    ("draw(self, choose(from: []))", 12, "must be a number, but this is none"),
    ("draw(self, choose(from: [1, 2]))", 25, "a list of a number is not a value"),
    ("for x in [1, none] { draw(self, x) }", 10, "a list of a number is not a value"),
    ("for x in [none] { draw(self, x) }", 10, "nothing but `none`"),
    ("discard([this_card, none])", 21, "`none` in a list is not an item"),
    ("if 3 in hand(self) { draw(self) }", 4, "is never in a list of cards"),
    ("flip_role(self, none)", 17, "must be a condition"),
]


@pytest.mark.parametrize("code,col,message", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hole_in_the_types_is_an_error_at_its_place(code, col, message):
    errors = _errors(code)
    assert errors, f"{code!r} type-checks"
    first = errors[0]
    assert (first.code, first.line, first.col) == ("E302", 1, col), errors
    assert message in first.message


# The old spelling keeps working where its place says the type (the sketches in docs/language-coverage.md)
WELL_TYPED = [
    'draw(self, mark(self, "k") + 1)',
    'draw(self, mark(self, "k"))',
    'if mark(self, "k") { draw(self) }',
    'if exists(mark(self, "k")) { draw(self) }',
    'if mark(self, "k") == red or red == mark(self, "k") or mark(self, "k") == none { draw(self) }',
    'if mark(self, "k") > 2 { draw(self) }',
    'discard(hand(self) where it has mark(self, "c"))',
    'discard(mark(self, "k"))',
    'if mark(self, "k") in hand(self) { draw(self) }',
    'set_mark(self, "k", mark_number(self, "k") + 1)',
    'set_mark(self, "江湖令", declare(from: [red, blue, black], prompt: "宣言一个颜色"))',
    'set_mark(self, "k")',
    'set_mark(self, "k", none)',
    "if data(this_card, red) > 0 { draw(self, data(this_card, red)) }",
    "set_direction(choose(from: [left, right, up]))",
    "for x in [] { draw(self, x) }",
    "discard([] where it has red)",
    "if count([]) == 0 { draw(self) }",
]


@pytest.mark.parametrize("code", WELL_TYPED)
def test_the_old_spelling_and_the_typed_reads_compile(code):
    assert _errors(code, unit="intel_sent") == []


def test_a_cards_own_data_has_its_declared_type():
    """data(this_card, key) in a card's own code reads the declared type, so it needs no typed read."""
    words = {"东风": "color", "西风": "color"}
    assert _errors('let w = data(this_card, "东风")\ndiscard(choose(from: hand(self) where it has w))', words) == []
    # of mixed types, the key written out says which
    assert _errors('if data(this_card, "n") > 0 { draw(self) }', {"n": "int", "c": "color"}) == []
    wrong = _errors('draw(self, data(this_card, "c"))', {"n": "int", "c": "color"})
    assert [(e.code, e.col) for e in wrong] == [("E302", 12)] and "a color" in wrong[0].message


def test_validate_points_at_the_line_with_the_typed_reads_as_hint(tmp_path):
    f = tmp_path / "roles" / "x.yaml"
    f.parent.mkdir()
    f.write_text(
        textwrap.dedent(
            """\
            id: x
            name: 测试
            gender: male
            hidden: false
            skills:
              - id: s
                name: 技
                kind: active
                timing: play_phase
                effect: |
                  set_mark(self, "k", 2)
                  let n = mark(self, "k")
            """
        ),
        encoding="utf-8",
    )
    errors = validate_paths([f])
    assert [(e.code, e.line, e.col) for e in errors] == [("E302", 12, 15)]
    assert "mark_number(...)" in (errors[0].hint or "") and "has_mark(...)" in (errors[0].hint or "")


def test_every_typed_read_is_declared_with_its_type():
    for generic, reads in TYPED_READS.items():
        assert BUILTINS[generic].returns == T.BY_PLACE
        for t, name in reads.items():
            assert BUILTINS[name].returns == t, name
            assert [p.name for p in BUILTINS[name].params] == [p.name for p in BUILTINS[generic].params]
    # nothing else yields a value of no type
    for b in BUILTINS.values():
        if b.name not in TYPED_READS and isinstance(b.returns, str):
            assert b.returns not in (T.ANY, T.NONE, T.BY_PLACE), b.name


# ---------------------------------------------------------------- in play


def _game(content=None, hands=((19, 20), (27,))):
    content = content or load_cached()
    agents = [Seat(()), Seat(())]
    g = build(
        content,
        [dict(identity=RED_ID, hand=list(hands[0])), dict(identity=BLUE_ID, hand=list(hands[1]))],
        agents,
        deck_top=[31, 32, 33, 34, 35, 36, 37, 38, 39, 40],
    )
    return g, agents


def _sample(g, t: str) -> object:
    p0, p1 = g.players
    name = CardName("li_you", "利诱")
    return {
        T.PLAYER: p1,
        T.PLAYERS: [p1],
        T.CARD: p0.hand[0],
        T.CARDS: [p0.hand[0]],
        T.INT: 1,
        T.BOOL: False,
        T.COLOR: RED,
        T.COLORS: [RED],
        T.TEXT: "k",
        T.TEXTS: ["k"],
        T.CARDNAME: name,
        T.CARDNAMES: [name],
        T.STATUS: "cannot_use_cards",
        T.DIRECTION: "left",
        T.DIRECTIONS: ["left"],
        T.LIST: [p1],
        T.ANY: 1,
        T.KEY: "k",
        T.MARK_VALUE: 1,
    }[t]


def _probes(accept):
    for b in BUILTINS.values():
        for i, p in enumerate(b.params):
            if accept(p.type):
                yield b, i


def _call(b, i, value):
    g = build(
        load_cached(),
        [dict(identity=RED_ID, hand=[19, 20]), dict(identity=BLUE_ID, hand=[27])],
        [RandomAgent(1), RandomAgent(2)],  # the probes only check that nothing raises
        deck_top=[31, 32, 33],
    )
    ctx = Ctx(g, g.players[0])
    args = [_sample(g, q.type) if q.default is REQUIRED else q.default for q in b.params]
    args[i] = value
    b.impl(ctx, *args)


def test_every_primitive_takes_none_wherever_its_type_allows_none():
    probed = 0
    for b, i in _probes(lambda t: T.accepts(t, T.NONE)):
        _call(b, i, None)  # raises if a primitive does not expect none there
        probed += 1
    assert probed > 80


@pytest.mark.parametrize("value", [-5, 0, T.MAX_NUMBER])
def test_every_number_parameter_takes_the_extremes(value):
    for b, i in _probes(lambda t: t == T.INT):
        _call(b, i, value)


def test_a_counter_mark_counts_and_a_color_mark_reads_as_no_number():
    content = load_cached([BUNDLED_CONTENT, PACK])
    g, agents = _game(content)
    p0 = g.players[0]
    p0.role, p0.role_face_up = content.roles["demo_counter"], True
    count, color, read, _ = content.roles["demo_counter"].skills
    sizes = []
    for _ in range(3):
        g.use_skill(p0, count)
        sizes.append(len(p0.hand))
    assert sizes == [3, 5, 8]  # 1, 2, 3 cards: the mark counts
    assert g.mark(p0, "计数") == 3
    agents[0].answers = ["red"]
    g.use_skill(p0, color)
    before = len(p0.hand)
    g.use_skill(p0, read)
    assert len(p0.hand) == before  # a color is no number (0 cards), a flag set to false is not set
    assert g.mark(p0, "有色") is (True if any(c.mask & RED for c in p0.hand) else None)


def test_a_number_mark_stays_in_range():
    g, _ = _game()
    p0 = g.players[0]
    BUILTINS["set_mark"].impl(Ctx(g, p0), p0, "n", 10**40)
    assert BUILTINS["mark_number"].impl(Ctx(g, p0), p0, "n") == T.MAX_NUMBER
    BUILTINS["set_mark"].impl(Ctx(g, p0), p0, "n", -(10**40))
    assert BUILTINS["mark_number"].impl(Ctx(g, p0), p0, "n") == -T.MAX_NUMBER


@pytest.mark.parametrize("uid,drawn", [(3, 1), (1, 0)])  # 试探 #3 prints red: 1, #1 red: -1
def test_a_role_reads_a_cards_data_with_a_typed_read(uid, drawn):
    content = load_cached([BUNDLED_CONTENT, PACK])
    g, agents = _game(content, hands=((uid,), (27,)))
    p0 = g.players[0]
    p0.role, p0.role_face_up = content.roles["demo_counter"], True
    agents[0].answers = [f"#{uid}"]
    g.use_skill(p0, content.roles["demo_counter"].skills[3])
    assert len(p0.hand) == 1 + drawn
    # a key the card does not print, or a card with no data, reads 0 or none
    ctx = Ctx(g, p0)
    assert BUILTINS["data_number"].impl(ctx, p0.hand[0], "东风") == 0
    assert BUILTINS["data_color"].impl(ctx, p0.hand[0], RED) is None
    assert BUILTINS["data_number"].impl(ctx, None, RED) == 0
