"""A game: the components of the engine, wired together, and the game's setup and run.

:class:`Game` is a :class:`~interpreter.engine.core.GameCore` (the game-wide
state, the clock, the log and the two channels, ``emit`` and ``ask``) that
creates its components and hands each the others it uses:

* ``seats`` (seats.py): seat order, neighbours, each seat's standing;
* ``zones`` (zones.py): every card's zone and who can see it;
* ``stack`` (stack.py): the cards in use and skills resolving now;
* ``skills`` (skills.py): roles, skills, identity cards;
* ``victory`` (victory.py): the victory checks;
* ``resolution`` (resolution.py): timing nodes, triggers, dying, death;
* ``card_use`` (card_use.py): legal uses, idle-point questions, using a card;
* ``flow`` (flow.py): a turn's phases and the intel's journey.

Each piece of state has one owner, and only the owner's operations change it
(ARCHITECTURE.md, "The engine's components"). Game also offers, as its own,
the operations that the effect language's primitives, the seat boundary, the
tools and the tests call (the components' bound methods: no second
implementation, no extra call) and the components' state they read, as
read-only properties.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .actions import Describer
from .card_use import CardUse
from .core import GameCore
from .errors import EngineError, IllegalAction
from .flow import Transit, TurnFlow
from .observation import observe
from .resolution import Resolution
from .seats import Seats
from .skills import Skills
from .stack import EffectStack, UseFrame
from .state import Card, Player
from .victory import GameOver, Victory
from .zones import Zones

if TYPE_CHECKING:
    from ..content.model import CardType, Content, Identity, Role, SecretTask

__all__ = ["Game", "EngineError", "IllegalAction", "GameOver", "Transit", "UseFrame"]


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
        # the components, each given the ones it uses (lower ones first: see ARCHITECTURE.md)
        self.seats = seats = Seats(self)
        self.zones = zones = Zones(self)
        self.stack = stack = EffectStack()
        self.skills = skills = Skills(self, seats, zones, stack)
        self.victory = victory = Victory(self, seats, zones, skills)
        self.resolution = resolution = Resolution(self, seats, zones, skills, victory)
        self.card_use = card_use = CardUse(self, seats, zones, skills, stack, resolution)
        self.flow = flow = TurnFlow(self, seats, zones, skills, victory, resolution, card_use)
        # the calls that go back up: the two channels see cards through Zones; a dying player's
        # rescue asks each player through CardUse's idle-point question
        self._sight = zones.sight
        self._note_pick = zones.note_pick
        resolution.offer_idle = card_use.offer_idle
        self.describer = Describer(self)  # the options of each decision as action ids and descriptors
        self.decide = self._agent_decide

        # The engine's operations, as Game's own (the effect language's primitives call them as
        # ctx.game.<name>, and so do the seat boundary, the tools and the tests).
        # seats
        self.order_from = seats.order_from
        self.alive_from = seats.alive_from
        self.neighbors = seats.neighbors
        self.has_status = seats.has_status
        self.add_status = seats.add_status
        self.mark = seats.mark
        self.set_mark = seats.set_mark
        # zones
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
        # what is resolving
        self.by_skill = stack.by_skill
        self.nullify = stack.nullify
        self.claim_used_card = stack.claim_used_card
        # roles, skills, identities
        self.use_skill = skills.use_skill
        self.flip_role = skills.flip_role
        self.replace_role = skills.replace_role
        self.take_identity = skills.take_identity
        self.look_identity = skills.look_identity
        self._index_triggers = skills.index_triggers  # (scenarios, after they give out roles)
        # victory
        self.check_collect_victory = victory.check_collect_victory
        self.check_turn_end_victory = victory.check_turn_end_victory
        self.add_winner = victory.add_winner
        self.block_winner = victory.block_winner
        # timing nodes, death
        self.settle = resolution.settle
        self.resolve_deaths = resolution.resolve_deaths
        # card use
        self.card_options = card_use.card_options
        self.legal_uses = card_use.legal_uses
        self.hand_card_type = card_use.hand_card_type
        self.perform = card_use.perform
        self.use_card = card_use.use_card
        self.convert = card_use.convert
        self.ban = card_use.ban
        # the turn
        self.play_turn = flow.play_turn
        self._next_turn_player = flow.next_turn_player  # (scenarios that play on to the game's end)
        self.idle_loop = flow.idle_loop
        self.send_phase = flow.send_phase
        self.send_intel = flow.send_intel
        self.travel = flow.travel
        self.contest_phase = flow.contest_phase
        self.receive_phase = flow.receive_phase
        self.move_pending = flow.move_pending
        self.set_direction = flow.set_direction
        self.add_draw = flow.add_draw
        self.end_contest = flow.end_contest

    # ------------------------------------------------------------------ the components' state, read-only
    # (for the seat boundary, the effect language, the tools and the tests; the engine reads the components)

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
    def transit(self) -> Transit | None:
        """The intel being sent this turn."""
        return self.flow.transit

    @property
    def holder(self) -> Player | None:
        """The player the pending intel is in front of."""
        return self.flow.holder

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

    def setup(self) -> None:
        """Deal the game: identities and secret tasks, the deck, the first player, roles, starting hands."""
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
        for p in self.seats.order_from(self.current):
            self.zones.draw(p, self.rules.start_hand)

    # ------------------------------------------------------------------ the game loop

    def run(self) -> GameOver:
        """Play the game to its end and return the result."""
        if self.current is None:
            self.setup()
        try:
            while True:
                if self.turn_no >= self.max_turns:
                    raise GameOver([], "turn_limit")
                self.flow.play_turn()
                self.current = self.flow.next_turn_player()
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
