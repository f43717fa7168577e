"""Render effect-language code as Chinese rules text (``fengsheng describe``; content objects: describe_content.py).

The renderer is generic. A call reads as its primitive's :class:`~.builtins.Phrasing` says (the
phrasing vocabulary is described in ``builtins.py``); context variables, constants and statuses
read as :mod:`interpreter.catalogue` words them. This module knows the statements and operators of
the language and a few patterns of rules texts (依次, 然后, 若如此做会……则改为……, 选择一项,
三张或更多……); it never looks at the name of a primitive, a card, a role or a task.

The renderer is three modules: describe_words.py (the words), describe_values.py (values, conditions, choices
and actions: ``ValueRenderer``) and this one (statements, and the entry points ``describe_program`` and
``describe_expr``).
"""

from __future__ import annotations

from . import ast
from .builtins import BUILTINS
from .describe_values import ValueRenderer, _Call
from .describe_words import (
    CHECK_ZH,
    COLOR_ZH,
    DATA_TYPE_ZH,
    LABEL_WORDS,
    ORDINALS,
    SHORT,
    TARGET_LONG,
    TIMING_ZH,
    TRIGGER_ZH,
    VAR_ZH,
    YOU,
    Binding,
    expression,
    is_var,
    phrasing_of,
)
from .parser import parse
from .phrases import IT, Phrase, cn_num, end_sentence

# The names describe_content.py and the commands import from here (the words are describe_words.py's).
__all__ = [
    "CHECK_ZH",
    "COLOR_ZH",
    "DATA_TYPE_ZH",
    "TARGET_LONG",
    "TIMING_ZH",
    "TRIGGER_ZH",
    "VAR_ZH",
    "YOU",
    "Binding",
    "Renderer",
    "describe_expr",
    "describe_program",
    "expression",
    "is_var",
    "kept_marks",
    "phrasing_of",
]


class Renderer(ValueRenderer):
    """Renders the code of one content object: ValueRenderer's values, conditions and choices, and the statements.
    Keeps the `let` names and the wording of `target`."""

    def block(self, stmts: list[ast.Node], ctx: str | None = None) -> list[Phrase]:
        """Statements as clauses: 你弃置所有手牌，他弃置所有手牌 → 你和他依次弃置所有手牌 (再依次 for the next pair)."""
        segs, out = [seg for s in stmts for seg in self.stmt(s, ctx)], list[Phrase]()
        i = 0
        while i < len(segs):
            a, b = segs[i], segs[i + 1] if i + 1 < len(segs) else None
            simple = b is not None and not (a.complex or b.complex or a.hard) and a.pred == b.pred
            if simple and b is not None and a.subj is not None and b.subj is not None and a.subj != b.subj:
                again = bool(out) and out[-1].pair == (a.subj, b.subj)
                subj, pred = (None, "再依次") if again else (f"{a.subj}和{b.subj}", "依次")
                out.append(Phrase(subj, pred + a.pred, hard=b.hard, pair=(a.subj, b.subj), complex=again))
                i += 2
                continue
            out.append(a)
            i += 1
        return out

    @staticmethod
    def may_first(segs: list[Phrase], who: str) -> list[Phrase]:
        """The clauses after 可以 (`who` may): a first clause with a subject of its own keeps 可以 before its verb.

        你和他依次摸一张牌 → (你可以)与他依次摸一张牌; 他摸一张牌 → (你可以)令他摸一张牌; never 可以你和他….
        """
        first = segs[0] if segs else None
        if first is None or first.complex or first.subj is None or first.subj == who:
            return segs
        if first.pair is not None and first.pair[0] == who:
            text = f"与{first.pair[1]}{first.pred}"
        else:
            text = "令" + first.text(who)
        return [Phrase(None, text, hard=first.hard, pair=first.pair), *segs[1:]]

    @staticmethod
    def join(segs: list[Phrase], ctx: str | None = None, pair_word: str | None = None) -> str:
        live = [s for s in segs if s.text(ctx)]
        if pair_word and len(live) == 2 and not any(s.hard or s.complex for s in live):
            return pair_word.join(s.text(ctx) for s in live)
        seps = ["", *("。" if s.hard else "，" for s in live)]  # the separator after each
        return "".join(sep + s.text(ctx) for sep, s in zip(seps, live, strict=False))

    def program(self, prog: ast.Program | list[ast.Node], ctx: str | None = None) -> str:
        body = prog.body if isinstance(prog, ast.Program) else prog
        if isinstance(prog, ast.Program):
            self.plan_labels(body)
        return self.join(self.block(body, ctx), ctx)

    def plan_labels(self, body: list[ast.Node]) -> None:
        """Name the picks apart where one program picks two or more players (or cards, numbers, colours) with `let`.

        Each would read 该角色 after its pick, and 该角色 twice in one sentence is ambiguous; so
        they become 角色甲, 角色乙 … (牌甲, 牌乙 …; 数值甲, 数值乙 …), said at the pick: 选择一名其他角色（角色甲）,
        or at the value's first mention: 这些牌中的红色牌的数量（数值甲）.
        """
        picks: dict[str, list[str]] = {}

        def walk(x: object) -> None:
            if isinstance(x, ast.Let):
                ph = phrasing_of(x.value)
                kind = self.kind(x.value)
                choice = ph.choice if ph is not None else None
                b = BUILTINS.get(x.value.func) if isinstance(x.value, ast.Call) else None
                action = b is not None and b.kind == "action"
                single = choice is None and not action and not self.plural(x.value)
                pick = (choice is not None and not choice.declared and choice.range is None) or single
                if pick and kind in LABEL_WORDS and x.name not in picks.setdefault(kind, []):
                    picks[kind].append(x.name)
            if isinstance(x, ast.Node):
                for v in vars(x).values():
                    walk(v)
            elif isinstance(x, list | tuple):
                for v in x:
                    walk(v)

        walk(body)
        for kind, names in picks.items():
            if len(names) >= 2:
                word = LABEL_WORDS[kind]
                for i, name in enumerate(names[: len(ORDINALS)]):
                    self.labels[name] = word + ORDINALS[i]

    def stmt(self, node: ast.Node, ctx: str | None) -> list[Phrase]:
        if isinstance(node, ast.Let):
            return self.let(node, ctx)
        if isinstance(node, ast.CallStmt):
            seg = self.action(node.call, ctx)
            if node.instead_cond is None or node.instead_body is None:
                return [seg]
            c = self.cond(node.instead_cond).text()
            lead = "若如此做" if c.startswith("会") else "若如此做会使"
            return _sentence(f"{seg.text(ctx)}。{lead}{c}，则改为{self.program(node.instead_body, ctx)}")
        if isinstance(node, ast.Then):
            inner = self.stmt(node.stmt, ctx)
            if inner:
                first = inner[0]
                text = first.subj + first.pred if first.subj is not None and not first.complex else first.text(ctx)
                inner[0] = Phrase(None, "然后" + text, hard=first.hard, complex=True)
            return inner
        if isinstance(node, ast.ChooseOne):
            chooser, opts = self.val(node.by) if node.by is not None else YOU, []
            for i, o in enumerate(node.options):
                opt = self.program(o.body, chooser) or o.label
                opt += f"（{self.cond(o.condition).text()}时才可选）" if o.condition is not None else ""
                opts.append(("①②③④⑤⑥⑦⑧⑨⑩"[i] if i < 10 else f"({i + 1})") + opt)
            return [Phrase(chooser, "选择一项：" + "；".join(opts), hard=True)]
        if isinstance(node, ast.May):
            chooser = self.val(node.by) if node.by is not None else YOU
            body = self.may_first(self.block(node.body, chooser), chooser)
            text = self.join(body, chooser, pair_word="并") or (node.prompt or "发动")
            hard = any(s.hard for s in body[-1:])
            if self.may_subject and chooser == ctx == YOU:
                return [Phrase(None, chooser + "可以" + text, hard=hard, complex=True)]
            return [Phrase(chooser, "可以" + text, hard=hard)]
        if isinstance(node, ast.If):
            parts = []
            for i, (test, b) in enumerate(node.branches):
                cond = self.cond(test).text()
                # 若该角色……，你摸一张牌: the subject said again after a condition about another (若你……，摸一张牌)
                said = ctx if ctx is None or cond.startswith(ctx) else None
                parts.append(f"{'否则若' if i else '若'}{cond}，{self.program(b, said)}")
            parts += ["否则，" + self.program(node.orelse, ctx)] if node.orelse else []
            return [Phrase(None, "；".join(parts), hard=len(parts) > 1, complex=True)]
        if isinstance(node, ast.Repeat):
            n = cn_num(node.count.value, "次") if isinstance(node.count, ast.IntLit) else self.val(node.count) + "次"
            return _sentence(f"重复{n}：{self.program(node.body, ctx)}")
        return self.for_stmt(node, ctx) if isinstance(node, ast.For) else [Phrase(None, "？", complex=True)]

    def let(self, node: ast.Let, ctx: str | None) -> list[Phrase]:
        value, kind = node.value, self.kind(node.value)
        ph = phrasing_of(value)
        if isinstance(value, ast.Call) and ph is not None and ph.choice is not None:
            chooser = self._chooser(value)
            if ph.choice.declared:  # 你声明的卡名
                verb, noun = self._prompt_noun(value)
                full, adj = f"{chooser}{verb}的{noun}", f"{chooser}{verb}的"
                self.bindings[node.name] = Binding(kind=kind, full=full, short=full, adj=adj, used=True)
            else:
                many = ph.choice.range is not None
                words = {"card": "这些牌", "player": "这些角色"} if many else {"card": "该牌", "player": "该角色"}
                short = self.labels.get(node.name) or words.get(kind, "所选的各项" if many else "所选的项")
                self.bindings[node.name] = Binding(kind=kind, plural=many, full=short, short=short, used=True)
                if node.name in self.labels:
                    return [Phrase(chooser, f"{self._choice_pred(value)}（{short}）")]
            return [Phrase(chooser, self._choice_pred(value))]
        if isinstance(value, ast.Call) and ph is not None and BUILTINS[value.func].kind == "action":
            seg = self.action(value, ctx)
            full = self.np(value).render() if ph.noun else "这些牌"  # what the action returns: 翻开的牌
            self.bindings[node.name] = Binding(kind=kind, plural=True, full=full, used=True)
            return [seg]
        plural = self.plural(value)
        if isinstance(value, ast.ListComp):  # a list collected in a loop: said in full once, then 这些牌
            full = self.val(value)
            short = {"card": "这些牌", "player": "这些角色"}.get(kind, "这些项")
            self.bindings[node.name] = Binding(kind=kind, plural=True, full=full, short=short)
            return []
        after = None if plural else SHORT.get(kind)
        if after and ph is not None and ph.card_data and kind in DATA_TYPE_ZH:
            after = "该" + DATA_TYPE_ZH[kind]  # 该数值
        label = self.labels.get(node.name)
        self.bindings[node.name] = Binding(node=value, kind=kind, plural=plural, short=label or after, label=label)
        return []

    def for_stmt(self, node: ast.For, ctx: str | None) -> list[Phrase]:
        src, kind = node.source, self.kind(node.source)
        c = _Call(self, src) if isinstance(src, ast.Call) else None
        if c is not None and c.ph.each:
            lead = c.fill(c.ph.each) + "依次"  # 从你开始，逆时针每名角色依次
        elif kind == "player":
            lead = f"{self.np(src).render()}中的每名角色依次"
        else:
            lead = f"对{self.np(src).render()}中的每一{'张' if kind == 'card' else '项'}依次执行："
        word = IT if kind == "player" else ("该牌" if kind == "card" else "该项")
        self.bindings[node.name] = Binding(kind=kind, full=word, short=word, used=True)
        inner = IT if kind == "player" else ctx
        return _sentence(lead + self.program(node.body, inner))


def _sentence(text: str) -> list[Phrase]:
    """A finished statement that ends a sentence."""
    return [Phrase(None, text, hard=True, complex=True)]


def describe_expr(node: ast.Node | str, renderer: Renderer | None = None) -> str:
    """One expression (a parsed node, or its text) as Chinese text."""
    node = expression(node) if isinstance(node, str) else node
    r = renderer or Renderer(target_word=TARGET_LONG)
    if r.kind(node) == "bool":
        return r.cond(node).text()
    if isinstance(node, (ast.Call, ast.Where)) and r.kind(node) in ("card", "player") and r.plural(node):
        return r.np(node).render()
    return r.val(node)


def kept_marks(nodes: object) -> frozenset[str]:
    """The keys (written in the code) of the marks these programs or expressions keep for the game: the key
    argument of each call whose phrasing says `keeps=` (read back with the shape `kept`)."""
    found: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, ast.Call):
            ph = phrasing_of(x)
            key = Renderer.args(x).get(ph.keeps) if ph is not None and ph.keeps else None
            if isinstance(key, ast.StrLit):
                found.add(key.value)
        if isinstance(x, ast.Program):
            walk(x.body)
        elif isinstance(x, ast.Node):
            for v in vars(x).values():
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)

    walk(nodes)
    return frozenset(found)


def describe_program(program: ast.Program | str, renderer: Renderer | None = None) -> str:
    """A program (parsed, or its text) as Chinese text ending in 。"""
    program = parse(program) if isinstance(program, str) else program
    return end_sentence((renderer or Renderer(target_word=TARGET_LONG)).program(program))
