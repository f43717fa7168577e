"""Pieces of generated Chinese rules text: numerals, possessives, noun phrases and clauses.

Shared by the renderer of code (``describe.py``) and of content objects (``describe_content.py``);
they know nothing of the language, only how a phrase of rules text is put together.
"""

from __future__ import annotations

from dataclasses import dataclass, field

IT = "其"  # `it`, and the player a loop runs over (dropped where it is the subject)


def cn_num(n: object, clf: str | None = None) -> str:
    """A number in Chinese: 三, or 两张 before a classifier. Numbers above ten stay in digits."""
    if not isinstance(n, int) or isinstance(n, bool):
        return str(n)
    if clf and n == 2:
        return "两" + clf
    return ("零一二三四五六七八九十"[n] if 0 <= n <= 10 else str(n)) + (clf or "")


def poss(x: str) -> str:
    """The possessive of a player noun: 你 → 你的, 其 → 其."""
    return x if x == IT else x + "的"


def end_sentence(text: str) -> str:
    text = text.strip().rstrip("，；")
    return text if not text or text.endswith("。") else text + "。"


@dataclass
class NP:
    """A noun phrase for a collection or a thing: prefix (owner, place) + quantity + modifiers + head."""

    head: str = ""
    clf: str = "张"
    prefix: str = ""
    owner: str | None = None
    mods: list[str] = field(default_factory=list)
    fixed: str | None = None  # a finished wording (a list, a chosen value …): ……中的 + quantity + head
    single: bool = False
    kind: str = "card"
    bare: str | None = None  # the wording with no quantity and no modifier (所有存活角色)
    has: tuple[str, str] = ("有", "拥有")

    def render(self, quant: str | None = None, drop_owner: bool = False) -> str:
        adjs = "".join(sorted(self.mods, key=lambda m: not m.endswith("的")))  # 有手牌的 before 红色
        if self.fixed is not None:
            head = {"card": "牌", "player": "角色"}.get(self.kind, "项")
            return f"{self.fixed}中的{quant or ''}{adjs}{head}" if adjs or quant else self.fixed
        prefix = "" if drop_owner else self.prefix
        if self.bare and not (adjs or quant or prefix):
            return self.bare
        return f"{prefix}{quant or ''}{adjs}{self.head}"

    def one(self, drop_owner: bool = False) -> str:
        return self.render(None if self.single else "一" + self.clf, drop_owner)


@dataclass
class Phrase:
    """A clause: an optional subject and a predicate (verb: its leading verb, for 或 ellipsis)."""

    subj: str | None
    pred: str
    verb: str = ""
    parts: tuple[NP, str] | None = None  # (NP, rest) of a count: 红色情报 | 不超过一张
    hard: bool = False  # a statement that ends a sentence (。 after it)
    pair: tuple[str, str] | None = None  # the two subjects of a merged 依次 statement
    complex: bool = False  # pred is a finished text; never merged

    def text(self, elide: str | None = None) -> str:
        return self.pred if self.subj is None or self.subj == elide else self.subj + self.pred
