"""Errors of the effect language, with stable codes (see docs/errors.md)."""

from __future__ import annotations


class LanguageError(Exception):
    """One problem in an effect text; `line`/`col` are 1-based positions inside that text."""

    def __init__(self, code: str, message: str, line: int = 1, col: int = 1, hint: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.col = col
        self.hint = hint
        # syntax errors found further on, after a common slip at this one was set right (parser._parse)
        self.also: list[LanguageError] = []
        # (offset, length, replacement) that sets a common slip right without moving what follows
        self.repair: tuple[int, int, str] | None = None

    def __str__(self) -> str:
        text = f"{self.line}:{self.col}: {self.code}: {self.message}"
        return text + (f" ({self.hint})" if self.hint else "")
