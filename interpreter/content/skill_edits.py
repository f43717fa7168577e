"""Edits of the rule skills by a pack (`rules: skills:` written as a mapping in a pack.yaml): a rule skill added,
replaced or removed by its id, without the whole list copied (docs/modding.md, "Rule skills").

A list under `rules: skills:` still replaces the rule skills whole, as any list of the rules does; a mapping edits
those of what the pack extends, as a pack's `replace:` and `remove:` do its cards and roles: `add:` writes new ones
(an id the rules have already is E120: nothing is replaced by accident), `replace:` writes one in place of the
rule skill of its id, `remove:` takes ids out (an id the rules do not have is E121 with the closest one). The edits
apply in that order (`remove`, `replace`, `add`). Like turn_edits.py, this module works on plain data and returns
what it finds wrong as Findings; the entries it writes keep the pack's positions (FilePos), so the build stage's
checks of each skill point into the pack.yaml that wrote it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..snippet import clip
from ..suggest import did_you_mean
from .manifest import Finding
from .yamlpos import PosDict, PosList, list_in_place, pos_of

EDITS = ("remove", "replace", "add")  # in the order they apply


def skill_edits_schema(fragment_schema: dict) -> dict:
    """The schema of a manifest's `rules:` (manifest.rules_fragment_schema) with `skills:` a list (the rule skills,
    whole) or a mapping of edits."""
    properties = dict(fragment_schema["properties"])
    if "skills" in properties:
        whole = properties["skills"]
        entries = {"type": "array", "items": whole["items"]}
        properties["skills"] = {
            **whole,
            "type": ["array", "object"],
            "additionalProperties": False,
            "properties": {
                "add": {**entries, "description": "rule skills added (an id the rules have already: E120)"},
                "replace": {**entries, "description": "rule skills, each in place of the one with its id"},
                "remove": {
                    "type": "array",
                    "items": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                    "description": "the ids of the rule skills taken out",
                },
            },
        }
    return {**fragment_schema, "properties": properties}


def edit_skills(
    rules: PosDict, edits: PosDict, path: Path, pack: str, dropped: set[tuple[int, object]] | None = None
) -> tuple[list[str], list[Finding]]:
    """Apply a pack's edits to `rules["skills"]` (none when the rules have none).

    Returns the changes in words and what was wrong (an id to replace or remove that the rules do not have: E121
    with the closest id; one to add that they have: E120; a skill to add or replace without an id: E112, unless
    its id was there and taken out for its shape, `dropped`: Diagnostics.dropped, told already). A wrong edit is
    left out; the others apply."""
    skills = list_in_place(rules, "skills")
    changes: list[str] = []
    found: list[Finding] = []
    for op in EDITS:
        value = edits.get(op)
        if isinstance(value, list):
            for n, item in enumerate(value):
                if op != "remove" and isinstance(item, PosDict) and "id" not in item:
                    if (id(item), "id") not in (dropped or set()):  # (a pack's rules: are checked without required)
                        found.append(_no_id(op, item, pos_of(value, n), path, pack))
                    continue
                _apply(op, skills, item, pos_of(value, n), path, pack, changes, found)
    rules["skills"] = skills
    if "skills" not in rules.val_pos and edits.pos is not None:
        rules.val_pos["skills"] = edits.pos
    return changes, found


def _no_id(op: str, item: PosDict, pos: Any, path: Path, pack: str) -> Finding:
    """E112 for a rule skill to add or replace written without its id: it was left out without a word."""
    name = item.get("name")
    what = f"the rule skill {clip(name)}" if isinstance(name, str) else "a rule skill"
    return Finding(
        path,
        pos,
        "E112",
        f"missing key 'id': pack '{pack}' {op}s {what} without its id",
        "a rule skill is replaced by its id: the id of the one it takes the place of"
        if op == "replace"
        else f"give it an id no skill has, e.g. {pack}_…",
    )


def _ids(skills: PosList) -> list[str]:
    return [str(s["id"]) if isinstance(s, dict) and isinstance(s.get("id"), str) else "?" for s in skills]


def _apply(
    op: str, skills: PosList, item: Any, pos: Any, path: Path, pack: str, changes: list[str], found: list[Finding]
) -> None:
    ident = item if op == "remove" else item.get("id") if isinstance(item, PosDict) else None
    if not isinstance(ident, str):
        return  # (the schema check reported it)
    ids = _ids(skills)
    if op == "add":
        if ident in ids:
            found.append(
                Finding(
                    path,
                    pos_of(item, "id") or pos,
                    "E120",
                    f"pack '{pack}' adds the rule skill '{clip(ident)}', which the rules have already",
                    "to write it anew, put it under `skills: replace:`; to add another, give it an id of its own",
                )
            )
            return
        skills.append(item)
        skills.item_pos.append(pos)
        changes.append(f"{pack}: rules skill {ident} added")
        return
    if ident not in ids:
        found.append(
            Finding(
                path,
                pos_of(item, "id") if op == "replace" else pos,
                "E121",
                f"pack '{pack}' {op}s the rule skill '{clip(ident)}', which the rules do not have",
                did_you_mean(ident, ids)
                or ("the rules' skills: " + ", ".join(ids) if ids else "the rules have no skills: `add:` one"),
            )
        )
        return
    i = ids.index(ident)
    if op == "remove":
        del skills[i], skills.item_pos[i]
    else:
        skills[i], skills.item_pos[i] = item, pos
    changes.append(f"{pack}: rules skill {ident} {op}d")
