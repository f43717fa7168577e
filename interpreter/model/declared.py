"""What a rule set declares of its own vocabulary: counters, events and zones (rules.yaml or a pack's `rules:`).

A **counter** is a number kept per player for the whole game (护甲, 蓄力): a lasting mark (`keep_mark`,
docs/language.md) whose range, initial value and visibility the rules declare once, instead of each call
saying them. An **event** is a moment content announces (`emit`) with typed fields, for triggered skills to
react to and, for the fields it lets them, to replace before it resolves (改判).

These are the typed content objects; the loader's build stage makes them (content/build_declared.py) and the
checker reads them (the names code may use, the context variables of a skill that reacts to an event).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import catalogue

# Who sees a counter: every seat, or its player alone (a secret lasting mark).
VISIBILITIES = ("public", "owner")

# A declared zone: whose it is, who may look at its cards, which card comes out first, where the cards go when
# it overflows, when its owner dies and when the game ends.
ZONE_PER = ("player", "shared")
ZONE_LOOK = ("everyone", "owner", "nobody")
ZONE_ORDER = ("stack", "queue")
ZONE_OVERFLOW = ("discard", "remove")
ZONE_AT_DEATH = ("discard", "keep")
ZONE_AT_END = ("reveal", "keep")


@dataclass(frozen=True)
class CounterDecl:
    """A declared counter: each player's number `name`, kept within [minimum, maximum]."""

    name: str  # its key (the mark it is kept under)
    zh: str  # how describe words it
    minimum: int = 0
    maximum: int | None = None  # None: no maximum
    initial: int = 0  # each player's value when the game starts …
    by_role: dict[str, int] = field(default_factory=dict)  # … or, for the owner of a role here, this one
    visibility: str = "public"  # VISIBILITIES

    def initial_for(self, role_id: str | None) -> int:
        """The starting value of a player dealt `role_id`."""
        return self.by_role.get(role_id or "", self.initial)

    def clamp(self, n: int) -> int:
        """n kept within the counter's range."""
        if n < self.minimum:
            return self.minimum
        if self.maximum is not None and n > self.maximum:
            return self.maximum
        return n


@dataclass(frozen=True)
class EventDecl:
    """A declared event: its fields (name -> a type of the language), the player field that is its subject, the
    fields a skill reacting to it may replace before it resolves, and its wording."""

    name: str
    fields: tuple[tuple[str, str], ...]  # (field, type) in the order declared
    subject: str | None = None  # a player field; None: the event has no player field
    replaceable: tuple[str, ...] = ()
    zh: str = ""  # describe's wording of the moment; {s}: the subject
    doc: str = ""

    def field_types(self) -> dict[str, str]:
        return dict(self.fields)

    def judgement_field(self) -> str | None:
        """The field a judgement (reveal_top) puts its card in: the first replaceable field of type card (None:
        the event has none and cannot be a judgement)."""
        types = self.field_types()
        return next((f for f in self.replaceable if types.get(f) == "card"), None)


@dataclass(frozen=True)
class ZoneDecl:
    """A declared zone (仁区, 额外牌堆, a private pile, a face-down judgement area): one per player or one shared.

    look: everyone (its cards lie face up), owner (face down, its player looks: a shared zone has no owner, so
    nobody does), nobody (face down; a card put there stays known to those who knew it, e.g. the player who put
    it from his hand, as a card put on the deck). order: stack (the last card put in comes out first) or queue
    (the first does). capacity: the most cards it holds; a card put in beyond it pushes the one that would come
    out last (the oldest of a queue, the bottom of a stack) to `overflow`. at_death: what happens to a dead
    player's zone; at_end: reveal shows every card in it to all when the game ends. start (a shared zone): the
    deck copies it selects (as a deck transform's `where:`: card kinds, colour, arrow, lock) begin the game
    there, shuffled, not in the deck (额外牌堆); returns: a card that began there and would go to the discard
    pile goes back there instead, and the zone is shuffled (额外牌进入弃牌堆则放回额外牌堆后洗混)."""

    name: str  # its key, in Chinese (仁区): what code names it by
    per: str = "player"  # ZONE_PER
    look: str = "owner"  # ZONE_LOOK
    order: str = "stack"  # ZONE_ORDER
    capacity: int | None = None  # None: no limit
    overflow: str = "discard"  # ZONE_OVERFLOW
    at_death: str = "discard"  # ZONE_AT_DEATH (a per-player zone)
    at_end: str = "keep"  # ZONE_AT_END
    doc: str = ""
    # the selector of the copies that begin the game there: (key, value) pairs of a `where:` (card: a tuple of
    # kinds), None: none do
    start: tuple[tuple[str, object], ...] | None = None
    returns: bool = False

    @property
    def face_up(self) -> bool:
        return self.look == "everyone"


@dataclass(frozen=True)
class Declared:
    """Everything a content set declares of its own: counters, events and zones, by name."""

    counters: dict[str, CounterDecl] = field(default_factory=dict)
    events: dict[str, EventDecl] = field(default_factory=dict)
    zones: dict[str, ZoneDecl] = field(default_factory=dict)

    def trigger_events(self) -> dict[str, catalogue.Event]:
        """What `trigger:` may name with these declarations: the catalogue's events and the declared ones."""
        return catalogue.trigger_events(
            catalogue.declared_event(e.name, tuple(f for f, _ in e.fields), e.doc, e.zh) for e in self.events.values()
        )

    def key(self) -> tuple:
        """A hashable summary of what code compiled against these declarations may depend on (a build cache key)."""
        return (
            tuple(sorted(self.counters)),
            tuple(sorted((e.name, e.fields, e.subject, e.replaceable) for e in self.events.values())),
            tuple(sorted(self.zones)),
        )


NOTHING_DECLARED = Declared()
