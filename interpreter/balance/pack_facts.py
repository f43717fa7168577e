"""What a balance report reads of a sweep's packs as they are now: where their folders are (``locate_packs``,
with a note for a pack moved or changed since the sweep), each role's usable skills (``pack_skills``), the
roles, cards and secret tasks a fork adds to the bundled game (``new_roles``, ``new_other_items``), the cards a
card pin names (``card_pin_facts``), the rules' counts its endings say (``pack_counts``), and the command that
re-runs one game of the sweep alone (``rerun_command``).

Everything here loads content (imported inside the functions: a report of records alone needs none of it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..sim.summary import RULE_SKILL_OWNER


def new_other_items(meta: dict) -> dict[str, dict[str, list[str]]]:
    """Per pack: the cards (by name) and secret tasks (by name) of its content that the bundled game with the same
    expansions lacks, and its rule skills (by name: ``rule_skills``, only when it has some) that the bundled game's
    rules lack, when its content loads (the report marks them new and gives each a verdict). A passive rule skill is
    left out: it is every seat's alike, and never used, so no seats of it can be held against the others."""
    from ..content.loader import load_cached
    from ..content.packs import parse_expansions, resolve_packs

    out: dict[str, dict[str, list[str]]] = {}
    for pack in meta.get("packs") or []:
        if pack.get("missing") or not pack.get("content"):
            continue
        try:
            expansions = parse_expansions(pack.get("expansions"))
            content = load_cached(resolve_packs(list(pack.get("content") or []), expansions))
            reference = load_cached(resolve_packs([], expansions))
        except Exception:  # a pack moved or broken since the sweep: nothing is marked new
            continue
        cards = sorted({t.name for t in content.card_types.values()} - {t.name for t in reference.card_types.values()})
        tasks = sorted({t.name for t in content.tasks.values()} - {t.name for t in reference.tasks.values()})
        known = {s.name for s in reference.rules.skills}
        rules = sorted({s.name for s in content.rules.skills if skill_kind(s)} - known)
        if cards or tasks or rules:
            out[str(pack.get("name"))] = {"cards": cards, "tasks": tasks, **({"rule_skills": rules} if rules else {})}
    return out


def card_pin_facts(meta: dict) -> dict[str, dict[str, Any]]:
    """Per card kind the sweep keeps at a count in every deck (``--card``): its `name` (from the first pack whose
    content loads and has it; null if none does) and the packs `without` it, which played their decks unchanged."""
    cards = (meta.get("pins") or {}).get("cards") or {}
    if not cards:
        return {}
    contents = _pack_contents(meta)
    out: dict[str, dict[str, Any]] = {}
    for card in sorted(cards):
        having = [c.card_types[card] for c in contents.values() if card in c.card_types]
        without = [label for label, c in contents.items() if card not in c.card_types]
        out[card] = {"name": having[0].name if having else None, "without": without}
    return out


def pin_names(meta: dict) -> dict[str, str]:
    """The names of the role and the secret task the sweep deals to a seat (``--role``, ``--task``), by pin
    ("role": 画眉（歌女）, "task": 收藏家), from the first pack whose content loads and has each; a pin no pack names
    is left out (the report says its id)."""
    pins = meta.get("pins") or {}
    role, task = pins.get("role"), pins.get("task")
    if not (role or task):
        return {}
    out: dict[str, str] = {}
    for content in _pack_contents(meta).values():
        if role and "role" not in out and role in content.roles:
            out["role"] = content.roles[role].label()
        if task and "task" not in out and task in content.tasks:
            out["task"] = content.tasks[task].name
    return out


def _pack_contents(meta: dict) -> dict[str, Any]:
    """Each pack's content by its label, where it loads (a pack moved or broken since the sweep is left out)."""
    from ..content.loader import load_cached
    from ..content.packs import parse_expansions, resolve_packs

    contents = {}
    for pack in meta.get("packs") or []:
        if pack.get("missing"):
            continue
        try:
            paths = resolve_packs(list(pack.get("content") or []), parse_expansions(pack.get("expansions")))
            contents[str(pack.get("name"))] = load_cached(paths)
        except Exception:  # a pack moved or broken since the sweep: it is named neither way
            continue
    return contents


def locate_packs(meta: dict, where: str | Path | None = None) -> tuple[dict, dict[str, dict[str, Any]]]:
    """The sweep's grid with each pack's folders as this process finds them, and a note per pack that is not
    there or has changed since the sweep: its facts (``kind`` missing, changed or broken, and what each names; older:
    the sweep's fingerprint is an older fengsheng's, which cannot tell),
    which words.note_text says in a language.

    ``sweep.json`` names a pack's folders as a log's header does (``content.packs.find_log_pack``: a bundled
    pack by id, another relative to the sweep's directory `where` — else to the current directory, where an
    older sweep's folders, kept as typed, are). The grid returned names them from the current directory
    (absolute when outside it), so the skill lists load and the re-run commands work from where the report is
    made; a pack that is not there keeps the place it was looked for beside the sweep and is marked
    ``missing`` (its skills are then known only from their uses)."""
    import contextlib
    import copy
    import os

    from ..content.fingerprint import older_fingerprint
    from ..content.loader import ContentErrors
    from ..content.packs import PackError, find_log_pack, parse_expansions, resolve_packs
    from ..sim import content_fingerprint

    here = Path.cwd()

    def from_here(p: Path) -> str:
        p = Path(os.path.abspath(p))
        try:
            return p.relative_to(here).as_posix() or "."
        except ValueError:
            return str(p)

    meta = copy.deepcopy(meta)
    notes: dict[str, dict[str, Any]] = {}
    base = Path(where) if where is not None else None
    for pack in meta.get("packs") or []:
        if not isinstance(pack, dict):
            continue
        name, found, lost = str(pack.get("name")), [], []
        for ref in pack.get("content") or []:
            folder, places = find_log_pack(str(ref), base)
            if folder is None:
                folder = Path(os.path.normpath(base / ref)) if base is not None else Path(ref)
                lost.append((str(ref), [os.path.normpath(p) for p in places], from_here(folder)))  # (beside it)
            found.append(folder)
        pack["content"] = [from_here(p) for p in found]
        if lost:
            pack["missing"] = True
            notes[name] = {
                "kind": "missing",
                "pack": name,
                "lost": [[ref, places] for ref, places, _ in lost],
                "at": [at for _, _, at in lost],
            }
            continue
        fingerprint = pack.get("fingerprint")
        if fingerprint:
            older = older_fingerprint(fingerprint)  # an older fengsheng's (of the files): nothing to compare it with
            now = None
            if not older:
                with contextlib.suppress(PackError, ContentErrors, OSError):  # (changed, or broken: said below)
                    now = content_fingerprint(resolve_packs(found, parse_expansions(pack.get("expansions"))))
            if now != fingerprint:
                where = ", ".join(pack["content"]) or None  # (None: the bundled game)
                notes[name] = {"kind": "older" if older else "changed", "pack": name, "where": where}
                broken = _load_error(found, pack.get("expansions"))
                if broken:
                    notes[name] = {"kind": "broken", "pack": name, "where": where, "error": broken}
    return meta, notes


def _load_error(folders: list[Path], expansions: Any) -> str | None:
    """The first error of loading a sweep's pack as it is now (`path:line:col: error CODE: message`), or None.
    (Loaded afresh: the process's cache may hold the pack as it was before it changed.)"""
    from ..content.loader import ContentErrors, load_content
    from ..content.packs import PackError, parse_expansions, resolve_packs

    try:
        load_content(resolve_packs(folders, parse_expansions(expansions)))
    except ContentErrors as e:
        first = e.errors[0] if e.errors else None
        return (f"{first.path}:{first.line}:{first.col}: error {first.code}: {first.message}" if first else str(e))[
            :300
        ]
    except (PackError, OSError) as e:
        return str(e)[:300]
    return None


def pack_skills(meta: dict) -> dict[str, dict[str, list[tuple[str, str]]]]:
    """Each pack's roles and their usable skills (active, triggered, victory), loaded from the packs the
    sweep names (``locate_packs`` finds them first); a pack that is not there (``missing``) or no longer loads
    is left out (its skills are then known only from their uses). The rules' skills are under RULE_SKILL_OWNER,
    as the records name their uses (a rule skill never offered is flagged unused as a role's would be)."""
    from ..content.loader import load_cached
    from ..content.packs import parse_expansions, resolve_packs

    out: dict[str, dict[str, list[tuple[str, str]]]] = {}
    for pack in meta.get("packs") or []:
        if pack.get("missing"):
            continue
        try:
            paths = resolve_packs(list(pack.get("content") or []), parse_expansions(pack.get("expansions")))
            content = load_cached(paths)
        except Exception:  # a pack moved or broken since the sweep: the report still stands
            continue
        out[str(pack.get("name"))] = {
            role.label(): [(s.name, kind) for s in role.skills if (kind := skill_kind(s))]
            for role in content.roles.values()
        }
        rule_skills = [(s.name, kind) for s in content.rules.skills if (kind := skill_kind(s))]
        if rule_skills:  # every seat's, in every game: counted as the records count them (规则·换牌)
            out[str(pack.get("name"))][RULE_SKILL_OWNER] = rule_skills
    return out


def pack_counts(meta: dict) -> dict[str, tuple[int, int]]:
    """Each pack's rules' counts of intel (``model.content.rule_counts``: collect_count, death_count), which the
    report's endings say; a pack that is not there or no longer loads is left out (its endings then name no count
    rather than the base game's, which a fork may not have)."""
    from ..model.content import rule_counts

    return {label: rule_counts(content.rules) for label, content in _pack_contents(meta).items()}


def rerun_command(meta: dict, pack: str, agents: str, players: int, seed: Any, index: Any = None) -> str | None:
    """The command that plays one game of a sweep alone with its resolution trace (None when the sweep's spec
    does not name the pack)."""
    import shlex

    source = next((p for p in meta.get("packs") or [] if isinstance(p, dict) and p.get("name") == pack), None)
    if source is None:
        return None
    words = ["fengsheng", "simulate", "-p", str(players), "--agents", shlex.quote(agents)]
    for d in source.get("content") or []:
        words += ["--content", shlex.quote(str(d))]
    if source.get("expansions") is not None:
        words += ["--expansions", shlex.quote(str(source["expansions"]))]
    if meta.get("max_turns") is not None:
        words += ["--max-turns", str(meta["max_turns"])]
    pins = meta.get("pins") or {}
    if isinstance(pins.get("cards"), dict):  # the card kinds every game kept at a count
        words += [f"--card {shlex.quote(f'{card}={n}')}" for card, n in sorted(pins["cards"].items())]
    if (pins.get("role") or pins.get("task")) and isinstance(index, int):  # at the seat game `index` had them
        words += [f"--{k} {shlex.quote(str(pins[k]))}" for k in ("role", "task") if pins.get(k)]
        words += ["--pin-seat", str(index % players)]
    if pins.get("keyed") is True:  # a game of a grid of several packs: dealt in the keyed order, nothing pinned
        words += ["--keyed-deal"]
    return " ".join([*words, "--game-seed", str(seed), "--trace"])


def skill_kind(skill: Any) -> str:
    """A usable skill's kind as the report shows it: its own (``triggered``), or for a skill with several moments
    (``moments:``) each moment's kind once, in order (``triggered + victory``); "" for a passive skill."""
    kinds = [m.kind for m in (skill.moments or (skill,)) if m.kind != "passive"]
    return " + ".join(dict.fromkeys(kinds))


def new_roles(meta: dict, skills: dict[str, dict[str, list[tuple[str, str]]]]) -> dict[str, list[str]]:
    """Per pack: the roles of its content that the bundled game played with the same expansions has not
    (the roles a designer wrote), when they are at most half of its roles (more: a game of its own,
    nothing is singled out). Its roles are its real ones: the holder of the rules' skills (RULE_SKILL_OWNER, which
    `skills` lists beside them) is neither new nor one of them."""
    from ..content.loader import load_cached
    from ..content.packs import parse_expansions, resolve_packs

    out: dict[str, list[str]] = {}
    for pack in meta.get("packs") or []:
        name = str(pack.get("name"))
        roles = skills.get(name)
        if not roles:
            continue
        try:
            reference = load_cached(resolve_packs([], parse_expansions(pack.get("expansions"))))
        except Exception:  # an expansion no longer bundled: nothing to compare with
            continue
        real = set(roles) - {RULE_SKILL_OWNER}
        added = sorted(real - {r.label() for r in reference.roles.values()})
        if added and 2 * len(added) <= len(real):
            out[name] = added
    return out
