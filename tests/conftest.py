"""Shared helpers for the rule tests: build a mid-game table, script the seats, read the log.

Card ids are the deck ids of content/deck.yaml (the reference deck list). Handy ones (color, direction, lock):

    pure red   27 28 29 30 (威逼 ←←←→), 59 64 (破译 锁), 67 68 69 (调包), 79 80 (截获 ↑), 91 92 93 (误导)
    pure blue  31 32 33 34 (威逼 ←→→→), 60 65 (破译 锁), 70 71 72 (调包), 82 83 (截获 ↑), 94 95 96 (误导)
    pure black 35 36 37 38 (威逼 ←←→→), 41-46 (利诱 锁), 61 66 (破译 锁), 73 74 (调包), 85 86 (截获 ↑), 97 98
    红黑       23 (平衡 ↑), 25 (平衡 ←), 40 (威逼 →), 57 62 (破译), 75 76 (调包), 90 (截获 ↑), 100 (误导 →)
    蓝黑       24 (平衡 ↑), 26 (平衡 →), 39 (威逼 ←), 58 63 (破译), 77 78 (调包), 89 (截获 ↑), 99 (误导 ←)
    红蓝       114 117 (欲擒故纵 ←), 115 118 (欲擒故纵 →)
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from click.testing import Result

# Keep compiled bytecode between runs, even where the environment says not to (PYTHONDONTWRITEBYTECODE,
# as on this project's machines): pytest rewrites the asserts of every test module and of the
# `interpreter` package (its plugin's distribution) on each run without it, about 3 s per worker of
# the everyday run. The files go to __pycache__/, which git ignores.
sys.dont_write_bytecode = False  # before the imports below, which compile the package

# Temporary files in memory where the system has a folder there (/dev/shm), unless TMPDIR says where: on this
# project's machines each folder, file or link made on the disk costs 0.3-0.6 ms of (system) CPU, one in memory
# 0.005 ms, and the tests make thousands (tmp_path, TemporaryDirectory, packs made of links, chains of packs).
# pytest's tmp_path and tempfile both read tempfile.tempdir; a test's folders are small and removed as before
# (pytest keeps its last three runs' folders: about 50 MB). Only where that folder has room to spare: a container's
# /dev/shm is often 64 MB, which a run and the folders kept from earlier runs could fill.
_SHM_ROOM = 1 << 30  # bytes free in /dev/shm for the tests to use it


def _shm_has_room() -> bool:
    try:
        st = os.statvfs("/dev/shm")
    except OSError:  # no such folder (macOS, Windows)
        return False
    return st.f_bavail * st.f_frsize >= _SHM_ROOM and os.access("/dev/shm", os.W_OK | os.X_OK)


if "TMPDIR" not in os.environ and _shm_has_room():
    tempfile.tempdir = "/dev/shm"

from interpreter.agents.scripted import ScriptedAgent  # noqa: E402
from interpreter.content.loader import load_cached  # noqa: E402
from interpreter.engine.decisions import PlayOption  # noqa: E402
from interpreter.engine.state import Card, Player  # noqa: E402
from interpreter.engine.table import build  # noqa: E402

# docs/modding.md's "Player counts" example: a pack.yaml over the bundled game dealing 3 to 12 players (no row
# for 2; rows for 11 and 12, played with the full deck). test_seats plays it at every door, test_budget counts its
# largest table
TWELVE = """\
id: shi_er
name: 十二人
version: 0.1.0
extends: [base]
rules:
  identity_table:
    2: null
    11: {qian_fu_zhan_xian: 4, te_gong_ji_guan: 4, shen_mi_ren: 3}
    12: {qian_fu_zhan_xian: 5, te_gong_ji_guan: 5, shen_mi_ren: 2}
  decks:
    - {players: [3, 4], deck: small}
    - {players: [5, 8], deck: standard}
    - {players: [9, 12], deck: full}
"""

IDENTITY = {"red": "qian_fu_zhan_xian", "blue": "te_gong_ji_guan", "black": "shen_mi_ren"}


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (`-n auto`), tests are spread with `--dist worksteal` unless --dist is given: each
    worker takes half the tests in order and one that runs out takes half of what the other has left, so both
    end within a test of each other (the default, `load`, left one worker alone on the last second or two)."""
    explicit = any(a.startswith("--dist") or a == "-d" for a in map(str, config.invocation_params.args))
    if getattr(config.option, "dist", "no") == "load" and not explicit:
        config.option.dist = "worksteal"


# The garbage collector's full passes walked every object of the run (the modules, the collected tests, the
# loaded content: some 400,000) about 30 times per worker, and pytest collects five times more at the end:
# 3-4 s of CPU per worker of the everyday run. What exists once the tests are collected lives to the end, so
# it is frozen (never walked again), and the collector runs less often (the games make many short-lived
# objects, freed by their reference counts): about 1.5 s per worker. No test depends on when garbage goes.
def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


# The same, file by file: what a test file leaves alive once its last test ran (module fixtures, caches, loaded
# packs) is frozen too, after a pass over the young generations (what is garbage by then goes first). Without it,
# the collector's full passes, and each test's own gc.collect() (the tests that check what is freed), walked
# every earlier file's objects again: about 2 s of CPU per worker of the everyday run (a full pass here instead
# of the young one cost more than it saved: the files are many, the scenario files each one). What was garbage
# in the old generation by then is kept to the end: about 150 MB more per worker. A test that checks what it
# frees makes its objects after the freeze before it, so the collector still walks them. (trylast: after
# pytest's own teardown, which ends the file's module fixtures first.)
@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    if nextitem is not None and nextitem.path != item.path:
        gc.collect(1)
        gc.freeze()


def pytest_sessionfinish(session: pytest.Session) -> None:
    gc.collect()  # what the tests left, once; pytest's own passes after this one then walk nothing old
    gc.freeze()


@pytest.fixture(autouse=True, scope="session")
def _user_data_dir(tmp_path_factory):
    """The user's data folder (the save key, sealed.py) is one of the run's own, never the real user's."""
    import os

    os.environ["FENGSHENG_DATA_DIR"] = str(tmp_path_factory.mktemp("user-data"))


@pytest.fixture(scope="session")
def content():
    return load_cached()


def fengsheng(*args: object) -> Result:
    """`fengsheng ARGS` run in-process (click's CliRunner): the command may exit with any status, but never
    raise anything else nor print a traceback."""
    from click.testing import CliRunner

    from interpreter.cli import main

    r = CliRunner().invoke(main, [str(a) for a in args], prog_name="fengsheng")
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    return r


def light_and_slow(name: str, light, heavy):
    """Parametrize `name` twice: a light value for the everyday run and a heavy one marked slow.

    CI (``pytest -q -n auto``) runs both; the everyday run (``-m "not slow"``) only the light one, which
    must still check the same behaviour (every player count, every kind of event the test reads).
    """
    return pytest.mark.parametrize(name, [light, pytest.param(heavy, marks=pytest.mark.slow)])


class Seat(ScriptedAgent):
    """A scripted seat with the referee's view, for white-box rule tests (see ScriptedAgent's referee mode)."""

    def __init__(self, answers=(), fallback=None):
        super().__init__(answers, fallback, referee=True)


def S(ident: str = "red", task: str | None = None, hand=(), intel=(), alive: bool = True) -> dict:
    """One seat of a table spec. ident: red / blue / black (a task implies black)."""
    if task is not None:
        ident = "black"
    return dict(identity=IDENTITY.get(ident, ident), task=task, hand=list(hand), intel=list(intel), alive=alive)


def make(content, seats, script=None, deck_top=(), current=0, seed=0, deck=None):
    """Build a table; `script` maps seat -> list of answers (missing seats answer nothing)."""
    script = script or {}
    agents = [Seat(script.get(i, ())) for i in range(len(seats))]
    return build(content, seats, agents, deck_top=list(deck_top), current=current, seed=seed, deck=deck)


def done(g):
    """Every scripted answer was used, and the zones are consistent."""
    for i, a in enumerate(g.agents):
        if isinstance(a, Seat):
            assert not a.unused, f"P{i} did not get to answer {a.unused}"
    g.check_invariants()


# ------------------------------------------------------------------ reading state and log


def ids(cards) -> list:
    return [c.uid for c in cards]


def hand(g, seat) -> set:
    return {c.uid for c in g.players[seat].hand}


def intel(g, seat) -> set:
    return {c.uid for c in g.players[seat].intel}


def events(g, kind=None, **match) -> list:
    out = []
    for e in g.log:
        if "e" not in e or (kind is not None and e["e"] != kind):
            continue
        if all(e.get(k) == v for k, v in match.items()):
            out.append(e)
    return out


def index(g, kind, **match) -> int:
    """Position in the log of the first event of this kind (ValueError if none)."""
    for i, e in enumerate(g.log):
        if e.get("e") == kind and all(e.get(k) == v for k, v in match.items()):
            return i
    raise ValueError(f"no {kind} event {match} in the log")


def asked(g, seat, kind=None) -> list:
    """The decisions a seat was really asked (forced single-option choices are not asked)."""
    return [d for d in g.agents[seat].asked if kind is None or d.kind == kind]


def opt_players(decision) -> list:
    return [o.seat for o in decision.options if isinstance(o, Player)]


def opt_cards(decision) -> list:
    return [o.uid for o in decision.options if isinstance(o, Card)]


def opt_uses(decision) -> list:
    """Card uses offered (by deck id), without pass."""
    return [o.card.uid for o in decision.options if isinstance(o, PlayOption) and o.card is not None]


def card_of(g, uid) -> Card:
    return next(c for c in g.cards if c.uid == uid)
