"""The run-time context a compiled effect, target rule or condition runs in."""

from __future__ import annotations

from typing import Any

from ..model.content import Skill

# The language does not import the engine, not even for types: the engine hands in its game,
# players and cards, and these aliases say which is which.
Game = Any
Player = Any
Card = Any


class Ctx:
    """What `self`, `target`, `this_card`, `dying` and `subject` mean for one evaluation.

    `incomplete` is set by any action that could not fully resolve (nothing to
    choose from, not enough cards, ...); a `then` statement reads and resets it.
    `chooser` is who makes the choices that `self` would make; it differs from
    `self` only while one player makes another use a card (令其使用一张牌).
    """

    __slots__ = (
        "game",
        "me",
        "target",
        "card",
        "dying",
        "subject",
        "incomplete",
        "chooser",
        "used_as",
        "event",
        "fields",
    )

    def __init__(
        self,
        game: Game,
        me: Player,
        target: Player | None = None,
        card: Card | None = None,
        dying: Player | None = None,
        subject: Player | None = None,
    ) -> None:
        self.game = game
        self.me = me
        self.chooser = me  # who answers the choices `self` would make (another player controls a forced use)
        self.used_as: CardName | None = None  # triggered skills on card events: the name the card was used as
        self.event: str | None = None  # triggered skills: the event kind that triggered it
        # triggered skills on an event the rules declare: its fields by name (model/declared.py), else None
        self.fields: dict[str, Any] | None = None
        self.target = target
        self.card = card
        self.dying = dying
        self.subject = subject
        self.incomplete = False


def source_of(ctx: Ctx, asked: Player | None = None) -> str:
    """The card a question to `asked` comes from, by what it is used as (a converted card's printed face
    stays hidden); nothing if that card is one `asked` cannot see (a triggered skill about a face-down intel)."""
    if ctx.used_as is not None:
        return ctx.used_as.id
    card = ctx.card
    if card is None or (asked is not None and not ctx.game.card_visible(card, asked.seat)):
        return ""
    return str(card.type.id)


def asked_by(ctx: Ctx) -> tuple[int, str]:
    """Who asks an effect's question, as the asked seat's decision names it: the player whose card or skill it is
    (`self`), and the skill if the innermost thing resolving is a skill ("" while a card's effect asks). Both are
    public: every seat was told of the card's or the skill's use before its effect could ask anything; but a skill
    used while its role is face down (`while_face_down`) is not named: the others were not told which it is."""
    resolving = ctx.game.stack.resolving
    top = resolving[-1] if resolving else None
    if not isinstance(top, Skill):
        return ctx.me.seat, ""
    if top.while_face_down is not None and not ctx.me.role_face_up:  # a face-down role's skill: not told which
        return ctx.me.seat, ""
    return ctx.me.seat, top.id


def loop_over(ctx: Ctx, x: Any) -> list[Any]:
    """The list a `for` (or a `where` inside a loop) walks, its length spent from the game's step budget."""
    xs: list[Any] = [] if x is None else x if isinstance(x, list) else [x]
    game = ctx.game
    game.budget_line -= len(xs)
    if game.changes + game.zones.moves > game.budget_line:  # the cards moved and events count too
        game.over_budget()  # E501: ends the game
    return xs


class StopEffect(Exception):
    """Raised by `then` when what came before did not fully resolve: the rest of the text is skipped."""


class CardName:
    """A card name as a value (【name】 in code, or name_of(c)): equal by card id, shown in Chinese."""

    __slots__ = ("id", "name")

    def __init__(self, cid: str, name: str) -> None:
        self.id = cid
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardName) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def label(self) -> str:
        return f"【{self.name}】"

    def to_json(self) -> str:
        return self.id

    def __repr__(self) -> str:
        return self.label()
