"""The one bounded JSON reader (interpreter/jsonread.py): a text that cannot hold a character that is not text
(no escape that writes one, none written raw) has only its lists and objects walked for depth; every other text
has each string looked at. Both ways must refuse and pass exactly what the full walk does."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from interpreter.jsonread import MAX_DEPTH, JsonInputError, depth_of, loads


def _outcome(read, text):
    try:
        return "value", read(text)
    except JsonInputError as e:
        return "refused", str(e)


def _by_full_walk(text):
    """What loads says when every string is looked at (the reader before the skip): json.loads, then depth_of."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise JsonInputError(e.msg, e.lineno, e.colno) from None
    if depth_of(value, MAX_DEPTH) > MAX_DEPTH:
        raise JsonInputError(f"values nested too deeply (more than {MAX_DEPTH} levels)")
    return value


# texts of the edges: each escape that writes a control character, DEL and a C1 control written raw, a lone
# surrogate, a key that is not text, nesting at the limit and one beyond it with and without a backslash
EDGES = [
    '"\\b"',
    '"\\f"',
    '"a\\u0007"',
    '"\\ud800"',
    '"\x7f"',
    '"\x85"',
    '{"\\u001b[31m": 1}',
    '{"ok": "\\n\\t\\r\\"\\\\\\/"}',
    "[" * MAX_DEPTH + "]" * MAX_DEPTH,
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    '["\\n", ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "]",
    '{"a": [1, {"b": "\\u00e9"}], "c": "风声"}',
]


@pytest.mark.parametrize("text", EDGES, ids=range(len(EDGES)))
def test_the_reader_refuses_what_the_full_walk_refuses(text):
    assert _outcome(loads, text) == _outcome(_by_full_walk, text)


TEXTS = st.text(st.characters(codec=None, min_codepoint=0, max_codepoint=0xFFFF), max_size=6)
VALUES = st.recursive(
    st.none() | st.integers() | TEXTS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXTS, inner, max_size=3),
    max_leaves=40,
)


@settings(max_examples=50, derandomize=True, database=None, deadline=None)
@given(VALUES, st.booleans(), st.integers(0, MAX_DEPTH + 2))
def test_the_reader_reads_as_the_full_walk_does(value, ascii_only, deeper):
    """Any value, written with escapes or raw (surrogates then only with escapes), nested up to beyond the limit."""
    for _ in range(deeper):
        value = [value]
    try:
        text = json.dumps(value, ensure_ascii=ascii_only)
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=True)
    assert _outcome(loads, text) == _outcome(_by_full_walk, text)
