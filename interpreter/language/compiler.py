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

The generated code cannot reach Python beyond what namespace.py puts in its
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

The compiler is four modules, one job each: this one (the entry points, ``program`` and ``expression``, and
the statements), ``calls.py`` (a primitive's call), ``expressions.py`` (the state of one compilation and the
other expressions) and ``namespace.py`` (what the generated code runs with). ``Compiler`` is the class the
loader uses; the names other modules import from here are re-exported below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .. import catalogue
from . import ast, types as T
from .builtins import BUILTINS, CONSTANTS, STATUSES
from .calls import signature
from .errors import LanguageError
from .event_calls import EventCallCompiler
from .expressions import _list_estimate, _Scope
from .namespace import (
    CONTEXT_VARS,
    MAX_REPEAT,
    CompiledUnit,
    Env,
    Factory,
    Getter,
    Typed,
    UnitKind,
    Value,
    context_env,
    direct_calls,
    field_var,
    note_compiled,
    recording,
    unit_key,
)
from .parser import compile_cached, parse
from .sends import check_single_send
from .visibility import check as check_hidden_choices

__all__ = [
    "CONTEXT_VARS",
    "CompiledUnit",
    "Compiler",
    "Env",
    "Factory",
    "Getter",
    "Typed",
    "UnitKind",
    "Value",
    "context_env",
    "direct_calls",
    "field_var",
    "recording",
    "signature",
    "unit_key",
]

# The decision kinds the generated code asks for in `may` and `choose_one`.
_CONFIRM, _OPTION = catalogue.DECISIONS["confirm"].name, catalogue.DECISIONS["option"].name


class Compiler(EventCallCompiler):
    """Compiles the code units of one content object. `errors` collects every problem found."""

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
            if "send" in text:  # E315 counts calls named `send`: code without the word has none to count
                check_single_send(
                    prog,
                    lambda node: self._err(
                        "E315",
                        "this `send` may be a second intel sent by the same code: one intel is in transit at a time",
                        node,
                        "send once on each path: put the sends in the branches of an `if` or the options of a "
                        "choice, not one after the other or in a loop",
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
        self.pure = True
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
        note_compiled(self.source, self.namespace)
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
            pad + f"elif ctx.game.ask({who}, {_CONFIRM!r}, [True, False], {prompt}, source_of(ctx, {who}), "
            "asked_by(ctx)):",
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
            f"source_of(ctx, {who}), asked_by(ctx)))]",
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
        with self._loop(node, _list_estimate(node.source, t, self.most_players)):
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
