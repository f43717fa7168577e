"""The seats: their order and neighbours, and each seat's standing.

Seats are numbered counter-clockwise (seat+1 is the right-hand neighbour).
:class:`Seats` owns who is still in play — a player's ``alive``, ``out`` and
``dying``, the dying player, the players whose death is resolving and those
who just died — and the per-turn conditions effects put on a player: statuses
and marks. Dying and death are procedures of the resolution (resolution.py),
abstaining one of the turn flow's (flow.py); they change a seat's standing
through the operations here, and only through them: each counts as a change of the standing
(``Seats.standing``), which what is kept about the living players (and the victory checks) follows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .core import emit_event
from .state import LASTING, LEFT, RIGHT, SECRET_LASTING, Card, Player, mark_record

if TYPE_CHECKING:
    from ..model.declared import CounterDecl
    from .core import GameCore


class Seats:
    """Seat order, neighbours and each seat's standing (see the module docstring)."""

    def __init__(self, game: GameCore) -> None:
        self.game = game
        self.players = game.players
        self.n = game.n
        n = self.n
        # every seat order "from seat s on", made once: read-only tuples, walked at every node; each is one
        # slice of the seats twice over (and the left rings, of that reversed)
        twice = tuple(self.players) * 2
        self._orders = tuple([twice[s : s + n] for s in range(n)])
        # per seat, the others in the order neighbor() walks them, ending with the seat itself: right (seat+1 …)
        # and left (seat-1 …)
        self._rights = tuple([twice[s + 1 : s + 1 + n] for s in range(n)])
        back = twice[::-1]  # back[n - s] is seat s - 1 (mod n), then s - 2 …, ending with s
        self._lefts = tuple([back[n - s : 2 * n - s] for s in range(n)])
        # the living players from each seat on, kept while the standing does not change (alive changes only
        # through kill, withdraw and place_dead, which count as changes of the standing)
        self._alive_at = -1
        self._alive_from: list[tuple[Player, ...] | None] = [None] * self.n
        self._alive_count = 0
        self.dying_player: Player | None = None  # the player whose rescue is being asked for
        self.in_death: set[Player] = set()  # players whose death is being resolved
        self.just_died: set[Player] = set()  # ... or was, until the deferred victory check right after it
        # the version of the seats' standing (catalogue.STATE_PARTS): counts every change of who is alive, out,
        # dying, resolving a death or just died, and of whose identity card and secret task is where
        self.standing = 0

    # ------------------------------------------------------------------ order and neighbours

    def order_from(self, start: Player) -> tuple[Player, ...]:
        """All players counter-clockwise starting at `start` (a shared tuple: do not keep it to change)."""
        return self._orders[start.seat]

    def alive_order(self, start: Player) -> tuple[Player, ...]:
        """The living players counter-clockwise from `start` (a shared tuple, kept while the standing does not
        change)."""
        if self._alive_at != self.standing:
            self._alive_at = self.standing
            self._alive_from = [None] * self.n
            self._alive_count = sum(1 for p in self.players if p.alive)
        got = self._alive_from[start.seat]
        if got is None:
            got = self._alive_from[start.seat] = tuple([p for p in self._orders[start.seat] if p.alive])
        return got

    def alive_from(self, start: Player) -> list[Player]:
        return list(self.alive_order(start))

    def alive_players(self) -> list[Player]:
        return list(self.alive_order(self.players[0]))

    def alive_count(self) -> int:
        """How many players are alive."""
        if self._alive_at != self.standing:
            self.alive_order(self.players[0])
        return self._alive_count

    def neighbor(self, p: Player, direction: str, stop_at: Player | None = None) -> Player | None:
        """The next living player to the left (←) or right (→) of p; `stop_at` is returned even if dead."""
        for q in (self._rights if direction == RIGHT else self._lefts)[p.seat]:
            if q is stop_at or q.alive:
                return q
        return None

    def neighbors(self, p: Player) -> list[Player]:
        out = []
        for d in (LEFT, RIGHT):
            q = self.neighbor(p, d)
            if q is not None and q is not p and q not in out:
                out.append(q)
        return out

    # ------------------------------------------------------------------ standing

    def start_dying(self, p: Player) -> None:
        """p enters dying (濒死): the table is asked to save him."""
        p.dying = True
        p.version += 1
        self.dying_player = p
        self.standing += 1

    def stop_dying(self, p: Player) -> None:
        p.dying = False
        p.version += 1
        self.dying_player = None
        self.standing += 1

    def kill(self, p: Player) -> None:
        """p dies; his death is resolving (death checks, 死亡前 triggers, his last gift)."""
        p.alive = False
        p.version += 1
        self.in_death.add(p)
        self.standing += 1

    def dead_skill_works(self, p: Player, on: Any) -> bool:
        """Does a skill of dead p triggered `on` these events work: one of his 死亡前 skills (`died`) while his death
        resolves, the only skills a dead player has (seed 004: all but those are void)?"""
        return on is not None and "died" in on and p in self.in_death

    def death_resolved(self, p: Player) -> None:
        """p's death has resolved; he counts as just died until the next node's victory check."""
        self.in_death.discard(p)
        self.just_died.add(p)
        self.standing += 1

    def forget_deaths(self) -> None:
        """The victory check after the deaths is done: nobody counts as just died any more."""
        if self.just_died:
            self.just_died.clear()
            self.standing += 1

    def place_dead(self, p: Player) -> None:
        """p is dead where the game starts (a table built mid-game)."""
        p.alive = False
        p.version += 1
        self.standing += 1

    def withdraw(self, p: Player) -> None:
        """弃权: p is out — not dead, no triggers, cannot win."""
        p.alive = False
        p.out = True
        p.version += 1
        self.standing += 1

    # ------------------------------------------------------------------ statuses and marks

    def has_status(self, p: Player, name: str) -> bool:
        until = p.statuses.get(name)
        return until is not None and until >= self.game.turn_no

    def add_status(self, p: Player, name: str, turns: int = 0, secret: bool = False) -> None:
        """A status lasting to the end of this turn (turns=0) or later turns; a secret one only p hears of."""
        p.statuses[name] = self.game.turn_no + turns
        p.version += 1
        if secret:
            p.secret_statuses.add(name)
        else:
            p.secret_statuses.discard(name)
        emit_event(self.game, "status", seat=p.seat, status=name, to=[p.seat] if secret else None)

    def forget_secrets(self, seat: int) -> None:
        """Drop what only another player was told of — his secret statuses, his secret marks kept for the game and
        the identity cards he looked at (Skills.look_identity: its record goes to him alone) — (the step API's
        resample for `seat`: a sample must not carry facts `seat` cannot know; absent is one world consistent with
        what it saw)."""
        for p in self.players:
            if p.seat == seat:
                continue
            p.version += 1
            p.known_identities.clear()
            for name in p.secret_statuses:
                p.statuses.pop(name, None)
            p.secret_statuses.clear()
            for key in [k for k, (t, _v) in p.marks.items() if t == SECRET_LASTING]:
                del p.marks[key]

    def set_up_status(self, p: Player, name: str) -> None:
        """A status already in force when a table is built mid-game (table.build): until this turn's end, no event."""
        p.statuses[name] = self.game.turn_no
        p.version += 1

    def mark(self, p: Player, key: str) -> Any:
        """The value of p's mark `key` set this turn or kept for the game, or None."""
        turn, value = p.marks.get(key, (None, None))
        if turn == self.game.turn_no:
            return value
        return value if turn is not None and turn < 0 else None  # LASTING, SECRET_LASTING

    def keep_mark(self, p: Player, key: str, value: Any, secret: bool = False) -> None:
        """A mark kept for the game (until cleared: value None or False); a secret one only p knows of. Recorded
        in the log (to p alone if secret); a victory condition may read it: it counts as a change."""
        if value is None or value is False:
            old = p.marks.pop(key, None)
            if old is None or old[0] >= 0:  # not set, or a mark of one turn (never recorded): nothing to say
                return
            secret = old[0] == SECRET_LASTING
            value = None
        else:
            p.marks[key] = (SECRET_LASTING if secret else LASTING, value)
        p.version += 1
        # a card's face may be hidden from some seats: its value is recorded as None, and `card_value` tells that from
        # a mark cleared; a player is recorded as his seat, and `player_value` tells that from a number
        to = [p.seat] if secret else None
        if isinstance(value, Card):
            emit_event(self.game, "mark", seat=p.seat, key=key, value=None, card_value=True, to=to)
        elif isinstance(value, Player):
            emit_event(self.game, "mark", seat=p.seat, key=key, value=value.seat, player_value=True, to=to)
        else:
            emit_event(self.game, "mark", seat=p.seat, key=key, value=mark_record(value), to=to)
        self.game.note_change()

    # ------------------------------------------------------------------ counters the rules declare

    def start_counters(self, counters: Iterable[CounterDecl]) -> None:
        """Each player's declared counters at their initial values (its role's, where the rules give one), as lasting
        marks: public, or its owner's alone. Recorded as marks; no counter_changed (nothing changed)."""
        for c in counters:
            for p in self.players:
                self.keep_mark(
                    p, c.name, c.initial_for(p.role.id if p.role is not None else None), c.visibility == "owner"
                )

    def counter(self, p: Player, c: CounterDecl) -> int:
        """p's value of the declared counter c (its minimum if nothing set it: a table built mid-game)."""
        v = self.mark(p, c.name)
        return v if type(v) is int else c.minimum

    def set_counter(self, p: Player, c: CounterDecl, value: int) -> bool:
        """p's counter c made `value`, kept within its range; False if that changes nothing. The change is the event
        counter_changed, heard by those who see the counter."""
        before = self.counter(p, c)
        after = c.clamp(value)
        if after == before:
            return False
        owner = c.visibility == "owner"
        self.keep_mark(p, c.name, after, owner)
        emit_event(
            self.game,
            "counter_changed",
            to=[p.seat] if owner else None,
            seat=p.seat,
            counter=c.name,
            before=before,
            after=after,
        )
        return True

    def set_mark(self, p: Player, key: str, value: Any) -> None:
        """Mark p for this turn (a mark is state a victory condition may read: it counts as a change)."""
        p.marks[key] = (self.game.turn_no, value)
        p.version += 1
        self.game.note_change()
