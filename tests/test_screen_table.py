"""interpreter/screen_table.py: the seats' table on play's screen, drawn line by line, shows what rich's Table
shows (each character, in its style) on the screens of whole games, at every width, in colour, plain and on an
ASCII-only terminal; rich lays out what does not fit."""

from __future__ import annotations

import io

import pytest
from rich.console import Console, Group
from rich.style import Style
from rich.text import Text

from interpreter.content.loader import load_cached
from interpreter.play import Setup, Table, render
from interpreter.screen_table import ScreenTable


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
