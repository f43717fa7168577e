"""Render effect-language code as Chinese rules text.

``fengsheng describe`` uses this to print, next to the text a designer wrote
(``text:``), the text the code actually says. The renderer is general: it
knows the primitives of ``builtins.py`` (their ``zh`` wording is the fallback
for any call), the statements of the language and a few phrasing patterns of
the rules texts (依次, 然后, 若如此做会……则改为……, 选择一项, 三张或更多……).
It never looks at the name of a card, role or task.

Entry points:

- :func:`describe_expr` and :func:`describe_program` for bare code;
- :func:`describe_card`, :func:`describe_task`, :func:`describe_role`,
  :func:`describe_identity` for the loaded YAML mappings of content files.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from .. import catalogue
from . import ast
from .builtins import BUILTINS, STATUSES
from .errors import LanguageError
from .parser import parse

# ---------------------------------------------------------------- vocabulary

CN_DIGITS = "零一二三四五六七八九十"

# The Chinese wording of the rule vocabulary, from the catalogue.
COLOR_ZH = dict(catalogue.COLORS)

# Context variables and constants as a noun in the text.
VAR_ZH = {n: v.zh for n, v in catalogue.CONTEXT_VARS.items()} | {
    n: c.zh for n, c in catalogue.CONSTANTS.items() if c.type != "color"
}
# The wording of `target` when no target rule introduced it.
TARGET_LONG = "目标角色"

VAR_KIND = {n: v.type for n, v in catalogue.CONTEXT_VARS.items()} | {n: c.type for n, c in catalogue.CONSTANTS.items()}

# Card timings: as the opening of a sentence, and after 在 (你也可以在……使用).
TIMING_ZH = {n: t.zh for n, t in catalogue.TIMINGS.items()}
TIMING_AT_ZH = {n: t.zh_at for n, t in catalogue.TIMINGS.items()}

# Triggered skills: {s} the subject, {c} the card or intel of the event.
TRIGGER_ZH = {n: e.zh for n, e in catalogue.TRIGGER_EVENTS.items()}
# the noun for the event's card (otherwise 情报)
TRIGGER_CARD_NOUN = {n: e.card_noun for n, e in catalogue.TRIGGER_EVENTS.items() if e.card_noun != "情报"}

LIMIT_ZH = dict(catalogue.LIMIT_SCOPES)

DATA_TYPE_ZH = dict(catalogue.DATA_TYPES)

CHECK_ZH = {n: v.zh for n, v in catalogue.VICTORY_CHECKS.items()}

_OP_ZH = {"==": "等于", "!=": "不等于", "<": "小于", "<=": "不超过", ">": "大于", ">=": "不少于"}
_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}

_BUILTIN_KIND = {
    "player": "player",
    "players": "player",
    "card": "card",
    "cards": "card",
    "color": "color",
    "colors": "color",
    "text": "text",
    "texts": "text",
    "cardname": "cardname",
    "cardnames": "cardname",
    "int": "int",
    "bool": "bool",
    "status": "status",
}
_PLURAL_TYPES = {"players", "cards", "colors", "texts", "cardnames", "list"}
_CHOICES = {"choose", "declare", "choose_many"}

IT = "其"  # `it`, and the player a loop runs over: dropped where it is the subject


def cn_num(n, clf: str | None = None) -> str:
    """A number in Chinese: 三, or 两张 before a classifier. Numbers above ten stay in digits."""
    if not isinstance(n, int) or isinstance(n, bool):
        return str(n)
    if clf and n == 2:
        return "两" + clf
    word = CN_DIGITS[n] if 0 <= n <= 10 else str(n)
    return word + (clf or "")


def poss(x: str) -> str:
    """The possessive of a player noun: 你 → 你的, 其 → 其."""
    return x if x in (IT, "其") else x + "的"


def _strip_de(s: str) -> str:
    return s[:-1] if s.endswith("的") else s


# ---------------------------------------------------------------- phrase pieces


@dataclass
class Phrase:
    """A clause: an optional subject and a predicate (verb: its leading verb, for 或/且 ellipsis)."""

    subj: str | None
    pred: str
    verb: str = ""
    parts: tuple | None = None  # (NP, rest) of a count: 红色情报 | 不超过一张

    def text(self, elide: str | None = None) -> str:
        if self.subj is None or self.subj == elide:
            return self.pred
        return self.subj + self.pred


@dataclass
class NP:
    """A noun phrase for a collection or a thing: prefix (owner, place) + quantity + modifiers + head."""

    head: str = ""
    clf: str = "张"
    prefix: str = ""
    owner: str | None = None
    mods: list = field(default_factory=list)
    fixed: str | None = None
    single: bool = False
    kind: str = "card"
    bare: str | None = None  # the wording with no quantity and no modifier (所有存活角色)

    def render(self, quant: str | None = None, drop_owner: bool = False) -> str:
        adjs = [m for m in self.mods if m.endswith("的")] + [m for m in self.mods if not m.endswith("的")]
        if self.fixed is not None:
            if not adjs and not quant:
                return self.fixed
            head = {"card": "牌", "player": "角色"}.get(self.kind, "项")
            return f"{self.fixed}中的{quant or ''}{''.join(adjs)}{head}"
        prefix = "" if drop_owner else self.prefix
        if self.bare and not adjs and not quant and not prefix:
            return self.bare
        return f"{prefix}{quant or ''}{''.join(adjs)}{self.head}"

    def one(self, drop_owner=False) -> str:
        if self.single:
            return self.render(drop_owner=drop_owner)
        return self.render(quant="一" + self.clf, drop_owner=drop_owner)

    def desc(self) -> str:
        """Without owner or quantity: 红色情报."""
        return self.render(drop_owner=True)


@dataclass
class Seg:
    """One rendered statement. Simple segments keep subject and predicate apart so a
    block can drop a repeated subject or merge 你…他… into 你和他依次…"""

    subj: str | None = None
    pred: str = ""
    hard: bool = False  # ends a sentence (。 after it)
    pair: tuple | None = None  # the two subjects of a merged 依次 segment
    complex: bool = False  # pred is a finished text; never merged

    def text(self, elide: str | None = None) -> str:
        if self.subj is None or self.subj == elide:
            return self.pred
        return self.subj + self.pred


@dataclass
class Binding:
    node: object = None  # the value's code (queries are rendered where used)
    kind: str = "any"
    plural: bool = False
    full: str | None = None  # fixed wording (choices, loop variables)
    short: str | None = None  # wording after the first mention
    adj: str | None = None  # as a modifier: 你声明的
    used: bool = False


def _same(a, b) -> bool:
    """Structural equality of two AST nodes, ignoring positions."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, ast.Node):
        for k, v in vars(a).items():
            if k in ("line", "col"):
                continue
            if not _same(v, getattr(b, k)):
                return False
        return True
    return a == b


def _contains(tree, node) -> bool:
    if _same(tree, node):
        return True
    if isinstance(tree, (list, tuple)):
        return any(_contains(x, node) for x in tree)
    if isinstance(tree, dict):
        return any(_contains(x, node) for x in tree.values())
    if isinstance(tree, (ast.Node, ast.Program)):
        return any(_contains(v, node) for k, v in vars(tree).items() if k not in ("line", "col"))
    return False


def _conjuncts(node) -> list:
    if isinstance(node, ast.BinOp) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _is_var(node, *names) -> bool:
    return isinstance(node, ast.Var) and node.name in names


def _is_eq(node, a, b, op="==") -> bool:
    """node is `a == b` or `b == a` for variable names a and b."""
    return (
        isinstance(node, ast.BinOp)
        and node.op == op
        and ((_is_var(node.left, a) and _is_var(node.right, b)) or (_is_var(node.left, b) and _is_var(node.right, a)))
    )


def _is_call(node: object, *names: str) -> TypeGuard[ast.Call]:
    return isinstance(node, ast.Call) and node.func in names


# ---------------------------------------------------------------- the renderer


class Renderer:
    """Renders one content object's code. Keeps the `let` names and the wording of `target`."""

    def __init__(
        self,
        *,
        target_word: str = "他",
        face_down: bool = False,
        data_types: dict | None = None,
        may_subject: bool = True,
    ):
        self.may_subject = may_subject  # 你可以…: say who may, even where 你 is understood
        self.vars = dict(VAR_ZH)
        self.vars["target"] = target_word
        self.face_down = face_down
        self.data_types = dict(data_types or {})
        self.bindings: dict[str, Binding] = {}
        self.it_kinds: list[str] = []
        self.notes: list[str] = []

    # ------------------------------------------------------------ arguments

    @staticmethod
    def args(call: ast.Call) -> dict:
        """The arguments of a call by parameter name (defaults not filled)."""
        b = BUILTINS.get(call.func)
        out = {}
        names = [p.name for p in b.params] if b else []
        for i, a in enumerate(call.args):
            out[names[i] if i < len(names) else f"_{i}"] = a
        out.update(call.kwargs)
        return out

    # ------------------------------------------------------------ kinds

    def kind(self, node) -> str:
        if isinstance(node, ast.Var):
            if node.name == "it":
                return self.it_kinds[-1] if self.it_kinds else "any"
            if node.name in self.bindings:
                return self.bindings[node.name].kind
            return VAR_KIND.get(node.name, "any")
        if isinstance(node, ast.IntLit):
            return "int"
        if isinstance(node, ast.StrLit):
            return "text"
        if isinstance(node, ast.CardNameLit):
            return "cardname"
        if isinstance(node, ast.ListLit):
            return self.kind(node.items[0]) if node.items else "any"
        if isinstance(node, ast.Where):
            return self.kind(node.source)
        if isinstance(node, (ast.Not,)):
            return "bool"
        if isinstance(node, ast.Neg):
            return "int"
        if isinstance(node, ast.BinOp):
            return "int" if node.op in "+-" else "bool"
        if isinstance(node, ast.Call):
            if node.func in _CHOICES:
                src = self.args(node).get("from")
                return self.kind(src) if src is not None else "any"
            if node.func == "data":
                types = set(self.data_types.values())
                return next(iter(types)) if len(types) == 1 else "any"
            b = BUILTINS.get(node.func)
            if b is not None and isinstance(b.returns, str):
                return _BUILTIN_KIND.get(b.returns, "any")
        return "any"

    def plural(self, node) -> bool:
        if isinstance(node, (ast.Where, ast.ListLit)):
            return True
        if isinstance(node, ast.Var):
            b = self.bindings.get(node.name)
            return bool(b and b.plural)
        if isinstance(node, ast.Call):
            if node.func == "choose_many":
                return True
            if node.func in _CHOICES:
                return False
            bi = BUILTINS.get(node.func)
            return bi is not None and isinstance(bi.returns, str) and bi.returns in _PLURAL_TYPES
        return False

    # ------------------------------------------------------------ values

    def var(self, name: str) -> str:
        if name == "it":
            return IT
        b = self.bindings.get(name)
        if b is not None:
            # the first mention says what the value is; later ones use the short form (该牌)
            if b.used and b.short is not None:
                return b.short
            b.used = True
            return b.full if b.full is not None else self.val(b.node)
        if name in COLOR_ZH:
            return COLOR_ZH[name]
        if name in STATUSES:
            return STATUSES[name]
        return self.vars.get(name, name)

    def val(self, node) -> str:
        """Any expression as a piece of text (a noun, a number, or a condition)."""
        if isinstance(node, ast.Var):
            return self.var(node.name)
        if isinstance(node, ast.IntLit):
            return cn_num(node.value)
        if isinstance(node, ast.StrLit):
            return f"“{node.value}”"
        if isinstance(node, ast.CardNameLit):
            return f"【{node.name}】"
        if isinstance(node, ast.ListLit):
            parts = [self.val(i) for i in node.items]
            if all(isinstance(i, (ast.StrLit, ast.CardNameLit)) for i in node.items):
                return "".join(parts)
            if self.kind(node) == "player" and len(parts) <= 2:
                return "和".join(parts)
            return "、".join(parts)
        if isinstance(node, ast.Attr):
            return f"{poss(self.val(node.obj))}{node.name}"
        if isinstance(node, ast.Neg):
            return f"负{self.val(node.operand)}"
        if isinstance(node, ast.BinOp) and node.op in ("+", "-"):
            return f"{self.val(node.left)}{'加' if node.op == '+' else '减'}{self.val(node.right)}"
        if isinstance(node, (ast.BinOp, ast.Not)):
            return self.cond(node).text()
        if isinstance(node, ast.Call):
            b = BUILTINS.get(node.func)
            if b is not None and b.kind == "query" and self.kind(node) == "bool":
                return self.cond(node).text()
            if b is not None and b.kind == "action":
                return self.action(node).text()
            return self.np(node).render() if not _is_call(node, *_CHOICES) else self.choice_text(node)
        if isinstance(node, ast.Where):
            return self.np(node).render()
        return "？"

    def count_word(self, node, clf: str | None = None) -> tuple[str, str | None]:
        """A count argument: (text, note). A non-literal count becomes N with a note (N为…)."""
        if isinstance(node, ast.IntLit):
            return cn_num(node.value, clf), None
        return "N" + (clf or ""), f"N为{self.val(node)}"

    # ------------------------------------------------------------ noun phrases

    def np(self, node) -> NP:
        kind = self.kind(node)
        clf = "名" if kind == "player" else ("张" if kind == "card" else "个")
        if isinstance(node, ast.Var):
            b = self.bindings.get(node.name)
            if b is not None and b.node is not None and b.plural and b.full is None:
                return self.np(b.node)
            return NP(fixed=self.var(node.name), single=not self.plural(node), kind=kind, clf=clf, owner=None)
        if isinstance(node, ast.Where):
            base = copy.deepcopy(self.np(node.source))
            self.it_kinds.append(self.kind(node.source))
            try:
                base.mods = [*base.mods, self.mod(node.predicate)]
            finally:
                self.it_kinds.pop()
            base.single = False
            return base
        if isinstance(node, ast.ListLit):
            if len(node.items) == 1:
                return NP(fixed=self.val(node.items[0]), single=True, kind=kind, clf=clf)
            return NP(fixed=self.val(node), kind=kind, clf=clf)
        if isinstance(node, ast.Call):
            a = self.args(node)
            f = node.func
            if f in ("hand", "intel"):
                p = self.val(a["p"])
                if f == "hand":
                    return NP(head="手牌", prefix=poss(p), owner=p)
                return NP(head="情报", prefix=p + "面前的", owner=p)
            if f == "alive":
                return NP(head="角色", clf="名", kind="player", bare="所有存活角色")
            if f == "others":
                p = self.val(a["p"])
                if p == "你":
                    return NP(head="其他角色", clf="名", kind="player")
                return NP(head="角色", prefix=f"{p}以外的", clf="名", kind="player")
            if f == "neighbors":
                return NP(head="角色", prefix=f"与{self.val(a['p'])}相邻的", clf="名", kind="player")
            if f == "alive_from":
                return NP(head="角色", prefix=f"从{self.val(a['p'])}开始逆时针的所有", clf="名", kind="player")
            if f == "set_aside":
                return NP(head="牌", mods=["翻开的"])
            if f == "top_card":
                return NP(fixed="牌堆顶的一张牌", single=True)
            if f == "top_cards":
                n, note = self.count_word(a.get("n", ast.IntLit(0, 0, 1)), "张")
                if note:
                    self.notes.append(note)
                return NP(fixed=f"牌堆顶的{n}牌")
            if f == "data":
                word = DATA_TYPE_ZH.get(kind, "值")
                return NP(fixed=f"{self.val(a['c'])}上{self.val(a['key'])}对应的{word}", single=True, kind=kind)
            if f in _CHOICES:
                return NP(fixed=self.choice_text(node), single=f != "choose_many", kind=kind, clf=clf)
            if f == "take_top":
                return NP(head="牌", mods=["翻开的"])
            return NP(fixed=self.fallback(node), single=not self.plural(node), kind=kind, clf=clf)
        return NP(fixed=self.val(node), single=not self.plural(node), kind=kind, clf=clf)

    def fallback(self, node: ast.Call) -> str:
        """A call in the wording of its builtin's `zh` template."""
        b = BUILTINS.get(node.func)
        if b is None:
            args = "，".join(self.val(x) for x in node.args)
            return f"{node.func}（{args}）"
        a = self.args(node)
        values = {}
        for p in b.params:
            if p.name in a:
                values[p.name] = self.val(a[p.name])
            elif p.name == "by" or (p.default is None and p.type == "player"):
                values[p.name] = "你"
            elif isinstance(p.default, bool):
                values[p.name] = ""
            elif isinstance(p.default, int):
                values[p.name] = cn_num(p.default)
            else:
                values[p.name] = "" if p.default is None else str(p.default)
        try:
            return b.zh.format(**values)
        except (KeyError, IndexError):
            return b.zh

    # ------------------------------------------------------------ modifiers (where predicates)

    def mod(self, pred) -> str:
        """A `where` predicate about `it` as a modifier of the item: 黑色, 有手牌的, 与该牌含有相同颜色的."""
        if isinstance(pred, ast.BinOp) and pred.op == "has" and _is_var(pred.left, "it"):
            if isinstance(pred.right, ast.Var) and pred.right.name in COLOR_ZH:
                return COLOR_ZH[pred.right.name]
            return f"含有{self.val(pred.right)}的"
        if isinstance(pred, ast.BinOp) and pred.op in ("or", "and"):
            word = "或" if pred.op == "or" else "且"
            left, right = self.mod(pred.left), self.mod(pred.right)
            if left.endswith("的") and not right.endswith("的"):
                right += "的"
            return f"{_strip_de(left)}{word}{right}"
        if isinstance(pred, ast.Not):
            inner = pred.operand
            if (
                isinstance(inner, ast.BinOp)
                and inner.op == "has"
                and _is_var(inner.left, "it")
                and isinstance(inner.right, ast.Var)
                and inner.right.name in COLOR_ZH
            ):
                return f"不含{COLOR_ZH[inner.right.name]}的"
        if isinstance(pred, ast.Call):
            args = self.args(pred)
            if pred.func == "pure" and _is_var(args.get("c"), "it"):
                return "纯" + self.val(args["color"])
            if pred.func == "is_dual" and _is_var(args.get("c"), "it"):
                return "双色"
            if pred.func == "shares_color":
                x, y = args.get("a"), args.get("b")
                if _is_var(x, "it") or _is_var(y, "it"):
                    other = y if _is_var(x, "it") else x
                    return f"与{self.val(other)}含有相同颜色的"
        if isinstance(pred, ast.BinOp) and pred.op in ("==", "!="):
            for a, b in ((pred.left, pred.right), (pred.right, pred.left)):
                if _is_call(a, "name_of") and _is_var(self.args(a).get("c"), "it"):
                    neg = "" if pred.op == "==" else "不"
                    bind = self.bindings.get(b.name) if isinstance(b, ast.Var) else None
                    if bind is not None and bind.adj:
                        return f"{neg}是{bind.adj}" if neg else bind.adj
                    return f"{neg}名为{self.val(b)}的"
        p = self.cond(pred)
        return (p.pred if p.subj == IT else p.text()) + "的"

    # ------------------------------------------------------------ conditions

    def cond(self, node) -> Phrase:
        if isinstance(node, ast.BinOp) and node.op in ("and", "or"):
            items = _conjuncts(node) if node.op == "and" else [node.left, node.right]
            if node.op == "and" and len(items) > 1:
                kept = [c for c in items if not self._is_guard(c)]
                items = kept or items
            if len(items) == 1:
                return self.cond(items[0])
            return self.join_phrases([self.cond(c) for c in items], "且" if node.op == "and" else "或者")
        if isinstance(node, ast.Not):
            return self.negate(node.operand)
        if isinstance(node, ast.BinOp) and node.op == "has":
            return Phrase(self.val(node.left), "含有" + self.val(node.right), "含有")
        if isinstance(node, ast.BinOp) and node.op == "in":
            return Phrase(self.val(node.left), f"是{self.val(node.right)}中的一个", "是")
        if isinstance(node, ast.BinOp):
            return self.compare(node.op, node.left, node.right)
        if isinstance(node, ast.Var):
            if node.name == "true":
                return Phrase(None, "总是")
            if node.name == "false":
                return Phrase(None, "从不")
            return Phrase(None, self.var(node.name))
        if isinstance(node, ast.Call):
            a = self.args(node)
            f = node.func
            if f in ("any_of", "none_of"):
                return self.exists_phrase(a.get("xs"), f == "any_of")
            if f == "exists":
                return Phrase(self.val(a["x"]), "存在", "存在")
            if f == "is_face_up":
                return Phrase("待收情报", "正面朝上")
            if f == "makes_three":
                return Phrase(None, f"会让{self.val(a['p'])}收集三张或更多同色情报", "会让")
            if f == "pure":
                return Phrase(self.val(a["c"]), "是纯" + self.val(a["color"]), "是")
            if f == "is_dual":
                return Phrase(self.val(a["c"]), "是双色", "是")
            if f == "shares_color":
                return Phrase(self.val(a["a"]), f"与{self.val(a['b'])}含有相同颜色", "与")
            return Phrase(None, self.fallback(node))
        return Phrase(None, self.val(node))

    def _is_guard(self, node) -> bool:
        """`exists(x)` for a chosen value: it only guards against choosing from nothing."""
        return _is_call(node, "exists")

    def join_phrases(self, phrases: list, word: str) -> Phrase:
        subj = phrases[0].subj
        merged = self._merge_counts(phrases, word)
        if merged is not None:
            return merged
        if all(p.subj == subj for p in phrases) and subj is not None:
            verb = phrases[0].verb
            preds = [phrases[0].pred]
            for p in phrases[1:]:
                if verb and p.verb == verb and p.pred.startswith(verb) and word != "且":
                    preds.append(p.pred[len(verb) :])
                else:
                    preds.append(p.pred)
            return Phrase(subj, word.join(preds), verb)
        return Phrase(None, word.join(p.text() for p in phrases))

    @staticmethod
    def _merge_counts(phrases: list, word: str) -> Phrase | None:
        """红色情报不超过一张且蓝色情报不超过一张 → 红色和蓝色情报均不超过一张."""
        if word != "且" or any(p.parts is None for p in phrases):
            return None
        first_np, rest = phrases[0].parts
        adjs = []
        for p in phrases:
            x, r = p.parts
            if (
                p.subj != phrases[0].subj
                or r != rest
                or x.head != first_np.head
                or len(x.mods) != 1
                or x.mods[0].endswith("的")
                or x.fixed is not None
            ):
                return None
            adjs.append(x.mods[0])
        return Phrase(phrases[0].subj, f"{'和'.join(adjs)}{first_np.head}均{rest}")

    def negate(self, node) -> Phrase:
        if isinstance(node, ast.Not):
            return self.cond(node.operand)
        if isinstance(node, ast.BinOp) and node.op in _NEGATE:
            return self.compare(_NEGATE[node.op], node.left, node.right)
        if isinstance(node, ast.BinOp) and node.op in ("and", "or"):
            other = ast.BinOp(
                node.line,
                node.col,
                "or" if node.op == "and" else "and",
                ast.Not(node.line, node.col, node.left),
                ast.Not(node.line, node.col, node.right),
            )
            return self.cond(other)
        if isinstance(node, ast.BinOp) and node.op == "has":
            return Phrase(self.val(node.left), "不含" + self.val(node.right), "不含")
        if isinstance(node, ast.BinOp) and node.op == "in":
            return Phrase(self.val(node.left), f"不是{self.val(node.right)}中的任何一个", "不是")
        if _is_call(node, "any_of", "none_of"):
            return self.exists_phrase(self.args(node).get("xs"), node.func == "none_of")
        if _is_call(node, "is_face_up"):
            return Phrase("待收情报", "面朝下")
        if _is_call(node, "exists"):
            return Phrase(self.val(self.args(node)["x"]), "不存在", "不存在")
        p = self.cond(node)
        if p.pred.startswith("是"):
            return Phrase(p.subj, "不" + p.pred)
        if p.pred.startswith("会"):
            return Phrase(p.subj, "不" + p.pred)
        return Phrase(None, "并非" + p.text())

    def exists_phrase(self, xs, positive: bool) -> Phrase:
        """any_of / none_of: 你拥有红色情报; 其他角色均…; 不存在…"""
        x = self.np(xs)
        if x.owner is not None:
            verb = ("拥有" if x.head == "情报" else "有") if positive else "没有"
            return Phrase(x.owner, verb + x.desc(), verb)
        if not positive and isinstance(xs, ast.Where) and self.kind(xs) == "player":
            whole = self.np(xs.source)
            self.it_kinds.append("player")
            try:
                inner = self.negate(xs.predicate)
            finally:
                self.it_kinds.pop()
            if not inner.pred.startswith("并非"):
                pred = inner.pred if inner.subj == IT else inner.text()
                return Phrase(whole.render(), "均" + pred)
        if x.fixed is not None and not x.mods:
            return Phrase(x.fixed, "不为空" if positive else "为空")
        return Phrase(None, ("存在" if positive else "不存在") + x.render())

    def compare(self, op: str, left, right) -> Phrase:
        if isinstance(left, ast.IntLit) and not isinstance(right, ast.IntLit):
            left, right, op = right, left, _FLIP[op]
        if isinstance(right, ast.IntLit) and _is_call(left, "count", "hand_count"):
            a = self.args(left)
            xs = a.get("xs") if left.func == "count" else ast.Call(left.line, left.col, "hand", [a["p"]], {})
            if xs is not None and not (
                isinstance(xs, ast.Var) and xs.name not in self.bindings and not self.plural(xs)
            ):
                return self.count_phrase(op, self.np(xs), right.value)
        if isinstance(right, ast.IntLit) and _is_call(left, "alive_count"):
            return Phrase("存活角色数", _OP_ZH[op] + cn_num(right.value), _OP_ZH[op])
        if op in ("==", "!=") and self.kind(left) == "player" and self.kind(right) == "player":
            return Phrase(self.val(left), ("是" if op == "==" else "不是") + self.val(right), "是")
        if op in ("==", "!=") and _is_call(left, "name_of"):
            c = self.args(left)["c"]
            return Phrase(self.val(c), ("是" if op == "==" else "不是") + self.val(right), "是")
        rv = self.val(right)
        return Phrase(self.val(left), _OP_ZH[op] + rv, _OP_ZH[op])

    def count_phrase(self, op: str, x: NP, n: int) -> Phrase:
        """count(xs) op n: 你收集了三张或更多红色情报; 该角色红色情报不超过一张."""
        clf = x.clf
        desc = x.desc()
        if op == ">" and n >= 0:
            op, n = ">=", n + 1
        if (op == "<" and n == 1) or (op == "<=" and n == 0):
            op, n = "==", 0
        if x.owner is not None:
            verb = "收集了" if x.head == "情报" else "拥有"
            if op == ">=" and n <= 1:
                verb = "拥有" if x.head == "情报" else "有"
                return Phrase(x.owner, verb + desc, verb)
            if op == ">=":
                return Phrase(x.owner, f"{verb}{cn_num(n, clf)}或更多{desc}", verb)
            if op == "==" and n == 0:
                return Phrase(x.owner, "没有" + desc, "没有")
            words = {"<=": "不超过", "<": "少于", "==": "恰好", "!=": "不是"}
            rest = f"{words[op]}{cn_num(n, clf)}"
            return Phrase(x.owner, desc + rest, "", parts=(x, rest))
        whole = x.render()
        if op == ">=" and n <= 1:
            return Phrase(None, "存在" + whole, "存在")
        if op == ">=":
            return Phrase(None, f"存在{cn_num(n, clf)}或更多{whole}", "存在")
        if op == "==" and n == 0:
            return Phrase(None, "不存在" + whole, "不存在")
        words = {"<=": "不超过", "<": "少于", "==": "恰好", "!=": "不是"}
        return Phrase(whole, f"{words[op]}{cn_num(n, clf)}", "")

    # ------------------------------------------------------------ choices

    def _chooser(self, node) -> str:
        by = self.args(node).get("by") if isinstance(node, ast.Call) else node
        return self.val(by) if by is not None else "你"

    def _prompt_noun(self, call: ast.Call) -> tuple[str, str]:
        """(verb, noun) for a declaration, from its prompt: 声明一个卡名 → (声明, 卡名)."""
        prompt = self.args(call).get("prompt")
        text = prompt.value if isinstance(prompt, ast.StrLit) else ""
        m = re.match(r"^(宣言|声明|选择|指定)(一个|一张|一名|一项)(.+)$", text)
        if m:
            return m.group(1), m.group(3)
        kind = self.kind(call)
        noun = {"cardname": "卡名", "color": "颜色", "player": "角色", "card": "牌"}.get(kind, "项")
        return ("宣言" if call.func == "declare" else "选择"), noun

    def choice_text(self, call: ast.Call, drop_owner_of: str | None = None) -> str:
        """The object of a choice: 他面前的一张黑色情报; “东风”“西风”中的一个暗号."""
        a = self.args(call)
        src = a.get("from")
        if isinstance(src, ast.ListLit) and self.kind(src) != "player":
            _, noun = self._prompt_noun(call)
            return f"{self.val(src)}中的一个{noun}"
        x = self.np(src)
        drop = drop_owner_of is not None and x.owner == drop_owner_of
        if call.func == "choose_many":
            lo = a.get("min")
            hi = a.get("max")
            lo_v = lo.value if isinstance(lo, ast.IntLit) else 0
            hi_v = hi.value if isinstance(hi, ast.IntLit) else 99
            if hi_v >= 99:
                q = f"至少{cn_num(lo_v, x.clf)}" if lo_v > 0 else "任意" + x.clf
            elif lo_v == 0:
                q = f"至多{cn_num(hi_v, x.clf)}"
            elif lo_v == hi_v:
                q = cn_num(lo_v, x.clf)
            else:
                q = f"{cn_num(lo_v)}至{cn_num(hi_v, x.clf)}"
            return x.render(quant=q, drop_owner=drop)
        text = x.one(drop_owner=drop)
        if _is_var(a.get("optional"), "true"):
            text += "（也可以不选）"
        return text

    # ------------------------------------------------------------ actions

    def action(self, call: ast.Call, ctx: str | None = None) -> Seg:
        """An action call as a clause. A choice among its arguments decides who acts."""
        a = self.args(call)
        choice_key = next((k for k, v in a.items() if _is_call(v, "choose", "choose_many")), None)
        natural = self._natural_actor(call, a)
        if choice_key is not None:
            ch = a[choice_key]
            chooser = self._chooser(ch)
            actor = natural if natural is not None else (chooser if chooser != "你" else None)
            if actor is None or actor == chooser:
                obj = self.choice_text(ch, drop_owner_of=actor)
                return Seg(actor, self._action_pred(call, a, {choice_key: obj}))
            # someone chooses, someone else acts: 选择……，由他将该牌……
            obj = self.choice_text(ch)
            who = "" if chooser in ("你", ctx) else chooser
            short = "该牌" if self.kind(ch) == "card" else "该角色"
            pred = self._action_pred(call, a, {choice_key: short})
            return Seg(None, f"{who}选择{obj}，由{actor}{pred}", complex=True)
        return Seg(natural, self._action_pred(call, a, {}))

    def _natural_actor(self, call, a) -> str | None:
        f = call.func
        if f == "draw":
            return self.val(a["p"])
        if f == "send" and a.get("by") is not None:
            return self.val(a["by"])
        if f == "discard" and _is_call(a.get("xs"), "hand"):
            return self.val(self.args(a["xs"])["p"])
        return None

    def _action_pred(self, call, a, given: dict) -> str:
        """The predicate of an action; `given` holds argument texts already decided."""
        f = call.func

        def v(name, default=None):
            if name in given:
                return given[name]
            node = a.get(name)
            if node is None:
                return default
            if self.kind(node) in ("card", "player") and not isinstance(node, ast.Var):
                return self.np(node).render()
            return self.val(node)

        if f == "draw":
            n = a.get("n")
            count, note = self.count_word(n if n is not None else ast.IntLit(0, 0, 1), "张")
            return f"摸{count}牌" + (f"（{note}）" if note else "")
        if f == "discard":
            if "xs" not in given and _is_call(a.get("xs"), "hand"):
                return "弃置所有手牌"
            return "弃置" + v("xs")
        if f == "give":
            return f"将{v('xs')}交给{v('to')}"
        if f == "put_in_hand":
            return f"将{v('xs')}加入{poss(v('p'))}手牌"
        if f == "collect":
            return f"将{v('xs')}置入{poss(v('p'))}情报区"
        if f == "remove":
            return f"将{v('xs')}移出游戏"
        if f == "reveal":
            to = a.get("to")
            xs = v("xs")
            if to is None:
                return "展示" + xs
            if isinstance(to, ast.ListLit) and len(to.items) == 1 and _is_var(to.items[0], "self"):
                return "查看" + xs
            who = self.val(to.items[0]) if isinstance(to, ast.ListLit) and len(to.items) == 1 else self.val(to)
            if self.face_down and _is_var(a.get("xs"), "this_card"):
                return f"将这张牌面朝下交给{who}"
            return f"将{xs}展示给{who}"
        if f == "move_pending":
            return f"将待收情报移至{v('p')}面前"
        if f == "swap_pending":
            return f"将{v('c')}面朝下代替待收情报，并将原情报弃置"
        if f == "flip_pending":
            return "翻开待收情报"
        if f == "send":
            c = v("c")
            if _is_var(a.get("face_up"), "true"):
                return f"将{c}面朝上传出"
            return f"将{c}作为情报传出"
        if f == "take_top":
            count, note = self.count_word(a["n"], "张")
            if note:
                return f"从牌堆顶翻开{count}牌（{note}）"
            return f"从牌堆顶翻开{count}牌"
        if f == "flip_role":
            up = a.get("face_up")
            if isinstance(up, ast.Var) and up.name in ("true", "false"):
                return f"将{v('p')}的角色牌" + ("翻开" if up.name == "true" else "翻至面朝下")
        if f == "use_card":
            c, as_ = a.get("c"), a.get("as")
            who = v("by", "你")
            if isinstance(c, ast.Var) and c.name == "none" and as_ is not None:
                return f"{who}视为使用{self.val(as_)}"
            if as_ is not None:
                return f"{who}将{v('c')}当作{self.val(as_)}使用"
            return f"由{who}使用{v('c')}"
        if f == "add_status":
            st = a.get("status")
            name = st.name if isinstance(st, ast.Var) else (st.value if isinstance(st, ast.StrLit) else "")
            text = STATUSES.get(name, self.val(st) if st is not None else "")
            turns = a.get("turns")
            extra = ""
            if isinstance(turns, ast.IntLit) and turns.value > 0:
                extra = f"（持续至其后{cn_num(turns.value, '个')}回合结束）"
            elif turns is not None and not isinstance(turns, ast.IntLit):
                extra = f"（再持续{self.val(turns)}个回合）"
            return f"令{v('xs')}{text}{extra}"
        if f in ("choose", "choose_many", "declare"):
            return self._choice_pred(call)
        return self.fallback(call)

    def _choice_pred(self, call: ast.Call) -> str:
        if call.func == "declare":
            verb, _ = self._prompt_noun(call)
            return verb + self.choice_text(call)
        return "选择" + self.choice_text(call, drop_owner_of=self._chooser(call))

    # ------------------------------------------------------------ statements

    def block(self, stmts: list, ctx: str | None = None) -> list:
        segs = []
        for s in stmts:
            segs.extend(self.stmt(s, ctx))
        return self._merge(segs)

    @staticmethod
    def _merge(segs: list) -> list:
        """你弃置所有手牌，他弃置所有手牌 → 你和他依次弃置所有手牌 (and 再依次 for the next pair)."""
        out: list[Seg] = []
        i = 0
        while i < len(segs):
            a = segs[i]
            b = segs[i + 1] if i + 1 < len(segs) else None
            if (
                b is not None
                and not a.complex
                and not b.complex
                and not a.hard
                and a.subj is not None
                and b.subj is not None
                and a.subj != b.subj
                and a.pred == b.pred
            ):
                pair = (a.subj, b.subj)
                prev = out[-1] if out else None
                if prev is not None and prev.pair == pair:
                    out.append(Seg(None, "再依次" + a.pred, hard=b.hard, pair=pair, complex=True))
                else:
                    out.append(Seg(f"{a.subj}和{b.subj}", "依次" + a.pred, hard=b.hard, pair=pair))
                i += 2
                continue
            out.append(a)
            i += 1
        return out

    @staticmethod
    def join(segs: list, ctx: str | None = None, pair_word: str | None = None) -> str:
        texts = [s.text(ctx) for s in segs if s.text(ctx)]
        live = [s for s in segs if s.text(ctx)]
        if pair_word and len(live) == 2 and not any(s.hard or s.complex for s in live):
            return pair_word.join(texts)
        out = ""
        for i, t in enumerate(texts):  # texts[i] is live[i]'s
            if i:
                out += "。" if live[i - 1].hard else "，"
            out += t
        return out

    def stmt(self, node, ctx: str | None) -> list:
        if isinstance(node, ast.Let):
            return self.let(node, ctx)
        if isinstance(node, ast.CallStmt):
            return [self.call_stmt(node, ctx)]
        if isinstance(node, ast.Then):
            inner = self.stmt(node.stmt, ctx)
            if not inner:
                return []
            first = inner[0]
            text = first.subj + first.pred if first.subj is not None and not first.complex else first.text(ctx)
            inner[0] = Seg(None, "然后" + text, hard=first.hard, complex=True)
            return inner
        if isinstance(node, ast.May):
            chooser = self.val(node.by) if node.by is not None else "你"
            body = self.block(node.body, chooser)
            text = self.join(body, chooser, pair_word="并") or (node.prompt or "发动")
            hard = any(s.hard for s in body[-1:])
            if self.may_subject and chooser == ctx == "你":
                return [Seg(None, chooser + "可以" + text, hard=hard, complex=True)]
            return [Seg(chooser, "可以" + text, hard=hard)]
        if isinstance(node, ast.ChooseOne):
            chooser = self.val(node.by) if node.by is not None else "你"
            marks = "①②③④⑤⑥⑦⑧⑨⑩"
            opts = []
            for i, o in enumerate(node.options):
                opt = self.join(self.block(o.body, chooser), chooser) or o.label
                if o.condition is not None:
                    opt += f"（{self.cond(o.condition).text()}时才可选）"
                opts.append((marks[i] if i < len(marks) else f"({i + 1})") + opt)
            return [Seg(chooser, "选择一项：" + "；".join(opts), hard=True)]
        if isinstance(node, ast.If):
            parts = []
            for i, (c, body) in enumerate(node.branches):
                lead = "若" if i == 0 else "否则若"
                parts.append(f"{lead}{self.cond(c).text()}，{self.join(self.block(body, ctx), ctx)}")
            if node.orelse:
                parts.append("否则，" + self.join(self.block(node.orelse, ctx), ctx))
            return [Seg(None, "；".join(parts), hard=len(parts) > 1, complex=True)]
        if isinstance(node, ast.For):
            return [self.for_stmt(node, ctx)]
        if isinstance(node, ast.Repeat):
            n = cn_num(node.count.value, "次") if isinstance(node.count, ast.IntLit) else self.val(node.count) + "次"
            text = self.join(self.block(node.body, ctx), ctx)
            return [Seg(None, f"重复{n}：{text}", hard=True, complex=True)]
        return [Seg(None, "？", complex=True)]

    def let(self, node: ast.Let, ctx) -> list:
        value = node.value
        kind = self.kind(value)
        if _is_call(value, *_CHOICES):
            chooser = self._chooser(value)
            if value.func == "declare":
                verb, noun = self._prompt_noun(value)
                full = f"{chooser}{verb}的{noun}"
                self.bindings[node.name] = Binding(
                    kind=kind, full=full, short=full, adj=f"{chooser}{verb}的", used=True
                )
            else:
                short: str | None = {"card": "该牌", "player": "该角色"}.get(kind, "所选的" + ("项"))
                if value.func == "choose_many":
                    short = {"card": "这些牌", "player": "这些角色"}.get(kind, "所选的各项")
                self.bindings[node.name] = Binding(
                    kind=kind, plural=value.func == "choose_many", full=short, short=short, used=True
                )
            pred = self._choice_pred(value)
            return [Seg(chooser, pred)]
        if isinstance(value, ast.Call) and BUILTINS.get(value.func) and BUILTINS[value.func].kind == "action":
            seg = self.action(value, ctx)
            self.bindings[node.name] = Binding(
                kind=kind, plural=True, full="翻开的牌" if value.func == "take_top" else "这些牌", short=None, used=True
            )
            return [seg]
        plural = self.plural(value)
        short = None
        if not plural:
            short = {"card": "该牌", "player": "该角色", "color": "该颜色", "int": "该数值"}.get(kind)
            if value is not None and _is_call(value, "data"):
                word = DATA_TYPE_ZH.get(kind)
                short = "该" + word if word else short
        self.bindings[node.name] = Binding(node=value, kind=kind, plural=plural, short=short)
        return []

    def call_stmt(self, node: ast.CallStmt, ctx) -> Seg:
        seg = self.action(node.call, ctx)
        if node.instead_cond is None:
            return seg
        main = seg.text(ctx)
        c = self.cond(node.instead_cond).text()
        lead = "若如此做" if c.startswith("会") else "若如此做会使"
        assert node.instead_body is not None  # the parser gives an instead clause both parts
        body = self.join(self.block(node.instead_body, ctx), ctx)
        return Seg(None, f"{main}。{lead}{c}，则改为{body}", hard=True, complex=True)

    def for_stmt(self, node: ast.For, ctx) -> Seg:
        src = node.source
        kind = self.kind(src)
        if _is_call(src, "alive_from"):
            lead = f"从{self.val(self.args(src)['p'])}开始，逆时针每名角色依次"
        elif _is_call(src, "alive"):
            lead = "从当前回合角色开始，逆时针每名角色依次"
        elif _is_call(src, "others"):
            p = self.val(self.args(src)["p"])
            lead = "其他角色依次" if p == "你" else f"除{p}以外的每名角色依次"
        elif kind == "player":
            lead = f"{self.np(src).render()}中的每名角色依次"
        else:
            lead = f"对{self.np(src).render()}中的每一{'张' if kind == 'card' else '项'}依次执行："
        word = IT if kind == "player" else ("该牌" if kind == "card" else "该项")
        self.bindings[node.name] = Binding(kind=kind, full=word, short=word, used=True)
        body = self.join(self.block(node.body, IT if kind == "player" else ctx), IT if kind == "player" else ctx)
        return Seg(None, lead + body, hard=True, complex=True)

    # ------------------------------------------------------------ programs

    def program(self, prog: ast.Program, ctx: str | None = None) -> str:
        return self.join(self.block(prog.body, ctx), ctx)


# ---------------------------------------------------------------- public helpers


def _end(text: str) -> str:
    text = text.strip().rstrip("，；")
    if not text or text.endswith("。"):
        return text
    return text + "。"


def describe_expr(node, renderer: Renderer | None = None) -> str:
    """One expression (a parsed node, or its text) as Chinese text."""
    if isinstance(node, str):
        node = parse(node, start="expression")
    r = renderer or Renderer(target_word=TARGET_LONG)
    if r.kind(node) == "bool":
        return r.cond(node).text()
    if isinstance(node, (ast.Call, ast.Where)) and r.kind(node) in ("card", "player") and r.plural(node):
        return r.np(node).render()
    return r.val(node)


def describe_program(program, renderer: Renderer | None = None) -> str:
    """A program (parsed, or its text) as Chinese text ending in 。"""
    if isinstance(program, str):
        program = parse(program)
    r = renderer or Renderer(target_word=TARGET_LONG)
    return _end(r.program(program))


def _unparsable(e: LanguageError) -> str:
    return f"（代码无法解析：第{e.line}行第{e.col}列：{e.message}）"


def _parse_expr(text):
    return parse(str(text), start="expression")


def _parse_prog(text):
    return parse(str(text))


def _target_lead(r: Renderer, target_node, timing: str) -> tuple[str, str]:
    """(the opening that introduces the target, the 对…使用 form for a further use)."""
    if isinstance(target_node, ast.ListLit) and len(target_node.items) == 1:
        who = r.val(target_node.items[0])
        if timing == "dying" and _is_var(target_node.items[0], "dying"):
            return f"对{who}使用", "对其使用"
        return f"对{who}使用", f"对{who}使用"
    x = r.np(target_node)
    one = x.one()
    return f"选择{one}", f"对{one}使用"


def describe_card(data: dict) -> str:
    """The rules text of a card, generated from its uses, target rules, conditions and effects."""
    data_types: dict[str, str] = dict(data.get("data") or {})  # per-copy data: key -> type name
    shared = data.get("effect")
    uses = [u for u in (data.get("uses") or []) if isinstance(u, dict)]
    sentences = []
    shared_done = None
    for use in uses:
        timing = use.get("timing", "")
        r = Renderer(face_down=bool(data.get("face_down")), data_types=data_types)
        target_node = None
        if use.get("target") is not None:
            try:
                target_node = _parse_expr(use["target"])
            except LanguageError as e:
                sentences.append(_end(f"{TIMING_ZH.get(timing, timing)}，{_unparsable(e)}"))
                continue
        own_effect = use.get("effect")
        if own_effect is None and shared_done is not None:
            # a further use of the shared effect: 你也可以在……对……使用。
            at = TIMING_AT_ZH.get(timing, timing)
            if target_node is not None:
                _, further = _target_lead(r, target_node, timing)
                sentences.append(f"你也可以在{at}{further}。")
            else:
                sentences.append(f"你也可以在{at}使用。")
            continue
        code = own_effect if own_effect is not None else shared
        parts: list[Any] = [TIMING_ZH.get(timing, timing)]  # str, or None for a use without a known timing
        try:
            effect = _parse_prog(code or "")
        except LanguageError as e:
            sentences.append(f"{parts[0]}，{_unparsable(e)}")
            continue
        if use.get("condition") is not None:
            try:
                cnode = _parse_expr(use["condition"])
                redundant = _is_call(cnode, "any_of") and cnode.args and _contains(effect, cnode.args[0])
                if not redundant:
                    parts.append(f"若{r.cond(cnode).text()}")
            except LanguageError as e:
                parts.append(f"（条件无法解析：{e.message}）")
        if target_node is not None:
            lead, _ = _target_lead(r, target_node, timing)
            parts.append(lead)
        else:
            r.vars["target"] = TARGET_LONG
        body = r.program(effect, "你")
        if timing == "send_start":
            body = "代替正常的传出情报，改为" + body
        parts.append(body)
        for note in r.notes:
            if note not in body:
                parts[-1] += f"（{note}）"
        sentences.append(_end("，".join(p for p in parts if p)))
        if own_effect is None:
            shared_done = use
    text = "".join(sentences)
    if data.get("face_down") and "面朝下" not in text:
        text += "这张牌面朝下使用。"
    if data.get("after_use") == "remove":
        text += "执行之后将这张牌移出游戏。"
    if data_types:
        words = sorted({DATA_TYPE_ZH.get(t, t) for t in data_types.values()})
        keys = "、".join(COLOR_ZH.get(k, k) for k in data_types)
        text += f"（每张牌上印有{keys}各自对应的{'/'.join(words)}。）"
    return text


def _victory_text(v: dict) -> str:
    """One victory condition in the wording of its check kind."""
    check = v.get("check", "")
    raw = v.get("condition", "true")
    try:
        node = _parse_expr(raw if isinstance(raw, str) else str(raw).lower())
    except LanguageError as e:
        return _unparsable(e)
    r = Renderer(target_word=TARGET_LONG)
    conj = _conjuncts(node)
    your_turn = any(_is_eq(c, "current", "self") for c in conj)
    you_subject = any(_is_eq(c, "subject", "self") for c in conj)
    other_subject = any(_is_eq(c, "subject", "self", "!=") for c in conj)
    rest = [
        c
        for c in conj
        if not (
            _is_eq(c, "current", "self")
            or _is_eq(c, "subject", "self")
            or _is_eq(c, "subject", "self", "!=")
            or _is_var(c, "true")
        )
    ]
    if you_subject:
        r.vars["subject"] = "你"
    phrases = [r.cond(c) for c in rest]
    lead = "你的回合，" if your_turn else ""
    subj_word = "你" if you_subject else ("一名其他角色" if other_subject else "一名角色")

    def joined(elide=None):
        if not phrases:
            return ""
        p = r.join_phrases(phrases, "且") if len(phrases) > 1 else phrases[0]
        return p.text(elide)

    if check == "collect":
        text = joined() or "收集三张红色或蓝色情报"
        out = lead + text
    elif check == "collect_unclaimed":
        event = f"{subj_word}收集了三张红色或蓝色情报但没有宣告胜利"
        out = lead + event + (f"，且{joined()}" if phrases else "")
    elif check == "death":
        if you_subject:
            out = f"{lead}你死亡时" + (f"，{joined('你')}" if phrases else "")
        elif phrases and all(p.subj == "该角色" for p in phrases):
            both = r.join_phrases(phrases, "且") if len(phrases) > 1 else phrases[0]
            rel = both.pred if both.subj == "该角色" else "且".join(p.pred for p in phrases)
            noun = "其他角色" if other_subject else "角色"
            out = f"{lead}一名{rel}的{noun}死亡"
        else:
            out = f"{lead}{subj_word}死亡" + (f"时，{joined()}" if phrases else "")
    elif check == "turn_end":
        when = "你的回合结束时" if your_turn else "一名角色的回合结束时"
        out = when + (f"，{joined()}" if phrases else "")
    elif check == "usurp":
        out = lead + (f"若{joined()}，" if phrases else "") + CHECK_ZH["usurp"]
    else:
        out = lead + (joined() or "总是")
    out = _end(out)
    if v.get("dead_may_win"):
        out += "（你已死亡时也可以因此胜利。）"
    return out


def describe_task(data: dict) -> str:
    """A secret task's victory condition(s), generated from its `victory:` code."""
    texts = [_victory_text(v) for v in data.get("victory") or [] if isinstance(v, dict)]
    return "或者：".join(texts) if texts else "（没有胜利条件）"


def describe_identity(id: str, data: dict) -> str:
    """An identity of rules.yaml: its color, camp and victory conditions."""
    color = COLOR_ZH.get(str(data.get("color")), str(data.get("color")))
    camp = data.get("camp")
    parts = [f"身份颜色为{color}"]
    if camp is None:
        parts.append("没有阵营，各自为战")
    else:
        parts.append(f"属于{COLOR_ZH.get(str(camp), str(camp))}阵营，与同阵营的角色共同胜利")
    text = "，".join(parts) + "。"
    wins = [_victory_text(v) for v in data.get("victory") or [] if isinstance(v, dict)]
    if wins:
        text += "胜利条件：" + "或者：".join(wins)
    if data.get("takes_task"):
        text += "抽取一张秘密任务，以其胜利条件为自己的胜利条件。"
    return text


def _skill_text(sk: dict) -> str:
    kind = sk.get("kind")
    r = Renderer(target_word=TARGET_LONG, may_subject=False)
    lead = ""
    cond_text = ""
    subj = "你"
    if kind == "triggered":
        trigger = sk.get("trigger", "")
        triggers = [str(t) for t in trigger] if isinstance(trigger, list) and trigger else [str(trigger)]
        trigger = triggers[0]
        conj = []
        if sk.get("condition"):
            try:
                conj = _conjuncts(_parse_expr(sk["condition"]))
            except LanguageError as e:
                cond_text = f"（条件无法解析：{e.message}）"
        you = any(_is_eq(c, "subject", "self") for c in conj)
        other = any(_is_eq(c, "subject", "self", "!=") for c in conj)
        your_turn = any(_is_eq(c, "current", "self") for c in conj)
        colors = [
            c.right.name
            for c in conj
            if isinstance(c, ast.BinOp)
            and c.op == "has"
            and _is_var(c.left, "this_card")
            and isinstance(c.right, ast.Var)
            and c.right.name in COLOR_ZH
        ]
        rest = [
            c
            for c in conj
            if not (_is_eq(c, "subject", "self") or _is_eq(c, "subject", "self", "!=") or _is_eq(c, "current", "self"))
            and not (
                isinstance(c, ast.BinOp)
                and c.op == "has"
                and _is_var(c.left, "this_card")
                and isinstance(c.right, ast.Var)
                and c.right.name in COLOR_ZH
            )
        ]
        if your_turn and trigger in ("turn_start", "turn_end") and not other:
            you, your_turn = True, False  # the subject of a turn event is the current player
        s = "你" if you else ("其他角色" if other else "一名角色")
        if you:
            r.vars["subject"] = "你"
        noun = TRIGGER_CARD_NOUN.get(trigger, "情报")
        cnoun = "或".join(COLOR_ZH[c] for c in colors) + noun if colors else noun
        r.vars["this_card"] = "该" + noun
        lead = ("你的回合，" if your_turn else "") + "，或".join(
            TRIGGER_ZH.get(t, t).format(s=s, c=cnoun if len(triggers) == 1 else TRIGGER_CARD_NOUN.get(t, "情报"))
            for t in triggers
        )
        if rest:
            cond_text = (
                "若" + r.join_phrases([r.cond(c) for c in rest], "且").text()
                if len(rest) > 1
                else "若" + r.cond(rest[0]).text()
            )
    else:
        timing = sk.get("timing", "")
        timings = [str(t) for t in timing] if isinstance(timing, list) else [str(timing)]
        lead = "或".join(TIMING_ZH.get(t, t) for t in timings if t) if kind == "active" else ""
        if sk.get("condition"):
            try:
                cond_text = "若" + r.cond(_parse_expr(sk["condition"])).text()
            except LanguageError as e:
                cond_text = f"（条件无法解析：{e.message}）"
    limit = sk.get("limit") or {}
    if limit.get("per") in LIMIT_ZH:
        lead += ("，" if lead else "") + LIMIT_ZH[limit["per"]].format(n=cn_num(limit.get("times", 1)))
    starts_with_loop = False
    try:
        prog = _parse_prog(sk.get("effect") or "")
        starts_with_loop = bool(prog.body) and isinstance(prog.body[0], (ast.For, ast.Repeat))
        body = r.program(prog, subj)
    except LanguageError as e:
        body = _unparsable(e)
    if sk.get("flips_up"):
        body = "翻开此角色牌，然后" + body if body else "翻开此角色牌"
    optional = kind == "active" or sk.get("optional", True)
    if kind == "passive":
        optional = False
    if optional and body and not body.startswith("可以"):
        body = ("可以发动：" if starts_with_loop and not sk.get("flips_up") else "可以") + body
    # the clause after the opening is about 你: keep 你 only after a condition or a bare opening
    who = "你" if (cond_text or not lead or not lead.startswith("你")) else ""
    if body.startswith("你") or body.startswith("可以你"):
        who = ""  # the body names 你 itself (你和他依次……)
    pieces = [p for p in (lead, cond_text, who + body) if p]
    return _end("，".join(pieces))


def describe_role(data: dict) -> str:
    """A role's skills, one line each: 【skill】text."""
    lines = []
    for sk in data.get("skills") or []:
        if not isinstance(sk, dict):
            continue
        kind_words: dict[str | None, str] = {"active": "", "triggered": "", "passive": "（锁定技）"}
        kind_word = kind_words.get(sk.get("kind"), "")
        lines.append(f"【{sk.get('name', sk.get('id', '?'))}】{kind_word}{_skill_text(sk)}")
    return "\n".join(lines) if lines else "（没有技能）"
