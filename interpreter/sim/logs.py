"""Game logs (JSONL): writing them, reading them back, and per-seat copies.

A game is fully determined by the content, the player count, its seed and the answers given to its decisions.
Its log therefore holds a header with the seed, every event and every decision, and the end-state digest
(replay.py re-runs it). Reading a log checks the fields replay reads and names the line and column of what is
wrong; a per-seat copy leaves out what that seat could not see, and the seed.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__, jsonread
from ..engine.observation import project
from ..model.content import MAX_SEATS, MIN_PLAYERS
from ..seeds import SEED_RANGE, is_seed
from ..snippet import snippet

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.step import GameState
    from ..model.content import Content

LOG_FORMAT = 1


def content_fingerprint(content) -> str:
    """The fingerprint of a content set (content/fingerprint.py says what counts: what the game is made of, not
    the files' bytes): given loaded content (a Content), its own; given pack folders, that of the content they
    load (ContentErrors if they do not load)."""
    from ..content.fingerprint import content_fingerprint as of_content
    from ..model.content import Content

    if not isinstance(content, Content):
        from ..content.loader import load_content

        content = load_content(list(content))
    return of_content(content)


class LogWriter:
    """Writes games as JSONL: header, events and decisions, end digest."""

    def __init__(
        self,
        path,
        content_paths,
        players: int,
        fingerprint: str | None = None,
        agents: str = "random",
        max_turns: int | None = None,
        packs: list[str] | None = None,
        content: Content | None = None,
    ):
        # the writer holds the file open; close() closes it (no file: it only formats, in a worker). Each game is
        # written whole and flushed: a write that fails (a full disk) is cut back to the games before it, and
        # nothing more is written; the batch plays on, and says how many games the log holds (`written`, `error`)
        self.f = open(path, "wb") if path is not None else None  # noqa: SIM115
        self.written = 0  # games whole in the file
        self.error: OSError | None = None  # why the log stopped, if it did
        self._good = 0  # the bytes of those games
        # the header's `content`: given, or the fingerprint of the content played (else of what its packs load)
        if fingerprint is None:
            fingerprint = content_fingerprint(content if content is not None else content_paths)
        self.fingerprint = fingerprint
        # the header's `packs`: the folders played, so `replay` finds a fork's content without --content; named
        # portably (a bundled pack by id, another relative to the log's folder: content.packs.log_pack_ref).
        # `packs` gives them made already (a worker formats games for the log its batch writes)
        if packs is None and content_paths:
            from ..content.packs import log_pack_ref

            base = Path(path).parent if path is not None else None
            packs = [log_pack_ref(p, base) for p in content_paths]
        self.packs = packs
        self.players = players
        self.agents = agents  # the header's `agents`: "random", or the kinds per seat of --agents
        self.max_turns = max_turns  # the header's `max_turns` (--max-turns; absent: the rules' limit)

    def game_text(self, index: int, gseed: int, game: Game, failed: str | None = None) -> str:
        """One game's lines: its header, every record of the referee's log, its end digest (a failed game: its
        records as far as it got, and an end record with `failed`, the failure, instead of the digest)."""
        header = {
            "type": "game",
            "format": LOG_FORMAT,
            "version": __version__,
            "index": index,
            "view": "referee",
            "seed": gseed,
            "players": self.players,
            "content": self.fingerprint,
            "agents": self.agents,
        }
        if self.packs is not None:
            header["packs"] = self.packs
        if self.max_turns is not None:  # a turn limit other than the rules': replay plays to the same one
            header["max_turns"] = self.max_turns
        out = [json.dumps(header, ensure_ascii=False)]
        for rec in game.log:
            kind = "decision" if "d" in rec else "event"
            out.append(json.dumps({"type": kind, **rec}, ensure_ascii=False, sort_keys=True))
        end = {"type": "end", "failed": failed} if failed is not None else {"type": "end", "digest": game.digest()}
        out.append(json.dumps(end, ensure_ascii=False, sort_keys=True))
        return "\n".join(out) + "\n"

    def write_game(self, index: int, gseed: int, game: Game) -> None:
        self.write(self.game_text(index, gseed, game))

    def write(self, text: str) -> None:
        """One game's lines (game_text), written whole or (the disk full) not at all."""
        assert self.f is not None  # a writer made with a path
        if self.error is not None:
            return
        data = text.encode("utf-8")
        try:
            self.f.write(data)
            self.f.flush()
        except OSError as e:
            self.error = e
            with contextlib.suppress(OSError, ValueError):  # a device (/dev/full) cannot be cut back
                self.f.seek(self._good)
                self.f.truncate()
            return
        self._good += len(data)
        self.written += 1

    def close(self) -> None:
        if self.f is not None:
            try:
                self.f.close()
            except OSError as e:  # what was buffered could not be written
                self.error = self.error or e


def state_log_text(
    state: GameState,
    content_paths,
    agents: str,
    index: int = 0,
    base: Path | None = None,
    failed: BaseException | None = None,
) -> str:
    """The referee's log of a game played on the step API with the packs `content_paths` (a table of ``fengsheng
    serve``), as ``simulate --log`` writes a game: ``fengsheng replay`` re-runs it from its seed and decisions.

    Its header names the packs as ``simulate --log`` does (``content.packs.log_pack_ref``: a bundled pack by id)
    but a pack of one's own relative to `base` — by default the current directory, the folder the server was
    started in, since the folder the log will be saved in is not known — never by an absolute path of the
    machine that played it: saved in that folder, or replayed from it, the log finds its pack. `failed`: what stopped
    the game before its end (the engine's error), written as a failed game's end record (``simulate``'s words)."""
    from ..content.packs import log_pack_ref

    where = Path.cwd() if base is None else Path(base)
    packs = [log_pack_ref(p, where) for p in content_paths] if content_paths else None
    writer = LogWriter(
        None,
        content_paths,
        state.n_players,
        agents=agents,
        max_turns=state.max_turns,
        packs=packs,
        content=state._game.content,
    )
    # (as batch.failure_text words an engine's error; not imported: batch imports this module)
    failure = f"{type(failed).__name__}: {' '.join(str(failed).split())}" if failed is not None else None
    return writer.game_text(index, state.seed, state._game, failure)


# ---------------------------------------------------------------------- reading


class ReplayMismatch(Exception):
    """A log that cannot be read: where (path:line:col) and what is wrong."""


MAX_LOG_LINE = 10_000_000  # bytes in one line of a log: far more than any record


def read_log(path, tolerant: bool = False) -> list[dict]:
    """Split a JSONL log into games: [{header, records, end}].

    A bad line raises ReplayMismatch (where and what), unless `tolerant`: then the game it is in gets `broken`,
    that message (its first), and the other games are read on (a line before the first header is a game of its
    own, with an empty header), so that `replay` reports that game and replays the others."""
    with open(path, "rb") as f:  # decoded line by line, so that a bad byte is placed exactly
        return _read_log_lines(f, path, tolerant)


def read_log_text(text: str | bytes, name: str = "the log") -> list[dict]:
    """:func:`read_log` of a log held in memory (an upload); `name` stands for the path in messages."""
    return _read_log_lines(io.BytesIO(text.encode("utf-8") if isinstance(text, str) else text), name)


def _read_log_lines(f, path, tolerant: bool = False) -> list[dict]:
    games: list[dict] = []
    for n, raw in enumerate(iter(lambda: f.readline(MAX_LOG_LINE + 1), b""), 1):
        try:
            if tolerant and len(raw) > MAX_LOG_LINE:  # the rest of the file is no log (an endless device)
                raise _Unreadable(f"{path}:{n}: not a log record (a line of more than {MAX_LOG_LINE:,} bytes)")
            rec = _record_of(raw, n, path)
            if rec is not None and rec.get("type") != "game" and not games:
                raise ReplayMismatch(f"{path}:{n}: the log does not start with a game header")
        except _Unreadable as e:
            if games:
                games[-1].setdefault("broken", str(e))
            else:
                games.append({"header": {}, "records": [], "end": None, "lines": [], "broken": str(e)})
            break
        except ReplayMismatch as e:
            if not tolerant:
                raise
            if _looks_like_header(raw) or not games:  # a game of its own: the records after it are its
                games.append({"header": {}, "records": [], "end": None, "lines": [], "broken": str(e)})
            else:
                games[-1].setdefault("broken", str(e))
            continue
        if rec is None:
            continue
        t = rec.get("type")
        if t == "game":
            games.append({"header": rec, "records": [], "end": None, "lines": []})
        elif t == "end":
            games[-1]["end"] = rec
        else:
            rec = dict(rec)
            rec.pop("type", None)
            games[-1]["records"].append(rec)
            games[-1]["lines"].append(n)
    return games


class _Unreadable(Exception):
    """A line no log has: what follows it is not read."""


def _looks_like_header(raw: bytes) -> bool:
    """Whether a line that is not a sound record still says it starts a game (its `type` is game)."""
    return b'"type": "game"' in raw[:100_000] or b'"type":"game"' in raw[:100_000]


def _record_of(raw: bytes, n: int, path) -> dict | None:
    """Line `n` of a log as a record whose fields replay reads are sound, or None for a blank line; raises
    ReplayMismatch with where and what is wrong."""
    if len(raw) > MAX_LOG_LINE:  # no record is this long (a device such as /dev/zero never ends)
        raise ReplayMismatch(f"{path}:{n}: not a log record (a line of more than {MAX_LOG_LINE:,} bytes)")
    try:
        line = raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError as e:
        col = len(raw[: e.start].decode("utf-8")) + 1
        shown = raw.rstrip(b"\r\n").decode("utf-8", "backslashreplace")
        raise ReplayMismatch(
            f"{path}:{n}:{col}: byte 0x{raw[e.start]:02x} is not UTF-8\n{snippet(shown, col)}"
        ) from None
    if not line.strip():
        return None
    try:  # the one bounded reader: nesting, numbers and text checked (jsonread.py)
        rec = jsonread.loads(line)
    except jsonread.JsonInputError as e:
        if e.line:
            raise ReplayMismatch(
                f"{path}:{n}:{e.column}: not a JSON line ({e.reason})\n{snippet(line, e.column)}"
            ) from None
        raise ReplayMismatch(f"{path}:{n}: not a log record: {e.reason}") from None
    if not isinstance(rec, dict):
        col = len(line) - len(line.lstrip()) + 1
        raise ReplayMismatch(
            f"{path}:{n}:{col}: not a JSON object (each line of a log is one record)\n{snippet(line, col)}"
        )
    wrong = _malformed(rec, rec.get("type"))
    if wrong:
        raise ReplayMismatch(f"{path}:{n}: {wrong}")
    return rec


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _shown(value: object, limit: int = 60) -> str:
    """A value of a log record in a message: its repr on one line, cut short."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_MAX_OPTIONS = 100_000  # far more than any decision of the game offers


def _malformed(rec: dict, kind: object) -> str | None:
    """What is wrong with the fields of a log record that replay reads, or None (the rest is compared as it is)."""
    if kind == "game":
        players = rec.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_SEATS:
            return f"a game header needs `players`, a number from {MIN_PLAYERS} to {MAX_SEATS} (got {_shown(players)})"
        if "seed" in rec and not is_seed(rec["seed"]):
            return f"a game header's `seed` is {SEED_RANGE} (got {_shown(rec['seed'])})"
        if "index" in rec and not (_is_int(rec["index"]) and 0 <= rec["index"] < 2**63):
            return f"a game header's `index` is a whole number from 0 (got {_shown(rec['index'])})"
        return None
    if kind == "end":
        if isinstance(rec.get("failed"), str) or isinstance(rec.get("digest"), dict):
            return None
        return "an end record needs `digest`, the end state (or `failed`, why the game failed)"
    to, secret = rec.get("to"), rec.get("secret")
    if to is not None and not (isinstance(to, list) and all(map(_is_int, to))):
        return f"`to` is a list of seats (got {_shown(to)})"
    if secret is not None and not (
        isinstance(secret, dict) and all(isinstance(v, list) and all(map(_is_int, v)) for v in secret.values())
    ):
        return f"`secret` maps fields to lists of seats (got {_shown(secret)})"
    if "d" in rec:
        for key in ("seat", "n", "choice"):
            if not _is_int(rec.get(key)):
                return f"a decision record needs `{key}`, a whole number (got {_shown(rec.get(key))})"
        if not 0 <= rec["seat"] < MAX_SEATS:
            return f"a decision record's `seat` is a seat from 0 to {MAX_SEATS - 1} (got {_shown(rec['seat'])})"
        if not 0 < rec["n"] <= _MAX_OPTIONS:
            return f"a decision record's `n` is how many options, from 1 to {_MAX_OPTIONS} (got {_shown(rec['n'])})"
        if not 0 <= rec["choice"] < rec["n"]:
            return f"choice {_shown(rec['choice'])} is not one of the decision's {_shown(rec['n'])} options"
    return None


# ---------------------------------------------------------------------- per-seat copies


def seat_records(logged: dict, seat: int | None) -> list[dict]:
    """One game of a referee's log as `seat` saw it (None: a spectator): hidden records and fields left out."""
    out = []
    for rec in logged["records"]:
        v = project(rec, seat)
        if v is not None:
            out.append(v)
    return out


def seat_header(logged: dict, seat: int | None) -> dict:
    """The game header of a per-seat copy: no seed (it would regenerate every hidden card)."""
    h = {k: v for k, v in logged["header"].items() if k != "seed"}
    h["view"] = "public" if seat is None else f"P{seat}"
    return h
