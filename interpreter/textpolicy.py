"""One text policy for every reader: a string fengsheng keeps is valid Unicode text.

YAML's and JSON's escapes (``"\\ud800"``, ``"\\x07"``) can write what a file's bytes cannot: a lone
surrogate, which no writer can encode as UTF-8 (a ``UnicodeEncodeError`` in whatever prints or writes the
name later, after the games were played), or a control character, which a terminal obeys instead of
showing. :func:`bad_char` finds the first such character, so that the content loader and the JSON reader
refuse the text where it is written; what passes can be printed, logged, dumped as JSON or put in a page.
Tab, line feed and carriage return are text (a description over several lines).

A leaf module: it imports nothing of the project.
"""

from __future__ import annotations

import re

__all__ = ["bad_char", "describe_char"]

# C0 controls but tab, LF and CR; DEL and the C1 controls; the surrogates (never text alone)
_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def bad_char(text: str) -> int:
    """The index of the first character of `text` that is not text (see above), or -1."""
    m = _BAD.search(text)
    return -1 if m is None else m.start()


def describe_char(ch: str) -> str:
    """What the character is, in words: ``a lone surrogate U+D800`` or ``the control character U+0007``."""
    code = ord(ch)
    kind = "a lone surrogate" if 0xD800 <= code <= 0xDFFF else "the control character"
    return f"{kind} U+{code:04X}"
