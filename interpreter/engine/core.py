"""The game-wide state and the two channels every component uses: events (`emit_event`) and decisions (`ask_seat`).

:class:`GameCore` is what every component of a game may rely on: the content
and rule numbers, the seats' :class:`Player` records, the seeded generator, the
clock (whose turn, which turn, which phase), the log, and the two channels —
:func:`emit_event` records that something happened (for triggers and the log)
and :func:`ask_seat` puts a question to a seat. One spelling per channel: the
engine's modules call these functions, taking the game as their first argument
(compiled, a plain function is called directly; a method of `Game`, a Python
subclass, goes through attribute lookup). :meth:`GameCore.emit` and
:meth:`GameCore.ask` are thin aliases of them, for code that holds only a game
(the effect code the compiler writes: ``ctx.game.ask``; tests) and for a test's
spy (a subclass overriding `emit` sees every event emit_event records).
:class:`Game` (game.py) is a GameCore that creates and wires the components;
they hold it as `game` and name its type from here, so no import goes back up
to game.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar

from ..catalogue import CARD_FIELDS, LIMITS
from ..model.content import MIN_PLAYERS
from . import decisions as D
from .actions import Describer
from .decisions import Decision
from .errors import EngineError, GameOver
from .index import ContentIndex, index_of
from .state import Card, Player
from .views import Views

if TYPE_CHECKING:
    from ..model.content import Content
    from .ports import CorePorts

_T = TypeVar("_T")

try:  # only mypyc reads it (setup.py's compiled build); plain Python may have no mypy_extensions
    from mypy_extensions import mypyc_attr
except ImportError:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
        return lambda cls: cls


STEP_BUDGET: Final[int] = LIMITS["step_budget"].value  # effect steps between two decisions (E501)
MAX_DECISIONS: Final[int] = LIMITS["max_decisions"].value  # decisions in one game after which it is stuck (E503)
STUCK_WINDOW: Final = 300  # past MAX_DECISIONS, the questions watched to say what repeats (E503)


class MoveCount:
    """What the core reads of the game's Zones (zones.py, a subclass): the cards moved so far, which spend the step
    budget. (Typed here, the compiled core reads it as a native attribute; zones.py is above this module.)"""

    moves: int


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled by mypyc, Game (game.py) stays Python
class GameCore:
    """Game-wide state, the clock, the event log and the decision channel (see the module docstring)."""

    # (MAX_DECISIONS, below, reads and sets `decision_limit`, which ask_seat reads as a native attribute)
    decision_limit: int
    # tests set this on Game to check the zone invariant at every turn start (a class variable: compiled code, too,
    # reads it from the game's class)
    CHECK_EACH_TURN: ClassVar[bool] = False

    # Wired by Game once the components exist:
    # answers a Decision with an option index: Game's synchronous driver; the step API and a batch (drivers.py)
    # install their own
    decide: Callable[[Decision], int]
    describer: Describer  # the options of each decision as action ids and descriptors (made by Game)
    zones: MoveCount  # the game's Zones (made by Game): its move count spends the step budget
    # Game.close drops these (the game's ties to its components, which hold the game: reference cycles)
    __deletable__ = ("decide", "describer", "zones", "_sight", "_note_pick")

    def __init__(
        self,
        content: Content,
        n_players: int,
        seed: int,
        agents: Any,
        record: bool = False,
        max_turns: int | None = None,
        *,
        ports: CorePorts,
    ) -> None:
        if n_players < MIN_PLAYERS:  # (said as every door says a count the rules do not play: the counts they do)
            raise ValueError(content.rules.cannot_seat(n_players) or f"a game needs at least {MIN_PLAYERS} players")
        self.content = content
        # what the engine derives once from the content set and reads in every game (engine/index.py)
        self.index: ContentIndex = index_of(content)
        self.rules = content.rules
        self.collect_at = content.rules.collect_count  # red or blue intel from which collect checks run
        self.dying_at = content.rules.death_count  # black intel that make a player dying
        self.n = n_players
        self.seed = seed
        self.rng = random.Random(seed)  # all chance of the game (the step API's resample replaces it)
        self.agents = agents
        self.max_turns = max_turns or self.rules.max_turns
        self.players = [Player(i) for i in range(n_players)]
        self.all_mask = (1 << n_players) - 1  # every seat, as a bit mask (see Card.knowers)
        # the clock: the turn flow advances it (TurnFlow.play_turn, enter_phase); Game.run passes the turn on
        self.current: Player | None = None
        self.phase = "setup"
        self.turn_no = 0
        # The log is kept when someone will read it: a log file, an agent that observes (its
        # observation holds the public history), a scenario, the step API. Bare batch play skips it.
        self.record = record or any(getattr(a, "observes", False) for a in agents or ())
        self.log: list = []
        # what observations keep between calls: each seat's history so far, card faces, players' rows, piles …
        # (engine/observation.py: each part made once and shared, read-only, by the observations that may see it)
        self.views = Views(n_players)
        self.trace: list[tuple[Any, ...]] | None = None  # a resolution trace, when someone (a scenario) wants one
        # Counts every event and noted change (a mark): with Zones.moves, the stamp a collect victory check
        # that found no winner compares, so it is not repeated until something has happened since.
        self.changes = 0
        # a subclass overrides emit (a test's spy): emit_event calls it, so it sees the components' events too
        self.emit_overridden = type(self).emit is not GameCore.emit
        self.first_seat = 0  # the game's first player: rounds (轮) start with his turn
        self.watched: frozenset = frozenset()  # event kinds some dealt skill reacts to (Skills.index_triggers)
        self.events: list[tuple[str, dict[str, Any]]] = []  # watched events not yet seen by triggers (take_events)
        self.decision_count = 0
        self.decision_limit = MAX_DECISIONS  # past it the game is stuck (E503); a test may lower it (MAX_DECISIONS)
        # The step budget (E501), as the count of changes and card moves at which it is spent: each decision
        # sets it STEP_BUDGET above their count then; loops inside loops and card and skill uses lower it (the
        # compiled code's loops, EffectStack.push). See over_budget; `steps_left` reads what is left.
        self.budget_line = STEP_BUDGET
        self.decision_log: list = []  # indices answered, in order (the replay script)
        self.actions_taken: list = []  # the action ids agents answered (the synchronous driver)
        self._labels: dict = {}  # labels of cards, players and card uses offered as options (a dealt deck's: load_deck)
        self.result: GameOver | None = None
        # the channels' ports (ports.py): they see cards through Zones, which is made after the core
        self._sight: Callable[[int], int] = ports.sight  # the seats that can see a card now (records naming it)
        self._note_pick: Callable[[Card, int, list[Any]], None] = ports.note_pick  # a seat picked a card

    @property
    def MAX_DECISIONS(self) -> int:
        """The decisions after which the game is stuck (E503): the catalogue's limit, unless set on this game."""
        return self.decision_limit

    @MAX_DECISIONS.setter
    def MAX_DECISIONS(self, n: int) -> None:
        self.decision_limit = n

    def reseed(self, seed: int) -> None:
        """All chance from here on is drawn from a new generator (the step API's resample)."""
        self.rng = random.Random(seed)

    def forget_views(self) -> None:
        """What observations kept is stale (a re-deal: records went, cards may have other ids): start again. A new
        Views, not the old one initialised again: compiled (mypyc), a second ``__init__`` sets the fields as if
        they were empty and never frees what they held (every part kept, and the cards and players it names). The
        cards' faces stay: a face moves with its deck id."""
        faces = self.views.faces
        self.views = Views(self.n)
        self.views.faces = faces

    # ------------------------------------------------------------------ the clock

    def enter_phase(self, phase: str) -> None:
        self.phase = phase

    # ------------------------------------------------------------------ events

    def emit(
        self, kind: str, to: Iterable[Player | int] | None = None, secret: tuple[str, ...] = (), **data: Any
    ) -> None:
        """Record that something happened (for triggers and the log), and who may see it: an alias of
        ``emit_event(game, ...)`` (the channel's one spelling in the engine; see the module's docstring).

        `to` alone: only those seats hear of the event at all. `to` with `secret`:
        everyone hears of it, but the named fields are for `to` only. Fields that
        name deck ids (CARD_FIELDS) are checked against the cards' visibility now:
        a card some seat cannot see makes that field secret to the seats that can.
        """
        emit_event(self, kind, to, secret, True, **data)

    def take_events(self) -> list[tuple[str, dict[str, Any]]]:
        """The watched events recorded since the last call, oldest first (the trigger loop's batch)."""
        batch = self.events
        self.events = []
        return batch

    def listen(self, kinds: frozenset) -> None:
        """The event kinds some dealt skill reacts to (the others are not queued for triggers)."""
        self.watched = kinds

    def note_change(self) -> None:
        """Something a victory condition may read changed without an event (a mark)."""
        self.changes += 1

    # ------------------------------------------------------------------ decisions

    def ask(
        self,
        player: Player,
        kind: str,
        options: list[Any],
        prompt: str = "",
        source: str = "",
        by: tuple[int, str] | None = None,
    ) -> Any:
        """Ask `player` to pick one of `options` (which the engine has made legal). Returns the option. An alias
        of ``ask_seat(game, ...)`` (the channel's one spelling in the engine; see the module's docstring).
        `by`: who asks (the seat whose card or skill asks, and that skill's id or ""), None when the rules ask."""
        return ask_seat(self, player, kind, options, prompt, source, by)

    # ------------------------------------------------------------------ safety limits

    @property
    def steps_left(self) -> int:
        """The steps left of the budget until the next decision (cards moved and changes recorded count)."""
        return int(self.budget_line - self.changes - self.zones.moves)

    @steps_left.setter
    def steps_left(self, n: int) -> None:
        self.budget_line = self.changes + self.zones.moves + n

    def _chain(self) -> str:
        """What is resolving, for messages (Game: EffectStack.chain)."""
        return "?"

    def over_budget(self) -> None:
        """The step budget is spent (E501): the game ends, naming what is resolving.

        Where content can make the engine repeat itself — a loop as it starts (language/compiler.py:
        its iterations), a card or skill use (EffectStack.push: one) — `budget_line` is lowered and the cards
        moved (`zones.moves`) and the changes recorded (`changes`) are compared with it, inline: a runaway is
        caught at its next loop or use, and the hot paths
        (Zones.move, emit) pay nothing more."""
        raise EngineError(
            f"step budget exceeded: the effects ran more than {STEP_BUDGET} steps (loop iterations, card and "
            f"skill uses, cards moved, events) without a decision; resolving: {self._chain()}",
            "E501",
        )

    def _watch_stuck(self, player: Player, kind: str, options: list[Any], prompt: str, source: str) -> None:
        """Past MAX_DECISIONS the game is stuck (E503): watch STUCK_WINDOW more questions, then end the game
        saying what repeats — the question, its seat and the answer given again and again (a card or skill)."""
        watched: list[tuple[Any, ...]] = self.__dict__.setdefault("_watched", [])  # the questions since the limit
        if watched:  # the answer to the previous question: the last index answered, or its only option (forced)
            q = watched[-1]
            answered = len(self.decision_log) > q[4]
            watched[-1] = (*q[:3], D.option_label(q[3][self.decision_log[-1] if answered else 0]))
        if len(watched) < STUCK_WINDOW:
            watched.append((player.seat, kind, prompt or source, options, len(self.decision_log)))
            return
        counts: dict[tuple[Any, ...], int] = {}
        for q in watched:
            counts[q] = counts.get(q, 0) + 1
        (seat, k, asked, answer), times = max(counts.items(), key=lambda kv: kv[1])
        about = f" ({asked})" if asked else ""
        raise EngineError(
            f"the game is stuck: more than {self.MAX_DECISIONS} decisions; of the last {len(watched)}, "
            f"{times} were `{k}`{about} for P{seat}, answered {answer!r} — something offered again and again "
            "that does not move the game on (e.g. a use instead of sending an intel whose effect sends none)",
            "E503",
            # (the answer names an option of the seat's, a hand card maybe, and that a seat is asked at a window at all
            # tells that it holds something usable there: the people at the table are told neither)
            public=f"the game is stuck: more than {self.MAX_DECISIONS} decisions, the same question asked again and "
            "again without moving the game on (the referee's log says which)",
        )

    def _label(self, opt) -> str:
        """An option's label for the log (cards by deck id, players by seat and card uses by deck id and the card
        type used as are made once: a use's label is its card's label and that type's name)."""
        t = type(opt)
        if t is Card:
            key: Any = opt.uid
        elif t is Player:
            key = -1 - opt.seat
        elif t is D.PlayOption:
            use = opt.use
            if use is None:  # (a pass: most answers at an idle point)
                return "pass"
            card = opt.card
            if card is None:  # (a skill: its name)
                return D.option_label(opt)
            key = (card.uid, use.card_type.id)  # (the label reads the card's face and the type it is used as)
        else:
            return D.option_label(opt)
        label = self._labels.get(key)
        if label is None:
            label = self._labels[key] = D.option_label(opt)
        return label


def emit_event(
    game: GameCore,
    kind: str,
    to: Iterable[Player | int] | None = None,
    secret: tuple[str, ...] = (),
    _as_method: bool = False,
    **data: Any,
) -> None:
    """The event channel: record that something happened (for triggers and the log), and who may see it.

    `to` alone: only those seats hear of the event at all. `to` with `secret`: everyone hears of it, but the
    named fields are for `to` only. Fields that name deck ids (CARD_FIELDS) are checked against the cards'
    visibility now: a card some seat cannot see makes that field secret to the seats that can.

    The one spelling the engine's components use (``game.emit(...)`` is its alias); a function, not a method of
    the game. (In the compiled build the components are compiled and `Game` is a Python subclass of `GameCore`: a
    method call on it goes through Python's attribute lookup and argument parsing, which cost the compiled engine
    about a sixth of its instructions at `emit` alone; a plain function is called directly.) A Game subclass
    that overrides `emit` (a test's spy) still sees every event. `_as_method`: called by GameCore.emit."""
    if game.emit_overridden and not _as_method:
        spy = type(game).emit  # (the subclass's emit, which ends in GameCore.emit)
        spy(game, kind, to, secret, **data)
        return
    game.changes += 1
    if kind in game.watched:
        data["e"] = kind  # a trigger's `event` reads it, whether or not the game keeps a log
        game.events.append((kind, data))
    if not game.record:
        return
    rec = data
    rec["e"] = kind
    if to is not None:
        seats = sorted(p.seat if isinstance(p, Player) else p for p in to)
        if secret:
            rec["secret"] = {f: seats for f in secret}
        else:
            rec["to"] = seats
    if data.keys().isdisjoint(CARD_FIELDS):  # most records name no card
        game.log.append(rec)
        return
    hidden = None
    for f in CARD_FIELDS:
        v = data.get(f)
        if type(v) is int:
            mask = game._sight(v)
        elif type(v) is list and v:
            mask = -1
            for uid in v:
                if type(uid) is int:  # (a list of card names, as `ban`'s, names no card)
                    mask &= game._sight(uid)
        else:
            continue
        if mask != -1:  # not face up for all: the seats that can see every card named (maybe all; not spectators)
            if hidden is None:
                hidden = dict(rec.get("secret", ()))
            hidden[f] = [s for s in range(game.n) if mask >> s & 1]
    if hidden is not None:
        rec["secret"] = hidden
    game.log.append(rec)


def record_private(game: GameCore, kind: str, to_seat: int, **data: Any) -> None:
    """A record only `to_seat` hears of, and no triggered skill (a face-down role's skill used silently: another
    player's skill reacting to it would tell its owner that it happened). Counted as a change, as emit_event counts
    every event."""
    game.changes += 1
    if game.record:
        data["e"] = kind
        data["to"] = [to_seat]
        game.log.append(data)


def unheard(game: GameCore, kind: str) -> bool:
    """Would nobody hear of an event of this kind now (no dealt triggered skill reacts to it, no log is kept, no
    subclass overrides emit)? Then the change is counted, as emit_event counts it, and True is returned: the caller
    need not build the event's fields (compiled, a dict of them cost about 1,000 instructions). So
    ``if not unheard(game, K): emit_event(game, K, ...)`` does what ``emit_event(game, K, ...)`` does."""
    if game.record or game.emit_overridden or kind in game.watched:
        return False
    game.changes += 1
    return True


def ask_seat(
    game: GameCore,
    player: Player,
    kind: str,
    options: list[Any],
    prompt: str = "",
    source: str = "",
    by: tuple[int, str] | None = None,
    alone: bool = False,
    answering: tuple[tuple[int | None, str, int | None], ...] | None = None,
) -> Any:
    """The decision channel: ask `player` to pick one of `options` (which the engine has made legal); returns
    the option. `by`: who asks (the seat whose card or skill asks, and that skill's id or ""), None when the
    rules ask. One option is taken without asking, unless `alone`: a question the seat is asked even so, where
    another seat in its place would be asked one that the others wait for (a pinned role's seat in the deal).
    `answering`: at the `respond` idle point, the card use it would answer (UseFrame.chain), shown in the decision. The
    one spelling the engine's components use (``game.ask(...)`` is its alias); a function, not a method of the game
    (compiled, such a call goes through Python's attribute lookup: see emit_event)."""
    if not options:
        raise EngineError(f"decision {kind} for P{player.seat} has no options")
    game.decision_count += 1
    if game.decision_count > game.decision_limit:
        game._watch_stuck(player, kind, options, prompt, source)
    if len(options) == 1 and not alone and kind not in (D.PLAY, D.RECEIVE, D.SEND):
        picked = options[0]  # a forced choice is not a decision
    else:
        game.budget_line = game.changes + game.zones.moves + STEP_BUDGET
        decision = Decision(kind, player.seat, options, prompt, source, by, answering)
        if game.trace is not None:
            game.trace.append(("ask", player.seat, kind, prompt or source, decision.labels()))
        index = game.decide(decision)
        game.decision_log.append(index)
        picked = options[index]
        if game.trace is not None:
            game.trace.append(("answer", player.seat, D.option_label(picked)))
        if game.record:  # (no "e"; every value but `to` a number or a text: histories.py's _read_log counts on it)
            game.log.append(
                {
                    "d": kind,
                    "seat": player.seat,
                    "n": len(options),
                    "choice": index,
                    "label": "pass" if picked is D.PASS else game._label(picked),  # (a pass: most answers, no call)
                    "prompt": prompt,
                    "source": source,
                    "to": [player.seat],
                }
            )
    if type(picked) is Card:
        game._note_pick(picked, player.seat, options)  # whoever picks a card (seeing it) can follow where it goes next
    return picked
