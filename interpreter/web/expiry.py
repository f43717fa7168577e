"""How long a ``fengsheng serve`` keeps a finished table: ``serve --keep-finished`` after its game ended, then it is
gone (404) — deleted from the database with its logs and chat at its next request, the lobby's next list, a new
table or the next start, whichever comes first, so a server nobody makes tables on keeps nothing past its time.
Restored or not (unrestored.py), finished at this server or before a restart, alike.
"""

from __future__ import annotations

import time
from collections.abc import MutableMapping
from typing import Any, Protocol

from .store import Store, StoreError
from .unrestored import Unrestored


class Finished(Protocol):
    finished_at: float | None  # when its game ended, by the server's clock (None: still played)


class Expiry:
    """The finished tables of `tables` (a server's, by id) whose time is up, deleted from the database and from
    `tables`; the tables kept but not restored (unrestored.py) alike."""

    def __init__(self, store: Store | None, tables: MutableMapping[str, Any]) -> None:
        self.store = store
        self.tables = tables  # (each a Finished: tables.py's WebTable, which imports this module)
        self.unrestored = Unrestored(store, self.expire)  # kept in the database, not replayed at the start

    def due(self, table: Finished, now: float) -> bool:
        """Is `table` finished longer ago than the database keeps a finished table?"""
        keep = self.store.keep if self.store is not None else None
        return keep is not None and table.finished_at is not None and table.finished_at < now - keep

    def expire(self, now: float | None = None) -> None:
        """The finished tables older than the database keeps them, deleted (from memory too)."""
        if self.store is None:
            return
        try:
            gone = self.store.expired(time.time() if now is None else now)
            self.store.forget(gone)
        except StoreError:
            return  # (they stay, in memory and in the file; the next expiry deletes them)
        for tid in gone:
            self.tables.pop(tid, None)
        self.unrestored.forget(gone)

    def gone(self, tid: str, now: float | None = None) -> bool:
        """Is table `tid`, held, past its time? Then it is deleted (or left for the next expiry if the database
        cannot be written now) and is gone all the same."""
        table = self.tables.get(tid)
        if table is None or table.finished_at is None:
            return False
        now = time.time() if now is None else now
        if not self.due(table, now):
            return False
        self.expire(now)
        return True

    def listed(self, now: float | None = None) -> list[str]:
        """The ids of the tables the lobby lists: those whose time is up are deleted first, and left out even when
        the database could not be written then."""
        now = time.time() if now is None else now
        if any(self.due(t, now) for t in self.tables.values()):
            self.expire(now)
        return [tid for tid, t in self.tables.items() if not self.due(t, now)]
