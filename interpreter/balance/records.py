"""What a balance sweep writes, and reading it back: the grid (``sweep.json``) and one record per game
(``games.jsonl``).

A sweep's directory holds

* ``sweep.json`` — the grid and its provenance (:class:`SweepSpec`): the fengsheng version and a
  fingerprint of its code, the sweep seed, the player counts, the agent specs, the packs (label,
  content folders — a bundled pack by id, another relative to the directory: ``sweep.portable`` —,
  ``--expansions``, the content's fingerprint), the games per cell, the turn limit;
* ``games.jsonl`` — one line per finished game (:class:`GameRecord`), appended and flushed as each game
  finishes, in whatever order the workers finish them. An interrupted sweep leaves the games done and
  at most a cut-off last line; :func:`read_records` drops that line (the game is played again on
  resume) and returns the records sorted by (cell, index), so the same sweep read back is the same list
  whatever the backend or the number of jobs.

A **cell** is one point of the grid: a player count, an agent spec (``--agents``: one kind for the
table or one per seat, as ``simulate --agents`` takes it) and a pack label. Game ``i`` of a cell is
played with the game seed ``sim.game_seed(sweep seed, i)`` — the game ``fengsheng simulate -p N
--agents A --seed S`` plays as its game ``i``, so any game of a sweep re-runs alone with
``simulate --game-seed``, and every pack of a grid plays the same deals (paired games: a comparison
between packs is not blurred by different luck).

This module reads and writes plain data only (it imports nothing of the engine): the reports
(``report.py``, ``compare.py``) build on it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import IO, Any

from .. import jsonread
from ..engine.pins import Pins
from ..model.deck_counts import MAX_COPIES

FORMAT = 1
SWEEP_FILE = "sweep.json"
GAMES_FILE = "games.jsonl"
MAX_LINE = 10_000_000  # bytes in one line of games.jsonl: far more than any record


class RecordError(ValueError):
    """A sweep directory that cannot be read: the message names the file (and line) and what is wrong."""


# ---------------------------------------------------------------------- the grid


@dataclass(frozen=True)
class Pack:
    """One pack of a grid: its label (the cells' ``pack``), the content folders it loads (``--content``;
    empty: the bundled game; in ``sweep.json`` named relative to the sweep's directory, ``sweep.portable``),
    the ``--expansions`` choice (None: the default) and the fingerprint of the content loaded
    (``sim.content_fingerprint`` of what the resolved folders load: content/fingerprint.py)."""

    name: str
    content: tuple[str, ...] = ()
    expansions: str | None = None
    fingerprint: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "content": list(self.content),
            "expansions": self.expansions,
            "fingerprint": self.fingerprint,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Pack:
        return cls(
            name=d["name"],
            content=tuple(d.get("content") or ()),
            expansions=d.get("expansions"),
            fingerprint=d.get("fingerprint", ""),
        )


@dataclass(frozen=True, order=True)
class Cell:
    """One point of the grid. Ordered by (players, agents, pack): the order records are read back in."""

    players: int
    agents: str  # an --agents spec: "heuristic", or one kind per seat "heuristic,random,random,random,random"
    pack: str  # a Pack's name

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "agents": self.agents, "pack": self.pack}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Cell:
        return cls(players=d["players"], agents=d["agents"], pack=d["pack"])

    def seat_kinds(self) -> tuple[str, ...]:
        """The kind of agent at each seat."""
        kinds = tuple(k.strip() for k in self.agents.split(","))
        return kinds * self.players if len(kinds) == 1 else kinds

    def label(self) -> str:
        """The cell in one line: "5 players · heuristic · base"."""
        return f"{self.players} players · {self.agents} · {self.pack}"


@dataclass(frozen=True)
class SweepSpec:
    """A sweep's grid and provenance: the content of ``sweep.json``.

    Two sweeps with equal specs play the same games: a sweep resumes in a directory only if its spec
    is the one the directory holds."""

    version: str
    seed: int
    players: tuple[int, ...]
    agents: tuple[str, ...]
    packs: tuple[Pack, ...]
    games: int  # per cell
    max_turns: int | None = None
    engine: str = ""  # a fingerprint of the fengsheng code that plays the games (sweep.engine_fingerprint)
    format: int = FORMAT
    # a role and/or a secret task dealt in every game (``--role``, ``--task``: engine/pins.py), game i at seat
    # i % players, and card kinds kept at a count in every deck (``--card``); None: every game dealt as usual.
    # Plain data: {"role": id, "task": id, "cards": {id: copies}} (any may be missing); {"keyed": true} alone: a
    # grid of several packs with nothing pinned, its games dealt in the keyed order all the same (so they pair)
    pins: dict[str, Any] | None = None

    def cells(self) -> list[Cell]:
        """Every cell of the grid, in order. A per-seat agent list joins only the player count it names
        seats for (one kind for the table joins every player count)."""
        out = []
        for n in self.players:
            for spec in self.agents:
                if len(spec.split(",")) not in (1, n):
                    continue
                for pack in self.packs:
                    out.append(Cell(n, spec, pack.name))
        return out

    def pack(self, name: str) -> Pack:
        for p in self.packs:
            if p.name == name:
                return p
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "version": self.version,
            "seed": self.seed,
            "players": list(self.players),
            "agents": list(self.agents),
            "packs": [p.to_dict() for p in self.packs],
            "games": self.games,
            "max_turns": self.max_turns,
            "engine": self.engine,
            **({"pins": _plain(self.pins)} if self.pins else {}),  # (left out when none: older sweep.json stay equal)
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SweepSpec:
        return cls(
            format=d["format"],
            version=d["version"],
            seed=d["seed"],
            players=tuple(d["players"]),
            agents=tuple(d["agents"]),
            packs=tuple(Pack.from_dict(p) for p in d["packs"]),
            games=d["games"],
            max_turns=d.get("max_turns"),
            engine=d.get("engine", ""),
            pins=_pins(d.get("pins")),
        )

    def differences(self, other: SweepSpec) -> list[str]:
        """What differs between two grids, one phrase each ("games: 100 here, 200 given")."""
        a, b = self.to_dict(), other.to_dict()
        keys = list(a) + [k for k in b if k not in a]
        return [
            f"{k}: {_brief(a.get(k))} in the directory, {_brief(b.get(k))} now" for k in keys if a.get(k) != b.get(k)
        ]

    def pinned(self) -> str:
        """What every game pins, in words ("role lao_zhang, task qing_dao_fu, card mi_dian=6"), or ""."""
        pins = Pins.from_dict(self.pins)  # (the engine's pins say themselves in words: one wording of them)
        return pins.label() if pins is not None else ""


def _pins(d: object) -> dict[str, Any] | None:
    """The pins of a sweep.json: the role and task ids it names (strings) and the card counts, or None."""
    if not isinstance(d, dict):
        return None
    out: dict[str, Any] = {k: d[k] for k in ("role", "task") if isinstance(d.get(k), str) and d[k]}
    if isinstance(d.get("cards"), dict) and d["cards"]:
        out["cards"] = dict(sorted(d["cards"].items()))
    if d.get("keyed") is True and not out:
        out["keyed"] = True
    return out or None


def _brief(v: object, limit: int = 80) -> str:
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def write_spec(directory: str | Path, spec: SweepSpec) -> None:
    """Write ``sweep.json`` (the directory is made if needed)."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    text = json.dumps(spec.to_dict(), ensure_ascii=False, indent=2) + "\n"
    tmp = d / (SWEEP_FILE + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, d / SWEEP_FILE)


def read_spec(directory: str | Path) -> SweepSpec:
    """Read ``sweep.json``; a missing or malformed file is a RecordError naming it."""
    path = Path(directory) / SWEEP_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file (is {directory} the output directory of a sweep?)") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"{path}: cannot be read ({e})") from None
    try:
        d = jsonread.loads(text)
    except jsonread.JsonInputError as e:
        if e.line:
            raise RecordError(f"{path}:{e.line}:{e.column}: not JSON ({e.reason})") from None
        raise RecordError(f"{path}: not a sweep description ({e.reason})") from None
    wrong = _spec_problem(d)
    if wrong:
        raise RecordError(f"{path}: {wrong}")
    return SweepSpec.from_dict(d)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _spec_problem(d: object) -> str | None:
    if not isinstance(d, dict):
        return "not a sweep description (a JSON object is expected)"
    if d.get("format") != FORMAT:
        return f"format {_brief(d.get('format'))} is not one this fengsheng reads (it reads format {FORMAT})"
    checks: list[tuple[str, bool, str]] = [
        ("version", isinstance(d.get("version"), str), "a text"),
        ("seed", _is_int(d.get("seed")), "a whole number"),
        ("players", isinstance(d.get("players"), list) and all(map(_is_int, d["players"])), "a list of numbers"),
        (
            "agents",
            isinstance(d.get("agents"), list) and all(isinstance(a, str) for a in d["agents"]),
            "a list of agent specs",
        ),
        ("packs", isinstance(d.get("packs"), list) and all(_pack_ok(p) for p in d["packs"]), "a list of packs"),
        ("games", _is_int(d.get("games")), "a whole number"),
        ("max_turns", d.get("max_turns") is None or _is_int(d.get("max_turns")), "a whole number or null"),
        ("engine", isinstance(d.get("engine", ""), str), "a text"),
        (
            "pins",
            _pins_ok(d.get("pins")),
            'null or the ids of a role and a task and the copies of card kinds ({"role": ID, "task": ID, '
            f'"cards": {{ID: N}}}}, N a whole number from 0 to {MAX_COPIES}), or {{"keyed": true}} alone',
        ),
    ]
    for key, ok, what in checks:
        if not ok:
            return f"`{key}` should be {what} (got {_brief(d.get(key))})"
    return None


def _pins_ok(p: object) -> bool:
    """Pins as `balance --role/--task/--card` writes them: none, or a role's and/or a task's id (texts) and/or the
    copies of card kinds (``{id: whole number from 0 to MAX_COPIES}``, at least one); or ``{"keyed": true}`` alone
    (a grid of several packs, nothing pinned, dealt in the keyed order)."""
    return p is None or (
        isinstance(p, dict)
        and all(
            (k in ("role", "task") and isinstance(v, str) and v)
            or (k == "cards" and isinstance(v, dict) and bool(v) and all(v) and _card_pins_ok(v))
            or (k == "keyed" and v is True and len(p) == 1)
            for k, v in p.items()
        )
    )


def _card_pins_ok(c: dict[str, Any]) -> bool:
    """A card pin's copies: whole numbers from 0 to MAX_COPIES (a larger one would build a deck of that many)."""
    return _card_counts_ok(c) and all(v <= MAX_COPIES for v in c.values())


def _card_counts_ok(c: object) -> bool:
    return isinstance(c, dict) and all(isinstance(k, str) and _is_int(v) and v >= 0 for k, v in c.items())


def _pack_ok(p: object) -> bool:
    return (
        isinstance(p, dict)
        and isinstance(p.get("name"), str)
        and isinstance(p.get("content", []), list)
        and all(isinstance(c, str) for c in p.get("content", []))
        and (p.get("expansions") is None or isinstance(p.get("expansions"), str))
        and isinstance(p.get("fingerprint", ""), str)
    )


# ---------------------------------------------------------------------- one game


@dataclass
class SeatRecord:
    """One seat of a finished game: who it was at the end and whether it won."""

    seat: int
    identity: str  # the identity it ended with ("无身份牌" without one)
    task: str | None  # its secret task's name, if any
    role: str | None  # its role's label (sim: Role.label()), if any
    agent: str  # the kind of agent that played it
    won: bool
    # card name -> the cards this seat used as that card (a use of a converted or virtual card counts as what it
    # was used as; empty when it used none); None, and left out of the line, in a record of an older sweep, which did
    # not count them (so the report does not take its cards for never used)
    cards: dict[str, int] | None = field(default_factory=dict)
    # rule skill name -> the times this seat used it, in a game whose rules have skills (empty when it used none);
    # None, and left out of the line, for rules without skills (their records stay as they were) and in a record of an
    # older sweep, which did not count them per seat
    rule_skills: dict[str, int] | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SeatRecord:
        rule_skills = d.get("rule_skills")
        return cls(
            seat=d["seat"],
            identity=d["identity"],
            task=d["task"],
            role=d["role"],
            agent=d["agent"],
            won=d["won"],
            cards=dict(d["cards"]) if d.get("cards") is not None else None,
            rule_skills=dict(rule_skills) if rule_skills is not None else None,
        )

    def to_dict(self) -> dict[str, Any]:
        """The seat as plain data, in field order; ``cards`` and ``rule_skills`` only where counted (see above)."""
        d = {name: _plain(getattr(self, name)) for name in _SEAT_FIELDS}
        if self.cards is None:
            del d["cards"]
        if self.rule_skills is None:
            del d["rule_skills"]
        return d


@dataclass
class GameRecord:
    """One finished game of a sweep: a line of ``games.jsonl``.

    The fields after ``failed`` are those of ``sim.game_record`` (what ``simulate`` counts); a failed game
    (``failed``: the error text) has them as far as the game got (no reason, no winners), and ``seats``
    may be empty if it failed before the table was dealt."""

    cell: Cell
    index: int
    seed: int  # the game seed: `fengsheng simulate -p N --agents A --game-seed SEED --trace` re-runs it
    failed: str | None = None
    roles: list[str] = field(default_factory=list)  # role labels in play at the end
    winner_roles: list[str] = field(default_factory=list)
    skill_uses: dict[str, int] = field(default_factory=dict)  # "角色·技能" -> uses in this game
    # "角色·技能" -> the questions at which it was offered in this game (absent in records of older sweeps)
    skill_offers: dict[str, int] = field(default_factory=dict)
    reason: str | None = None  # how the game ended (sim.REASON_TEXT), None for a failed game
    turns: int = 0
    decisions: int = 0
    identities: list[str] = field(default_factory=list)  # the identity of each seat at the end
    tasks: list[str] = field(default_factory=list)
    won_identities: list[str] = field(default_factory=list)
    winner_tasks: list[str] = field(default_factory=list)
    winner_seats: list[int] = field(default_factory=list)
    seats: list[SeatRecord] = field(default_factory=list)

    def key(self) -> tuple[Cell, int]:
        """What the records are sorted and told apart by: (cell, index)."""
        return self.cell, self.index

    def to_dict(self) -> dict[str, Any]:
        """The record as plain data, in field order (dataclasses.asdict's result; made directly, it is several
        times faster, and a report converts every record of a sweep)."""
        d = {name: _plain(getattr(self, name)) for name in _GAME_FIELDS}
        d["cell"] = self.cell.to_dict()
        d["seats"] = [s.to_dict() for s in self.seats]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        known = {f for f in cls.__dataclass_fields__ if f not in ("cell", "seats")}
        return cls(
            cell=Cell.from_dict(d["cell"]),
            seats=[SeatRecord.from_dict(s) for s in d.get("seats", [])],
            **{k: v for k, v in d.items() if k in known},
        )


_GAME_FIELDS = tuple(f.name for f in fields(GameRecord))
_SEAT_FIELDS = tuple(f.name for f in fields(SeatRecord))


def _plain(value: Any) -> Any:
    """A copy of a record's value: its lists and dicts copied all the way down (what a record holds is JSON data)."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


class _Grid:
    """What a sweep's records may be: the cells of its grid, indexes below its games per cell, as many seats as
    players."""

    def __init__(self, spec: SweepSpec) -> None:
        self.spec = spec
        self.cells = {(c.players, c.agents, c.pack) for c in spec.cells()}


def _off_the_grid(d: dict[str, Any], grid: _Grid) -> str | None:
    """What puts a well-formed record outside its sweep (a record no game of the grid can have written), or None."""
    cell = d["cell"]
    if (cell["players"], cell["agents"], cell["pack"]) not in grid.cells:
        return f"the game's cell {_brief(cell)} is not in the sweep's grid ({SWEEP_FILE})"
    index = d["index"]
    if not 0 <= index < grid.spec.games:
        return f"game index {_brief(index)} is outside the sweep's {grid.spec.games} games per cell"
    seats = d.get("seats", [])
    if seats and len(seats) != cell["players"]:
        return f"{len(seats)} seats in a game of {cell['players']} players"
    return None


def _record_problem(d: object) -> str | None:
    """What is wrong with a line's object as a game record, or None."""
    if not isinstance(d, dict):
        return "not a JSON object (each line is one game)"
    cell = d.get("cell")
    if not (
        isinstance(cell, dict)
        and _is_int(cell.get("players"))
        and isinstance(cell.get("agents"), str)
        and isinstance(cell.get("pack"), str)
    ):
        return f"`cell` should be {{players, agents, pack}} (got {_brief(cell)})"
    for key in ("index", "seed", "turns", "decisions"):
        if (key in d and not _is_int(d[key])) or (key in ("index", "seed") and key not in d):
            return f"`{key}` should be a whole number (got {_brief(d.get(key))})"
    if d.get("failed") is not None and not isinstance(d["failed"], str):
        return f"`failed` should be null or the error text (got {_brief(d['failed'])})"
    reason = d.get("reason")
    if not (isinstance(reason, str) or (reason is None and d.get("failed") is not None)):
        return f"`reason` should be how the game ended, a name (got {_brief(reason)})"
    for key in ("roles", "winner_roles", "identities", "tasks", "won_identities", "winner_tasks"):
        if key in d and not (isinstance(d[key], list) and all(isinstance(x, str) for x in d[key])):
            return f"`{key}` should be a list of names (got {_brief(d[key])})"
    if "winner_seats" in d and not (isinstance(d["winner_seats"], list) and all(map(_is_int, d["winner_seats"]))):
        return f"`winner_seats` should be a list of seats (got {_brief(d['winner_seats'])})"
    uses = d.get("skill_uses", {})
    if not (isinstance(uses, dict) and all(_is_int(v) for v in uses.values())):
        return f"`skill_uses` should map skills to counts (got {_brief(uses)})"
    offers = d.get("skill_offers", {})
    if not (isinstance(offers, dict) and all(_is_int(v) for v in offers.values())):
        return f"`skill_offers` should map skills to counts (got {_brief(offers)})"
    seats = d.get("seats", [])
    if not isinstance(seats, list):
        return f"`seats` should be a list (got {_brief(seats)})"
    for s in seats:
        if not (
            isinstance(s, dict)
            and _is_int(s.get("seat"))
            and isinstance(s.get("identity"), str)
            and (s.get("task") is None or isinstance(s.get("task"), str))
            and (s.get("role") is None or isinstance(s.get("role"), str))
            and isinstance(s.get("agent"), str)
            and isinstance(s.get("won"), bool)
            and _card_counts_ok(s.get("cards", {}))
        ):
            return f"a seat should be {{seat, identity, task, role, agent, won, cards}} (got {_brief(s)})"
        if s.get("rule_skills") is not None and not _card_counts_ok(s["rule_skills"]):
            return f"a seat's `rule_skills` should map rule skills to counts (got {_brief(s['rule_skills'])})"
    return None


# ---------------------------------------------------------------------- games.jsonl


def record_line(rec: GameRecord) -> str:
    """A record as its line of games.jsonl (with its newline)."""
    return json.dumps(rec.to_dict(), ensure_ascii=False, sort_keys=True) + "\n"


def write_record(f: IO[str], rec: GameRecord, sync: bool = True) -> None:
    """Append one record to an open games.jsonl and flush it to the disk (a killed sweep keeps it); with
    ``sync=False`` the caller flushes (after a chunk of records: :func:`flush`)."""
    f.write(record_line(rec))
    if sync:
        flush(f)


def flush(f: IO[str]) -> None:
    """Flush an open games.jsonl to the disk."""
    f.flush()
    os.fsync(f.fileno())


def open_games(directory: str | Path) -> IO[str]:
    """games.jsonl opened to append, after cutting off a last line an interrupted run left unfinished."""
    path = Path(directory) / GAMES_FILE
    if path.exists():
        with open(path, "rb+") as f:
            data = f.read()
            end = data.rfind(b"\n") + 1  # 0 when no line is complete
            if end != len(data):
                f.truncate(end)
    return open(path, "a", encoding="utf-8")  # the caller closes it


def _lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, bytes, whether it ended with a newline) of each line."""
    with open(path, "rb") as f:
        for n, raw in enumerate(iter(lambda: f.readline(MAX_LINE + 1), b""), 1):
            if len(raw) > MAX_LINE:
                raise RecordError(f"{path}:{n}: not a game record (a line of more than {MAX_LINE:,} bytes)")
            yield n, raw, raw.endswith(b"\n")


def read_records(directory: str | Path, *, keep_failed: bool = True) -> list[GameRecord]:
    """The records of a sweep directory, sorted by (cell, index), one per (cell, index).

    A last line cut off by an interrupted run (no newline at its end, not valid JSON) is left out; any
    other malformed line is a RecordError naming the file, the line and what is wrong. A game written
    twice (two runs on one directory) is kept once: its records are the same game. With
    ``keep_failed=False`` the games that failed are left out."""
    path = Path(directory) / GAMES_FILE
    if not path.exists():
        if not (Path(directory) / SWEEP_FILE).exists():
            raise RecordError(f"{directory}: not the output directory of a sweep (no {SWEEP_FILE}, no {GAMES_FILE})")
        return []
    spec = read_spec(directory) if (Path(directory) / SWEEP_FILE).exists() else None
    grid = _Grid(spec) if spec is not None else None
    found: dict[tuple[Cell, int], GameRecord] = {}
    for n, raw, complete in _lines(path):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            if not complete:
                break  # cut off in the middle of a character
            raise RecordError(f"{path}:{n}: byte 0x{raw[e.start]:02x} is not UTF-8") from None
        if not line.strip():
            continue
        try:
            d = jsonread.loads(line)
        except jsonread.JsonInputError as e:
            if not complete:
                break  # the last line, cut off: that game is played again on resume
            if e.line:  # not JSON: where the parser stopped
                raise RecordError(f"{path}:{n}:{e.column}: not a JSON line ({e.reason})") from None
            raise RecordError(f"{path}:{n}: not a game record ({e.reason})") from None
        wrong = _record_problem(d) or (grid is not None and _off_the_grid(d, grid))
        if wrong:
            raise RecordError(f"{path}:{n}: {wrong}")
        try:
            rec = GameRecord.from_dict(d)
        except (KeyError, TypeError) as e:
            raise RecordError(f"{path}:{n}: not a game record ({type(e).__name__}: {e})") from None
        found.setdefault(rec.key(), rec)
    records = sorted(found.values(), key=GameRecord.key)
    return records if keep_failed else [r for r in records if r.failed is None]


def done_keys(records: Iterable[GameRecord]) -> set[tuple[Cell, int]]:
    """The (cell, index) of each game already played."""
    return {r.key() for r in records}
