"""Roles, their skills, and identity cards.

:class:`Skills` owns the role cards — each player's role and whether it is face
up, the roles dealt, the role pile, the roles removed — the identity cards and
secret tasks (who holds which, those removed, those a seat has looked at), and
the index of the dealt skills the trigger loop and the victory checks walk:
triggered skills per seat, victory skills per check, and the event kinds
someone listens to (handed to GameCore.listen). It decides whether a skill may
be used now (:meth:`Skills.skill_blocker`, the one place those rules live) and
uses it (:meth:`Skills.use_skill`: pay the costs, resolve the effect).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ..language.runtime import Ctx
from ..model.content import rule_moments
from . import decisions as D
from .core import ask_seat, emit_event, record_private, unheard
from .decisions import PlayOption
from .state import Player, shuffle

if TYPE_CHECKING:
    from ..model.content import Content, Identity, Role, Rules, SecretTask, Skill
    from .core import GameCore
    from .index import ContentIndex, RoleActives, RoleEntry, RuleSkills
    from .seats import Seats
    from .stack import EffectStack
    from .zones import Zones


# What index_triggers reads of a role: (the role, its triggered skills as (skill, event kinds, guard, guard test),
# its victory skills), kept per content set by id(role); the role is kept with it (an id is only good while its
# object lives).


# How the trigger loop tests a seat guard (language/guard.py) for the owner's seat: a guard that is one comparison
# of the owner with the event's `seat` (its subject) or `target` is tested there; any other guard is called
NO_GUARD: Final = 0
SUBJECT_IS_SELF: Final = 1
SUBJECT_IS_NOT_SELF: Final = 2
TARGET_IS_SELF: Final = 3
TARGET_IS_NOT_SELF: Final = 4
CALL_GUARD: Final = 5
_TESTS = {
    ("subject", "=="): SUBJECT_IS_SELF,
    ("subject", "!="): SUBJECT_IS_NOT_SELF,
    ("target", "=="): TARGET_IS_SELF,
    ("target", "!="): TARGET_IS_NOT_SELF,
}


def guard_test(guard: Any) -> int:
    """How the trigger loop tests this seat guard (one of the constants above)."""
    if guard is None:
        return NO_GUARD
    found = getattr(guard, "comparison", None)
    if found is not None:
        a, op, b = found
        other = b if a == "self" else a if b == "self" else None
        if other is not None and other != "self":
            return _TESTS[(other, op)]
    return CALL_GUARD


def _role_entry(table: dict[int, RoleEntry], role: Role) -> RoleEntry:
    """A role's entry: worked out on its first deal (what is printed on a role does not change)."""
    got = table.get(id(role))
    if got is None or got[0] is not role:
        moments = role.moments
        got = table[id(role)] = (
            role,
            tuple(
                (sk, frozenset(sk.on or ()), sk.guard, guard_test(sk.guard)) for sk in moments if sk.kind == "triggered"
            ),
            tuple(sk for sk in moments if sk.kind == "victory"),
        )
    return got


def rule_skills(index: ContentIndex, rules: Rules) -> RuleSkills:
    """The rules' skills (Rules.skills: every seat holds them, whatever its role) as the engine reads them, kept in
    the content set's index: their triggered moments as a role's entry gives them, their victory moments, their
    active moments by idle point, their ids. All empty for rules without any (the base game)."""
    got = index.rule_skills
    if got is not None and got[0] is rules:
        return got[1]
    moments = rule_moments(rules)
    actives: dict[str, list[Skill]] = {}
    for skill in moments:
        if skill.kind == "active":
            for timing in skill.timing or ():
                actives.setdefault(timing, []).append(skill)
    made: RuleSkills = (
        tuple((sk, frozenset(sk.on or ()), sk.guard, guard_test(sk.guard)) for sk in moments if sk.kind == "triggered"),
        tuple(sk for sk in moments if sk.kind == "victory"),
        {t: tuple(sks) for t, sks in actives.items()},
        frozenset(sk.id for sk in rules.skills),
    )
    index.rule_skills = (rules, made)
    return made


def heard_in(index: ContentIndex, content: Content) -> frozenset[str]:
    """The event kinds some triggered skill of the content reacts to — any role's, dealt or not, and the rules' —,
    kept in its index. A moment the rules record only where a skill hears it (轮结束时 `round_end`, 游戏开始时
    `game_start`, 游戏结束时 `game_end`: other games' logs stay as they were) is recorded by this, which every seat
    knows (the content), and not by the roles dealt (Game.watched): a face-down role reacting to it would otherwise
    put its record in every seat's history, telling the table it was dealt."""
    got = index.heard
    if got is None:
        moments = [m for role in content.roles.values() for m in role.moments] + rule_moments(content.rules)
        got = index.heard = frozenset(k for m in moments if m.kind == "triggered" for k in m.on or ())
    return got


class Skills:
    """Role cards, skills and identity cards (see the module docstring)."""

    def __init__(self, game: GameCore, seats: Seats, zones: Zones, stack: EffectStack) -> None:
        self.game = game
        self.players = game.players
        self.seats = seats
        self.zones = zones
        self.stack = stack
        self.role_pile: list[Role] = []  # roles not dealt (角色牌堆); the top is the END of the list
        # while the seats choose their roles (deal_roles): a chosen role is face down, hidden or not, and the pile is
        # the roles still to deal (what a re-deal of the others' roles draws from, redeal)
        self.dealing_roles = False
        # ... and the role pinned to a seat (engine/pins.py), at the pile's bottom until that seat's turn takes it. A
        # re-deal while the seats choose (a sample, which knows of no pin) deals it with the rest of the pile and drops
        # the pin: that seat is then dealt from the pile and chooses, as in a game without a pin
        self.pinned_role: Role | None = None
        self.pinned_seat = -1
        self.removed_roles: list[Role] = []  # role cards removed from the game
        self.unchosen_roles: list[Role] = []  # roles dealt at setup and not kept (out of the game, seen by their seat)
        # (identity, task, seat it came from): identity cards removed from the game face down
        self.removed_identities: list[tuple[Identity, SecretTask | None, int]] = []
        self.triggers: list[tuple[Player, Skill]] = []  # (player, triggered skill) pairs of the dealt roles
        self.triggers_by_seat: list[list[Skill]] = []  # per seat: its triggered skills (the trigger loop's index)
        # per seat: (skill, the event kinds it reacts to, its seat guard) of its triggered skills, for the trigger loop
        self.trigger_index: list[tuple[tuple[Skill, frozenset[str], Any, int], ...]] = []
        self.trigger_seats_by_kind: dict[str, int] = {}  # event kind -> the seats reacting to it (a bit mask)
        # check (declare / co_win) -> [(player, victory skill)]: stages 2 and 4 of a victory check
        self.victory_skills: dict[str | None, list[tuple[Player, Skill]]] = {}
        self.skill_uses: dict[tuple[str, str], int] = {}  # (role id, skill name) -> times used, for statistics
        # (role id, skill name) -> questions at which its owner could use it (an idle point offering it, the ask
        # whether to use a ready triggered or victory skill; a forced one: each time it fires), for statistics
        self.skill_offers: dict[tuple[str, str], int] = {}
        # (seat, skill name) -> times that seat used a rule skill, for statistics: every seat holds the rules' skills,
        # so the balance report rates the seats that used one (as a card's users) from this count
        self.rule_skill_uses: dict[tuple[int, str], int] = {}
        # the rules' skills, which every seat holds whatever its role (Rules.skills; none in the base game): their
        # triggered and victory moments (added to each seat's in index_triggers), their active moments by idle point
        # (CardUse.card_options offers them to each seat) and their ids (a seat keeps their states as roles change)
        rule_triggers, rule_victories, self.rule_actives, self.rule_ids = rule_skills(game.index, game.content.rules)
        self.rule_triggers = rule_triggers
        self.rule_victories = rule_victories
        # the event kinds a skill of the content reacts to (dealt or not): the moments recorded only where one is
        # heard (round_end, game_start, game_end) are recorded by this, public, not by the roles dealt (heard_in)
        self.heard: frozenset[str] = heard_in(game.index, game.content)

    # ------------------------------------------------------------------ dealing

    def give_identity(self, p: Player, identity: Identity, task: SecretTask | None) -> None:
        """p's identity card (and secret task) as dealt."""
        p.identity = identity
        p.task = task
        p.version += 1
        self.seats.standing += 1

    def deal_roles(
        self,
        first: Player,
        pinned_seat: int = -1,
        pinned: Role | None = None,
        order: Callable[[list[Role]], list[Role]] | None = None,
    ) -> None:
        """Each player, from `first` on, is dealt roles (2 if enough) and keeps one, face down while the others choose
        (a later seat does not see the earlier choices); then the roles that are not hidden are turned up together
        (rulings R4), the log's roles_shown.

        A role pinned to `pinned_seat` (engine/pins.py) is taken out of the pile before it is shuffled (or
        ordered: `order`, a pinned game's PairedDeal) and laid at its bottom; the other seats are dealt from its
        top, so two packs that share their other roles deal the other seats the same roles from the same seed
        (paired games). The pinned seat is dealt at its own place in the round, as every seat: the pinned role and,
        where a seat is dealt two, the role at the bottom (which leaves the game unseen, as an unchosen role does),
        and is asked to keep the pinned role, its one option. So every other seat and a spectator see the deal
        stop where a game without a pin stops, with the same count of roles in the pile at each stop: which seat
        holds the pinned role is the pinned seat's secret when its role is face down. (Dealt last without a
        question, as it was, the pile's count when a seat chose told whether the pinned seat was dealt before it,
        and a browser table's seats were sent no stop for it.) With `pinned` None (a pack of a grid that lacks the
        pinned role) the pinned seat is dealt its roles from the bottom and chooses as usual."""
        game = self.game
        pool = game.index.roles_in_order(game.content)  # (a new list)
        if pinned is not None:
            pool.remove(pinned)
        if not pool and pinned is None:
            if self.rule_triggers or self.rule_victories:  # no roles: the rules' skills are every seat's all the same
                self.index_triggers()
            return
        if order is None:
            shuffle(game.rng, pool)
        else:
            pool = order(pool)
        if pinned is not None:
            pool.insert(0, pinned)  # (the bottom: held there for its seat, whose turn takes it out)
        self.role_pile, self.dealing_roles = pool, True  # (the pile as it is dealt: redeal draws from what is left)
        per = 2 if len(pool) >= 2 * game.n else 1
        self.pinned_role, self.pinned_seat = pinned, pinned_seat
        for p in self.seats.order_from(first):
            if p.seat == self.pinned_seat:  # (-1 after a re-deal: a sample knows of no pin)
                self._deal_pinned(p, per)
                continue
            held = 1 if self.pinned_role is not None else 0  # (the pinned role is no other seat's to draw)
            dealt = [pool.pop() for _ in range(min(per, len(pool) - held))]
            if not dealt:
                continue
            self._choose_role(p, dealt)
        for p in self.seats.order_from(first):  # every role chosen: those not hidden turned up at once (roles_shown)
            if p.role is not None and not p.role.hidden:
                p.role_face_up = True
                p.version += 1
        self.role_pile, self.dealing_roles = pool, False
        self.index_triggers()

    def _choose_role(self, p: Player, dealt: list[Role], prompt: str = "选择角色") -> None:
        """p, dealt these roles, keeps the one it chooses (face down while the others choose: turned up together)."""
        p.dealt_roles = dealt  # (the options asked: a re-deal for another seat deals them again, in place)
        p.version += 1  # (its `me` shows them while it chooses)
        chosen = ask_seat(self.game, p, D.ROLE, dealt, prompt) if len(dealt) > 1 else dealt[0]
        p.new_role(chosen, False)
        self.unchosen_roles += [r for r in dealt if r is not p.role]

    def _deal_pinned(self, p: Player, per: int) -> None:
        """The pinned seat's turn of the deal (deal_roles): the pinned role out of the pile and, when each seat is
        dealt `per` 2, the role at the pile's bottom out of the game, unseen; the seat asked to keep the pinned role,
        its one option, as a seat dealt two is asked (its question is its own: nobody else is told of it). Without a
        pinned role (a pack that lacks it), the seat is dealt from the bottom and chooses."""
        pool, kept = self.role_pile, self.pinned_role
        self.pinned_role, self.pinned_seat = None, -1
        if kept is None:
            dealt = [pool.pop(0) for _ in range(min(per, len(pool)))]
            if dealt:
                self._choose_role(p, dealt)
            return
        pool.remove(kept)
        self.unchosen_roles += [pool.pop(0) for _ in range(min(per - 1, len(pool)))]
        p.dealt_roles = [kept]  # (the options asked, as _choose_role's: a sample's re-deal deals them again, in place)
        p.version += 1
        prompt = "选择角色（这个角色是指定给你的）"
        chosen = ask_seat(self.game, p, D.ROLE, p.dealt_roles, prompt, alone=True) if per > 1 else kept
        p.new_role(chosen, False)

    def set_role_pile(self, roles: list[Role]) -> None:
        """The role pile is exactly these roles, its top the END of the list (a table built mid-game)."""
        self.role_pile = list(roles)

    def index_triggers(self) -> None:
        """Index the dealt roles' triggered and victory skills (after any role changes hands).

        What a role brings (its triggered skills with their event kinds and guards, its victory skills) is
        printed on the role card: it is worked out once per role and kept in the content set's index
        (_role_entry, engine/index.py)."""
        triggers: list[tuple[Player, Skill]] = []
        by_seat: list[list[Skill]] = []
        index: list[tuple[tuple[Skill, frozenset[str], Any, int], ...]] = []
        seats_by_kind: dict[str, int] = {}
        victory_skills: dict[str | None, list[tuple[Player, Skill]]] = {}
        table = self.game.index.role_entries
        rule_triggers, rule_victories = self.rule_triggers, self.rule_victories
        for p in self.players:
            if p.role is None:
                if not rule_triggers and not rule_victories:
                    by_seat.append([])
                    index.append(())
                    continue
                entries, victories = rule_triggers, rule_victories
            else:
                _, entries, victories = _role_entry(table, p.role)
                if rule_triggers or rule_victories:  # every seat holds the rules' skills, after its role's
                    entries, victories = entries + rule_triggers, victories + rule_victories
            bit = 1 << p.seat
            for entry in entries:
                triggers.append((p, entry[0]))
                for k in entry[1]:
                    seats_by_kind[k] = seats_by_kind.get(k, 0) | bit
            by_seat.append([entry[0] for entry in entries])
            index.append(entries)
            for sk in victories:
                victory_skills.setdefault(sk.check, []).append((p, sk))
        self.triggers = triggers
        self.triggers_by_seat = by_seat
        self.trigger_index = index
        # event kind -> the seats (a bit mask) whose triggered skills react to it: the trigger loop visits only
        # those seats, and none at all for a batch nobody reacts to
        self.trigger_seats_by_kind = seats_by_kind
        self.game.listen(frozenset(seats_by_kind))
        self.victory_skills = victory_skills

    # ------------------------------------------------------------------ role cards

    def flip_role(self, p: Player, face_up: bool) -> bool:
        """Turn p's role card face up or down (everyone sees it). False if p has none or it already is."""
        if p.role is None or p.role_face_up == face_up:
            return False
        p.role_face_up = face_up
        emit_event(self.game, "role_flipped", seat=p.seat, role=p.role.id, face_up=face_up)
        return True

    def hide_role(self, p: Player) -> None:
        """p's role goes face down with him, unannounced (弃权: the abstain event says it)."""
        p.role_face_up = False

    def replace_role(self, p: Player, look: int) -> bool:
        """p's role leaves the game; p keeps one of the top `look` roles of the role pile (the rest go under)."""
        if p.role is None or not self.role_pile:
            return False
        old = p.role
        self.removed_roles.append(old)
        offered = [self.role_pile.pop() for _ in range(min(look, len(self.role_pile)))]
        new = ask_seat(self.game, p, D.ROLE, offered, "选择新角色") if len(offered) > 1 else offered[0]
        self.role_pile[0:0] = [r for r in offered if r is not new]  # the bottom of the pile is the start
        p.new_role(new, not new.hidden, self.rule_ids)
        self.index_triggers()
        emit_event(
            self.game,
            "role_replaced",
            seat=p.seat,
            old=old.id,
            new=new.id,
            to=None if p.role_face_up else [p.seat],
            secret=() if p.role_face_up else ("new",),
        )
        return True

    # ------------------------------------------------------------------ identity cards

    def take_identity(self, taker: Player, p: Player | None) -> bool:
        """taker takes p's identity card (and secret task); taker's own leaves the game face down."""
        if p is None or p is taker or p.identity is None or taker.identity is None:
            return False
        self.removed_identities.append((taker.identity, taker.task, taker.seat))
        taker.identity, taker.task = p.identity, p.task
        p.identity, p.task = None, None
        taker.version += 1
        p.version += 1
        self.seats.standing += 1
        taker.known_identities.pop(p.seat, None)
        for q in self.players:  # who had seen the card taken knows who holds it now; the taker's own left the game
            if q is not taker:
                seen = q.known_identities.pop(p.seat, None)
                q.known_identities.pop(taker.seat, None)
                if seen is not None:
                    q.known_identities[taker.seat] = seen
        emit_event(self.game, "identity_taken", seat=taker.seat, of=p.seat)
        return True

    def look_identity(self, who: Player, p: Player | None) -> bool:
        """`who` looks at p's identity card (only he hears of it). False if p has none."""
        if p is None or p.identity is None:
            return False
        who.known_identities[p.seat] = p.identity
        emit_event(self.game, "identity_seen", seat=who.seat, of=p.seat, to=[who.seat])
        return True

    # ------------------------------------------------------------------ skills

    def skill_ready(self, p: Player, skill: Skill) -> bool:
        return self.skill_blocker(p, skill) is None

    def skill_blocker(self, p: Player, skill: Skill) -> str | None:
        """Why p cannot use this skill now (None: it can). The one place these rules live."""
        if not p.alive and not self.seats.dead_skill_works(p, skill.on):
            return "owner is dead"
        if skill.flips_up:
            if p.role_face_up:  # 翻开此角色牌 is part of the cost: only a face-down role can pay it
                return "role is already face up (this skill's cost is turning it face up)"
        elif not p.role_face_up and skill.while_face_down is None and not skill.of_rules:  # a face-down role:
            return "role is face down"  # flip-up skills, those that say they work face down, and the rules' skills
        if p.statuses and not skill.persistent and self.seats.has_status(p, "skills_disabled"):
            return "skills are disabled this turn"
        if p.lost_skills and skill.id in p.lost_skills:
            return "the owner does not have this skill (lost, or not gained yet)"
        if skill.limit_scope is not None and p.usage.get(self._limit_key(skill), 0) >= skill.limit_times:
            return f"used up ({skill.limit_times} per {skill.limit_scope})"
        return None

    def _limit_key(self, skill: Skill) -> tuple[Any, ...]:
        scope = skill.limit_scope
        if scope == "phase":
            return (skill.id, self.game.turn_no, self.game.phase)
        if scope == "turn":
            return (skill.id, self.game.turn_no)
        return (skill.id,)

    def set_up_usage(self, p: Player, skill: Skill, times: int, phase: str) -> None:
        """Uses of a limited skill already made when a table is built mid-game (table.put_usage)."""
        key = self._limit_key(skill)
        if skill.limit_scope == "phase":
            key = (skill.id, self.game.turn_no, phase)
        p.usage[key] = times

    def _role_actives(self, role: Role) -> RoleActives:
        """A role's active skills by idle point, by name and by number (the content set's index, engine/index.py)."""
        return self.game.index.role_actives(role)

    def active_skills(self, role: Role) -> dict[str, tuple[Skill, ...]]:
        """A role's active skills by the idle points where they can be used."""
        return self._role_actives(role)[0]

    def active_table(self, p: Player, role: Role) -> tuple[tuple[Skill, ...] | None, ...]:
        """p's role's active skills by idle point number (ContentIndex.timings; None: none there), kept on p for that
        role (Player.active_table)."""
        table = self._role_actives(role)[1]
        p.actives_of = role
        p.active_table = table
        return table

    def skill_options(self, p: Player, timing: str, actives: tuple[Skill, ...] | None = None) -> list[PlayOption]:
        """p's active skills usable at this idle point (`actives`: those of its role there, if the caller has them)."""
        out = []
        if actives is None:
            assert p.role is not None  # (a caller without the actives asks of a player with a role)
            actives = self.active_skills(p.role).get(timing, ())
        for skill in actives:
            if self.skill_blocker(p, skill) is None and (
                skill.condition is None or skill.condition(Ctx(self.game, p, dying=self.seats.dying_player))
            ):
                out.append(PlayOption(None, skill))
                self.note_offer(p, skill)
        return out

    def note_offer(self, p: Player, skill: Skill) -> None:
        """Count that p is offered `skill` now (statistics only: the balance report's offered and taken)."""
        key = (_owner_key(p, skill), skill.name)
        self.skill_offers[key] = self.skill_offers.get(key, 0) + 1

    def pay_skill(self, p: Player, skill: Skill) -> None:
        """A skill's costs: count its use against its limit, turn the role face up if it says so."""
        if skill.limit_scope is not None:
            key = self._limit_key(skill)
            p.usage[key] = p.usage.get(key, 0) + 1
        if skill.flips_up:
            self.flip_role(p, True)

    def use_skill(self, p: Player, skill: Skill, ctx: Ctx | None = None, paid: bool = False) -> None:
        """Pay the skill's costs (flip face up, count its use; not when `paid` already) and resolve its effect."""
        if not paid:
            if skill.limit_scope is not None:
                key = self._limit_key(skill)
                p.usage[key] = p.usage.get(key, 0) + 1
            if skill.flips_up:
                self.flip_role(p, True)
        uses = (_owner_key(p, skill), skill.name)
        self.skill_uses[uses] = self.skill_uses.get(uses, 0) + 1
        if skill.of_rules:
            by_seat = (p.seat, skill.name)
            self.rule_skill_uses[by_seat] = self.rule_skill_uses.get(by_seat, 0) + 1
        if p.role_face_up or skill.while_face_down is None:
            if not unheard(self.game, "skill_used"):
                emit_event(self.game, "skill_used", seat=p.seat, skill=skill.id)
        elif skill.while_face_down == "silent":  # the owner alone hears of it; no other skill reacts
            record_private(self.game, "skill_used", p.seat, seat=p.seat, skill=skill.id)
        else:  # announced: everyone hears that a skill was used, the owner alone which
            emit_event(self.game, "skill_used", to=[p.seat], secret=("skill",), seat=p.seat, skill=skill.id)
        if skill.effect is not None:
            stack = self.stack
            stack.push(skill)
            try:
                skill.effect(ctx or Ctx(self.game, p, dying=self.seats.dying_player))
            finally:
                stack.pop()
        self.zones.clear_staging()  # cards the skill turned up and left: discarded
        if skill.switch:
            self.switch_skill(p, skill)

    def switch_skill(self, p: Player, skill: Skill) -> None:
        """A 转换技 was used: its state turns 阳 -> 阴 or 阴 -> 阳, told as the skill's use was: to everyone, or, a
        face-down role's skill used as its `while_face_down` says, to its owner alone (silent: no skill reacts)."""
        yin = skill.id not in p.yin
        if yin:
            p.yin.add(skill.id)
        else:
            p.yin.discard(skill.id)
        p.version += 1
        state = "yin" if yin else "yang"
        if p.role_face_up or skill.while_face_down is None:
            emit_event(self.game, "skill_switched", seat=p.seat, skill=skill.id, state=state)
        elif skill.while_face_down == "silent":
            record_private(self.game, "skill_switched", p.seat, seat=p.seat, skill=skill.id, state=state)
        else:  # announced: the others heard that a skill was used, not which, so not which one switched
            emit_event(self.game, "skill_switched", to=[p.seat], seat=p.seat, skill=skill.id, state=state)
        self.game.note_change()

    def skill_named(self, p: Player, name: str) -> Skill | None:
        """p's role's skill called `name` (its Chinese name or its id), else the rules' skill so called (every seat
        holds those), or None."""
        for sk in p.role.skills if p.role is not None else ():
            if sk.name == name or sk.id == name:
                return sk
        if self.rule_ids:
            for sk in self.game.content.rules.skills:
                if sk.name == name or sk.id == name:
                    return sk
        return None

    def change_skill(self, p: Player, name: str, have: bool) -> bool:
        """p gains (have) or loses a skill of its role, by name: False if it has no such skill or already
        is so. Everyone hears of it while the role is face up, only p while it is face down."""
        sk = self.skill_named(p, name)
        if sk is None or (sk.id not in p.lost_skills) == have:
            return False
        if have:
            p.lost_skills.discard(sk.id)
        else:
            p.lost_skills.add(sk.id)
        p.version += 1
        emit_event(
            self.game,
            "skill_changed",
            seat=p.seat,
            skill=sk.id,
            has=have,
            to=None if p.role_face_up or sk.of_rules else [p.seat],  # (a rule skill is no secret of the role)
        )
        self.game.note_change()
        return True

    def has_skill(self, p: Player, name: str, own: bool) -> bool:
        """Does p have the skill `name` now (has_skill): his role's or a rule skill, not lost nor dormant. A role's
        skill only while the role is face up, unless `own` (p asks of himself: he knows his role). A dead player
        has none (seed 004: his skills are void; 弃权 too: out of the game), but for his 死亡前 skills while his
        death resolves (void are all but those: they are used then, as skill_blocker says)."""
        sk = self.skill_named(p, name)
        if sk is None or sk.id in p.lost_skills:
            return False
        if not p.alive and not self.seats.dead_skill_works(p, sk.on):
            return False
        return sk.of_rules or own or p.role_face_up

    def skill_yang(self, p: Player, name: str) -> bool:
        """Is p's 转换技 `name` in its 阳 state (its first state)? False if p has no such skill."""
        sk = self.skill_named(p, name)
        return sk is not None and sk.id not in p.yin

    # ------------------------------------------------------------------ resampling

    def redeal(
        self,
        seat: int,
        r: random.Random,
        weigh: Callable[[dict[int, str]], float] | None = None,
        tries: int = 1,
    ) -> None:
        """Re-deal what `seat` cannot see of identities and roles (the step API's resample).

        The identity cards (and secret tasks) of the other seats whose identity
        `seat` has not looked at, with those removed face down that were not its
        own; the face-down roles of the others, with the role pile and the roles
        the others were dealt and did not keep (and, while the seats choose, the
        roles dealt to another seat choosing now: its question's options). With `weigh` (a search bot's
        belief: step.World.sample), the identities are shuffled again, up to
        `tries` times, until a draw of `r` below weigh({seat: identity id})
        keeps the deal.
        """
        players = self.players
        me = players[seat]
        seen_seats = {seat} | set(me.known_identities)
        slots = [p for p in players if p.seat not in seen_seats and p.identity is not None]
        gone = self.removed_identities
        removed = [i for i, (_ident, _task, s) in enumerate(gone) if s != seat]  # face down, not ours
        if slots or removed:
            # drawn in the order of their ids, not of the seats that really hold them (a sample depends on
            # what `seat` knows and on `r` only)
            idents = sorted([p.identity for p in slots] + [gone[i][0] for i in removed], key=_id_of)
            r.shuffle(idents)
            for _ in range(tries - 1 if weigh is not None else 0):
                deal = {
                    p.seat: ident.id for p, ident in zip(slots, idents[: len(slots)], strict=True) if ident is not None
                }
                if weigh is None or r.random() < weigh(deal):
                    break
                r.shuffle(idents)
            seen_tasks = {t.id for t in [me.task] + [players[s].task for s in me.known_identities] if t is not None}
            seen_tasks |= {t.id for _i, t, s in gone if s == seat and t is not None}
            tasks = sorted((t for t in self.game.content.tasks.values() if t.id not in seen_tasks), key=lambda t: t.id)
            r.shuffle(tasks)
            for p, ident in zip(slots, idents[: len(slots)], strict=True):
                assert ident is not None  # (slots hold seats with an identity)
                p.identity = ident
                p.task = tasks.pop() if ident.takes_task and tasks else None
                p.version += 1
            for i, ident in zip(removed, idents[len(slots) :], strict=True):
                assert ident is not None
                task = tasks.pop() if ident.takes_task and tasks else None
                gone[i] = (ident, task, gone[i][2])
            self.seats.standing += 1
        # (the identity cards `seat` looked at are not dealt again; those the others looked at, they alone were told
        # of: the sample forgets them, Seats.forget_secrets)

        face_down = [p for p in players if p.seat != seat and p.role is not None and not p.role_shown]
        # while the seats choose: the other seat choosing now, whose dealt roles `seat` has not seen
        choosing = [p for p in players if p.seat != seat and p.role is None and p.dealt_roles and self.dealing_roles]
        if face_down or self.role_pile or choosing:
            mine = {r_.id for r_ in me.dealt_roles}
            pool = [p.role for p in face_down if p.role is not None] + list(self.role_pile)  # (all have one)
            pool += [r_ for p in choosing for r_ in p.dealt_roles]
            pool += [r_ for r_ in self.unchosen_roles if r_.id not in mine]
            pool.sort(key=_id_of)  # (as the identities above: the order they lie in is hidden)
            r.shuffle(pool)
            for p in face_down:  # a role face down once all chose is a hidden one: keep it so
                assert p.role is not None  # (face_down: seats with a role)
                if self.dealing_roles:  # (while the seats choose, a chosen role is face down whatever it is)
                    p.role = pool.pop()
                else:
                    hidden = p.role.hidden
                    pick = next(i for i in range(len(pool) - 1, -1, -1) if pool[i].hidden == hidden)
                    p.role = pool.pop(pick)
                p.reset_skills(self.rule_ids)  # (the rules' skills' states stay with the seat)
                # its uses of its role's limited skills were made face down, heard of by it alone (or that a skill was
                # used, not which): they go, the rules' skills' stay
                p.usage = {k: n for k, n in p.usage.items() if k[0] in self.rule_ids}
            for p in choosing:  # (in place: the list is the options its question offers, deal_roles)
                p.dealt_roles[:] = [pool.pop() for _ in p.dealt_roles]
            # (in place: while the seats choose, deal_roles goes on dealing from this list; a pinned role still in it is
            # one of the pile's now: the seat it was pinned to is dealt from the pile and chooses)
            self.role_pile[:] = [pool.pop() for _ in range(len(self.role_pile))]
            self.pinned_role, self.pinned_seat = None, -1
            self.unchosen_roles = [r_ for r_ in self.unchosen_roles if r_.id in mine] + pool
            self.index_triggers()
            spare = list(self.unchosen_roles)
            for p in face_down:  # what the others were dealt follows their new role
                assert p.role is not None  # (each was given one from the pool above)
                p.dealt_roles = [p.role] + [spare.pop() for _ in range(len(p.dealt_roles) - 1) if spare]


def _owner_key(p: Player, skill: Skill) -> str:
    """Whose skill it is, for the statistics (skill_uses, skill_offers): its role's id, or "" for a rule skill
    (every seat holds it; sim/summary.py names it 规则)."""
    if skill.of_rules or p.role is None:
        return ""
    return p.role.id


_id_of = operator.attrgetter("id")  # a content object's id: the order hidden things are dealt again in
