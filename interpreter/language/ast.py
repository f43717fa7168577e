"""Typed AST of the effect language.

Every node carries the line and column (1-based) of its first token in the
effect text, so the checker can point back into the YAML file.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields


@dataclass
class Node:
    line: int
    col: int


# ---- expressions -------------------------------------------------------


@dataclass
class Var(Node):
    name: str


@dataclass
class IntLit(Node):
    value: int


@dataclass
class StrLit(Node):
    value: str


@dataclass
class CardNameLit(Node):
    """A card type written as 【name】 in the source."""

    name: str


@dataclass
class ListLit(Node):
    items: list[Node]


@dataclass
class Attr(Node):
    obj: Node
    name: str


@dataclass
class Call(Node):
    func: str
    args: list[Node]
    kwargs: dict[str, Node]  # name -> (Node, line, col) as Node
    # name -> (line, col) of the keyword itself (`count` in draw(self, count: 1)): an error about the name points there
    kwarg_at: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)
    # a keyword written again in the same call (draw(self, n: 1, n: 2)), at its second place: kwargs keeps one value
    kwarg_twice: list[tuple[str, tuple[int, int]]] = field(default_factory=list, compare=False)


@dataclass
class BinOp(Node):
    op: str  # and or == != < <= > >= + - has in
    left: Node
    right: Node


@dataclass
class Not(Node):
    operand: Node


@dataclass
class Neg(Node):
    operand: Node


@dataclass
class Where(Node):
    """`collection where predicate`: keeps the items for which the predicate holds; `it` is the item."""

    source: Node
    predicate: Node


@dataclass
class ListComp(Node):
    """`[item for name in source]`: the values of `item` for each item of `source`, in order (none left out)."""

    item: Node
    name: str
    source: Node


# ---- statements --------------------------------------------------------


@dataclass
class Let(Node):
    name: str
    value: Node


@dataclass
class If(Node):
    branches: list[tuple[Node, list[Node]]]  # [(cond, body)]
    orelse: list[Node] | None


@dataclass
class May(Node):
    """可以: the chooser decides whether the whole block happens (all or nothing)."""

    by: Node | None
    prompt: str | None
    body: list[Node]


@dataclass
class Option(Node):
    label: str
    condition: Node | None
    body: list[Node]


@dataclass
class ChooseOne(Node):
    """选择一项: the chooser picks one of the options whose condition holds."""

    by: Node | None
    prompt: str | None
    options: list[Option]


@dataclass
class For(Node):
    name: str
    source: Node
    body: list[Node]


@dataclass
class Repeat(Node):
    count: Node
    body: list[Node]


@dataclass
class Then(Node):
    """然后: the statement runs only if everything before it (since the previous 然后) fully resolved."""

    stmt: Node


@dataclass
class CallStmt(Node):
    call: Call
    instead_cond: Node | None = None
    instead_body: list[Node] | None = None


@dataclass
class Program:
    body: list[Node] = field(default_factory=list)


# ---- working with trees ------------------------------------------------


def same(a: object, b: object) -> bool:
    """Structural equality of two trees (nodes, lists, dicts, values), ignoring positions."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (Node, Program)):
        return all(same(v, getattr(b, k)) for k, v in vars(a).items() if k not in ("line", "col"))
    return a == b


def contains(tree: object, node: object) -> bool:
    """Is `node` (structurally) part of `tree`?"""
    if same(tree, node):
        return True
    if isinstance(tree, (list, tuple)):
        return any(contains(x, node) for x in tree)
    if isinstance(tree, dict):
        return any(contains(x, node) for x in tree.values())
    if isinstance(tree, (Node, Program)):
        return any(contains(v, node) for k, v in vars(tree).items() if k not in ("line", "col"))
    return False


def substitute(tree: Node, names: dict[str, Node]) -> Node:
    """A copy of `tree` with each variable named in `names` replaced by its node."""

    def sub(x: object) -> object:
        if isinstance(x, Var) and x.name in names:
            return names[x.name]
        if isinstance(x, list):
            return [sub(y) for y in x]
        if isinstance(x, dict):
            return {k: sub(v) for k, v in x.items()}
        if isinstance(x, Node):
            y = copy.copy(x)
            for f in fields(x):
                setattr(y, f.name, sub(getattr(x, f.name)))
            return y
        return x

    out = sub(tree)
    assert isinstance(out, Node)
    return out


def conjuncts(node: Node) -> list[Node]:
    """The parts of a chain of `and`: `a and b and c` → [a, b, c]."""
    if isinstance(node, BinOp) and node.op == "and":
        return conjuncts(node.left) + conjuncts(node.right)
    return [node]
