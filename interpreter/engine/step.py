"""The step API: a game you advance one action at a time, OpenSpiel style.

``GameState(content, players, seed)`` deals a game and stops at its first
decision. Then, until :meth:`GameState.is_terminal`:

* :meth:`current_player` — the seat that must answer;
* :meth:`legal_actions` — the action ids it may answer with, and
  :meth:`action_descriptors` — the same as plain descriptors (kind, label, id);
* :meth:`observation` — what any seat may know now (plain read-only data);
* :meth:`apply_action` — answer; an illegal id raises :class:`IllegalAction`
  and changes nothing.

Chance is inside: every shuffle and random pick is drawn from the game's
seeded generator, so ``seed`` + the list of actions replays a game exactly.

Where the control state lives
-----------------------------
The rules engine is ordinary recursive Python: a card's effect asks a
question in the middle of its resolution, and the answer is returned to that
very call (the rules' queued timing-node loop never interrupts an effect, so the stack is
the natural shape). The engine therefore runs in a *greenlet* that is paused
inside ``Game.ask`` while the caller decides; :meth:`apply_action` switches back
into it with the answer. Nothing is copied and no thread is involved: a
switch costs about a microsecond.

A paused stack cannot be copied, so :meth:`clone` re-runs the game from its seed
with the recorded actions (and any :meth:`resample` edits at the points they
were made). That is exact by construction — the engine is deterministic — and
costs what playing those decisions costs again: about 20–40 µs per decision
already taken (see ``bench/bench.py``: a clone in mid-game is a few
milliseconds). :meth:`resample` is a clone whose hidden information is then
re-dealt in place, consistently with one seat's observation. A sample must not
carry the truth it was dealt from, so it does not hold its recipe (the true seed
and actions): the recipe stays in this module's ledger under a key the sample
holds, and its clone re-plays from there (see :meth:`GameState.resample`).
"""

from __future__ import annotations

import random
import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from greenlet import getcurrent, greenlet

from ..catalogue import CARD_FIELDS
from ..seeds import SEED_RANGE, as_seed, as_whole
from . import decisions as D
from .errors import EngineError, IllegalAction
from .game import Game

if TYPE_CHECKING:
    pass

TERMINAL = -4  # OpenSpiel's id for "nobody: the game is over"
# what a state stopped before its end (close(): decision and result None) is told when answered or sampled
_STOPPED = "this game was stopped before its end (close(), or the PettingZoo env's reset)"
IDENTITY_TRIES = 30  # World.sample with a weigh: deals of the unseen identities tried before the last is kept
Weigh = Callable[[dict[int, str]], float]  # a deal of unseen identities {seat: identity id} -> the odds of keeping it


def _whole(value: object, what: str) -> int:
    """`value` as an int if it is a whole number (seeds.as_whole: a numpy integer is one), else a TypeError naming
    `what`: a bool, a float or a text would be read as another number (True as 1) or fail deep in the engine."""
    whole = as_whole(value)
    if whole is None:
        raise TypeError(f"{what} is a whole number, not {str(value)[:40]!r}")
    return whole


def _draw(rng: object) -> int:
    """The sub-seed of a sample, drawn from `rng`: a random.Random (or anything with its ``getrandbits``). Anything
    else is a TypeError saying so, before a replay: a seed (an int) or numpy's Generator, easy to pass for one, had
    no ``getrandbits`` and failed with an AttributeError."""
    getrandbits = getattr(rng, "getrandbits", None)
    if getrandbits is None:
        raise TypeError(
            f"a sample is drawn from a random.Random (random.Random(seed) makes one), not {type(rng).__name__}"
        )
    bits: int = getrandbits(64)
    return bits


class GameState:
    """One game, advanced by :meth:`apply_action`. See the module docstring."""

    def __init__(self, content, n_players: int, seed: int, max_turns: int | None = None, pins=None):
        # A seed is a whole number in the range every door takes (a numpy integer is one): the generator would play
        # -1 as 1 (two seeds, one game) and a float or a text as a game no command can name again.
        whole = as_seed(seed)
        if whole is None:
            raise ValueError(f"a game's seed is {SEED_RANGE}, not {str(seed)[:40]!r}")
        seed = whole
        n_players = _whole(n_players, "a table's number of players")
        self.content = content
        self.n_players = n_players
        self.seed = seed
        self.max_turns = max_turns
        self._actions: list[int] = []  # action ids applied, in order
        self._indices: list[int] = []  # the same answers as option indices (for fast replays)
        self._edits: list[tuple] = []  # (actions applied before, seat, sub-seed, weigh) of each resample
        self._key: _Key | None = None  # a sample: the key of its recipe in the ledger (re-played from there)
        self._pins = pins  # (a sample holds none: its recipe does)
        self._game = Game(content, n_players, seed, agents=None, record=True, max_turns=max_turns, pins=pins)
        self._game.decide = self._suspend
        self._decision = None
        self._legal: tuple | None = None
        self._runner = greenlet(self._run)
        self._resume(None)

    # ------------------------------------------------------------------ running the engine

    def _run(self, _ignored=None):
        self._game.run()

    def _suspend(self, decision) -> int:
        """Inside the engine: hand the decision out and wait for its answer (an option index)."""
        self._decision = decision
        self._legal = None
        return self._runner.parent.switch(decision)

    def _resume(self, value) -> None:
        runner = self._runner
        runner.parent = getcurrent()  # come back to whoever advanced the game
        try:
            runner.switch(value)
        finally:
            if runner.dead:
                self._decision = None
                self._legal = None

    # ------------------------------------------------------------------ OpenSpiel-style interface

    def current_player(self) -> int:
        """The seat to answer, or TERMINAL (-4) once the game is over."""
        return self._decision.seat if self._decision is not None else TERMINAL

    def is_terminal(self) -> bool:
        return self._decision is None

    def legal_actions(self) -> tuple:
        """The action ids the current seat may answer with (empty when terminal)."""
        if self._decision is None:
            return ()
        return self._described()[0]

    def action_descriptors(self) -> tuple:
        """The legal actions as plain read-only descriptors, in the same order as :meth:`legal_actions`."""
        if self._decision is None:
            return ()
        listed = self._described()[1]
        return tuple(listed.fresh())  # fresh descriptors for every caller

    def _described(self) -> tuple:
        if self._legal is None:
            self._legal = self._game.actions(self._decision)
        return self._legal

    def apply_action(self, action: int) -> None:
        """Answer the current decision with a legal action id; anything else raises IllegalAction."""
        if self._decision is None:
            if self._game.result is None:  # (closed: "the game is over" was false, and its result None)
                raise IllegalAction(f"{_STOPPED}: there is nothing to answer; a clone() of it plays on")
            raise IllegalAction("the game is over: there is nothing to answer")
        legal = self._described()[0]
        index = Game.index_of(self._decision, legal, action)
        self._actions.append(legal[index])  # (a numpy integer: the int it is)
        self._indices.append(index)
        self._resume(index)

    def close(self) -> None:
        """Stop the game's engine where it stands. A state left before its end (a search's sample, played only
        a few turns on) otherwise keeps its suspended engine, and all the game with it, for good: the garbage
        collector cannot free a suspended greenlet. Afterwards the state is terminal and answers nothing."""
        runner = self._runner
        if not runner.dead:
            runner.parent = getcurrent()
            runner.throw()  # GreenletExit, raised where the engine waits for its answer: it unwinds and ends
        self._decision = None
        self._legal = None

    def _seat(self, seat: object) -> int:
        """`seat` if it is a seat at this table; else a TypeError (not a whole number: True read as seat 1) or an
        IndexError naming the seats, before anything reads it."""
        whole = _whole(seat, "a seat")
        if not 0 <= whole < self.n_players:
            raise IndexError(f"seat {whole} is not at this table (0..{self.n_players - 1})")
        return whole

    def observation(self, seat: int):
        """Everything `seat` may know now (docs/observation.md)."""
        return self._game.observation(self._seat(seat), self._decision)

    def public_observation(self):
        """What a spectator may know now: the observation of a seat with no hand, no identity, no role, no task
        and no card it followed — only what every seat sees (``seat`` and the ``me`` fields null or empty, no known
        cards or identities, the public history, never a decision). docs/observation.md."""
        return self._game.observation(None, None)

    def returns(self) -> list[float]:
        """+1 for each winner and -1 for each other seat at the end (all 0 if nobody won or not over)."""
        result = self._game.result
        if result is None or not result.winners:
            return [0.0] * self.n_players
        won = {p.seat for p in result.winners}
        return [1.0 if s in won else -1.0 for s in range(self.n_players)]

    def history(self) -> list[int]:
        """The action ids applied so far (a sample: since it was dealt; what came before is not its to carry)."""
        return list(self._actions)

    @property
    def result(self):
        """The GameOver (winners, reason) once terminal, else None."""
        return self._game.result

    @property
    def decision_kind(self) -> str | None:
        return self._decision.kind if self._decision is not None else None

    @property
    def action_space_size(self) -> int:
        """How many action ids this content has (the size of an RL action mask)."""
        return self._game.describer.space.size

    # ------------------------------------------------------------------ copies

    def clone(self) -> GameState:
        """An independent copy in exactly this state (re-played; see the module docstring)."""
        if self._key is None:
            copy = GameState(self.content, self.n_players, self.seed, self.max_turns, self._pins)
        else:
            copy = GameState._dealt(self.content, self.n_players, self.max_turns, self._key)
        copy._replay(self._indices, self._actions, self._edits)
        return copy

    def _replay(self, indices, actions, edits) -> None:
        """Answer the recorded decisions again, each re-deal made where it was (before the answer of decision
        `at`). The engine is answered where it asks (its ``decide``), not paused and resumed at each decision: the
        same calls in the same order, without two greenlet switches a decision; it is paused again at the first
        decision past the record."""
        pending = list(edits)
        n = len(indices)
        done = 0  # decisions answered so far

        def answer(decision) -> int:
            nonlocal done
            if done == n:  # the present: hand the decision out as usual
                self._game.decide = self._suspend
                return self._suspend(decision)
            while pending and pending[0][0] == done:
                self._apply_edit(*pending.pop(0))
            index = indices[done]
            self._actions.append(actions[done])
            self._indices.append(index)
            done += 1
            return index

        if n and self._decision is not None:
            self._game.decide = answer
            try:
                self._resume(answer(self._decision))  # (the decision it is paused at: the first)
            finally:
                self._game.decide = self._suspend
        for edit in pending:
            self._apply_edit(*edit)

    def _recipe(self) -> _Recipe:
        """How to re-play this state from the start: (seed, pins, option indices, action ids, re-deals)."""
        indices, actions = tuple(self._indices), tuple(self._actions)
        if self._key is None:
            return (self.seed, self._pins, indices, actions, tuple(self._edits))
        seed, pins, base_indices, base_actions, base_edits = _LEDGER[self._key]
        at = len(base_indices)
        edits = base_edits + tuple((at + i, s, sub, w) for i, s, sub, w in self._edits)
        return (seed, pins, base_indices + indices, base_actions + actions, edits)

    @classmethod
    def _dealt(cls, content, n_players: int, max_turns: int | None, key: _Key) -> GameState:
        """The state the ledger keeps under `key` (a sample: its recipe ends with its re-deal), holding the key,
        not the recipe: its seed is the sample's own (drawn in the re-deal), its actions those applied since."""
        seed, pins, indices, actions, edits = _LEDGER[key]
        state = cls(content, n_players, seed, max_turns, pins)
        state._replay(indices, actions, edits)
        state.seed = state._game.seed  # (the re-deal's: step._redeal)
        state._key = key
        state._pins = None
        state._indices, state._actions, state._edits = [], [], []
        return state

    def world(self, seat: int) -> World:
        """`seat`'s view of this game for a search bot: :meth:`World.sample` deals determinizations of it."""
        seat = self._seat(seat)
        refused = self.sample_refused(seat)
        if refused:  # (its samples would all be refused: said now, not at its first sample)
            raise ValueError(refused)
        return World(self.content, self.n_players, self.max_turns, _file(self._recipe()), seat)

    def sample_refused(self, seat: int) -> str:
        """Why no sample (:meth:`resample`, :meth:`world`) can be dealt for `seat` now, "" if one can: a sample is
        dealt for the seat to act (or for any seat once the game is over, or while the seats choose their roles; for
        none once it is stopped before its end). A seat not at the table is an IndexError, as in :meth:`observation`."""
        return _not_dealt_for(self._game, self._decision, self._seat(seat))

    def resample(self, seat: int, rng: random.Random) -> GameState:
        """A copy consistent with `seat`'s observation, every card and fact it cannot see re-dealt.

        A function of what `seat` has seen and of `rng` only: two states `seat` cannot
        tell apart give the same sample from generators in the same state.

        Re-dealt (Zones.redeal, Skills.redeal): every card `seat` cannot see (other
        hands, the deck, the face-down pending intel, cards used face down) gets a
        face — deck id, card type, colours, arrow, lock symbol, per-copy data — from
        the faces it has not seen, jointly and uniformly among the deals that fit what
        everyone knows of a card (a card used face down: the card type it was used as,
        any type if an effect used it as another; the face-down intel: the arrow it
        was sent with, the lock symbol if it was locked through it); the identity cards
        (and secret tasks) of the other seats whose identity `seat` has not looked at;
        the face-down roles of the others, with the role pile; and the generator of
        all future chance. Dropped: what only another seat was told of (its secret
        statuses, marks and receiver binding, the cards and identity cards it looked at
        alone: Zones.forget_looks, its face-down role's skill uses) and every record
        `seat` does not read (another seat's questions, looks and secrets; the
        referee's: the deal); of who follows each card, only what the whole table was
        told is kept (and the looks of an effect still resolving). Kept: everything in `seat`'s
        observation, which is identical before and after. What is not inferred: facts
        another seat's past behaviour implies (the state is consistent with what `seat`
        saw, not conditioned on how likely the others' moves were).

        What the sample carries: no true seed (its ``seed`` is the seed of its own
        chance, drawn in the re-deal), no action id from before it was dealt
        (:meth:`history` is what was applied to it since), no count of the questions
        asked before it (they tell of the others' hands), no count of the changes
        only another seat saw (the engine's stamps start again above their old
        values), nothing only another seat knew. The recipe that re-plays it (the true seed and the actions) stays
        with the referee, in this module's ledger, under a key the sample holds:
        :meth:`clone` re-plays it exactly.
        """
        seat = self._seat(seat)
        refused = self.sample_refused(seat)
        if refused:  # (before anything is re-played or drawn from `rng`)
            raise ValueError(refused)
        seed, pins, indices, actions, edits = self._recipe()
        dealt = (seed, pins, indices, actions, (*edits, (len(indices), seat, _draw(rng), None)))
        return GameState._dealt(self.content, self.n_players, self.max_turns, _file(dealt))

    def _apply_edit(self, at: int, seat: int, sub_seed: int, weigh: Weigh | None) -> None:
        self._edits.append((at, seat, sub_seed, weigh))
        _redeal(self._game, seat, random.Random(sub_seed), weigh)
        self._legal = None


# How to re-play a state from the start: (seed, pins, option indices, action ids, re-deals as (at, seat, sub-seed,
# weigh)).
_Recipe = tuple[int, Any, tuple[int, ...], tuple[int, ...], tuple[tuple[int, int, int, Weigh | None], ...]]


class _Key:
    """The name of a recipe in the ledger. It holds nothing: a sample or a World that holds one can be re-played
    (by this module) without carrying the true seed and actions it is re-played from."""

    __slots__ = ("__weakref__",)


# The referee's ledger: the recipes of the states dealt from a game their holder may not see all of (samples,
# Worlds), by key; an entry goes when nothing holds its key any more. In process this is a privacy of data, not a
# wall: a bot is trusted code (docs/bots.md), and one that must not be trusted runs in another process.
_LEDGER: weakref.WeakKeyDictionary[_Key, _Recipe] = weakref.WeakKeyDictionary()
_LEDGER_LOCK = threading.Lock()  # (search bots may sample on a server's worker threads)


def _file(recipe: _Recipe) -> _Key:
    """Keep a recipe in the ledger; its key."""
    key = _Key()
    with _LEDGER_LOCK:
        _LEDGER[key] = recipe
    return key


class World:
    """What a search bot may do with one seat's view of a live game: deal determinizations of it.

    :meth:`sample` returns a new GameState in which every card and fact `seat` cannot see has been
    dealt again (exactly what :meth:`GameState.resample` gives: same observation for `seat`, same
    legal actions, a function of what `seat` has seen and of the generator only: two games the seat
    cannot tell apart give the same samples). A World holds the content, the table's size, the seat
    and the key of its game's recipe in the referee's ledger — not the seed, not the actions.
    Drivers hand one to an agent that sets ``searches`` (``Agent.search``): ``drive`` and the
    simulate batches do it (``Game(..., worlds=World.of_game)``), and a step-API caller with
    :meth:`GameState.world`.
    """

    __slots__ = ("_content", "_n", "_max_turns", "_key", "seat")

    def __init__(self, content, n_players: int, max_turns: int | None, key: _Key, seat: int) -> None:
        self._content, self._n, self._max_turns, self._key = content, n_players, max_turns, key
        self.seat = seat

    @classmethod
    def of_game(cls, game: Game, seat: int) -> World:
        """The view of `seat` in a game driven by its agents (``drive``, ``simulate``)."""
        if len(game.decision_log) != len(game.actions_taken):
            raise EngineError("a search bot needs a game whose every answer is an action id (no referee agents)")
        recipe = (game.seed, game.pins, tuple(game.decision_log), tuple(game.actions_taken), ())
        return cls(game.content, game.n, game.max_turns, _file(recipe), seat)

    def sample(self, rng: random.Random, weigh: Weigh | None = None) -> GameState:
        """A determinization: the game replayed, then everything `seat` cannot see dealt again from `rng`.

        `weigh`, a search bot's belief about the identities it has not seen: given a deal of them ({seat: identity
        id} for the seats re-dealt one), the probability of keeping it. The identities are then drawn again, up to
        IDENTITY_TRIES times, until a draw from the sample's generator keeps one (else the last is kept): a sample
        that fits what the bot inferred, for the cost of shuffles, not of replaying the game for each try. A pure
        function of what it is given (the sample is re-played with it: clone)."""
        seed, pins, indices, actions, edits = _LEDGER[self._key]
        dealt = (seed, pins, indices, actions, (*edits, (len(indices), self.seat, _draw(rng), weigh)))
        return GameState._dealt(self._content, self._n, self._max_turns, _file(dealt))


def _not_dealt_for(g: Game, decision: Any, seat: int) -> str:
    """Why no sample can be dealt for `seat` at `decision` ("" if one can). A sample is dealt for the seat to act:
    the question pending was made from the truth, so for another seat its options (the cards the acting seat may use,
    and as what) and its very existence (an ask about a skill of a face-down role, a choice among the top roles of
    the pile) would be facts `seat` may not know, which a re-deal cannot take back without re-running the rules that
    asked it. One question is dealt again with the rest: a seat's choice among the roles dealt to it at the start
    (Skills.redeal deals its options anew, in place). A finished game has no question. A game stopped before its end
    (close()) has one no longer in hand: its sample, re-played, would stop at that question again, whoever it was
    dealt for, so none is dealt (a clone of it plays on, and is sampled at its question as any game)."""
    if decision is None:
        return "" if g.result is not None else f"{_STOPPED}: no sample is dealt of it; a clone() of it plays on"
    if decision.seat == seat or (decision.kind == D.ROLE and g.skills.dealing_roles):
        return ""
    return (
        f"a sample is dealt for the seat to act (P{decision.seat}), not for P{seat}: the question P{decision.seat} "
        "is asked was made from its true cards and role, so a sample dealt for another seat would show them"
    )


def _redeal(g: Game, seat: int, r: random.Random, weigh: Weigh | None = None) -> None:
    """Re-deal in place everything `seat` cannot see (see GameState.resample; `weigh`: World.sample)."""
    before = {id(c): c.uid for c in g.cards}  # (each place's card before the re-deal: for the events still pending)
    t, pending = g.flow.transit, g.zones.pending
    sent = t is not None and pending is not None and t.card is pending  # sent as it is: its arrow was announced
    g.zones.redeal(
        seat, r, pending.direction if sent and pending is not None else None, sent and t is not None and t.symbol
    )
    g.skills.redeal(seat, r, weigh, IDENTITY_TRIES)
    g.seats.forget_secrets(seat)
    g.zones.forget_looks(seat)
    g.flow.forget_secret_bindings(seat)
    moved = {old: c.uid for c in g.cards if (old := before[id(c)]) != c.uid}
    _rewrite_history(g, seat, moved)
    zones = g.zones
    if zones.drawn:  # (an order drawn at random in the effect resolving: its cards, now under their new ids)
        zones.drawn = {moved.get(uid, uid) for uid in zones.drawn}
    # the sample's own seed: its future chance is drawn from it, and it names nothing of the game it came from
    g.seed = r.getrandbits(64)
    g.reseed(g.seed)
    # no count of the questions asked before the deal: a seat is asked at a window (争夺阶段) only when it holds
    # something it may use there, and asked to pick among cards only when it holds more than one that fit, so the
    # count — of every seat's questions — tells of the others' hands (what the browser table's seq leaves out:
    # docs/observation.md). The sample's questions are counted from its deal (its decision limit, E503, too); the
    # answers were the truth's.
    g.decision_count = 0
    g.decision_log = []
    # nor the statistics of the truth's play (counted from its deal, as its questions): the offers of a skill name the
    # role of the seat it was offered to (a face-down one's skill asked at its idle points), the re-deal dealt anew
    g.skills.skill_uses, g.skills.skill_offers, g.card_use.card_uses = {}, {}, {}
    g.skills.rule_skill_uses = {}
    _rebase_stamps(g)
    g.actions_taken = []
    g._labels = {}  # (labels of the cards and card uses offered so far, by deck id: its own, not its deck's shared)
    g.pins = None  # (a referee's fact of the setup: which seat was dealt a role or task)


# A re-deal's stamps start above every value they had: a game's counters stay far below it (its step budget and
# decision limit end it first), so no record kept under an old stamp is ever taken for a new one
_STAMP_BASE = 2**40


def _rebase_stamps(g: Game) -> None:
    """Start the change counters that stamp what the engine keeps (Zones' moves, sightings, intel, deck and removed
    counts, GameCore.changes, Seats.standing, each Player.version) again above every value they had. They counted
    everything the truth did, what only another seat saw too — a 查看 of a hand card (sightings), a secret status
    or mark (a player's version) — so a sample keeping them would tell how many such things happened. The new
    values depend only on how many re-deals the game had; what was kept under an old stamp is found stale, as after
    any change, and made again (the victory checks too). The step budget left is kept as it was."""
    zones, seats = g.zones, g.seats
    left = g.steps_left
    counts = [g.changes, zones.moves, zones.sightings, zones.intel_changes, zones.unremoved, zones.decked]
    counts += [seats.standing, *[p.version for p in g.players]]
    base = (max(counts) // _STAMP_BASE + 1) * _STAMP_BASE
    g.changes = zones.moves = zones.sightings = zones.intel_changes = zones.unremoved = zones.decked = base
    seats.standing = base
    for p in g.players:
        p.version = base
    g.steps_left = left


def _rewrite_history(g: Game, seat: int, uid_map: dict[int, int]) -> None:
    """Make the log what a sample for `seat` may carry: the records `seat` reads, as it reads them, and no other.

    A record another seat alone was told of (its questions and answers, its looks at cards and identity cards, its
    secret statuses, marks, counters and binding, the uses of its face-down role's skills) and the referee's (the
    deal) go: their very being there tells `seat` something it may not know (how many questions another seat was
    asked tells of its hand; a look, what it looked at), and a search that plays the others from their observations
    inside the sample would read them. A field of a public record that `seat` may not read (the cards another seat
    drew, the skill of a face-down role's announced use) is read by nobody in the sample, and one it reads by it
    alone: who else could read it was named from who could see a card when it was recorded, which counts the seats
    that had looked at it alone (a look at the top of the deck makes its looker a reader of the draw that takes it).
    The others' hands are in their observations all the same (the faces the re-deal gave them).

    Such a record is replaced in the log by its copy, not blanked in place: the same dict may be an event a trigger
    has still to hear (Game.events, a batch of Resolution.run_triggers), which names by `uid_map` (old id -> the id of
    the card the re-deal put in that place) the card now in the place it named, as the sample's cards are, and no
    skill a face-down role may not have (a trigger reading a blank card would resolve on no card: a world `seat`
    could not tell from what it saw).
    """
    if not g.record:
        return
    g.log[:] = [rec for rec in g.log if (to := rec.get("to")) is None or seat in to]
    for i, rec in enumerate(g.log):
        secret = rec.get("secret")
        if not secret:
            continue  # (most records)
        seen = {**rec, "secret": {f: [seat] if seat in readers else [] for f, readers in secret.items()}}
        for f, readers in secret.items():
            if seat not in readers:
                seen[f] = None
                v = rec.get(f)
                if f == "skill":
                    rec[f] = None
                elif f in CARD_FIELDS and type(v) is int:
                    rec[f] = uid_map.get(v, v)
                elif f in CARD_FIELDS and type(v) is list:
                    rec[f] = [uid_map.get(x, x) if type(x) is int else x for x in v]
        g.log[i] = seen
    g.forget_views()  # what observations kept is stale now (records went, fields were blanked)


def drive(content, n_players: int, seed: int, agents, max_turns: int | None = None, record: bool = False) -> Game:
    """Play a whole game with one agent per seat; returns the finished Game.

    The same engine, descriptors, observations and answer checks as the step
    API, without pausing: the engine calls each agent where it asks (no greenlet
    switch), which is the fast path for batches. Playing the same seed with the
    answers it records (``game.actions_taken``) through :class:`GameState` gives
    the same game (tests check it). The log is kept if `record` or an agent observes.
    """
    game = Game(content, n_players, seed, agents, record=record, max_turns=max_turns, worlds=World.of_game)
    game.run()
    return game


__all__ = ["GameState", "TERMINAL", "World", "drive", "EngineError", "IllegalAction"]
