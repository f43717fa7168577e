"""One bounded JSON reader for every file or message fengsheng reads back: saves, sweep folders, logs, HTTP
bodies, websocket frames.

``json.loads`` alone lets an input decide how deep the parser recurses (a RecursionError), how long a number
is (a ValueError past 4,300 digits) and whether floats are finite (``NaN``, ``Infinity``). :func:`loads`
takes a text whose size the caller has bounded and returns plain data no deeper than ``max_depth``, with
finite numbers, or raises :class:`JsonInputError` with the line, the column and what is wrong — one line for
the user, never a traceback. What the data must look like is each reader's own schema, checked after this.

It imports only the text policy (textpolicy.py), a leaf: a string that is not valid text is refused here, so
that what passes can be printed and written again.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .textpolicy import bad_char, describe_char

__all__ = ["MAX_DEPTH", "JsonInputError", "depth_of", "loads"]

MAX_DEPTH = 32
"""Nesting no file or message of fengsheng needs more than (a log record: 5; an observation: 6)."""


class JsonInputError(ValueError):
    """A text that is not JSON fengsheng reads: `line` and `column` (1-based) where it is not JSON, and the
    parser's `reason`; or, with line 0, what makes it JSON fengsheng does not read (too deep, a huge number)."""

    def __init__(self, reason: str, line: int = 0, column: int = 0) -> None:
        self.reason, self.line, self.column = reason, line, column
        where = f"{line}:{column}: " if line else ""
        super().__init__(where + reason)


def _no_constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a number JSON allows (a finite number is expected)")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonInputError(f"{text[:20]} is too large for a number")
    return value


def depth_of(value: Any, limit: int) -> int:
    """How deeply `value` nests lists and objects, counted up to `limit` + 1 (a walk that stops there).
    A text that is not text (textpolicy.py: a lone surrogate, a control character) raises JsonInputError."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, str):
            _check_text(v)
        elif isinstance(v, (dict, list)):
            if isinstance(v, dict):
                for k in v:
                    _check_text(k)
            if d > deepest:
                deepest = d
                if deepest > limit:
                    return deepest
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def _container_depth(value: Any, limit: int) -> int:
    """depth_of for plain data whose texts are known to be text: only the lists and objects are walked."""
    if not isinstance(value, (dict, list)):
        return 0
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if d > deepest:
            deepest = d
            if deepest > limit:
                return deepest
        for x in v.values() if isinstance(v, dict) else v:
            if isinstance(x, (dict, list)):
                stack.append((x, d + 1))
    return deepest


# JSON writes a character that is not text either as itself (a raw C0 control inside a string is a syntax error
# already; DEL, the C1 controls or a surrogate are not) or with an escape (\u…, \b, \f). A text with neither
# holds no string that needs a look: the walk then skips the strings (most of a log record's values).
_ESCAPE_OF_BAD = re.compile(r"\\[bfu]")


def _check_text(text: str) -> None:
    at = bad_char(text)
    if at >= 0:
        raise JsonInputError(f"{describe_char(text[at])} in a text: not valid text")


def _whole(digits: int) -> Any:
    def parse(number: str) -> int:
        if len(number.lstrip("-")) > digits:
            raise JsonInputError(f"a number has more than {digits} digits")
        return int(number)

    return parse


def loads(text: str | bytes, max_depth: int = MAX_DEPTH, max_digits: int | None = None) -> Any:
    """The plain data of a JSON text; JsonInputError (line:column: reason) for anything else. `max_digits`:
    a whole number of more digits is refused too (an HTTP body, a websocket frame: far below Python's 4,300)."""
    parse_int = _whole(max_digits) if max_digits is not None else None
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite, parse_int=parse_int)
    except json.JSONDecodeError as e:
        raise JsonInputError(e.msg, e.lineno, e.colno) from None
    except UnicodeDecodeError as e:
        raise JsonInputError(f"not UTF-8 text (byte 0x{e.object[e.start]:02x})") from None
    except RecursionError:
        raise JsonInputError(f"values nested too deeply (more than {max_depth} levels)") from None
    except JsonInputError:
        raise
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise JsonInputError("a number of thousands of digits") from None
    clean = isinstance(text, str) and _ESCAPE_OF_BAD.search(text) is None and bad_char(text) < 0
    if (_container_depth if clean else depth_of)(value, max_depth) > max_depth:
        raise JsonInputError(f"values nested too deeply (more than {max_depth} levels)")
    return value
