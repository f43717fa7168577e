"""Load a content pack: the pipeline that runs the loader's stages over one diagnostics sink.

    read (read.py: YAML with positions) → schema (schema_stage.py) → build (build_cards.py, build_roles.py,
    build_rules.py: typed content objects, layered by layering.py) → compile units (units.py: one result
    object per piece of effect code) → checks (checks.py: what is wrong only between things)

Every problem is collected (not just the first) as a :class:`ContentError` with file, line, column, a stable
code and, where it helps, a hint (diagnostics.py). A content mistake never surfaces as a Python traceback.
Several pack directories may be given: a later pack overrides earlier ones by id (a rule-set fork), and its
``rules.yaml`` / ``deck.yaml`` replace the earlier ones.

The public face of loading: load_content, load_cached, load_packs, validate_paths, kind_of_file, and the names others
import from here (ContentError, ContentErrors, BUNDLED_CONTENT, the context environments of code units).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cache as once
from pathlib import Path
from typing import Any

from .. import cache
from ..cache import Kept, remember
from ..model.content import CardType, Content, DeckEntry, MadeOf, Origin, Role, Rules, SecretTask
from ..model.declared import Declared
from ..paths import BUNDLED_CONTENT
from .build_cards import build_card, build_task
from .build_declared import build_declared, check_counter_roles, check_zone_cards
from .build_roles import build_role
from .build_rules import apply_lock_rule, apply_target_rule, build_deck, build_rules, most_players
from .checks import check_marks, check_rule_decks, check_rule_skill_ids, check_skill_refs
from .diagnostics import ContentError, ContentErrors, Diagnostics
from .layering import Layers
from .manifest import FOLDER_KINDS, FilePos, rules_fragment_schema
from .packs import default_packs, pack_folders
from .playable import check_playable
from .read import read
from .schema_stage import check_required, missing_keys, schema
from .skill_edits import skill_edits_schema
from .turn_edits import turn_edits_schema
from .units import Units, card_env, skill_env, victory_env
from .yamlpos import PosDict, load as load_yaml, pos_of

__all__ = [
    "BUNDLED_CONTENT",
    "ContentError",
    "ContentErrors",
    "card_env",
    "kind_of_file",
    "load_cached",
    "load_content",
    "skill_env",
    "validate_paths",
    "victory_env",
]

BUILDERS = {"card": build_card, "role": build_role, "secret_task": build_task}

# Cards, roles and secret tasks built from a file that read clean, with nothing to report, by kind, file name, text,
# the card names its text names (【...】, with the card each stands for in this load, or None), the rules'
# declarations it names and, for code with a `for`, the rules' largest table (W501): the object (never changed once
# built, like load_cached's), the marks its code set and read (without the file: a mark's place is (key, kind,
# how, line, col) here) and the skills it names that are not its own (Units.skill_refs, without the file too).
# Built again for any file with a finding.
BUILDS: Kept[tuple[Any, list[tuple], list[tuple]]] = Kept("build")
NAMED: Kept[tuple[tuple[str, ...], str]] = Kept("named in a file")  # a file's text -> its 【】 names, its texts
_CARD_NAME = re.compile(r"【([^】\n]+)】")  # as the effect grammar reads one (language/effect.lark, CARD_NAME)


def build(u: Units, path: Path, data: PosDict, kind: str, layer: int | None = None) -> Any:
    """A card, role or secret task (by `kind`) of a file read by read(), built once per process for the same text,
    the same cards for the names it names and the same declarations of what it names, when it has nothing to
    report. Code reaches a card only by a 【name】 literal, and a counter, zone or event the rules declare only
    by its name (in quotes, or a `trigger:`): a pack adding a card kind or declaring a counter does not build
    every other card and role again. `layer`: the pack it comes from (its place in the layers: E305's hint)."""
    text = "\n".join(u.sink.sources.get(str(path), ()))
    names, texts = remember(NAMED, text, lambda: (_named_in(data), True))
    # (the largest table only for a file with a `for` in it: W501's count of a loop over players)
    table = u.most_players if "for" in texts else None
    key = (
        kind,
        path.name,
        text,
        tuple((n, u.card_names.get(n)) for n in names),
        _declared_in(u.declared, texts),
        table,
    )
    first = len(u.marks)
    first_ref = len(u.skill_refs)

    def make() -> tuple[tuple[Any, list[tuple], list[tuple]], bool]:
        findings = u.sink.count()
        u.owner, u.owner_layer = (kind, data.get("id")), layer  # what its errors are about (E305 names it)
        try:
            obj = BUILDERS[kind](u, path, data)
        finally:
            u.owner, u.owner_layer = None, None
        marks = [(*m[:3], *m[4:]) for m in u.marks[first:]]
        del u.marks[first:]  # added back below, as for an object built before
        refs = [(*r[:4], *r[5:]) for r in u.skill_refs[first_ref:]]
        del u.skill_refs[first_ref:]
        return (obj, marks, refs), u.sink.count() == findings and str(path) in u.sink.sources

    obj, marks, refs = remember(BUILDS, key, make)
    u.marks += [(*m[:3], path, *m[3:]) for m in marks]
    u.skill_refs += [(*r[:4], path, *r[4:]) for r in refs]
    return obj


def _named_in(data: Any) -> tuple[tuple[str, ...], str]:
    """The names in 【】 in a file's data (sorted, once each), and every text of it (keys and values) in one."""
    texts = "\n".join(_texts(data))
    return tuple(sorted(set(_CARD_NAME.findall(texts)))), texts


def _texts(value: Any) -> list[str]:
    """Every text in `value` (a file's data: mappings, lists, texts), mapping keys too."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in (*_texts(k), *_texts(v))]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _declared_in(declared: Declared, texts: str) -> tuple:
    """What Declared.key() says of the counters, events and zones whose names occur in `texts`: all that a file
    naming only those can depend on (the compiler looks each one up by the name the code gives)."""
    return (
        tuple(sorted(c for c in declared.counters if c in texts)),
        tuple(
            sorted((e.name, e.fields, e.subject, e.replaceable) for e in declared.events.values() if e.name in texts)
        ),
        tuple(sorted(z for z in declared.zones if z in texts)),
    )


@dataclass
class _Kinds:
    """What the build stage made of the kind folders (cards/, secret_tasks/, roles/) of every pack."""

    card_types: dict[str, CardType] = field(default_factory=dict)
    tasks: dict[str, SecretTask] = field(default_factory=dict)
    roles: dict[str, Role] = field(default_factory=dict)
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    read: list[tuple[str, str, PosDict]] = field(default_factory=list)  # (folder, id, data) of each one kept


def load_content(paths=None, errors: list[ContentError] | None = None) -> Content:
    """Load and compile content packs, layered in order (default: the full bundled game). Raises ContentErrors.

    Each folder is one pack; a pack's pack.yaml (if any) says what it changes of the packs before
    it (interpreter/content/manifest.py, docs/modding.md). Given `errors`, it raises nothing: the
    errors found are added to that list and what loaded is returned (a file with an error in part
    or not at all; no rules.yaml: empty rules), for `fengsheng describe`, which shows what it can.
    """
    dirs = [Path(p) for p in (_folders(paths) or default_packs())]
    sink = Diagnostics()
    for d in dirs:
        if not d.is_dir():
            sink.err(d, None, "E100", "not a content directory")
    if sink.errors and errors is None:
        raise ContentErrors(sink.errors)
    layers = Layers(sink, dirs)
    u = Units(sink)
    rules_read = _read_rules_file(u, layers, dirs)
    if rules_read is not None:  # counters and events: named by the code of every file, so built first
        u.declared = build_declared(sink, *rules_read)
        u.most_players = most_players(rules_read[1])  # and the largest table, which a loop over players counts as
    kinds = _build_kinds(u, layers, dirs)
    rules, identities = build_rules(u, *rules_read) if rules_read is not None else (None, {})
    if rules_read is not None:
        check_counter_roles(sink, rules_read[0], rules_read[1], u.declared, kinds.roles)
        if rules is not None and rules.skills:
            origins = _rule_skill_origins(layers, dirs, rules_read)
            check_rule_skill_ids(sink, rules_read[0], rules_read[1], rules.skills, kinds.roles, origins)
            kinds.origins.update(origins)
        check_zone_cards(sink, rules_read[0], rules_read[1], u.declared, kinds.card_types)
    # the skills code names that are not its own: a rule skill, another role's (has_skill), known now
    check_skill_refs(sink, u.skill_refs, kinds.roles, rules.skills if rules is not None else ())
    deck, decks = _build_deck_file(u, layers, dirs, kinds.card_types, rules_read)
    if rules is not None and rules_read is not None:
        check_playable(sink, layers, *rules_read, rules, identities, kinds.tasks, decks)
    if rules is not None:
        deck = apply_lock_rule(deck, rules.lockable)
        kinds.card_types = apply_target_rule(kinds.card_types, rules.card_targets)
    cache.save_soon()  # what this load parsed, compiled and read clean, for the next run
    check_marks(sink, u.marks, whole_pack=True)
    if errors is not None:
        errors += sink.errors
        rules = rules or Rules("", 0, 0, 0, {}, [])
    elif sink.errors:
        raise ContentErrors(sink.errors)
    assert rules is not None  # a missing or unreadable rules.yaml is an error above
    return Content(
        rules=rules,
        card_types=kinds.card_types,
        deck=deck,
        decks=decks,
        identities=identities,
        tasks=kinds.tasks,
        roles=kinds.roles,
        warnings=sink.warnings,
        packs=layers.infos(),
        origins=kinds.origins,
        changes=layers.changes,
        declared=u.declared,
        made_of=MadeOf(
            rules_read[1] if rules_read is not None else None,
            tuple(kinds.read),
            tuple(deck),
            {name: tuple(uids) for name, uids in decks.items()},
        ),
    )


def _rule_skill_origins(layers: Layers, dirs: list[Path], rules_read: tuple[Path, PosDict]) -> dict:
    """Where each rule skill is written: the pack.yaml whose `rules: skills:` wrote it (its positions are that
    file's), else the rules.yaml (`pack show`, `pack diff`, `describe`)."""
    rules_layer = _last_layer(dirs, "rules.yaml")[0]
    by_manifest = {str(m.path): m.layer for m in layers.manifests.values()}
    entries = rules_read[1].get("skills")
    out = {}
    for i, entry in enumerate(entries if isinstance(entries, list) else ()):
        if not isinstance(entry, PosDict) or not isinstance(entry.get("id"), str):
            continue
        pos = pos_of(entries, i)
        f = pos.path if isinstance(pos, FilePos) else rules_read[0]
        layer = by_manifest.get(str(f), rules_layer)
        out["rule_skill", entry["id"]] = Origin(layers.ids[layer], str(f), pos.line if pos is not None else 1)
    return out


def _build_kinds(u: Units, layers: Layers, dirs: list[Path]) -> _Kinds:
    """Read, check and build every card, secret task and role of every pack, one definition per id."""
    out = _Kinds()
    # card names must be known before any code compiles (【...】 names in effects)
    card_files = _read_kind(u.sink, dirs, "cards", "card")
    cards = layers.resolve("cards", card_files)
    for _, _, data in card_files:
        if data["id"] in layers.removed["cards"] and isinstance(data.get("name"), str):
            u.removed_names[data["name"]] = (layers.removed_by[data["id"]], layers.removed_at[data["id"]])
    for _, _, data in cards.values():
        if isinstance(data.get("name"), str):
            u.card_names[data["name"]] = data["id"]
    for ident, (layer, f, data) in cards.items():
        out.card_types[ident] = build(u, f, data, "card", layer)
        out.read.append(("cards", ident, data))
        out.origins["card", ident] = layers.origin(layer, f, data)
    for ident, (layer, f, data) in layers.resolve(
        "secret_tasks", _read_kind(u.sink, dirs, "secret_tasks", "secret_task")
    ).items():
        out.tasks[ident] = build(u, f, data, "secret_task", layer)
        out.read.append(("secret_tasks", ident, data))
        out.origins["secret_task", ident] = layers.origin(layer, f, data)
    for ident, (layer, f, data) in layers.resolve("roles", _read_kind(u.sink, dirs, "roles", "role")).items():
        out.roles[ident] = build(u, f, data, "role", layer)
        out.read.append(("roles", ident, data))
        out.origins["role", ident] = layers.origin(layer, f, data)
    return out


def _read_rules_file(u: Units, layers: Layers, dirs: list[Path]) -> tuple[Path, PosDict] | None:
    """The last pack's rules.yaml with the manifests' rules merged in: the file and its data (None if missing or
    unreadable: reported)."""
    rules_layer, rules_file = _last_layer(dirs, "rules.yaml")
    if rules_file is None:
        u.sink.err(dirs[-1] / "rules.yaml", None, "E100", "the content has no rules.yaml")
        return None
    data = read(u.sink, rules_file, "rules")
    if data is None:
        return None
    merging = any(m.layer >= rules_layer and "rules" in m.data for m in layers.manifests.values())
    before = missing_keys(data, "rules") if merging else []
    layers.merge_rules(rules_layer, data, _rules_fragment_schema())
    if merging:
        check_required(u.sink, rules_file, data, "rules", before)
    return rules_file, data


def _build_deck_file(
    u: Units, layers: Layers, dirs: list[Path], card_types: dict, rules_read: tuple[Path, PosDict] | None
) -> tuple[list[DeckEntry], dict[str, list[int]]]:
    """The last pack's deck.yaml with the manifests' deck changes: the copies and the named decks."""
    deck_layer, deck_file = _last_layer(dirs, "deck.yaml")
    if deck_file is None:
        u.sink.err(dirs[-1] / "deck.yaml", None, "E100", "the content has no deck.yaml")
        return [], {}
    data = read(u.sink, deck_file, "deck", shared=True)  # only read (the copies are built anew): shared
    if data is None:
        return [], {}
    deck, decks = _deck(u, deck_file, data, card_types, layers.removed["cards"])
    layers.change_deck(deck_layer, u, deck, decks, card_types)
    if rules_read is not None:
        check_rule_decks(u.sink, *rules_read, decks)
    return deck, decks


# deck.yaml's copies and named decks as built from a text that built clean, by the text, each card kind's
# per-copy data keys (all a copy reads of its kind) and the card kinds left out: the copies (never changed once
# built, like load_cached's) and the named decks; each load gets lists of its own (the manifests change them).
DECKS: Kept[tuple[tuple[DeckEntry, ...], dict[str, tuple[int, ...]]]] = Kept("deck", limit=64)


def _deck(
    u: Units, path: Path, data: PosDict, card_types: dict[str, CardType], skip: set[str]
) -> tuple[list[DeckEntry], dict[str, list[int]]]:
    """build_deck of deck.yaml, once per process for the same text, card kinds' data keys and kinds left out."""
    kinds = tuple(sorted((cid, tuple(ct.data_keys.items())) for cid, ct in card_types.items()))
    key = ("\n".join(u.sink.sources.get(str(path), ())), kinds, tuple(sorted(skip)))

    def make() -> tuple[tuple[tuple[DeckEntry, ...], dict[str, tuple[int, ...]]], bool]:
        findings = u.sink.count()
        entries, decks = build_deck(u, path, data, card_types, skip_kinds=skip)
        return (tuple(entries), {k: tuple(v) for k, v in decks.items()}), u.sink.count() == findings

    entries, decks = remember(DECKS, key, make)
    return list(entries), {k: list(v) for k, v in decks.items()}


def _read_kind(sink: Diagnostics, dirs: list[Path], folder: str, kind: str) -> list[tuple[int, Path, PosDict]]:
    """Read and schema-check every file of one kind in every pack: (layer, file, data), in layering order."""
    out = []
    for layer, d in enumerate(dirs):
        sub = Path(d) / folder
        if sub.is_dir():
            for f in sorted(sub.glob("*.yaml")) + sorted(sub.glob("*.yml")):
                data = read(sink, f, kind, shared=True)  # only read: the builders change nothing of it
                if data is not None and isinstance(data.get("id"), str):
                    out.append((layer, f, data))
    return out


def _files(dirs: list[Path], sub: str) -> list[Path]:
    out = {}
    for d in dirs:
        folder = Path(d) / sub
        if folder.is_dir():
            for f in sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml")):
                out[f.stem] = f  # a later pack overrides an earlier one's file of the same name
    return list(out.values())


def _last_layer(dirs: list[Path], name: str) -> tuple[int, Path | None]:
    found: tuple[int, Path | None] = (0, None)
    for layer, d in enumerate(dirs):
        f = Path(d) / name
        if f.is_file():
            found = (layer, f)
    return found


@once
def _rules_fragment_schema() -> dict:
    return skill_edits_schema(turn_edits_schema(rules_fragment_schema(schema("rules"))))


def kind_of_file(path: Path) -> str | None:
    """Which content kind a file is, from its name and folder."""
    name = path.name
    if name.endswith(".scenario.yaml"):
        return "scenario"
    if name in ("rules.yaml", "rules.yml"):
        return "rules"
    if name in ("deck.yaml", "deck.yml"):
        return "deck"
    if name == "pack.yaml":
        return "pack"
    return FOLDER_KINDS.get(path.parent.name)


def validate_paths(paths) -> list:
    """Check content packs (directories) and single files; returns every ContentError found (warnings
    too: those with level "warning", W5xx; they do not stop the content from loading).

    A single file is checked on its own against the bundled content (so a card
    name in an effect must exist in the bundled cards or in the file itself).
    """
    errors = []
    dirs = [Path(p) for p in paths if Path(p).is_dir()]
    files = [Path(p) for p in paths if not Path(p).is_dir()]
    if dirs:
        try:
            errors += load_cached(dirs).warnings  # kept: `validate` reports what it loaded without loading it twice
        except ContentErrors as e:
            errors += e.errors
    for f in files:
        errors += _validate_file(f)
    return errors


def _validate_file(f: Path) -> list[ContentError]:
    """One file, checked on its own: its errors, then its warnings."""
    sink = Diagnostics()
    kind = kind_of_file(f)
    if kind is None:
        _unknown_kind(sink, f)
        return sink.errors
    u = Units(sink)
    u.alone = True
    for cf in _files([BUNDLED_CONTENT], "cards"):
        try:
            name, ident = _name_and_id(cf.read_text(encoding="utf-8"))
            u.card_names[name] = ident
        except Exception:  # the bundled content is validated on its own
            pass
    data = read(sink, f, kind)
    if data is not None:
        if kind == "card" and isinstance(data.get("name"), str) and isinstance(data.get("id"), str):
            u.card_names[data["name"]] = data["id"]
        if kind in BUILDERS:
            BUILDERS[kind](u, f, data)
        elif kind == "rules":
            u.declared = build_declared(sink, f, data)
            build_rules(u, f, data)
        elif kind == "deck":
            try:
                types = load_cached().card_types
            except ContentErrors:
                types = {}
            build_deck(u, f, data, types)
    check_marks(sink, u.marks, whole_pack=False)  # one file: its marks may be set in other files
    # (and the skills its code names that are not its own may be its pack's rule skills or other roles': unchecked)
    return sink.errors + sink.warnings


def _unknown_kind(sink: Diagnostics, f: Path) -> None:
    """E100, E102 or E105: a file that cannot be read, is binary, or is of no kind the loader knows."""
    try:
        with open(f, "rb") as file:
            binary = b"\0" in file.read(8192)
    except OSError as e:
        sink.err(f, None, "E100", f"cannot read the file: {e.strerror}")
        return
    if binary:
        sink.err(f, None, "E102", "this is a binary file, not YAML text", "give validate a pack folder or a .yaml file")
    else:
        sink.err(
            f,
            None,
            "E105",
            "cannot tell what kind of content this file is",
            "put it in cards/, roles/ or secret_tasks/, or name it rules.yaml, deck.yaml or *.scenario.yaml",
        )


NAMES: Kept[tuple[str, str]] = Kept("card name", limit=1024)  # a card file's text -> its name and id


def _name_and_id(text: str) -> tuple[str, str]:
    """A card file's name and id, parsed once per text in a process (validate_paths reads them for every file)."""

    def parse() -> tuple[tuple[str, str], bool]:
        d = load_yaml(text)
        return (d["name"], d["id"]), True

    return remember(NAMES, text, parse)


CONTENT_SETS: Kept[Content] = Kept("content set", limit=None)  # load_cached's, by the packs' absolute paths


def _folders(paths):
    """`paths` as a list of folders: one folder given alone (a text or a path) is a list of one, as the RL adapters'
    ``content=`` takes it — iterated, "examples/jia_gui" was a folder per letter ("Directory 'e' does not exist")."""
    return [paths] if isinstance(paths, (str, os.PathLike)) else paths


def load_cached(paths=None) -> Content:
    """load_content, once per process for the same folders (by their absolute paths: `jia_gui` in two
    working directories is two packs). Edits made to the files after the first load are not seen."""
    paths = _folders(paths)
    key = tuple(str(Path(p).resolve()) for p in (paths or default_packs()))
    return remember(CONTENT_SETS, key, lambda: (load_content(paths), True))


def load_packs(packs=(), expansions=None) -> Content:
    """The content a program asks for by pack folders, resolved as the CLI's `--content` and `--expansions`
    resolve them (packs.pack_folders): a fork that is a pack.yaml over the base game is loaded onto the bundled
    game and its expansions, a rule set of its own with its expansions; `expansions` as `--expansions` takes it
    (``"none"``, ``"id,id"``; default all). load_cached loads the folders exactly as given, which a program that
    lays out its own layers wants; the RL adapters and a researcher's script want this. Cached as load_cached.
    Raises PackError (a folder that is not there, an unknown expansion) or ContentErrors. `packs` None: the bundled
    game (as load_cached(None) is)."""
    return load_cached(pack_folders(_folders(packs if packs is not None else ()), expansions))
