"""The JSON API of a table's seats apart from its websocket (app.py mounts its routes): the lobby's join of an open
seat (``POST /api/tables/<id>/claim``) and the host's two requests with the table's referee token in the body,
never in a URL a proxy logs: which invitations are still unused (``/host``) and a fresh invitation for a reserved
seat nobody took (``/invite``). With them, what every POST of the app goes through: its body read within a bound
(``read_body``) and a refusal answered as JSON (``refused``); and a seat's own link. (Apart from app.py, which
holds the pages, the websocket and the rest of the API: one job a module, tests/test_module_size.py.)

Each route says who may ask and what it answers; what each carries and never does: docs/observation.md, "The
browser table: what each channel carries".
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .guard import Limits, Refused, read_json
from .store import StoreError
from .tables import TableError, Tables, WebTable

log = logging.getLogger("fengsheng.serve")


async def read_body(request: Request, limit: int) -> bytes:
    """A request's body, read up to `limit` bytes: a longer one is Refused (413) without being read to its end."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise Refused(413, f"the request's body is larger than {limit:,} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(413, f"the request's body is larger than {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def refused(e: Refused) -> JSONResponse:
    return JSONResponse({"error": e.message}, status_code=e.status)


def seat_link(tid: str, seat: int, key: str) -> str:
    """A seat's own link (path and fragment): its key stays in the browser."""
    return f"/table/{tid}#seat={seat}&token={key}"


def seat_routes(tables: Tables, limits: Limits) -> list[Route]:
    """The routes of the claim, the host's question and a new invitation, over the server's `tables`."""

    async def posted_to_table(request: Request) -> tuple[WebTable, Any] | Response:
        """A POST to one table (its claim, its host's question): the table and the JSON body ({} for none), or the
        answer that refuses it — the body's (too large, not JSON: Refused's status) before the table's (404; 410: kept
        but not restored, unrestored.py), so that nothing about the table is read for a request that is not one."""
        try:
            body = read_json(await read_body(request, limits.body_bytes) or b"{}", limits.number_digits)
        except Refused as e:
            return refused(e)
        try:
            return tables.get(request.path_params["tid"]), body
        except TableError as e:  # (404: no such table; 410: kept, not restored, whose links its browsers keep)
            return JSONResponse({"error": str(e)}, status_code=e.status)

    async def claim(request: Request) -> Response:
        got = await posted_to_table(request)
        if isinstance(got, Response):
            return got
        web, body = got
        # the key the lobby's page made and kept ({"key": …}): asked again with it, the seat it took is answered
        proposed = body.get("key") if isinstance(body, dict) and isinstance(body.get("key"), str) else None
        # (no await between the check and the claim: two joins at once cannot both get one seat)
        try:
            claimed = web.claim_open(proposed)
        except StoreError as e:
            log.error("fengsheng serve: table %s: %s", web.id, e)
            return JSONResponse({"error": "the server cannot keep the seat now (its database): try again later"}, 503)
        if claimed is not None:
            seat, key = claimed
            return JSONResponse({"seat": seat, "url": seat_link(web.id, seat, key)})
        return JSONResponse(
            {"error": "this table has no open seat left (a reserved seat is joined by its link)"}, status_code=409
        )

    async def posted_by_host(request: Request, refused: str) -> tuple[WebTable, dict] | Response:
        """A POST of the host's (its table's referee token in the body as ``token``): the table and the body, or the
        answer to give instead (the table's refusal; 403 with `refused` for a body without the token, before
        anything else in it is read)."""
        got = await posted_to_table(request)
        if isinstance(got, Response):
            return got
        web, body = got
        token = body.get("token") if isinstance(body, dict) else None
        if not isinstance(token, str) or not web.is_host(token):
            return JSONResponse({"error": refused}, status_code=403)
        return web, body

    async def hosted(request: Request) -> Response:
        """What the host's browser asks with the referee token it kept (``{"token": …}``, in the body: never in a
        URL a proxy logs) to show a table's links again after a reload: whether the token is this table's (a table
        of the same id on a server that lost its tables is another table: 403), which invitations are still unused,
        whether the game is over. Nothing the host may not know: no seed, no key, no invitation."""
        got = await posted_by_host(request, "this needs the table's referee token (its host's)")
        if isinstance(got, Response):
            return got
        web, _body = got
        return JSONResponse({"table": web.id, "over": web.over(), **web.invitations()})

    async def reinvite(request: Request) -> Response:
        """A fresh invitation for a reserved seat nobody took yet, for its host (``{"token": …, "seat": n}``, the
        referee token in the body): its invitation was lost (a browser cleared, a table made from a script whose
        answer was not kept) or sent to the wrong person. The old one opens nothing from then on. The token is
        checked before the seat is read (a 403 tells nothing of any seat), the new invitation written before it is
        answered (a database that cannot take it: 503, and the old one still works), and the answer holds that
        seat's invitation alone."""
        got = await posted_by_host(
            request, "a new invitation needs the table's referee token (its host's), in the body"
        )
        if isinstance(got, Response):
            return got
        web, body = got
        seat = body.get("seat")
        try:
            invite = web.reissue(seat)  # (no await between the check and the write: a guest's join cannot interleave)
        except TableError as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        except StoreError as e:
            log.error("fengsheng serve: table %s: %s", web.id, e)
            return JSONResponse(
                {"error": "the server cannot keep a new invitation now (its database): the old one still works"}, 503
            )
        return JSONResponse({"seat": seat, "url": f"/table/{web.id}#seat={seat}&invite={invite}"})

    return [
        Route("/api/tables/{tid}/claim", claim, methods=["POST"]),
        Route("/api/tables/{tid}/host", hosted, methods=["POST"]),
        Route("/api/tables/{tid}/invite", reinvite, methods=["POST"]),
    ]
