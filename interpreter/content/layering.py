"""The layering of a load: which pack each folder is, and what each pack's manifest (pack.yaml) asks of the
packs before it: one definition per id (a later pack replaces an earlier one's where its manifest says so),
removals, rule numbers merged key by key, deck copies added or removed, and where each definition came from.

Each manifest is read by the read stage; what it asks is checked by manifest.py, which knows nothing of files
or of the sink; its findings, and those of the layering itself, are reported here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from ..model.colors import COLOR_BITS
from ..model.content import DeckEntry, Origin, PackInfo
from ..snippet import clip
from ..suggest import did_you_mean
from .build_rules import build_deck
from .diagnostics import Diagnostics
from .manifest import KIND_WORD, Finding, Manifest, check_refs, mark_file, merge_rules, without_nulls
from .packs import MANIFEST, MAX_EXTENDS_DEPTH, bundled_packs, expansions_of, extends_depth, pack_ref
from .read import read
from .schema_stage import check_schema
from .skill_edits import edit_skills
from .turn_edits import edit_turn
from .units import Units
from .yamlpos import Pos, PosDict, key_pos_of, pos_of

# a pack's edits of a part of the rules (turn_edits.edit_turn, skill_edits.edit_skills): (the merged rules, the
# edits, the pack's file, its id) -> the changes in words and what was wrong
Edit = Callable[[PosDict, PosDict, Path, str], tuple[list[str], list[Finding]]]


class Layers:
    """The loaded folders and their manifests: which pack each layer is, and what each manifest asks."""

    def __init__(self, sink: Diagnostics, dirs: list[Path]):
        self.sink, self.dirs = sink, dirs
        self.manifests: dict[int, Manifest] = {}
        for layer, d in enumerate(dirs):
            path = d / MANIFEST
            if path.is_file():
                data = read(sink, path, "pack")
                if data is not None:
                    self.manifests[layer] = Manifest(layer, d, path, data)
        self.ids = [self.manifests[i].id if i in self.manifests else d.name for i, d in enumerate(dirs)]
        self.changes: list[str] = []
        self.removed: dict[str, set[str]] = {kind: set() for kind in KIND_WORD}
        self.removed_by: dict[str, str] = {}  # a removed card kind's id -> the pack that removed it
        self.removed_at: dict[str, int] = {}  # ... and that pack's layer (what it may remove lies below it)
        self._depth_checked: bool | None = None  # _too_deep's answer, once asked
        self._check_extends()

    def _check_extends(self) -> None:
        here = [d.resolve() for d in self.dirs]
        for m in self.manifests.values():
            listed = m.data.get("expansions") or []
            have = expansions_of(m.folder)
            for i, name in enumerate(listed):
                # a listed expansion that is not there is skipped (a copy of the rule set without it), unless
                # its name is close to one that is: a typo
                hint = did_you_mean(name, have) if isinstance(name, str) and name not in have else None
                if hint:
                    self.sink.report(
                        Finding(
                            m.path,
                            pos_of(listed, i),
                            "E121",
                            f"pack '{m.id}' lists the expansion '{name}', which is not a folder in its expansions/",
                            hint,
                        )
                    )
            refs = m.data.get("extends") or []
            for i, ref in enumerate(refs):
                target = pack_ref(ref, m.folder)
                if target is None:
                    self.sink.report(
                        Finding(
                            m.path,
                            pos_of(refs, i),
                            "E121",
                            f"pack '{m.id}' extends '{ref}', which is neither a bundled pack nor a folder (a folder is "
                            "named relative to the pack's own folder)",
                            _extends_hint(ref, m.folder),
                        )
                    )
                elif target.resolve() not in here[: m.layer]:
                    if self._too_deep():
                        continue
                    if target.resolve() not in here:  # (load_cached of a fork alone: not a cycle)
                        self.sink.report(
                            Finding(
                                m.path,
                                pos_of(refs, i),
                                "E124",
                                f"pack '{m.id}' extends '{ref}', which is not among the folders loaded",
                                "give the folders it extends before it, or load it with load_packs "
                                "(interpreter.content.loader), which lays it over them as --content does",
                            )
                        )
                        continue
                    self.sink.report(
                        Finding(
                            m.path,
                            pos_of(refs, i),
                            "E124",
                            f"pack '{m.id}' extends '{ref}', which is loaded after it: the packs extend each other",
                            "a pack cannot extend one that extends it",
                        )
                    )

    def _too_deep(self) -> bool:
        """Whether the packs stand on an `extends:` chain deeper than the limit (reported once, at the top pack's
        `extends:`): resolve_packs stopped the chain there, and what it left out is not a cycle."""
        if self._depth_checked is None:
            top = max(self.manifests.values(), key=lambda m: m.layer, default=None)
            deep = top is not None and extends_depth(top.folder) > MAX_EXTENDS_DEPTH
            if deep and top is not None:
                self.sink.report(
                    Finding(
                        top.path,
                        pos_of(top.data, "extends"),
                        "E124",
                        f"pack '{top.id}' stands on a chain of more than {MAX_EXTENDS_DEPTH} packs "
                        "extending each other",
                        f"a chain of `extends:` is at most {MAX_EXTENDS_DEPTH} packs deep (docs/errors.md, Limits): "
                        "fold some of them into one pack",
                    )
                )
            self._depth_checked = deep
        return self._depth_checked

    def origin(self, layer: int, f: Path, data: PosDict) -> Origin:
        pos = pos_of(data, "id")
        return Origin(self.ids[layer], str(f), pos.line if pos is not None else 1)

    def resolve(self, folder: str, items: list[tuple[int, Path, PosDict]]) -> dict[str, tuple[int, Path, PosDict]]:
        """One definition per id: a later pack's replaces an earlier one's where allowed; removals applied."""
        word = KIND_WORD[folder]
        winners: dict[str, tuple[int, Path, PosDict]] = {}
        first: dict[str, int] = {}  # id -> the layer of its first definition
        for layer, f, data in items:
            ident = data["id"]
            first.setdefault(ident, layer)
            old = winners.get(ident)
            if old is not None:
                m = self.manifests.get(layer)
                if old[0] == layer:
                    self.sink.err(
                        f, pos_of(data, "id"), "E120", f"{word} id '{clip(ident)}' is used twice (also {old[1]})"
                    )
                    continue
                if m is not None and ident not in dict(m.ids("replace", folder)):
                    self.sink.err(
                        f,
                        pos_of(data, "id"),
                        "E120",
                        f"{word} '{clip(ident)}' is already defined by pack '{self.ids[old[0]]}' ({old[1]})",
                        f"to replace it, list it in {m.path.name}: replace: {folder}: [{ident}]",
                    )
                    continue
                self.changes.append(f"{self.ids[layer]}: {word} {ident} replaced")
            elif layer > 0:
                self.changes.append(f"{self.ids[layer]}: {word} {ident} added")
            winners[ident] = (layer, f, data)
        # read only when a manifest removes something of this kind (it reads every file of the expansions left out)
        removes = any(m.ids("remove", folder) for m in self.manifests.values())
        absent = self.absent_ids(folder) if removes else frozenset()
        for m in self.manifests.values():
            defined = {i: layer for i, layer in first.items() if i in winners}
            _, found = check_refs(m, folder, defined, "replace")
            for problem in found:
                self.sink.report(problem)
            removed, found = check_refs(m, folder, defined, "remove", absent)
            for problem in found:
                self.sink.report(problem)
            for ident in removed:
                if winners[ident][0] < m.layer:
                    del winners[ident]
                    self.removed[folder].add(ident)
                    self.removed_by[ident] = m.id
                    self.removed_at[ident] = m.layer
                    self.changes.append(f"{m.id}: {word} {ident} removed")
        return winners

    def absent_ids(self, folder: str) -> frozenset[str]:
        """The ids a kind folder of the rule set's expansions defines, of the expansions not loaded."""
        loaded = {d.resolve() for d in self.dirs}
        ids = set()
        for exp in expansions_of(self.dirs[0]).values():
            if exp.resolve() not in loaded and (exp / folder).is_dir():
                for f in (exp / folder).glob("*.y*ml"):
                    m = re.search(
                        r"^id:\s*([a-z][a-z0-9_]*)\s*$", f.read_text(encoding="utf-8", errors="replace"), re.M
                    )
                    if m:
                        ids.add(m[1])
        return frozenset(ids)

    def merge_rules(self, rules_layer: int, data: PosDict, rules_schema: dict) -> None:
        setters: dict[tuple[str, ...], Manifest] = {}  # a rule's key path -> the pack that last set it
        for m in sorted(self.manifests.values(), key=lambda m: m.layer):
            fragment = m.data.get("rules")
            if m.layer < rules_layer or not isinstance(fragment, PosDict):
                continue
            self._warn_replaced(m, data, fragment, setters)
            check = PosDict(rules=without_nulls(fragment))
            check.pos, check.key_pos, check.val_pos = m.data.pos, m.data.key_pos, m.data.val_pos
            before = len(self.sink.errors)
            check_schema(self.sink, m.path, check, "pack", {"type": "object", "properties": {"rules": rules_schema}})
            if len(self.sink.errors) != before:  # the mistakes are told; the keys right on their own still merge
                # (so a misspelt rule does not undeclare a counter; a declaration left out is named for the code
                # that names it: Units._report)
                fragment = _right_keys(fragment, rules_schema, self.sink.wrong_declarations, m.path)
            fragment = self._edit(data, fragment, "turn", m, edit_turn)
            fragment = self._edit(data, fragment, "skills", m, partial(edit_skills, dropped=self.sink.dropped))
            self.changes += merge_rules(data, fragment, m.path, m.id)

    def _warn_replaced(
        self, m: Manifest, data: PosDict, fragment: PosDict, setters: dict[tuple[str, ...], Manifest]
    ) -> None:
        """W118: `m`'s rules replace a value (a list, a number, a table row: not a mapping, which merges) that an
        earlier pack it does not extend set: that pack's change is lost without a word (the merge is by layer order).
        Records what `m` sets (an edit of `turn:` or `skills:` by id counts as setting them: a list after it drops
        the edit)."""
        extended = self._extended(m)
        lost: dict[str, list[tuple[str, PosDict, Any]]] = {}  # an earlier pack -> the rules of its that m replaces

        def walk(into: Any, frag: PosDict, path: tuple[str, ...]) -> None:
            for key, value in frag.items():
                here = (*path, str(key))
                if not path and key in ("turn", "skills") and isinstance(value, PosDict):
                    setters[here] = m  # (an edit by id builds on what is there: it loses nothing)
                    continue
                if isinstance(value, PosDict) and isinstance(into, PosDict) and isinstance(into.get(key), PosDict):
                    walk(into[key], value, here)
                    continue
                if not isinstance(into, PosDict) or into.get(key) != value:  # (the same value again loses nothing)
                    for was_path, was in setters.items():  # (set before: this rule, a part of it, a whole it is in)
                        if was is m or was.folder.resolve() in extended:
                            continue
                        if was_path[: len(here)] == here or here[: len(was_path)] == was_path:
                            lost.setdefault(was.id, []).append((".".join(here), frag, key))
                            break
                for was_path in [q for q in setters if q[: len(here)] == here]:
                    del setters[was_path]
                setters[here] = m

        walk(data, fragment, ())
        for was_id, rules in lost.items():
            name, frag, key = rules[0]
            more = f" (and {len(rules) - 1} more of its rules)" if len(rules) > 1 else ""
            self.sink.warn(
                m.path,
                pos_of(frag, key),
                "W118",
                f"pack '{m.id}' replaces the rules' {name}{more}, which pack '{was_id}' changed and '{m.id}' does not "
                f"extend: '{was_id}''s change is lost",
                f"let '{m.id}' extend '{was_id}' and edit what it changed, or layer them the other way",
            )

    def _extended(self, m: Manifest) -> set[Path]:
        """The folders `m` extends, directly or through the packs it extends."""
        out: set[Path] = set()
        todo = [m]
        by_folder = {x.folder.resolve(): x for x in self.manifests.values()}
        while todo:
            x = todo.pop()
            for ref in x.data.get("extends") or []:
                target = pack_ref(ref, x.folder) if isinstance(ref, str) else None
                if target is None or target.resolve() in out:
                    continue
                out.add(target.resolve())
                if target.resolve() in by_folder:
                    todo.append(by_folder[target.resolve()])
        return out

    def _edit(self, data: PosDict, fragment: PosDict, key: str, m: Manifest, edit: Edit) -> PosDict:
        """`rules: KEY:` written as a mapping is a pack's edits of what it extends (`turn:`, turn_edits.py; `skills:`,
        the rule skills by id, skill_edits.py): `edit` applies them, returning the changes in words and what was
        wrong; the rest of the fragment, returned, merges key by key. A list or a value there merges as any rule."""
        edits = fragment.get(key)
        if not isinstance(edits, PosDict):
            return fragment
        changes, found = edit(data, mark_file(edits, m.path), m.path, m.id)
        self.changes += changes
        for problem in found:
            self.sink.report(problem)
        rest = PosDict({k: v for k, v in fragment.items() if k != key})
        rest.pos, rest.key_pos, rest.val_pos = fragment.pos, fragment.key_pos, fragment.val_pos
        return rest

    def change_deck(self, deck_layer: int, u: Units, entries: list, decks: dict, card_types: dict) -> None:
        for m in sorted(self.manifests.values(), key=lambda m: m.layer):
            spec = m.data.get("deck")
            if m.layer < deck_layer or not isinstance(spec, PosDict):
                continue
            have = {e.uid for e in entries}
            gone = []
            removes = spec.get("remove") or []
            for i, uid in enumerate(removes):
                if uid in have:
                    gone.append(uid)
                else:
                    u.sink.err(
                        m.path,
                        pos_of(removes, i),
                        "E121",
                        f"pack '{m.id}' removes deck card {uid}, which the deck does not have",
                    )
            if gone:
                entries[:] = [e for e in entries if e.uid not in gone]
                for name in decks:
                    decks[name] = [u for u in decks[name] if u not in gone]
                self.changes.append(f"{m.id}: deck copies {', '.join(map(str, gone))} removed")
            adds = spec.get("add")
            if isinstance(adds, list) and adds:
                wrapper = PosDict(cards=adds)
                wrapper.pos, wrapper.key_pos, wrapper.val_pos = spec.pos, {}, dict(spec.val_pos)
                wrapper.val_pos["cards"] = wrapper.val_pos.get("add", spec.pos)
                taken = {e.uid: card_types[e.card_type].name for e in entries}  # what E120 names as the other
                new, _ = build_deck(u, m.path, wrapper, card_types, taken=taken)
                by_uid = {c.get("id"): c for c in adds if isinstance(c, dict)}
                for e in new:
                    wanted = by_uid.get(e.uid, {}).get("decks")
                    for name in wanted or list(decks):
                        if name in decks:
                            decks[name].append(e.uid)
                        else:
                            u.sink.err(
                                m.path,
                                pos_of(by_uid[e.uid], "decks"),
                                "E121",
                                f"deck card {e.uid} joins deck '{name}', which the deck does not define",
                                did_you_mean(name, decks) or "decks: " + ", ".join(decks),
                            )
                entries += new
                if new:
                    self.changes.append(f"{m.id}: deck copies {', '.join(str(e.uid) for e in new)} added")
            for i, t in enumerate(spec.get("transform") or []):
                self._transform(m, u, pos_of(spec["transform"], i), t, entries, card_types)

    def _transform(self, m: Manifest, u: Units, pos: Any, t: Any, entries: list, card_types: dict) -> None:
        """One deck transform (`deck: transform:`): every copy its `where:` selects gets the fields of `set:`."""
        if not isinstance(t, PosDict) or not isinstance(t.get("set"), dict):
            return  # the schema's error
        where = t.get("where") or {}
        kinds = where.get("card")
        kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
        for k in kinds:
            if k not in card_types:
                u.sink.err(
                    m.path,
                    pos_of(where, "card"),
                    "E121",
                    f"pack '{m.id}' transforms the copies of card '{clip(str(k))}', which is not a card kind",
                    did_you_mean(str(k), card_types),
                )
        changed = transform_copies(entries, kinds, where, t["set"])
        what = ", ".join(f"{k} {_word(v)}" for k, v in t["set"].items())
        self.changes.append(f"{m.id}: deck transform: {what} ({changed} copies)")

    def infos(self) -> list[PackInfo]:
        out = []
        for layer, d in enumerate(self.dirs):
            m = self.manifests.get(layer)
            data = m.data if m is not None else {}
            extends = data.get("extends") or []
            out.append(
                PackInfo(
                    self.ids[layer],
                    str(data.get("name") or d.name),
                    str(d),
                    str(data.get("version") or ""),
                    str(data.get("description") or ""),
                    tuple(x for x in extends if isinstance(x, str)),
                )
            )
        return out


def transform_copies(entries: list[DeckEntry], kinds: list, where: Any, values: Any) -> int:
    """Set `values` (colors, direction, lockable) on every copy that `where` selects (its card kind among
    `kinds` if any are named, the colour it has, its arrow, its lock: all that is given must hold), in place.
    Returns how many copies it changed."""
    mask = COLOR_BITS.get(where.get("color"), 0)
    new: dict[str, Any] = {k: values[k] for k in ("direction", "lockable") if k in values}
    if "colors" in values:
        new["mask"] = sum(COLOR_BITS[c] for c in values["colors"])
    changed = 0
    for i, e in enumerate(entries):
        if (
            (kinds and e.card_type not in kinds)
            or (mask and not e.mask & mask)
            or ("direction" in where and e.direction != where["direction"])
            or ("lockable" in where and e.lockable != where["lockable"])
        ):
            continue
        after = replace(e, **new)
        if after != e:
            entries[i] = after
            changed += 1
    return changed


def _word(v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    return ", ".join(map(str, v)) if isinstance(v, list) else str(v)


def _right_keys(fragment: PosDict, rules_schema: dict, left_out: dict[tuple[str, str], str], path: Path) -> PosDict:
    """The keys of a manifest's `rules:` that pass the schema each on its own. A fragment with a mistake (a
    misspelt key, a wrong type) was dropped whole, and the counters, zones and events it declared with it were
    then reported as undeclared in every file that names them, each with a hint to declare what was declared.
    An entry of a table of declarations that is wrong itself is left out, and put in `left_out` ((table, name) ->
    where it is written), so that the code naming it is told it is declared with a mistake, not to declare it."""
    import jsonschema  # (as check_schema: only a load with a mistake gets here)

    validator = jsonschema.Draft202012Validator({"type": "object", "properties": {"rules": rules_schema}})

    def right(k: str, v: Any) -> bool:
        return validator.is_valid({"rules": {k: without_nulls(v)}})

    kept = PosDict()
    for k, v in fragment.items():
        if right(k, v):
            kept[k] = v
        elif isinstance(v, dict) and v:
            # a table of declarations by id (counters, zones, events, identities …): the entries right on their
            # own are kept, so one wrong value (`max: "3"`) does not undeclare the table's other entries
            entries = _same_positions(v, {e: x for e, x in v.items() if right(k, {e: x})}, fragment.pos)
            for e in v.keys() - entries.keys():
                at = key_pos_of(v, e)
                left_out[str(k), str(e)] = f"{path}:{at.line}" if at is not None else str(path)
            if entries and right(k, entries):
                kept[k] = entries
    kept.pos, kept.key_pos, kept.val_pos = fragment.pos, fragment.key_pos, fragment.val_pos
    return kept


def _same_positions(like: Any, items: dict, where: Pos) -> PosDict:
    """`items` as a PosDict with the positions `like` has for them (a plain dict has none: at `where`)."""
    out = PosDict(items)
    out.pos = getattr(like, "pos", where)
    out.key_pos, out.val_pos = getattr(like, "key_pos", {}), getattr(like, "val_pos", {})
    return out


def _extends_hint(ref: object, folder: Path) -> str:
    """What an `extends:` name that is no pack may have meant: a folder beside the pack named as if from its parent
    (`rule_skills` for `../rule_skills`: a folder is relative to the pack's own), else the closest bundled pack."""
    if isinstance(ref, str) and ref and not ref.startswith(("/", "..")):
        beside = pack_ref("../" + ref, folder)
        if beside is not None and (beside / MANIFEST).is_file():
            return f"did you mean '../{ref}'? the folder beside this pack (folders are relative to the pack's own)"
    return did_you_mean(ref, bundled_packs()) or "bundled packs: " + ", ".join(bundled_packs())
