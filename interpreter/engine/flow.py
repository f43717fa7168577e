"""The turn flow: a turn's phases, one after another, and the intel's journey.

Phases follow the rules' `turn:` (catalogue.PHASE_KINDS; the base game: 摸牌 → 出牌 → 传递 → 争夺 →
接收), then 回合结束.
Every place the rules stop and let a player act calls ``settle`` first — the
timing-node loop of the rules, in resolution.py — so triggers, victory checks
and dying happen in the one documented order. :class:`TurnFlow` owns the intel
being sent this turn (:class:`Transit`), the player it is in front of, whether
the contest is over, and what effects changed about this turn's draw and send
(extra cards; the direction of the intel sent). The clock (whose turn, which turn, which phase)
is GameCore's; the turn flow advances it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ..suggest import did_you_mean
from . import decisions as D
from .core import ask_seat, emit_event, unheard
from .decisions import PlayOption
from .errors import EngineError, GameOver
from .state import INTEL, LEFT, PENDING, RIGHT, UP, Card, Player

if TYPE_CHECKING:
    from .card_use import CardUse
    from .core import GameCore
    from .resolution import Resolution
    from .seats import Seats
    from .skills import Skills
    from .victory import Victory
    from .zones import Zones

ACCEPT: Final = "accept"
DECLINE: Final = "decline"
# send_intel: the sender chooses the lock (an effect may have chosen it: None or a player)
NO_LOCK: Final[Any] = object()


class Transit:
    """The intel being sent this turn (情报传递). `symbol`: the sender locked it as its lock symbol allows, so
    everyone knows the card has one (a lock an effect chose tells nothing of the card)."""

    __slots__ = ("card", "sender", "direction", "target", "lock", "face_up", "symbol")

    def __init__(
        self,
        card: Card,
        sender: Player,
        direction: str,
        target: Player | None,
        lock: Player | None,
        face_up: bool,
        symbol: bool = False,
    ) -> None:
        self.card, self.sender, self.direction = card, sender, direction
        self.target, self.lock, self.face_up = target, lock, face_up
        self.symbol = symbol


class TurnFlow:
    """A turn's phases and the intel's journey (see the module docstring)."""

    def __init__(
        self,
        game: GameCore,
        seats: Seats,
        zones: Zones,
        skills: Skills,
        victory: Victory,
        resolution: Resolution,
        card_use: CardUse,
    ) -> None:
        self.game = game
        self.seats = seats
        self.zones = zones
        self.skills = skills
        self.victory = victory
        self.resolution = resolution
        self.card_use = card_use
        # (the components are called directly, not through bound methods kept here: compiled, a call of a bound
        # method goes through Python's calling convention, a direct call does not)
        # the turn's phases (rules `turn:`), precompiled: (the kind's method, the phase's id) in order
        runners = {
            "draw": self.draw_phase,
            "play": self.play_phase,
            "send": self.send_whole_phase,
            "contest": self.contest_whole_phase,
            "receive": self.receive_whole_phase,
            "discard": self.discard_phase,
        }
        self.turn_phases = game.rules.phases
        self.phases: list[tuple[Callable[[Player, str], None], str]] = [
            (runners[ph.kind], ph.id) for ph in self.turn_phases
        ]
        self.accepted = False  # the intel sent this turn was accepted (contest and receive phases run)
        self.kind_of = {ph.id: ph.kind for ph in self.turn_phases}
        # the phases' settings (catalogue.PhaseKind.settings) and the rules' house-rule switches, read once
        rules = game.rules
        self.draw_counts = {ph.id: ph.setting("count") for ph in self.turn_phases if ph.kind == "draw"}
        self.contest_rounds = {ph.id: ph.setting("rounds") for ph in self.turn_phases if ph.kind == "contest"}
        self.first_turn_skip = frozenset(rules.first_turn_skip)
        self.hand_limit = rules.hand_limit
        # the arrows a player may send with; None: all of them (the base game: nothing to filter)
        self.send_arrows: frozenset[str] | None = (
            None if set(rules.send_arrows) >= {LEFT, RIGHT, UP} else frozenset(rules.send_arrows)
        )
        self.transit: Transit | None = None  # the intel being sent this turn
        self.holder: Player | None = None  # the player the pending intel is in front of
        self.contest_over = False  # an effect ended the 争夺阶段
        self.extra_draw = 0  # cards added to this draw phase by effects
        # who must / must not accept the pending intel, bound to that card (set_receivers): (card, must, cannot)
        self.receivers: tuple[Card, frozenset[Player], frozenset[Player]] | None = None
        self.secret_bound: frozenset[Player] = frozenset()  # bound by a secret set_receivers: each knows only his own

    # ------------------------------------------------------------------ what effects change about the turn

    def move_pending(self, p: Player) -> bool:
        """The pending intel is now in front of p. False if there is none."""
        if self.zones.pending is None:
            return False
        # moving it to where it already is changes nothing (e.g. taking an intel that is already in front of you)
        if self.holder is not p:
            self.holder = p
            if not unheard(self.game, "pending_moved"):
                emit_event(self.game, "pending_moved", seat=p.seat)
        return True

    def set_direction(self, direction: str) -> bool:
        """The intel sent this turn travels this way from now on (an arrow 视作任意方向).

        Used at the 传出情报时 node, after the send (and any card that made it) has resolved: the
        target and lock were chosen with the send. Made ↑, the sender now picks whom it goes to;
        made ←/→, an ↑ target is dropped; the lock stays. False if no intel is on its way or
        `direction` is not a direction.
        """
        t = self.transit
        if direction not in (LEFT, RIGHT, UP) or t is None or self.zones.pending is not t.card:
            return False
        if self.send_arrows is not None and direction not in self.send_arrows:  # the rules' send_arrows
            return False
        if direction == t.direction:
            return True
        target = None
        if direction == UP:
            others = [q for q in self.seats.alive_from(t.sender) if q is not t.sender]
            if not others:
                return False
            target = ask_seat(self.game, t.sender, D.SEND_TARGET, others, "情报传给谁")
        t.direction, t.target = direction, target
        emit_event(
            self.game, "direction_set", seat=t.sender.seat, direction=direction, target=target.seat if target else None
        )
        return True

    def lock_intel(self, p: Player | None) -> bool:
        """The intel sent this turn is locked on p (可以锁定, for a card without the lock symbol too): at
        the 传出情报时 node, after the send. False if no intel is on its way, it is locked already (the lock
        chosen with the send stays), or p is none, the sender or dead."""
        t = self.transit
        if t is None or self.zones.pending is not t.card or t.lock is not None:
            return False
        if p is None or p is t.sender or not p.alive:
            return False
        t.lock = p
        emit_event(self.game, "lock_set", seat=t.sender.seat, target=p.seat)
        return True

    def set_receivers(self, must: list[Player], cannot: list[Player], secret: bool = False) -> bool:
        """While the pending intel stays pending (not once it is received, discarded or replaced by another
        card), the players of `must` have to accept it and those of `cannot` may not (必须接收/不能接收该情报);
        a player in both must. Adds to what was set on the same intel. False if no intel is pending.
        Secret: each bound player is told only of his own binding (one record to him alone), nobody else."""
        card = self.zones.pending
        if card is None:
            return False
        if self.receivers is None or self.receivers[0] is not card:
            self.secret_bound = frozenset()  # bindings of an earlier intel are over
        old_must, old_cannot = (
            (self.receivers[1], self.receivers[2])
            if self.receivers is not None and self.receivers[0] is card
            else (frozenset(), frozenset())
        )
        self.receivers = (card, old_must | frozenset(must), old_cannot | frozenset(cannot))
        if secret:
            self.secret_bound |= frozenset(must) | frozenset(cannot)
        if not secret:
            emit_event(
                self.game, "receivers_set", must=sorted(p.seat for p in must), cannot=sorted(p.seat for p in cannot)
            )
        else:
            for p in sorted({*must, *cannot}, key=lambda q: q.seat):
                own = ([p.seat], []) if p in must else ([], [p.seat])
                emit_event(self.game, "receivers_set", must=own[0], cannot=own[1], to=[p])
        return bool(must or cannot)

    def forget_secret_bindings(self, seat: int) -> None:
        """Drop the secret receiver bindings of the players other than `seat` (the step API's resample for `seat`:
        each bound player alone knows his binding, which his identity decided)."""
        hidden = {p for p in self.secret_bound if p.seat != seat}
        if self.receivers is not None and hidden:
            card, must, cannot = self.receivers
            self.receivers = (card, must - hidden, cannot - hidden)
        self.secret_bound -= hidden

    def add_draw(self, n: int) -> None:
        """This draw phase draws n more cards."""
        self.extra_draw += n

    def end_contest(self) -> bool:
        """The 争夺阶段 ends now. False if there is no pending intel."""
        if self.zones.pending is None:
            return False
        self.contest_over = True
        return True

    def put_in_transit(self, transit: Transit, holder: Player) -> None:
        """An intel is on its way, in front of `holder` (a table built mid-game; the card is already pending)."""
        self.transit = transit
        self.holder = holder

    # ------------------------------------------------------------------ the turn

    def next_turn_player(self) -> Player:
        """Whose turn is next: the next living player to the right."""
        current = self.game.current
        assert current is not None
        q = self.seats.neighbor(current, RIGHT)
        if q is None:
            raise GameOver([], "no_players")
        return q

    def play_turn(self, start: str = "") -> None:
        """Play the current player's turn, from the beginning or resumed at phase `start`.

        The phases are the rules' `turn:` (precompiled in the constructor: one bound method per phase).
        Resuming (used by scenario files) skips the earlier phases: at a phase's id, at ``travel`` (the
        first send phase, its intel already sent: see table.put_pending) or at ``turn_end``; resuming at
        a contest or receive phase expects an intel that was accepted.
        """
        game = self.game
        p = game.current
        assert p is not None  # set up
        phases = self.phases
        i = 0
        resume = False
        if start:
            i = self.resume_at(start)
            resume = start == "travel"
            # resumed after the send: the intel in front of someone was accepted
            self.accepted = i < len(phases) and self.turn_phases[i].kind in ("contest", "receive")
        if i == 0 and not resume:
            if game.CHECK_EACH_TURN:
                self.zones.check_invariants()
            game.turn_no += 1  # a new turn begins (the clock is GameCore's; the turn flow advances it)
            self.transit = None
            self.holder = None
            self.accepted = False
            self.card_use.new_turn()
            if not unheard(game, "turn_start"):
                emit_event(game, "turn_start", seat=p.seat, turn=game.turn_no)
        skip = self.first_turn_skip if game.turn_no == 1 else None
        for run, phase in phases[i:]:
            if skip and phase in skip:  # the rules' first_turn: skip (the game's first turn only)
                continue
            if resume:
                resume = False
                self.enter_phase(phase)
                self.accepted = self.travel()
                if not self.accepted and self.zones.pending is not None:
                    self.zones.discard_cards([self.zones.pending])
                continue
            run(p, phase)
        if self.hand_limit is not None and p.alive and len(p.hand) > self.hand_limit:
            self.discard_down(p, self.hand_limit)
        # 回合结束
        self.enter_phase("turn_end")
        if not unheard(game, "turn_end"):
            emit_event(game, "turn_end", seat=p.seat)
        self.resolution.settle("回合结束时")
        self.victory.check_turn_end_victory()
        # (costs nothing in a game without 轮结束时 skills; recorded where the content has one, dealt or not: a
        # face-down role's would otherwise be told to every seat by the record, Skills.heard)
        if "round_end" in self.skills.heard:
            nxt = self.seats.neighbor(p, RIGHT)
            first, n = game.first_seat, game.n
            if nxt is not None and (nxt.seat - first) % n <= (p.seat - first) % n:
                emit_event(game, "round_end", seat=p.seat)
                self.resolution.settle("轮结束时")
        self.transit = None
        self.holder = None

    def enter_phase(self, phase: str) -> None:
        """The clock enters a phase (GameCore.phase: set here, not through GameCore.enter_phase, which compiled
        code calls through the glue for Game, its Python subclass); a resolution trace records it."""
        game = self.game
        game.phase = phase
        if game.trace is not None:
            game.trace.append(("phase", phase))

    def resume_at(self, start: str) -> int:
        """The index of the phase a turn resumed at `start` begins with (EngineError: no such phase)."""
        ids = [ph.id for ph in self.turn_phases]
        if start == "turn_end":
            return len(ids)
        if start == "travel":
            for i, ph in enumerate(self.turn_phases):
                if ph.kind == "send":
                    return i
        if start in ids:
            return ids.index(start)
        hint = did_you_mean(start, [*ids, "travel", "turn_end"])
        raise EngineError(
            f"the turn has no phase '{start}' (its phases: {', '.join(ids)}; or travel, turn_end)"
            + (f"; {hint}" if hint else "")
        )

    def open_idle_points(self, p: Player) -> list[str]:
        """The idle points (card and skill timings) whose moment it is for p now, whoever is asked: what a
        player holding priority may answer with under stack timing (priority.py keeps the fast ones).

        play_phase: the current player in a play phase; send_start and need_send: the current player in a send
        phase before the intel is sent; send_idle: the player the intel on its way is in front of; contest:
        anyone while an accepted intel is contested; dying: anyone while a player is dying."""
        out = []
        game = self.game
        kind = self.kind_of.get(game.phase)
        pending = self.zones.pending
        if self.seats.dying_player is not None:
            out.append("dying")
        if kind == "contest" and pending is not None and not self.contest_over:
            out.append("contest")
        elif kind == "send":
            if self.transit is None:
                if p is game.current:
                    out += ["send_start", "need_send"]
            elif pending is not None and self.holder is p and not self.accepted:
                out.append("send_idle")
        elif kind == "play" and p is game.current:
            out.append("play_phase")
        return out

    # ------------------------------------------------------------------ the phase kinds (catalogue.PHASE_KINDS)

    def draw_phase(self, p: Player, phase: str) -> None:
        """摸牌阶段: draw the rules' number of cards, plus what effects added at its start."""
        game = self.game
        self.enter_phase(phase)
        self.extra_draw = 0
        if not unheard(game, "draw_phase"):
            emit_event(game, "draw_phase", seat=p.seat)
        self.resolution.settle("摸牌阶段开始时")
        if p.alive:
            n = self.draw_counts.get(phase)  # the phase's `count:`, else the rules' draw_count
            self.zones.draw(p, (game.rules.draw_count if n is None else n) + self.extra_draw)

    def play_phase(self, p: Player, phase: str) -> None:
        """出牌阶段: the current player's idle point, until they pass."""
        self.enter_phase(phase)
        if p.alive:
            self.idle_loop(p, "play_phase")

    def send_whole_phase(self, p: Player, phase: str) -> None:
        """传递阶段: send an intel (or abstain) and let it travel until accepted; not accepted, it is discarded."""
        self.enter_phase(phase)
        if self.transit is not None and self.zones.pending is not self.transit.card:  # a second send this turn
            self.transit = None
            self.holder = None
        self.accepted = False
        self.accepted = p.alive and self.send_phase(p) and self.travel()
        if not self.accepted and self.zones.pending is not None:
            self.zones.discard_cards([self.zones.pending])

    def contest_whole_phase(self, p: Player, phase: str) -> None:
        """争夺阶段, if the intel sent was accepted."""
        if self.accepted:
            self.enter_phase(phase)
            self.contest_phase()
            for _ in range(self.contest_rounds.get(phase, 1) - 1):  # the phase's `rounds:`
                if self.contest_over or self.zones.pending is None:
                    return
                self.contest_phase()

    def discard_phase(self, p: Player, phase: str) -> None:
        """弃牌阶段 (a fork's): each living player from the current one may discard hand cards, one at a time."""
        self.enter_phase(phase)
        for q in self.seats.alive_from(p):
            picked: list[Card] = []
            while q.alive:
                left = [c for c in q.hand if c not in picked]
                if not left:
                    break
                choice = ask_seat(self.game, q, D.CHOOSE, [*left, None], "弃置一张手牌（或不再弃置）")
                if choice is None:
                    break
                picked.append(choice)
            if picked:
                self.zones.discard_cards(picked)
        self.resolution.settle("弃牌阶段结束时")

    def discard_down(self, p: Player, limit: int) -> None:
        """手牌上限 (the rules' hand_limit): at the end of his turn the current player discards hand cards, one
        chosen at a time, until he holds `limit`."""
        picked: list[Card] = []
        while len(p.hand) - len(picked) > limit:
            left = [c for c in p.hand if c not in picked]
            picked.append(ask_seat(self.game, p, D.CHOOSE, left, f"弃置一张手牌（手牌上限{limit}张）"))
        self.zones.discard_cards(picked)

    def receive_whole_phase(self, p: Player, phase: str) -> None:
        """接收阶段, if the intel sent was accepted."""
        if self.accepted:
            self.enter_phase(phase)
            self.receive_phase()

    def idle_loop(self, p: Player, timing: str) -> None:
        """出牌阶段: the current player uses cards until they pass."""
        while True:
            self.resolution.settle("出牌阶段空闲时点")
            if not p.alive or not self.card_use.offer_idle(p, timing, timing):
                return

    # ------------------------------------------------------------------ 传递阶段

    def send_phase(self, p: Player) -> bool:
        """The current player sends an intel, or uses a card that sends one instead. False: abstains."""
        if not unheard(self.game, "send_phase_start"):
            emit_event(self.game, "send_phase_start", seat=p.seat)
        self.resolution.settle("传递阶段开始时")
        while self.transit is None:
            if not p.alive:
                return False
            arrows = self.send_arrows
            options: list[Any] = list(p.hand) if arrows is None else [c for c in p.hand if c.direction in arrows]
            options += self.card_use.card_options(p, "need_send")  # 你需要传出情报时: at his own send too
            # the idle point offered is send_start (what `usable` reads in the effect of a use): last
            options += self.card_use.card_options(p, "send_start")
            if not options:
                self.abstain(p)
                return False
            choice = ask_seat(self.game, p, D.SEND, options, "传出情报")
            if isinstance(choice, PlayOption):
                self.card_use.perform(p, choice)
            else:
                self.send_intel(p, choice, face_up=False)
        return True

    def abstain(self, p: Player) -> None:
        """弃权: a player who cannot send is out — not dead, no triggers, cannot win."""
        self.seats.withdraw(p)
        self.skills.hide_role(p)
        emit_event(self.game, "abstain", seat=p.seat)
        self.zones.discard_cards(list(p.hand) + list(p.intel))
        self.victory.check_last_alive()

    def send_intel(self, sender: Player, card: Card, face_up: bool, lock: Any = NO_LOCK) -> bool:
        """传出情报: the sender picks the ↑ target and the lock; the card becomes the pending intel.

        `lock` given: an effect chose the lock itself. False: nobody to send to, or the card's arrow is not one
        of the rules' send_arrows (an effect's send too). Nothing reacts here: 传出情报时 skills
        (an arrow 视作任意方向 …) react to `intel_sent` at the next timing node — after the card
        that made this send, if any, has resolved completely (queued, never inserted).
        """
        game = self.game
        direction = card.direction
        if self.send_arrows is not None and direction not in self.send_arrows:  # the rules' send_arrows
            return False
        others = [q for q in self.seats.alive_from(sender) if q is not sender]
        if not others:
            return False
        target = None
        if direction == UP:
            target = ask_seat(self.game, sender, D.SEND_TARGET, others, "情报传给谁")
        symbol = False
        if lock is NO_LOCK:
            lock = ask_seat(self.game, sender, D.LOCK, [None, *others], "锁定谁") if card.lockable else None
            symbol = lock is not None
        self.zones.move(card, PENDING)
        self.zones.set_pending_face(face_up)
        self.transit = Transit(card, sender, direction, target, lock, face_up, symbol)
        self.holder = sender
        if not unheard(game, "intel_sent"):
            emit_event(
                game,
                "intel_sent",
                seat=sender.seat,
                card=card.uid,
                direction=direction,
                target=target.seat if target else None,
                lock=lock.seat if lock else None,
                face_up=face_up,
            )
        return True

    def _intel_gone(self) -> bool:
        """Is no intel pending any more (what a timing node just resolved may have taken it)? A call, not a test
        of `self.zones.pending` where mypy still has it narrowed to a card from before the node: the compiled
        engine (mypyc) would check that narrowed type and fail (pyproject's warn_unreachable finds such tests)."""
        return self.zones.pending is None

    def travel(self) -> bool:
        """The intel moves from player to player until one accepts it. False: it was discarded."""
        t = self.transit
        assert t is not None  # an intel was sent
        self.resolution.settle("传出情报时")
        pos = t.target if t.direction == UP else self.seats.neighbor(t.sender, t.direction, stop_at=t.sender)
        for _ in range(4 * self.game.n + 4):
            if self.zones.pending is None:
                return False
            assert pos is not None  # an ↑ intel has a target; a neighbour search stops at the sender
            self.holder = pos
            if not unheard(self.game, "intel_arrives"):
                emit_event(self.game, "intel_arrives", seat=pos.seat)
            self.resolution.settle("情报传递到面前时")
            if self._intel_gone():
                return False
            if pos.alive and self.receive_choice(pos, t):
                if not unheard(self.game, "intel_accepted"):
                    emit_event(self.game, "intel_accepted", seat=pos.seat)
                return True
            # not accepted: declined, its holder died, or a card or skill used in front of him took the intel
            # away (into a hand, an intel area …; rulings R169): then nothing travels on, at the sender too
            if self._intel_gone():
                return False
            if pos is t.sender:  # only a dead sender gets here: the intel is discarded
                self.zones.discard_cards([self.zones.pending])
                return False
            pos = t.sender if t.direction == UP else self.seats.neighbor(pos, t.direction, stop_at=t.sender)
        raise EngineError("intel travelled around the table without stopping")

    def receive_choice(self, pos: Player, t: Transit) -> bool:
        """传递阶段空闲时点 in front of `pos`: use send_idle cards, then accept or pass on."""
        while True:
            bound = self.receivers
            if bound is not None and bound[0] is not self.zones.pending:
                bound = None
            forced = (
                pos is t.sender
                or pos is t.lock
                or self.seats.has_status(pos, "must_receive")
                or (bound is not None and pos in bound[1])
            )
            can_accept = forced or not (
                self.seats.has_status(pos, "cannot_receive") or (bound is not None and pos in bound[2])
            )
            options: list[Any] = self.card_use.card_options(pos, "send_idle")
            if can_accept:
                options.append(ACCEPT)
            if not forced:
                options.append(DECLINE)
            choice = ask_seat(self.game, pos, D.RECEIVE, options, "接收情报吗")
            if isinstance(choice, PlayOption):
                self.card_use.perform(pos, choice)
                self.resolution.settle("传递阶段空闲时点")
                if not pos.alive or self.zones.pending is None:
                    return False
                continue
            return choice == ACCEPT

    # ------------------------------------------------------------------ 争夺阶段 / 接收阶段

    def contest_phase(self) -> None:
        """Ask around from the holder; after any card or skill, start again from the holder."""
        self.contest_over = False
        assert self.holder is not None  # the intel is in front of someone
        asker: Player | None = self.holder if self.holder.alive else self.seats.neighbor(self.holder, RIGHT)
        passes = 0
        while not self.contest_over and self.zones.pending is not None:
            if passes >= self.seats.alive_count() or asker is None:
                return
            self.resolution.settle("争夺阶段空闲时点")
            if self._intel_gone() or self.contest_over:
                return
            if not asker.alive:
                asker = self.seats.neighbor(asker, RIGHT)
                continue
            if not self.card_use.offer_idle(asker, "contest", "争夺阶段"):
                passes += 1
                asker = self.seats.neighbor(asker, RIGHT)
            else:
                passes = 0
                h = self.holder
                assert h is not None
                asker = h if h.alive else self.seats.neighbor(h, RIGHT)

    def receive_phase(self) -> None:
        card = self.zones.pending
        if card is None:
            return
        holder = self.holder
        assert holder is not None and self.transit is not None  # an intel was sent and accepted
        if holder.alive:
            self.zones.move(card, INTEL, holder)
            if not unheard(self.game, "received"):
                emit_event(self.game, "received", seat=holder.seat, card=card.uid, sender=self.transit.sender.seat)
            if self.victory.checks_receive:
                self.victory.note_received(holder)
            self.resolution.settle("接收情报时")
        else:
            self.zones.discard_cards([card])
