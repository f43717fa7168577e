"""What the engine derives once from a content set and reads in every game played with it: one declared object.

A content set does not change once it is loaded, and a batch plays thousands of games with it. What
the engine reads of it at every decision — a card type's uses by idle point, a role's active skills
by idle point, the deck's cards per player count, the roles in id order — is therefore worked out once
per content set and kept in its :class:`ContentIndex`, a typed object with declared fields, which the
game holds as ``game.index`` and hands to the cards it makes. Nothing is written onto the content
objects themselves (tests/test_content_index.py checks that a game leaves them as loaded), and nothing
is numbered process-wide: the idle points and the bits of the uses are numbered per content set, so a
process that loads many content sets (tests, a server) keeps each one's tables as small as its game.

``index_of(content)`` returns the content set's index, made on first use; the registry holds
it only while the content set is alive. What each part is for:

- ``timings``: an idle point's number (its bit ``1 << number``). A card keeps its type's uses as plans
  indexed by it (:meth:`plans`), and a player its role's active skills (:meth:`role_actives`), so an
  idle point's question passes over a hand card with no use there by one test of its bits.
- :meth:`plans`: one use of a card type at one idle point, as ``CardUse.card_options`` reads it: (the
  use, its condition, its target rule, its bit). The bit is 0 for a use whose rules read ``this_card``
  (checked per copy), else one of its own within the content set: a question checks that use once for
  all copies and keeps the answer in two bit masks.
- :meth:`deck_faces`: what each card of the deck for a player count is made from (Zones.load_deck), what
  observations show of each (its printed face, the same in every game dealt that deck: Views.faces) and the log's
  labels of its cards and their uses (GameCore._labels).
- :meth:`roles_in_order`: the roles sorted by id (the deal shuffles them from that order).
- the parts its owners fill on first use: ``action_space`` (actions.space_for: every action id the
  content set can offer), ``descriptor_entries`` (actions.Describer's templates of descriptors),
  ``role_entries`` (skills.py: a dealt role's triggered and victory skills, worked out on its first deal),
  ``rule_skills`` (skills.py: the rules' skills, which every seat holds) and ``collect_exact`` (victory.py:
  whether every collect condition declares what it reads).

Numbers and bits are given under the index's lock (first sight only): search bots on a server's worker
threads may meet a new idle point at the same time and must not both take the same number.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..model.content import rule_moments

if TYPE_CHECKING:
    from ..model.content import CardType, Content, DeckEntry, Role, Skill

# One use of a card type at one idle point: (the use, its condition, its target rule, its bit; see above).
UsePlan = tuple[Any, Any, Any, int]
# A card type's uses by idle point: (the bits of the idle points it has uses at, per idle point number its plans).
TypePlans = tuple[int, tuple[tuple[UsePlan, ...], ...]]
# A role's active skills by idle point: by its name, and by its number (None: none there).
RoleActives = tuple[dict[str, tuple["Skill", ...]], tuple[tuple["Skill", ...] | None, ...]]
# A dealt role's entry (skills.py): the role, its triggered skills (each with the event kinds it reacts to, its seat
# guard and how the trigger loop tests that guard), its victory skills.
RoleEntry = tuple["Role", tuple[tuple["Skill", frozenset[str], Any, int], ...], tuple["Skill", ...]]
# The rules' skills (rule_skills): their triggered moments as a RoleEntry's, their victory moments, their active
# moments by idle point, their ids.
RuleSkills = tuple[
    tuple[tuple["Skill", frozenset[str], Any, int], ...],
    tuple["Skill", ...],
    dict[str, tuple["Skill", ...]],
    frozenset[str],
]
# What a card is made from (Card's arguments): deck id, card type, colours, arrow, lock, per-copy data, plans.
Face = tuple[int, "CardType", int, str, bool, dict[Any, Any], TypePlans]
# The deck for a player count: the faces in deck order, the deck ids as a dict's keys in that order, what an
# observation shows of each card (observation.py's _face: a read-only dict by deck id, made as first shown) and the
# log's labels of its cards and card uses (GameCore._label, by the same keys), made as first offered.
DeckFaces = tuple[list[Face], dict[int, Any], dict[int, Any], dict[Any, str]]

NO_PLANS: TypePlans = (0, ())  # a card shown outside a game (the browser's card list): no uses to offer


class ContentIndex:
    """What the engine derives once from one content set (see the module docstring)."""

    def __init__(self, content: Content) -> None:
        self._content: Callable[[], Content | None] = weakref.ref(content)
        self._lock = threading.Lock()
        self.timings: dict[str, int] = {}
        self._responds: bool | None = None  # any use at the `respond` idle point (responds)
        self._use_bits: dict[tuple[str, str, int], int] = {}
        self._plans: dict[int, tuple[CardType, TypePlans]] = {}  # id(card type) -> (it, its plans)
        self._actives: dict[int, tuple[Role, RoleActives]] = {}  # id(role) -> (it, its actives)
        self._roles: tuple[dict[str, Role], list[Role]] | None = None  # (content.roles as sorted, in id order)
        # (content.deck, decks, rules, card_types as the faces were made from them, faces per player count)
        self._deck: tuple[Any, Any, Any, Any, dict[int, DeckFaces]] | None = None
        # filled by the modules that own them, on first use (see the module docstring)
        # (actions.py's ActionSpace and descriptor entries, typed there: actions.py imports this module)
        self.action_space: Any = None
        self.descriptor_entries: Any = None
        self.role_entries: dict[int, RoleEntry] = {}  # id(role) -> its entry
        self.collect_exact: tuple[Any, Any, bool] | None = None  # (identities, tasks it was found for, the answer)
        self.rule_skills: tuple[Any, RuleSkills] | None = None  # (content.rules as found for, skills.py's rule_skills)
        self.heard: frozenset[str] | None = None  # the event kinds a skill of the content reacts to (skills.heard_in)

    def responds(self, content: Content) -> bool:
        """Does any card, role skill or rule skill of the content have a use at the `respond` idle point (一张牌生效前)?
        If none does, the point is never offered (found once per content set)."""
        got = self._responds
        if got is None:
            skills = [m for role in content.roles.values() for m in role.moments] + rule_moments(content.rules)
            got = self._responds = any("respond" in ct.uses_by_timing for ct in content.card_types.values()) or any(
                "respond" in (sk.timing or ()) for sk in skills
            )
        return got

    def indexes(self, content: Content) -> bool:
        """Is this the index of that content set (still alive)?"""
        return self._content() is content

    # ------------------------------------------------------------------ numbers given on first sight

    def timing(self, name: str) -> int:
        """An idle point's number in this content set, given on first sight."""
        ti = self.timings.get(name)
        if ti is None:
            with self._lock:
                ti = self.timings.get(name)
                if ti is None:
                    ti = self.timings[name] = len(self.timings)
        return ti

    def _use_bit(self, place: tuple[str, str, int]) -> int:
        """A shared use's bit, by its place (card type id, idle point, position there), given on first sight."""
        bit = self._use_bits.get(place, 0)
        if not bit:
            with self._lock:
                bit = self._use_bits.get(place, 0)
                if not bit:
                    bit = self._use_bits[place] = 1 << len(self._use_bits)
        return bit

    # ------------------------------------------------------------------ what is read in every game

    def plans(self, ctype: CardType) -> TypePlans:
        """A card type's uses as plans by idle point number (see the module docstring)."""
        got = self._plans.get(id(ctype))
        if got is not None and got[0] is ctype:
            return got[1]
        mask = 0
        by_index: dict[int, tuple[UsePlan, ...]] = {}
        for timing, uses in ctype.uses_by_timing.items():
            ti = self.timing(timing)
            mask |= 1 << ti
            plans: list[UsePlan] = []
            for k, use in enumerate(uses):
                bit = 0 if use.per_copy else self._use_bit((ctype.id, timing, k))
                plans.append((use, use.condition, use.target, bit))
            by_index[ti] = tuple(plans)
        table = tuple(by_index.get(i, ()) for i in range(max(by_index) + 1)) if by_index else ()
        made: TypePlans = (mask, table)
        self._plans[id(ctype)] = (ctype, made)
        return made

    def role_actives(self, role: Role) -> RoleActives:
        """A role's active skills by idle point, by name and by number (None: none there)."""
        got = self._actives.get(id(role))
        if got is not None and got[0] is role:
            return got[1]
        index: dict[str, list[Skill]] = {}
        for skill in role.moments:
            if skill.kind == "active":
                for timing in skill.timing or ():  # an active skill always has its idle points
                    index.setdefault(timing, []).append(skill)
        by_timing = {t: tuple(sks) for t, sks in index.items()}
        by_index = {self.timing(t): sks for t, sks in by_timing.items()}
        table = tuple(by_index.get(i) for i in range(max(by_index) + 1)) if by_index else ()
        made: RoleActives = (by_timing, table)
        self._actives[id(role)] = (role, made)
        return made

    def roles_in_order(self, content: Content) -> list[Role]:
        """The content's roles sorted by id (a new list each time: the deal takes roles out of it)."""
        got = self._roles
        if got is None or got[0] is not content.roles:
            got = self._roles = (content.roles, sorted(content.roles.values(), key=_by_id))
        return list(got[1])

    def deck_faces(self, content: Content, players: int) -> DeckFaces:
        """What each card of the deck for `players` is made from, in deck order, with its deck ids; made again if
        the content's deck, decks, rules or card types were replaced since (a test's or a tool's edited copy)."""
        kept = self._deck
        if (
            kept is None
            or kept[0] is not content.deck
            or kept[1] is not content.decks
            or kept[2] is not content.rules
            or kept[3] is not content.card_types
        ):
            kept = self._deck = (content.deck, content.decks, content.rules, content.card_types, {})
        got = kept[4].get(players)
        if got is None:
            faces = [self.face(e, content.card_types[e.card_type]) for e in content.deck_for(players)]
            got = (faces, dict.fromkeys([f[0] for f in faces]), {}, {})
            kept[4][players] = got
        return got

    def face(self, e: DeckEntry, ctype: CardType) -> Face:
        """What the card of deck entry `e` is made from."""
        return (e.uid, ctype, e.mask, e.direction, e.lockable, e.data, self.plans(ctype))


# the indexes of the content sets alive, by id(content); an entry is dropped when its content set is collected
_REGISTRY: dict[int, ContentIndex] = {}
_REGISTRY_LOCK = threading.Lock()


def index_of(content: Content) -> ContentIndex:
    """The content set's index, made on first use and kept while the content set lives."""
    key = id(content)
    index = _REGISTRY.get(key)
    if index is not None and index.indexes(content):
        return index
    with _REGISTRY_LOCK:
        index = _REGISTRY.get(key)
        if index is None or not index.indexes(content):
            index = ContentIndex(content)
            _REGISTRY[key] = index
            weakref.finalize(content, _forget, key, index)
    return index


def _forget(key: int, index: ContentIndex) -> None:
    with _REGISTRY_LOCK:
        if _REGISTRY.get(key) is index:
            del _REGISTRY[key]


def _by_id(role: Role) -> str:
    return role.id
