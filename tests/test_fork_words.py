"""The words a player and a designer read, on a made-up fork whose rules change what the base game's texts once
wrote in: a third camp (灰雀) that collects black, a collect count of four, black intel that kills at five. The end
of a game (the result both tables show, seat_text.result_text, and the end's reveal, summary.game_summary) says
the rules' count and the colours the engine's collect check counts (red or blue set it off:
model/colors.COLLECT_CHECKED), not the colour the winners' camp collects: a camp that collects black wins at a
collect check only when red or blue set it off, so a text naming black there would be false. `describe` names the
camp and its colour from `camps:` and says the rules' counts where the code reads them (a collect check's wording,
`makes_three`); simulate's and the balance report's endings say the rules' collect count, in English."""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import S, fengsheng, make
from interpreter.content.loader import BUNDLED_CONTENT, load_content
from interpreter.describe_cmd import collect_items
from interpreter.engine.errors import GameOver
from interpreter.model.colors import COLOR_BITS
from interpreter.seat_text import Names, result_text
from interpreter.summary import game_summary, summary_lines

PACK = """\
id: grey_sparrow
name: 灰雀
version: 0.1.0
description: 第三阵营灰雀收集黑色情报；收集四张同色情报、五张黑色情报濒死。
extends:
  - base
rules:
  collect_count: 4
  death_count: 5
  camps:
    灰雀:
      name: 灰雀
      description: 第三阵营
      collects: black
  identities:
    hui_que:
      name: 灰雀·密使
      color: black
      camp: 灰雀
      victory:
        - check: collect
          condition: count(intel(self) where it has black) >= 2
  identity_table:
    5: {shen_mi_ren: 0, hui_que: 1}
"""
RED = [7, 8, 9, 10]  # pure red copies of the bundled deck
BLACK = [1, 2, 3, 4]  # pure black ones


@pytest.fixture(scope="module")
def fork(tmp_path_factory):
    folder = tmp_path_factory.mktemp("grey_sparrow")
    (folder / "pack.yaml").write_text(PACK, encoding="utf-8")
    return folder


def _over(g) -> GameOver | None:
    try:
        g.settle("test")
    except GameOver as over:
        return over
    return None


def test_the_end_of_a_third_camps_collect_win_reads_the_rules_count_and_the_checks_colours(fork):
    content = load_content([BUNDLED_CONTENT, fork])
    seats = [S("hui_que", intel=BLACK), S("red"), S("blue"), S("red"), S("blue")]
    assert _over(make(content, seats)) is None  # four black set no collect check off (nor kill, at five)
    seats[0] = S("hui_que", intel=RED + BLACK[:2])
    g = make(content, seats)
    over = _over(g)
    assert over is not None and ([p.seat for p in over.winners], over.reason) == ([0], "collect")

    names = Names(content)
    end = {"e": "game_over", "winners": [0], "reason": "collect", "turns": 7, "identities": {0: "hui_que"}}
    obs = {"seat": 1, "result": {"winners": [0], "reason": "collect"}, "history": [end]}
    said = result_text(obs, names)  # the terminal's (play.py) and the browser's (web/view.py) result
    assert said == "游戏结束：有人收集了 4 张红色或蓝色情报。胜者：P0。你没有赢。\n胜者身份：P0：灰雀·密使"

    # the players as a final observation shows them (public: intel counts by colour)
    players = [{"seat": p.seat, "intel_counts": {c: p.counts[b] for c, b in COLOR_BITS.items()}} for p in g.players]
    setup = {"e": "setup", "players": 5, "identities": [p.identity.id for p in g.players], "tasks": [None] * 5}
    summary = game_summary([setup, end], names, players)
    assert summary is not None
    lines = summary_lines(summary)
    assert lines[0] == "游戏结束（第 7 回合）：有人收集了 4 张红色或蓝色情报"
    assert lines[1] == "收集检查：P0 的情报区有 4 张红色情报。胜者：P0"
    assert lines[2] == "★胜 P0 —，身份：灰雀·密使，存活，情报 红4 蓝0 黑2"


def test_describe_says_the_forks_camp_its_colour_and_the_rules_collect_count(fork):
    items, _ = collect_items([BUNDLED_CONTENT, fork])
    text = {(i.kind, i.id): i.generated() for i in items}
    assert "灰雀（灰雀，收集黑色情报）：第三阵营" in text[("rules", "camps")]
    assert text[("identity", "hui_que")].startswith("身份颜色为黑色，属于灰雀阵营，与同阵营的角色共同胜利。")
    # a collect_unclaimed task (有人收集了……但没有宣告胜利) at the rules' count, not the base game's three
    unclaimed = next(t for (kind, _), t in text.items() if kind == "secret_task" and "没有宣告胜利" in t)
    assert "收集了四张红色或蓝色情报但没有宣告胜利" in unclaimed and "三张" not in unclaimed
    base, _ = collect_items([BUNDLED_CONTENT])
    said = next(i.generated() for i in base if i.kind == "secret_task" and "没有宣告胜利" in i.generated())
    assert "收集了三张红色或蓝色情报但没有宣告胜利" in said


def test_describe_says_the_rules_counts_where_the_code_reads_them(fork):
    """`makes_three` (利诱: would the intel make the target collect…) reads the rules' collect_count for red and blue
    and death_count for black; describe said 三张 whatever the rules counted."""
    items, _ = collect_items([BUNDLED_CONTENT, fork])
    said = next(i.generated() for i in items if i.kind == "card" and i.id == "li_you")
    assert "收集四张（黑色：五张）或更多同色情报" in said and "三张" not in said
    base, _ = collect_items([BUNDLED_CONTENT])
    said = next(i.generated() for i in base if i.kind == "card" and i.id == "li_you")
    assert "收集三张或更多同色情报" in said


def _ended(report: dict, pack: str) -> dict[str, str]:
    return {r["reason"]: r["text"] for g in report["groups"] if g["pack"] == pack for r in g["end_reasons"]}


def test_simulate_and_the_balance_report_say_the_forks_collect_count(fork, tmp_path):
    """simulate's summary and one game's line, and the balance report's endings (the JSON's `text`, the English
    page's legend), say the rules' collect_count of the content played: four in the fork, three in the base game;
    a fork that no longer loads names no count rather than the base game's."""
    batch = fengsheng("simulate", "--content", fork, "-p", 5, "-n", 10, "-s", 1, "-j", 1, "--agents", "random")
    assert batch.exit_code == 0, batch.output
    assert "a player collected four red or blue intel" in batch.output and "three" not in batch.output
    base = fengsheng("simulate", "-p", 5, "-n", 10, "-s", 1, "-j", 1, "--agents", "random")
    assert "a player collected three red or blue intel" in base.output
    one = fengsheng("simulate", "--content", fork, "-p", 5, "--game-seed", 5)
    assert "(a player collected four red or blue intel)" in one.output, one.output
    shutil.copytree(fork, tmp_path / "grey")
    lab = tmp_path / "lab"
    sweep = fengsheng(
        "balance", "--pack", "base=", "--pack", f"grey={tmp_path / 'grey'}", "-p", 5, "-n", 6, "-j", 1,
        "--agents", "random", "-o", lab, "-q", "--format", "json",
    )  # fmt: skip
    assert sweep.exit_code == 0, sweep.output
    report = json.loads(fengsheng("balance", "report", lab, "--format", "json", "--no-html").stdout)
    assert _ended(report, "grey")["collect"] == "a player collected four red or blue intel"
    assert _ended(report, "base")["collect"] == "a player collected three red or blue intel"
    page = tmp_path / "en.html"
    assert fengsheng("balance", "report", lab, "--lang", "en", "--html", page).exit_code == 0
    assert "collect — a player collected four red or blue intel" in page.read_text(encoding="utf-8")
    shutil.rmtree(tmp_path / "grey")  # the fork gone: its count is not known
    report = json.loads(fengsheng("balance", "report", lab, "--format", "json", "--no-html").stdout)
    assert _ended(report, "grey")["collect"] == "a player collected the rules' count of red or blue intel"
