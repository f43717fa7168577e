"""The people at a table of ``fengsheng serve``: the names they take, who is online, and the table's chat.

A name and a chat line are a person's own words, shown to everyone at the table: they are checked here (a
length, no control or format character — no newline, no bidirectional override, no zero-width joiner that
would make one name look like another) and the pages only ever show them as text, never as markup. What the
table says about its people is public: which seats are people and which bots, their names, who is online
now, how many are watching. A chat line is kept with the table (in its record and the database) and goes to
every seat and spectator of the table; a seat may send a few lines in a burst, then must wait (``Chat``).

Nothing here reads the game: a name or a line carries only what its person typed.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import Any

MAX_NAME = 32  # characters of a name
MAX_LINE = 200  # characters of a chat line
BURST = 5  # chat lines a seat may send within WINDOW seconds
WINDOW = 10.0
MAX_LINES = 1000  # chat lines a table keeps (then its chat is full)
_BANNED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # control, format, surrogate, private, unassigned, separators


class Refused(Exception):
    """A name or a chat line not taken: the message (in Chinese) the page shows."""


def _text(value: Any, limit: int, what: str) -> str:
    if not isinstance(value, str):
        raise Refused(f"{what}要是一段文字。")
    text = " ".join(value.split())  # runs of spaces (and tabs, newlines) as one space; none at the ends
    if not text:
        raise Refused(f"{what}不能是空的。")
    if len(text) > limit:
        raise Refused(f"{what}最多 {limit} 个字（这段有 {len(text)} 个）。")
    bad = next((c for c in text if unicodedata.category(c) in _BANNED), None)
    if bad is not None:
        raise Refused(f"{what}里不能有控制字符或格式字符（U+{ord(bad):04X}）。")
    return text


def clean_name(value: Any) -> str:
    """A name a person took, checked: at most MAX_NAME characters, one line, no control or format character."""
    return _text(value, MAX_NAME, "名字")


def clean_line(value: Any) -> str:
    """A chat line, checked as a name is, at most MAX_LINE characters."""
    return _text(value, MAX_LINE, "一句话")


@dataclass
class Chat:
    """A table's chat: its lines (seat, name then, text) and each seat's recent lines, to hold a burst back."""

    lines: list[tuple[int, str, str]] = field(default_factory=list)
    recent: dict[int, deque[float]] = field(default_factory=dict)

    def say(self, seat: int, name: str, text: str, now: float) -> tuple[int, str, str]:
        """The line `seat` says at `now` (seconds, the server's monotonic clock: the game knows no clock), added;
        Refused if the seat said BURST lines in the last WINDOW seconds, or the chat is full."""
        if len(self.lines) >= MAX_LINES:
            raise Refused(f"这张桌的聊天已满（{MAX_LINES} 句）。")
        recent = self.recent.setdefault(seat, deque())
        while recent and now - recent[0] >= WINDOW:
            recent.popleft()
        if len(recent) >= BURST:
            raise Refused(f"说得太快了：{WINDOW:g} 秒内最多 {BURST} 句，请稍等。")
        recent.append(now)
        line = (seat, name, text)
        self.lines.append(line)
        return line


def line_data(line: tuple[int, str, str]) -> dict[str, Any]:
    seat, name, text = line
    return {"seat": seat, "name": name, "text": text}
