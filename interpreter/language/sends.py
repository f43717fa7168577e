"""E315: code that may send two intels on one path.

One intel is in transit at a time: the engine keeps one pending intel, and a second `send(...)` while the
first travels has nowhere to go (it failed a game with "two pending intels"). Each branch of an `if`, each
option of a choice may send once; two sends one after the other, or a send in a loop or a `where`, may send
twice and are refused at load. The count is of the code as written, path by path: the largest number of
`send(...)` calls one run can make (a loop's body counted as running twice).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from . import ast

__all__ = ["check_single_send"]

Report = Callable[[ast.Node], None]


def check_single_send(program: ast.Program, report: Report) -> None:
    """Report (once, at the `send` call that makes it two) code that may send more than one intel."""
    found: list[ast.Node] = []
    _sequence(program.body, found)
    if found:
        report(found[0])


def _first_send(node: object) -> ast.Call | None:
    if isinstance(node, ast.Call) and node.func == "send":
        return node
    for child in _children(node):
        hit = _first_send(child)
        if hit is not None:
            return hit
    return None


def _children(node: object) -> list[object]:
    if isinstance(node, (list, tuple)):
        return list(node)
    if isinstance(node, dict):
        return list(node.values())
    if isinstance(node, (ast.Node, ast.Program)):
        return [getattr(node, f.name) for f in dataclasses.fields(node) if f.name not in ("line", "col")]
    return []


def _sequence(nodes: list, found: list[ast.Node]) -> int:
    total = 0
    for node in nodes:
        n = _count(node, found)
        if n and total + n > 1 and not found:
            hit = _first_send(node)
            if hit is not None:
                found.append(hit)
        total += n
    return total


def _count(node: object, found: list[ast.Node]) -> int:
    """The most `send` calls one run of `node` makes."""
    if isinstance(node, ast.If):
        conds = sum(_count(c, found) for c, _ in node.branches)
        bodies = [_sequence(b, found) for _, b in node.branches]
        bodies.append(_sequence(node.orelse or [], found))
        return conds + max(bodies)
    if isinstance(node, ast.ChooseOne):
        options = [_count(o.condition, found) + _sequence(o.body, found) for o in node.options]
        return _count(node.by, found) + max(options, default=0)
    if isinstance(node, ast.CallStmt) and node.instead_body is not None:
        return max(_count(node.call, found), _count(node.instead_cond, found) + _sequence(node.instead_body, found))
    if isinstance(node, (ast.For, ast.Repeat, ast.Where, ast.ListComp)):
        inner = sum(_count(c, found) for c in _children(node))
        if inner and not found:
            hit = _first_send(node)
            if hit is not None:
                found.append(hit)
        return 2 * inner
    if isinstance(node, list):
        return _sequence(node, found)
    own = 1 if isinstance(node, ast.Call) and node.func == "send" else 0
    parts = _children(node)
    return own + (_sequence(parts, found) if isinstance(node, (ast.Node, ast.Program)) else 0)
