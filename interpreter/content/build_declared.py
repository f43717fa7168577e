"""The build stage for what the rules declare of their own vocabulary: `counters:` and `events:` (rules.yaml, or
a pack's `rules:`, merged in first). Built before any code compiles, since code names them (a counter in
`add_counter(self, "护甲", 1)`, an event in `trigger:` and `emit`).

The schema has checked the shapes (a field's type, a visibility, an event's name in Chinese); this stage checks
what one declaration says of itself (a range that holds its initial values, a field name code can read, a
subject that is a player field, replaceable fields that exist) and, once the roles are built, the roles a
counter names (`check_counter_roles`). Every finding is at its value, with a hint.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..catalogue import CONSTANTS, CONTEXT_VARS, TRIGGER_EVENTS
from ..model.declared import VISIBILITIES, CounterDecl, Declared, EventDecl, ZoneDecl
from ..snippet import brief
from ..suggest import did_you_mean
from .diagnostics import Diagnostics
from .yamlpos import PosDict, key_pos_of, pos_of

# The language's names a field may not take: it is read as a context variable beside them.
_TAKEN = {*CONTEXT_VARS, *CONSTANTS, "it", "let", "for", "in", "if", "else", "where", "repeat", "and", "or", "not"}
# The keys an announced event's record has besides its fields (its subject's seat, its number, the log's own).
_TAKEN |= {"seat", "ev", "e", "to", "secret"}


def build_declared(sink: Diagnostics, path: Path, data: Any) -> Declared:
    """The counters and events of the rules data (merged with the packs' `rules:`); what is wrong is reported
    and left out."""
    counters = {}
    for name, spec in _mapping(data.get("counters")).items():
        c = _counter(sink, path, data["counters"], str(name), spec)
        if c is not None:
            counters[c.name] = c
    events = {}
    for name, spec in _mapping(data.get("events")).items():
        e = _event(sink, path, data["events"], str(name), spec)
        if e is not None:
            events[e.name] = e
    zones = {}
    for name, spec in _mapping(data.get("zones")).items():
        z = _zone(sink, path, str(name), spec)
        if z is not None:
            zones[z.name] = z
    return Declared(counters, events, zones)


def _zone(sink: Diagnostics, path: Path, name: str, spec: Any) -> ZoneDecl | None:
    """A `zones:` entry (its shape checked by the schema): a shared zone has no owner to look (E113)."""
    if spec is None:
        spec = {}
    if not isinstance(spec, dict):
        return None
    per, look = spec.get("per", "player"), spec.get("look", "owner")
    if per == "shared" and look == "owner":
        sink.err(
            path,
            pos_of(spec, "look"),
            "E113",
            f"zone '{name}' is shared: it has no owner to look at it",
            "look: everyone (face up) or nobody (face down)",
        )
        return None
    cap = spec.get("capacity")
    start = spec.get("start")
    if (start is not None or spec.get("returns")) and per != "shared":
        key = "start" if start is not None else "returns"
        sink.err(
            path,
            key_pos_of(spec, key),
            "E113",
            f"zone '{name}' is each player's: only a shared zone has cards that begin the game or return there",
            "per: shared (an extra pile beside the deck, 额外牌堆)",
        )
        return None
    selector = None
    if isinstance(start, dict):
        kinds = start.get("card")
        kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds or ())
        selector = tuple((k, kinds if k == "card" else v) for k, v in start.items())
    return ZoneDecl(
        name,
        str(per),
        str(look),
        str(spec.get("order", "stack")),
        cap if isinstance(cap, int) else None,
        str(spec.get("overflow", "discard")),
        str(spec.get("at_death", "discard")),
        str(spec.get("at_end", "keep")),
        str(spec.get("doc", "")),
        selector,
        spec.get("returns") is True,
    )


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _counter(sink: Diagnostics, path: Path, where: Any, name: str, spec: Any) -> CounterDecl | None:
    if not isinstance(spec, dict):
        return None
    lo, hi = spec.get("min", 0), spec.get("max")
    if not isinstance(lo, int) or (hi is not None and not isinstance(hi, int)):
        return None  # the schema said so
    if hi is not None and hi < lo:
        sink.err(path, pos_of(spec, "max"), "E113", f"counter '{name}': max {hi} is below min {lo}")
        return None
    initial = spec.get("initial", lo)
    by_role = {str(k): v for k, v in _mapping(spec.get("roles")).items() if isinstance(v, int)}
    ok = True
    for value, at in [(initial, pos_of(spec, "initial"))] + [(v, pos_of(spec["roles"], k)) for k, v in by_role.items()]:
        if not isinstance(value, int) or value < lo or (hi is not None and value > hi):
            span = f"{lo}..{hi}" if hi is not None else f"{lo} or more"
            sink.err(path, at, "E113", f"counter '{name}' starts at {brief(value)}, outside its range {span}")
            ok = False
    visibility = spec.get("visibility", "public")
    if not ok or visibility not in VISIBILITIES:
        return None
    return CounterDecl(name, str(spec.get("name") or name), lo, hi, initial, by_role, visibility)


def _event(sink: Diagnostics, path: Path, where: Any, name: str, spec: Any) -> EventDecl | None:
    if not isinstance(spec, dict) or not isinstance(spec.get("fields"), dict):
        return None
    if name in TRIGGER_EVENTS:  # (the schema asks for a Chinese name; this says why, should that change)
        sink.err(path, key_pos_of(where, name), "E113", f"event '{name}' is a built-in event")
        return None
    fields: list[tuple[str, str]] = []
    ok = True
    for fname, ftype in spec["fields"].items():
        fname = str(fname)
        if not fname.isidentifier() or not fname.isascii() or fname in _TAKEN:
            why = "a name of the language" if fname in _TAKEN else "not a name code can read"
            sink.err(
                path,
                key_pos_of(spec["fields"], fname),
                "E113",
                f"event '{name}': field {brief(fname)} is {why}",
                "a field is read as a variable in the skills that react to the event: a lowercase English word "
                "other than " + ", ".join(sorted(CONTEXT_VARS)),
            )
            ok = False
            continue
        fields.append((fname, str(ftype)))
    types = dict(fields)
    players = [f for f, t in fields if t == "player"]
    subject = spec.get("subject", players[0] if players else None)
    if subject is not None and types.get(subject) != "player":
        sink.err(
            path,
            pos_of(spec, "subject"),
            "E113",
            f"event '{name}': subject {brief(subject)} is not a player field",
            did_you_mean(str(subject), players) or ("player fields: " + ", ".join(players) if players else None),
        )
        ok = False
    replaceable = spec.get("replaceable") or []
    for i, fname in enumerate(replaceable):
        if fname not in types:
            sink.err(
                path,
                pos_of(replaceable, i),
                "E113",
                f"event '{name}': replaceable {brief(fname)} is not one of its fields",
                did_you_mean(str(fname), types) or "fields: " + ", ".join(types),
            )
            ok = False
    if not ok:
        return None
    return EventDecl(
        name, tuple(fields), subject, tuple(replaceable), str(spec.get("zh", "")), str(spec.get("doc", ""))
    )


def check_zone_cards(sink: Diagnostics, path: Path | None, data: Any, declared: Declared, card_types: dict) -> None:
    """E121: a zone's `start:` selects a card kind the content does not have."""
    if path is None or not isinstance(data, PosDict):
        return
    for name, z in declared.zones.items():
        kinds: Any = dict(z.start or ()).get("card") or ()  # a tuple of kind ids (_zone)
        for kind in kinds:
            if kind not in card_types:
                start = data["zones"][name]["start"]
                sink.err(
                    path,
                    pos_of(start, "card"),
                    "E121",
                    f"zone '{name}' starts with the copies of card '{brief(kind)}', which is not a card kind",
                    did_you_mean(str(kind), card_types),
                )


def check_counter_roles(sink: Diagnostics, path: Path | None, data: Any, declared: Declared, roles: dict) -> None:
    """E121: a counter's `roles:` names a role the content does not have."""
    if path is None or not isinstance(data, PosDict):
        return
    for name, c in declared.counters.items():
        spec = data["counters"][name]
        for rid in c.by_role:
            if rid not in roles:
                sink.err(
                    path,
                    key_pos_of(spec["roles"], rid),
                    "E121",
                    f"counter '{name}' names role '{rid}', which the content does not have",
                    did_you_mean(rid, roles),
                )
