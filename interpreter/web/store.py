"""Where ``fengsheng serve`` keeps its tables: an embedded SQLite database (the standard library's ``sqlite3``).

A table is kept as what replays it: its settings (players, seat kinds, packs, the seed), its seats (the
digests of their keys and invitations — never a key itself —, whether each was handed out, the name a
person took), and every action, in order. An action is written and committed before it is applied to the
game (``WebTable`` calls :meth:`Store.action` first), so nobody is ever shown an action the file does not hold
and a write that fails changes no game; a server killed at any moment comes back at the last action anyone saw:
on start, ``keeping.restore`` replays each kept table from its seed and actions.

The database is the server's alone: WAL mode (a backup with ``sqlite3 DB ".backup COPY"`` reads it while the
server runs), one connection that writes, and a lock file beside it so that a second server cannot write the
same tables (it would play them on from the same point: two different games under one link). It holds every
seed, so it is made readable by its owner only (0600). A file that is not such a database, or a damaged one,
is refused with a one-line :class:`StoreError` saying which and what to do.

Finished tables are deleted after ``keep`` seconds (``serve --keep-finished DAYS``). A leaf of ``web/``: it
imports nothing of the game.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock file (one server per database is then the user's care)
    fcntl = None  # type: ignore[assignment]

DB_FILE = "tables.sqlite3"
APPLICATION_ID = 0x46534E47  # "FSNG": PRAGMA application_id of a fengsheng serve database
VERSION = 1  # PRAGMA user_version: the layout below

_SCHEMA = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    made INTEGER NOT NULL,      -- its number: the id is t<made>
    settings TEXT NOT NULL,     -- JSON: players, seats, packs, expansions, seed, host_seat, referee digest ...
    finished REAL               -- when the game ended (seconds since the epoch), NULL while it is on
);
CREATE TABLE seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    reserved INTEGER NOT NULL,  -- the host hands it out (1), or the lobby's join (0)
    key TEXT,                   -- the digest of its key, NULL until the key is handed out
    invite TEXT,                -- the digest of its invitation, NULL if it has none
    claimed INTEGER NOT NULL,   -- its key was handed out (the invitation, if any, is spent)
    name TEXT,                  -- the name its person took
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE actions (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,         -- 0, 1, 2 ...: the game's actions in order
    action INTEGER NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
CREATE TABLE meta (
    name TEXT PRIMARY KEY,      -- made: the number of the last table made (ids are never given twice)
    value INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE chat (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
"""


class StoreError(Exception):
    """A database that cannot be used: one line saying which file, what is wrong and what to do."""


@dataclass
class KeptSeat:
    seat: int
    reserved: bool
    key: str | None
    invite: str | None
    claimed: bool
    name: str | None


@dataclass
class KeptTable:
    """One table as the database keeps it."""

    id: str
    made: int
    settings: dict[str, Any]
    finished: float | None
    seats: list[KeptSeat] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    chat: list[tuple[int, str, str]] = field(default_factory=list)  # (seat, name, text)


def _side_files(path: Path) -> tuple[Path, Path]:
    """SQLite's files beside a database in WAL mode: its log and its shared-memory index."""
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def _remove(made: list[Path]) -> None:
    """Remove the files, then the folders (deepest first), a server made for a database it then could not use; a
    folder only if empty: nothing another put there is touched."""
    for p in made:
        with suppress(OSError):
            if p.is_dir():
                p.rmdir()
            else:
                p.unlink()


class Store:
    """The database of one server. ``Store(None)`` keeps nothing on disk (an in-memory database: the tables
    live as long as the process, as before there was a database); ``Store(path)`` opens or makes the file."""

    def __init__(self, path: str | Path | None, keep: float | None = 30 * 86400) -> None:
        self.path = None if path is None else Path(path)
        self.keep = keep  # seconds a finished table is kept (None: for ever)
        self._lock = threading.Lock()
        self._lockfile: int | None = None
        self._lock_made: Path | None = None  # its lock file if this server made it (removed on a refusal)
        if self.path is None:
            self._db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            self._make()
            return
        self._db = self._open(self.path)

    # ------------------------------------------------------------------ opening

    def _open(self, path: Path) -> sqlite3.Connection:
        where = str(path)
        if path.is_dir():  # (sqlite3 would say only "unable to open database file")
            raise StoreError(f"{where}: is a folder: give --db a file's path, such as {path / 'tables.sqlite3'}")
        made: list[Path] = []  # the files and folders it made (removed if it refuses the database: nothing left behind)
        try:
            if not path.exists():
                folders = [f for f in path.parents if not f.exists()]  # (the deepest first: removed in that order)
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                made = [p for p in (path, *_side_files(path)) if not p.exists()] + folders
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            self._take_lock(path)
            db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=5)
        except (OSError, sqlite3.Error) as e:
            self._release_lock(refused=True)
            _remove(made)
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            if isinstance(e, OSError) and e.filename is not None and str(e.filename) != where:
                why += f": {e.filename}"  # (a folder above it that is a file, say)
            raise StoreError(f"{where}: cannot open the tables' database ({why}); give another --db") from None
        self._db = db
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            empty = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
            if empty and app_id == 0:
                self._make()
            elif app_id != APPLICATION_ID:
                raise StoreError(
                    f"{where}: not a fengsheng serve database (another program's SQLite file): give another --db"
                )
            elif version > VERSION:
                raise StoreError(
                    f"{where}: written by a newer fengsheng (layout {version}, this one reads {VERSION}): "
                    "upgrade fengsheng or give another --db"
                )
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                said = " ".join(str(check).split())  # (SQLite's report runs over lines: the error is one)
                raise StoreError(f"{where}: the database is damaged ({said[:80]}): {_DAMAGED_HINT}")
            if db.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() != "wal":
                raise StoreError(f"{where}: the database cannot be put in WAL mode: give a --db on a local disk")
            db.execute("PRAGMA synchronous=FULL")  # a commit is on the disk before the action is acknowledged
        except sqlite3.DatabaseError as e:
            self._refuse(db, made)
            raise StoreError(f"{where}: not an SQLite database, or a damaged one ({e}): {_DAMAGED_HINT}") from None
        except StoreError:
            self._refuse(db, made)
            raise
        return db

    def _refuse(self, db: sqlite3.Connection, made: list[Path]) -> None:
        """Close a database refused, free its lock, and remove the files and folders this server made for it (a
        database it created and could not use, such as one on a disk without WAL, holds nothing of the user's)."""
        db.close()
        self._release_lock(refused=True)
        _remove(made)

    def _take_lock(self, path: Path) -> None:
        """One server per database: a lock on DB.lock, held while the server runs (freed by the system when the
        process ends, even killed)."""
        if fcntl is None:
            return
        lock = path.with_name(path.name + ".lock")
        made = not lock.exists()
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(
                f"{path}: another fengsheng serve is using this database (its lock {lock.name} is held): "
                "stop it, or give another --db"
            ) from None
        self._lockfile = fd
        self._lock_made = lock if made else None

    def _release_lock(self, refused: bool = False) -> None:
        """Free the lock; a database refused (another program's, damaged, newer) leaves no lock file of ours beside
        it (removed while still held, so no other server holds a lock on the name removed)."""
        if self._lockfile is not None:
            if refused and self._lock_made is not None:
                with suppress(OSError):
                    self._lock_made.unlink()
            os.close(self._lockfile)
            self._lockfile = None

    def _make(self) -> None:
        with self._lock:
            self._db.executescript(
                f"BEGIN IMMEDIATE; {_SCHEMA} PRAGMA application_id={APPLICATION_ID}; "
                f"PRAGMA user_version={VERSION}; COMMIT;"
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()
        self._release_lock()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, committed when the block ends, or rolled back: a write that fails (a full disk, a file
        made read-only, an I/O error) is a one-line :class:`StoreError` and leaves the database as it was."""
        try:
            with self._lock, self._transaction() as db:
                yield db
        except (sqlite3.Error, OSError) as e:
            raise StoreError(
                f"{self.path or 'the in-memory database'}: cannot write the tables' database ({e}): free some disk "
                "space, or make the file writable"
            ) from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """The transaction itself (the lock held): committed when the block ends, rolled back if it raises."""
        db = self._db
        if not db.in_transaction:
            db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            if db.in_transaction:
                db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------------ writing

    def add_table(self, tid: str, made: int, settings: dict[str, Any], seats: list[KeptSeat]) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO tables (id, made, settings, finished) VALUES (?, ?, ?, NULL)",
                (tid, made, json.dumps(settings, sort_keys=True)),
            )
            db.execute("INSERT OR REPLACE INTO meta (name, value) VALUES ('made', ?)", (made,))
            db.executemany(
                "INSERT INTO seats (table_id, seat, reserved, key, invite, claimed, name) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(tid, s.seat, int(s.reserved), s.key, s.invite, int(s.claimed), s.name) for s in seats],
            )

    def seat(self, tid: str, seat: KeptSeat) -> None:
        """A seat's key handed out, its invitation spent, its person's name."""
        with self._write() as db:
            db.execute(
                "UPDATE seats SET key = ?, invite = ?, claimed = ?, name = ? WHERE table_id = ? AND seat = ?",
                (seat.key, seat.invite, int(seat.claimed), seat.name, tid, seat.seat),
            )

    def action(self, tid: str, n: int, action: int) -> None:
        """The game's action number `n`, committed (before it is applied: WebTable._commit)."""
        with self._write() as db:
            db.execute("INSERT INTO actions (table_id, n, action) VALUES (?, ?, ?)", (tid, n, action))

    def finished(self, tid: str, when: float) -> None:
        """The time the table's game ended (its finished tables are deleted `keep` seconds after)."""
        with self._write() as db:
            db.execute("UPDATE tables SET finished = ? WHERE id = ?", (when, tid))

    def chat(self, tid: str, n: int, seat: int, name: str, text: str) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO chat (table_id, n, seat, name, text) VALUES (?, ?, ?, ?, ?)", (tid, n, seat, name, text)
            )

    def forget(self, tids: list[str]) -> None:
        """Tables deleted with everything they kept."""
        if not tids:
            return
        with self._write() as db:
            for what in ("actions", "seats", "chat"):
                db.executemany(f"DELETE FROM {what} WHERE table_id = ?", [(t,) for t in tids])
            db.executemany("DELETE FROM tables WHERE id = ?", [(t,) for t in tids])

    def expired(self, now: float) -> list[str]:
        """The finished tables older than the time they are kept; a read that fails is a one-line StoreError, as a
        write's (expiry runs as a side job of the lobby's list and of a table's routes, which it must not break)."""
        if self.keep is None:
            return []
        try:
            with self._lock:
                rows = self._db.execute(
                    "SELECT id FROM tables WHERE finished IS NOT NULL AND finished < ? ORDER BY made",
                    (now - self.keep,),
                ).fetchall()
        except sqlite3.Error as e:
            where = self.path or "the in-memory database"
            raise StoreError(f"{where}: cannot read the tables' database ({e})") from None
        return [r[0] for r in rows]

    # ------------------------------------------------------------------ reading

    def tables(self) -> list[KeptTable]:
        """Every kept table with its seats, actions and chat, in the order they were made."""
        with self._lock:
            db = self._db
            try:
                kept = {
                    tid: KeptTable(tid, made, json.loads(settings), finished)
                    for tid, made, settings, finished in db.execute(
                        "SELECT id, made, settings, finished FROM tables ORDER BY made"
                    )
                }
                for tid, seat, reserved, key, invite, claimed, name in db.execute(
                    "SELECT table_id, seat, reserved, key, invite, claimed, name FROM seats ORDER BY table_id, seat"
                ):
                    if tid in kept:
                        kept[tid].seats.append(KeptSeat(seat, bool(reserved), key, invite, bool(claimed), name))
                for tid, action in db.execute("SELECT table_id, action FROM actions ORDER BY table_id, n"):
                    if tid in kept:
                        kept[tid].actions.append(action)
                for tid, seat, name, text in db.execute(
                    "SELECT table_id, seat, name, text FROM chat ORDER BY table_id, n"
                ):
                    if tid in kept:
                        kept[tid].chat.append((seat, name, text))
            except (sqlite3.DatabaseError, ValueError) as e:
                raise StoreError(f"{self.path}: the database cannot be read ({e}): {_DAMAGED_HINT}") from None
        return list(kept.values())

    def last_made(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE name = 'made'").fetchone()
        return int(row[0]) if row else 0


_DAMAGED_HINT = "restore it from a backup or move it away (the server then starts with no tables)"
