"""A fork's changes in words, a line each, in either language (messages.py): what `fengsheng pack diff` prints
(in English) and what the balance report shows of each fork (in the report's language), from the same records
(`pack diff --format json`'s) and the decks' sizes before and after.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from .messages import say

# the word of each kind of game object a change names (a card, role, secret task or rule skill added, removed or
# changed)
_KIND_WORDS = {"card": "card", "role": "role", "secret_task": "task", "rule_skill": "rule_skill"}
_DECK_NAME = re.compile(r"^(.*) \((\d+)-(\d+) players\)$")  # a deck as `pack diff` names it: "full (9-10 players)"
_SIGNS = {"added": "+", "removed": "-", "changed": "~"}


def diff_lines(changes: Sequence[dict], deck_sizes: Mapping[str, Sequence[int]], lang: str) -> list[str]:
    """One line per rule, identity table row, deck and game object that changed; `deck_sizes`: each changed
    deck's cards before and after."""
    out: list[str] = []
    done: set = set()
    for c in changes:
        kind, obj = c["kind"], c["object"]
        if kind == "rules":
            out.append(
                say("diff_rules", lang, field=c["field"], old=_value(c["old"], lang), new=_value(c["new"], lang))
            )
        elif kind == "identity_table":
            out.append(say("diff_identity_table", lang, n=obj, old=_row(c["old"], lang), new=_row(c["new"], lang)))
        elif kind == "copies":
            key = "diff_copy" if len(obj) == 1 else "diff_copies"
            old, new = _value(c["old"], lang), _value(c["new"], lang)
            out.append(say(key, lang, n=len(obj), field=c["field"], old=old, new=new))
            continue
        elif (kind, obj) in done:
            continue
        elif kind == "deck":
            moved = [
                f"{d['field']} {d['old']} → {d['new']}" for d in changes if d["kind"] == "deck" and d["object"] == obj
            ]
            before, after = deck_sizes.get(obj) or (0, 0)
            deck, sep = _deck_name(obj, lang), say("diff_sep", lang)
            out.append(say("diff_deck", lang, deck=deck, old=before, new=after, moved=sep.join(moved)))
        else:
            pack = "" if c["change"] == "removed" else say("diff_pack", lang, pack=c["pack"])
            word = say(_KIND_WORDS[kind], lang)
            line = say("diff_object", lang, sign=_SIGNS[c["change"]], kind=word, name=c["name"], id=obj, pack=pack)
            if c["change"] == "changed":  # what of it changed (a record per field): its text, its code, …
                line += _fields(changes, kind, obj, lang)
            out.append(line)
        done.add((kind, obj))
    return out


def _fields(changes: Sequence[dict], kind: str, obj: object, lang: str) -> str:
    """The fields of one changed game object, in words (": text, code"): a designer reading `~ role X` should not
    have to ask for the JSON to learn whether its text or its code changed. A field with no word is named as is."""
    fields = [c["field"] for c in changes if c["kind"] == kind and c["object"] == obj and c["change"] == "changed"]
    if not fields:
        return ""
    words = [say("diff_field_" + f, lang) if ("diff_field_" + f) in _FIELD_KEYS else str(f) for f in fields]
    return say("diff_fields", lang, fields=say("diff_field_sep", lang).join(dict.fromkeys(words)))


_FIELD_KEYS = frozenset(f"diff_field_{f}" for f in ("name", "text", "code", "skills", "bot"))


def _deck_name(obj: str, lang: str) -> str:
    m = _DECK_NAME.match(obj)
    return say("diff_deck_name", lang, name=m[1], lo=m[2], hi=m[3]) if m else obj


def _value(v: object, lang: str) -> str:
    if v is None:
        return say("diff_none", lang)
    if isinstance(v, bool):
        return str(v).lower()
    return ", ".join(map(str, v)) if isinstance(v, list) else str(v)


def _row(row: dict | None, lang: str) -> str:
    return ", ".join(f"{k} ×{v}" for k, v in row.items()) if row else say("diff_none", lang)


def fork_lines(diff: Mapping, lang: str) -> list[str]:
    """A report's pack diff of one fork (``pack_diffs``' entry) in `lang`; an entry without the decks' sizes (a
    report's JSON of an earlier version) as its English lines."""
    if "deck_sizes" not in diff:
        return list(diff["lines"])
    return diff_lines(diff["changes"], diff["deck_sizes"], lang)
