"""The fixed skeleton of a game: setup, turns, phases, intel travel and card use.

Phases follow the rulebook: 摸牌 → 出牌 → 传递 → 争夺 → 接收, then
回合结束. Every place the rules stop and let a player act calls
:meth:`settle` first — the timing-node loop of the rules, in
``resolution.py`` — so triggers, victory checks and dying happen in the one
documented order. Cards are data: the engine only knows a card's timings,
target rule and compiled effect.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from . import decisions as D
from .actions import Describer
from .card_use import CardUse
from .core import GameCore
from .decisions import PlayOption
from .errors import EngineError, IllegalAction
from .observation import observe
from .resolution import Resolution
from .seats import Seats
from .skills import Skills
from .stack import EffectStack, UseFrame
from .state import (
    INTEL,
    PENDING,
    RIGHT,
    UP,
    Card,
    Player,
)
from .victory import GameOver, Victory
from .zones import Zones

if TYPE_CHECKING:
    from ..content.model import CardType, Content, Identity, Role, SecretTask

ACCEPT = "accept"
DECLINE = "decline"


__all__ = ["Game", "EngineError", "IllegalAction", "GameOver", "Transit", "UseFrame"]

# Event fields that hold deck ids. Each one's visibility is worked out when the event is
# recorded, from who can see the card then (Game.card_visible): a face-down card is
# never named in a record another seat reads.


class Transit:
    """The intel being sent this turn (情报传递)."""

    __slots__ = ("card", "sender", "direction", "target", "lock", "face_up")

    def __init__(
        self, card: Card, sender: Player, direction: str, target: Player | None, lock: Player | None, face_up: bool
    ) -> None:
        self.card, self.sender, self.direction = card, sender, direction
        self.target, self.lock, self.face_up = target, lock, face_up


class Game(GameCore):
    """One game. Build it, then call :meth:`run`; the result is a :class:`GameOver`."""

    def __init__(
        self,
        content: Content,
        n_players: int,
        seed: int,
        agents: Any,
        record: bool = False,
        max_turns: int | None = None,
    ) -> None:
        super().__init__(content, n_players, seed, agents, record, max_turns)
        self.seats = seats = Seats(self)
        # the seats' operations, as the engine's API (effects, tests, the table builder use them)
        self.order_from = seats.order_from
        self.alive_from = seats.alive_from
        self.alive_players = seats.alive_players
        self.neighbor = seats.neighbor
        self.neighbors = seats.neighbors
        self.has_status = seats.has_status
        self.add_status = seats.add_status
        self.mark = seats.mark
        self.set_mark = seats.set_mark
        self.zones = zones = Zones(self)
        self._sight = zones.sight
        self._note_pick = zones.note_pick
        # the zones' operations, as the engine's API
        self.move = zones.move
        self.draw = zones.draw
        self.discard_cards = zones.discard_cards
        self.reveal = zones.reveal
        self.top_cards = zones.top_cards
        self.take_top = zones.take_top
        self.set_pending_face = zones.set_pending_face
        self.note_replaced = zones.note_replaced
        self.card_public = zones.card_public
        self.card_visible = zones.card_visible
        self.knows = zones.knows
        self.zone_name = zones.zone_name
        self.check_invariants = zones.check_invariants
        self.stack = stack = EffectStack()
        self.current_use = stack.current_use
        self.by_skill = stack.by_skill
        self.nullify = stack.nullify
        self.claim_used_card = stack.claim_used_card
        self.skills = skills = Skills(self, seats, zones, stack)
        # the skills' operations, as the engine's API
        self.skill_ready = skills.skill_ready
        self.skill_blocker = skills.skill_blocker
        self.skill_options = skills.skill_options
        self.use_skill = skills.use_skill
        self.flip_role = skills.flip_role
        self.replace_role = skills.replace_role
        self.take_identity = skills.take_identity
        self.look_identity = skills.look_identity
        self._index_triggers = skills.index_triggers
        self.victory = victory = Victory(self, seats, zones, skills)
        # the victory checks, as the engine's API
        self.check_collect_victory = victory.check_collect_victory
        self.check_death_victory = victory.check_death_victory
        self.check_turn_end_victory = victory.check_turn_end_victory
        self.check_last_alive = victory.check_last_alive
        self.add_winner = victory.add_winner
        self.block_winner = victory.block_winner
        self.resolution = resolution = Resolution(self, seats, zones, skills, victory)
        # the timing-node loop, dying and death, as the engine's API
        self.settle = resolution.settle
        self.resolve_dying = resolution.resolve_dying
        self.resolve_deaths = resolution.resolve_deaths
        self.card_use = card_use = CardUse(self, seats, zones, skills, stack, resolution)
        resolution.offer_idle = card_use.offer_idle
        # card use, as the engine's API
        self.offer_idle = card_use.offer_idle
        self.card_options = card_use.card_options
        self.legal_uses = card_use.legal_uses
        self.hand_card_type = card_use.hand_card_type
        self.perform = card_use.perform
        self.use_card = card_use.use_card
        self.convert = card_use.convert
        self.ban = card_use.ban
        self.holder: Player | None = None
        self.transit: Transit | None = None
        self.extra_draw = 0  # cards added to this draw phase by effects
        self.send_direction: str | None = None  # a direction an effect gave the intel being sent
        self.describer = Describer(self)  # the options of each decision as action ids and descriptors
        self.decide = self._agent_decide

    # ------------------------------------------------------------------ events & decisions

    # ------------------------------------------------------------------ the components' state, read-only
    # (for the seat boundary, the tests and the tools; the engine reads it from the components)

    @property
    def cards(self) -> list[Card]:
        return self.zones.cards

    @property
    def by_uid(self) -> dict[int, Card]:
        return self.zones.by_uid

    @property
    def deck(self) -> list[Card]:
        """The deck; its top is the END of the list."""
        return self.zones.deck

    @property
    def discard_pile(self) -> list[Card]:
        return self.zones.discard_pile

    @property
    def removed(self) -> list[Card]:
        return self.zones.removed

    @property
    def processing(self) -> list[Card]:
        return self.zones.processing

    @property
    def staging(self) -> list[Card]:
        return self.zones.staging

    @property
    def pending(self) -> Card | None:
        """The intel in transit (待收情报), if any."""
        return self.zones.pending

    @property
    def pending_face_up(self) -> bool:
        return self.zones.pending_face_up

    @property
    def intel_changes(self) -> int:
        return self.zones.intel_changes

    @property
    def role_pile(self) -> list[Role]:
        """The role pile (角色牌堆); its top is the END of the list. Tests may set it (Skills.set_role_pile)."""
        return self.skills.role_pile

    @role_pile.setter
    def role_pile(self, roles: list[Role]) -> None:
        self.skills.set_role_pile(roles)

    @property
    def removed_roles(self) -> list[Role]:
        return self.skills.removed_roles

    @property
    def unchosen_roles(self) -> list[Role]:
        return self.skills.unchosen_roles

    @property
    def removed_identities(self) -> list[tuple[Identity, SecretTask | None, int]]:
        return self.skills.removed_identities

    @property
    def skill_uses(self) -> dict[tuple[str, str], int]:
        """(role id, skill name) -> times used (balance statistics)."""
        return self.skills.skill_uses

    @property
    def conversions(self) -> dict[str, CardType]:
        """This turn's forced conversions: card type id -> what its hand copies must be used as."""
        return self.card_use.conversions

    @property
    def bans(self) -> set[str]:
        """Card type ids nobody may use from hand this turn."""
        return self.card_use.bans

    @property
    def dying_player(self) -> Player | None:
        """The player whose rescue is being asked for (Seats.dying_player)."""
        return self.seats.dying_player

    def actions(self, decision) -> tuple:
        """(action ids, descriptors) of a decision, for its seat."""
        return self.describer.describe(decision)

    def observation(self, seat: int, decision=None):
        """Everything `seat` may know now, as plain read-only data (see docs/observation.md)."""
        if not self.record:
            raise EngineError(
                "this game keeps no log, so no observation (its public history) can be made: create it with record=True"
            )
        return observe(self, seat, decision)

    def _agent_decide(self, decision) -> int:
        """The synchronous driver: ask the seat's agent, with its observation and the action descriptors.

        A *referee* agent (scenario scripts and rule tests, which see the whole
        table anyway) is handed the engine's Decision instead.
        """
        agent = self.agents[decision.seat]
        if agent.referee:
            index = agent.decide(decision, self)
            if type(index) is not int or not 0 <= index < len(decision.options):
                raise EngineError(
                    f"agent for P{decision.seat} answered {index!r}, not an index of {len(decision.options)} options"
                )
            return index
        ids, descs = self.describer.describe(decision)
        answer = agent.act(self.observation(decision.seat, decision) if agent.observes else None, descs)
        if type(answer) is int:
            try:
                index = ids.index(answer)
            except ValueError:
                pass
            else:
                self.actions_taken.append(answer)
                return index
        return self.index_of(decision, ids, answer)  # raises IllegalAction, saying why

    @staticmethod
    def index_of(decision, ids: tuple, answer) -> int:
        """The option an action id names; anything else is refused (IllegalAction) and nothing is applied."""
        if type(answer) is not int:
            raise IllegalAction(
                f"P{decision.seat} answered {answer!r} ({type(answer).__name__}); an answer is "
                f"one of the action ids offered: {list(ids)}"
            )
        try:
            return ids.index(answer)
        except ValueError:
            raise IllegalAction(
                f"P{decision.seat} answered action {answer}, which is not legal now; legal: {list(ids)}"
            ) from None

    # ------------------------------------------------------------------ setup

    def setup(self):
        content = self.content
        rng = self.rng
        # identities (the table is data: rules.yaml)
        table = self.rules.identity_table.get(self.n)
        if table is None:
            raise ValueError(f"rules.yaml has no identity table for {self.n} players")
        idents = []
        for ident_id, count in table.items():
            idents += [content.identities[ident_id]] * count
        rng.shuffle(idents)
        tasks = sorted(content.tasks.values(), key=lambda t: t.id)
        rng.shuffle(tasks)
        for p, ident in zip(self.players, idents, strict=False):
            self.skills.give_identity(p, ident, tasks.pop() if ident.takes_task else None)
        # the deck
        self.zones.load(content.deck_for(self.n))
        self.zones.shuffle_deck()
        self.current = self.players[rng.randrange(self.n)]
        if self.record:  # the referee's record (to nobody: no seat may read it), then what everyone sees
            self.log.append(
                {
                    "e": "setup",
                    "players": self.n,
                    "seed": self.seed,
                    "first": self.current.seat,
                    "identities": [ident.id for ident in idents],  # the loader checks the table: one per seat
                    "tasks": [p.task.id if p.task else None for p in self.players],
                    "deck": [c.uid for c in reversed(self.zones.deck)],
                    "to": [],
                }
            )
            self.log.append({"e": "start", "players": self.n, "first": self.current.seat})
        self.skills.deal_roles(self.current)
        if self.record and any(p.role for p in self.players):
            self.log.append({"e": "roles", "roles": [p.role.id if p.role else None for p in self.players], "to": []})
            self.log.append(
                {"e": "roles_shown", "roles": [p.role.id if p.role and p.role_face_up else None for p in self.players]}
            )
        for p in self.order_from(self.current):
            self.draw(p, self.rules.start_hand)

    # ------------------------------------------------------------------ the game loop

    def run(self) -> GameOver:
        """Play the game to its end and return the result."""
        if self.current is None:
            self.setup()
        try:
            while True:
                if self.turn_no >= self.max_turns:
                    raise GameOver([], "turn_limit")
                self.play_turn()
                self.current = self._next_turn_player()
        except GameOver as over:
            self.result = over
            over.turns = self.turn_no
            # winners turn their identity cards face up to declare (宣胜): that much becomes public
            if self.record:
                self.log.append(
                    {
                        "e": "game_over",
                        "winners": [p.seat for p in over.winners],
                        "identities": {str(p.seat): p.identity.id for p in over.winners if p.identity is not None},
                        "reason": over.reason,
                        "turns": self.turn_no,
                    }
                )
            return over

    def _next_turn_player(self) -> Player:
        assert self.current is not None
        q = self.neighbor(self.current, RIGHT)
        if q is None:
            raise GameOver([], "no_players")
        return q

    PHASES = ("draw", "play", "send", "travel", "contest", "receive", "turn_end")

    def play_turn(self, start: str = "draw") -> None:
        """Play the current player's turn, from the beginning or resumed at phase `start`.

        Resuming (used by scenario files) skips the earlier phases: "travel" and
        "contest" expect an intel in transit (see table.put_pending).
        """
        p = self.current
        assert p is not None  # set up
        i = self.PHASES.index(start)
        if i == 0:
            if self.CHECK_EACH_TURN:
                self.check_invariants()
            self.start_turn()
            self.transit = None
            self.holder = None
            self.card_use.new_turn()
            self.emit("turn_start", seat=p.seat, turn=self.turn_no)
            # 摸牌阶段
            self.enter_phase("draw")
            self.extra_draw = 0
            self.emit("draw_phase", seat=p.seat)
            self.settle("摸牌阶段开始时")
            if p.alive:
                self.draw(p, self.rules.draw_count + self.extra_draw)
        if i <= 1:
            # 出牌阶段
            self.enter_phase("play")
            if p.alive:
                self.idle_loop(p, "play_phase")
        accepted = i >= 4
        if i <= 2:
            # 传递阶段
            self.enter_phase("send")
            accepted = p.alive and self.send_phase(p) and self.travel()
        elif i == 3:
            self.enter_phase("send")
            accepted = self.travel()
        if accepted:
            if i <= 4:
                # 争夺阶段
                self.enter_phase("contest")
                self.contest_phase()
            if i <= 5:
                # 接收阶段
                self.enter_phase("receive")
                self.receive_phase()
        elif self.zones.pending is not None:
            self.discard_cards([self.zones.pending])
        # 回合结束
        self.enter_phase("turn_end")
        self.emit("turn_end", seat=p.seat)
        self.settle("回合结束时")
        self.victory.check_turn_end_victory()
        self.transit = None
        self.holder = None

    def idle_loop(self, p: Player, timing: str):
        """出牌阶段: the current player uses cards until they pass."""
        while True:
            self.settle("出牌阶段空闲时点")
            if not p.alive or not self.offer_idle(p, timing, timing):
                return

    # ------------------------------------------------------------------ 传递阶段

    def send_phase(self, p: Player) -> bool:
        """The current player sends an intel, or uses a card that sends one instead. False: abstains."""
        self.emit("send_phase_start", seat=p.seat)
        self.settle("传递阶段开始时")
        while self.transit is None:
            if not p.alive:
                return False
            options: list[Any] = list(p.hand)
            options += self.card_options(p, "send_start")
            if not options:
                self.abstain(p)
                return False
            choice = self.ask(p, D.SEND, options, "传出情报")
            if isinstance(choice, PlayOption):
                self.perform(p, choice)
            else:
                self.send_intel(p, choice, face_up=False)
        return True

    def abstain(self, p: Player):
        """弃权: a player who cannot send is out — not dead, no triggers, cannot win."""
        self.seats.withdraw(p)
        self.skills.hide_role(p)
        self.emit("abstain", seat=p.seat)
        self.discard_cards(list(p.hand) + list(p.intel))
        self.victory.check_last_alive()

    NO_LOCK = object()

    def send_intel(self, sender: Player, card: Card, face_up: bool, lock=NO_LOCK) -> bool:
        """传出情报: the sender picks the ↑ target and the lock; the card becomes the pending intel.

        Before the target is asked, `intel_sending` triggers may give the intel another
        direction (an arrow 视作任意方向). `lock` given: an effect chose the lock itself.
        """
        direction = card.direction
        if "intel_sending" in self.watched:
            # Only triggers run here, not a full node (victory checks and dying wait for the
            # 传出情报时 node right after), so games without such skills play exactly the same.
            self.send_direction = None
            self.emit("intel_sending", seat=sender.seat, card=card.uid)
            if self.trace is not None:
                self.trace.append(("node", "传出情报时（方向）", self.phase))
            self.resolution.run_triggers()
            if self.send_direction is not None:
                direction = self.send_direction
                self.send_direction = None
            if not sender.alive:
                return False
        others = [q for q in self.alive_from(sender) if q is not sender]
        if not others:
            return False
        target = None
        if direction == UP:
            target = self.ask(sender, D.SEND_TARGET, others, "情报传给谁")
        if lock is self.NO_LOCK:
            lock = self.ask(sender, D.LOCK, [None, *others], "锁定谁") if card.lockable else None
        self.zones.move(card, PENDING)
        self.zones.set_pending_face(face_up)
        self.transit = Transit(card, sender, direction, target, lock, face_up)
        self.holder = sender
        self.emit(
            "intel_sent",
            seat=sender.seat,
            card=card.uid,
            direction=direction,
            target=target.seat if target else None,
            lock=lock.seat if lock else None,
            face_up=face_up,
        )
        return True

    def travel(self) -> bool:
        """The intel moves from player to player until one accepts it. False: it was discarded."""
        t = self.transit
        assert t is not None  # an intel was sent
        self.settle("传出情报时")
        pos = t.target if t.direction == UP else self.neighbor(t.sender, t.direction, stop_at=t.sender)
        for _ in range(4 * self.n + 4):
            if self.zones.pending is None:
                return False
            assert pos is not None  # an ↑ intel has a target; a neighbour search stops at the sender
            self.holder = pos
            self.emit("intel_arrives", seat=pos.seat)
            self.settle("情报传递到面前时")
            if self.zones.pending is None:
                return False
            if pos.alive and self.receive_choice(pos, t):
                self.emit("intel_accepted", seat=pos.seat)
                return True
            if pos is t.sender:  # only a dead sender gets here: the intel is discarded
                self.discard_cards([self.zones.pending])
                return False
            pos = t.sender if t.direction == UP else self.neighbor(pos, t.direction, stop_at=t.sender)
        raise EngineError("intel travelled around the table without stopping")

    def receive_choice(self, pos: Player, t: Transit) -> bool:
        """传递阶段空闲时点 in front of `pos`: use send_idle cards, then accept or pass on."""
        while True:
            forced = pos is t.sender or pos is t.lock or self.has_status(pos, "must_receive")
            can_accept = forced or not self.has_status(pos, "cannot_receive")
            options: list[Any] = self.card_options(pos, "send_idle")
            if can_accept:
                options.append(ACCEPT)
            if not forced:
                options.append(DECLINE)
            choice = self.ask(pos, D.RECEIVE, options, "接收情报吗")
            if isinstance(choice, PlayOption):
                self.perform(pos, choice)
                self.settle("传递阶段空闲时点")
                if not pos.alive or self.zones.pending is None:
                    return False
                continue
            return choice == ACCEPT

    # ------------------------------------------------------------------ 争夺阶段 / 接收阶段

    def contest_phase(self) -> None:
        """Ask around from the holder; after any card or skill, start again from the holder."""
        self.contest_over = False
        assert self.holder is not None  # the intel is in front of someone
        asker: Player | None = self.holder if self.holder.alive else self.neighbor(self.holder, RIGHT)
        passes = 0
        while not self.contest_over and self.zones.pending is not None:
            alive = self.alive_players()
            if passes >= len(alive) or asker is None:
                return
            self.settle("争夺阶段空闲时点")
            if self.zones.pending is None or self.contest_over:
                return
            if not asker.alive:
                asker = self.neighbor(asker, RIGHT)
                continue
            if not self.offer_idle(asker, "contest", "争夺阶段"):
                passes += 1
                asker = self.neighbor(asker, RIGHT)
            else:
                passes = 0
                h = self.holder
                assert h is not None
                asker = h if h.alive else self.neighbor(h, RIGHT)

    def receive_phase(self) -> None:
        card = self.zones.pending
        if card is None:
            return
        holder = self.holder
        assert holder is not None and self.transit is not None  # an intel was sent and accepted
        if holder.alive:
            self.move(card, INTEL, holder)
            self.emit("received", seat=holder.seat, card=card.uid, sender=self.transit.sender.seat)
            self.settle("接收情报时")
        else:
            self.discard_cards([card])

    # ------------------------------------------------------------------ checks and digests

    def digest(self) -> dict:
        """The end state, for replay checks: every zone's contents and each player's state."""
        return {
            "turn": self.turn_no,
            "current": self.current.seat if self.current else None,
            "deck": [c.uid for c in self.zones.deck],
            "discard": [c.uid for c in self.zones.discard_pile],
            "removed": [c.uid for c in self.zones.removed],
            "players": [
                {
                    "seat": p.seat,
                    "alive": p.alive,
                    "out": p.out,
                    "identity": p.identity.id if p.identity else None,
                    "task": p.task.id if p.task else None,
                    "hand": sorted(c.uid for c in p.hand),
                    "intel": [c.uid for c in p.intel],
                }
                for p in self.players
            ],
            "winners": [p.seat for p in self.result.winners] if self.result else None,
            "reason": self.result.reason if self.result else None,
            "decisions": self.decision_count,
        }

    def digest_text(self) -> str:
        return json.dumps(self.digest(), sort_keys=True, ensure_ascii=False)
