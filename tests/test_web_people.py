"""The people at a table of ``fengsheng serve`` (interpreter/web/people.py): names checked and shown to the table,
who is online, the chat (checked, paced, kept in the database), and only for a page that asks for them."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("starlette", reason="the optional extra `web` (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():  # starlette 1.x prefers httpx2 for its test client; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from web_helpers import make_app

from conftest import fengsheng
from interpreter.web.people import BURST, MAX_LINE, MAX_NAME, Chat, Refused, clean_line, clean_name
from interpreter.web.store import Store


def _key(url: str) -> str:
    return url.split("token=", 1)[1]


def _until(ws, kind: str) -> dict:
    """The next message of `kind` (the others that come first skipped)."""
    for _ in range(50):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


@pytest.mark.parametrize(
    "name, why",
    [
        ("", "不能是空的"),
        ("   ", "不能是空的"),
        ("x" * (MAX_NAME + 1), f"最多 {MAX_NAME} 个字"),
        ("a\x00b", "控制字符"),
        ("a\u202eb", "格式字符"),  # a right-to-left override: a name that reads as another
        ("a\u200db", "格式字符"),  # a zero-width joiner
        (12, "一段文字"),
        (None, "一段文字"),
    ],
)
def test_a_name_that_is_not_one_is_refused_with_why(name, why):
    with pytest.raises(Refused, match=why):
        clean_name(name)


def test_a_name_is_one_line_of_text_kept_as_typed():
    assert clean_name("  小 王\t\n ") == "小 王"
    assert clean_name("<script>alert(1)</script>") == "<script>alert(1)</script>"  # text: the page shows it as text
    assert clean_line("x" * MAX_LINE) == "x" * MAX_LINE
    with pytest.raises(Refused):
        clean_line("x" * (MAX_LINE + 1))


def test_the_chat_holds_a_burst_back_until_its_window_passed():
    chat = Chat()
    for i in range(BURST):
        chat.say(0, "P0", f"line {i}", now=100.0 + i)
    with pytest.raises(Refused, match="太快"):
        chat.say(0, "P0", "one more", now=104.5)
    chat.say(1, "P1", "another seat may", now=104.5)
    chat.say(0, "P0", "later", now=110.5)  # the first line is 10 s old
    assert len(chat.lines) == BURST + 2


def test_names_presence_and_chat_reach_everyone_at_the_table_and_survive_a_restart(tmp_path):
    db = tmp_path / "tables.sqlite3"
    with TestClient(make_app(store=Store(db))) as c:
        made = c.post("/api/tables", json={"seats": ["human", "open", "random"], "seed": 3}).json()
        tid = made["table"]["id"]
        opened = c.post(f"/api/tables/{tid}/claim", json={}).json()
        with c.websocket_connect(f"/ws/{tid}") as host, c.websocket_connect(f"/ws/{tid}") as other:
            host.send_json({"type": "join", "token": _key(made["seat"]["url"]), "people": True, "name": "阿 明"})
            people = _until(host, "people")
            assert people["you"] == 0 and people["chat"] is True and people["watching"] == 0
            assert [(p["seat"], p["kind"], p["name"], p["online"]) for p in people["seats"]] == [
                (0, "human", "阿 明", True),
                (1, "human", None, False),
                (2, "random", None, False),
            ]
            other.send_json({"type": "join", "token": _key(opened["url"]), "people": True})
            assert [p["online"] for p in _until(host, "people")["seats"]] == [True, True, False]
            other.send_json({"type": "name", "name": "<script>alert(1)</script>"})
            assert _until(host, "people")["seats"][1]["name"] == "<script>alert(1)</script>"
            other.send_json({"type": "name", "name": "bad\u202ename"})
            assert "格式字符" in _until(other, "error")["message"]
            other.send_json({"type": "chat", "text": "大家好\n"})
            line = _until(host, "chat")["lines"]
            assert line == [{"seat": 1, "name": "<script>alert(1)</script>", "text": "大家好"}]
            for i in range(BURST - 1):
                other.send_json({"type": "chat", "text": f"{i}"})
            other.send_json({"type": "chat", "text": "too fast"})
            assert "太快" in _until(other, "error")["message"]
        c.app.state.tables.store.close()
    with TestClient(make_app(store=Store(db))) as c:
        with c.websocket_connect(f"/ws/{tid}") as host:
            host.send_json({"type": "join", "token": _key(made["seat"]["url"]), "people": True})
            said = _until(host, "chat")["lines"]
            assert [x["text"] for x in said] == ["大家好", *map(str, range(BURST - 1))]
            people = _until(host, "people")
            assert [p["name"] for p in people["seats"]] == ["阿 明", "<script>alert(1)</script>", None]
            assert [p["online"] for p in people["seats"]] == [True, False, False]
        # the chat, a download of its own (the referee's link or a seat's key): records that replay refuses whole
        r = c.get(made["chat"])
        assert r.status_code == 200 and 'filename="fengsheng-t1-chat.jsonl"' in r.headers["content-disposition"]
        records = [json.loads(x) for x in r.text.splitlines()]
        assert records[0] == {"type": "chat", "n": 0, "seat": 1, "name": "<script>alert(1)</script>", "text": "大家好"}
        assert [x["n"] for x in records] == list(range(BURST))
        assert c.get(f"/api/tables/{tid}/chat?token={_key(opened['url'])}").text == r.text
        assert c.get(f"/api/tables/{tid}/chat?token=nobody").status_code == 403
        (tmp_path / "chat.jsonl").write_text(r.text, encoding="utf-8")
        out = fengsheng("replay", str(tmp_path / "chat.jsonl"))
        assert out.exit_code != 0 and "does not start with a game header" in out.output
        assert "Traceback" not in out.output
        c.app.state.tables.store.close()


def test_a_table_without_chat_refuses_a_line_and_a_client_that_does_not_ask_is_sent_only_its_game():
    with TestClient(make_app()) as c:
        made = c.post("/api/tables", json={"seats": ["human", "random"], "seed": 3, "chat": False}).json()
        assert c.post("/api/tables", json={"seats": ["human", "random"], "chat": "yes"}).status_code == 400
        tid = made["table"]["id"]
        with c.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "join", "token": _key(made["seat"]["url"])})  # no "people": a bot, a script
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "chat", "text": "hello"})
            error = ws.receive_json()
            assert error["type"] == "error" and "没有开聊天" in error["message"]
            ws.send_json({"type": "name", "name": "me"})  # taken, and nobody who asked is told
            ws.send_json({"type": "act", "seq": 0, "action": -1})
            assert ws.receive_json()["type"] == "error"  # (the next message is the refusal: no people message)
        assert c.app.state.tables.get(tid).seats[0].name == "me"
