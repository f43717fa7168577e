"""The schema stage: a file's data checked against its kind's JSON schema (interpreter/bundled/schema/).

Every way the data breaks the schema is reported to the sink in words a designer reads (an unknown key with
the key meant, a missing key with what it is for, an unknown name with the closest one), never jsonschema's
own text; then each value of the wrong shape is taken out of the data, so that the build stage, which reads
what is left, never meets it (and says nothing more of it: Diagnostics.dropped).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from .. import catalogue
from ..paths import SCHEMA_DIR
from ..snippet import brief, clip, line_of
from ..suggest import closest, did_you_mean
from .diagnostics import Diagnostics
from .manifest import KIND_FOLDERS
from .yamlpos import PosDict, key_pos_of, pos_of

# Schema errors after which the value is still of a shape the builders read (a string, a number): it stays.
_HARMLESS = {"required", "additionalProperties", "minLength", "pattern", "minimum", "maximum"}

# What an enum's key names, where the key alone reads badly in "unknown KEY 'x'" (a list of phase kinds).
ENUM_NOUNS = {"turn": "phase kind", "speeds": "idle point"}
ENUM_VALUE_NOUNS = {"speeds": "speed", "fields": "field type"}  # ... and what the values of such a mapping are


@cache
def schema(kind: str) -> dict:
    doc = json.loads((SCHEMA_DIR / f"{kind}.schema.json").read_text(encoding="utf-8"))
    if kind == "pack":  # `rules:` lists the rules' keys for editors; the loader checks it with each key's own
        rules = doc["properties"]["rules"]  # schema (layering.py: rules_fragment_schema), one finding each
        rules.pop("properties", None)
        rules.pop("additionalProperties", None)
    return doc


def check_schema(sink: Diagnostics, path: Any, data: PosDict, kind: str, schema_doc: dict | None = None) -> None:
    """Report every way `data` breaks the schema (of `kind`, or `schema_doc`), then take out each value of
    the wrong shape (a list where an id goes, an unknown timing), so that building from the rest never meets it."""
    import jsonschema  # (here: a run whose files all read clean before never needs it)

    validator = jsonschema.Draft202012Validator(schema_doc if schema_doc is not None else schema(kind))
    wrong = set()
    found = []
    for e in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        if e.absolute_path and e.validator not in _HARMLESS:
            wrong.add(tuple(e.absolute_path))
        found += _branch_errors(e)
    meant = _meant_keys(found)
    other = _other_kind(data, kind) if found and schema_doc is None else None
    if other is not None:  # a role file in cards/: one error that says so, not one per key of a role
        first = next(k for k in data if k not in schema(kind).get("properties", {}))
        sink.err(
            path,
            key_pos_of(data, first),
            "E111",
            f"unknown key '{clip(str(first))}': this is a {other.replace('_', ' ')} file, in the folder of "
            f"{kind.replace('_', ' ')}s",
            f"move it to {KIND_FOLDERS[other]}/: the folder a file is in says what it is",
        )
    else:
        for e in found:
            _report(sink, path, data, e, meant)
    _drop(sink, data, wrong)


def missing_keys(data: PosDict, kind: str) -> list[Any]:
    """The schema's `required` findings in `data` (of `kind`): what check_required compares before and after."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema(kind))
    return [e for e in validator.iter_errors(data) if e.validator == "required"]


def check_required(sink: Diagnostics, path: Any, data: PosDict, kind: str, before: list[Any]) -> None:
    """Report the keys the merged rules lack that the file alone did not (reported when it was read): a pack's
    `rules:` is checked without `required` (it merges into what has them), so a new identity without its `name`
    is told here, at its place in the pack.yaml."""
    told = {(tuple(e.absolute_path), e.message) for e in before}
    for e in missing_keys(data, kind):
        # a value of the wrong shape taken out (`limit: {per: turns}`) was told as wrong: not missing as well
        dropped = (id(e.instance), e.message.split("'")[1] if "'" in e.message else e.message) in sink.dropped
        if (tuple(e.absolute_path), e.message) not in told and not dropped:
            _report(sink, path, data, e, set())


def _other_kind(data: PosDict, kind: str) -> str | None:
    """The other kind of content file `data` is, when it breaks its own kind's schema by keys it does not have
    and has every key another kind requires and none that kind lacks (a role written in cards/); else None."""
    if kind not in KIND_FOLDERS or all(k in schema(kind).get("properties", {}) for k in data):
        return None
    for other in KIND_FOLDERS:
        s = schema(other)
        fits = all(k in s.get("properties", {}) for k in data) and all(r in data for r in s.get("required", []))
        if other != kind and fits:
            return other
    return None


def _branch_errors(e: Any) -> list:
    """A value that fits none of a `oneOf` (a timing, or a list of timings): the errors of the branch meant
    for the value's shape (the enum for a name, the items for a list), so that the message says what is wrong
    with it and suggests a name, not "is not valid under any of the given schemas"."""
    if e.validator not in ("oneOf", "anyOf") or not e.context:
        return [e]
    shaped = {
        c.schema_path[0]
        for c in e.context
        if not c.relative_path
        and (
            c.validator in ("type", "pattern")  # a declared name's branch (Chinese): not the one a slip meant
            or (c.validator == "enum" and isinstance(c.instance, (list, dict)))
        )
    }
    branches = [c for c in e.context if c.schema_path[0] not in shaped]
    if not branches or len({c.schema_path[0] for c in branches}) > 1:
        return [e]
    return [sub for c in branches for sub in _branch_errors(c)]


def _meant_keys(found: list) -> set[tuple[int, str]]:
    """(id of a mapping, required key) of each required key written with a slip (`hiden:`): it is reported once,
    as the unknown key that means it."""
    meant: set[tuple[int, str]] = set()
    for e in found:
        if e.validator == "additionalProperties" and isinstance(e.instance, dict):
            allowed = list(e.schema.get("properties", {}))
            for extra in e.instance:
                close = closest(str(extra), allowed) if extra not in allowed else []
                if close:
                    meant.add((id(e.instance), close[0]))
    return meant


def _report(sink: Diagnostics, path: Any, data: PosDict, e: Any, meant: set[tuple[int, str]]) -> None:
    """One schema error, in the designer's words, at the value it is about."""
    container, key = data, None
    node = data
    for k in e.absolute_path:
        container, key = node, k
        try:
            node = node[k]
        except (KeyError, IndexError, TypeError):
            break
    pos = pos_of(container, key) if key is not None else data.pos
    code, msg, hint = "E113", e.message, None
    if e.validator == "additionalProperties":
        allowed = list(e.schema.get("properties", {}))
        extras = [k for k in node if k not in allowed] if isinstance(node, dict) else []
        for extra in extras:
            where = key_pos_of(node, extra)
            # a key that has no place here though a like mapping elsewhere takes it (a rule skill's `flips_up:`,
            # a role's skill's) says why, from the schema's `x-unknown-key-hints`
            h = e.schema.get("x-unknown-key-hints", {}).get(extra) if isinstance(extra, str) else None
            index = next((k for k in reversed(list(e.absolute_path)) if isinstance(k, int)), None)
            if h and index is not None:  # `{index}`: the list item's own place (a scenario's seat: expect: players: 0:)
                h = h.replace("{index}", str(index))
            h = h or did_you_mean(extra, allowed) or ("allowed keys: " + ", ".join(allowed) if allowed else None)
            sink.err(path, where, "E111", f"unknown key '{clip(str(extra))}'", h)
        return
    if e.validator == "required":
        missing = e.message.split("'")[1] if "'" in e.message else e.message
        if (id(e.instance), missing) in meant:
            return  # the unknown key close to it was reported, with the name to write
        code, msg = "E112", f"missing key '{missing}'"
        pos = getattr(node, "pos", pos)
        hint = e.schema.get("properties", {}).get(missing, {}).get("description")
    elif e.validator == "enum":
        msg, hint = _enum_message(e)
    elif e.validator == "type":
        msg, hint = _type_message(e)
    elif e.validator == "pattern" and e.validator_value == ID_PATTERN and isinstance(e.instance, str):
        msg = f"{brief(e.instance)} is not an id: an id is lower-case pinyin, `_` between syllables"
        hint = _id_hint(e.instance)
    elif e.validator in ("oneOf", "anyOf") and e.instance is None:  # an answer: a word, a number or a mapping
        msg = "nothing is written here"
    elif e.validator == "uniqueItems" and isinstance(node, list):
        seen: list = []
        for i, item in enumerate(node):
            if item in seen:
                pos = pos_of(node, i) or pos
                msg = f"{brief(item)} is listed twice"
                hint = "name each item once"
                break
            seen.append(item)
    elif e.validator in ("maximum", "minimum"):
        if e.validator == "maximum":
            msg = f"{brief(e.instance)} is more than the largest allowed, {e.validator_value:,}"
        else:
            msg = f"{brief(e.instance)} is less than the smallest allowed, {e.validator_value:,}"
        hint = _range_hint(e.schema, e.validator == "maximum")
    elif e.validator == "maxItems":
        msg = f"a list of {len(e.instance):,} items: at most {e.validator_value:,} are allowed here"
        hint = "see docs/errors.md, Limits"
    if e.instance is None and pos is not None:  # `deck_top: #36`: the value YAML read is a comment
        source = line_of(sink.sources.get(str(path)), pos.line) or ""
        m = re.match(r"\s*#(\S+)", source[pos.col - 1 :])
        if m is not None:
            hint = _comment_hint(m.group(1), e.validator_value if e.validator == "type" else "string")
    sink.err(path, pos, code, msg, hint, about=(tuple(e.absolute_path), e.instance))


def _enum_message(e: Any) -> tuple[str, str]:
    hint = did_you_mean(e.instance, e.validator_value)
    named = [k for k in e.absolute_path if isinstance(k, str)]
    noun = ENUM_NOUNS.get(named[-1], named[-1]) if named else ""
    if len(named) > 1 and named[-2] in ENUM_VALUE_NOUNS:  # a value of a mapping keyed by names
        noun = ENUM_VALUE_NOUNS[named[-2]]
    msg = f"unknown {noun} {brief(e.instance)}" if named else f"{brief(e.instance)} is not allowed here"
    if named and named[-1] == "check" and isinstance(e.instance, str) and e.instance in catalogue.TRIGGER_EVENTS:
        # a trigger moment written as a check (game_end is both: a moment and a victory check of identities)
        hint = (
            f"`{e.instance}` is a trigger moment here: a skill that acts then is `kind: triggered` with "
            f"`trigger: {e.instance}`; a role's victory skill checks "
            + " or ".join(map(str, e.validator_value))
            + " (the victory checks such as game_end are those of identities' and secret tasks' `victory:`)"
        )
    return msg, hint or "allowed values: " + ", ".join(map(str, e.validator_value))


ID_PATTERN = "^[a-z][a-z0-9_]*$"  # the schemas' pattern of an id (zhang_san)


def _id_hint(text: str) -> str:
    """What to write for an id that is not one: the text in snake_case if it is ASCII (HuaMei, hua-mei), else
    the rule with an example (a Chinese name written as the id)."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text.strip())
    snake = re.sub(r"[^a-z0-9]+", "_", snake.lower()).strip("_")
    if snake and snake[0].isalpha() and snake.isascii() and snake != text:
        return f"did you mean {snake}?"
    return "the name's pinyin, lower case, `_` between syllables (zhang_san); the Chinese name goes under `name:`"


# a maximum from this up is one of the input limits docs/errors.md tables (a deck id's 999,999), not a game number
LIMIT_FROM = 100_000


def _range_hint(node: dict, over: bool) -> str:
    """The hint for a number out of range (`over`: above it): a game number's range and what it is (draw_count
    0 to 20), or, past an input limit, where the limits are listed."""
    low, high = node.get("minimum"), node.get("maximum")
    if high is not None and high >= LIMIT_FROM:
        if over:
            return "see docs/errors.md, Limits"
        high = None  # below the least: the limit above is not the point
    said = f"from {low:,} to {high:,}" if low is not None and high is not None else ""
    said = said or (f"at most {high:,}" if high is not None else f"at least {low:,}" if low is not None else "")
    what = node.get("description")
    return f"{said}: {what}" if said and what else said or what or "see docs/errors.md, Limits"


def _comment_hint(word: str, wanted: Any) -> str:
    """The hint for a value YAML read as a comment (`#36`): what to write in its place, by the type wanted."""
    said = f"`#{word}` starts a comment, so nothing is written here: "
    wanted = wanted if isinstance(wanted, list) else [wanted]
    if word.isdigit() and "integer" in wanted:  # a scenario's state takes a deck id as the number
        return said + f"write the deck id alone, {word}"
    if word.isdigit() and "array" in wanted:
        return said + f"write the list, [{word}]"
    return said + f'put it in quotes, "#{word}"'


# JSON Schema's type names in a designer's words
TYPE_WORDS = {
    "array": "a list",
    "object": "a mapping (key: value lines)",
    "string": "a text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
}


def _type_message(e: Any) -> tuple[str, str | None]:
    if e.instance is None:  # a key or `-` with nothing after it (or only a comment): not Python's None
        wanted = e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
        words = " or ".join(TYPE_WORDS.get(str(w), str(w)) for w in wanted if w != "null")
        return f"nothing is written here; it should be {words}", e.schema.get("description")
    msg = f"{brief(e.instance)} should be {e.validator_value}"
    if e.validator_value == "integer" and isinstance(e.instance, str) and re.fullmatch(r"#\d+", e.instance):
        # "#36" is how answers and expectations name a copy; a scenario's state (hand, deck_top) takes the number
        return f"{brief(e.instance)} should be a whole number", f"write the deck id alone here: {e.instance[1:]}"
    if isinstance(e.instance, bool) and e.validator_value == "string":
        return msg, f'YAML reads {str(e.instance).lower()} as a yes/no value: put the code in quotes, "..."'
    if e.validator_value == "boolean":
        return msg, did_you_mean(str(e.instance).lower(), ["true", "false"]) or "write true or false"
    if e.validator_value in ("integer", "number") and isinstance(e.instance, str) and _NUMBER.fullmatch(e.instance):
        # `initial: "1"`: a number in quotes is a text to YAML (the description alone said what the key is for)
        what = e.schema.get("description")
        return msg, f"a number is written without quotes: {e.instance.strip()}" + (f"; {what}" if what else "")
    return msg, e.schema.get("description")  # what the value is for, as the schema says it


_NUMBER = re.compile(r"\s*-?\d+(\.\d+)?\s*")


def _drop(sink: Diagnostics, data: PosDict, wrong: set[tuple]) -> None:
    """Take the values of the wrong shape out of `data`, marking where each was (Diagnostics.dropped)."""
    for at in wrong:  # what building must not take for missing (a skill whose misspelt trigger was taken out)
        node: Any = data
        try:
            for k in at[:-1]:
                node = node[k]
        except (KeyError, IndexError, TypeError):
            continue
        sink.dropped.add((id(node), at[-1]))
    # the deepest first, and of a list's items the last first, so that each path still leads to its value
    for at in sorted(wrong, key=lambda p: [(isinstance(k, str), str(k) if isinstance(k, str) else k) for k in p])[::-1]:
        node = data
        try:
            for k in at[:-1]:
                node = node[k]
            del node[at[-1]]
        except (KeyError, IndexError, TypeError):
            pass
