"""Hostile packs under a memory cap (issue 29): each `fork/` entry of tests/fuzz_corpus/ is validated and, if it
validates, played (two games at ten players) in a process whose address space is capped at MEMORY_CAP; a log
delivered with such a pack beside it is replayed under the same cap. Each must end with exit status 0 or 1, no
traceback, no MemoryError. Before, a one-line pack (a deck id of 30,000,000) took 3.79 GB for two games."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "fuzz_corpus"
FORKS = sorted(p for p in CORPUS.glob("*/fork") if p.is_dir())
MEMORY_CAP = 1024 * 2**20  # bytes of address space (RLIMIT_AS): a 10-player game of the full game needs < 600 MB
# every day: none here; tests/test_fuzz.py's test_corpus plays each fork (fork-deck-id-30000000 among them) in-process
# under a memory cap (RLIMIT_AS at 1.5 GB above the test process), without a process of its own to start
EVERYDAY: set[str] = set()

DRIVER = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
from click.testing import CliRunner
from interpreter.cli import main
status = 0
for args in {commands!r}:
    r = CliRunner().invoke(main, args)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        print("RAISED", type(r.exception).__name__, r.exception)
        sys.exit(3)
    print(r.output)
    if r.exit_code not in (0, 1):
        print("STATUS", r.exit_code)
        sys.exit(4)
    if args[0] == "validate" and r.exit_code:
        break
"""


def capped(commands: list[list[str]], cwd: Path) -> subprocess.CompletedProcess:
    code = DRIVER.format(cap=MEMORY_CAP, commands=commands)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "HOME": str(cwd)},
    )


def params():
    for fork in FORKS:
        name = fork.parent.name
        yield pytest.param(fork, id=name, marks=() if name in EVERYDAY else pytest.mark.slow)


@pytest.mark.parametrize("fork", list(params()))
def test_a_hostile_pack_under_the_memory_cap(tmp_path, fork):
    pack = tmp_path / "fork"
    shutil.copytree(fork, pack)
    play = ["simulate", "-n", "2", "-j", "1", "-s", "1", "-p", "10", "--content", str(pack)]
    r = capped([["validate", str(pack)], play], tmp_path)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "MemoryError" not in r.stdout + r.stderr and "Traceback" not in r.stdout + r.stderr


# a capped subprocess of its own: the slow run; every day the hostile fork-deck-id-30000000 plays under a cap in
# tests/test_fuzz.py's test_corpus, and test_batches replays a fork's log with the packs its header names in-process
@pytest.mark.slow
def test_a_log_with_its_hostile_pack_beside_it(tmp_path):
    """`replay` of a log whose header names a pack beside it is as safe as validating that pack."""
    shutil.copytree(CORPUS / "fork-deck-id-30000000" / "fork", tmp_path / "fork")
    lines = (CORPUS / "log-bad-record-costs-its-game" / "log.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["packs"] = ["base", "./fork"]
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join([json.dumps(header, ensure_ascii=False), *lines[1:]]) + "\n", encoding="utf-8")
    # named by the header: its files are not those the log was played with, so the default content replays it;
    # given with --content: loaded, and refused as validate refuses it
    r = capped([["replay", str(log)], ["replay", str(log), "--content", str(tmp_path / "fork")]], tmp_path)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "more than the largest allowed, 999,999" in r.stdout and "Traceback" not in r.stdout
