"""Actions as plain data: what an agent is offered, and the stable integers that name them.

The engine's :class:`~.decisions.Decision` holds engine objects (cards,
players, card uses, skills). An agent never sees them: each option is turned
into a *descriptor*, a read-only dict of plain values — its ``kind``, a
``label`` and only ids the deciding seat may know — carrying a stable integer
``id``. The ids come from an :class:`ActionSpace` laid out once per content
set (deck ids, card types, skills, roles, seats …), so the same move has the
same number in every game, clone and replay of that content: the fixed
``Discrete`` space an RL library wants, with a mask of the legal ids.

Before any descriptor is made the engine checks that the option may be shown
to the seat at all: a card offered by id must be in the seat's hand, face up,
or known to the seat; anything else is an :class:`~.errors.EngineError` (content
must offer hidden cards blind, as positions — 抽取).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from ..language.runtime import CardName
from .decisions import PlayOption
from .errors import EngineError
from .frozen import FrozenDict
from .index import index_of
from .state import COLOR_NAMES, Card, Color, Player

if TYPE_CHECKING:
    from ..model.content import Content
    from .decisions import Decision

# The engine's Game: game.py imports this module, and no import may close a cycle, not even one for
# types (tests/test_layers.py), so it is Any here.
Game = Any
# An action's key in the ActionSpace: its kind, then ids and numbers ("pass",), ("seat", 3), ("card", 79) …
Key = tuple[str | int, ...]
# A descriptor's fields: plain data, Any like the values of a FrozenDict (docs/observation.md gives each).
Fields = dict[str, Any]
# A descriptor's prototype, never handed out: each agent gets a fresh copy of its top level (ActionList); its
# nested parts (a card's face) are read-only plain data shared by the copies (docs/observation.md, "Sharing").
Template = FrozenDict
# One option's entry: (action id, descriptor template).
Entry = tuple[int, Template]
# Per-copy card data as JSON-plain values.
PlainValue = str | int | float | bool | None | tuple["PlainValue", ...]


MAX_SEATS = 16
SLOTS = 64  # positional slots: blind picks (抽取) and choices among texts or other values

FIXED = ("pass", "none", "yes", "no", "accept", "decline")


class ActionSpace:
    """The numbering of every action a content set can offer. Built once per content (see :func:`space_for`)."""

    def __init__(self, content: Content) -> None:
        keys: list[Key] = [(k,) for k in FIXED]
        keys += [("seat", i) for i in range(MAX_SEATS)]
        keys += [("color", name) for name in ("red", "blue", "black")]
        keys += [("direction", d) for d in ("left", "right", "up")]
        keys += [("blind", i) for i in range(SLOTS)]
        keys += [("option", i) for i in range(SLOTS)]
        keys += [("identity", i) for i in sorted(content.identities)]
        keys += [("task", t) for t in sorted(content.tasks)]
        keys += [("card_name", t) for t in sorted(content.card_types)]
        keys += [("role", r) for r in sorted(content.roles)]
        skills = sorted({sk.id for r in content.roles.values() for sk in r.skills})
        skills += sorted({sk.id for sk in content.rules.skills} - set(skills))  # (ids kept: the base game has none)
        keys += [("skill", s) for s in skills]
        uses = sorted({(t.id, u.source_index) for t in content.card_types.values() for u in t.uses})
        keys += [("virtual", t, i) for t, i in uses]
        uids = sorted({e.uid for e in content.deck})
        keys += [("card", uid) for uid in uids]
        keys += [("use", uid, t, i) for uid in uids for t, i in uses]
        self.keys: tuple[Key, ...] = tuple(keys)
        self.ids: dict[Key, int] = {k: n for n, k in enumerate(keys)}
        self.size = len(keys)

    def key(self, action_id: int) -> Key:
        return self.keys[action_id]


def space_for(content: Content) -> ActionSpace:
    """The content's action space (made on first use, then kept in the content set's index, engine/index.py)."""
    index = index_of(content)
    space: ActionSpace | None = index.action_space
    if space is None:
        space = index.action_space = ActionSpace(content)
    return space


def card_data(card: Card) -> FrozenDict:
    """What is printed on a card, as plain data (only for a card the seat may see)."""
    d: Fields = {
        "id": card.uid,
        "card": card.type.id,
        "name": card.type.name,
        "colors": tuple(_colors(card.mask)),
        "direction": card.direction,
        "lockable": card.lockable,
    }
    if card.data:
        d["data"] = FrozenDict({_key(k): _plain(v) for k, v in card.data.items()})
    return FrozenDict(d)


def _colors(mask: int) -> list[str]:
    return [COLOR_NAMES[b] for b in COLOR_NAMES if mask & b]


def _key(k: object) -> str:
    """A data key as a JSON object key: a color bit by its name (per-copy data keyed by identity color)."""
    if isinstance(k, int) and k in COLOR_NAMES:
        return COLOR_NAMES[k]
    return str(k)


def _plain(v: object) -> PlainValue:
    """Per-copy card data made JSON-plain (identities and names by id)."""
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return tuple(_plain(x) for x in v)
    ident = getattr(v, "id", None)
    return ident if isinstance(ident, str) else str(v)


_PASS: Key = ("pass",)
# Option types whose descriptor depends only on the value (texts only for the fixed words; the
# engine keeps bool, Color and int apart by type, so True and the color red never share an entry).
_BY_VALUE = (str, bool, type(None), Color, CardName)


def _frozen_template(fields: Fields) -> Template:
    """Descriptor fields as a prototype (its card's face a FrozenDict already: card_data)."""
    return FrozenDict(fields)


class ActionList(Sequence[FrozenDict]):
    """One decision's legal actions as descriptors, each made when it is first read.

    A read-only sequence (index it, iterate it, ``len()``; ``list(actions)`` for
    JSON). Each descriptor is a fresh copy of its template's top level, so nothing an
    agent writes there, even past the read-only guard, reaches the engine (which keeps
    the ids apart), another agent or its own next decision; a card's face inside is
    shared read-only data, as an observation's are. Made lazily because a uniform
    random agent reads one of them; walked (a bot reads its actions several times a
    decision), all are made at once and walked as one tuple.
    """

    __slots__ = ("_templates", "_made", "_every", "ids")

    def __init__(self, ids: tuple[int, ...], templates: Sequence[Template]) -> None:
        self.ids = ids  # the action ids, in order: what an agent answers with
        self._templates = templates  # each option's template, in the same order (shared with other lists)
        self._made: dict[int, FrozenDict] | None = None  # the ones read by index before all were made
        self._every: tuple[FrozenDict, ...] | None = None  # all of them, once walked

    def __len__(self) -> int:
        return len(self._templates)

    @overload
    def __getitem__(self, i: int) -> FrozenDict: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[FrozenDict, ...]: ...
    def __getitem__(self, i: int | slice) -> FrozenDict | tuple[FrozenDict, ...]:
        every = self._every
        if every is not None:
            return every[i]
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self._templates))))
        made = self._made
        if made is None:
            made = self._made = {}
        if i < 0:
            i += len(self._templates)
        d = made.get(i)
        if d is None:
            d = made[i] = FrozenDict(self._templates[i])
        return d

    def __iter__(self) -> Iterator[FrozenDict]:
        every = self._every
        if every is None:
            made = self._made
            if made is None:
                every = tuple(map(FrozenDict, self._templates))
            else:  # (those already read keep their identity)
                every = tuple([made.get(i) or FrozenDict(t) for i, t in enumerate(self._templates)])
            self._every = every
        return iter(every)

    def copies(self) -> tuple[dict[str, Any], ...]:
        """Every descriptor as a plain dict, made afresh for this one caller: equal, key for key and in order, to
        ``tuple(dict(d) for d in self)``, without making the read-only copies first. For a bot that copies its
        actions anyway (heuristic.py: a plain dict's lookups are the fast ones, and it reads each descriptor several
        times a decision); what they hold (a card's face) is the same shared read-only data as in the descriptors."""
        # (a comprehension, not map(dict, ...): compiled, `dict(t)` here is a direct copy, map's a generic call)
        return tuple([dict(t) for t in self._templates])

    def fresh(self) -> ActionList:
        """The same actions as a new list, none of its descriptors made yet (for another caller)."""
        return ActionList(self.ids, self._templates)

    def __repr__(self) -> str:
        return f"ActionList({[d['label'] for d in self]})"


def _key_of(opt: PlayOption | Card | Player) -> Key:
    """The action-space key of a card use, skill, pass, card or seat option."""
    if isinstance(opt, PlayOption):
        if opt.use is None:
            return _PASS
        if opt.card is None:
            return ("skill", opt.use.id)
        return ("use", opt.card.uid, opt.use.card_type.id, opt.use.source_index)
    if isinstance(opt, Card):
        return ("card", opt.uid)
    return ("seat", opt.seat)


class _Entries:
    """A content set's descriptor entries, ``(action id, immutable template)``, made on first use.

    Cards, card uses and seats are found by list index (deck id, seat) and skills
    by object, so the per-decision loop builds no key; a face moves with its
    deck id, so the entries hold for every game, clone and resample.
    """

    def __init__(self, content: Content) -> None:
        # keyed by deck id, never a list as long as the largest id: a pack's deck ids are any numbers up to
        # schema's maximum, and no structure is sized by a content value (issue 29)
        self.cards: dict[int, Entry] = {}  # deck id -> entry of the card as an option
        self.uses: dict[int, dict[int, Entry]] = {}  # id(card use) -> {deck id: entry}
        self.seats: list[Entry | None] = [None] * MAX_SEATS
        self.skills: dict[int | Key, Entry] = {}  # id(skill) -> entry; _PASS -> the pass entry
        self.by_key: dict[Key, Entry] = {}  # action-space key -> entry (every entry, whatever found it)
        # value type -> {value: entry}: none, yes/no, colors, fixed words, card names
        self.values: dict[type, dict[object, Entry]] = {}
        # (value, its type, its position) -> action id, for the values of _BY_VALUE's types (Describer.id_at)
        self.value_ids: dict[tuple[object, type, int], int] = {}
        self.text_ids: dict[tuple[str, int], int] = {}  # (text, its position) -> action id (id_at)
        self.word_ids: dict[str, int] = {}  # a fixed word (its id the same at any position) -> action id (id_at)
        self.name_ids: dict[str, int] = {}  # a card name's card type id -> action id (id_at)
        # the ids alone of cards, card uses, seats and skills (id_at: no entry made), -1 until first asked
        self.card_ids: dict[int, int] = {}
        self.use_ids: dict[int, dict[int, int]] = {}
        self.seat_ids: list[int] = [-1] * MAX_SEATS
        self.skill_ids: dict[int | Key, int] = {}


class Describer:
    """Turns one decision's options into action ids and descriptors for its seat.

    Each kind of descriptor is made once per content set as an immutable
    template; agents get fresh read-only copies (see ActionList).
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.space = space_for(game.content)
        index = game.index
        entries: _Entries | None = index.descriptor_entries
        if entries is None:
            entries = index.descriptor_entries = _Entries(game.content)
        self._e: _Entries = entries
        ids = self.space.ids
        self._none, self._yes, self._no = ids[("none",)], ids[("yes",)], ids[("no",)]  # (id_at: the values' ids)

    def describe(self, decision: Decision) -> tuple[tuple[int, ...], ActionList]:
        """(action ids, ActionList) of a decision's options, in the engine's order.

        The ids are kept apart from the descriptors the agent receives, so nothing
        an agent does to a descriptor can change what an answer means. Every card
        offered by id must be visible to the seat (else EngineError).
        """
        seat = decision.seat
        bit = 1 << seat
        public = self.game.card_public
        e = self._e
        cards, uses, seats, skills, vals = e.cards, e.uses, e.seats, e.skills, e.values
        templates: list[Template] = []  # (the descriptors' templates and their ids, gathered apart)
        add = templates.append
        # the ids gathered in the same walk (not a comprehension after it: a function made and called at each
        # decision), and an option's position counted (an enumerate made at each decision costs more: it is read
        # only for a value)
        found: list[int] = []
        add_id = found.append
        values = False  # options that are values (texts, names …) can repeat; cards, seats and uses cannot
        pos = -1
        for opt in decision.options:
            pos += 1
            t = type(opt)
            if t is PlayOption:
                card = opt.card
                if card is None:  # a skill, or pass
                    use = opt.use
                    entry = skills.get(id(use) if use is not None else _PASS)
                    if entry is None:
                        entry = skills[id(use) if use is not None else _PASS] = self._entry(opt)
                else:
                    if not (card.knowers & bit or public(card)):
                        raise EngineError(f"P{seat} was offered the use of a card it cannot see")
                    by_uid = uses.get(id(opt.use))
                    if by_uid is None:
                        by_uid = uses[id(opt.use)] = {}
                    entry = by_uid.get(card.uid)
                    if entry is None:
                        entry = by_uid[card.uid] = self._entry(opt)
            elif t is Card:
                if not (opt.knowers & bit or public(opt)):
                    raise EngineError(
                        f"a card P{seat} cannot see ({self.game.zones.zone_name(opt)}) was offered to P{seat} "
                        "as an option; offer hidden cards blind (choose(..., blind: true))"
                    )
                entry = cards.get(opt.uid)
                if entry is None:
                    entry = cards[opt.uid] = self._entry(opt)
            elif t is Player:
                entry = seats[opt.seat]
                if entry is None:
                    entry = seats[opt.seat] = self._entry(opt)
            else:
                values = True
                by_value = vals.get(t)
                entry = by_value.get(opt) if by_value is not None else None
                if entry is None:
                    entry = self._value_entry(opt, pos, t)
            add(entry[1])
            add_id(entry[0])
        ids = tuple(found)
        if values and len(set(ids)) != len(ids):
            raise EngineError(
                f"decision {decision.kind} for P{seat} offers two options that are the same action "
                f"({decision.labels()}): content must make its options distinct"
            )
        return ids, ActionList(ids, templates)

    def id_at(self, decision: Decision, index: int) -> int:
        """The action id of option `index` (what describe's ids hold there), every option checked as describe
        checks them, without making any entry or descriptor (for the batch's driver, drivers.py).

        A value's id is its key's (the id describe gives it; a text at a position has no other). A card the
        seat cannot see and two options that are the same action go through describe itself, and a value
        that cannot be offered raises where describe does: the same errors."""
        seat = decision.seat
        bit = 1 << seat
        options = decision.options
        e = self._e
        ids_of_values: list[int] | None = None  # the ids of the options that are values: distinct unless one repeats
        chosen = -1  # the chosen option's id, if it is a value
        for pos, opt in enumerate(options):
            t = type(opt)
            if t is PlayOption:
                play: PlayOption = opt
                card = play.card
                # (one's own hand card is known to one's seat: the first test settles it)
                if card is not None and not (card.knowers & bit or self.game.card_public(card)):
                    return self.describe(decision)[0][index]  # raises
            elif t is Card:
                copy: Card = opt
                if not (copy.knowers & bit or self.game.card_public(copy)):
                    return self.describe(decision)[0][index]  # raises
            elif t is not Player:
                aid = self._value_id(opt, t, pos)  # raises for what cannot be offered, as describe does
                if ids_of_values is None:
                    ids_of_values = [aid]
                elif aid in ids_of_values:  # two options that are the same action
                    return self.describe(decision)[0][index]  # raises
                else:
                    ids_of_values.append(aid)
                if pos == index:
                    chosen = aid
        if chosen >= 0:
            return chosen
        # the chosen option's id: its key's, kept by what finds it (no entry, no descriptor made)
        opt = options[index]
        t = type(opt)
        if t is PlayOption:
            play = opt
            card = play.card
            if card is None:
                use = play.use
                found = e.skill_ids.get(id(use) if use is not None else _PASS, -1)
                if found < 0:
                    found = e.skill_ids[id(use) if use is not None else _PASS] = self.space.ids[_key_of(play)]
                return found
            by_uid = e.use_ids.get(id(play.use))
            if by_uid is None:
                by_uid = e.use_ids[id(play.use)] = {}
            found = by_uid.get(card.uid, -1)
            if found < 0:
                found = by_uid[card.uid] = self.space.ids[_key_of(play)]
            return found
        if t is Card:
            copy = opt
            found = e.card_ids.get(copy.uid, -1)
            if found < 0:
                found = e.card_ids[copy.uid] = self.space.ids[_key_of(copy)]
            return found
        player: Player = opt  # a Player: the values returned above
        found = e.seat_ids[player.seat]
        if found < 0:
            found = e.seat_ids[player.seat] = self.space.ids[_key_of(player)]
        return found

    def _value_id(self, opt: Any, t: type, pos: int) -> int:  # opt: a value of any kind (Any), as _other says
        """The action id of an option that is a value (its key's: the id describe gives it; a text at a position has
        no other); _other raises for what cannot be offered, as describe does."""
        if opt is None:
            return self._none
        if t is bool:
            return self._yes if opt else self._no
        e = self._e
        if t is str:  # a fixed word's id (accept, decline, a direction), or its position's
            text: str = opt
            aid = e.word_ids.get(text, -1)
            if aid < 0:
                aid = e.text_ids.get((text, pos), -1)
                if aid < 0:
                    key = self._other(opt, pos)[0]
                    aid = self.space.ids[key]
                    if key[0] == "option":
                        e.text_ids[(text, pos)] = aid
                    else:
                        e.word_ids[text] = aid
            return aid
        if t is CardName:  # its id's
            name: CardName = opt
            aid = e.name_ids.get(name.id, -1)
            if aid < 0:
                aid = e.name_ids[name.id] = self.space.ids[self._other(opt, pos)[0]]
            return aid
        if t in _BY_VALUE:  # hashable: its id kept by value and position (a text's id is its position's)
            value_ids = e.value_ids
            aid = value_ids.get((opt, t, pos), -1)
            if aid < 0:
                aid = value_ids[(opt, t, pos)] = self.space.ids[self._other(opt, pos)[0]]
            return aid
        by_value = e.values.get(t)
        known = by_value.get(opt) if by_value is not None else None
        return known[0] if known is not None else self.space.ids[self._other(opt, pos)[0]]

    def _entry(self, opt: PlayOption | Card | Player) -> Entry:
        """The entry of a card, card use, skill, pass or seat option (made once per content set)."""
        key = _key_of(opt)
        entry = self._e.by_key.get(key)
        return entry if entry is not None else self._store(key, self._fields(key, opt))

    def _value_entry(self, opt: object, pos: int, t: type) -> Entry:
        """The entry of an option that is a value: none, yes/no, a color, a text, a name, a blind position …"""
        vals = self._e.values
        by_value = vals.get(t)
        entry = by_value.get(opt) if by_value is not None else None
        if entry is not None:
            return entry
        key, make = self._other(opt, pos)
        entry = self._e.by_key.get(key)
        if entry is None:
            if key[0] == "option":  # a text or value at a position: its own descriptor each time
                fields = make()
                fields["id"] = self.space.ids[key]
                return (fields["id"], _frozen_template(fields))
            entry = self._store(key, make())
        if t in _BY_VALUE and key[0] not in ("option", "blind"):
            vals.setdefault(t, {})[opt] = entry
        return entry

    @staticmethod
    def _fields(key: Key, opt: Any) -> Fields:  # opt: a PlayOption, Card or Player, as the key's kind says
        kind = key[0]
        if kind == "pass":
            return {"kind": "pass", "label": "pass"}
        if kind == "skill":
            sk = opt.use
            return {"kind": "skill", "skill": sk.id, "name": sk.name, "label": f"skill {sk.name}"}
        if kind == "use":
            use = opt.use
            return {
                "kind": "use",
                "card": card_data(opt.card),
                "as": use.card_type.id,
                "as_name": use.card_type.name,
                "label": opt.label(),
            }
        if kind == "card":
            return {"kind": "card", "card": card_data(opt), "label": opt.label()}
        return {"kind": "seat", "seat": opt.seat, "label": f"P{opt.seat}"}

    def _store(self, key: Key, fields: Fields) -> Entry:
        aid = self.space.ids[key]
        fields["id"] = aid
        entry = (aid, _frozen_template(fields))
        self._e.by_key[key] = entry
        return entry

    def _other(self, opt: Any, pos: int) -> tuple[Key, Callable[[], Fields]]:
        """(key, make fields) of options that are values: none, yes/no, colors, texts, blind positions, names.

        `opt` is a value of any of these kinds (Any): each is told apart by its class or its class's name.
        """
        if opt is None:
            return ("none",), lambda: {"kind": "none", "label": "不"}
        if opt is True or opt is False:
            key = ("yes",) if opt else ("no",)
            return key, lambda: {"kind": key[0], "label": "是" if opt else "否"}
        if isinstance(opt, Color):
            name = COLOR_NAMES[int(opt)]
            return ("color", name), lambda: {"kind": "color", "value": name, "label": opt.label()}
        if isinstance(opt, str):
            if opt in ("accept", "decline"):
                return (opt,), lambda: {"kind": opt, "label": opt}
            if opt in ("left", "right", "up"):
                return ("direction", opt), lambda: {"kind": "direction", "value": opt, "label": opt}
            return self._slot("option", pos), lambda: {"kind": "option", "value": opt, "label": opt}
        cls = type(opt).__name__
        if cls == "BlindPick":
            return self._slot("blind", opt.index), lambda: {"kind": "blind", "index": opt.index, "label": opt.label()}
        if cls == "CardName":
            return ("card_name", opt.id), lambda: {
                "kind": "card_name",
                "value": opt.id,
                "name": opt.name,
                "label": opt.label(),
            }
        if cls == "Role":
            return ("role", opt.id), lambda: {"kind": "role", "value": opt.id, "label": opt.label()}
        if cls == "Identity":
            return ("identity", opt.id), lambda: {"kind": "identity", "value": opt.id, "label": opt.name}
        if cls == "SecretTask":
            return ("task", opt.id), lambda: {"kind": "task", "value": opt.id, "label": opt.name}
        if cls == "CardUse":
            return (
                ("virtual", opt.card_type.id, opt.source_index),
                lambda: {
                    "kind": "virtual",
                    "as": opt.card_type.id,
                    "label": f"当作{opt.card_type.label()}（{opt.timing}）",
                },
            )
        if isinstance(opt, int):
            return self._slot("option", pos), lambda: {"kind": "option", "value": opt, "label": str(opt)}
        raise EngineError(f"an option of type {cls} cannot be offered to an agent")

    @staticmethod
    def _slot(kind: str, index: int) -> Key:
        if index >= SLOTS:
            raise EngineError(f"a decision offers more than {SLOTS} {kind} choices")
        return (kind, index)
