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

from .decisions import PlayOption
from .errors import EngineError
from .frozen import FrozenDict
from .state import COLOR_NAMES, Card, Color, Player

MAX_SEATS = 16
SLOTS = 64  # positional slots: blind picks (抽取) and choices among texts or other values

FIXED = ("pass", "none", "yes", "no", "accept", "decline")


class ActionSpace:
    """The numbering of every action a content set can offer. Built once per content (see :func:`space_for`)."""

    def __init__(self, content):
        keys: list[tuple] = [(k,) for k in FIXED]
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
        keys += [("skill", s) for s in skills]
        uses = sorted({(t.id, u.source_index) for t in content.card_types.values() for u in t.uses})
        keys += [("virtual", t, i) for t, i in uses]
        uids = sorted({e.uid for e in content.deck})
        keys += [("card", uid) for uid in uids]
        keys += [("use", uid, t, i) for uid in uids for t, i in uses]
        self.keys: tuple = tuple(keys)
        self.ids: dict = {k: n for n, k in enumerate(keys)}
        self.size = len(keys)

    def key(self, action_id: int) -> tuple:
        return self.keys[action_id]


def space_for(content) -> ActionSpace:
    """The content's action space (made on first use, then kept on the content object)."""
    space = getattr(content, "_action_space", None)
    if space is None:
        space = ActionSpace(content)
        content._action_space = space
    return space


def card_data(card: Card) -> FrozenDict:
    """What is printed on a card, as plain data (only for a card the seat may see)."""
    d = {"id": card.uid, "card": card.type.id, "name": card.type.name, "colors": tuple(_colors(card.mask)),
         "direction": card.direction, "lockable": card.lockable}
    if card.data:
        d["data"] = FrozenDict({_key(k): _plain(v) for k, v in card.data.items()})
    return FrozenDict(d)


def _colors(mask: int):
    return [COLOR_NAMES[b] for b in COLOR_NAMES if mask & b]


def _copy_card(card: FrozenDict) -> FrozenDict:
    data = card.get("data")
    if data is None:
        return FrozenDict(card)
    d = dict(card)
    d["data"] = FrozenDict(data)
    return FrozenDict(d)


def _key(k) -> str:
    """A data key as a JSON object key: a color bit by its name (试探's per-identity-color rows)."""
    if isinstance(k, int) and k in COLOR_NAMES:
        return COLOR_NAMES[k]
    return str(k)


def _plain(v):
    """Per-copy card data made JSON-plain (identities and names by id)."""
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return tuple(_plain(x) for x in v)
    ident = getattr(v, "id", None)
    return ident if isinstance(ident, str) else str(v)


class Describer:
    """Turns one decision's options into descriptors for its seat (cached per game: options repeat a lot)."""

    def __init__(self, game):
        self.game = game
        self.space = space_for(game.content)
        self._cache: dict = {}

    def describe(self, decision) -> tuple:
        """(action ids, descriptors) of a decision's options, in the engine's order.

        The ids are kept apart from the descriptors the agent receives, so nothing
        an agent does to a descriptor can change what an answer means.
        """
        seat = decision.seat
        ids = []
        descs = []
        for pos, opt in enumerate(decision.options):
            aid, d = self._one(opt, pos, seat)
            ids.append(aid)
            descs.append(d)
        if len(set(ids)) != len(ids):
            raise EngineError(f"decision {decision.kind} for P{seat} offers two options that are the same action "
                              f"({[d['label'] for d in descs]}): content must make its options distinct")
        return tuple(ids), tuple(descs)

    def _one(self, opt, pos: int, seat: int) -> tuple:
        if isinstance(opt, Card):
            if not self.game.card_visible(opt, seat):
                raise EngineError(f"a card P{seat} cannot see ({self.game.zone_name(opt)}) was offered to P{seat} "
                                  "as an option; offer hidden cards blind (choose(..., blind: true))")
            return self._cached(("card", opt.uid), lambda: {"kind": "card", "card": card_data(opt),
                                                            "label": opt.label()})
        if isinstance(opt, PlayOption):
            return self._play(opt, seat)
        if isinstance(opt, Player):
            return self._cached(("seat", opt.seat), lambda: {"kind": "seat", "seat": opt.seat,
                                                             "label": f"P{opt.seat}"})
        if opt is None:
            return self._cached(("none",), lambda: {"kind": "none", "label": "不"})
        if opt is True or opt is False:
            key = ("yes",) if opt else ("no",)
            return self._cached(key, lambda: {"kind": key[0], "label": "是" if opt else "否"})
        if isinstance(opt, Color):
            name = COLOR_NAMES[int(opt)]
            return self._cached(("color", name), lambda: {"kind": "color", "value": name, "label": opt.label()})
        if isinstance(opt, str):
            if opt in ("accept", "decline"):
                return self._cached((opt,), lambda: {"kind": opt, "label": opt})
            if opt in ("left", "right", "up"):
                return self._cached(("direction", opt), lambda: {"kind": "direction", "value": opt, "label": opt})
            return self._positional("option", pos, {"kind": "option", "value": opt, "label": opt})
        cls = type(opt).__name__
        if cls == "BlindPick":
            return self._positional("blind", opt.index, {"kind": "blind", "index": opt.index, "label": opt.label()})
        if cls == "CardName":
            return self._cached(("card_name", opt.id), lambda: {"kind": "card_name", "value": opt.id,
                                                                "name": opt.name, "label": opt.label()})
        if cls == "Role":
            return self._cached(("role", opt.id), lambda: {"kind": "role", "value": opt.id, "label": opt.label()})
        if cls == "Identity":
            return self._cached(("identity", opt.id), lambda: {"kind": "identity", "value": opt.id,
                                                               "label": opt.name})
        if cls == "SecretTask":
            return self._cached(("task", opt.id), lambda: {"kind": "task", "value": opt.id, "label": opt.name})
        if cls == "CardUse":
            key = ("virtual", opt.card_type.id, opt.source_index)
            return self._cached(key, lambda: {"kind": "virtual", "as": opt.card_type.id,
                                              "label": f"当作{opt.card_type.label()}（{opt.timing}）"})
        if isinstance(opt, int):
            return self._positional("option", pos, {"kind": "option", "value": opt, "label": str(opt)})
        raise EngineError(f"an option of type {cls} cannot be offered to an agent")

    def _play(self, opt: PlayOption, seat: int) -> tuple:
        if opt.use is None:
            return self._cached(("pass",), lambda: {"kind": "pass", "label": "pass"})
        if opt.card is None:
            sk = opt.use
            return self._cached(("skill", sk.id), lambda: {"kind": "skill", "skill": sk.id, "name": sk.name,
                                                           "label": f"skill {sk.name}"})
        card, use = opt.card, opt.use
        if not self.game.card_visible(card, seat):
            raise EngineError(f"P{seat} was offered the use of a card it cannot see")
        key = ("use", card.uid, use.card_type.id, use.source_index)
        return self._cached(key, lambda: {"kind": "use", "card": card_data(card), "as": use.card_type.id,
                                          "as_name": use.card_type.name, "label": opt.label()})

    def _cached(self, key: tuple, make) -> tuple:
        """(id, a fresh descriptor) — fresh each time, so what one agent does to its copy reaches nobody."""
        entry = self._cache.get(key)
        if entry is None:
            fields = make()
            aid = self.space.ids[key]
            fields["id"] = aid
            entry = (aid, fields)
            self._cache[key] = entry
        aid, fields = entry
        card = fields.get("card")
        if card is None:
            return aid, FrozenDict(fields)
        d = dict(fields)
        d["card"] = _copy_card(card)
        return aid, FrozenDict(d)

    def _positional(self, kind: str, index: int, fields: dict) -> tuple:
        if index >= SLOTS:
            raise EngineError(f"a decision offers more than {SLOTS} {kind} choices")
        aid = self.space.ids[(kind, index)]
        fields["id"] = aid
        return aid, FrozenDict(fields)

