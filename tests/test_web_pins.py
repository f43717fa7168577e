"""A role pinned to a seat at ``fengsheng serve``'s tables (a designer playtesting a new role with friends, as ``play
--role``): the lobby's form and API take it (``serve --role`` the server's default), checked with play's
did-you-mean; the host's seat is dealt it and a restart deals it again; and which seat holds it is told to nobody
else — the lobby's list, the options anyone may read, the spectator's and the other seats' messages — when the role
is face down."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("starlette", reason="the optional extra `web` (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():  # starlette 1.x prefers httpx2 for its test client; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from web_helpers import database_folder, finish_table, make_app

from conftest import fengsheng
from interpreter.content.loader import load_cached
from interpreter.seat_text import Names
from interpreter.sim import read_log_text, replay_game
from interpreter.web.pinning import pin_of
from interpreter.web.store import Store

SEATS = ["human", "human", "open", "random", "random"]


def _face_down_role() -> str:
    """A role of a bundled expansion (tie_wu_zi: the base game alone lacks it) that stays face down once dealt
    (hidden): its seat is its holder's secret."""
    role = "qian_min"
    assert load_cached().roles[role].hidden
    return role


def _through_the_deal(web) -> list:
    """The table played until every seat has its role (the human seats each their first option, the bots theirs),
    on the calling thread; each stop's messages for the spectator and every seat, and the legal actions the human
    seats were asked with."""
    stops = []
    while web.state.decision_kind == "role":
        stops.append({s: web.message(s, 0)[0] for s in (None, *web.seats)})
        if web.bot_to_move():
            web.bot_answered(web.bot_question()())
            continue
        seat = web.waiting_for()
        stops[-1]["asked"] = (seat, list(web.state.legal_actions()))
        assert web.act(seat, web.seq(seat), web.state.legal_actions()[0]) is None
    return stops


@pytest.fixture
def folder(tmp_path):
    with database_folder(tmp_path) as where:
        yield where


def test_a_table_pins_a_role_to_its_hosts_seat_and_a_restart_keeps_it(folder):
    role = _face_down_role()
    db = folder / "tables.sqlite3"
    with TestClient(make_app(store=Store(db))) as c:
        made = c.post("/api/tables", json={"seats": ["random", "human", "random"], "seed": 5, "role": role}).json()
        assert made["pin"] == {"role": role, "seat": 1}  # (the host's own seat by default; told to the host alone)
        web = c.app.state.tables.get(made["table"]["id"])
        stops = c.portal.call(_through_the_deal, web)
        asked = [s["asked"] for s in stops if "asked" in s]
        assert [(seat, len(actions)) for seat, actions in asked] == [(1, 1)]  # asked to keep it, its one option
        assert web.state._game.players[1].role.id == role
        history = web.state.history()
        web.store.close()

    with TestClient(make_app(store=Store(db))) as c:  # a restart deals it again: the same game, the same seat
        assert c.app.state.restore_problems == []
        web = c.app.state.tables.get(made["table"]["id"])
        assert web.state.history() == history and web.state._game.players[1].role.id == role
        assert pin_of(web.table.setup) == {"role": role, "seat": 1}


def test_a_finished_pinned_tables_referee_log_replays_with_its_pin():
    """The referee's log of a finished table holds the pin in its setup record: ``fengsheng replay`` plays the same
    game."""
    role = _face_down_role()
    with TestClient(make_app()) as c:
        made = c.post("/api/tables", json={"seats": ["random", "human", "random"], "seed": 5, "role": role}).json()
        c.portal.call(finish_table, c.app.state.tables.get(made["table"]["id"]))
        logged = read_log_text(c.get(made["log"]).text)[0]
        assert logged["records"][0]["pins"] == {"seat": 1, "role": role}
        assert replay_game(load_cached(), logged)[0]


def test_the_lobby_spectators_and_the_other_seats_are_never_told_which_seat_holds_a_face_down_pinned_role():
    """Two tables alike but for the pin (the server's default, serve --role, against none): the lobby lists them
    alike, its options say that a role is pinned by default but not which, and through the deal neither a spectator
    nor another seat is sent the role's id or name. This fails if the lobby, the options or a message named the pin."""
    role = _face_down_role()
    said = {role, Names(load_cached()).role(role), load_cached().roles[role].name}
    with TestClient(make_app(default_role=role)) as c:
        options = c.get("/api/options").json()
        assert options["role_by_default"] is True and role not in json.dumps(options, ensure_ascii=False)
        pinned = c.post("/api/tables", json={"seats": SEATS, "seed": 9}).json()
        plain = c.post("/api/tables", json={"seats": SEATS, "seed": 9, "role": None}).json()
        assert pinned["pin"] == {"role": role, "seat": 0} and plain["pin"] is None
        listed = {t["id"]: t for t in c.get("/api/tables").json()["tables"]}
        a, b = (dict(listed[m["table"]["id"]], id=None) for m in (pinned, plain))
        assert a == b, (a, b)  # the lobby tells the pinned table from the other by nothing
        assert dict(pinned["table"], id=None) == dict(plain["table"], id=None)
        web = c.app.state.tables.get(pinned["table"]["id"])
        stops = c.portal.call(_through_the_deal, web)
        stops.append({s: web.message(s, 0)[0] for s in (None, *web.seats)})  # (every role dealt)
        assert web.state._game.players[0].role.id == role and not web.state._game.players[0].role_face_up
        for stop in stops:
            for seat in (None, 1, 2):  # (the spectator and the other people's seats; the bots are sent nothing)
                text = json.dumps(stop[seat], ensure_ascii=False)
                assert not [w for w in said if w in text], (seat, stop[seat]["observation"]["turn"])
        assert role in json.dumps(stops[-1][0], ensure_ascii=False)  # (the host's own seat is shown its role)
        assert role not in json.dumps(web.people(), ensure_ascii=False)


def test_a_wrong_role_or_seat_is_refused_with_what_is_wrong_and_makes_no_table(still_role_client):
    c = still_role_client
    cases = [
        ({"role": "lao_hn"}, "role: no role 'lao_hn' in this table's content: did you mean lao_han?"),
        ({"role": "老汉"}, "a name, not an id: did you mean lao_han"),
        ({"role": 7}, "role is a role's id"),
        ({"role": "lao_han", "role_seat": 9}, "role_seat: a seat of the table, 0 to 4"),
        ({"role": "lao_han", "role_seat": True}, "role_seat: a seat of the table"),
        ({"role": "lao_han", "host_seat": None, "seats": ["open", *SEATS[1:]]}, "the host plays no seat here"),
        # the server's default role (serve --role) is an expansion's: a table of the base game alone lacks it
        ({"expansions": "none"}, '(the server\'s default role, serve --role: send "role": null to pin none)'),
    ]
    for extra, says in cases:
        r = c.post("/api/tables", json={"seats": SEATS, **extra})
        assert r.status_code == 400 and says in r.json()["error"], (extra, r.text)
    assert c.get("/api/tables").json()["tables"] == []
    r = c.post("/api/tables", json={"seats": SEATS, "expansions": "none", "role": ""})  # ("": none pinned)
    assert r.status_code == 200 and r.json()["pin"] is None
    r = c.post("/api/tables", json={"seats": SEATS, "role": "lao_han", "role_seat": 3})  # (any seat, a bot's too)
    assert r.status_code == 200 and r.json()["pin"] == {"role": "lao_han", "seat": 3}


@pytest.fixture
def still_role_client():
    with TestClient(make_app(default_role=_face_down_role())) as c:
        yield c


def test_serve_role_is_checked_when_the_server_starts_and_is_the_lobbys_default(monkeypatch):
    pytest.importorskip("uvicorn")
    monkeypatch.setattr("interpreter.serve_cmd.cannot_listen", lambda host, port: None)
    made: list = []

    def run(app, **kw):  # the server starts, a table is made in its lobby naming no role, and it stops
        with TestClient(app, base_url="http://127.0.0.1:8000") as c:
            assert c.get("/api/options").json()["role_by_default"] is True
            made.append(c.post("/api/tables", json={"seats": SEATS}).json())

    monkeypatch.setattr("uvicorn.run", run)
    r = fengsheng("serve", "--db", ":memory:", "--role", "lao_hn")
    assert r.exit_code == 2 and "no role 'lao_hn' in the content: did you mean lao_han?" in r.output, r.output
    assert "Traceback" not in r.output and not made
    r = fengsheng("serve", "--db", ":memory:", "--role", "lao_han")
    assert r.exit_code == 0 and "pins the role lao_han to its host's seat" in r.output, r.output
    assert made[0]["pin"] == {"role": "lao_han", "seat": 0}, made


def test_a_kept_table_whose_pinned_role_is_gone_after_a_restart_is_said_and_kept_and_the_others_play_on(
    monkeypatch, tmp_path
):
    """A designer's pack loses the role pinned at a kept table (its file moved away while it is worked on) and the
    server is started again: `serve` says which table was not restored and why, starts, and restores the others (a
    table of the bundled game, made by a start without the pack); the table's link says it is kept but could not be
    restored (not that it may be gone, nor which role is pinned); nothing of it is lost: with the role back, the
    next start restores it where it stood."""
    pytest.importorskip("uvicorn")
    import shutil
    from pathlib import Path

    monkeypatch.setattr("interpreter.serve_cmd.cannot_listen", lambda host, port: None)
    pack = tmp_path / "jia_gui"
    shutil.copytree(Path(__file__).parents[1] / "examples" / "jia_gui", pack)
    db = tmp_path / "tables.sqlite3"
    seen: dict = {}

    def make(label: str, **pin):  # a table made and played through the deal
        def run(app, **kw):
            with TestClient(app, base_url="http://127.0.0.1:8000") as c:
                made = c.post("/api/tables", json={"seats": ["random", "human", "random"], "seed": 5, **pin}).json()
                web = c.app.state.tables.get(made["table"]["id"])
                c.portal.call(_through_the_deal, web)
                seen[label] = (made, web.state.history())

        return run

    def again(app, **kw):  # what a restart restored, and what the pinned table's link is told
        with TestClient(app, base_url="http://127.0.0.1:8000") as c:
            tables = c.app.state.tables
            seen["restored"] = {tid: web.state.history() for tid, web in tables.tables.items()}
            made = seen["pinned"][0]
            with c.websocket_connect(
                f"ws://127.0.0.1:8000/ws/{made['table']['id']}", headers={"origin": "http://127.0.0.1:8000"}
            ) as ws:
                ws.send_json({"type": "join", "token": made["seat"]["url"].split("token=", 1)[1]})
                seen["page"] = ws.receive_json()

    for run, args in ((make("pinned", role="hua_mei"), ["--content", pack]), (make("other"), [])):
        monkeypatch.setattr("uvicorn.run", run)
        assert fengsheng("serve", "--db", db, *args).exit_code == 0
    (pinned, pinned_history), (other, other_history) = seen["pinned"], seen["other"]
    assert pinned["pin"] == {"role": "hua_mei", "seat": 1}
    role_file = pack / "roles" / "hua_mei.yaml"
    role_file.rename(tmp_path / "hua_mei.yaml")  # (the role taken out of the pack while the server is down)

    monkeypatch.setattr("uvicorn.run", again)
    r = fengsheng("serve", "--db", db, "--content", pack)
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output
    pid = pinned["table"]["id"]
    assert (
        f"table {pid} was not restored: it was dealt the role 'hua_mei' (pinned by its host), which its content no "
        "longer has" in r.output
    ), r.output
    assert "restored 1 unfinished and 0 finished table(s)" in r.output, r.output
    assert seen["restored"] == {other["table"]["id"]: other_history}
    page = json.dumps(seen["page"], ensure_ascii=False)
    assert seen["page"]["type"] == "error" and seen["page"]["fatal"] and "hua_mei" not in page and "画眉" not in page
    assert "这张桌还保存在服务器上，但服务器这次启动时没能恢复它" in page, page

    (tmp_path / "hua_mei.yaml").rename(role_file)  # the role back: the table is restored where it stood
    r = fengsheng("serve", "--db", db, "--content", pack)
    assert r.exit_code == 0 and "restored 2 unfinished and 0 finished table(s)" in r.output, r.output
    assert seen["restored"] == {pid: pinned_history, other["table"]["id"]: other_history}
