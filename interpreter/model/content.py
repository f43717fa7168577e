"""Typed content objects, built once by the loader and read by the engine.

Nothing here is keyed by a game object's name: the engine only sees these
structures and the compiled effect callables they carry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from .. import catalogue
from ..snippet import spans
from .declared import NOTHING_DECLARED, Declared

# The rule vocabulary, by name -> one line of documentation (declared in interpreter.catalogue).
TIMINGS = {name: t.doc for name, t in catalogue.TIMINGS.items()}  # idle points (空闲时点)
VICTORY_CHECKS = {name: v.doc for name, v in catalogue.VICTORY_CHECKS.items()}  # 宣胜时机, in the rules' order
TRIGGER_EVENTS = {name: e.doc for name, e in catalogue.TRIGGER_EVENTS.items()}  # what `trigger:` may name
LIMIT_SCOPES = tuple(catalogue.LIMIT_SCOPES)


@dataclass
class CardUse:
    """One way of using a card type: at an idle point, with a target rule and an effect."""

    card_type: CardType
    timing: str
    target: Callable | None  # ctx -> list of candidate players, or None: no target
    condition: Callable | None  # ctx -> bool: may it be used now
    effect: Callable  # ctx -> None
    source_index: int = 0
    per_copy: bool = True  # do the condition and target rule read this_card? (else one check serves all copies)
    # the code units' text, for describe (None: not given; an effect of None is the card's shared effect)
    target_source: str | None = None
    condition_source: str | None = None
    effect_source: str | None = None


@dataclass
class CardType:
    id: str
    name: str
    text: str
    face_down: bool = False  # played face down: only the user (and the target) see the copy
    after_use: str = "discard"  # where the card goes after resolving if the effect left it in play
    uses: list[CardUse] = field(default_factory=list)
    data_keys: dict[str, str] = field(default_factory=dict)  # per-copy data: key -> type name
    effect_source: str | None = None  # the shared effect's text (for the uses that give none), for describe
    uses_by_timing: dict[str, list[CardUse]] = field(default_factory=dict)  # timing -> [CardUse]
    bot: str | None = None  # a hint for the heuristic bot (catalogue.BOT_CARD_TACTICS); no rule

    def label(self) -> str:
        return f"【{self.name}】"


@dataclass
class DeckEntry:
    uid: int
    card_type: str
    mask: int
    direction: str
    lockable: bool
    data: dict[str, Any]


@dataclass
class Victory:
    check: str
    condition: Callable  # ctx -> bool
    dead_may_win: bool = False  # may the holder win while dead (e.g. on his own turn after dying)
    source: str = ""  # the condition text, for describe and traces
    # the parts of the game state the condition reads (catalogue.STATE_PARTS); None: it may read anything
    reads: frozenset[str] | None = None
    wins: str = "camp"  # who wins with the holder (catalogue.VICTORY_WINS): his camp, or he alone


@dataclass
class Identity:
    id: str
    name: str
    color: int  # identity color bit (潜伏=red, 特工=blue, 神秘人=black)
    camp: str | None  # players of the same camp win together; None: each alone
    takes_task: bool = False  # this identity draws a secret task
    victories: list[Victory] = field(default_factory=list)


@dataclass(frozen=True)
class Camp:
    """A camp the rules declare (`camps:`): the identities naming it win together."""

    id: str
    name: str  # as players say it (红方, 灰雀)
    description: str = ""
    collects: str | None = None  # the colour of intel its players collect to win, if any (red, blue, black)


@dataclass
class SecretTask:
    id: str
    name: str
    text: str
    victories: list[Victory] = field(default_factory=list)
    bot: str | None = None  # a hint for the heuristic bot (catalogue.BOT_TASK_STYLES); no rule


MIN_PLAYERS: Final = 2
"""The fewest players a game has: someone sends an intel and someone else may receive it (the engine's core refuses
fewer). An identity table row for fewer is an error (E113), not a table some door might seat."""

MAX_SEATS: Final = 32
"""The most players any door but the step API seats: `simulate`, `balance`, `play` (and its saves), `serve`'s
tables, `replay` and the log reader, scenario files. Which counts a game is played at is the content's (its identity
table, `Rules.player_counts`); this is no rule of the game but a bound on what the readers of hostile input take
before they know the content (a log header, a save or a web request naming a billion seats would make them build a
billion), and the doors that write a log or a save keep to it too, so that whatever they write reads back. Three
times the base game's largest table: a fork seating more is warned by `validate` (W129, naming these doors), and
plays it through `GameState` and the RL adapters, which read no file and serve nobody. The JSON schemas of saves and
scenarios say the same number (tests/test_seats.py checks)."""


@dataclass
class Rules:
    name: str
    start_hand: int
    draw_count: int
    max_turns: int
    identity_table: dict  # player count -> {identity id: count}
    decks: list  # [(min_players, max_players, deck name)]
    give_on_death: int = 3
    collect_count: int = 3  # red or blue intel from which the collect victory checks run
    death_count: int = 3  # black intel that make a player dying
    # the turn's skeleton (`turn:`): its phases in order, each an id (unique in the turn) and a kind of
    # catalogue.PHASE_KINDS; the base game's turn by default
    phases: tuple[Phase, ...] = field(default_factory=lambda: base_phases())
    resolution: str = "queued"  # catalogue.RESOLUTIONS: queued (the base game) or stack
    speeds: dict[str, str] = field(default_factory=dict)  # stack timing: idle point -> slow|fast, over the catalogue's
    # house-rule switches (rules.yaml; docs/modding.md, "House rules"): the base game's values by default
    hand_limit: int | None = None  # 手牌上限: at the end of his turn the current player discards down to it
    first_turn_skip: tuple[str, ...] = ()  # the ids of the phases the game's first turn skips
    send_arrows: tuple[str, ...] = ("up", "left", "right")  # the arrows an intel may be sent with
    lockable: str = "printed"  # catalogue.LOCK_RULES: printed (as each copy says), all, none
    card_targets: str = "any"  # catalogue.TARGET_RULES: any, others (a card never targets its user)
    # the camps the identities name (`camps:`, optional): id -> Camp; empty when the rules declare none
    camps: dict[str, Camp] = field(default_factory=dict)
    # rule skills (`skills:`): skills every seat holds for the whole game, whatever its role (a house rule that is an
    # effect for every player); each a Skill with `of_rules` set and no role. The base game has none
    skills: tuple[Skill, ...] = ()

    def cannot_seat(self, players: int) -> str | None:
        """Why these rules cannot play a table of this many players, naming the counts they do deal identities or
        a deck for (every door that takes a player count says it the same way); None if they can."""
        if players not in self.identity_table:
            have = spans(sorted(self.identity_table)) or "none"
            return f"the rules have no identity table for {_count(players)} (they have one for {have} players)"
        if not any(lo <= players <= hi for lo, hi, _ in self.decks):
            sizes = ", ".join(f"{lo}-{hi}" for lo, hi, _ in self.decks) or "none"
            return f"the rules have no deck for {_count(players)} (rules.yaml decks: players {sizes})"
        return None

    def player_counts(self) -> list[int]:
        """The player counts these rules play, in order: those with an identity table row and a deck."""
        return [n for n in sorted(self.identity_table) if self.cannot_seat(n) is None]

    def door_counts(self) -> list[int]:
        """The player counts the commands, logs, saves and the web server seat: those played, up to MAX_SEATS."""
        return [n for n in self.player_counts() if n <= MAX_SEATS]

    def cannot_seat_at_doors(self, players: int) -> str | None:
        """As cannot_seat, for a door that keeps to MAX_SEATS (every door but the step API and the RL adapters)."""
        problem = self.cannot_seat(players)
        if problem is None and players > MAX_SEATS:
            return (
                f"{players} players is more than the {MAX_SEATS} seats the commands, logs, saves and web tables take "
                f'(the rules\' table for it is played through the step API; docs/modding.md, "Player counts")'
            )
        return problem


def rule_counts(rules: Rules) -> tuple[int, int]:
    """The counts of intel of one colour the rules' checks read (collect_count, death_count): what a text says where
    the rules read them (describe's collect check and `makes_three`, simulate's and the balance report's endings).
    Here, beside the rules, so a text outside the language (sim, balance) reads the same pair."""
    return rules.collect_count, rules.death_count


BASE_COUNTS = (Rules.collect_count, Rules.death_count)  # the model's defaults: a text written without the rules


@dataclass(frozen=True)
class Phase:
    """One phase of a turn, as the rules' `turn:` lists it."""

    id: str  # what the game's clock calls it (per-phase limits, observations, a scenario's `start:`)
    kind: str  # its building block: a name of catalogue.PHASE_KINDS
    # the kind's settings given in `turn:` (catalogue.PhaseKind.settings); one left out has its default
    settings: tuple[tuple[str, Any], ...] = ()

    def setting(self, name: str) -> Any:
        """The value of one of its kind's settings: as given in `turn:`, else the kind's default."""
        for key, value in self.settings:
            if key == name:
                return value
        return catalogue.PHASE_KINDS[self.kind].setting(name).default

    def label(self) -> str:
        """The phase's Chinese name, with its id when that is not the kind's own (a repeated phase)."""
        zh = catalogue.PHASE_KINDS[self.kind].zh
        return zh if self.id == self.kind else f"{zh}（{self.id}）"


def phase_list(kinds: list[str] | tuple[str, ...]) -> tuple[Phase, ...]:
    """Phases of the given kinds, in order: each has its kind as id, a repeated kind its kind and a number
    (`play`, then `play_2`, `play_3` …)."""
    return phases_of([(kind, None, ()) for kind in kinds])


def phases_of(specs: list[tuple[str, str | None, tuple[tuple[str, Any], ...]]]) -> tuple[Phase, ...]:
    """Phases from (kind, id or None, settings), in order: a phase without an id of its own is named like
    phase_list names them (its kind; a repeated kind its kind and a number), counting only such phases."""
    seen: dict[str, int] = {}
    out = []
    for kind, ident, settings in specs:
        if ident is None:
            seen[kind] = seen.get(kind, 0) + 1
            ident = kind if seen[kind] == 1 else f"{kind}_{seen[kind]}"
        out.append(Phase(ident, kind, settings))
    return tuple(out)


def base_phases() -> tuple[Phase, ...]:
    """The base game's turn (catalogue.BASE_TURN)."""
    return phase_list(catalogue.BASE_TURN)


@dataclass
class Skill:
    """One skill of a role. Active skills are used at an idle point; triggered ones react to events."""

    id: str
    name: str
    text: str
    kind: str  # active | triggered | passive | victory
    timing: tuple | None = None  # active: the idle points where it can be used (one or more)
    on: tuple | None = None  # triggered: the event kinds it reacts to (one or more)
    condition: Callable | None = None
    effect: Callable | None = None
    limit_scope: str | None = None  # phase | turn | game
    limit_times: int = 1
    flips_up: bool = False  # 翻开此角色牌: usable while face down, turns the role face up
    optional: bool = True  # 可以: the owner is asked before a triggered skill fires
    role: Role | None = None
    condition_text: str = ""  # the condition's source, for traces and describe
    check: str | None = None  # victory skills: "declare" (stage 2) or "co_win" (stage 4)
    effect_text: str = ""  # the effect's source, for describe
    # triggered skills: a test of the seats alone (self, subject, target) that the condition implies
    # (language/guard.py); false means the condition is false, without building its context
    guard: Callable | None = None
    switch: bool = False  # 转换技: two states, 阳 then 阴, alternating at each use (skill_yang reads it)
    persistent: bool = False  # 持恒技: skills_disabled (an effect invalidating skills) does not stop it
    dormant: bool = False  # not had when the role comes to a player: gain_skill gives it (使命技's reward)
    # works while the role is face down (catalogue.FACE_DOWN_USES: silent | announced); None: it does not
    while_face_down: str | None = None
    # a skill with several moments (`moments:`): each moment is a Skill of its own kind, timing or trigger,
    # condition and effect, sharing the id, name, limit and costs; every one of them holds the tuple of all
    # (Role.skills holds the first, Role.moments each). Empty: a skill of one moment, itself.
    moments: tuple[Skill, ...] = field(default=(), repr=False, compare=False)
    bot: str | None = None  # a hint for the heuristic bot (catalogue.BOT_SKILL_TACTICS); no rule
    # a rule skill (the rules' `skills:`): every seat holds it whatever its role, face up or down; public knowledge,
    # so its use is announced to all and says nothing of its owner's role (Rules.skills)
    of_rules: bool = False


@dataclass
class Role:
    id: str
    name: str
    title: str
    gender: str  # male | female
    hidden: bool  # a hidden role starts face down
    text: str = ""
    skills: list[Skill] = field(default_factory=list)
    version: str = ""  # e.g. "SP": versions of one role share the name

    def label(self) -> str:
        return role_label(self.name, self.version, self.title)

    @property
    def moments(self) -> list[Skill]:
        """What the engine runs: each skill, or each moment of a skill with several (`moments:`)."""
        return [m for sk in self.skills for m in (sk.moments or (sk,))]


def rule_moments(rules: Rules) -> list[Skill]:
    """What the engine runs of the rules' skills (Rules.skills): each, or each moment of one with several."""
    return [m for sk in rules.skills for m in (sk.moments or (sk,))]


def role_label(name: str, version: str = "", title: str = "") -> str:
    """name（title）, or name（version）（title） for one version of a role with several."""
    return name + (f"（{version}）" if version else "") + (f"（{title}）" if title else "")


@dataclass(frozen=True)
class Origin:
    """Where a definition comes from: its pack's id, its file and line (validate, describe, pack show)."""

    pack: str
    path: str
    line: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line} (pack {self.pack})"


@dataclass(frozen=True)
class PackInfo:
    """One loaded pack, in layering order: its manifest's id, name, version and description (or its folder's name)."""

    id: str
    name: str
    folder: str
    version: str = ""
    description: str = ""
    extends: tuple[str, ...] = ()


class MadeOf:
    """What a content set was built from, as the loader read it: the rules' data (manifests merged in), each
    definition kept as (folder, id, data), in the loader's order, and the deck as built with its named decks.
    content/fingerprint.py hashes it. (A plain class, here: a dataclass would be generated and compiled, and a
    module of its own imported, at every start-up of a command that loads content.)"""

    __slots__ = ("rules", "definitions", "deck", "decks", "fingerprint")

    def __init__(
        self,
        rules: Any,
        definitions: tuple[tuple[str, str, Any], ...],
        deck: tuple[DeckEntry, ...],
        decks: dict[str, tuple[int, ...]],
    ) -> None:
        self.rules, self.definitions, self.deck, self.decks = rules, definitions, deck, decks
        self.fingerprint = ""  # content_fingerprint's, once asked for


@dataclass
class Content:
    rules: Rules
    card_types: dict[str, CardType]  # id -> CardType
    deck: list[DeckEntry]  # [DeckEntry]
    decks: dict[str, list[int]]  # deck name -> [uid]
    identities: dict[str, Identity]  # id -> Identity
    tasks: dict[str, SecretTask]  # id -> SecretTask
    roles: dict[str, Role] = field(default_factory=dict)
    # what `validate` warns of (loader.ContentError with level "warning", W5xx): the content loads all the same
    warnings: list[Any] = field(default_factory=list)
    packs: list[PackInfo] = field(default_factory=list)  # in layering order
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)  # (kind, id) -> where it is defined
    changes: list[str] = field(default_factory=list)  # what each pack changed of what it extends, in words
    declared: Declared = NOTHING_DECLARED  # the counters and events the rules declare (model/declared.py)
    # what the loader built it from (MadeOf, which keeps its fingerprint once asked for: content/fingerprint.py, a
    # hash of what the game is made of, for logs and sweeps); None: content built by hand
    made_of: MadeOf | None = field(default=None, repr=False, compare=False)

    def deck_for(self, players: int) -> list[DeckEntry]:
        for lo, hi, name in self.rules.decks:
            if lo <= players <= hi:
                wanted = set(self.decks[name])
                return [e for e in self.deck if e.uid in wanted]
        raise ValueError(f"no deck is configured for {players} players")


def _count(players: int) -> str:
    """A player count in words: "1 player", "3 players" (a count below two reaches these messages from a CLI flag)."""
    return f"{players} player" if players == 1 else f"{players} players"
