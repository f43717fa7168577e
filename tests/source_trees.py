"""The syntax trees of fengsheng's own source, parsed once per test process.

Several test files read the package's source as trees (tests/test_layers.py: imports and class patches;
tests/test_catalogue.py: the events emitted; tests/test_balance_sweep.py: what a game imports). Parsing every
module costs about half a second; each tree is parsed once and shared. The trees are only read, never changed.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parse(source: str) -> ast.Module:
    """The tree of a source text (keyed by the text: a file changed on disk is parsed again)."""
    return ast.parse(source)


def tree(path: Path) -> ast.Module:
    """The tree of a Python file."""
    return parse(path.read_text(encoding="utf-8"))
