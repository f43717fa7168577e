"""The effect-language compiler's calls that name an event the rules declare (`events:`, model/declared.py):
``emit(event, field: value, ...)`` (its fields by name, each checked against the declared type),
``replace_field(field, value)`` (改判: only in a skill reacting to declared events that let the field be
replaced) and ``reveal_top(event, p)`` (判定: the event needs a replaceable card field). The events are known
only with the rules they are played with: `validate` of one file alone skips E312-E314 (content/units.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..snippet import clip
from . import ast, types as T
from .builtins import BUILTINS
from .calls import CallCompiler, _one_item
from .expressions import _suggest
from .namespace import Typed

if TYPE_CHECKING:
    from ..model.declared import EventDecl

# The calls compiled here rather than by CallCompiler's generic path.
EVENT_CALLS = frozenset(("emit", "replace_field", "reveal_top"))


class EventCallCompiler(CallCompiler):
    """A CallCompiler that also compiles the calls naming a declared event; Compiler's base."""

    def _expr_Call(self, node: ast.Call, expect: str | None = None) -> Typed:
        if node.func not in EVENT_CALLS:
            return super()._expr_Call(node, expect)
        if node.func == "emit":
            return self._emit(node)
        if node.func == "replace_field":
            return self._replace_field(node)
        event = node.args[0] if node.args else node.kwargs.get("event")
        decl = self._event_named("reveal_top", event) if event is not None else None
        if decl is not None and (decl.subject is None or decl.judgement_field() is None):
            self._err(
                "E313",
                f'event "{clip(decl.name)}" cannot be a judgement: it needs a player field and a replaceable '
                "card field",
                event,
                "declare it with a player field and a card field listed in `replaceable:` (the judgement card)",
            )
        return super()._expr_Call(node, expect)  # (the generic path checks the arguments' types)

    def _event_named(self, func: str, arg: ast.Node) -> EventDecl | None:
        """The declared event an argument names in quotes (E302 for a text computed in play, E312 for a name
        the rules do not declare)."""
        if not isinstance(arg, ast.StrLit):
            self._err("E302", f"the event of {func} must be an event's name in quotes", arg)
            return None
        decl = self.events.get(arg.value)
        if decl is None:
            self._undeclared("E312", "event", arg, self.events)
        return decl

    def _field_value(self, decl: EventDecl, field: str, arg: ast.Node) -> str:
        """The code of a value given for a field, checked against the field's declared type (E313)."""
        want = decl.field_types()[field]
        t, code = self._expr(arg, want)
        if want in T.ELEMENT and t in T.LIST_OF:
            code = _one_item(code)  # one card where the field holds cards
        if not T.accepts(want, t):
            self._err(
                "E313",
                f'field `{field}` of event "{clip(decl.name)}" is {T.describe(want)}, but this is {T.describe(t)}',
                arg,
            )
        return code

    def _emit(self, node: ast.Call) -> Typed:
        """emit("事件", field: value, ...): every declared field given by name, of its type."""
        usage = 'emit("事件", field: value, ...): the event\'s name, then each of its fields by name'
        self._only_tests(node, BUILTINS["emit"])  # (E317: it triggers skills, which act and ask)
        event = node.args[0] if node.args else node.kwargs.get("event")
        if event is None or len(node.args) > 1:
            self._err("E303", "emit takes the event's name and then its fields by name", node, usage)
            for a in [*node.args, *node.kwargs.values()]:
                self._expr(a)
            return T.ANY, "None"
        self._expr(event, T.EVENT)
        decl = self._event_named("emit", event)
        given = {k: a for k, a in node.kwargs.items() if k != "event"}
        if decl is None:
            for a in given.values():
                self._expr(a)
            return T.ANY, "None"
        types = decl.field_types()
        for k, a in given.items():
            if k not in types:
                self._err(
                    "E313",
                    f'event "{clip(decl.name)}" has no field `{clip(k)}`',
                    a,
                    _suggest(k, types) or "its fields: " + ", ".join(types),
                )
                self._expr(a)
        values: list[str] = []
        misspelt = any(k not in types for k in given)  # (a misspelt field is not also reported missing)
        for f, _ in decl.fields:
            arg = given.get(f)
            if arg is None:
                if misspelt:
                    values.append("None")
                    continue
                self._err(
                    "E313",
                    f'emit("{clip(decl.name)}") does not give its field `{f}`',
                    node,
                    "give every field by name: " + ", ".join(f"{name}: …" for name in types),
                )
                values.append("None")
                continue
            values.append(self._field_value(decl, f, arg))
        self.calls.add("emit")
        fn = self._bind(BUILTINS["emit"].implementation(), "b_emit_")
        rt = types[decl.replaceable[0]] if decl.replaceable else T.BOOL
        return rt, f"{fn}(" + ", ".join(["ctx", repr(decl.name), *values]) + ")"

    def _replace_field(self, node: ast.Call) -> Typed:
        """replace_field("field", value): in a skill reacting only to declared events that let it be replaced."""
        self._only_tests(node, BUILTINS["replace_field"])  # (E317)
        params = ("field", "value")
        bound = dict(zip(params, node.args, strict=False)) | {k: a for k, a in node.kwargs.items() if k in params}
        field, value = bound.get("field"), bound.get("value")
        if field is None or value is None or len(node.args) > 2 or set(node.kwargs) - set(params):
            self._err("E303", 'replace_field takes a field\'s name and its new value: replace_field("card", c)', node)
            for a in [*node.args, *node.kwargs.values()]:
                self._expr(a)
            return T.BOOL, "False"
        units = self.unit if isinstance(self.unit, tuple) else (self.unit,)
        decls = [self.events.get(u) if isinstance(u, str) else None for u in units]
        if not isinstance(field, ast.StrLit):
            self._err("E302", "the field of replace_field must be a field's name in quotes", field)
            self._expr(value)
            return T.BOOL, "False"
        name = field.value
        wrong = [u for u, d in zip(units, decls, strict=True) if d is None or name not in d.replaceable]
        if wrong:
            d = decls[units.index(wrong[0])]
            if d is None:
                msg, hint = (
                    "replace_field is used only in a triggered skill reacting to an event the rules declare",
                    "trigger: the event (declared in the rules' `events:`) whose field it replaces",
                )
            else:
                replaceable = ", ".join(d.replaceable) or "none"
                msg = f'field `{clip(name)}` of event "{clip(d.name)}" is not replaceable'
                hint = _suggest(name, d.replaceable) or f"its replaceable fields: {replaceable} (`replaceable:`)"
            self._err("E314", msg, field, hint)
            self._expr(value)
            return T.BOOL, "False"
        first = decls[0]
        assert first is not None  # (none is wrong: each is a declared event)
        code = self._field_value(first, name, value)
        self.calls.add("replace_field")
        fn = self._bind(BUILTINS["replace_field"].implementation(), "b_replace_field_")
        return T.BOOL, f"{fn}(ctx, {name!r}, {code})"
