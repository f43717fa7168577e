"""Without the optional extra `rl`, importing an adapter says which library is missing and how to install it."""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys

import pytest

EXTRA_LIBRARIES = ("numpy", "gymnasium", "pettingzoo", "pyspiel")  # what the adapters import of the extra `rl`


@pytest.mark.parametrize(
    ("module", "library"),
    [
        ("interpreter.rl.pettingzoo_env", "pettingzoo"),
        ("interpreter.rl.openspiel_game", "pyspiel"),
        ("interpreter.rl.encoding", "numpy"),
    ],
)
def test_an_adapter_without_its_library_names_the_extra(monkeypatch, module, library):
    # The extra's other libraries this environment lacks (none with the extra installed; all of them after the
    # README's set-up, `[test]` only): an adapter names the first library it misses, which may be one of those.
    absent = {lib for lib in EXTRA_LIBRARIES if lib != library and importlib.util.find_spec(lib) is None}
    monkeypatch.setitem(sys.modules, library, None)  # as if it were not installed
    for name in [m for m in sys.modules if m.startswith("interpreter.rl.")]:
        monkeypatch.delitem(sys.modules, name)  # imported afresh (monkeypatch puts them back)
    with pytest.raises(ImportError) as caught:
        importlib.import_module(module)
    message = str(caught.value)
    named = re.search(r"\((\S+) is missing\)", message)
    assert named and named[1] in {library} | absent and "python3 -m pip install 'pettingzoo>=" in message
    assert "fengsheng[" not in message
