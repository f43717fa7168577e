"""``fengsheng serve`` trusts only its own pages and holds to its limits: allowed hosts and origins on HTTP and
websockets, JSON-only POSTs, bounded bodies, numbers, frames, tables and sockets — each refused with a clear error
(an HTTP status and ``{"error": …}``, or a websocket close code and reason), never a traceback."""

from __future__ import annotations

import contextlib
import logging
import re
import socket
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the optional extra `web` (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from click.testing import CliRunner
from starlette.websockets import WebSocketDisconnect
from web_helpers import make_app

from interpreter.cli import main
from interpreter.web.guard import Limits, default_hosts, default_origins, host_of, read_json


@pytest.fixture(autouse=True)
def _port_free(monkeypatch):
    """These tests start no server (uvicorn.run is replaced) on fixed ports (8000, 8080) that a real server on this
    machine may hold: the check that serve can listen there is test_serve_listen.py's."""
    monkeypatch.setattr("interpreter.serve_cmd.cannot_listen", lambda host, port: None)


GOOD = {"origin": "http://testserver"}
EVIL = {"origin": "http://evil.example"}


def _client(limits: Limits | None = None, **kw) -> TestClient:
    return TestClient(make_app(limits=limits), **kw)


def _table(client, seats=("human", "random"), **extra) -> dict:
    r = client.post("/api/tables", json={"seats": list(seats), "seed": 3, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def _key(made: dict) -> str:
    return made["seat"]["url"].split("token=")[1]


def _closed(ws) -> WebSocketDisconnect:
    """Read a websocket until it is closed (the error message before it included); the close."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(10):
            ws.receive_text()
    return closed.value


def _until(ws, kind: str) -> dict:
    """The next message of type `kind` the websocket is sent (the people and state messages before it skipped)."""
    for _ in range(20):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def _finish(client, made: dict) -> None:
    """Play a table of one human seat to its end at that seat (the first legal answer at each decision)."""
    with client.websocket_connect(f"/ws/{made['table']['id']}") as ws:
        ws.send_json({"type": "join", "token": _key(made)})
        msg = ws.receive_json()
        while not msg["over"]:
            ws.send_json({"type": "act", "seq": msg["seq"], "action": msg["actions"][0]["id"]})
            msg = ws.receive_json()


# ---------------------------------------------------------------------- hosts and origins


def test_a_request_for_another_host_is_refused_on_http_and_websocket():
    with _client() as client:
        assert client.get("/").status_code == 200
        r = client.get("/api/tables", headers={"host": "evil.example"})
        assert r.status_code == 400 and "evil.example" in r.json()["error"] and "--allowed-host" in r.json()["error"]
        # (a DNS-rebinding page reaches 127.0.0.1 under its own name: its Host is refused)
        r = client.post("/api/tables", json={"seats": ["human", "random"]}, headers={"host": "evil.example:8000"})
        assert r.status_code == 400 and client.get("/api/tables").json()["tables"] == []
        with client.websocket_connect("/ws/t1", headers={"host": "evil.example"}) as ws:
            closed = _closed(ws)
        assert closed.code == 1008 and "evil.example" in closed.reason


def test_the_fully_qualified_form_of_an_allowed_host_is_that_host_and_nothing_else():
    """``localhost.`` is ``localhost`` (the trailing dot of a fully qualified name: DNS and the browser take both),
    so a page opened at ``http://localhost.:8000/`` may use the server its address names; two dots, or the dotted
    form of a host not allowed, are still refused."""
    from interpreter.web.guard import answers_for

    for host, allowed in [
        ("localhost.", True),
        ("LocalHost.", True),
        ("localhost..", False),
        ("localhost.evil.", False),
        ("evil.", False),
        ("play.example.org.", True),  # (an allowed *.example.org)
        ("example.org.evil.example.", False),
    ]:
        assert answers_for(host, ["localhost", "*.example.org"]) is allowed, host
    assert answers_for("example.org", ["example.org."])  # (an --allowed-host given in the dotted form)
    # a dot after no name is no fully qualified form: an --allowed-host '*.' (a wildcard half written) or '.' does not
    # become '*', which answers for every host (a DNS-rebinding page's too)
    for pattern in ("*.", "."):
        assert not answers_for("evil.example", [pattern]) and not answers_for("localhost", [pattern]), pattern
    with _client() as client:
        dotted = {"host": "testserver.", "origin": "http://testserver."}
        assert client.get("/api/tables", headers={"host": "testserver.:80"}).status_code == 200
        made = client.post("/api/tables", json={"seats": ["human", "random"], "seed": 3}, headers=dotted)
        assert made.status_code == 200, made.text
        with client.websocket_connect("/ws/t1", headers=dotted) as ws:
            ws.send_json({"type": "join", "token": _key(made.json())})
            assert ws.receive_json()["type"] == "state"
        for refused in ("testserver..", "evil.example."):
            r = client.get("/api/tables", headers={"host": refused})
            assert r.status_code == 400 and refused in r.json()["error"]
        r = client.post("/api/tables", json={"seats": ["human", "random"]}, headers={"origin": "http://testserver.."})
        assert r.status_code == 403


def test_a_page_of_another_origin_may_not_post_or_open_a_websocket():
    with _client() as client:
        r = client.post("/api/tables", json={"seats": ["human", "random"]}, headers=EVIL)
        assert r.status_code == 403 and "evil.example" in r.json()["error"] and "--allowed-origin" in r.json()["error"]
        assert client.get("/api/tables").json()["tables"] == []
        made = _table(client, ("human", "random", "open"))  # no Origin (not a browser): allowed
        assert client.post("/api/tables", json={"seats": ["human", "random"]}, headers=GOOD).status_code == 200
        # a cross-origin claim of an open seat, and a cross-origin websocket with a seat's key: refused
        assert client.post("/api/tables/t1/claim", json={}, headers=EVIL).status_code == 403
        assert client.get("/api/tables").json()["tables"][0]["seats"][2]["open"] is True
        with client.websocket_connect("/ws/t1", headers=EVIL) as ws:
            closed = _closed(ws)
        assert closed.code == 1008 and "evil.example" in closed.reason
        with client.websocket_connect("/ws/t1", headers=GOOD) as ws:
            ws.send_json({"type": "join", "token": _key(made)})
            assert ws.receive_json()["type"] == "state"
        # a GET from a link on another site is an ordinary visit
        assert client.get("/", headers=EVIL).status_code == 200


@pytest.mark.parametrize(
    ("kind", "body"),
    [
        ("text/plain", '{"seats": ["human", "random"]}'),
        ("application/x-www-form-urlencoded", "seats=human&seats=random"),
        (
            "multipart/form-data; boundary=x",
            '--x\r\nContent-Disposition: form-data; name="seats"\r\n\r\nhuman\r\n--x--',
        ),
        (None, '{"seats": ["human", "random"]}'),
    ],
)
def test_a_post_that_is_not_json_is_refused_with_415(kind, body):
    with _client() as client:
        headers = {"content-type": kind} if kind else {}
        r = client.post("/api/tables", content=body.encode(), headers=headers)
        assert r.status_code == 415 and "application/json" in r.json()["error"], r.text
        assert client.get("/api/tables").json()["tables"] == []
        _table(client, ("open", "random"))
        assert client.post("/api/tables/t1/claim", content=b"{}", headers=headers).status_code == 415
        assert client.get("/api/tables").json()["tables"][0]["seats"][0]["open"] is True


def _route_source(family: int, towards: str) -> str | None:
    """The address this machine sends from towards a network address (None: no route), as ``ip route get`` says."""
    with socket.socket(family, socket.SOCK_DGRAM) as s:
        try:
            s.connect((towards, 9))  # (a datagram socket's connect sends nothing)
        except OSError:
            return None
        return str(s.getsockname()[0])


def test_a_server_on_every_interface_answers_for_this_machines_network_address(monkeypatch):
    """Friends on the network open http://<the machine's address>:PORT/ (docs/play.md): that address is answered
    by default, though the machine's name may not resolve to it (Debian's /etc/hosts: 127.0.1.1); and the address
    the server prints to open is one it answers for (0.0.0.0 was printed, and refused: no host of its own)."""
    everywhere = default_hosts("0.0.0.0")
    mine = _route_source(socket.AF_INET, "192.0.2.1")
    if mine is None:
        pytest.skip("this machine has no IPv4 route to the network")
    assert mine in everywhere, everywhere
    pytest.importorskip("uvicorn")
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: None)
    r = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--port", "8080", "--db", ":memory:"])
    assert r.exit_code == 0, r.output
    opened = re.search(r"open http://(\S+):8080/", r.output)
    assert opened and opened.group(1) in everywhere, r.output


@pytest.mark.parametrize(
    ("bind", "allowed", "link"),
    [
        ("0.0.0.0", ["tables.example.org"], "tables.example.org"),
        ("127.0.0.1", ["proxy.example.org"], "proxy.example.org"),
        ("::", ["::1"], "[::1]"),
        ("0.0.0.0", ["*.example.org", "localhost"], "localhost"),
    ],
)
def test_the_link_printed_is_one_the_server_answers_for(monkeypatch, bind, allowed, link):
    """With --allowed-host the link serve prints names an allowed host: 'open http://localhost:8000/' (or the bind
    address) is refused with 400 when the hosts given do not name it."""
    pytest.importorskip("uvicorn")
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: None)
    words = ["serve", "--host", bind, "--port", "8080", "--db", ":memory:"]
    r = CliRunner().invoke(main, [*words, *(w for h in allowed for w in ("--allowed-host", h))])
    assert r.exit_code == 0, r.output
    assert f"open http://{link}:8080/ " in r.output, r.output


def test_behind_a_proxy_the_link_printed_is_the_proxys_origin(monkeypatch):
    """docs/play.md's reverse proxy: serve --allowed-host play.example.org --allowed-origin https://play.example.org
    printed 'open http://127.0.0.1:8000/', a host it refuses; the page to open is the proxy's."""
    pytest.importorskip("uvicorn")
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: None)
    words = ["serve", "--db", ":memory:", "--allowed-host", "play.example.org"]
    r = CliRunner().invoke(main, [*words, "--allowed-origin", "https://play.example.org"])
    assert r.exit_code == 0, r.output
    assert "open https://play.example.org/ " in r.output, r.output


def test_port_0_serves_on_a_free_port_that_the_link_and_the_guard_name(monkeypatch):
    """--port 0 (any free port): the link printed named port 0 and the Host and Origin the server answers for did
    too, so every page was refused; the server now takes a free port first and names it everywhere."""
    pytest.importorskip("uvicorn")
    started: list[dict] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: started.append(kw))
    r = CliRunner().invoke(main, ["serve", "--port", "0", "--db", ":memory:"])
    assert r.exit_code == 0, r.output
    port = started[0]["port"]
    assert port > 0 and f"open http://127.0.0.1:{port}/ " in r.output and ":0/" not in r.output, r.output
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))  # (free again: the server, which is not started here, would take it)


def test_the_defaults_are_the_servers_own_address():
    assert default_hosts("127.0.0.1") == ["127.0.0.1", "localhost", "::1"]
    assert default_hosts("192.168.1.20") == ["192.168.1.20"]
    everywhere = default_hosts("0.0.0.0")
    assert {"127.0.0.1", "localhost"} <= set(everywhere) and "0.0.0.0" not in everywhere
    assert default_origins(["127.0.0.1", "::1"], 8000) == ["http://127.0.0.1:8000", "http://[::1]:8000"]
    assert default_origins(["example.org"], 80) == ["http://example.org"]
    assert [host_of(h) for h in ("a.org:80", "[::1]:8000", "::1", "A.org", "", None)] == [
        "a.org",
        "::1",
        "::1",
        "a.org",
        None,
        None,
    ]


def test_serve_refuses_an_origin_that_is_not_one():
    result = CliRunner().invoke(main, ["serve", "--allowed-origin", "fengsheng.example.org"])
    assert result.exit_code == 2 and "scheme://host[:port]" in result.output, result.output


def test_serve_refuses_a_host_that_is_not_one():
    """An --allowed-host written as a URL (the origin's form) or with a port, empty, or a wildcard half written
    answered for no request a browser sends (each one 400; the port is not compared) or, '*.', for every host: a
    usage error says what a host is. An IPv6 address has colons, and stays allowed."""
    for wrong in ("https://play.example.org", "play.example.org:8000", "", " ", "*.", "play.*.org"):
        result = CliRunner().invoke(main, ["serve", "--allowed-host", wrong])
        assert result.exit_code == 2 and "a host is a name or an address" in result.output, (wrong, result.output)
    from interpreter.serve_cmd import host_problem

    right = ("::1", "[::1]", "*", "*.example.org", "play.example.org.", "127.0.0.1", "localhost")
    assert [host_problem(h) for h in right] == [None] * len(right)


def test_allowed_hosts_and_origins_for_a_reverse_proxy():
    from interpreter.content.loader import load_cached
    from interpreter.content.packs import parse_expansions, resolve_packs
    from interpreter.web.app import create_app

    app = create_app(
        load_cached,
        lambda text: resolve_packs([], parse_expansions(text)),
        [],
        hosts=["*.example.org"],
        origins=["https://play.example.org"],
    )
    with TestClient(app, base_url="https://play.example.org") as client:
        ok = client.post(
            "/api/tables", json={"seats": ["human", "random"]}, headers={"origin": "https://play.example.org"}
        )
        assert ok.status_code == 200, ok.text
        assert client.get("/", headers={"host": "example.org.evil.example"}).status_code == 400
        other = client.post(
            "/api/tables", json={"seats": ["human", "random"]}, headers={"origin": "http://play.example.org"}
        )
        assert other.status_code == 403


# ---------------------------------------------------------------------- bodies and numbers


def test_bodies_and_numbers_are_bounded():
    with _client() as client:
        big = client.post("/api/tables", json={"seats": ["human", "random"], "pad": "x" * 20_000})
        assert big.status_code == 413 and "16,384 bytes" in big.json()["error"]
        # a 5,000-digit seed: Python cannot even read it (a ValueError, a 500 before); refused with a message
        huge = client.post(
            "/api/tables",
            content=b'{"seats": ["human", "random"], "seed": ' + b"9" * 5000 + b"}",
            headers={"content-type": "application/json"},
        )
        assert huge.status_code == 400 and "more than 80 digits" in huge.json()["error"]
        nested = client.post("/api/tables", content=b"[" * 900, headers={"content-type": "application/json"})
        assert nested.status_code in (400, 413) and "error" in nested.json()
        assert client.get("/api/tables").json()["tables"] == []
    assert read_json('{"a": ' + "9" * 80 + "}", 80) == {"a": int("9" * 80)}


# ---------------------------------------------------------------------- tables


def test_the_server_holds_a_bounded_number_of_tables_forgetting_finished_ones_first():
    with _client(Limits(tables=2, tables_per_client=0)) as client:
        first = _table(client)
        _table(client)
        full = client.post("/api/tables", json={"seats": ["human", "random"]})
        assert full.status_code == 503 and "2 unfinished tables" in full.json()["error"]
        _finish(client, first)
        assert client.post("/api/tables", json={"seats": ["human", "random"]}).status_code == 200
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == ["t2", "t3"]  # t1 made room
        assert client.get("/api/tables/t1/log?token=x").status_code == 404


def test_a_table_refused_on_the_way_forgets_no_finished_table():
    """The room for a new table was made (the oldest finished table forgotten, its logs with it) before the request's
    expansions, player count or pin were checked: a refused request cost a finished game its logs."""
    with _client(Limits(tables=2, tables_per_client=0)) as client:
        first = _table(client)
        _table(client)
        _finish(client, first)
        for wrong in ({"expansions": "nope"}, {"role": "nope"}):
            refused = client.post("/api/tables", json={"seats": ["human", "random"], **wrong})
            assert refused.status_code == 400, refused.json()
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == ["t1", "t2"]  # t1 kept
        assert client.post("/api/tables", json={"seats": ["human", "random"]}).status_code == 200
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == ["t2", "t3"]  # t1 made room now


def test_one_client_makes_a_bounded_number_of_unfinished_tables():
    app = make_app(limits=Limits(tables_per_client=2))
    with TestClient(app, client=("10.0.0.1", 1)) as one, TestClient(app, client=("10.0.0.2", 1)) as two:
        first = _table(one)
        _table(one)
        third = one.post("/api/tables", json={"seats": ["human", "random"]})
        assert third.status_code == 429 and "2 unfinished tables" in third.json()["error"]
        assert two.post("/api/tables", json={"seats": ["human", "random"]}).status_code == 200  # another address
        _finish(one, first)
        assert one.post("/api/tables", json={"seats": ["human", "random"]}).status_code == 200
    with TestClient(make_app(limits=Limits(tables_per_client=1)), client=("10.0.0.3", 1)) as three:
        _table(three)
        refused = three.post("/api/tables", json={"seats": ["human", "random"]})
        assert refused.status_code == 429 and refused.json()["error"].startswith("1 unfinished table made from")


# ---------------------------------------------------------------------- websockets


def test_a_seat_takes_a_bounded_number_of_websockets_its_newest_closing_its_oldest():
    """A seat holds at most Limits.sockets_per_seat websockets; one more closes the oldest (4409, the page told why)
    instead of being refused: the server cannot tell a dead socket (a phone that lost its network: no close ever
    comes) from a quiet one until a ping goes unanswered, and an honest player reconnecting must get in."""
    with _client(Limits(sockets_per_seat=2)) as client:
        key = _key(_table(client))
        web = client.app.state.tables.get("t1")
        with client.websocket_connect("/ws/t1") as a, client.websocket_connect("/ws/t1") as b:
            for ws in (a, b):
                ws.send_json({"type": "join", "token": key, "people": True})
                assert ws.receive_json()["type"] == "state"
            with client.websocket_connect("/ws/t1") as c:
                c.send_json({"type": "join", "token": key, "people": True})
                assert c.receive_json()["type"] == "state"  # (it was refused, 4429, while a and b were held)
                assert web.seats[0].connected == 2
                error = _until(a, "error")
                assert error["type"] == "error" and error["fatal"] and "在这里继续" in error["message"]
                closed = _closed(a)
                assert closed.code == 4409 and "newer window" in closed.reason
                for ws, text in ((b, "b is still here"), (c, "c too")):  # the newer two both work
                    ws.send_json({"type": "chat", "text": text})
                    assert [_until(x, "chat")["lines"][0]["text"] for x in (b, c)] == [text, text]


def test_a_flood_of_websockets_on_one_seat_holds_no_more_than_the_limit():
    """Sockets opened and never read or closed (dead peers, or a flood with the seat's key): each new one takes the
    place of the oldest, so the seat never holds more than the limit, and the last one opened plays."""
    with _client(Limits(sockets_per_seat=3)) as client:
        key = _key(_table(client))
        web = client.app.state.tables.get("t1")
        with contextlib.ExitStack() as stack:
            opened = []
            for _ in range(8):
                ws = stack.enter_context(client.websocket_connect("/ws/t1"))
                ws.send_json({"type": "join", "token": key, "people": True})
                assert ws.receive_json()["type"] == "state"
                opened.append(ws)
                assert web.seats[0].connected <= 3
            assert web.seats[0].connected == 3
            for old in opened[:5]:
                assert _closed(old).code == 4409
            opened[-1].send_json({"type": "chat", "text": "here"})
            assert _until(opened[-1], "chat")["lines"] == [{"seat": 0, "name": "P0", "text": "here"}]


def _comes_back(ws) -> str:
    """The message a closing socket's page is sent when it may come back by itself (table.js tries again, later and
    later): not fatal, in Chinese."""
    error = ws.receive_json()
    assert error["type"] == "error" and error["retry"] is True and error["fatal"] is False, error
    return error["message"]


def test_the_server_takes_a_bounded_number_of_websockets():
    """Beyond the limit a websocket is closed with 1013, try again later: its page is told so, and that it may
    come back (it was told it was fatal, and gave up until a reload, though the server was only busy)."""
    with _client(Limits(sockets=1)) as client:
        key = _key(_table(client))
        with client.websocket_connect("/ws/t1") as a:
            a.send_json({"type": "join", "token": key})
            assert a.receive_json()["type"] == "state"
            with client.websocket_connect("/ws/t1") as b:
                assert "连接满了" in _comes_back(b)
                closed = _closed(b)
            assert closed.code == 1013 and "try again later" in closed.reason


def test_a_table_takes_a_bounded_number_of_spectators_who_may_come_back():
    """At Limits.watchers_per_table spectators one more is closed with 4429, told the gallery is full and that it
    may come back (it was told to come back later, and its page gave up until a reload); one who left makes room.
    A seat's person is never refused for the spectators."""
    with _client(Limits(watchers_per_table=1)) as client:
        key = _key(_table(client))
        web = client.app.state.tables.get("t1")
        with client.websocket_connect("/ws/t1") as first:
            first.send_json({"type": "join", "watch": True})
            assert first.receive_json()["type"] == "state"
            with client.websocket_connect("/ws/t1") as second:
                second.send_json({"type": "join", "watch": True})
                assert "观战的人满了（最多 1 人）" in _comes_back(second)
                closed = _closed(second)
            assert closed.code == 4429 and "1 spectators" in closed.reason and web.watching == 1
            with client.websocket_connect("/ws/t1") as seat:
                seat.send_json({"type": "join", "token": key})
                assert seat.receive_json()["seat"] == 0
        with client.websocket_connect("/ws/t1") as again:
            again.send_json({"type": "join", "watch": True})
            assert again.receive_json()["type"] == "state" and web.watching == 1


def test_a_websocket_that_never_joins_is_closed():
    with _client(Limits(join_seconds=0.05)) as client, client.websocket_connect("/ws/t1") as ws:
        assert "秒内没有收到" in _comes_back(ws)  # (a join lost on a slow link: the page tries again)
        closed = _closed(ws)
    assert closed.code == 4408 and "no join message" in closed.reason


def test_the_page_tries_again_after_exactly_the_closes_the_server_says_may_pass():
    """table.js's FINAL_CLOSES (it gives up, its message says why) are the close codes of guard.py that are not
    CLOSE_RETRY (it tries again, later and later): a code added to one side alone would leave a page giving up on a
    busy server, or asking a forged key again for ever."""
    from interpreter.web import guard

    codes = {v for k, v in vars(guard).items() if k.startswith("CLOSE_") and isinstance(v, int)}
    script = (Path(guard.__file__).parent / "static" / "table.js").read_text(encoding="utf-8")
    final = re.search(r"FINAL_CLOSES = new Set\(\[([\d, ]+)\]\)", script)
    assert final is not None
    assert {int(c) for c in final.group(1).split(",")} == codes - guard.CLOSE_RETRY
    assert codes >= guard.CLOSE_RETRY and guard.CLOSE_FORBIDDEN not in guard.CLOSE_RETRY


@pytest.mark.parametrize(
    ("frame", "code", "reason"),
    [
        # 5,000 digits: Python will not read it (an uncaught ValueError in seat_socket before): too big a frame
        pytest.param(
            '{"type": "act", "seq": 1, "action": ' + "7" * 5000 + "}", 1009, "at most 4,096", id="5000-digits"
        ),
        pytest.param('{"type": "act", "seq": 1, "action": ' + "7" * 200 + "}", 4400, "more than 80 digits", id="200"),
        pytest.param('{"type": "act", "seq": ' + "1" * 200 + ', "action": 1}', 4400, "more than 80 digits", id="ply"),
        pytest.param('{"type": "act", "pad": "' + "x" * 5000 + '"}', 1009, "at most 4,096 bytes", id="long"),
        pytest.param("not json", 4400, "not JSON", id="not-json"),
        pytest.param("[" * 2000, 4400, "not JSON", id="nested"),
        pytest.param(b'{"type": "act"}', 4400, "text frames", id="binary"),
    ],
)
def test_a_bad_frame_closes_the_socket_with_a_code_and_a_reason_never_a_traceback(frame, code, reason, caplog):
    with _client() as client:
        key = _key(_table(client))
        for joined in (False, True):  # as the join message, and after it
            with client.websocket_connect("/ws/t1") as ws:
                if joined:
                    ws.send_json({"type": "join", "token": key})
                    assert ws.receive_json()["type"] == "state"
                if isinstance(frame, bytes):
                    ws.send_bytes(frame)
                else:
                    ws.send_text(frame)
                closed = _closed(ws)
            assert closed.code == code and reason in closed.reason, (closed.code, closed.reason)
        with client.websocket_connect("/ws/t1") as ws:  # the table plays on
            ws.send_json({"type": "join", "token": key})
            assert ws.receive_json()["type"] == "state"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_long_action_id_within_the_bound_is_an_illegal_action():
    """A whole number of 80 digits is read; the engine refuses it as an action it did not offer (it raised a
    plain ValueError for a number too long to print) and the seat is asked again."""
    with _client() as client:
        key = _key(_table(client))
        with client.websocket_connect("/ws/t1") as ws:
            ws.send_json({"type": "join", "token": key})
            state = ws.receive_json()
            ws.send_text(f'{{"type": "act", "seq": {state["seq"]}, "action": {"9" * 80}}}')
            error = ws.receive_json()
            assert error["type"] == "error" and "不是现在合法的选择" in error["message"] and len(error["message"]) < 200
            assert ws.receive_json()["type"] == "state"
