"""The rules text of values, conditions and choices (describe.py's renderer is made of this class and its
statements): a call worded as its primitive's phrasing says (``_Call``), values and noun phrases (他面前的一张黑色情报),
conditions (若……则……, 三张或更多……), comparisons and counts, the object of a choice and an action's clause.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from .. import catalogue
from ..model.colors import BLACK
from ..model.content import BASE_COUNTS
from . import ast, types as T
from .builtins import BUILTINS, EVERYONE, PLACEHOLDER, REQUIRED, STATUSES, Phrasing
from .describe_words import (
    COLOR_ZH,
    DATA_TYPE_ZH,
    FLIP,
    LITERAL_KIND,
    NEGATE,
    OP_ZH,
    TRIGGER_ZH,
    VAR_KIND,
    VAR_ZH,
    YOU,
    Binding,
    choice_of,
    expression,
    is_var,
    phrasing_of,
)
from .phrases import IT, NP, Phrase, cn_num, poss


class _Call:
    """A call being worded: its phrasing (variant chosen) and its arguments, each rendered once."""

    def __init__(self, r: ValueRenderer, call: ast.Call):
        self.r, self.call, self.b = r, call, BUILTINS.get(call.func)
        self.args = r.args(call)
        self.texts: dict[str, str] = {}
        self.ph = self.b.phrasing.chosen(self.holds) if self.b else Phrasing()
        unknown = f"{call.func}（{'，'.join(r.val(x) for x in call.args)}）" if self.b is None else ""
        self.template = self.ph.text or (self.b.zh if self.b else unknown)

    def text(self, name: str) -> str:
        """An argument as text; a missing one reads as its default (a player: 你; a flag: nothing)."""
        if name not in self.texts:
            node, p = self.args.get(name), self.b.param(name) if self.b else None
            if node is not None:
                status = STATUSES.get(getattr(node, "value", "")) if p and p.type == T.STATUS else None
                if p and p.type == T.TIMING:  # an idle point: its words (出牌阶段), not its key
                    timing = catalogue.TIMINGS.get(getattr(node, "value", ""))
                    status = timing.zh_at if timing is not None else None
                self.texts[name] = status or self.r.val(node)
            elif p is not None and p.default is EVERYONE:
                self.texts[name] = "所有角色"
            elif p is None or p.default in (None, REQUIRED) or isinstance(p.default, bool):
                self.texts[name] = YOU if p is not None and p.type == T.PLAYER and p.default is None else ""
            else:
                self.texts[name] = cn_num(p.default)
        return self.texts[name]

    def number(self, name: str) -> tuple[int, int]:
        """(a number argument written in the code, else its default; the default)."""
        p, node = self.b.param(name) if self.b else None, self.args.get(name)
        default = p.default if p is not None and isinstance(p.default, int) else 0
        return (node.value if isinstance(node, ast.IntLit) else default), default

    def holds(self, name: str, shape: str) -> bool:
        """Does the argument `name` have this shape (builtins.SHAPES)?"""
        node = self.args.get(name)
        if node is None or shape in ("absent", "given"):
            return (node is None) == (shape == "absent")
        if shape == "int<0":
            return isinstance(node, ast.Neg) and isinstance(node.operand, ast.IntLit) and node.operand.value > 0
        if shape in ("int>0", "expr"):
            return (
                isinstance(node, ast.IntLit) and node.value > 0
                if shape == "int>0"
                else not isinstance(node, ast.IntLit)
            )
        if shape == "you":
            return self.text(name) == YOU
        if shape == "face_down_card":
            return self.r.face_down and is_var(node, "this_card")
        if shape == "kept":
            return isinstance(node, ast.StrLit) and node.value in self.r.kept_marks
        if shape.endswith("()"):
            return isinstance(node, ast.Call) and node.func == shape[:-2]
        return is_var(node, shape)  # true, false, none

    def fill(self, template: str, given: dict[str, str] | None = None, notes: list[str] | None = None) -> str:
        """A template filled: `given` holds texts the caller decided; count notes (N为…) go to `notes`."""
        given, notes = given or {}, self.r.notes if notes is None else notes

        def one(m: re.Match[str]) -> str:
            name, spec = m.group(1), m.group(2)
            if name == "@type":
                return DATA_TYPE_ZH.get(self.r.kind(self.call), "值")
            if name == "@count":
                return self.r.count_of_one_colour()
            if "." in name and name not in given:  # {xs.p}: an argument of the call given as xs
                outer, inner = name.split(".", 1)
                call = self.args.get(outer)
                sub = self.r.args(call).get(inner) if isinstance(call, ast.Call) else None
                return self.r.val(sub) if sub is not None else ""
            if spec == "minus" and name not in given:  # -2 said as 二 (after 减少)
                node = self.args.get(name)
                inner = node.operand if isinstance(node, ast.Neg) else node
                return self.r.val(inner) if inner is not None else ""
            if spec and spec != "poss" and name not in given:  # a count: 两张, or N张 and the note N为…
                word, note = self.r.count_word(self.args.get(name) or ast.IntLit(0, 0, self.number(name)[1]), spec)
                notes.extend([note] if note else [])
                return word
            text = given[name] if name in given else self.text(name)
            return poss(text) if spec == "poss" else text

        return PLACEHOLDER.sub(one, template)

    def clause(self, template: str, given: dict[str, str] | None = None) -> tuple[str | None, str]:
        """(subject, predicate) of a template: `|` ends the subject; a subject not given is left out."""
        subj, _, pred = template.rpartition("|")
        m = PLACEHOLDER.fullmatch(subj)
        if not subj or (m and m.group(1).split(".")[0] not in self.args and m.group(1) not in (given or {})):
            return None, self.fill(pred, given)
        return self.fill(subj, given), self.fill(pred, given)

    def predicate(self, template: str, given: dict[str, str] | None = None) -> str:
        """An action's predicate: its template, the fragments of its optional arguments, its count notes."""
        notes: list[str] = []
        text = self.fill(template, given, notes) + self.extras(notes)
        return text + "".join(f"（{n}）" for n in notes)

    def extras(self, notes: list[str] | None = None) -> str:
        return "".join(self.fill(frag, None, notes) for p, shape, frag in self.ph.extras if self.holds(p, shape))


@dataclass(kw_only=True)
class ValueRenderer:
    """Renders the values, conditions and choices of one content object's code (Renderer, describe.py, adds the
    statements). Keeps the `let` names and the wording of `target`."""

    target_word: str = "他"
    face_down: bool = False  # the card is used face down (builtins' shape face_down_card)
    data_types: dict[str, str] = field(default_factory=dict)  # the card's per-copy data: key -> type
    may_subject: bool = True  # 你可以…: say who may, even where 你 is understood
    bindings: dict[str, Binding] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # let name -> 角色甲 / 牌乙 (several picks of a kind)
    it_kinds: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # N为… of the counts in noun phrases, said after the text
    kept_marks: frozenset[str] = frozenset()  # marks the described content keeps for the game (shape `kept`)
    counts: tuple[int, int] = BASE_COUNTS  # the rules' (rule_counts): `{@count}` says them

    def __post_init__(self) -> None:
        self.vars = VAR_ZH | {"target": self.target_word}

    def count_of_one_colour(self) -> str:
        """`{@count}`: the intel of one colour the rules count (a collect of red or blue, black's dying), 三张; where
        a fork's collect_count and death_count differ, both: 四张（黑色：五张）."""
        collect, death = self.counts
        text = cn_num(collect, "张")
        return text if death == collect else f"{text}（{BLACK.label()}：{cn_num(death, '张')}）"

    @staticmethod
    def args(call: ast.Call) -> dict[str, ast.Node]:
        """The arguments of a call by parameter name (defaults not filled)."""
        b = BUILTINS.get(call.func)
        names = [p.name for p in b.params] if b else []
        return {names[i] if i < len(names) else f"_{i}": a for i, a in enumerate(call.args)} | call.kwargs

    def expand(self, call: ast.Call, code: str) -> ast.Node:
        """`code` of a phrasing (same_as, counts) with the call's arguments for its parameter names."""
        return ast.substitute(expression(code), self.args(call))

    # ------------------------------------------------------------ types

    def kind(self, node: object) -> str:
        """The type of one item of a value: player, card, int, bool … (any when unknown)."""
        if isinstance(node, ast.Var):
            b = self.bindings.get(node.name)
            if node.name == "it":
                return self.it_kinds[-1] if self.it_kinds else "any"
            return b.kind if b is not None else VAR_KIND.get(node.name, "any")
        if isinstance(node, (ast.ListLit, ast.Where)):
            items = node.items if isinstance(node, ast.ListLit) else [node.source]
            return self.kind(items[0]) if items else "any"
        if isinstance(node, ast.ListComp):
            self._bind_each(node)
            return self.kind(node.item)
        if isinstance(node, (ast.BinOp, ast.Not)):
            return "int" if isinstance(node, ast.BinOp) and node.op in ("+", "-") else "bool"
        t = self.type_of(node) if isinstance(node, ast.Call) else LITERAL_KIND.get(type(node), "any")
        return T.ELEMENT.get(t, t)

    def plural(self, node: object) -> bool:
        if isinstance(node, ast.Call):
            return self.type_of(node) in (*T.ELEMENT, T.LIST)
        b = self.bindings.get(node.name) if isinstance(node, ast.Var) else None
        return isinstance(node, (ast.Where, ast.ListLit, ast.ListComp)) or (b is not None and b.plural)

    def _bind_each(self, node: ast.ListComp) -> str:
        """Name the item of a `[x for name in xs]` (其 for a player, 该牌 for a card): its words."""
        kind = self.kind(node.source)
        word = IT if kind == "player" else ("该牌" if kind == "card" else "该项")
        self.bindings[node.name] = Binding(kind=kind, full=word, short=word, used=True)
        return word

    def type_of(self, call: ast.Call) -> str:
        """The language type of a call's value, from its primitive's declaration."""
        b = BUILTINS.get(call.func)
        if b is None or b.phrasing.card_data:
            types = set(self.data_types.values()) if b is not None else set()
            return types.pop() if len(types) == 1 else T.ANY
        if isinstance(b.returns, str):
            return b.returns
        a = self.args(call)
        return b.returns(
            {k: T.LIST_OF.get(self.kind(v), T.LIST) if self.plural(v) else self.kind(v) for k, v in a.items()}
        )

    # ------------------------------------------------------------ values and noun phrases

    def var(self, name: str) -> str:
        b = self.bindings.get(name)
        if name == "it" or b is None:
            return IT if name == "it" else COLOR_ZH.get(name) or STATUSES.get(name) or self.vars.get(name, name)
        if b.used and b.short is not None:  # the first mention says what the value is, later ones 该牌
            return b.short
        b.used = True
        first = b.full if b.full is not None else self.val(b.node)
        return f"{first}（{b.label}）" if b.label else first

    def val(self, node: object) -> str:
        """Any expression as a piece of text (a noun, a number, or a condition)."""
        if isinstance(node, ast.Var):
            return self.var(node.name)
        if isinstance(node, (ast.IntLit, ast.StrLit, ast.CardNameLit)):
            return cn_num(node.value) if isinstance(node, ast.IntLit) else self.literal(node)
        if isinstance(node, ast.ListLit):
            parts = [self.val(i) for i in node.items]
            if all(isinstance(i, (ast.StrLit, ast.CardNameLit)) for i in node.items):
                return "".join(parts)
            return ("和" if self.kind(node) == "player" and len(parts) <= 2 else "、").join(parts)
        if isinstance(node, ast.ListComp):  # 每名角色各自……: the values in a list
            src = self.np(node.source).render()
            self._bind_each(node)
            each = "每名角色" if self.kind(node.source) == "player" else "每一项"
            return f"{src}中{each}的“{self.val(node.item)}”（依次，记为一组）"
        if isinstance(node, (ast.Attr, ast.Neg)):
            return (
                f"{poss(self.val(node.obj))}{node.name}"
                if isinstance(node, ast.Attr)
                else f"负{self.val(node.operand)}"
            )
        if isinstance(node, ast.BinOp) and node.op in ("+", "-"):
            return f"{self.val(node.left)}{'加' if node.op == '+' else '减'}{self.val(node.right)}"
        b = BUILTINS.get(node.func) if isinstance(node, ast.Call) else None
        if isinstance(node, (ast.BinOp, ast.Not)) or (b and b.kind == "query" and self.kind(node) == "bool"):
            return self.cond(node).text()  # type: ignore[arg-type]
        if isinstance(node, ast.Call) and b is not None and (b.kind == "action" or b.phrasing.choice):
            return self.action(node).text() if b.kind == "action" else self.choice_text(node)
        return self.np(node).render() if isinstance(node, (ast.Call, ast.Where)) else "？"

    def other(self, node: ast.Node, ph: Phrasing) -> str:
        """What a call is compared with: a text value the primitive has a word for (女性), or the value."""
        if isinstance(node, ast.StrLit) and ph.values:
            return dict(ph.values).get(node.value, self.val(node))
        return self.val(node)

    @staticmethod
    def literal(node: ast.StrLit | ast.CardNameLit) -> str:
        return f"“{node.value}”" if isinstance(node, ast.StrLit) else f"【{node.name}】"

    def count_word(self, node: ast.Node, clf: str | None = None) -> tuple[str, str | None]:
        """A count argument: (text, note). A non-literal count becomes N with a note (N为…)."""
        if isinstance(node, ast.IntLit):
            return cn_num(node.value, clf), None
        return "N" + (clf or ""), f"N为{self.val(node)}"

    def np(self, node: object) -> NP:
        kind = self.kind(node)
        clf = {"player": "名", "card": "张"}.get(kind, "个")
        b = self.bindings.get(node.name) if isinstance(node, ast.Var) else None
        if b is not None and b.node is not None and b.plural and b.full is None:
            return self.np(b.node)
        if isinstance(node, ast.Where):
            base = copy.deepcopy(self.np(node.source))
            self.it_kinds.append(self.kind(node.source))
            try:
                base.mods.append(self.mod(node.predicate))
            finally:
                self.it_kinds.pop()
            base.single = False
            return base
        if isinstance(node, ast.ListLit) and len(node.items) == 1:
            return NP(fixed=self.val(node.items[0]), single=True, kind=kind, clf=clf)
        c = _Call(self, node) if isinstance(node, ast.Call) else None
        if c is not None and c.ph.choice is not None:
            return NP(fixed=self.choice_text(c.call), single=c.ph.choice.range is None, kind=kind, clf=clf)
        if c is not None and c.ph.noun is not None:
            n = c.ph.noun
            owner = c.text(n.owner) if n.owner else None
            return NP(n.head, clf, c.fill(n.prefix), owner, list(n.mods), kind=kind, bare=n.bare, has=n.has)
        fixed = "".join(filter(None, c.clause(c.template))) if c is not None else self.val(node)
        return NP(fixed=fixed, single=not self.plural(node), kind=kind, clf=clf)

    def mod(self, pred: ast.Node) -> str:
        """A `where` predicate about `it` as a modifier of the item: 黑色, 有手牌的, 与该牌含有相同颜色的."""
        inner = pred.operand if isinstance(pred, ast.Not) else pred
        if isinstance(inner, ast.BinOp) and inner.op == "has" and is_var(inner.left, "it"):
            color = COLOR_ZH.get(inner.right.name) if isinstance(inner.right, ast.Var) else None
            if inner is pred:
                return color or f"含有{self.val(inner.right)}的"
            if color:
                return f"不含{color}的"
        if isinstance(pred, ast.BinOp) and pred.op in ("or", "and"):
            left, right = self.mod(pred.left), self.mod(pred.right)
            right += "的" if left.endswith("的") and not right.endswith("的") else ""
            return f"{left.removesuffix('的')}{'或' if pred.op == 'or' else '且'}{right}"
        ph = phrasing_of(pred)
        if isinstance(pred, ast.Call) and ph is not None and BUILTINS[pred.func].params:
            a, (p0, *more) = self.args(pred), [p.name for p in BUILTINS[pred.func].params]
            if ph.symmetric and more and is_var(a.get(more[0]), "it") and not is_var(a.get(p0), "it"):
                pred = ast.Call(pred.line, pred.col, pred.func, [], a | {p0: a[more[0]], more[0]: a[p0]})
            elif ph.modifier and is_var(a.get(p0), "it"):
                return _Call(self, pred).fill(ph.modifier)  # 纯红色
        eq = self._equals(pred.left, pred.right, "it") if isinstance(pred, ast.BinOp) else None
        if eq is not None and isinstance(pred, ast.BinOp) and pred.op in ("==", "!="):  # 名为【…】的
            bind = self.bindings.get(eq[1].name) if isinstance(eq[1], ast.Var) else None
            if bind is not None and bind.adj:  # 你声明的
                return bind.adj if pred.op == "==" else f"不是{bind.adj}"
            text = _Call(self, eq[0]).fill(eq[2].equals_modifier or "", {"@other": self.other(eq[1], eq[2])})
            return text if pred.op == "==" else "不" + text
        p = self.cond(pred)
        return (p.pred if p.subj == IT else p.text()) + "的"

    def _equals(self, a: ast.Node, b: ast.Node, it: str | None = None) -> tuple[ast.Call, ast.Node, Phrasing] | None:
        """The side of `a == b` whose primitive words the comparison (equals; about `it`: equals_modifier)."""
        for x, y in ((a, b), (b, a)):
            ph = phrasing_of(x)
            if not (isinstance(x, ast.Call) and ph is not None and (ph.equals_modifier if it else ph.equals)):
                continue
            if it is None or is_var(self.args(x).get(BUILTINS[x.func].params[0].name), it):
                return x, y, ph
        return None

    # ------------------------------------------------------------ conditions

    def cond(self, node: ast.Node, neg: bool = False) -> Phrase:
        """A condition as a clause; neg: its negation (不含……, 没有……, 不是……, 并非……)."""
        if isinstance(node, ast.Not):
            return self.cond(node.operand, not neg)
        if isinstance(node, ast.BinOp) and node.op in ("and", "or") and neg:
            nots = ast.Not(node.line, node.col, node.left), ast.Not(node.line, node.col, node.right)
            return self.cond(ast.BinOp(node.line, node.col, "or" if node.op == "and" else "and", *nots))
        if isinstance(node, ast.BinOp) and node.op in ("and", "or"):
            items = ast.conjuncts(node) if node.op == "and" else [node.left, node.right]
            if node.op == "and":  # exists(x) only guards a choice from nothing
                items = [c for c in items if not (phrasing_of(c) or Phrasing()).guard] or items
            if len(items) == 1:
                return self.cond(items[0])
            return self.join_phrases([self.cond(c) for c in items], "且" if node.op == "and" else "或者")
        if isinstance(node, ast.BinOp) and node.op in ("has", "in"):
            verb = {"has": ("含有", "不含"), "in": ("是", "不是")}[node.op][neg]
            rest = "" if node.op == "has" else ("中的任何一个" if neg else "中的一个")
            return Phrase(self.val(node.left), f"{verb}{self.val(node.right)}{rest}", verb)
        if isinstance(node, ast.BinOp):
            return self.compare(NEGATE[node.op] if neg else node.op, node.left, node.right)
        if isinstance(node, ast.Var) and not neg:
            return Phrase(None, {"true": "总是", "false": "从不"}.get(node.name) or self.var(node.name))
        ph = phrasing_of(node)
        if isinstance(node, ast.Call) and ph is not None:
            if ph.same_as:
                return self.cond(self.expand(node, ph.same_as), neg)
            if ph.exists_in:
                return self._exists(self.args(node).get(ph.exists_in), not neg)
            if not neg or ph.negated:
                c = _Call(self, node)
                subj, pred = c.clause(c.ph.negated if neg and c.ph.negated else c.template)
                verb = "不" + ph.verb if neg else ph.verb  # 存在 → 不存在
                return Phrase(subj, pred, verb if ph.verb and pred.startswith(verb) else "")
        if not neg:
            return Phrase(None, self.val(node))
        p = self.cond(node)
        return Phrase(p.subj, "不" + p.pred) if p.pred.startswith(("是", "会")) else Phrase(None, "并非" + p.text())

    def join_phrases(self, phrases: list[Phrase], word: str) -> Phrase:
        """Conditions joined by 且 or 或者; one subject is said once (with 或, so is a shared verb)."""
        first = phrases[0]
        parts = [p.parts for p in phrases if p.parts is not None and p.subj == first.subj]
        adjs = [x.mods[0] for x, _ in parts if x.fixed is None and len(x.mods) == 1 and not x.mods[0].endswith("的")]
        if word == "且" and len(adjs) == len(phrases) and len({(x.head, rest) for x, rest in parts}) == 1:
            return Phrase(first.subj, f"{'和'.join(adjs)}{parts[0][0].head}均{parts[0][1]}")  # 红色和蓝色情报均……
        if first.subj is None or any(p.subj != first.subj for p in phrases):
            return Phrase(None, word.join(p.text() for p in phrases))
        verb = first.verb if word != "且" else ""
        cut = [bool(i and verb and p.verb == verb and p.pred.startswith(verb)) for i, p in enumerate(phrases)]
        return Phrase(
            first.subj,
            word.join(p.pred[len(verb) :] if c else p.pred for p, c in zip(phrases, cut, strict=True)),
            first.verb,
        )

    def _exists(self, xs: ast.Node | None, positive: bool) -> Phrase:
        """A list is (not) empty: 你拥有红色情报; 其他角色均没有手牌; 不存在……"""
        x = self.np(xs)
        if x.owner is None and not positive and isinstance(xs, ast.Where) and self.kind(xs) == "player":
            whole = self.np(xs.source)
            self.it_kinds.append("player")
            try:
                inner = self.cond(xs.predicate, neg=True)
            finally:
                self.it_kinds.pop()
            if not inner.pred.startswith("并非"):
                return Phrase(whole.render(), "均" + (inner.pred if inner.subj == IT else inner.text()))
        if x.owner is None and x.fixed is not None and not x.mods:
            return Phrase(x.fixed, "不为空" if positive else "为空")
        return self.count_phrase(">=" if positive else "==", x, int(positive))

    def compare(self, op: str, left: ast.Node, right: ast.Node) -> Phrase:
        if isinstance(left, ast.IntLit) and not isinstance(right, ast.IntLit):
            left, right, op = right, left, FLIP[op]
        ph = phrasing_of(left)
        if isinstance(right, ast.IntLit) and isinstance(left, ast.Call) and ph is not None and ph.counts:
            xs = self.expand(left, ph.counts)
            if not (isinstance(xs, ast.Var) and xs.name not in self.bindings and not self.plural(xs)):
                return self.count_phrase(op, self.np(xs), right.value)
        if op in ("==", "!=") and isinstance(left, ast.StrLit) and is_var(right, "event"):
            left, right = right, left
        if op in ("==", "!=") and is_var(left, "event") and isinstance(right, ast.StrLit) and right.value in TRIGGER_ZH:
            # which trigger fired: 此时是一名角色传出情报时
            e = catalogue.TRIGGER_EVENTS[right.value]
            when = TRIGGER_ZH[right.value].format(s="一名角色", c=e.card_noun)
            return Phrase("此时", ("是" if op == "==" else "不是") + when, "是")
        eq = self._equals(left, right) if op in ("==", "!=") else None
        if eq is not None:
            subj, pred = _Call(self, eq[0]).clause(eq[2].equals or "", {"@other": self.other(eq[1], eq[2])})
            return Phrase(subj, ("" if op == "==" else "不") + pred, eq[2].verb)
        if op in ("==", "!=") and self.kind(left) == "player" and self.kind(right) == "player":
            return Phrase(self.val(left), ("是" if op == "==" else "不是") + self.val(right), "是")
        return Phrase(self.val(left), OP_ZH[op] + self.val(right), OP_ZH[op])

    def count_phrase(self, op: str, x: NP, n: int) -> Phrase:
        """count(xs) op n: 你收集了三张或更多红色情报; 该角色红色情报不超过一张."""
        if op == ">" and n >= 0:
            op, n = ">=", n + 1
        if (op == "<" and n == 1) or (op == "<=" and n == 0):
            op, n = "==", 0
        owned, desc, num = x.owner is not None, x.render(drop_owner=True), cn_num(n, x.clf)
        what = desc if owned else x.render()
        if op == ">=":
            verb = (x.has[0] if n <= 1 else x.has[1]) if owned else "存在"
            return Phrase(x.owner, verb + (what if n <= 1 else f"{num}或更多{what}"), verb)
        if op == "==" and n == 0:
            verb = "没有" if owned else "不存在"
            return Phrase(x.owner, verb + what, verb)
        rest = {"<=": "不超过", "<": "少于", "==": "恰好", "!=": "不是"}.get(op, OP_ZH[op]) + num
        return Phrase(x.owner, desc + rest, "", parts=(x, rest)) if owned else Phrase(what, rest, "")

    # ------------------------------------------------------------ choices

    def _chooser(self, call: ast.Call) -> str:
        by = self.args(call).get(choice_of(call).chooser)
        return self.val(by) if by is not None else YOU

    def _prompt_noun(self, call: ast.Call) -> tuple[str, str]:
        """(verb, noun) of a choice, from its prompt (声明一个卡名 → 声明, 卡名), else from what is picked."""
        ch = choice_of(call)
        m = re.match(
            r"^(宣言|声明|选择|指定)(一个|一张|一名|一项)(.+)$", getattr(self.args(call).get(ch.prompt), "value", "")
        )
        noun = {"cardname": "卡名", "color": "颜色", "player": "角色", "card": "牌"}.get(self.kind(call), "项")
        return (m.group(1), m.group(3)) if m else (ch.verb, noun)

    def choice_text(self, call: ast.Call, drop_owner_of: str | None = None) -> str:
        """The object of a choice: 他面前的一张黑色情报; “东风”“西风”中的一个暗号; 一至两张手牌."""
        c, ch = _Call(self, call), choice_of(call)
        src = c.args.get(ch.source)
        if isinstance(src, ast.ListLit) and self.kind(src) != "player":
            return f"{self.val(src)}中的一个{self._prompt_noun(call)[1]}"
        x = self.np(src)
        drop = drop_owner_of is not None and x.owner == drop_owner_of
        if ch.range is None:
            return x.one(drop_owner=drop) + c.extras()
        (lo, _), (hi, top) = c.number(ch.range[0]), c.number(ch.range[1])
        if hi >= top:  # no upper bound
            q = f"至少{cn_num(lo, x.clf)}" if lo > 0 else "任意" + x.clf
        else:
            q = (
                f"{'至多' if lo == 0 else ''}{cn_num(hi, x.clf)}"
                if lo in (0, hi)
                else f"{cn_num(lo)}至{cn_num(hi, x.clf)}"
            )
        return x.render(quant=q, drop_owner=drop)

    def _choice_pred(self, call: ast.Call) -> str:
        if choice_of(call).declared:
            return self._prompt_noun(call)[0] + self.choice_text(call)
        return choice_of(call).verb + self.choice_text(call, drop_owner_of=self._chooser(call))

    # ------------------------------------------------------------ actions and statements

    def action(self, call: ast.Call, ctx: str | None = None) -> Phrase:
        """An action call as a clause. A choice among its arguments decides who acts."""
        c = _Call(self, call)
        if c.ph.choice is not None:
            return Phrase(None, self._choice_pred(call))
        subj_t, bar, pred_t = c.template.rpartition("|")
        picks = [k for k, v in c.args.items() if (p := phrasing_of(v)) and p.choice and not p.choice.declared]
        if not picks:
            return Phrase(c.clause(subj_t + bar)[0], c.predicate(pred_t))
        key, ch = picks[0], c.args[picks[0]]  # a choice whose pick the action acts on
        assert isinstance(ch, ast.Call)
        short = "该牌" if self.kind(ch) == "card" else "该角色"
        natural, chooser = c.clause(subj_t + bar, {key: short})[0], self._chooser(ch)
        actor = natural if natural is not None else (chooser if chooser != YOU else None)
        if actor is None or actor == chooser:
            return Phrase(actor, c.predicate(pred_t, {key: self.choice_text(ch, drop_owner_of=actor)}))
        who = "" if chooser in (YOU, ctx) else chooser  # one chooses, another acts: 选择……，由他将该牌……
        obj = self.choice_text(ch)
        return Phrase(None, f"{who}选择{obj}，由{actor}{c.predicate(pred_t, {key: short})}", complex=True)
