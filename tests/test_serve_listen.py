"""`fengsheng serve` on an address it cannot listen on says so in one line, before it prints a link to open.

Found by a newcomer's walk-through: a second `fengsheng serve` (with another --db) on a port already in use printed
"open http://127.0.0.1:8000/" — the other program's page — and then uvicorn's "[Errno 98] error while attempting to
bind", exit 3."""

from __future__ import annotations

import socket

import pytest
from click.testing import CliRunner

from interpreter.cli import main

pytest.importorskip("uvicorn")


def _serve(monkeypatch, *words: str):
    started: list = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: started.append(kw))
    return CliRunner().invoke(main, ["serve", "--db", ":memory:", *words]), started


def test_a_port_in_use_is_one_clear_line_and_no_link(monkeypatch):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r, started = _serve(monkeypatch, "--port", str(port))
    assert r.exit_code == 1, r.output
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in r.output and "--port" in r.output
    assert "open http" not in r.output and "Traceback" not in r.output
    assert started == []  # the server was not started


def test_a_free_port_still_starts_the_server(monkeypatch):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    r, started = _serve(monkeypatch, "--port", str(port))
    assert r.exit_code == 0, r.output
    assert f"open http://127.0.0.1:{port}/" in r.output and started and started[0]["port"] == port


def test_a_host_that_is_not_this_machines_is_refused_before_the_link(monkeypatch):
    r, started = _serve(monkeypatch, "--host", "nosuch.invalid", "--port", "0", "--allowed-host", "nosuch.invalid")
    assert r.exit_code == 1, r.output
    assert "cannot listen on 'nosuch.invalid'" in r.output and "open http" not in r.output
    assert started == []


def test_an_address_family_this_machine_lacks_is_skipped_as_the_server_skips_it(monkeypatch):
    """localhost names ::1 too; on a machine without IPv6 a socket of that family cannot even be made, which the
    check let out as a traceback where uvicorn (asyncio) would have served on 127.0.0.1."""
    from interpreter.serve_cmd import cannot_listen

    real = socket.socket

    def no_ipv6(family=socket.AF_INET, *args, **kwargs):
        if family == socket.AF_INET6:
            raise OSError(97, "Address family not supported by protocol")
        return real(family, *args, **kwargs)

    with real() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # (free once this closes)

    def both(host, port, *args, **kwargs):  # (as a resolver that names localhost ::1 and 127.0.0.1)
        return [
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::1", port, 0, 0)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port)),
        ]

    monkeypatch.setattr(socket, "socket", no_ipv6)
    monkeypatch.setattr(socket, "getaddrinfo", both)
    assert cannot_listen("localhost", port) is None
    with real() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        assert "the port is in use" in (cannot_listen("localhost", taken) or "")  # (IPv4 still checked)
