"""Edits of the turn by a pack (`rules: turn:` written as a mapping in a pack.yaml): one phase inserted, removed,
replaced or given settings by its id, without the whole `turn:` list copied (docs/modding.md, "The turn's
skeleton").

A list under `rules: turn:` still replaces the turn whole, as any list of the rules does; a mapping edits the
turn the pack extends, the way the rest of `rules:` merges key by key. The edits apply in a fixed order — `set`,
`replace`, `remove`, `insert` — each naming phases by their id in the turn as it stands at that step. Like
manifest.py, this module works on plain data and returns what it finds wrong as Findings; the items it writes keep
the pack's positions (FilePos), so the build stage's checks of the edited turn (E111, E113, E125) point into the
pack.yaml that made the edit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..catalogue import BASE_TURN, PHASE_KINDS
from ..model.content import phases_of
from ..snippet import clip
from ..suggest import did_you_mean
from .manifest import Finding
from .yamlpos import PosDict, PosList, key_pos_of, list_in_place, pos_of

EDITS = ("set", "replace", "remove", "insert")  # in the order they apply


def turn_edits_schema(fragment_schema: dict) -> dict:
    """The schema of a manifest's `rules:` (manifest.rules_fragment_schema) with `turn:` a list (the turn, whole)
    or a mapping of edits."""
    properties = dict(fragment_schema["properties"])
    if "turn" in properties:
        turn = properties["turn"]
        properties["turn"] = {**turn, "type": ["array", "object"], **edit_schema(turn["items"])}
    return {**fragment_schema, "properties": properties}


def edit_schema(item_schema: dict) -> dict:
    """The schema of a turn's edits, around the schema of one `turn:` item (a kind's name or a mapping)."""
    phase_id = {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}
    return {
        "additionalProperties": False,
        "properties": {
            "set": {
                "type": "object",
                "description": "phase id -> settings merged into that phase's",
                "additionalProperties": {"type": "object"},
            },
            "replace": {
                "type": "object",
                "description": "phase id -> the phase that takes its place",
                "additionalProperties": item_schema,
            },
            "remove": {"type": "array", "items": phase_id, "description": "the ids of the phases taken out"},
            "insert": {
                "type": "array",
                "description": "phases put in, each `after:` or `before:` a phase id",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["phase"],
                    "properties": {"after": phase_id, "before": phase_id, "phase": item_schema},
                },
            },
        },
    }


def edit_turn(rules: PosDict, edits: PosDict, path: Path, pack: str) -> tuple[list[str], list[Finding]]:
    """Apply a pack's turn edits to `rules["turn"]` (the base game's turn when the rules have none).

    Returns the changes in words and what was wrong (an id the turn does not have: E121 with the closest id; an
    insert with neither or both of after/before: E113). A wrong edit is left out; the others apply."""
    turn = list_in_place(rules, "turn", BASE_TURN)
    changes: list[str] = []
    found: list[Finding] = []
    for op in EDITS:
        value = edits.get(op)
        if value:
            apply = {"set": _set, "replace": _replace, "remove": _remove, "insert": _insert}[op]
            apply(turn, value, path, pack, changes, found)
    rules["turn"] = turn
    return changes, found


def _ids(turn: PosList) -> list[str]:
    """The phase ids of the turn as it stands (None for an item of the wrong shape: the schema's error)."""
    specs: list[tuple[str, str | None, tuple]] = []
    for item in turn:
        if isinstance(item, str) and item in PHASE_KINDS:
            specs.append((item, None, ()))
        elif isinstance(item, dict) and item.get("kind") in PHASE_KINDS:
            ident = item.get("id")
            specs.append((item["kind"], ident if isinstance(ident, str) else None, ()))
        else:
            specs.append(("?", "?", ()))
    return [ph.id for ph in phases_of(specs)]


def _find(turn: PosList, ident: Any, where: Any, pos: Any, path: Path, pack: str, found: list[Finding]) -> int | None:
    """The index of the phase `ident` in the turn; None and a finding (E121, the closest id) if there is none."""
    ids = _ids(turn)
    if isinstance(ident, str) and ident in ids:
        return ids.index(ident)
    found.append(
        Finding(
            path,
            pos,
            "E121",
            f"pack '{pack}' {where} phase '{clip(str(ident))}', which the turn does not have",
            did_you_mean(str(ident), ids) or "the turn's phases: " + ", ".join(ids),
        )
    )
    return None


def _set(turn: PosList, value: Any, path: Path, pack: str, changes: list[str], found: list[Finding]) -> None:
    for ident, settings in value.items():
        i = _find(turn, ident, "sets", key_pos_of(value, ident), path, pack, found)
        if i is None or not isinstance(settings, PosDict):
            continue
        item = turn[i]
        merged = PosDict({"kind": item} if isinstance(item, str) else dict(item))
        merged.pos = turn.item_pos[i]
        merged.key_pos = dict(getattr(item, "key_pos", {}))
        merged.val_pos = dict(getattr(item, "val_pos", {})) or {"kind": turn.item_pos[i]}
        for key, v in settings.items():
            merged[key] = v
            merged.key_pos[key], merged.val_pos[key] = settings.key_pos[key], settings.val_pos[key]
        turn[i] = merged
        changes.append(f"{pack}: rules turn {ident}: " + ", ".join(f"{k} {v}" for k, v in settings.items()))


def _replace(turn: PosList, value: Any, path: Path, pack: str, changes: list[str], found: list[Finding]) -> None:
    for ident, item in value.items():
        i = _find(turn, ident, "replaces", key_pos_of(value, ident), path, pack, found)
        if i is not None:
            turn[i], turn.item_pos[i] = item, value.val_pos[ident]
            changes.append(f"{pack}: rules turn {ident} replaced")


def _remove(turn: PosList, value: Any, path: Path, pack: str, changes: list[str], found: list[Finding]) -> None:
    for n, ident in enumerate(value):
        i = _find(turn, ident, "removes", pos_of(value, n), path, pack, found)
        if i is not None:
            del turn[i], turn.item_pos[i]
            changes.append(f"{pack}: rules turn {ident} removed")


def _insert(turn: PosList, value: Any, path: Path, pack: str, changes: list[str], found: list[Finding]) -> None:
    for n, edit in enumerate(value):
        if not isinstance(edit, PosDict):
            continue
        given = [k for k in ("after", "before") if k in edit]
        if len(given) != 1:
            found.append(
                Finding(
                    path,
                    pos_of(value, n),
                    "E113",
                    f"an insert of pack '{pack}' into the turn needs "
                    + ("after: or before:" if not given else "one of after: and before:, not both"),
                    "write `after: <phase id>` or `before: <phase id>`",
                )
            )
            continue
        where = given[0]
        i = _find(turn, edit[where], f"inserts {where}", pos_of(edit, where), path, pack, found)
        if i is None:
            continue
        at = i + 1 if where == "after" else i
        turn.insert(at, edit["phase"])
        turn.item_pos.insert(at, pos_of(edit, "phase"))  # type: ignore[arg-type]
        kind = edit["phase"] if isinstance(edit["phase"], str) else edit["phase"].get("kind")
        changes.append(f"{pack}: rules turn {kind} inserted {where} {edit[where]}")
