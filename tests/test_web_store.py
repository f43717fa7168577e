"""``fengsheng serve``'s database (interpreter/web/store.py): tables restored at the same ply with the same links,
no key and no seed where a seat can read it, finished tables kept for their logs and then expired, a foreign or
damaged file refused in one line; and a real server killed with SIGKILL mid-game, restarted, finishing its games
with the logs of a run that was never interrupted."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the optional extra `web` (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():  # starlette 1.x prefers httpx2 for its test client; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from web_helpers import database_folder, make_app

from conftest import fengsheng
from interpreter.web.guard import CLOSE_NOT_FOUND
from interpreter.web.links import digest
from interpreter.web.store import APPLICATION_ID, Store, StoreError


@pytest.fixture(autouse=True)
def _port_free(monkeypatch):
    """These tests start no server (uvicorn.run is replaced) on fixed ports (8000, 8080) that a real server on this
    machine may hold: the check that serve can listen there is test_serve_listen.py's."""
    monkeypatch.setattr("interpreter.serve_cmd.cannot_listen", lambda host, port: None)


ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def folder(tmp_path):
    """Where a test's database goes: in memory where the system has room for it (web_helpers.database_folder)."""
    with database_folder(tmp_path) as where:
        yield where


def _token(url: str) -> str:
    return url.split("token=", 1)[1]


def _invite(url: str) -> str:
    return url.split("invite=", 1)[1]


def _play(client, web, answers: int) -> None:
    """`answers` decisions of the table's human seats (each its first legal action), with the bots between; on
    the app's event loop thread (a game is driven from the thread it was dealt on)."""
    client.portal.call(_played, web, answers)


def _played(web, answers: int) -> None:
    while not web.over() and answers > 0:
        if web.bot_to_move():
            web.bot_answered(web.bot_question()())
            continue
        seat = web.waiting_for()
        assert web.act(seat, web.seq(seat), web.state.legal_actions()[0]) is None
        answers -= 1
    while web.bot_to_move():
        web.bot_answered(web.bot_question()())


def _screens(web) -> dict:
    return {s: web.message(s, 0)[0] for s in range(web.players) if s in web.seats}


def test_a_restarted_server_has_every_table_at_the_same_ply_with_the_same_links(folder):
    db = folder / "tables.sqlite3"
    with TestClient(make_app(store=Store(db))) as c:
        a = c.post("/api/tables", json={"seats": ["human", "human", "heuristic", "random", "open"], "seed": 5}).json()
        b = c.post("/api/tables", json={"seats": ["human", "human", "random"], "seed": 6, "host_seat": None}).json()
        done = c.post("/api/tables", json={"seats": ["human", "random", "random"], "seed": 8}).json()
        tables = c.app.state.tables
        ta, tb, tc = (tables.get(m["table"]["id"]) for m in (a, b, done))
        host_key = _token(a["seat"]["url"])
        opened = c.post(f"/api/tables/{ta.id}/claim", json={}).json()
        with c.websocket_connect(f"/ws/{ta.id}") as ws:  # P1's invitation used: its key
            ws.send_json({"type": "join", "invite": _invite(a["invites"][0]["url"])})
            p1_key = ws.receive_json()["token"]
        _play(c, ta, 12)
        _play(c, tc, 10_000)
        assert tc.over() and not ta.over()
        before = {t.id: (_screens(t), {s: t.seq(s) for s in t.seats}, t.state.history()) for t in (ta, tb, tc)}
        referee_log = c.get(done["log"]).text
        tables.store.close()  # (the server stops: its lock on the database goes)

    with TestClient(make_app(store=Store(db))) as c:
        tables = c.app.state.tables
        assert c.app.state.restore_problems == []
        for tid, (screens, seqs, history) in before.items():
            web = tables.get(tid)
            assert web.state.history() == history
            assert _screens(web) == screens and {s: web.seq(s) for s in web.seats} == seqs
        # the same links open the same seats; a used invitation stays used, an unused one still works once
        with c.websocket_connect(f"/ws/{ta.id}") as ws:
            ws.send_json({"type": "join", "token": host_key})
            assert ws.receive_json()["seat"] == 0
        with c.websocket_connect(f"/ws/{ta.id}") as ws:
            ws.send_json({"type": "join", "token": _token(opened["url"])})
            assert ws.receive_json()["seat"] == 4
        with c.websocket_connect(f"/ws/{ta.id}") as ws:
            ws.send_json({"type": "join", "invite": _invite(a["invites"][0]["url"])})
            assert "已经用过" in ws.receive_json()["message"]
        with c.websocket_connect(f"/ws/{ta.id}") as ws:
            ws.send_json({"type": "join", "token": p1_key})
            assert ws.receive_json()["seat"] == 1
        with c.websocket_connect(f"/ws/{tb.id}") as ws:
            ws.send_json({"type": "join", "invite": _invite(b["invites"][1]["url"])})
            assert ws.receive_json()["type"] == "key"
        assert c.post(f"/api/tables/{ta.id}/claim", json={}).status_code == 409  # the open seat was taken before
        # the finished table's referee log, and the game played on to the same end as one never stopped
        assert c.get(done["log"]).text == referee_log
        # the restored table plays on; its next table gets a new number
        _play(c, tables.get(ta.id), 10_000)
        assert tables.get(ta.id).over()
        made = c.post("/api/tables", json={"seats": ["human", "random", "random"]}).json()
        assert made["table"]["id"] == "t4"


def test_a_table_that_cannot_be_restored_is_named_once_and_kept(folder, caplog):
    """A kept table whose actions no longer replay is named on the server's output once — by the `restored` report
    the command prints — not a second time in the app's log, and stays in the database, unplayed."""
    db = folder / "tables.sqlite3"
    with TestClient(make_app(store=Store(db))) as c:
        made = c.post("/api/tables", json={"seats": ["human", "random", "random"], "seed": 3}).json()
        c.app.state.tables.store.close()
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("UPDATE actions SET action = 999999 WHERE n = 0")
    told: list[str] = []
    caplog.set_level(logging.WARNING)
    with TestClient(make_app(store=Store(db), restored=lambda tables, problems: told.extend(problems))) as c:
        assert c.app.state.tables.tables == {}
        c.app.state.tables.store.close()
    tid = made["table"]["id"]
    assert told == [
        f"table {tid} was not restored: its action 1 (999999) is not legal in this game (other content, "
        "or another version?)"
    ]
    assert not [r for r in caplog.records if "was not restored" in r.getMessage()]
    kept = Store(db)
    assert [k.id for k in kept.tables()] == [tid]
    kept.close()


def _kept_not_restored(db: Path, finished: float | None = None) -> dict:
    """A table made in the database `db`, whose first action is then made one no game has (and its game said to have
    ended at `finished`, if given): the next start keeps it but cannot restore it. The answer that made it."""
    with TestClient(make_app(store=Store(db))) as c:
        made = c.post("/api/tables", json={"seats": ["human", "human", "random"], "seed": 3}).json()
        c.app.state.tables.store.close()
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("UPDATE actions SET action = 999999 WHERE n = 0")
        if finished is not None:
            raw.execute("UPDATE tables SET finished = ?", (finished,))
    return made


def _table_routes(c, tid: str, token: str) -> list[int]:
    """The status of every HTTP route of table `tid`, asked with its referee token."""
    return [
        c.post(f"/api/tables/{tid}/host", json={"token": token}).status_code,
        c.post(f"/api/tables/{tid}/invite", json={"token": token, "seat": 1}).status_code,
        c.post(f"/api/tables/{tid}/claim", json={}).status_code,
        c.get(f"/api/tables/{tid}/log", params={"token": token}).status_code,
        c.get(f"/api/tables/{tid}/chat", params={"token": token}).status_code,
    ]


def test_a_table_kept_but_not_restored_is_gone_410_and_named_in_the_lobby_and_no_table_is_404(folder):
    """A table the database keeps but this start could not restore is not a table that does not exist: every HTTP
    route of it answers 410 (Gone) with what the server's owner can do, and the lobby's list names it (the lobby's
    page forgets the links it keeps of a table on a 404 alone: common.js hostStatus, lobby.js refresh); a table that
    was never made is 404."""
    db = folder / "tables.sqlite3"
    made = _kept_not_restored(db)
    tid, token = made["table"]["id"], _token(made["log"])
    with TestClient(make_app(store=Store(db), restored=lambda tables, problems: None)) as c:
        assert c.app.state.tables.tables == {}
        assert c.get("/api/tables").json() == {"tables": [], "unrestored": [tid]}
        assert _table_routes(c, tid, token) == [410] * 5
        said = c.post(f"/api/tables/{tid}/host", json={"token": token}).json()["error"]
        assert f"table {tid} is kept" in said and "restart the server" in said, said
        assert _table_routes(c, "t9", token) == [404] * 5
        c.app.state.tables.store.close()


def test_a_finished_table_kept_but_not_restored_is_gone_404_once_its_time_is_up(folder):
    """A finished table is kept for the time the database keeps finished tables (serve --keep-finished), restored
    or not: past it, a table that was not restored is deleted and said to be gone (404, and no longer in the
    lobby's list), not still kept."""
    db = folder / "tables.sqlite3"
    made = _kept_not_restored(db, finished=time.time())
    tid, token = made["table"]["id"], _token(made["log"])
    store = Store(db, keep=3600)
    with TestClient(make_app(store=store, restored=lambda tables, problems: None)) as c:
        assert _table_routes(c, tid, token) == [410] * 5
        store.keep = 0  # (an hour later)
        assert _table_routes(c, tid, token) == [404] * 5
        assert c.get("/api/tables").json() == {"tables": [], "unrestored": []}
        assert store.tables() == []
        store.close()


def test_a_database_that_cannot_be_read_at_expiry_breaks_neither_the_lobby_nor_a_table(folder):
    """Expiry runs as a side job of the lobby's list and of a table's routes once a finished table that was not
    restored is due: a database that fails to read then (an I/O error) answered 500 there. Now the table is said to
    be gone (its time is up) and stays in the file until the next expiry deletes it."""
    db = folder / "tables.sqlite3"
    made = _kept_not_restored(db, finished=time.time())
    tid, token = made["table"]["id"], _token(made["log"])
    store = Store(db, keep=3600)

    class _Broken:
        def execute(self, *args):
            raise sqlite3.OperationalError("disk I/O error")

    with TestClient(make_app(store=store, restored=lambda tables, problems: None)) as c:
        store.keep = 0  # (due)
        real, store._db = store._db, _Broken()
        try:  # (its time is up: gone, said so, though the file could not be read to delete it now)
            listed = c.get("/api/tables")
            assert listed.status_code == 200 and listed.json() == {"tables": [], "unrestored": []}, listed.text
            assert _table_routes(c, tid, token) == [404] * 5
        finally:
            store._db = real
        assert [t.id for t in store.tables()] == [tid]  # (still in the file: the next expiry deletes it)
        c.app.state.tables.expire()
        assert store.tables() == []
        store.close()


def test_the_database_holds_digests_never_a_key_and_the_seed_reaches_no_seat(folder):
    db = folder / "tables.sqlite3"
    with TestClient(make_app(store=Store(db))) as c:
        made = c.post("/api/tables", json={"seats": ["human", "human", "random", "open"]}).json()
        opened = c.post(f"/api/tables/{made['table']['id']}/claim", json={}).json()
        web = c.app.state.tables.get(made["table"]["id"])
        with c.websocket_connect(f"/ws/{web.id}") as ws:
            ws.send_json({"type": "join", "invite": _invite(made["invites"][0]["url"])})
            invited = ws.receive_json()["token"]
            state = ws.receive_json()
        secrets = [_token(made["seat"]["url"]), _token(opened["url"]), invited, _token(made["log"])]
        secrets.append(_invite(made["invites"][0]["url"]))
        raw = b"".join(p.read_bytes() for p in folder.iterdir() if p.name.startswith("tables.sqlite3"))
        for secret in secrets:
            assert secret.encode() not in raw and digest(secret).encode() in raw
        seed = str(web.table.setup.seed)
        assert seed.encode() in raw  # the database keeps the seed ...
        assert seed not in json.dumps(made) + json.dumps(opened) + json.dumps(state) + c.get("/api/tables").text
        assert oct(db.stat().st_mode & 0o777) == "0o600"  # ... so only its owner reads it


def test_a_replaced_invitation_is_written_before_it_is_answered_and_stays_replaced_after_a_restart(folder):
    """The host's new invitation for a seat nobody took (POST /api/tables/<id>/invite) is in the database (its
    digest, never itself) by the time the host has it: a server restarted then opens the seat with the new one and
    refuses the old one, as the server that answered did."""
    db = folder / "tables.sqlite3"
    with TestClient(make_app(store=Store(db))) as c:
        made = c.post("/api/tables", json={"seats": ["human", "human", "random"]}).json()
        r = c.post("/api/tables/t1/invite", json={"token": _token(made["log"]), "seat": 1})
        fresh = _invite(r.json()["url"])
        kept = next(t for t in c.app.state.tables.store.tables() if t.id == "t1").seats[1]
        assert kept.invite == digest(fresh) and not kept.claimed
        c.app.state.tables.store.close()  # (the server stops: its lock on the database goes)
    assert fresh.encode() not in db.read_bytes()
    with TestClient(make_app(store=Store(db))) as c:
        for invite, answer in ((_invite(made["invites"][0]["url"]), "error"), (fresh, "key")):
            with c.websocket_connect("/ws/t1") as ws:
                ws.send_json({"type": "join", "invite": invite})
                assert ws.receive_json()["type"] == answer
        c.app.state.tables.store.close()


def test_finished_tables_are_kept_for_the_time_given_then_deleted(folder):
    db = folder / "tables.sqlite3"
    with TestClient(make_app(store=Store(db))) as c:
        c.post("/api/tables", json={"seats": ["human", "random", "random"], "seed": 8})
        c.post("/api/tables", json={"seats": ["human", "random", "random"], "seed": 9})
        _play(c, c.app.state.tables.get("t1"), 10_000)
        c.app.state.tables.store.close()
    store = Store(db, keep=3600)
    with TestClient(make_app(store=store)) as c:
        tables = c.app.state.tables
        assert sorted(tables.tables) == ["t1", "t2"]
        tables.expire(now=time.time() + 3599)
        assert sorted(tables.tables) == ["t1", "t2"]
        tables.expire(now=time.time() + 3601)  # the finished one goes (logs and all), the one on stays
        assert sorted(tables.tables) == ["t2"] and [t.id for t in store.tables()] == ["t2"]
        assert c.get("/api/tables/t1/log?token=x").status_code == 404
        store.close()


def test_a_finished_table_is_gone_at_its_next_request_once_its_time_is_up_restored_or_not(folder):
    """A finished table is kept for the time given (serve --keep-finished), then gone: at its next request and from
    the lobby's list, whether it finished at this server or was restored finished. Expiry ran only at the start and
    when a table was made, so a table nobody made room for stayed readable, logs and all, past its time."""
    db = folder / "tables.sqlite3"
    with TestClient(make_app(store=Store(db))) as c:
        made = [c.post("/api/tables", json={"seats": ["human", "random", "random"], "seed": s}).json() for s in (8, 9)]
        _play(c, c.app.state.tables.get("t1"), 10_000)
        c.app.state.tables.store.close()
    for finish_here in (False, True):  # restored finished, then finished while this server runs
        store = Store(db, keep=3600)
        with TestClient(make_app(store=store)) as c:
            tables = c.app.state.tables
            if finish_here:
                _play(c, tables.get("t2"), 10_000)
            tid, token = ("t2", _token(made[1]["log"])) if finish_here else ("t1", _token(made[0]["log"]))
            assert c.get(f"/api/tables/{tid}/log", params={"token": token}).status_code == 200
            assert tid in [t["id"] for t in c.get("/api/tables").json()["tables"]]
            store.keep = 0  # (its time is up)
            assert c.get(f"/api/tables/{tid}/log", params={"token": token}).status_code == 404
            assert tid not in [t["id"] for t in c.get("/api/tables").json()["tables"]]
            assert tid not in [t.id for t in store.tables()]  # (deleted, logs and all)
            store.close()


def test_a_page_open_on_a_finished_table_past_its_time_is_closed_and_its_chat_kept_no_more(folder):
    """A finished table's page may stay open past --keep-finished (its people chatting after the game): once the
    table is gone (deleted at the lobby's list here), the next message of its websocket finds it gone, as a request
    would. A chat line was taken and written under the id of a table deleted already: rows no expiry deletes."""
    db = folder / "tables.sqlite3"
    store = Store(db, keep=3600)
    with TestClient(make_app(store=store)) as c:
        made = c.post("/api/tables", json={"seats": ["human", "random", "random"], "seed": 8}).json()
        _play(c, c.app.state.tables.get("t1"), 10_000)
        with c.websocket_connect("/ws/t1") as ws:
            ws.send_json({"type": "join", "token": _token(made["seat"]["url"]), "people": True})
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "chat", "text": "gg"})
            while ws.receive_json()["type"] != "chat":
                pass
            store.keep = 0  # (its time is up)
            assert "t1" not in [t["id"] for t in c.get("/api/tables").json()["tables"]]  # (deleted now)
            ws.send_json({"type": "chat", "text": "still here?"})
            told = ws.receive_json()  # (not the line said to the table)
            assert told["type"] == "error" and told["fatal"] and "不在了" in told["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == CLOSE_NOT_FOUND
        store.close()
    with sqlite3.connect(db) as kept:
        assert kept.execute("SELECT count(*) FROM chat").fetchone() == (0,)


def test_a_foreign_damaged_or_busy_database_or_a_folder_is_refused_in_one_line(folder):
    foreign = folder / "other.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (x)")
    garbage = folder / "garbage.db"
    garbage.write_bytes(b"this is no database\n" * 100)
    a_folder = folder / "games"
    a_folder.mkdir()
    damaged = folder / "damaged.db"  # ours, a page of it a copy of another: SQLite's check says so over two lines
    Store(damaged).close()
    with contextlib.closing(sqlite3.connect(damaged, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode=DELETE")
        db.execute("CREATE TABLE junk (x)")
        db.executemany("INSERT INTO junk VALUES (?)", [("x" * 100,)] * 200)
    pages = bytearray(damaged.read_bytes())
    pages[-4096:] = pages[-2 * 4096 : -4096]  # (the last leaf of junk: its rowids out of order, found the same always)
    damaged.write_bytes(bytes(pages))
    for path, says in (
        (foreign, "not a fengsheng serve database"),
        (garbage, "not an SQLite database"),
        (damaged, "the database is damaged (*** in database main *** On tree page 8 cell 4: Rowid 188 out of order)"),
        (a_folder, f"is a folder: give --db a file's path, such as {a_folder / 'tables.sqlite3'}"),
        (garbage / "x.db", f"cannot open the tables' database (File exists: {garbage})"),
    ):
        with pytest.raises(StoreError, match=re.escape(says)):
            Store(path)
        r = fengsheng("serve", "--db", str(path))
        assert r.exit_code == 1 and says in r.output and len(r.output.strip().splitlines()) == 1, r.output
        assert r.output.startswith("error: "), r.output  # (as every other one-line error; click's own says Error:)
    # a refused database is left as it was found: no lock file of ours beside another program's file
    assert not (folder / "other.db.lock").exists() and not (folder / "garbage.db.lock").exists()
    newer = folder / "newer.db"
    Store(newer).close()
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer fengsheng"):
        Store(newer)
    ours = Store(folder / "ours.db")
    with pytest.raises(StoreError, match="another fengsheng serve is using"):
        Store(folder / "ours.db")
    ours.close()
    assert sqlite3.connect(folder / "ours.db").execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert sqlite3.connect(folder / "ours.db").execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_database_refused_on_a_disk_without_wal_leaves_nothing_it_made(folder, monkeypatch):
    """SQLite refuses WAL on some disks (network file systems): a database the server made for the run is removed
    with its lock and side files; one the user had is left as it was."""
    real_connect = sqlite3.connect

    class NoWal:
        def __init__(self, *args, **kwargs):
            self.db = real_connect(*args, **kwargs)

        def execute(self, sql, *args):
            if sql.replace(" ", "").upper() == "PRAGMAJOURNAL_MODE=WAL":
                return self.db.execute("SELECT 'delete'")
            return self.db.execute(sql, *args)

        def __getattr__(self, name):
            return getattr(self.db, name)

    monkeypatch.setattr(sqlite3, "connect", NoWal)
    new = folder / "new" / "deeper" / "tables.db"
    with pytest.raises(StoreError, match="cannot be put in WAL mode"):
        Store(new)
    assert list(folder.iterdir()) == []  # (the folders it made for it too)
    (folder / "new").mkdir()
    with pytest.raises(StoreError, match="cannot be put in WAL mode"):
        Store(new)
    assert list(folder.iterdir()) == [folder / "new"] and list((folder / "new").iterdir()) == []  # (one it had stays)
    monkeypatch.setattr(sqlite3, "connect", real_connect)
    had = folder / "had.db"
    Store(had).close()
    before = had.read_bytes()
    monkeypatch.setattr(sqlite3, "connect", NoWal)
    with pytest.raises(StoreError, match="cannot be put in WAL mode"):
        Store(had)
    assert had.exists() and had.read_bytes() == before

    # SQLite failing to open a file it has just been given (a disk that refuses its locks, say): the same
    def refusing(*args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(sqlite3, "connect", refusing)
    deep = folder / "a" / "b" / "tables.db"
    with pytest.raises(StoreError, match="cannot open the tables' database"):
        Store(deep)
    assert not (folder / "a").exists()


def test_serve_keeps_its_tables_in_the_users_data_folder_by_default(monkeypatch):
    pytest.importorskip("uvicorn")
    started: list = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: started.append(app))
    r = fengsheng("serve")
    assert r.exit_code == 0, r.output
    where = Path(os.environ["FENGSHENG_DATA_DIR"]) / "tables.sqlite3"
    assert f"tables kept in {where}" in r.output and where.exists()
    Store(where).close()  # the server stopped (uvicorn.run returned): its lock on the database went with it
    r = fengsheng("serve", "--db", ":memory:")
    assert r.exit_code == 0 and "memory only" in r.output


def test_serve_says_what_it_restored_from_a_file_and_nothing_from_memory(monkeypatch, folder):
    def run(app, **kw):  # the server starts (its start-up restores the tables) and stops at once
        with TestClient(app):
            pass

    monkeypatch.setattr("uvicorn.run", run)
    r = fengsheng("serve", "--db", str(folder / "t.db"))
    assert r.exit_code == 0 and "restored 0 unfinished and 0 finished table(s)" in r.output, r.output
    r = fengsheng("serve", "--db", ":memory:")  # (a database in memory starts empty: there is nothing to restore)
    assert r.exit_code == 0 and "memory only" in r.output and "restored" not in r.output, r.output


# ---------------------------------------------------------------------- a real server, killed


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    """``fengsheng serve`` of this checkout in a subprocess."""

    def __init__(self, port: int, db: str) -> None:
        code = "import sys; from interpreter.cli import main; sys.argv[0] = 'fengsheng'; main()"
        args = ["serve", "--port", str(port), "--db", db, "--bot-delay", "0"]
        self.port = port
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        import httpx

        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, self.proc.stdout.read().decode() if self.proc.stdout else ""
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1)
                return
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)

    def post(self, path: str, body: dict | None = None) -> dict:
        import httpx

        r = httpx.post(f"http://127.0.0.1:{self.port}{path}", json=body or {}, timeout=30)
        assert r.status_code == 200, r.text
        return r.json()

    def get(self, path: str) -> str:
        import httpx

        r = httpx.get(f"http://127.0.0.1:{self.port}{path}", timeout=30)
        assert r.status_code == 200, r.text
        return r.text

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        if self.proc.stdout:
            self.proc.stdout.close()


def _answer(msg: dict) -> int:
    """A person's answer, fixed by what the seat was shown (so two runs of one game answer alike)."""
    actions = msg["actions"]
    return actions[(msg["seq"] * 7 + msg["seat"]) % len(actions)]["id"]


class _Seats:
    """Every human seat of some tables, each on its own websocket; answers whichever seat is asked."""

    def __init__(self, port: int, keys: dict[tuple[str, int], str]) -> None:
        from websockets.sync.client import connect

        self.stack = contextlib.ExitStack()
        self.conns = {}
        self.last: dict[tuple[str, int], dict] = {}
        self.answered: dict[tuple[str, int], int] = {}
        for (tid, seat), key in keys.items():
            ws = self.stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{tid}", open_timeout=30))
            ws.send(json.dumps({"type": "join", "token": key}))
            self.conns[tid, seat] = ws

    def step(self) -> bool:
        """Read what arrived; answer one seat that is asked. Whether one was."""
        from websockets.exceptions import ConnectionClosed

        for where, ws in self.conns.items():
            try:
                while True:
                    msg = json.loads(ws.recv(timeout=0))
                    assert msg["type"] == "state", msg
                    self.last[where] = msg
            except (TimeoutError, ConnectionClosed):
                pass
        for where, msg in self.last.items():
            if msg["actions"] and self.answered.get(where) != msg["seq"]:
                self.answered[where] = msg["seq"]
                self.conns[where].send(json.dumps({"type": "act", "seq": msg["seq"], "action": _answer(msg)}))
                return True
        return False

    def play(self, answers: int, over) -> None:
        deadline = time.monotonic() + 300
        while answers > 0 and not over():
            assert time.monotonic() < deadline, "the games did not go on"
            if self.step():
                answers -= 1
            else:
                time.sleep(0.005)

    def close(self) -> None:
        self.stack.close()


TABLES = (
    (["human", "human", "human", "heuristic", "random"], 11),
    (["human", "heuristic", "human", "random", "random"], 12),
    (["open", "random", "heuristic", "random", "random"], 13),
)


def _run(tmp_path: Path, kills: tuple[int, ...], name: str) -> list[str]:
    """The three tables played by their people (``_answer``) on a server killed after each number of answers in
    `kills` (SIGKILL: no shutdown), restarted on the same database; their referee logs at the end."""
    db, port = str(tmp_path / f"{name}.sqlite3"), _free_port()
    server = _Server(port, db)
    keys: dict[tuple[str, int], str] = {}
    logs = []
    for seats, seed in TABLES:
        made = server.post(
            "/api/tables",
            {"seats": seats, "seed": seed, "host_seat": seats.index("human") if "human" in seats else None},
        )
        tid = made["table"]["id"]
        if made["seat"]:
            keys[tid, made["seat"]["seat"]] = _token(made["seat"]["url"])
        for invite in made["invites"]:  # each person opens their invitation once: the seat's key
            from websockets.sync.client import connect

            with connect(f"ws://127.0.0.1:{port}/ws/{tid}") as ws:
                ws.send(json.dumps({"type": "join", "invite": _invite(invite["url"])}))
                keys[tid, invite["seat"]] = json.loads(ws.recv(timeout=30))["token"]
        for _ in made["open"]:
            claimed = server.post(f"/api/tables/{tid}/claim")
            keys[tid, claimed["seat"]] = _token(claimed["url"])
        logs.append(made["log"])

    def over() -> bool:
        return all(t["over"] for t in json.loads(server.get("/api/tables"))["tables"])

    for at in kills:
        seats = _Seats(port, keys)
        seats.play(at, over)
        assert not over()
        server.kill()  # mid-game: no shutdown, no goodbye to the pages
        seats.close()
        server = _Server(port, db)
    seats = _Seats(port, keys)
    seats.play(10**9, over)
    seats.close()
    out = [server.get(log) for log in logs]
    server.kill()
    return out


@pytest.mark.slow
def test_a_server_killed_mid_game_comes_back_and_its_games_end_as_if_never_stopped(tmp_path):
    pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    killed = _run(tmp_path, (25, 40), "killed")
    kept = _run(tmp_path, (), "kept")
    assert [len(log.splitlines()) > 10 for log in killed] == [True] * 3
    assert killed == kept


def test_a_game_the_engine_stops_shows_its_seats_public_words_and_its_referee_log_the_whole(folder, monkeypatch):
    """A stuck game (E503: a made-up role whose cards come back to his hand, tests/fixtures/runaway_pack) names the
    answer given again and again, a card in P0's hand. Its seats and the server's output were shown it (a websocket's
    failure, logged whole), and a restart replayed into the error. Now the game is over where it stopped: each seat's
    state says the error's public words, the referee's log ends with it whole, and a restart restores it so."""
    from interpreter.content.loader import BUNDLED_CONTENT, load_cached
    from interpreter.engine.step import GameState
    from interpreter.web.keeping import restore
    from interpreter.web.tables import Tables

    def stuck_sooner(*args, **kwargs) -> GameState:
        state = GameState(*args, **kwargs)
        state._game.MAX_DECISIONS = 100  # (then 300 questions watched: what repeats)
        return state

    monkeypatch.setattr("interpreter.play.GameState", stuck_sooner)  # (a table's game, restored ones' too)

    runaway = ROOT / "tests" / "fixtures" / "runaway_pack"

    def tables() -> Tables:
        return Tables(
            lambda packs: load_cached([BUNDLED_CONTENT, runaway]), lambda text: [], store=Store(folder / "t.db")
        )

    made = tables()
    pin = lambda content, host, players: {"role": "demo_boomerang", "role_seat": 0}  # noqa: E731
    web = made.create(["human", "random", "random"], seed=5, pin=pin)
    while not web.over():
        if web.bot_to_move():
            web.bot_answered(web.bot_question()())
        else:
            assert web.act(0, web.seq(0), web.state.legal_actions()[0]) is None
    whole = str(web.table.stopped)
    assert whole.startswith("E503 ") and "截获#80" in whole
    public = web.table.stopped.public
    assert public.startswith("E503 the game is stuck") and "#" not in public and "P0" not in public
    for seat in (0, None):
        message = json.dumps(web.message(seat, 0)[0], ensure_ascii=False)
        assert message.count(public) == 1 and whole not in message
    end = json.loads(web.referee_log().splitlines()[-1])
    assert end == {"type": "end", "failed": f"EngineError: {whole}"}
    assert whole not in web.seat_log(0)
    made.store.close()  # (the server stops: its lock on the database goes)
    again = tables()
    assert restore(again) == []
    back = again.get(web.id)
    assert back.over() and str(back.table.stopped) == whole and back.referee_log() == web.referee_log()
