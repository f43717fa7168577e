"""A game: the components of the engine, wired together, and the game's setup and run.

:class:`Game` is a :class:`~interpreter.engine.core.GameCore` (the game-wide
state, the clock, the log and the two channels, ``emit`` and ``ask``) that
creates its components and hands each the ones made before it, and its ports
(ports.py: the calls that go back up):

* ``seats`` (seats.py): seat order, neighbours, each seat's standing;
* ``zones`` (zones.py): every card's zone and who can see it;
* ``declared_zones`` (declared_zones.py): the rules' operations on the zones they declare;
* ``stack`` (stack.py): the cards in use and skills resolving now;
* ``skills`` (skills.py): roles, skills, identity cards;
* ``victory`` (victory.py): the victory checks;
* ``resolution`` (resolution.py): timing nodes, triggers, dying, death;
* ``card_use`` (card_use.py): legal uses, idle-point questions, using a card;
* ``flow`` (flow.py): a turn's phases and the intel's journey.

Each piece of state has one owner, and only the owner's operations change it
(ARCHITECTURE.md, "The engine's components"). Game keeps the setup, the run,
the observation and the actions; the engine, the primitives and the tests call
the component that owns an operation (``g.zones.move``). Game offers as its own
only the few operations callers outside the engine use (scenario files, batches:
the components' bound methods, no second implementation) and the components'
state the seat boundary and the tools read, as read-only properties.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from ..seeds import as_whole
from .actions import Describer
from .card_use import CardUse
from .core import GameCore, emit_event
from .declared_zones import DeclaredZones
from .errors import EngineError, IllegalAction
from .flow import Transit, TurnFlow
from .observation import observe
from .pins import PairedDeal, Pins, pin_seat, pinned_content
from .ports import CardUsePorts, CorePorts, ResolutionPorts
from .priority import StackTiming
from .resolution import Resolution
from .seats import Seats
from .skills import Skills
from .stack import EffectStack, UseFrame
from .state import Card, Player, shuffle
from .victory import GameOver, Victory
from .views import Views
from .zones import Zones

if TYPE_CHECKING:
    from ..model.content import CardType, Content, Identity, Role, SecretTask

__all__ = ["Game", "EngineError", "IllegalAction", "GameOver", "Transit", "UseFrame"]


P = ParamSpec("P")
R = TypeVar("R")


class _Delegate(Generic[P, R]):
    """Game's own name for an operation of one of its components: on first use, the component's bound
    method is looked up and kept in the game's __dict__, so later calls are plain attribute calls."""

    def __init__(self, component: str, method: Callable[Concatenate[Any, P], R]) -> None:
        self.component = component
        self.method = method.__name__
        self.name = self.method

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> _Delegate[P, R]: ...
    @overload
    def __get__(self, obj: object, objtype: type | None = None) -> Callable[P, R]: ...
    def __get__(self, obj: object | None, objtype: type | None = None) -> _Delegate[P, R] | Callable[P, R]:
        if obj is None:
            return self
        bound: Callable[P, R] = getattr(getattr(obj, self.component), self.method)
        obj.__dict__[self.name] = bound
        return bound


class Game(GameCore):
    """One game. Build it, then call :meth:`run`; the result is a :class:`GameOver`."""

    # The engine's operations that callers outside the engine call on the game: scenario files (settle,
    # play_turn) and batches (check_invariants). Each is the component's bound method, looked up on first use
    # and then kept on the game (no wrapper, no second implementation); everything else is called on the
    # component that owns it (g.zones.move, g.flow.send_phase …).
    settle = _Delegate("resolution", Resolution.settle)
    play_turn = _Delegate("flow", TurnFlow.play_turn)
    check_invariants = _Delegate("zones", Zones.check_invariants)

    def __init__(
        self,
        content: Content,
        n_players: int,
        seed: int,
        agents: Any,
        record: bool = False,
        max_turns: int | None = None,
        pins: Pins | None = None,
        worlds: Callable[[Game, int], Any] | None = None,
    ) -> None:
        if content is None or isinstance(content, (str, os.PathLike)):
            # (a path failed in the content index with "cannot create weak reference to 'str' object"; the RL adapters
            # take folders, this door a content set)
            raise TypeError(
                "a game is played with a loaded content set — load_cached() (the bundled game) or "
                f"load_packs([folder, ...]) (interpreter.content.loader) — not {str(content)[:60]!r}"
            )
        if agents is not None and len(agents) != n_players:
            # (too few failed at the first seat without one with "list index out of range"; too many were ignored)
            raise ValueError(f"{n_players} players need {n_players} agents, one per seat, not {len(agents)}")
        if max_turns is not None:
            # As the commands' --max-turns, 1 or more: -1 ended every game at its first turn with no winner, 2.5 was
            # three turns, and 0 the rules' limit. (Read here, not in the compiled GameCore, whose int | None would
            # refuse 2.5, or a numpy integer, with a TypeError of its own.)
            whole = as_whole(max_turns)
            if whole is None or whole < 1:
                raise ValueError(
                    f"a turn limit is a whole number of turns, 1 or more (None: the rules' "
                    f"{content.rules.max_turns}), not {str(max_turns)[:40]!r}"
                )
            max_turns = whole
        # The components, each given the ones made before it and, as its ports (ports.py), the calls that go back
        # up to one made after it: those reach it through the game once it is made (see ARCHITECTURE.md).
        # The two channels see cards through Zones:
        core_ports = CorePorts(
            sight=lambda uid: self.zones.sight(uid),
            note_pick=lambda card, seat, options: self.zones.note_pick(card, seat, options),
        )
        # a card kind pinned at a count in every deck (engine/pins.py): the game is played with that content, so all
        # that reads the game's content (its index, the deck, the actions) sees the one deck
        super().__init__(pinned_content(content, pins), n_players, seed, agents, record, max_turns, ports=core_ports)
        # a role or task dealt to a seat, card kinds at a count (engine/pins.py): setup honours them, the setup
        # record names them
        self.pins = pins if pins else None
        # The driver's port: (game, seat) -> that seat's World, handed to a search bot (engine/step.py's
        # World.of_game, passed by whoever drives the game with its agents: step.drive, the batch runner; step.py
        # sits above this module). None: no search bot may sit at this game.
        self.worlds = worlds
        self.seats = seats = Seats(self)
        self.zones: Zones = Zones(self)
        zones = self.zones
        # the two channels' ports, now that Zones is made: its own bound methods (the lambdas above only stand in for
        # them until then; a record naming a card asks `sight` of it, every decision asks it or `note_pick`)
        self._sight = zones.sight
        self._note_pick = zones.note_pick
        self.declared_zones = declared_zones = DeclaredZones(self, zones)
        self.stack = stack = EffectStack(self, zones)
        self.skills = skills = Skills(self, seats, zones, stack)
        self.victory = victory = Victory(self, seats, zones, skills)
        # Stack timing (rules `resolution: stack`): uses, active skills and triggered skills go onto the stack of
        # priority.py (StackTiming, made last); the queued model is resolution.py's node loop alone, and its
        # components get no stack-timing ports.
        self.stack_timing: StackTiming | None = None
        stack_rules = content.rules.resolution == "stack"
        # a dying player's rescue asks each player through CardUse's idle-point question
        resolution_ports = ResolutionPorts(
            offer_idle=lambda p, timing, prompt: self.card_use.offer_idle(p, timing, prompt),
            stack_triggers=(lambda: self._timing().put_triggers()) if stack_rules else None,
        )
        self.resolution = resolution = Resolution(self, seats, zones, declared_zones, skills, victory, resolution_ports)
        card_use_ports = (
            CardUsePorts(
                push_use=lambda user, resolve: self._timing().push_use(user, resolve),
                stack_perform=lambda p, choice: self._timing().perform(p, choice),
            )
            if stack_rules
            else CardUsePorts()
        )
        self.card_use = card_use = CardUse(self, seats, zones, skills, stack, resolution, card_use_ports)
        self.flow = TurnFlow(self, seats, zones, skills, victory, resolution, card_use)
        if stack_rules:
            self.stack_timing = StackTiming(self, seats, skills, resolution, card_use, self.flow)
        # bound now, not on first use: the seat boundary (descriptors, observations) asks at every decision
        self.card_public = zones.card_public
        self.card_visible = zones.card_visible
        self.describer = Describer(self)  # the options of each decision as action ids and descriptors
        self.decide = self._agent_decide

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
    def card_uses(self) -> dict[tuple[int, str], int]:
        """(seat, card type id) -> the cards that seat used as that type (virtual uses too), for statistics."""
        return self.card_use.card_uses

    @property
    def skill_uses(self) -> dict[tuple[str, str], int]:
        """(role id, skill name) -> times used (balance statistics)."""
        return self.skills.skill_uses

    @property
    def rule_skill_uses(self) -> dict[tuple[int, str], int]:
        """(seat, rule skill name) -> times that seat used it (Skills.use_skill; balance statistics)."""
        return self.skills.rule_skill_uses

    @property
    def skill_offers(self) -> dict[tuple[str, str], int]:
        """(role id, skill name) -> the questions at which it was offered (Skills.note_offer; balance statistics)."""
        return self.skills.skill_offers

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

    def _timing(self) -> StackTiming:
        """The game's StackTiming (its ports' target under stack timing: made after the components that call it)."""
        assert self.stack_timing is not None
        return self.stack_timing

    def _chain(self) -> str:
        return self.stack.chain()

    def actions(self, decision) -> tuple:
        """(action ids, descriptors) of a decision, for its seat."""
        return self.describer.describe(decision)

    def observation(self, seat: int | None, decision=None, fields: frozenset[str] | None = None):
        """Everything `seat` may know now, as plain read-only data (see docs/observation.md); `fields`: only those
        fields (an agent's ``observation_fields``), None: all."""
        if not self.record:
            raise EngineError(
                "this game keeps no log, so no observation (its public history) can be made: create it with record=True"
            )
        return observe(self, seat, decision, fields)

    def _agent_decide(self, decision) -> int:
        """The synchronous driver: ask the seat's agent, with its observation and the action descriptors.

        A *referee* agent (scenario scripts and rule tests, which see the whole
        table anyway) is handed the engine's Decision instead. An agent that
        declares the fields it reads (``observation_fields``) is handed only those.
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
        if agent.searches:  # a search bot is also handed its seat's World (engine/step.py) to sample from
            if self.worlds is None:
                raise EngineError(
                    f"P{decision.seat}'s agent searches, but this game was made without its World: a search bot "
                    "plays through step.drive, simulate's batches or the step API (Game(..., worlds=World.of_game))"
                )
            answer = agent.search(self.observation(decision.seat, decision), descs, self.worlds(self, decision.seat))
        else:
            # (an agent that is no Agent subclass may lack observation_fields: every field, as before it existed)
            fields = getattr(agent, "observation_fields", None)
            answer = agent.act(self.observation(decision.seat, decision, fields) if agent.observes else None, descs)
        if type(answer) is int:
            try:
                index = ids.index(answer)
            except ValueError:
                pass
            else:
                self.actions_taken.append(answer)
                return index
        index = self.index_of(decision, ids, answer)  # raises IllegalAction, saying why
        self.actions_taken.append(ids[index])  # (a numpy integer: the int it is)
        return index

    @staticmethod
    def index_of(decision, ids: tuple, answer) -> int:
        """The option an action id names; anything else is refused (IllegalAction) and nothing is applied.

        An id is a whole number: an int, or a numpy integer (what ``argmax`` over a policy's output gives), as a seed
        and a seat are (seeds.as_whole); a bool, a float or a text that would convert to one is refused."""
        if type(answer) is not int:
            whole = as_whole(answer)
            if whole is None:
                raise IllegalAction(
                    f"P{decision.seat} answered {_brief(answer)} ({type(answer).__name__}); an answer is "
                    f"one of the action ids offered: {list(ids)}"
                )
            answer = whole
        try:
            return ids.index(answer)
        except ValueError:
            raise IllegalAction(
                f"P{decision.seat} answered action {_brief(answer)}, which is not legal now; legal: {list(ids)}"
            ) from None

    def close(self) -> None:
        """The caller is done with this game: nothing of it is read again (a batch, once it has its record and log).

        A game is a web of reference cycles (the game holds its components and its own bound methods, each
        component holds the game, a card its owner and the owner his hand, the game's end its traceback), so
        without this only the collector frees it, walking every object of it once more. Closing breaks those
        ties and lets go of what the game holds, so that most of it is freed by reference counts as its last
        reference goes; what the components' own cycles keep (their ports and bound methods, and with them the
        cards and players) is still the collector's, a small part (bench/README.md, ninth round: 2.9% fewer
        instructions a pure heuristic game, 5.2% compiled). Afterwards the game can be neither played nor read."""
        zones = getattr(self, "zones", None)
        if zones is not None:
            for card in zones.cards:
                card.owner = None
        if self.result is not None:
            self.result.__traceback__ = None
        describer = getattr(self, "describer", None)
        if describer is not None:
            describer.game = None
        for name in ("decide", "describer", "zones", "_sight", "_note_pick"):
            if hasattr(self, name):
                delattr(self, name)
        self.__dict__.clear()
        # What the components' own cycles (their ports, their bound methods) may keep alive until the collector runs:
        # the game itself, so it lets go of what it holds (the log, the observations kept, the agents …).
        self.log, self.decision_log, self.actions_taken, self.events = [], [], [], []
        self.views = Views(0)
        self.agents = []
        self._labels = {}

    # ------------------------------------------------------------------ setup

    def setup(self) -> None:
        """Deal the game: identities and secret tasks, the deck, the first player, roles, starting hands."""
        content = self.content
        rng = self.rng
        # identities (the table is data: rules.yaml)
        table = self.rules.identity_table.get(self.n)
        if table is None:
            raise ValueError(self.rules.cannot_seat(self.n))
        idents = []
        for ident_id, count in table.items():
            idents += [content.identities[ident_id]] * count
        pins = self.pins
        # a pinned game deals in a keyed order (engine/pins.py: paired deals); any other shuffles as always
        deal = PairedDeal(rng.getrandbits(64)) if pins is not None else None
        if deal is None:
            shuffle(rng, idents)
        else:
            idents = deal.order("identities", idents, _id)
        tasks = sorted(content.tasks.values(), key=_id)
        task_seat = -1
        pinned_task = None
        if pins is not None and pins.task is not None:  # a task pinned to a seat
            task_seat = pins.seat
            pin_seat(idents, task_seat)
            pinned_task = content.tasks.get(pins.task)  # (a pack of a grid may lack it: then dealt last, as usual)
            if pinned_task is not None:
                tasks.remove(pinned_task)
        if deal is None:
            shuffle(rng, tasks)
        else:
            tasks = deal.order("tasks", tasks, _id)
        for p, ident in zip(self.players, idents, strict=False):
            if p.seat != task_seat:
                self.skills.give_identity(p, ident, tasks.pop() if ident.takes_task else None)
        if task_seat >= 0:
            p = self.players[task_seat]
            self.skills.give_identity(p, idents[task_seat], pinned_task or tasks.pop())
        # the deck
        self.zones.load_deck(self.n)
        if self.zones.zone_decls:
            self.declared_zones.fill_start()  # the copies the rules' zones begin with (额外牌堆), out of the deck
        if deal is None:
            self.zones.shuffle_deck()
            self.current = self.players[rng.randrange(self.n)]
        else:
            self.zones.deck[:] = deal.order("deck", self.zones.deck, _uid)
            self.current = self.players[deal.below("first", self.n)]
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
                    **({"pins": pins.to_dict()} if pins is not None else {}),
                    "to": [],
                }
            )
            self.log.append({"e": "start", "players": self.n, "first": self.current.seat})
        self.first_seat = self.current.seat
        if deal is not None and pins is not None:
            pinned = content.roles.get(pins.role) if pins.role is not None else None
            seat = pins.seat if pins.role is not None else -1
            self.skills.deal_roles(self.current, seat, pinned, lambda pool: deal.order("roles", pool, _id))
        else:
            self.skills.deal_roles(self.current)
        if self.record and any(p.role for p in self.players):
            self.log.append({"e": "roles", "roles": [p.role.id if p.role else None for p in self.players], "to": []})
            self.log.append(
                {"e": "roles_shown", "roles": [p.role.id if p.role and p.role_face_up else None for p in self.players]}
            )
        counters = content.declared.counters
        if counters:  # the rules' counters start (a rule set that declares none records nothing)
            self.seats.start_counters(counters.values())
        for p in self.seats.order_from(self.current):
            self.zones.draw(p, self.rules.start_hand)

    # ------------------------------------------------------------------ the game loop

    def start_game(self) -> None:
        """游戏开始时, once before the first turn: skills reacting to `game_start` (蓄力技's initial charge).
        Recorded only in a game whose content has a skill reacting to it, so other games' logs do not change (dealt
        or not: the record tells no seat that a face-down role reacting to it was dealt; Skills.heard)."""
        assert self.current is not None  # set up
        if "game_start" in self.skills.heard:
            emit_event(self, "game_start", seat=self.current.seat)
            self.settle("游戏开始时")

    def game_end_moment(self) -> None:
        """游戏结束时, once the game is decided: skills reacting to `game_end` fire (Resolution.game_end). Recorded
        only in a game whose content has a skill reacting to it, dealt or not (Skills.heard), so other games' logs do
        not change."""
        if "game_end" in self.skills.heard:
            self.resolution.game_end()

    def run(self) -> GameOver:
        """Play the game to its end and return the result."""
        fresh = self.current is None
        if fresh:
            self.setup()
        try:
            if fresh:
                self.start_game()
            while True:
                if self.turn_no >= self.max_turns:
                    self.victory.end_without_winner("turn_limit")
                self.flow.play_turn()
                self.current = self.flow.next_turn_player()
        except GameOver as over:
            self.game_end_moment()
            self.result = over
            over.turns = self.turn_no
            if self.zones.zone_decls:  # zones the rules declare `at_end: reveal` are shown to all
                self.declared_zones.reveal_zones_at_end()
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


def _id(x: Any) -> str:
    """An identity's, task's or role's id (the name a paired deal orders it by)."""
    return x.id


def _uid(card: Card) -> int:
    """A card's deck id."""
    return card.uid


def _brief(answer: object) -> str:
    """An answer as a refusal names it: short, and never an error itself (Python will not turn an int of more
    than 4,300 digits into text: ``apply_action(10**4400)`` raised a plain ValueError while saying it was
    illegal)."""
    if isinstance(answer, int) and not -(10**18) < answer < 10**18:
        return f"<an integer of {answer.bit_length()} bits>"
    try:
        text = repr(answer)
    except ValueError:
        return f"<a {type(answer).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."
