"""How ``fengsheng serve`` moves its tables' bots: between people's decisions, and by itself when nobody asks.

A bot thinks on a worker thread (a search bot takes seconds), so the event loop serves the other tables and
seats meanwhile; its answer is committed, then applied, on the loop's thread — the game's greenlets belong to
the thread that dealt it, and the app deals and restores its tables there — before any seat is sent its effect.

The server drives a table itself (:meth:`Driver.drive`, a task on the loop) when no page's message would:
a table restored at a bot's decision plays on to the next person's decision with nobody connected, and a
table whose bot's answer could not be written (a full disk, a read-only file: ``StoreError``) tries again
after a pause, doubling to a minute, with the same answer (``WebTable.pending``: the bot is not asked twice,
so its generator stands where a game never stopped has it) until the file takes it. Its pages are told once
a stall (``STALLED``: the same words at any table and decision, so nothing here counts the game's decisions),
and the server's output gets one line when it stalls and one when it plays on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import anyio.to_thread

from .store import StoreError
from .tables import WebTable

STALLED = "服务器一时存不下牌局（数据库写不进去）：牌局停在这里，服务器会自己再试；好了以后局面会接着更新。"
log = logging.getLogger("fengsheng.serve")


class Driver:
    """The bots of one server's tables. `broadcast` sends each page of a table its state if it changed (whether
    any was sent), `tell` sends every page of a table one message, `kept` says whether a table is still held;
    bots wait `bot_delay` seconds between moves that someone is shown, a failed write is tried again after
    `retry_seconds`."""

    def __init__(
        self,
        broadcast: Callable[[WebTable], Awaitable[bool]],
        tell: Callable[[WebTable, dict], Awaitable[None]],
        kept: Callable[[WebTable], bool],
        bot_delay: float = 0.0,
        retry_seconds: float = 5.0,
    ) -> None:
        self.broadcast, self.tell, self.kept = broadcast, tell, kept
        self.bot_delay, self.retry_seconds = bot_delay, retry_seconds
        self.tasks: dict[str, asyncio.Task[None]] = {}  # tables driven by the server, with nobody waiting

    async def advance(self, web: WebTable) -> bool:
        """The bots answer until a human seat must decide or the game ends; then every seat is sent its state
        (once, when bots move without a delay: a seat gets one message per change it can act on). False if a
        bot's answer could not be written: the table waits at that decision and is driven again later.

        This table stands still while its bot thinks: only its bot's answer moves it (a human's answer is
        refused, it is not their turn; `busy` keeps a second advance out), so the bot answers from exactly what
        it was handed, as it would on the loop: the same answers, the same game."""
        if web.busy:
            return True
        web.busy = True
        failed: StoreError | None = None
        try:
            while web.bot_to_move():
                try:
                    web.bot_answered(await anyio.to_thread.run_sync(web.bot_question()))
                except StoreError as e:
                    failed = e
                    break
                if web.table.stopped is not None:  # the engine stopped the game: its public words (Table.apply)
                    log.error("fengsheng serve: table %s: %s", web.id, web.table.stopped.public)
                if self.bot_delay > 0 and await self.broadcast(web):  # (no pause after a move nobody is shown)
                    await asyncio.sleep(self.bot_delay)
        finally:
            web.busy = False
        await self.broadcast(web)
        if failed is None:
            if web.stalled:
                web.stalled = False
                log.warning("fengsheng serve: table %s: the database took its moves again; it plays on", web.id)
            return True
        if not web.stalled:  # (once a stall, not once a retry)
            web.stalled = True
            log.error("fengsheng serve: table %s waits: %s", web.id, failed)
            await self.tell(web, {"type": "error", "message": STALLED, "until_moved": True})
        self.drive(web, failed=True)
        return False

    def drive(self, web: WebTable, failed: bool = False) -> None:
        """The server moves the table's bots itself, on the running loop: ``advance`` (after a pause if it just
        `failed`), again while the database refuses the answer. Nothing if the table is driven already."""
        task = self.tasks.get(web.id)
        if task is None or task.done():
            self.tasks[web.id] = asyncio.get_running_loop().create_task(self._driven(web, failed))

    async def _driven(self, web: WebTable, failed: bool) -> None:
        pause = self.retry_seconds
        try:
            while True:
                if failed:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 60.0)
                if await self.advance(web) or not self.kept(web):
                    return
                failed = True
        except Exception as e:  # a bug (a bot that fails): one line; the table waits for a page to try again
            log.error("fengsheng serve: table %s: its bots failed: %s: %s", web.id, type(e).__name__, e)

    def stop(self) -> None:
        """The server stops: the tables it drives stop with it (restored at its next start, driven again)."""
        for task in self.tasks.values():
            task.cancel()
