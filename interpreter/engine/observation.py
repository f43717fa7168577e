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

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

from ..model.colors import BLACK_BIT, BLUE_BIT, RED_BIT
from .actions import card_data
from .frozen import FrozenDict
from .histories import history, project, seat_history
from .state import DECLARED_ZONE, LASTING, Card, Player, mark_record
from .views import Views

if TYPE_CHECKING:
    from .core import GameCore
    from .decisions import Decision
    from .declared_zones import DeclaredZones
    from .flow import Transit, TurnFlow
    from .seats import Seats
    from .skills import Skills
    from .zones import Zones

# The engine's Game: game.py imports this module, and no import may close a cycle, not even one for
# types (tests/test_layers.py), so it is Any here, as in the language's runtime.py. What it holds is read into
# typed locals (GameCore, Zones, TurnFlow …: compiled, a field read instead of Python's attribute lookup).
Game = Any

EMPTY: Final = FrozenDict()
_KNOWERS: Final = attrgetter("knowers")


def _face(views: Views, c: Card) -> FrozenDict:
    """``card_data(c)``, made once per card: what a card prints (its type, colours, direction, lock and per-copy data)
    is set when the deck is made and never changes, so its face is shared by every observation — of every game dealt
    the same deck (Zones.load_deck hands over its content set's faces: ContentIndex.deck_faces)."""
    faces = views.faces
    face = faces.get(c.uid)
    if face is None:
        face = faces[c.uid] = card_data(c)
    return face


def _faces(views: Views, cards: list[Card] | tuple[Card, ...]) -> tuple[FrozenDict, ...]:
    """The cards' faces (_face), looked up in one walk."""
    faces = views.faces
    return tuple([faces.get(c.uid) or _face(views, c) for c in cards])


def _removed_face_up(views: Views, zones: Zones, removed: list[Card]) -> tuple[FrozenDict, ...]:
    """The faces of the cards removed face up (public), shared by every seat and grown as cards are removed: a
    removed card is face up or down from its removal until it leaves (Zones.unremoved), so while none left only the
    cards removed since are walked."""
    stamp = zones.unremoved
    kept = views.removed_up
    if kept is not None and kept[0] == stamp and kept[1] is removed:
        same: tuple[FrozenDict, ...] = kept[3]
        done: int = kept[2]
        if len(removed) == done:
            return same
        new = [c for c in removed[done:] if not c.face_down]
        if new:
            same += _faces(views, new)
        views.removed_up = (stamp, removed, len(removed), same)
        return same
    made = _faces(views, [c for c in removed if not c.face_down])
    views.removed_up = (stamp, removed, len(removed), made)
    return made


def _pile(views: Views, zones: Zones, name: str, cards: list[Card]) -> tuple[FrozenDict, ...]:
    """The faces of a pile every seat sees face up (the discard pile, the staging area): the same tuple while the
    pile holds the same cards in the same order, shared by every seat's observation. A pile changes only as a
    card moves (Zones.moves) or as it is made anew (another list): while neither happened, it is the same."""
    if not cards:
        return ()
    stamp = (zones.moves, id(cards), len(cards))
    piles = views.piles
    kept: tuple[Any, ...] | None = piles.get(name)
    if kept is not None and kept[0] == stamp:
        faces: tuple[FrozenDict, ...] = kept[2]
        return faces
    now = tuple(cards)
    faces = kept[2] if kept is not None and kept[1] == now else _faces(views, now)
    piles[name] = (stamp, now, faces)
    return faces


def _sees(zones: Zones, c: Card, seat: int | None) -> bool:
    """May `seat` see the card's face now (None: a spectator, who sees only what is face up for everyone)?"""
    return bool(zones.card_public(c) if seat is None else zones.card_visible(c, seat))


def _in_use(views: Views, zones: Zones, c: Card, seat: int | None) -> FrozenDict:
    """A card used (in use, or removed after a face-down use): its face if the seat may see it, else only
    what it was used as (which is public). Made once per card and what it was used as, shared."""
    used_as = c.used_as.id if c.used_as is not None else c.type.id
    seen = _sees(zones, c, seat)
    made = views.in_use
    face = made.get((c.uid, seen, used_as))
    if face is None:
        face = made[(c.uid, seen, used_as)] = FrozenDict(
            {**_face(views, c), "used_as": used_as} if seen else {"id": None, "used_as": used_as}
        )
    return face


def _in_use_all(views: Views, zones: Zones, used: list[Card], seat: int | None) -> tuple[FrozenDict, ...]:
    """The cards in use as `seat` sees them (_in_use). (A function of its own: a comprehension in observe that read
    its locals would make them cells of observe at each call, and every read of them there an indirect one.)"""
    return tuple([_in_use(views, zones, c, seat) for c in used])


def _removed_face_down(views: Views, zones: Zones, seat: int | None, removed: list[Card]) -> tuple[FrozenDict, ...]:
    """The cards removed after a face-down use, as `seat` sees them (_in_use), kept per seat and grown as cards are
    removed; they pile up over a game (every card used face down, a probe's copy among them). What a seat sees of a
    removed card (who follows it, whether it is face down, what it was used as) changes only as it moves out (then
    it leaves the list: Zones.unremoved) or is shown (Zones.sightings): while neither happened, the cards walked
    before are the first ones, and only those removed since are walked."""
    stamp = (zones.sightings, zones.unremoved)
    kept = views.removed.get(seat)
    if kept is not None and kept[0] == stamp and kept[1] is removed:
        same: tuple[FrozenDict, ...] = kept[3]
        done: int = kept[2]
        if len(removed) == done:
            return same
        new = [_in_use(views, zones, c, seat) for c in removed[done:] if c.face_down]
        if new:
            same += tuple(new)
        views.removed[seat] = (stamp, removed, len(removed), same)
        return same
    made = tuple([_in_use(views, zones, c, seat) for c in removed if c.face_down])
    views.removed[seat] = (stamp, removed, len(removed), made)
    return made


def _known(views: Views, zones: Zones, players: list[Player], seat: int, me: Player | None) -> tuple[FrozenDict, ...]:
    """The hidden cards `seat` follows outside its own hand and the pending intel: a card out of sight of some
    seat is in a hand or the deck (every other zone is face up, or its own field: the pending intel, cards in
    use, removed ones, declared zones), listed in the order of Zones.cards; each entry made once and shared, the
    seat's list kept while no card has moved and none was shown nor the deck shuffled (a hand card or a deck card
    changes who follows it, or its place, only so: Zones.moves and Zones.sightings), and while it finds the same
    cards in the same places."""
    kept = views.known_of.get(seat)
    stamp = (zones.moves, zones.sightings)
    if kept is not None and kept[2] == stamp:
        unchanged: tuple[FrozenDict, ...] = kept[1]
        return unchanged
    # (card, where): the seat whose hand holds it, or -1 - its depth in the deck (depth 0: the top card)
    found = [(c, p.seat) for p in players if p is not me for c in p.hand if c.knowers >> seat & 1]
    deck = zones.deck
    # Does any deck card have a follower (seldom: a card put back on the deck, or looked at there)? Found again only
    # when a card was put into the deck or one was shown (or the deck shuffled or made anew): cards drawn from it
    # follow no one new.
    followed = views.deck_followed
    deck_stamp = (zones.sightings, zones.decked)
    if followed is None or followed[0] != deck_stamp or followed[1] is not deck:
        followed = views.deck_followed = (deck_stamp, deck, any(map(_KNOWERS, deck)))
    if followed[2]:
        top = len(deck) - 1
        found += [(c, i - top - 1) for i, c in enumerate(deck) if c.knowers >> seat & 1]
    if not found:
        views.known_of[seat] = (found, (), stamp)
        return ()
    if kept is not None and kept[0] == found:
        same: tuple[FrozenDict, ...] = kept[1]
        views.known_of[seat] = (found, same, stamp)
        return same
    ordered = found
    if len(found) > 1:
        cards = zones.cards
        order = views.order
        if views.ordered != len(cards) or order.get(id(cards[0])) != 0:
            order.clear()
            order.update({id(c): i for i, c in enumerate(cards)})
            views.ordered = len(cards)
        ordered = sorted(found, key=lambda cw: order[id(cw[0])])
    entries = views.known
    out = []
    for c, where in ordered:
        entry = entries.get((c.uid, where))
        if entry is None:
            fields = {
                "card": _face(views, c),
                "zone": "hand" if where >= 0 else "deck",
                "seat": where if where >= 0 else None,
            }
            if where < 0:
                fields["depth"] = -1 - where
            entry = entries[(c.uid, where)] = FrozenDict(fields)
        out.append(entry)
    made = tuple(out)
    views.known_of[seat] = (found, made, stamp)
    return made


def _zones_seen(
    views: Views, zones: Zones, declared: DeclaredZones, seat: int | None, owner: Player | None
) -> FrozenDict:
    """The declared zones of `owner` (a player; None: the shared ones) as `seat` sees them: by name, each card that
    comes out first first, its face if the seat may see it, else None (only how many there are)."""
    out = {}
    for zone, decl in enumerate(declared.zone_decls, DECLARED_ZONE):
        if (decl.per == "shared") == (owner is None):
            cards = declared.zone_cards(zone, owner)
            out[decl.name] = tuple(_face(views, c) if _sees(zones, c, seat) else None for c in cards)
    return FrozenDict(out)


# The observation's fields, in the order an observation holds them (docs/observation.md, section 2); `zones` only when
# the rules declare zones. An agent may ask for some of them only (Agent.observation_fields): it gets those, in
# this order.
FIELDS: Final = (
    "seat",
    "players",
    "turn",
    "phase",
    "current",
    "dying",
    "transit",
    "in_use",
    "deck_count",
    "discard",
    "removed",
    "removed_face_down",
    "staging",
    "role_pile_count",
    "removed_roles",
    "removed_identities",
    "me",
    "known_cards",
    "known_identities",
    "history",
    "decision",
    "result",
    "zones",
)
_EVERY: Final = frozenset(FIELDS)
# the sets of fields asked for so far, each checked once (a few in a process: one per kind of agent)
_CHECKED: Final[set[frozenset[str]]] = set()


def _check(fields: frozenset[str]) -> None:
    """Refuse a name that is no field (ValueError: an agent that declares a field it misspelt would read a missing
    key); each set once."""
    unknown = sorted(fields.difference(FIELDS))
    if unknown:
        raise ValueError(f"no such observation field: {', '.join(unknown)} (fields: {', '.join(FIELDS)})")
    _CHECKED.add(fields)


def observe(
    game: Game, seat: int | None, decision: Decision | None = None, fields: frozenset[str] | None = None
) -> FrozenDict:
    """What `seat` may know now; `seat` None: a spectator — what a seat with no hand, no identity, no role and no
    card it followed would know (only what is public: the fields below with nothing of a seat's own).

    `fields`: only these fields (of FIELDS; another name is refused), in the same order and with the same values as
    in the whole observation; the others are not made (None: every field). A subset of the same data: what the seat
    may know does not depend on it."""
    g: GameCore = game
    # (read from their owners: see ARCHITECTURE.md; typed, so that compiled code reads their fields directly)
    zones: Zones = game.zones
    declared: DeclaredZones = game.declared_zones
    flow: TurnFlow = game.flow
    skills: Skills = game.skills
    seats: Seats = game.seats
    views = g.views
    everyone = g.players
    me = everyone[seat] if seat is not None else None
    turn = g.turn_no
    any_declared = bool(zones.zone_decls)
    # Only the fields asked for are made (`fields` None: all of them), in FIELDS' order.
    if fields is not None and fields not in _CHECKED:
        _check(fields)
    # (one set test a field, the whole observation's set standing for None: a field's test was two before)
    want = _EVERY if fields is None else fields
    obs: dict[str, Any] = {}
    if "seat" in want:
        obs["seat"] = seat
    if "players" in want:
        obs["players"] = _rows(views, zones, declared, everyone, seat, me, turn, any_declared, skills.rule_ids)
    if "turn" in want:
        obs["turn"] = turn
    if "phase" in want:
        obs["phase"] = g.phase
    if "current" in want:
        obs["current"] = g.current.seat if g.current is not None else None
    if "dying" in want:
        obs["dying"] = seats.dying_player.seat if seats.dying_player is not None else None
    if "transit" in want:
        t = flow.transit
        obs["transit"] = _transit(views, zones, flow, t, seat) if t is not None else None
    if "in_use" in want:
        used = zones.processing
        obs["in_use"] = _in_use_all(views, zones, used, seat) if used else ()
    if "deck_count" in want:
        obs["deck_count"] = len(zones.deck)
    if "discard" in want:
        obs["discard"] = _pile(views, zones, "discard", zones.discard_pile)
    removed = zones.removed
    if "removed" in want:
        obs["removed"] = _removed_face_up(views, zones, removed) if removed else ()
    if "removed_face_down" in want:
        obs["removed_face_down"] = _removed_face_down(views, zones, seat, removed) if removed else ()
    if "staging" in want:
        obs["staging"] = _pile(views, zones, "staging", zones.staging)
    if "role_pile_count" in want:
        obs["role_pile_count"] = len(skills.role_pile)
    if "removed_roles" in want:
        obs["removed_roles"] = tuple([r.id for r in skills.removed_roles]) if skills.removed_roles else ()
    if "removed_identities" in want:
        obs["removed_identities"] = len(skills.removed_identities)
    if "me" in want:
        obs["me"] = _mine(views, skills, seat, me)
    if "known_cards" in want:
        obs["known_cards"] = _known(views, zones, everyone, seat, me) if seat is not None else ()
    if "known_identities" in want:
        obs["known_identities"] = (
            FrozenDict({str(s): ident.id for s, ident in sorted(me.known_identities.items())})
            if me is not None and me.known_identities
            else EMPTY
        )
    if "history" in want:
        obs["history"] = seat_history(views, g.log, seat)
    if "decision" in want:
        if decision is not None and decision.seat == seat:
            # made once per game for what it shows, shared (read-only) by every observation of a decision alike:
            # most decisions are alike (a play window, a send), and a key of six fields costs less than the dict
            d = decision
            asked = (d.kind, d.prompt, d.source, d.asker, d.skill, d.answering)
            shown = views.decisions.get(asked)
            if shown is None:
                kind, prompt, source, asker, skill, answering = asked
                shown = views.decisions[asked] = FrozenDict(
                    {
                        "kind": kind,
                        "prompt": prompt,
                        "source": source,
                        "asker": asker,
                        "skill": skill,
                        # (at `respond`: the use answered, then what it answers; each public, its card_used record's)
                        "answering": tuple([FrozenDict({"seat": u, "card": c, "target": t}) for u, c, t in answering])
                        if answering is not None
                        else None,
                    }
                )
            obs["decision"] = shown
        else:
            obs["decision"] = None
    if "result" in want:
        r = g.result
        obs["result"] = (
            FrozenDict({"winners": tuple(p.seat for p in r.winners), "reason": r.reason}) if r is not None else None
        )
    if any_declared and "zones" in want:
        obs["zones"] = _zones_seen(views, zones, declared, seat, None)
    return FrozenDict(obs)


def _rows(
    views: Views,
    zones: Zones,
    declared: DeclaredZones,
    everyone: list[Player],
    seat: int | None,
    me: Player | None,
    turn: int,
    any_declared: bool,
    rule_ids: frozenset[str],
) -> tuple[FrozenDict, ...]:
    """The players' rows as `seat` sees them (docs/observation.md, "players"). `rule_ids`: the rules' skills, which
    every seat holds whatever its role (their states are no secret of a face-down role)."""
    players = []
    seen_rows, own_rows = views.seen_rows, views.own_rows
    for p in everyone:
        # A row with none of the extra fields below is kept while the player's version is the same (Player.version:
        # the owners' operations count every change of what it shows), in the same turn if it has statuses (they
        # end with a turn): one for the player's own seat, one shared by every other seat and the spectators (what
        # a row shows of a player differs only between his own seat and the others: his face-down role, secret
        # statuses and marks are his alone; the declared zones, which differ by seat, are never kept). (The check
        # in as few steps as it takes: it runs for every player at every observation, and most rows are kept.)
        stamp = p.version if not p.statuses else (p.version, turn)
        kept = seen_rows[p.seat] if p is not me else own_rows[p.seat]
        if kept is not None and kept[0] == stamp:
            players.append(kept[1])
            continue
        statuses = _statuses(p, me, turn) if p.statuses else ()
        role = p.role.id if p.role is not None and (p.role_shown or p is me) else None
        row = {
            "seat": p.seat,
            "alive": p.alive,
            "out": p.out,
            "dying": p.dying,
            "hand_count": len(p.hand),
            "intel": _intel(views, p),
            "intel_counts": FrozenDict(
                {"red": p.counts[RED_BIT], "blue": p.counts[BLUE_BIT], "black": p.counts[BLACK_BIT]}
            ),
            "role": role,
            "role_face_up": p.role_face_up,
            "has_identity": p.identity is not None,
            "statuses": statuses,
        }
        plain = not any_declared  # (the declared zones' cards are not counted in the version: not kept)
        if p.marks:  # marks kept for the game (keep_mark, add_mark): public ones, and one's own secret ones
            marks = _marks(p, me)
            if marks:
                row["marks"] = FrozenDict(marks)
                plain = False
        if any_declared:  # the zones the rules declare, each player's
            row["zones"] = _zones_seen(views, zones, declared, seat, p)
        if p.lost_skills or p.yin:  # skills not had, 转换技 in their 阴 state: a role's where the role is seen, the
            # rules' skills everywhere (their changes are told to everyone: Skills.change_skill)
            shown = _skills(p, None if role is not None else rule_ids)
            if shown:
                row["skills"] = shown
                plain = False
        frozen = FrozenDict(row)
        if plain:
            (own_rows if p is me else seen_rows)[p.seat] = (stamp, frozen)
        players.append(frozen)
    return tuple(players)


# (A row's comprehensions are functions of their own: a comprehension in _rows that read its player would make him, and
# every name it reads, a cell of _rows at each call, each read of them an indirect one.)
def _statuses(p: Player, me: Player | None, turn: int) -> tuple[str, ...]:
    """A row's statuses: those lasting into this turn, a secret one in its own seat's row only, sorted."""
    own, hidden = p is me, p.secret_statuses
    return tuple(sorted([name for name, until in p.statuses.items() if until >= turn and (own or name not in hidden)]))


def _marks(p: Player, me: Player | None) -> dict[str, Any]:
    """A row's marks: those kept for the game, public ones and (in its own seat's row) secret ones."""
    return {k: mark_record(v) for k, (t, v) in sorted(p.marks.items()) if t == LASTING or (t < 0 and p is me)}


def _skills(p: Player, only: frozenset[str] | None = None) -> FrozenDict:
    """A row's skills: those not had (lost) and the 转换技 in their 阴 state (of the skills `only`, if given)."""
    ids = p.lost_skills | p.yin
    if only is not None:
        ids &= only
    return FrozenDict({sid: "lost" if sid in p.lost_skills else "yin" for sid in sorted(ids)})


def _transit(views: Views, zones: Zones, flow: TurnFlow, t: Transit, seat: int | None) -> FrozenDict:
    """The intel sent this turn as `seat` sees it (docs/observation.md, "transit"): the same one, for every seat that
    sees the card as this seat does, while what it is made from is the same (its fields change as the intel travels,
    far less often than seats observe it)."""
    card = zones.pending
    seen = card is not None and _sees(zones, card, seat)
    used_as = card.used_as if card is not None else None
    parts = (t.sender, t.direction, t.target, t.lock, flow.holder, card, zones.pending_face_up, used_as)
    kept = views.transit[1 if seen else 0]
    if kept is not None and kept[0] == parts:
        same: FrozenDict = kept[1]
        return same
    made = FrozenDict(
        {
            "sender": t.sender.seat,
            "direction": t.direction,
            "target": t.target.seat if t.target is not None else None,
            "lock": t.lock.seat if t.lock is not None else None,
            "holder": flow.holder.seat if flow.holder is not None else None,
            "pending": card is not None,
            "face_up": bool(card is not None and zones.pending_face_up),
            "card": _face(views, card) if card is not None and seen else None,
            # a face-down intel everyone saw being put there as a used card: its card type, not the copy
            "known_as": used_as.id if used_as is not None else None,
        }
    )
    views.transit[1 if seen else 0] = (parts, made)
    return made


def _mine(views: Views, skills: Skills, seat: int | None, me: Player | None) -> FrozenDict:
    """The seat's own secrets (``me``), made again only when what it shows changed (kept per seat): its identity and
    task, role, the roles dealt to it, the identities taken from it, its hand — each changed only by an operation
    that counts in its Player.version (a re-deal clears what was kept). The version counts his row's changes too, and
    his hand changes most: with the rest the same objects, the kept one is handed over again or copied with the new
    hand, not made field by field (about 45% of observations find the version changed)."""
    key = me.version if me is not None else -1
    kept = views.mine.get(seat)
    if kept is not None and kept[0] == key:
        mine: FrozenDict = kept[1]
        return mine
    if me is None:  # (a spectator: nothing of its own)
        nothing = {"identity": None, "task": None, "role": None, "dealt_roles": (), "former_identities": (), "hand": ()}
        mine = FrozenDict(nothing)
        views.mine[seat] = (key, mine, None)
        return mine
    hand = _hand(views, seat, me)
    former = _former(skills, seat) if skills.removed_identities else ()
    parts = (me.identity, me.task, me.role, me.dealt_roles, former)
    if kept is not None and kept[2] == parts:  # only the hand may have changed ("hand" is its last field)
        was: FrozenDict = kept[1]
        mine = was if was["hand"] is hand else FrozenDict({**was, "hand": hand})
    else:
        mine = FrozenDict(
            {
                "identity": me.identity.id if me.identity is not None else None,
                "task": me.task.id if me.task is not None else None,
                "role": me.role.id if me.role is not None else None,
                "dealt_roles": tuple([r.id for r in me.dealt_roles]),
                "former_identities": former,
                "hand": hand,
            }
        )
    views.mine[seat] = (key, mine, parts)
    return mine


def _former(skills: Skills, seat: int | None) -> tuple[str, ...]:
    """The seat's own identity cards that left the game face down (a function of its own: see _in_use_all)."""
    return tuple([i.id for i, _t, s in skills.removed_identities if s == seat])


def _intel(views: Views, p: Player) -> tuple[FrozenDict, ...]:
    """The faces of a player's intel area, the same tuple (for every seat) while it holds the same cards."""
    if not p.intel:
        return ()
    cards = tuple(p.intel)
    kept = views.intel.get(p.seat)
    if kept is not None and kept[0] == cards:
        faces: tuple[FrozenDict, ...] = kept[1]
        return faces
    faces = _faces(views, cards)
    views.intel[p.seat] = (cards, faces)
    return faces


def _hand(views: Views, seat: int | None, me: Player) -> tuple[FrozenDict, ...]:
    """The faces of the seat's hand, the same tuple while it holds the same cards in the same order."""
    hand = tuple(me.hand)
    hands = views.hands
    kept = hands.get(seat)
    if kept is not None and kept[0] == hand:
        faces: tuple[FrozenDict, ...] = kept[1]
        return faces
    faces = _faces(views, hand)
    hands[seat] = (hand, faces)
    return faces


__all__ = ["EMPTY", "FIELDS", "Views", "observe", "project", "history"]
