"""``fengsheng pack``: what a rule set resolves to, and what a fork changes of another.

    fengsheng pack show [PACK]            # the packs layered, the rule numbers, the deck, cards, roles, tasks
    fengsheng pack diff BASE FORK         # rules, deck counts, cards, roles, tasks: what differs

A PACK is a folder or a bundled pack's id (``base``, ``tie_wu_zi``, ``lao_yang_fang``); it is
resolved like ``--content`` (interpreter/content/packs.py): a pack is played over what it extends
and, without a rules.yaml of its own, over the bundled game. ``diff`` compares the two games as
loaded, not their files, so it is exact however the fork was written (a manifest or copied files).
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Final

import click

from .catalogue import PHASE_KINDS, TIMINGS
from .cli_options import expansions_help, expansions_option, format_option
from .content.loader import ContentErrors, load_content
from .content.packs import PackError, bundled_packs, parse_expansions, resolve_packs
from .model.colors import COLOR_BITS
from .model.content import Content, Skill
from .suggest import did_you_mean, folder_hint


def _resolve(ref: str | None, expansions: str | None, default: list[str] | None) -> list[Path]:
    """The folders a pack reference stands for, with the expansions chosen (`default` when not given).

    A bundled id stands for that pack and what it extends; a folder for that pack, as `--content`.
    """
    words = parse_expansions(expansions)
    words = default if words is None else words
    bundled = bundled_packs()
    try:
        if ref is None or ref == "base":
            return resolve_packs((), words)
        if ref in bundled:
            return resolve_packs([bundled[ref]], words)
        if not os.path.isdir(ref):  # (not Path.is_dir: a name too long for the system raises OSError there)
            hint = folder_hint(ref) or did_you_mean(ref, bundled)
            raise click.BadParameter(
                f"{ref!r} is neither a folder nor a bundled pack (bundled: {', '.join(bundled)})"
                + (f"; {hint}" if hint else ""),
                param_hint="PACK",
            )
        return resolve_packs([ref], words)
    except PackError as e:
        raise click.BadParameter(str(e), param_hint="'--expansions'") from None


def _load(ref: str | None, expansions: str | None, default: list[str] | None = None) -> Content:
    try:
        return load_content(_resolve(ref, expansions, default))
    except ContentErrors as e:
        for err in e.errors:
            click.echo(str(err), err=True)
        click.echo(
            f"{len(e.errors)} error(s) in {ref or 'the content'}; run `fengsheng validate` for details.", err=True
        )
        sys.exit(1)


def summary(content: Content) -> dict:
    """The resolved rule set as plain data: what `pack show` prints and `pack diff` compares."""
    r = content.rules
    deck_sizes = {}
    for lo, hi, name in r.decks:
        kinds = Counter(content.card_types[e.card_type].name for e in content.deck if e.uid in set(content.decks[name]))
        deck_sizes[f"{name} ({lo}-{hi} players)"] = {
            "cards": sum(kinds.values()),
            "by_card": dict(sorted(kinds.items())),
        }
    origin = content.origins
    return {
        "packs": [
            {"id": p.id, "name": p.name, "version": p.version, "folder": p.folder, "extends": list(p.extends)}
            for p in content.packs
        ],
        "rules": {
            "name": r.name,
            "start_hand": r.start_hand,
            "draw_count": r.draw_count,
            "give_on_death": r.give_on_death,
            "collect_count": r.collect_count,
            "death_count": r.death_count,
            "max_turns": r.max_turns,
            "hand_limit": r.hand_limit,
            "first_turn_skip": "[" + ", ".join(r.first_turn_skip) + "]",
            "send_arrows": "[" + ", ".join(r.send_arrows) + "]",
            "lockable": r.lockable,
            "card_targets": r.card_targets,
            "turn": "[" + ", ".join(_phase_text(ph) for ph in r.phases) + "]",
            "resolution": r.resolution,
            "fast": ", ".join(t for t, x in TIMINGS.items() if r.speeds.get(t, x.speed) == "fast"),
            # what the rules declare, and how each identity wins: a fork that lowers collect_count lowers the
            # identities' conditions too, and a diff without them showed half of the change
            **_declared(content),
            **{
                f"identity {i.id}": "; ".join(f"{v.check} {v.source}" for v in i.victories) or None
                for i in content.identities.values()
            },
        },
        "identity_table": {str(n): dict(row) for n, row in sorted(r.identity_table.items())},
        "decks": deck_sizes,
        # each deck copy as printed (after the packs' deck changes and the rules' lockable): what `diff` compares
        # copy by copy (a deck transform changes no count)
        "copies": {
            str(e.uid): {
                "card": e.card_type,
                "colors": [c for c, bit in COLOR_BITS.items() if e.mask & bit],
                "direction": e.direction,
                "lockable": e.lockable,
            }
            for e in content.deck
        },
        # each game object's name, text, rules (`code`: every field that changes how it plays, so that `diff` tells
        # a fork that changes one of them from the same game; SKILL_RULES below) and bot hints, compared field by field
        "cards": {
            c.id: {
                "name": c.name,
                "pack": _pack(origin, "card", c.id),
                "text": c.text,
                "code": _card_code(c),
                "bot": c.bot,
            }
            for c in content.card_types.values()
        },
        "roles": {
            x.id: {
                "name": x.label(),
                "pack": _pack(origin, "role", x.id),
                "skills": [s.name for s in x.skills],
                "text": [s.text for s in x.skills],
                "code": {"hidden": x.hidden, "gender": x.gender, "skills": [_skill_rules(m) for m in x.moments]},
                "bot": [s.bot for s in x.skills],
            }
            for x in content.roles.values()
        },
        # the rules' skills, every seat's whatever its role: summed up as a role's skills are
        "rule_skills": {
            s.id: {
                "name": s.name,
                "pack": _pack(origin, "rule_skill", s.id),
                "text": s.text,
                "code": [_skill_rules(m) for m in s.moments or (s,)],
                "bot": s.bot,
            }
            for s in r.skills
        },
        "secret_tasks": {
            t.id: {
                "name": t.name,
                "pack": _pack(origin, "secret_task", t.id),
                "text": t.text,
                "code": [[v.check, v.source, v.dead_may_win] for v in t.victories],
                "bot": t.bot,
            }
            for t in content.tasks.values()
        },
        "changes": list(content.changes),
    }


def _declared(content: Content) -> dict[str, str | None]:
    """The counters (with their ranges), zones and events the rules declare, by name (None: none)."""
    d = content.declared
    counters = [f"{c.name} ({c.minimum}-{'' if c.maximum is None else c.maximum})" for c in d.counters.values()]
    return {
        "counters": ", ".join(counters) or None,
        "zones": ", ".join(d.zones) or None,
        "events": ", ".join(d.events) or None,
    }


def _phase_text(ph) -> str:
    """A phase as `pack show` lists it: its id, its kind's Chinese name, and its settings if it has any."""
    text = f"{ph.id} {PHASE_KINDS[ph.kind].zh}"
    return text + (" (" + ", ".join(f"{k} {v}" for k, v in ph.settings) + ")" if ph.settings else "")


def _card_code(c) -> list:
    """A card kind's rules as data: how it is played (face down, where it goes after), its per-copy data and each
    use's timing and code, so that `diff` sees any of them changed."""
    uses = ([u.timing, u.target_source, u.condition_source, u.effect_source] for u in c.uses)
    return [c.effect_source, c.face_down, c.after_use, dict(c.data_keys), *uses]


SKILL_RULES: Final = (
    "kind",
    "timing",
    "on",
    "limit_scope",
    "limit_times",
    "optional",
    "flips_up",
    "check",
    "switch",
    "persistent",
    "dormant",
    "while_face_down",
    "condition_text",
    "effect_text",
)
"""A skill's (or one moment's) fields that change how it plays: what `pack diff` compares as its `code`. The other
fields of model.content.Skill are its name and text and bot hint (compared on their own), what is built from these
(the compiled condition, effect and guard), and where it belongs (its role, its moments, of_rules):
tests/test_pack_commands.py checks that every field is one or the other."""


def _skill_rules(m: Skill) -> dict[str, Any]:
    """One skill's or moment's rules as JSON data (tuples as lists)."""
    out: dict[str, Any] = {}
    for k in SKILL_RULES:
        v = getattr(m, k)
        out[k] = list(v) if isinstance(v, tuple) else v
    return out


def _pack(origins: dict, kind: str, ident: str) -> str:
    o = origins.get((kind, ident))
    return o.pack if o is not None else "?"


@click.group("pack")
def pack() -> None:
    """Content packs: what a rule set resolves to, what a fork changes (fengsheng docs modding)."""


@pack.command("show")
@click.argument("ref", required=False, metavar="[PACK]")
@expansions_option(expansions_help("all (the default; a bundled pack's id alone: none), none"))
@format_option(legacy_json=True, help="a listing, or one JSON document (packs, rules, identity table, decks, …)")
def show(ref: str | None, expansions: str | None, fmt: str) -> None:
    """What PACK resolves to (default: the full bundled game): its packs, rules, deck, cards, roles, tasks.

    A folder is shown as --content plays it (over the bundled game with every expansion unless
    --expansions says otherwise); a bundled pack's id, with what it extends only.
    """
    default = ["none"] if ref is not None and ref in bundled_packs() else None
    data = summary(_load(ref, expansions, default))
    if fmt == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    out = ["packs (loaded in this order):"]
    for p in data["packs"]:
        ver = f" {p['version']}" if p["version"] else ""
        ext = f", extends {', '.join(p['extends'])}" if p["extends"] else ""
        out.append(f"  {p['id']}{ver}: {p['name']} ({p['folder']}{ext})")
    out.append(f"rules: {data['rules']['name']}")
    for k, v in data["rules"].items():
        if k != "name":  # a rule left unset (hand_limit) reads `none`, as pack diff and the docs say, not Python's None
            out.append(f"  {k}: {'none' if v is None else v}")
    out.append("identity table:")
    for n, row in data["identity_table"].items():
        out.append(f"  {n:>2} players: " + ", ".join(f"{k} ×{v}" for k, v in row.items()))
    out.append("decks:")
    for name, d in data["decks"].items():
        out.append(f"  {name}: {d['cards']} cards — " + ", ".join(f"{k} {v}" for k, v in d["by_card"].items()))
    for kind, title in (
        ("cards", "card kinds"),
        ("secret_tasks", "secret tasks"),
        ("roles", "roles"),
        ("rule_skills", "rule skills (every seat's)"),
    ):
        if kind == "rule_skills" and not data[kind]:
            continue  # (a rule set without any: the listing as before)
        by_pack: dict[str, list[str]] = {}
        for item in data[kind].values():
            by_pack.setdefault(item["pack"], []).append(item["name"])
        out.append(f"{title}: {len(data[kind])}")
        for p, names in by_pack.items():
            out.append(f"  {p} ({len(names)}): {', '.join(names)}")
    if data["changes"]:
        out.append("what the packs change of what they extend:")
        out += [f"  {c}" for c in data["changes"]]
    click.echo("\n".join(out))


@pack.command("diff")
@click.argument("base", metavar="BASE")
@click.argument("fork", metavar="FORK")
@expansions_option(expansions_help("all, none (the default: the base game alone on both sides)"))
@format_option(
    legacy_json=True,
    help="a line per change, or one JSON document: same, and a record per change (kind, change, object, name, "
    "pack, field, old, new)",
)
def diff(base: str, fork: str, expansions: str | None, fmt: str) -> None:
    """What FORK changes of BASE: rule numbers, identity table, deck counts, cards, roles, secret tasks.

    Each is a folder or a bundled pack's id, with what it extends and, on both sides alike, the
    expansions --expansions names (default: none, so `pack diff base tie_wu_zi` shows the first
    expansion). Exit status 0 when they are the same game, 1 when they differ.
    """
    a, b = summary(_load(base, expansions, ["none"])), summary(_load(fork, expansions, ["none"]))
    changes = compare(a, b)
    if fmt == "json":
        data = {"base": base, "fork": fork, "same": not changes, "changes": changes}
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    elif not changes:
        click.echo(f"{fork} plays the same game as {base}")
    else:
        click.echo(f"{fork} against {base}:")
        for line in diff_lines(a, b, changes):
            click.echo(f"  {line}")
    sys.exit(1 if changes else 0)


# The kinds of game object `pack diff` compares one by one, as summary() keys them (their word in a line:
# balance/diff_words.py).
OBJECTS = {"cards": "card", "roles": "role", "secret_tasks": "secret_task", "rule_skills": "rule_skill"}


def _change(kind: str, change: str, obj: object = None, field: str | None = None, old=None, new=None, item=None):
    return {
        "kind": kind,  # rules, identity_table, deck, copies, card, role, secret_task, rule_skill
        "change": change,  # added, removed, changed
        "object": obj,  # the player count, the deck, the copies' ids, the card's, role's or task's id (rules: none)
        "name": item["name"] if item else None,
        "pack": item["pack"] if item else None,
        "field": field,  # a rule's key, a deck's card name, the copies' field, a card's/role's/task's changed field
        "old": old,
        "new": new,
    }


def compare(a: dict, b: dict) -> list[dict]:
    """The differences between two summaries, one record each, in a fixed order (`pack diff --format json`).

    A rule number changed; an identity table row (the row, or null where a side has none); a deck's count of
    one card; a card, role or secret task added, removed, or changed field by field (text, code, skills, …).
    """
    out = []
    for k in {**a["rules"], **b["rules"]}:  # (an identity only one side has: None on the other)
        if a["rules"].get(k) != b["rules"].get(k):
            out.append(_change("rules", "changed", field=k, old=a["rules"].get(k), new=b["rules"].get(k)))
    for n in sorted({*a["identity_table"], *b["identity_table"]}, key=int):
        x, y = a["identity_table"].get(n), b["identity_table"].get(n)
        if x != y:
            change = "added" if x is None else "removed" if y is None else "changed"
            out.append(_change("identity_table", change, int(n), old=x, new=y))
    for name in sorted({*a["decks"], *b["decks"]}):
        x, y = a["decks"].get(name, {"by_card": {}}), b["decks"].get(name, {"by_card": {}})
        for card in sorted({*x["by_card"], *y["by_card"]}):
            old, new = x["by_card"].get(card, 0), y["by_card"].get(card, 0)
            if old != new:
                out.append(_change("deck", "changed", name, card, old, new))
    out += _copy_changes(a["copies"], b["copies"])
    for key, kind in OBJECTS.items():
        xs, ys = a.get(key, {}), b.get(key, {})  # (a summary of an earlier version has no rule_skills)
        for ident in sorted({*xs, *ys}):
            x, y = xs.get(ident), ys.get(ident)
            if x is None:
                out.append(_change(kind, "added", ident, item=y))
            elif y is None:
                out.append(_change(kind, "removed", ident, item=x))
            else:
                for field in x:
                    if field != "pack" and x[field] != y.get(field):
                        out.append(_change(kind, "changed", ident, field, x[field], y.get(field), item=y))
    return out


def _copy_changes(a: dict, b: dict) -> list[dict]:
    """The deck copies both sides have whose printed fields differ: one record per field and change (old → new),
    its object the copies' ids (a deck transform of 118 copies is one record, not 118)."""
    groups: dict[tuple, list[int]] = {}
    for uid in sorted({*a} & {*b}, key=int):
        for field in ("card", "colors", "direction", "lockable"):
            old, new = a[uid][field], b[uid][field]
            if old != new:
                groups.setdefault((field, json.dumps(old), json.dumps(new)), []).append(int(uid))
    return [
        _change("copies", "changed", uids, field, json.loads(old), json.loads(new))
        for (field, old, new), uids in groups.items()
    ]


def diff_lines(a: dict, b: dict, changes: list[dict]) -> list[str]:
    """`pack diff`'s lines for people: one per rule, identity table row, deck and game object that changed (the
    balance report's words of a fork, balance/diff_words.py, in English)."""
    from .balance.diff_words import diff_lines as lines

    return lines(changes, deck_sizes(a, b, changes), "en")


def deck_sizes(a: dict, b: dict, changes: list[dict]) -> dict[str, list[int]]:
    """The cards of each deck the changes touch, before and after (a deck one side lacks: 0)."""
    decks = {c["object"] for c in changes if c["kind"] == "deck"}
    return {obj: [side["decks"].get(obj, {"cards": 0})["cards"] for side in (a, b)] for obj in sorted(decks)}
