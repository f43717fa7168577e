"""What the heuristic bot (heuristic.py) remembers of a game, and what it reckons of each seat's camp from it.

Built only from its own seat's observations: the colours of every card it has seen (face up, in its hand,
discarded), for each seat how many intel of each colour that seat accepted by choice while it could see them
(its lean: an ``intel_accepted`` record before the ``received`` one, for an intel sent or turned face up, or
shown to everyone on its way), how many of the intel that reached each seat free to refuse it took, what its
own probes ruled out (probes.py) and the kinds of card and skill it used this turn. From that, the odds that a
seat is a camp-mate, an enemy or without a camp (camps.py's arithmetic). The bot's choices (heuristic.py) read
these; this module makes none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .base import Observation, Part, mypyc_attr
from .camps import ENEMY, MATE, NO_CAMP, camp_index, camps_allowed, identities_left, weigh
from .hints import PROBE, SPREAD, Hints
from .probes import PROBE_EVENTS, ProbeReadings
from .tasks import style_now

# the events `read` reads (and a decision record: its own send's); the others it passes over
_INTEL_EVENTS: Final = ("intel_sent", "pending_set", "pending_swapped", "reveal", "intel_arrives", "intel_accepted")
_NOTED: Final = PROBE_EVENTS | frozenset((*_INTEL_EVENTS, "received", "card_used", "skill_used", "turn_start"))
# ... and those while no probe of its own is resolving: a draw, a discard or a card's end then teaches its probes
# nothing (ProbeReadings.read: only a card used starts one), so they are passed over with the others
_NOTED_IDLE: Final = _NOTED - (PROBE_EVENTS - {"card_used"})


def _past(cards: Sequence[Part], read: Sequence[Part]) -> Sequence[Part]:
    """The cards (faces) of a pile, a hand or an intel area past those it shares at its start with the same place as it
    was read: those are noted already. A card's face is one read-only object while it is unchanged, and a pile or
    an area grows at its end, a hand mostly so: most often the one read is the new one's start, told by one
    comparison of the two (in C; equal faces compare equal, and noting a face equal to one noted changes nothing),
    else walked for the faces that are the same."""
    k = len(read)
    if len(cards) < k or cards[:k] != read:
        k, n = 0, min(len(cards), k)
        while k < n and cards[k] is read[k]:
            k += 1
    return cards[k:] if k else cards


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # (as Agent, base.py: a bot holding it is copied)
class Memory:
    """One seat's memory of the game so far, read from its observations as they come (`read`)."""

    def __init__(self, hints: Hints) -> None:
        self.camps, self.styles, self.table, self.identity_colors = hints.camps, hints.styles, hints.table, hints.colors
        self.probes = ProbeReadings(frozenset(k for k, t in hints.tactics.items() if t == PROBE))
        self.records_read = 0  # history records already read
        self.colors: dict[int, tuple[str, ...]] = {}  # deck id -> colours, of every card it has seen
        self.lean: dict[int, float] = {}  # seat -> red minus blue intel accepted by choice
        self.used: set[str] = set()  # the kinds of card it has used this turn ("skill:ID" for a skill)
        self._accepting: dict[int, bool] = {}  # seats that accepted the intel now on its way: face up then?
        self._shown = False  # the intel on its way is face up (everyone sees its colours)
        self._public: set[int] = set()  # cards shown to everyone since it was sent
        self._offered: dict[int, int] = {}  # seat -> intel that arrived in front of it free to decline
        self._took: dict[int, int] = {}  # seat -> how many of those it accepted
        self._bound: set[int | None] = set()  # the sender and the locked seat of the intel now on its way
        self._discard_read: Sequence[Any] = ()  # the discard pile whose cards' colours it has noted
        self._intel_read: dict[int, Any] = {}  # seat -> the intel area whose colours it noted (and its hand's:)
        self._hand_read: Any = None
        # the players' rows and its own part (`me`) it last read: a row or a part unchanged is handed over as the
        # same read-only object, whose intel area or hand it noted then
        self._rows_read: list[Any] = []
        self._me_read: Any = None
        # the colours seen by kind (each kind in the order of its first card in `colors`), None when a card seen
        # again had other colours (worked out again from `colors` when next asked)
        self._kinds: dict[tuple[str, ...], int] | None = {}
        self._odds_of: Observation | None = None  # the last observation the odds below were asked of
        # seat -> its odds, kept from one observation to the next while what they are worked out from is the same:
        # a seat's own (its lean, the colours its probes allow) drops it as it is read; the table's (its size, this
        # seat's identity and the identities it knows: `_odds_key`) drop them all
        self._odds: dict[int, tuple[float, float, float]] = {}
        self._odds_key: tuple[int, int, str | None, Any] = (-1, -1, None, None)
        # the identities left by camp once its own and those it knows are out (mate, enemy, no camp), so too
        self._left: tuple[float, float, float] | None = None
        self._mine: str | None = None  # the colour its camp collects, of the last observation checked
        self._neutral = -0.3  # how friendly a seat without a camp finds the others (by its task), so too
        self._camps_of: dict[tuple[str | None, frozenset[str]], set[int]] = {}  # (camp, colours allowed) -> camps

    def read(self, obs: Observation) -> int | None:
        """Note what is new in `obs` since the last one read. Returns the choice of the last record of its own send
        among the new records (a search bot may have overruled this bot's answer), None if there is none."""
        sent: int | None = None
        history: Sequence[Part] = obs["history"]  # (its records typed dict: compiled, a `get` is direct)
        if len(history) < self.records_read:  # a new game with the same agent: nothing of the last one is kept
            self._forget()
        # (an intel area or a hand unchanged is handed over as the same tuple: read once)
        mine = obs["me"]
        hand = mine["hand"] if mine is not self._me_read else self._hand_read
        self._me_read = mine
        players: Sequence[Part] = obs["players"]
        intel_read, rows_read = self._intel_read, self._rows_read
        if len(rows_read) != len(players):
            rows_read[:] = [None] * len(players)
        seat = -1
        for p in players:  # (a seat's row is at its seat's place; counted, not enumerate's pair made and unpacked)
            seat += 1
            if p is rows_read[seat]:
                continue
            rows_read[seat] = p
            intel = p["intel"]
            was = intel_read.get(seat)
            if intel is not was:
                self._note(_past(intel, was or ()))
                intel_read[seat] = intel
        new_cards = _past(hand, self._hand_read or ()) if hand is not self._hand_read else ()
        if new_cards:
            self._note(new_cards)
        pile = obs["discard"]
        if pile is not self._discard_read:  # (the same pile is handed over as the same tuple)
            self._note(_past(pile, self._discard_read))
            self._discard_read = pile
        if hand is not self._hand_read:
            if new_cards:
                self.probes.saw_hand(new_cards)
            self._hand_read = hand
        me, probes, odds = obs["seat"], self.probes, self._odds
        # (the new records walked as a slice, not by index: a tuple's slice is one C copy of a few pointers, and its
        # walk costs no index and no subscript a record; each record's seat read once)
        noted = _NOTED if probes.resolving is not None else _NOTED_IDLE
        start = self.records_read
        for rec in history[start:] if start else history:
            e = rec.get("e")
            if e not in noted:  # (most records: a decision of its own, the other events)
                if e is None and rec.get("d") == "send" and rec.get("seat") == me:  # the card it sent
                    sent = rec["choice"]
                continue
            who: Any = rec.get("seat")  # (None for the few noted events without one: no branch of theirs reads it)
            if e in PROBE_EVENTS:
                if probes.resolving is not None or who == me:  # (the only ones its probes learn from)
                    ruled = probes.read(rec, me)
                    if ruled is not None:
                        odds.pop(ruled, None)
                    noted = _NOTED if probes.resolving is not None else _NOTED_IDLE
                if e != "card_used":
                    continue
                if who == me:
                    self.used.add(rec.get("card", ""))
            elif e == "intel_arrives":
                if who not in self._bound:
                    self._offered[who] = self._offered.get(who, 0) + 1
            elif e == "turn_start":
                self._accepting.clear()
                self.used.clear()
            elif e == "intel_sent":
                self._bound = {who, rec.get("lock")}
                self._shown, self._public = bool(rec.get("face_up")), set()
            elif e == "intel_accepted":
                self._accepting[who] = self._shown
                if who not in self._bound:
                    self._took[who] = self._took.get(who, 0) + 1
            elif e == "received":
                seat, cid = who, rec.get("card")
                # a face-down intel taken proves nothing: only one its taker could see (face up on its way,
                # or shown to everyone since it was sent) says which colour the taker wants
                if cid is not None and (self._accepting.get(seat, False) or cid in self._public):
                    colors = self.colors.get(cid, ())
                    lean = ("red" in colors) - ("blue" in colors)
                    self.lean[seat] = self.lean.get(seat, 0.0) + lean
                    odds.pop(seat, None)
                self._accepting.pop(seat, None)
            elif e == "skill_used":
                if who == me:
                    self.used.add("skill:" + str(rec.get("skill")))
            elif e == "reveal":
                # shown to everyone: a seat taking one of these cards could see it. A look (`private`: shown to some
                # seats, the bot among them) proves nothing of the others, who did not see it
                if not rec.get("private"):
                    self._public.update(rec.get("cards") or ())
            elif e == "pending_set" or e == "pending_swapped":
                self._shown = bool(rec.get("face_up"))
        self.records_read = len(history)
        self._odds_of = None  # (the next observation's table is checked against the odds kept)
        return sent

    def _forget(self) -> None:
        """A new game: what it read of the last one is dropped, the colours of the cards it saw there too (the new
        game's content may print a deck id otherwise, and its guess of the deck counts the cards seen in it)."""
        self.records_read, self.lean, self._accepting, self.used = 0, {}, {}, set()
        self._offered, self._took, self._bound = {}, {}, set()
        self._shown, self._public = False, set()
        self._odds, self._left, self._odds_of = {}, None, None
        self.probes.reset()
        self.colors, self._kinds = {}, {}
        self._discard_read, self._intel_read, self._hand_read = (), {}, None
        self._rows_read, self._me_read = [], None

    def _note(self, cards: Sequence[Part]) -> None:
        """Note the colours of these cards (faces)."""
        colors, kinds = self.colors, self._kinds
        for c in cards:
            cid, seen = c["id"], tuple(c["colors"])
            was = colors.get(cid)
            if was is None:
                colors[cid] = seen
                if kinds is not None:
                    kinds[seen] = kinds.get(seen, 0) + 1
            elif was != seen:  # (a deck id with other colours, which one game never shows: its kinds counted again)
                colors[cid] = seen
                kinds = self._kinds = None

    def kinds(self) -> dict[tuple[str, ...], int]:
        """How many of the cards it has seen have each set of colours (its best guess of the deck's), each kind in
        the order its first card was seen. Kept as cards are noted: not counted again at each decision."""
        if self._kinds is None:
            counted: dict[tuple[str, ...], int] = {}
            for colors in self.colors.values():
                counted[colors] = counted.get(colors, 0) + 1
            self._kinds = counted
        return self._kinds

    def accepts(self, seat: int) -> float:
        """How likely `seat` is to accept an intel that reaches it free to decline, as seen so far: Laplace's
        rule on how many of those it took (½ before it has shown anything)."""
        took = self._took.get(seat, 0)
        return (took + 1) / (max(took, self._offered.get(seat, 0)) + 2)

    def odds(self, obs: Observation, seat: int) -> tuple[float, float, float]:
        """For a bot with a camp: how likely `seat` is (a camp-mate, an enemy, a seat without a camp). An
        identity it has looked at is certain; the others share the identities the table deals at this
        player count (the rules' table) less its own and those it knows, each weighed by the colours the
        seat took when it could see them (×e^{±0.7} a card). Kept while what they are worked out from is the same
        (a decision asks them often, and most observations change none of it)."""
        if obs is not self._odds_of:
            self._check(obs)
        odds = self._odds.get(seat)
        if odds is None:
            odds = self._odds[seat] = self._work_out_odds(obs, seat)
        return odds

    def _check(self, obs: Observation) -> None:
        """A new observation: the odds kept are dropped if the table they were worked out for changed."""
        self._odds_of = obs
        me = obs["me"]
        key = (obs["seat"], len(obs["players"]), me["identity"], obs["known_identities"])
        if key != self._odds_key:
            self._odds, self._left, self._odds_key = {}, None, key
        mine = self._mine = self.camps.get(me["identity"] or "")
        if mine is None:  # (only `friend` of a bot without a camp reads it: a camp bot's odds do not need its style)
            style = style_now(self.styles.get(me.get("task") or ""), obs["players"], obs["seat"])
            self._neutral = 0.3 if style == SPREAD else -0.3

    def _work_out_odds(self, obs: Observation, seat: int) -> tuple[float, float, float]:
        mine = self._mine  # (_check's, of this observation)
        known = obs["known_identities"]
        ident = known.get(str(seat))
        if ident is not None:  # certain
            certain = [0.0, 0.0, 0.0]
            certain[camp_index(self.camps, ident, mine)] = 1.0
            return certain[MATE], certain[ENEMY], certain[NO_CAMP]
        if self._left is None:  # (the same for every seat it does not know, itself aside: kept per observation)
            dealt = self.table.get(len(obs["players"]), {})
            self._left = identities_left(self.camps, dealt, mine, [obs["me"]["identity"], *known.values()])
        left = list(self._left)
        if seat == obs["seat"]:  # its own identity is one the seat may have
            left[camp_index(self.camps, obs["me"]["identity"], mine)] += 1
        allowed = self.probes.allowed.get(seat)
        if allowed is not None:  # its probes ruled out some identity colours: their camps are out
            possible = self._camps_of.get((mine, allowed))
            if possible is None:
                possible = self._camps_of[(mine, allowed)] = camps_allowed(
                    self.camps, self.identity_colors, mine, allowed
                )
            left = [x if k in possible else 0.0 for k, x in enumerate(left)]
        return weigh(left, self.lean.get(seat, 0.0), mine)

    def friend(self, obs: Observation, seat: int) -> float:
        """How much `seat` looks like a camp-mate: -1 (an enemy) … +1 (a camp-mate); 1 for itself."""
        if seat == obs["seat"]:
            return 1.0
        if obs is not self._odds_of:
            self._check(obs)
        if self._mine is None:  # (a seat without a camp: a mild friend if its task wants others to hold intel)
            return self._neutral
        mate, enemy, _ = self.odds(obs, seat)
        return mate - enemy
