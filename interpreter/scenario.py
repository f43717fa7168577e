"""Scenario files: a mid-game state, scripted answers, and what must follow.

A scenario (``*.scenario.yaml``, format in docs/scenarios.md) sets up a table
with :mod:`interpreter.engine.table`, resumes the turn at a phase, answers each
decision from its script and checks the expectations against the end state
and the event log. A failing scenario reports every unmet expectation plus
the resolution trace: the timing nodes entered, the skills that were or were
not eligible (and why), and every decision asked and answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import catalogue
from .agents.base import Descriptor, Observation
from .agents.matching import find
from .agents.scripted import ScriptedAgent, ScriptExhausted
from .catalogue import DECISIONS, EVENTS, STATUSES
from .content.diagnostics import Diagnostics
from .content.loader import BUNDLED_CONTENT, ContentErrors, load_cached
from .content.packs import resolve_packs
from .content.read import read
from .content.yamlpos import Pos, key_pos_of, pos_of
from .engine.game import EngineError
from .engine.observation import observe
from .engine.table import NO_IDENTITY, TableError, build, put_pending, put_role_pile, put_usage
from .engine.victory import GameOver
from .model.colors import BLACK_BIT, BLUE_BIT, RED_BIT
from .scenario_zones import setup_zones, zone_fails
from .snippet import brief, clip, line_of, snippet
from .suggest import did_you_mean

# where a scenario may begin besides a phase of the rules' turn (the base game: draw, play, send, contest, receive)
STARTS = ("game", "travel", "turn_end", "settle")
# the game's phase where the turn resumes, if named otherwise
_START_PHASE = {"travel": "send", "settle": "setup", "game": "setup"}


class ScenarioFailure(Exception):
    """The scenario could not run as written (unscripted decision, illegal answer, bad setup)."""


class Failure(str):
    """A failure at a place in the scenario file, as the report prints it (`path:line:col: message` and the line
    with a caret), keeping its parts for `scenario run --format json`: the message alone, its line and column."""

    message: str
    line: int
    col: int

    def __new__(cls, text: str, message: str, line: int, col: int) -> Failure:
        self = super().__new__(cls, text)
        self.message, self.line, self.col = message, line, col
        return self


def failure_record(failure: str) -> dict:
    """A failure as JSON: its message and its place in the file (line and col null when it has none)."""
    if isinstance(failure, Failure):
        return {"message": failure.message, "line": failure.line, "col": failure.col}
    return {"message": str(failure), "line": None, "col": None}


def _failure_of(e: Exception) -> str:
    """An exception's failure text, keeping the place of a Failure it was raised with."""
    return e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Failure) else str(e)


class _Where:
    """Points a failure at its place in the scenario file: `path:line:col: message` and the line with a caret."""

    def __init__(self, path: Path, lines: list[str] | None):
        self.path, self.lines = path, lines

    def __call__(self, pos: Pos | None, message: str) -> str:
        if pos is None:
            return message
        shown = line_of(self.lines, pos.line)
        text = f"{self.path}:{pos.line}:{pos.col}: {message}"
        return Failure(text if shown is None else text + "\n" + snippet(shown, pos.col), message, pos.line, pos.col)


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
        self.offered: list[tuple[Any, list[str]]] = []  # (forbidden answer, the options it was among)

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        labels = [d["label"] for d in actions]
        if self.never_asked:
            raise NeverAsked(f"P{self.seat} was asked a decision with options {labels}, but must never be asked")
        for forbidden in self.not_offered:
            if find(actions, forbidden) is not None:
                self.offered.append((forbidden, labels))
        return super().act(observation, actions)


def _script(seat: int, raw: list, where: _Where, expect: dict) -> tuple[_SeatAgent, list]:
    """One seat's scripted agent (answers from the file, failures pointed at their line) and the
    position of each answer in the file."""
    positions = [pos_of(raw, i) for i in range(len(raw))]
    # YAML gives ints (positions), booleans (yes / no) and text; anything else is read as its text
    answers = [a if isinstance(a, int) else str(a) for a in raw]
    agent = _SeatAgent(
        answers,
        seat=seat,
        locate=lambda i, message: where(positions[i], message),
        unscripted_hint=f"add an answer to answers.{seat}",
        never_asked=expect.get("asked") is False,
        not_offered=[a if isinstance(a, int) else str(a) for a in expect.get("not_offered", [])],
    )
    agent.must_be_asked = expect.get("asked") is True
    return agent, positions


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


def _load_scenario(path: Path) -> tuple[dict, list[str] | None]:
    """The scenario's data and the lines of its text as read (failures show them)."""
    sink = Diagnostics()
    data = read(sink, path, "scenario")
    if sink.errors:
        raise ContentErrors(sink.errors)
    assert data is not None  # a file read is data or an error
    return data, sink.sources.get(str(path))


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def content_packs(path: Path, data: dict, where: _Where, allow_outside: bool = False) -> list[Path]:
    """The packs a scenario plays with: the full bundled game, then its `content:` folders.

    A folder must lie inside the scenario's own folder or the current working
    directory (a scenario file someone sent you cannot load content from
    anywhere on your disk) unless `allow_outside`; raises ScenarioFailure.
    """
    roots = [path.parent.resolve(), Path.cwd().resolve()]
    packs = [BUNDLED_CONTENT]
    for i, p in enumerate(data.get("content", [])):
        pack = (path.parent / str(p)).resolve()
        if not allow_outside and not _inside(pack, roots):
            raise ScenarioFailure(
                where(
                    pos_of(data["content"], i),
                    f"content pack {brief(p)} is outside the scenario's folder and the current directory; "
                    "run with --allow-outside to load it anyway",
                )
            )
        if not pack.is_dir():
            not_folder = f"content pack {brief(p)} is not a folder ({clip(str(pack))})"
            raise ScenarioFailure(where(pos_of(data["content"], i), not_folder))
        packs.append(pack)
    return resolve_packs(packs)


INTERNAL = "internal error (a bug in the engine, not in the scenario; please report it with this scenario file)"


def run_scenario(path, allow_outside: bool = False) -> ScenarioResult:
    path = Path(path)
    data, lines = _load_scenario(path)
    where = _Where(path, lines)
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
    agents = [agent for agent, _ in scripts]
    result = ScenarioResult(name, str(path), True)
    wrong = _setup_errors(data, content, where)
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
                result.failures.append(where(key_pos_of(spec["used"], skill_id), f"setup: {e}"))
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
    for a, _ in scripts:
        if a.must_be_asked and not a.asked:
            result.failures.append(f"P{a.seat} was never asked a decision, but must be asked")
        for forbidden, labels in a.offered:
            result.failures.append(
                f"P{a.seat} was offered {brief(forbidden)}, which must not be offered (options: {labels})"
            )
    for a, positions in scripts:
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


def _setup_errors(data: dict, content, where: _Where) -> list[str]:
    """What the schema cannot check: seat numbers within the table, a deck the content has."""
    out = []
    n = len(data["players"])
    pend = data.get("pending") or {}
    for container, key in ((data, "current"), (pend, "sender"), (pend, "holder"), (pend, "lock"), (pend, "target")):
        seat = container.get(key)
        if seat is not None and not 0 <= seat < n:
            name = key if container is data else f"pending.{key}"
            out.append(where(pos_of(container, key), f"setup: {name} is seat {seat}; the table has seats 0 to {n - 1}"))
    for section, seats in (
        ("answers", data.get("answers")),
        ("expect.players", (data.get("expect") or {}).get("players")),
    ):
        for key in seats or {}:
            if isinstance(key, int) and not isinstance(key, bool):
                seat = key
            elif isinstance(key, str) and key.isdigit() and len(key) <= 3:
                seat = int(key)  # written as 1 or "1"
            else:
                seat = -1  # anything else (.inf, 1.5, a name) is not a seat
            if not 0 <= seat < n:
                out.append(
                    where(key_pos_of(seats, key), f"{section}: {brief(key)} is not a seat (the table has 0 to {n - 1})")
                )
    start = data.get("start")
    if start is not None:
        ids = [ph.id for ph in content.rules.phases]
        if start not in (*ids, *STARTS):
            close = did_you_mean(start, [*ids, *STARTS]) if isinstance(start, str) else None
            out.append(
                where(
                    pos_of(data, "start"),
                    f"start: the turn has no phase {brief(start)} (its phases: {', '.join(ids)}; or "
                    f"{', '.join(STARTS)})" + (f"; {close}" if close else ""),
                )
            )
    for i, spec in enumerate(data["players"]):
        ident = spec.get("identity")
        if ident != NO_IDENTITY and ident not in content.identities:
            known = [*content.identities, NO_IDENTITY]
            unknown = f"setup: seat {i}: unknown identity {brief(ident)}" + _mean(ident, known)
            out.append(where(pos_of(spec, "identity"), unknown))
        for j, name in enumerate(spec.get("statuses") or []):
            if name not in STATUSES:
                unknown = f"setup: seat {i}: unknown status {brief(name)}" + _mean(name, list(STATUSES))
                out.append(where(pos_of(spec["statuses"], j), unknown))
    deck = data.get("deck")
    if deck is not None and deck not in content.decks:
        no_deck = f"setup: no deck {brief(deck)} (deck.yaml has: {', '.join(content.decks)})"
        out.append(where(pos_of(data, "deck"), no_deck))
        return out
    out += _unknown_card_ids(data, content, where)
    out += _unknown_skill_answers(data, content, where)
    out += _unknown_expectations(data.get("expect") or {}, content, where)
    return out


def _unknown_skill_answers(data: dict, content, where: _Where) -> list[str]:
    """Answers ``skill NAME`` (in `answers` or a seat's `not_offered`) naming a skill no role of the content has.

    Such an answer is never an option: the run would fail later and elsewhere — "answers left unused"
    when the seat is never asked, or "not a legal option" — typically after a designer renamed or
    replaced a role's skills under its scenario. Each is reported at its line with the closest name,
    among the skills of the seat's role first.
    """
    known = {k for role in content.roles.values() for sk in role.moments for k in (sk.name, sk.id)}
    out = []
    for i, spec in enumerate(data["players"]):
        role = content.roles.get(spec.get("role")) if isinstance(spec.get("role"), str) else None
        own = list(dict.fromkeys(sk.name for sk in role.skills)) if role is not None else []
        wanted = (data.get("answers") or {}).get(i, (data.get("answers") or {}).get(str(i)))
        seat_expect = ((data.get("expect") or {}).get("players") or {}).get(i) or {}
        for section, answers in ((f"answers.{i}", wanted), (f"expect.players.{i}.not_offered", None)):
            if section.endswith("not_offered") and isinstance(seat_expect, dict):
                answers = seat_expect.get("not_offered")
            for j, answer in enumerate(answers if isinstance(answers, list) else []):
                if not isinstance(answer, str) or not answer.strip().startswith("skill "):
                    continue
                name = answer.strip()[len("skill ") :].strip()
                if name in known:
                    continue
                msg = f"{section}: {brief(answer)} names no skill of any role of the content"
                if role is not None:
                    msg += f" (P{i}'s role {role.name} has: {', '.join(own) or 'no skill'})"
                # the closest of the seat's role's skills — its only one, however spelt — else of any role
                close = did_you_mean(name, own) or (f"did you mean {own[0]}?" if len(own) == 1 else None)
                close = close or did_you_mean(name, sorted(known))
                hint = f"; did you mean skill {close[len('did you mean ') :]}" if close else ""
                out.append(where(pos_of(answers, j), msg + hint))
    return out


# the fields of a decision record (engine/core.py) that a pattern `{d: ...}` may match
_DECISION_FIELDS = ("d", "seat", "n", "choice", "label", "prompt", "source", "to")


def _declared_events(content) -> dict:
    """The events the content's rules declare, as the log records them: their fields, the subject's `seat`, the
    announcement's number `ev` (Resolution.announce)."""
    return {
        name: catalogue.declared_event(name, (*(f for f, _ in e.fields), "seat", "ev"), e.doc, e.zh)
        for name, e in content.declared.events.items()
    }


def _unknown_expectations(expect: dict, content, where: _Where) -> list[str]:
    """Patterns and skill names an expectation names that no game can produce.

    A pattern with a misspelt event kind or field matches no record, so `events:` would fail with
    "did not happen" and `no_events:` would pass whatever the game did; a skill name no role has
    never fires. Each is reported at its line with the closest name.
    """
    out = []
    patterns: list[tuple[str, Any]] = [(f"events[{i}]", p) for i, p in enumerate(expect.get("events") or [])]
    patterns += [(f"no_events[{i}]", p) for i, p in enumerate(expect.get("no_events") or [])]
    for i, want in enumerate(expect.get("event_counts") or []):
        if isinstance(want, dict):
            patterns.append((f"event_counts[{i}].match", want.get("match")))
    events = EVENTS | _declared_events(content)
    for what, pattern in patterns:
        if not isinstance(pattern, dict):
            continue
        if "e" in pattern:
            kind, kinds, field_of = pattern["e"], list(events), lambda k: (*events[k].fields, "e", "to", "secret")
            noun, key = "event kind", "e"
        elif "d" in pattern:
            kind, kinds, field_of = pattern["d"], list(DECISIONS), lambda _k: _DECISION_FIELDS
            noun, key = "decision kind", "d"
        else:
            continue
        if kind not in kinds:
            close = did_you_mean(kind, kinds) if isinstance(kind, str) else None
            known = f"; {close}" if close else f" ({noun}s: {', '.join(kinds)})"
            msg = f"expect.{what}: no {noun} {brief(kind)}{known}"
            out.append(where(pos_of(pattern, key), msg))
            continue
        fields = field_of(kind)
        for name in pattern:
            if name not in fields:
                close = did_you_mean(name, list(fields)) if isinstance(name, str) else None
                msg = f"expect.{what}: the {kind} record has no field {brief(name)} (its fields: {', '.join(fields)})"
                out.append(where(key_pos_of(pattern, name), msg + (f"; {close}" if close else "")))
    names = sorted({skill.name for role in content.roles.values() for skill in role.skills})
    fired = expect.get("skills_fired") or []
    for j, name in enumerate(fired if isinstance(fired, list) else []):
        if name not in names:
            close = did_you_mean(name, names) if isinstance(name, str) else None
            msg = f"expect.skills_fired: no role of the content has a skill {brief(name)}"
            out.append(where(pos_of(fired, j), msg + (f"; {close}" if close else "")))
    return out


def _mean(word: object, known: list[str]) -> str:
    """After an unknown name: "; did you mean X? (known: …)", the closest name first, then every one."""
    close = did_you_mean(word, known) if isinstance(word, str) else None
    return (f"; {close}" if close else "") + f" (known: {', '.join(known)})"


def _unknown_card_ids(data: dict, content, where: _Where) -> list[str]:
    """Deck ids placed in hands, intel areas, on the deck or in transit that the deck in play lacks.

    The message says which ids it has, so a designer without the repository's deck.yaml at hand
    (an installed copy) can pick one; `fengsheng pack show` names the folder that holds it.
    """
    deck = data.get("deck")
    ids = {e.uid for e in content.deck} if deck is None else set(content.decks[deck])
    places: list[tuple[str, Any]] = [("deck_top", data.get("deck_top"))]
    for i, spec in enumerate(data["players"]):
        places += [(f"seat {i} hand", spec.get("hand")), (f"seat {i} intel", spec.get("intel"))]
    out = []
    for what, uids in places:
        for j, uid in enumerate(uids or []):
            if isinstance(uid, int) and not isinstance(uid, bool) and uid not in ids:
                which = f"the deck {brief(deck)}" if deck is not None else "the deck"
                msg = f"setup: {what}: card #{uid} is not in {which} (its ids: {_ranges(sorted(ids))})"
                out.append(where(pos_of(uids, j), msg))
    return out


def _ranges(ids: list[int]) -> str:
    """1, 2, 3, 5, 7, 8 as '1-3, 5, 7-8'."""
    runs: list[list[int]] = []
    for u in ids:
        if runs and u == runs[-1][1] + 1:
            runs[-1][1] = u
        else:
            runs.append([u, u])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _ids(cards) -> list:
    return [c.uid for c in cards]


def _match(event: dict, pattern: dict) -> bool:
    for k, v in pattern.items():
        if k == "seat" and isinstance(v, str) and v.startswith("P"):
            v = int(v[1:])
        if event.get(k) != v:
            return False
    return True


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


# what `players.<seat>.<key>` in a scenario's expectations reads from the player
_PLAYER_FACTS = {
    "hand": lambda p: sorted(_ids(p.hand)),
    "intel": lambda p: sorted(_ids(p.intel)),
    "hand_count": lambda p: len(p.hand),
    "intel_count": lambda p: len(p.intel),
    "alive": lambda p: p.alive,
    "out": lambda p: p.out,
    "role_face_up": lambda p: p.role_face_up,
    "role": lambda p: p.role.id if p.role is not None else None,
    "red": lambda p: p.counts[RED_BIT],
    "blue": lambda p: p.counts[BLUE_BIT],
    "black": lambda p: p.counts[BLACK_BIT],
}


# what `players.<seat>.<key>` checks while the scenario runs, not in the end state (see _SeatAgent)
_RUN_FACTS = ("asked", "not_offered")
# what `players.<seat>.knows` / `knows_not` read: the cards whose face the seat's observation shows
_SIGHT_FACTS = ("knows", "knows_not")


def _faces_seen(g, seat: int) -> set[int]:
    """The deck ids of the cards whose face `seat`'s observation shows now (its hand, the public zones, the cards
    of other zones it knows: known_cards …); the history is left out (its records name cards by id only)."""
    seen: set[int] = set()

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            if isinstance(v.get("id"), int) and "card" in v:  # a card's face (actions.card_data)
                seen.add(v["id"])
            for k, x in v.items():
                if k != "history":
                    walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)

    walk(observe(g, seat))
    return seen


def _counter_fails(g, seat: int, want: dict, at) -> list[str]:
    """`counters`: each named counter of the rules has this value at the end."""
    fails = []
    declared = g.content.declared.counters
    for name, value in want.items():
        c = declared.get(name)
        if c is None:
            hint = did_you_mean(str(name), declared)
            fails.append(
                at(
                    key_pos_of(want, name),
                    f"P{seat} counters: the rules declare no counter {brief(name)}" + (f"; {hint}" if hint else ""),
                )
            )
        elif g.seats.counter(g.players[seat], c) != value:
            fails.append(
                at(
                    pos_of(want, name),
                    f"P{seat} counter {name}: expected {value}, got {g.seats.counter(g.players[seat], c)}",
                )
            )
    return fails


def _sight_fails(g, seat: int, want: dict, key: str, at) -> list[str]:
    """`knows`: each card's face is in the seat's observation at the end; `knows_not`: none is."""
    fails = []
    uids = want[key]
    seen = _faces_seen(g, seat)
    for j, uid in enumerate(uids):
        card = g.zones.by_uid.get(uid)
        if card is None:
            fails.append(at(pos_of(uids, j), f"P{seat} {key}: no card #{uid} in this game"))
            continue
        if (uid in seen) != (key == "knows"):
            where = g.zones.zone_name(card)
            verb = "does not see" if key == "knows" else "sees"
            fails.append(at(pos_of(uids, j), f"P{seat} {key}: P{seat} {verb} the face of #{uid} ({where})"))
    return fails


def _plain(_pos: Pos | None, message: str) -> str:
    return message


def _count_fails(log: list, counts: list, at=_plain) -> list[str]:
    """`event_counts`: each pattern matches exactly `times` records (0: never)."""
    fails = []
    for j, want in enumerate(counts):
        pattern, times = want["match"], want["times"]
        got = sum(1 for e in log if _match(e, pattern))
        if got != times:
            fails.append(at(pos_of(counts, j), f"event {pattern} happened {got} time(s), expected exactly {times}"))
    return fails


def check_expectations(g, over, expect: dict, at=_plain) -> list[str]:
    """What of `expect` the game did not do, each failure pointed at its expectation by `at` (a `_Where`: the
    file, line and column, and the line with a caret; without it, the message alone)."""
    fails = []
    if "winners" in expect:
        got = sorted(p.seat for p in over.winners) if over else None
        want = sorted(expect["winners"])
        if got != want:
            fails.append(
                at(pos_of(expect, "winners"), f"winners: expected {want}, got {got if over else 'no end of game'}")
            )
    if "reason" in expect and (over is None or over.reason != expect["reason"]):
        msg = f"game end reason: expected {expect['reason']}, got {over.reason if over else None}"
        fails.append(at(pos_of(expect, "reason"), msg))
    if "game_over" in expect and bool(over) != expect["game_over"]:
        fails.append(at(pos_of(expect, "game_over"), f"game over: expected {expect['game_over']}, got {bool(over)}"))
    for seat, want in (expect.get("players") or {}).items():
        p = g.players[int(seat)]
        for key, v in want.items():
            if key in _RUN_FACTS:  # checked while the scenario ran (_SeatAgent)
                continue
            if key in _SIGHT_FACTS:
                fails += _sight_fails(g, int(seat), want, key, at)
                continue
            if key == "counters":
                fails += _counter_fails(g, int(seat), want["counters"], at)
                continue
            if key == "zones":
                fails += zone_fails(g, int(seat), want["zones"], at)
                continue
            fact = _PLAYER_FACTS.get(key)
            if fact is None:
                fails.append(at(key_pos_of(want, key), f"players.{seat}: unknown expectation '{key}'"))
                continue
            g_v = fact(p)
            w_v = sorted(v) if key in ("hand", "intel") else v
            if g_v != w_v:
                fails.append(at(pos_of(want, key), f"P{seat} {key}: expected {w_v}, got {g_v}"))
    fails += zone_fails(g, None, expect.get("zones") or {}, at)
    zones = {"discard": g.discard_pile, "removed": g.removed}
    for zone, cards in zones.items():
        uids = expect.get(f"{zone}_contains", [])
        for j, uid in enumerate(uids):
            if uid not in _ids(cards):
                fails.append(at(pos_of(uids, j), f"{zone} pile: expected to contain #{uid}, has {_ids(cards)}"))
    if "deck_top" in expect:
        top = list(reversed(_ids(g.deck)))[: len(expect["deck_top"])]
        if top != expect["deck_top"]:
            fails.append(at(pos_of(expect, "deck_top"), f"deck top: expected {expect['deck_top']}, got {top}"))
    if "role_pile" in expect:
        got = [r.id for r in reversed(g.role_pile)]
        if got != expect["role_pile"]:
            msg = f"role pile (top first): expected {expect['role_pile']}, got {got}"
            fails.append(at(pos_of(expect, "role_pile"), msg))
    if "pending" in expect:
        got = g.pending.uid if g.pending is not None else None
        if got != expect["pending"]:
            fails.append(at(pos_of(expect, "pending"), f"pending intel: expected {expect['pending']}, got {got}"))
    log = g.log
    i = 0
    events = expect.get("events", [])
    for j, pattern in enumerate(events):
        while i < len(log) and not _match(log[i], pattern):
            i += 1
        if i >= len(log):
            fails.append(at(pos_of(events, j), f"event {pattern} did not happen (in this order)"))
            break
        i += 1
    never = expect.get("no_events", [])
    for j, pattern in enumerate(never):
        if any(_match(e, pattern) for e in log):
            fails.append(at(pos_of(never, j), f"event {pattern} happened but must not"))
    fails += _count_fails(log, expect.get("event_counts", []), at)
    fired = [t[2] for t in g.trace or [] if t[0] == "fired"]
    names = expect.get("skills_fired", [])
    for j, name in enumerate(names):
        if name not in fired:
            fails.append(at(pos_of(names, j), f"skill {name} did not fire (fired: {fired or 'none'})"))
    return fails
