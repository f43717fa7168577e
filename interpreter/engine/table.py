"""Build a game in a chosen mid-game state: the basis of rule tests and scenario files.

A table spec says, per seat, the identity (and secret task), hand and intel
(by deck id), who is alive; the cards on top of the deck in order; the
current player. Every other card of the content's full deck goes to the deck
below them, in a seeded order. Then :func:`start` runs the game from a phase.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .flow import Transit
from .game import Game
from .state import DECK, HAND, INTEL, PENDING, Card

if TYPE_CHECKING:
    from ..model.content import Content


class TableError(ValueError):
    """The spec asks for something impossible (an unknown card, a card used twice …)."""


def build(
    content: Content,
    seats: list[dict[str, Any]],  # per seat, plain data as a scenario file gives it: identity, task, hand, intel, alive
    agents: Any,  # one per seat, as Game takes them (agents are a layer above the engine: not imported here)
    deck_top: Iterable[int] = (),
    current: int = 0,
    seed: int = 0,
    record: bool = True,
    deck: str | None = None,
) -> Game:
    n = len(seats)
    g = Game(content, n, seed, agents, record=record)
    zones = g.zones
    entries = content.deck if deck is None else [e for e in content.deck if e.uid in set(content.decks[deck])]
    zones.load(entries)  # every card in the deck, then placed from there
    by_uid = zones.by_uid
    free = dict(by_uid)

    def take(uid: int) -> Card:
        if uid not in by_uid:
            raise TableError(f"card #{uid} is not in the deck")
        if uid not in free:
            raise TableError(f"card #{uid} is placed twice")
        return free.pop(uid)

    for p, spec in zip(g.players, seats, strict=True):
        ident = spec.get("identity")
        if ident not in content.identities:
            raise TableError(f"seat {p.seat}: unknown identity {ident!r}")
        task = spec.get("task")
        if task is not None and task not in content.tasks:
            raise TableError(f"seat {p.seat}: unknown secret task {task!r}")
        g.skills.give_identity(p, content.identities[ident], content.tasks[task] if task is not None else None)
        for uid in spec.get("hand", []):
            zones.move(take(uid), HAND, p)  # a hand is seen by its owner only
        for uid in spec.get("intel", []):
            zones.move(take(uid), INTEL, p)
        if spec.get("alive", True) is False:
            g.seats.place_dead(p)
    top = [take(uid) for uid in deck_top]
    zones.shuffle_deck(top)  # the rest below, in a seeded order
    g.current = g.players[current]
    g.turn_no = 1
    return g


def put_pending(g: Game, uid: int, sender: int, holder: int, face_up: bool = False, lock: int | None = None) -> Card:
    """Place an intel in transit, as if `sender` had sent it and `holder` accepted it."""
    card = g.by_uid.get(uid)
    if card is None:
        raise TableError(f"card #{uid} is not in the deck")
    if card.zone != DECK:
        raise TableError(f"card #{uid} is already placed")
    g.zones.move(card, PENDING)
    g.zones.show_to(card, sender)  # a face-down intel is seen by its sender only
    g.zones.set_pending_face(face_up)
    transit = Transit(
        card, g.players[sender], card.direction, None, g.players[lock] if lock is not None else None, face_up
    )
    g.flow.put_in_transit(transit, g.players[holder])
    return card


def put_role_pile(g: Game, role_ids: Sequence[str]) -> None:
    """Make the role pile (角色牌堆) exactly these roles, top first; a role a player holds cannot be in it."""
    roles = g.content.roles
    held = {p.role.id for p in g.players if p.role is not None}
    seen: set[str] = set()
    for rid in role_ids:
        if rid not in roles:
            raise TableError(f"role pile: unknown role {rid!r}")
        if rid in seen:
            raise TableError(f"role pile: role {rid!r} is listed twice")
        if rid in held:
            raise TableError(f"role pile: role {rid!r} is already a player's role")
        seen.add(rid)
    g.skills.set_role_pile([roles[rid] for rid in reversed(role_ids)])  # the end of the list is the top


def card(g: Game, uid: int) -> Card:
    if uid not in g.by_uid:
        raise TableError(f"card #{uid} is not in the game")
    return g.by_uid[uid]
