"""pytest plugin: every ``*.scenario.yaml`` file under the test paths is a test item.

Registered as a ``pytest11`` entry point, so a content pack's own test folder
gets its scenarios collected too once fengsheng is installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr, TracebackStyle


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> ScenarioFile | None:
    if file_path.name.endswith(".scenario.yaml"):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[ScenarioItem]:
        yield ScenarioItem.from_parent(self, name=self.path.name[: -len(".scenario.yaml")])


class ScenarioError(Exception):
    pass


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        from .content.loader import ContentErrors
        from .scenario import run_scenario

        try:
            result = run_scenario(self.path)
        except ContentErrors as e:
            raise ScenarioError(str(e)) from None
        if not result.passed:
            raise ScenarioError(result.report())

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: TracebackStyle | None = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, ScenarioError):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario: {self.name}"
