"""The whole fork in the balance report: card figures from per-seat card use counts (an old sweep without them
still reads), new cards, tasks and roles marked new with a verdict in words and the games still needed for ±5
points, first; the tables piped without mid-sentence wrapping; the rendered page in Chromium."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from conftest import fengsheng
from interpreter.balance import report as rep, stats
from interpreter.balance.records import Cell, GameRecord, SeatRecord, read_records

REPO = Path(__file__).resolve().parents[1]
JIA_GUI = REPO / "examples" / "jia_gui"


@pytest.fixture(scope="module")
def fork_sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small sweep of the bundled game and the example fork jia_gui (a new card 密电, task 收藏家, role 画眉),
    画眉 pinned, random bots."""
    d = tmp_path_factory.mktemp("fork")
    shutil.copytree(JIA_GUI, d / "jia_gui")
    r = fengsheng(
        "balance", "--pack", "base=", "--pack", f"jia={d / 'jia_gui'}", "--role", "hua_mei", "-p", 5, "-n", 30,
        "-j", 1, "--agents", "random", "-o", d / "lab", "-q", "--format", "json",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    return d / "lab"


def test_records_count_card_uses_per_seat(fork_sweep: Path) -> None:
    recs = read_records(fork_sweep)
    used = [s.cards for r in recs for s in r.seats]
    assert any(used) and all(all(isinstance(k, int) and k > 0 for k in c.values()) for c in used)
    assert any("密电" in c for r in recs if r.cell.pack == "jia" for c in (s.cards for s in r.seats))
    assert not any("密电" in s.cards for r in recs if r.cell.pack == "base" for s in r.seats)


def test_an_old_record_without_card_counts_reads() -> None:
    """It reads, told apart from a seat that played no card (None, not empty) and written back as it was."""
    old = {"seat": 0, "identity": "潜伏战线", "task": None, "role": "x", "agent": "random", "won": True}
    assert SeatRecord.from_dict(old).cards is None and "cards" not in SeatRecord.from_dict(old).to_dict()
    assert SeatRecord.from_dict({**old, "cards": {}}).cards == {}
    line = {"cell": {"players": 5, "agents": "random", "pack": "base"}, "index": 0, "seed": 1, "seats": [old]}
    assert GameRecord.from_dict(line).seats[0].cards is None


def test_the_report_has_cards_new_items_and_verdicts_first(fork_sweep: Path) -> None:
    r = fengsheng("balance", "report", fork_sweep, "--format", "json", "--no-html")
    report = json.loads(r.stdout)
    assert report["new_items"]["jia"] == {"roles": ["画眉（歌女）"], "cards": ["密电"], "tasks": ["收藏家"]}
    assert {(v["kind"], v["name"]) for v in report["verdicts"]} == {
        ("role", "画眉（歌女）"),
        ("card", "密电"),
        ("task", "收藏家"),
    }
    role = next(v for v in report["verdicts"] if v["kind"] == "role")
    assert role["row"]["n"] == 30  # pinned: in every game of the fork
    assert role["status"] in ("open", "strong", "weak") and role["games_more"] > 0
    assert f"about {role['games_more']:,} more games for ±5 points" in role["text"]
    jia = next(g for g in report["groups"] if g["pack"] == "jia")
    card = next(c for c in jia["cards"] if c["name"] == "密电")
    assert card["uses"] > 0 and 0 < card["n"] <= card["uses"] and card["low"] <= card["rate"] <= card["high"]
    # the new card's verdict says how often it is played, then how its users fare
    said = next(v for v in report["verdicts"] if v["kind"] == "card")
    assert said["uses_per_game"] == card["uses_per_game"] > 0
    assert said["text"].startswith(f"{card['uses_per_game']:.2f} uses per game; ")
    # the fork's pack diff, as `pack diff --format json` records and its lines
    diff = report["pack_diffs"]["jia"]
    assert {"kind": "rules", "change": "changed", "object": None, "name": None, "pack": None, "field": "draw_count",
            "old": 3, "new": 2} in diff["changes"]  # fmt: skip
    assert "rules draw_count: 3 → 2" in diff["lines"] and "base" not in report["pack_diffs"]
    assert diff["deck_sizes"]["standard (5-8 players)"] == [110, 108]
    # the terminal: the verdicts come first, then the diff, then the flags
    text = fengsheng("balance", "report", fork_sweep, "--no-html", "--lang", "en").output
    assert text.index("Is my new thing balanced?") < text.index("What jia changes") < text.index("Flags")
    assert "密电 (new)" in text and "收藏家 (new)" in text and "画眉（歌女） (new)" in text
    zh = fengsheng("balance", "report", fork_sweep, "--no-html").output  # Chinese by default
    assert zh.index("我的新内容均衡吗？") < zh.index("jia改动了什么") < zh.index("标记")
    assert "新角色「画眉（歌女）」" in zh
    assert f"新卡牌「密电」 [jia · random · 5人]：每局使用{card['uses_per_game']:.2f}次；" in zh
    # the fork's changes in the report's language (pack diff's lines are English)
    for line in (
        "规则 draw_count：3 → 2",
        "牌堆 standard（5-8人）：110 → 108张（密电 0 → 2；调虎离山 4 → 0）",
        "- 卡牌 调虎离山（diao_hu_li_shan）",
        "+ 角色 画眉（歌女）（hua_mei，扩展包 jia_gui）",
        "+ 秘密任务 收藏家（shou_cang_jia，扩展包 jia_gui）",
    ):
        assert f"  {line}\n" in zh, line
    assert "deck standard (5-8 players): 110 → 108 cards (密电 0 → 2; 调虎离山 4 → 0)" in text
    assert "rules draw_count" not in zh and "deck standard" not in zh and "规则 draw_count" not in text
    assert "密电（新）" in zh and "收藏家（新）" in zh and "画眉（歌女）（新）" in zh
    from interpreter.balance.html import render_report

    html = render_report(report, lang="en")
    for name in ("密电", "收藏家", "画眉（歌女）"):
        assert f'{name} <span class="tag new">new</span>' in html
        assert f'{name} <span class="tag new">新</span>' in render_report(report)
    assert "<li>规则 draw_count：3 → 2</li>" in render_report(report)
    assert "<li>rules draw_count: 3 → 2</li>" in html
    # the card table under its title, as the rule skills' table is, in each language
    for page, title in (
        (html, "Cards: uses per game; win rate of the seats that used it (Wilson 95%) against every seat&#x27;s"),
        (render_report(report), "卡牌：每局使用次数；用过该牌的席位的胜率（Wilson 95%）与所有席位的胜率对比"),
    ):
        assert page.count('<table class="cards">') == 2 == page.count(f'<p>{title}</p><table class="cards">')


def test_verdict_words() -> None:
    strong = rep.verdict({**stats.rate(60, 100), "name": "x"}, 0.3, 100)
    assert strong["status"] == "strong" and strong["text"].startswith("strong: 60.0% of 100")
    open_ = rep.verdict({**stats.rate(30, 100), "name": "x"}, 0.3, 100)
    assert open_["status"] == "open" and open_["text"].startswith("not shown strong or weak")
    # ±5 points at 30% takes about 323 seats: one seat a game, 100 played, about 223 more
    assert open_["games_more"] == stats.seats_for_half_width(0.3) - 100
    assert rep.verdict(None, 0.3, 100)["status"] == "unseen"
    # a card: its uses per game first; one never used says so, not "never in play"
    card = rep.verdict({**stats.rate(30, 100), "name": "x"}, 0.3, 100, uses=1.5)
    assert card["uses_per_game"] == 1.5 and card["text"].startswith("1.50 uses per game; not shown strong or weak")
    assert rep.verdict(None, 0.3, 100, uses=0.0)["text"] == "never used: no figure"


@pytest.mark.parametrize(
    ("lang", "role", "ends", "legend"),
    [
        pytest.param(
            "en",
            "new role 画眉",
            "more games for ±5 points",
            ("(strong/weak: the role's 95%", "play more games)"),
            marks=pytest.mark.slow,  # every day the Chinese table, the wider one
        ),
        ("zh", "新角色「画眉", "个百分点", ("（偏强/偏弱：该角色的95%区间", "请多打几局）")),
    ],
)
def test_piped_tables_do_not_wrap_sentences(fork_sweep: Path, monkeypatch, lang, role, ends, legend) -> None:
    """Output that is not a terminal (here click's runner, as a pipe or a file) is PIPED_WIDTH wide whatever
    COLUMNS says: a verdict is one line, not a sentence broken at column 80."""
    monkeypatch.setenv("COLUMNS", "80")
    out = fengsheng("balance", "report", fork_sweep, "--no-html", "--lang", lang)
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    verdict = next(line for line in lines if role in line)
    assert verdict.rstrip().endswith(ends)  # one sentence, one line
    assert any(legend[0] in line and legend[1] in line for line in lines)


# Every text of the page's charts: its box, and its svg's (Chromium's layout, after the fonts).
_LABELS = """() => [...document.querySelectorAll('svg')].flatMap(svg => {
    const s = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('text')].map(t => {
        const b = t.getBoundingClientRect();
        return {text: t.textContent, left: b.left, right: b.right, top: b.top, bottom: b.bottom,
                svgLeft: s.left, svgRight: s.right, anchor: t.getAttribute('text-anchor') || 'start'};
    });
})"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "verdicts", "changes", "pinned"),
    [
        ("zh", "我的新内容均衡吗？", "jia改动了什么", "固定："),
        ("en", "Is my new thing balanced?", "What jia changes", "Pinned:"),
    ],
)
def test_the_report_page_in_chromium(fork_sweep: Path, tmp_path: Path, lang, verdicts, changes, pinned) -> None:
    """The rendered page in each language: the verdicts first and visible, the card table with 密电 marked new,
    the role charts paged, no label of a chart outside its chart or over the label of the next row, nothing
    wider than the window."""
    pytest.importorskip("playwright.sync_api")
    chromium = os.environ.get("FENGSHENG_CHROMIUM", "/usr/bin/chromium")
    if not (Path(chromium).exists() or shutil.which(chromium)):
        pytest.skip(f"no Chromium at {chromium}")
    from playwright.sync_api import sync_playwright

    html = tmp_path / "report.html"
    r = fengsheng("balance", "report", fork_sweep, "--html", html, "--lang", lang)
    assert r.exit_code == 0, r.output
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"], headless=True)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(html.as_uri())
        assert page.evaluate("document.documentElement.lang") == ("zh-Hans" if lang == "zh" else "en")
        box = page.locator(".verdicts").bounding_box()
        assert page.locator(".verdicts").is_visible() and verdicts in page.locator(".verdicts").inner_text()
        flags_top = page.locator(".flags").first.bounding_box()
        assert box is not None and flags_top is not None and box["y"] < flags_top["y"]
        assert page.locator("table.cards .tag.new").count() >= 1
        assert changes in page.locator("details.diff summary").inner_text()
        assert pinned in page.locator(".pinned").inner_text()
        # the role chart stays readable with 60+ roles: at most ROLES_PER_CHART rows a chart, the rest folded
        heights = page.evaluate("[...document.querySelectorAll('svg')].map(s => s.getBoundingClientRect().height)")
        assert heights and max(heights) < 1000
        assert page.evaluate("document.documentElement.scrollWidth") <= 1100
        labels = page.evaluate(_LABELS)
        assert len(labels) > 100
        for t in labels:  # (folded charts are laid out too: a closed <details> has no box, left out below)
            if t["right"] - t["left"] == 0:
                continue
            assert t["left"] >= t["svgLeft"] - 1 and t["right"] <= t["svgRight"] + 1, t
        rows = sorted(
            (t for t in labels if t["anchor"] == "end" and t["right"] > t["left"]),
            key=lambda t: (t["svgLeft"], t["top"]),
        )
        for a, b in itertools.pairwise(rows):  # a chart's row labels, one under the other: none overlaps
            if a["svgLeft"] == b["svgLeft"] and abs(a["right"] - b["right"]) < 1 and b["top"] > a["top"]:
                assert b["top"] >= a["bottom"] - 1, (a, b)
        # each card table has its title line just above it, as the rule skills' table has (the tables are folded)
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        titles = page.evaluate(
            "[...document.querySelectorAll('table.cards')].map(t => t.previousElementSibling.tagName + ' '"
            " + t.previousElementSibling.innerText)"
        )
        card_title = "P 卡牌：每局使用次数；" if lang == "zh" else "P Cards: uses per game; "
        assert len(titles) == 2 and all(t.startswith(card_title) for t in titles), titles
        browser.close()


def test_the_role_chart_is_paged_and_sorted(fork_sweep: Path) -> None:
    """60+ roles: one dot per role, sorted from the strongest against its expected rate, 40 rows a chart."""
    import re

    from interpreter.balance.html import ROLES_PER_CHART, render_report

    report = json.loads(fengsheng("balance", "report", fork_sweep, "--format", "json", "--no-html").stdout)
    html = render_report(report, lang="en")
    base = next(g for g in report["groups"] if g["pack"] == "base")
    assert len(base["roles"]) > ROLES_PER_CHART
    assert re.search(r"<summary>roles 41–\d+ of \d+</summary>", html)
    assert re.search(r"<summary>第41–\d+个角色（共\d+个）</summary>", render_report(report))
    titles = re.findall(r"<svg[^>]*><title>Win rate by role</title>.*?</svg>", html)
    assert titles and all(len(re.findall(r'font-size="13" text-anchor="end"', t)) <= ROLES_PER_CHART for t in titles)


def test_the_charts_put_the_new_items_first_and_mark_them(fork_sweep: Path) -> None:
    """In the fork's section the role chart's first row is its new role and the task chart's its new task, each
    label marked new as the tables mark it (the role chart sorted 画眉 among the others, unmarked)."""
    import re

    from interpreter.balance.html import render_report

    report = json.loads(fengsheng("balance", "report", fork_sweep, "--format", "json", "--no-html").stdout)
    for lang, role, task, by_role, by_task in [
        ("zh", "画眉（歌女）（新）", "收藏家（新）", "各角色胜率", "各秘密任务胜率"),
        ("en", "画眉（歌女） (new)", "收藏家 (new)", "Win rate by role", "Win rate by secret task"),
    ]:
        html = render_report(report, lang=lang)
        jia = html[html.index("<h2>jia · ") :]
        base = html[html.index("<h2>base · ") : html.index("<h2>jia · ")]

        def labels(section: str, title: str) -> list[str]:
            svg = re.search(rf"<svg[^>]*><title>{title}</title>.*?</svg>", section)
            assert svg, title
            return re.findall(r'font-size="13" text-anchor="end">([^<]*)</text>', svg.group(0))

        assert labels(jia, by_role)[0] == role and labels(jia, by_task)[0] == task
        assert sum(label.endswith(("（新）", " (new)")) for label in labels(jia, by_role)) == 1
        assert not any(label.endswith(("（新）", " (new)")) for label in labels(base, by_role) + labels(base, by_task))


# ---------------------------------------------------------------------- a fork's rule skills (house rules)

RULE = "规则"  # (sim.summary.RULE_SKILL_OWNER: whose the records say a rule skill is)


def _rule_records(games: int = 40, counted: bool = True) -> list[dict]:
    """Games of a fork whose rules have skills, built so the figures are known: seat 0 uses 换牌 in every game and
    wins every game; seat 1 uses 黑报 and plays the new card 密电 and wins 12 games of 40; 无用 is never used. Every
    seat: 52 of 200 won. `counted=False`: the seats' counts left out, as an older sweep's records have them."""
    out = []
    for i in range(games):
        wins = {0} | ({1} if i < 12 else set())
        seats = [
            SeatRecord(
                seat=s, identity="潜伏战线", task=None, role=f"角色{s}", agent="random", won=s in wins,
                cards={"密电": 1} if s == 1 else {},
                rule_skills=({"换牌": 2} if s == 0 else {"黑报": 1} if s == 1 else {}) if counted else None,
            )
            for s in range(5)
        ]  # fmt: skip
        rec = GameRecord(
            cell=Cell(5, "random", "house"), index=i, seed=i, roles=[s.role for s in seats],
            skill_uses={f"{RULE}·换牌": 2, f"{RULE}·黑报": 1}, skill_offers={f"{RULE}·换牌": 9, f"{RULE}·黑报": 1},
            reason="collect", turns=9,
            identities=["潜伏战线"] * 5, winner_seats=sorted(wins), seats=seats,
        )  # fmt: skip
        out.append(rec.to_dict())
    return out


_META = {"packs": [{"name": "house"}], "players": [5], "agents": ["random"], "games": 40}
_SKILLS = {"house": {RULE: [("换牌", "active"), ("黑报", "triggered"), ("无用", "active")]}}
_NEW = {"house": {"cards": ["密电"], "tasks": [], "rule_skills": ["换牌", "无用", "黑报"]}}


def _rule_report(counted: bool = True) -> dict:
    return rep.build_report(_META, _rule_records(counted=counted), _SKILLS, new_other=_NEW)


def _terminal(report: dict, lang: str) -> str:
    from rich.console import Console

    from interpreter.balance.terminal import print_report

    console = Console(record=True, width=200)
    print_report(report, console, lang=lang)
    return console.export_text()


def test_a_seats_rule_skill_uses_are_kept_in_its_record_and_left_out_without_them() -> None:
    """A seat of rules with skills has its counts (empty when it used none, so an older sweep's record, without the
    key, is told apart); a seat of rules without them writes no key: such a sweep's lines are as they were."""
    seat = SeatRecord(seat=0, identity="潜伏战线", task=None, role="x", agent="random", won=True)
    assert "rule_skills" not in seat.to_dict()
    assert SeatRecord.from_dict(seat.to_dict()).rule_skills is None  # (an older record reads so too)
    for counts in ({}, {"换牌": 2}):
        kept = SeatRecord(**{**seat.__dict__, "rule_skills": counts})
        assert kept.to_dict()["rule_skills"] == counts and SeatRecord.from_dict(kept.to_dict()).rule_skills == counts


def test_a_seats_rule_skill_counts_that_are_not_counts_are_told_at_their_line(tmp_path: Path) -> None:
    from interpreter.balance.records import GAMES_FILE, RecordError, record_line

    line = json.loads(record_line(GameRecord.from_dict(_rule_records(1)[0])))
    line["seats"][0]["rule_skills"] = {"换牌": "two"}
    (tmp_path / GAMES_FILE).write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"games.jsonl:1: a seat's `rule_skills` should map rule skills to counts"):
        read_records(tmp_path)


def test_a_new_rule_skill_is_figured_as_a_card_with_its_verdict_first() -> None:
    """Its uses per game and the win rate of the seats that used it against every seat's; a verdict in words as a
    new card's, a rule skill's first among the verdicts of a status (a house rule: every seat's, every game's)."""
    report = _rule_report()
    (g,) = report["groups"]
    rows = {r["name"]: r for r in g["rule_skills"]}
    assert [r["name"] for r in g["rule_skills"]] == ["换牌", "黑报", "无用"]  # the most used first
    assert {k: rows["换牌"][k] for k in ("kind", "games_used", "uses", "uses_per_game", "won", "n")} == {
        "kind": "active", "games_used": 40, "uses": 80, "uses_per_game": 2.0, "won": 40, "n": 40
    }  # fmt: skip
    assert (rows["黑报"]["won"], rows["黑报"]["n"], rows["换牌"]["expected"]) == (12, 40, 52 / 200)
    assert rows["无用"]["n"] == 0 and rows["无用"]["uses_per_game"] == 0.0
    said = [(v["kind"], v["name"], v["status"]) for v in report["verdicts"]]
    assert said == [
        ("rule_skill", "换牌", "strong"),
        ("rule_skill", "黑报", "open"),  # (before the card: same status)
        ("card", "密电", "open"),
        ("rule_skill", "无用", "unseen"),
    ]
    strong, open_, _, unseen = report["verdicts"]
    assert strong["text"].startswith("2.00 uses per game; strong: 100.0% of 40 (95% 91.2%–100.0%")
    assert " against 26.0%" in strong["text"] and strong["row"] == rows["换牌"]
    assert open_["text"].startswith("1.00 uses per game; not shown strong or weak: 30.0% of 40")
    assert f"about {open_['games_more']:,} more games for ±5 points" in open_["text"] and open_["games_more"] > 0
    assert unseen["text"] == "never used: no figure"
    zh, en = _terminal(report, "zh"), _terminal(report, "en")
    assert "新规则技能「换牌」 [house · random · 5人]：每局使用2.00次；偏强：40席中胜率100.0%" in zh
    assert "new rule skill 黑报 [house · random · 5p]: 1.00 uses per game; not shown strong or weak" in en
    assert zh.index("新规则技能「黑报」") < zh.index("新卡牌「密电」") < zh.index("新规则技能「无用」")
    # the table: new ones marked, the users' figures against every seat's
    assert re.search(r"换牌（新）\s+主动\s+40/40\s+40/40\s+2\.00\s+40/40\s+100\.0%\s+91\.2%–100\.0%\s+26\.0%", zh)
    assert re.search(r"黑报 \(new\)\s+triggered\s+40/40\s+40/40\s+1\.00\s+12/40\s+30\.0%", en)
    assert "Rule skills (every seat's): games offered, games used, uses per game; win rate of the seats" in en
    from interpreter.balance.html import render_report

    page = render_report(report, lang="en")
    table = page[page.index('<table class="rule-skills">') :]
    assert table.index('换牌 <span class="tag new">new</span>') < table.index("黑报")
    assert "<td>40/40</td><td>100.0%</td><td>91.2%–100.0%</td><td>26.0%</td>" in table
    verdicts = page[page.index('<div class="verdicts">') : page.index("</ul></div>")]
    assert '<span class="tag strong">strong</span>new rule skill <b>换牌</b>' in verdicts
    assert "新规则技能 <b>黑报</b>" in render_report(report)  # (Chinese by default)


def test_an_older_sweeps_rule_skills_say_their_uses_and_that_their_users_were_not_counted() -> None:
    """Records made before the seats' counts: the rule skills' uses still read (from the game's counts), their users'
    figures are null (not 0 of 0: "never used" would be false), and the verdict says to sweep again."""
    report = _rule_report(counted=False)
    row = next(r for r in report["groups"][0]["rule_skills"] if r["name"] == "换牌")
    assert row["uses_per_game"] == 2.0 and row["n"] is None and row["rate"] is None and row["expected"] is None
    v = next(v for v in report["verdicts"] if v["name"] == "换牌")
    assert v["status"] == "open" and v["uncounted"] and v["games_more"] is None
    assert v["text"] == (
        "2.00 uses per game; the seats that used it were not recorded by this sweep (an older fengsheng's): sweep "
        "again for their win rate"
    )
    zh = _terminal(report, "zh")
    assert "新规则技能「换牌」 [house · random · 5人]：每局使用2.00次；这次扫描没有按座位记录它的使用" in zh
    assert re.search(r"换牌（新）\s+主动\s+40/40\s+40/40\s+2\.00\s*\n", zh)
    from interpreter.balance.html import render_report

    assert "<td>2.00</td><td></td><td></td><td></td><td></td></tr>" in render_report(report)


def test_an_older_sweeps_new_card_is_not_said_never_used() -> None:
    """Records made before the seats' card counts (no ``cards``, read as a sweep's lines are read): a new card that
    was played is not "never used" (nothing says it was not), its uses are unknown and the verdict says to sweep
    again, in both languages; a sweep resumed by a newer fengsheng figures its cards from the games that counted."""

    def older(records: list[dict]) -> list[dict]:
        for r in records:
            for s in r["seats"]:
                del s["cards"]
        return [GameRecord.from_dict(r).to_dict() for r in records]

    report = rep.build_report(_META, older(_rule_records()), _SKILLS, new_other=_NEW)
    (g,) = report["groups"]
    assert g["cards"] == [] and g["cards_uncounted"] == 40
    v = next(v for v in report["verdicts"] if v["name"] == "密电")
    assert (v["status"], v["uncounted"], v["uses_per_game"], v["games_more"]) == ("open", True, None, None)
    assert "never used" not in v["text"] and "sweep again" in v["text"]
    zh, en = _terminal(report, "zh"), _terminal(report, "en")
    assert "新卡牌「密电」 [house · random · 5人]：这次扫描（或其中一部分）没有记录各座位用了哪些牌" in zh
    card_zh = next(line for line in zh.splitlines() if "新卡牌「密电」" in line)
    card_en = next(line for line in en.splitlines() if "new card 密电" in line)
    assert "从未被使用" not in card_zh and "重新扫描" in card_zh and "never used" not in card_en
    assert "new card 密电 [house · random · 5p]: this sweep (or part of it) did not record the cards" in card_en
    from interpreter.balance.html import render_report

    assert "不知道它用了几次" in render_report(report) and "how often it was played is not known" in render_report(
        report, lang="en"
    )
    # half the games counted (a sweep resumed): the figures are theirs (20 games, seat 1 played it in each)
    mixed = _rule_records()
    report = rep.build_report(_META, older(mixed[:20]) + mixed[20:], _SKILLS, new_other=_NEW)
    (g,) = report["groups"]
    (card,) = g["cards"]
    assert g["cards_uncounted"] == 20 and (card["uses_per_game"], card["n"], card["expected"]) == (1.0, 20, 0.2)
    v = next(v for v in report["verdicts"] if v["name"] == "密电")
    assert v["text"].startswith("1.00 uses per game; weak: 0.0% of 20 ")  # (its 12 wins were in the older 20)
    # every record counted: no note (a sweep's report as before)
    assert "cards_uncounted" not in _rule_report()["groups"][0]


def _rule_fork(tmp: Path, keep: int, new: int) -> dict:
    """A sweep's packs entry for a fork of examples/rule_skills (two rule skills) with `keep` of the bundled game's
    roles (no expansions) and `new` roles of its own: a pack whose rules' skills are held under a pseudo-role."""
    import yaml

    from interpreter.paths import BUNDLED_CONTENT

    shutil.copytree(REPO / "examples" / "rule_skills", tmp / "rule_skills", ignore=shutil.ignore_patterns("tests"))
    fork = tmp / "fork"
    (fork / "roles").mkdir(parents=True)
    files = (BUNDLED_CONTENT / "roles").glob("*.yaml")
    ids = sorted(yaml.safe_load(f.read_text(encoding="utf-8"))["id"] for f in files)
    gone = "".join(f"\n    - {i}" for i in ids[keep:])
    (fork / "pack.yaml").write_text(f"id: fork\nname: 分支\nextends: [../rule_skills]\nremove:\n  roles:{gone}\n")
    role = (JIA_GUI / "roles" / "hua_mei.yaml").read_text(encoding="utf-8")
    for n in range(new):
        text = role.replace("id: hua_mei", f"id: hua_mei_{n}").replace("name: 画眉", f"name: 画眉{n}")
        (fork / "roles" / f"hua_mei_{n}.yaml").write_text(text, encoding="utf-8")
    return {"name": "fork", "content": [str(fork)], "expansions": "none"}


@pytest.mark.parametrize(("keep", "new", "singled_out"), [(2, 2, True), (1, 2, False)])
def test_a_forks_new_roles_are_counted_against_its_real_roles_not_its_rule_skills_holder(
    tmp_path: Path, keep: int, new: int, singled_out: bool
) -> None:
    """A pack's new roles are singled out (marked new, a verdict each, first in the report) when they are at most half
    of its roles: its real roles, not the holder of its rule skills (规则), which the skill lists carry as one more.
    Two new of four: half, singled out; two new of three: more than half (a game of its own), not, though with the
    holder counted they were half of four."""
    from interpreter.balance.pack_facts import new_roles, pack_skills
    from interpreter.sim.summary import RULE_SKILL_OWNER

    meta = {"packs": [_rule_fork(tmp_path, keep, new)]}
    skills = pack_skills(meta)
    assert RULE_SKILL_OWNER in skills["fork"] and len(skills["fork"]) == keep + new + 1
    added = ["画眉0（歌女）", "画眉1（歌女）"]
    assert new_roles(meta, skills) == ({"fork": added} if singled_out else {})


def test_rules_without_skills_add_nothing_to_the_report() -> None:
    """A pack without rule skills: no rule_skills key in its groups or its new items (its report as before)."""
    records = _rule_records(4)
    for r in records:
        r["skill_uses"] = r["skill_offers"] = {}
        for s in r["seats"]:
            del s["rule_skills"]
    new = {"house": {"cards": ["密电"], "tasks": []}}
    report = rep.build_report(_META, records, {"house": {}}, new_other=new)
    assert "rule_skills" not in report["groups"][0] and report["new_items"]["house"] == {"roles": [], **new["house"]}
    assert "规则技能" not in _terminal(report, "zh")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "verdict", "kind"), [("zh", "新规则技能 换牌", "主动"), ("en", "new rule skill 换牌", "active")]
)
def test_the_rule_skills_on_the_page_in_chromium(tmp_path: Path, lang, verdict, kind) -> None:
    """The rendered page of a fork with rule skills: the new rule skill's verdict first, in the verdicts' box; its
    table, unfolded, shows each rule skill with its users' figures, the new ones marked, within the window."""
    pytest.importorskip("playwright.sync_api")
    chromium = os.environ.get("FENGSHENG_CHROMIUM", "/usr/bin/chromium")
    if not (Path(chromium).exists() or shutil.which(chromium)):
        pytest.skip(f"no Chromium at {chromium}")
    from playwright.sync_api import sync_playwright

    from interpreter.balance.html import render_report

    html = tmp_path / "report.html"
    html.write_text(render_report(_rule_report(), lang=lang), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"], headless=True)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(html.as_uri())
        first = page.locator(".verdicts li").first
        assert first.is_visible() and first.inner_text().replace("\n", " ").find(verdict) >= 0, first.inner_text()
        table = page.locator("table.rule-skills")
        assert not table.is_visible()  # (folded with the group's other tables)
        page.locator("details summary").last.click()
        assert table.is_visible() and table.locator(".tag.new").count() == 3
        cells = table.locator("tr").nth(1).locator("td").all_inner_texts()
        assert cells[1:] == [kind, "40/40", "40/40", "2.00", "40/40", "100.0%", "91.2%–100.0%", "26.0%"], cells
        box = table.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 1100
        assert page.evaluate("document.documentElement.scrollWidth") <= 1100
        browser.close()
