"""The cards: zones, piles, the pending intel, and who can see which card.

:class:`Zones` owns every physical card's place — the deck, the discard pile,
the removed cards, the cards in use (processing) and set aside (staging), each
player's hand and intel area (and the per-colour intel counters), the pending
intel and whether it is face up, the cards of the zones the rules declare (`zones:`:
仁区, a private pile …, numbered from DECLARED_ZONE) — and what each seat knows of each card
(``Card.knowers``). :meth:`Zones.move` is the only code that changes a card's
zone; the other operations here (draw, discard, reveal …) are made of it, and so are
the rules' operations on their declared zones (declared_zones.py: put cards in one, list
its cards, its `start:` cards, at a death, at the end).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .core import MoveCount, emit_event, unheard
from .deal import deal_faces
from .errors import EngineError
from .state import (
    BLACK_BIT,
    BLUE_BIT,
    DECK,
    DECLARED_ZONE,
    DISCARD,
    HAND,
    INTEL,
    PENDING,
    PROCESSING,
    RED_BIT,
    REMOVED,
    STAGING,
    ZONE_NAMES,
    Card,
    Player,
    shuffle,
)
from .zone_checks import check_zones

if TYPE_CHECKING:
    import random

    from ..model.content import CardType, DeckEntry
    from ..model.declared import ZoneDecl
    from .core import GameCore


def holder_seat(cards: Iterable[Card]) -> int | None:
    """The seat of the one player whose hand or intel area holds every card of `cards`, or None (no card, cards
    of several players, a card in no player's hand or intel: the deck, the pending intel, cards set aside)."""
    seat = None
    for c in cards:
        owner = c.owner
        if owner is None or (c.zone != HAND and c.zone != INTEL) or (seat is not None and owner.seat != seat):
            return None
        seat = owner.seat
    return seat


class Zones(MoveCount):
    """Every card's zone and visibility (see the module docstring)."""

    def __init__(self, game: GameCore) -> None:
        self.game = game
        self.players = game.players
        self.all_mask = game.all_mask
        self.cards: list[Card] = []
        self.by_uid: dict[int, Card] = {}  # deck id -> card (filled with `cards`)
        self.deck: list[Card] = []  # the top of the deck is the END of the list
        self.discard_pile: list[Card] = []
        self.removed: list[Card] = []
        self.processing: list[Card] = []
        self.staging: list[Card] = []
        self.judging: list[Card] = []  # set-aside cards of a judgement still resolving (reveal_top): kept on show
        self.pending: Card | None = None  # 待收情报
        self.pending_face_up = False
        self.moves = 0  # card moves so far (with GameCore.changes, the victory check's stamp)
        # intel-area changes (cards in or out): until an intel moves again, no node can have a
        # collect win or a dying player to check (Resolution.settle)
        self.intel_changes = 0
        # changes of who can follow a card, or of the deck's order, outside a move (shown, looked at, shuffled):
        # with `moves`, what an observation's known cards and removed face-down cards are kept by (observation.py)
        self.sightings = 0
        # cards that left the removed ones: until one does, the removed cards only grow at their end (observation.py)
        self.unremoved = 0
        # cards put into the deck: until one is (or the deck is shown, shuffled or made anew: `sightings`), no card in
        # it can have come to be followed by a seat (observation.py)
        self.decked = 0
        self.replaced: dict[int, Card] = {}  # uid -> the card that replaced that intel (later triggers see the new one)
        # the cards on show (Card.shown set) since the effects resolving now began, in the order shown: an effect's
        # end (EffectStack.pop) ends the shows made since it began (end_shows)
        self.showing: list[Card] = []
        # deck ids of cards an effect put in an order drawn at random (shuffled), which no seat saw: the next move
        # of each into the deck or a zone not face up leaves it followed by nobody (ordered), which ends it, as the
        # end of the outermost effect does (EffectStack.pop)
        self.drawn: set[int] = set()
        # the zones the rules declare, numbered DECLARED_ZONE + their place here (their names: DeclaredZones); each
        # one's cards by (zone, the owner's seat, -1 for a shared zone), oldest first (the top of a stack is the END
        # of the list)
        self.zone_decls: list[ZoneDecl] = list(game.content.declared.zones.values())
        self.piles: dict[tuple[int, int], list[Card]] = {}
        # deck id -> the zone a card began the game in when that zone's rule is `returns` (额外牌堆): where it
        # goes instead of the discard pile; empty without such a zone (move's one extra test is on this)
        self.homes: dict[int, int] = {}
        # deck id -> the zone whose `start:` selects that copy (额外牌堆): its pool, which everyone knows of every
        # card (publicly distinct copies), so a resample deals a hidden face only among the cards of its pool
        # (redeal); empty without such a zone. Faces move within a pool only, so a deck id keeps its pool.
        self.pools: dict[int, int] = {}

    # ------------------------------------------------------------------ building the deck

    def load(self, entries: Iterable[DeckEntry]) -> None:
        """The game's cards, one per deck entry, into the deck in that order (setup; a table being built)."""
        types = self.game.content.card_types
        plans = self.game.index.plans
        for e in entries:
            ctype = types[e.card_type]
            card = Card(e.uid, ctype, e.mask, e.direction, e.lockable, e.data, plans(ctype))
            self.cards.append(card)
            self.by_uid[e.uid] = card
        self.deck = list(self.cards)

    def load_deck(self, players: int) -> None:
        """Setup: the cards of the deck for this many players (``content.deck_for``), in deck order.

        What each card is made from (its type found by id, its type's uses as plans) is kept in the content set's
        index per player count (ContentIndex.deck_faces): each a tuple of fixed length and types (compiled,
        unpacking it is seven reads, not an iteration); the deck ids come as a dict's keys, in deck order:
        copied, the game's by_uid is made at its size at once (its values, None there, are all set before
        anything reads it)."""
        game = self.game
        got = game.index.deck_faces(game.content, players)
        args, uids, shown, labels = got
        cards = [
            Card(uid, ctype, mask, arrow, lock, data, plans) for uid, ctype, mask, arrow, lock, data, plans in args
        ]
        if self.cards:  # (a table being built: cards already there)
            self.cards += cards
            for c in cards:
                self.by_uid[c.uid] = c
        else:
            self.cards = cards
            self.by_uid = by_uid = uids.copy()  # every value is set here
            for c in cards:
                by_uid[c.uid] = c
            # What a card prints is fixed by its deck id in this deck (a resample moves a face with its id): the
            # faces observations show (observation.py's _face) and the log's labels of the cards and their uses
            # (GameCore._label) are made once for every game dealt the deck, not again in each game (about 1% of
            # a heuristic game each, pure). A table built mid-game keeps its own.
            game.views.faces = shown
            game._labels = labels
        self.deck = list(self.cards)

    def shuffle_deck(self, top: list[Card] | None = None) -> None:
        """Shuffle the deck with the game's generator; `top` (top first), if given, is stacked on top of it."""
        self.sightings += 1
        if not top:
            shuffle(self.game.rng, self.deck)
            return
        on_top = set(top)
        rest = [c for c in self.deck if c not in on_top]
        shuffle(self.game.rng, rest)
        self.deck = rest + top[::-1]  # the end of the list is the top

    def redeal(self, seat: int, r: random.Random, pending_arrow: str | None = None, pending_lock: bool = False) -> None:
        """Re-deal the faces of the cards `seat` cannot see (the step API's resample): positions stay, faces move
        (deal.deal_faces: which faces, what must fit, and how they are drawn)."""
        hidden = [c for zone in self._places() for c in zone if not self.card_visible(c, seat)]  # places' order
        pools = self.pools
        if pools:  # a face goes only to a card of its own pool (what everyone knows of each card), pool by pool
            by_pool: dict[int, list[Card]] = {}
            for c in hidden:
                by_pool.setdefault(pools.get(c.uid, -1), []).append(c)
            for pool in sorted(by_pool):
                deal_faces(by_pool[pool], self.pending, r, pending_arrow, pending_lock)
        else:
            deal_faces(hidden, self.pending, r, pending_arrow, pending_lock)
        self.by_uid = {c.uid: c for c in self.cards}
        self.intel_changes += 1  # faces moved: let the next node scan the intel areas again
        self.sightings += 1

    def forget_looks(self, seat: int) -> None:
        """Keep of who follows each card only what `seat` may know (a sample dealt for it: step._redeal): what the
        whole table was told (``Card.told``) and `seat`'s own sight and picks. Another seat's 查看 (its record went
        to the seats that looked) and its picks (its answers) are its own: without this, the sample — and that seat's
        known cards in it — would tell `seat` that it looked, and at which cards. In the sample it did not look: a
        world `seat` cannot tell from what it saw (though the rules may let it infer a look whose record it did not
        read: a card whose text has the target show its hand to the user).

        Kept all the same: what is on show (``Card.shown``) while the effect that showed it resolves. The sample
        plays that effect on from where it is, and it may ask the seat that looked to pick among what it saw; that
        effect is one `seat` heard of, being asked in the middle of it."""
        me = 1 << seat
        for c in self.cards:
            shown = c.shown
            c.knowers &= c.told | shown | me
            c.chosen &= shown | me
        self.sightings += 1

    def _places(self) -> list[list[Card]]:
        """Every zone's cards, in an order everyone knows (deck bottom to top, hands by seat, pending, in use,
        removed, the public zones, and the zones the rules declare by number and seat: their hidden cards are
        dealt like hand cards)."""
        zones: list[list[Card]] = [self.deck]
        zones += [p.hand for p in self.players]
        if self.pending is not None:
            zones.append([self.pending])
        zones += [self.processing, self.removed, self.discard_pile, self.staging]
        zones += [p.intel for p in self.players]
        if self.piles:
            zones += [pile for _key, pile in sorted(self.piles.items())]
        return zones

    # ------------------------------------------------------------------ visibility

    def card_public(self, card: Card) -> bool:
        """Is the card face up where everyone sees it (intel areas, discard pile, removed, a face-up use/intel)?"""
        z = card.zone
        if z in (INTEL, DISCARD, STAGING):
            return True
        if z in (REMOVED, PROCESSING):
            return not card.face_down  # used as a card played face down (face_down: true): only user and target
        if z == PENDING:
            return self.pending_face_up
        if z >= DECLARED_ZONE:
            return self.zone_decls[z - DECLARED_ZONE].look == "everyone"
        return False

    def card_visible(self, card: Card, seat: int) -> bool:
        """May `seat` see this card now: face up, or tracked by it (its own hand included)?"""
        return self.card_public(card) or bool(card.knowers >> seat & 1)

    def knows(self, seat: int, uid: int) -> bool:
        """Can `seat` tell which card `uid` is and where it is now?"""
        return self.card_visible(self.by_uid[uid], seat)

    def sight(self, uid: int) -> int:
        """The seats that can see card `uid` now, as a bit mask; -1 (everyone, spectators too) if it is face up."""
        card = self.by_uid.get(uid)
        if card is None or self.card_public(card):
            return -1
        return card.knowers

    def note_pick(self, card: Card, seat: int, options: list[Any]) -> None:
        """`seat` picked `card` among `options` in a decision: if it could see it, it can follow where the card goes
        next. Nobody else sees the answer: a pick among several cards on show ends their show for the others."""
        if self.showing and len(options) > 1:
            self.hide_pick(options, 1 << seat)
        if self.card_public(card) or card.knowers >> seat & 1:
            card.chosen |= 1 << seat

    def hide_pick(self, options: Iterable[Any], seers: int = 0) -> None:
        """A card was picked among `options` and only the seats `seers` (a bit mask; 0: nobody, a blind pick) know
        which: the others can no longer tell the cards among them that were on show apart (docs/rulings.md R47)."""
        for o in options:
            if type(o) is Card and o.shown:
                o.shown &= seers

    def show_to(self, card: Card, seat: int) -> None:
        """`seat` sees the card where it is, and no record says so; everyone knows it does (``Card.told``): the
        target of a card used face down, named where the use is recorded; the sender of an intel face down."""
        card.knowers |= 1 << seat
        card.told |= 1 << seat
        self.sightings += 1

    def reveal(self, cards: Iterable[Card], seats: Iterable[Player] | None = None) -> None:
        """展示 (seats None: to everyone) or 查看 (to the given seats). Cards stay where they are.

        The seats that look know each card where it is, and while the effect that shows it resolves the card is
        on show to them (``Card.shown``): a move that effect makes of it is one they see, out of a hand too (the
        text names the shown card, as in "put the card you showed into your hand"). Once that effect has
        resolved (end_shows), or after a pick among it and other cards they do not see (hide_pick), a face-down
        move out of a hand is followed as any other (see move). docs/rulings.md R47.

        A 展示 is heard of by all (``Card.told``); a 查看's record goes to the seats that look alone, so that they
        looked is theirs to know: a sample dealt for another seat forgets it (forget_looks)."""
        bits = self.all_mask if seats is None else sum({1 << p.seat for p in seats})
        showing = self.showing
        self.sightings += 1
        for c in cards:
            c.knowers |= bits
            if seats is None:
                c.told |= bits
            if bits and not c.shown:  # (an audience that is none or empty at run time: shown to nobody)
                showing.append(c)
            c.shown |= bits
        if not unheard(self.game, "reveal"):
            to = None if seats is None else [p.seat for p in seats]
            subject = holder_seat(cards)  # (the record names whose hand or intel the shown cards are in, if one's)
            # `private`: 查看, shown to the seats of `to` alone; their copies do not carry `to` (a seat's copy of a
            # record never does), so without it a look would read as 展示, a show to everyone
            private: dict[str, Any] = {} if to is None else {"private": True}
            if subject is None:
                emit_event(self.game, "reveal", cards=[c.uid for c in cards], to=to, **private)
            else:
                emit_event(self.game, "reveal", seat=subject, cards=[c.uid for c in cards], to=to, **private)

    def ordered(self, items: list[Any]) -> None:
        """The cards among `items` are in an order drawn at random that no seat saw (shuffled): until each next
        moves, or the effect resolving ends, a move of it face down into the deck or a zone not face up is followed
        by no seat (a seat that followed it knows which cards went there, not which is where)."""
        drawn = self.drawn
        for o in items:
            if type(o) is Card:
                drawn.add(o.uid)

    def end_shows(self, mark: int) -> None:
        """The effect that began when `mark` cards had been shown has resolved: the cards shown since are no
        longer on show (FAQ 展示: the shown card goes back to how it was). Who knows them stays as it is."""
        showing = self.showing
        for c in showing[mark:]:
            c.shown = 0
        del showing[mark:]

    def set_pending_face(self, face_up: bool) -> None:
        """Turn the pending intel face up or down."""
        self.pending_face_up = face_up

    def zone_name(self, card: Card) -> str:
        z = card.zone
        where = ZONE_NAMES[z] if z < DECLARED_ZONE else self.zone_decls[z - DECLARED_ZONE].name
        return f"P{card.owner.seat}'s {where}" if card.owner is not None else where

    # ------------------------------------------------------------------ moving cards

    def move(self, card: Card, zone: int, owner: Player | None = None, top: bool = True) -> None:
        """Move one card to a zone. The only place a card's zone changes.

        It also keeps who can follow the card (``card.knowers``): a card that was
        face up is followed by everyone; one taken from a hand only by that
        hand's owner, by a seat that picked that very card in a decision
        and by the seats it is on show to (``card.shown``: see reveal) —
        which card left is not seen by the others; a card moving from the deck
        or the pending place by whoever followed it there; and a card entering
        a hand by its new owner.

        And what of that everyone was told (``card.told``): who follows a face-up card, a hand's owner, the new
        owner of a hand it enters; a card taken from a hand stays told to the others who followed it only while it
        is on show to all (a pick, and a look told to some seats alone, are theirs: Zones.forget_looks).
        """
        if zone == DISCARD and self.homes and card.uid in self.homes:
            self._go_home(card)
            return
        self.moves += 1
        z = card.zone
        # leave the old zone, and work out who can still follow the card (k)
        if z == HAND:
            old = card.owner
            assert old is not None
            bit = 1 << old.seat
            k = card.knowers & (bit | card.chosen | card.shown)
            t = card.told if card.shown == self.all_mask else card.told & bit
            old.hand.remove(card)
            old.version += 1  # (what its row shows changed: Player.version)
        elif z == INTEL:
            o = card.owner
            assert o is not None
            k = t = self.all_mask
            self.intel_changes += 1
            o.intel.remove(card)
            o.version += 1
            m = card.mask
            c = o.counts
            if m & RED_BIT:
                c[RED_BIT] -= 1
            if m & BLUE_BIT:
                c[BLUE_BIT] -= 1
            if m & BLACK_BIT:
                c[BLACK_BIT] -= 1
        elif z == DECK:
            k, t = card.knowers, card.told
            deck = self.deck
            if deck[-1] is card:  # drawn from the top (the end): list.remove would compare every card below it
                deck.pop()
            else:
                deck.remove(card)
        elif z == DISCARD:
            k = t = self.all_mask
            self.discard_pile.remove(card)
        elif z == PENDING:
            k, t = (self.all_mask, self.all_mask) if self.pending_face_up else (card.knowers, card.told)
            self.pending = None
        elif z == PROCESSING:
            k, t = (card.knowers, card.told) if card.face_down else (self.all_mask, self.all_mask)
            self.processing.remove(card)
        elif z == STAGING:
            k = t = self.all_mask
            self.staging.remove(card)
        elif z == REMOVED:
            k, t = (card.knowers, card.told) if card.face_down else (self.all_mask, self.all_mask)
            self.removed.remove(card)
            self.unremoved += 1
        else:  # a declared zone: a face-up one was seen by all, a face-down one by those following its cards
            if self.zone_decls[z - DECLARED_ZONE].look == "everyone":
                k = t = self.all_mask
            else:
                k, t = card.knowers, card.told
            self.piles[z, card.owner.seat if card.owner is not None else -1].remove(card)
        if self.drawn and card.uid in self.drawn:  # (seldom: a card of an order drawn at random, shuffled)
            self.drawn.discard(card.uid)
            if zone == DECK or (zone >= DECLARED_ZONE and self.zone_decls[zone - DECLARED_ZONE].look != "everyone"):
                k = t = 0  # nobody saw the order: where each card is, among those so put, nobody can tell
                card.shown = 0
                self.sightings += 1
        if zone == HAND:
            assert owner is not None  # a hand or an intel area is someone's
            k |= 1 << owner.seat
            t |= 1 << owner.seat
        card.knowers = k
        card.told = t
        card.chosen = 0
        if card.face_down:
            card.face_down = False
            # a card used face down that becomes the intel keeps what it was used as (everyone knows that);
            # anywhere else it is only itself again
            if not (z == PROCESSING and zone == PENDING):
                card.used_as = None
        else:
            card.used_as = None
        card.zone = zone
        card.owner = owner
        if zone == HAND:
            assert owner is not None
            owner.hand.append(card)
            owner.version += 1
        elif zone == INTEL:
            assert owner is not None
            self.intel_changes += 1
            owner.intel.append(card)
            owner.version += 1
            m = card.mask
            c = owner.counts
            if m & RED_BIT:
                c[RED_BIT] += 1
            if m & BLUE_BIT:
                c[BLUE_BIT] += 1
            if m & BLACK_BIT:
                c[BLACK_BIT] += 1
        elif zone == DISCARD:
            self.discard_pile.append(card)
        elif zone == DECK:
            self.decked += 1
            if top:
                self.deck.append(card)
            else:
                self.deck.insert(0, card)
        elif zone == PENDING:
            if self.pending is not None:
                raise EngineError("two pending intels")
            self.pending = card
        elif zone == PROCESSING:
            self.processing.append(card)
        elif zone == STAGING:
            self.staging.append(card)
        elif zone == REMOVED:
            self.removed.append(card)
        else:
            self._enter_declared(card, zone, owner, top)

    def _enter_declared(self, card: Card, zone: int, owner: Player | None, top: bool) -> None:
        """`card` (moved by move) goes on top of declared zone `zone` (or under its bottom): its player's if the
        zone is per player (he looks at it if the zone is his to look at), the table's if shared."""
        decl = self.zone_decls[zone - DECLARED_ZONE]
        if decl.per == "shared":
            card.owner = owner = None
        elif owner is None:
            raise EngineError(f"zone {decl.name} is each player's: a card put there needs a player")
        if owner is not None and decl.look == "owner":
            card.knowers |= 1 << owner.seat
            card.told |= 1 << owner.seat
        key = (zone, owner.seat if owner is not None else -1)
        pile = self.piles.get(key)
        if pile is None:
            pile = self.piles[key] = []
        if top:
            pile.append(card)
        else:
            pile.insert(0, card)

    # ------------------------------------------------------------------ declared zones (their rules: declared_zones.py)

    def note_start(self, card: Card, zone: int, returns: bool) -> None:
        """`card` is a copy declared zone `zone`'s `start:` selects (DeclaredZones.fill_start): that zone is its pool
        (a copy two zones select: the first's) and, if the zone `returns` its cards, its home."""
        self.pools.setdefault(card.uid, zone)
        if returns:
            self.homes[card.uid] = zone

    def _go_home(self, card: Card) -> None:
        """A card bound for the discard pile that began the game in a `returns` zone goes back there instead,
        and that zone is shuffled."""
        zone = self.homes[card.uid]
        self.move(card, zone, None)
        self.shuffle_zone(zone)

    def shuffle_zone(self, zone: int) -> None:
        """Shuffle a shared zone with the game's generator: a face-down one's cards can be followed no more."""
        pile = self.piles.get((zone, -1))
        if not pile:
            return
        shuffle(self.game.rng, pile)
        self.sightings += 1
        if self.zone_decls[zone - DECLARED_ZONE].look != "everyone":
            for c in pile:
                c.knowers = c.told = 0
                c.shown = 0

    def refill(self, short: bool = False) -> bool:
        """When the deck runs out, the discard pile is shuffled into a new deck. False: both are empty.

        `short`: the deck is not empty but holds fewer cards than an effect must look at (查看牌堆顶的五张牌 with
        three left): the discard pile is shuffled and put under the cards left, which stay on top as they were
        (docs/rulings.md R30)."""
        if self.deck and not short:
            return True
        if not self.discard_pile:
            return bool(self.deck)
        pile = self.discard_pile
        self.discard_pile = []
        self.sightings += 1
        for c in pile:
            c.zone = DECK
            c.knowers = c.told = 0  # shuffled: nobody can follow a card any more
            c.shown = 0
        shuffle(self.game.rng, pile)
        self.deck = pile + self.deck  # under what is left (the end of the list is the top)
        emit_event(self.game, "reshuffle", n=len(pile))
        return True

    def draw(self, p: Player, n: int) -> bool:
        """p draws n cards; False if the deck and discard pile ran out first."""
        got = []
        for _ in range(n):
            if not self.deck and not self.refill():
                break
            card = self.deck[-1]
            self.move(card, HAND, p)
            got.append(card)
        g = self.game
        if g.record or "draw" in g.watched:  # (the moves counted the change)
            emit_event(g, "draw", seat=p.seat, n=len(got), cards=[c.uid for c in got])
        return len(got) == n

    def top_cards(self, n: int) -> list[Card]:
        """The top n cards (top first), the discard pile shuffled under the deck first if it holds fewer (R30); they
        stay where they are."""
        if len(self.deck) < n:
            self.refill(short=True)
        return self.deck[-1 : -n - 1 : -1] if n > 0 else []

    def take_top(self, n: int) -> list[Card]:
        """Turn up to n cards from the top of the deck (refilling it if needed) and set them aside, shown to all."""
        out = []
        for _ in range(n):
            if not self.deck and not self.refill():
                break
            c = self.deck[-1]
            self.move(c, STAGING)
            out.append(c)
        self.reveal(out)
        return out

    def discard_cards(self, cards: list[Card]) -> None:
        """To the discard pile, face up; the record names whose cards they were (seat) when all came from one
        player's hand or intel area, so that every seat's log says who discarded."""
        subject = holder_seat(cards)
        for c in list(cards):
            self.move(c, DISCARD)
        if cards and not unheard(self.game, "discard"):
            if subject is None:
                emit_event(self.game, "discard", cards=[c.uid for c in cards])
            else:
                emit_event(self.game, "discard", seat=subject, cards=[c.uid for c in cards])

    def clear_staging(self) -> None:
        """Cards an effect turned up and left (set aside) are discarded once it has resolved (but the cards of a
        judgement still resolving, which a skill reacting to it leaves on show: they go when it ends)."""
        judging = self.judging
        for c in list(self.staging):
            if not judging or c not in judging:
                self.move(c, DISCARD)

    def hold_for_judgement(self, card: Card) -> None:
        """A set-aside card stays on show until release_judgement (a judgement card, or one that replaced it)."""
        self.judging.append(card)

    def release_judgement(self, cards: list[Card]) -> None:
        """The judgement is over: its cards still set aside go to the discard pile."""
        for c in cards:
            if c in self.judging:
                self.judging.remove(c)
        self.discard_cards([c for c in dict.fromkeys(cards) if c.zone == STAGING])

    # ------------------------------------------------------------------ cards in use

    def start_use(self, card: Card, ctype: CardType, known_types: frozenset[str] | None = None) -> None:
        """The card goes to the processing zone, used as `ctype` (face down if that card type is played so).
        `known_types`: used face down, the card types everyone knows its printed type is one of (None: any)."""
        self.move(card, PROCESSING)
        card.face_down = ctype.face_down  # what it is used as decides: a converted card too
        card.used_as = ctype
        card.known_types = known_types

    def remove_used(self, card: Card, ctype: CardType) -> None:
        """A used card leaves the game. Used face down, it stays face down: which copy it was stays the secret of
        its user and its target."""
        hidden = card.face_down
        self.move(card, REMOVED)
        if hidden:
            card.face_down = True
            card.used_as = ctype

    def note_replaced(self, old: Card, new: Card) -> None:
        """`new` took the place of intel `old`: triggers about `old` that have not run yet see `new`.

        `new` is in play in that place now, so what it replaced earlier is forgotten: the chains stay
        free of cycles (two intel swapped back and forth once looped `current` forever).
        """
        if old.uid != new.uid:
            self.replaced.pop(new.uid, None)
            self.replaced[old.uid] = new

    def current(self, card: Card | None) -> Card | None:
        """The card in `card`'s place now: `card`, or what replaced it (and what replaced that …)."""
        seen = 0
        while card is not None and card.uid in self.replaced and seen <= len(self.replaced):
            card = self.replaced[card.uid]
            seen += 1
        return card

    # ------------------------------------------------------------------ checks

    def check_invariants(self) -> None:
        """Every card is in exactly one zone, and the zones agree with the cards (zone_checks.py)."""
        check_zones(self)
