"""The catalogue (interpreter/catalogue.py) is the one list of the rule vocabulary: nothing drifts from it.

Checked against it: the JSON Schema enums, the tables in docs/, the names the
checker and the language know, the decision kinds, every event the engine
emits or records (statically, in the source, and in recorded games), and every
error code the loader and the checker report.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from interpreter import catalogue as C, catalogue_doc
from interpreter.agents.random_agent import RandomAgent
from interpreter.content.loader import load_cached
from interpreter.engine import decisions as D
from interpreter.engine.frozen import ATOMS
from interpreter.engine.game import Game
from interpreter.language import ast as lang_ast, builtins as B, namespace
from interpreter.language.compiler import CONTEXT_VARS, Compiler
from interpreter.language.describe import CHECK_ZH, TIMING_ZH, TRIGGER_ZH, VAR_ZH
from interpreter.language.parser import parse
from interpreter.language.runtime import CardName, Ctx

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "interpreter"
SCHEMA = ROOT / "schema"


def _enums(node, key: str) -> list[set]:
    """Every enum given for property `key` anywhere in a schema (directly, in oneOf, or as list items)."""
    found: list[set] = []

    def collect(value):
        if isinstance(value, dict):
            if "enum" in value:
                found.append(set(value["enum"]))
            for sub in value.get("oneOf", []) + value.get("anyOf", []):
                collect(sub)
            if "items" in value:
                collect(value["items"])
            if "additionalProperties" in value and isinstance(value["additionalProperties"], dict):
                collect(value["additionalProperties"])

    def walk(value):
        if isinstance(value, dict):
            props = value.get("properties", {})
            if key in props:
                collect(props[key])
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(node)
    return found


@pytest.mark.parametrize(
    "schema, key, names",
    [
        ("card", "timing", C.TIMINGS),
        ("role", "timing", C.TIMINGS),
        ("role", "trigger", C.TRIGGER_EVENTS),
        ("role", "per", C.LIMIT_SCOPES),
        ("role", "check", C.SKILL_VICTORY_CHECKS),
        ("role", "kind", C.SKILL_KINDS),
        ("role", "while_face_down", C.FACE_DOWN_USES),
        ("card", "data", C.DATA_TYPES),
        ("secret_task", "check", C.VICTORY_CHECKS),
        ("rules", "check", C.VICTORY_CHECKS),
        ("secret_task", "wins", C.VICTORY_WINS),
        ("rules", "wins", C.VICTORY_WINS),
        ("rules", "color", C.COLORS),
        ("rules", "turn", C.PHASE_KINDS),
        ("rules", "resolution", C.RESOLUTIONS),
    ],
)
def test_schema_enums_are_the_catalogue(schema, key, names):
    doc = json.loads((SCHEMA / f"{schema}.schema.json").read_text(encoding="utf-8"))
    if schema == "rules":  # the rule skills' keys are a role's skills' (checked with the role's, and below)
        del doc["properties"]["skills"]
    enums = _enums(doc, key)
    assert enums, f"schema/{schema}.schema.json has no enum for {key!r}"
    for enum in enums:
        assert enum == set(names), f"schema/{schema}.schema.json {key}: {sorted(enum ^ set(names))} differ"


# the keys of a role's skill that a rule skill has not: they are about the role card (every seat holds a rule skill)
ROLE_ONLY_SKILL_KEYS = ("flips_up", "while_face_down", "dormant")


def test_a_rule_skill_is_written_as_a_roles_skill_is():
    """schema/rules.schema.json's `skills:` items are the role schema's skill items but the keys about a role card,
    each of which has a hint of why it has no place (E111 says it)."""
    role = json.loads((SCHEMA / "role.schema.json").read_text(encoding="utf-8"))["properties"]["skills"]["items"]
    rule = json.loads((SCHEMA / "rules.schema.json").read_text(encoding="utf-8"))["properties"]["skills"]["items"]
    hints = rule.pop("x-unknown-key-hints")
    assert sorted(hints) == sorted(ROLE_ONLY_SKILL_KEYS)
    expected = {**role, "properties": {k: v for k, v in role["properties"].items() if k not in ROLE_ONLY_SKILL_KEYS}}
    assert rule == expected


@pytest.mark.parametrize(
    "schema, path, names",
    [
        ("observation", ("$defs", "decision_kind"), C.DECISIONS),
        ("observation", ("$defs", "color"), C.COLORS),
        ("observation", ("$defs", "direction"), {n for n, c in C.CONSTANTS.items() if c.type == "direction"}),
        ("deck", ("properties", "cards", "items", "properties", "colors", "items"), C.COLORS),
        (
            "deck",
            ("properties", "cards", "items", "properties", "direction"),
            {n for n, c in C.CONSTANTS.items() if c.type == "direction"},
        ),
    ],
    ids=["decision kinds", "observed colors", "observed directions", "deck colors", "deck directions"],
)
def test_shared_schema_enums_are_the_catalogue(schema, path, names):
    """Enums the key-based search above does not reach: shared definitions, and the deck's card fields."""
    node = json.loads((SCHEMA / f"{schema}.schema.json").read_text(encoding="utf-8"))
    for key in path:
        node = node[key]
    assert set(node["enum"]) == set(names), f"schema/{schema}.schema.json {'/'.join(path)}: differs"


def test_docs_tables_are_generated_from_the_catalogue():
    assert catalogue_doc.stale() == [], "run: python -m interpreter.catalogue_doc --write"


def test_the_language_knows_exactly_the_catalogue_names():
    # CONTEXT_VARS, CONSTANTS, STATUSES and the describe tables are built from the catalogue; what is
    # written by hand beside it is what can drift: the getters, the code inlined for them, the values
    assert set(namespace._GETTERS) == set(C.CONTEXT_VARS)
    assert set(namespace.CONTEXT_CODE) <= set(C.CONTEXT_VARS)
    assert set(B._CONSTANT_VALUES) == set(C.CONSTANTS)
    for name in [*C.CONTEXT_VARS, *C.CONSTANTS, *C.STATUSES]:
        node = parse(name, start="expression")  # not a keyword of the grammar
        assert isinstance(node, lang_ast.Var) and node.name == name, name
    assert set(CONTEXT_VARS) == set(C.CONTEXT_VARS)
    assert {n: t for n, (t, _v) in B.CONSTANTS.items()} == {n: c.type for n, c in C.CONSTANTS.items()}
    assert {n: s.zh for n, s in C.STATUSES.items()} == B.STATUSES
    assert set(TIMING_ZH) == set(C.TIMINGS) and set(TRIGGER_ZH) == set(C.TRIGGER_EVENTS)
    assert set(CHECK_ZH) == set(C.VICTORY_CHECKS)
    assert set(C.CONTEXT_VARS) <= set(VAR_ZH)


def test_the_code_inlined_for_a_context_variable_reads_what_its_getter_reads():
    """The compiler writes `ctx.me` for `self` instead of calling its getter: both must give the same value."""
    content = load_cached()
    for seed in range(1, 6):
        g = Game(content, 5, seed, [RandomAgent(seed * 10 + i) for i in range(5)])
        g.run()
        cards = list(g.cards)
        p, q = g.players[seed % 5], g.players[(seed + 2) % 5]
        ctx = Ctx(g, p, target=q, card=cards[seed], dying=q, subject=q)
        ctx.used_as = CardName(cards[seed].type.id, cards[seed].type.name)
        for name, (_typ, getter, _where) in CONTEXT_VARS.items():
            comp = Compiler(CONTEXT_VARS, "play_phase", {})
            f = comp.expression(name)
            assert not comp.errors, comp.errors
            assert f(ctx) is getter(ctx), name


def test_decision_kinds_are_the_catalogue():
    kinds = {v for k, v in vars(D).items() if k.isupper() and isinstance(v, str)}
    assert kinds == set(C.DECISIONS)


def _emitted_in_source() -> dict[str, set]:
    """event kind -> payload fields, from every emit("kind", ...) call and log record {"e": "kind", ...}.

    Only a module whose text has `emit` or a literal "e" can hold either: the others (four in five, two thirds of
    the source) are not parsed."""
    out: dict[str, set] = {}
    for path in SOURCE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "emit" not in text and '"e"' not in text and "'e'" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            # game.emit("kind", ...) and the components' emit_event(game, "kind", ...)
            method = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit"
            function = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "emit_event"
            if method or function:
                assert isinstance(node, ast.Call)
                kind = node.args[1 if function else 0] if len(node.args) > (1 if function else 0) else None
                if path.name == "core.py" and function and isinstance(kind, ast.Name) and kind.id == "kind":
                    continue  # GameCore.emit, the channel itself, passing on the kind it is given
                if path.name == "resolution.py" and function and isinstance(kind, ast.Name) and kind.id == "kind":
                    continue  # Resolution.announce: an event the rules declare (model/declared.py), by its name
                assert isinstance(kind, ast.Constant), (
                    f"{path.name}:{node.lineno}: an event kind must be a literal (catalogue.EVENTS)"
                )
                fields = {kw.arg for kw in node.keywords if kw.arg not in (None, "to", "secret")}
                out.setdefault(kind.value, set()).update(fields)
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                if "e" in keys:
                    kind = node.values[keys.index("e")]
                    if isinstance(kind, ast.Constant):
                        out.setdefault(kind.value, set()).update(set(keys) - {"e", "to", "secret"})
    return out


def test_every_event_in_the_source_is_declared_with_its_fields():
    emitted = _emitted_in_source()
    assert set(emitted) == set(C.EVENTS), f"undeclared: {set(emitted) - set(C.EVENTS)}; never emitted: " + str(
        set(C.EVENTS) - set(emitted)
    )
    for kind, fields in emitted.items():
        assert fields <= set(C.EVENTS[kind].fields), f"{kind}: fields {fields - set(C.EVENTS[kind].fields)}"


def test_recorded_games_hold_only_declared_events_and_fields():
    content = load_cached()
    seen = set()
    for seed in range(1, 21):
        n = 2 + seed % 9
        g = Game(content, n, seed, [RandomAgent(seed * 10 + i) for i in range(n)], record=True)
        g.run()
        for rec in g.log:
            if "e" not in rec:  # a decision record: histories.py's _read_log hands its copy to the seat unwalked,
                # so it must hold these fields only, each a number or a text but `to` (a list or a dict here would be
                # the engine's own object in the seat's observation)
                assert set(rec) == {"d", "seat", "n", "choice", "label", "prompt", "source", "to"}, rec
                assert all(type(v) in ATOMS for k, v in rec.items() if k != "to"), rec
                continue
            event = C.EVENTS.get(rec["e"])
            assert event is not None, rec
            assert set(rec) - {"e", "to", "secret"} <= set(event.fields), rec
            seen.add(rec["e"])
    assert {"setup", "start", "draw", "card_used", "intel_sent", "received", "game_over"} <= seen


def test_the_observation_docs_list_every_record():
    text = (ROOT / "docs" / "observation.md").read_text(encoding="utf-8")
    table = text[text.index("| `e` | fields | who reads it |") :]
    table = table[: table.index("\n\n")]
    names = set()
    for line in table.splitlines()[2:]:
        names |= set(re.findall(r"`(\w+)`", line.split("|")[1]))
    assert names == set(C.EVENTS)


def test_every_error_code_is_declared_and_documented():
    used = set()
    for path in SOURCE.rglob("*.py"):
        if path == SOURCE / "catalogue.py":  # where they are declared: not a use (else every code would be used)
            continue
        used |= set(re.findall(r"[\"']([EW]\d{3})[\"']", path.read_text(encoding="utf-8")))
    assert used == set(C.ERROR_CODES), f"reported but not declared: {used - set(C.ERROR_CODES)}; " + (
        f"declared but never reported: {set(C.ERROR_CODES) - used}"
    )
    documented = set(re.findall(r"^\| ([EW]\d{3}) \|", (ROOT / "docs" / "errors.md").read_text(encoding="utf-8"), re.M))
    assert documented == set(C.ERROR_CODES)
