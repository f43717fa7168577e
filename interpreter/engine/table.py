"""Build a game in a chosen mid-game state: the basis of rule tests and scenario files.

A table spec says, per seat, the identity (and secret task; ``none``: no
identity card, as after a skill took it), hand and intel (by deck id), who is
alive, statuses in force; the cards on top of the deck in order; the current
player. Every other card of the content's full deck goes to the deck
below them, in a seeded order. Then :func:`start` runs the game from a phase.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..catalogue import STATUSES
from .flow import Transit
from .game import Game
from .state import DECK, DECLARED_ZONE, HAND, INTEL, LEFT, PENDING, RIGHT, UP, Card

if TYPE_CHECKING:
    from ..model.content import Content


NO_IDENTITY = "none"  # a seat spec's identity for a player without an identity card


class TableError(ValueError):
    """The spec asks for something impossible (an unknown card, a card used twice …)."""


def build(
    content: Content,
    seats: list[
        dict[str, Any]
    ],  # per seat, plain data as a scenario file gives it: identity, task, hand, intel, alive, statuses
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
        task = spec.get("task")
        if ident == NO_IDENTITY:  # no identity card (a skill took it): no camp, no task
            if task is not None:
                raise TableError(f"seat {p.seat}: a player without an identity card has no secret task")
        elif ident not in content.identities:
            raise TableError(f"seat {p.seat}: unknown identity {ident!r}")
        elif task is not None and task not in content.tasks:
            raise TableError(f"seat {p.seat}: unknown secret task {task!r}")
        else:
            g.skills.give_identity(p, content.identities[ident], content.tasks[task] if task is not None else None)
        for uid in spec.get("hand", []):
            zones.move(take(uid), HAND, p)  # a hand is seen by its owner only
        for uid in spec.get("intel", []):
            zones.move(take(uid), INTEL, p)
        if spec.get("alive", True) is False:
            g.seats.place_dead(p)
    g.current = g.players[current]
    g.turn_no = 1
    for p, spec in zip(g.players, seats, strict=True):
        for name in spec.get("statuses", []):  # in force this turn, as if an effect had given them
            if name not in STATUSES:
                raise TableError(f"seat {p.seat}: unknown status {name!r} (known: {', '.join(STATUSES)})")
            g.seats.set_up_status(p, name)
    g.declared_zones.fill_start(keep=deck_top)  # the copies the rules' zones begin with (额外牌堆), but the stacked top
    top = [take(uid) for uid in deck_top]
    zones.shuffle_deck(top)  # the rest below, in a seeded order
    return g


def put_pending(
    g: Game,
    uid: int,
    sender: int,
    holder: int,
    face_up: bool = False,
    lock: int | None = None,
    target: int | None = None,
    direction: str | None = None,
) -> Card:
    """Place an intel in transit, as if `sender` had sent it and `holder` accepted it.

    `direction`: the way it travels (default: its arrow); `target`: whom an ↑ intel was sent to.
    """
    card = g.by_uid.get(uid)
    if card is None:
        raise TableError(f"card #{uid} is not in the deck")
    if card.zone != DECK:
        raise TableError(f"card #{uid} is already placed")
    way = card.direction if direction is None else direction
    if way not in (LEFT, RIGHT, UP):
        raise TableError(f"pending intel: direction {way!r} is not one of left, right, up")
    if way != UP and target is not None:
        raise TableError(f"pending intel: a target is given but the intel travels {way}, not up")
    g.zones.move(card, PENDING)
    g.zones.show_to(card, sender)  # a face-down intel is seen by its sender only
    g.zones.set_pending_face(face_up)
    transit = Transit(
        card,
        g.players[sender],
        way,
        g.players[target] if target is not None else None,
        g.players[lock] if lock is not None else None,
        face_up,
        lock is not None and card.lockable,  # (as if its sender locked it with its symbol)
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


def put_zone(g: Game, name: str, seat: int | None, uids: Sequence[int]) -> None:
    """Make the zone the rules declare as `name` (seat's; the table's for a shared zone, seat None) hold exactly
    these cards, listed as zone_cards lists them (the first comes out first); each must be in the deck or there
    already (a zone's `start:` cards), and those there not listed go to the bottom of the deck."""
    zones, declared = g.zones, g.declared_zones
    number = declared.zone_numbers.get(name)
    if number is None:
        raise TableError(f"the rules declare no zone {name!r}")
    decl = declared.zone_decls[number - DECLARED_ZONE]
    if (decl.per == "player") != (seat is not None):
        where = "in a seat's `zones:`" if decl.per == "player" else "in the scenario's own `zones:`"
        raise TableError(f"zone {name!r} is {'each player' if decl.per == 'player' else 'the table'}'s: set it {where}")
    if decl.capacity is not None and len(uids) > decl.capacity:
        raise TableError(f"zone {name!r} holds at most {decl.capacity} cards, {len(uids)} given")
    cards = [card(g, uid) for uid in uids]
    for c in cards:
        if c.zone != DECK and c.zone != number:
            raise TableError(f"zone {name!r}: card #{c.uid} is already placed ({zones.zone_name(c)})")
    owner = g.players[seat] if seat is not None else None
    for c in list(declared.zone_pile(number, owner)):  # cards it began with (start:) that are not listed: to the deck
        if c not in cards:
            zones.move(c, DECK, top=False)
    # the pile is kept bottom first: a stack lists its top first, a queue its bottom first
    for c in reversed(cards) if decl.order == "stack" else cards:
        zones.move(c, number, owner)


def put_usage(g: Game, seat: int, skill_id: str, times: int, phase: str) -> None:
    """Count `times` uses of a limited skill of seat's role already made (this turn or game; this phase if
    the limit is per phase, `phase` being where the turn resumes)."""
    p = g.players[seat]
    skill = next((s for s in g.content.rules.skills if s.id == skill_id), None)  # a rule skill: every seat's
    if skill is None and p.role is None:
        raise TableError(f"seat {seat}: uses of {skill_id!r} given, but the seat has no role")
    if skill is None and p.role is not None:
        skill = next((s for s in p.role.skills if s.id == skill_id), None)
    if skill is None:
        assert p.role is not None
        ids = ", ".join(s.id for s in p.role.skills)
        raise TableError(f"seat {seat}: role {p.role.id!r} has no skill {skill_id!r} (its skills: {ids})")
    if skill.limit_scope is None:
        raise TableError(f"seat {seat}: skill {skill_id!r} has no limit to count uses against")
    g.skills.set_up_usage(p, skill, times, phase)


def card(g: Game, uid: int) -> Card:
    if uid not in g.by_uid:
        raise TableError(f"card #{uid} is not in the game")
    return g.by_uid[uid]
