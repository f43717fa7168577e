"""The timing-node loop of the rules (queued, never inserted), dying (濒死) and death (死亡).

Entering a node (:meth:`Resolution.settle`):

1. from the current player counter-clockwise, every player's triggered skills
   that match the recorded events may fire — a player with several chooses
   their order (a ``skill_order`` decision); the records are cleared;
2. if anything fired, the new events are checked again (step 1), until a pass
   fires nothing;
3. victory checks of the "collect" kind (deferred while dying/death resolve);
4. players with three or more black intel enter dying, one after another
   from the current player; those nobody saves die together;
5. the caller goes on with what it was doing (the pending action).

There is no "insertion": a card or skill always resolves completely before the
next node is entered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ..catalogue import LIMITS, TRIGGER_EVENTS
from ..language.runtime import CardName, Ctx
from ..model.colors import BLACK_BIT, BLUE_BIT, RED_BIT
from . import decisions as D
from .core import ask_seat, emit_event
from .decisions import PlayOption
from .errors import EngineError, GameOver
from .skills import NO_GUARD, SUBJECT_IS_NOT_SELF, SUBJECT_IS_SELF, TARGET_IS_NOT_SELF, TARGET_IS_SELF
from .state import DISCARD, HAND

if TYPE_CHECKING:
    from ..model.content import Skill
    from .core import GameCore
    from .declared_zones import DeclaredZones
    from .ports import ResolutionPorts
    from .seats import Seats
    from .skills import Skills
    from .state import Card, Player
    from .victory import Victory
    from .zones import Zones

MAX_TRIGGER_ROUNDS: Final[int] = LIMITS["max_trigger_rounds"].value


class Resolution:
    """Timing nodes (triggers, victory checks, dying), dying and death (see the module docstring)."""

    def __init__(
        self,
        game: GameCore,
        seats: Seats,
        zones: Zones,
        declared_zones: DeclaredZones,
        skills: Skills,
        victory: Victory,
        ports: ResolutionPorts,
    ) -> None:
        self.game = game
        self.players = game.players
        self.collect_at = game.collect_at
        self.dying_at = game.dying_at
        self.seats = seats
        self.zones = zones
        self.declared_zones = declared_zones
        self.skills = skills
        self.victory = victory
        self.card_types = game.content.card_types  # card type id -> CardType (what a trigger's card was used as)
        # (the components are called directly, not through bound methods kept here: compiled, a call of a bound
        # method goes through Python's calling convention, a direct call does not)
        # the events whose fields a reacting skill reads as variables of their own (catalogue.Event.typed)
        # and the events the rules declare, whose fields are those of the announcement (`open`) while it resolves
        self.declared_events = frozenset(game.content.declared.events)
        self.typed_events = frozenset(name for name, e in TRIGGER_EVENTS.items() if e.typed) | self.declared_events
        self.announced = 0  # the events the rules declare announced so far: each one's number, `ev` in its record
        self.open: dict[int, dict[str, Any]] = {}  # number -> the fields of an announced event still resolving
        self.suspend_checks = 0  # >0 while dying/death resolve (victory checks deferred)
        self.ended = False  # the game is decided: its game-end moment (game_end) resolves, nothing is answered
        # someone died in the settling in progress: the last player alive is looked at once it is over (settle)
        self.deaths_to_count = False
        self.quiet_at = -1  # Zones.intel_changes when settle last found no 3-intel: nothing to scan until then
        # the ports (ports.py): one question at an idle point (CardUse.offer_idle), asked of each player while one
        # is dying; under stack timing (rules `resolution: stack`, priority.py) the triggered skills go onto the
        # stack (StackTiming.put_triggers) instead of run_triggers' rounds (None: queued)
        self.offer_idle: Callable[[Player, str, str], bool] = ports.offer_idle
        self.stack_triggers: Callable[[], None] | None = ports.stack_triggers

    def settle(self, node: str = "") -> None:
        """Enter a timing node: triggers until quiet, then victory checks, then dying."""
        game = self.game
        if game.trace is not None:
            game.trace.append(("node", node or game.phase, game.phase))
        zones = self.zones
        while True:
            if game.events:
                self.run_triggers()
            if self.suspend_checks:
                return
            if self.quiet_at == zones.intel_changes:  # no intel moved since a scan found nothing
                self._settled()
                return
            collect = self.victory.received is not None  # the node of a receive: its "receive" check
            dying = False
            collect_at, dying_at = self.collect_at, self.dying_at
            for p in self.players:  # cheap scan first: most nodes have nothing to check
                c = p.counts
                if c[RED_BIT] >= collect_at or c[BLUE_BIT] >= collect_at:
                    collect = True
                if c[BLACK_BIT] >= dying_at and p.alive:
                    dying = True
            if not (collect or dying):
                self.quiet_at = zones.intel_changes
                self._settled()
                return
            if collect:
                self.victory.check_collect_victory()
            if not dying:
                self._settled()
                return
            if game.trace is not None:
                game.trace.append(
                    ("dying", [p.seat for p in self.players if p.alive and p.counts[BLACK_BIT] >= dying_at])
                )
            self.resolve_dying()
            # deaths may have made new events (死亡前 skills and what they do): go round again

    def _settled(self) -> None:
        """The node is settled (nothing left to trigger, no winner, nobody dying). The players who died in this
        settling could still win at its checks until here: the deaths their deaths set off (a 死亡前 skill's black
        intel …) belong to the same resolution (a death set off by a death: docs/rulings.md R26).
        Then, if anyone died, the last player alive wins: after what the deaths' 死亡前 skills did has been dealt
        with as a receive is, its victory check and dying included (faq.md 接收情报 12, then 注意; R27)."""
        if self.seats.just_died:
            self.seats.forget_deaths()
        if self.deaths_to_count:
            self.deaths_to_count = False
            self.victory.check_last_alive()

    def run_triggers(self) -> None:
        """Offer the triggered skills the recorded events call for, round after round until none fires."""
        if self.stack_triggers is not None:
            self.stack_triggers()
            return
        game = self.game
        skills = self.skills
        for _ in range(MAX_TRIGGER_ROUNDS):
            batch = game.events
            if not batch:
                return
            game.events = []  # (GameCore.take_events, without a method call on the game)
            fired = False
            seats_by_kind = skills.trigger_seats_by_kind
            reacting = 0  # the seats whose triggered skills react to some event of the batch (a bit mask)
            for kind, _ in batch:
                reacting |= seats_by_kind.get(kind, 0)
            if not reacting:  # nobody reacts to any of them
                return
            index = skills.trigger_index
            # the seat guards (language/guard.py): the seats a condition compares, read from the event's
            # payload; when one is false the condition is false, and neither the blocker nor the condition
            # runs. With a trace too: a condition may change the game when tested (top_cards of a short deck forms
            # the new deck, rulings R30), so testing more of them would make a traced game another game; the
            # trace says the condition is false
            trace = game.trace
            current = game.current
            assert current is not None  # triggers run from setup on
            for p in self.seats.order_from(current):
                seat = p.seat
                if not (reacting >> seat) & 1:  # none of its skills reacts to this batch
                    continue
                offers: list[tuple[Skill, str, dict[str, Any]]] = []
                for skill, on, guard, test in index[seat]:
                    for kind, data in batch:
                        if kind not in on:
                            continue
                        if test != NO_GUARD:
                            if test == SUBJECT_IS_SELF:
                                ok = data.get("seat") == seat
                            elif test == SUBJECT_IS_NOT_SELF:
                                ok = data.get("seat") != seat
                            elif test == TARGET_IS_SELF:
                                ok = data.get("target") == seat
                            elif test == TARGET_IS_NOT_SELF:
                                ok = data.get("target") != seat
                            else:
                                ok = bool(guard(seat, data.get("seat"), data.get("target")))
                            if not ok:
                                if trace is not None:
                                    why = "condition false: " + skill.condition_text
                                    trace.append(("skill", seat, skill.name, kind, why + " (its seat guard)"))
                                continue
                        offers.append((skill, kind, data))
                if not offers:
                    continue
                if len(offers) > 1 and any(sk is not offers[0][0] for sk, _, _ in offers):
                    if self._fire_in_chosen_order(p, [(sk, data) for sk, _, data in offers]):
                        fired = True
                    continue
                for skill, kind, data in offers:  # one skill: for each event it reacts to, in order
                    blocker = skills.skill_blocker(p, skill)
                    if blocker is not None:
                        if game.trace is not None:
                            game.trace.append(("skill", seat, skill.name, kind, blocker))
                        continue
                    if self._fire(p, skill, data):
                        fired = True
            if not fired:
                if game.events:
                    game.events = []  # what a round that fired nothing recorded is dropped
                return
        kinds = {kind for kind, _ in game.events}  # what the last round made happen, and who still reacts to it
        looping = sorted(
            {
                f"P{seat} {skill.name} ({kind})"
                for seat, entries in enumerate(skills.trigger_index)
                for skill, on, _, _ in entries
                for kind in kinds & on
            }
        )
        raise EngineError(
            "triggered skills keep triggering each other (more than "
            f"{MAX_TRIGGER_ROUNDS} rounds at one timing node): check the content for a loop"
            + (f"; the skills that trigger on what the last round did: {', '.join(looping)}" if looping else ""),
            "E504",
        )

    def _fire_in_chosen_order(self, p: Player, pending: list[tuple[Skill, dict[str, Any]]]) -> bool:
        """Several of p's skills react to this batch: p chooses which resolves first, then among the rest.

        (faq.md 接收情报 step 2: 若同一名角色的多个技能同时触发，则由其决定顺序.) `pending`: each
        (skill, event) offer, two skills or more. Asked only while two or more different skills could be
        used now; each choice is made again after a skill resolved, since it may have enabled or disabled
        the others. True if any was used.
        """
        fired = False
        while pending:
            ready: list[tuple[Skill, dict[str, Any], Ctx]] = []
            for skill, data in pending:
                if self.skills.skill_blocker(p, skill) is None:
                    ctx = self._ready(p, skill, data, quiet=True)
                    if ctx is not None:
                        ready.append((skill, data, ctx))
            choices: list[Skill] = []
            for skill, _, _ in ready:
                if skill not in choices:
                    choices.append(skill)
            if len(choices) < 2:  # no order left to choose: the rest one after another
                for skill, data in pending:
                    blocker = self.skills.skill_blocker(p, skill)
                    if blocker is not None:
                        if self.game.trace is not None:
                            self.game.trace.append(("skill", p.seat, skill.name, data.get("e", ""), blocker))
                    elif self._fire(p, skill, data):
                        fired = True
                return fired
            chosen = ask_seat(self.game, p, D.SKILL_ORDER, [PlayOption(None, s) for s in choices], "先结算哪个技能")
            skill, data, ctx = next(r for r in ready if r[0] is chosen.use)
            pending.remove(next(item for item in pending if item[0] is skill and item[1] is data))
            if self.game.trace is not None:
                self.game.trace.append(("skill", p.seat, skill.name, data.get("e", ""), "eligible"))
            if self._offer(p, skill, ctx):
                fired = True
        return fired

    def _fire(self, p: Player, skill: Skill, data: dict[str, Any]) -> bool:
        """Offer a triggered skill for one event; True if it was used."""
        ctx = self._ready(p, skill, data)
        if ctx is None:
            return False
        if self.game.trace is not None:
            self.game.trace.append(("skill", p.seat, skill.name, data.get("e", ""), "eligible"))
        return self._offer(p, skill, ctx)

    def _ready(self, p: Player, skill: Skill, data: dict[str, Any], quiet: bool = False) -> Ctx | None:
        """The context of a triggered skill for one event, if its owner and condition allow it (None: not).

        `quiet`: the reason it is not is left out of the trace (it will be checked again)."""
        game = self.game
        tr = None if quiet else game.trace
        seat = data.get("seat")
        subject = self.players[seat] if seat is not None else None
        if not p.alive and subject is not p:  # a dying owner's 死亡前 skills are about his own death only
            if tr is not None:
                tr.append(("skill", p.seat, skill.name, data.get("e", ""), "owner is dead"))
            return None
        used = data.get("card")
        uid = data.get("uid", used)
        card = None
        if isinstance(uid, int):
            zones = self.zones
            card = zones.by_uid.get(uid)
            if zones.replaced:  # an intel replaced since: the new one
                card = zones.current(card)
        tseat = data.get("target")
        target = self.players[tseat] if tseat is not None else None
        ctx = Ctx(game, p, target, card, self.seats.dying_player, subject)
        kind = ctx.event = data.get("e")
        if kind in self.typed_events:  # fields the skill reads by name (counter_changed's counter, before, after)
            ctx.fields = data
            if kind in self.declared_events:  # an announced event's fields as they are now (改判 changes them)
                ctx.fields = self.open.get(data.get("ev", -1), data)
        if isinstance(used, str):
            ctype = self.card_types.get(used)
            if ctype is not None:
                ctx.used_as = CardName(ctype.id, ctype.name)
        cond = skill.condition
        if cond is not None and not cond(ctx):
            if tr is not None:
                tr.append(("skill", p.seat, skill.name, data.get("e", ""), "condition false: " + skill.condition_text))
            return None
        return ctx

    def _offer(self, p: Player, skill: Skill, ctx: Ctx) -> bool:
        """Ask p whether to use a ready triggered skill (unless it is not optional) and use it; True if used."""
        game = self.game
        self.skills.note_offer(p, skill)
        if skill.optional and not ask_seat(
            game, p, D.CONFIRM, [True, False], f"发动{skill.name}吗", skill.id, (p.seat, skill.id)
        ):
            return False
        if game.trace is not None:
            game.trace.append(("fired", p.seat, skill.name))
        self.skills.use_skill(p, skill, ctx)
        return True

    # ------------------------------------------------------------------ moments content announces

    def announce(
        self,
        kind: str,
        fields: dict[str, Any],
        record: dict[str, Any],
        to: list[Player] | None = None,
        secret: tuple[str, ...] = (),
    ) -> dict[str, Any]:
        """An event the rules declare, announced by an effect (emit, reveal_top): recorded (`record`: its fields
        as the log writes them, the subject's seat as `seat`; `to`/`secret`: the card fields some seats may not
        see), then a timing node like any other (settle): the skills reacting to it fire in the usual order and
        read `fields`, which a skill may change in place (replace_field, 改判), then the victory checks and dying
        of the node. The announcing effect waits for the node, as a card in use waits for 卡牌生效前, and goes on
        with the fields returned (replaced or not)."""
        self.announced += 1
        number = self.announced
        self.open[number] = fields
        try:
            emit_event(self.game, kind, to, secret, ev=number, **record)
            self.settle(kind)
        finally:
            del self.open[number]
        return fields

    def game_end(self) -> None:
        """游戏结束时 (`game_end`), once the game is decided: the skills reacting to it fire (to show what they
        kept …); no victory check, dying or death follows, and nothing they do changes the result. They alone: what
        was recorded before the game was decided and not yet reacted to (a death whose node the victory check ended)
        is dropped, so a skill reacting to it does not fire after the end (docs/rulings.md R175)."""
        game = self.game
        current = game.current
        assert current is not None  # the game was set up
        self.suspend_checks += 1
        self.ended = True
        game.events = []  # (GameCore.take_events, the batch dropped)
        try:
            emit_event(game, "game_end", seat=current.seat)
            self.settle("游戏结束时")
        except GameOver:
            pass  # (decided already)
        finally:
            self.suspend_checks -= 1

    # ------------------------------------------------------------------ 濒死

    def resolve_dying(self) -> None:
        """Dying players, from the current player on, each ask the table for help; the unsaved die together.

        The dying are those with three black now (此时, detail_rules.md): one who reaches three black while
        another asks for help waits for the node after these deaths (victory checks and dying are paused
        meanwhile), wherever he sits; one who no longer has three when his turn to ask comes is not dying."""
        self.suspend_checks += 1
        doomed: list[Player] = []
        current = self.game.current
        assert current is not None  # dying happens from setup on
        dying_at = self.dying_at
        try:
            for p in [q for q in self.seats.alive_order(current) if q.counts[BLACK_BIT] >= dying_at]:
                if p.alive and p.counts[BLACK_BIT] >= dying_at and not self._ask_for_rescue(p):
                    doomed.append(p)
        finally:
            self.suspend_checks -= 1
        if doomed:
            self.resolve_deaths(doomed)

    def _ask_for_rescue(self, p: Player) -> bool:
        """One dying player's round of asking, from himself counter-clockwise. True: saved."""
        game = self.game
        self.seats.start_dying(p)
        emit_event(game, "dying", seat=p.seat)
        try:
            self.settle("濒死时")  # 你濒死时 triggers (victory checks stay deferred)
            if p.counts[BLACK_BIT] < self.dying_at:
                emit_event(game, "saved", seat=p.seat)
                return True
            askers = self.seats.alive_from(p)
            i = 0
            while i < len(askers):
                asker = askers[i]
                if not asker.alive:
                    i += 1
                    continue
                if not self.offer_idle(asker, "dying", f"P{p.seat}濒死"):
                    i += 1
                    continue
                if p.counts[BLACK_BIT] < self.dying_at:
                    emit_event(game, "saved", seat=p.seat)
                    return True
                # still dying: keep asking from the same player, not a new round
            return False
        finally:
            self.seats.stop_dying(p)

    # ------------------------------------------------------------------ 死亡

    def resolve_deaths(self, dead: list[Player]) -> None:
        """死亡结算: death victory checks, 死亡前 triggers, the last gift, then discarding."""
        game = self.game
        seats = self.seats
        self.suspend_checks += 1
        try:
            for p in dead:
                seats.kill(p)
                emit_event(game, "died", seat=p.seat)
            self.victory.check_death_victory(dead)
            self.settle("死亡前")  # triggers of the dead (victory checks stay deferred)
            for p in dead:
                self._last_gift(p)
            for p in dead:
                cards = list(p.hand) + list(p.intel)
                for c in cards:
                    self.zones.move(c, DISCARD)
                emit_event(game, "dead_discard", seat=p.seat, cards=[c.uid for c in cards])
                if self.zones.zone_decls:  # his declared zones, as the rules say (at_death)
                    self.declared_zones.empty_zones_of(p)
        finally:
            for p in dead:
                seats.death_resolved(p)
            self.suspend_checks -= 1
        self.deaths_to_count = True  # the last player alive: once the node is settled (_settled)

    def _last_gift(self, p: Player) -> None:
        """A dying player may give up to N (rules: give_on_death) hand cards to one living player."""
        if not p.hand:
            return
        receivers = [q for q in self.seats.alive_players() if q is not p]
        if not receivers:
            return
        ask = self.game.ask
        to = ask(p, D.GIVE_TARGET, [None, *receivers], "把手牌交给谁")
        if to is None:
            return
        given: list[Card] = []
        for _ in range(self.game.rules.give_on_death):
            if not p.hand:
                break
            options = list(p.hand) if not given else [None, *p.hand]
            card = ask(p, D.GIVE_CARD, options, "交出哪张牌")
            if card is None:
                break
            self.zones.move(card, HAND, to)
            given.append(card)
        emit_event(self.game, "give", seat=p.seat, to_seat=to.seat, n=len(given), cards=[c.uid for c in given])
