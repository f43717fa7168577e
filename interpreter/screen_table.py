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

rich breaks a line only at a space, so Chinese text broke inside a role's name or a card. :func:`fold` breaks it
between them instead (after a Chinese comma or colon, at a space, before a bracketed title); :class:`Folded` is a
panel's text folded so, :class:`FittedTable` a table whose columns are narrowed no further than their longest name
or card (play's screen, tests/test_play.py at 60, 80 and 120 columns).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
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


# ---------------------------------------------------------------------- lines that break between names, not in them

_CLAUSE_ENDS = frozenset("，、；：。！？")  # a line may end after these, best of all
_OPENING = frozenset("（【［《「")  # a line may end before these (a role's title, a card's or skill's name in brackets)
_CLOSING = frozenset("）】］》」")  # never at a line's start
_INDENT = re.compile(r"\s*(?:\d+\.\s+)?")  # what a line's later lines hang under: its indent, a menu's number


def _breaks(plain: str) -> list[tuple[int, int, bool]]:
    """Where a line of `plain` may end: (the line's end, the next line's start, whether it ends a clause).

    rich breaks a line only at spaces and folds a longer run between two character by character, so Chinese text,
    which has few spaces, broke inside a role's name (its title's closing bracket alone on the next line) or a card
    (``<name>#28(`` then its colours). Here a line may end after a run of spaces (dropped, as rich drops them), after
    a Chinese comma, colon, semicolon or full stop, and before a full-width opening bracket (between a role's name
    and its bracketed title, or before ``（背面朝下）``); never inside a name or a card, nor before a closing
    bracket."""
    out: list[tuple[int, int, bool]] = []
    i, n = 0, len(plain)
    while i < n:
        ch = plain[i]
        if ch.isspace():
            j = i
            while j < n and plain[j].isspace():
                j += 1
            if i and j < n:
                out.append((i, j, False))
            i = j
            continue
        if ch in _CLAUSE_ENDS and i + 1 < n and not plain[i + 1].isspace() and plain[i + 1] not in _CLOSING:
            out.append((i + 1, i + 1, True))
        elif (
            ch in _OPENING
            and i
            and not plain[i - 1].isspace()
            and plain[i - 1] not in _OPENING
            and out[-1:] != [(i, i, True)]
        ):
            out.append((i, i, False))
        i += 1
    return out


def _breaks_between(plain: str, separators: Sequence[str]) -> list[tuple[int, int, bool]]:
    """Where a line of items joined by `separators` may end: after a separator, its trailing spaces dropped
    (``牌堆 110 张 ·`` then ``弃牌堆 0 张``, ``P1 heuristic,`` then ``P2 heuristic``), never inside an item, whose
    own spaces (``第 0 回合``) would break it mid-item as rich breaks it."""
    pattern = re.compile("|".join(re.escape(s) for s in sorted(separators, key=len, reverse=True)))
    out: list[tuple[int, int, bool]] = []
    for m in pattern.finditer(plain):
        end = m.start() + len(m.group().rstrip())
        if end and m.end() < len(plain):
            out.append((end, m.end(), False))
    return out


def _offsets(plain: str) -> list[int]:
    """The cell at which each character of `plain` starts, and its width at the end (wide characters take two)."""
    out = [0]
    for ch in plain:
        out.append(out[-1] + cell_len(ch))
    return out


def fold(text: Text, width: int, between: Sequence[str] | None = None) -> list[Text]:
    """`text`'s lines, each folded to `width` cells at the places :func:`_breaks` allows (or, given `between`, only
    after those separators: a line of items, :func:`_breaks_between`): at the last clause's end
    that fits if it fills half the line, else at the last place that fits; a stretch with no such place that is
    wider than `width` alone is cut character by character (as rich folds it: nothing is lost). A line's later
    lines hang under its first's text: after its indent (``　　　　秘密任务：…``) and a menu's number (``  12. ``)."""
    width = max(width, 1)
    out: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        plain = line.plain
        cells = _offsets(plain)
        if cells[-1] <= width:
            out.append(line)
            continue
        breaks = _breaks(plain) if between is None else _breaks_between(plain, between)
        hang = cells[m.end()] if (m := _INDENT.match(plain)) and 2 * cells[m.end()] <= width else 0
        start, room = 0, width
        while cells[-1] - cells[start] > room:
            fits = [b for b in breaks if start < b[0] and cells[b[0]] - cells[start] <= room]
            clause = [b for b in fits if b[2] and 2 * (cells[b[0]] - cells[start]) >= room]
            if clause or fits:
                end, after, _ = (clause or fits)[-1]
            else:  # (a stretch wider than the line: cut it where the line is full)
                end = start + 1
                while end < len(plain) and cells[end + 1] - cells[start] <= room:
                    end += 1
                after = end
            out.append(line[start:end] if not start else Text(" " * hang).append_text(line[start:end]))
            start, room = after, width - hang
        out.append(line[start:] if not start else Text(" " * hang).append_text(line[start:]))
    return out


def longest_piece(text: Text, between: Sequence[str] | None = None) -> int:
    """The width, in cells, of the widest stretch of `text` that :func:`fold` keeps on one line (a name, a card;
    an item, given `between`)."""
    most = 0
    for line in text.plain.split("\n"):
        cells = _offsets(line)
        start = 0
        breaks = _breaks(line) if between is None else _breaks_between(line, between)
        for end, after, _ in [*breaks, (len(line), len(line), False)]:
            most = max(most, cells[end] - cells[start])
            start = after
    return most


class Folded:
    """A text drawn folded between names and cards (:func:`fold`), never inside one: a panel's lines of Chinese;
    or, given `between`, a line of items folded only after those separators (play's header and opening line)."""

    def __init__(self, text: Text, between: Sequence[str] | None = None) -> None:
        self.text = text
        self.between = between

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        most = max((cell_len(line) for line in self.text.plain.split("\n")), default=0)
        return Measurement(longest_piece(self.text, self.between), most).clamp(max_width=options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("\n", end=self.text.end).join(fold(self.text, options.max_width, self.between))


class FittedTable:
    """A :class:`ScreenTable` whose cells break between names and cards, never inside one.

    Drawn as it is when it fits the screen; else its widest columns are narrowed in turn (never below a column's
    widest name, card or header) and its cells folded where :func:`fold` allows; a table that cannot be narrowed
    so is drawn as `narrower` (another layout of the same things), or as rich folds it when there is none."""

    def __init__(self, table: ScreenTable, narrower: RenderableType | None = None) -> None:
        self.table = table
        self.narrower = narrower

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table
        n = len(table.columns)
        pads = [(0 if i == 0 else 1) + (0 if i == n - 1 else 1) for i in range(n)]
        headers = [_text(console, c.header) for c in table.columns]
        rows = [[_text(console, c) for c in cells] for cells, _ in table.rows]
        room = options.max_width - n - 1
        columns = [[r[i] for r in rows] for i in range(n)]
        natural = [
            max(cell_len(line) for t in [headers[i], *texts] for line in t.plain.split("\n")) + pads[i]
            for i, texts in enumerate(columns)
        ]
        if sum(natural) <= room:
            yield table
            return
        least = [
            max([cell_len(headers[i].plain), *(longest_piece(t) for t in texts)]) + pads[i]
            for i, texts in enumerate(columns)
        ]
        widths = fitted_widths(natural, least, room)
        if widths is None:
            yield self.narrower if self.narrower is not None else table
            return
        folded = ScreenTable(table.columns, table.header_style, table.frame, table.title, table.title_justify)
        for row, (_, style) in zip(rows, table.rows, strict=True):
            cells = [Text("\n").join(fold(t, w - pad)) for t, w, pad in zip(row, widths, pads, strict=True)]
            folded.add_row(*cells, style=style)
        yield folded  # (cells of several lines: rich draws it, and each line already fits its column)


def fitted_widths(natural: Sequence[int], least: Sequence[int], room: int) -> list[int] | None:
    """Columns' widths that fit `room`: the widest lowered to a common ceiling, each at least its `least`, the room
    the ceiling leaves over given back one cell each to the columns it lowered; None if the least do not fit."""
    if sum(least) > room:
        return None
    top = max(natural)
    widths = list(natural)
    while sum(widths) > room:
        top -= 1
        widths = [max(lo, min(nat, top)) for nat, lo in zip(natural, least, strict=True)]
    spare = room - sum(widths)
    for i, nat in enumerate(natural):
        if spare and widths[i] < nat:
            widths[i] += 1
            spare -= 1
    return widths
