"""Game state: physical cards, zones and players.

Colors are bit masks (a dual-color card has two bits set), so "is this card
black" is one ``&`` and "pure black" one ``==``. Every card is in exactly
one zone at a time; :meth:`Zones.move` (zones.py) is the only code that changes it, and
it keeps each player's per-color intel counters up to date.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final

# Colors and directions are content values (identities, per-copy card data, arrows); the engine uses them from there.
from ..model.colors import BLACK, BLUE, COLOR_BITS, COLOR_NAMES, COLOR_ZH, RED, Color
from ..model.directions import DIRECTION_ZH, LEFT as _LEFT, RIGHT as _RIGHT, UP as _UP

if TYPE_CHECKING:
    from ..model.content import CardType, Identity, Role, SecretTask
    from .index import TypePlans


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
# (DeclaredZones.declared_zone); a card in one has its player as owner (a per-player zone) or none (a shared one).
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
        "told",
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
        plans: TypePlans,
    ) -> None:
        self.uid = uid  # the deck id (1..118)
        self.type = ctype  # a content CardType
        # its type's uses, as plans (ContentIndex.plans, engine/index.py): the bits of the idle points it has uses
        # at, and per idle point number its plans there (read at every idle point)
        self.use_timings, self.use_plans = plans
        self.mask = mask  # color bits
        self.direction = direction  # LEFT / RIGHT / UP
        self.lockable = lockable
        self.data = data  # per-copy values (dict), read by `data(card, key)`
        self.zone = DECK
        self.owner: Player | None = None
        self.knowers = 0  # bit mask of the seats that can tell where this card is (see Zones.move)
        # the part of `knowers` the whole table was told of (its owner's hand, a card given or shown to all, the target
        # of a card used face down): what a sample keeps of the others' knowledge, the rest being what only a seat
        # that looked knows it saw (Zones.move, Zones.reveal, Zones.forget_looks)
        self.told = 0
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

    def face(self) -> tuple[Any, ...]:
        """Its face: the fields FACE names, in that order (read one by one, not looked up by name: a resample reads
        every hidden card's)."""
        return (
            self.uid,
            self.type,
            self.mask,
            self.direction,
            self.lockable,
            self.data,
            self.use_timings,
            self.use_plans,
        )

    def set_face(self, face: tuple[Any, ...]) -> None:
        """Take a face as :meth:`face` gives it (FACE's fields, in order)."""
        (
            self.uid,
            self.type,
            self.mask,
            self.direction,
            self.lockable,
            self.data,
            self.use_timings,
            self.use_plans,
        ) = face


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
        "version",
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
        # its role's active skills by idle point number (ContentIndex.timings; None: none there), for the role they were
        # found for (`actives_of`: another role, or none, and Skills.active_table finds them again)
        self.actives_of: Role | None = None
        self.active_table: tuple[tuple[Any, ...] | None, ...] = ()
        # Counts every change of what an observation's row of this player shows (its standing, statuses and marks,
        # hand size, intel, role, its face and its skills' states, whether it has an identity): each owner's
        # operation that changes one adds 1 (observation.py keeps a row while it is the same, turn by turn).
        self.version = 0

    @property
    def role_face_up(self) -> bool:
        return self._face_up

    @role_face_up.setter
    def role_face_up(self, up: bool) -> None:
        self._face_up = up
        self.version += 1
        if up:
            self.role_shown = True

    def new_role(self, role: Role, face_up: bool, keep: frozenset[str] = frozenset()) -> None:
        """A role card comes to this seat (dealt or replaced): nobody else has seen it unless it is face up. `keep`:
        the ids of skills that are not the role's (the rules' skills), whose states stay."""
        self.role = role
        self.version += 1
        self.role_shown = False
        self.role_face_up = face_up
        self.reset_skills(keep)

    def reset_skills(self, keep: frozenset[str] = frozenset()) -> None:
        """The skill states of a role just come to this seat: its dormant skills not had yet, every 转换技 阳; those of
        the skills in `keep` (the rules' skills, every seat's whatever its role) stay as they were."""
        role = self.role
        self.version += 1
        lost = {sk.id for sk in role.skills if sk.dormant} if role is not None else set()
        if keep:
            lost |= self.lost_skills & keep
            self.yin = self.yin & keep
        else:
            self.yin = set()
        self.lost_skills = lost

    @property
    def red(self) -> int:
        return self.counts[RED]

    @property
    def black(self) -> int:
        return self.counts[BLACK]

    def __repr__(self) -> str:
        return f"P{self.seat}"
