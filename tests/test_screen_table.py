"""interpreter/screen_table.py: the seats' table on play's screen, drawn line by line, shows what rich's Table
shows (each character, in its style) on the screens of whole games, at every width, in colour, plain and on an
ASCII-only terminal; rich lays out what does not fit."""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console, Group
from rich.style import Style
from rich.text import Text

from interpreter.content.loader import load_cached
from interpreter.play import Setup, Table, render
from interpreter.screen_table import FittedTable, ScreenTable, fitted_widths, fold, longest_piece


def _shown(console: Console, renderable) -> list[tuple[str, Style]]:
    """What a terminal shows: each character and its style, line by line."""
    out = []
    for segment in console.render(renderable):
        if not segment.control:
            out += [(ch, segment.style or Style.null()) for ch in segment.text]
    return out


class _AsciiTerminal(io.StringIO):
    encoding = "ascii"  # (rich draws its boxes in ASCII for it)


def _consoles(width: int) -> list[Console]:
    return [
        Console(file=io.StringIO(), width=width, force_terminal=True, color_system="truecolor"),
        Console(file=io.StringIO(), width=width, highlight=False),  # a pipe: no colours (as play's tests read it)
        Console(file=_AsciiTerminal(), width=width, force_terminal=True),
    ]


def _seat_tables() -> list[ScreenTable]:
    """The seats' tables two seats at one keyboard are shown in a short game, each different one once."""
    content = load_cached()
    tables: dict[str, ScreenTable] = {}
    for players, seed, humans in ((5, 3, [0, 2]),):
        bots = {s: "random" for s in range(players) if s not in humans}
        table = Table(content, Setup(players=players, seed=seed, humans=humans, bots=bots, max_turns=12))
        while True:
            table.run_bots()
            if table.state.is_terminal():
                break
            seat = table.state.current_player()
            obs, actions = table.state.observation(seat), table.state.action_descriptors()
            for part in render(obs, actions, table.names, len(obs["history"])).renderables:
                part = part.table if isinstance(part, FittedTable) else part  # (the table as it is when it fits)
                if isinstance(part, ScreenTable):
                    tables.setdefault(repr([(tuple(map(str, cells)), style) for cells, style in part.rows]), part)
            table.state.apply_action(actions[-1]["id"])
    return list(tables.values())


def _width(table: ScreenTable) -> int:
    """How wide the table is drawn when nothing is folded."""
    console = Console(file=io.StringIO(), width=1000)
    lines = table._lines(console, console.options)
    assert lines is not None
    return lines[0].cell_length


def test_the_seats_table_shows_what_richs_table_shows_at_every_width():
    """At its own width, and narrower down to a few characters a column (its widest cells folded), the table is
    drawn line by line, and shows what rich's Table shows: one table in two at its width in colour; one in eight
    also one column narrower, at 50 columns in colour and at 26 plain, one in sixteen with an ASCII box. (The game's
    40-odd tables differ in their values more than in their shape: a table not narrowed, a folded header's blank
    lines below it and a bold row's coloured cards not bold each still fail it so.)"""
    tables = _seat_tables()
    assert len(tables) > 20
    assert any(style for t in tables for _, style in t.rows)  # the seat looking, in bold
    assert any(isinstance(cell, Text) and cell.spans for t in tables for cells, _ in t.rows for cell in cells)
    for i, table in enumerate(tables[::2]):
        width = _width(table)
        colour, _, ascii_box = _consoles(width)
        consoles = [colour]
        if i % 4 == 0:
            consoles += [_consoles(width - 1)[1], _consoles(50)[0], _consoles(26)[1]]
        if i % 8 == 0:
            consoles.append(ascii_box)
        for console in consoles:
            assert table._lines(console, console.options) is not None
            assert _shown(console, table) == _shown(console, table.rich_table()), (console.width, console.encoding)


def test_a_table_of_styles_markup_and_wide_characters_shows_as_richs():
    """Cells of other kinds than a seat's: markup in a str cell (read as rich reads it), a Text with a style of
    its own and spans, an empty cell, wide characters; a styled row, a row in no style."""
    table = ScreenTable(("a", "[bold]宽[/bold]", "c"))
    table.add_row("[red]x[/red] y", Text("蓝", style="blue"), "", style="bold")
    table.add_row(Text.assemble(("红", "red"), " and ", ("黑", "on white")), "plain", Text("z", style="italic"))
    table.add_row("", "", "")
    for width in (10, 30, 80):
        for console in _consoles(width):
            assert _shown(console, table) == _shown(console, table.rich_table()), width
    assert table._lines(Console(width=80), Console(width=80).options) is not None


def test_a_cell_of_several_lines_is_left_to_rich():
    table = ScreenTable(("a", "b"))
    table.add_row("one\ntwo", "x")
    console = Console(file=io.StringIO(), width=80)
    assert table._lines(console, console.options) is None
    assert _shown(console, Group(table)) == _shown(console, table.rich_table())


def test_a_row_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="a row of 1 cells in a table of 2 columns"):
        ScreenTable(("a", "b")).add_row("x")


def _plain(renderable, width: int) -> list[str]:
    console = Console(file=io.StringIO(), width=width, highlight=False)
    console.print(renderable)
    return console.file.getvalue().splitlines()


def test_fold_breaks_chinese_between_names_and_cards_never_inside_one():
    """A clause's end first (if it fills half the line), else a space or before a bracket; a card, a role's name
    and its title stay whole; a stretch wider than the line alone is cut (nothing lost); styles are kept."""
    line = Text("翻开的角色：P0：老鳖（香烟贩子），P2：简先生（话剧演员），P3：小九（追梦少年）")
    assert [t.plain for t in fold(line, 76)] == [
        "翻开的角色：P0：老鳖（香烟贩子），P2：简先生（话剧演员），P3：",
        "小九（追梦少年）",
    ]  # (rich: `…小九（追梦少年` over `）`)
    cards = Text("P2 的牌：破译#64(红→锁)、调包#68(红←)、误导#91(红↑)、威逼#28(红←)")
    assert [t.plain for t in fold(cards, 40)] == [
        "P2 的牌：破译#64(红→锁)、调包#68(红←)、",
        "误导#91(红↑)、威逼#28(红←)",
    ]
    assert [t.plain for t in fold(Text("盛老板（富商）（背面朝下）"), 20)] == ["盛老板（富商）", "（背面朝下）"]
    assert [t.plain for t in fold(Text("甲乙丙丁戊"), 4)] == ["甲乙", "丙丁", "戊"]
    styled = fold(Text.assemble("P1 摸了 3 张牌：", ("威逼#35(黑←)", "red")), 12)
    assert [t.plain for t in styled] == ["P1 摸了 3", "张牌：", "威逼#35(黑←)"]
    assert styled[2].spans and styled[2].spans[0].style == "red"
    assert longest_piece(Text("盛老板（富商）（背面朝下） 威逼#35(黑←)")) == 12


def test_folded_lines_hang_under_their_first_lines_text_and_no_line_starts_with_a_closing_bracket():
    """The end's secret task (indented with full-width spaces) and a menu's option (after its number) go on under
    their text, not at the panel's edge; a clause's end before a closing bracket is no place to break."""
    task = Text("　　　　秘密任务：诱变者（一名角色收集了三张红色情报或者三张蓝色情报，但并没有宣告胜利。）")
    assert [t.plain for t in fold(task, 40)] == [
        "　　　　秘密任务：诱变者",
        "        （一名角色收集了三张红色情报或者",
        "        三张蓝色情报，",
        "        但并没有宣告胜利。）",
    ]
    option = Text("  12. 老鳖（香烟贩子）　技能：［联络］、［明饵］、［金口一开］", style="bold")
    folded = fold(option, 30)
    assert [t.plain for t in folded] == [
        "  12. 老鳖（香烟贩子）　技能：",
        "      ［联络］、［明饵］、",
        "      ［金口一开］",
    ]
    assert all(any(span.style == "bold" for span in t.spans) or t.style == "bold" for t in folded)


def test_a_line_of_items_folds_only_between_them():
    """Given separators, a line folds only after one (its trailing space dropped), never at an item's own spaces
    (rich: `弃牌堆 1` over `张`); an item wider than the line alone is cut; the line's style is kept."""
    head = Text("第 1 回合 · 争夺阶段 · 当前回合：P1 · 牌堆 92 张 · 弃牌堆 1 张", style="bold")
    folded = fold(head, 60, between=(" · ",))
    assert [t.plain for t in folded] == ["第 1 回合 · 争夺阶段 · 当前回合：P1 · 牌堆 92 张 ·", "弃牌堆 1 张"]
    assert all(t.style == "bold" or [span.style for span in t.spans] == ["bold"] for t in folded)
    assert [t.plain for t in fold(head, 22, between=(" · ",))] == [
        "第 1 回合 · 争夺阶段 ·",
        "当前回合：P1 ·",
        "牌堆 92 张 ·",
        "弃牌堆 1 张",
    ]
    banner = Text("fengsheng play: 5 players, seed 3; you: P0; bots: P1 heuristic, P2 heuristic")
    assert [t.plain for t in fold(banner, 50, between=("; ", ", "))] == [
        "fengsheng play: 5 players, seed 3; you: P0;",
        "bots: P1 heuristic, P2 heuristic",
    ]
    assert [t.plain for t in fold(Text("甲乙丙 · 丁"), 4, between=(" · ",))] == ["甲乙", "丙 ·", "丁"]
    assert longest_piece(head, between=(" · ",)) == cell_len("当前回合：P1 ·")


def test_a_fitted_table_narrows_its_columns_between_names_and_else_draws_its_narrower_layout():
    """Where rich's Table folds a role cell inside `背面朝下`, the fitted table narrows the widest columns (never
    below their longest name or card) and folds between a name and its mark; where even that does not fit, it draws
    the other layout it was given; where the table fits, it is the table itself."""
    table = ScreenTable(("座位", "角色", "情报区"))
    table.add_row("P1", "盛老板（富商）（背面朝下）", "试探#18(蓝←) 密令#108(红→) 威逼#36(黑←)")
    table.add_row("P2", "简先生（话剧演员）", "—")
    assert _plain(FittedTable(table), 80) == _plain(table, 80)
    assert "│     │ 面朝下）           │ 密令#108(红→)       │" in _plain(table, 50)  # (rich: （背 over 面朝下）)
    fitted = _plain(FittedTable(table), 50)
    assert max(cell_len(line) for line in fitted) <= 50
    assert "│P1   │ 盛老板（富商）     │ 试探#18(蓝←) │" in fitted
    assert "│     │ （背面朝下）       │ 密令#108(红→)│" in fitted  # (no padding at the table's edge)
    assert _plain(FittedTable(table, narrower=Text("narrow")), 30) == ["narrow"]
    assert fitted_widths([10, 30, 20], [5, 12, 8], 40) == [10, 15, 15]
    assert fitted_widths([10, 30, 20], [5, 17, 8], 40) == [10, 17, 13]
    assert fitted_widths([10, 30, 20], [5, 12, 30], 40) is None
