"""The effect-language compiler's expressions: the state of one compilation, the names in the generated code,
and every expression but a primitive's call (literals, variables, operators, `where`, lists built with `for`).

Each ``_expr_*`` method returns (the expression's type in the language, Python source of its value); the
source is always one atom or parenthesized. Loops (``_loop``) live here too: a list built with `for` is an
expression, and it spends the step budget as the statements' loops do. The class ``ExpressionCompiler`` is the
base of ``CallCompiler`` (calls.py) and ``Compiler`` (compiler.py), which the loader uses.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from .. import catalogue
from ..snippet import clip
from ..suggest import did_you_mean
from . import ast, types as T
from .builtins import BUILTINS, CONSTANTS, STATUSES, TYPED_READS, returns_list
from .errors import LanguageError
from .namespace import (
    BASE_NAMESPACE,
    CMP_NAMES,
    CONTEXT_CODE,
    CONTEXT_VARS,
    MAX_REPEAT,
    STEP_BUDGET,
    Env,
    Factory,
    Typed,
    UnitKind,
)
from .parser import NAMED_CARD_HINT
from .runtime import CardName

if TYPE_CHECKING:
    from ..model.declared import EventDecl

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
    "yes": "a flag is `true` or `false`: write `true`",
    "no": "a flag is `true` or `false`: write `false` (no value at all is `none`)",
    "len": "count(...) gives how many items a list has",
    "length": "count(...) gives how many items a list has",
}


_HAS_HINT = "`c has red` tests a card's colors; " + NAMED_CARD_HINT
# `p has red` of a player: his identity's colour, or a colour among his intel (the two things 红色 says of a player)
_HAS_PLAYER_HINT = (
    "`c has red` tests a card's colors; a player's identity colour is `identity_color(p) == red`, a red intel in "
    "front of him `any_of(intel(p) where it has red)`"
)


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


class ExpressionCompiler:
    """The state of compiling the code units of one content object, and its expressions but calls.

    ``errors`` collects every problem found. Subclassed by CallCompiler (calls.py: a primitive's call) and
    Compiler (compiler.py: the entry points and the statements)."""

    def __init__(
        self,
        env: Env,
        unit: UnitKind,
        card_names: dict[str, str],
        data_types: dict[str, str] | None = None,
        precompiled: Mapping[str, Factory] | None = None,
        counters: Iterable[str] = (),
        zones: Iterable[str] = (),
        events: Mapping[str, EventDecl] | None = None,
        most_players: int | None = None,
    ) -> None:
        self.env = env  # context variables available: name -> (type, getter, where)
        self.unit = unit  # the timing or check this code runs at (for context checks)
        # compiling a condition, a target rule or a victory check (Compiler.expression), which the engine may test any
        # number of times: nothing in it may act, ask a seat or draw from the game's generator (E317: calls.py)
        self.pure = False
        self.card_names = card_names  # Chinese card name -> card id
        self.data_types = data_types or {}  # the card's own per-copy data (`data:`): key -> type
        self.counters = tuple(counters)  # the counters the rules declare (model/declared.py), by name
        self.zones = tuple(zones)  # the zones the rules declare, by name
        self.events: Mapping[str, EventDecl] = events or {}  # the events the rules declare (emit, reveal_top)
        # the largest table the rules play (Rules.player_counts), what W501 counts a loop over players as; None where
        # the code is compiled with no rules known (one file on its own, a test): catalogue.LOOP_ESTIMATE's
        self.most_players = most_players
        # units compiled ahead of time, by unit_key (the compiled build's table of the bundled content's units)
        self.precompiled = precompiled
        self.errors: list[LanguageError] = []
        self.warnings: list[LanguageError] = []  # what may go wrong in play (W501 loops inside loops)
        self.calls: set[str] = set()  # the primitives the code calls (W502: a use instead of sending that never sends)
        # marks set and read with a key written out: (key, kind of value, "set" or "read", line, col) (W301)
        self.marks: list[tuple[str, str, str, int, int]] = []
        # skills named in the code of one's own (gain_skill(self, "名") …): (name, primitive, line, col), for the loader
        self.skill_refs: list[tuple[str, str, int, int]] = []
        self.loop_steps = 1  # the most iterations the loops around the code being compiled can make (W501)
        self.in_loop = False  # inside a loop or a `where` predicate: a `where` there spends the step budget
        self.nslots = 0  # variables (let, for, it) so far: v0, v1 …
        self.ntemps = 0  # helper locals of statements so far: t0, t1 …
        self.scope = _Scope()
        self.names_read: set[str] = set()  # context variables the code reads (e.g. whether it depends on this_card)
        self.namespace: dict[str, object] = dict(BASE_NAMESPACE)
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

    # ------------------------------------------------------------------ loops

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
            known = sorted(n for n, c in self.card_names.items() if c is not None)
            hint = _suggest(node.name, self.card_names) or (  # nothing close: the names there are (E121 lists so)
                "the card names: " + "、".join(f"【{n}】" for n in known) if known else None
            )
            self._err("E305", f"unknown card name 【{clip(node.name)}】", node, hint)
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
            if known is not None and known[1] is getter and name in CONTEXT_CODE:
                return t, CONTEXT_CODE[name]
            return t, f"{self._bind(getter, 'g')}(ctx)"
        if name in CONSTANTS:
            t, v = CONSTANTS[name]
            return t, self._literal(v)
        if name in CONTEXT_VARS:
            where = CONTEXT_VARS[name][2]
            here = ", ".join(self.unit) if isinstance(self.unit, tuple) else self.unit
            setting = catalogue.triggers_setting(name)
            units = self.unit if isinstance(self.unit, tuple) else (self.unit,)
            # a triggered skill's code (it alone has `event`) at events that do not set the variable
            if setting and "event" in self.env and all(u in catalogue.TRIGGER_EVENTS for u in units):
                self._err(
                    "E304",
                    f"`{name}` is never set at {here}: that event has none, so this would never hold or act",
                    node,
                    "it is set at " + ", ".join(setting),
                )
                return CONTEXT_VARS[name][0], "None"
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
            with self._loop(node, _list_estimate(node.source, st, self.most_players)):
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
                    _HAS_PLAYER_HINT if lt == T.PLAYER else _HAS_HINT,
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
                text = side.value.strip() if isinstance(side, ast.StrLit) else ""
                hint = f"a number is written without quotes: {text}" if re.fullmatch(r"-?[0-9]+", text) else None
                self._err("E302", f"`{op}` compares numbers, but this is {T.describe(t)}", side, hint)
            numbers = numbers and t == T.INT
            sides.append(code)
        if numbers:
            return T.BOOL, f"({sides[0]} {op} {sides[1]})"
        return T.BOOL, f"{CMP_NAMES[op]}({sides[0]}, {sides[1]})"

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

    def _expr_Call(self, node: ast.Call, expect: str | None = None) -> Typed:
        """A primitive's call: compiled by CallCompiler (calls.py), the class Compiler is made of above this one."""
        raise NotImplementedError

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


_SIMPLE = re.compile(r"[vt]\d+|ctx\.[a-z_]+")  # a local variable, or a context variable kept in ctx


def _is_read(node: ast.Node) -> bool:
    """A call of mark(...) or data(...), whose type is the one its place asks for."""
    return isinstance(node, ast.Call) and node.func in TYPED_READS


def _list_estimate(source: ast.Node, t: str, most_players: int | None = None) -> int:
    """The most items a `for` may walk, as W501 counts them: a list written out, its length; a list of players,
    the largest table the rules play (`most_players`; with no rules known, catalogue.LOOP_ESTIMATE's, the bundled
    game's most: a fork seating more would be underestimated by it); any other, a large deck's cards
    (catalogue.LOOP_ESTIMATE)."""
    if isinstance(source, ast.ListLit):
        return len(source.items)
    est = catalogue.LOOP_ESTIMATE
    if t in (T.PLAYER, T.list_of(T.PLAYER)):
        return est["players"] if most_players is None else most_players
    if t in (T.CARD, T.list_of(T.CARD)):
        return est["cards"]
    return est["list"]
