"""Check and compile effect-language code into Python functions.

One pass over the AST does both jobs: it infers the type of every expression,
records every problem it finds (unknown names with a suggestion, wrong
argument types, a name the timing does not provide, an unknown card name …)
and writes Python source for each node. Each code unit (a program, a
condition, a target rule) becomes one Python function, built with
``compile()`` when the content loads: ``let`` and ``for`` variables and
``it`` are its local variables, a ``where`` is a list comprehension, and a
primitive is one direct call. The game then calls one function per unit, not
a tree of closures (one Python call per AST node), which is most of what the
language used to cost.

The generated code cannot reach Python beyond what this module puts in its
namespace: names in it are only the generated ones (``v3`` for a variable,
``b_draw`` for a primitive, ``k0`` for a constant) and ``ctx``; literals are
written with ``repr`` of an int or a str; the namespace has no builtins but
the few the code uses. The language cannot loop forever either: ``for`` walks
a finite list and ``repeat`` is capped, and every loop spends the game's step
budget (catalogue.LIMITS: one step per iteration of a loop inside a loop,
charged as the inner loop starts, so the cost is one call per inner loop, not
per iteration; a ``where`` inside a loop is charged its list's length; the
outermost loop is free: see ``Compiler._loop``), which ends a runaway game with
E501. Loops
inside loops whose iterations could multiply past the budget get warning W501.
``Compiler.source`` keeps the generated text, for reading and for tests.
"""

from __future__ import annotations

import contextlib
import hashlib
import operator
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from .. import catalogue
from ..snippet import clip
from ..suggest import did_you_mean
from . import ast, types as T
from .builtins import BUILTINS, CONSTANTS, EVERYONE, REQUIRED, STATUSES, TYPED_READS, Builtin, as_list, returns_list
from .errors import LanguageError
from .parser import NAMED_CARD_HINT, compile_cached, parse
from .runtime import Card, CardName, Ctx, Player, StopEffect, loop_over, source_of
from .visibility import check as check_hidden_choices

# A value of the language at run time (a player, a card, a number, a list of them, none …). Like the
# engine's objects in runtime.py it is Any by design: the static types of the language are the strings
# of types.py, checked here, not Python types.
Value = Any
# A compiled code unit: the generated `run(ctx)`. An effect returns None, a condition a bool, a
# target rule a list of players: a Value.
CompiledUnit = Callable[[Ctx], Value]
# How the code reads a context variable from its Ctx.
Getter = Callable[[Ctx], Value]
# The context variables a unit may read: name -> (type, getter, where it exists (human wording)).
Env = dict[str, tuple[str, Getter, str]]
# A unit compiled ahead of time (the optional compiled build, content/precompiled.py): given the namespace the
# compiler built for the unit, its run(ctx).
Factory = Callable[[dict[str, Any]], CompiledUnit]
# Where the code runs: a timing or a victory check, or several (a skill used at more than one).
UnitKind = str | tuple[str, ...]
# What an expression compiles to: (its type in the language, Python source of its value).
Typed = tuple[str, str]

MAX_REPEAT = catalogue.LIMITS["max_repeat"].value
STEP_BUDGET = catalogue.LIMITS["step_budget"].value
# The decision kinds the generated code asks for in `may` and `choose_one`.
_CONFIRM, _OPTION = catalogue.DECISIONS["confirm"].name, catalogue.DECISIONS["option"].name


_default_chooser = operator.attrgetter("chooser")


def _sender(ctx: Ctx) -> Player | None:
    t = ctx.game.transit
    return t.sender if t is not None else None


# How each context variable of the catalogue is read from a Ctx.
_GETTERS: dict[str, Getter] = {
    "self": operator.attrgetter("me"),
    "current": lambda ctx: ctx.game.current,
    "this_card": operator.attrgetter("card"),
    "target": operator.attrgetter("target"),
    "dying": operator.attrgetter("dying"),
    "pending": lambda ctx: ctx.game.pending,
    "holder": lambda ctx: ctx.game.holder,
    "sender": _sender,
    "used_as": operator.attrgetter("used_as"),
    "event": operator.attrgetter("event"),
    "subject": operator.attrgetter("subject"),
}

# Context variables: name -> (type, getter, where it exists (human wording)), from the catalogue.
CONTEXT_VARS: Env = {name: (v.type, _GETTERS[name], v.where) for name, v in catalogue.CONTEXT_VARS.items()}


# Context variables the generated code reads directly (the rest are called through their getter).
_CONTEXT_CODE = {
    "self": "ctx.me",
    "current": "ctx.game.current",
    "this_card": "ctx.card",
    "target": "ctx.target",
    "dying": "ctx.dying",
    "pending": "ctx.game.pending",
    "holder": "ctx.game.holder",
    "used_as": "ctx.used_as",
    "event": "ctx.event",
    "subject": "ctx.subject",
}


def _has(card: Card | None, color: int | None) -> bool:
    """`card has color` (none, e.g. a data slot the card does not have, matches no card)."""
    return card is not None and color is not None and bool(card.mask & color)


def _compare(op: Callable[[Value, Value], bool]) -> Callable[[Value, Value], bool]:
    def cmp(x: Value, y: Value) -> bool:
        return x is not None and y is not None and op(x, y)

    return cmp


def _loop_times(ctx: Ctx, n: int | None) -> range:
    """What a `repeat n` runs: n capped to 0..MAX_REPEAT, spent from the game's step budget."""
    n = 0 if n is None or n < 0 else n if n < MAX_REPEAT else MAX_REPEAT
    game = ctx.game
    game.budget_line -= n
    if game.changes + game.zones.moves > game.budget_line:
        game.over_budget()
    return range(n)


# What generated code may name besides its own constants and primitives.
_BASE_NAMESPACE: dict[str, object] = {
    "__builtins__": {},
    "range": range,
    "len": len,
    "max": max,
    "min": min,
    "StopEffect": StopEffect,
    "as_list": as_list,
    "source_of": source_of,
    "has": _has,
    "lt": _compare(operator.lt),
    "le": _compare(operator.le),
    "gt": _compare(operator.gt),
    "ge": _compare(operator.ge),
    "loop_over": loop_over,
    "loop_times": _loop_times,
    "MAX_REPEAT": MAX_REPEAT,
}
_CMP_NAMES = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def direct_calls(namespace: Mapping[str, object]) -> dict[str, tuple[str, str]]:
    """The functions of a unit's namespace that code compiled ahead of time calls directly, not through the
    namespace (the primitives, `loop_over` …): name in the code -> (module, function name), each a function of
    this package defined at the top of its module."""
    out: dict[str, tuple[str, str]] = {}
    for name, value in namespace.items():
        module, fname = getattr(value, "__module__", None), getattr(value, "__name__", None)
        if isinstance(module, str) and module.startswith("interpreter.") and isinstance(fname, str):
            mod = sys.modules.get(module)
            if mod is not None and getattr(mod, fname, None) is value:
                out[name] = (module, fname)
    return out


def unit_key(source: str, namespace: Mapping[str, object]) -> str:
    """What identifies a unit compiled ahead of time: its generated source and what the names it calls directly
    stand for (everything else it reads from the namespace it is given). A changed unit has another key."""
    h = hashlib.sha256(source.encode())
    for name, (module, fname) in sorted(direct_calls(namespace).items()):
        h.update(f"\0{name}={module}.{fname}".encode())
    return h.hexdigest()[:32]


# While a list is set here, every unit compiled is added to it: (its source, its namespace) (for the generator of
# the units compiled ahead of time, content/precompiled.py).
_recording: list[list[tuple[str, dict[str, object]]]] = []


@contextlib.contextmanager
def recording() -> Iterator[list[tuple[str, dict[str, object]]]]:
    """The units compiled inside the block: (source, namespace) each."""
    units: list[tuple[str, dict[str, object]]] = []
    _recording.append(units)
    try:
        yield units
    finally:
        _recording.remove(units)


def context_env(names: Iterable[str]) -> Env:
    return {n: CONTEXT_VARS[n] for n in names}


def field_var(name: str, typ: str, events: str) -> tuple[str, Getter, str]:
    """The context variable of a field of an event the rules declare (model/declared.py), for the skills that
    react to it: its value in the event being reacted to (a number 0 and a condition false where it is not set)."""
    missing = 0 if typ == T.INT else False if typ == T.BOOL else None

    def get(ctx: Ctx) -> Value:
        fields = ctx.fields
        return fields.get(name, missing) if fields is not None else missing

    return typ, get, f"triggered skills reacting to {events}"


# Names from other languages that a designer writes by habit, and what this language calls them.
_NAME_SLIPS = {
    "True": "write `true` (lower case)",
    "False": "write `false` (lower case)",
    "TRUE": "write `true` (lower case)",
    "FALSE": "write `false` (lower case)",
    "None": "write `none` (lower case)",
    "null": "write `none`",
    "nil": "write `none`",
    "this": "the skill's owner is `self`",
    "me": "the skill's owner is `self`",
    "len": "count(...) gives how many items a list has",
    "length": "count(...) gives how many items a list has",
}


_HAS_HINT = "`c has red` tests a card's colors; " + NAMED_CARD_HINT


def _suggest(name: str, candidates: Iterable[object]) -> str | None:
    return did_you_mean(name, candidates)


class _Scope:
    """The variables of one block: name -> (type, slot); a slot n is the local `vn` of the generated code."""

    def __init__(self, parent: _Scope | None = None) -> None:
        self.parent = parent
        self.names: dict[str, tuple[str, int]] = {}

    def lookup(self, name: str) -> tuple[str, int] | None:
        s: _Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None


class Compiler:
    """Compiles the code units of one content object. `errors` collects every problem found."""

    def __init__(
        self,
        env: Env,
        unit: UnitKind,
        card_names: dict[str, str],
        data_types: dict[str, str] | None = None,
        precompiled: Mapping[str, Factory] | None = None,
        counters: Iterable[str] = (),
        zones: Iterable[str] = (),
    ) -> None:
        self.env = env  # context variables available: name -> (type, getter, where)
        self.unit = unit  # the timing or check this code runs at (for context checks)
        self.card_names = card_names  # Chinese card name -> card id
        self.data_types = data_types or {}  # the card's own per-copy data (`data:`): key -> type
        self.counters = tuple(counters)  # the counters the rules declare (model/declared.py), by name
        self.zones = tuple(zones)  # the zones the rules declare, by name
        # units compiled ahead of time, by unit_key (the compiled build's table of the bundled content's units)
        self.precompiled = precompiled
        self.errors: list[LanguageError] = []
        self.warnings: list[LanguageError] = []  # what may go wrong in play (W501 loops inside loops)
        self.calls: set[str] = set()  # the primitives the code calls (W502: a use instead of sending that never sends)
        # marks set and read with a key written out: (key, kind of value, "set" or "read", line, col) (W301)
        self.marks: list[tuple[str, str, str, int, int]] = []
        # skills of one's own role named in the code (gain_skill(self, "名") …): (name, line, col), for the loader
        self.skill_refs: list[tuple[str, int, int]] = []
        self.loop_steps = 1  # the most iterations the loops around the code being compiled can make (W501)
        self.in_loop = False  # inside a loop or a `where` predicate: a `where` there spends the step budget
        self.nslots = 0  # variables (let, for, it) so far: v0, v1 …
        self.ntemps = 0  # helper locals of statements so far: t0, t1 …
        self.scope = _Scope()
        self.names_read: set[str] = set()  # context variables the code reads (e.g. whether it depends on this_card)
        self.namespace: dict[str, object] = dict(_BASE_NAMESPACE)
        self._bound: dict[int, str] = {}  # id(object) -> its name in the namespace
        self.source = ""  # the Python source of the last unit compiled
        self.tree: ast.Node | None = None  # the typed AST of the last expression compiled (for guard.seat_guard)

    def state_reads(self) -> frozenset[str] | None:
        """The parts of the game state (catalogue.STATE_PARTS) the code compiled reads: those its primitives and
        context variables declare (an operator reads only its values; a card's colors change only when a
        resample re-deals faces, which counts as an intel change). None if one of them declares nothing."""
        parts: set[str] = set()
        for name in self.calls:
            b = BUILTINS.get(name)
            if b is None or b.reads is None:
                return None
            parts |= b.reads
        for name in self.names_read:
            v = catalogue.CONTEXT_VARS.get(name)
            if v is None or v.reads is None:
                return None
            parts.update(v.reads)
        return frozenset(parts)

    # ------------------------------------------------------------------ entry points

    def program(self, text: str) -> CompiledUnit:
        """Compile statements; returns run(ctx)."""
        try:
            prog = parse(text)
            body = self._block(prog.body, 2)
            check_hidden_choices(
                prog,
                lambda node, owner: self._err(
                    "E309",
                    f"`{node.func}` offers the cards of a hand the chooser cannot see as face-up options",
                    node,
                    "add `blind: true` (抽取: a random pick), let the hand's owner choose (`by:`), or show the "
                    "hand to the chooser first with `reveal(hand(...), to: [...])`",
                ),
            )
        except RecursionError:  # the parser, this compiler and the check recurse once per level of nesting
            raise _too_deep(1, 1) from None
        lines = [
            "def run(ctx):",
            "    ctx.incomplete = False",
            "    try:",
            *body,
            "    except StopEffect:",
            "        pass",
        ]
        return self._build(lines, prog)

    def expression(self, text: str, expect: str | None = None) -> CompiledUnit:
        """Compile one expression; returns f(ctx) -> value."""
        try:
            node = parse(text, start="expression")
            t, code = self._expr(node, expect)
            self.tree = node
        except RecursionError:
            raise _too_deep(1, 1) from None
        if expect is not None and not T.accepts(expect, t):
            self._err("E302", f"this must be {T.describe(expect)}, but it is {T.describe(t)}", node)
        if expect in T.ELEMENT and t in T.LIST_OF:
            code = f"as_list({code})"
        return self._build(["def run(ctx):", f"    return {code}"], node)

    def _build(self, lines: list[str], root: ast.Node | ast.Program) -> CompiledUnit:
        """The function the generated lines define (compiled once, in a namespace of our own names only)."""
        self.source = "\n".join(lines) + "\n"
        namespace: dict[str, Any] = dict(self.namespace)  # after exec also what the code defined: run
        for units in _recording:
            units.append((self.source, dict(self.namespace)))
        if self.precompiled:
            factory = self.precompiled.get(unit_key(self.source, namespace))
            if factory is not None:  # the same code compiled ahead of time (to C): it reads the names it is given
                return factory(namespace)
        try:
            code = compile_cached(self.source, "<effect code>")  # generated from the typed AST only
        except (SyntaxError, RecursionError, MemoryError):
            # Python's own limits (20 nested loops, 100 levels of indentation, 200 nested parentheses)
            # are the language's: content that exceeds them gets an error, not a traceback
            raise _too_deep(*_deepest(root)) from None
        exec(code, namespace)
        run: CompiledUnit = namespace["run"]
        return run

    # ------------------------------------------------------------------ errors

    def _err(self, code: str, message: str, node: ast.Node | None, hint: str | None = None) -> None:
        line, col = (node.line, node.col) if node is not None else (1, 1)
        self.errors.append(LanguageError(code, message, line, col, hint))

    # ------------------------------------------------------------------ names in the generated code

    def _bind(self, value: object, prefix: str = "k") -> str:
        """A name in the generated code's namespace for a Python object (a constant, a primitive …)."""
        name = self._bound.get(id(value))
        if name is None:
            name = f"{prefix}{len(self._bound)}"
            self._bound[id(value)] = name
            self.namespace[name] = value
        return name

    def _literal(self, value: object) -> str:
        """Source for a constant: ints, strings, booleans and none written out, anything else bound."""
        if value is None or value is True or value is False:
            return repr(value)
        if type(value) is int or type(value) is str:
            return f"({value!r})"
        return self._bind(value)

    def _temp(self) -> str:
        self.ntemps += 1
        return f"t{self.ntemps}"

    # ------------------------------------------------------------------ statements
    # Each returns the lines of Python it compiles to, indented by `ind` levels.

    def _block(self, stmts: list[ast.Node], ind: int) -> list[str]:
        outer = self.scope
        self.scope = _Scope(outer)
        try:
            lines = [line for s in stmts for line in self._stmt(s, ind)]
        finally:
            self.scope = outer
        return lines or ["    " * ind + "pass"]

    def _stmt(self, node: ast.Node, ind: int) -> list[str]:
        # the _stmt_ (or _expr_) method of the node's class, which takes that class of node
        method: Callable[[ast.Node, int], list[str]] = getattr(self, "_stmt_" + type(node).__name__)
        return method(node, ind)

    def _stmt_Let(self, node: ast.Let, ind: int) -> list[str]:
        if node.name in CONTEXT_VARS or node.name in CONSTANTS or node.name in STATUSES or node.name == "it":
            self._err(
                "E308",
                f"`{node.name}` is a name of the language; a `let` cannot redefine it",
                node,
                "pick another name",
            )
        t, code = self._expr(node.value)
        slot = self._new_slot()
        self.scope.names[node.name] = (t, slot)
        return ["    " * ind + f"v{slot} = {code}"]

    def _stmt_If(self, node: ast.If, ind: int) -> list[str]:
        pad = "    " * ind
        lines: list[str] = []
        for i, (cond, body) in enumerate(node.branches):
            lines.append(pad + ("if " if i == 0 else "elif ") + self._cond(cond) + ":")
            lines += self._block(body, ind + 1)
        if node.orelse is not None:
            lines.append(pad + "else:")
            lines += self._block(node.orelse, ind + 1)
        return lines

    def _chooser(self, by_node: ast.Node | None) -> str:
        if by_node is None:
            return "ctx.chooser"
        t, code = self._expr(by_node, T.PLAYER)
        if not T.accepts(T.PLAYER, t):
            self._err("E302", f"`by` must be a player, but it is {T.describe(t)}", by_node)
        return code

    def _stmt_May(self, node: ast.May, ind: int) -> list[str]:
        pad = "    " * ind
        who = self._temp()
        chooser = self._chooser(node.by)
        body = self._block(node.body, ind + 1)
        prompt = repr(node.prompt or "是否发动")
        return [
            pad + f"{who} = {chooser}",
            pad + f"if {who} is None:",
            pad + "    ctx.incomplete = True",
            pad + f"elif ctx.game.ask({who}, {_CONFIRM!r}, [True, False], {prompt}, source_of(ctx, {who})):",
            *body,
            pad + "else:",
            pad + "    ctx.incomplete = True",
        ]

    def _stmt_ChooseOne(self, node: ast.ChooseOne, ind: int) -> list[str]:
        pad = "    " * ind
        who, open_, labels, picked = self._temp(), self._temp(), self._temp(), self._temp()
        lines = [pad + f"{who} = {self._chooser(node.by)}", pad + f"{open_} = []"]
        bodies: list[list[str]] = []
        for i, opt in enumerate(node.options):
            if opt.condition is not None:
                lines.append(pad + f"if {self._cond(opt.condition)}:")
                lines.append(pad + f"    {open_}.append({i})")
            else:
                lines.append(pad + f"{open_}.append({i})")
            bodies.append(self._block(opt.body, ind + 2))
        all_labels = self._bind(tuple(opt.label for opt in node.options))
        prompt = repr(node.prompt or "选择一项")
        lines += [
            pad + f"if {who} is None or not {open_}:",
            pad + "    ctx.incomplete = True",
            pad + "else:",
            pad + f"    {labels} = [{all_labels}[i] for i in {open_}]",
            pad + f"    {picked} = {open_}[{labels}.index(ctx.game.ask({who}, {_OPTION!r}, {labels}, {prompt}, "
            f"source_of(ctx, {who})))]",
        ]
        for i, body in enumerate(bodies):
            lines.append(pad + ("    if " if i == 0 else "    elif ") + f"{picked} == {i}:")
            lines += body
        return lines

    def _stmt_For(self, node: ast.For, ind: int) -> list[str]:
        t, src = self._expr(node.source)
        if not (t in T.ELEMENT or t in (T.ANY, T.EMPTY)):
            self._err("E302", f"`for` needs a list, but this is {T.describe(t)}", node.source)
        outer = self.scope
        self.scope = _Scope(outer)
        slot = self._new_slot()
        self.scope.names[node.name] = (T.element_of(t) if t != T.EMPTY else T.ANY, slot)  # over []: never runs
        nested = self.in_loop
        with self._loop(node, _list_estimate(node.source, t)):
            body = [line for s in node.body for line in self._stmt(s, ind + 1)] or ["    " * (ind + 1) + "pass"]
        self.scope = outer
        # see _loop: the outermost loop is free
        walk = f"loop_over(ctx, {src})" if nested else self._as_list(node.source, src)
        return ["    " * ind + f"for v{slot} in {walk}:", *body]

    def _stmt_Repeat(self, node: ast.Repeat, ind: int) -> list[str]:
        count = self._typed(node.count, T.INT)
        n = node.count.value if isinstance(node.count, ast.IntLit) else MAX_REPEAT
        nested = self.in_loop
        with self._loop(node, max(0, min(n, MAX_REPEAT))):
            body = self._block(node.body, ind + 1)
        times = f"loop_times(ctx, {count})" if nested else f"range(max(0, min(MAX_REPEAT, {count} or 0)))"
        return ["    " * ind + f"for _ in {times}:", *body]

    @contextlib.contextmanager
    def _loop(self, node: ast.Node, most: int) -> Iterator[None]:
        """Compile a loop's body: it runs at most `most` times each time the loop runs (W501 if the loops
        around it and it could make more iterations than the step budget allows).

        A loop inside it (or a `where` in it) spends the game's step budget as it starts (E501); the
        outermost loop of a unit does not: it walks one list of at most a table or a deck once, or 50
        times, so what it does is bounded by the code — its cards moved and events, and the uses it
        makes, are counted all the same. Only loops inside loops (and uses inside uses) can run away,
        and play pays for the budget only where they occur."""
        outer, was_in_loop = self.loop_steps, self.in_loop
        self.loop_steps = outer * most
        self.in_loop = True
        if self.loop_steps > STEP_BUDGET >= outer:
            self.warnings.append(
                LanguageError(
                    "W501",
                    f"loops inside loops: this one could run its block up to {self.loop_steps:,} times in all, "
                    f"more than the {STEP_BUDGET:,} steps a game allows between two decisions (E501 would end it)",
                    node.line,
                    node.col,
                    f"a `repeat` runs at most {MAX_REPEAT} times and a list of players or cards is counted as "
                    "its largest; nest fewer loops, or loop over a shorter list",
                )
            )
        try:
            yield
        finally:
            self.loop_steps, self.in_loop = outer, was_in_loop

    def _stmt_Then(self, node: ast.Then, ind: int) -> list[str]:
        pad = "    " * ind
        return [pad + "if ctx.incomplete:", pad + "    raise StopEffect()", *self._stmt(node.stmt, ind)]

    def _stmt_CallStmt(self, node: ast.CallStmt, ind: int) -> list[str]:
        pad = "    " * ind
        b = BUILTINS.get(node.call.func)
        if b is not None and b.kind == "query":
            self._err(
                "E307",
                f"{node.call.func}(...) only computes a value; as a statement it does nothing",
                node,
                "use it in `let`, `if` or as an argument",
            )
        _, call = self._expr(node.call)
        if node.instead_cond is None:
            return [pad + f"if {call} is False:", pad + "    ctx.incomplete = True"]
        cond = self._cond(node.instead_cond)
        assert node.instead_body is not None  # the parser gives an instead clause both parts
        alt = self._block(node.instead_body, ind + 1)
        return [pad + f"if {cond}:", *alt, pad + f"elif {call} is False:", pad + "    ctx.incomplete = True"]

    # ------------------------------------------------------------------ expressions
    # Each returns (type, Python source of the value); the source is always one atom or parenthesized.

    def _new_slot(self) -> int:
        slot = self.nslots
        self.nslots += 1
        return slot

    def _cond(self, node: ast.Node) -> str:
        return self._typed(node, T.BOOL)

    def _typed(self, node: ast.Node, expect: str) -> str:
        t, code = self._expr(node, expect)
        if not T.accepts(expect, t):
            self._err("E302", f"expected {T.describe(expect)}, but this is {T.describe(t)}", node)
        return code

    def _expr(self, node: ast.Node, expect: str | None = None) -> Typed:
        """The type and code of an expression; `expect` is the type its place asks for (mark(...) and
        data(...) take theirs from it), None where the place does not say."""
        if isinstance(node, ast.Call):
            return self._expr_Call(node, expect)
        if isinstance(node, ast.Var):
            return self._expr_Var(node, expect)
        method: Callable[[ast.Node], Typed] | None = getattr(self, "_expr_" + type(node).__name__, None)
        if method is None:
            self._err("E307", "this is not an expression", node)
            return T.ANY, "None"
        return method(node)

    def _expr_IntLit(self, node: ast.IntLit) -> Typed:
        return T.INT, self._literal(node.value)

    def _expr_StrLit(self, node: ast.StrLit) -> Typed:
        return T.TEXT, self._literal(node.value)

    def _expr_CardNameLit(self, node: ast.CardNameLit) -> Typed:
        cid = self.card_names.get(node.name)
        value = CardName(cid, node.name) if cid is not None else None
        if cid is None:
            self._err("E305", f"unknown card name 【{clip(node.name)}】", node, _suggest(node.name, self.card_names))
        return T.CARDNAME, self._literal(value)

    def _expr_ListLit(self, node: ast.ListLit) -> Typed:
        if not node.items:
            return T.EMPTY, "[]"
        items = [self._expr(i) for i in node.items]
        types = {t for t, _ in items if t not in (T.ANY, T.NONE)}
        if len(types) > 1:
            self._err("E302", "a list must hold values of one kind, found " + ", ".join(sorted(types)), node)
            return T.ANY, "None"
        if not types:
            if any(t == T.NONE for t, _ in items):
                self._err("E302", "a list of nothing but `none` has no kind of value", node, "write [] for no items")
            return T.ANY, "None"
        et = types.pop()
        if et not in T.LIST_OF:
            self._err(
                "E302",
                f"a list of {T.describe(et)} is not a value of the language",
                node,
                "lists hold players, cards, colors, texts, card names or directions",
            )
            return T.ANY, "None"
        for (t, _), item in zip(items, node.items, strict=True):
            if t == T.NONE:
                self._err("E302", "`none` in a list is not an item", item, "leave it out")
        codes = ", ".join(code for _, code in items)
        if all(self._never_none(item) for item in node.items):
            return T.list_of(et), f"[{codes}]"
        # nor is a value that is none when the code runs (`[holder]` with no intel on its way: []), which would
        # otherwise reach a primitive as an item of a list it walks (a card to move, a player to show to)
        return T.list_of(et), f"[x for x in ({codes},) if x is not None]"

    @staticmethod
    def _never_none(node: ast.Node) -> bool:
        """Is this list item a value that cannot be none (a literal, a constant, `self`)?"""
        if isinstance(node, (ast.IntLit, ast.StrLit, ast.CardNameLit)):
            return True
        return isinstance(node, ast.Var) and (node.name == "self" or node.name in CONSTANTS)

    def _expr_Var(self, node: ast.Var, expect: str | None = None) -> Typed:
        name = node.name
        found = self.scope.lookup(name)
        if found is not None:
            t, slot = found
            return t, f"v{slot}"
        if name in self.env:
            self.names_read.add(name)
            t, getter, _ = self.env[name]
            known = CONTEXT_VARS.get(name)
            if known is not None and known[1] is getter and name in _CONTEXT_CODE:
                return t, _CONTEXT_CODE[name]
            return t, f"{self._bind(getter, 'g')}(ctx)"
        if name in CONSTANTS:
            t, v = CONSTANTS[name]
            return t, self._literal(v)
        if name in CONTEXT_VARS:
            where = CONTEXT_VARS[name][2]
            here = ", ".join(self.unit) if isinstance(self.unit, tuple) else self.unit
            self._err("E304", f"`{name}` is not available here ({here}); it exists in {where}", node)
            return CONTEXT_VARS[name][0], "None"
        if name in STATUSES:
            return T.STATUS, self._literal(name)
        if expect == T.STATUS:
            self._err(
                "E306",
                f"unknown status `{clip(name)}`",
                node,
                _suggest(name, STATUSES) or "statuses: " + ", ".join(STATUSES),
            )
            return T.STATUS, "None"
        known_names = list(self.env) + list(CONSTANTS) + self._visible_names()
        hint: str | None = _NAME_SLIPS.get(name) or _suggest(name, known_names)
        if hint is None:  # a status, a primitive or a context variable of another timing, written where it is not
            hint = _suggest(name, [*STATUSES, *CONTEXT_VARS])
        if hint is None and name in BUILTINS:
            hint = f"{name} is a function: {name}(...)"
        self._err("E301", f"unknown name `{clip(name)}`", node, hint)
        return T.ANY, "None"

    def _visible_names(self) -> list[str]:
        out: list[str] = []
        s: _Scope | None = self.scope
        while s is not None:
            out += list(s.names)
            s = s.parent
        return out

    def _expr_Attr(self, node: ast.Attr) -> Typed:
        self._err(
            "E301",
            f"values have no attribute `.{clip(node.name)}`",
            node,
            "use a function, e.g. name_of(c), hand_count(p)",
        )
        return T.ANY, "None"

    def _expr_Not(self, node: ast.Not) -> Typed:
        return T.BOOL, f"(not {self._cond(node.operand)})"

    def _expr_Neg(self, node: ast.Neg) -> Typed:
        return T.INT, f"(-{self._typed(node.operand, T.INT)})"

    def _expr_Where(self, node: ast.Where) -> Typed:
        st, src = self._expr(node.source)
        if not (st in T.ELEMENT or st in (T.ANY, T.EMPTY)):
            self._err("E302", f"`where` filters a list, but this is {T.describe(st)}", node.source)
        outer = self.scope
        self.scope = _Scope(outer)
        slot = self._new_slot()
        self.scope.names["it"] = (T.element_of(st) if st != T.EMPTY else T.ANY, slot)  # over []: never runs
        nested, self.in_loop = self.in_loop, True
        try:
            pred = self._cond(node.predicate)
        finally:
            self.in_loop = nested
        self.scope = outer
        # a `where` inside a loop (or another where's predicate) spends the step budget; on its own it walks
        # one finite list once, and costs nothing more than the list
        walk = f"loop_over(ctx, {src})" if nested else self._as_list(node.source, src)
        return (st if st in T.ELEMENT or st == T.EMPTY else T.ANY), f"[v{slot} for v{slot} in {walk} if {pred}]"

    def _expr_ListComp(self, node: ast.ListComp) -> Typed:
        st, src = self._expr(node.source)
        if not (st in T.ELEMENT or st in (T.ANY, T.EMPTY)):
            self._err("E302", f"`for` in a list needs a list to walk, but this is {T.describe(st)}", node.source)
        outer = self.scope
        self.scope = _Scope(outer)
        slot = self._new_slot()
        self.scope.names[node.name] = (T.element_of(st) if st != T.EMPTY else T.ANY, slot)  # over []: never runs
        nested = self.in_loop
        try:
            with self._loop(node, _list_estimate(node.source, st)):
                et, item = self._expr(node.item)
        finally:
            self.scope = outer
        if et in (T.ANY, T.NONE) or st == T.EMPTY:
            if et == T.NONE:
                self._err("E302", "a list of nothing but `none` has no kind of value", node.item)
            return T.ANY if st != T.EMPTY else T.EMPTY, "[]" if st == T.EMPTY else "None"
        if et not in T.LIST_OF:
            self._err(
                "E302",
                f"a list of {T.describe(et)} is not a value of the language",
                node.item,
                "lists hold players, cards, colors, texts, card names or directions",
            )
            return T.ANY, "None"
        # see _loop: the outermost loop is free
        walk = f"loop_over(ctx, {src})" if nested else self._as_list(node.source, src)
        got = self._new_slot()
        # each item's value in order; a value that is none (a choice from nothing) is no item of a list
        return T.list_of(et), f"[v{got} for v{got} in [{item} for v{slot} in {walk}] if v{got} is not None]"

    def _expr_BinOp(self, node: ast.BinOp) -> Typed:
        op = node.op
        if op in ("and", "or"):
            a = self._cond(node.left)
            b = self._cond(node.right)
            return T.BOOL, f"(True if {a} {op} {b} else False)"
        if op == "has":
            lt, a = self._expr(node.left, T.CARD)
            if not T.accepts(T.CARD, lt):
                self._err(
                    "E302",
                    f"`has` tests a card's colors, but the left side is {T.describe(lt)}",
                    node.left,
                    _HAS_HINT,
                )
            if isinstance(node.right, ast.CardNameLit):
                self._err("E302", "`has` tests a card's colors, not its name", node.right, _HAS_HINT)
                return T.BOOL, "False"
            b = self._typed(node.right, T.COLOR)
            right_name = node.right.name if isinstance(node.right, ast.Var) else None
            color = CONSTANTS.get(right_name) if right_name is not None else None
            if (
                a.isidentifier()
                and right_name is not None
                and color is not None
                and color[0] == T.COLOR
                and isinstance(color[1], int)
                and self.scope.lookup(right_name) is None
            ):
                # `it has red`: a variable and a color constant, tested inline
                return T.BOOL, f"({a} is not None and ({a}.mask & {int(color[1])}) != 0)"
            return T.BOOL, f"has({a}, {b})"
        if op == "in":
            lt, b = self._expr(node.right)
            if not (lt in T.ELEMENT or lt in (T.ANY, T.EMPTY)):
                self._err("E302", f"`in` needs a list on the right, but this is {T.describe(lt)}", node.right)
            et = T.element_of(lt) if lt in T.ELEMENT else T.ANY
            xt, a = self._expr(node.left, et)
            if not (T.accepts(et, xt) or xt == T.NONE):
                self._err("E302", f"{T.describe(xt)} is never in {T.describe(lt)}: the test is always false", node.left)
            return T.BOOL, f"({a} in {self._as_list(node.right, b)})"
        if op in ("+", "-"):
            a = self._typed(node.left, T.INT)
            b = self._typed(node.right, T.INT)
            return T.INT, f"({a} {op} {b})"
        if op in ("==", "!="):
            self._check_event_name(node)
            lt, a, rt, b = self._equality_sides(node)
            if not (T.accepts(lt, rt) or T.accepts(rt, lt)):
                self._err(
                    "E302",
                    f"comparing {T.describe(lt)} with {T.describe(rt)} is always {'false' if op == '==' else 'true'}",
                    node,
                )
            return T.BOOL, f"({a} {op} {b})"
        sides = []
        numbers = True  # both sides numbers (never none: no number the language computes is): compared inline
        for side in (node.left, node.right):
            t, code = self._expr(side, T.INT)
            if not T.accepts(T.INT, t):
                self._err("E302", f"`{op}` compares numbers, but this is {T.describe(t)}", side)
            numbers = numbers and t == T.INT
            sides.append(code)
        if numbers:
            return T.BOOL, f"({sides[0]} {op} {sides[1]})"
        return T.BOOL, f"{_CMP_NAMES[op]}({sides[0]}, {sides[1]})"

    def _check_event_name(self, node: ast.BinOp) -> None:
        """`event == "x"`: x must be one of the events the skill reacts to (else the test is always false)."""
        for var, lit in ((node.left, node.right), (node.right, node.left)):
            if not (isinstance(var, ast.Var) and var.name == "event" and isinstance(lit, ast.StrLit)):
                continue
            if self.scope.lookup("event") is not None or "event" not in self.env:
                return
            units = tuple(self.unit) if isinstance(self.unit, (tuple, list)) else (self.unit,)
            if lit.value not in units:
                self._err(
                    "E304",
                    f'`event` is never "{clip(lit.value)}" here: the skill reacts to ' + ", ".join(map(str, units)),
                    lit,
                    _suggest(lit.value, units) or "add the event to the skill's `trigger:` list",
                )
            return

    def _equality_sides(self, node: ast.BinOp) -> tuple[str, str, str, str]:
        """Both sides of == or !=: a mark(...) or data(...) on one side takes the other side's type."""
        if _is_read(node.left) and not _is_read(node.right):
            rt, b = self._expr(node.right)
            lt, a = self._expr(node.left, rt if rt != T.NONE else T.ANY)
        else:
            lt, a = self._expr(node.left)
            rt, b = self._expr(node.right, lt if lt not in (T.NONE, T.BY_PLACE) else T.ANY)
        return lt, a, rt, b

    def _typed_read(self, node: ast.Call, expect: str | None) -> ast.Call | None:
        """mark(...) or data(...) as the typed read its place asks for (data_color …); None where any value will do
        (exists(...), `== none`); the call itself, with an error, where nothing says which type it reads."""
        reads = TYPED_READS[node.func]
        t = self._declared_data_type(node) if node.func == "data" else None
        if t is None and expect is not None:
            # a list of one kind takes one value of it (discard(mark_card(...))), and == compares with any value
            t = next((x for x in (expect, T.ELEMENT.get(expect)) if x in reads), None)
        if t is not None:
            return ast.Call(node.line, node.col, reads[t], node.args, node.kwargs)
        if expect == T.ANY:
            return None
        wanted = f" ({T.describe(expect)} is wanted, and no typed read gives one)" if expect else ""
        self._err(
            "E302",
            f"`{node.func}(...)` does not say what kind of value it reads here{wanted}",
            node,
            "say it with a typed read: " + ", ".join(f"{name}(...)" for name in reads.values()),
        )
        return node

    def _declared_data_type(self, node: ast.Call) -> str | None:
        """The type of data(this_card, key) in a card's own code: the declared type of that key (or of all keys)."""
        c = node.args[0] if node.args else node.kwargs.get("c")
        key = node.args[1] if len(node.args) > 1 else node.kwargs.get("key")
        if not self.data_types or not isinstance(c, ast.Var) or c.name != "this_card" or "this_card" not in self.env:
            return None
        name = key.value if isinstance(key, ast.StrLit) else key.name if isinstance(key, ast.Var) else None
        if name in self.data_types and (isinstance(key, ast.StrLit) or name in CONSTANTS):
            return self.data_types[name]
        types = set(self.data_types.values())
        return types.pop() if len(types) == 1 else None

    def _expr_Call(self, node: ast.Call, expect: str | None = None) -> Typed:
        if node.func in TYPED_READS:
            typed = self._typed_read(node, expect)
            if typed is node:
                for a in [*node.args, *node.kwargs.values()]:
                    self._expr(a)
                return T.ANY, "None"
            node = typed or node
        b = BUILTINS.get(node.func)
        if b is None:
            hint = _suggest(node.func, BUILTINS)
            if node.func in ("len", "length", "size"):
                hint = "count(...) gives how many items a list has"
            self._err("E301", f"unknown function `{clip(node.func)}`", node, hint)
            for a in node.args:
                self._expr(a)
            return T.ANY, "None"
        units = self.unit if isinstance(self.unit, tuple) else (self.unit,)
        if b.contexts is not None and not all(u in b.contexts for u in units):
            self._err(
                "E304",
                f"{node.func}(...) cannot be used at {', '.join(units)}; only at " + ", ".join(sorted(b.contexts)),
                node,
            )
        params = b.params
        if len(node.args) > len(params):
            self._err(
                "E303",
                f"{node.func} takes at most {len(params)} arguments, got {len(node.args)}",
                node,
                "signature: " + signature(b),
            )
        bound: dict[str, ast.Node] = {}
        for p, a in zip(params, node.args, strict=False):  # fewer arguments than parameters: the rest take defaults
            bound[p.name] = a
        names = {p.name for p in params}
        for k, a in node.kwargs.items():
            if k not in names:
                self._err(
                    "E303",
                    f"{node.func} has no parameter `{clip(k)}`",
                    a,
                    _suggest(k, names) or "signature: " + signature(b),
                )
                continue
            if k in bound:
                self._err("E303", f"`{k}` is given twice", a)
            bound[k] = a
        args: list[str] = []
        argtypes: dict[str, str] = {}
        for p in params:
            arg = bound.get(p.name)
            if arg is None:
                if p.default is REQUIRED:
                    self._err(
                        "E303",
                        f"{node.func} needs `{p.name}` ({T.describe(p.type)})",
                        node,
                        "signature: " + signature(b),
                    )
                    args.append("None")
                    continue
                args.append(self._literal(p.default))
                argtypes[p.name] = T.ANY
                continue
            t, code = self._expr(arg, p.type)
            if (p.type in T.ELEMENT or p.type == T.LIST) and t in T.LIST_OF:
                code = _one_item(code)  # one value where a list is wanted: a one-item list
            argtypes[p.name] = t
            if not T.accepts(p.type, t):
                self._err(
                    "E302", f"`{p.name}` of {node.func} must be {T.describe(p.type)}, but this is {T.describe(t)}", arg
                )
            if p.type == T.STATUS and t == T.TEXT and not isinstance(arg, ast.StrLit):
                self._err(
                    "E302",
                    f"`{p.name}` of {node.func} must be a status name, but this is a text computed in play",
                    arg,
                    "statuses: " + ", ".join(STATUSES),
                )
            if p.type == T.STATUS and isinstance(arg, ast.StrLit) and arg.value not in STATUSES:
                self._err(
                    "E306",
                    f'unknown status "{clip(arg.value)}"',
                    arg,
                    _suggest(arg.value, STATUSES) or "statuses: " + ", ".join(STATUSES),
                )
            if p.type == T.COUNTER:
                self._check_counter(node.func, p.name, arg, t)
            if p.type == T.ZONE:
                self._check_zone(node.func, p.name, arg, t)
            args.append(code)
        self.calls.add(node.func)
        key = bound.get("key")
        if isinstance(key, ast.StrLit) and (node.func in _MARK_SETS or node.func in _MARK_READ_TYPE):
            if node.func in _MARK_SETS:
                kind = T.INT if node.func == "add_mark" else argtypes.get("value", T.ANY)
                self.marks.append((key.value, kind, "set", node.line, node.col))
            else:
                self.marks.append((key.value, _MARK_READ_TYPE[node.func], "read", node.line, node.col))
        named = bound.get("skill")
        if node.func in _SKILL_REFS and isinstance(named, ast.StrLit):
            who = bound.get("p")
            if isinstance(who, ast.Var) and who.name == "self":
                self.skill_refs.append((named.value, named.line, named.col))
        rt = b.returns(argtypes) if callable(b.returns) else b.returns
        if rt == T.BY_PLACE:
            rt = T.ANY  # a read of any value, where any value will do (exists, == none): _typed_read
        impl = b.implementation()  # registered by interpreter.engine.primitives; MissingImplementation if not
        inline = _INLINE.get(node.func)
        if inline is not None and len(args) == 1 and self._inlinable(node.func, bound, args[0]):
            return rt, inline.format(args[0])  # what the primitive does, written out (no call)
        fn = self._bind(impl, "b_" + node.func + "_") if node.func.isidentifier() else self._bind(impl, "b")
        return rt, f"{fn}(" + ", ".join(["ctx", *args]) + ")"

    def _check_counter(self, func: str, pname: str, arg: ast.Node, t: str) -> None:
        """A counter is named in quotes (E302 for a text computed in play) and declared by the rules (E310)."""
        if t == T.TEXT and not isinstance(arg, ast.StrLit):
            self._err(
                "E302", f"`{pname}` of {func} must be a counter's name in quotes, not a text computed in play", arg
            )
        elif isinstance(arg, ast.StrLit) and arg.value not in self.counters:
            declared = ", ".join(self.counters)
            self._err(
                "E310",
                f'unknown counter "{clip(arg.value)}"',
                arg,
                _suggest(arg.value, self.counters)
                or (f"counters the rules declare: {declared}" if declared else None)
                or "declare it in the rules' `counters:` (rules.yaml, or a pack's rules:)",
            )

    def _check_zone(self, func: str, pname: str, arg: ast.Node, t: str) -> None:
        """A zone is named in quotes (E302 for a text computed in play) and declared by the rules (E311)."""
        if t == T.TEXT and not isinstance(arg, ast.StrLit):
            self._err("E302", f"`{pname}` of {func} must be a zone's name in quotes, not a text computed in play", arg)
        elif isinstance(arg, ast.StrLit) and arg.value not in self.zones:
            declared = ", ".join(self.zones)
            self._err(
                "E311",
                f'unknown zone "{clip(arg.value)}"',
                arg,
                _suggest(arg.value, self.zones)
                or (f"zones the rules declare: {declared}" if declared else None)
                or "declare it in the rules' `zones:` (rules.yaml, or a pack's rules:)",
            )

    def _inlinable(self, func: str, bound: dict[str, ast.Node], code: str) -> bool:
        """Can the call of an _INLINE primitive with this argument be written out? count: where its argument is
        always a list; exists: where it is no constant (Python warns of `is not` with one); the others always."""
        if func == "count":
            return self._is_list(bound.get("xs"), code)
        if func == "exists":
            return _SIMPLE.fullmatch(code) is not None or code.startswith("b_")
        return True

    def _is_list(self, node: ast.Node | None, code: str) -> bool:
        """Is the value of this expression always a list (never none, never one value)? A list written out, a
        `where` or a list built with `for`, and a primitive that returns a list (builtins.returns_list)."""
        if code.startswith("["):  # (an expression's code is one atom: a list display or a comprehension)
            return True
        if isinstance(node, ast.Call):
            b = BUILTINS.get(node.func)
            return b is not None and returns_list(b) and code.startswith("b_")
        return False

    def _as_list(self, node: ast.Node, code: str) -> str:
        """The code of a value as a list to walk: as it is if it always is one, else through as_list."""
        return code if self._is_list(node, code) else f"as_list({code})"


# Query primitives whose work is one Python operation, written out in the generated code instead of a call (the
# same result for every value: any_of is bool(xs), none_of not xs, exists x is not None; count a list's length,
# only where the argument always is a list)
_INLINE = {
    "any_of": "(True if {} else False)",
    "none_of": "(False if {} else True)",
    "exists": "({} is not None)",
    "count": "len({})",
}

# What names a skill of a role by its name (the loader checks those of one's own role).
_SKILL_REFS = ("gain_skill", "lose_skill", "skill_yang")
# What sets a mark (for W301): for a turn, for the game, a counter for the game.
_MARK_SETS = ("set_mark", "keep_mark", "add_mark")
# The typed reads of a mark and the kind each reads (has_mark reads a flag of any kind: not here).
_MARK_READ_TYPE = {name: t for t, name in TYPED_READS["mark"].items() if t != T.BOOL}


_SIMPLE = re.compile(r"[vt]\d+|ctx\.[a-z_]+")  # a local variable, or a context variable kept in ctx


def _one_item(code: str) -> str:
    """One value (a player, a card …; never a list) as a list: [it], or [] for none. Written out for a variable
    or a context variable (reading it twice is reading it once), else through as_list."""
    return f"([] if {code} is None else [{code}])" if _SIMPLE.fullmatch(code) else f"as_list({code})"


def _is_read(node: ast.Node) -> bool:
    """A call of mark(...) or data(...), whose type is the one its place asks for."""
    return isinstance(node, ast.Call) and node.func in TYPED_READS


def _list_estimate(source: ast.Node, t: str) -> int:
    """The most items a `for` may walk, as W501 counts them: a list written out, its length; a list of players,
    a table's most; any other, a large deck's cards (catalogue.LOOP_ESTIMATE)."""
    if isinstance(source, ast.ListLit):
        return len(source.items)
    est = catalogue.LOOP_ESTIMATE
    if t in (T.PLAYER, T.list_of(T.PLAYER)):
        return est["players"]
    if t in (T.CARD, T.list_of(T.CARD)):
        return est["cards"]
    return est["list"]


def _too_deep(line: int, col: int) -> LanguageError:
    return LanguageError(
        "E201",
        "this code is nested too deeply (loops, blocks or operators inside one another)",
        line,
        col,
        "write it flatter: at most 19 loops (`for`, `repeat`) inside one another, fewer blocks inside blocks, "
        "shorter chains of operators",
    )


def _deepest(root: ast.Node | ast.Program) -> tuple[int, int]:
    """The position of the most deeply nested node of a tree (walked without recursion: it is deep)."""
    best, best_depth = (1, 1), -1
    stack: list[tuple[object, int]] = [(root, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, ast.Node):
            if depth > best_depth:
                best, best_depth = (item.line, item.col), depth
            children: Iterable[object] = vars(item).values()
        elif isinstance(item, ast.Program):
            children = item.body
        elif isinstance(item, (list, tuple)):
            children = item
        elif isinstance(item, dict):
            children = item.values()
        else:
            continue
        stack.extend((c, depth + 1) for c in children)
    return best


def signature(b: Builtin) -> str:
    """A primitive's signature as the docs and hints show it: name(param: type = default, …)."""
    parts: list[str] = []
    for p in b.params:
        s = f"{p.name}: {p.type}"
        if p.default is not REQUIRED:
            d = p.default
            text = (
                "everyone"  # an audience left out (EVERYONE): every player
                if d is EVERYONE
                else "none"
                if d is None
                else "true"
                if d is True
                else "false"
                if d is False
                else f'"{d}"'
                if isinstance(d, str)
                else str(d)
            )
            s += f" = {text}"
        parts.append(s)
    return f"{b.name}({', '.join(parts)})"
