"""Decision objects: every choice the rules give a player.

The engine builds a :class:`Decision` with the legal options already
enumerated and hands it to the seat's agent, which answers with an index.
Options are engine objects (cards, players, strings, or small tuples); each has
a label for logs and human players. An option never reveals more than the
deciding seat may see: blind picks (抽取) are offered as positions, not cards.
"""

from __future__ import annotations

from typing import Any, Final

from .state import Card, Player

# An option: a Card, a Player, a PlayOption, none, a bool, a text, a color, a number, a tuple of these,
# or another value with a label() (a card name, a role, a blind pick …). The engine and the agents tell
# them apart at run time, so an option is Any to the type checker.
Option = Any

# Decision kinds (stable names: they appear in logs, replays and scenario files); see catalogue.DECISIONS.
PLAY: Final = "play"  # an idle point: use a card / skill, or pass
SEND: Final = "send"  # 传递阶段: which hand card to send (or a card that replaces sending)
SEND_TARGET: Final = "send_target"  # ↑ intel: to whom
LOCK: Final = "lock"  # lockable intel: whom to lock (or nobody)
RECEIVE: Final = "receive"  # the intel is in front of you: accept it, or pass it on
TARGET: Final = "target"  # the target of a card
CHOOSE: Final = "choose"  # a choice inside an effect (player, card, color, text, card name)
CONFIRM: Final = "confirm"  # 可以: do it or not
OPTION: Final = "option"  # 选择一项
GIVE_TARGET: Final = "death_give_target"  # a dying player's last gift: to whom (or nobody)
GIVE_CARD: Final = "death_give_card"  # ... and which cards, one at a time
ROLE: Final = "role"  # setup: which of the dealt roles to keep
SKILL_ORDER: Final = "skill_order"  # several of one player's triggered skills react at one node: which resolves first


def option_label(opt: Option) -> str:
    if opt is None:
        return "不"
    if isinstance(opt, (Card, Player)):
        return opt.label() if isinstance(opt, Card) else f"P{opt.seat}"
    if isinstance(opt, tuple):
        return " ".join(option_label(o) for o in opt)
    if isinstance(opt, bool):
        return "是" if opt else "否"
    label = getattr(opt, "label", None)
    if callable(label):
        text: str = label()
        return text
    return str(opt)


def option_json(opt: Option) -> object:
    """A JSON-friendly form of an option, for logs."""
    if opt is None or isinstance(opt, (bool, int, str)):
        return opt
    if isinstance(opt, Card):
        return {"card": opt.uid}
    if isinstance(opt, Player):
        return {"seat": opt.seat}
    if isinstance(opt, tuple):
        return [option_json(o) for o in opt]
    to_json = getattr(opt, "to_json", None)
    if callable(to_json):
        return to_json()
    return str(opt)


def option_matches(opt: Option, answer: object) -> bool:
    """Does a scripted answer name this option?

    Accepted forms: the option's label; for a card its deck id ("#79" or "79")
    or its name when unambiguous is checked by the caller; for a player "P3";
    for an idle-point action "pass" or "use <card name>" / "use #79"; for yes/no
    "yes"/"no"; for none "none".
    """
    if isinstance(answer, bool):
        return isinstance(opt, bool) and opt == answer
    if isinstance(answer, str):
        a = answer.strip()
        if a == option_label(opt):
            return True
        if opt is None:
            return a in ("none", "no", "不", "skip", "stop")
        if isinstance(opt, bool):
            return a in (("yes", "是", "true") if opt else ("no", "否", "false"))
        if isinstance(opt, Card):
            return a in (f"#{opt.uid}", str(opt.uid), opt.type.name, opt.type.id)
        if isinstance(opt, Player):
            return a in (f"P{opt.seat}", str(opt.seat))
        if isinstance(opt, PlayOption):
            if opt.use is None:
                return a == "pass"
            if opt.card is None:
                return a in (f"skill {opt.use.name}", f"skill {opt.use.id}", f"use {opt.use.name}")
            if a.startswith("use "):
                rest = a[4:].strip()
                return rest in (
                    f"#{opt.card.uid}",
                    str(opt.card.uid),
                    opt.card.type.name,
                    opt.card.type.id,
                    opt.use.card_type.name,
                    opt.use.card_type.id,
                )
            return False
        if isinstance(opt, int) and not isinstance(opt, bool):
            from .state import COLOR_NAMES

            return COLOR_NAMES.get(opt) == a
        if hasattr(opt, "index") and callable(getattr(opt, "label", None)):  # a blind pick
            return a in (opt.label(), f"blind {opt.index + 1}")
        if hasattr(opt, "id") and hasattr(opt, "name"):  # a card name value
            return a in (opt.id, opt.name, f"【{opt.name}】")
        return str(opt) == a
    return False


class Decision:
    """A question to one seat with its legal options."""

    __slots__ = ("kind", "seat", "options", "prompt", "source", "asker", "skill", "answering")

    def __init__(
        self,
        kind: str,
        seat: int,
        options: list[Option],
        prompt: str = "",
        source: str = "",
        by: tuple[int, str] | None = None,
        answering: tuple[tuple[int | None, str, int | None], ...] | None = None,
    ) -> None:
        self.kind = kind
        self.seat = seat
        self.options = options
        self.prompt = prompt
        self.source = source  # the card or skill that asks, if any
        # who asks: the seat whose card or skill asks (None: the turn's own rules ask), and the skill resolving
        # that asks ("" for a card's question or the rules'). Both public: a card's use and a skill's use are
        # announced to every seat (card_used, skill_used) before their effects ask anything.
        self.asker: int | None = by[0] if by is not None else None
        self.skill: str = by[1] if by is not None else ""
        # at the `respond` idle point, the card use it would answer and those that one answers in turn (UseFrame.chain:
        # user, card used as, target — each public, a `card_used` record); None at any other question
        self.answering = answering

    def labels(self) -> list[str]:
        return [option_label(o) for o in self.options]

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "prompt": self.prompt,
            "source": self.source,
            "options": [option_json(o) for o in self.options],
        }

    def __repr__(self) -> str:
        return f"Decision({self.kind}, seat={self.seat}, {self.labels()})"


class PlayOption:
    """An idle-point action: use `card` via a card use, or a skill (`card` None, `use` a Skill), or pass."""

    __slots__ = ("card", "use")

    def __init__(self, card: Card | None, use: Any) -> None:
        self.card = card
        # a CardUse when there is a card, a Skill when there is none, None to pass: which one follows
        # from `card`, which the type checker cannot follow, so it is Any
        self.use = use

    def label(self) -> str:
        if self.use is None:
            return "pass"
        if self.card is None:
            return f"skill {self.use.name}"
        if self.use.card_type is not self.card.type:  # a converted card shows what it is used as
            return f"use {self.card.label()} as {self.use.card_type.name}"
        return f"use {self.card.label()}"

    def to_json(self) -> dict[str, object] | None:
        if self.use is None:
            return None
        if self.card is None:
            return {"skill": self.use.id}
        return {"use": self.card.uid, "as": self.use.card_type.id}


PASS: Final = PlayOption(None, None)
