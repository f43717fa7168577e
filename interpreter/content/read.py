"""The read stage: one content file's bytes → text → YAML data with positions (yamlpos.py) → the schema stage.

What can go wrong before there is data is reported here, at the place it happened: a file that cannot be read,
is too large, is not UTF-8 (or is binary), is empty, or is not YAML (with a hint for the slips a designer
makes: a tab, a full-width colon, an unclosed quote or bracket). The lines of the text go to the sink for the
snippets of every later finding in the file.

A file that reads clean (YAML parsed, schema met, nothing to report) is kept (READS, cache.py), in this
process and between runs: an unchanged file is not parsed or checked again. A file with any finding is read
in full every time, so that its findings are reported again.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ..cache import PICKLE, Kept, file_stamp, remember
from ..paths import SCHEMA_DIR
from ..snippet import line_of, split_lines
from .diagnostics import ContentError, Diagnostics
from .schema_stage import check_schema, schema
from .yamlpos import NotText, PosDict, TooLarge, colon_in_wrapped_text, load as load_yaml

MAX_FILE_BYTES = 1_000_000

_FULL_WIDTH_KEY = re.compile(r"^(\s*(?:-\s+)?)([A-Za-z_][\w-]*)\s*：")


@lru_cache(maxsize=1)
def _reads_version() -> str:
    """What a clean read depends on beyond the file's text: the schemas, this reader (the read and schema stages
    and yamlpos.py) and the YAML library: a run whose files all read clean before skips YAML parsing and the
    schema checks (and importing jsonschema); anything changed here reads every file again."""
    digest = hashlib.sha256(f"{yaml.__version__} {sys.version_info[:2]}".encode())
    here = Path(__file__)
    for part in (
        *sorted(SCHEMA_DIR.glob("*.json")),
        here,
        here.with_name("schema_stage.py"),
        here.with_name("yamlpos.py"),
    ):
        with contextlib.suppress(OSError):
            digest.update(part.name.encode() + b"\0" + part.read_bytes())
    return digest.hexdigest()[:16]


# Files read before that parsed and met their schema with nothing to report, by kind and text: the data (each
# read gets its own copy, which the builders may change). A process that loads packs again and again (the tests,
# `fengsheng serve`) parses and schema-checks each unchanged file once, and a run whose files all read clean in
# an earlier run reads none; a file with any finding is read in full every time, so that its findings are
# reported again.
READS: Kept[PosDict | None] = Kept(
    "read", version=lambda: _reads_version(), copies=PICKLE, between_runs=True
)  # (kind, text)


# The text of a content file that read as text, and its lines, by what the file is on disk (cache.file_stamp: only
# for a file that has not changed for a while). An unchanged file of the bundled game is not opened again by a
# process that loads it again and again (the tests, `serve`).
TEXTS: Kept[tuple[str, list[str]]] = Kept("file text")


def read(sink: Diagnostics, path: Path, kind: str, *, shared: bool = False) -> PosDict | None:
    """Read one YAML file and check it against its schema. None if unusable (and reported). The data is the
    caller's own, unless `shared`: then it is the one object every shared read of the same text in this process
    gets, never to be changed (the loader's card, role, secret task and deck files, which it only reads:
    unpickling a fresh copy of each was most of what loading an unchanged pack cost)."""
    stamp = file_stamp(path)  # (None: unreadable, _text says why; or changed just now)
    kept = TEXTS.get(stamp) if stamp is not None else None
    if kept is None:
        text = _text(sink, path)
        if text is None:
            return None
        kept = (text, split_lines(text))
        if stamp is not None:
            TEXTS.put(stamp, kept)
    text, lines = kept
    sink.sources[str(path)] = list(lines)
    return remember(READS, (kind, text), lambda: _read_clean(sink, path, text, kind), shared=shared)


def _read_clean(sink: Diagnostics, path: Path, text: str, kind: str) -> tuple[PosDict | None, bool]:
    """The text parsed and checked, and whether it read clean (nothing reported, nothing taken out)."""
    findings = len(sink.errors), len(sink.warnings), len(sink.dropped)
    data = _parse(sink, path, text, kind)
    if data is None:
        return None, False
    check_schema(sink, path, data, kind)
    return data, (len(sink.errors), len(sink.warnings), len(sink.dropped)) == findings


def _text(sink: Diagnostics, path: Path) -> str | None:
    """The file's text: at most MAX_FILE_BYTES, UTF-8 with no NUL byte, without a byte order mark."""
    try:
        with open(path, "rb") as f:  # no more than the limit is read (a device such as /dev/zero never ends)
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        sink.err(path, None, "E100", f"cannot read the file: {e.strerror}")
        return None
    if len(raw) > MAX_FILE_BYTES:
        sink.err(
            path,
            None,
            "E104",
            f"the file is more than {MAX_FILE_BYTES} bytes; content files are limited to {MAX_FILE_BYTES} bytes",
            "split it into one file per card, role or task",
        )
        return None
    nul = raw.find(b"\0")  # text never holds one; a binary file (an image, a program) nearly always does
    try:
        if nul >= 0:
            raw[:nul].decode("utf-8")  # a bad byte before it is the one to show
            raise UnicodeDecodeError("utf-8", raw, nul, nul + 1, "a NUL byte")
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        sink.errors.append(_not_text(path, raw, e, binary=e.start == nul))
        return None
    return text[1:] if text.startswith("\ufeff") else text


def _not_text(path: Path, raw: bytes, e: UnicodeDecodeError, binary: bool) -> ContentError:
    line = raw[: e.start].count(b"\n") + 1
    start = raw.rfind(b"\n", 0, e.start) + 1
    end = raw.find(b"\n", e.start)
    shown = raw[start : len(raw) if end < 0 else end].rstrip(b"\r").decode("utf-8", "backslashreplace")
    col = len(raw[start : e.start].decode("utf-8")) + 1  # in characters, as every other column
    return ContentError(
        str(path),
        line,
        col,
        "E102",
        "a NUL byte: this is a binary file, not YAML text" if binary else f"byte 0x{raw[e.start]:02x} is not UTF-8",
        "content files are YAML text, saved as UTF-8" if binary else "save the file as UTF-8",
        None if binary else shown,  # a binary line shows nothing useful
    )


def _parse(sink: Diagnostics, path: Path, text: str, kind: str) -> PosDict | None:
    """The text as YAML data with positions; None (reported) if empty, not YAML, or not a mapping."""
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        sink.err(
            path,
            None,
            "E103",
            "the file is empty",
            f"a {kind} file needs at least: " + ", ".join(schema(kind).get("required", [])),
        )
        return None
    try:
        data = load_yaml(text)
    except TooLarge as e:
        assert e.problem_mark is not None  # always raised at a node
        line, col = e.problem_mark.line + 1, e.problem_mark.column + 1
        sink.error_at(path, line, col, "E104", str(e.problem), e.hint)
        return None
    except NotText as e:
        assert e.problem_mark is not None  # always raised at a node
        line, col = e.problem_mark.line + 1, e.problem_mark.column + 1
        sink.error_at(path, line, col, "E101", str(e.problem), e.hint)
        return None
    except yaml.reader.ReaderError as e:  # a character YAML does not allow: no mark, a position in the text
        before = text[: e.position]
        line, col = before.count("\n") + 1, e.position - before.rfind("\n")
        message = f"YAML syntax: the character U+{e.character:04X} is not allowed in a YAML file"
        hint = "remove it: a YAML file holds printable characters, tabs and line breaks"
        sink.error_at(path, line, col, "E101", message, hint)
        return None
    except yaml.YAMLError as e:
        _yaml_error(sink, path, e)
        return None
    if not isinstance(data, PosDict):
        sink.err(path, getattr(data, "pos", None), "E110", f"a {kind} file must be a mapping (key: value lines)")
        return None
    return data


def _yaml_error(sink: Diagnostics, path: Path, e: yaml.YAMLError) -> None:
    """E101: YAML's complaint, at the place the slip is (not always where YAML noticed it), with a hint."""
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    problem = getattr(e, "problem", None) or str(e)
    lines = sink.sources[str(path)]
    full_width = _full_width_key(lines, line) if mark else None
    if full_width:  # `key：value`: YAML reads one text, and fails on a later line
        line, col, key = full_width
        problem = f"a full-width colon '：' after the key `{key}`"
        hint: str | None = f"YAML needs the ASCII colon and a space: `{key}: ...`"
    else:
        line, col, problem, hint = _yaml_hint(e, lines, line, col, problem, mark is not None)
    if mark:
        sink.error_at(path, line, col, "E101", f"YAML syntax: {problem}", hint)
    else:
        sink.errors.append(ContentError(str(path), line, col, "E101", f"YAML syntax: {problem}", hint))


def _yaml_hint(
    e: Any, lines: list[str], line: int, col: int, problem: str, marked: bool
) -> tuple[int, int, str, str | None]:
    """(line, column, problem, hint) of a YAML error that is not a full-width colon (`marked`: YAML said where)."""
    src_line = (line_of(lines, line) or "") if marked else ""
    context, context_mark = getattr(e, "context", None), getattr(e, "context_mark", None)
    if context == "while scanning a quoted scalar" and context_mark and "end of stream" in str(problem):
        line, col = context_mark.line + 1, context_mark.column + 1
        problem = "this quoted text is never closed: the file ends inside it"
        return line, col, problem, "end the text with the same quote mark, on its line; or leave the quotes out"
    if context in ("while parsing a flow sequence", "while parsing a flow mapping") and context_mark:
        opening = "[" if "sequence" in context else "{"
        closing = "]" if opening == "[" else "}"
        where = f"line {context_mark.line + 1}, column {context_mark.column + 1}"
        hidden = _comment_in_flow(lines, context_mark.line + 1, context_mark.column + 1)
        if hidden is not None:  # `[pass, #27]`: the `#` starts a comment that hides the rest of the line
            hcol, word, item = hidden
            if item != word:  # `[use #9, P1]`: the `#` inside an item, after a space
                hint = (
                    f"`{word}` in `{item}` starts a comment (a space then `#`), which hides the rest of the line and "
                    f'its `{closing}`: put the whole item in quotes, "{item}"'
                )
            else:
                hint = (
                    f"`{word}` starts a comment, which hides the rest of the line and its `{closing}`: "
                    f'put it in quotes, "{word}"'
                    + (f", or write the number alone, {word[1:]}" if word[1:].isdigit() else "")
                )
            return context_mark.line + 1, hcol, f"the `{opening}` at {where} is not closed", hint
        return line, col, problem, f"the `{opening}` at {where} is not closed by `{closing}` before this"
    wrapped = colon_in_wrapped_text(
        lines, str(problem), context, context_mark.line + 1 if context_mark else None, line, col
    )
    if wrapped:  # `: ` in a text over two lines (a `rulings:` item): YAML reads a key
        return wrapped
    if "\t" in src_line or re.search(r"\btabs?\b", str(problem)):
        return line, col, problem, "YAML indentation must use spaces, not tabs"
    if "mapping values are not allowed" in str(problem) and re.match(r"\s*-?\s*[\w-]+: .*: ", src_line):
        hint = (
            "a value with `: ` in it is put in quotes, or, code with a keyword argument (`from: ...`), "
            "written as a block: `effect: |` and the code on the lines below, indented"
        )
        return line, col, problem, hint
    if "mapping values are not allowed" in str(problem) or "expected <block end>" in str(problem):
        return line, col, problem, "check the indentation of this line against the line above"
    return line, col, problem, None


def _comment_in_flow(lines: list[str], line: int, col: int) -> tuple[int, str, str] | None:
    """(column, word, item) of a `#` followed by a word (`#27`, a deck id as scenarios write it) in the
    `[...]`/`{...}` opened at (line, col), where YAML starts a comment: where a value goes — right after the
    bracket, a `,` or a `: ` (item is the word) — or after a space inside an item (`use #9`: item is the item up to
    the word's end); None if there is none. A comment of the usual kind (`# text`) is not taken for one."""
    text = line_of(lines, line) or ""
    quote = ""
    before = ""  # the last character outside quotes that is not a space
    start = col  # where the current item starts (just after the bracket or the last `,` / `: `)
    for i in range(col, len(text)):  # from just after the bracket (col is 1-based)
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (before in "[{,:" or text[i - 1] == " "):
            m = re.match(r"#[^\s,\]}]+", text[i:])
            if m is None:
                return None  # a comment of its own, not a value
            item = m.group(0) if before in "[{,:" else text[start : i + m.end()].strip()
            return i + 1, m.group(0), item
        elif ch in ",:[{":
            start = i + 1
        if not ch.isspace():
            before = ch
    return None


def _full_width_key(lines: list[str], upto: int) -> tuple[int, int, str] | None:
    """The last of line `upto` (1-based) and the two before it that starts with a key followed by a
    full-width colon `：` (a Chinese input method's), as (line, column of the colon, key); else None.
    YAML reads such a line as one text and fails on a line after it."""
    for n in range(min(upto, len(lines)), max(upto - 3, 0), -1):
        m = _FULL_WIDTH_KEY.match(lines[n - 1])
        if m:
            return n, m.end(), m.group(2)
    return None
