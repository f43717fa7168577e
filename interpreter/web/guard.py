"""What ``fengsheng serve`` lets in: its own pages only (allowed hosts and origins), JSON bodies only, and limits.

A browser will send a request to this server from any page it visits: a cross-site form or ``text/plain``
POST needs no permission, a websocket carries its page's ``Origin`` but is not stopped by the browser, and a
DNS-rebinding page reaches a server on 127.0.0.1 under a name of its own. So every request and websocket must
name an allowed host (``Host``), and a POST or websocket coming from a page must come from an allowed origin
(``Origin``; a client that is not a browser sends none and cannot be a cross-site page); a POST must be JSON
(``application/json``: a cross-site page cannot send that without the browser asking first, and this server
answers no such question), and what it sends is bounded (:class:`Limits`). Each refusal is a clear error: an
HTTP status with ``{"error": …}``, or a websocket close code with a reason.

Importing this module imports nothing of Starlette: the app (``app.py``) does.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import jsonread

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
WILDCARD_BINDS = ("0.0.0.0", "::", "")

# websocket close codes (4000-4999 are the application's own; 1008, 1009, 1011, 1013 are the standard ones)
CLOSE_POLICY = 1008  # a page of another origin, or a host not served
CLOSE_TOO_BIG = 1009  # a frame over Limits.frame_bytes
CLOSE_ERROR = 1011  # the server failed on a frame (a bug): no traceback reaches the client
CLOSE_TRY_LATER = 1013  # the server holds Limits.sockets websockets already
CLOSE_BAD_FRAME = 4400  # not a JSON object of text, or a number too long
CLOSE_FORBIDDEN = 4403  # no seat of this table has that key (or the invitation was used)
CLOSE_NOT_FOUND = 4404  # no such table
CLOSE_SLOW = 4408  # no join message in time
CLOSE_REPLACED = 4409  # a seat's oldest websocket, closed to make room for its newest (Limits.sockets_per_seat)
CLOSE_TOO_MANY = 4429  # the table has Limits.watchers_per_table spectators' websockets already
# the closes after which a page tries again by itself (table.js, later and later): the server is busy or the link
# was slow, nothing is wrong with the page's key or table, and a person on a flaky connection would otherwise be
# stuck until a reload. The others are final (a forged or spent key, a table gone, another window took the seat's
# place, a page that sent what no page of this server sends): trying again would be refused again
CLOSE_RETRY = frozenset({CLOSE_ERROR, CLOSE_TRY_LATER, CLOSE_SLOW, CLOSE_TOO_MANY})


@dataclass(frozen=True)
class Limits:
    """What one server, one client and one seat may hold or send (``serve --max-tables`` … set the first two)."""

    tables: int = 100  # tables held; a finished table is forgotten to make room for a new one
    tables_per_client: int = 10  # unfinished tables made from one client address (0: no such limit)
    sockets: int = 1000  # websockets open in all
    sockets_per_seat: int = 4  # websockets open on one seat (windows of one person): a new one closes the oldest
    watchers_per_table: int = 100  # spectators' websockets open on one table
    frame_bytes: int = 4096  # one websocket message (an answer is a few dozen bytes)
    body_bytes: int = 16_384  # one JSON POST (the replay viewer's log has its own bound: app.MAX_UPLOAD)
    number_digits: int = 80  # one whole number in a JSON body or message (a seed has at most 78)
    join_seconds: float = 15.0  # from a websocket's opening to its join message


class Refused(Exception):
    """A request or a message this server does not take: the HTTP status (or close code) and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def read_json(text: str | bytes, digits: int) -> Any:
    """An HTTP body or a websocket frame through the one bounded JSON reader (jsonread.py: nesting, finite
    numbers, valid text), with every whole number of at most `digits` digits: anything else is Refused."""
    try:
        return jsonread.loads(text, max_digits=digits)
    except jsonread.JsonInputError as e:
        if e.reason.startswith("a number has more than"):
            raise Refused(400, e.reason) from None
        raise Refused(400, f"the request is not JSON fengsheng reads ({str(e)[:80]})") from None


def network_addresses() -> set[str]:
    """The addresses this machine sends from towards the rest of its network, one an address family (none without
    a route): those its friends open, which its own name often does not resolve to (Debian's /etc/hosts gives it
    127.0.1.1). A datagram socket's connect sends nothing; the system picks the source address of the route."""
    found = set()
    for family, towards in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):  # (documentation)
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((towards, 9))
                found.add(str(s.getsockname()[0]).split("%")[0])
        except OSError:
            continue
    return found


def default_hosts(bind: str) -> list[str]:
    """The host names a server bound to `bind` answers for by default: that address (and the loopback names for
    a loopback bind); for a bind to every interface (0.0.0.0, ::) this machine's names and addresses."""
    if bind in WILDCARD_BINDS:
        names = {*LOCAL_HOSTS, socket.gethostname(), socket.getfqdn(), *network_addresses()}
        for name in list(names):
            try:
                names.update(str(info[4][0]) for info in socket.getaddrinfo(name, None))
            except OSError:
                continue
        return sorted(n.lower() for n in names if n)
    if bind in LOCAL_HOSTS:
        return list(LOCAL_HOSTS)
    return [bind.lower()]


def open_link(bind: str, port: int, hosts: Sequence[str], origins: Sequence[str]) -> str:
    """The address serve prints to open: one the server answers for (a page asking for another host is refused,
    400). The bind address, or localhost for a bind to every interface, when `hosts` allow it; else the first
    origin of its pages (behind a reverse proxy: the proxy's), else the first host named (not a pattern)."""
    own = "localhost" if bind in WILDCARD_BINDS else bind
    named = [h for h in hosts if h != "*" and not h.startswith("*.")]
    if not answers_for(own, hosts) and origins:
        return origins[0].rstrip("/") + "/"
    host = own if answers_for(own, hosts) or not named else named[0]
    return (default_origins([host], port)[0]) + "/"


def _absolute(host: str) -> str:
    """A host name without the one trailing dot of its fully qualified form: ``example.org.`` is the host
    ``example.org`` (DNS resolves both to the same name; a browser keeps the dot it was given in ``Host`` and
    ``Origin``). Only one dot after a name: ``example.org..`` is no name, and stays as it is (and is refused); so do
    ``*.`` and ``.`` (an --allowed-host ``*.``, a wildcard half written, made ``*`` would answer for every host)."""
    name = host[:-1]
    return name if host.endswith(".") and name and not name.endswith(".") and name != "*" else host


def answers_for(host: str | None, hosts: Iterable[str]) -> bool:
    """Whether a server answering for `hosts` (names, addresses, ``*`` or ``*.example.org``) answers for `host`;
    the trailing-dot form of a name it answers for (``localhost.``) is that name."""
    if host is None:
        return False
    host = _absolute(host.lower())
    for pattern in hosts:
        pattern = _absolute(pattern.lower())
        if pattern == "*" or host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


def default_origins(hosts: Iterable[str], port: int) -> list[str]:
    """The origins of this server's own pages as a browser names them: ``http://HOST:PORT`` for each host."""
    out = []
    for host in hosts:
        name = f"[{host}]" if ":" in host else host
        out.append(f"http://{name}" if port == 80 else f"http://{name}:{port}")
    return out


def host_of(header: str | None) -> str | None:
    """The host name of a ``Host`` header, without its port, lower case (None if there is none)."""
    if not header:
        return None
    header = header.strip().lower()
    if header.startswith("["):  # [::1]:8000
        end = header.find("]")
        return header[1:end] if end > 0 else None
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _origin(origin: str) -> str:
    """An origin as compared: lower case, no trailing slash, its host without the trailing dot of its fully
    qualified form (a page opened at ``http://localhost.:8000/`` sends ``Origin: http://localhost.:8000``, and is a
    page of ``http://localhost:8000``)."""
    origin = origin.lower().rstrip("/")
    scheme, sep, rest = origin.partition("://")
    if not sep:
        return origin
    host, colon, port = rest.rpartition(":") if not rest.endswith("]") and ":" in rest else (rest, "", "")
    return f"{scheme}://{_absolute(host)}{colon}{port}"


Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


class Guard:
    """ASGI middleware: every request and websocket names an allowed host; a POST or websocket sent by a page
    comes from an allowed origin; a POST's body is JSON (``application/json``; the replay viewer's upload may
    also say ``application/jsonl``). Refused: HTTP 400/403/415 with ``{"error": …}``, a websocket closed as soon
    as it opens, before anything is read from it (close code 1008 and the reason)."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str], origins: Sequence[str]) -> None:
        self.app = app
        self.hosts = [h.lower() for h in hosts]
        self.origins = {_origin(o) for o in origins}

    def host_allowed(self, host: str | None) -> bool:
        return answers_for(host, self.hosts)

    def refusal(self, scope: Scope) -> Refused | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        host = host_of(headers.get("host"))
        if not self.host_allowed(host):
            return Refused(
                400,
                f"this server does not answer for the host {str(host)[:60]!r} (serve --allowed-host names the hosts "
                "it answers for)",
            )
        origin = headers.get("origin")
        unsafe = scope["type"] == "websocket" or scope.get("method") not in ("GET", "HEAD", "OPTIONS")
        if unsafe and origin is not None and _origin(origin) not in self.origins:
            return Refused(
                403,
                f"a page of {origin[:60]!r} may not use this server (serve --allowed-origin names the origins of its "
                "pages)",
            )
        if scope["type"] == "http" and unsafe:
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            allowed = ("application/json", "application/jsonl") if scope.get("path") == "/api/replay" else None
            if kind not in (allowed or ("application/json",)):
                return Refused(
                    415, f"send the body as JSON (Content-Type: application/json), not {kind or 'no type'!r}"
                )
        return None

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope)
        if refused is None:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":  # opened only to be closed at once: the reason travels in the close frame
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": CLOSE_POLICY, "reason": refused.message[:120]})
            return
        body = json.dumps({"error": refused.message}, ensure_ascii=False).encode("utf-8")
        await send(
            {
                "type": "http.response.start",
                "status": refused.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
