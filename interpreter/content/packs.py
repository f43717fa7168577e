"""Which content packs a command loads, and in which order: a base game, its expansions, your packs.

A **rule set** is a pack with its own ``rules.yaml`` (the bundled base game, ``content/``, is one).
Its **expansions** are the packs in its ``expansions/`` folder, one folder each
(``content/expansions/tie_wu_zi/``: a ``roles/`` folder, or anything a pack may hold). A rule
set is played with all of its expansions by default; ``--expansions`` chooses among them
(``all``, ``none``, or ids separated by commas, layered in the order given).

A pack given with ``--content`` is one of two things:

* a pack **without** a ``rules.yaml`` adds to a game (roles, cards, secret tasks): it is layered
  over the rule set — the bundled base game unless a rule set of your own is given too — and its
  expansions, from any directory;
* a pack **with** a ``rules.yaml`` is a rule set of its own and replaces the bundled base game;
  its own expansions follow it, then the packs given after it. (Giving the bundled base itself,
  ``--content content`` in a checkout, is the same as giving nothing.)

A later pack overrides an earlier one's file of the same name (``roles/x.yaml``).

A pack may have a manifest, ``pack.yaml`` (schema/pack.schema.json, docs/modding.md): its id and
name, what it ``extends`` — bundled packs by id (``base``, ``tie_wu_zi``, ``lao_yang_fang``) or
folders relative to it, loaded before it whatever ``--expansions`` says — and what it changes of
them (rule numbers merged key by key, definitions replaced or removed, deck copies added or
removed; the loader applies those).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

from ..cache import Kept, remember
from ..paths import BUNDLED_CONTENT
from ..snippet import brief
from ..suggest import closest, folder_hint
from .yamlpos import load as load_yaml

EXPANSIONS_FOLDER = "expansions"
MANIFEST = "pack.yaml"
BASE = "base"  # the bundled base game's id in `extends:`


class PackError(ValueError):
    """An expansion choice that names no expansion of the rule set; the message says which exist."""


def expansions_of(rule_set: Path) -> dict[str, Path]:
    """A rule set's expansions by id (their folder's name), in the order they are layered by default: the
    order its pack.yaml lists them in (`expansions:`), then any it does not list by name; an expansion that
    extends another of them comes after it.

    Worked out once per process for the same folders and manifests (EXPANSIONS): a load asks it several times
    (the choice of expansions, the packs `extends:` may name, the ids of the expansions left out), and the
    tests and `fengsheng serve` load again and again. What is on disk is looked at on every call (the folder's
    entries, each pack.yaml's text), so a folder or a manifest changed is seen at once."""
    folder = Path(rule_set) / EXPANSIONS_FOLDER
    try:
        with os.scandir(folder) as entries:
            found = sorted(folder / e.name for e in entries if not e.name.startswith(".") and e.is_dir())
    except OSError:  # no expansions/ folder (or not one that can be read): no expansions
        return {}
    texts = (_manifest_text(Path(rule_set)), *(_manifest_text(d) for d in found))
    key = ("" if folder.is_absolute() else os.getcwd(), str(rule_set), tuple(d.name for d in found), texts)
    kept: dict[str, Path] = remember(EXPANSIONS, key, lambda: (_expansions(Path(rule_set), found), True))
    return dict(kept)  # the caller's own


EXPANSIONS: Kept[dict[str, Path]] = Kept("expansions", limit=256)  # see expansions_of


def _expansions(rule_set: Path, folders: list[Path]) -> dict[str, Path]:
    """expansions_of's answer worked out: `folders` are the rule set's expansion folders, sorted."""
    found = {d.name: d for d in folders}
    listed = [name for name in _manifest_list(rule_set, "expansions") if name in found]
    order = [*dict.fromkeys(listed), *(name for name in found if name not in listed)]
    out: dict[str, Path] = {}

    def place(name: str, visiting: frozenset[str]) -> None:
        if name in out or name in visiting:
            return  # placed, or a cycle (the loader reports it)
        for ref in extends_of(found[name]):
            dep = Path(found[name]) / ref
            sibling = next((n for n, d in found.items() if n == ref or _same(d, dep)), None)
            if sibling is not None and sibling != name:
                place(sibling, visiting | {name})
        out[name] = found[name]

    for name in order:
        place(name, frozenset())
    return out


def parse_expansions(text: str | None) -> list[str] | None:
    """`--expansions`' text: None when not given (all of them), else the words (``all``, ``none`` or ids)."""
    if text is None:
        return None
    return [w.strip() for w in text.split(",") if w.strip()]


def is_rule_set(pack: Path) -> bool:
    """A pack with its own rules.yaml is a whole rule set; one without adds to a game."""
    return (Path(pack) / "rules.yaml").is_file() or (Path(pack) / "rules.yml").is_file()


def _same(a: Path, b: Path) -> bool:
    if a == b:  # the same path names the same folder (the default game's packs, given again: no look at the disk)
        return True
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def choose_expansions(rule_set: Path, words: Sequence[str] | None) -> list[Path]:
    """The expansions of `rule_set` that `words` choose (None or ``all``: every one; ``none``: none).

    Raises PackError for an id the rule set has no expansion of, with the closest one as a hint.
    """
    available = expansions_of(rule_set)
    if words is None or list(words) == ["all"]:
        return list(available.values())
    if list(words) in ([], ["none"]):
        return []
    out: list[Path] = []
    for w in words:
        if w not in available:
            hint = closest(w, [*available, "all", "none"])
            where = "the bundled game" if _same(Path(rule_set), BUNDLED_CONTENT) else str(rule_set)
            raise PackError(
                f"{where} has no expansion {brief(w)}"
                + (f"; did you mean {hint[0]!r}?" if hint else "")
                + f" (it has: {', '.join(available) or 'none'}; or all, none)"
            )
        if available[w] not in out:
            out.append(available[w])
    return out


def bundled_packs() -> dict[str, Path]:
    """The packs `extends:` may name by id: the base game and its expansions."""
    return {BASE: BUNDLED_CONTENT, **expansions_of(BUNDLED_CONTENT)}


def pack_ref(ref: str, pack: Path) -> Path | None:
    """What a name in `pack`'s `extends:` stands for: a bundled pack's id, or a folder relative to the pack."""
    bundled = bundled_packs()
    if ref in bundled:
        return bundled[ref]
    # normalised: a chain of relative `../next` refs would otherwise grow the path by each link
    # (`a/../b/../c/…`), past the system's limit on a path's length (OSError) after a few hundred packs
    folder = Path(os.path.normpath(Path(pack) / ref))
    try:
        return folder if folder.is_dir() else None
    except OSError:  # a name too long for the system, or a folder that cannot be read: not a pack
        return None


MAX_EXTENDS_DEPTH = 64
"""How many packs deep an `extends:` chain may go (docs/errors.md, Limits): deeper is E124, said as such."""


def extends_depth(pack: Path, limit: int = MAX_EXTENDS_DEPTH) -> int:
    """How many packs `pack` stands on through `extends:` (its longest chain, 0 for none), counted up to
    `limit` + 1: a walk that stops there, so that a chain of thousands costs no deeper recursion."""
    best: dict[Path, int] = {}

    def walk(p: Path, depth: int, visiting: frozenset[Path]) -> int:
        key = Path(os.path.normpath(p.absolute()))
        if key in visiting or depth > limit:
            return 0
        if key in best:
            return best[key]
        deepest = 0
        for ref in extends_of(p):
            dep = pack_ref(ref, p)
            if dep is not None and dep not in _bundled_set():
                deepest = max(deepest, 1 + walk(dep, depth + 1, visiting | {key}))
                if deepest > limit:
                    break
        best[key] = deepest
        return deepest

    return walk(Path(pack), 0, frozenset())


def _bundled_set() -> set[Path]:
    return set(bundled_packs().values())


def log_pack_ref(pack: Path | str, base: Path | None = None) -> str:
    """How a log's header names a pack a game was played with (`packs`), the way `extends:` does, so that the
    log means the same in another checkout or on another machine: a bundled pack by its id (``base``,
    ``tie_wu_zi``), another folder relative to `base` (the log's folder) — as given when there is no `base`
    (or it is on another drive) — with ``./`` in front when it would read as a bundled pack's id."""
    bundled = bundled_packs()
    for ref, path in bundled.items():
        if _same(Path(pack), path):
            return ref
    text = str(pack)
    if base is not None:
        with contextlib.suppress(ValueError, OSError):  # another drive (Windows): as given
            text = Path(os.path.relpath(Path(pack).resolve(), Path(base).resolve())).as_posix()
    return f"./{text}" if text in bundled else text


def find_log_pack(ref: str, base: Path | None = None) -> tuple[Path | None, list[str]]:
    """The folder a log's `packs` entry names (``log_pack_ref``): a bundled pack's id; a folder relative to
    `base` (the log's folder), else to the current directory; an absolute folder (as older logs name them).
    Returns it, or None and the places looked in."""
    bundled = bundled_packs()
    if ref in bundled:
        return bundled[ref], []
    path = Path(ref)
    places = [path] if path.is_absolute() else [*([Path(base) / path] if base is not None else []), path]
    for place in places:
        if place.is_dir():
            return Path(os.path.normpath(place)), []
    return None, [str(p) for p in dict.fromkeys(places)]


def extends_of(pack: Path) -> list[str]:
    """The `extends:` of a pack's pack.yaml, read leniently: the loader reports a broken manifest."""
    return _manifest_list(pack, "extends")


def _manifest_list(pack: Path, key: str) -> list[str]:
    """A list of names in a pack's pack.yaml (`extends:`, `expansions:`), read leniently: the loader reports
    a broken manifest. The file is read on every call and parsed once per process for the same text."""
    text = _manifest_text(Path(pack))
    if text is None:
        return []
    return list(remember(MANIFEST_LISTS, text, lambda: _name_lists(text)).get(key, ()))


MANIFEST_LISTS: Kept[dict[str, tuple[str, ...]]] = Kept("pack.yaml lists", limit=1024)  # a pack.yaml's text -> lists
_LISTED = ("extends", "expansions")
_KEPT_TEXT = 100_000  # characters: a longer manifest (a hostile one) is parsed each time rather than kept as a key


def _manifest_text(pack: Path) -> str | None:
    """The text of a pack's pack.yaml; None when there is none or it cannot be read as UTF-8."""
    try:
        return (pack / MANIFEST).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):  # none, a folder of that name, unreadable: the loader says why
        return None


def _name_lists(text: str) -> tuple[dict[str, tuple[str, ...]], bool]:
    """The name lists of a pack.yaml's text (`extends:`, `expansions:`: the names in each that are texts), and
    whether they may be kept."""
    try:
        data = load_yaml(text)
    except Exception:  # any unreadable manifest: the loader reads it again and says why
        return {}, len(text) <= _KEPT_TEXT
    out = {}
    for key in _LISTED:
        refs = data.get(key) if isinstance(data, dict) else None
        out[key] = tuple(r for r in refs if isinstance(r, str)) if isinstance(refs, list) else ()
    return out, len(text) <= _KEPT_TEXT


def resolve_packs(packs: Sequence[Path | str] = (), expansions: Sequence[str] | None = None) -> list[Path]:
    """The folders to load, in layering order, for `--content` packs and an `--expansions` choice.

    See the module's docstring for the rules. Raises PackError for an unknown expansion.
    """
    given = [Path(p) for p in packs if not _same(Path(p), BUNDLED_CONTENT)]
    own = next((i for i, p in enumerate(given) if is_rule_set(p)), None)
    root = BUNDLED_CONTENT if own is None else given[own]
    out = [*([] if own is None else given[:own]), root, *choose_expansions(root, expansions)]
    rest = given if own is None else given[own + 1 :]
    placed = {_resolved(p) for p in out} if rest else set()
    for pack in rest:
        _with_what_it_extends(pack, out, placed, frozenset())
    return _once(out)


def pack_folders(packs: Sequence[Path | str] = (), expansions: str | Sequence[str] | None = None) -> list[Path]:
    """resolve_packs for a door that is handed folders by a program rather than typed on a command line (the RL
    adapters, the step API's load_packs): the same layering as `--content` and `--expansions` (`expansions`: their
    text, ``"all"``, ``"none"``, ``"id,id"``, or a list of those words; None: all), so a fork that is a pack.yaml
    over the base game loads onto it and its expansions there as it does in `fengsheng simulate`. A folder that is
    not there is refused first with the sentence the CLI's --content gives (missing_folder), before the loader
    would report it from deep inside. Raises PackError."""
    for p in packs:
        problem = missing_folder(p)
        if problem is not None:
            raise PackError(problem)
    words = parse_expansions(expansions) if isinstance(expansions, str) else expansions
    return resolve_packs(packs, words)


def missing_folder(path: Path | str) -> str | None:
    """What is wrong with a pack folder given by a program, in the words click gives `--content` (the CLI's
    PackFolder): "Directory 'examples/jia_gu' does not exist: did you mean examples/jia_gui?"; None when it is a
    folder."""
    text = os.fspath(path)
    if os.path.isdir(text):
        return None
    if os.path.exists(text):
        return f"Directory {text!r} is a file."
    hint = folder_hint(text)
    return f"Directory {text!r} does not exist" + (f": {hint}" if hint else ".")


PACK_PARTS = ("pack.yaml", "rules.yaml", "deck.yaml", "cards", "roles", "secret_tasks")
"""What a content pack's folder holds at least one of (the loader reads nothing else)."""


def not_a_pack(path: Path | str, base: Path | str | None = None) -> str | None:
    """What is wrong with a folder given as a content pack that holds nothing a pack holds (PACK_PARTS): it would
    load as an empty pack, and what names its roles or cards fails far from the cause (a scenario's `content: [.]`
    written one folder too deep: "no role has a skill 反诘"). The hint names the nearest folder above it that holds a
    pack.yaml (or those inside it), as `base` names them (default: the current directory). None when it holds one
    of PACK_PARTS."""
    text = os.fspath(path)
    if any(os.path.exists(os.path.join(text, part)) for part in PACK_PARTS):
        return None
    problem = (
        f"{text!r} is not a content pack: it holds no pack.yaml, rules.yaml, deck.yaml, cards/, roles/ or secret_tasks/"
    )
    here = Path(text).resolve()
    start = Path(base).resolve() if base is not None else Path.cwd()
    for above in list(here.parents)[:3]:
        if (above / "pack.yaml").is_file():
            return problem + f"; a pack above it: {os.path.relpath(above, start)!r}"
    try:
        inside = sorted(d for d in here.iterdir() if (d / "pack.yaml").is_file())[:3]
    except OSError:
        inside = []
    if inside:
        return problem + "; packs in it: " + ", ".join(repr(os.path.relpath(d, start)) for d in inside)
    return problem


def _with_what_it_extends(pack: Path, out: list[Path], placed: set[Path | None], visiting: frozenset[Path]) -> None:
    """Append `pack` to `out` after what it extends (depth first); `placed`: the folders in `out`, resolved. A cycle
    ends the walk, and so does a chain deeper than MAX_EXTENDS_DEPTH; the loader reports either."""
    key = pack.resolve()
    if key in visiting or len(visiting) > MAX_EXTENDS_DEPTH or key in placed:
        return
    for ref in extends_of(pack):
        dep = pack_ref(ref, pack)
        if dep is not None:
            _with_what_it_extends(dep, out, placed, visiting | {key})
    out.append(pack)
    placed.add(key)


def _resolved(p: Path) -> Path | None:
    try:
        return p.resolve()
    except OSError:  # as _same: a folder that cannot be resolved is the same as none
        return None


def default_packs() -> list[Path]:
    """The full bundled game: the base game with every bundled expansion."""
    return resolve_packs()


def _once(packs: list[Path]) -> list[Path]:
    """Each folder once, where it first comes (an expansion also given with --content)."""
    seen: set[Path] = set()
    out = []
    for p in packs:
        key = p.resolve()
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out
