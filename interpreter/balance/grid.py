"""A balance sweep's grid and one game of it: the grid (``make_spec``: player counts × agents × packs × games,
the engine's fingerprint), the directory it is played into (``prepare``: a new sweep, or the games missing from
one begun; ``portable``), what is left to play (``todo``) in chunks sized by the pace of each cell
(``Chunker``), and one game played into its record (``play_record``). sweep.py plays them, on local worker
processes; ray_backend.py on a Ray cluster.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..content.fingerprint import older_fingerprint
from ..engine.pins import Pins, card_counts
from ..sim import content_fingerprint, game_record, game_seed, identity_name, parse_agents, play_game
from .records import (
    GAMES_FILE,
    SWEEP_FILE,
    Cell,
    GameRecord,
    Pack,
    RecordError,
    SeatRecord,
    SweepSpec,
    read_records,
    read_spec,
    write_spec,
)

BACKENDS = ("local", "ray")


CHUNK_SECONDS = 1.0  # the play a chunk holds, at its cell's pace: what an interruption may lose per worker


MAX_CHUNK = 50  # games in one chunk at most


CHUNKS_AHEAD = 2  # chunks handed out per worker beyond the one it plays


class SweepError(Exception):
    """A sweep that cannot start or go on: the message says why (and that what is done is kept)."""


class SweepInterrupted(SweepError):
    """Ctrl-C (or SIGINT) during a sweep: the games done are kept."""


@dataclass(frozen=True)
class PackSource:
    """A pack of the grid as the command gives it: its label, its folders as given (``--content``), its
    ``--expansions`` choice, the folders those resolve to (what the loader reads), and the fingerprint of the
    content they load when the command has loaded it (else it is loaded for it)."""

    name: str
    content: tuple[str, ...]
    expansions: str | None
    paths: tuple[str, ...]
    fingerprint: str = ""

    def pack(self) -> Pack:
        return Pack(self.name, self.content, self.expansions, self.fingerprint or content_fingerprint(self.paths))


# What plays a game: the packages and modules of the interpreter whose code engine_fingerprint hashes.
PLAYING = ("engine", "language", "content", "agents", "model", "sim")


PLAYING_FILES = ("__init__.py", "catalogue.py", "seeds.py", "balance/grid.py")


_ENGINE: list[str] = []


def engine_fingerprint() -> str:
    """A hash of the fengsheng code that plays a game (the modules of PLAYING and the grammar): a sweep resumed
    or spread over a cluster is played by one engine, or refused. The version alone does not tell: the code
    changes between releases. The commands, the reports and the other tools are left out."""
    if not _ENGINE:
        import hashlib

        root = Path(__file__).resolve().parents[1]  # the interpreter package
        h = hashlib.sha256()
        files = [f for part in PLAYING for f in (root / part).rglob("*") if f.suffix in (".py", ".lark")]
        files += [root / f for f in PLAYING_FILES]
        for f in sorted(files):
            if "__pycache__" in f.parts:
                continue
            h.update(f.relative_to(root).as_posix().encode())
            h.update(f.read_bytes())
        _ENGINE.append(h.hexdigest()[:16])
    return _ENGINE[0]


def make_spec(
    seed: int,
    players: Sequence[int],
    agents: Sequence[str],
    packs: Sequence[PackSource],
    games: int,
    max_turns: int | None = None,
    pins: dict[str, Any] | None = None,
) -> SweepSpec:
    """The grid of a sweep. Raises SweepError for an agent spec that is wrong, or that names seats for none
    of the player counts."""
    for spec in agents:
        fits = []
        problem: ValueError | None = None
        for n in players:
            try:
                parse_agents(spec, n)
                fits.append(n)
            except ValueError as e:
                if len(spec.split(",")) == 1:
                    raise SweepError(f"--agents {spec!r}: {e}") from None
                problem = e
        if not fits:
            if "unknown agent" in str(problem):
                raise SweepError(f"--agents {spec!r}: {problem}")
            raise SweepError(
                f"--agents {spec!r} names {len(spec.split(','))} seats but the grid's player counts are "
                f"{', '.join(map(str, players))}: a list per seat joins only the player count it names seats for"
            )
    return SweepSpec(
        engine=engine_fingerprint(),
        version=__version__,
        seed=seed,
        players=tuple(players),
        agents=tuple(agents),
        packs=tuple(p.pack() for p in packs),
        games=games,
        max_turns=max_turns,
        pins={k: v for k, v in (pins or {}).items() if v} or None,
    )


def portable(spec: SweepSpec, out: str | Path) -> SweepSpec:
    """The grid as ``sweep.json`` keeps it: each pack's ``--content`` folders (as typed, relative to the current
    directory) named as a log's header names them (``content.packs.log_pack_ref``: a bundled pack by its id,
    another relative to the sweep's directory `out`)."""
    from ..content.packs import log_pack_ref

    packs = tuple(replace(p, content=tuple(log_pack_ref(c, Path(out)) for c in p.content)) for p in spec.packs)
    return replace(spec, packs=packs)


def _same_folders(old: SweepSpec, new: SweepSpec, d: Path) -> bool:
    """Whether the packs of two grids differ only in how their folders are written (an older ``sweep.json`` keeps
    them as typed, relative to where the sweep ran): the same labels, choices and content, the same folders."""
    from ..content.packs import find_log_pack

    if len(old.packs) != len(new.packs):
        return False
    for a, b in zip(old.packs, new.packs, strict=True):
        if replace(a, content=b.content) != b or len(a.content) != len(b.content):
            return False
        for x, y in zip(a.content, b.content, strict=True):
            fx, fy = find_log_pack(x, d)[0], find_log_pack(y, d)[0]
            if fx is None or fy is None or fx.resolve() != fy.resolve():
                return False
    return True


def prepare(out: str | Path, spec: SweepSpec, resume: bool = True) -> list[GameRecord]:
    """Make the sweep's directory ready and return the records already in it (to be kept).

    A new directory gets the grid; one that holds the same grid is resumed, or extended when only --games
    grew (the games done are the first ones of each cell); one that holds another grid, or games without
    a grid, is a SweepError. With ``resume=False`` (--restart) a sweep in the directory is discarded."""
    d = Path(out)
    if d.exists() and not d.is_dir():
        raise SweepError(f"{d}: not a directory (--out names the sweep's output directory)")
    has_spec, has_games = (d / SWEEP_FILE).exists(), (d / GAMES_FILE).exists()
    if not resume and (has_spec or not has_games):  # --restart: whatever sweep is there is discarded
        (d / GAMES_FILE).unlink(missing_ok=True)
        has_spec = has_games = False
    if has_spec:
        try:
            old = read_spec(d)
        except RecordError as e:
            raise SweepError(f"{e}\n(choose another --out, or remove the directory to start over)") from None
        if any(older_fingerprint(p.fingerprint) for p in old.packs):
            raise SweepError(
                f"{d} was begun by an older fengsheng, whose content fingerprint hashed the packs' files: this one "
                "fingerprints what the game is made of, and cannot tell whether the sweep's content is the content "
                "now; --restart plays the grid again, or choose another --out"
            )
        if old.packs != spec.packs and _same_folders(old, spec, d):  # written as typed by an older fengsheng
            old = replace(old, packs=spec.packs)
            write_spec(d, old)
        if old.engine != spec.engine and not old.differences(replace(spec, engine=old.engine)):
            raise SweepError(
                f"{d} was played by other fengsheng code (engine {old.engine or 'unknown'}, now {spec.engine}): "
                "its games and new ones would come from two engines; --restart plays the grid again, or choose "
                "another --out"
            )
        changed = _changed_packs(old, spec)
        if changed and not old.differences(replace(spec, packs=old.packs, games=old.games)):
            raise SweepError(
                f"{d}: the content of {', '.join(changed)} is not the content the sweep's games were played on (what "
                "the game is made of changed: a number, a text, effect code or the deck; a comment or a scenario "
                "does not count, docs/modding.md §8): --restart plays the grid again, or choose another --out"
            )
        diff = old.differences(spec)
        if diff and not old.differences(_with_games(spec, old.games)):  # only the games per cell differ
            if spec.games < old.games:
                raise SweepError(
                    f"{d} holds {old.games} games per cell and --games asks {spec.games}: give --games "
                    f"{old.games} or more to resume it (more games extend it), or choose another --out"
                )
            write_spec(d, spec)  # extended: the games done are the first ones of each cell, the same games
            diff = []
        if diff:
            raise SweepError(
                f"{d} holds a sweep of another grid ("
                + "; ".join(diff)
                + "): choose another --out, or give the same options to resume it"
            )
        try:
            return read_records(d)
        except RecordError as e:
            raise SweepError(f"{e}\n(the records cannot be resumed from: fix the line or --restart)") from None
    if has_games:
        raise SweepError(f"{d} holds {GAMES_FILE} but no {SWEEP_FILE}: not a sweep this command can resume")
    try:
        write_spec(d, spec)
    except OSError as e:
        raise SweepError(f"{d}: cannot write the sweep there ({e.strerror or e})") from None
    return []


def _changed_packs(old: SweepSpec, new: SweepSpec) -> list[str]:
    """The packs whose content changed since the sweep began, in words (pack mine (my_pack): game-… then, game-…
    now), when they are the same packs as given (label, folders, expansions) and only their fingerprints differ:
    said so, not as a grid of other options (the command typed is the same), which the fingerprint, cut short,
    did not show."""
    if len(old.packs) != len(new.packs):
        return []
    out = []
    for a, b in zip(old.packs, new.packs, strict=True):
        if replace(a, fingerprint=b.fingerprint) != b:
            return []
        if a.fingerprint != b.fingerprint:
            where = ", ".join(a.content) or "the bundled game"
            out.append(f"pack {a.name} ({where}: {a.fingerprint} then, {b.fingerprint} now)")
    return out


def _with_games(spec: SweepSpec, games: int) -> SweepSpec:
    return replace(spec, games=games)


def todo(spec: SweepSpec, done: set[tuple[Cell, int]]) -> list[tuple[Cell, list[int]]]:
    """The games left to play, by cell in grid order: (cell, indices)."""
    out = []
    for cell in spec.cells():
        left = [i for i in range(spec.games) if (cell, i) not in done]
        if left:
            out.append((cell, left))
    return out


class Chunker:
    """Cuts the work into chunks of one cell, each about `seconds` of play at the cell's measured pace (a cell
    not yet measured: one game), at most `most` games."""

    def __init__(self, work: list[tuple[Cell, list[int]]], seconds: float = CHUNK_SECONDS, most: int = MAX_CHUNK):
        from collections import deque

        self.work = deque((cell, deque(ix)) for cell, ix in work)
        self.seconds, self.most = seconds, most
        self.pace: dict[Cell, float] = {}  # seconds per game, by cell

    def next(self) -> tuple[Cell, list[int]] | None:
        """The next chunk, or None when all is handed out."""
        while self.work and not self.work[0][1]:
            self.work.popleft()
        if not self.work:
            return None
        cell, left = self.work[0]
        pace = self.pace.get(cell)
        size = 1 if pace is None else max(1, min(self.most, int(self.seconds / max(pace, 1e-6))))
        return cell, [left.popleft() for _ in range(min(size, len(left)))]

    def played(self, cell: Cell, games: int, seconds: float) -> None:
        """A chunk came back: `games` of `cell` took `seconds` of a worker's time."""
        if games:
            now = seconds / games
            old = self.pace.get(cell)
            self.pace[cell] = now if old is None else 0.5 * old + 0.5 * now


def play_record(
    content: Any,
    cell: Cell,
    index: int,
    seed: int,
    max_turns: int | None = None,
    pins: dict[str, Any] | None = None,
) -> GameRecord:
    """Game `index` of a cell, played and turned into its record (a failed game: a record with `failed`).
    `pins` (the grid's): that role and task dealt at seat ``index % players``, those card kinds at their counts in
    every deck (engine/pins.py)."""
    kinds = parse_agents(cell.agents, cell.players)
    gseed = game_seed(seed, index)
    pinned = game_pins(pins, index, cell.players)
    game, failure = play_game(content, cell.players, gseed, max_turns, agents=kinds, pins=pinned)
    record = record_of(cell, index, gseed, game, failure, kinds)
    if game is not None:
        game.close()  # (read for the last time: freed as it goes, no collector's walk)
    return record


def game_pins(pins: dict[str, Any] | None, index: int, players: int) -> Pins | None:
    """The pins of game `index` of a grid pinning `pins`: the seat rotates (``index % players``), so every seat
    position holds the pinned role (or task) equally often; the card counts are every game's."""
    if not pins:
        return None
    return Pins(
        role=pins.get("role"),
        task=pins.get("task"),
        seat=index % players,
        cards=card_counts(pins.get("cards")),
        keyed=pins.get("keyed") is True,
    )


def record_of(cell: Cell, index: int, gseed: int, game: Any, failure: str | None, kinds: Sequence[str]) -> GameRecord:
    """A game's record: ``sim.game_record``'s fields and one entry per seat."""
    rec = GameRecord(cell=cell, index=index, seed=gseed, failed=failure)
    if game is None:
        return rec
    result = game.result if failure is None else None
    winners = set(result.winners) if result is not None else set()
    if result is not None:
        fields = game_record(game, result)
        fields["skill_uses"] = dict(sorted(fields["skill_uses"].items()))
        fields["skill_offers"] = dict(sorted(fields["skill_offers"].items()))
        for k, v in fields.items():
            setattr(rec, k, v)
    else:  # a failed game: what it got to
        rec.turns, rec.decisions = game.turn_no, game.decision_count
        rec.roles = [p.role.label() for p in game.players if p.role is not None]
        rec.identities = [identity_name(p) for p in game.players]
        rec.tasks = [p.task.name for p in game.players if p.task is not None]
    cards: dict[int, dict[str, int]] = {}
    for (seat, card), k in sorted(game.card_uses.items()):
        name = game.content.card_types[card].name
        cards.setdefault(seat, {})[name] = cards.get(seat, {}).get(name, 0) + k
    # the rules' skills each seat used, as its cards (what the engine counted as it played: no pass over a log); a seat
    # of rules with skills has them even when it used none, so a record without them is an older sweep's
    counted = bool(game.content.rules.skills)
    rule_skills: dict[int, dict[str, int]] = {p.seat: {} for p in game.players} if counted else {}
    for (seat, name), k in sorted(game.rule_skill_uses.items()):
        rule_skills[seat][name] = k
    rec.seats = [
        SeatRecord(
            seat=p.seat,
            identity=identity_name(p),
            task=p.task.name if p.task is not None else None,
            role=p.role.label() if p.role is not None else None,
            agent=kinds[p.seat],
            won=p in winners,
            cards=cards.get(p.seat, {}),
            rule_skills=rule_skills.get(p.seat),
        )
        for p in game.players
    ]
    return rec
