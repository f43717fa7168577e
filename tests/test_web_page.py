"""The browser table's page in Chromium (static/table.js, replay.js, style.css): the end-of-game reveal with the
logs a click away, the layout at 1280 px and at a 390 px phone (no element wider than its column, no header or
role name broken a character a line), what asks a decision, the turn bar and the replay's glyphs.

Slow, and skipped without Playwright or Chromium, as tests/test_web_browser.py (whose server and helpers it uses).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_web_browser import SeatPage, Server, _browser, _make_table, _missing, play_through_pages

pytestmark = [pytest.mark.slow, pytest.mark.skipif(_missing() is not None, reason=_missing() or "")]

# Every element of each column no wider than the column, no horizontal scrolling of the page, every header on
# one line, and no role name broken a character a line (each line of it holds at least two characters).
LAYOUT_CHECK = """() => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth + 1) problems.push(`the page scrolls sideways: ${doc.scrollWidth}`);
  for (const col of document.querySelectorAll(".layout > div")) {
    const box = col.getBoundingClientRect();
    for (const e of col.querySelectorAll("*")) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || getComputedStyle(e).display === "none") continue;
      if (r.left < box.left - 1 || r.right > box.right + 1)
        problems.push(`${e.tagName}.${e.className} ${Math.round(r.left)}..${Math.round(r.right)} ` +
          `outside its column ${Math.round(box.left)}..${Math.round(box.right)}: ${e.textContent.slice(0, 30)}`);
    }
  }
  const lines = (e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
  };
  for (const th of document.querySelectorAll("th")) {
    if (th.getBoundingClientRect().width && lines(th) > 1) problems.push(`header ${th.textContent} wraps`);
  }
  for (const role of document.querySelectorAll(".role")) {
    const n = lines(role);
    if (n > 1 && role.textContent.length / n < 2) problems.push(`role ${role.textContent} broken a character a line`);
  }
  return problems;
}"""


def _play_some(page, rng: random.Random, clicks: int) -> None:
    for _ in range(clicks):
        page.wait_for_selector("#options button:not([disabled])")
        buttons = page.locator("#options button")
        buttons.nth(rng.randrange(buttons.count())).click()
    page.wait_for_selector("#options button:not([disabled])")


def test_the_table_fits_1280_px_and_a_390_px_phone_and_names_who_asks(tmp_path):
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        (link,) = _make_table(lobby, ["human", "heuristic", "random", "heuristic", "random"], seed=5)
        seat = SeatPage(browser, server.url + link)
        page = seat.page
        _play_some(page, random.Random(1), 12)
        # the decision names who asks (规则, or a seat's card or skill), the turn bar says it is this seat's turn
        assert page.inner_text("#prompt").startswith(("规则：", "你的", "P"))
        assert "轮到你决定" in page.inner_text("#turn")
        for width, height in ((1280, 900), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(200)
            page.screenshot(path=str(tmp_path / f"table-{width}.png"), full_page=True)
            assert page.evaluate(LAYOUT_CHECK) == [], width
        page.set_viewport_size({"width": 1280, "height": 900})
        # what changed since this seat's last decision stays highlighted until it answers
        assert page.locator("#log div.new").count() > 0
        browser.close()


def test_the_end_reveals_every_identity_and_task_with_the_logs_a_click_away(tmp_path):
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        (link,) = _make_table(lobby, ["human", "random", "random", "random", "random"], seed=3)
        seat = SeatPage(browser, server.url + link)
        page = seat.page
        play_through_pages([seat], random.Random(2))
        web = server.table("t1")
        names = web.table.names
        page.wait_for_selector("#summary-box")
        reveal = page.inner_text("#summary-box")
        assert "终局：全部揭晓" in reveal and "游戏结束" in reveal
        for s in range(5):
            theirs = web.state.observation(s)["me"]
            row = page.inner_text(f"#summary-box tr[data-seat='{s}']")
            assert names.identity(theirs["identity"]) in row and names.role(theirs["role"]) in row
            if theirs["task"]:
                assert names.task(theirs["task"]) in row
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.wait_for_timeout(200)
            page.screenshot(path=str(tmp_path / f"end-{width}.png"), full_page=True)
            assert page.evaluate(LAYOUT_CHECK) == [], width
        page.set_viewport_size({"width": 1280, "height": 900})
        # one click: the referee's whole record in the replay viewer, with the board every card open
        page.click("#referee-replay")
        page.wait_for_selector("#steps div")
        assert page.inner_text("#current").startswith("发牌（只有裁判看得到）")
        assert "roles=" not in page.inner_text("#steps")  # no raw record
        page.wait_for_selector("#board:not([hidden])")
        assert "裁判视角" in page.inner_text("#board-me")
        page.click("#last")
        page.wait_for_selector("#reveal .summary")
        assert page.locator("button#first svg.glyph").count() == 1  # drawn inline, no system font needed
        assert "⏮" not in page.inner_text("body") and "⏭" not in page.inner_text("body")
        # and one seat's copy, from the same page
        page.go_back()
        page.wait_for_selector("#summary-box")
        page.click("a.seat-replay >> nth=2")
        page.wait_for_selector("#steps div")
        page.wait_for_function("() => document.querySelector('#view').value === 'P2'")
        assert "发牌" not in page.inner_text("#steps")
        browser.close()


def test_the_move_timer_answers_the_first_option_when_it_runs_out():
    """The host's move timer lives in the page: at 0 it answers the menu's first option for the seat, and says so
    until the seat's next answer."""
    from playwright.sync_api import sync_playwright

    with Server() as server, sync_playwright() as p:
        browser = _browser(p)
        lobby = browser.new_page()
        lobby.goto(server.url + "/")
        lobby.fill("#timer", "10")
        (link,) = _make_table(lobby, ["human", "random", "random"], seed=4)
        web = server.table("t1")
        assert web.timer == 10
        seat = SeatPage(browser, server.url + link)
        page = seat.page
        page.wait_for_selector("#options button:not([disabled])")
        assert "剩余" in page.inner_text("#turn")
        before = web.seats[0].answered
        page.wait_for_function(f"() => Number(document.body.dataset.seq) > {web.seq(0)}", timeout=20000)
        assert web.seats[0].answered == before + 1
        # and it says so until the seat answers again (the next state cleared it within 40 ms: nobody read it)
        page.wait_for_timeout(1000)
        assert "时间到：替你选了第一项「" in page.inner_text("#banner")
        page.locator("#options button:not([disabled])").first.click()
        page.wait_for_function("() => !document.querySelector('#banner').innerText.includes('时间到')")
        browser.close()
