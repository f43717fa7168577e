"""The primitives of the effect language, declared: queries, actions and choices.

This is the registry the language reads. Each primitive has a typed signature
(checked when content loads, by ``compiler.py``), a kind, the unit kinds where
it may be used, a short Chinese wording (``zh``: docs/language.md and logs), how
``describe.py`` words a call of it in rules text (its :class:`Phrasing`) and a
doc (docs/language.md is generated from it by ``reference.py``). An action
returns True when it fully resolved (the basis of 然后); a query or choice
returns its value. Every primitive is general: none is named after, or only
useful to, a single card, role or task.

The registry imports nothing of the engine. What a primitive *does* is
written on the engine side, in ``interpreter/engine/primitives/`` (a module per family), which
registers each implementation here by name with :func:`implements` when it is
imported. The compiler binds that implementation into the generated code, so
content can only be compiled once the implementations are registered: the
loader (its units stage, ``interpreter/content/units.py``) imports ``interpreter.engine.primitives``
for this; code that builds a ``Compiler`` itself must import it too.

Phrasing
--------
A primitive's wording in generated rules text is data: templates, variants
chosen by the shape of the arguments, fragments for optional arguments. The
renderer (``describe.py``) reads it and has no branch for any primitive.

*Templates* are Chinese text with placeholders:

- ``{p}``: the argument of parameter ``p`` as text. A missing argument reads
  as its default: a player (``by`` …) is 你, a flag nothing, a number its
  numeral;
- ``{p:poss}``: a player as an owner (你的, but 其 for it);
- ``{n:minus}``: a negative number written in the code, without its minus
  (with the shape ``int<0``: 减少一);
- ``{n:张}`` (any classifier): a count, 两张; a count that is not a number
  written in the code reads N张, with the note N为… after the clause (or after
  the card's text, for a noun);
- ``{p.q}``: argument ``q`` of the call given as ``p`` (``{xs.p}``: whose hand
  ``hand(p)`` is);
- ``{@type}``: the word for the call's value type (per-copy data: 数值, 颜色,
  文字; else 值); ``{@other}``: the other side of a comparison (``equals``);
  ``{@count}``: the rules' intel counts (collect_count, death_count) as a
  count of intel of one colour, 三张 (四张（黑色：五张） where they differ).

A ``|`` ends the clause's subject: ``"{p}|摸{n:张}牌"`` has the subject ``{p}``
(two clauses with the same predicate merge into 你和他依次……, a repeated
subject is dropped). A subject whose argument is missing is left out.

*Shapes* (the keys of :data:`SHAPES`) select a variant or a fragment by what an
argument is: ``absent``, ``given``, ``true``/``false``/``none``, ``int>0`` (a
number above zero), ``int<0`` (a number below zero), ``expr`` (given, not a number), ``you`` (it reads 你),
``face_down_card`` (``this_card`` of a card used face down), ``kept`` (a
mark's key, written in the code, that the described content keeps for the
game: some call whose phrasing says ``keeps=`` that parameter gives it; a read
of it then drops 本回合), and ``name()``: a call of the primitive ``name``.
The fields of :class:`Phrasing` say where
each template is used (a clause, a negated condition, a modifier in ``where``,
a noun phrase, a loop …); ``declare`` checks that a phrasing names only
declared parameters and known shapes.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .. import catalogue
from ..model.colors import BLACK, BLUE, RED
from ..model.directions import LEFT, RIGHT, UP
from . import types as T

REQUIRED = object()

EVERYONE = "everyone"
"""The default of an audience parameter (reveal's `to`) that, left out, means every player. A text, so the
compiler writes it into the code as a constant; no players value is ever a text, so a `to` given in the code
that turns out none at run time is told apart from one left out (and shows the cards to nobody)."""

# Statuses an effect may put on a player until the end of a turn (name -> Chinese); the engine honours each.
STATUSES = {name: s.zh for name, s in catalogue.STATUSES.items()}


class MissingImplementation(RuntimeError):
    """A primitive is declared here but nothing registered what it does (the engine's module was not imported)."""

    def __init__(self, name: str):
        super().__init__(
            f"the primitive `{name}` is declared in interpreter/language/builtins.py but has no implementation "
            "registered: `import interpreter.engine.primitives` (it registers the engine's implementation of every "
            "primitive) before compiling effect code; the loader (interpreter.content.units) does"
        )
        self.name = name


# ---------------------------------------------------------------- phrasing vocabulary

# What an argument may be, to choose a variant or a fragment (see the module's docstring).
SHAPES: dict[str, str] = {
    "absent": "the argument is not given",
    "given": "the argument is given",
    "true": "the constant true",
    "false": "the constant false",
    "none": "the constant none",
    "int>0": "a number above zero, written in the code",
    "int<0": "a number below zero, written in the code ({n:minus} then reads it without its minus: 减少一)",
    "expr": "given, and not a number written in the code",
    "you": "a player the text calls 你",
    "face_down_card": "this_card, of a card used face down",
    "kept": "a mark's key written in the code that the described content keeps for the game (a `keeps` call)",
    "name()": "a call of the primitive `name`",
}

Shapes = Mapping[str, str]  # parameter -> shape: every one must hold


@dataclass(frozen=True)
class Noun:
    """A call read as a noun phrase: prefix, quantity, modifiers, head (你的 | 两张 | 红色 | 手牌)."""

    head: str
    prefix: str = ""  # a template: whose or where ("{p:poss}", "{p}面前的"); dropped where the owner is the subject
    owner: str | None = None  # the parameter naming who holds the items: 你有……, 你没有……, 你收集了三张……
    mods: tuple[str, ...] = ()  # fixed modifiers ("翻开的")
    bare: str | None = None  # the wording with no prefix, quantity or modifier ("所有存活角色")
    has: tuple[str, str] = ("有", "拥有")  # the owner's verb: for some (你有手牌), for n or more (你拥有两张……)


@dataclass(frozen=True)
class Choice:
    """A choice: a chooser (`chooser`, default 你) picks from a list (`source`)."""

    verb: str = "选择"  # a prompt such as "声明一个卡名" gives its own verb and noun
    declared: bool = False  # everyone hears the answer: later it is named 你声明的卡名
    range: tuple[str, str] | None = None  # the parameters bounding how many items are picked (至少一张, 一至两张)
    source: str = "from"
    chooser: str = "by"
    prompt: str = "prompt"


@dataclass(frozen=True)
class Phrasing:
    """How describe words a call of a primitive. Every field is optional; without any, the call reads as `zh`."""

    text: str | None = None  # the template (default: the primitive's zh)
    verb: str = ""  # a condition's leading verb: 是红色或者(是)蓝色 drops it when 或 joins two of one subject
    negated: str | None = None  # a condition's template under `not` (default: 不是……, 不会……, or 并非……)
    modifier: str | None = None  # a condition about `it` in `xs where …`, as a modifier of the item ("纯{color}")
    symmetric: bool = False  # the first two parameters may swap, so that `it` comes first (与……含有相同颜色的)
    equals: str | None = None  # `call == x` as a condition ("{c}|是{@other}"); `!=` puts 不 before the predicate
    equals_modifier: str | None = None  # `call(it) == x` in `where`, as a modifier ("名为{@other}的"; `!=`: 不…)
    noun: Noun | None = None  # a list or thing read as a noun phrase (quantities, modifiers and owners apply)
    each: str | None = None  # a loop over this list of players: "从{p}开始，逆时针每名角色" (+ 依次……)
    counts: str | None = None  # code for the list this call counts ("xs", "hand(p)"): `call >= 3` reads 三张或更多……
    exists_in: str | None = None  # the parameter whose list this condition says is not empty (你拥有红色情报)
    same_as: str | None = None  # code this call reads as, its parameters as names ("not any_of(xs)")
    guard: bool = False  # a condition that only guards a choice from nothing: dropped from an `and`
    card_data: bool = False  # the value is per-copy card data: its type is the card's data type
    values: tuple[tuple[str, str], ...] = ()  # words for the text values it returns ("female" -> 女性) in comparisons
    choice: Choice | None = None  # a choice primitive: who picks from what, and how the pick is named after
    extras: tuple[tuple[str, str, str], ...] = ()  # (parameter, shape, fragment) appended when the shape holds
    variants: tuple[tuple[Shapes, Phrasing], ...] = ()  # the first whose shapes all hold gives its wording
    keeps: str | None = None  # the parameter naming a mark this call keeps for the game (reads of it: shape kept)

    def chosen(self, holds: Callable[[str, str], bool]) -> Phrasing:
        """This phrasing with the wording (text, noun, each) of its first variant whose shapes all hold."""
        for when, v in self.variants:
            if all(holds(param, shape) for param, shape in when.items()):
                wording = {k: getattr(v, k) for k in ("text", "negated", "noun", "each") if getattr(v, k) is not None}
                return replace(self, **wording)
        return self

    def templates(self) -> list[str]:
        """Every template of this phrasing, its variants' included (for the checks of `declare`)."""
        out = [t for t in (self.text, self.negated, self.modifier, self.equals, self.equals_modifier, self.each) if t]
        out += [self.noun.prefix] if self.noun else []
        out += [frag for _, _, frag in self.extras]
        for _, v in self.variants:
            out += v.templates()
        return out


PLACEHOLDER = re.compile(r"\{([^{}:]+)(?::([^{}]+))?\}")  # {p}, {p:poss}, {n:张}, {p.q}, {@type}


@dataclass
class Param:
    name: str
    type: str
    default: object = REQUIRED


Returns = str | Callable[[dict[str, str]], str]  # a type, or a function(arg types by name) -> type


@dataclass
class Builtin:
    name: str
    kind: str  # query | action | choice
    params: list[Param]
    returns: Returns
    zh: str  # Chinese wording, {param} placeholders
    doc: str = ""
    contexts: frozenset[str] | None = None  # None: anywhere; else the unit kinds where it may be used
    impl: Callable[..., Any] | None = None  # impl(ctx, *args), registered by the engine (engine/primitives/)
    phrasing: Phrasing = field(default_factory=Phrasing)  # how describe words a call
    # a query's reads: the parts of the game state (catalogue.STATE_PARTS) its value depends on besides its
    # arguments; None: not declared (it may read anything: code calling it is checked again after any change)
    reads: frozenset[str] | None = None
    # it draws from the game's seeded generator (shuffled): only in an effect, never in a condition or a target
    # rule, which the engine may test any number of times (E317, as an action or a choice there)
    draws: bool = False

    def implementation(self) -> Callable[..., Any]:
        """What the compiler binds into generated code; MissingImplementation if nothing was registered."""
        if self.impl is None:
            raise MissingImplementation(self.name)
        return self.impl

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


BUILTINS: dict[str, Builtin] = {}


def _check_phrasing(name: str, params: list[Param], ph: Phrasing) -> None:
    """A phrasing names only declared parameters and known shapes (a typo fails at import, not in a text)."""
    names = {p.name for p in params}
    for text in ph.templates():
        for m in PLACEHOLDER.finditer(text.replace("|", "")):
            head = m.group(1).split(".")[0]
            if head not in names and head not in ("@type", "@other", "@count"):
                raise ValueError(f"the phrasing of `{name}` names `{{{m.group(1)}}}`, which is not a parameter")
    shapes = [*(s for when, _ in ph.variants for s in when.items()), *((p, s) for p, s, _ in ph.extras)]
    for param, shape in shapes:
        if param not in names or (shape not in SHAPES and not re.fullmatch(r"[a-z_]+\(\)", shape)):
            raise ValueError(f"the phrasing of `{name}` has the shape {param}={shape!r}; shapes: {', '.join(SHAPES)}")


def declare(
    name: str,
    kind: str,
    params: list[tuple[Any, ...]],
    returns: Returns,
    zh: str,
    doc: str = "",
    contexts: tuple[str, ...] | None = None,
    phrasing: Phrasing | None = None,
    reads: tuple[str, ...] | None = None,
    draws: bool = False,
) -> None:
    """Declare a primitive: its signature and its words. What it does is registered with `implements`.

    `reads` (queries): the parts of the game state (catalogue.STATE_PARTS) its value depends on besides its
    arguments, () for none; left out, it may read anything. `draws`: it draws from the game's generator."""
    if name in BUILTINS:
        raise ValueError(f"the primitive `{name}` is declared twice")
    if reads is not None and (kind != "query" or not set(reads) <= set(catalogue.STATE_PARTS)):
        raise ValueError(f"`{name}` declares reads {reads!r}: only a query reads, parts of catalogue.STATE_PARTS")
    ps = [Param(*p) for p in params]
    ph = phrasing or Phrasing()
    _check_phrasing(name, ps, ph)
    BUILTINS[name] = Builtin(
        name,
        kind,
        ps,
        returns,
        zh,
        doc,
        frozenset(contexts) if contexts else None,
        phrasing=ph,
        reads=frozenset(reads) if reads is not None else None,
        draws=draws,
    )


F = Callable[..., Any]


def implements(name: str) -> Callable[[F], F]:
    """Register the decorated function as what the declared primitive `name` does.

    The function takes the run-time context and then one argument per declared parameter, in
    order (a parameter that is a Python keyword gets another name: `as_`, `frm` …).
    """

    def register(fn: F) -> F:
        b = BUILTINS.get(name)
        if b is None:
            raise ValueError(f"`{name}` is not a declared primitive; declare it in interpreter/language/builtins.py")
        # (a primitive whose further arguments are the fields of a declared event, `emit`, takes them as *fields)
        arity = sum(1 for p in inspect.signature(fn).parameters.values() if p.kind is not p.VAR_POSITIONAL)
        if arity != 1 + len(b.params):
            raise TypeError(
                f"the implementation of `{name}` takes {arity} arguments; its declaration wants ctx and "
                f"{len(b.params)} ({', '.join(p.name for p in b.params) or 'no parameters'})"
            )
        if b.impl is not None:
            raise ValueError(
                f"the primitive `{name}` has two implementations: {b.impl.__qualname__} and {fn.__qualname__}"
            )
        notes = getattr(fn, "__annotations__", None)  # (none on a function compiled by mypyc, which checks it)
        if returns_list(b) and notes is not None and notes.get("return") not in ("list", list):
            # the compiler uses such a result as a list as it is (no as_list): the implementation says it is one
            # (mypy checks that it returns one; compiled, mypyc checks it as it returns)
            raise TypeError(f"the implementation of `{name}` returns {b.returns}: annotate it `-> list`")
        b.impl = fn
        return fn

    return register


def returns_list(b: Builtin) -> bool:
    """Does the primitive always return a list (its declared result is a list type, not one that depends on its
    arguments)? Its implementation is annotated `-> list` (implements checks it)."""
    return isinstance(b.returns, str) and b.returns in T.ELEMENT


def missing_implementations() -> list[str]:
    """The declared primitives nothing has registered an implementation for."""
    return [name for name, b in BUILTINS.items() if b.impl is None]


# ---------------------------------------------------------------- queries

declare(
    "alive",
    "query",
    [],
    T.PLAYERS,
    "所有存活角色",
    "Living players, counter-clockwise from the current player.",
    phrasing=Phrasing(noun=Noun("角色", bare="所有存活角色"), each="从当前回合角色开始，逆时针每名角色"),
    reads=("standing", "turn"),
)

declare(
    "alive_from",
    "query",
    [("p", T.PLAYER)],
    T.PLAYERS,
    "从{p}开始逆时针的所有存活角色",
    "Living players counter-clockwise starting at p (从你开始，逆时针).",
    phrasing=Phrasing(noun=Noun("角色", prefix="从{p}开始逆时针的所有"), each="从{p}开始，逆时针每名角色"),
    reads=("standing", "turn"),  # (p none: from the current player)
)

declare(
    "others",
    "query",
    [("p", T.PLAYER)],
    T.PLAYERS,
    "{p}以外的存活角色",
    "Living players other than p (其他角色), counter-clockwise from p.",
    phrasing=Phrasing(
        noun=Noun("角色", prefix="{p}以外的"),
        each="除{p}以外的每名角色",
        variants=(({"p": "you"}, Phrasing(noun=Noun("其他角色"), each="其他角色")),),
    ),
    reads=("standing",),
)

declare(
    "neighbors",
    "query",
    [("p", T.PLAYER)],
    T.PLAYERS,
    "{p}相邻的角色",
    "The nearest living player on each side of p.",
    phrasing=Phrasing(noun=Noun("角色", prefix="与{p}相邻的")),
)

declare(
    "hand",
    "query",
    [("p", T.PLAYER)],
    T.CARDS,
    "{p}的手牌",
    "p's hand cards.",
    phrasing=Phrasing(noun=Noun("手牌", prefix="{p:poss}", owner="p")),
)

declare(
    "zone_cards",
    "query",
    [("zone", T.ZONE), ("p", T.PLAYER, None)],
    T.CARDS,
    "{p}的{zone}中的牌",
    "The cards of a zone the rules declare: p's if the zone is each player's (none without p), else the "
    "table's; the one that comes out first first (a stack's top: the newest; a queue's oldest).",
    phrasing=Phrasing(variants=(({"p": "absent"}, Phrasing("{zone}中的牌")),)),
)

declare(
    "zone_top",
    "query",
    [("zone", T.ZONE), ("p", T.PLAYER, None)],
    T.CARD,
    "{p}的{zone}中的第一张牌",
    "The card of a declared zone that comes out first (zone_cards' first), or none if it is empty.",
    phrasing=Phrasing(variants=(({"p": "absent"}, Phrasing("{zone}中的第一张牌")),)),
)

declare(
    "in_zone",
    "query",
    [("c", T.CARD), ("zone", T.ZONE), ("p", T.PLAYER, None)],
    T.BOOL,
    "{c}在{p}的{zone}中",
    "True if card c is in a zone the rules declare: p's if p is given (a per-player zone), anyone's or the "
    "table's without p. False for none.",
    phrasing=Phrasing(
        "{c}|在{p:poss}{zone}中",
        negated="{c}|不在{p:poss}{zone}中",
        variants=(({"p": "absent"}, Phrasing("{c}|在{zone}中", negated="{c}|不在{zone}中")),),
    ),
)

declare(
    "intel",
    "query",
    [("p", T.PLAYER)],
    T.CARDS,
    "{p}的情报区",
    "The intel in front of p (情报区).",
    phrasing=Phrasing(noun=Noun("情报", prefix="{p}面前的", owner="p", has=("拥有", "收集了"))),
    reads=("intel",),
)

declare(
    "count",
    "query",
    [("xs", T.LIST)],
    T.INT,
    "{xs}的数量",
    "How many items a list has.",
    phrasing=Phrasing(counts="xs"),
    reads=(),
)


def _same_list(argtypes: dict[str, str]) -> str:
    return T.list_of(argtypes.get("xs", T.ANY))


declare(
    "shuffled",
    "query",
    [("xs", T.LIST)],
    _same_list,
    "{xs}（以随机顺序）",
    "The items of the list in a random order (以随机顺序: 仁区's several cards put at once), drawn from the game's "
    "seeded generator, as its shuffles are: the same seed and answers give the same order. Only in an effect (E317 "
    "in a condition or a target rule, which may be tested any number of times). Nobody sees the order drawn: "
    "cards of two or more so ordered that next go, face down, into the deck or a zone not face up are followed "
    "by no seat there any more (a seat knows which cards went, not which is where); put face up, the order is "
    "seen by all.",
    phrasing=Phrasing("{xs}（以随机顺序）"),
    draws=True,
)

declare(
    "hand_count",
    "query",
    [("p", T.PLAYER)],
    T.INT,
    "{p}的手牌数",
    "How many hand cards p has.",
    phrasing=Phrasing(counts="hand(p)"),
)

declare(
    "any_of",
    "query",
    [("xs", T.LIST)],
    T.BOOL,
    "{xs}存在",
    "True if the list is not empty.",
    phrasing=Phrasing(exists_in="xs"),
    reads=(),
)

declare(
    "none_of",
    "query",
    [("xs", T.LIST)],
    T.BOOL,
    "没有{xs}",
    "True if the list is empty.",
    phrasing=Phrasing(same_as="not any_of(xs)"),
    reads=(),
)

declare(
    "exists",
    "query",
    [("x", T.ANY)],
    T.BOOL,
    "{x}存在",
    "True unless x is none (a choice from nothing).",
    phrasing=Phrasing("{x}|存在", verb="存在", negated="{x}|不存在", guard=True),
)

declare(
    "identity_color",
    "query",
    [("p", T.PLAYER)],
    T.COLOR,
    "{p}的身份颜色",
    "The color of p's identity: red 潜伏战线, blue 特工机关, black 神秘人 (or as rules.yaml says).",
)

declare(
    "gender",
    "query",
    [("p", T.PLAYER)],
    T.TEXT,
    "{p}的性别",
    'The gender of p\'s role: "male" or "female"; none when the role is face down or p has none '
    "(a face-down role has no gender).",
    phrasing=Phrasing(
        equals="{p}|是{@other}角色",
        verb="是",
        equals_modifier="{@other}",
        values=(("female", "女性"), ("male", "男性")),
    ),
)

declare(
    "role_name",
    "query",
    [("p", T.PLAYER)],
    T.TEXT,
    "{p}的角色名",
    "The name of p's role (every version of a role shares the name; title and id tell them apart); "
    "none while it is face down.",
)

declare(
    "role_face_up", "query", [("p", T.PLAYER)], T.BOOL, "{p}的角色牌面朝上", "True if p has a role and it is face up."
)

declare(
    "hidden_role",
    "query",
    [("p", T.PLAYER)],
    T.BOOL,
    "{p}是隐藏角色",
    "True if p's role is a hidden role (隐藏角色). Everyone can tell: a face-down role is always hidden.",
)

declare(
    "pure",
    "query",
    [("c", T.CARD), ("color", T.COLOR)],
    T.BOOL,
    "{c}是纯{color}",
    "True if the card has exactly this one color (纯色).",
    phrasing=Phrasing("{c}|是纯{color}", verb="是", modifier="纯{color}"),
)

declare(
    "is_dual",
    "query",
    [("c", T.CARD)],
    T.BOOL,
    "{c}是双色",
    "True for a card with two colors.",
    phrasing=Phrasing("{c}|是双色", verb="是", modifier="双色"),
)

declare(
    "shares_color",
    "query",
    [("a", T.CARD), ("b", T.CARD)],
    T.BOOL,
    "{a}与{b}含有相同颜色",
    "True if the two cards have at least one color in common.",
    phrasing=Phrasing("{a}|与{b}含有相同颜色", verb="与", symmetric=True),
)

declare(
    "same_colored",
    "query",
    [("xs", T.CARDS), ("ys", T.CARDS)],
    T.CARDS,
    "{xs}中与{ys}完全同色的牌",
    "The cards of xs whose colors are exactly those of one of the cards of ys (完全同色: a 红黑 card "
    "matches only a 红黑 card, a pure red one only a pure red one).",
)

declare(
    "makes_three",
    "query",
    [("p", T.PLAYER), ("c", T.CARD)],
    T.BOOL,
    "会让{p}收集{@count}或更多同色情报",
    "True if putting c into p's intel would make p hold as many intel of one of c's colors as the rules' "
    "collect_count (red, blue) or death_count (black) say, or more: 3 each in the base game.",
    phrasing=Phrasing(verb="会让"),
)

declare(
    "data",
    "query",
    [("c", T.CARD), ("key", T.KEY)],
    T.BY_PLACE,
    "{c}上{key}对应的值",
    "A per-copy value printed on this copy (deck.yaml `data:`), looked up by key (text or color). Its type is "
    "the card's declared data type (`data(this_card, key)` in the card's own code), else the one its place "
    "asks for: it reads as data_number, data_color or data_text there (a `let` needs one of those).",
    phrasing=Phrasing("{c}上{key}对应的{@type}", card_data=True),
)

declare(
    "data_number",
    "query",
    [("c", T.CARD), ("key", T.KEY)],
    T.INT,
    "{c}上{key}对应的数值",
    "The number printed on this copy under `key` (deck.yaml `data:`); 0 if c is none or has no number there.",
    phrasing=Phrasing("{c}上{key}对应的数值"),
)

declare(
    "data_color",
    "query",
    [("c", T.CARD), ("key", T.KEY)],
    T.COLOR,
    "{c}上{key}对应的颜色",
    "The color printed on this copy under `key` (deck.yaml `data:`); none if c is none or has no color there.",
    phrasing=Phrasing("{c}上{key}对应的颜色"),
)

declare(
    "data_text",
    "query",
    [("c", T.CARD), ("key", T.KEY)],
    T.TEXT,
    "{c}上{key}对应的文字",
    "The text printed on this copy under `key` (deck.yaml `data:`); none if c is none or has no text there.",
    phrasing=Phrasing("{c}上{key}对应的文字"),
)

declare(
    "top_cards",
    "query",
    [("n", T.INT, 1)],
    T.CARDS,
    "牌堆顶的{n}张牌",
    "The top n cards of the deck, without moving them.",
    phrasing=Phrasing("牌堆顶的{n:张}牌"),
)

declare(
    "top_card",
    "query",
    [],
    T.CARD,
    "牌堆顶的一张牌",
    "The top card of the deck (none if deck and discard pile are empty), without moving it.",
)

declare(
    "discard_top",
    "query",
    [("n", T.INT, 1)],
    T.CARDS,
    "弃牌堆顶的{n}张牌",
    "The top n cards of the discard pile (the last discarded first; fewer if it holds fewer), without moving "
    "them. The pile is face up, seen by all; a card taken from it (put_in_hand, collect …) leaves it.",
    phrasing=Phrasing("弃牌堆顶的{n:张}牌"),
)

declare(
    "set_aside",
    "query",
    [],
    T.CARDS,
    "翻开的牌",
    "The cards this effect has turned up with take_top and not yet moved on.",
    phrasing=Phrasing(noun=Noun("牌", mods=("翻开的",))),
)

declare("alive_count", "query", [], T.INT, "存活角色数", "How many players are alive.")

declare(
    "card_names",
    "query",
    [],
    T.CARDNAMES,
    "所有卡牌名称",
    "Every card name of the game being played, in the content's order: what 宣言一个卡牌名称 offers. "
    "A fork that adds or removes a card kind changes it with no change to the skills that use it.",
)

declare(
    "name_of",
    "query",
    [("c", T.CARD)],
    T.CARDNAME,
    "{c}的牌名",
    "The card name of c, to compare with 【...】.",
    phrasing=Phrasing(equals="{c}|是{@other}", verb="是", equals_modifier="名为{@other}的"),
)

declare(
    "is_face_up",
    "query",
    [],
    T.BOOL,
    "待收情报正面朝上",
    "True if there is a pending intel and it is face up.",
    phrasing=Phrasing("待收情报|正面朝上", negated="待收情报|面朝下"),
)

declare(
    "pending_direction",
    "query",
    [],
    T.DIRECTION,
    "待收情报的传递方向",
    "The direction the intel of this turn travels in (left, right or up); none if no intel is in transit.",
)

declare(
    "pending_lock",
    "query",
    [],
    T.PLAYER,
    "情报锁定的角色",
    "The player the intel of this turn is locked on (with the send, or by lock_intel); none if it is not "
    "locked or no intel is in transit.",
)

declare(
    "all_players",
    "query",
    [],
    T.PLAYERS,
    "所有角色",
    "Every player, dead or alive (not those out of the game by abstaining), counter-clockwise from the current player.",
)

declare(
    "has_identity",
    "query",
    [("p", T.PLAYER)],
    T.BOOL,
    "{p}有身份牌",
    "False once p's identity card was taken from him (没有身份牌的玩家).",
)

declare(
    "usable",
    "query",
    [("c", T.CARD), ("by", T.PLAYER, None), ("as", T.CARDNAME, None), ("at", T.TIMING, None)],
    T.BOOL,
    "{c}可由{by}现在使用",
    "True if `by` (default self) could use card c now, at this idle point (or, `at` given, as if at the idle "
    'point `at`, e.g. `at: "play_phase"`): as `as` (default: what c must be used as — its own name, or a forced '
    "conversion's), with its timing, condition and a legal target. c is a hand card of `by` (bans, forced "
    "conversions and 不能使用手牌 apply) or a card in one of his zones the rules declare or a shared one "
    "(蓄谋区: used as itself, free of those).",
    phrasing=Phrasing(
        variants=(
            ({"c": "none", "as": "given", "at": "given"}, Phrasing("{by}可以如在{at}般视为使用{as}")),
            ({"c": "none", "as": "given"}, Phrasing("{by}现在可以视为使用{as}")),
            ({"as": "given", "at": "given"}, Phrasing("{c}可由{by}如在{at}般当作{as}使用")),
            ({"as": "given"}, Phrasing("{c}可由{by}现在当作{as}使用")),
            ({"at": "given"}, Phrasing("{c}可由{by}如在{at}般使用")),
        ),
    ),
)

declare(
    "mark",
    "query",
    [("p", T.PLAYER), ("key", T.TEXT)],
    T.BY_PLACE,
    "{p}本回合的标记{key}",
    "The value set_mark gave p under `key` this turn (or keep_mark/add_mark for the game). Its type is the one "
    "its place asks for: it reads as "
    "mark_number, mark_color, mark_player, mark_card, mark_cardname, mark_text or has_mark there "
    '(`it has mark(self, "k")` is mark_color; a `let` needs one of those). In exists(...) and `== none` it is '
    "whatever was set (none if nothing was set this turn).",
    phrasing=Phrasing(variants=(({"key": "kept"}, Phrasing("{p}的标记{key}")),)),
)

# Typed reads of a mark: (type, name, Chinese noun, what it yields when the mark is not set or holds another type).
MARK_READS = (
    (T.INT, "mark_number", "数值", "0"),
    (T.COLOR, "mark_color", "颜色", "none"),
    (T.PLAYER, "mark_player", "角色", "none"),
    (T.CARD, "mark_card", "牌", "none"),
    (T.CARDNAME, "mark_cardname", "卡名", "none"),
    (T.TEXT, "mark_text", "文字", "none"),
)
for _t, _name, _noun, _absent in MARK_READS:
    declare(
        _name,
        "query",
        [("p", T.PLAYER), ("key", T.TEXT)],
        _t,
        "{p}本回合的标记{key}",
        f"The {T.describe(_t).removeprefix('a ')} set_mark gave p under `key` this turn (or keep_mark/add_mark for "
        f"the game); {_absent} if none was set (or the mark holds another kind of value).",
        phrasing=Phrasing(
            f"{{p}}本回合记下的{{key}}（{_noun}）",
            variants=(({"key": "kept"}, Phrasing(f"{{p}}记下的{{key}}（{_noun}）")),),
        ),
    )

declare(
    "has_mark",
    "query",
    [("p", T.PLAYER), ("key", T.TEXT)],
    T.BOOL,
    "{p}本回合有标记{key}",
    "True if set_mark gave p a mark `key` this turn (or keep_mark for the game), with any value but false and "
    "none (a flag: "
    "`set_mark(p, key)` sets it, `set_mark(p, key, false)` clears it).",
    phrasing=Phrasing(
        "{p}|本回合有标记{key}",
        negated="{p}|本回合没有标记{key}",
        variants=(({"key": "kept"}, Phrasing("{p}|有标记{key}", negated="{p}|没有标记{key}")),),
    ),
)

declare(
    "skill_yang",
    "query",
    [("p", T.PLAYER), ("skill", T.TEXT)],
    T.BOOL,
    "{p}的{skill}处于阳状态",
    "True while p's 转换技 (`switch: true`) named `skill` is in its 阳 state: it starts 阳 and turns at each "
    "use (阴 after the first). False if p's role has no such skill.",
    phrasing=Phrasing("{p}的{skill}|处于阳状态", negated="{p}的{skill}|处于阴状态"),
)

declare(
    "has_skill",
    "query",
    [("p", T.PLAYER), ("skill", T.TEXT)],
    T.BOOL,
    "{p}有技能{skill}",
    "True if p has the skill named `skill` (its name or id) now: a skill of p's role that p has not lost and is "
    "not dormant (not yet gained), or a rule skill (every seat's) p has not lost. Another player's face-down role "
    "shows no skills (false); one's own does. A dead player has none (his skills are void), but his 死亡前 skills "
    "while his death resolves. A skill made void for the turn (skills_disabled) is still had. "
    "Newer rule sets' 若你拥有技能X, 视为没有此技能 (势力技), the skills a 蓄力技's cap adds up.",
    phrasing=Phrasing("{p}|有技能{skill}", negated="{p}|没有技能{skill}"),
)

declare(
    "mentions",
    "query",
    [("p", T.PLAYER), ("name", T.CARDNAME)],
    T.BOOL,
    "{p}有记述了{name}的技能",
    "记述: True if a skill p has names the card `name` in its text (【name】 in its `text:`): p's role face up "
    "(a face-down role's texts are hidden), the skill not lost and not dormant. False for none.",
    phrasing=Phrasing("{p}|有记述了{name}的技能", negated="{p}|没有记述了{name}的技能"),
)

# The reads whose type is the one their place asks for: name -> {type asked for: the typed read}.
TYPED_READS: dict[str, dict[str, str]] = {
    "mark": {t: name for t, name, _, _ in MARK_READS} | {T.BOOL: "has_mark"},
    "data": {T.INT: "data_number", T.COLOR: "data_color", T.TEXT: "data_text"},
}


# ---------------------------------------------------------------- actions

declare(
    "draw",
    "action",
    [("p", T.PLAYER), ("n", T.INT, 1)],
    T.BOOL,
    "{p}摸{n}张牌",
    "p draws n cards.",
    phrasing=Phrasing("{p}|摸{n:张}牌"),
)

declare(
    "discard",
    "action",
    [("xs", T.CARDS)],
    T.BOOL,
    "弃置{xs}",
    "弃置: the cards go face up to the discard pile, from wherever they are.",
    phrasing=Phrasing(variants=(({"xs": "hand()"}, Phrasing("{xs.p}|弃置所有手牌")),)),
)

declare(
    "give",
    "action",
    [("xs", T.CARDS), ("to", T.PLAYER)],
    T.BOOL,
    "将{xs}交给{to}",
    "交给: the cards go face down into `to`'s hand; only giver and receiver see them.",
)

declare(
    "put_in_hand",
    "action",
    [("xs", T.CARDS), ("p", T.PLAYER)],
    T.BOOL,
    "将{xs}加入{p}的手牌",
    "加入手牌: the cards go into p's hand; cards from a face-up place stay known to all.",
    phrasing=Phrasing("将{xs}加入{p:poss}手牌"),
)

declare(
    "collect",
    "action",
    [("xs", T.CARDS), ("p", T.PLAYER)],
    T.BOOL,
    "将{xs}置入{p}的情报区",
    "置入情报区: face up into p's intel. This is collecting, not receiving (接收).",
    phrasing=Phrasing("将{xs}置入{p:poss}情报区"),
)

declare(
    "replace_intel",
    "action",
    [("old", T.CARD), ("new", T.CARD), ("old_to", T.PLAYER, None)],
    T.BOOL,
    "用{new}代替{old}",
    "new takes old's place in the intel area old is in (代替 / 互换); old goes to old_to's hand, or to the "
    "discard pile. Later triggers of an event about old (e.g. other 接收后 skills) see new instead.",
)

declare("remove", "action", [("xs", T.CARDS)], T.BOOL, "将{xs}移出游戏", "移出游戏: the cards leave the game.")

declare(
    "put_in_zone",
    "action",
    [("xs", T.CARDS), ("zone", T.ZONE), ("p", T.PLAYER, None), ("bottom", T.BOOL, False)],
    T.BOOL,
    "将{xs}置入{p}的{zone}",
    "The cards go, in order, onto the top of a zone the rules declare (`zones:`; bottom: true, each under its "
    "bottom): p's if the zone is each player's (false, nothing moved, without p), the table's if it is shared "
    "(p is not needed). Who sees them follows the zone's `look`; past its `capacity` its bottom cards go to its "
    "`overflow`. Cards already in that zone move within it: putting them back in another order reorders it.",
    phrasing=Phrasing(
        "将{xs}置入{p:poss}{zone}",
        variants=(
            ({"p": "absent", "bottom": "true"}, Phrasing("将{xs}置于{zone}底")),
            ({"bottom": "true"}, Phrasing("将{xs}置于{p:poss}{zone}底")),
            ({"p": "absent"}, Phrasing("将{xs}置入{zone}")),
        ),
    ),
)

declare(
    "reveal",
    "action",
    [("xs", T.CARDS), ("to", T.PLAYERS, EVERYONE)],
    T.BOOL,
    "展示{xs}",
    "展示 (without `to`: to everyone) or 查看 (to: the players who look). The cards stay where they are. A `to` "
    "that is none or an empty list when the code runs shows them to nobody (never to everyone).",
    phrasing=Phrasing(
        "将{xs}展示给{to}",
        variants=(
            ({"to": "absent"}, Phrasing("展示{xs}")),
            ({"to": "you"}, Phrasing("查看{xs}")),
            ({"xs": "face_down_card"}, Phrasing("将这张牌面朝下交给{to}")),
        ),
    ),
)

declare(
    "move_pending",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "将待收情报移至{p}面前",
    "The pending intel (待收情报) moves in front of p.",
    contexts=("contest",),
)

declare(
    "swap_pending",
    "action",
    [("c", T.CARD)],
    T.BOOL,
    "用{c}面朝下代替待收情报",
    "c becomes the pending intel, face down; the old one goes face up to the discard pile. The sender stays.",
    contexts=("contest",),
    phrasing=Phrasing("将{c}面朝下代替待收情报，并将原情报弃置"),
)

declare(
    "flip_pending",
    "action",
    [],
    T.BOOL,
    "翻开待收情报",
    "The pending intel is turned face up.",
    contexts=("send_idle", "contest"),
)

declare(
    "send",
    "action",
    [("c", T.CARD), ("by", T.PLAYER, None), ("face_up", T.BOOL, False), ("lock", T.PLAYER, None)],
    T.BOOL,
    "由{by}将{c}作为情报传出",
    "c is sent as this turn's intel by `by` (default: self), who picks "
    "the target of an ↑ card and the lock; `by` becomes the sender (情报传出者). `lock:` given, that "
    "player is locked and nobody is asked (any card, lockable or not). False (nothing sent) if nobody else "
    "is alive, or c's arrow is not one of the rules' `send_arrows` (a house rule, docs/modding.md).",
    contexts=("send_start", "need_send"),
    phrasing=Phrasing("{by}|将{c}作为情报传出", variants=(({"face_up": "true"}, Phrasing("{by}|将{c}面朝上传出")),)),
)

declare(
    "take_top",
    "action",
    [("n", T.INT)],
    T.CARDS,
    "翻开牌堆顶的{n}张牌",
    "翻开: the top n cards are turned face up and set aside for this effect; effects must move them on "
    "(leftovers go to the discard pile when the effect ends).",
    phrasing=Phrasing("从牌堆顶翻开{n:张}牌", noun=Noun("牌", mods=("翻开的",))),
)

declare(
    "flip_role",
    "action",
    [("p", T.PLAYER), ("face_up", T.BOOL)],
    T.BOOL,
    "将{p}的角色牌翻面（面朝上：{face_up}）",
    "Turn p's role face up (翻开) or face down (翻至面朝下). Not fully resolved if it already was.",
    phrasing=Phrasing(
        variants=(
            ({"face_up": "true"}, Phrasing("将{p}的角色牌翻开")),
            ({"face_up": "false"}, Phrasing("将{p}的角色牌翻至面朝下")),
        )
    ),
)

declare(
    "add_status",
    "action",
    [("xs", T.PLAYERS), ("status", T.STATUS), ("turns", T.INT, 0), ("secret", T.BOOL, False)],
    T.BOOL,
    "令{xs}{status}",
    "Put a status on each player until the end of this turn (turns: that many turns more). "
    "secret: true tells only each player himself (a status that depends on hidden information, such as his "
    "identity, must not be announced). Statuses: " + ", ".join(STATUSES),
    phrasing=Phrasing(
        extras=(("turns", "int>0", "（持续至其后{turns:个}回合结束）"), ("turns", "expr", "（再持续{turns}个回合）"))
    ),
)

declare(
    "set_mark",
    "action",
    [("p", T.PLAYER), ("key", T.TEXT), ("value", T.MARK_VALUE, True)],
    T.BOOL,
    "令{p}本回合记下{key}",
    "Remember a value on p under `key` until the end of this turn (a declared "
    "name, 本回合首次, ...): a number, color, player, card, card name, text or true/false (a number is kept "
    "within ±999,999,999); read it with mark(p, key) where the type is clear, or mark_number(p, key) … "
    "has_mark(p, key).",
)

declare(
    "keep_mark",
    "action",
    [("p", T.PLAYER), ("key", T.TEXT), ("value", T.MARK_VALUE, True), ("secret", T.BOOL, False)],
    T.BOOL,
    "令{p}记下{key}（直到游戏结束）",
    "Remember a value on p under `key` for the rest of the game, until cleared (`keep_mark(p, key, false)`): "
    "the lasting set_mark, read by the same mark reads. Everyone sees it (in observations and the log); "
    "secret: true shows it to p alone. A set_mark of the same key replaces it for this turn's end.",
    phrasing=Phrasing(extras=(("secret", "true", "（仅其自己可见）"),), keeps="key"),
)

declare(
    "add_mark",
    "action",
    [("p", T.PLAYER), ("key", T.TEXT), ("n", T.INT), ("max", T.INT, None), ("secret", T.BOOL, False)],
    T.BOOL,
    "令{p}的{key}标记增加{n}",
    "A counter kept for the game (蓄力, 使命 progress): add n (negative: remove) to p's number mark `key`, "
    "kept between 0 and `max` (no maximum if not given); read it with mark_number(p, key). False, and "
    "nothing changes, when the counter is already at the bound it moves towards (蓄力技: no room, no gain); "
    "a gain beyond the maximum is cut to the room left. Public unless secret: true.",
    phrasing=Phrasing(
        extras=(("max", "given", "（至多为{max}）"), ("secret", "true", "（仅其自己可见）")),
        keeps="key",
        variants=(({"n": "int<0"}, Phrasing("令{p}的{key}标记减少{n:minus}")),),
    ),
)

declare(
    "counter",
    "query",
    [("p", T.PLAYER), ("counter", T.COUNTER)],
    T.INT,
    "{p}的{counter}",
    "The value of p's counter (one the rules declare in `counters:`, e.g. 护甲): its initial value until "
    "something changes it; 0 for none. The same number mark_number(p, counter) reads.",
)

declare(
    "add_counter",
    "action",
    [("p", T.PLAYER), ("counter", T.COUNTER), ("n", T.INT)],
    T.BOOL,
    "令{p}的{counter}增加{n}",
    "Add n to p's declared counter, within the range the rules give it (a gain beyond the maximum is cut to "
    "the room left: 护甲's 加X点护甲). False, and nothing changes, when it is already at that bound. Seen by "
    "those its declared visibility names; each change is the event counter_changed.",
    phrasing=Phrasing(keeps="counter", variants=(({"n": "int<0"}, Phrasing("令{p}的{counter}减少{n:minus}")),)),
)

declare(
    "remove_counter",
    "action",
    [("p", T.PLAYER), ("counter", T.COUNTER), ("n", T.INT)],
    T.BOOL,
    "令{p}的{counter}减少{n}",
    "Take n from p's declared counter, down to its minimum at most (护甲 absorbing damage: a loss beyond what "
    "is left takes what is left). False, and nothing changes, when it is already at its minimum.",
    phrasing=Phrasing(keeps="counter"),
)

declare(
    "set_counter",
    "action",
    [("p", T.PLAYER), ("counter", T.COUNTER), ("n", T.INT)],
    T.BOOL,
    "令{p}的{counter}改为{n}",
    "Make p's declared counter n (kept within its range). False, and nothing changes, when it is n already.",
    phrasing=Phrasing(keeps="counter"),
)

declare(
    "gain_skill",
    "action",
    [("p", T.PLAYER), ("skill", T.TEXT)],
    T.BOOL,
    "令{p}获得技能{skill}",
    "p has the skill of its role named `skill` again (one it lost, or one marked `dormant: true`: a 使命技's "
    "reward). False if its role has no such skill or p has it already.",
)

declare(
    "lose_skill",
    "action",
    [("p", T.PLAYER), ("skill", T.TEXT)],
    T.BOOL,
    "令{p}失去技能{skill}",
    "p no longer has the skill of its role named `skill` (a 使命技 once it succeeded or failed, 失去技能) until "
    "gain_skill gives it back. False if its role has no such skill or p has lost it already.",
)

declare(
    "put_on_deck",
    "action",
    [("xs", T.CARDS), ("bottom", T.BOOL, False)],
    T.BOOL,
    "将{xs}放回牌堆顶",
    "放回牌堆顶 (bottom: 牌堆底): face down onto the deck; the first card of the list ends on top "
    "(or, at the bottom, lowest).",
    phrasing=Phrasing(variants=(({"bottom": "true"}, Phrasing("将{xs}置于牌堆底")),)),
)

declare(
    "use_card",
    "action",
    [("c", T.CARD), ("as", T.CARDNAME, None), ("by", T.PLAYER, None), ("at", T.TIMING, None)],
    T.BOOL,
    "令{by}使用{c}（当作{as}）",
    "`by` (default self) uses card c now, at this idle point, as `as` (default: what c must be used "
    "as). c none and `as` given: a virtual use (视为使用【as】) — the card's target rule, effect and events "
    "without a physical card, free of bans and conversions. c is a hand card of `by`, or a card in one of his "
    "zones the rules declare or a shared one (used as itself; bans, forced conversions and 不能使用手牌 are about "
    'hand cards). `at` (an idle point in quotes, e.g. `at: "play_phase"`): the use is made at another moment, '
    "outside any idle point or at another one, as if at `at` — the card's uses written for `at`, their "
    "conditions and targets, and the same resolution as any use (蓄谋: a stored card used at a phase's start). "
    "Whoever runs this effect makes the user's choices (one player making another use a card). Not fully "
    "resolved if the use is not legal (check with usable, with the same `at`).",
    phrasing=Phrasing(
        "由{by}使用{c}",
        variants=(
            ({"c": "none", "as": "given", "at": "given"}, Phrasing("{by}|如在{at}般视为使用{as}")),
            ({"c": "none", "as": "given"}, Phrasing("{by}|视为使用{as}")),
            ({"as": "given", "at": "given"}, Phrasing("{by}|如在{at}般将{c}当作{as}使用")),
            ({"as": "given"}, Phrasing("{by}|将{c}当作{as}使用")),
            ({"at": "given"}, Phrasing("{by}|如在{at}般使用{c}")),
        ),
    ),
)

declare(
    "convert",
    "action",
    [("from", T.CARDNAME), ("to", T.CARDNAME)],
    T.BOOL,
    "本回合所有{from}只能当作{to}使用",
    "Until the end of the turn every player's hand copies of `from` can be used only as `to` (a forced "
    "conversion: A只能当作B使用). Virtual uses are not affected, and a converted card is not converted "
    "again.",
)

declare(
    "ban_cards",
    "action",
    [("names", T.CARDNAMES)],
    T.BOOL,
    "本回合所有角色不能使用{names}",
    "Until the end of the turn nobody may use hand cards of these names (as what they are used as).",
)

declare(
    "nullify",
    "action",
    [],
    T.BOOL,
    "令该牌无效",
    "The card being used (the innermost one) becomes invalid (无效): its effect does not happen, but it "
    "still counts as used and resolved, and goes where it would have gone. Use it in card_used or "
    "card_resolving triggers, or at the `respond` idle point (一张牌生效前): there, in the effect of the card "
    "or skill used, it makes the card answered void (`answered`).",
)

declare(
    "claim_used_card",
    "action",
    [("p", T.PLAYER, None)],
    T.BOOL,
    "在该牌结算后将其加入{p}的手牌",
    "When the card being used (the innermost one) has resolved, it goes into p's hand (default self) "
    "instead of the discard pile or out of the game. Nothing happens for a virtual use.",
)

declare(
    "replace_role",
    "action",
    [("p", T.PLAYER, None), ("look", T.INT, 3)],
    T.BOOL,
    "{p}的角色牌移出游戏，从角色牌堆顶抽取{look}张牌选择一张作为新角色牌",
    "p's role card leaves the game; p secretly looks at the top `look` roles of the role pile and keeps "
    "one as his new role (a hidden role face down); the rest go to the bottom of the pile.",
    phrasing=Phrasing("{p}的角色牌移出游戏，从角色牌堆顶抽取{look:张}牌选择一张作为新角色牌"),
)

declare(
    "set_direction",
    "action",
    [("d", T.DIRECTION)],
    T.BOOL,
    "将情报的箭头视作{d}",
    "The intel sent this turn travels in direction d instead of its arrow, from the 传出情报时 node on: "
    "made ↑, its sender is then asked whom it goes to; made ←/→, an ↑ target is dropped; the lock stays. "
    "False (nothing changes) if no intel is on its way or d is not one of the rules' `send_arrows`.",
    contexts=("intel_sent",),
)

declare(
    "lock_intel",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "锁定{p}",
    "The intel sent this turn is locked on p, whatever card it is (你传出的情报均可以锁定): at the 传出情报时 "
    "node, after the send. False (nothing changes) if the intel is locked already (the lock chosen with the "
    "send stays), p is none (an optional choice declined), the sender or dead.",
    contexts=("intel_sent",),
)

declare(
    "set_receivers",
    "action",
    [("must", T.PLAYERS, None), ("cannot", T.PLAYERS, None), ("secret", T.BOOL, False)],
    T.BOOL,
    "{must}必须接收该情报，{cannot}不能接收该情报",
    "While the pending intel stays pending (not after it is received, discarded or replaced by another "
    "card), the players of `must` have to accept it when it reaches them and those of `cannot` may not "
    "(必须接收/不能接收该情报): a property of the intel, where add_status(p, must_receive) lasts the turn. "
    "Public; secret: true tells each bound player only his own binding and nobody else anything (a binding "
    "that depends on hidden information, such as his identity, must not be announced). False if no intel "
    "is pending.",
)

declare(
    "protect_intel",
    "action",
    [("names", T.CARDNAMES)],
    T.BOOL,
    "该情报不能被{names}指定",
    "While the pending intel stays pending (passed on, contested; not after it is received, discarded or "
    "replaced by another card), nobody may use cards of these names, from hand or virtually: "
    "a property of the intel, not a ban for the turn (ban_cards). False if no intel is pending.",
)

declare(
    "send_instead",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "{p}可以发动“你需要传出情报时”的技能代替之",
    "p must send an intel now (你需要传出情报时, e.g. the target of a card that makes him send): he is first "
    "offered his uses of timing `need_send` (skills), which replace the send; true if he used one and an "
    "intel is on its way. A skill used here resolves as part of the effect that asked (nothing reacts "
    "before that effect ends). Write the send the effect asks for after it: "
    "`if not send_instead(target) { send(..., by: target) }`.",
    contexts=("send_start",),
    phrasing=Phrasing(
        "{p}可以发动“你需要传出情报时”的技能代替之",
        negated="{p}没有发动“你需要传出情报时”的技能代替之",
    ),
)

declare(
    "add_draw",
    "action",
    [("n", T.INT, 1)],
    T.BOOL,
    "摸牌阶段多摸{n}张牌",
    "This draw phase draws n more cards (摸牌阶段多摸).",
    contexts=("draw_phase",),
    phrasing=Phrasing("摸牌阶段多摸{n:张}牌"),
)

declare(
    "look_identity",
    "action",
    [("p", T.PLAYER), ("by", T.PLAYER, None)],
    T.BOOL,
    "{by}查看{p}的身份牌",
    "`by` (default self) looks at p's identity card (and secret task).",
)

declare(
    "take_identity",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "获得{p}的身份牌，并将你原本的身份牌面朝下移出游戏",
    "Self takes p's identity card (with its secret task, if any); self's own identity card leaves the game "
    "face down, and p has no identity any more. Everyone hears that it happened, not what the cards are.",
)

declare(
    "end_contest",
    "action",
    [],
    T.BOOL,
    "结束争夺阶段",
    "强制结束争夺阶段: nobody else acts; the pending intel is received where it is.",
    contexts=("contest",),
)

declare(
    "set_pending",
    "action",
    [("c", T.CARD), ("face_up", T.BOOL, False)],
    T.BOOL,
    "将{c}作为待收情报",
    "c becomes the pending intel in front of the same player (the sender stays). If there still is a "
    "pending intel, it goes to the discard pile face up first; move it elsewhere before to keep it.",
    contexts=("send_idle", "contest"),
)


# ---------------------------------------------------------------- victory skills (stages 2 and 4)

_VICTORY_UNITS = ("declare", "co_win")

declare(
    "winners",
    "query",
    [],
    T.PLAYERS,
    "胜利的角色",
    "The players winning so far in this victory check (declarers and those winning with them).",
    contexts=_VICTORY_UNITS,
)

declare(
    "declarers",
    "query",
    [],
    T.PLAYERS,
    "宣告胜利的角色",
    "The players who declared victory in this check (not those who only win with them).",
    contexts=_VICTORY_UNITS,
)

declare(
    "win",
    "action",
    [("p", T.PLAYER), ("declared", T.BOOL, False)],
    T.BOOL,
    "{p}获得胜利",
    "p wins too (joins the winners of this check). declared: true counts p as declaring victory (宣胜), "
    "which later stages (usurping, co-victory skills) see in declarers().",
    contexts=_VICTORY_UNITS,
)

declare(
    "block_win",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "{p}无法胜利",
    "p does not win after all.",
    contexts=_VICTORY_UNITS,
)

declare(
    "same_camp",
    "query",
    [("a", T.PLAYER), ("b", T.PLAYER)],
    T.BOOL,
    "{a}与{b}同阵营",
    "True if both have the same camp identity (神秘人 have no camp). Hidden information: use it only "
    "in effects the rules resolve without a player choosing on it.",
)


# ---------------------------------------------------------------- choices


def _elem_type(argtypes: dict[str, str]) -> str:
    return T.element_of(argtypes.get("from", T.ANY))


def _list_type(argtypes: dict[str, str]) -> str:
    return T.list_of(argtypes.get("from", T.ANY))


declare(
    "choose",
    "choice",
    [
        ("from", T.LIST),
        ("by", T.PLAYER, None),
        ("prompt", T.TEXT, ""),
        ("optional", T.BOOL, False),
        ("blind", T.BOOL, False),
    ],
    _elem_type,
    "{by}从{from}中选择一个",
    "`by` (default self) picks one item of the list; none if the list is empty "
    "(or if optional and they decline). blind: true picks without seeing (抽取, 随机): the options are "
    "positions in a shuffled order.",
    phrasing=Phrasing(choice=Choice(), extras=(("optional", "true", "（也可以不选）"),)),
)

declare(
    "declare",
    "choice",
    [("from", T.LIST), ("by", T.PLAYER, None), ("prompt", T.TEXT, "")],
    _elem_type,
    "{by}宣言{from}中的一个",
    "宣言: like choose, but everyone hears the answer.",
    phrasing=Phrasing(choice=Choice(verb="宣言", declared=True)),
)

declare(
    "choose_many",
    "choice",
    [("from", T.LIST), ("by", T.PLAYER, None), ("min", T.INT, 0), ("max", T.INT, 99), ("prompt", T.TEXT, "")],
    _list_type,
    "{by}从{from}中选择{min}至{max}个",
    "`by` picks between min and max items, one at a time.",
    phrasing=Phrasing(choice=Choice(range=("min", "max"))),
)

# ---------------------------------------------------------------- events the rules declare, hidden picks

declare(
    "emit",
    "action",
    [("event", T.EVENT)],
    T.BOOL,
    "宣告{event}",
    "emit(event, field: value, ...): announce an event the rules declare (`events:`), every field given by name "
    "with a value of its declared type (E312: the event is not declared; E313: a field unknown, missing or of "
    "another type). The event is a timing node: the skills that react to it fire, in the usual order, and may "
    "replace its `replaceable` fields (replace_field, 改判); then the announcing effect goes on. Its value: the "
    "first replaceable field as it is after the node (the event's type for it), or true for an event that "
    "declares none.",
    phrasing=Phrasing(noun=Noun("其结果")),
)

declare(
    "replace_field",
    "action",
    [("field", T.TEXT), ("value", T.ANY)],
    T.BOOL,
    "将{field}改为{value}",
    "改判: in a triggered skill reacting to an event the rules declare, replace one of its `replaceable` fields "
    "(E314 elsewhere, or for a field not declared replaceable; E313 for a value of another type). The skills "
    "that react after it, and the effect that announced the event, read the new value. A card that replaces the "
    "card of a judgement (reveal_top) is set aside face up in its place; the card replaced stays set aside "
    "(discarded when the judgement ends) unless the effect moves it.",
)

declare(
    "reveal_top",
    "action",
    [("event", T.EVENT), ("p", T.PLAYER, None)],
    T.CARD,
    "{p}|进行一次判定",
    "判定: the deck's top card is turned up, shown to all and set aside; the declared event is announced (as "
    "emit does) with p (default: you) as its subject and the card as its first replaceable card field (E313 "
    "if it declares none), the other fields none; after its node the judgement card (the one that replaced it, "
    "if a skill did: 改判) goes to the discard pile, and is the value. None, not fully resolved, when the deck "
    "and the discard pile are empty.",
    phrasing=Phrasing(noun=Noun("判定牌")),
)

declare(
    "pick_hidden",
    "choice",
    [("players", T.PLAYERS), ("prompt", T.TEXT, ""), ("reveal", T.BOOL, True)],
    T.CARDS,
    "{players}各自暗中选择一张手牌",
    "A simultaneous hidden choice: each of the players who has a hand card picks one of them face down, in "
    "turn, nobody learning anything of another's pick; then (reveal true) the picks are set aside face up all "
    "at once (discarded when the effect ends unless it moves them). The picked cards, in the players' order "
    "(a player without a hand card picks nothing and is skipped). reveal false: the picks stay in their hands, "
    "unseen, for the effect to put face down somewhere (a declared zone) and show later.",
)


def as_list(x: object) -> list[Any]:
    if x is None:
        return []
    if isinstance(x, list):
        return x
    return [x]


# Names every unit can read, and the unit kinds that provide the others.
_CONSTANT_VALUES = {
    "red": RED,
    "blue": BLUE,
    "black": BLACK,
    "left": LEFT,
    "right": RIGHT,
    "up": UP,
    "true": True,
    "false": False,
    "none": None,
}
# The catalogue's constants: name -> (type, value).
CONSTANTS = {name: (c.type, _CONSTANT_VALUES[name]) for name, c in catalogue.CONSTANTS.items()}
