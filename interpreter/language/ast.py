"""Typed AST of the effect language.

Every node carries the line and column (1-based) of its first token in the
effect text, so the checker can point back into the YAML file.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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
