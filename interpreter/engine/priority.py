"""Stack timing (rules `resolution: stack`, seed 002): priority, speeds and a last-in-first-out stack.

The second resolution model, beside the queued timing-node loop of resolution.py; every card and
skill rides on it unchanged (no card-specific code). :class:`StackTiming` owns the stack of what
waits to resolve — card uses whose target is chosen, triggered skills, active skills paid for — and
priority:

1. A card use (CardUse.use_card) records ``card_used`` and goes onto the stack with the rest of its
   use; an active skill is paid for (its limit counted, its role turned up) and goes onto the stack;
   the triggered skills that react to what was recorded go onto the stack above it, in seat order from
   the current player (the owner is asked first when a skill is optional; a player with several chooses
   which of his resolves first), so the last one put on — the latest seat — resolves first.
2. Then players get priority in turn order: after a player put something on the stack, that player
   first (but after an answer at the `respond` idle point, the current player: docs/rulings.md R171); after
   the top resolved, the current player first. A player holding priority may answer with a
   **fast** use (a card or active skill whose timing is fast: ``rules.speeds`` over the catalogue's
   defaults) of an idle point whose moment it is for them (TurnFlow.open_idle_points): it goes on top,
   and priority starts again from them. Slow uses are never answers: they are offered only by a
   phase's own question (the play phase's idle point, the send), with the stack empty.
3. When every living player has passed in a row, the top of the stack resolves: a card's effect and
   disposal; a triggered skill's effect if its owner may still use it and its condition still holds
   (else it does nothing); then what that made happen is settled (its triggers onto the stack, victory
   checks, dying), and priority is given again.

A use an effect makes (视为使用, a card an effect has a player use) goes onto the stack too and is
resolved, with its answers, before the effect goes on (the seed's play permissions: it is part of that
effect). ``card_resolving`` triggers (卡牌生效前) still resolve as the card resolves, before its effect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, NoReturn

from .. import catalogue
from ..catalogue import LIMITS
from . import decisions as D
from .core import ask_seat
from .decisions import PASS, PlayOption
from .errors import EngineError
from .stack import chain_text

if TYPE_CHECKING:
    from ..language.runtime import Ctx
    from ..model.content import Skill
    from .card_use import CardUse
    from .core import GameCore
    from .flow import TurnFlow
    from .resolution import Resolution
    from .seats import Seats
    from .skills import Skills
    from .stack import UseFrame
    from .state import Player

MAX_STACK: Final[int] = LIMITS["max_stack"].value
MAX_TRIGGER_ROUNDS: Final[int] = LIMITS["max_trigger_rounds"].value


class StackItem:
    """One thing waiting on the stack: who put it there, what it is (for traces and messages), how it resolves."""

    __slots__ = ("owner", "label", "resolve", "use")

    def __init__(self, owner: Player, label: str, resolve: Callable[[], None], use: UseFrame | None = None) -> None:
        self.owner = owner
        self.label = label
        self.resolve = resolve
        self.use = use  # a card use: its frame (the `respond` idle point answers it while it is on top)


class StackTiming:
    """Priority and the stack (see the module docstring)."""

    def __init__(
        self,
        game: GameCore,
        seats: Seats,
        skills: Skills,
        resolution: Resolution,
        card_use: CardUse,
        flow: TurnFlow,
    ) -> None:
        self.game = game
        self.seats = seats
        self.skills = skills
        self.resolution = resolution
        self.card_use = card_use
        self.flow = flow
        self.items: list[StackItem] = []  # the stack, top last
        self.first: Player | None = None  # who gets priority first: who last put something on; None: the current player
        self.responding = False  # the use being made answers from a priority round: it waits on the stack
        self.depth = 0  # drains inside one another (a resolution whose triggers resolve before the rest)
        self.resolving: list[str] = []  # the items resolving or settling, one a drain: what E504 names
        speeds = {name: t.speed for name, t in catalogue.TIMINGS.items()}
        speeds.update(game.rules.speeds)
        self.fast = tuple(t for t, speed in speeds.items() if speed == "fast")
        # uses at the `respond` idle point exist and are fast (the rules may not make it slow: E128)
        self.respond_fast = card_use.responds and "respond" in self.fast

    # ------------------------------------------------------------------ putting things on the stack

    def push_use(self, user: Player, resolve: Callable[[], None]) -> None:
        """A card use, its target chosen (CardUse.use_card): onto the stack."""
        frame = self.card_use.stack.current_use()
        label = frame.used_as.label() if frame is not None and frame.used_as is not None else "a card"
        self.push(StackItem(user, label, resolve, frame))

    def perform(self, p: Player, choice: PlayOption) -> None:
        """An idle point's or a priority round's answer: a card use, or an active skill paid for now."""
        if choice.card is not None:
            self.card_use.use_card(p, choice.card, choice.use)
            return
        skill = choice.use
        card_use = self.card_use
        self.skills.pay_skill(p, skill)
        # what the skill is used at, for its effect, which resolves later (when both have moved on): the idle point
        # it was offered at, and used at `respond` the card it answers (the one on top now)
        timing = card_use.timing
        answering = card_use.stack.answering if timing == "respond" else None
        self.push(StackItem(p, skill.name, self._active_resolver(p, skill, answering, timing)))

    def push(self, item: StackItem) -> None:
        """Put an item on top. An answer from a priority round waits there; anything else is resolved now, with
        what answers it (the stack is drained down to where it was)."""
        items = self.items
        items.append(item)
        if len(items) > MAX_STACK:
            self.too_deep()
        self.first = item.owner
        game = self.game
        if game.trace is not None:
            game.trace.append(("node", f"堆叠 +{item.label} ({len(items)})", game.phase))
        if self.responding:
            self.responding = False
            return
        self.drain(len(items) - 1)

    def put_triggers(self) -> None:
        """The triggered skills that react to the events recorded go onto the stack, then it is drained down to
        where it was (Resolution.run_triggers under stack timing: a timing node's step 1)."""
        self.drain(len(self.items))

    def _collect(self) -> None:
        """Triggered skills reacting to the recorded events onto the stack, in seat order from the current player."""
        game = self.game
        if not game.events:
            return
        batch = game.take_events()
        res = self.resolution
        blocker_of = self.skills.skill_blocker
        by_seat = self.skills.triggers_by_seat
        assert game.current is not None
        for p in self.seats.order_from(game.current):
            ready: list[tuple[Skill, Ctx]] = []
            for skill in by_seat[p.seat]:
                for kind, data in batch:
                    if kind not in (skill.on or ()):
                        continue
                    blocker = blocker_of(p, skill)
                    if blocker is not None:
                        if game.trace is not None:
                            game.trace.append(("skill", p.seat, skill.name, kind, blocker))
                        continue
                    ctx = res._ready(p, skill, data)
                    if ctx is None:
                        continue
                    self.skills.note_offer(p, skill)
                    if skill.optional and not ask_seat(
                        game, p, D.CONFIRM, [True, False], f"发动{skill.name}吗", skill.id, (p.seat, skill.id)
                    ):
                        continue
                    if game.trace is not None:
                        game.trace.append(("skill", p.seat, skill.name, kind, "onto the stack"))
                    ready.append((skill, ctx))
            # several skills of one player: he chooses which resolves first (rulings R53), so it goes on last
            ordered: list[tuple[Skill, Ctx]] = []
            while len({id(sk) for sk, _ in ready}) > 1:
                choices: list[Skill] = []
                for sk, _ in ready:
                    if sk not in choices:
                        choices.append(sk)
                chosen = ask_seat(game, p, D.SKILL_ORDER, [PlayOption(None, sk) for sk in choices], "先结算哪个技能")
                item = next(r for r in ready if r[0] is chosen.use)
                ready.remove(item)
                ordered.append(item)
            ordered += ready
            for skill, ctx in reversed(ordered):
                self.items.append(StackItem(p, skill.name, self._trigger_resolver(p, skill, ctx)))
                self.first = None
                if len(self.items) > MAX_STACK:
                    self.too_deep()

    def too_deep(self) -> NoReturn:
        """E505: more items wait on the stack than MAX_STACK (the stack limit, not max_nesting's: they wait, they do
        not resolve inside one another). The rules set no depth, and what players answer with runs out (cards in
        hand, skills' limits) long before it: what keeps going on is something that does not."""
        raise EngineError(
            f"the stack is too deep: more than {MAX_STACK} cards and skills waiting on it at once (the stack limit, "
            "max_stack; no game reaches it with what players can answer with): something is put on it again and "
            "again without running out (a fast skill with no limit?): "
            + chain_text([f"P{i.owner.seat} {i.label}" for i in self.items]),
            "E505",
        )

    def _trigger_resolver(self, p: Player, skill: Skill, ctx: Ctx) -> Callable[[], None]:
        return lambda: self._resolve_trigger(p, skill, ctx)

    # ------------------------------------------------------------------ priority and resolving

    def drain(self, floor: int) -> None:
        """Give priority and resolve the top, until the stack is back down to `floor` items."""
        self.depth += 1
        try:
            if self.depth > MAX_TRIGGER_ROUNDS:
                # (what loops, named as the queued model's E504 names its skills: the items resolving inside one
                # another, each once)
                looping = sorted(set(self.resolving))
                raise EngineError(
                    "triggered skills keep triggering each other on the stack (more than "
                    f"{MAX_TRIGGER_ROUNDS} resolutions inside one another): check the content for a loop"
                    + (f"; resolving inside one another: {', '.join(looping)}" if looping else ""),
                    "E504",
                )
            items = self.items
            while True:
                self._collect()
                if len(items) <= floor:
                    return
                if self._priority_round():
                    continue
                item = items.pop()
                self.first = None
                game = self.game
                if game.trace is not None:
                    game.trace.append(("node", f"堆叠结算 {item.label}", game.phase))
                self.resolving.append(f"P{item.owner.seat} {item.label}")  # (until what it made happen settles)
                try:
                    item.resolve()
                    self.resolution.settle("堆叠结算后")  # what it made happen: triggers (above), victory checks, dying
                finally:
                    self.resolving.pop()
        finally:
            self.depth -= 1

    def _priority_round(self) -> bool:
        """Priority in turn order from who has it first; True if someone answered (their use is on the stack). Nobody
        has it once the game is decided: its 游戏结束时 skills resolve unanswered (docs/rulings.md R175)."""
        if self.resolution.ended:
            return False
        game = self.game
        start = self.first if self.first is not None and self.first.alive else game.current
        assert start is not None
        card_use = self.card_use
        card_options = card_use.card_options
        stack = card_use.stack
        # a card use on top, not void: the `respond` idle point (一张牌生效前) is open for everyone, answering it
        top = self.items[-1].use if self.items and self.respond_fast else None
        if top is not None and not top.answerable(self.seats.in_death):  # void, its target or user dead: R171, R174
            top = None
        chain = None  # (what a question that offers an answer to it shows of it: UseFrame.chain)
        outer = stack.answering
        try:
            for p in self.seats.alive_from(start):
                if not p.alive:
                    continue
                options: list[Any] = []
                offered: list[str] = []  # the idle point each option is offered at (several are offered at once)
                for timing in self.flow.open_idle_points(p):
                    if timing in self.fast:
                        for option in card_options(p, timing):
                            # a skill of several idle points open at once is offered once (an action names a skill,
                            # not its idle point), at the first (濒死 before the contest, as the queued rules ask)
                            if option.card is None and _skill_at(options, option.use) >= 0:
                                continue
                            options.append(option)
                            offered.append(timing)
                answers = False
                if top is not None:
                    stack.answering = top
                    for option in card_options(p, "respond"):
                        if option.card is None:  # at `respond` it answers the card on top, as the queued rules ask
                            k = _skill_at(options, option.use)
                            if k >= 0:
                                del options[k], offered[k]
                        options.append(option)
                        offered.append("respond")
                        answers = True
                if not options:
                    continue  # nothing to answer with: a pass without a question
                options.append(PASS)
                if answers and chain is None:
                    chain = top.chain() if top is not None else None
                choice = ask_seat(game, p, D.PLAY, options, "响应", answering=chain if answers else None)
                if choice is PASS:
                    continue
                # the idle point the option chosen was offered at, which its use (a card's, or a skill's effect that
                # uses a card) is made at: card_options left the last one asked about
                at = offered[next(i for i, o in enumerate(options) if o is choice)]
                card_use.timing = at
                # an answer to the card use on top (at `respond`): then priority goes to the current player first,
                # not to the answerer, as the queued rules ask again from him (docs/rulings.md R171)
                answer = at == "respond"
                self.responding = True
                try:
                    self.perform(p, choice)
                finally:
                    self.responding = False
                if answer:
                    self.first = None
                return True
            return False
        finally:
            stack.answering = outer

    def _resolve_trigger(self, p: Player, skill: Skill, ctx: Ctx) -> None:
        """A triggered skill at the top: it resolves if its owner may still use it and its condition still holds."""
        game = self.game
        why = self.skills.skill_blocker(p, skill)
        if why is None and not p.alive and ctx.subject is not p:
            why = "owner is dead"
        if why is None and skill.condition is not None and not skill.condition(ctx):
            why = "condition false: " + skill.condition_text
        if why is not None:
            if game.trace is not None:
                game.trace.append(("skill", p.seat, skill.name, "", "does nothing now: " + why))
            return
        if game.trace is not None:
            game.trace.append(("fired", p.seat, skill.name))
        self.skills.use_skill(p, skill, ctx)

    def _active_resolver(
        self, p: Player, skill: Skill, answering: UseFrame | None, timing: str | None
    ) -> Callable[[], None]:
        return lambda: self._resolve_active(p, skill, answering, timing)

    def _resolve_active(self, p: Player, skill: Skill, answering: UseFrame | None, timing: str | None) -> None:
        """An active skill at the top (paid for when it went on): its effect, which reads the idle point it was used
        at (a card its effect uses is used there) and, used at `respond`, the card it answered (`answered`): by now
        the priority round that offered it has ended."""
        if p.alive:
            card_use = self.card_use
            stack = card_use.stack
            outer, outer_timing = stack.answering, card_use.timing
            stack.answering = answering
            card_use.timing = timing
            try:
                self.skills.use_skill(p, skill, paid=True)
            finally:
                stack.answering, card_use.timing = outer, outer_timing


def _skill_at(options: list[Any], skill: Any) -> int:
    """Where the skill is among the options (a skill's option: no card), or -1."""
    for k, option in enumerate(options):
        if option.card is None and option.use is skill:
            return k
    return -1
