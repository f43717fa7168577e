"""An optional compiled build: ``FENGSHENG_MYPYC=1 pip install .`` compiles the engine with mypyc.

Everything else about the package is in pyproject.toml. A plain ``pip install .`` (or ``-e .``)
builds pure Python and needs no compiler; with ``FENGSHENG_MYPYC=1`` the modules below are
compiled to C extensions by mypyc (mypy's compiler, asked for as a build requirement) and gcc,
about twice as many decisions per second (bench/README.md, "A compiled engine"). The Python
sources stay in the package, and the compiled modules behave the same: the same games, byte for
byte. Not compiled: game.py (Game is the engine's public face, whose methods tests and tools may
replace), step.py (greenlets), errors.py and frozen.py (subclasses of built-in types), and
everything above the engine.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

MYPY = "mypy>=2.4"  # the compiler; the version CI pins (.ci/run) is the one measured

# The engine's components and the effect language's run time (what the compiled effect code calls).
NOT_COMPILED = {"game.py", "step.py", "errors.py", "frozen.py"}
HERE = Path(__file__).resolve().parent
COMPILED = [
    *sorted(
        f"interpreter/engine/{p.name}" for p in (HERE / "interpreter/engine").glob("*.py") if p.name not in NOT_COMPILED
    ),
    "interpreter/language/runtime.py",
]


def _wanted() -> bool:
    return os.environ.get("FENGSHENG_MYPYC", "") not in ("", "0")


if not _wanted():
    setup()
else:
    try:
        from mypyc.build import mypycify
    except ImportError:
        # pip's isolated build asks for its requirements first: this makes it install mypy, then build
        setup(setup_requires=[MYPY])
    else:
        # mypy's settings for the compiled modules: pyproject's [tool.mypy] (paths relative to here), less its
        # warning about sections for modules not compiled (mypyc stops at any message)
        os.chdir(HERE)
        setup(ext_modules=mypycify(["--no-warn-unused-configs", *COMPILED], opt_level="3"))
