"""Scenario files: a mid-game state, scripted answers, and what must follow.

A scenario (``*.scenario.yaml``, format in docs/scenarios.md) sets up a table
with :mod:`interpreter.engine.table`, resumes the turn at a phase, answers each
decision from its script and checks the expectations against the end state
and the event log. A failing scenario reports every unmet expectation plus
the resolution trace: the timing nodes entered, the skills that were or were
not eligible (and why), and every decision asked and answered.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents.base import Descriptor, Observation
from .agents.matching import find
from .agents.scripted import ScriptedAgent, ScriptExhausted
from .content.diagnostics import Diagnostics
from .content.loader import BUNDLED_CONTENT, ContentErrors, load_cached
from .content.packs import PackError, not_a_pack, resolve_packs
from .content.read import read
from .content.yamlpos import key_pos_of, pos_of
from .engine.game import EngineError
from .engine.table import TableError, build, put_pending, put_role_pile, put_usage
from .engine.victory import GameOver
from .scenario_expect import check_expectations
from .scenario_setup import Failure, Where, card_name_hints, setup_errors
from .scenario_zones import setup_zones
from .snippet import brief, clip
from .suggest import did_you_mean, folder_hint

# the game's phase where the turn resumes, if named otherwise
_START_PHASE = {"travel": "send", "settle": "setup", "game": "setup"}


class ScenarioFailure(Exception):
    """The scenario could not run as written (unscripted decision, illegal answer, bad setup)."""


def failure_record(failure: str) -> dict:
    """A failure as JSON: its message and its place in the file (line and col null when it has none)."""
    if isinstance(failure, Failure):
        return {"message": failure.message, "line": failure.line, "col": failure.col}
    return {"message": str(failure), "line": None, "col": None}


def _failure_of(e: Exception) -> str:
    """An exception's failure text, keeping the place of a Failure it was raised with."""
    return e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Failure) else str(e)


class NeverAsked(ScenarioFailure):
    """A seat the scenario expects never to be asked was asked a decision."""


class _SeatAgent(ScriptedAgent):
    """A scenario seat: its scripted answers, plus what the expectations say it is never asked or offered.

    ``never_asked``: any decision asked of the seat fails the scenario (NeverAsked), which says what
    was asked — not the "unscripted decision" of a script that ran out. ``not_offered``: written
    answers (as in `answers`, e.g. ``skill NAME``) that must name no option of any decision the
    seat is asked; each one offered is recorded in ``offered`` (the run goes on).
    """

    def __init__(self, *args: Any, never_asked: bool = False, not_offered: list[Any] | None = None, **kw: Any):
        super().__init__(*args, **kw)
        self.never_asked = never_asked
        self.must_be_asked = False  # `asked: true`: the seat is asked at least once
        self.not_offered = not_offered or []
        # index in not_offered -> (the options of the first decision it was among, how many decisions offered it)
        self.offered: dict[int, tuple[list[str], int]] = {}

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        labels = [d["label"] for d in actions]
        if self.never_asked:
            raise NeverAsked(f"P{self.seat} was asked a decision with options {labels}, but must never be asked")
        for i, forbidden in enumerate(self.not_offered):
            if find(actions, forbidden) is not None:
                first, times = self.offered.get(i, (labels, 0))
                self.offered[i] = (first, times + 1)
        return super().act(observation, actions)


def _script(seat: int, raw: list, where: Where, expect: dict) -> tuple[_SeatAgent, list, list]:
    """One seat's scripted agent (answers from the file, failures pointed at their line), the
    position of each answer in the file and that of each item of its `not_offered`."""
    positions = [pos_of(raw, i) for i in range(len(raw))]
    forbidden = expect.get("not_offered") or []
    # YAML gives ints (positions), booleans (yes / no) and text; anything else is read as its text
    answers = [a if isinstance(a, int) else str(a) for a in raw]
    agent = _SeatAgent(
        answers,
        seat=seat,
        locate=lambda i, message: where(positions[i], message),
        unscripted_hint=f"add an answer to answers.{seat}",
        never_asked=expect.get("asked") is False,
        not_offered=[a if isinstance(a, int) else str(a) for a in forbidden],
    )
    agent.must_be_asked = expect.get("asked") is True
    return agent, positions, [pos_of(forbidden, i) for i in range(len(forbidden))]


@dataclass
class ScenarioResult:
    name: str
    path: str
    passed: bool
    failures: list = field(default_factory=list)
    trace: list = field(default_factory=list)

    def report(self) -> str:
        lines = [f"{'PASS' if self.passed else 'FAIL'} {self.path}: {self.name}"]
        for f in self.failures:
            lines.append("  - " + f.replace("\n", "\n    "))  # a failure may show its line of the file
        if not self.passed and self.trace:
            lines.append("  resolution trace:")
            lines += ["    " + t for t in format_trace(self.trace)]
        return "\n".join(lines)


_TRACE_FORMATS = {
    "node": "node {1}  [{2}]",
    "phase": "phase {1}",
    "ask": "  ask P{1} {2} '{3}': {4}",
    "answer": "  P{1} answers: {2}",
    "skill": "  skill P{1} {2} on {3}: {4}",
    "fired": "  fired: P{1} {2}",
}


def format_trace(trace: list) -> list[str]:
    """Readable lines for the engine's trace records (see Game.trace)."""
    out = []
    for t in trace:
        if t[0] == "dying":
            out.append("  dying: " + ", ".join(f"P{s}" for s in t[1]))
        elif t[0] in _TRACE_FORMATS:
            out.append(_TRACE_FORMATS[t[0]].format(*t))
        else:
            out.append("  " + " ".join(map(str, t)))
    return out


def load_scenario(path: Path) -> dict:
    return _load_scenario(path)[0]


def _load_scenario(path: Path, allow_outside: bool = False) -> tuple[dict, list[str] | None]:
    """The scenario's data and the lines of its text as read (failures show them). A file that breaks its schema
    raises ContentErrors; a card's name where a deck id goes gets the card's ids in the scenario's content."""
    sink = Diagnostics()
    data = read(sink, path, "scenario")
    lines = sink.sources.get(str(path))
    if sink.errors:
        if data is not None:
            _name_the_cards(sink.errors, data, path, lines, allow_outside)
        raise ContentErrors(sink.errors)
    assert data is not None  # a file read is data or an error
    return data, lines


def _name_the_cards(errors: list, data: dict, path: Path, lines: list[str] | None, allow_outside: bool) -> None:
    """Load the scenario's content for the hints of scenario_setup.card_name_hints, when a schema error is about
    a text where a deck id goes: the schema stage runs before the content is known. A hint only adds to an error,
    so content that cannot be had (a `content:` folder outside, missing or broken) leaves the errors as they are."""
    if not any(e.code == "E113" and e.about is not None and isinstance(e.about[1], str) for e in errors):
        return
    try:
        content = load_cached(content_packs(path, data, Where(path, lines), allow_outside))
    except (ScenarioFailure, ContentErrors, PackError, OSError):
        return
    card_name_hints(errors, content, data.get("deck"))


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def content_packs(path: Path, data: dict, where: Where, allow_outside: bool = False) -> list[Path]:
    """The packs a scenario plays with: the full bundled game, then its `content:` folders.

    A folder must lie inside the scenario's own folder or the current working
    directory (a scenario file someone sent you cannot load content from
    anywhere on your disk) unless `allow_outside`; raises ScenarioFailure.
    """
    packs = [BUNDLED_CONTENT]
    given = data.get("content", [])
    roots = [path.parent.resolve(), Path.cwd().resolve()] if given else []  # (most scenarios give none)
    for i, p in enumerate(given):
        pack = (path.parent / str(p)).resolve()
        if not allow_outside and not _inside(pack, roots):
            raise ScenarioFailure(
                where(
                    pos_of(data["content"], i),
                    f"content pack {brief(p)} is outside the scenario's folder and the current directory; "
                    "run with --allow-outside to load it anyway",
                )
            )
        if not os.path.isdir(pack):  # (os.path's tests: a name too long for the system raises OSError in Path's)
            hint = folder_hint(str(p), base=path.parent) if not os.path.exists(pack) else None
            not_folder = f"content pack {brief(p)} is not a folder ({clip(str(pack))})" + (f"; {hint}" if hint else "")
            raise ScenarioFailure(where(pos_of(data["content"], i), not_folder))
        empty = not_a_pack(pack, base=path.parent)  # (`.` for `..`: an empty pack would load, and nothing be found)
        if empty is not None:
            raise ScenarioFailure(where(pos_of(data["content"], i), f"content pack {brief(p)}: {empty}"))
        packs.append(pack)
    return resolve_packs(packs)


INTERNAL = "internal error (a bug in the engine, not in the scenario; please report it with this scenario file)"


def run_scenario(path, allow_outside: bool = False) -> ScenarioResult:
    """Run one scenario file; its failures in the order of the file (see in_file_order)."""
    result = _run(Path(path), allow_outside)
    result.failures = in_file_order(result.failures)
    return result


def in_file_order(failures: list[str]) -> list[str]:
    """Failures by line and column, as a designer reads the file top to bottom: those at a place in the file first
    (the run finds them in the order of its own checks — the setup's, the script's, then each kind of expectation
    in turn — not of the file), then those at none (a seat asked or not, a broken invariant), as they came."""
    placed = sorted((f for f in failures if isinstance(f, Failure)), key=lambda f: (f.line, f.col))
    return [*placed, *(f for f in failures if not isinstance(f, Failure))]


def _run(path: Path, allow_outside: bool) -> ScenarioResult:
    data, lines = _load_scenario(path, allow_outside)
    where = Where(path, lines)
    name = data.get("name", path.stem)
    try:
        packs = content_packs(path, data, where, allow_outside)
    except ScenarioFailure as e:
        return ScenarioResult(name, str(path), False, [_failure_of(e)])
    content = load_cached(packs)
    seats = data["players"]
    answers = data.get("answers") or {}
    expect_players = (data.get("expect") or {}).get("players") or {}
    scripts = [
        _script(
            i,
            answers.get(i, answers.get(str(i), [])) or [],
            where,
            expect_players.get(i, expect_players.get(str(i), {})) or {},
        )
        for i in range(len(seats))
    ]
    agents = [agent for agent, _, _ in scripts]
    result = ScenarioResult(name, str(path), True)
    wrong = setup_errors(data, content, where)
    if wrong:
        result.passed = False
        result.failures += wrong
        return result
    try:
        g = build(
            content,
            seats,
            agents,
            deck_top=data.get("deck_top", []),
            current=data.get("current", 0),
            seed=data.get("seed", 0),
            record=True,
            deck=data.get("deck"),
        )
    except TableError as e:
        result.passed = False
        result.failures.append(f"setup: {e}")
        return result
    for i, spec in enumerate(seats):
        role_id = spec.get("role")
        if role_id is not None:
            if role_id not in content.roles:
                result.passed = False
                hint = did_you_mean(role_id, content.roles) if isinstance(role_id, str) else None
                named = [r.id for r in content.roles.values() if role_id in (r.name, r.label())]
                hint = f"a role is named by its id: {' or '.join(named)}" if named else hint  # (a role by its name)
                unknown = f"setup: seat {i}: unknown role {brief(role_id)}" + (f"; {hint}" if hint else "")
                result.failures.append(where(pos_of(spec, "role"), unknown))
                return result
            g.players[i].new_role(content.roles[role_id], spec.get("face_up", not content.roles[role_id].hidden))
    if not _start_counters(g, seats, result, where):
        return result
    wrong = setup_zones(g, data, seats, where)
    if wrong:
        result.passed = False
        result.failures += wrong
        return result
    start = data.get("start", "draw")
    for i, spec in enumerate(seats):
        for skill_id, times in (spec.get("used") or {}).items():
            try:
                put_usage(g, i, str(skill_id), times, _START_PHASE.get(start, start))
            except TableError as e:
                result.passed = False
                role = g.players[i].role
                by_name = [sk.id for sk in (role.skills if role is not None else ()) if sk.name == skill_id]
                said = f"setup: {e}" + (f"; a skill is named by its id here: {by_name[0]}" if by_name else "")
                result.failures.append(where(key_pos_of(spec["used"], skill_id), said))
                return result
    if data.get("role_pile") is not None:
        try:
            put_role_pile(g, data["role_pile"])
        except TableError as e:
            result.passed = False
            result.failures.append(where(pos_of(data, "role_pile"), f"setup: {e}"))
            return result
    g.skills.index_triggers()
    g.trace = result.trace
    pend = data.get("pending")
    if pend:
        assert g.current is not None  # the table set-up chose the current player
        try:
            put_pending(
                g,
                pend["card"],
                pend.get("sender", g.current.seat),
                pend.get("holder", g.current.seat),
                pend.get("face_up", False),
                pend.get("lock"),
                pend.get("target"),
                pend.get("direction"),
            )
        except TableError as e:
            result.passed = False
            result.failures.append(where(pos_of(pend, "card"), f"setup: {e}"))
            return result
        t = g.transit
        if start == "travel" and t is not None and t.direction == "up" and t.target is None:
            result.passed = False
            result.failures.append(
                where(
                    pos_of(pend, "card"),
                    "setup: an ↑ intel sent at `start: travel` needs pending.target (whom it was sent to)",
                )
            )
            return result
    over = None
    try:
        if start == "settle":
            g.settle("scenario")
        elif start == "game":  # 游戏开始时, then the first turn from its beginning
            g.turn_no = 0
            g.enter_phase("setup")
            g.start_game()
            g.play_turn()
        else:
            g.play_turn(start)
        if data.get("until") == "game_end":
            g.current = g.flow.next_turn_player()
            g.run()
            over = g.result
    except GameOver as e:
        over = e
        try:
            g.game_end_moment()  # (Game.run has it when the game ends inside run)
        except (ScenarioFailure, ScriptExhausted, EngineError) as err:
            result.passed = False
            result.failures.append(_failure_of(err))
            return result
        g.result = e
    except (ScenarioFailure, ScriptExhausted, EngineError) as e:
        result.passed = False
        result.failures.append(_failure_of(e))
        return result
    except Exception as e:  # a bug in the engine, not in the scenario: reported with the trace so far
        result.passed = False
        result.failures.append(f"{INTERNAL}: {type(e).__name__}: {e}")
        return result
    for a, _, forbidden_at in scripts:
        if a.must_be_asked and not a.asked:
            result.failures.append(f"P{a.seat} was never asked a decision, but must be asked")
        for i, (labels, times) in sorted(a.offered.items()):  # once per item, at its place in the file
            more = f"; offered at {times} decisions in all" if times > 1 else ""
            said = (
                f"P{a.seat} was offered {brief(a.not_offered[i])}, which must not be offered (options: {labels}{more})"
            )
            result.failures.append(where(forbidden_at[i], said))
    for a, positions, _ in scripts:
        if a.pos < len(a.answers):
            result.failures.append(
                where(
                    positions[a.pos],
                    f"P{a.seat} has {len(a.answers) - a.pos} scripted answer(s) left unused: {a.answers[a.pos :]}",
                )
            )
    try:
        g.check_invariants()
    except AssertionError as e:
        result.failures.append(f"zone invariant broken: {e}")
    result.failures += check_expectations(g, over, data.get("expect") or {}, where)
    result.passed = not result.failures
    return result


def _start_counters(g, seats: list, result, where) -> bool:
    """The rules' counters at their initial values, as a game starts them (after the roles), then a seat's own
    `counters:` over them; False (a failure said) for a counter the rules do not declare."""
    declared = g.content.declared.counters
    if declared:
        g.seats.start_counters(declared.values())
    for i, spec in enumerate(seats):
        for name, value in (spec.get("counters") or {}).items():
            c = declared.get(name)
            if c is None:
                hint = did_you_mean(str(name), declared)
                result.passed = False
                msg = f"setup: seat {i}: the rules declare no counter {brief(name)}" + (f"; {hint}" if hint else "")
                result.failures.append(where(key_pos_of(spec["counters"], name), msg))
                return False
            g.seats.keep_mark(g.players[i], c.name, c.clamp(value), c.visibility == "owner")
    return True
