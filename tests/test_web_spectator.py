"""The spectator's link of ``fengsheng serve`` (``/table/<id>#watch``, the lobby's 观战): the public view — what a
seat with no hand sees (GameState.public_observation) — at every position of a game, carrying no hidden fact; a
spectator cannot act, take a name or chat, and is counted among the table's people."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("starlette", reason="the optional extra `web` (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():  # starlette 1.x prefers httpx2 for its test client; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from web_helpers import leaks, make_app, spectator_hidden

from interpreter.content.loader import load_cached
from interpreter.seat_text import Names


def _key(url: str) -> str:
    return url.split("token=", 1)[1]


def _watched(web, names: Names) -> int:
    """The table played to its end (each human seat its first legal answer, the bots theirs); at every position
    the spectator's message is checked for every hidden value. Returns how many values were looked for."""
    looked = 0
    while True:
        message, _, _ = web.message(None, 0)
        assert message["seat"] is None and message["actions"] == () and message["seq"] == 0
        assert message["view"]["me"] is None and message["view"]["decision"] is None
        assert message["observation"]["me"]["hand"] == () and message["observation"]["decision"] is None
        hidden = spectator_hidden(web.state, names)
        summary = message.pop("summary")  # (the end's reveal: every card turned up, checked below)
        assert (summary is not None) == web.over()
        text = json.dumps(message, ensure_ascii=False)
        found = leaks(text, message, hidden, names)
        assert not found, f"the spectator was shown {found}"
        looked += sum(len(v) for k, v in hidden.items() if k != "allowed")
        if web.over():
            # once it is over a spectator is shown the reveal the seats are: every identity, task and role
            assert summary == web.table.final_summary() and summary["seats"], summary
            # the end names the winners, and tells a spectator, who played no seat, neither "you won" nor "you lost"
            result = message["view"]["result"]
            assert result.startswith("游戏结束：") and "胜者：" in result and "你" not in result, result
            return looked
        if web.bot_to_move():
            web.bot_answered(web.bot_question()())
        else:
            seat = web.waiting_for()
            assert web.act(seat, web.seq(seat), web.state.legal_actions()[0]) is None


def test_a_spectator_is_shown_the_public_view_and_never_a_hidden_fact():
    names = Names(load_cached())
    with TestClient(make_app()) as c:
        made = c.post("/api/tables", json={"seats": ["human", "heuristic", "human", "random", "random"], "seed": 7})
        web = c.app.state.tables.get(made.json()["table"]["id"])
        assert c.portal.call(_watched, web, names) > 1000


def test_a_spectator_watches_counted_among_the_people_and_can_only_watch():
    with TestClient(make_app()) as c:
        made = c.post("/api/tables", json={"seats": ["human", "random", "random"], "seed": 4}).json()
        tid = made["table"]["id"]
        with c.websocket_connect(f"/ws/{tid}") as seat, c.websocket_connect(f"/ws/{tid}") as watcher:
            seat.send_json({"type": "join", "token": _key(made["seat"]["url"]), "people": True, "name": "主人"})
            assert seat.receive_json()["type"] == "state"
            seat.send_json({"type": "chat", "text": "欢迎"})
            watcher.send_json({"type": "join", "watch": True, "people": True})
            state = watcher.receive_json()
            assert state["type"] == "state" and state["seat"] is None and state["actions"] == []
            assert state["view"]["me"] is None and '"seed"' not in json.dumps(state)
            kinds = {}
            for _ in range(2):
                msg = watcher.receive_json()
                kinds[msg["type"]] = msg
            assert kinds["chat"]["lines"][0]["text"] == "欢迎"  # a spectator reads the chat
            assert kinds["people"]["watching"] == 1 and kinds["people"]["you"] is None
            assert kinds["people"]["seats"][0]["name"] == "主人"
            watcher.send_json({"type": "act", "seq": 0, "action": 0})
            assert "只能看" in watcher.receive_json()["message"]
            for msg in ({"type": "chat", "text": "hi"}, {"type": "name", "name": "x"}):
                watcher.send_json(msg)
                assert "观战的人不能" in watcher.receive_json()["message"]
        # a spectator's link needs no key; a forged key is still refused (not taken for a spectator)
        with c.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "join", "token": "forged", "watch": True})
            assert ws.receive_json()["fatal"]
        assert c.app.state.tables.get(tid).watching == 0
