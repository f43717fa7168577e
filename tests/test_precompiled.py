"""The bundled content's code units compiled ahead of time (interpreter/content/precompiled.py, setup.py).

The generated module is checked in every build: run as Python, its factories play the same games as the
units the language compiler execs. In the compiled build (``FENGSHENG_MYPYC=1``; CI's .ci/compiled runs these
tests in one) the module is compiled: every unit of the bundled content runs compiled, and a unit whose
source or whose primitives differ from the build's falls back to the exec'd code.
"""

from __future__ import annotations

import hashlib
import types
from typing import Any

import pytest

from interpreter.agents import RandomAgent
from interpreter.content import loader, precompile, precompiled, units
from interpreter.engine.step import drive
from interpreter.language import compiler as C


def _games(monkeypatch: pytest.MonkeyPatch, table: dict[str, Any]) -> str:
    """A digest of a few games played with the content loaded with `table` as its units compiled ahead of time."""
    monkeypatch.setattr(units, "precompiled", lambda: table)
    monkeypatch.setattr(loader.BUILDS, "_memo", {})  # every unit built again, with this table
    content = loader.load_content()
    h = hashlib.sha256()
    for players, seed in ((5, 1), (5, 2), (10, 3), (2, 4)):
        g = drive(content, players, seed, [RandomAgent(seed * 100 + i) for i in range(players)])
        h.update(repr((g.decision_log, g.actions_taken)).encode())
    return h.hexdigest()


def _built(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, object], Any]]:
    """What the loader builds for each unit of the bundled content: (source, namespace, run)."""
    built = []
    build = C.Compiler._build

    def record(self: C.Compiler, lines: list[str], root: Any) -> Any:
        run = build(self, lines, root)
        built.append((self.source, dict(self.namespace), run))
        return run

    with monkeypatch.context() as m:
        m.setattr(C.Compiler, "_build", record)
        m.setattr(loader.BUILDS, "_memo", {})  # every unit built again
        loader.load_content()
    return built


def test_the_generated_units_run_as_python_play_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    text, n = precompile.generate()
    module: dict[str, Any] = {"__name__": "interpreter.content._units_as_python"}
    exec(compile(text, "<generated units>", "exec"), module)
    table = module["UNITS"]
    assert len(table) == n > 100  # every unit of the bundled content, once
    # run as Python, the factories give Python functions: the loader uses one for every unit it builds
    monkeypatch.setattr(units, "precompiled", lambda: table)
    built = _built(monkeypatch)
    assert len(built) >= n
    for source, namespace, run in built:
        assert run.__qualname__ == f"u_{C.unit_key(source, namespace)}.<locals>.run", source
    assert _games(monkeypatch, table) == _games(monkeypatch, {})


def test_a_unit_key_covers_its_source_and_the_primitives_it_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader.BUILDS, "_memo", {})
    with C.recording() as units:
        loader.load_content()
    source, namespace = next((s, ns) for s, ns in units if C.direct_calls(ns))
    key = C.unit_key(source, namespace)
    assert C.unit_key(source + "\n", namespace) != key
    name = next(iter(C.direct_calls(namespace)))
    assert C.unit_key(source, {**namespace, name: loader.load_content}) != key  # the same text, another function
    assert C.unit_key(source, dict(namespace)) == key


compiled = pytest.mark.skipif(not precompiled.table(), reason="the compiled build only (FENGSHENG_MYPYC=1)")


@compiled
def test_the_compiled_build_runs_every_bundled_unit_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    built = _built(monkeypatch)
    assert len(built) > 100
    for source, _, run in built:
        assert callable(run) and not isinstance(run, types.FunctionType), source  # mypyc's, not exec'd


@compiled
def test_a_changed_unit_falls_back_to_the_exec_d_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader.BUILDS, "_memo", {})
    with C.recording() as units:
        loader.load_content()
    source, namespace = next((s, ns) for s, ns in units if s.startswith("def run(ctx):\n    return "))
    comp = C.Compiler({}, "test", {}, precompiled=precompiled.table())
    comp.namespace = dict(namespace)
    same = comp._build(source.rstrip("\n").split("\n"), None)
    assert not isinstance(same, types.FunctionType)
    changed = comp._build([*source.rstrip("\n").split("\n"), "    pass"], None)
    assert isinstance(changed, types.FunctionType)


def test_content_that_does_not_load_gets_no_units_and_its_errors_not_a_traceback(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # the compiled build (setup.py) writes the module from the checkout's content: an edited card that does not
    # load is reported as the loader reports it, and the build goes on with no unit compiled ahead of time
    pack = tmp_path / "pack"
    (pack / "cards").mkdir(parents=True)
    (pack / "cards" / "bad.yaml").write_text("id: bad\nname: 坏\n  uses: [\n", encoding="utf-8")
    out = tmp_path / "_units.py"
    assert precompile.write(out, [[loader.BUNDLED_CONTENT, pack]]) == 0
    err = capsys.readouterr().err
    assert f"{pack / 'cards' / 'bad.yaml'}:3:" in err and "E101" in err
    assert "Traceback" not in err and "not compiled ahead of time" in err
    module: dict[str, Any] = {}
    exec(compile(out.read_text(encoding="utf-8"), str(out), "exec"), module)
    assert module["UNITS"] == {}
