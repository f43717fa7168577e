"""A static check of the seat boundary: no face-up choice among cards the chooser cannot see.

``choose``/``choose_many``/``declare`` offer their list to a player as
options, card by card. Cards in another player's hand are hidden from the
chooser, so such a choice is legal only if it is blind (抽取: ``blind: true``),
made by the hand's owner (``by:``), or preceded in the same program by
``reveal(hand(X), to: ...)`` of that hand. Anything else is reported as E309
when the content is validated; what this check cannot see (a hand reached
through a variable holding another list, say) the engine still refuses at run
time, when it describes the options to the seat.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from . import ast

CHOICES = ("choose", "choose_many", "declare")


Shape = Any  # a node's shape without positions (_key): nested tuples of names and plain values
Revealed = dict[Shape, Any]  # hand owner (shape) -> the viewers it was shown to (a set of shapes), or ALL
Report = Callable[[ast.Call, ast.Node], None]


def check(program: ast.Program, report: Report) -> None:
    """Walk `program` in source order; call report(node, hand_owner_text) for each hidden choice."""
    revealed: Revealed = {}  # hand owner (shape) -> the viewers it was shown to (shapes), or ALL
    for stmt in program.body:
        _walk(stmt, revealed, report)


def _key(node: object) -> Shape:
    """A node's shape without positions, to compare two expressions."""
    if isinstance(node, ast.Node):
        return (
            type(node).__name__,
            *(_key(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name not in ("line", "col")),
        )
    if isinstance(node, (list, tuple)):
        return tuple(_key(x) for x in node)
    if isinstance(node, dict):
        return tuple(sorted((k, _key(v)) for k, v in node.items()))
    return node


def _hand_of(node: ast.Node) -> ast.Node | None:
    """X if `node` is hand(X) or hand(X) where …, else None."""
    while isinstance(node, ast.Where):
        node = node.source
    if isinstance(node, ast.Call) and node.func == "hand" and len(node.args) == 1:
        return node.args[0]
    return None


ALL = "all"
SELF = ("Var", "self")


def _walk(node: object, revealed: Revealed, report: Report) -> None:
    if isinstance(node, ast.Call):
        for a in node.args:
            _walk(a, revealed, report)
        for v in node.kwargs.values():
            _walk(v, revealed, report)
        if node.func == "reveal" and node.args:
            owner = _hand_of(node.args[0])
            if owner is not None:
                to = node.kwargs.get("to", node.args[1] if len(node.args) > 1 else None)
                if to is None:
                    revealed[_key(owner)] = ALL
                else:
                    items = to.items if isinstance(to, ast.ListLit) else [to]
                    seen = revealed.setdefault(_key(owner), set())
                    if seen is not ALL:
                        seen.update(_key(x) for x in items)
        elif node.func in CHOICES:
            source = node.args[0] if node.args else node.kwargs.get("from")
            owner = _hand_of(source) if source is not None else None
            if owner is not None and not _allowed(node, owner, revealed):
                report(node, owner)
        return
    if isinstance(node, ast.Node):
        for f in dataclasses.fields(node):
            if f.name not in ("line", "col"):
                _walk(getattr(node, f.name), revealed, report)
    elif isinstance(node, (list, tuple)):
        for x in node:
            _walk(x, revealed, report)
    elif isinstance(node, dict):
        for x in node.values():
            _walk(x, revealed, report)


def _allowed(call: ast.Call, owner: ast.Node, revealed: Revealed) -> bool:
    blind = call.kwargs.get("blind")
    if isinstance(blind, ast.Var) and blind.name == "true":
        return True
    by = call.kwargs.get("by")
    chooser = _key(by) if by is not None else SELF
    if chooser == _key(owner):
        return True
    shown = revealed.get(_key(owner), ())
    return shown is ALL or chooser in shown
