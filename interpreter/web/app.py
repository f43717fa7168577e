"""The ASGI app of ``fengsheng serve`` (Starlette): pages, a small JSON API, one websocket per seat.

Pages (``static/``, plain HTML, CSS and JavaScript): ``/`` the lobby, ``/table/<id>`` a seat at a table
(the seat's secret key travels in the link's fragment, ``#token=…``, or an invitation, ``#invite=…``, which
browsers do not send to the server: the page hands it over in its first websocket message), ``/replay`` the
replay viewer.

API: ``GET /api/options`` (seat kinds, expansions), ``GET /api/tables`` (open tables: no seed, no key; and
``unrestored``, the ids of the tables kept but not restored at the start: unrestored.py),
``POST /api/tables`` (make one: the host's own seat's link, an invitation for each other reserved seat, the
referee's log link — never the seed; ``"role"``, a role's id pinned to ``"role_seat"``, the host's own seat by
default, which only the host is answered), ``POST /api/tables/<id>/claim`` (the link of an open seat nobody took
yet; a reserved seat is never handed out), ``POST /api/tables/<id>/host`` (``{"token": …}``, the referee token:
which invitations are still unused, for the host's browser, which kept them), ``POST /api/tables/<id>/invite``
(``{"token": …, "seat": n}``: a fresh invitation for a reserved seat nobody took, the old one then refused), ``GET
/api/tables/<id>/log?token=…`` (the log of a finished game: the referee's with the referee token, refused while
the game is on; a seat's copy with a seat's key), ``GET /api/tables/<id>/chat?token=…`` (the table's chat
lines, with either: a file of its own, not in the log), ``POST /api/replay`` (a JSONL log in, its steps in
Chinese out). A route of a table that is kept but was not restored answers 410, one of no table 404.

Websocket ``/ws/<id>``: a spectator's page (``/table/<id>#watch``, the lobby's 观战) sends ``{"type": "join",
"watch": true}`` and is sent the public view (tables.WebTable.message with no seat) and nothing else of the
game; a seat's page sends ``{"type": "join", "token": …}`` (or ``"invite": …``: the server answers
``{"type": "key", "token": …}``, the seat's key, the first time and refuses a used invitation), then
``{"type": "act", "seq": n, "action": id}`` for each answer (``seq``: the seat's own count of its decisions, from
the state it answers); the server sends ``{"type": "state", …}`` (tables.WebTable.message) whenever what the seat
may know changed — never a count of the game's actions — and ``{"type": "error", "message": …}`` for an answer
it refused. A page that joins with ``"people": true`` (and may give ``"name"``) is also sent ``{"type":
"people", …}`` (who is at the table, online, their names: WebTable.people) whenever that changes and ``{"type":
"chat", "lines": […]}`` (the whole chat on joining, then each line); any seat may send ``{"type": "name",
"name": …}`` and ``{"type": "chat", "text": …}`` (people.py checks them).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..agents.kinds import agent_kinds
from ..model.content import MAX_SEATS, Content
from ..seeds import SEED_RANGE
from .driving import Driver
from .guard import (
    CLOSE_BAD_FRAME,
    CLOSE_ERROR,
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    CLOSE_REPLACED,
    CLOSE_RETRY,
    CLOSE_SLOW,
    CLOSE_TOO_BIG,
    CLOSE_TOO_MANY,
    CLOSE_TRY_LATER,
    LOCAL_HOSTS,
    Guard,
    Limits,
    Refused,
    default_origins,
    read_json,
)
from .keeping import restore
from .people import Refused as PeopleRefused, line_data
from .pinning import PinError, pin_of, requested_pin
from .seat_api import read_body, refused, seat_link, seat_routes
from .store import Store, StoreError
from .tables import HUMAN, OPEN, TableError, Tables, WebTable
from .view import logged_expansions, replay_answer

STATIC = Path(__file__).resolve().parent / "static"
# what a page is told when the database cannot be written: nothing of the game (no seat, no count of decisions)
UNSAVED = "服务器存不下你这一步（数据库写不进去）：这一步没有算数，请稍后再选一次。"
UNSAVED_WORDS = "服务器存不下这句话或这个名字（数据库写不进去）：请稍后再试。"
MAX_UPLOAD = 50_000_000  # bytes of a log the replay viewer takes
log = logging.getLogger("fengsheng.serve")


class _Closed(Exception):
    """A websocket to close: its close code and reason, and the message the page shows first (the reason if
    none is given)."""

    def __init__(self, code: int, reason: str, message: str | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.message = message


@dataclass(eq=False)
class _Seat:
    """One open websocket: its table, seat, how many records of the seat's history it has been sent, and the
    fingerprint of the last state it was sent (WebTable.message)."""

    ws: WebSocket
    table: WebTable
    seat: int | None  # None: a spectator (the public view)
    sent: int = 0
    last: str = ""
    people: bool = False  # it asked for the table's people and chat (the page does: join with "people": true)
    gone: bool = False  # dropped (a send failed, or a newer websocket of its seat took its place): read no more


MIN_TIMER, MAX_TIMER = 10, 3600  # the move timer a host may set, in seconds


def create_app(
    load: Callable[[list[Path]], Content],
    packs_for: Callable[[str | None], list[Path]],
    expansions: list[str],
    default_expansions: str | None = None,
    bot_delay: float = 0.0,
    hosts: Sequence[str] = LOCAL_HOSTS,
    origins: Sequence[str] | None = None,
    limits: Limits | None = None,
    store: Store | None = None,
    restored: Callable[[Tables, list[str]], None] | None = None,
    retry_seconds: float = 5.0,
    default_role: str | None = None,
) -> Starlette:
    """The app. `load` reads content packs, `packs_for` turns an ``--expansions`` text into the packs,
    `expansions` are the ids the lobby offers; bots wait `bot_delay` seconds between moves (only so that
    people can follow them; the game itself knows no clock). It answers for the host names `hosts` only, takes
    POSTs and websockets from pages of `origins` only (default: ``http://HOST:8000`` for each host; guard.py),
    and holds to `limits`. Its tables are kept in `store` (store.py; None: in memory only); the tables it
    keeps are restored when the app starts, on its event loop's thread (a game is driven from the thread it was
    dealt on), and `restored` is told the tables and a line for each table that could not be restored (without
    it, each such line goes to the log).

    The server drives its bots itself (``drive``): a table restored at a bot's decision plays on to the next
    person's decision with nobody connected. A write of the database that fails (a full disk, a read-only file)
    moves no game: a person's answer is refused with why (the page may send it again), a bot's answer is kept and
    written again every `retry_seconds` (doubling, at most a minute) until the file takes it. `default_role` (serve
    --role): the role a new table pins to its host's seat unless its request says otherwise (pinning.py)."""
    limits = limits or Limits()
    tables = Tables(load, packs_for, default_expansions, limits, store)
    sockets: dict[str, list[_Seat]] = {}
    opened = 0  # websockets open in all

    async def send(conn: _Seat, message: dict[str, Any]) -> bool:
        try:
            await conn.ws.send_text(json.dumps(message, ensure_ascii=False))
        except Exception:  # the socket closed under us: it is dropped
            return False
        return True

    async def send_state(conn: _Seat, again: bool = False) -> bool | None:
        """Send the seat its state if what it may know changed since its last one (or `again`: after a refused
        answer, to redraw it). None if there was nothing to send, else whether the socket took it."""
        message, sent, fingerprint = conn.table.message(conn.seat, conn.sent)
        if fingerprint == conn.last and not again:
            return None  # nothing the seat may know changed: a message now would count the others' hidden moves
        conn.sent, conn.last = sent, fingerprint
        return await send(conn, message)

    async def broadcast(web: WebTable) -> bool:
        """Each seat of the table is sent its state if it changed; whether any was."""
        any_sent = False
        for conn in list(sockets.get(web.id, ())):
            sent = await send_state(conn)
            if sent is False:
                _drop(conn)
            any_sent = any_sent or sent is not None
        return any_sent

    async def tell_people(web: WebTable) -> None:
        """Everyone at the table is sent who is there now (names, who is online, how many watch): public."""
        for conn in list(sockets.get(web.id, ())):
            if conn.people and not await send(conn, {**web.people(), "you": conn.seat}):
                _drop(conn)

    async def chat_or_name(conn: _Seat, msg: dict[str, Any]) -> None:
        """A name taken or a chat line said: kept, then everyone at the table is told; or the page is told why
        not."""
        web = conn.table
        try:
            if conn.seat is None:
                raise PeopleRefused("观战的人不能改名或发言。")
            if msg.get("type") == "name":
                web.set_name(conn.seat, msg.get("name"))
                await tell_people(web)
                return
            line = web.say(conn.seat, msg.get("text"), time.monotonic())
        except PeopleRefused as e:
            await send(conn, {"type": "error", "message": str(e)})
            return
        except StoreError as e:
            log.error("fengsheng serve: table %s: %s", web.id, e)
            await send(conn, {"type": "error", "message": UNSAVED_WORDS})
            return
        for other in list(sockets.get(web.id, ())):
            if other.people:
                await send(other, {"type": "chat", "lines": [line]})

    def _drop(conn: _Seat) -> None:
        conn.gone = True
        conns = sockets.get(conn.table.id, [])
        if conn in conns:
            conns.remove(conn)
            if conn.seat is None:
                conn.table.watching -= 1
            else:
                conn.table.seats[conn.seat].connected -= 1

    closing: set[asyncio.Task[None]] = set()  # the replaced websockets being closed (a task holds no reference)

    def make_room(web: WebTable, seat: int) -> None:
        """Room for one more websocket of `seat`: its oldest ones beyond Limits.sockets_per_seat - 1 are dropped now
        and closed (CLOSE_REPLACED, the page told why: it does not reconnect by itself) in the background.

        Why the oldest, and not a refusal of the newest: a server cannot tell a dead connection from a quiet one
        until a ping goes unanswered (uvicorn pings every 20 s and gives a pong 20 s), and a phone that lost its
        network, a laptop that slept, a page reloaded a few times over a bad link all leave sockets the server
        still counts. The person who joins now holds the seat's key and is the one surely there; refused, an honest
        player could not come back to the seat for most of a minute. The limit still holds a flood: a seat never
        has more than Limits.sockets_per_seat websockets, and only its key's holder can open one (who then churns
        only the seat's own)."""
        held = [c for c in sockets.get(web.id, ()) if c.seat == seat]
        for old in held[: max(0, len(held) - limits.sockets_per_seat + 1)]:
            _drop(old)
            task = asyncio.ensure_future(
                asyncio.wait_for(  # (a dead peer may not take the close: its ping times out meanwhile)
                    close(
                        old.ws,
                        CLOSE_REPLACED,
                        f"this seat was opened in a newer window (at most {limits.sockets_per_seat} at once)",
                        f"这个座位在别的窗口又打开了（一个座位最多同时开 {limits.sockets_per_seat} 个窗口），"
                        "这个最早的窗口让了出来：要在这里接着玩，请点「在这里继续」（或刷新页面）。",
                    ),
                    30,
                )
            )
            closing.add(task)
            task.add_done_callback(closed)

    def closed(task: asyncio.Task[None]) -> None:
        closing.discard(task)
        if not task.cancelled():
            task.exception()  # (a close timed out: the ping drops that socket; nothing to tell anyone)

    async def tell(web: WebTable, message: dict[str, Any]) -> None:
        for conn in list(sockets.get(web.id, ())):
            await send(conn, message)

    driver = Driver(broadcast, tell, lambda web: web.id in tables.tables, bot_delay, retry_seconds)
    advance = driver.advance

    # ------------------------------------------------------------------ pages

    def page(name: str) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, media_type="text/html; charset=utf-8")

        return endpoint

    # ------------------------------------------------------------------ the API

    async def options(request: Request) -> Response:
        counts = await run_in_threadpool(tables.player_counts)  # (a first load of the content takes a while)
        return JSONResponse(
            {
                "kinds": [HUMAN, OPEN, *agent_kinds()],
                "expansions": expansions,
                "default_expansions": default_expansions,
                "players": counts,  # the counts the default expansions' identity table plays: the lobby's choices
                "role_by_default": default_role is not None,  # (not which: anyone may open the lobby)
            }
        )

    async def list_tables(request: Request) -> Response:
        # and the ids of the tables kept but not restored (public: unrestored.py), whose links the lobby keeps
        return JSONResponse({"tables": [t.summary() for t in tables.listed()], "unrestored": tables.unrestored.ids()})

    async def create_table(request: Request) -> Response:
        try:
            body = read_json(await read_body(request, limits.body_bytes), limits.number_digits)
        except Refused as e:
            return refused(e)
        if not isinstance(body, dict) or not isinstance(body.get("seats"), list):
            return JSONResponse(
                {"error": 'send {"seats": ["human", "open", "heuristic", …], "host_seat": 0, "seed": null}'},
                status_code=400,
            )
        seed: Any = body.get("seed")
        if seed in ("", None):
            seed = None
        elif isinstance(seed, str):
            text = seed.strip()
            if not (text.isascii() and text.isdigit() and len(text) <= 80):
                return JSONResponse({"error": f"the seed is {SEED_RANGE} (got {seed[:30]!r})"}, status_code=400)
            seed = int(text)
        exp = body.get("expansions")
        host_seat = body.get("host_seat", "first")
        chat = body.get("chat", True)
        if not isinstance(chat, bool):
            return JSONResponse({"error": "chat is true (the table's people may chat) or false"}, status_code=400)
        timer = body.get("timer")  # the optional move timer: the page's, never the engine's (docs/play.md)
        if timer in ("", None):
            timer = None
        elif type(timer) is not int or not MIN_TIMER <= timer <= MAX_TIMER:
            return JSONResponse(
                {"error": f"the move timer is a whole number of seconds from {MIN_TIMER} to {MAX_TIMER}, or null"},
                status_code=400,
            )
        try:
            # a role pinned to a seat (pinning.py, as play --role), by default the server's (serve --role)
            pin = requested_pin(body, default_role)
            web = tables.create(
                [str(s)[:40] for s in body["seats"][: MAX_SEATS + 1]],  # (one more: "too many" is said)
                seed,
                None if exp is None else str(exp)[:200],
                host_seat,
                client=request.client.host if request.client else "",
                chat=chat,
                timer=timer,
                pin=pin,
            )
        except (TableError, PinError) as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        handout, web.handout = web.handout, None  # (kept nowhere once the host has them)
        assert handout is not None
        await advance(web)  # the bots before the first human decision
        mine = web.host_seat
        return JSONResponse(
            {
                "table": web.summary(),
                # the host's own seat (its key), if the host plays; nobody else's key
                "seat": None
                if mine is None or handout.seat_key is None
                else {"seat": mine, "url": seat_link(web.id, mine, handout.seat_key)},
                # the other reserved seats: invitations for the host to hand out, each good for one browser
                "invites": [
                    {"seat": s, "url": f"/table/{web.id}#seat={s}&invite={invite}"}
                    for s, invite in sorted(handout.invites.items())
                ],
                # open seats: no link is made, the lobby's join hands each out once
                "open": [s for s, link in sorted(web.seats.items()) if not link.reserved],
                # the referee's log (seed and every action): readable once the game is over; the table's chat
                "log": f"/api/tables/{web.id}/log?token={handout.referee}",
                "chat": f"/api/tables/{web.id}/chat?token={handout.referee}",
                "chosen_seed": web.chosen_seed,
                "pin": pin_of(web.table.setup),  # the role the host pinned and its seat: the host's alone
            }
        )

    async def table_log(request: Request) -> Response:
        try:
            web = tables.get(request.path_params["tid"])
        except TableError as e:  # (404: no such table; 410: kept, not restored: unrestored.py)
            return JSONResponse({"error": str(e)}, status_code=e.status)
        token = request.query_params.get("token", "")
        seat = web.seat_of(token)
        host = web.is_host(token)
        if seat is None and not host:
            return JSONResponse(
                {"error": "this log needs the table's referee link or a seat's own link (an invitation is not one)"},
                status_code=403,
            )
        # which log: the referee's (the host's by default) or one seat's copy (a seat's own by default); any of
        # them only once the game is over (referee_log refuses before), when the end turns every card up; or the
        # table's chat, a file of its own (WebTable.chat_text), at any time
        chat = request.url.path.endswith("/chat")
        view = "chat" if chat else request.query_params.get("view") or ("referee" if host else f"P{seat}")
        if not chat and view != "referee" and view not in {f"P{s}" for s in range(web.players)}:
            return JSONResponse({"error": "view is referee or P<seat>"}, status_code=400)
        try:
            text = web.chat_text() if chat else web.referee_log() if view == "referee" else web.seat_log(int(view[1:]))
        except TableError as e:
            return JSONResponse({"error": str(e)}, status_code=409)
        name = f"fengsheng-{web.id}-{view}.jsonl"
        return PlainTextResponse(
            text,
            media_type="application/jsonl; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    def replay_content(header: Mapping[str, Any]) -> Content:
        with contextlib.suppress(ValueError):  # (the log's expansions, else the server's default: view.py)
            return tables.content(packs_for(logged_expansions(header, expansions) or default_expansions))
        return tables.content(packs_for(default_expansions))

    async def replay(request: Request) -> Response:
        try:
            body = await read_body(request, MAX_UPLOAD)
        except Refused:
            return JSONResponse({"error": f"the log is larger than {MAX_UPLOAD:,} bytes"}, status_code=413)
        # (in a worker thread: a long log's replay, and the first content load of an expansion combination, would
        # otherwise hold up every table's websockets on the event loop)
        answer, status = await run_in_threadpool(replay_answer, body, dict(request.query_params), replay_content)
        return JSONResponse(answer, status_code=status)

    # ------------------------------------------------------------------ a seat's websocket

    async def receive(ws: WebSocket, timeout: float | None = None) -> Any:
        """One message of the page: a JSON text frame within the limits, else _Closed (the page closed: raises
        WebSocketDisconnect)."""
        try:
            raw = await asyncio.wait_for(ws.receive(), timeout)
        except asyncio.TimeoutError:
            raise _Closed(
                CLOSE_SLOW,
                f"no join message in {timeout:g} s",
                f"连接太慢：打开后 {timeout:g} 秒内没有收到这个页面的入座消息。",
            ) from None
        if raw["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(raw.get("code", 1000))
        text = raw.get("text")
        if text is None:
            raise _Closed(CLOSE_BAD_FRAME, "send JSON as text frames")
        if len(text) > limits.frame_bytes or len(text.encode("utf-8")) > limits.frame_bytes:
            raise _Closed(CLOSE_TOO_BIG, f"a message is at most {limits.frame_bytes:,} bytes")
        try:
            return read_json(text, limits.number_digits)
        except Refused as e:
            raise _Closed(CLOSE_BAD_FRAME, e.message) from None

    async def close(ws: WebSocket, code: int, reason: str, message: str | None = None) -> None:
        """Tell the page why (an error it shows) and whether it may come back by itself (``retry``, a code of
        guard.CLOSE_RETRY: the server was busy or the link slow; table.js tries again later and later) or not
        (``fatal``: a key or a table that opens nothing, or another window took the seat's place), then close
        with the code and the reason."""
        retry = code in CLOSE_RETRY
        try:
            await ws.send_json({"type": "error", "fatal": not retry, "retry": retry, "message": message or reason})
            await ws.close(code=code, reason=reason[:120])
        except Exception:  # the page left first
            pass

    async def seat_socket(ws: WebSocket) -> None:
        nonlocal opened
        await ws.accept()
        if opened >= limits.sockets:
            await close(
                ws,
                CLOSE_TRY_LATER,
                f"the server has {limits.sockets:,} connections open: try again later",
                "服务器现在的连接满了，暂时进不来。",
            )
            return
        opened += 1
        conn: _Seat | None = None
        try:
            hello = await receive(ws, limits.join_seconds)
            try:
                web = tables.get(ws.path_params["tid"])
            except TableError as e:  # a mistyped link, or a table gone (forgotten when finished, a --db :memory:)
                raise _Closed(
                    CLOSE_NOT_FOUND,
                    str(e),
                    "这张桌还保存在服务器上，但服务器这次启动时没能恢复它（它的内容或者fengsheng的版本变了，"
                    "服务器的输出写了原因）。请告诉服务器的主人：内容改回原样后重启服务器，就能从原处接着打。"
                    if e.status == 410  # (kept, not restored: Tables.unrestored)
                    else "这台服务器上没有这张桌：链接可能不完整，或者这张桌已经不在了"
                    "（结束的桌只保留一段时间；服务器换了数据库或者用 --db :memory: 重启过）。请回大厅看看现有的桌。",
                ) from None
            token = hello.get("token") if isinstance(hello, dict) else None
            invite = hello.get("invite") if isinstance(hello, dict) else None
            seat = web.seat_of(token) if isinstance(token, str) else None
            # a spectator comes with no key and no invitation (a key that opens nothing is refused, not watched)
            watch = isinstance(hello, dict) and hello.get("watch") is True and token is None and invite is None
            if watch and web.watching >= limits.watchers_per_table:
                raise _Closed(
                    CLOSE_TOO_MANY,
                    f"this table has {limits.watchers_per_table} spectators already",
                    f"这张桌观战的人满了（最多 {limits.watchers_per_table} 人）：有人离开后才能进来。",
                )
            if seat is None and isinstance(invite, str):
                try:
                    seat, key = web.redeem(invite, token if isinstance(token, str) else None)
                except StoreError as e:
                    log.error("fengsheng serve: table %s: %s", web.id, e)
                    raise _Closed(
                        CLOSE_TRY_LATER,
                        "the server cannot keep the seat now (its database): try again later",
                        "服务器现在存不下座位（数据库写不进去）：邀请没有用掉，请稍后再打开这个链接。",
                    ) from None
                if seat is not None and key is None:
                    raise _Closed(
                        CLOSE_FORBIDDEN,
                        "this invitation was used already",
                        f"这个邀请链接已经用过了：P{seat} 已经有人入座（一个邀请只能用一次）。"
                        "如果入座的不是你，请告诉开桌的人。",
                    )
                if seat is not None:  # the seat's key, for this browser alone from now on
                    await ws.send_json({"type": "key", "seat": seat, "token": key})
            if seat is None and not watch:
                raise _Closed(
                    CLOSE_FORBIDDEN,
                    "no seat of this table has this key",
                    # (a forged invitation and one its host replaced are one thing to the server: it keeps neither)
                    "这个邀请链接不对应这张桌的任何座位：开桌的人可能换了新的邀请链接，请向他要新的。"
                    if isinstance(invite, str)
                    else "这个链接不对应这张桌的任何座位。",
                )
            conn = _Seat(ws, web, seat, people=isinstance(hello, dict) and hello.get("people") is True)
            if seat is None:  # a spectator: the public view (what a seat with no hand sees)
                web.watching += 1
            else:
                make_room(web, seat)  # (its oldest websocket closed if it has Limits.sockets_per_seat already)
                web.seats[seat].connected += 1
            sockets.setdefault(web.id, []).append(conn)
            await send_state(conn)
            if conn.people and web.chat.lines:
                await send(conn, {"type": "chat", "lines": [line_data(line) for line in web.chat.lines]})
            if isinstance(hello, dict) and hello.get("name") is not None:
                await chat_or_name(conn, {"type": "name", "name": hello["name"]})  # (it tells everyone)
            else:
                await tell_people(web)
            if web.bot_to_move():
                await advance(web)
            while True:
                msg = await receive(ws)
                if conn.gone:  # (replaced by a newer window of its seat: its close is on its way; read until it comes)
                    continue
                try:  # (a finished table past its time is gone at its next message too, its page open or not)
                    if tables.get(web.id) is not web:
                        raise TableError(f"no table {web.id[:20]!r} on this server", 404)
                except TableError as e:
                    raise _Closed(
                        CLOSE_NOT_FOUND,
                        str(e),
                        "这张桌已经不在了（结束的桌只保留一段时间）。请回大厅看看现有的桌。",
                    ) from None
                if isinstance(msg, dict) and msg.get("type") in ("name", "chat"):
                    await chat_or_name(conn, msg)
                    continue
                if seat is None:
                    await send(conn, {"type": "error", "message": "观战的人只能看，不能行动。"})
                    continue
                if not isinstance(msg, dict) or msg.get("type") != "act":
                    await send(
                        conn, {"type": "error", "message": "unknown message (send type act, seq, action; name; chat)"}
                    )
                    continue
                try:
                    refused = web.act(seat, msg.get("seq"), msg.get("action"))
                except StoreError as e:  # not written, so not played: the seat may send it again
                    log.error("fengsheng serve: table %s: an answer of P%s was not taken: %s", web.id, seat, e)
                    refused = UNSAVED
                if refused is not None:
                    await send(conn, {"type": "error", "message": refused})
                    await send_state(conn, again=True)
                    continue
                if web.table.stopped is not None:  # (this answer ended it: the output is read at the table too)
                    log.error("fengsheng serve: table %s: %s", web.id, web.table.stopped.public)
                await advance(web)  # the bots that follow, then every seat is sent the new state
        except (WebSocketDisconnect, RuntimeError):
            pass
        except _Closed as e:
            await close(ws, e.code, e.reason, e.message)
        except Exception as e:  # a bug: the page is told, the log gets one line, no traceback reaches anyone
            log.error(
                "fengsheng serve: a websocket of %s failed: %s: %s", ws.path_params.get("tid"), type(e).__name__, e
            )
            await close(ws, CLOSE_ERROR, "the server failed on this message", "服务器处理这条消息时出错了。")
        finally:
            opened -= 1
            if conn is not None:
                _drop(conn)
                with contextlib.suppress(Exception):  # (the others are told this one left)
                    await tell_people(conn.table)

    routes = [
        Route("/", page("lobby.html")),
        Route("/table/{tid}", page("table.html")),
        Route("/replay", page("replay.html")),
        Route("/api/options", options),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        *seat_routes(tables, limits),
        Route("/api/tables/{tid}/log", table_log),
        Route("/api/tables/{tid}/chat", table_log),
        Route("/api/replay", replay, methods=["POST"]),
        WebSocketRoute("/ws/{tid}", seat_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if origins is None:
        origins = default_origins(hosts, 8000)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        problems = restore(tables)
        app.state.restore_problems = problems
        if restored is not None:  # (it prints them: the log would say each a second time)
            restored(tables, problems)
        else:
            for problem in problems:
                log.warning("fengsheng serve: %s", problem)
        for web in list(tables.tables.values()):  # (a table restored at a bot's decision plays on by itself)
            if web.bot_to_move():
                driver.drive(web)
        yield
        driver.stop()

    app = Starlette(
        routes=routes,
        middleware=[Middleware(Guard, hosts=list(hosts), origins=list(origins))],
        lifespan=lifespan,
    )
    app.state.tables = tables
    app.state.restore_problems = []
    return app
