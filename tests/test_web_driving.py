"""``fengsheng serve`` moves its bots itself and never shows a move its database does not hold
(interpreter/web/app.py's advance and drive, tables.py's commit-then-apply): a table restored at a bot's decision
plays on to the next person's decision with no page connected; a write that fails (the file read-only: SQLite's
own error; the disk full: OSError) moves no game, tells the seat in one line, keeps the other tables served, and
once the file takes writes again the table plays on to the very game of a server that never failed."""

from __future__ import annotations

import errno
import time
import warnings
from contextlib import contextmanager

import pytest

pytest.importorskip("starlette", reason="the optional extra `web` (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():  # starlette 1.x prefers httpx2 for its test client; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from web_helpers import database_folder, make_app

from interpreter.web.app import UNSAVED, UNSAVED_WORDS
from interpreter.web.driving import STALLED
from interpreter.web.store import Store

SEATS = ["human", "random", "human", "heuristic", "random"]


def _key(url: str) -> str:
    return url.split("token=", 1)[1]


@pytest.fixture
def folder(tmp_path):
    """Where a test's database goes: in memory where the system has room for it (web_helpers.database_folder)."""
    with database_folder(tmp_path) as where:
        yield where


def _until_human_then_bot(web) -> None:
    """Played (each person answering their first legal action, each bot its own) until a person's answer leaves a
    bot to move, without moving that bot: what a server killed right after committing that answer keeps."""
    while True:
        if web.bot_to_move():
            web.bot_answered(web.bot_question()())
            continue
        seat = web.waiting_for()
        assert seat is not None, "the game ended before a person handed over to a bot"
        assert web.act(seat, web.seq(seat), web.state.legal_actions()[0]) is None
        if web.bot_to_move():
            return


def _to_next_person(web) -> None:
    while web.bot_to_move():
        web.bot_answered(web.bot_question()())


def _wait(client, check, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not client.portal.call(check):  # (read on the loop's thread, where the game lives)
        assert time.monotonic() < deadline, "the server did not move the table"
        time.sleep(0.02)


def test_a_table_restored_at_a_bots_decision_plays_on_with_nobody_connected(folder):
    db = folder / "tables.sqlite3"
    with TestClient(make_app(store=Store(db))) as c:
        made = c.post("/api/tables", json={"seats": SEATS, "seed": 21}).json()
        web = c.app.state.tables.get(made["table"]["id"])
        for _ in range(3):  # three times a person hands over to a bot, the last one left at the bot's decision
            c.portal.call(_until_human_then_bot, web)
            if _ != 2:
                c.portal.call(_to_next_person, web)
        assert c.portal.call(web.bot_to_move)
        c.app.state.tables.store.close()  # (the server stops before its bot moved)
    with TestClient(make_app()) as c:  # the same game, never stopped: the bots moved on at once
        made = c.post("/api/tables", json={"seats": SEATS, "seed": 21}).json()
        same = c.app.state.tables.get(made["table"]["id"])
        for _ in range(3):
            c.portal.call(_until_human_then_bot, same)
            c.portal.call(_to_next_person, same)
        expected = c.portal.call(same.state.history)
    store = Store(db)
    with TestClient(make_app(store=store)) as c:  # restarted: no page connects, no request is made
        web = c.app.state.tables.get(made["table"]["id"])
        _wait(c, lambda: web.waiting_for() is not None)
        assert c.portal.call(web.state.history) == expected
        kept = next(t for t in store.tables() if t.id == web.id)
        assert len(kept.actions) == web.played  # each bot's answer committed as it was applied
        store.close()


class _FailingStore(Store):
    """A database whose writes fail once `allow` more have gone through (None: none fails): as a file made
    read-only (``readonly``: SQLite's own error, PRAGMA query_only) or on a full disk (``full``: OSError ENOSPC)."""

    def __init__(self, path, how: str) -> None:
        super().__init__(path)
        self.how = how
        self.allow: int | None = None
        self.failed = 0

    @contextmanager
    def _transaction(self):
        if self.allow is None or self.allow > 0:
            if self.allow is not None:
                self.allow -= 1
            with super()._transaction() as db:
                yield db
            return
        self.failed += 1
        if self.how == "full":
            raise OSError(errno.ENOSPC, "No space left on device")
        self._db.execute("PRAGMA query_only = 1")
        try:
            with super()._transaction() as db:
                yield db
        finally:
            self._db.execute("PRAGMA query_only = 0")


def _next(ws, kind: str) -> dict:
    for _ in range(50):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


@pytest.mark.parametrize("how", ["readonly", "full"])
def test_a_write_that_fails_moves_no_game_and_the_table_plays_on_once_the_file_takes_it(folder, how):
    store = _FailingStore(folder / "tables.sqlite3", how)
    with TestClient(make_app(store=store, retry_seconds=0.05)) as c:
        made = c.post("/api/tables", json={"seats": ["human", "random", "heuristic"], "seed": 7}).json()
        other = c.post("/api/tables", json={"seats": ["human", "open", "human"], "seed": 8}).json()
        invite = other["invites"][0]["url"].split("invite=", 1)[1]
        web = c.app.state.tables.get(made["table"]["id"])

        def kept() -> list[int]:
            return next(t.actions for t in store.tables() if t.id == web.id)

        with c.websocket_connect(f"/ws/{web.id}") as ws:
            ws.send_json({"type": "join", "token": _key(made["seat"]["url"])})
            first = _next(ws, "state")
            answer = first["actions"][0]["id"]
            before = (c.portal.call(web.state.history), web.played, kept())

            store.allow = 0  # every write fails: the person's answer is refused with why, nothing moves
            ws.send_json({"type": "act", "seq": first["seq"], "action": answer})
            assert _next(ws, "error")["message"] == UNSAVED
            again = _next(ws, "state")
            assert again["seq"] == first["seq"] and again["actions"] == first["actions"]
            assert (c.portal.call(web.state.history), web.played, kept()) == before
            # the other tables are served: a seat joins and is sent its game; a chat line is refused in one line
            with c.websocket_connect(f"/ws/{other['table']['id']}") as ws2:
                ws2.send_json({"type": "join", "token": _key(other["seat"]["url"]), "people": True})
                assert _next(ws2, "state")["table"] == other["table"]["id"]
                ws2.send_json({"type": "chat", "text": "hello"})
                assert _next(ws2, "error")["message"] == UNSAVED_WORDS
            assert c.post(f"/api/tables/{other['table']['id']}/claim", json={}).status_code == 503
            with c.websocket_connect(f"/ws/{other['table']['id']}") as ws2:  # an invitation is not spent
                ws2.send_json({"type": "join", "invite": invite})
                assert "邀请没有用掉" in _next(ws2, "error")["message"]
            r = c.post("/api/tables", json={"seats": ["human", "random"]})
            assert r.status_code == 503 and "cannot write" in r.json()["error"]
            assert "\n" not in r.json()["error"]

            store.allow = 1  # the person's answer is written, then the first bot's is not: the table waits
            ws.send_json({"type": "act", "seq": first["seq"], "action": answer})
            stall = _next(ws, "error")
            # the page keeps this banner until the table moves on (table.js: until_moved), not until the next state
            assert stall["message"] == STALLED and stall["until_moved"] is True
            assert c.portal.call(web.bot_to_move) and web.played == len(kept()) == len(before[2]) + 1
            failed = store.failed
            _wait(c, lambda: store.failed > failed)  # it tries again (and fails again) with no page asking

            store.allow = None  # the disk has room again: the same bot's answer is written, the game plays on
            while not _next(ws, "state")["actions"]:
                pass
            assert web.played == len(kept()) and not web.stalled
            history = c.portal.call(web.state.history)
            with c.websocket_connect(f"/ws/{other['table']['id']}") as ws2:  # the invitation works, once
                ws2.send_json({"type": "join", "invite": invite})
                assert ws2.receive_json()["type"] == "key"

    with TestClient(make_app()) as c:  # a server whose writes never failed, answered alike: the same game
        made = c.post("/api/tables", json={"seats": ["human", "random", "heuristic"], "seed": 7}).json()
        same = c.app.state.tables.get(made["table"]["id"])
        assert c.portal.call(lambda: same.act(0, same.seq(0), answer)) is None
        c.portal.call(_to_next_person, same)
        assert c.portal.call(same.state.history) == history
    store.close()
    with TestClient(make_app(store=Store(folder / "tables.sqlite3"))) as c:  # and the file holds it
        assert c.portal.call(c.app.state.tables.get(web.id).state.history) == history
        c.app.state.tables.store.close()


def test_a_new_invitation_the_database_cannot_take_is_not_handed_out_and_the_old_one_still_works(folder):
    """The host's new invitation (POST /api/tables/<id>/invite) is written before it is answered: a database that
    refuses the write answers 503 with why, and nothing changed (the old invitation opens the seat)."""
    store = _FailingStore(folder / "tables.sqlite3", "readonly")
    with TestClient(make_app(store=store)) as c:
        made = c.post("/api/tables", json={"seats": ["human", "human", "random"]}).json()
        store.allow = 0
        r = c.post("/api/tables/t1/invite", json={"token": made["log"].split("token=", 1)[1], "seat": 1})
        assert r.status_code == 503 and "the old one still works" in r.json()["error"] and "invite=" not in r.text
        store.allow = None
        with c.websocket_connect("/ws/t1") as ws:
            ws.send_json({"type": "join", "invite": made["invites"][0]["url"].split("invite=", 1)[1]})
            assert ws.receive_json()["type"] == "key"
    store.close()
