"""Show the line an error points at, with a caret under its column, as a compiler does.

A leaf module (it imports nothing of the project): content errors, scenario files and logs use it.
Columns are 1-based and count characters (what PyYAML, Lark and ``json`` report); the caret is
placed by *terminal cells*: an East Asian wide or full-width character (中, ，) takes two, a
combining mark none, a tab runs to the next multiple of :data:`TAB_SIZE`, and an invisible or
control character is shown as ``<U+200B>`` so that what the error names can be seen. A line
wider than ``width`` cells is cut around the caret, with ``...`` where it was cut.
"""

from __future__ import annotations

import re
import unicodedata

TAB_SIZE = 8
WIDTH = 100
INDENT = "    "
MARK = "..."

# where PyYAML counts a new line (its marks count lines the same way)
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


# An error message names a value (a name, a number, a key) at most this long; and a message or a hint is at most
# MAX_MESSAGE characters in all: a value read from a file is never printed whole (a file may hold a text of
# 20,000 characters, a list of 100,000 values).
MAX_VALUE = 60
MAX_MESSAGE = 1000


def clip(text: str, limit: int = MAX_VALUE) -> str:
    """A text cut in the middle when it is longer than `limit`: "abc…xyz (5,000 characters)"."""
    if len(text) <= limit:
        return text
    keep = max(limit - 20, 8)
    return f"{text[: keep // 2]}…{text[-(keep - keep // 2) :]} ({len(text):,} characters)"


def brief(value: object, limit: int = MAX_VALUE) -> str:
    """repr() of a value read from a file, clipped: of a large list or mapping only its first items, of a
    number of hundreds of digits only how many (repr of it all could be megabytes)."""
    return _repr(value, limit)


def _repr(value: object, limit: int) -> str:
    if isinstance(value, (list, tuple)) and len(value) > 8:
        return "[" + ", ".join(_repr(v, limit) for v in value[:8]) + f", … ({len(value):,} items)]"
    if isinstance(value, dict) and len(value) > 8:
        items = ", ".join(f"{_repr(k, limit)}: {_repr(v, limit)}" for k, v in list(value.items())[:8])
        return "{" + items + f", … ({len(value):,} keys)}}"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of {len(str(abs(value))) if value.bit_length() < 14_000 else 'thousands of'} digits"
    text = repr(value)
    return clip(text, limit) if len(text) > limit else text


def split_lines(text: str) -> list[str]:
    """The lines of a text as a YAML error's line numbers count them (1-based: ``lines[line - 1]``)."""
    return _LINE_BREAK.split(text)


def line_of(lines: list[str] | None, line: int) -> str | None:
    """Line `line` (1-based) of `lines`, or None when there is no such line."""
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]


def _cell(ch: str, at: int) -> tuple[str, int]:
    """How one character is shown from terminal column `at`: (text, cells)."""
    if ch == "\t":
        n = TAB_SIZE - at % TAB_SIZE
        return " " * n, n
    if unicodedata.category(ch) in ("Cc", "Cf"):  # a control character, a zero-width space, a BOM
        shown = f"<U+{ord(ch):04X}>"
        return shown, len(shown)
    if unicodedata.combining(ch):
        return ch, 0
    return ch, 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def snippet(line: str, col: int, indent: str = INDENT, width: int = WIDTH) -> str:
    """Two lines: `line` as a terminal shows it and a caret under character `col` (1-based).

    A column past the end of the line puts the caret just after its last character.
    """
    cells: list[tuple[str, int]] = []
    if line.isascii() and line.isprintable():  # no tab, no control: one cell a character (a long line at once)
        cells = [(ch, 1) for ch in line]
    else:
        at = 0
        for ch in line:
            shown, n = _cell(ch, at)
            cells.append((shown, n))
            at += n
    k = min(max(col, 1), len(cells) + 1) - 1  # the caret's character (len(cells): past the end)
    cells.append((" ", 1))  # room for a caret past the end
    lo, hi = 0, len(cells)
    total = sum(n for _, n in cells)
    if total > width:
        # keep the caret's character, then as much as fits: a third of the room before it at most
        room = width - 2 * len(MARK)
        before = 0
        lo = k
        while lo > 0 and before + cells[lo - 1][1] <= room // 3:
            lo -= 1
            before += cells[lo][1]
        used = before
        hi = k
        while hi < len(cells) and used + cells[hi][1] <= room:
            used += cells[hi][1]
            hi += 1
        while lo > 0 and used + cells[lo - 1][1] <= room:  # the end of the line came early
            lo -= 1
            used += cells[lo][1]
        hi = max(hi, k + 1)
    head = MARK if lo > 0 else ""
    tail = MARK if hi < len(cells) else ""
    shown = head + "".join(s for s, _ in cells[lo:hi]).rstrip() + tail
    pad = len(head) + sum(n for _, n in cells[lo:k])
    return f"{indent}{shown}".rstrip() + f"\n{indent}{' ' * pad}^"


def spans(numbers: list[int]) -> str:
    """Whole numbers, sorted, as runs: 1, 2, 3, 5, 7, 8 as '1-3, 5, 7-8' (deck ids, player counts)."""
    runs: list[list[int]] = []
    for u in numbers:
        if runs and u == runs[-1][1] + 1:
            runs[-1][1] = u
        else:
            runs.append([u, u])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
