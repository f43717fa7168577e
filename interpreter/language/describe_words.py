"""The words of the rules text (describe.py): the catalogue's Chinese names of context variables, timings,
events, checks, colours and data types as the renderer uses them, a few words of its own (comparisons, the
labels 甲乙丙 of several picks), and the small helpers every part of the renderer shares (a call's phrasing, an
expression parsed once, a `let`'s binding).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .. import catalogue
from . import ast
from .builtins import BUILTINS, Choice, Phrasing
from .parser import parse

COLOR_ZH = dict(catalogue.COLORS)
VAR_ZH = {n: v.zh for n, v in catalogue.CONTEXT_VARS.items()} | {
    n: c.zh for n, c in catalogue.CONSTANTS.items() if c.type != "color"
}  # context variables and constants as nouns
VAR_KIND = {n: v.type for n, v in catalogue.CONTEXT_VARS.items()} | {n: c.type for n, c in catalogue.CONSTANTS.items()}
TIMING_ZH = {n: t.zh for n, t in catalogue.TIMINGS.items()}  # opening a sentence (zh_at: after 在)
TRIGGER_ZH = {n: e.zh for n, e in catalogue.TRIGGER_EVENTS.items()}  # {s}: the subject, {c}: the event's card
CHECK_ZH = {n: v.zh for n, v in catalogue.VICTORY_CHECKS.items()}
DATA_TYPE_ZH = dict(catalogue.DATA_TYPES)
TARGET_LONG = "目标角色"  # `target` when no target rule introduced it
YOU = VAR_ZH["self"]
OP_ZH = {"==": "等于", "!=": "不等于", "<": "小于", "<=": "不超过", ">": "大于", ">=": "不少于"}
FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
NEGATE = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}
LITERAL_KIND = {ast.IntLit: "int", ast.StrLit: "text", ast.CardNameLit: "cardname", ast.Neg: "int"}
ORDINALS = "甲乙丙丁戊己庚辛"
SHORT = {"card": "该牌", "player": "该角色", "color": "该颜色", "int": "该数值"}  # a value after its first mention
LABEL_WORDS = {
    "player": "角色",
    "card": "牌",
    "int": "数值",
    "color": "颜色",
}  # two or more `let`s of a kind: 数值甲 …


def phrasing_of(node: object) -> Phrasing | None:
    """The phrasing of a call's primitive (before variants); None for anything else."""
    b = BUILTINS.get(node.func) if isinstance(node, ast.Call) else None
    return b.phrasing if b is not None else None


def choice_of(call: ast.Call) -> Choice:
    ph = phrasing_of(call)
    assert ph is not None and ph.choice is not None, f"{call.func} is not a choice"
    return ph.choice


@cache
def expression(text: str) -> ast.Node:
    """An expression, parsed once per text."""
    node: ast.Node = parse(text, start="expression")
    return node


def is_var(node: object, *names: str) -> bool:
    return isinstance(node, ast.Var) and node.name in names


@dataclass
class Binding:
    node: ast.Node | None = None  # the value's code (queries are rendered where used)
    kind: str = "any"
    plural: bool = False
    full: str | None = None  # fixed wording (choices, loop variables)
    short: str | None = None  # wording after the first mention
    adj: str | None = None  # as a modifier: 你声明的
    used: bool = False
    label: str | None = None  # 牌甲: said after the first mention, and the short wording after it
