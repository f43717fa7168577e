"""The tables ``fengsheng serve`` keeps in its database but could not restore when it started (keeping.restore: its
pack is gone, a role its host pinned is no longer in it, an action no longer replays, an ``ext:`` bot was not given
again): not played, still kept — the next start with its content as it was restores it where it stood.

Every door says so, and never that the table does not exist: an HTTP route answers 410 (Gone) with what the
server's owner can do, the lobby's list names them (``GET /api/tables``: ``unrestored``), a page's websocket is
told so in Chinese (app.py). The lobby's page forgets the links it keeps of a table (its host's, a seat's 回到我的座位)
only on a 404, so a table that comes back is still reachable from the browsers that held it (common.js hostStatus,
lobby.js refresh). Why is the server's output's alone (it may name the role the host pinned: pinning.py).

Whether a table is kept but not restored is no secret: while a server holds a table, the lobby lists it to anyone
(its seats, its turn, a spectator's link), so its id and its existence were public before the restart; the
distinction adds only that this start could not replay it.

A finished one is kept as long as the database keeps a finished table (``serve --keep-finished``): from then on it
is gone, and said to be (404), as a restored finished table is.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .store import Store

GONE = 410  # the HTTP status of a table kept but not restored


def not_restored(tid: str) -> str:
    """What a route answers for a table kept but not restored (English, for scripts; the pages say it in Chinese)."""
    return (
        f"table {tid} is kept in the server's database, but the server could not restore it when it started (its "
        "output says why: a pack or a role it needs is gone, or an action no longer replays); it is not lost: its "
        "owner can put the content back as it was and restart the server, and the table plays on where it stood"
    )


class Unrestored:
    """The kept tables a server did not restore, by id, each with when its game ended (None: it had not).
    `expire` deletes the finished tables past their time from the database (Tables.expire) and from here."""

    def __init__(self, store: Store | None, expire: Callable[[float], None]) -> None:
        self._ended: dict[str, float | None] = {}
        self._store = store
        self._expire = expire

    def add(self, tid: str, ended: float | None) -> None:
        self._ended[tid] = ended

    def forget(self, tids: list[str]) -> None:
        for tid in tids:
            self._ended.pop(tid, None)

    def ids(self, now: float | None = None) -> list[str]:
        """The tables kept but not restored, in the order they were made; one whose game ended longer ago than the
        database keeps a finished table is deleted first, and is gone from then on."""
        keep = self._store.keep if self._store is not None else None
        if keep is not None:
            now = time.time() if now is None else now
            due = [tid for tid, ended in self._ended.items() if ended is not None and ended < now - keep]
            if due:
                self._expire(now)
                self.forget(due)  # (gone even if the file could not be written now: its next expiry deletes it)
        return list(self._ended)
