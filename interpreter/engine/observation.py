"""One seat's observation: everything that seat may know, as plain read-only data.

``observe(game, seat)`` reads the engine's state and copies out what the rules
let that seat see — nothing else, and no engine object. The fields are
documented one by one in docs/observation.md and checked against
schema/observation.schema.json by the tests.

What a seat may know of a card follows ``Card.knowers`` (kept by
``Zones.move``): a card face up on the table is public; a card in a hand,
the deck or face down somewhere is shown only to the seats that can still
follow it. The public history is the game log with every record a seat may not
read left out, and every field it may not read blanked (``None``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model.colors import BLACK_BIT, BLUE_BIT, RED_BIT
from .actions import card_data
from .frozen import FrozenDict, freeze
from .state import DECK, DECLARED_ZONE, HAND, LASTING, PENDING, PROCESSING, REMOVED, ZONE_NAMES, Card, mark_record

if TYPE_CHECKING:
    from .decisions import Decision

# The engine's Game: game.py imports this module, and no import may close a cycle, not even one for
# types (tests/test_layers.py), so it is Any here, as in the language's runtime.py.
Game = Any
# A record of the game log: plain JSON data, its fields by kind of event (catalogue.EVENTS).
Record = dict[str, Any]

# Log keys that only describe visibility; a seat's copy of a record does not carry them.
_META = ("to", "secret")


def project(record: Record, seat: int | None) -> Record | None:
    """A log record as `seat` may read it (None: a spectator), or None if it may not read it at all."""
    to = record.get("to")
    if to is not None and (seat is None or seat not in to):
        return None
    secret = record.get("secret")
    out = {k: v for k, v in record.items() if k not in _META}
    if secret:
        for f, seats in secret.items():
            if seat is None or seat not in seats:
                out[f] = None
    return out


def history(game: Game, seat: int | None) -> tuple[FrozenDict, ...]:
    """The game's log as `seat` saw it (frozen records), kept incrementally per seat: each call appends what was
    logged since the last and returns one tuple (the same one while nothing new was logged); a record every seat
    may read whole is frozen once and shared by every seat's copy (read-only, so sharing it tells nothing)."""
    cache = game.seat_logs
    records: tuple[FrozenDict, ...]
    done, records = cache.get(seat, (0, ()))
    log = game.log
    if done == len(log):
        return records  # nothing new: the same tuple as last time
    new = []
    shared = game.public_records
    for i in range(done, len(log)):
        rec = log[i]
        if rec.get("to") is None and not rec.get("secret"):  # every seat reads it whole: one frozen copy for all
            v = shared.get(i)
            if v is None:
                v = shared[i] = freeze({k: x for k, x in rec.items() if k not in _META})
            new.append(v)
            continue
        to = rec.get("to")
        if to is not None and (seat is None or seat not in to):
            continue
        secret = rec.get("secret")  # seats that are kept from the same fields read the same copy
        hidden = tuple(f for f, seats in secret.items() if seat is None or seat not in seats) if secret else ()
        v = shared.get((i, hidden))
        if v is None:
            v = shared[(i, hidden)] = freeze(project(rec, seat))
        new.append(v)
    if new:
        records += tuple(new)
    cache[seat] = (len(log), records)
    return records


def _kept(g: Game, c: Card) -> tuple[Any, ...]:
    """The card's entry in ``g.faces``: (card, its face, {(seen, used as): its face in use}). What a card prints (its
    type, colours, direction, lock and per-copy data) is set when the deck is made and never changes, so its face
    is made once and shared by every observation of the game."""
    kept: tuple[Any, ...] | None = g.faces.get(c.uid)
    if kept is None or kept[0] is not c:
        kept = g.faces[c.uid] = (c, card_data(c), {})
    return kept


def _face(g: Game, c: Card) -> FrozenDict:
    """``card_data(c)``, made once per card (see _kept)."""
    face: FrozenDict = _kept(g, c)[1]
    return face


def _pile(g: Game, name: str, cards: Any) -> tuple[FrozenDict, ...]:
    """The faces of a pile every seat sees face up (the discard pile, the removed cards, the staging area): the
    same tuple while the pile holds the same cards in the same order, shared by every seat's observation."""
    now = tuple(cards)
    kept: tuple[Any, ...] | None = g.piles.get(name)
    if kept is not None and kept[0] == now:
        faces: tuple[FrozenDict, ...] = kept[1]
        return faces
    faces = tuple(_face(g, c) for c in now)
    g.piles[name] = (now, faces)
    return faces


def _sees(g: Game, c: Card, seat: int | None) -> bool:
    """May `seat` see the card's face now (None: a spectator, who sees only what is face up for everyone)?"""
    return bool(g.card_public(c) if seat is None else g.card_visible(c, seat))


def _in_use(g: Game, c: Card, seat: int | None) -> FrozenDict:
    """A card used (in use, or removed after a face-down use): its face if the seat may see it, else only
    what it was used as (which is public). Made once per card and what it was used as (see _kept)."""
    used_as = c.used_as.id if c.used_as is not None else c.type.id
    seen = _sees(g, c, seat)
    made = _kept(g, c)[2]
    face: FrozenDict | None = made.get((seen, used_as))
    if face is None:
        face = made[(seen, used_as)] = FrozenDict(
            {**_face(g, c), "used_as": used_as} if seen else {"id": None, "used_as": used_as}
        )
    return face


def _zones_seen(g: Game, seat: int | None, owner: Any) -> FrozenDict:
    """The declared zones of `owner` (a player; None: the shared ones) as `seat` sees them: by name, each card that
    comes out first first, its face if the seat may see it, else None (only how many there are)."""
    zones = g.zones
    out = {}
    for zone, decl in enumerate(zones.zone_decls, DECLARED_ZONE):
        if (decl.per == "shared") == (owner is None):
            cards = zones.zone_cards(zone, owner)
            out[decl.name] = tuple(_face(g, c) if _sees(g, c, seat) else None for c in cards)
    return FrozenDict(out)


def observe(game: Game, seat: int | None, decision: Decision | None = None) -> FrozenDict:
    """What `seat` may know now; `seat` None: a spectator — what a seat with no hand, no identity, no role and no
    card it followed would know (only what is public: the fields below with nothing of a seat's own)."""
    g = game
    zones, flow, skills = g.zones, g.flow, g.skills  # (read from their owners: see ARCHITECTURE.md)
    me = g.players[seat] if seat is not None else None
    turn = g.turn_no
    declared_zones = bool(zones.zone_decls)
    players = []
    rows = g.rows
    for p in g.players:
        statuses = (
            tuple(
                sorted(
                    name
                    for name, until in p.statuses.items()
                    if until >= turn and (p is me or name not in p.secret_statuses)
                )
            )
            if p.statuses
            else ()
        )
        role = p.role.id if p.role is not None and (p.role_shown or p is me) else None
        # A row with nothing but the fields below is kept (per seat seeing it) while they are the same.
        plain = not p.marks and not declared_zones and not ((p.lost_skills or p.yin) and role is not None)
        if plain:
            counts = p.counts
            key = (
                p.alive,
                p.out,
                p.dying,
                len(p.hand),
                tuple(p.intel),
                counts[RED_BIT],
                counts[BLUE_BIT],
                counts[BLACK_BIT],
                role,
                p.role_face_up,
                p.identity is not None,
                statuses,
            )
            kept: tuple[Any, ...] | None = rows.get((seat, p.seat))
            if kept is not None and kept[0] == key:
                players.append(kept[1])
                continue
        row = {
            "seat": p.seat,
            "alive": p.alive,
            "out": p.out,
            "dying": p.dying,
            "hand_count": len(p.hand),
            "intel": tuple(_face(g, c) for c in p.intel),
            "intel_counts": FrozenDict(
                {"red": p.counts[RED_BIT], "blue": p.counts[BLUE_BIT], "black": p.counts[BLACK_BIT]}
            ),
            "role": role,
            "role_face_up": p.role_face_up,
            "has_identity": p.identity is not None,
            "statuses": statuses,
        }
        if p.marks:  # marks kept for the game (keep_mark, add_mark): public ones, and one's own secret ones
            marks = {k: mark_record(v) for k, (t, v) in sorted(p.marks.items()) if t == LASTING or (t < 0 and p is me)}
            if marks:
                row["marks"] = FrozenDict(marks)
        if declared_zones:  # the zones the rules declare, each player's
            row["zones"] = _zones_seen(g, seat, p)
        if (p.lost_skills or p.yin) and role is not None:  # skills not had, 转换技 in their 阴 state
            row["skills"] = FrozenDict(
                {sid: "lost" if sid in p.lost_skills else "yin" for sid in sorted(p.lost_skills | p.yin)}
            )
        frozen = FrozenDict(row)
        if plain:
            rows[(seat, p.seat)] = (key, frozen)
        players.append(frozen)
    transit = None
    t = flow.transit
    if t is not None:
        card = zones.pending
        transit = FrozenDict(
            {
                "sender": t.sender.seat,
                "direction": t.direction,
                "target": t.target.seat if t.target is not None else None,
                "lock": t.lock.seat if t.lock is not None else None,
                "holder": flow.holder.seat if flow.holder is not None else None,
                "pending": card is not None,
                "face_up": bool(card is not None and zones.pending_face_up),
                "card": _face(g, card) if card is not None and _sees(g, card, seat) else None,
                # a face-down intel everyone saw being put there as a used card: its card type, not the copy
                "known_as": card.used_as.id if card is not None and card.used_as is not None else None,
            }
        )
    known = []
    for c in zones.cards if seat is not None else ():
        z = c.zone
        if not (c.knowers >> seat & 1):
            continue
        if (z == HAND and c.owner is me) or z in (PENDING, PROCESSING, REMOVED) or z >= DECLARED_ZONE:
            continue  # one's own hand, the pending intel, cards in use, removed ones, declared zones: own fields
        if g.card_public(c):
            continue
        where = {"card": _face(g, c), "zone": ZONE_NAMES[z], "seat": c.owner.seat if c.owner is not None else None}
        if z == DECK:
            where["depth"] = len(zones.deck) - 1 - zones.deck.index(c)  # 0: the top card
        known.append(FrozenDict(where))
    in_use = tuple(_in_use(g, c, seat) for c in zones.processing)
    mine = FrozenDict(
        {
            "identity": me.identity.id if me is not None and me.identity is not None else None,
            "task": me.task.id if me is not None and me.task is not None else None,
            "role": me.role.id if me is not None and me.role is not None else None,
            "dealt_roles": tuple(r.id for r in me.dealt_roles) if me is not None else (),
            "former_identities": tuple(i.id for i, _t, s in skills.removed_identities if s == seat),
            "hand": tuple(_face(g, c) for c in me.hand) if me is not None else (),
        }
    )
    result = None
    if g.result is not None:
        result = FrozenDict({"winners": tuple(p.seat for p in g.result.winners), "reason": g.result.reason})
    obs = {
        "seat": seat,
        "players": tuple(players),
        "turn": turn,
        "phase": g.phase,
        "current": g.current.seat if g.current is not None else None,
        "dying": g.seats.dying_player.seat if g.seats.dying_player is not None else None,
        "transit": transit,
        "in_use": in_use,
        "deck_count": len(zones.deck),
        "discard": _pile(g, "discard", zones.discard_pile),
        "removed": _pile(g, "removed", [c for c in zones.removed if not c.face_down]),
        "removed_face_down": tuple(_in_use(g, c, seat) for c in zones.removed if c.face_down),
        "staging": _pile(g, "staging", zones.staging),
        "role_pile_count": len(skills.role_pile),
        "removed_roles": tuple(r.id for r in skills.removed_roles),
        "removed_identities": len(skills.removed_identities),
        "me": mine,
        "known_cards": tuple(known),
        "known_identities": FrozenDict(
            {str(s): ident.id for s, ident in sorted(me.known_identities.items())} if me is not None else {}
        ),
        "history": history(g, seat),
        "decision": None,
        "result": result,
    }
    if declared_zones:
        obs["zones"] = _zones_seen(g, seat, None)
    if decision is not None and decision.seat == seat:
        obs["decision"] = FrozenDict(
            {
                "kind": decision.kind,
                "prompt": decision.prompt,
                "source": decision.source,
                "asker": decision.asker,
                "skill": decision.skill,
            }
        )
    return FrozenDict(obs)


__all__ = ["observe", "project", "history"]
