"""The choice primitives: a seat is asked (one option, a blind pick, a declaration, several options)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.builtins import implements
from ...language.runtime import Ctx, asked_by, source_of
from .. import decisions as D
from ..core import ask_seat, emit_event, unheard
from ..state import Card
from .common import as_list

if TYPE_CHECKING:
    pass


def unordered(ctx: Ctx, items: list[Any]) -> list[Any]:
    """The options of a question with the cards of an order drawn at random (`shuffled`, Zones.ordered) put back in
    deck-id order, in the places they hold among the options: the seat asked sees which cards, not the order drawn
    (docs/language.md, "Several cards in a random order"). Most questions have none: the list as it is."""
    drawn = ctx.game.zones.drawn
    if not drawn:
        return items
    places = [i for i, o in enumerate(items) if type(o) is Card and o.uid in drawn]
    if len(places) < 2:
        return items
    out = list(items)
    for i, card in zip(places, sorted((items[i] for i in places), key=lambda c: c.uid), strict=True):
        out[i] = card
    return out


def _ask(ctx: Ctx, by, options, prompt, optional, kind=D.CHOOSE):
    g = ctx.game
    options = unordered(ctx, options)
    chooser = by if by is not None else ctx.chooser
    if not options:
        ctx.incomplete = True
        return None
    if optional:
        options = [*options, None]
    choice = ask_seat(g, chooser, kind, options, prompt or "", source_of(ctx, chooser), asked_by(ctx))
    if choice is None:
        ctx.incomplete = True
    return choice


class BlindPick:
    """An option of a blind pick (抽取): a position, not the card, so the chooser learns nothing."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def label(self) -> str:
        return f"第{self.index + 1}张"

    def to_json(self):
        return {"blind": self.index}


@implements("choose")
def _choose(ctx: Ctx, options, by, prompt, optional, blind):
    items = as_list(options)
    if not blind:
        return _ask(ctx, by, items, prompt, optional)
    items = list(items)
    if len(items) > 1 and ctx.game.zones.showing:  # nobody sees which is drawn: a card on show is lost among them
        ctx.game.zones.hide_pick(items)
    ctx.game.rng.shuffle(items)
    pick = _ask(ctx, by, [BlindPick(i) for i in range(len(items))], prompt, optional)
    return items[pick.index] if pick is not None else None


@implements("declare")
def _declare(ctx: Ctx, options, by, prompt):
    value = _ask(ctx, by, as_list(options), prompt, False)
    who = by if by is not None else ctx.chooser
    if not unheard(ctx.game, "declare"):
        emit_event(ctx.game, "declare", seat=who.seat, value=D.option_json(value))
    return value


@implements("choose_many")
def _choose_many(ctx: Ctx, options, by, lo, hi, prompt):
    g = ctx.game
    chooser = by if by is not None else ctx.chooser
    left = unordered(ctx, list(as_list(options)))
    picked: list[Any] = []
    while left and len(picked) < hi:
        opts = left + ([None] if len(picked) >= lo else [])
        choice = ask_seat(g, chooser, D.CHOOSE, opts, prompt or "", source_of(ctx, chooser), asked_by(ctx))
        if choice is None:
            break
        picked.append(choice)
        left.remove(choice)
    if len(picked) < lo:
        ctx.incomplete = True
    return picked
