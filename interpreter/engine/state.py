"""Game state: physical cards, zones and players.

Colors are bit masks (a dual-color card has two bits set), so "is this card
black" is one ``&`` and "pure black" one ``==``. Every card is in exactly
one zone at a time; :meth:`Zones.move` (zones.py) is the only code that changes it, and
it keeps each player's per-color intel counters up to date.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final

# Colors and directions are content values (identities, per-copy card data, arrows); the engine uses them from there.
from ..model.colors import BLACK, BLUE, COLOR_BITS, COLOR_NAMES, COLOR_ZH, RED, Color
from ..model.directions import DIRECTION_ZH, LEFT as _LEFT, RIGHT as _RIGHT, UP as _UP

if TYPE_CHECKING:
    from ..model.content import CardType, Identity, Role, SecretTask


__all__ = [
    "BLACK",
    "BLUE",
    "COLOR_BITS",
    "COLOR_NAMES",
    "COLOR_ZH",
    "RED",
    "Color",
    "DIRECTION_ZH",
    "LEFT",
    "RIGHT",
    "UP",
]

# The directions and the color bits as the compiled engine's constants (Final: compiled code reads them as
# constants, not from the module's globals; RED, BLUE and BLACK are the model's Color objects, for values)
LEFT: Final = "left"
RIGHT: Final = "right"
UP: Final = "up"
RED_BIT: Final = 1
BLUE_BIT: Final = 2
BLACK_BIT: Final = 4
assert (LEFT, RIGHT, UP) == (_LEFT, _RIGHT, _UP) and (RED_BIT, BLUE_BIT, BLACK_BIT) == (RED, BLUE, BLACK)

# Zones. A card's `owner` is the player whose hand/intel holds it, else None.
# (Final: the compiled engine reads them as constants, not from the module's globals)
DECK: Final = 0
HAND: Final = 1
INTEL: Final = 2
DISCARD: Final = 3
REMOVED: Final = 4
PENDING: Final = 5
PROCESSING: Final = 6
STAGING: Final = 7
ZONE_NAMES = ["deck", "hand", "intel", "discard", "removed", "pending", "processing", "staging"]
# The zones the rules declare (`zones:`, model/declared.py) are numbered from here, in the order declared
# (Zones.declared_zone); a card in one has its player as owner (a per-player zone) or none (a shared one).
DECLARED_ZONE: Final = 8


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """Shuffle x in place exactly as ``rng.shuffle(x)`` does (CPython's Fisher–Yates with ``_randbelow``
    drawn from ``getrandbits``: the same draws, the same order), without a method call per element.
    A generator of another class (one that overrides ``random``) is left to its own shuffle."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        j = below(getrandbits, i + 1)
        x[i], x[j] = x[j], x[i]


def below(getrandbits: Callable[[int], int], n: int) -> int:
    """A number in 0..n-1 as CPython's ``Random._randbelow(n)`` draws it from its generator's ``getrandbits``:
    bits of n's length until one is below n (shuffle; a random seat's answer in a batch, drivers.py)."""
    k = n.bit_length()
    j = getrandbits(k)
    while j >= n:
        j = getrandbits(k)
    return j


# The idle points (timings) by number, interned process-wide as they are first met (bit `1 << number`). A card keeps
# its type's uses as plans indexed by that number (type_plans), so an idle point's question passes over a hand card
# with no use there by one test of its bits, and reads a use's rules from a tuple, not by dict lookups and attribute
# reads on the content's objects (CardUse.card_options).
TIMING_INDEX: dict[str, int] = {}

# One use of a card type at one idle point, as card_options reads it: (the use, its condition, its target rule, its
# bit). The bit is 0 for a use whose rules read this_card (checked per copy), else one of its own: a question checks
# that use once for all copies and keeps the answer in two bit masks. The bits are given process-wide by the use's
# place (its card type's id, the idle point, its position there: USE_BITS), distinct within any one content set,
# which is all a question spans; a process that loads many content sets (tests, a server) reuses them, so the masks
# stay as small as the game's list of uses.
UsePlan = tuple[Any, Any, Any, int]
# a card type's uses by idle point: (the bits of the idle points it has uses at, per idle point number its plans)
TypePlans = tuple[int, tuple[tuple[UsePlan, ...], ...]]

USE_BITS: dict[tuple[str, str, int], int] = {}  # a shared use's bit by its place (card type id, idle point, position)


# Numbers and bits are given under this lock (first sight only): two threads meeting a new idle point or use at once
# (search bots on a server's worker threads) must not both take the same number.
_FIRST_SIGHT = threading.Lock()


def timing_index(timing: str) -> int:
    """An idle point's number (TIMING_INDEX), given on first sight."""
    ti = TIMING_INDEX.get(timing)
    if ti is None:
        with _FIRST_SIGHT:
            ti = TIMING_INDEX.get(timing)
            if ti is None:
                ti = TIMING_INDEX[timing] = len(TIMING_INDEX)
    return ti


def _use_bit(place: tuple[str, str, int]) -> int:
    """A shared use's bit (USE_BITS), given on first sight."""
    bit = USE_BITS.get(place, 0)
    if not bit:
        with _FIRST_SIGHT:
            bit = USE_BITS.get(place, 0)
            if not bit:
                bit = USE_BITS[place] = 1 << len(USE_BITS)
    return bit


def type_plans(ctype: CardType) -> TypePlans:
    """A card type's uses as plans (see UsePlan), made once and kept on the type (what is printed on a card type does
    not change once it is loaded)."""
    made: TypePlans | None = getattr(ctype, "_plans", None)
    if made is not None:
        return made
    mask = 0
    by_index: dict[int, tuple[UsePlan, ...]] = {}
    for timing, uses in ctype.uses_by_timing.items():
        ti = timing_index(timing)
        mask |= 1 << ti
        plans: list[UsePlan] = []
        for k, use in enumerate(uses):
            bit = 0
            if not use.per_copy:
                bit = _use_bit((ctype.id, timing, k))
            plans.append((use, use.condition, use.target, bit))
        by_index[ti] = tuple(plans)
    table = tuple(by_index.get(i, ()) for i in range(max(by_index) + 1)) if by_index else ()
    made = (mask, table)
    ctype._plans = made  # type: ignore[attr-defined]  # a cache kept on the card type
    return made


def mask_colors(mask: int) -> list[str]:
    return [COLOR_NAMES[b] for b in (RED, BLUE, BLACK) if mask & b]


def mask_zh(mask: int) -> str:
    return "".join(COLOR_ZH[b] for b in (RED, BLUE, BLACK) if mask & b)


class Card:
    """One physical card of the deck."""

    __slots__ = (
        "uid",
        "type",
        "mask",
        "direction",
        "lockable",
        "data",
        "zone",
        "owner",
        "knowers",
        "chosen",
        "shown",
        "face_down",
        "used_as",
        "known_types",
        "use_timings",
        "use_plans",
    )

    def __init__(
        self,
        uid: int,
        ctype: CardType,
        mask: int,
        direction: str,
        lockable: bool,
        data: dict[Any, Any],
        plans: TypePlans | None = None,
    ) -> None:
        self.uid = uid  # the deck id (1..118)
        self.type = ctype  # a content CardType
        # its type's uses, as plans (type_plans; None: found here, else the caller's): the bits of the idle points it
        # has uses at, and per idle point number its plans there (read at every idle point)
        if plans is None:
            plans = type_plans(ctype)
        self.use_timings, self.use_plans = plans
        self.mask = mask  # color bits
        self.direction = direction  # LEFT / RIGHT / UP
        self.lockable = lockable
        self.data = data  # per-copy values (dict), read by `data(card, key)`
        self.zone = DECK
        self.owner: Player | None = None
        self.knowers = 0  # bit mask of the seats that can tell where this card is (see Zones.move)
        self.chosen = 0  # seats that picked this card in a decision since it last moved
        self.shown = 0  # seats it is on show to (展示/查看) while the effect that showed it resolves (Zones.reveal)
        self.face_down = False  # in use (PROCESSING) as a card that is played face down
        self.used_as: CardType | None = (
            None  # in use: the card type it is used as (itself, or what it is converted into)
        )
        # used face down: the ids of the card types everyone knows its printed type is one of (None: any type, a
        # card an effect used as another); read only while `used_as` is set (Zones.start_use, Zones.redeal)
        self.known_types: frozenset[str] | None = None

    @property
    def name(self) -> str:
        return self.type.name

    def label(self) -> str:
        lock = "锁" if self.lockable else ""
        return f"{self.type.name}#{self.uid}({mask_zh(self.mask)}{DIRECTION_ZH[self.direction]}{lock})"

    def __repr__(self) -> str:
        return self.label()

    # what is printed on it, and what follows from its type (its uses, kept on the card for the idle points):
    # a face moved by a resample takes both (the deck id first: Zones.redeal sorts faces by it)
    FACE: ClassVar[tuple[str, ...]] = (
        "uid",
        "type",
        "mask",
        "direction",
        "lockable",
        "data",
        "use_timings",
        "use_plans",
    )

    def swap_face(self, other: Card) -> None:
        """Exchange what is printed on two physical cards (used by ``resample``: positions stay, faces move)."""
        for f in Card.FACE:
            a, b = getattr(self, f), getattr(other, f)
            setattr(self, f, b)
            setattr(other, f, a)


LASTING: Final = -1  # the turn of a mark kept for the game (keep_mark): everyone knows it
SECRET_LASTING: Final = -2  # a mark kept for the game that only its owner knows of


def mark_record(value: Any) -> Any:
    """A mark's value as plain data for the log and observations: a player as its seat, a color or card name
    by its name; a card is not shown (its face may be hidden from some seats): None."""
    if isinstance(value, Player):
        return value.seat
    if isinstance(value, Color):
        return COLOR_NAMES.get(int(value), int(value))
    if isinstance(value, Card):
        return None
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    return getattr(value, "id", str(value))  # a card name


class Player:
    """A seat at the table. Seats are numbered counter-clockwise: seat+1 is the right-hand neighbour."""

    __slots__ = (
        "seat",
        "identity",
        "task",
        "role",
        "_face_up",
        "role_shown",
        "hand",
        "intel",
        "alive",
        "out",
        "dying",
        "counts",
        "statuses",
        "usage",
        "marks",
        "known_identities",
        "secret_statuses",
        "dealt_roles",
        "lost_skills",
        "yin",
        "actives_of",
        "active_table",
    )

    def __init__(self, seat: int):
        self.seat = seat
        self.identity: Identity | None = None  # content Identity; None once the identity card was taken (take_identity)
        self.task: SecretTask | None = None  # content SecretTask or None
        self.role: Role | None = None  # content Role or None (role slot: roles are added as data)
        self._face_up = True
        self.role_shown = False  # has this role been face up since it was dealt (then everyone knows it)
        self.hand: list[Card] = []
        self.intel: list[Card] = []
        self.alive = True
        self.out = False  # 弃权: could not send; not dead, cannot win
        self.dying = False
        self.counts = [0, 0, 0, 0, 0, 0, 0, 0]  # intel cards containing each color bit (index = bit)
        self.statuses: dict[str, int] = {}  # status name -> turn number it expires after
        # per-phase/turn/game use counters of skills: (skill id, turn, phase), (skill id, turn) or (skill id,) -> uses
        self.usage: dict[tuple[str | int, ...], int] = {}
        # marks set by effects: key -> (turn, any value); turn LASTING (or SECRET_LASTING: the owner alone knows it)
        # for a mark kept for the game (keep_mark, add_mark)
        self.marks: dict[str, tuple[int, Any]] = {}
        self.known_identities: dict[int, Identity] = {}  # identity cards this seat has looked at: seat -> Identity
        self.secret_statuses: set[str] = set()  # statuses only this player was told of (add_status secret)
        self.dealt_roles: list[Role] = []  # the roles this seat was dealt at setup (it saw them all)
        self.lost_skills: set[str] = set()  # ids of its role's skills it does not have (lose_skill, dormant ones)
        self.yin: set[str] = set()  # ids of its 转换技 skills in their 阴 state (all start 阳)
        # its role's active skills by idle point number (TIMING_INDEX; None: none there), for the role they were
        # found for (`actives_of`: another role, or none, and Skills.active_table finds them again)
        self.actives_of: Role | None = None
        self.active_table: tuple[tuple[Any, ...] | None, ...] = ()

    @property
    def role_face_up(self) -> bool:
        return self._face_up

    @role_face_up.setter
    def role_face_up(self, up: bool) -> None:
        self._face_up = up
        if up:
            self.role_shown = True

    def new_role(self, role: Role, face_up: bool) -> None:
        """A role card comes to this seat (dealt or replaced): nobody else has seen it unless it is face up."""
        self.role = role
        self.role_shown = False
        self.role_face_up = face_up
        self.reset_skills()

    def reset_skills(self) -> None:
        """The skill states of a role just come to this seat: its dormant skills not had yet, every 转换技 阳."""
        role = self.role
        self.lost_skills = {sk.id for sk in role.skills if sk.dormant} if role is not None else set()
        self.yin = set()

    @property
    def red(self) -> int:
        return self.counts[RED]

    @property
    def black(self) -> int:
        return self.counts[BLACK]

    def __repr__(self) -> str:
        return f"P{self.seat}"
