"""docs/language.md stays in step with the language.

The Reference section must equal what interpreter/language/reference.py
generates from builtins.py (regenerate with
``python -m interpreter.language.reference --write``), and every code example
in the guide must compile.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

import interpreter.engine.primitives  # noqa: F401  (registers what each primitive does; this test builds a Compiler)
from interpreter.content.loader import BUNDLED_CONTENT, card_env, load_cached, skill_env, victory_env
from interpreter.language.builtins import BUILTINS
from interpreter.language.compiler import Compiler
from interpreter.language.reference import DOC_PATH, END, START, markdown_reference, section_of, with_section
from interpreter.model.content import TIMINGS
from interpreter.model.declared import Declared

FENCE = re.compile(r"```(\w+)\n(.*?)```", re.S)


def _doc() -> str:
    return DOC_PATH.read_text(encoding="utf-8")


def _card_names() -> dict:
    return {ct.name: ct.id for ct in load_cached().card_types.values()}


def _errors(text, env, unit, mode, expect=None, data_types=None) -> list:
    declared = _declared()
    comp = Compiler(
        env, unit, _card_names(), data_types, counters=declared.counters, zones=_zones(), events=declared.events
    )
    try:
        comp.program(text) if mode == "program" else comp.expression(text, expect)
    except Exception as e:  # a LanguageError from the parser
        return [str(e)]
    return [str(e) for e in comp.errors]


def test_reference_section_is_up_to_date():
    inner = section_of(_doc())
    assert inner is not None, f"docs/language.md lacks the markers {START} / {END}"
    assert inner == "\n" + markdown_reference(), (
        "the Reference section of docs/language.md is out of date: run python -m interpreter.language.reference --write"
    )


def test_reference_lists_every_primitive():
    ref = markdown_reference()
    for name in BUILTINS:
        assert f"`{name}(" in ref, name


def test_with_section_replaces_only_the_marked_part():
    text = f"before\n{START}\nold\n{END}\nafter\n"
    new = with_section(text, "new\n")
    assert new == f"before\n{START}\nnew\n{END}\nafter\n"
    assert section_of(new) == "\nnew\n"


def test_effect_examples_compile():
    """Each ```fengsheng block compiles as an effect at one timing at least."""
    blocks = [body for lang, body in FENCE.findall(_doc()) if lang == "fengsheng"]
    assert blocks
    for body in blocks:
        results = {t: _errors(body, card_env(t, True), t, "program") for t in TIMINGS}
        assert any(not errs for errs in results.values()), f"{body}\n{results['play_phase']}"


EVENTS_PACK = Path(__file__).parents[1] / "examples" / "events"


def _declared():
    """The counters and events of tests/fixtures/declared_pack and the events of examples/events, which
    docs/language.md's examples use."""
    fixture = load_cached([BUNDLED_CONTENT, Path(__file__).parent / "fixtures" / "declared_pack"]).declared
    events = load_cached([BUNDLED_CONTENT, EVENTS_PACK]).declared.events
    return Declared(fixture.counters, {**fixture.events, **events}, fixture.zones)


def _zones():
    """The zones of tests/fixtures/zones_pack and examples/events, which docs/language.md's zone examples use."""
    zones = load_cached([BUNDLED_CONTENT, Path(__file__).parent / "fixtures" / "zones_pack"]).declared.zones
    return {**zones, **load_cached([BUNDLED_CONTENT, EVENTS_PACK]).declared.zones}


def test_yaml_examples_compile():
    """Each ```yaml block compiles with the context its fields get when content loads."""
    blocks = [body for lang, body in FENCE.findall(_doc()) if lang == "yaml"]
    assert blocks
    for body in blocks:
        data = yaml.safe_load(body)
        errors = []
        dt = data.get("data")  # a card's per-copy data: key -> type
        for use in data.get("uses") or []:
            t, has_target = use["timing"], "target" in use
            if "target" in use:
                errors += _errors(use["target"], card_env(t, False, True), t, "expr", "players", dt)
            if "condition" in use:
                errors += _errors(use["condition"], card_env(t, False), t, "expr", "bool", dt)
            errors += _errors(use.get("effect", data.get("effect")), card_env(t, has_target), t, "program", None, dt)
        for v in data.get("victory") or []:
            errors += _errors(v["condition"], victory_env(v["check"]), v["check"], "expr", "bool")
        for whole in data.get("skills") or []:
            # a skill with `moments:`: each moment with the skill's keys under its own
            for sk in [{**whole, **m} for m in whole["moments"]] if "moments" in whole else [whole]:
                unit = sk.get("timing") or sk.get("trigger") or sk["kind"]
                env = skill_env(sk, _declared())  # the events of the made-up fork the docs show
                if "condition" in sk:
                    errors += _errors(sk["condition"], env, unit, "expr", "bool")
                if "effect" in sk:
                    errors += _errors(sk["effect"], env, unit, "program")
        assert not errors, f"{body}\n{errors}"
