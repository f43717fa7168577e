"""Check and compile effect-language code into Python closures.

One pass over the AST does both jobs: it infers the type of every expression,
records every problem it finds (unknown names with a suggestion, wrong
argument types, a name the timing does not provide, an unknown card name …)
and builds a closure ``f(ctx)`` for each node. Content is compiled once, when
it loads; the game then only calls closures.

The language cannot reach Python (names resolve only to the primitives of
``builtins.py`` and the context variables below) and cannot loop forever:
``for`` walks a finite list and ``repeat`` is capped.
"""

from __future__ import annotations

import difflib
import operator
from collections.abc import Callable
from typing import Any, ClassVar

from . import ast, types as T
from .builtins import BUILTINS, CONSTANTS, REQUIRED, STATUSES, as_list
from .errors import LanguageError
from .parser import parse
from .runtime import CardName, StopEffect, source_of
from .visibility import check as check_hidden_choices

MAX_REPEAT = 50


_default_chooser = operator.attrgetter("chooser")


def _sender(ctx):
    t = ctx.game.transit
    return t.sender if t is not None else None


# Context variables: name -> (type, getter, where it exists (human wording)).
CONTEXT_VARS = {
    "self": (T.PLAYER, operator.attrgetter("me"), "everywhere"),
    "current": (T.PLAYER, lambda ctx: ctx.game.current, "everywhere"),
    "this_card": (T.CARD, operator.attrgetter("card"), "card effects and triggered skills"),
    "target": (
        T.PLAYER,
        operator.attrgetter("target"),
        "card uses with a `target:`, and triggered skills (the target of the card the event is about)",
    ),
    "dying": (T.PLAYER, operator.attrgetter("dying"), "the `dying` timing"),
    "pending": (T.CARD, lambda ctx: ctx.game.pending, "the send_idle and contest timings and triggered skills"),
    "holder": (T.PLAYER, lambda ctx: ctx.game.holder, "the send_idle and contest timings and triggered skills"),
    "sender": (T.PLAYER, _sender, "the send_idle and contest timings and triggered skills"),
    "used_as": (
        T.CARDNAME,
        operator.attrgetter("used_as"),
        "triggered skills: the card name the event's card was used as (its own name, a conversion's, "
        "or a virtual card's)",
    ),
    "subject": (
        T.PLAYER,
        operator.attrgetter("subject"),
        "triggered skills and the victory checks collect_unclaimed and death",
    ),
}


def context_env(names) -> dict:
    return {n: CONTEXT_VARS[n] for n in names}


class CompileErrors(Exception):
    def __init__(self, errors: list):
        super().__init__("; ".join(str(e) for e in errors))
        self.errors = errors


def _suggest(name: str, candidates) -> str | None:
    # short names (two Chinese characters) need a lower cutoff: one wrong character scores 0.5
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.5 if len(name) <= 3 else 0.6)
    return f"did you mean {close[0]}?" if close else None


class _Scope:
    def __init__(self, parent=None):
        self.parent = parent
        self.names: dict = {}

    def lookup(self, name):
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None


class Compiler:
    """Compiles the code units of one content object. `errors` collects every problem found."""

    def __init__(self, env: dict, unit: str, card_names: dict):
        self.env = env  # context variables available: name -> (type, getter, where)
        self.unit = unit  # the timing or check this code runs at (for context checks)
        self.card_names = card_names  # Chinese card name -> card id
        self.errors: list[LanguageError] = []
        self.nslots = 0
        self.scope = _Scope()
        self.names_read: set = set()  # context variables the code reads (e.g. whether it depends on this_card)

    # ------------------------------------------------------------------ entry points

    def program(self, text: str):
        """Compile statements; returns run(ctx)."""
        prog = parse(text)
        body = self._block(prog.body)
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
        nslots = self.nslots

        def run(ctx):
            ctx.frame = [None] * nslots if nslots else None
            ctx.incomplete = False
            try:
                for stmt in body:
                    stmt(ctx)
            except StopEffect:
                pass

        return run

    def expression(self, text: str, expect: str | None = None):
        """Compile one expression; returns f(ctx) -> value."""
        node = parse(text, start="expression")
        t, f = self._expr(node)
        if expect is not None and not T.accepts(expect, t):
            self._err("E302", f"this must be {T.describe(expect)}, but it is {T.describe(t)}", node)
        if expect in T.ELEMENT and t in T.LIST_OF:
            f = _as_list_fn(f)
        nslots = self.nslots

        if nslots:

            def run(ctx):
                ctx.frame = [None] * nslots
                return f(ctx)

            return run
        return f

    # ------------------------------------------------------------------ errors

    def _err(self, code, message, node, hint=None):
        line, col = (node.line, node.col) if node is not None else (1, 1)
        self.errors.append(LanguageError(code, message, line, col, hint))

    # ------------------------------------------------------------------ statements

    def _block(self, stmts: list):
        outer = self.scope
        self.scope = _Scope(outer)
        try:
            return [self._stmt(s) for s in stmts]
        finally:
            self.scope = outer

    def _run_block(self, compiled):
        if len(compiled) == 1:
            return compiled[0]

        def run(ctx):
            for s in compiled:
                s(ctx)

        return run

    def _stmt(self, node):
        method = getattr(self, "_stmt_" + type(node).__name__)
        return method(node)

    def _stmt_Let(self, node: ast.Let):
        if node.name in CONTEXT_VARS or node.name in CONSTANTS or node.name in STATUSES or node.name == "it":
            self._err(
                "E308",
                f"`{node.name}` is a name of the language; a `let` cannot redefine it",
                node,
                "pick another name",
            )
        t, f = self._expr(node.value)
        slot = self._new_slot()
        self.scope.names[node.name] = (t, slot)

        def run(ctx):
            ctx.frame[slot] = f(ctx)

        return run

    def _stmt_If(self, node: ast.If):
        branches = []
        for cond, body in node.branches:
            branches.append((self._cond(cond), self._run_block(self._block(body))))
        orelse = self._run_block(self._block(node.orelse)) if node.orelse is not None else None

        def run(ctx):
            for c, b in branches:
                if c(ctx):
                    b(ctx)
                    return
            if orelse is not None:
                orelse(ctx)

        return run

    def _chooser(self, by_node):
        if by_node is None:
            return _default_chooser
        t, f = self._expr(by_node)
        if not T.accepts(T.PLAYER, t):
            self._err("E302", f"`by` must be a player, but it is {T.describe(t)}", by_node)
        return f

    def _stmt_May(self, node: ast.May):
        chooser = self._chooser(node.by)
        body = self._run_block(self._block(node.body))
        prompt = node.prompt or "是否发动"
        from ..engine import decisions as D

        def run(ctx):
            who = chooser(ctx)
            if who is None:
                ctx.incomplete = True
                return
            source = source_of(ctx, who)
            if ctx.game.ask(who, D.CONFIRM, [True, False], prompt, source):
                body(ctx)
            else:
                ctx.incomplete = True

        return run

    def _stmt_ChooseOne(self, node: ast.ChooseOne):
        chooser = self._chooser(node.by)
        options = []
        for opt in node.options:
            cond = self._cond(opt.condition) if opt.condition is not None else None
            options.append((opt.label, cond, self._run_block(self._block(opt.body))))
        prompt = node.prompt or "选择一项"
        from ..engine import decisions as D

        def run(ctx):
            who = chooser(ctx)
            open_ = [o for o in options if o[1] is None or o[1](ctx)]
            if who is None or not open_:
                ctx.incomplete = True
                return
            labels = [o[0] for o in open_]
            source = source_of(ctx, who)
            label = ctx.game.ask(who, D.OPTION, labels, prompt, source)
            open_[labels.index(label)][2](ctx)

        return run

    def _stmt_For(self, node: ast.For):
        t, src = self._expr(node.source)
        if not (t in T.ELEMENT or t == T.ANY):
            self._err("E302", f"`for` needs a list, but this is {T.describe(t)}", node.source)
        outer = self.scope
        self.scope = _Scope(outer)
        slot = self._new_slot()
        self.scope.names[node.name] = (T.element_of(t), slot)
        body = self._run_block([self._stmt(s) for s in node.body])
        self.scope = outer

        def run(ctx):
            for item in as_list(src(ctx)):
                ctx.frame[slot] = item
                body(ctx)

        return run

    def _stmt_Repeat(self, node: ast.Repeat):
        count = self._typed(node.count, T.INT)
        body = self._run_block(self._block(node.body))

        def run(ctx):
            for _ in range(max(0, min(MAX_REPEAT, count(ctx) or 0))):
                body(ctx)

        return run

    def _stmt_Then(self, node: ast.Then):
        inner = self._stmt(node.stmt)

        def run(ctx):
            if ctx.incomplete:
                raise StopEffect()
            inner(ctx)

        return run

    def _stmt_CallStmt(self, node: ast.CallStmt):
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

            def run(ctx):
                if call(ctx) is False:
                    ctx.incomplete = True

            return run
        cond = self._cond(node.instead_cond)
        assert node.instead_body is not None  # the parser gives an instead clause both parts
        alt = self._run_block(self._block(node.instead_body))

        def run_instead(ctx):
            if cond(ctx):
                alt(ctx)
            elif call(ctx) is False:
                ctx.incomplete = True

        return run_instead

    # ------------------------------------------------------------------ expressions

    def _new_slot(self) -> int:
        slot = self.nslots
        self.nslots += 1
        return slot

    def _cond(self, node):
        return self._typed(node, T.BOOL)

    def _typed(self, node, expect):
        t, f = self._expr(node)
        if not T.accepts(expect, t):
            self._err("E302", f"expected {T.describe(expect)}, but this is {T.describe(t)}", node)
        return f

    def _expr(self, node):
        method = getattr(self, "_expr_" + type(node).__name__, None)
        if method is None:
            self._err("E307", "this is not an expression", node)
            return T.ANY, lambda ctx: None
        return method(node)

    def _expr_IntLit(self, node):
        v = node.value
        return T.INT, lambda ctx: v

    def _expr_StrLit(self, node):
        v = node.value
        return T.TEXT, lambda ctx: v

    def _expr_CardNameLit(self, node):
        cid = self.card_names.get(node.name)
        value = CardName(cid, node.name) if cid is not None else None
        if cid is None:
            self._err("E305", f"unknown card name 【{node.name}】", node, _suggest(node.name, self.card_names))
        return T.CARDNAME, lambda ctx: value

    def _expr_ListLit(self, node):
        items = [self._expr(i) for i in node.items]
        types = {t for t, _ in items if t not in (T.ANY, T.NONE)}
        if len(types) > 1:
            self._err("E302", "a list must hold values of one kind, found " + ", ".join(sorted(types)), node)
        et = types.pop() if len(types) == 1 else T.ANY
        fs = [f for _, f in items]
        return T.list_of(et), lambda ctx: [f(ctx) for f in fs]

    def _expr_Var(self, node):
        name = node.name
        found = self.scope.lookup(name)
        if found is not None:
            t, slot = found
            return t, lambda ctx: ctx.frame[slot]
        if name in self.env:
            self.names_read.add(name)
            t, getter, _ = self.env[name]
            return t, getter
        if name in CONSTANTS:
            t, v = CONSTANTS[name]
            return t, lambda ctx: v
        if name in CONTEXT_VARS:
            where = CONTEXT_VARS[name][2]
            here = ", ".join(self.unit) if isinstance(self.unit, tuple) else self.unit
            self._err("E304", f"`{name}` is not available here ({here}); it exists in {where}", node)
            return CONTEXT_VARS[name][0], lambda ctx: None
        if name in STATUSES:
            return T.STATUS, lambda ctx: name
        known = list(self.env) + list(CONSTANTS) + self._visible_names()
        self._err("E301", f"unknown name `{name}`", node, _suggest(name, known))
        return T.ANY, lambda ctx: None

    def _visible_names(self):
        out, s = [], self.scope
        while s is not None:
            out += list(s.names)
            s = s.parent
        return out

    def _expr_Attr(self, node):
        self._err(
            "E301", f"values have no attribute `.{node.name}`", node, "use a function, e.g. name_of(c), hand_count(p)"
        )
        return T.ANY, lambda ctx: None

    def _expr_Not(self, node):
        f = self._cond(node.operand)
        return T.BOOL, lambda ctx: not f(ctx)

    def _expr_Neg(self, node):
        f = self._typed(node.operand, T.INT)
        return T.INT, lambda ctx: -f(ctx)

    def _expr_Where(self, node):
        st, src = self._expr(node.source)
        if not (st in T.ELEMENT or st == T.ANY):
            self._err("E302", f"`where` filters a list, but this is {T.describe(st)}", node.source)
        outer = self.scope
        self.scope = _Scope(outer)
        slot = self._new_slot()
        self.scope.names["it"] = (T.element_of(st), slot)
        pred = self._cond(node.predicate)
        self.scope = outer

        def run(ctx):
            out = []
            frame = ctx.frame
            for item in as_list(src(ctx)):
                frame[slot] = item
                if pred(ctx):
                    out.append(item)
            return out

        return (st if st in T.ELEMENT else T.ANY), run

    _CMP: ClassVar[dict] = {
        "==": operator.eq,
        "!=": operator.ne,
        "<": operator.lt,
        "<=": operator.le,
        ">": operator.gt,
        ">=": operator.ge,
    }

    def _expr_BinOp(self, node):
        op = node.op
        if op in ("and", "or"):
            a = self._cond(node.left)
            b = self._cond(node.right)
            if op == "and":
                return T.BOOL, lambda ctx: bool(a(ctx) and b(ctx))
            return T.BOOL, lambda ctx: bool(a(ctx) or b(ctx))
        if op == "has":
            lt, a = self._expr(node.left)
            if not T.accepts(T.CARD, lt):
                self._err("E302", f"`has` tests a card's colors, but the left side is {T.describe(lt)}", node.left)
            b = self._typed(node.right, T.COLOR)

            def has(ctx):
                c = a(ctx)
                color = b(ctx)  # none (e.g. a data slot the card does not have) matches no card
                return c is not None and color is not None and bool(c.mask & color)

            return T.BOOL, has
        if op == "in":
            _, a = self._expr(node.left)
            lt, b = self._expr(node.right)
            if not (lt in T.ELEMENT or lt == T.ANY):
                self._err("E302", f"`in` needs a list on the right, but this is {T.describe(lt)}", node.right)
            return T.BOOL, lambda ctx: a(ctx) in as_list(b(ctx))
        if op in ("+", "-"):
            a = self._typed(node.left, T.INT)
            b = self._typed(node.right, T.INT)
            if op == "+":
                return T.INT, lambda ctx: a(ctx) + b(ctx)
            return T.INT, lambda ctx: a(ctx) - b(ctx)
        fn = self._CMP[op]
        lt, a = self._expr(node.left)
        rt, b = self._expr(node.right)
        if op in ("==", "!="):
            if not (T.accepts(lt, rt) or T.accepts(rt, lt)):
                self._err(
                    "E302",
                    f"comparing {T.describe(lt)} with {T.describe(rt)} is always {'false' if op == '==' else 'true'}",
                    node,
                )
            if op == "==":
                return T.BOOL, lambda ctx: a(ctx) == b(ctx)
            return T.BOOL, lambda ctx: a(ctx) != b(ctx)
        for side, t in ((node.left, lt), (node.right, rt)):
            if not T.accepts(T.INT, t):
                self._err("E302", f"`{op}` compares numbers, but this is {T.describe(t)}", side)

        def cmp(ctx):
            x, y = a(ctx), b(ctx)
            if x is None or y is None:
                return False
            return fn(x, y)

        return T.BOOL, cmp

    def _expr_Call(self, node: ast.Call):
        b = BUILTINS.get(node.func)
        if b is None:
            self._err("E301", f"unknown function `{node.func}`", node, _suggest(node.func, BUILTINS))
            for a in node.args:
                self._expr(a)
            return T.ANY, lambda ctx: None
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
                    "E303", f"{node.func} has no parameter `{k}`", a, _suggest(k, names) or "signature: " + signature(b)
                )
                continue
            if k in bound:
                self._err("E303", f"`{k}` is given twice", a)
            bound[k] = a
        argfs: list[Callable[[Any], Any]] = []
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
                    argfs.append(lambda ctx: None)
                    continue
                d = p.default
                argfs.append(_const(d))
                argtypes[p.name] = T.ANY
                continue
            t, f = self._expr(arg)
            if (p.type in T.ELEMENT or p.type == T.LIST) and t in T.LIST_OF:
                f = _as_list_fn(f)  # one value where a list is wanted: a one-item list
            argtypes[p.name] = t
            if not T.accepts(p.type, t):
                self._err(
                    "E302", f"`{p.name}` of {node.func} must be {T.describe(p.type)}, but this is {T.describe(t)}", arg
                )
            if p.type == T.STATUS and isinstance(arg, ast.StrLit) and arg.value not in STATUSES:
                self._err(
                    "E306",
                    f'unknown status "{arg.value}"',
                    arg,
                    _suggest(arg.value, STATUSES) or "statuses: " + ", ".join(STATUSES),
                )
            argfs.append(f)
        rt = b.returns(argtypes) if callable(b.returns) else b.returns
        impl = b.impl
        n = len(argfs)
        if n == 0:
            return rt, lambda ctx: impl(ctx)
        if n == 1:
            f0 = argfs[0]
            return rt, lambda ctx: impl(ctx, f0(ctx))
        if n == 2:
            f0, f1 = argfs
            return rt, lambda ctx: impl(ctx, f0(ctx), f1(ctx))
        if n == 3:
            f0, f1, f2 = argfs
            return rt, lambda ctx: impl(ctx, f0(ctx), f1(ctx), f2(ctx))
        return rt, lambda ctx: impl(ctx, *[f(ctx) for f in argfs])


def _const(d: Any) -> Callable[[Any], Any]:
    return lambda ctx: d


def _as_list_fn(f):
    return lambda ctx: as_list(f(ctx))


def signature(b) -> str:
    parts = []
    for p in b.params:
        s = f"{p.name}: {p.type}"
        if p.default is not REQUIRED:
            d = p.default
            text = (
                "none"
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
