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
    ("repeat choose_many(from: none) { draw(self) }", 8, "expected a number, but this is an empty list"),
    ("draw(self, choose(from: none))", 12, "must be a number, but this is none"),
    ("for x in [1, none] { draw(self, x) }", 10, "a list of a number is not a value"),
    ("for x in [none] { draw(self, x) }", 10, "nothing but `none`"),
    ("discard([this_card, none])", 21, "`none` in a list is not an item"),
    ("discard([hand(self)])", 9, "a list of a list of cards is not a value"),  # was typed cards: [[c, …]]
    ("if 3 in hand(self) { draw(self) }", 4, "is never in a list of cards"),
    ("flip_role(self, none)", 17, "must be a condition"),
    ("add_status(self, role_name(self))", 18, "must be a status name, but this is a text computed in play"),
    ("put_on_deck(shuffled(3))", 22, "`xs` of shuffled must be a list, but this is a number"),
    ("discard(shuffled(red))", 9, "`xs` of discard must be a list of cards, but this is a list of colors"),
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


def test_shuffled_gives_a_list_of_the_kind_it_is_given():
    """shuffled(xs) is a list of xs's kind (one value: a one-item list), where such a list is wanted."""
    assert _errors("put_on_deck(shuffled(hand(self)))\nput_on_deck(shuffled(this_card))") == []
    assert _errors("for p in shuffled(alive()) { draw(p) }\nlet xs = shuffled([])") == []
    wrong = _errors("for p in shuffled(hand(self)) { draw(p) }")
    assert [(e.code, e.col) for e in wrong] == [("E302", 38)] and "a card" in wrong[0].message


def _condition_errors(text: str) -> list[LanguageError]:
    names = {c.name: c.id for c in load_cached().card_types.values()}
    comp = Compiler(context_env(["self", "current", "target", "this_card"]), "play_phase", names)
    comp.expression(text, T.BOOL)
    return comp.errors


def test_shuffled_draws_only_in_an_effect_never_in_a_condition():
    """A condition or a target rule may be tested any number of times (offering a skill, listing targets): a draw
    there would move the game's generator by how often it is tested. E317 at the call, with where to draw."""
    (e,) = _condition_errors("count(shuffled(hand(self))) > 1")
    assert (e.code, e.line, e.col) == ("E317", 1, 7)
    assert e.message.startswith("shuffled(...) draws at random: it cannot be used in a condition, a target rule")
    assert "let xs = shuffled(...)" in (e.hint or "")
    assert _condition_errors("count(hand(self)) > 1") == []


@pytest.mark.parametrize(
    ("text", "col", "what"),
    [
        ("count(hand(self) where discard(it)) > 0", 24, "discard(...) changes the game"),
        ("draw(self, 1) and true", 1, "draw(...) changes the game"),
        ('count([choose(from: hand(self), prompt: "x")]) > 0', 8, "choose(...) asks a seat to choose"),
        ('any_of(alive() where set_mark(it, "k", 1))', 22, "set_mark(...) changes the game"),
    ],
)
def test_code_that_only_tests_changes_nothing(text: str, col: int, what: str) -> None:
    """A condition, a target rule or a victory check is tested any number of times (to offer a skill or a card, to
    list targets, at every step): an action or a choice there compiled, and would draw, discard or ask a seat at each
    test. E317 at the call, naming what it does; the same call in an effect is fine."""
    errors = _condition_errors(text)
    assert [(e.code, e.line, e.col) for e in errors] == [("E317", 1, col)], errors
    assert errors[0].message.startswith(what + ": it cannot be used in a condition, a target rule or a victory check")
    comp = Compiler(context_env(["self", "current", "target", "this_card"]), "play_phase", {})
    comp.program("draw(self, 1)\ndiscard(hand(self))")
    assert comp.errors == []


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
                text: 技。
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
    assert [(e.code, e.line, e.col) for e in errors] == [("E302", 13, 15)]
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
        T.COUNTER: "护甲",  # (the base game declares no counter: the primitive reads or changes nothing)
        T.ZONE: "k",  # (no zone is declared here: the primitives do nothing)
        T.EVENT: "k",  # (nor an event)
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
        g.skills.use_skill(p0, count)
        sizes.append(len(p0.hand))
    assert sizes == [3, 5, 8]  # 1, 2, 3 cards: the mark counts
    assert g.seats.mark(p0, "计数") == 3
    agents[0].answers = ["red"]
    g.skills.use_skill(p0, color)
    before = len(p0.hand)
    g.skills.use_skill(p0, read)
    assert len(p0.hand) == before  # a color is no number (0 cards), a flag set to false is not set
    assert g.seats.mark(p0, "有色") is (True if any(c.mask & RED for c in p0.hand) else None)


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
    g.skills.use_skill(p0, content.roles["demo_counter"].skills[3])
    assert len(p0.hand) == 1 + drawn
    # a key the card does not print, or a card with no data, reads 0 or none
    ctx = Ctx(g, p0)
    assert BUILTINS["data_number"].impl(ctx, p0.hand[0], "东风") == 0
    assert BUILTINS["data_color"].impl(ctx, p0.hand[0], RED) is None
    assert BUILTINS["data_number"].impl(ctx, None, RED) == 0


# ---------------------------------------------------------------- random code: what type-checks runs

# Values of every type, and the ways of making none, [], marks and data the holes came from
_ATOMS = [
    *("self", "target", "this_card", "current", "pending", "none", "[]", "1", "0", "-1", "999999999", "true"),
    *("false", "red", "left", '"k"', "【截获】", "cannot_use_cards", "hand(self)", "alive()", "[red, blue]", "[self]"),
    *('mark(self, "k")', 'data(this_card, "k")', "data(this_card, red)", "choose(from: hand(self))", "top_card()"),
    *("choose(from: [])", "choose(from: none)", "choose_many(from: none)", "declare(from: [])", "([] where true)"),
    *("name_of(this_card)", "identity_color(self)", "gender(self)", "role_name(target)", "pending_direction()"),
    *("[【截获】]", '["a", "b"]', "[left]", "choose_many(from: alive())", "set_aside()", "count(hand(self))"),
    *('mark_number(self, "n")', 'has_mark(self, "k")', 'data_color(this_card, "k")', "(hand(self) where it has red)"),
]
_OPS = ["+", "-", "==", "!=", "<", ">=", "and", "or", "has", "in"]


def _random_expr(rng, depth: int) -> str:
    r = rng.random()
    if depth <= 0 or r < 0.45:
        return rng.choice(_ATOMS)
    if r < 0.55:
        return f"({_random_expr(rng, depth - 1)} {rng.choice(_OPS)} {_random_expr(rng, depth - 1)})"
    if r < 0.6:
        return f"({_random_expr(rng, depth - 1)} where {_random_expr(rng, depth - 1).replace('self', 'it', 1)})"
    if r < 0.63:
        return f"[{_random_expr(rng, depth - 1)}, {_random_expr(rng, depth - 1)}]"
    b = rng.choice([b for b in BUILTINS.values() if b.contexts is None])
    given = [p for p in b.params if p.default is REQUIRED or rng.random() < 0.3]
    return f"{b.name}({', '.join(f'{p.name}: {_random_expr(rng, depth - 1)}' for p in given)})"


def _random_statement(rng) -> str:
    r, e = rng.random(), _random_expr(rng, 3)
    if r < 0.3:
        return f"if {e} {{ draw(self) }}"
    if r < 0.5:
        return f"for x in {e} {{ {_random_statement(rng).replace('self', 'x', 1)} }}"
    if r < 0.6:
        return f"repeat {e} {{ draw(self) }}"
    b = rng.choice([b for b in BUILTINS.values() if b.contexts is None and b.kind != "query"])
    return f"{b.name}({', '.join(_random_expr(rng, 2) for p in b.params if p.default is REQUIRED)})"


def _run_random_code(seed: int, tries: int) -> int:
    """Compile `tries` random statements; run each that type-checks in a game. Returns how many ran."""
    import random

    from interpreter.engine.errors import EngineError

    rng = random.Random(seed)
    content = load_cached()
    names = {c.name: c.id for c in content.card_types.values()}
    env = context_env(["self", "current", "target", "this_card", "pending"])
    ran = 0
    for _ in range(tries):
        code = _random_statement(rng)
        comp = Compiler(env, "play_phase", names, {"k": "int", "red": "int"})
        try:
            fn = comp.program(code)
        except LanguageError:
            continue
        if comp.errors:
            continue
        g = build(
            content,
            [dict(identity=RED_ID, hand=[19, 3]), dict(identity=BLUE_ID, hand=[27])],
            [RandomAgent(1), RandomAgent(2)],
            deck_top=[31, 32, 33],
        )
        try:
            fn(Ctx(g, g.players[0], target=g.players[1], card=g.zones.by_uid[3]))
        except EngineError:
            pass  # a rule of the game refusing something (a budget …): not a type error
        except Exception as e:  # pragma: no cover - what this test is for
            raise AssertionError(f"{code!r} type-checks but raises {type(e).__name__}: {e}") from e
        ran += 1
    return ran


def test_random_code_that_type_checks_runs_without_a_python_error():
    assert _run_random_code(7, 1500) > 100


@pytest.mark.slow
def test_much_random_code_that_type_checks_runs_without_a_python_error():
    """The long run (the everyday one found `take_top(choose(from: none))`: a choice from none was of no type)."""
    for seed in range(4):
        _run_random_code(seed, 20_000)


# ---------------------------------------------------------------- W301: a mark set as one kind, read as another


def _role_file(tmp_path, name: str, effects: list[str]):
    f = tmp_path / "roles" / f"{name}.yaml"
    f.parent.mkdir(exist_ok=True)
    skills = "".join(
        f"  - id: s{i}\n    name: 技{i}\n    text: 技。\n    kind: active\n    timing: play_phase\n"
        f"    effect: |\n      {e}\n"
        for i, e in enumerate(effects)
    )
    f.write_text(f"id: {name}\nname: 测{name}\ngender: male\nhidden: false\nskills:\n{skills}", encoding="utf-8")
    return f


def test_a_mark_read_as_another_kind_than_it_is_set_is_a_warning(tmp_path):
    f = _role_file(tmp_path, "m", ['set_mark(self, "色", red)', 'draw(self, mark(self, "色"))'])
    (w,) = validate_paths([f])
    assert (w.level, w.code, w.line, w.col) == ("warning", "W301", 19, 18)
    assert w.message.startswith('the mark "色" is read here as a number, but set_mark gives it a color')
    assert f"({f}:12)" in w.message and w.hint == "read it with mark_color(...)"
    # read as what it is set as: nothing to say
    ok = _role_file(tmp_path, "n", ['set_mark(self, "色", red)', 'discard(hand(self) where it has mark(self, "色"))'])
    assert validate_paths([ok]) == []


def test_a_mark_no_effect_of_the_pack_sets_is_a_warning(tmp_path):
    pack = tmp_path / "pack"
    (pack / "roles").mkdir(parents=True)
    _role_file(pack, "a", ['set_mark(self, "计数", 1)'])
    _role_file(pack, "b", ['draw(self, mark_number(self, "计数") + mark(self, "记数"))'])
    warnings = [w for w in validate_paths([BUNDLED_CONTENT, pack]) if w.code == "W301"]
    assert [(Path(w.path).name, w.line, w.col) for w in warnings] == [("b.yaml", 12, 44)]
    assert warnings[0].message == 'no effect sets the mark "记数": this read is always 0'
    assert warnings[0].hint == "did you mean 计数?"
    # a file alone may read a mark another file sets
    assert validate_paths([pack / "roles" / "b.yaml"]) == []
