"""The browser table in a real browser: Playwright drives the system's Chromium through the pages of
``fengsheng serve`` (started on a free port in a thread), plays whole games at human seats against bots by
clicking the decision buttons, and checks that no hidden value of another seat reaches a seat's page or its
websocket frames.

Skipped when Playwright or Chromium is missing (CI installs both: .ci/run). Never ``playwright install``: the
browser is the system's (``FENGSHENG_CHROMIUM``, default /usr/bin/chromium).

``python tests/test_web_browser.py docs/img/table.png`` takes the README's screenshot of a table in play.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # web_helpers, when run as a script

from web_helpers import hidden_values, leaks, make_app, spectator_hidden

from interpreter.content.loader import load_cached
from interpreter.engine.step import GameState
from interpreter.seat_text import Names

CHROMIUM = os.environ.get("FENGSHENG_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        return f"the browser tests need the extras web and web-test ({e.name} is not installed)"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set FENGSHENG_CHROMIUM)"
    return None


pytestmark = [pytest.mark.slow, pytest.mark.skipif(_missing() is not None, reason=_missing() or "")]


class Server:
    """fengsheng serve's app under uvicorn, in a thread, on a free port (or `port`); its tables kept in the
    database `db` (default: in memory); holding to `limits` (guard.Limits; default: serve's)."""

    def __init__(
        self,
        bot_delay: float = 0.0,
        db: Path | None = None,
        port: int | None = None,
        limits=None,
        default_role: str | None = None,
    ) -> None:
        import uvicorn

        from interpreter.web.store import Store

        if port is None:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
        self.port = port
        self.store = Store(db)
        self.app = make_app(bot_delay, port=self.port, store=self.store, limits=limits, default_role=default_role)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.store.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def table(self, tid: str):
        return self.app.state.tables.get(tid)


PAGE_ERRORS: list[str] = []  # every uncaught script error of every page the tests open (checked after each test)


def _watched(page):
    page.on("pageerror", lambda e: PAGE_ERRORS.append(f"{page.url}: {e}"))
    return page


def _browser(p):
    """Chromium, every page of which reports its uncaught script errors (a page that throws may still pass a
    test's checks by luck of timing: the join that threw before people.js had loaded did, most of the time)."""
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    new_page, new_context = browser.new_page, browser.new_context

    def page_of_context(**kw):
        context = new_context(**kw)
        context.on("page", _watched)
        return context

    browser.new_page = lambda **kw: _watched(new_page(**kw))
    browser.new_context = page_of_context
    return browser


@pytest.fixture(autouse=True)
def _no_page_errors():
    PAGE_ERRORS.clear()
    yield
    assert PAGE_ERRORS == [], "a page threw: " + "; ".join(PAGE_ERRORS)


class SeatPage:
    """One browser context at one seat: its page, and every websocket frame it received."""

    def __init__(self, browser, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.screens: list[tuple[int, str]] = []  # (seq, the page's text) at each of its decisions
        self.page.goto(url)

    def _frame(self, payload) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode("utf-8"))

    def status(self) -> dict:
        return self.page.evaluate(
            """() => ({seq: Number(document.body.dataset.seq ?? -1), over: document.body.dataset.over === "1",
                       seat: Number(document.body.dataset.seat ?? -1),
                       options: document.querySelectorAll('#options button:not([disabled])').length,
                       text: document.body.innerText})"""
        )


def play_through_pages(seats: list[SeatPage], rng: random.Random, limit: float = 300.0) -> int:
    """Click a (seeded) random decision button on the page whose seat is to answer, until every page shows the
    end of the game; returns how many clicks."""
    clicks = 0
    deadline = time.monotonic() + limit
    while True:
        statuses = [s.status() for s in seats]
        if all(st["over"] and st["text"].count("游戏结束") for st in statuses):
            return clicks
        acted = False
        for seat, st in zip(seats, statuses, strict=True):
            if st["options"] and not st["over"]:
                assert "[object" not in st["text"] and "undefined" not in st["text"], st["text"]
                seat.screens.append((st["seq"], st["text"]))
                seat.page.locator("#options button").nth(rng.randrange(st["options"])).click()
                clicks += 1
                acted = True
        if not acted:
            seats[0].page.wait_for_timeout(20)
        assert time.monotonic() < deadline, f"the game did not end in {limit} s ({clicks} clicks)"


def _knowledge(observation: dict, history_size: int) -> str:
    """A seat's observation without its history, and the history's length: what a state message tells it."""
    return json.dumps([{k: v for k, v in observation.items() if k != "history"}, history_size], sort_keys=True)


def check_no_leaks(server: Server, tid: str, seats: list[SeatPage]) -> int:
    """Every frame a page received, and its text at each of its decisions, against the hidden values of the
    positions it may show (the game re-played from its seed: a frame carries no count of the game's actions, so
    it is checked at every position where its seat's observation is the frame's). Returns how many values were
    compared."""
    web = server.table(tid)
    content = load_cached()
    names = Names(content)
    actions = web.state.history()
    frames: dict[tuple[int, str], list[str]] = {}
    screens: dict[tuple[int, int], list[str]] = {}
    for page in seats:
        seat = int(page.status()["seat"])
        for text in page.frames:
            msg = json.loads(text)
            if msg["type"] == "state":
                obs = msg["observation"]
                key = _knowledge(obs, msg["history_from"] + len(obs["history"]))
                frames.setdefault((msg["seat"], key), []).append(text)
        for seq, screen in page.screens:
            screens.setdefault((seat, seq), []).append(screen)
    state = GameState(content, web.players, web.table.setup.seed)
    humans = sorted(web.seats)
    asked = dict.fromkeys(humans, 0)
    matched: set[tuple[int, str]] = set()
    compared = 0
    for ply in range(len(actions) + 1):
        for seat in humans:
            obs = json.loads(json.dumps(state.observation(seat), ensure_ascii=False))
            key = (seat, _knowledge(obs, len(obs["history"])))
            deciding = not state.is_terminal() and state.current_player() == seat
            asked[seat] += deciding
            shown = [(t, json.loads(t)) for t in frames.get(key, ())]
            shown += [(t, {}) for t in (screens.get((seat, asked[seat]), ()) if deciding else ())]
            if not shown:
                continue
            matched.add(key)
            hidden = hidden_values(state, seat, names)
            for text, data in shown:
                if data.get("summary") is not None:  # the end's reveal turns every card up (test_web_page.py)
                    assert state.is_terminal()
                    data = {k: v for k, v in data.items() if k != "summary"}
                    text = json.dumps(data, ensure_ascii=False)
                found = leaks(text, data, hidden, names)
                assert not found, f"P{seat} was shown {found} at ply {ply}"
                compared += sum(len(v) for k, v in hidden.items() if k != "allowed")
        if ply < len(actions):
            state.apply_action(actions[ply])
    assert set(frames) <= matched, "a frame shows a position the game never was in"
    return compared


def _make_table(page, seats: list[str], seed: int, host: str | None = None) -> list[str]:
    """Make a table through the lobby's form (the host sits at its first human seat, or at `host`: a seat's number,
    or "" for none); the reserved seats' links in seat order: the host's own seat's and the invitations."""
    page.select_option("#players", str(len(seats)))
    for s, kind in enumerate(seats):
        page.select_option(f"#seat-{s}", kind)
    if host is not None:
        page.select_option("#host-seat", host)
    page.fill("#seed", str(seed))
    page.click("#create-button")
    page.wait_for_selector("#created .my-seat")  # (the tables made before are listed under 你开的桌 too)
    mine = page.locator("#created .join-link").all()
    links = [(int(a.get_attribute("data-seat")), a.get_attribute("href")) for a in mine]
    invites = page.locator("#created .invite-link").all()
    links += [(int(c.get_attribute("data-seat")), c.get_attribute("data-href")) for c in invites]
    return [link for _, link in sorted(links)]


def test_three_browsers_and_two_bots_play_a_whole_game_and_see_only_their_seats():
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        links = _make_table(lobby, ["human", "heuristic", "human", "human", "random"], seed=31)
        assert [link.split("#seat=")[1].split("&")[0] for link in links] == ["0", "2", "3"]
        assert "token=" in links[0] and all("invite=" in link for link in links[1:])  # the host's seat, invitations
        assert "你的座位是 P0" in lobby.inner_text("#created") and "只能用一次" in lobby.inner_text("#created")
        assert "种子是你指定的" in lobby.inner_text("#created") and "种子 " not in lobby.inner_text("#created")
        seats = [SeatPage(browser, server.url + link) for link in links]
        for s in seats:
            s.page.wait_for_selector("#log div")
        assert [s.status()["seat"] for s in seats] == [0, 2, 3]
        clicks = play_through_pages(seats, random.Random(7))
        web = server.table("t1")
        assert web.over() and clicks > 20 and len(web.state.history()) > clicks  # the bots moved too
        for s in seats:
            text = s.status()["text"]
            assert "游戏结束" in text and "胜者" in text and "下载你这一席的日志" in text
        assert check_no_leaks(server, "t1", seats) > 300
        # the lobby lists the table as finished; the host's log link downloads the referee's log
        lobby.goto(server.url + "/")
        lobby.wait_for_selector("tr[data-table=t1]")
        assert "已结束" in lobby.inner_text("tr[data-table=t1]")
        browser.close()


def test_a_browser_rejoins_and_a_forged_action_is_refused():
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        (link,) = _make_table(lobby, ["human", "heuristic", "random"], seed=4, host="")  # the host does not play
        assert "invite=" in link and "你不在这张桌上坐" in lobby.inner_text("#created")
        seat = SeatPage(browser, server.url + link)
        page = seat.page
        page.wait_for_selector("#options button")
        for _ in range(4):
            page.wait_for_selector("#options button:not([disabled])")
            page.locator("#options button").first.click()
        page.wait_for_selector("#options button:not([disabled])")
        web = server.table("t1")
        before = web.state.history()
        # a forged action id, and a stale seq, sent over the page's own websocket
        page.evaluate("() => ws.send(JSON.stringify({type: 'act', seq: state.seq, action: 987654}))")
        page.wait_for_selector(".banner.error")
        assert "不是现在合法的选择" in page.inner_text("#banner")
        page.evaluate("() => ws.send(JSON.stringify({type: 'act', seq: state.seq - 1, action: state.actions[0].id}))")
        page.wait_for_function("() => document.querySelector('#banner').innerText.includes('已过期')")
        assert web.state.history() == before
        # the page is closed and opened again with the same link: the same position, the whole log
        seq = seat.status()["seq"]
        log_lines = page.locator("#log div").count()
        page.close()
        again = seat.context.new_page()
        again.goto(server.url + link)
        again.wait_for_selector("#options button:not([disabled])")
        assert int(again.evaluate("() => document.body.dataset.seq")) == seq == 5  # four answers, asked the fifth
        assert again.locator("#log div").count() == log_lines
        assert again.locator("#log div").first.inner_text().startswith("游戏开始")
        assert "token=" in again.url and "invite=" not in again.url  # the address bar holds the seat's own link
        # the invitation in another browser (the host who kept it, say): refused, it was used
        other = browser.new_context().new_page()
        other.goto(server.url + link)
        other.wait_for_selector(".banner.error")
        assert "已经用过" in other.inner_text("#banner")
        # a link without its token, and one with a forged token
        bad = browser.new_page()
        bad.goto(server.url + "/table/t1#seat=0&token=forged")
        bad.wait_for_selector(".banner.error")
        assert "不对应" in bad.inner_text("#banner")
        browser.close()


def _dead_socket(port: int, tid: str, key: str) -> socket.socket:
    """A websocket of a seat that joined and then went silent: it never reads, answers no ping and never closes (a
    phone that lost its network; the server cannot tell it from a quiet one until a ping goes unanswered)."""
    import base64

    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(
        (
            f"GET /ws/{tid} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert s.recv(4096).startswith(b"HTTP/1.1 101")
    data, mask = json.dumps({"type": "join", "token": key}).encode(), os.urandom(4)
    assert len(data) < 126
    s.sendall(bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
    return s


def test_a_player_whose_connections_died_gets_back_to_the_seat_and_the_oldest_window_gives_way():
    """The seat's earlier connections died without a close (four of them: the limit), and its player opens the link
    again and reloads a few times: the page gets the seat (it was refused, 4429, while the server still counted the
    dead ones) and plays. A live window that is the seat's oldest gives way to a newer one: it says why and does not
    reconnect by itself (two windows would otherwise take the seat from each other for ever), but its 在这里继续
    takes the seat back there and then, and the oldest of the others gives way in its turn."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        (link,) = _make_table(lobby, ["human", "heuristic", "random"], seed=4)
        key = link.split("token=")[1]
        web = server.table("t1")
        dead = [_dead_socket(server.port, "t1", key) for _ in range(4)]
        deadline = time.monotonic() + 10
        while web.seats[0].connected < 4:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        seat = SeatPage(browser, server.url + link)
        page = seat.page
        for _ in range(3):
            page.wait_for_selector("#options button:not([disabled])")
            page.reload()
        page.wait_for_selector("#options button:not([disabled])")
        assert "窗口" not in page.inner_text("#banner") and web.seats[0].connected == 4
        page.locator("#options button").first.click()
        page.wait_for_function("() => Number(document.body.dataset.seq) === 2")
        # the page is now the seat's oldest live window: a window opened on each of four others' place takes it
        sockets_of_page: list[object] = []
        page.on("websocket", lambda ws: sockets_of_page.append(ws))
        newer = [SeatPage(browser, server.url + link) for _ in range(4)]
        for other in newer:
            other.page.wait_for_selector("#options button:not([disabled])")
        page.wait_for_selector("#banner .error #continue-here")
        assert "让了出来" in page.inner_text("#banner")
        time.sleep(2.5)  # (the page's reconnect comes after 1 s: none comes)
        assert sockets_of_page == [] and web.seats[0].connected == 4
        # 在这里继续: the window takes the seat back at once (no reload); the oldest of the others gives way, told so
        page.click("#continue-here")
        page.wait_for_selector("#options button:not([disabled])")
        assert len(sockets_of_page) == 1 and "让了出来" not in page.inner_text("#banner")
        newer[0].page.wait_for_selector("#banner .error #continue-here")
        assert "让了出来" in newer[0].page.inner_text("#banner") and web.seats[0].connected == 4
        page.locator("#options button").first.click()
        newer[1].page.wait_for_function("() => Number(document.body.dataset.seq) === 3")
        for s in dead:
            s.close()
        browser.close()


RETRY_STATUS = """() => ({
  tries: Number(document.body.dataset.retries || 0), wait: Number(document.body.dataset.retryWait),
  banner: document.getElementById("banner").innerText, error: Boolean(document.querySelector("#banner .error"))})"""


@pytest.mark.parametrize(
    ("limits", "says"),
    [
        pytest.param({"sockets": 1}, "服务器现在的连接满了", id="1013-busy-server"),
        pytest.param({"watchers_per_table": 1}, "观战的人满了（最多 1 人）", id="4429-full-gallery"),
    ],
)
def test_a_page_refused_for_now_tries_again_later_and_later_says_so_and_gets_in(limits, says):
    """A page the server turns away for now (it holds all the connections it takes, 1013; the table's spectators'
    gallery is full, 4429) says why and when it tries again, tries again after 1 s, 2 s, 4 s … at most 30 s (each a
    fifth shorter or longer at random), at once when asked (现在重连), and gets in once there is room. It gave up
    until a reload at the first refusal, told the refusal was fatal. The page's clock is Playwright's, moved on by
    the test: no test waits out the pauses."""
    from playwright.sync_api import sync_playwright

    from interpreter.web.guard import Limits

    with Server(limits=Limits(**limits)) as server, sync_playwright() as p:
        browser = _browser(p)
        first = browser.new_context()
        assert first.request.post(server.url + "/api/tables", data={"seats": ["human", "random"]}).ok
        there = first.new_page()
        there.goto(server.url + "/table/t1#watch")
        there.wait_for_selector("#people li")
        page = browser.new_page()
        page.clock.install()
        page.goto(server.url + "/table/t1#watch")
        waits = []
        for tries in range(1, 9):
            page.wait_for_function(f"() => Number(document.body.dataset.retries) === {tries}")
            status = page.evaluate(RETRY_STATUS)
            assert says in status["banner"] and f"后重新连接（第 {tries} 次）" in status["banner"], status
            assert not status["error"]
            waits.append(status["wait"])
            page.clock.run_for(status["wait"] + 50)
        for tries, wait in enumerate(waits, 1):
            pause = min(30, 2 ** (tries - 1)) * 1000
            assert 0.8 * pause - 1 <= wait <= min(1.2 * pause, 30_000) + 1, waits
        assert max(waits) <= 30_000 and waits[-1] > 20_000
        page.wait_for_function("() => Number(document.body.dataset.retries) === 9")
        page.click("#reconnect-now")  # (at once: no wait)
        page.wait_for_function("() => Number(document.body.dataset.retries) === 10")
        assert "服务器关闭了" not in page.inner_text("#banner")
        there.close()
        page.clock.run_for(page.evaluate(RETRY_STATUS)["wait"] + 50)
        page.wait_for_selector("#people li")
        page.wait_for_function("() => !document.querySelector('#banner .retry')")
        assert page.inner_text("#banner") == ""
        browser.close()


def test_a_forged_key_or_a_table_gone_is_said_once_and_never_asked_again():
    """A close that would be refused again (no seat has the key, no such table) stays final: the page says why and
    opens no other websocket, however long it stays open (the page's clock moved on ten minutes)."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        assert browser.new_context().request.post(server.url + "/api/tables", data={"seats": ["human", "random"]}).ok
        for link, says in (("/table/t1#seat=0&token=forged", "不对应"), ("/table/t9#watch", "没有这张桌")):
            page = browser.new_page()
            opened: list[object] = []
            page.on("websocket", lambda ws, opened=opened: opened.append(ws))
            page.clock.install()
            page.goto(server.url + link)
            page.wait_for_selector(".banner.error")
            page.clock.run_for(600_000)
            page.wait_for_timeout(300)
            assert says in page.inner_text("#banner") and "重新连接" not in page.inner_text("#banner")
            assert len(opened) == 1 and not page.evaluate("() => document.body.dataset.retries")
        browser.close()


def test_the_host_replaces_an_invitation_that_was_lost_and_the_old_link_opens_nothing():
    """The host's own seat page offers, for each invitation nobody used yet, a new link (换一个新链接): the new one
    is shown in place and kept in the host's browser (the lobby shows it after a reload); the old one, opened, says
    the host may have replaced it; the new one opens the seat."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        host = browser.new_context()
        lobby = host.new_page()
        lobby.goto(server.url + "/")
        own, old = _make_table(lobby, ["human", "human", "random"], seed=4)
        mine = host.new_page()
        mine.goto(server.url + own)
        mine.wait_for_selector("#host-panel:not([hidden]) .renew-invite")
        mine.click("#host-invites .renew-invite[data-seat='1']")
        mine.wait_for_selector("#host-invites .renewed")
        new = mine.locator("#host-invites .invite-link").get_attribute("data-href")
        assert new != old and new.startswith("/table/t1#seat=1&invite=")
        lobby.reload()
        lobby.wait_for_selector("#hosted .hosted[data-table=t1] .invite-link")
        assert lobby.locator("#hosted .invite-link").get_attribute("data-href") == new
        guest = browser.new_context()
        stale = guest.new_page()
        stale.goto(server.url + old)
        stale.wait_for_selector(".banner.error")
        assert "开桌的人可能换了新的邀请链接" in stale.inner_text("#banner")
        seat = guest.new_page()
        seat.goto(server.url + new)
        seat.wait_for_selector("#log div")
        assert seat.evaluate("() => document.body.dataset.seat") == "1"
        mine.wait_for_selector("#host-panel", state="hidden")  # (used now: nothing left to hand out)
        browser.close()


def test_the_host_sees_the_unused_invitations_again_after_a_reload_and_no_one_else_does():
    """The lobby showed the host's links once, right after the table was made: a reload lost the invitations not yet
    sent. The host's browser keeps them (the server keeps only their digests) and shows them again, under 你开的桌
    in the lobby and on the table's own page, with those already used said so; a guest's browser shows none. A
    server that lost its tables (restarted on a database in memory) may give the same id to another table: the
    host's browser forgets the old one instead of showing its links for the new one."""
    from playwright.sync_api import sync_playwright

    def texts(page, selector: str) -> list[str]:
        return [x.inner_text() for x in page.locator(selector).all()]

    with sync_playwright() as p:
        browser = _browser(p)
        with Server() as server:
            port = server.port
            host = browser.new_context()
            lobby = host.new_page()
            lobby.goto(server.url + "/")
            links = _make_table(lobby, ["human", "human", "heuristic", "human", "random"], seed=9)
            own, p1, p3 = links
            early = browser.new_context().new_page()  # (P3's guest, before the host's reload)
            early.goto(server.url + p3)
            early.wait_for_selector("#log div")
            lobby.wait_for_selector("#created li.used[data-seat='3']")  # the lobby left open says so
            assert [c.get_attribute("data-seat") for c in lobby.locator("#created .invite-link").all()] == ["1"]
            early.context.close()
            lobby.reload()
            lobby.wait_for_selector("#hosted .hosted[data-table=t1] .invite-link")
            assert lobby.inner_text("#created") == ""
            shown = lobby.locator("#hosted .hosted[data-table=t1]")
            assert shown.locator(".join-link").get_attribute("href") == own
            assert [c.get_attribute("data-href") for c in shown.locator(".invite-link").all()] == [p1]
            assert shown.locator("li.used[data-seat='3']").count() == 1
            assert shown.locator(".host-log").get_attribute("href").startswith("/api/tables/t1/log?token=")
            # the host's own seat page shows the unused invitation; a guest's page and lobby show none
            mine = host.new_page()
            mine.goto(server.url + own)
            mine.wait_for_selector("#host-panel:not([hidden]) .invite-link")
            assert [c.get_attribute("data-href") for c in mine.locator("#host-invites .invite-link").all()] == [p1]
            # not on the table's spectator view in the host's browser (a screen an audience may watch): whoever sees
            # an unused invitation can take its seat
            from playwright.sync_api import TimeoutError as PlaywrightTimeout

            watch = host.new_page()
            watch.goto(server.url + "/table/t1#watch")
            watch.wait_for_selector("#people li")
            with pytest.raises(PlaywrightTimeout):
                watch.wait_for_selector("#host-panel:not([hidden])", timeout=3000)
            assert watch.locator(".invite-link").count() == 0
            watch.close()
            # the last guest opens P1's invitation: the host's lobby says it was used, the seat page drops its panel
            guest = browser.new_context()
            guest_seat = guest.new_page()
            guest_seat.goto(server.url + p1)
            guest_seat.wait_for_selector("#log div")
            lobby.wait_for_selector("#hosted li.used[data-seat='1']")
            assert texts(lobby, "#hosted .invite-link") == []
            mine.wait_for_selector("#host-panel", state="hidden")
            guest_lobby = guest.new_page()
            guest_lobby.goto(server.url + "/")
            guest_lobby.wait_for_selector("tr[data-table=t1]")
            assert guest_lobby.locator("#hosted-panel").is_hidden() and guest_seat.locator("#host-panel").is_hidden()
            assert texts(guest_lobby, ".invite-link") == [] and texts(guest_seat, ".invite-link") == []
            assert lobby.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('fengsheng:hosted:'))")
            # the server not answering the host's question for a moment (a request lost on a bad link) while the lobby
            # redraws (another table was made): the table made here stays shown as it was, not hidden until the next
            # change of the tables
            lost: list[str] = []
            lobby.route("**/api/tables/t1/host", lambda route: (lost.append(route.request.url), route.abort()))
            assert guest.request.post(server.url + "/api/tables", data={"seats": ["human", "random"]}).ok
            lobby.wait_for_selector("tr[data-table=t2]")
            deadline = time.monotonic() + 10
            while not lost:
                assert time.monotonic() < deadline
                lobby.wait_for_timeout(100)
            lobby.wait_for_timeout(500)
            assert lobby.locator("#hosted .hosted[data-table=t1] li.used[data-seat='1']").count() == 1
            lobby.unroute("**/api/tables/t1/host")
        with Server(port=port) as again:  # (its tables in memory: the restart lost them)
            other = browser.new_context().new_page()
            other.goto(again.url + "/")
            _make_table(other, ["human", "human", "random"], seed=2)  # another table t1, of another host
            lobby.goto(again.url + "/")
            lobby.wait_for_selector("tr[data-table=t1]")
            lobby.wait_for_function(
                "() => !Object.keys(localStorage).some((k) => k.startsWith('fengsheng:hosted:'))", timeout=10_000
            )
            assert lobby.locator("#hosted-panel").is_hidden() and texts(lobby, ".invite-link") == []
        browser.close()


def test_a_page_reconnects_to_the_same_position_after_the_server_comes_back(tmp_path):
    """The server stops mid-game (its tables in a database file) and starts again on the same port: the page,
    left open, reconnects by itself to the same position with the same log, and the game plays on to its end."""
    from playwright.sync_api import sync_playwright

    db = tmp_path / "tables.sqlite3"
    with sync_playwright() as p:
        browser = _browser(p)
        with Server(db=db) as server:
            port = server.port
            lobby = browser.new_page()
            lobby.goto(server.url + "/")
            (link,) = _make_table(lobby, ["human", "heuristic", "random"], seed=4, host="")
            seat = SeatPage(browser, server.url + link)
            page = seat.page
            for _ in range(4):
                page.wait_for_selector("#options button:not([disabled])")
                page.locator("#options button").first.click()
            page.wait_for_selector("#options button:not([disabled])")
            seq, log_lines = seat.status()["seq"], page.locator("#log div").count()
            history = server.table("t1").state.history()
        page.wait_for_function("() => document.querySelector('#banner').innerText.includes('重新连接')")
        with Server(db=db, port=port) as again:
            page.wait_for_function("() => !document.querySelector('#banner .info')")
            page.wait_for_selector("#options button:not([disabled])")
            assert seat.status()["seq"] == seq == 5 and page.locator("#log div").count() == log_lines
            assert again.table("t1").state.history() == history
            play_through_pages([seat], random.Random(3))
            assert again.table("t1").over()
        browser.close()


def test_names_and_chat_show_as_text_and_the_table_shows_who_is_online():
    """A name and a chat line that look like markup are shown as the text they are (no element made, no script
    run); each page lists the table's people, online or not."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        links = _make_table(lobby, ["human", "human", "random"], seed=5)
        a, b = (SeatPage(browser, server.url + link) for link in links)
        dialogs: list[str] = []
        for seat in (a, b):
            seat.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            seat.page.wait_for_selector("#people li")
        a.page.fill("#name", "<script>alert(1)</script>")
        a.page.click("#name-form button")
        b.page.wait_for_function(
            "() => document.querySelector('#people').innerText.includes('P0 <script>alert(1)</script> · 在线')"
        )
        b.page.fill("#name", "<img src=x onerror=alert(2)>")
        b.page.click("#name-form button")
        b.page.fill("#chat-text", "<b>hi</b><img src=x onerror=alert(3)>")
        b.page.click("#chat-form button")
        a.page.wait_for_function(
            "() => document.querySelector('#chat').innerText.includes('<b>hi</b><img src=x onerror=alert(3)>')"
        )
        assert "P1 <img src=x onerror=alert(2)>：" in a.page.inner_text("#chat")
        for seat in (a, b):
            assert seat.page.locator("#people script, #people img, #chat img, #chat script").count() == 0
            assert seat.page.locator("#chat b").count() == 1  # the line's own label, not the person's <b>
        assert "&lt;script&gt;" in b.page.inner_html("#people")
        b.context.close()  # P1 leaves: P0's page shows it offline
        a.page.wait_for_function(
            "() => document.querySelector('#people').innerText.includes('onerror=alert(2)> · 离线')"
        )
        assert dialogs == []
        assert server.table("t1").seats[0].name == "<script>alert(1)</script>"
        browser.close()


def test_a_spectator_follows_a_table_from_the_lobby_seeing_only_the_public_view():
    """The lobby's 观战 opens the table's public view: the players, the log, no panel of one's own, no decision to
    answer; its frames carry no hidden value at any position; the seat's page counts one spectator."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        (link,) = _make_table(lobby, ["human", "heuristic", "random"], seed=8)
        seat = SeatPage(browser, server.url + link)
        seat.page.wait_for_selector("#options button")
        lobby.goto(server.url + "/")
        lobby.wait_for_selector("tr[data-table=t1] a.watch-link")
        watcher = SeatPage(browser, server.url + lobby.locator("tr[data-table=t1] a.watch-link").get_attribute("href"))
        watcher.page.wait_for_selector("#log div")
        seat.page.wait_for_function("() => document.querySelector('#people').innerText.includes('1 人在观战')")
        play_through_pages([seat], random.Random(4))
        watcher.page.wait_for_function("() => document.body.dataset.over === '1'")
        page = watcher.page
        assert "观战" in page.inner_text("#title") and page.locator("#mine").is_hidden()
        assert page.locator("#options button").count() == 0 and page.locator("#name-form").is_hidden()
        assert "下载你这一席的日志" not in page.inner_text("body")
        assert page.locator("#summary-box").is_visible()  # the end's reveal, as the seats are shown it
        web, names = server.table("t1"), Names(load_cached())
        state = GameState(load_cached(), web.players, web.table.setup.seed)
        frames: dict[str, list[dict]] = {}
        for text in watcher.frames:
            f = json.loads(text)
            if f["type"] == "state":
                assert f["seat"] is None and not f["actions"]
                obs = f["observation"]
                frames.setdefault(_knowledge(obs, f["history_from"] + len(obs["history"])), []).append(f)
        checked, matched = 0, set()
        for ply in range(len(web.state.history()) + 1):  # each frame checked at the positions it may show
            public = json.loads(json.dumps(state.public_observation(), ensure_ascii=False))
            key = _knowledge(public, len(public["history"]))
            hidden = spectator_hidden(state, names)
            for f in frames.get(key, ()):
                if f.get("summary") is not None:  # the end's reveal, shown to a spectator too (test_web_spectator.py)
                    assert state.is_terminal()
                    f = {k: v for k, v in f.items() if k != "summary"}
                assert not leaks(json.dumps(f, ensure_ascii=False), f, hidden, names), f"ply {ply}"
                checked += 1
                matched.add(key)
            if ply < len(web.state.history()):
                state.apply_action(web.state.history()[ply])
        assert set(frames) == matched, "a frame shows a position the game never was in"
        assert checked > 0
        browser.close()


def test_a_stranger_takes_an_open_seat_from_the_lobby():
    """The lobby's 加入 (a JSON POST: the server takes no other) sits a stranger at the open seat; the lobby lists
    the table by its turn, never a count of actions."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        host = browser.new_page()
        host.goto(server.url + "/")
        (mine,) = _make_table(host, ["human", "open", "random"], seed=6)
        stranger = browser.new_context().new_page()
        stranger.goto(server.url + "/")
        stranger.wait_for_selector("tr[data-table=t1] button")
        assert "第 " in stranger.inner_text("tr[data-table=t1]") and " 步" not in stranger.inner_text(
            "tr[data-table=t1]"
        )

        def late(route):  # a slow network: the page's last script arrives after its websocket opened
            time.sleep(0.5)
            route.continue_()

        stranger.route("**/static/people.js", late)
        stranger.click("tr[data-table=t1] button")
        stranger.wait_for_url("**/table/t1#*")  # the claim answered: the page went to the seat it was given
        stranger.wait_for_selector("#log div")
        assert PAGE_ERRORS == []
        assert "token=" in stranger.url and int(stranger.evaluate("() => document.body.dataset.seat")) == 1
        assert "开桌的人指定" in stranger.inner_text("#chosen-seed")  # the host chose the seed: everyone is told
        assert server.table("t1").seats[1].claimed and "token=" in mine
        browser.close()


def test_a_stranger_who_closed_the_seats_tab_finds_it_again_in_the_lobby():
    """The lobby's 加入 sends its stranger to the seat's page, whose link (its key) was never shown anywhere else: a
    closed tab was a seat lost, 加入 gone with the last open seat. The browser keeps the seat it sits at, and the
    lobby offers it back (回到我的座位) in that browser alone; a key the server no longer knows is forgotten."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        host = browser.new_page()
        host.goto(server.url + "/")
        _make_table(host, ["human", "open", "random"], seed=6)
        stranger = browser.new_context()
        page = stranger.new_page()
        page.goto(server.url + "/")
        page.click("tr[data-table=t1] button")
        page.wait_for_selector("#log div")
        seat_url = page.url
        page.close()
        lobby = stranger.new_page()
        lobby.goto(server.url + "/")
        lobby.wait_for_selector("tr[data-table=t1] .my-seat-link")
        assert lobby.locator("tr[data-table=t1] button").count() == 0  # (no open seat left: no 加入)
        assert lobby.inner_text("tr[data-table=t1] .my-seat-link") == "回到我的座位 P1"
        lobby.click("tr[data-table=t1] .my-seat-link")
        lobby.wait_for_selector("#log div")
        assert lobby.url == seat_url and int(lobby.evaluate("() => document.body.dataset.seat")) == 1
        # the host's browser offers its own seat back; a third browser, none
        host.reload()
        host.wait_for_selector("tr[data-table=t1] .my-seat-link[data-seat='0']")
        other = browser.new_context().new_page()
        other.goto(server.url + "/")
        other.wait_for_selector("tr[data-table=t1]")
        assert other.locator(".my-seat-link").count() == 0
        # a key the server does not know at this table (a table of the same id after a restart in memory): the page
        # says so, and the lobby no longer offers it
        stale = "() => localStorage.setItem('fengsheng:seat:t1', JSON.stringify({seat: 1, token: 'x'.repeat(22)}))"
        lobby.evaluate(stale)
        lobby.goto("about:blank")  # (from the seat's page: only the fragment would change, the page would stay)
        lobby.goto(server.url + "/table/t1#seat=1&token=" + "x" * 22)
        lobby.wait_for_selector(".banner.error")
        lobby.goto(server.url + "/")
        lobby.wait_for_selector("tr[data-table=t1]")
        assert lobby.locator(".my-seat-link").count() == 0
        browser.close()


def test_a_table_kept_but_not_restored_keeps_its_links_in_the_lobby_and_a_table_gone_loses_them(tmp_path):
    """A restart that cannot restore a table (the role its host pinned is gone from its content) keeps it in the
    database, unplayed, until its owner puts the content back: the browsers that hold its links — its host's (你开的桌)
    and a stranger's seat taken from the lobby (回到我的座位) — keep them and say the table is kept but not restored
    (the server answers 410), where a table the server does not have (a 404) is forgotten."""
    import sqlite3

    from playwright.sync_api import sync_playwright

    db = tmp_path / "tables.sqlite3"
    hosted = "localStorage.getItem('fengsheng:hosted:t1') !== null"
    sat = "localStorage.getItem('fengsheng:seat:t1') !== null"
    with sync_playwright() as p:
        browser = _browser(p)
        host, stranger = browser.new_context().new_page(), browser.new_context().new_page()
        with Server(db=db) as server:
            port = server.port
            host.goto(server.url + "/")
            _make_table(host, ["human", "open", "random"], seed=6)
            stranger.goto(server.url + "/")
            stranger.click("tr[data-table=t1] button")
            stranger.wait_for_selector("#log div")
            assert host.evaluate(hosted) and stranger.evaluate(sat)
        raw = sqlite3.connect(db)
        with raw:
            (settings,) = raw.execute("SELECT settings FROM tables WHERE id = 't1'").fetchone()
            pinned = {**json.loads(settings), "pin": ["no_such_role", 0]}
            raw.execute("UPDATE tables SET settings = ? WHERE id = 't1'", (json.dumps(pinned),))
        raw.close()
        with Server(db=db, port=port) as again:
            assert again.app.state.tables.tables == {} and "no_such_role" in again.app.state.restore_problems[0]
            host.goto(again.url + "/")
            host.wait_for_selector("#hosted .hosted[data-table=t1] .unrestored")
            panel = host.inner_text("#hosted .hosted[data-table=t1]")
            assert "没能恢复" in panel
            # (its open seat cannot be taken from the lobby until it is restored: said so, not 点「加入」就能坐下)
            assert "这张桌恢复之后，大厅里的人点「加入」" in panel and "没有链接，大厅里的人" not in panel, panel
            host.wait_for_selector("tr.unrestored[data-table=t1] .my-seat-link[data-seat='0']")
            stranger.goto(again.url + "/")
            stranger.wait_for_selector("tr.unrestored[data-table=t1] .my-seat-link[data-seat='1']")
            stranger.click("tr[data-table=t1] .my-seat-link")  # the seat's page says why it does not open
            stranger.wait_for_selector(".banner.error")
            assert "没能恢复" in stranger.inner_text("#banner")
            assert host.evaluate(hosted) and stranger.evaluate(sat)
        with Server(port=port) as other:  # (its database in memory: no table t1)
            for page, kept in ((host, hosted), (stranger, sat)):
                page.goto(other.url + "/")
                page.wait_for_function(f"() => !({kept})", timeout=10_000)
            assert host.locator("#hosted-panel").is_hidden() and host.locator(".my-seat-link").count() == 0
        browser.close()


def test_another_link_of_the_table_opened_in_a_seats_tab_opens_that_seat():
    """Another link of the same table pasted into a seat's tab (a second seat's, someone trying two seats on one
    machine; the spectator's view): only the fragment changes, and the page stayed at the first seat, showing its
    hand under the other link in the address bar. It now loads the link's seat, or the spectator's view."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        own, invite = _make_table(lobby, ["human", "human", "random"], seed=6)
        page = browser.new_page()
        page.goto(server.url + own)
        page.wait_for_function("() => document.body.dataset.seat === '0'")
        page.goto(server.url + invite)
        page.wait_for_function("() => document.body.dataset.seat === '1'")
        assert "你是 P1" in page.inner_text("#title") and "token=" in page.url
        page.goto(server.url + "/table/t1#watch")
        page.wait_for_function("() => document.body.dataset.seat === 'null'")
        assert "观战" in page.inner_text("#title")
        browser.close()


def test_the_replay_viewer_steps_through_a_finished_tables_log(tmp_path):
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        (link,) = _make_table(lobby, ["human", "random", "random"], seed=9)
        host_log = lobby.locator("a.host-log").get_attribute("href")
        seat = SeatPage(browser, server.url + link)
        play_through_pages([seat], random.Random(2))
        with seat.page.expect_download() as got:
            seat.page.click("#seat-log")
        mine = tmp_path / "p0.jsonl"
        got.value.save_as(mine)
        referee = tmp_path / "referee.jsonl"
        response = lobby.request.get(server.url + host_log)
        assert response.ok
        referee.write_bytes(response.body())
        viewer = browser.new_page()
        viewer.goto(server.url + "/replay")
        viewer.set_input_files("#file", str(referee))
        viewer.wait_for_selector("#steps div")
        assert viewer.locator("#view option").count() == 5  # referee, public, P0–P2
        assert viewer.inner_text("#current").startswith("发牌（只有裁判看得到）")
        viewer.click("#next")
        assert viewer.inner_text("#current").startswith("游戏开始")
        everything = viewer.locator("#steps div").count()
        viewer.select_option("#view", "P1")
        viewer.wait_for_function(f"() => document.querySelectorAll('#steps div').length < {everything}")
        assert "发牌" not in viewer.inner_text("#steps")
        viewer.wait_for_selector("#board:not([hidden])")  # P1's screen at that step
        assert "P1（你）" in viewer.inner_text("#board-players") and "身份：" in viewer.inner_text("#board-me")
        viewer.click("#last")
        assert "第" in viewer.inner_text("#position")
        viewer.set_input_files("#file", str(mine))  # a seat's own copy: only as that seat
        viewer.wait_for_function("() => document.querySelector('#view').options.length === 1")
        assert viewer.locator("#view option").first.inner_text() == "P0"
        browser.close()


def screenshot(path: str) -> None:
    """A table in play at P0 of five (three people, two bots), mid-game, for the README."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        links = _make_table(lobby, ["human", "heuristic", "human", "human", "heuristic"], seed=2026)
        seats = [SeatPage(browser, server.url + link) for link in links]
        rng = random.Random(1)
        clicks = 0
        while clicks < 40:
            for s in seats:
                st = s.status()
                if st["options"] and not st["over"]:
                    s.page.locator("#options button").nth(rng.randrange(st["options"])).click()
                    clicks += 1
            seats[0].page.wait_for_timeout(30)
        page = seats[0].page
        deadline = time.monotonic() + 60
        while not seats[0].status()["options"] and time.monotonic() < deadline:
            for s in seats[1:]:
                st = s.status()
                if st["options"]:
                    s.page.locator("#options button").nth(rng.randrange(st["options"])).click()
            page.wait_for_timeout(50)
        page.wait_for_timeout(300)
        page.screenshot(path=path, full_page=False)
        browser.close()


def test_the_lobby_keeps_a_move_timer_out_of_range_in_the_form():
    """A move timer of 5 seconds (the server takes 10 to 3600) is stopped by the form, as the seed's digits are:
    it reached the server, whose English refusal ('the move timer is a whole number of seconds from 10 to 3600, or
    null') was the lobby's only answer. Found by a newcomer's walk-through."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        lobby.wait_for_selector("#seat-1")
        for wrong in ("5", "3601", "12.5"):
            lobby.fill("#timer", wrong)
            lobby.click("#create-button")
            assert lobby.evaluate("() => document.getElementById('timer').validity.valid") is False, wrong
        lobby.wait_for_timeout(300)
        assert lobby.inner_text("#created") == "" and server.app.state.tables.tables == {}  # nothing was sent
        lobby.fill("#timer", "30")
        lobby.click("#create-button")
        lobby.wait_for_selector("#created .my-seat")
        assert server.table("t1").timer == 30
        assert PAGE_ERRORS == []
        browser.close()


def test_the_replay_viewer_says_in_chinese_why_a_tables_log_does_not_open():
    """The viewer opened for a table's log before the end (a bookmarked or shared link), with a key that is not a
    seat's, or for a table the server does not hold showed the server's English reason ('the game is not over: its
    log is kept until it ends …') on its Chinese page. Found by a newcomer's walk-through."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        (link,) = _make_table(lobby, ["human", "heuristic", "random"], seed=4)
        token = link.split("token=")[1]
        for table, key, words in (("t1", token, "还没有结束"), ("t1", "forged", "打不开"), ("t9", token, "没有这张桌")):
            viewer = browser.new_page()
            viewer.goto(f"{server.url}/replay#table={table}&view=referee&token={key}")
            viewer.wait_for_selector(".banner")
            shown = viewer.inner_text(".banner")
            assert words in shown and "the " not in shown, (table, key, shown)
            viewer.close()
        assert PAGE_ERRORS == []
        browser.close()


if __name__ == "__main__":
    screenshot(sys.argv[1] if len(sys.argv) > 1 else "table.png")


def test_the_lobbys_pinned_role_shows_a_wrong_id_and_tells_only_the_host_where_it_went():
    """serve --role's default in the lobby's form (its id not on the page), a mistyped id shown as the server's
    error with its did-you-mean, then a role pinned to a seat the host chose: the host's page says where it went,
    a guest's lobby lists the table with nothing of it."""
    from playwright.sync_api import sync_playwright

    with Server(default_role="qian_min") as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        lobby.wait_for_selector("#no-role-label:not([hidden])")  # (the server pins a role by default)
        assert "qian_min" not in lobby.content()
        lobby.fill("#role", "lao_hn")
        lobby.click("#create-button")
        error = lobby.wait_for_selector("#created .banner.error")
        assert "no role 'lao_hn' in this table's content: did you mean lao_han?" in error.text_content()
        lobby.fill("#role", "lao_han")
        lobby.select_option("#role-seat", "2")
        lobby.click("#create-button")
        pin = lobby.wait_for_selector("#created .pin")
        assert pin.get_attribute("data-seat") == "2" and "lao_han" in pin.text_content()
        tid = lobby.locator("#created").text_content().split("桌 ", 1)[1].split(" ", 1)[0]
        assert server.table(tid).table.setup.role_seat == 2
        guest = browser.new_context().new_page()  # (another browser: nothing of the host's kept)
        guest.goto(server.url + "/")
        row = guest.wait_for_selector(f"#tables tr[data-table='{tid}']")
        assert "lao_han" not in guest.content() and "老汉" not in row.text_content()
        browser.close()
