"""The build stage for rules.yaml and deck.yaml: the rule numbers, the identities and their victories, the
turn's phases (their order checked), the deck's copies and the named decks."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..catalogue import ARROWS, LOCK_RULES, PHASE_KINDS, RESOLUTIONS, SPEEDS, TARGET_RULES
from ..model.colors import COLOR_BITS
from ..model.content import (
    MAX_SEATS,
    MIN_PLAYERS,
    TIMINGS,
    Camp,
    CardType,
    DeckEntry,
    Identity,
    Phase,
    Rules,
    base_phases,
    phases_of,
)
from ..snippet import brief, clip
from ..suggest import did_you_mean
from .build_cards import build_victories
from .build_roles import build_rule_skills
from .units import Units
from .yamlpos import PosDict, key_pos_of, pos_of


def build_rules(u: Units, path: Path, data: Any) -> tuple[Rules, dict]:
    identities = {}
    for iid, spec in (data.get("identities") or {}).items():
        if not isinstance(spec, dict) or spec.get("color") not in COLOR_BITS:
            continue
        identities[iid] = Identity(
            iid,
            spec.get("name", iid),
            COLOR_BITS[spec["color"]],
            spec.get("camp"),
            bool(spec.get("takes_task", False)),
            build_victories(u, path, spec, "victory"),
        )
    camps = _camps(u, path, data)
    table = _identity_table(u, path, data, identities)
    decks = _decks(data)
    phases = build_turn(u, path, data)
    resolution = data.get("resolution", "queued")
    rules = Rules(
        phases=phases,
        resolution=resolution if resolution in RESOLUTIONS else "queued",
        speeds={k: v for k, v in (data.get("speeds") or {}).items() if k in TIMINGS and v in SPEEDS},
        name=data.get("name", ""),
        start_hand=data.get("start_hand", 3),
        draw_count=data.get("draw_count", 3),
        max_turns=data.get("max_turns", 300),
        identity_table=table,
        decks=decks,
        give_on_death=data.get("give_on_death", 3),
        collect_count=data.get("collect_count", 3),
        death_count=data.get("death_count", 3),
        camps=camps,
        skills=build_rule_skills(u, path, data),
        **_switches(u, path, data, phases),
    )
    return rules, identities


def _decks(data: Any) -> list[tuple[int, int, str]]:
    """The rules' `decks:` as (fewest, most players, deck name); an entry that breaks the schema is reported by the
    schema stage and left out here."""
    return [
        (d["players"][0], d["players"][1], d["deck"])
        for d in data.get("decks") or []
        if isinstance(d, dict) and isinstance(d.get("players"), list) and len(d["players"]) == 2 and "deck" in d
    ]


def most_players(data: Any) -> int | None:
    """The largest table the rules (rules.yaml's data, merged, not yet built) play, as Rules.player_counts() will
    say: a row of the identity table and a deck for it. What the compiler counts a loop over players as (W501),
    needed before build_rules runs: the cards' and roles' code is compiled first (the rules' own code names their
    cards). Reports nothing (build_rules reports what is wrong); None if the rules play no count."""
    rows = {}
    for n, row in (data.get("identity_table") or {}).items():
        with contextlib.suppress(TypeError, ValueError):
            if int(n) >= MIN_PLAYERS and isinstance(row, dict):
                rows[int(n)] = row
    counts = Rules("", 0, 0, 0, rows, _decks(data)).player_counts()
    return counts[-1] if counts else None


def _camps(u: Units, path: Path, data: Any) -> dict[str, Camp]:
    """The camps the rules declare (`camps:`, optional). An identity's `camp:` that is not declared but close to
    a declared id is a slip (E121, did you mean); one unlike any is a camp of its own, undeclared, as before
    `camps:` existed (a fork of the base game that names a new camp without declaring it still loads)."""
    camps: dict[str, Camp] = {}
    for cid, spec in (data.get("camps") or {}).items():
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):  # (else the schema's error)
            collects = spec.get("collects")
            camps[str(cid)] = Camp(
                str(cid),
                spec["name"],
                spec.get("description") or "",
                collects if collects in COLOR_BITS else None,
            )
    if not camps:
        return camps
    for iid, spec in (data.get("identities") or {}).items():
        camp = spec.get("camp") if isinstance(spec, dict) else None
        hint = did_you_mean(camp, camps) if isinstance(camp, str) and camp not in camps else None
        if hint is not None and isinstance(camp, str):
            u.sink.err(
                path,
                pos_of(spec, "camp"),
                "E121",
                f"the identity {iid} names the camp '{clip(camp)}', which the rules' `camps:` do not declare",
                hint + " (a camp of its own: declare it in `camps:`)",
            )
    return camps


def _switches(u: Units, path: Path, data: Any, phases: tuple[Phase, ...]) -> dict[str, Any]:
    """The house-rule switches (hand_limit, first_turn, send_arrows, lockable); a value of the wrong shape is
    the schema's error, and its rule keeps the base game's value."""
    out: dict[str, Any] = {}
    limit = data.get("hand_limit")
    if isinstance(limit, int) and not isinstance(limit, bool):
        out["hand_limit"] = limit
    arrows = data.get("send_arrows")
    if isinstance(arrows, list) and arrows and all(a in ARROWS for a in arrows):
        out["send_arrows"] = tuple(a for a in ARROWS if a in arrows)
    if data.get("lockable") in LOCK_RULES:
        out["lockable"] = data["lockable"]
    if data.get("card_targets") in TARGET_RULES:
        out["card_targets"] = data["card_targets"]
    first = data.get("first_turn")
    skip = first.get("skip") if isinstance(first, dict) else None
    if isinstance(skip, list):
        ids = [ph.id for ph in phases]
        for i, name in enumerate(skip):
            if isinstance(name, str) and name not in ids:
                u.sink.err(
                    path,
                    pos_of(skip, i),
                    "E121",
                    f"first_turn skips phase '{clip(name)}', which the turn does not have",
                    did_you_mean(name, ids) or "the turn's phases: " + ", ".join(ids),
                )
        out["first_turn_skip"] = tuple(x for x in skip if isinstance(x, str) and x in ids)
    return out


def apply_target_rule(card_types: dict[str, CardType], rule: str) -> dict[str, CardType]:
    """The card kinds as the rules' `card_targets:` makes them: `others` takes the user out of every use's
    target rule (new objects: a card kind built once may serve other loads), so the engine offers, asks and
    checks what the rule allows wherever it reads a target rule, at no cost to a game under `any`."""
    if rule == "any":
        return card_types
    out = {}
    for cid, ct in card_types.items():
        new = {id(u): replace(u, target=_not_the_user(u.target)) if u.target is not None else u for u in ct.uses}
        by_timing = {t: [new[id(u)] for u in us] for t, us in ct.uses_by_timing.items()}
        out[cid] = replace(ct, uses=[new[id(u)] for u in ct.uses], uses_by_timing=by_timing)
    return out


def _not_the_user(target: Callable) -> Callable:
    def others(ctx: Any) -> list:
        return [p for p in target(ctx) if p is not ctx.me]

    return others


def apply_lock_rule(deck: list[DeckEntry], rule: str) -> list[DeckEntry]:
    """The copies as the rules' `lockable:` makes them: `all` or `none` overrides each copy's printed lock,
    so that every view of a card (observations, the tables, `pack diff`) shows the lock that applies."""
    if rule == "printed":
        return deck
    return [replace(e, lockable=rule == "all") for e in deck]


def _identity_table(u: Units, path: Path, data: Any, identities: dict) -> dict[int, dict]:
    """The identities dealt for each player count, checked against the identities and the count.

    A row for fewer than MIN_PLAYERS is an error (E113: no game can be dealt it). A row for more than MAX_SEATS is
    a warning (W129), not an error: the content is the one source of the counts it plays, and the step API and the
    RL adapters play it; only the doors that read files or serve people keep to MAX_SEATS (model/content.py)."""
    table = {}
    for n, row in (data.get("identity_table") or {}).items():
        try:
            count = int(n)
        except (TypeError, ValueError):
            u.sink.err(path, key_pos_of(data["identity_table"], n), "E113", f"{brief(n)} is not a player count")
            continue
        if count < MIN_PLAYERS:
            u.sink.err(
                path,
                key_pos_of(data["identity_table"], n),
                "E113",
                f"{count} is not a player count: a game has at least {MIN_PLAYERS} players",
            )
            continue
        if count > MAX_SEATS:
            u.sink.warn(
                path,
                key_pos_of(data["identity_table"], n),
                "W129",
                f"a table of {count} players is more than the {MAX_SEATS} seats that simulate, balance, play (and "
                f"its saves), serve, replay (and the log reader) and scenarios take: only the step API (GameState) "
                f"and the RL adapters play it",
                f'seat at most {MAX_SEATS}, or play it through the step API (docs/modding.md, "Player counts")',
            )
        for iid in row:
            if iid not in identities:
                u.sink.err(
                    path, key_pos_of(row, iid), "E121", f"unknown identity '{iid}'", did_you_mean(iid, identities)
                )
        if sum(row.values()) != count:
            u.sink.err(
                path,
                pos_of(data["identity_table"], n),
                "E122",
                f"the identities for {count} players add up to {sum(row.values())}",
            )
        table[count] = {k: v for k, v in row.items() if k in identities}
    return table


def build_turn(u: Units, path: Path, data: Any) -> tuple[Phase, ...]:
    """The rules' `turn:` as phases (the base game's when absent), its order checked (E125).

    An unknown kind is the schema's error (with did-you-mean); the turn is then the base game's.
    """
    items = data.get("turn")
    if not isinstance(items, list):
        return base_phases()
    specs = [_phase_spec(u, path, items, i) for i in range(len(items))]
    if any(spec is None for spec in specs):
        return base_phases()
    phases = phases_of([s for s in specs if s is not None])
    kinds = [ph.kind for ph in phases]
    _check_ids(u, path, items, phases)
    if not any(PHASE_KINDS[k].required for k in kinds):
        need = [n for n, k in PHASE_KINDS.items() if k.required]
        u.sink.err(
            path,
            pos_of(data, "turn"),
            "E125",
            f"the turn has no {' or '.join(repr(n) for n in need)} phase: every turn sends an intel",
            f"add {need[0]!r} ({PHASE_KINDS[need[0]].zh}) to `turn:`",
        )
    _check_spans(u, path, items, kinds, phases)
    return phases


def _phase_spec(u: Units, path: Path, items: list, i: int) -> tuple[str, str | None, tuple] | None:
    """One item of `turn:`: a kind's name, or {kind, id, settings}: (kind, id or None, settings). None: its
    shape is wrong (the schema's error). A setting its kind does not take is E111, one out of range E113."""
    item = items[i]
    if isinstance(item, str):
        return (item, None, ()) if item in PHASE_KINDS else None
    if not isinstance(item, dict) or item.get("kind") not in PHASE_KINDS:
        return None
    kind = PHASE_KINDS[item["kind"]]
    ident = item.get("id")
    settings = []
    for key, value in item.items():
        if key in ("kind", "id"):
            continue
        names = [s.name for s in kind.settings]
        if key not in names:
            u.sink.err(
                path,
                key_pos_of(item, key),
                "E111",
                f"phase kind '{kind.name}' ({kind.zh}) takes no setting '{clip(str(key))}'",
                did_you_mean(str(key), names) or (f"its settings: {', '.join(names)}" if names else "it takes none"),
            )
            continue
        setting = kind.setting(key)
        if isinstance(value, bool) or not isinstance(value, int) or not setting.minimum <= value <= setting.maximum:
            u.sink.err(
                path,
                pos_of(item, key),
                "E113",
                f"setting '{key}' of a {kind.name} phase should be a whole number from {setting.minimum} to "
                f"{setting.maximum}, got {brief(value)}",
            )
            continue
        settings.append((key, value))
    return kind.name, ident if isinstance(ident, str) else None, tuple(settings)


def _check_ids(u: Units, path: Path, items: list, phases: tuple[Phase, ...]) -> None:
    """E120: two phases of the turn with one id (an `id:` given that another phase has)."""
    seen: set[str] = set()
    for i, ph in enumerate(phases):
        if ph.id in seen:
            u.sink.err(
                path,
                pos_of(items[i], "id") if isinstance(items[i], dict) and "id" in items[i] else pos_of(items, i),
                "E120",
                f"the turn has two phases named '{ph.id}'",
                "give one an `id:` of its own",
            )
        seen.add(ph.id)


def _check_spans(u: Units, path: Path, items: list, kinds: list, phases: tuple[Phase, ...]) -> None:
    """E125: a phase that works on the intel a send phase sent comes after one, before the next, each once."""
    opened: dict[str, int] = {}  # kind -> index of the phase that opened the span (a send)
    done: dict[str, set[str]] = {}  # opening kind -> kinds already seen in its span
    for i, kind in enumerate(kinds):
        k = PHASE_KINDS[kind]
        at = pos_of(items, i)
        if k.after is None:
            if any(PHASE_KINDS[o].after == kind for o in PHASE_KINDS):  # a phase others work on
                prev = opened.get(kind)
                if prev is not None and "receive" not in done[kind]:
                    _never_received(u, path, items, phases, prev)
                opened[kind], done[kind] = i, set()
            continue
        zh, name = k.zh, phases[i].id
        if k.after not in opened:
            u.sink.err(
                path,
                at,
                "E125",
                f"phase '{name}' ({zh}) needs a '{k.after}' phase before it: it works on the intel that phase sent",
                f"move it after a '{k.after}' phase",
            )
            continue
        seen = done[k.after]
        if kind in seen:
            u.sink.err(
                path,
                at,
                "E125",
                f"phase '{name}' ({zh}) comes twice after the same '{k.after}' phase",
                f"a second one needs a '{k.after}' phase of its own before it"
                + (" (for a second round of 争夺, give the contest phase `rounds: 2`)" if kind == "contest" else ""),
            )
        elif kind == "contest" and "receive" in seen:
            u.sink.err(
                path,
                at,
                "E125",
                f"phase '{name}' ({zh}) comes after the intel was received: nothing is left to contest",
                "put the contest phase before the receive phase",
            )
        seen.add(kind)
    for kind, i in opened.items():
        if "receive" not in done[kind]:
            _never_received(u, path, items, phases, i)


def _never_received(u: Units, path: Path, items: list, phases: tuple[Phase, ...], i: int) -> None:
    u.sink.err(
        path,
        pos_of(items, i),
        "E125",
        f"the intel that phase '{phases[i].kind}' (传递阶段) sends is never received",
        "add a 'receive' phase after it (before any other 'send' phase)",
    )


def build_deck(
    u: Units, path: Path, data: Any, card_types: dict, skip_kinds: Any = frozenset(), taken: Any = frozenset()
) -> tuple[list[DeckEntry], dict[str, list[int]]]:
    """The deck's copies and named decks. Copies of `skip_kinds` (card kinds a pack removed) are left out;
    an id in `taken` (copies already in the deck this adds to: deck id -> its card's name) is used twice."""
    entries: list[DeckEntry] = []
    seen: dict = {}  # deck id -> where it is written
    skipped: set = set()  # the copies of removed card kinds: a deck may still name them
    for i, c in enumerate(data.get("cards") or []):
        if not isinstance(c, PosDict) or "id" not in c or "card" not in c:
            continue
        pos = pos_of(data["cards"], i)
        if c["id"] in seen or c["id"] in taken:
            # say where the other copy is: the deck it adds to (a newcomer wrote the id once) or a line of this file
            first = seen.get(c["id"])
            where = (
                f"the deck already has it: a copy of {taken[c['id']]}"
                if c["id"] in taken and isinstance(taken, dict)
                else f"also at line {first.line}"
                if first is not None
                else "also above"
            )
            written = [x.get("id") for x in data["cards"] if isinstance(x, dict)]
            ids = [k for k in [*taken, *written] if isinstance(k, int) and not isinstance(k, bool)]
            hint = f"each copy has an id of its own: {max(ids) + 1} and up are free" if ids else None
            u.sink.err(path, pos, "E120", f"card id {c['id']} is used twice ({where})", hint)
            continue
        if c["card"] in skip_kinds:
            skipped.add(c["id"])
            continue
        seen[c["id"]] = pos
        entry = _copy(u, path, c, pos, card_types)
        if entry is not None:
            entries.append(entry)
    return entries, _named_decks(u, path, data, [e.uid for e in entries], seen, skipped)


def _copy(u: Units, path: Path, c: PosDict, pos: Any, card_types: dict) -> DeckEntry | None:
    """One copy of the deck: its card kind, colors, direction and per-copy data; None if its kind is unknown."""
    ctype = card_types.get(c["card"])
    if ctype is None:
        # a card file of that name with an error of its own: the kind is unknown because its file did not load,
        # and a list of the other kinds would say the copy names a card that does not exist
        failed = next(
            (e.path for e in u.sink.errors if Path(e.path).stem == c["card"] and Path(e.path).parent.name == "cards"),
            None,
        )
        u.sink.err(
            path,
            pos_of(c, "card"),
            "E121",
            f"unknown card type '{c['card']}'",
            f"its file {failed} did not load: fix the error reported there first"
            if failed is not None
            else did_you_mean(c["card"], card_types) or "card types: " + ", ".join(sorted(card_types)),
        )
        return None
    mask = 0
    for col in c.get("colors") or []:
        mask |= COLOR_BITS.get(col, 0)
    copy_data = {}
    given = c.get("data") or {}
    for key, typ in ctype.data_keys.items():
        if key not in given:
            u.sink.err(
                path,
                pos_of(c, "data") or pos,
                "E112",
                f"card {c['id']} ({ctype.name}) needs data '{key}' ({typ})",
            )
            continue
        copy_data[COLOR_BITS.get(key, key)] = _data_value(u, path, c["data"], key, typ)
    for key in given:
        if key not in ctype.data_keys:
            u.sink.err(
                path,
                key_pos_of(given, key),
                "E111",
                f"{ctype.name} has no per-copy data '{key}'",
                did_you_mean(key, ctype.data_keys),
            )
    return DeckEntry(c["id"], c["card"], mask, c.get("direction", "up"), bool(c.get("lockable", False)), copy_data)


def _named_decks(u: Units, path: Path, data: Any, all_ids: list, seen: dict, skipped: set) -> dict[str, list[int]]:
    """deck.yaml's named decks (`decks:`), each a list of copy ids; E121 for an id the deck does not have."""
    decks = {}
    for name, spec in (data.get("decks") or {}).items():
        inc = spec.get("include", "all")
        if inc == "all":
            ids = list(all_ids)
        elif isinstance(inc, dict):
            lo, hi = inc["range"]
            ids = [x for x in all_ids if lo <= x <= hi]
        else:
            ids = list(inc)
        exclude = set(spec.get("exclude") or [])
        for x in list(exclude) + (ids if isinstance(inc, list) else []):
            if x not in seen and x not in skipped:
                u.sink.err(
                    path,
                    pos_of(data["decks"], name),
                    "E121",
                    f"deck '{clip(str(name))}' names card id {brief(x)}, which deck.yaml does not have",
                )
        decks[name] = [x for x in ids if x not in exclude and x in seen]
    return decks


def _data_value(u: Units, path: Path, given: Any, key: str, typ: str) -> Any:
    v = given[key]
    if typ == "int" and isinstance(v, int) and not isinstance(v, bool):
        return v
    if typ == "color" and v in COLOR_BITS:
        return COLOR_BITS[v]
    if typ == "text" and isinstance(v, str):
        return v
    u.sink.err(path, pos_of(given, key), "E113", f"data '{clip(str(key))}' should be {typ}, got {brief(v)}")
    return None
