"""A table of one-line cells on a terminal screen (the seats on ``fengsheng play``'s screen), drawn line by line.

rich lays a ``Table`` out cell by cell: each cell measured, padded and rendered on its own, 3-5 ms for a table of
five seats, three quarters of the time a screen took at every decision. A table whose cells are one line each and
which fits the screen's width needs none of that: its columns are as wide as their widest cell, and each line is
its cells' characters between the box's. ``ScreenTable`` draws such a table so, character for character and style
for style what ``rich_table()`` (the same table as a rich ``Table``) draws; any other (a cell of several lines, a
tab, a table wider than the screen, whose cells rich folds) it leaves to rich. tests/test_screen_table.py compares
the two on the screens of whole games, at several widths, in colour, plain and on an ASCII-only terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

Cell = str | Text  # a str is read as rich reads a table's cell: console markup


class ScreenTable:
    """A table with a bold header, columns as wide as their cells (folded by rich when the screen is too narrow),
    no padding at the table's left and right edges, and a style per row (rich's ``Table(show_header=True,
    header_style=..., expand=False, pad_edge=False)`` with ``overflow="fold"`` columns)."""

    def __init__(self, columns: Sequence[str], header_style: str = "bold") -> None:
        self.columns = tuple(columns)
        self.header_style = header_style
        self.rows: list[tuple[tuple[Cell, ...], str | None]] = []

    def add_row(self, *cells: Cell, style: str | None = None) -> None:
        if len(cells) != len(self.columns):
            raise ValueError(f"a row of {len(cells)} cells in a table of {len(self.columns)} columns")
        self.rows.append((cells, style))

    def rich_table(self) -> Table:
        """The same table as rich's Table (what a table that cannot be drawn line by line is drawn as)."""
        table = Table(show_header=True, header_style=self.header_style, expand=False, pad_edge=False)
        for column in self.columns:
            table.add_column(column, overflow="fold")
        for cells, style in self.rows:
            table.add_row(*cells, style=style)
        return table

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.rich_table())

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = self._lines(console, options)
        if lines is None:
            yield self.rich_table()
        else:
            yield from lines

    def _lines(self, console: Console, options: ConsoleOptions) -> list[Segment] | None:
        """The table's segments as rich's Table renders them, or None when rich is left to lay it out (a cell of
        several lines or with a tab, a screen too narrow for a character of each column)."""
        n = len(self.columns)
        header = console.get_style(self.header_style) + null  # (rich adds the column's header style, none here)
        grid: list[tuple[list[Text], Style]] = [([_text(console, c) for c in self.columns], header)]
        for cells, style in self.rows:
            grid.append(([_text(console, c) for c in cells], null + console.get_style(style or "")))
        if any("\n" in t.plain or "\t" in t.plain for texts, _ in grid for t in texts):
            return None
        pads = [(0 if i == 0 else 1, 0 if i == n - 1 else 1) for i in range(n)]  # no padding at the edges
        lengths = [[texts[i].cell_len for texts, _ in grid] for i in range(n)]
        widths = _widths(lengths, [left + right for left, right in pads], options.max_width - n - 1)
        if widths is None or any(w - left - right < 1 for w, (left, right) in zip(widths, pads, strict=True)):
            return None
        frame = box.HEAVY_HEAD.substitute(options, safe=console.safe_box)
        border = null  # (the table's style and border style: none)
        line = Segment.line()
        out = [Segment(frame.get_top(widths), border), line]
        for row, (texts, look) in enumerate(grid):
            if row == 0:
                start, between, end = frame.head_left, frame.head_vertical, frame.head_right
            elif row == len(grid) - 1:
                start, between, end = frame.foot_left, frame.foot_vertical, frame.foot_right
            else:
                start, between, end = frame.mid_left, frame.mid_vertical, frame.mid_right
            shaped = [_cell(console, t, w, pad, look) for t, w, pad in zip(texts, widths, pads, strict=True)]
            height = max(len(c) for c in shaped)
            for i, cell in enumerate(shaped):  # a folded cell's row: the others' blank lines below (the header's above)
                blank = [[Segment(" " * widths[i], look)]] * (height - len(cell))
                shaped[i] = blank + cell if row == 0 else cell + blank
            for k in range(height):
                out.append(Segment(start, border))
                for i, cell in enumerate(shaped):
                    if i:
                        out.append(Segment(between, border))
                    out += cell[k]
                out += [Segment(end, border), line]
            if row == 0:
                out += [Segment(frame.get_row(widths, "head", edge=True), border), line]
        out += [Segment(frame.get_bottom(widths), border), line]
        return out


def _widths(lengths: list[list[int]], pads: list[int], room: int) -> list[int] | None:
    """Each column's width (its padding in), as rich's Table lays out one-line cells of these lengths (per column,
    header first) in `room` (the screen's width less the box's lines): as wide as its widest cell; when they do not
    fit, the widest narrowed in turn to the next widest (their cells are then folded). None if this rich has no
    such narrowing to follow."""

    def measured(column: int, width: int, first: bool) -> int:  # rich's Measurement of the column at `width`
        if width < 1:
            return 0
        pad = pads[column]
        most = max(width if width - pad < 1 else min(min(n, width) + pad, width) for n in lengths[column])
        return most or (1 if first else 0)

    widths = [measured(i, room, first=True) for i in range(len(lengths))]
    if sum(widths) <= room:
        return widths
    collapse = getattr(Table, "_collapse_widths", None)  # (rich's own narrowing; a rich without it lays out)
    if collapse is None:
        return None
    widths = collapse(widths, [True] * len(widths), room)
    if sum(widths) > room:
        return None  # (rich would narrow all evenly: it never comes to that once the widest are all narrowed)
    return [measured(i, w, first=False) for i, w in enumerate(widths)]


def _text(console: Console, cell: Cell) -> Text:
    """A cell as rich reads it: a str through the console's markup, as a table's cell is."""
    return console.render_str(cell, highlight=False) if isinstance(cell, str) else cell


def _cell(console: Console, text: Text, width: int, pad: tuple[int, int], style: Style) -> list[list[Segment]]:
    """A cell's lines, each `width` wide: its padding in the row's style; its text, folded as rich folds it when
    longer than the room, in the text's own style and its spans' over the row's; the rest of each line in the
    text's own style over the row's (as rich pads a left-justified line, then renders the cell's lines as parts of
    one text)."""
    left, right = pad
    room = width - left - right
    lines = [text] if text.cell_len <= room else list(text.wrap(console, room, justify="left", overflow="fold"))
    return [_line(console, t, room, pad, style) for t in lines]


def _line(console: Console, text: Text, room: int, pad: tuple[int, int], style: Style) -> list[Segment]:
    left, right = pad
    own = console.get_style(text.style, default=null) if text.style else null
    out = [Segment(" " * left, style)] if left else []
    if text.spans:
        out += [Segment(segment.text, style + segment.style) for segment in text.render(console, end="")]
    elif text.plain:
        out.append(Segment(text.plain, style + own))
    fill = room - text.cell_len
    if fill > 0:
        out.append(Segment(" " * fill, style + own))
    if right:
        out.append(Segment(" " * right, style))
    return out


null = Style.null()
