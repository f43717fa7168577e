"""The primitives of the events the rules declare (`events:`, model/declared.py) and of hidden picks: announce an
event (emit), replace one of its fields while it resolves (replace_field: 改判), a judgement (reveal_top: 判定)
and a simultaneous hidden choice (pick_hidden). The compiler has checked each event's name and fields
(E312-E314, language/event_calls.py).

An announced event is a timing node of the one resolution model (Resolution.announce, which settles it):
the announcing effect waits there and goes on with the fields as the reacting skills left them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.builtins import implements
from ...language.runtime import CardName, Ctx, source_of
from .. import decisions as D
from ..core import ask_seat, emit_event
from ..state import STAGING, Card, Color, Player
from .common import as_list, zones_of

if TYPE_CHECKING:
    from ...model.declared import EventDecl
    from ..resolution import Resolution

# The key of an announced judgement's fields that says it is one (no field can be named so: not an identifier).
_JUDGEMENT = "~judgement"
_HELD = "~held"  # and the cards it holds on show


def _plain(v: Any) -> Any:
    """A field's value as the log writes it: a player by seat, a card by uid, a card name by id, a color by name."""
    if isinstance(v, Player):
        return v.seat
    if isinstance(v, Card):
        return v.uid
    if isinstance(v, CardName):
        return v.id
    if isinstance(v, Color):
        return v.to_json()
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def _cards_in(v: Any) -> list[Card]:
    return [c for c in as_list(v) if isinstance(c, Card)]


def _announce(ctx: Ctx, decl: EventDecl, fields: dict[str, Any]) -> dict[str, Any]:
    """Record the event (its card fields secret to the seats that cannot see every card they name) and resolve
    its node; the fields after it."""
    g = ctx.game
    types = decl.field_types()
    record = {f: _plain(v) for f, v in fields.items() if f in types}
    subject = fields.get(decl.subject) if decl.subject is not None else None
    if isinstance(subject, Player):
        record["seat"] = subject.seat
    mask = -1
    hidden: list[str] = []
    for f in types:
        for c in _cards_in(fields.get(f)):
            sight = g._sight(c.uid)
            if sight != -1:
                mask &= sight
                if f not in hidden:
                    hidden.append(f)
    to = [p for p in g.players if mask >> p.seat & 1] if hidden else None
    resolution: Resolution = g.resolution
    return resolution.announce(decl.name, fields, record, to, tuple(hidden))


@implements("emit")
def _emit(ctx: Ctx, event: Any, *values: Any) -> Any:  # (Any: code may pass none; compiled, an annotation is checked)
    decl = ctx.game.content.declared.events.get(event)
    if decl is None:  # (the compiler checked the name: E312)
        return False
    fields = {f: v for (f, _), v in zip(decl.fields, values, strict=False)}
    live = _announce(ctx, decl, fields)
    return live.get(decl.replaceable[0]) if decl.replaceable else True


@implements("replace_field")
def _replace_field(ctx: Ctx, field: Any, value: Any) -> bool:
    live = ctx.fields
    decl = ctx.game.content.declared.events.get(ctx.event or "")
    if live is None or decl is None or field not in decl.replaceable:  # (checked at load: E314)
        return False
    old = live.get(field)
    if value is None or value is old:
        return False
    g = ctx.game
    zones = zones_of(ctx)
    if isinstance(value, Card) and live.get(_JUDGEMENT) == field:  # the new judgement card takes the old one's place
        zones.move(value, STAGING)
        zones.reveal([value])
        zones.hold_for_judgement(value)
        held = live.get(_HELD)
        if isinstance(held, list):
            held.append(value)
    live[field] = value
    if _cards_in(value) or _cards_in(old):  # (old, new: deck ids, each secret to the seats that cannot see it)
        emit_event(
            g, "field_replaced", seat=ctx.me.seat, event=decl.name, field=field, old=_plain(old), new=_plain(value)
        )
    else:
        emit_event(
            g, "field_replaced", seat=ctx.me.seat, event=decl.name, field=field, before=_plain(old), after=_plain(value)
        )
    return True


@implements("reveal_top")
def _reveal_top(ctx: Ctx, event: Any, p: Any) -> Any:
    decl = ctx.game.content.declared.events.get(event)
    field = decl.judgement_field() if decl is not None else None
    if decl is None or field is None or decl.subject is None:  # (checked at load: E312, E313)
        return None
    zones = zones_of(ctx)
    top = zones.take_top(1)  # turned up, set aside, shown to all
    if not top:
        ctx.incomplete = True
        return None
    fields: dict[str, Any] = {f: None for f, _ in decl.fields}
    fields[decl.subject] = p if p is not None else ctx.me
    fields[field] = top[0]
    fields[_JUDGEMENT] = field
    held = [top[0]]  # the judgement's cards on show (the one turned up, those that replaced it)
    fields[_HELD] = held
    zones.hold_for_judgement(top[0])
    try:
        live = _announce(ctx, decl, fields)
    finally:
        # the judgement ends: its cards that no effect moved (the final one, those replaced) are discarded
        zones.release_judgement(held)
    return live.get(field)


@implements("pick_hidden")
def _pick_hidden(ctx: Ctx, players: Any, prompt: Any, reveal: Any) -> list:
    g = ctx.game
    picks: list[Card] = []
    pickers: list[Player] = []
    for p in as_list(players):
        if not isinstance(p, Player) or not p.alive or not p.hand or p in pickers:
            continue
        # asked of p alone: the options are p's own hand; nothing is recorded or moved until every pick is made
        c = ask_seat(g, p, D.CHOOSE, list(p.hand), prompt or "暗中选择一张手牌", source_of(ctx, p))
        picks.append(c)
        pickers.append(p)
    if not picks:
        ctx.incomplete = True
        return picks
    if reveal:
        zones = zones_of(ctx)
        for c in picks:  # all at once: set aside face up, then shown together
            zones.move(c, STAGING)
        zones.reveal(picks)
        emit_event(g, "picks_revealed", seats=[p.seat for p in pickers], cards=[c.uid for c in picks])
    return picks
