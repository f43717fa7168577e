"""An optional compiled build: ``FENGSHENG_MYPYC=1 pip install .`` compiles the engine with mypyc.

Everything else about the package is in pyproject.toml. A plain ``pip install .`` (or ``-e .``)
builds pure Python and needs no compiler; with ``FENGSHENG_MYPYC=1`` the modules below are
compiled to C extensions by mypyc (mypy's compiler, asked for as a build requirement) and gcc,
about twice as many decisions per second (bench/README.md, "A compiled engine"). The Python
sources stay in the package, and the compiled modules behave the same: the same games, byte for
byte. Not compiled: game.py (Game is the engine's public face, whose methods tests and tools may
replace), step.py (greenlets), errors.py (subclasses of built-in exceptions; frozen.py is compiled with its
FrozenDict a plain Python class), and everything above the engine, except the bots a default sweep seats
(agents/: the heuristic and random bots, their base class, the heuristic bot's memory, odds and probe readings)
and the bundled content's effect code: the build first writes its
code units into interpreter/content/_units.py (interpreter/content/precompile.py; generated, not
tracked; loading the content needs pyyaml, lark and jsonschema, asked for with mypy) and compiles that
module with the engine; at run time a unit whose generated source is the same runs compiled, any other
(a modder's pack, an edited role) is exec'd as in the pure build. Content that does not load gets its
errors printed and no unit compiled ahead of time (the build goes on).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup

MYPY = "mypy>=2.4"  # the compiler; the version CI pins (.ci/run) is the one measured
# what loading the bundled content needs, to write the module of its code units (pyproject's dependencies)
CONTENT = ["pyyaml>=6.0", "lark>=1.1", "jsonschema>=4.18"]

# The engine's components, its primitives (a package, a module per family) and the effect language's run time
# (what the compiled effect code calls).
NOT_COMPILED = {"game.py", "step.py", "errors.py"}
HERE = Path(__file__).resolve().parent
COMPILED = [
    *sorted(
        f"interpreter/engine/{p.name}" for p in (HERE / "interpreter/engine").glob("*.py") if p.name not in NOT_COMPILED
    ),
    *sorted(f"interpreter/engine/primitives/{p.name}" for p in (HERE / "interpreter/engine/primitives").glob("*.py")),
    "interpreter/language/runtime.py",
    # the bots a default sweep seats (a heuristic game spends about half its time in the bot; issue 27 item 4)
    *(
        f"interpreter/agents/{name}.py"
        for name in ("base", "random_agent", "probes", "camps", "choices", "tasks", "memory", "valuation", "heuristic")
    ),
]


UNITS = "interpreter/content/_units.py"
# Writes UNITS from the sources of this checkout: a compiled module of an earlier build in place is not imported
# (the project's folders are read as Python source only), so the content loads with the code as it is now.
_GENERATE = """
import importlib.machinery as m, os, runpy, sys
root = sys.argv[1]
source_only = m.FileFinder.path_hook((m.SourceFileLoader, m.SOURCE_SUFFIXES))
def hook(path):
    path = os.path.abspath(path or ".")
    if path == root or path.startswith(os.path.join(root, "interpreter")):
        return source_only(path)
    raise ImportError(path)
sys.path_hooks.insert(0, hook)
sys.path.insert(0, root)
sys.path_importer_cache.clear()
runpy.run_module("interpreter.content.precompile", run_name="__main__")
"""


def _wanted() -> bool:
    return os.environ.get("FENGSHENG_MYPYC", "") not in ("", "0")


if not _wanted():
    setup()
else:
    try:
        from mypyc.build import mypycify
    except ImportError:
        # pip's isolated build asks for its requirements first: this makes it install mypy, then build
        setup(setup_requires=[MYPY, *CONTENT])
    else:
        # mypy's settings for the compiled modules: pyproject's [tool.mypy] (paths relative to here), less its
        # warning about sections for modules not compiled (mypyc stops at any message)
        os.chdir(HERE)
        needed = {"yaml": "pyyaml", "lark": "lark", "jsonschema": "jsonschema"}  # module -> its package
        missing = [pkg for mod, pkg in needed.items() if importlib.util.find_spec(mod) is None]
        if missing:  # (pip's isolated build installs them; --no-build-isolation takes the environment as it is)
            raise SystemExit(
                f"FENGSHENG_MYPYC=1: the compiled build loads the bundled content to compile its effect code, "
                f"which needs {', '.join(missing)} in the build environment: pip install {' '.join(CONTENT)} "
                "(or build without --no-build-isolation)"
            )
        subprocess.run([sys.executable, "-c", _GENERATE, str(HERE)], check=True)
        setup(ext_modules=mypycify(["--no-warn-unused-configs", *COMPILED, UNITS], opt_level="3"))
