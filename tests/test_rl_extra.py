"""Without the optional extra `rl`, importing an adapter says which library is missing and how to install it."""

from __future__ import annotations

import importlib
import sys

import pytest


@pytest.mark.parametrize(
    ("module", "library"),
    [
        ("interpreter.rl.pettingzoo_env", "pettingzoo"),
        ("interpreter.rl.openspiel_game", "pyspiel"),
        ("interpreter.rl.encoding", "numpy"),
    ],
)
def test_an_adapter_without_its_library_names_the_extra(monkeypatch, module, library):
    monkeypatch.setitem(sys.modules, library, None)  # as if it were not installed
    for name in [m for m in sys.modules if m.startswith("interpreter.rl.")]:
        monkeypatch.delitem(sys.modules, name)  # imported afresh (monkeypatch puts them back)
    with pytest.raises(ImportError) as caught:
        importlib.import_module(module)
    message = str(caught.value)
    assert f"({library} is missing)" in message and "python3 -m pip install 'fengsheng[rl]'" in message
