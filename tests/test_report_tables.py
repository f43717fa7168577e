"""The balance report's and comparison's tables (balance/terminal.py's report_table, screen_table.py), drawn line by
line when they fit the terminal, show what rich's Table shows (each character, in its style, and the same bytes):
every table of a report and of a paired comparison of a two-pack sweep, at their width, at 80 and 160 columns, in
colour, plain and on an ASCII-only terminal; rich lays out what does not fit."""

from __future__ import annotations

import io
import json

import pytest
from balance_games import fork_with_a_role
from rich import box
from rich.console import Console
from rich.text import Text

from conftest import fengsheng, light_and_slow
from interpreter.balance.compare import print_compare
from interpreter.balance.terminal import print_report, report_table
from interpreter.screen_table import Column, ScreenTable


class _Collect:
    """A console that keeps the tables it is asked to print (and prints nothing)."""

    def __init__(self) -> None:
        self.tables: list[ScreenTable] = []

    def print(self, *things: object, **_: object) -> None:
        self.tables += [t for t in things if isinstance(t, ScreenTable)]

    def rule(self, *_: object, **__: object) -> None:
        pass


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> list[ScreenTable]:
    """The tables of the report and of the comparison (zh, then en) of a two-pack sweep at 5 players whose fork
    adds a role (its own table, with no title). (A paired comparison's table is made by the same function.)"""
    tmp = tmp_path_factory.mktemp("tables")
    pack = fork_with_a_role(tmp)
    out = tmp / "lab"
    # (seed 3: the fork's new role is dealt in one of the three games, so it has its table)
    r = fengsheng(
        "balance", "--pack", "base=", "--pack", f"mine={pack}", "-p", 5, "-n", 3, "-j", 1, "-s", 3,
        "--agents", "random", "-o", out, "-q",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    console = _Collect()
    report = json.loads(fengsheng("balance", "report", out, "--format", "json", "--no-html").stdout)
    compared = json.loads(fengsheng("balance", "compare", out, "--format", "json", "--no-html").stdout)
    for lang in ("zh", "en"):
        print_report(report, console, lang=lang)
        print_compare(compared, console, lang=lang)
    return console.tables


def _sent(console: Console, renderable) -> str:
    """What a terminal is sent: each character, in colour each in its style."""
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


class _AsciiTerminal(io.StringIO):
    encoding = "ascii"  # (rich draws its boxes in ASCII for it)


def _consoles(width: int) -> dict[str, tuple[Console, Console]]:
    """Two of each kind of console (one for the table, one for rich's) at this width."""

    def made() -> list[Console]:
        return [
            Console(file=io.StringIO(), width=width, force_terminal=True, color_system="truecolor"),
            Console(file=io.StringIO(), width=width, highlight=False, soft_wrap=True),  # piped, as the command's
            Console(file=_AsciiTerminal(), width=width, force_terminal=True),
        ]

    return dict(zip(("colour", "plain", "ascii"), zip(made(), made(), strict=True), strict=True))


def _width(table: ScreenTable) -> int:
    console = Console(file=io.StringIO(), width=1000)
    lines = table._lines(console, console.options)
    assert lines is not None
    return max(len(line) for line in "".join(s.text for s in lines).splitlines())


def _same(table: ScreenTable, width: int, drawn: bool, kinds=("colour", "plain", "ascii")) -> None:
    for kind in kinds:
        mine, richs = _consoles(width)[kind]
        assert (table._lines(mine, mine.options) is not None) == drawn, (width, kind)
        assert _sent(mine, table) == _sent(richs, table.rich_table()), (width, kind)


@light_and_slow("stride", 3, 1)
def test_every_table_of_a_report_and_a_comparison_shows_what_richs_table_shows(tables, stride):
    """At its width the table is drawn line by line and sends what rich's Table does, in colour (each character in
    its style): every Chinese table, one in `stride` of the English; also one in two piped at 160 columns (the
    command's), one in four on an ASCII terminal, and one column narrower (where rich lays it out). (A
    right-justified header or figure drawn left-justified, the title in another style, the blank of a cell in a
    segment of its own each fail it so.)"""
    titles = {t.title for t in tables}
    assert len(tables) >= 20 and "" in titles and len(titles) > 12  # (the new role's table has no title)
    assert any(c.justify == "left" for t in tables for c in t.columns[1:])  # (a comparison's "moved")
    half = len(tables) // 2
    chosen = tables[:half] + tables[half::stride]
    for i, table in enumerate(chosen):
        width = _width(table)
        _same(table, width, drawn=True, kinds=("colour",))
        if i % 2 == 0:
            _same(table, 160, drawn=True, kinds=("plain",))
        if i % 4 == 1:
            _same(table, width, drawn=True, kinds=("ascii",))
            _same(table, width - 1, drawn=False, kinds=("plain",))


def test_a_report_table_of_markup_styles_and_wide_characters_shows_as_richs():
    """Cells of other kinds than a report's: markup in a str cell, a Text with spans and a style of its own, an
    empty cell, wide characters, a title in markup; a right-justified cell with spaces after it (rich strips them:
    left to rich) and a styled row."""
    table = report_table("[bold]标题[/bold] of it", "名字", [("数", "right"), ("旗", "left")])
    table.add_row("[red]x[/red] y", Text.assemble(("红", "red"), " and ", ("黑", "on white")), "")
    table.add_row("宽宽宽", Text("9", style="italic"), "[blue]偏强[/blue]", style="bold")
    table.add_row("", "", "")
    for width in (_width(table), 30, 80):
        _same(table, width, drawn=True)
    table.add_row("z", "1  ", "")
    _same(table, 80, drawn=False)


def test_a_table_of_columns_that_fold_is_still_narrowed_line_by_line():
    """The seats' kind of table (left-justified columns that fold) is narrowed as rich narrows it; any other is not."""
    folding = ScreenTable(("a", "b"), frame=box.SIMPLE_HEAD, title="t")
    folding.add_row("一二三四五六七八九十", "x")
    _same(folding, 10, drawn=True)
    other = ScreenTable((Column("a"), Column("b", justify="right", no_wrap=True)), title="t")
    other.add_row("一二三四五六七八九十", "x")
    _same(other, 10, drawn=False)
