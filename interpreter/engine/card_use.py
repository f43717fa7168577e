"""Using cards and skills at idle points: what a player may use, and a card's use from target to disposal.

:class:`CardUse` owns this turn's forced conversions (A只能当B使用) and bans
(cards nobody may use from hand) and the idle point being offered. It lists a
player's legal uses (:meth:`CardUse.card_options`, :meth:`CardUse.legal_uses`),
asks the one question of an idle point (:meth:`CardUse.offer_idle`), and
carries out the answer (:meth:`CardUse.perform`, :meth:`CardUse.use_card`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..language.runtime import CardName, Ctx, StopEffect
from . import decisions as D
from .core import ask_seat, emit_event, unheard
from .decisions import PASS, PlayOption
from .stack import UseFrame
from .state import DECLARED_ZONE, DISCARD, HAND, PROCESSING, RIGHT, Card, Player

if TYPE_CHECKING:
    from ..model.content import CardType, CardUse as Use
    from .core import GameCore
    from .ports import CardUsePorts
    from .resolution import Resolution
    from .seats import Seats
    from .skills import Skills
    from .stack import EffectStack
    from .zones import Zones


class CardUse:
    """Legal uses, idle-point questions and card use (see the module docstring)."""

    def __init__(
        self,
        game: GameCore,
        seats: Seats,
        zones: Zones,
        skills: Skills,
        stack: EffectStack,
        resolution: Resolution,
        ports: CardUsePorts,
    ) -> None:
        self.game = game
        self.seats = seats
        self.zones = zones
        self.skills = skills
        self.stack = stack
        # what the content set's index (engine/index.py) holds of the cards' uses and the idle points' numbers
        self.index = game.index
        self.timings = game.index.timings
        self.responds = game.index.responds(game.content)  # a use at the `respond` idle point exists: it is offered
        self.rule_actives = skills.rule_actives  # the rules' active skills by idle point (Skills: every seat's)
        # what the idle loop calls, bound once
        self._has_status = seats.has_status
        self.resolution = resolution  # (called directly: compiled, a bound method kept here costs a Python call)
        self._target_prompts: dict[str, str] = {}  # card type id -> the question for its target
        # (seat, card type id) -> times that seat used a card as that type, for statistics (a balance sweep's card
        # figures: Game.card_uses)
        self.card_uses: dict[tuple[int, str], int] = {}
        self.timing: str | None = None  # the idle point being offered (for effects that use cards there)
        self.conversions: dict[str, CardType] = {}  # card type id -> card type its hand copies must be used as
        self.bans: set[str] = set()  # card type ids nobody may use from hand this turn
        # card type ids nobody may use, hand or virtual, while the intel they were bound to is pending (protect_intel)
        self.intel_bans: set[str] = set()
        self.intel_bans_card: Card | None = None  # that intel
        # the ports (ports.py), under stack timing (rules `resolution: stack`, priority.py): a card use, once its
        # target is chosen and `card_used` recorded, is handed to the stack with the rest of its use
        # (StackTiming.push_use), and an idle point's answer is carried out by the stack (StackTiming.perform);
        # None: queued (the rest of the use resolves here, the answer is carried out by perform below)
        self.push_use: Callable[[Player, Callable[[], None]], None] | None = ports.push_use
        self.stack_perform: Callable[[Player, PlayOption], None] | None = ports.stack_perform

    # ------------------------------------------------------------------ this turn's conversions and bans

    def convert(self, frm: str, into: CardType) -> None:
        """This turn, hand cards of type `frm` can be used only as `into` (A只能当B使用)."""
        self.conversions[frm] = into
        emit_event(self.game, "convert", source=frm, into=into.id)

    def printed_as(self, ctype: CardType) -> frozenset[str]:
        """The card types a hand card used as `ctype` (not by an effect's conversion) may be printed as: `ctype`,
        or a type this turn's forced conversions turn into it (everyone heard of them)."""
        return frozenset([ctype.id, *[frm for frm, into in self.conversions.items() if into is ctype]])

    def ban(self, names: list[str]) -> None:
        """This turn, nobody may use these card types from hand."""
        self.bans.update(names)
        if names:
            emit_event(self.game, "ban", cards=list(names))

    def protect_intel(self, names: list[str]) -> bool:
        """While the pending intel stays pending (in transit, contested; not once it is received, discarded or
        replaced by another card), nobody may use cards of these types, from hand or virtually (a ban bound to the
        intel, not to the turn).
        False if no intel is pending."""
        card = self.zones.pending
        if card is None:
            return False
        if self.intel_bans_card is not card:
            self.intel_bans, self.intel_bans_card = set(), card
        self.intel_bans.update(names)
        if names:
            emit_event(self.game, "intel_protected", cards=list(names))
        return bool(names)

    def intel_banned(self, type_id: str) -> bool:
        """A card type that protect_intel forbids now."""
        return (
            type_id in self.intel_bans
            and self.intel_bans_card is not None
            and self.zones.pending is self.intel_bans_card
        )

    def new_turn(self) -> None:
        """Conversions and bans last one turn."""
        if self.conversions or self.bans:
            self.conversions = {}
            self.bans = set()
        if self.intel_bans:
            self.intel_bans, self.intel_bans_card = set(), None

    # ------------------------------------------------------------------ what a player may use

    def offer_idle(
        self,
        p: Player,
        timing: str,
        prompt: str,
        answering: tuple[tuple[int | None, str, int | None], ...] | None = None,
    ) -> bool:
        """One question at an idle point: p's legal card uses and skills, or pass. True if p used one.

        Every idle point asks through here (出牌阶段, 争夺阶段, 濒死求救); what differs is only
        who is asked next, which each procedure says itself. `answering`: at `respond`, the use answered (its chain).
        """
        options = self.card_options(p, timing)
        if not options:
            return False  # nothing to use: a pass without a question
        options.append(PASS)
        choice = ask_seat(self.game, p, D.PLAY, options, prompt, answering=answering)
        if choice is PASS:
            return False
        self.perform(p, choice)
        return True

    def offer_inside(self, p: Player, timing: str, prompt: str) -> bool:
        """An idle point inside an effect (an effect makes p send, and p may do it his own way): p's uses
        at `timing`, or pass. True if p used one. A skill used here resolves as part of that effect, so
        no node is entered after it: what it makes happen waits for the next node (queued)."""
        outer = self.timing  # the idle point the effect that asks was used at
        try:
            options = self.card_options(p, timing)
            if not options:
                return False
            options.append(PASS)
            choice = ask_seat(self.game, p, D.PLAY, options, prompt)
            if choice is PASS:
                return False
            if choice.card is None:
                self.skills.use_skill(p, choice.use)
            else:
                self.use_card(p, choice.card, choice.use)
            return True
        finally:
            self.timing = outer

    def card_options(self, p: Player, timing: str) -> list[PlayOption]:
        """The legal card uses and active skills of p at an idle point."""
        self.timing = timing
        skills = self.skills
        role = p.role
        options: list[PlayOption] = []
        # the idle point's number (ContentIndex.timings): p's active skills and its hand cards' uses are kept by it
        ti: int = self.timings.get(timing, -1)
        if role is not None:
            table = p.active_table
            if p.actives_of is not role:  # (found once per role: it may number idle points not met before)
                table = skills.active_table(p, role)
                ti = self.timings.get(timing, -1)
            if 0 <= ti < len(table):
                here = table[ti]
                if here is not None:
                    options = skills.skill_options(p, timing, here)
        if self.rule_actives:  # the rules' skills, every seat's whatever its role (the base game has none)
            rules_here = self.rule_actives.get(timing)
            if rules_here is not None:
                options += skills.skill_options(p, timing, rules_here)
        if p.statuses and self.seats.has_status(p, "cannot_use_cards"):
            return options
        special = False  # (tested in a condition: native size tests compiled, no call pure)
        if self.conversions or self.bans or self.intel_bans:
            special = True
        # a hand card whose type has no use here is passed over by one test of its bits; no number: no card type met
        # so far has a use here (most idle points offer nothing)
        if ti >= 0:
            tbit = 1 << ti
        elif special:
            tbit = 0
        else:
            return options
        done = 0  # the shared uses (their bits: rules that do not read this_card) checked once for all copies ...
        good = 0  # ... and those found usable
        ctx: Ctx | None = None  # one context for every check of this question (the rules only read it)
        for card in p.hand:
            if special:
                ctype = self.hand_card_type(card)
                if ctype is None:
                    continue
                mask, table = self.index.plans(ctype)
                if ti < 0:  # (a type first met here, by a conversion, may have brought this idle point's number)
                    ti = self.timings.get(timing, -1)
                    if ti < 0:
                        continue
                    tbit = 1 << ti
                if not mask & tbit:
                    continue
                plans = table[ti]
            elif card.use_timings & tbit:
                plans = card.use_plans[ti]  # (its type's: Card keeps them)
            else:
                continue
            for use, cond, target, bit in plans:
                if bit:
                    if done & bit:
                        if good & bit:
                            options.append(PlayOption(card, use))
                        continue
                    done |= bit
                if ctx is None:
                    ctx = Ctx(self.game, p, card=card, dying=self.seats.dying_player)
                else:
                    ctx.card = card
                if (cond is None or cond(ctx)) and (target is None or target(ctx)):
                    good |= bit
                    options.append(PlayOption(card, use))
        return options

    def _use_allowed(self, p: Player, card: Card | None, use: Use) -> bool:
        """The use's own condition holds for p, and its target rule offers someone."""
        ctx = Ctx(self.game, p, card=card, dying=self.seats.dying_player)
        if use.condition is not None and not use.condition(ctx):
            return False
        return use.target is None or bool(use.target(ctx))

    def hand_card_type(self, card: Card) -> CardType | None:
        """What a hand card can be used as now: its forced conversion (A只能当B使用) or itself; None if banned."""
        ctype = self.conversions.get(card.type.id, card.type)
        return None if ctype.id in self.bans or (self.intel_bans and self.intel_banned(ctype.id)) else ctype

    def legal_uses(self, p: Player, card: Card | None, ctype: CardType | None, timing: str | None = None) -> list[Use]:
        """The uses of `card` as `ctype` that p could make now, or as if at idle point `timing` (card None: a
        virtual use, 视为使用).

        A hand card obeys bans, forced conversions (it may be used only as what it is
        forced into) and "cannot use hand cards"; a virtual use obeys none of them, nor does a card in one of
        p's zones the rules declare (or a shared one: 蓄谋区, 仁区), which is not a hand card.
        Each use's timing, condition and target rule must allow it.
        """
        timing = timing or self.timing
        if timing is None or ctype is None or not p.alive:
            return []
        if card is not None and card.zone >= DECLARED_ZONE:
            if card.owner is not None and card.owner is not p:
                return []  # another player's zone
        elif card is not None:
            if card.zone != HAND or card.owner is not p:
                return []
            if p.statuses and self._has_status(p, "cannot_use_cards"):
                return []
            forced = self.conversions.get(card.type.id)
            if forced is not None and ctype is not forced:  # A只能当B使用: as nothing else
                return []
            if ctype.id in self.bans:
                return []
        if self.intel_bans and self.intel_banned(ctype.id):  # bound to the intel: virtual uses too
            return []
        return [use for use in ctype.uses_by_timing.get(timing, ()) if self._use_allowed(p, card, use)]

    # ------------------------------------------------------------------ using

    def perform(self, p: Player, choice: PlayOption) -> None:
        """Carry out an idle-point action."""
        if self.stack_perform is not None:
            self.stack_perform(p, choice)
        elif choice.card is None:
            self.skills.use_skill(p, choice.use)
            self.resolution.settle("发动技能后")
        else:
            self.use_card(p, choice.card, choice.use, at_idle=True)

    def use_card_at(
        self, user: Player, card: Card | None, use: Any, at: str, chooser: Player | None = None, converted: bool = False
    ) -> None:
        """Use a card as if at idle point `at` (an effect uses it at another moment: 蓄谋's use at a phase's start):
        the use's effect reads `at` as the idle point it was used at; the one being offered, if any, is the
        idle point again afterwards."""
        outer = self.timing
        self.timing = at
        try:
            self.use_card(user, card, use, chooser, converted)
        finally:
            self.timing = outer

    def use_card(
        self,
        user: Player,
        card: Card | None,
        use: Any,
        chooser: Player | None = None,
        converted: bool = False,
        at_idle: bool = False,
    ) -> None:
        """Use a card: pick its target, let triggers react, resolve its effect, dispose of it.

        `use` belongs to the card type the card is used as (its own, or a
        conversion's). `card` None is a virtual use (视为使用): the same events
        and effect, without a physical card. `chooser` makes the user's choices
        when another player made him use the card. `converted`: an effect named
        what the card is used as (将…当作…使用), so its printed type may be any. `at_idle`: used as an idle
        point's answer (perform), not by an effect: the queued rules offer `respond` for it.
        """
        game = self.game
        resolution = self.resolution
        ctype = use.card_type
        zones = self.zones
        if card is not None:
            if ctype.face_down:  # what everyone knows of its printed type (a re-deal keeps to it: Zones.redeal)
                if converted:
                    known = None
                elif card.zone >= DECLARED_ZONE:  # not a hand card: no forced conversion made it this type
                    known = frozenset([ctype.id])
                else:
                    known = self.printed_as(ctype)
                zones.start_use(card, ctype, known)
            else:
                zones.start_use(card, ctype)
        frame = UseFrame(card, ctype, user)
        frame.timing = use.timing
        frame.at_idle = at_idle
        stack = self.stack
        if use.timing == "respond":  # it answers the card use being answered (its effect's nullify() voids that)
            frame.answers = stack.answered()
        stack.push(frame)
        uid = card.uid if card is not None else None
        ctx = Ctx(game, user, card=card, dying=self.seats.dying_player)
        if card is None or ctype is not card.type:  # virtual or converted: questions name what it is used as
            ctx.used_as = CardName(ctype.id, ctype.name)
        if chooser is not None:
            ctx.chooser = chooser
        target = None
        if use.target is not None:
            prompt = self._target_prompts.get(ctype.id)
            if prompt is None:  # (a card type's label is a Python call: made once a game per type)
                prompt = self._target_prompts[ctype.id] = f"{ctype.label()}的目标"
            target = ask_seat(self.game, chooser or user, D.TARGET, use.target(ctx), prompt, ctype.id, (user.seat, ""))
            ctx.target = target
        frame.target = target
        tseat = target.seat if target is not None else None
        if card is not None and target is not None and ctype.face_down:
            zones.show_to(card, target.seat)  # a face-down card is shown to its target only
        uses = self.card_uses
        counted = (user.seat, ctype.id)
        uses[counted] = uses.get(counted, 0) + 1
        if not unheard(game, "card_used"):
            emit_event(game, "card_used", seat=user.seat, card=ctype.id, uid=uid, timing=use.timing, target=tseat)
        if self.push_use is not None:  # stack timing: it resolves from the stack, after the responses
            self.push_use(user, self._resolve_later(user, card, use, ctx, frame, target))
            return
        resolution.settle("指定目标后")
        if self.responds and frame.answerable(self.seats.in_death) and self.stack.answer_chain():
            self.offer_respond(frame)
        self._resolve_use(user, card, use, ctx, frame, target, False, None)

    def offer_respond(self, frame: UseFrame) -> None:
        """一张牌生效前 (the `respond` idle point, queued): everyone, asked in turn from the current player, may
        answer the card use `frame` with a card or skill written for it; after a use the asking starts again from
        the current player (he dead, from the first living seat after him), until everyone has passed in a row, the
        card is void or its target dead (UseFrame.answerable; docs/rulings.md R171). What an answer makes happen
        waits for the next node, as at any idle point; the card answered has not begun to take effect. Offered
        only for a use made at an idle point or answering one (EffectStack.answer_chain): a card an effect uses is
        not answered, for nothing is inserted into an effect that is resolving (seed 004)."""
        game = self.game
        stack = self.stack
        outer, outer_timing = stack.answering, self.timing
        seats = self.seats
        user = frame.user
        prompt = f"一张牌生效前：P{user.seat if user is not None else '?'}的{frame.used_as.label()}"
        chain = frame.chain()  # (what the question shows of the use answered: fixed while it is offered)
        try:
            asker = game.current
            passes = 0
            while asker is not None and frame.answerable(seats.in_death) and passes < seats.alive_count():
                if not asker.alive:
                    asker = seats.neighbor(asker, RIGHT)
                    continue
                stack.answering = frame
                if self.offer_idle(asker, "respond", prompt, chain):
                    passes = 0
                    asker = game.current  # (dead: the loop goes on to the first living seat after him)
                else:
                    passes += 1
                    asker = seats.neighbor(asker, RIGHT)
        finally:
            stack.answering, self.timing = outer, outer_timing

    def _resolve_later(
        self, user: Player, card: Card | None, use: Any, ctx: Ctx, frame: UseFrame, target: Player | None
    ) -> Callable[[], None]:
        """The rest of a use, for the stack to call when it reaches the top (made here, not in use_card: a lambda
        there would make its variables closure cells, which costs every queued use too)."""
        timing = self.timing
        return lambda: self._resolve_use(user, card, use, ctx, frame, target, True, timing)

    def _resolve_use(
        self,
        user: Player,
        card: Card | None,
        use: Any,
        ctx: Ctx,
        frame: UseFrame,
        target: Player | None,
        stacked: bool,
        timing: str | None,
    ) -> None:
        """The rest of a card use once its target is chosen: effect (unless nullified), disposal, `card_resolved`.

        `stacked` (stack timing): it resolves from the stack now; `timing`, the idle point it was used at, is the
        one effects read again, and no node follows it (the stack settles what it made happen)."""
        game = self.game
        resolution = self.resolution
        ctype = use.card_type
        zones = self.zones
        uid = card.uid if card is not None else None
        tseat = target.seat if target is not None else None
        if stacked:
            self.timing = timing
        # a dead target (unless used at 濒死) or a dead user: the card is spent and does nothing (R16, R174)
        if frame.takes_effect(self.seats.in_death):
            if not unheard(game, "card_resolving"):
                emit_event(game, "card_resolving", seat=user.seat, card=ctype.id, uid=uid, target=tseat)
            if "card_resolving" in game.watched:
                resolution.settle("卡牌生效前")
            if frame.nullified:
                emit_event(game, "nullified", seat=user.seat, card=ctype.id, uid=uid)
            else:
                frame.in_effect = True
                try:  # noqa: SIM105  (contextlib.suppress would make a context manager object per card used)
                    use.effect(ctx)
                except StopEffect:
                    pass
        zones.clear_staging()  # cards an effect turned up and left: discarded
        if card is not None and card.zone == PROCESSING:
            taker = frame.claimed_by
            if taker is not None and taker.alive:
                zones.move(card, HAND, taker)
                emit_event(game, "to_hand", seat=taker.seat, cards=[uid])
            elif ctype.after_use == "remove":
                zones.remove_used(card, ctype)
            else:
                zones.move(card, DISCARD)
        self.stack.pop()
        if not unheard(game, "card_resolved"):
            emit_event(game, "card_resolved", seat=user.seat, card=ctype.id, uid=uid, target=tseat)
        if not stacked:
            resolution.settle("结算卡牌效果后")
