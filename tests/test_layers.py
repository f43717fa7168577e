"""The package keeps its layers: no import cycle, and no import from a lower layer to a higher one.

The import graph of ``interpreter`` is read statically: every module is parsed
with ``ast`` and every ``import`` in it counts, wherever it stands (at the top,
inside a function, under ``if TYPE_CHECKING:``); relative imports are resolved,
and importing ``a.b.c`` also runs the ``__init__`` of the packages ``a`` and
``a.b``. ``LAYERS`` below is the table ARCHITECTURE.md ("The layers") shows.

The second half checks the split of the primitives: their registry (the
language) declares them, the engine registers what each does.
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
import unicodedata
from pathlib import Path
from typing import NamedTuple

import pytest

import interpreter.engine.primitives  # noqa: F401  (registers what each primitive does)
from interpreter.language import builtins
from interpreter.language.compiler import Compiler, context_env

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "interpreter"

# Low to high: a module may import modules of its own layer or of lower ones, never of a higher one.
# An entry is a module; "pkg.*" is a package with everything in it. The most specific entry wins.
# A module that imports nothing of the project is a leaf: it may go unlisted (it is taken as the lowest
# layer); a module that imports the project must be listed.
LAYERS: list[tuple[str, list[str]]] = [
    (
        "vocabulary",  # names and values everyone shares; imports nothing of the project
        [
            "interpreter",  # the package's __init__: the version
            "interpreter.catalogue",
            "interpreter.model.*",  # colors, directions, the typed content objects
            "interpreter.textpolicy",  # what a text may hold (a leaf: the readers below and above share it)
            "interpreter.jsonread",  # the one bounded JSON reader (it reads with the text policy)
        ],
    ),
    ("language", ["interpreter.language.*"]),  # the effect language; declares the primitives (builtins.py)
    ("engine", ["interpreter.engine.*"]),  # the game; implements the primitives (primitives/)
    ("loading", ["interpreter.content.*"]),  # YAML -> compiled content
    ("agents", ["interpreter.agents.*"]),  # observation and action descriptors in, an action id out
    (
        "applications",
        [
            "interpreter.sim.*",
            "interpreter.scenario",
            "interpreter.scenario_zones",
            "interpreter.scenario_setup",
            "interpreter.scenario_expect",
            "interpreter.seat_text",
            "interpreter.messages",
            "interpreter.summary",
            "interpreter.play",
            "interpreter.play_loop",
            "interpreter.web.*",
            "interpreter.rl.*",
            "interpreter.balance.*",
        ],
    ),
    (
        "entry points",  # commands (the CLI imports describe_cmd); nothing lower imports them
        [
            "interpreter.cli",
            "interpreter.cli_options",
            "interpreter.simulate_cmd",
            "interpreter.replay_cmd",
            "interpreter.validate_cmd",
            "interpreter.scenario_cmd",
            "interpreter.describe_cmd",
            "interpreter.pytest_plugin",
            "interpreter.catalogue_doc",
            "interpreter.coverage_doc",
            "interpreter.pack_cmd",
            "interpreter.new_cmd",
            "interpreter.docs_cmd",
            "interpreter.play_cmd",
            "interpreter.serve_cmd",
            "interpreter.balance_cmd",
            "interpreter.balance_report_cmd",
        ],
    ),
]


# ---------------------------------------------------------------------- the import graph


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


# the kinds of node the scans below read: imports, and what can write an attribute (statements), and the calls
# of setattr and delattr
_READ = (ast.Import, ast.ImportFrom, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")  # the fields that hold statements


class _Facts(NamedTuple):
    """What the tests here read of a module's tree (the tree itself is not kept: a million nodes for the package,
    which the collector walked again at the end of this file)."""

    nodes: list[ast.AST]  # the nodes the scans read (_nodes), without what an assignment assigns
    inits: dict[str, ast.arguments | None]  # each top-level class: its __init__'s parameters (None: no __init__)


_FACTS: dict[str, _Facts] = {}


def _facts(source: str, filename: str = "<unknown>") -> _Facts:
    """A module's facts, read once for every test here whatever filename a caller gives (it only names the file in
    a SyntaxError). The nodes: every statement of a kind in _READ, wherever it stands (in functions, classes,
    branches, handlers, cases), found through the statements alone, and every call where the module names setattr
    or delattr (its text, as Python reads names: NFKC), found through the whole tree. The same nodes as walking
    every node of every tree, a tenth of the time (0.17 s)."""
    facts = _FACTS.get(source)
    if facts is None:
        tree = ast.parse(source, filename)
        nodes: list[ast.AST] = []
        stack: list[ast.AST] = [tree]
        while stack:
            node = stack.pop()
            for field in _BODIES:
                body = getattr(node, field, None)
                if type(body) is list:  # (an expression's `body`, as IfExp's, is no list of statements)
                    nodes += [n for n in body if isinstance(n, _READ)]
                    stack += body
        names = source if source.isascii() else unicodedata.normalize("NFKC", source)
        if "setattr" in names or "delattr" in names:
            nodes += [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
        for n in nodes:  # what is assigned is never read: not kept (most of what the nodes would keep alive)
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                n.value = None
        inits: dict[str, ast.arguments | None] = {}
        for c in tree.body:
            if isinstance(c, ast.ClassDef) and c.name not in inits:  # (the first, as a lookup in order finds)
                init = (f for f in c.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
                inits[c.name] = next((f.args for f in init), None)
        facts = _FACTS[source] = _Facts(nodes, inits)
    return facts


def _nodes(source: str, filename: str = "<unknown>") -> list[ast.AST]:
    return _facts(source, filename).nodes


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _imports(name: str) -> set[str]:
    """The modules of the package that importing `name` runs directly (its imports, wherever they stand)."""
    nodes = _nodes(MODULES[name].read_text(encoding="utf-8"), str(MODULES[name]))
    package = name if _is_package(name) else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:  # `import a.b.c`: a.b.c (its packages are added below)
                parts = alias.name.split(".")
                targets.update(m for m in (".".join(parts[:i]) for i in range(1, len(parts) + 1)) if m in MODULES)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source in MODULES:
                targets.add(source)
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if sub in MODULES:  # `from pkg import module`
                    targets.add(sub)
    # importing a.b.c runs a and a.b first (those of the importer's own packages are running already)
    for t in list(targets):
        targets.update(a for a in _ancestors(t) if a not in _ancestors(name) and a != name)
    targets.discard(name)
    return targets


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Each module's imports, built when a test first asks (not at collection: every xdist worker collects this
    file, one runs its tests, and parsing every module costs about a second)."""
    return {name: _imports(name) for name in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _entry(name: str) -> tuple[int, str] | None:
    """(layer index, the entry) of the most specific entry of LAYERS matching `name`, or None."""
    best: tuple[int, int, str] | None = None  # (specificity, layer, entry)
    for i, (_, entries) in enumerate(LAYERS):
        for e in entries:
            if e.endswith(".*"):
                pkg = e[:-2]
                if name == pkg or name.startswith(pkg + "."):
                    score = 2 * len(pkg.split("."))
                else:
                    continue
            elif name == e:
                score = 2 * len(e.split(".")) + 1
            else:
                continue
            if best is None or score > best[0]:
                best = (score, i, e)
    return (best[1], best[2]) if best is not None else None


@functools.cache
def _layer(name: str) -> int:
    found = _entry(name)
    return found[0] if found is not None else 0  # an unlisted module is a leaf (test_every_module_has_a_layer)


@functools.cache
def _part(name: str) -> str:
    """The part of the package a module belongs to: its subpackage of `interpreter` (or itself, for a top-level
    module), and the layer too where that subpackage spans several layers."""
    if name == "interpreter":
        return name
    part = ".".join(name.split(".")[:2])
    layers = {_layer(m) for m in MODULES if m == part or m.startswith(part + ".")}
    return part if len(layers) == 1 else f"{part} ({LAYERS[_layer(name)][0]})"


# ---------------------------------------------------------------------- the tests


def test_the_graph_is_read():
    """The reading of imports finds what is plainly there (a guard against a walker that sees nothing)."""
    assert "interpreter.language.runtime" in _graph()["interpreter.engine.card_use"]
    assert "interpreter.engine.decisions" in _graph()["interpreter.engine.flow"]  # from . import decisions as D
    assert "interpreter.catalogue" in _graph()["interpreter.language.compiler"]  # from .. import catalogue
    assert "interpreter.model.content" in _graph()["interpreter.engine.state"]  # under TYPE_CHECKING
    assert "interpreter.sim" in _graph()["interpreter.simulate_cmd"]  # inside a function
    assert "interpreter.model" in _graph()["interpreter.engine.state"]  # the package of model.colors
    assert "interpreter.engine.primitives" in _graph()["interpreter.content.units"]


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_every_module_has_a_layer():
    unlisted = [m for m in MODULES if _entry(m) is None and _graph()[m]]
    assert not unlisted, (
        f"{unlisted} import the project but are in no layer: add them to LAYERS in tests/test_layers.py and to "
        "the table in ARCHITECTURE.md"
    )


def test_every_entry_names_modules():
    for _, entries in LAYERS:
        for e in entries:
            name = e.removesuffix(".*")
            assert name in MODULES, f"LAYERS names {e}, which is not a module of the package"
            assert _is_package(name) or not e.endswith(".*"), f"LAYERS names {e}, but {name} is not a package"


def test_no_module_cycle():
    cycles = _cycles(_graph())
    assert not cycles, "import cycles between modules: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_package_cycle():
    parts: dict[str, set[str]] = {}
    for a, targets in _graph().items():
        parts.setdefault(_part(a), set()).update(_part(b) for b in targets if _part(b) != _part(a))
    cycles = _cycles(parts)
    assert not cycles, "import cycles between parts of the package: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_upward_import():
    upward = [
        f"{a} ({LAYERS[_layer(a)][0]}) imports {b} ({LAYERS[_layer(b)][0]})"
        for a, targets in sorted(_graph().items())
        for b in sorted(targets)
        if _layer(b) > _layer(a)
    ]
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(upward)


def test_the_architecture_shows_the_table():
    """ARCHITECTURE.md's table of layers ("| layer | modules | ... |") is LAYERS: same layers, order and entries."""
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (?!layer |---)([^|]+?) \| ([^|]+) \|", section, re.M)
    shown = [(layer, re.findall(r"`([^`]+)`", modules)) for layer, modules in rows]
    assert shown == LAYERS, "ARCHITECTURE.md's table of layers differs from LAYERS in tests/test_layers.py"


# ---------------------------------------------------------------------- the primitives: declared, then implemented


def test_every_primitive_is_implemented():
    """Importing interpreter.engine.primitives registers an implementation for every declared primitive."""
    assert builtins.missing_implementations() == []


def test_an_implementation_matches_its_declaration():
    with pytest.raises(ValueError, match="not a declared primitive"):
        builtins.implements("no_such_primitive")(lambda ctx: None)
    with pytest.raises(TypeError, match="`draw` takes 2 arguments"):
        builtins.implements("draw")(lambda ctx, p: None)  # draw(p, n)
    with pytest.raises(ValueError, match="`draw` has two implementations"):
        builtins.implements("draw")(lambda ctx, p, n: None)


def test_compiling_without_the_implementation_says_what_to_import(monkeypatch):
    monkeypatch.setattr(builtins.BUILTINS["draw"], "impl", None)
    comp = Compiler(context_env(["self", "current"]), "play_phase", {})
    with pytest.raises(builtins.MissingImplementation) as err:
        comp.program("draw(self, 1)")
    assert "`draw`" in str(err.value) and "import interpreter.engine.primitives" in str(err.value)


# ---------------------------------------------------------------------- the engine's ports

ARCHITECTURE = REPO / "ARCHITECTURE.md"


def _component_table() -> list[tuple[str, str, str]]:
    """(component, module, ports cell) of each row of ARCHITECTURE.md's table of the engine's components."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text[text.index("## The engine's components") :]
    table = section[section.index("\n|") + 1 :]
    lines = list(itertools.takewhile(lambda ln: ln.startswith("|"), table.splitlines()))  # the first table
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    at = next(i for i, c in enumerate(header) if c.startswith("ports"))
    rows = []
    for ln in lines[2:]:
        cells = [c.strip() for c in ln.strip("|").split("|")]
        rows.append((re.findall(r"`(\w+)`", cells[0])[0], re.findall(r"`(\w+)\.py`", cells[1])[0], cells[at]))
    return rows


def test_the_ports_in_architecture_md_are_the_code():
    """Each component's ports cell (`XPorts`: `field`, ...) names the ports class of engine/ports.py its
    constructor takes and that class's fields, in order; a component without ports has `—` and takes none;
    every ports class is some component's."""
    import dataclasses

    from interpreter.engine import ports

    declared = {
        name: cls for name, cls in vars(ports).items() if isinstance(cls, type) and dataclasses.is_dataclass(cls)
    }
    assert declared, "engine/ports.py declares no ports class"
    named = set()
    for component, module, cell in _component_table():
        # the constructor's parameters, read from the source (a compiled build's signature has no annotations)
        path = PACKAGE / "engine" / f"{module}.py"
        init = _facts(path.read_text(encoding="utf-8"), str(path)).inits[component]
        assert init is not None, f"{component} has no __init__ of its own"
        params = [*init.args, *init.kwonlyargs]
        taken = [ast.unparse(a.annotation) for a in params if a.annotation and "Ports" in ast.unparse(a.annotation)]
        if cell == "—":
            assert not taken, f"{component} takes {taken[0]} but ARCHITECTURE.md gives it no ports"
            continue
        m = re.match(r"`(\w+Ports)`: (.*)", cell)
        assert m, f"{component}: its ports cell should read `XPorts`: `field`, ... (got {cell!r})"
        ports_name, rest = m.groups()
        named.add(ports_name)
        assert ports_name in declared, f"{component}: {ports_name} is not a ports class of engine/ports.py"
        fields = [f.name for f in dataclasses.fields(declared[ports_name])]
        assert re.findall(r"`(\w+)`", rest) == fields, f"{component}: ARCHITECTURE.md's {ports_name} vs the code"
        assert taken == [ports_name], f"{component}'s constructor does not take it"
    assert named == set(declared), f"ports classes no row of ARCHITECTURE.md names: {set(declared) - named}"


def _class_attribute_writes(source: str, module: str, classes_of: dict[str, set[str]]) -> list[str]:
    """Where `source` (the module `module`) assigns an attribute onto a class defined in another module of the
    package: `Imported.attr = ...` (also augmented, annotated, `del` and `setattr(Imported, ...)`) for a name
    imported from a module that defines that class, or `module.Class.attr = ...`."""
    nodes = _nodes(source)
    package = module.rpartition(".")[0]
    foreign: dict[str, str] = {}  # a name bound here -> the module of the class it names
    modules: dict[str, str] = {}  # a name bound here to a module of the package
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)] if node.level else []
            source_module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                bound = alias.asname or alias.name
                if alias.name in classes_of.get(source_module, ()):
                    foreign[bound] = source_module
                elif f"{source_module}.{alias.name}" in classes_of:
                    modules[bound] = f"{source_module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in classes_of and alias.asname:
                    modules[alias.asname] = alias.name

    def owner(target: ast.expr) -> str | None:
        if not isinstance(target, ast.Attribute):
            return None
        value = target.value
        if isinstance(value, ast.Name) and value.id in foreign:
            return f"{foreign[value.id]}.{value.id}"
        module_of = (
            modules.get(value.value.id)
            if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
            else None
        )
        if module_of is not None and value.attr in classes_of[module_of]:
            return f"{module_of}.{value.attr}"
        return None

    found = []
    for node in nodes:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in foreign
        ):
            found.append(f"{module}:{node.lineno}: {node.func.id}({node.args[0].id}, ...)")
        for t in targets:
            cls = owner(t)
            if cls is not None:
                found.append(f"{module}:{node.lineno}: {cls}.{t.attr} (the class is {cls}'s module's)")
    return found


def _classes_of() -> dict[str, set[str]]:
    return {name: set(_facts(path.read_text(encoding="utf-8"), str(path)).inits) for name, path in MODULES.items()}


def test_no_module_assigns_attributes_onto_a_class_of_another_module():
    """A class's attributes are set where it is defined: nothing is patched onto a class from another module
    (as step.py once set Game.worlds at import time: a port is passed to the constructor instead)."""
    classes_of = _classes_of()
    found = []
    for name, path in MODULES.items():
        found += _class_attribute_writes(path.read_text(encoding="utf-8"), name, classes_of)
    assert not found, "\n".join(found)


def test_the_patch_scan_finds_a_patch():
    """The scan above can fail: the patch this change removed, and its other spellings, are found."""
    classes_of = _classes_of()
    source = (
        "from .game import Game\n"
        "from . import game as g\n"
        "Game.worlds = None\n"
        "Game.turns += 1\n"
        "g.Game.worlds = None\n"
        "setattr(Game, 'worlds', None)\n"
        "class Own:\n    pass\n"
        "Own.x = 1\n"
    )
    found = _class_attribute_writes(source, "interpreter.engine.step", classes_of)
    assert [f.split(":")[1] for f in found] == ["3", "4", "5", "6"], found
