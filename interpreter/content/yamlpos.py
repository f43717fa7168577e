"""Safe YAML loading that remembers where every value came from.

Mappings load as :class:`PosDict` and sequences as :class:`PosList`; both keep
the (line, column) of each key and value, so any later check — JSON Schema,
cross references, the effect-language compiler — can point into the file.
Effect texts also keep their scalar style and indentation, so an error at
line 3, column 7 of a ``|`` block maps to the exact YAML line and column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import yaml

from ..snippet import brief, clip
from ..textpolicy import bad_char, describe_char


class Pos:
    __slots__ = ("line", "col", "style", "indent")

    def __init__(self, line, col, style=None, indent=0):
        self.line, self.col, self.style, self.indent = line, col, style, indent

    def map(self, line: int, col: int) -> tuple[int, int]:
        """Map a 1-based position inside a scalar's text to a 1-based position in the file."""
        if self.style in ("|", ">"):
            return self.line + line, self.indent + col
        if line == 1:
            quote = 1 if self.style in ('"', "'") else 0
            return self.line, self.col + col - 1 + quote
        return self.line + line - 1, self.indent + col


class PosDict(dict):
    __slots__ = ("pos", "key_pos", "val_pos")
    pos: Pos
    key_pos: dict[Any, Pos]
    val_pos: dict[Any, Pos]


class PosList(list):
    __slots__ = ("pos", "item_pos")
    pos: Pos
    item_pos: list[Pos]


# Limits on what a file may hold beyond its size in bytes: values nested deeper would exhaust the recursion of
# the parsers, and aliases that repeat an anchor which repeats another can stand for billions of values.
MAX_DEPTH = 100
MAX_VALUES = 100_000
# A number in a file has at most this many digits (Python refuses to read one of over 4,300; no count, id or
# seed of the game needs more), and a text (a value or a key) at most this many characters.
MAX_INT_DIGITS = 18
MAX_TEXT = 20_000
# libyaml composes nested values by recursing in C: far deeper flow nesting (`[[[[...`) overflows the C stack.
_C_MAX_BRACKETS = 10_000


class TooLarge(yaml.composer.ComposerError):
    """A value nested more than MAX_DEPTH deep, aliases that expand to more than MAX_VALUES values, a number of
    more than MAX_INT_DIGITS digits or a text of more than MAX_TEXT characters. `hint` says the limit."""

    def __init__(self, problem: str, mark: Any, hint: str = "") -> None:
        super().__init__(None, None, problem, mark)
        self.hint = hint


class NotText(yaml.composer.ComposerError):
    """A text that is not valid Unicode text (interpreter/textpolicy.py): a lone surrogate or a control
    character written as an escape. `hint` says how to write it."""

    def __init__(self, problem: str, mark: Any, hint: str = "") -> None:
        super().__init__(None, None, problem, mark)
        self.hint = hint


_NESTING_HINT = (
    f"values nest at most {MAX_DEPTH} levels deep, and aliases (*name) stand for at most {MAX_VALUES} values in all"
)
_TOO_DEEP = f"the file is too large: values nested more than {MAX_DEPTH} levels deep"


class _Loader(yaml.SafeLoader):
    """The pure-Python parser: its error messages are the ones users see (and tests check)."""

    _source_lines: list[str]  # set by load(): block scalars' indentation is read from the text
    _depth = 0

    def compose_node(self, parent, index):
        # this composer recurses once per level: stop long before Python's recursion limit
        if self._depth >= MAX_DEPTH:
            raise TooLarge(_TOO_DEEP, self.peek_event().start_mark, _NESTING_HINT)
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    # PyYAML's scanner keeps one possible simple key per flow level and looped over all of them for every token,
    # so `[[[[…` n deep cost n² steps (0.15 s to refuse a line of 5,000 brackets). The keys are kept in the order
    # they were saved (a level's key is removed before its next one is added), so their token numbers, indices
    # and lines only grow: the first is the nearest, and the stale ones are a prefix. Same tokens, same errors.

    def next_possible_simple_key(self):
        for key in self.possible_simple_keys.values():
            return key.token_number
        return None

    def stale_possible_simple_keys(self):
        keys = self.possible_simple_keys
        while keys:
            level = next(iter(keys))
            key = keys[level]
            if key.line == self.line and self.index - key.index <= 1024:
                return
            if key.required:
                raise yaml.scanner.ScannerError(
                    "while scanning a simple key", key.mark, "could not find expected ':'", self.get_mark()
                )
            del keys[level]


# libyaml's parser (about 6× faster) builds the same nodes with the same marks; values are
# constructed by the same Python code. Without libyaml, the pure-Python parser does both jobs.
# libyaml also reads some text the pure-Python parser refuses: a tab where YAML allows none
# (`key:<tab>value`, a tab inside a plain value), `?` inside a flow value (`{red: i?t}`), a byte
# order mark after the start. So that a file means the same with libyaml or without it, text
# holding any of these characters is left to the pure-Python parser (no bundled file does).
_C_DIFFERS = re.compile("[\t?\ufeff]")


def _c_loader() -> Any:
    if not hasattr(yaml, "CSafeLoader"):
        return None

    class _CLoader(yaml.CSafeLoader):
        def __init__(self, stream: str) -> None:
            if _C_DIFFERS.search(stream):
                raise yaml.YAMLError("left to the pure-Python parser")  # load() reads it again with _Loader
            super().__init__(stream)

    return _CLoader


_CLoader: Any = _c_loader()

# YAML 1.1 reads yes/no/on/off as booleans (so a key `on:` would become True). Content files
# follow YAML 1.2 here: only true/false are booleans.
_RESOLVERS = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _node_pos(loader, node) -> Pos:
    m = node.start_mark
    style = getattr(node, "style", None) or None  # a plain scalar: None (libyaml says "")
    indent = 0
    if style in ("|", ">"):
        lines = loader._source_lines
        # the first non-empty content line after the indicator gives the block's indentation
        for raw in lines[m.line + 1 :]:
            if raw.strip():
                indent = len(raw) - len(raw.lstrip(" "))
                break
    elif isinstance(node, yaml.ScalarNode):
        indent = m.column
    return Pos(m.line + 1, m.column + 1, style, indent)


def _enter(loader, node) -> None:
    """One level deeper (construction recurses too; libyaml's composer has no limit of its own)."""
    loader._depth = getattr(loader, "_depth", 0) + 1
    if loader._depth > MAX_DEPTH:
        raise TooLarge(_TOO_DEEP, node.start_mark, _NESTING_HINT)


def _count(loader, node, children) -> None:
    """How many values `node` stands for, each alias counted as a copy of its anchor's value."""
    sizes = loader._sizes
    n = sizes[id(node)] = 1 + sum(sizes.get(id(c), 1) for c in children)
    if n > MAX_VALUES:
        raise TooLarge(
            f"the file is too large: this value stands for more than {MAX_VALUES} values (an alias counts as a copy)",
            node.start_mark,
            _NESTING_HINT,
        )


def _construct_mapping(loader, node, deep=False):
    _enter(loader, node)
    try:
        return _build_mapping(loader, node)
    finally:
        loader._depth -= 1


def _build_mapping(loader, node):
    loader.flatten_mapping(node)
    out = PosDict()
    out.pos = _node_pos(loader, node)
    out.key_pos = {}
    out.val_pos = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark
            )
        if key in out:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {brief(key)}", key_node.start_mark)
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_pos[key] = _node_pos(loader, key_node)
        out.val_pos[key] = _node_pos(loader, value_node)
    _count(loader, node, [n for pair in node.value for n in pair])
    return out


def _construct_sequence(loader, node, deep=False):
    _enter(loader, node)
    try:
        out = PosList(loader.construct_object(child, deep=True) for child in node.value)
    finally:
        loader._depth -= 1
    out.pos = _node_pos(loader, node)
    out.item_pos = [_node_pos(loader, child) for child in node.value]
    _count(loader, node, node.value)
    return out


def _construct_int(loader, node):
    digits = sum(ch.isdigit() for ch in node.value)  # also 0x…, 1_000 and 1:30 (sexagesimal)
    if digits > MAX_INT_DIGITS:
        raise TooLarge(
            f"a number of {digits} digits is too large",
            node.start_mark,
            f"numbers in content files have at most {MAX_INT_DIGITS} digits; write a number of the game "
            "(a count, an id, a seed), or put the value in quotes if it is a text",
        )
    return loader.construct_yaml_int(node)


def _construct_str(loader, node):
    text = loader.construct_scalar(node)
    at = bad_char(text)
    if at >= 0:  # only an escape writes one: the reader refuses the raw character
        raise NotText(
            f"{describe_char(text[at])} (written as an escape) is not text",
            node.start_mark,
            "a text holds printable characters, tabs and line breaks; take the escape out "
            "(a character outside the Basic Multilingual Plane is written \\U0001F600, not as two \\u escapes)",
        )
    if len(text) > MAX_TEXT:
        raise TooLarge(
            f"a text of {len(text)} characters is too long",
            node.start_mark,
            f"a text (a value or a key) has at most {MAX_TEXT} characters; effect code that long is better split "
            "into several skills or uses",
        )
    return text


_LOADERS: tuple[Any, ...] = (_Loader, _CLoader) if _CLoader is not None else (_Loader,)
for _cls in _LOADERS:
    _cls.yaml_implicit_resolvers = dict(_RESOLVERS)
    _cls.add_implicit_resolver(
        "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
    )
    _cls.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    _cls.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
    _cls.add_constructor("tag:yaml.org,2002:int", _construct_int)
    _cls.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG, _construct_str)


def _load_with(cls: type, text: str, lines: list[str]):
    loader = cls(text)
    loader._source_lines = lines
    loader._sizes = {}
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def load(text: str):
    """Parse YAML text safely. Raises yaml.YAMLError (with marks) on bad input.

    Read with libyaml when it is there; a file it refuses is read again by the
    pure-Python parser, whose messages and marks are the ones reported.
    """
    lines = text.splitlines()
    if _CLoader is not None and text.count("[") + text.count("{") <= _C_MAX_BRACKETS:
        try:
            return _load_with(_CLoader, text, lines)
        except (yaml.YAMLError, RecursionError):
            pass
    return _load_with(_Loader, text, lines)


def pos_of(container, key) -> Pos | None:
    """Where the value `container[key]` is written, if known."""
    if isinstance(container, PosDict):
        return container.val_pos.get(key)
    if isinstance(container, PosList) and isinstance(key, int) and key < len(container.item_pos):
        return container.item_pos[key]
    return None


def list_in_place(rules: PosDict, key: str, default: Sequence[Any] = ()) -> PosList:
    """A copy of the list `rules[key]` (or of `default` where there is none) that keeps the positions of it and its
    items, for a pack's edits to change in place: the entries it writes carry the pack's positions (turn_edits.py,
    skill_edits.py)."""
    old = rules.get(key)
    out = PosList(old) if isinstance(old, list) else PosList(default)
    out.pos = getattr(old, "pos", None) or rules.val_pos.get(key)  # type: ignore[assignment]
    out.item_pos = list(getattr(old, "item_pos", [])) or [None] * len(out)  # type: ignore[list-item]
    return out


def key_pos_of(container, key) -> Pos | None:
    if isinstance(container, PosDict):
        return container.key_pos.get(key)
    return pos_of(container, key)


# ---------------------------------------------------------------------- hints for a text with `: ` in it

# a line whose plain text (after any `- `) has `: ` in it: YAML reads what comes before as a key
_TEXT_WITH_COLON = re.compile(r"^(\s*(?:-\s+)?)([^\s#'\"\[\]{}|>&*!%@`,-][^#]*?): +\S")
# a line that starts a plain text: `- text` or `key: text` (not a block `|`/`>`, not quoted, not a list or mapping)
_TEXT_START = re.compile(r"^(\s*)(?:-\s+|[^\s#:-][^:#]*: +)[^\s#'\"\[{|>&*!%@`]")
_IDENTIFIER = re.compile(r"[A-Za-z_][\w-]*\Z")
_QUOTE_IT = (
    "put the whole text in quotes (\"…\"), or write the full-width colon '：' as Chinese text does; "
    "a text over several lines may also follow `|`, indented on the lines below"
)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _line_above(lines: list[str], n: int) -> int | None:
    """The last line before line n (1-based) that is neither blank nor a comment."""
    for k in range(n - 1, max(n - 12, 0), -1):
        text = lines[k - 1].strip() if k <= len(lines) else ""
        if text and not text.startswith("#"):
            return k
    return None


def colon_in_wrapped_text(
    lines: list[str], problem: str, context: str | None, context_line: int | None, line: int, col: int
) -> tuple[int, int, str, str] | None:
    """A YAML error caused by `: ` in a plain text written over two or more lines (a `rulings:` item that wraps,
    `- 若目标没有手牌: 仍然可以使用` then `  并且摸一张牌。`), as (line, column, problem, hint); else None.

    YAML reads the text before `: ` as a key. With `: ` on the first line, the next line is read as a second
    key, and the parser fails after it ("could not find expected ':'", at the next key of the file: far from
    the slip); with `: ` on a later line, that line is read as a key inside a text ("mapping values are not
    allowed here"). Before `: ` an identifier (`effect`) is more likely a real key, and the next line a key
    missing its colon: the error is put on that line, and the hint names both readings."""
    if context == "while scanning a simple key" and "could not find expected ':'" in problem and context_line:
        first = _line_above(lines, context_line)
        if first is None or context_line > len(lines):
            return None
        m = _TEXT_WITH_COLON.match(lines[first - 1])
        if m is None or _indent(lines[context_line - 1]) != len(m.group(1)):
            return None
        key = m.group(2)
        if _IDENTIFIER.match(key):
            return (
                context_line,
                _indent(lines[context_line - 1]) + 1,
                f"this line is read as a key (after `{clip(key)}: …` on line {first}) and has no `: ` after it",
                f"a key needs `: ` after it; if this line goes on with the text of line {first} instead, put that "
                'whole text in quotes ("…")',
            )
        return (
            first,
            m.end(2) + 1,
            f"`: ` in a text that goes on to line {context_line}: YAML reads `{clip(key)}` as a key, "
            f"and line {context_line} as a second key without its `:`",
            _QUOTE_IT,
        )
    if "mapping values are not allowed" in problem and 0 < line <= len(lines):
        m = _TEXT_WITH_COLON.match(lines[line - 1])
        if m is None or m.group(1).strip() or _IDENTIFIER.match(m.group(2)):
            return None  # a `- ` item or a key of its own: not the middle of a text
        start = _line_above(lines, line)
        while start is not None and _TEXT_START.match(lines[start - 1]) is None:
            if _TEXT_WITH_COLON.match(lines[start - 1]) or lines[start - 1].lstrip().startswith("- "):
                return None
            start = _line_above(lines, start)  # a line in the middle of the text: look further up
        if start is None or _indent(lines[line - 1]) <= _indent(lines[start - 1]):
            return None
        return (
            line,
            m.end(2) + 1,
            f"`: ` in a text that goes on from line {start}: YAML reads `{clip(m.group(2))}` as a key here",
            _QUOTE_IT,
        )
    return None
