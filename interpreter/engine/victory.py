"""Victory checks, in the documented order (the detailed rules on 宣胜).

Collect checks (at every node, step 3):

1. each player with 3 red or 3 blue intel: if his own "collect" condition holds
   he wins; otherwise every eligible holder of a "collect_unclaimed" condition
   wins; at the node of a receive, every eligible holder of a "receive"
   condition about the receiver wins;
2. (role victory skills — a hook, filled by roles);
3. if someone is winning and an eligible holder of a "usurp" condition
   is not among them, he replaces them all;
3b. every eligible holder of a "game_end" condition that holds wins too
   (also when the last player alive wins, and at the turn limit);
4. (co-victory skills of roles — a hook).

Death checks replace step 1 with the "death" conditions, evaluated for each
player who just died; the turn-end check with the "turn_end" ones.
Whoever wins by a condition wins with his camp (every player of his identity's
camp, dead or alive, not the out), at every check, unless the condition says
`wins: alone` (catalogue.VICTORY_WINS; docs/rulings.md R24).
The conditions are effect-language expressions from identities and secret
tasks; this module only knows the order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from ..language.runtime import Ctx
from ..model.colors import BLUE_BIT, RED_BIT
from . import decisions as D
from .core import ask_seat, emit_event
from .errors import GameOver

if TYPE_CHECKING:
    from ..model.content import Victory as VictoryCondition
    from .core import GameCore
    from .index import ContentIndex
    from .seats import Seats
    from .skills import Skills
    from .state import Player
    from .zones import Zones


_EXACT_PARTS = frozenset(("intel", "standing", "turn"))  # the parts the collect check's stamp follows


def _collect_reads_declared(content: Any, index: ContentIndex) -> bool:
    """Every collect-stage condition (collect, collect_unclaimed) of the content's identities and secret tasks
    declares what it reads, and reads only the intel areas, the seats' standing and whose turn it is.
    Kept in the content set's index (its identities and tasks do not change once loaded)."""
    kept = index.collect_exact
    if kept is not None and kept[0] is content.identities and kept[1] is content.tasks:
        return bool(kept[2])
    ok = all(
        v.reads is not None and v.reads <= _EXACT_PARTS
        for holder in (*content.identities.values(), *content.tasks.values())
        for v in holder.victories
        if v.check in ("collect", "collect_unclaimed")
    )
    index.collect_exact = (content.identities, content.tasks, ok)
    return ok


def _checks_held(content: Any) -> frozenset[str]:
    """The victory checks some identity or secret task of the content has a condition for."""
    return frozenset(
        v.check for holder in (*content.identities.values(), *content.tasks.values()) for v in holder.victories
    )


class Victory:
    """The victory checks and the winners of the check in progress (see the module docstring)."""

    def __init__(self, game: GameCore, seats: Seats, zones: Zones, skills: Skills) -> None:
        self.game = game
        self.players = game.players
        self.collect_at = game.collect_at
        self.seats = seats
        self.zones = zones
        self.skills = skills
        self.check_winners: list[Player] | None = None  # the winners list of the victory check in progress
        self.check_declarers: list[Player] | None = None  # ... and who declared (宣胜)
        # GameCore.changes + Zones.moves when a collect check last found no winner: nothing to check again
        # until something has happened since (every change of state the conditions can read comes with
        # an event, a card move or a noted change)
        self.collect_checked_at = -1
        # When every collect-stage condition of the content declares what it reads (catalogue.STATE_PARTS: the
        # intel areas, the seats' standing, whose turn it is), a check that found no winner is not run again
        # until one of those changed: (Zones.intel_changes, Seats.standing, the current player) then
        self.collect_exact = _collect_reads_declared(game.content, game.index)
        self.collect_quiet: tuple[int, int, Player | None] = (-1, -1, None)
        # per seat: (its identity card, its secret task, check -> their conditions), see _victories
        self._by_seat: list[tuple[Any, Any, dict[str, tuple[VictoryCondition, ...]]] | None] = [None] * game.n
        # the checks some identity or secret task of the content has a condition for (a check nobody holds
        # costs nothing: the receive check is asked for only then, the game-end stage skipped)
        held = _checks_held(game.content)
        self.checks_receive = "receive" in held
        self.checks_game_end = "game_end" in held
        self.received: Player | None = None  # the receiver whose node is being settled (the receive check)

    def _from_current(self) -> tuple[Player, ...]:
        """All players, from the current player on (victory is checked only once the game is set up)."""
        current = self.game.current
        assert current is not None
        return self.seats.order_from(current)

    def _victories(self, p: Player, check: str) -> tuple[VictoryCondition, ...]:
        """p's victory conditions of one kind: his identity's, then his secret task's.

        Kept per seat and check while the seat holds the same identity card and task: identity cards
        change hands, but what is printed on them does not.
        """
        ident, task = p.identity, p.task  # a player whose identity card was taken has none of his own
        kept = self._by_seat[p.seat]
        if kept is None or kept[0] is not ident or kept[1] is not task:
            kept = self._by_seat[p.seat] = (ident, task, {})
        found = kept[2].get(check)
        if found is None:
            found = kept[2][check] = tuple(
                v for holder in (ident, task) if holder is not None for v in holder.victories if v.check == check
            )
        return found

    def _eligible(self, p: Player, v: VictoryCondition) -> bool:
        """Who can still win: the living, those whose death is resolving, and (if allowed) the dead."""
        if p.out:
            return False
        return p.alive or p in self.seats.in_death or p in self.seats.just_died or v.dead_may_win

    def _holds(self, p: Player, v: VictoryCondition, subject: Player | None = None) -> bool:
        return bool(v.condition(Ctx(self.game, p, subject=subject)))

    def _add_with_camp(self, winners: list[Player], p: Player, wins: str = "camp") -> None:
        """The winner and, for a camp identity (unless he wins alone), everyone of his camp, dead or alive, but
        not the out."""
        if p not in winners:
            winners.append(p)
        camp = p.identity.camp if p.identity is not None and wins == "camp" else None
        if camp is not None:
            for q in self.players:
                if q.identity is not None and q.identity.camp == camp and not q.out and q not in winners:
                    winners.append(q)

    def check_collect_victory(self) -> None:
        """Step 1 (and 2) of the collect check. Skipped when nothing happened since the last one found no
        winner: every change of state the conditions can read comes with an event or a card move; and,
        when the conditions declare what they read and no victory skill takes part, when nothing they read
        changed (the check itself reads the intel counts and the seats' standing)."""
        received = self.received
        if self.game.changes + self.zones.moves == self.collect_checked_at and received is None:
            return
        exact = self.collect_exact and not self.skills.victory_skills.get("declare")
        if exact and received is None:
            quiet = self.collect_quiet
            if (
                quiet[0] == self.zones.intel_changes
                and quiet[1] == self.seats.standing
                and quiet[2] is self.game.current
            ):
                return
        winners: list[Player] = []
        declarers: list[Player] = []
        order = self._from_current()
        unclaimed = None  # (holder, his "collect_unclaimed" conditions), found once per check (conditions are pure)
        for p in order:
            if p.out or not (p.alive or p in self.seats.in_death):
                continue
            if p.counts[RED_BIT] < self.collect_at and p.counts[BLUE_BIT] < self.collect_at:
                continue
            claimed = False
            for v in self._victories(p, "collect"):
                if self._holds(p, v):
                    claimed = True
                    declarers.append(p)
                    self._add_with_camp(winners, p, v.wins)
                    break
            if not claimed:
                if unclaimed is None:
                    unclaimed = [(q, vs) for q in order if (vs := self._victories(q, "collect_unclaimed"))]
                for q, vs in unclaimed:
                    for v in vs:
                        if self._eligible(q, v) and self._holds(q, v, subject=p) and q not in winners:
                            declarers.append(q)
                            self._add_with_camp(winners, q, v.wins)
        reason = "collect"
        if received is not None:  # the node of a receive: its conditions about the receiver
            self.received = None
            reason = "collect" if winners else "receive"
            for q in order:
                for v in self._victories(q, "receive"):
                    if q not in winners and self._eligible(q, v) and self._holds(q, v, subject=received):
                        declarers.append(q)
                        self._add_with_camp(winners, q, v.wins)
        # step 2: skills that declare victory
        self._victory_skills("declare", winners, declarers)
        if winners:
            self._declare(winners, reason, declarers)
        self.collect_checked_at = self.game.changes + self.zones.moves
        if exact:
            self.collect_quiet = (self.zones.intel_changes, self.seats.standing, self.game.current)

    def note_received(self, p: Player) -> None:
        """p has just received an intel: the collect check of the node being entered also runs the "receive"
        conditions about him (called only when some identity or task has one: `checks_receive`)."""
        self.received = p

    def check_death_victory(self, dead: list[Player]) -> None:
        winners: list[Player] = []
        declarers: list[Player] = []
        for d in dead:
            for q in self._from_current():
                for v in self._victories(q, "death"):
                    if q not in declarers and self._eligible(q, v) and self._holds(q, v, subject=d):
                        declarers.append(q)
                        self._add_with_camp(winners, q, v.wins)
        if winners:
            self._declare(winners, "death", declarers)

    def check_turn_end_victory(self) -> None:
        winners: list[Player] = []
        declarers: list[Player] = []
        for q in self._from_current():
            for v in self._victories(q, "turn_end"):
                if q not in declarers and self._eligible(q, v) and self._holds(q, v):
                    declarers.append(q)
                    self._add_with_camp(winners, q, v.wins)
        if winners:
            self._declare(winners, "turn_end", declarers)

    def end_without_winner(self, reason: str) -> NoReturn:
        """The game ends with nobody having won (the turn limit): only "game_end" conditions may still win."""
        winners: list[Player] = []
        declarers: list[Player] = []
        if self.checks_game_end and self.game.current is not None:
            self._game_end_winners(winners, declarers)
        if winners:
            self._declare(winners, "game_end", declarers)
        raise GameOver([], reason)

    def check_last_alive(self) -> None:
        """The last living player wins, with his camp."""
        alive = self.seats.alive_players()
        if len(alive) == 1:
            winners: list[Player] = []
            self._add_with_camp(winners, alive[0])
            self._declare(winners, "last_alive", [alive[0]])
        elif not alive:
            self.end_without_winner("no_players")

    def _declare(self, winners: list[Player], reason: str, declarers: list[Player] | None = None) -> NoReturn:
        declarers = list(declarers) if declarers is not None else list(winners)
        # step 3: a usurp condition replaces the winners
        for q in self._from_current():
            for v in self._victories(q, "usurp"):
                if q not in winners and self._eligible(q, v) and self._holds(q, v):
                    emit_event(self.game, "usurp", seat=q.seat, replaced=[p.seat for p in winners])
                    winners = []
                    self._add_with_camp(winners, q, v.wins)
                    declarers = [q]
                    reason = reason + "+usurp"
                    break
        # step 3b: game-end conditions
        if self.checks_game_end:
            self._game_end_winners(winners, declarers)
        # step 4: co-victory skills
        self._victory_skills("co_win", winners, declarers)
        emit_event(self.game, "victory", winners=[p.seat for p in winners], reason=reason)
        raise GameOver(winners, reason)

    def _game_end_winners(self, winners: list[Player], declarers: list[Player]) -> None:
        """Every eligible holder of a "game_end" condition that holds joins the winners (with his camp)."""
        for q in self._from_current():
            for v in self._victories(q, "game_end"):
                if q not in winners and self._eligible(q, v) and self._holds(q, v):
                    declarers.append(q)
                    self._add_with_camp(winners, q, v.wins)

    def _victory_skills(self, check: str, winners: list[Player], declarers: list[Player]) -> None:
        """Offer each ready victory skill of this stage, from the current player on; effects edit `winners`."""
        skills = self.skills.victory_skills.get(check)
        if not skills:
            return
        self.check_winners, self.check_declarers = winners, declarers
        if len(skills) > 1:  # from the current player on; one player's in the order of his role card
            order = self._from_current()
            skills = sorted(skills, key=lambda owned: order.index(owned[0]))
        try:
            for p, skill in skills:
                if not self.skills.skill_ready(p, skill):
                    continue
                ctx = Ctx(self.game, p)
                if skill.condition is not None and not skill.condition(ctx):
                    continue
                self.skills.note_offer(p, skill)
                if skill.optional and not ask_seat(
                    self.game, p, D.CONFIRM, [True, False], f"发动{skill.name}吗", skill.id, (p.seat, skill.id)
                ):
                    continue
                self.skills.use_skill(p, skill, ctx)
        finally:
            self.check_winners = self.check_declarers = None

    # ------------------------------------------------------------------ what victory skills do (stages 2 and 4)

    def add_winner(self, p: Player, declared: bool) -> bool:
        """p wins too (declared: as a declarer). False if p is out, or already winning and not newly declaring."""
        winners, declarers = self.check_winners, self.check_declarers
        assert winners is not None and declarers is not None  # only victory skills' effects call this
        if p.out:
            return False
        if declared and p not in declarers:
            declarers.append(p)
        if p in winners:
            return declared
        winners.append(p)
        return True

    def block_winner(self, p: Player) -> bool:
        """p does not win after all. False if p was not winning."""
        winners = self.check_winners
        assert winners is not None  # only victory skills' effects call this
        if p not in winners:
            return False
        winners.remove(p)
        return True
