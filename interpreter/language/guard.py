"""Seat guards: what a condition says about seats alone, tested before its context is built.

A triggered skill's condition often starts with ``subject == self`` or
``target == self``. The engine can answer that from the event's payload (the
seat numbers it carries) without building a context or calling the compiled
condition, and most events are about somebody else. :func:`seat_guard` finds,
in a boolean expression's typed AST, a *necessary* condition that compares
only the players ``self``, ``subject`` and ``target`` (and ``none``) with
``==`` and ``!=``, combined by ``and``, ``or`` and ``not``:

* a comparison of two such values is itself (a player is equal to another
  exactly when their seats are);
* ``a and b``: the guards found in either side (a side with none says nothing);
* ``a or b``: both sides need a guard, else nothing can be said;
* ``not a``: only when ``a`` is exactly a seat test.

The guard is a function of the seats (an int, or None where the value is
none), in the order of :data:`GUARD_VARS`. When it is false the condition is
false; when it is true the condition still decides. Conditions are pure
queries, so testing part of one first changes nothing but the time it takes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import ast
from .builtins import CONSTANTS

# The context variables a guard may test, and its parameters, in this order. `self` is a Python
# keyword's neighbour but not one; the parameters are named apart anyway.
GUARD_VARS = ("self", "subject", "target")
_PARAM = {"self": "s_self", "subject": "s_subject", "target": "s_target"}

SeatGuard = Callable[[int, Any, Any], bool]


def seat_guard(tree: ast.Node, env: dict[str, Any], standard: dict[str, Any]) -> SeatGuard | None:
    """The seat guard of a compiled boolean expression, or None if it says nothing about seats alone.

    `env` is the unit's context variables (name -> (type, getter, where)) and
    `standard` the language's own (compiler.CONTEXT_VARS): a variable counts only
    where it has its standard meaning.
    """
    try:
        code = _necessary(tree, env, standard)
        if code is None:
            return None
        source = f"def guard({', '.join(_PARAM[v] for v in GUARD_VARS)}):\n    return {code}\n"
        compiled = compile(source, "<seat guard>", "exec")
    except (RecursionError, SyntaxError, MemoryError):  # nested beyond Python's limits: no guard, no harm
        return None
    namespace: dict[str, Any] = {"__builtins__": {}}
    exec(compiled, namespace)
    guard: SeatGuard = namespace["guard"]
    guard.source = source  # type: ignore[attr-defined]  # (for tests and readers)
    guard.comparison = comparison(code)  # type: ignore[attr-defined]
    return guard


def comparison(code: str) -> tuple[str, str, str] | None:
    """A guard that is one comparison of two seats, as (variable, "==" or "!=", variable) with the variables of
    GUARD_VARS (the engine tests it without calling the guard); None for any other guard."""
    while code.startswith("(") and code.endswith(")") and _closes_at_end(code):
        code = code[1:-1]
    parts = code.split(" ")
    names = {param: var for var, param in _PARAM.items()}
    if len(parts) == 3 and parts[1] in ("==", "!=") and parts[0] in names and parts[2] in names:
        return names[parts[0]], parts[1], names[parts[2]]
    return None


def _atom(node: ast.Node, env: dict[str, Any], standard: dict[str, Any]) -> str | None:
    if not isinstance(node, ast.Var):
        return None
    name = node.name
    if name in env:
        known = standard.get(name)
        if name in _PARAM and known is not None and env[name][1] is known[1]:
            return _PARAM[name]
        return None
    if name in CONSTANTS and CONSTANTS[name][1] is None:  # none
        return "None"
    return None


def _exact(node: ast.Node, env: dict[str, Any], standard: dict[str, Any]) -> str | None:
    """Python code over seats that is true exactly when `node` is, or None."""
    if isinstance(node, ast.BinOp):
        if node.op in ("==", "!="):
            a, b = _atom(node.left, env, standard), _atom(node.right, env, standard)
            if a is not None and b is not None:
                return f"({a} {node.op} {b})"
            return None
        if node.op in ("and", "or"):
            a, b = _exact(node.left, env, standard), _exact(node.right, env, standard)
            if a is not None and b is not None:
                return f"({a} {node.op} {b})"
        return None
    if isinstance(node, ast.Not):
        inner = _exact(node.operand, env, standard)
        return f"(not {inner})" if inner is not None else None
    return None


def _necessary(node: ast.Node, env: dict[str, Any], standard: dict[str, Any]) -> str | None:
    """Python code over seats that is true whenever `node` is (false: `node` is false), or None."""
    exact = _exact(node, env, standard)
    if exact is not None:
        return exact
    if isinstance(node, ast.BinOp) and node.op in ("and", "or"):
        a, b = _necessary(node.left, env, standard), _necessary(node.right, env, standard)
        if node.op == "and":
            parts = [x for x in (a, b) if x is not None]
            return "(" + " and ".join(parts) + ")" if parts else None
        if a is not None and b is not None:
            return f"({a} or {b})"
    return None


def _closes_at_end(code: str) -> bool:
    """Does the parenthesis that opens `code` close at its last character (one parenthesized whole)?"""
    depth = 0
    for i, ch in enumerate(code):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i == len(code) - 1
    return False
