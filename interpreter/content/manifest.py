"""What a pack's manifest (pack.yaml) changes of the packs it extends, as operations on loaded data.

The loader (loader.py: load_content) reads every pack's files and its pack.yaml, then applies, in
layering order, what each manifest says: its rule numbers merged into the rules of what it
extends (``merge_rules``), definitions it removes or replaces, deck copies it adds or removes.
This module does those operations on plain data and returns what it finds wrong as ``Finding``s,
which the loader reports; it knows nothing of files or of the loader.

Values merged from a pack.yaml keep their position *and their file* (``FilePos``), so an error
found later in a merged rule (an identity table that does not add up) points into the pack.yaml
that wrote it, not into the rules.yaml it was merged into.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..suggest import did_you_mean
from .yamlpos import Pos, PosDict, PosList, pos_of

KINDS = ("cards", "roles", "secret_tasks")  # the definition folders, as `remove:` and `replace:` name them
KIND_WORD = {"cards": "card", "roles": "role", "secret_tasks": "secret task"}
# the kind of each content file (schema_stage, Units.owner) -> the folder it lives in, as `remove:` names it
KIND_FOLDERS = {"card": "cards", "role": "roles", "secret_task": "secret_tasks"}
FOLDER_KINDS = {folder: kind for kind, folder in KIND_FOLDERS.items()}  # ... and back (loader.kind_of_file)


class FilePos(Pos):
    """A position in another file than the one being loaded: a value merged in from a pack.yaml."""

    __slots__ = ("path",)

    def __init__(self, pos: Pos, path: Path):
        super().__init__(pos.line, pos.col, pos.style, pos.indent)
        self.path = path


@dataclass
class Finding:
    """A problem in a manifest, for the loader to report."""

    path: Path
    pos: Pos | None
    code: str
    message: str
    hint: str | None = None


@dataclass
class Manifest:
    """A pack's pack.yaml as read (schema-checked), with the place of its pack in the layering."""

    layer: int  # index of the pack among the loaded folders
    folder: Path
    path: Path
    data: PosDict

    @property
    def id(self) -> str:
        v = self.data.get("id")
        return v if isinstance(v, str) else self.folder.name

    def ids(self, key: str, kind: str) -> list[tuple[str, Pos | None]]:
        """The ids `remove:` or `replace:` lists for one kind, with their positions."""
        section = self.data.get(key)
        items = section.get(kind) if isinstance(section, dict) else None
        if not isinstance(items, list):
            return []
        return [(v, pos_of(items, i)) for i, v in enumerate(items) if isinstance(v, str)]


def mark_file(value: Any, path: Path) -> Any:
    """Re-mark every position inside `value` (a fragment read from `path`) as a FilePos of that file."""
    if isinstance(value, PosDict):
        value.pos = FilePos(value.pos, path) if value.pos is not None else None
        value.key_pos = {k: FilePos(p, path) for k, p in value.key_pos.items()}
        value.val_pos = {k: FilePos(p, path) for k, p in value.val_pos.items()}
        for v in value.values():
            mark_file(v, path)
    elif isinstance(value, PosList):
        value.pos = FilePos(value.pos, path) if value.pos is not None else None
        value.item_pos = [FilePos(p, path) for p in value.item_pos]
        for v in value:
            mark_file(v, path)
    return value


def merge_rules(rules: PosDict, fragment: PosDict, path: Path, pack: str) -> list[str]:
    """Merge a manifest's `rules:` into the rules data, key by key; returns the changes in words.

    A mapping merges into a mapping; anything else replaces the value; null takes the key out
    (an identity-table row, a rule number going back to its default).
    """
    mark_file(fragment, path)
    changes: list[str] = []
    _merge(rules, fragment, "", changes, pack)
    return changes


def _merge(into: PosDict, frag: PosDict, prefix: str, changes: list[str], pack: str) -> None:
    for key, value in frag.items():
        name = f"{prefix}{key}"
        if value is None:
            if key in into:
                del into[key]
                changes.append(f"{pack}: rules {name} removed")
            continue
        if isinstance(value, PosDict) and isinstance(into.get(key), PosDict):
            _merge(into[key], value, name + ".", changes, pack)
            if key in frag.val_pos:  # what is wrong with the merged mapping now is the pack's doing
                into.val_pos[key] = frag.val_pos[key]
            continue
        had = key in into
        old = into.get(key, "(unset)")
        into[key] = value
        if isinstance(into, PosDict):
            into.val_pos[key] = frag.val_pos.get(key) or into.val_pos.get(key)  # type: ignore[assignment]
            into.key_pos[key] = frag.key_pos.get(key) or into.key_pos.get(key)  # type: ignore[assignment]
        if not isinstance(value, dict | list):
            changes.append(f"{pack}: rules {name} {_plain(old)} → {_plain(value)}")
        else:  # (a table or list where the rules had none is added: "replaced" read as something taken away)
            changes.append(f"{pack}: rules {name} {'replaced' if had else 'added'}")


def _plain(v: Any) -> str:
    return v if isinstance(v, str) else repr(v)


def without_nulls(value: Any) -> Any:
    """A copy of a fragment without its null values (a null is a removal, not a value to check)."""
    if isinstance(value, dict):
        out = PosDict({k: without_nulls(v) for k, v in value.items() if v is not None})
        out.pos = getattr(value, "pos", None)  # type: ignore[assignment]
        out.key_pos = dict(getattr(value, "key_pos", {}))
        out.val_pos = dict(getattr(value, "val_pos", {}))
        return out
    return value


def rules_fragment_schema(rules_schema: dict) -> dict:
    """The schema of a manifest's `rules:`: the rules file's keys, none of them required, at any depth: a fragment
    merges key by key, so `identities: {qian_fu_zhan_xian: {victory: [...]}}` changes one key of an identity the
    base game names (it was E112 "missing key 'name'"). What the merged rules lack is checked once merged
    (schema_stage.check_required)."""
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": _not_required(rules_schema.get("properties", {})),
    }


def _not_required(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _not_required(v) for k, v in node.items() if k != "required"}
    if isinstance(node, list):
        return [_not_required(v) for v in node]
    return node


def check_refs(
    manifest: Manifest, kind: str, defined: dict[str, int], key: str, absent: frozenset[str] = frozenset()
) -> tuple[list[str], list[Finding]]:
    """The ids `remove:`/`replace:` of a manifest lists that an earlier pack defines, and a Finding for each other.

    `defined`: id -> the layer of the pack that defines it. `absent`: ids of the rule set's expansions
    that are not being played (``--expansions``): removing one of those is no mistake, just nothing to do.
    """
    ok, found = [], []
    earlier = [i for i, layer in defined.items() if layer < manifest.layer]
    for ident, pos in manifest.ids(key, kind):
        if defined.get(ident, manifest.layer) < manifest.layer:
            ok.append(ident)
            continue
        if key == "remove" and ident in absent:
            continue
        verb = "removes" if key == "remove" else "replaces"
        found.append(
            Finding(
                manifest.path,
                pos,
                "E121",
                f"pack '{manifest.id}' {verb} {KIND_WORD[kind]} '{ident}', which no pack it extends defines",
                did_you_mean(ident, [*earlier, *absent] if key == "remove" else earlier),
            )
        )
    return ok, found
