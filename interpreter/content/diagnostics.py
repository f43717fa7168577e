"""The loader's one diagnostics sink: every stage reports what it finds here, nothing raises on bad content.

A finding is a :class:`ContentError` with file, line, column, a stable code and, where it helps, a hint,
shown with the line of the file it points at (as read) and a caret. Errors stop the content from loading
(:class:`ContentErrors` carries them all, not just the first); warnings (W5xx, W301) do not. The sink also
keeps the lines of each file read (for those snippets) and the values the schema check took out of the data
(so that building from the rest says nothing more of them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..snippet import MAX_MESSAGE, clip, line_of, snippet
from .manifest import FilePos, Finding


@dataclass
class ContentError:
    path: str
    line: int
    col: int
    code: str
    message: str
    hint: str | None = None
    source: str | None = None  # the file's line `line` as it was loaded; None when there is no position
    level: str = "error"  # or "warning": something that may go wrong in play (W5xx); the content still loads
    # the schema's finding: where in the file's data (the path of keys and indexes) and the value found there, so that a
    # later stage that knows more (a scenario's content) may say more of it; not shown, not in the JSON
    about: tuple[tuple, Any] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a message names values read from the file, which may be long: never print one whole
        self.message = clip(self.message, MAX_MESSAGE)
        self.hint = clip(self.hint, MAX_MESSAGE) if self.hint is not None else None

    def __str__(self) -> str:
        s = f"{self.path}:{self.line}:{self.col}: {self.level} {self.code}: {self.message}"
        if self.source is not None:
            s += "\n" + snippet(self.source, self.col)
        return s + (f"\n    hint: {self.hint}" if self.hint else "")

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "source": self.source,
        }


class ContentErrors(Exception):
    def __init__(self, errors: list):
        super().__init__(f"{len(errors)} problem(s) in the content")
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


class Diagnostics:
    """What one load (or one `validate` of a file) found, in the order found."""

    def __init__(self) -> None:
        self.errors: list[ContentError] = []
        self.warnings: list[ContentError] = []  # W5xx: the content loads, but may misbehave in play
        # (id of a mapping or list, key) of each value the schema check reported and took out: building from the
        # rest checks what it can of the object and says nothing more of the missing value
        self.dropped: set[tuple[int, object]] = set()
        # (table, name) -> where: a declaration of a pack's `rules:` (`counters: {护甲: …}`) left out for a mistake in
        # it, so that code naming it is told to fix it, not to declare it (layering._right_keys, Units._report)
        self.wrong_declarations: dict[tuple[str, str], str] = {}
        self.sources: dict[str, list[str]] = {}  # path -> the lines of its text as read (for error snippets)

    def err(self, path: Any, pos: Any, code: str, message: str, hint: str | None = None, about: Any = None) -> None:
        """An error at a value's position (yamlpos: pos_of, key_pos_of), or at 1:1 with no snippet (pos None);
        `about`: ContentError.about."""
        if isinstance(pos, FilePos):  # a value merged in from a pack.yaml: its own file
            path = pos.path
        if pos is None:
            self.errors.append(ContentError(str(path), 1, 1, code, message, hint, about=about))
        else:
            self.error_at(path, pos.line, pos.col, code, message, hint, about)

    def error_at(
        self, path: Any, line: int, col: int, code: str, message: str, hint: str | None = None, about: Any = None
    ) -> None:
        """An error at a known line and column of the file, shown with that line of its text as read."""
        source = line_of(self.sources.get(str(path)), line)
        self.errors.append(ContentError(str(path), line, col, code, message, hint, source, about=about))

    def warn_at(self, path: Any, line: int, col: int, code: str, message: str, hint: str | None = None) -> None:
        """A warning (W5xx) at a line and column of the file: shown like an error, but the content loads."""
        source = line_of(self.sources.get(str(path)), line)
        self.warnings.append(ContentError(str(path), line, col, code, message, hint, source, "warning"))

    def warn(self, path: Any, pos: Any, code: str, message: str, hint: str | None = None) -> None:
        """A warning at a value's position, as err places an error (a value merged in from a pack.yaml: its file)."""
        if isinstance(pos, FilePos):
            path = pos.path
        if pos is None:
            self.warnings.append(ContentError(str(path), 1, 1, code, message, hint, None, "warning"))
        else:
            self.warn_at(path, pos.line, pos.col, code, message, hint)

    def report(self, f: Finding) -> None:
        """A finding of the manifest checks (manifest.py), which know nothing of the sink."""
        if f.pos is None:
            self.err(f.path, None, f.code, f.message, f.hint)
        else:
            self.error_at(f.path, f.pos.line, f.pos.col, f.code, f.message, f.hint)

    def count(self) -> tuple[int, int]:
        """How many errors and warnings so far: the same count after a step means the step found nothing."""
        return len(self.errors), len(self.warnings)
