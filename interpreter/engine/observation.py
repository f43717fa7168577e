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
from typing import TYPE_CHECKING, Any

from ..model.colors import BLACK_BIT, BLUE_BIT, RED_BIT
from .actions import card_data
from .frozen import ATOMS as _ATOMS, FrozenDict, freeze
from .state import DECLARED_ZONE, LASTING, Card, mark_record

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


class Views:
    """What observations keep between calls, per game (``GameCore.views``): every part made once and shared, read-only,
    by every observation (of every seat that may see all of it) while it is the same. Made again from the game
    when the game is re-dealt (a sample: ``clear``)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.read = 0  # log records projected so far, for every seat at once (_read_log)
        self.histories: list[list[FrozenDict]] = [[] for _ in range(n)]  # per seat: its records so far
        self.made: dict[int | None, tuple[FrozenDict, ...]] = {}  # per seat: its history as last handed out
        self.public: tuple[int, tuple[FrozenDict, ...]] = (0, ())  # a spectator's: (records read, history)
        self.public_records: dict[Any, FrozenDict] = {}  # log index (and fields kept) -> a spectator's copy
        self.faces: dict[int, FrozenDict] = {}  # deck id -> what the card prints (card_data)
        self.in_use: dict[tuple[int, bool, str], FrozenDict] = {}  # (deck id, seen, used as) -> its face in use
        # per player: [its own row, the row every other seat and a spectator see], each (the player's version and
        # maybe the turn, the row) or None
        self.rows: list[list[tuple[Any, FrozenDict] | None]] = [[None, None] for _ in range(n)]
        self.piles: dict[str, tuple[Any, ...]] = {}  # face-up piles: (when, their cards, their faces)
        # seat -> ((Zones.sightings, Zones.unremoved), the removed list, its cards walked, its removed_face_down)
        self.removed: dict[int | None, tuple[Any, ...]] = {}
        # (Zones.unremoved, the removed list, its cards walked, the faces of those face up): _removed_face_up
        self.removed_up: tuple[int, list[Card], int, tuple[FrozenDict, ...]] | None = None
        self.known: dict[tuple[int, int], FrozenDict] = {}  # (deck id, where: _known) -> its entry
        # seat -> (found, its list, (Zones.moves, Zones.sightings) when it was found)
        self.known_of: dict[int, tuple[list[tuple[Card, int]], tuple[FrozenDict, ...], tuple[int, int]]] = {}
        self.hands: dict[int | None, tuple[tuple[Card, ...], tuple[FrozenDict, ...]]] = {}  # seat -> (its hand, faces)
        self.intel: dict[int, tuple[tuple[Card, ...], tuple[FrozenDict, ...]]] = {}  # seat -> (its intel, faces)
        self.mine: dict[int | None, tuple[int, FrozenDict]] = {}  # seat -> (its Player.version, `me`)
        # ((Zones.sightings, Zones.decked), the deck, whether a card in it may be followed by some seat): _known
        self.deck_followed: tuple[tuple[int, int], list[Card], bool] | None = None
        self.order: dict[int, int] = {}  # id(card) -> its place in Zones.cards (known cards are listed in it)
        self.ordered = 0  # how many cards `order` holds

    def clear(self) -> None:
        """Forget everything kept (the game was re-dealt: records went, cards may have other ids)."""
        self.__init__(self.n)  # type: ignore[misc]


EMPTY = FrozenDict()
_KNOWERS = attrgetter("knowers")


def _read_log(views: Views, log: list[Record]) -> None:
    """Project the records logged since the last call for every seat at once, each record frozen once per set of
    fields kept from the seats reading it: one copy for every seat that reads it whole, shared (read-only, so
    sharing it tells nothing)."""
    lists = views.histories
    seats = range(views.n)
    for i in range(views.read, len(log)):
        rec = log[i]
        to = rec.get("to")
        secret = rec.get("secret")
        if not secret:  # every seat that reads it (every seat; or those it is to: a decision's) reads it whole
            v = _frozen(rec, ())
            if to is None:
                for lst in lists:
                    lst.append(v)
            elif len(to) == 1 and type(to[0]) is int and 0 <= to[0] < len(lists):  # (to one seat: a decision's)
                lists[to[0]].append(v)
            else:
                for seat in seats:
                    if seat in to:
                        lists[seat].append(v)
            continue
        if len(secret) == 1:  # one secret field (a draw's cards …): a copy for its readers, one for the others
            ((field, readers),) = secret.items()
            whole: FrozenDict | None = None
            blank: FrozenDict | None = None
            for seat in seats:
                if to is not None and seat not in to:
                    continue
                if seat in readers:
                    if whole is None:
                        whole = _frozen(rec, ())
                    lists[seat].append(whole)
                else:
                    if blank is None:
                        blank = _frozen(rec, (field,))
                    lists[seat].append(blank)
            continue
        made: dict[tuple[str, ...], FrozenDict] = {}
        for seat in seats:
            if to is not None and seat not in to:
                continue
            hidden = tuple([f for f, readers in secret.items() if seat not in readers])
            copy = made.get(hidden)
            if copy is None:
                copy = made[hidden] = _frozen(rec, hidden)
            lists[seat].append(copy)
    views.read = len(log)


def _frozen(rec: Record, hidden: tuple[str, ...]) -> FrozenDict:
    """``freeze(project(rec, seat))`` for a seat that reads the record and is kept from the fields `hidden`: its
    fields in their order, without ``to`` and ``secret``, the hidden ones None (one copy, changed in place before
    anyone holds it: through dict's own methods, which FrozenDict's read-only guard does not stop)."""
    out = FrozenDict(rec)
    if "to" in out:
        dict.__delitem__(out, "to")
    if "secret" in out:
        dict.__delitem__(out, "secret")
    for f in hidden:
        dict.__setitem__(out, f, None)
    for k, v in out.items():  # (values replaced, none added: the walk stays valid)
        if type(v) not in _ATOMS:
            dict.__setitem__(out, k, freeze(v))
    return out


def history(game: Game, seat: int | None) -> tuple[FrozenDict, ...]:
    """The game's log as `seat` saw it (frozen records), kept incrementally: each call returns one tuple, the same
    one while nothing new was logged; a record is frozen once per set of fields kept from the seats reading it and
    shared by their copies."""
    views: Views = game.views
    log = game.log
    if seat is None:
        return _public_history(views, log)
    if views.read != len(log):
        _read_log(views, log)
    records = views.histories[seat]
    made = views.made.get(seat)
    if made is None or len(made) != len(records):
        made = views.made[seat] = tuple(records)
    return made


def _public_history(views: Views, log: list[Record]) -> tuple[FrozenDict, ...]:
    """A spectator's history: the records every seat reads, fields secret to any seat blanked."""
    done, records = views.public
    if done == len(log):
        return records
    new: list[FrozenDict] = []
    shared = views.public_records
    for i in range(done, len(log)):
        rec = log[i]
        if rec.get("to") is not None:
            continue
        v = shared.get(i)
        if v is None:
            secret = rec.get("secret")
            v = shared[i] = _frozen(rec, tuple(secret) if secret else ())
        new.append(v)
    if new:
        records += tuple(new)
    views.public = (len(log), records)
    return records


def _face(g: Game, c: Card) -> FrozenDict:
    """``card_data(c)``, made once per card and game: what a card prints (its type, colours, direction, lock and
    per-copy data) is set when the deck is made and never changes, so its face is shared by every observation."""
    faces: dict[int, FrozenDict] = g.views.faces
    face = faces.get(c.uid)
    if face is None:
        face = faces[c.uid] = card_data(c)
    return face


def _faces(g: Game, cards: list[Card] | tuple[Card, ...]) -> tuple[FrozenDict, ...]:
    """The cards' faces (_face), looked up in one walk."""
    faces: dict[int, FrozenDict] = g.views.faces
    return tuple([faces.get(c.uid) or _face(g, c) for c in cards])


def _removed_face_up(g: Game, removed: list[Card]) -> tuple[FrozenDict, ...]:
    """The faces of the cards removed face up (public), shared by every seat and grown as cards are removed: a
    removed card is face up or down from its removal until it leaves (Zones.unremoved), so while none left only the
    cards removed since are walked."""
    stamp = g.zones.unremoved
    kept = g.views.removed_up
    if kept is not None and kept[0] == stamp and kept[1] is removed:
        same: tuple[FrozenDict, ...] = kept[3]
        done: int = kept[2]
        if len(removed) == done:
            return same
        new = [c for c in removed[done:] if not c.face_down]
        if new:
            same += _faces(g, new)
        g.views.removed_up = (stamp, removed, len(removed), same)
        return same
    made = _faces(g, [c for c in removed if not c.face_down])
    g.views.removed_up = (stamp, removed, len(removed), made)
    return made


def _pile(g: Game, name: str, cards: list[Card]) -> tuple[FrozenDict, ...]:
    """The faces of a pile every seat sees face up (the discard pile, the staging area): the same tuple while the
    pile holds the same cards in the same order, shared by every seat's observation. A pile changes only as a
    card moves (Zones.moves) or as it is made anew (another list): while neither happened, it is the same."""
    if not cards:
        return ()
    stamp = (g.zones.moves, id(cards), len(cards))
    piles = g.views.piles
    kept: tuple[Any, ...] | None = piles.get(name)
    if kept is not None and kept[0] == stamp:
        faces: tuple[FrozenDict, ...] = kept[2]
        return faces
    now = tuple(cards)
    faces = kept[2] if kept is not None and kept[1] == now else _faces(g, now)
    piles[name] = (stamp, now, faces)
    return faces


def _sees(g: Game, c: Card, seat: int | None) -> bool:
    """May `seat` see the card's face now (None: a spectator, who sees only what is face up for everyone)?"""
    return bool(g.card_public(c) if seat is None else g.card_visible(c, seat))


def _in_use(g: Game, c: Card, seat: int | None) -> FrozenDict:
    """A card used (in use, or removed after a face-down use): its face if the seat may see it, else only
    what it was used as (which is public). Made once per card and what it was used as, shared."""
    used_as = c.used_as.id if c.used_as is not None else c.type.id
    seen = _sees(g, c, seat)
    made: dict[tuple[int, bool, str], FrozenDict] = g.views.in_use
    face = made.get((c.uid, seen, used_as))
    if face is None:
        face = made[(c.uid, seen, used_as)] = FrozenDict(
            {**_face(g, c), "used_as": used_as} if seen else {"id": None, "used_as": used_as}
        )
    return face


def _removed_face_down(g: Game, seat: int | None, removed: list[Card]) -> tuple[FrozenDict, ...]:
    """The cards removed after a face-down use, as `seat` sees them (_in_use), kept per seat and grown as cards are
    removed; they pile up over a game (every card used face down, a probe's copy among them). What a seat sees of a
    removed card (who follows it, whether it is face down, what it was used as) changes only as it moves out (then
    it leaves the list: Zones.unremoved) or is shown (Zones.sightings): while neither happened, the cards walked
    before are the first ones, and only those removed since are walked."""
    zones = g.zones
    stamp = (zones.sightings, zones.unremoved)
    kept = g.views.removed.get(seat)
    if kept is not None and kept[0] == stamp and kept[1] is removed:
        same: tuple[FrozenDict, ...] = kept[3]
        done: int = kept[2]
        if len(removed) == done:
            return same
        new = [_in_use(g, c, seat) for c in removed[done:] if c.face_down]
        if new:
            same += tuple(new)
        g.views.removed[seat] = (stamp, removed, len(removed), same)
        return same
    made = tuple([_in_use(g, c, seat) for c in removed if c.face_down])
    g.views.removed[seat] = (stamp, removed, len(removed), made)
    return made


def _known(g: Game, seat: int, me: Any) -> tuple[FrozenDict, ...]:
    """The hidden cards `seat` follows outside its own hand and the pending intel: a card out of sight of some
    seat is in a hand or the deck (every other zone is face up, or its own field: the pending intel, cards in
    use, removed ones, declared zones), listed in the order of Zones.cards; each entry made once and shared, the
    seat's list kept while no card has moved and none was shown nor the deck shuffled (a hand card or a deck card
    changes who follows it, or its place, only so: Zones.moves and Zones.sightings), and while it finds the same
    cards in the same places."""
    zones = g.zones
    views: Views = g.views
    kept = views.known_of.get(seat)
    stamp = (zones.moves, zones.sightings)
    if kept is not None and kept[2] == stamp:
        unchanged: tuple[FrozenDict, ...] = kept[1]
        return unchanged
    # (card, where): the seat whose hand holds it, or -1 - its depth in the deck (depth 0: the top card)
    found = [(c, p.seat) for p in g.players if p is not me for c in p.hand if c.knowers >> seat & 1]
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
                "card": _face(g, c),
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
    views: Views = g.views
    me = g.players[seat] if seat is not None else None
    turn = g.turn_no
    declared_zones = bool(zones.zone_decls)
    players = []
    rows = views.rows
    for p in g.players:
        # A row with none of the extra fields below is kept while the player's version is the same (Player.version:
        # the owners' operations count every change of what it shows), in the same turn if it has statuses (they
        # end with a turn): one for the player's own seat, one shared by every other seat and the spectators (what
        # a row shows of a player differs only between his own seat and the others: his face-down role, secret
        # statuses and marks are his alone; the declared zones, which differ by seat, are never kept).
        stamp = p.version if not p.statuses else (p.version, turn)
        mine = p is me
        kept_rows = rows[p.seat]
        kept = kept_rows[0 if mine else 1]
        if kept is not None and kept[0] == stamp:
            players.append(kept[1])
            continue
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
        row = {
            "seat": p.seat,
            "alive": p.alive,
            "out": p.out,
            "dying": p.dying,
            "hand_count": len(p.hand),
            "intel": _intel(g, p),
            "intel_counts": FrozenDict(
                {"red": p.counts[RED_BIT], "blue": p.counts[BLUE_BIT], "black": p.counts[BLACK_BIT]}
            ),
            "role": role,
            "role_face_up": p.role_face_up,
            "has_identity": p.identity is not None,
            "statuses": statuses,
        }
        plain = not declared_zones  # (the declared zones' cards are not counted in the version: not kept)
        if p.marks:  # marks kept for the game (keep_mark, add_mark): public ones, and one's own secret ones
            marks = {k: mark_record(v) for k, (t, v) in sorted(p.marks.items()) if t == LASTING or (t < 0 and p is me)}
            if marks:
                row["marks"] = FrozenDict(marks)
                plain = False
        if declared_zones:  # the zones the rules declare, each player's
            row["zones"] = _zones_seen(g, seat, p)
        if (p.lost_skills or p.yin) and role is not None:  # skills not had, 转换技 in their 阴 state
            row["skills"] = FrozenDict(
                {sid: "lost" if sid in p.lost_skills else "yin" for sid in sorted(p.lost_skills | p.yin)}
            )
            plain = False
        frozen = FrozenDict(row)
        if plain:
            kept_rows[0 if mine else 1] = (stamp, frozen)
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
    removed = zones.removed
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
        "in_use": tuple([_in_use(g, c, seat) for c in zones.processing]) if zones.processing else (),
        "deck_count": len(zones.deck),
        "discard": _pile(g, "discard", zones.discard_pile),
        "removed": _removed_face_up(g, removed) if removed else (),
        "removed_face_down": _removed_face_down(g, seat, removed) if removed else (),
        "staging": _pile(g, "staging", zones.staging),
        "role_pile_count": len(skills.role_pile),
        "removed_roles": tuple([r.id for r in skills.removed_roles]) if skills.removed_roles else (),
        "removed_identities": len(skills.removed_identities),
        "me": _mine(g, seat, me),
        "known_cards": _known(g, seat, me) if seat is not None else (),
        "known_identities": (
            FrozenDict({str(s): ident.id for s, ident in sorted(me.known_identities.items())})
            if me is not None and me.known_identities
            else EMPTY
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


def _mine(g: Game, seat: int | None, me: Any) -> FrozenDict:
    """The seat's own secrets (``me``), made again only when what it shows changed (kept per seat): its identity
    and task, role, the roles dealt to it, the identities taken from it, its hand — each changed only by an
    operation that counts in its Player.version (a re-deal clears what was kept)."""
    key = me.version if me is not None else -1
    kept = g.views.mine.get(seat)
    if kept is not None and kept[0] == key:
        mine: FrozenDict = kept[1]
        return mine
    mine = FrozenDict(
        {
            "identity": me.identity.id if me is not None and me.identity is not None else None,
            "task": me.task.id if me is not None and me.task is not None else None,
            "role": me.role.id if me is not None and me.role is not None else None,
            "dealt_roles": tuple([r.id for r in me.dealt_roles]) if me is not None else (),
            "former_identities": (
                tuple([i.id for i, _t, s in g.skills.removed_identities if s == seat])
                if g.skills.removed_identities
                else ()
            ),
            "hand": _hand(g, seat, me) if me is not None else (),
        }
    )
    g.views.mine[seat] = (key, mine)
    return mine


def _intel(g: Game, p: Any) -> tuple[FrozenDict, ...]:
    """The faces of a player's intel area, the same tuple (for every seat) while it holds the same cards."""
    if not p.intel:
        return ()
    cards = tuple(p.intel)
    kept = g.views.intel.get(p.seat)
    if kept is not None and kept[0] == cards:
        faces: tuple[FrozenDict, ...] = kept[1]
        return faces
    faces = _faces(g, cards)
    g.views.intel[p.seat] = (cards, faces)
    return faces


def _hand(g: Game, seat: int | None, me: Any) -> tuple[FrozenDict, ...]:
    """The faces of the seat's hand, the same tuple while it holds the same cards in the same order."""
    hand = tuple(me.hand)
    hands = g.views.hands
    kept = hands.get(seat)
    if kept is not None and kept[0] == hand:
        faces: tuple[FrozenDict, ...] = kept[1]
        return faces
    faces = _faces(g, hand)
    hands[seat] = (hand, faces)
    return faces


__all__ = ["EMPTY", "Views", "observe", "project", "history"]
