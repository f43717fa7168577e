"""extras.py: how a command says to install an optional extra — its own packages, as the installed fengsheng lists
them, never ``pip install 'fengsheng[web]'`` (fengsheng is not on PyPI: pip would fetch whatever a stranger published
under the name wherever this fengsheng is not installed in the same environment)."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

import pytest

from interpreter import extras

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _declared(extra: str) -> list[str]:
    """The extra's list in pyproject.toml (read as text: tomllib is not in Python 3.10)."""
    text = PYPROJECT.read_text(encoding="utf-8")
    block = re.search(rf"^{re.escape(extra)} = \[(.*)\]\s*(?:#.*)?$", text, re.M)  # (one line each)
    assert block, f"no extra {extra} in pyproject.toml"
    return re.findall(r'"([^"]+)"', block.group(1))


@pytest.mark.parametrize("extra", ["web", "balance", "rl"])
def test_an_extras_packages_are_those_pyproject_declares(extra):
    def normal(req: str) -> str:
        return re.sub(r"\s+", "", req).lower()

    assert [normal(r) for r in extras.extra_requirements(extra)] == [normal(r) for r in _declared(extra)]
    said = extras.install_command(extra)
    assert said.startswith("python3 -m pip install '") and "fengsheng[" not in said
    assert said.endswith(f"(in a checkout of fengsheng: python3 -m pip install -e '.[{extra}]')")


def test_a_checkout_never_installed_is_told_its_own_form(monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "requires", missing)
    assert extras.extra_requirements("web") == []
    assert extras.install_command("web") == "in a checkout of fengsheng: python3 -m pip install -e '.[web]'"


def test_an_unknown_extra_lists_nothing():
    assert extras.extra_requirements("no-such-extra") == []
