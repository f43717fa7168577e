"""The installed ``fengsheng`` command: the console script starts and prints what the in-process CLI prints.

Every other command-line test calls the click command in process (CliRunner); this one starts the
real executable in a subprocess, the way a user does.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main

ARGS = ["simulate", "--players", "3", "--games", "2", "--seed", "1"]


def _installed_command() -> str:
    """The script pip installed next to this Python, else the one on PATH."""
    beside = Path(sys.executable).with_name("fengsheng")
    found = str(beside) if beside.is_file() else shutil.which("fengsheng")
    assert found, "no fengsheng command: install the project first (python3 -m pip install -e '.[test]')"
    return found


@pytest.mark.slow
def test_the_installed_command_prints_what_the_cli_prints():
    done = subprocess.run([_installed_command(), *ARGS], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("fengsheng ") and "2 games, 3 players, seed 1" in done.stdout
    assert done.stdout == CliRunner().invoke(main, ARGS).stdout
