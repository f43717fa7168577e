"""The effect-language compiler's calls of primitives: each checked against its declaration in builtins.py
(arguments by position and by name, their types, where the primitive may be used, the counters, zones and
statuses it names) and written as one direct call of its implementation, or as the Python operation it is
(``_INLINE``). What the loader reads of the calls is noted as they are compiled: the primitives called, the
marks set and read with a key written out (W301), the skills of one's own role named.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import catalogue
from ..snippet import clip
from . import ast, types as T
from .builtins import BUILTINS, CONSTANTS, EVERYONE, REQUIRED, STATUSES, TYPED_READS, Builtin
from .expressions import _SIMPLE, ExpressionCompiler, _suggest
from .namespace import Typed


class CallCompiler(ExpressionCompiler):
    """An ExpressionCompiler that also compiles a primitive's call (``_expr_Call``); Compiler's base."""

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

    def _only_tests(self, node: ast.Call, b: Builtin) -> None:
        """E317 for an action, a choice or a draw in code that only tests (`pure`: a condition, a target rule, a
        victory check); the generic path's calls and the declared events' (emit, replace_field: event_calls.py)."""
        if self.pure and (b.draws or b.kind != "query"):  # (E317: code that only tests changes nothing)
            self._err(
                "E317",
                f"{node.func}(...) "
                + (
                    "draws at random"
                    if b.draws
                    else "asks a seat to choose"
                    if b.kind == "choice"
                    else "changes the game"
                )
                + ": it cannot be used in a condition, a target rule or a victory check, which the engine tests any "
                "number of times (to offer a skill, a card or a target, at every step), only in an effect",
                node,
                "test with queries here (hand(self), intel(p), has_mark(...) …) and do it in the `effect:`"
                + (": `let xs = shuffled(...)` there" if b.draws else ""),
            )

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
        self._only_tests(node, b)
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
                at = node.kwarg_at.get(k)  # (at the name itself, not its value)
                self._err(
                    "E303",
                    f"{node.func} has no parameter `{clip(k)}`",
                    ast.Node(*at) if at is not None else a,
                    _suggest(k, names) or "signature: " + signature(b),
                )
                continue
            if k in bound:  # (by place and by name: at the name)
                at = node.kwarg_at.get(k)
                self._err("E303", f"`{k}` is given twice", ast.Node(*at) if at is not None else a)
            bound[k] = a
        for k, at in node.kwarg_twice:  # (by name twice: at the second)
            self._err("E303", f"`{k}` is given twice", ast.Node(*at))
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
            if p.type == T.TIMING:
                self._check_timing(node.func, p.name, arg, t)
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
            # (has_skill of anyone names some skill of the content; the others, of self, one its seat can hold)
            if node.func == "has_skill" or (isinstance(who, ast.Var) and who.name == "self"):
                self.skill_refs.append((named.value, node.func, named.line, named.col))
        rt = b.returns(argtypes) if callable(b.returns) else b.returns
        if rt == T.BY_PLACE:
            rt = T.ANY  # a read of any value, where any value will do (exists, == none): _typed_read
        impl = b.implementation()  # registered by interpreter.engine.primitives; MissingImplementation if not
        inline = _INLINE.get(node.func)
        if inline is not None and len(args) == 1 and self._inlinable(node.func, bound, args[0]):
            return rt, inline.format(args[0])  # what the primitive does, written out (no call)
        fn = self._bind(impl, "b_" + node.func + "_") if node.func.isidentifier() else self._bind(impl, "b")
        return rt, f"{fn}(" + ", ".join(["ctx", *args]) + ")"

    def _undeclared(self, code: str, what: str, arg: ast.StrLit, declared: Iterable[str]) -> None:
        """`arg` names a counter, zone or event the rules do not declare: the closest declared name, else the
        declared ones, else where to declare it."""
        names = list(declared)
        listed = ", ".join(names)
        self._err(
            code,
            f'unknown {what} "{clip(arg.value)}"',
            arg,
            _suggest(arg.value, names)
            or (f"{what}s the rules declare: {listed}" if listed else None)
            or f"declare it in the rules' `{what}s:` (rules.yaml, or a pack's rules:)",
        )

    def _check_counter(self, func: str, pname: str, arg: ast.Node, t: str) -> None:
        """A counter is named in quotes (E302 for a text computed in play) and declared by the rules (E310)."""
        if t == T.TEXT and not isinstance(arg, ast.StrLit):
            self._err(
                "E302", f"`{pname}` of {func} must be a counter's name in quotes, not a text computed in play", arg
            )
        elif isinstance(arg, ast.StrLit) and arg.value not in self.counters:
            self._undeclared("E310", "counter", arg, self.counters)

    def _check_zone(self, func: str, pname: str, arg: ast.Node, t: str) -> None:
        """A zone is named in quotes (E302 for a text computed in play) and declared by the rules (E311)."""
        if t == T.TEXT and not isinstance(arg, ast.StrLit):
            self._err("E302", f"`{pname}` of {func} must be a zone's name in quotes, not a text computed in play", arg)
        elif isinstance(arg, ast.StrLit) and arg.value not in self.zones:
            self._undeclared("E311", "zone", arg, self.zones)

    def _check_timing(self, func: str, pname: str, arg: ast.Node, t: str) -> None:
        """An idle point is named in quotes (E302 for a text computed in play) and is one of the catalogue's
        (E316)."""
        if t == T.TEXT and not isinstance(arg, ast.StrLit):
            self._err(
                "E302", f"`{pname}` of {func} must be an idle point's name in quotes, not a text computed in play", arg
            )
        elif isinstance(arg, ast.StrLit) and arg.value not in catalogue.TIMINGS:
            self._err(
                "E316",
                f'unknown idle point "{clip(arg.value)}"',
                arg,
                _suggest(arg.value, catalogue.TIMINGS) or "idle points: " + ", ".join(catalogue.TIMINGS),
            )

    def _inlinable(self, func: str, bound: dict[str, ast.Node], code: str) -> bool:
        """Can the call of an _INLINE primitive with this argument be written out? count: where its argument is
        always a list; exists: where it is no constant (Python warns of `is not` with one); the others always."""
        if func == "count":
            return self._is_list(bound.get("xs"), code)
        if func == "exists":
            return _SIMPLE.fullmatch(code) is not None or code.startswith("b_")
        return True


# Query primitives whose work is one Python operation, written out in the generated code instead of a call (the
# same result for every value: any_of is bool(xs), none_of not xs, exists x is not None; count a list's length,
# only where the argument always is a list)
_INLINE = {
    "any_of": "(True if {} else False)",
    "none_of": "(False if {} else True)",
    "exists": "({} is not None)",
    "count": "len({})",
}

# What names a skill by its name (the loader checks those of one's own: content/checks.py, check_skill_refs).
_SKILL_REFS = ("gain_skill", "lose_skill", "skill_yang", "has_skill")
# What sets a mark (for W301): for a turn, for the game, a counter for the game.
_MARK_SETS = ("set_mark", "keep_mark", "add_mark")
# The typed reads of a mark and the kind each reads (has_mark reads a flag of any kind: not here).
_MARK_READ_TYPE = {name: t for t, name in TYPED_READS["mark"].items() if t != T.BOOL}


def _one_item(code: str) -> str:
    """One value (a player, a card …; never a list) as a list: [it], or [] for none. Written out for a variable
    or a context variable (reading it twice is reading it once), else through as_list."""
    return f"([] if {code} is None else [{code}])" if _SIMPLE.fullmatch(code) else f"as_list({code})"


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
