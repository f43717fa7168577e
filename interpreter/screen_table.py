"""A table of one-line cells on a terminal screen (the seats on ``fengsheng play``'s screen, the balance report's
tables of rates), drawn line by line.

rich lays a ``Table`` out cell by cell: each cell measured, padded and rendered on its own, 3-5 ms for a table of
five seats, three quarters of the time a screen took at every decision (and 40 ms of the 45 a balance report of
three groups took in the terminal). A table whose cells are one line each and which fits the screen's width needs
none of that: its columns are as wide as their widest cell, and each line is its cells' characters between the
box's. ``ScreenTable`` draws such a table so, character for character and style for style what ``rich_table()``
(the same table as a rich ``Table``) draws; any other (a cell of several lines, a tab, a table wider than the
screen, whose cells rich folds) it leaves to rich, except that a table of left-justified columns that fold (the
seats') is narrowed as rich narrows it. tests/test_screen_table.py compares the two on the screens of whole games,
at several widths, in colour, plain and on an ASCII-only terminal, and tests/test_report_tables.py on the tables
of balance reports and comparisons.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

Cell = str | Text  # a str is read as rich reads a table's cell: console markup


@dataclass(frozen=True)
class Column:
    """A column as rich's ``Table.add_column`` takes it (what these tables use of it): its header, how its cells
    are justified, whether they may wrap, its share of a table that expands, how a cell too long is cut."""

    header: str
    justify: Literal["left", "right"] = "left"
    no_wrap: bool = False
    ratio: int | None = None
    overflow: Literal["fold", "ellipsis"] = "fold"

    def folds(self) -> bool:
        """A column whose cells rich folds, left-justified, when the table is narrowed (the ones drawn narrowed)."""
        return self.justify == "left" and not self.no_wrap and self.overflow == "fold"


class ScreenTable:
    """A table with a header, columns as wide as their cells (folded by rich when the screen is too narrow), no
    padding at the table's left and right edges, a style per row and a title above it (rich's ``Table(title=...,
    title_justify=..., box=..., show_header=True, header_style=..., expand=False, pad_edge=False)``; a column given
    as a str is ``add_column(header, overflow="fold")``)."""

    def __init__(
        self,
        columns: Sequence[str | Column],
        header_style: str = "bold",
        frame: box.Box = box.HEAVY_HEAD,
        title: str | None = None,
        title_justify: Literal["left", "center", "right"] = "left",
    ) -> None:
        self.columns = tuple(c if isinstance(c, Column) else Column(c) for c in columns)
        self.header_style = header_style
        self.frame = frame
        self.title = title
        self.title_justify = title_justify
        self.rows: list[tuple[tuple[Cell, ...], str | None]] = []

    def add_row(self, *cells: Cell, style: str | None = None) -> None:
        if len(cells) != len(self.columns):
            raise ValueError(f"a row of {len(cells)} cells in a table of {len(self.columns)} columns")
        self.rows.append((cells, style))

    def rich_table(self) -> Table:
        """The same table as rich's Table (what a table that cannot be drawn line by line is drawn as)."""
        table = Table(
            title=self.title,
            title_justify=self.title_justify,
            box=self.frame,
            show_header=True,
            header_style=self.header_style,
            expand=False,
            pad_edge=False,
        )
        for c in self.columns:
            table.add_column(c.header, justify=c.justify, no_wrap=c.no_wrap, ratio=c.ratio, overflow=c.overflow)
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
        grid: list[tuple[list[Text], Style]] = [([_text(console, c.header) for c in self.columns], header)]
        for cells, style in self.rows:
            grid.append(([_text(console, c) for c in cells], null + console.get_style(style or "")))
        if any("\n" in t.plain or "\t" in t.plain for texts, _ in grid for t in texts):
            return None
        right = [c.justify == "right" for c in self.columns]
        if any(r and t.plain != t.plain.rstrip() for texts, _ in grid for r, t in zip(right, texts, strict=True)):
            return None  # (rich strips a right-justified line's trailing spaces: not drawn here)
        pads = [(0 if i == 0 else 1, 0 if i == n - 1 else 1) for i in range(n)]  # no padding at the edges
        lengths = [[texts[i].cell_len for texts, _ in grid] for i in range(n)]
        room = options.max_width - n - 1
        narrowed = all(c.folds() for c in self.columns)  # (a table of others is left to rich when too wide)
        widths = _widths(lengths, [left + right for left, right in pads], room, narrowed)
        if widths is None or any(w - left - right < 1 for w, (left, right) in zip(widths, pads, strict=True)):
            return None
        frame = self.frame.substitute(options, safe=console.safe_box)
        border = null  # (the table's style and border style: none)
        line = Segment.line()
        out = self._title(console, options, sum(widths) + n + 1)
        out += [Segment(frame.get_top(widths), border), line]
        for row, (texts, look) in enumerate(grid):
            if row == 0:
                start, between, end = frame.head_left, frame.head_vertical, frame.head_right
            elif row == len(grid) - 1:
                start, between, end = frame.foot_left, frame.foot_vertical, frame.foot_right
            else:
                start, between, end = frame.mid_left, frame.mid_vertical, frame.mid_right
            shaped = [
                _cell(console, t, w, pad, look, r) for t, w, pad, r in zip(texts, widths, pads, right, strict=True)
            ]
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

    def _title(self, console: Console, options: ConsoleOptions, width: int) -> list[Segment]:
        """The title's lines, rendered as rich's Table renders it: in the table's width, in the title's style."""
        if not self.title:
            return []
        text = console.render_str(self.title, style="table.title", highlight=False)
        return list(
            console.render(text, options.update(width=width, highlight=False, height=None, justify=self.title_justify))
        )


def _widths(lengths: list[list[int]], pads: list[int], room: int, narrowed: bool = True) -> list[int] | None:
    """Each column's width (its padding in), as rich's Table lays out one-line cells of these lengths (per column,
    header first) in `room` (the screen's width less the box's lines): as wide as its widest cell; when they do not
    fit, the widest narrowed in turn to the next widest (their cells are then folded). None if this rich has no
    such narrowing to follow, or they do not fit and `narrowed` is False."""

    def measured(column: int, width: int, first: bool) -> int:  # rich's Measurement of the column at `width`
        if width < 1:
            return 0
        pad = pads[column]
        most = max(width if width - pad < 1 else min(min(n, width) + pad, width) for n in lengths[column])
        return most or (1 if first else 0)

    widths = [measured(i, room, first=True) for i in range(len(lengths))]
    if sum(widths) <= room:
        return widths
    if not narrowed:
        return None
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


def _cell(
    console: Console, text: Text, width: int, pad: tuple[int, int], style: Style, right: bool = False
) -> list[list[Segment]]:
    """A cell's lines, each `width` wide: its padding in the row's style; its text, folded as rich folds it when
    longer than the room, in the text's own style and its spans' over the row's; the rest of each line in the
    text's own style over the row's (as rich pads a left-justified line, then renders the cell's lines as parts of
    one text); a right-justified cell (always one line: its table is not narrowed) the rest before its text."""
    left, right_pad = pad
    room = width - left - right_pad
    lines = [text] if text.cell_len <= room else list(text.wrap(console, room, justify="left", overflow="fold"))
    return [_line(console, t, room, pad, style, right) for t in lines]


def _line(
    console: Console, text: Text, room: int, pad: tuple[int, int], style: Style, justify_right: bool = False
) -> list[Segment]:
    left, right = pad
    own = console.get_style(text.style, default=null) if text.style else null
    out = [Segment(" " * left, style)] if left else []
    blank = " " * max(room - text.cell_len, 0)
    if text.spans:
        if justify_right and blank:
            out.append(Segment(blank, style + own))
        out += [Segment(segment.text, style + segment.style) for segment in text.render(console, end="")]
        if not justify_right and blank:
            out.append(Segment(blank, style + own))
    elif text.plain or blank:  # (one segment, as rich renders a line of one style padded to its width)
        out.append(Segment(blank + text.plain if justify_right else text.plain + blank, style + own))
    if right:
        out.append(Segment(" " * right, style))
    return out


null = Style.null()
