"""Fuzz every reader a hostile or careless user reaches (issue 29), beside tests/test_fuzz.py's mutated files:
pack.yaml manifests built from their schema's keys with hostile values, texts with escapes (`\\u`, `\\U`, `\\x`),
`play` saves, sweep folders, websocket frames and HTTP bodies. Each input must end in a clean error (or play), never
a traceback, within TIME_LIMIT seconds, and each test runs under a memory cap (MEMORY_HEADROOM above what its
process held when it began: RLIMIT_AS).

Counts per test: (everyday, slow); the slow run of this file and tests/test_fuzz.py together tries 12,350 inputs.
An input that fails is kept in tests/fuzz_corpus/ (`fork/`, `save.json`, `sweep/`) as test_fuzz.py keeps its own.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st
from test_fuzz import (
    _SLOW,
    CORPUS,
    TIME_LIMIT,
    WEIRD_VALUES,
    RanTooLong,
    check_fork,
    check_save,
    check_sweep,
    fail,
    fuzz,
    hypothesis_settings,
    memory_capped,
    run,
    time_limit,
    write,
)

from interpreter.content.loader import BUNDLED_CONTENT
from interpreter.model.content import TIMINGS

MANIFEST_EXAMPLES = (5, _SLOW or 500)
ESCAPE_EXAMPLES = (20, _SLOW or 3000)
SAVE_EXAMPLES = (20, _SLOW or 3000)
SWEEP_EXAMPLES = (4, _SLOW or 500)
FRAME_EXAMPLES = (50, _SLOW or 3000)

CARDS = sorted(p.stem for p in (BUNDLED_CONTENT / "cards").glob("*.yaml"))
TASKS = sorted(p.stem for p in (BUNDLED_CONTENT / "secret_tasks").glob("*.yaml"))
ROLES = sorted(p.stem for p in (BUNDLED_CONTENT / "roles").glob("*.yaml"))[:12]


@pytest.fixture(autouse=True)
def memory_cap() -> Iterator[None]:
    """The test's address space capped at MEMORY_HEADROOM above its process's size now (restored after)."""
    with memory_capped():
        yield


# ---------------------------------------------------------------------- texts with escapes

ESCAPES = st.one_of(
    st.integers(0, 0xFFFF).map(lambda c: f"\\u{c:04x}"),
    st.integers(0, 0x10FFFF).map(lambda c: f"\\U{c:08x}"),
    st.integers(0, 0xFF).map(lambda c: f"\\x{c:02x}"),
    st.sampled_from(["\\0", "\\a", "\\b", "\\e", "\\N", "\\_", "\\L", "\\P", "\\ud800", "\\udfff", "\\ud83d\\ude00"]),
    st.sampled_from(["\\u", "\\U1", "\\x", "\\q", "\\"]),  # escapes cut short or unknown
)
ESCAPED = st.lists(st.one_of(ESCAPES, st.text(max_size=4).map(lambda t: t.replace('"', "").replace("\\", ""))))


def escaped_text(draw: Any) -> str:
    """A YAML double-quoted text of escapes and characters (its quotes included)."""
    return '"' + "".join(draw(ESCAPED, label="escapes")) + '"'


# ---------------------------------------------------------------------- pack.yaml manifests

IDS = st.one_of(st.sampled_from(CARDS), st.sampled_from(["x", "wei_bi", ""]), st.text(max_size=6))
DECK_IDS = st.one_of(st.integers(-2, 130), st.integers(999_990, 1_000_010), st.integers(), st.sampled_from([10**30]))
SPEEDS = st.dictionaries(st.sampled_from([*TIMINGS, "nowhere"]), st.sampled_from(["slow", "fast", "quick"]))
RULES = st.fixed_dictionaries(
    {},
    optional={
        "resolution": st.sampled_from(["stack", "queued", "heap"]),
        "speeds": SPEEDS,
        "start_hand": st.one_of(st.integers(-1, 12), WEIRD_VALUES),
        "draw_count": st.integers(-1, 12),
        "max_turns": st.one_of(st.integers(0, 400), WEIRD_VALUES),
        "hand_limit": st.one_of(st.integers(-1, 10), st.none()),
        "identity_table": st.dictionaries(
            st.sampled_from([2, 3, 5, 10, "x"]),
            st.dictionaries(
                st.sampled_from(["shen_mi_ren", "qian_fu_zhan_xian", "te_gong_ji_guan", "x"]), st.integers(-1, 12)
            ),
            max_size=2,
        ),
    },
)
DECK_ADD = st.fixed_dictionaries(
    {
        "id": DECK_IDS,
        "card": IDS,
        "colors": st.lists(st.sampled_from(["red", "blue", "black", "green"]), max_size=3),
        "direction": st.sampled_from(["left", "right", "up", "down"]),
    },
)
MANIFEST = st.fixed_dictionaries(
    {"id": st.sampled_from(["fork", "Fork", "f"]), "name": st.one_of(st.text(max_size=8), WEIRD_VALUES)},
    optional={
        "extends": st.lists(
            st.one_of(st.sampled_from(["base", "tie_wu_zi", "..", "../fork", "/", "x" * 300]), st.text(max_size=6)),
            max_size=3,
        ),
        "remove": st.fixed_dictionaries(
            {},
            optional={
                "cards": st.lists(st.sampled_from(CARDS), max_size=4),
                "secret_tasks": st.lists(st.sampled_from(TASKS), max_size=8),
                "roles": st.lists(st.sampled_from(ROLES), max_size=3),
            },
        ),
        "deck": st.fixed_dictionaries(
            {},
            optional={
                "add": st.lists(DECK_ADD, max_size=3),
                "remove": st.lists(DECK_IDS, max_size=6),
            },
        ),
        "rules": RULES,
    },
)


def manifest_text(draw: Any) -> str:
    """A pack.yaml: JSON (a YAML flow mapping), its texts escaped (\\u…) or not, a name with any escapes."""
    data = draw(MANIFEST, label="manifest")
    text = json.dumps(data, ensure_ascii=draw(st.booleans(), label="ascii"), default=str)
    if draw(st.booleans(), label="escaped name"):
        text = text[:-1] + ', "description": ' + escaped_text(draw) + "}"
    return text


@fuzz(MANIFEST_EXAMPLES)
def test_fuzz_pack_manifest(examples):
    """A fork over the bundled game whose pack.yaml is built from its schema's keys with hostile values: validate
    it, show it, and play it at five and ten players if it validates."""

    @hypothesis_settings(examples, examples == MANIFEST_EXAMPLES[0])
    @given(st.data())
    def one(data):
        text = manifest_text(data.draw)
        with tempfile.TemporaryDirectory() as tmp:
            fork = write(Path(tmp) / "src" / "fork" / "pack.yaml", text).parent
            fail("fork", {"fork/pack.yaml": text}, check_fork(Path(tmp) / "run", fork))

    one()


@fuzz(ESCAPE_EXAMPLES)
def test_fuzz_escaped_texts(examples):
    """A card file whose name and text are double-quoted texts of escapes: validated alone (the loader's reader)."""
    card = (BUNDLED_CONTENT / "cards" / "wei_bi.yaml").read_text(encoding="utf-8")

    @hypothesis_settings(examples, examples == ESCAPE_EXAMPLES[0])
    @given(st.data())
    def one(data):
        name, text = escaped_text(data.draw), escaped_text(data.draw)
        changed = card.replace("name: 威逼", f"name: {name}", 1).replace("text: ", f"text: {text}\nx_text: ", 1)
        with tempfile.TemporaryDirectory() as tmp:
            path = write(Path(tmp) / "pack" / "cards" / "wei_bi.yaml", changed)
            fail("file", {"content/cards/wei_bi.yaml": changed}, run(["validate", str(path)])[2])

    one()


# ---------------------------------------------------------------------- saves

SAVE = st.fixed_dictionaries(
    {},
    optional={
        "format": st.one_of(st.just("fengsheng-play"), WEIRD_VALUES),
        "version": st.one_of(st.sampled_from([1, 2, 3]), WEIRD_VALUES),
        "players": st.one_of(st.integers(0, 12), WEIRD_VALUES),
        "humans": st.one_of(st.lists(st.integers(-1, 100), max_size=4), WEIRD_VALUES),
        "bots": st.one_of(
            st.dictionaries(
                st.one_of(st.sampled_from([str(i) for i in range(10)]), st.text(max_size=3)),
                st.one_of(
                    st.sampled_from(["random", "heuristic", "search:8", "search:999999999", "ext:x", "nobody"]),
                    st.text(max_size=5),
                ),
                max_size=4,
            ),
            WEIRD_VALUES,
        ),
        "content": st.one_of(st.lists(st.sampled_from(["base", "..", "/", "x"]), max_size=3), WEIRD_VALUES),
        "expansions": st.one_of(st.sampled_from(["all", "none", "tie_wu_zi"]), WEIRD_VALUES),
        "max_turns": st.one_of(st.integers(-1, 200_000), WEIRD_VALUES),
        "seed": st.one_of(st.integers(-1, 2**300), WEIRD_VALUES),
        "actions": st.one_of(st.lists(st.integers(-1, 2**40), max_size=5), WEIRD_VALUES),
        "sealed": st.one_of(st.text(max_size=20), WEIRD_VALUES),
    },
)


@fuzz(SAVE_EXAMPLES)
def test_fuzz_save(examples):
    """A `play` save made of its schema's keys with hostile values (and some with escapes, nesting): read as
    --resume does, which says what is wrong (PlayError) or reads it."""

    @hypothesis_settings(examples, examples == SAVE_EXAMPLES[0])
    @given(st.data())
    def one(data):
        text = json.dumps(data.draw(SAVE, label="save"), default=str, ensure_ascii=data.draw(st.booleans()))
        shape = data.draw(st.sampled_from(["as is", "escaped", "nested", "cut"]), label="shape")
        if shape == "escaped":
            text = (
                text[:-1]
                + (", " if text != "{}" else "")
                + '"x": '
                + escaped_text(data.draw).replace("\\x", "\\u00")
                + "}"
            )
        elif shape == "nested":
            depth = data.draw(st.integers(30, 5000))
            text = text[:-1] + (", " if text != "{}" else "") + '"x": ' + "[" * depth + "]" * depth + "}"
        elif shape == "cut":
            text = text[: data.draw(st.integers(0, len(text)))]
        with tempfile.TemporaryDirectory() as tmp:
            fail("save", {"save.json": text}, check_save(Path(tmp), text))

    one()


# ---------------------------------------------------------------------- sweep folders


@pytest.fixture(scope="module")
def small_sweep() -> Iterator[tuple[str, list[str]]]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sw"
        status, output, problems = run(
            ["balance", "-p", "5", "-n", "2", "--agents", "random", "-o", str(out), "-j", "1", "-s", "1"]
        )
        assert status == 0 and not problems, output
        yield (
            (out / "sweep.json").read_text(encoding="utf-8"),
            (out / "games.jsonl").read_text(encoding="utf-8").splitlines(),
        )


def _retyped(text: str, draw: Any) -> str:
    """A JSON object with one key deleted or given a hostile value (an escape, a nesting, any value)."""
    try:
        rec = json.loads(text)
    except ValueError:
        return text
    if not isinstance(rec, dict) or not rec:
        return text
    key = draw(st.sampled_from(sorted(rec)))
    op = draw(st.sampled_from(["delete", "value", "nested", "escaped"]))
    if op == "delete":
        del rec[key]
        return json.dumps(rec, ensure_ascii=False)
    if op == "value":
        rec[key] = draw(WEIRD_VALUES)
        return json.dumps(rec, ensure_ascii=False, default=str)
    rec[key] = "@@"
    out = json.dumps(rec, ensure_ascii=False)
    depth = draw(st.integers(30, 3000))
    return out.replace(
        '"@@"', "[" * depth + "]" * depth if op == "nested" else escaped_text(draw).replace("\\x", "\\u00")
    )


@fuzz(SWEEP_EXAMPLES)
def test_fuzz_sweep_folder(examples, small_sweep):
    """A sweep folder whose sweep.json or one record is changed (a key deleted, a value retyped, escaped or nested):
    its report says what is wrong, or is made."""
    spec, records = small_sweep

    @hypothesis_settings(examples, examples == SWEEP_EXAMPLES[0])
    @given(st.data())
    def one(data):
        files = {"sweep/sweep.json": spec, "sweep/games.jsonl": "\n".join(records) + "\n"}
        if data.draw(st.booleans(), label="the description"):
            files["sweep/sweep.json"] = _retyped(spec, data.draw)
        else:
            lines = list(records)
            i = data.draw(st.integers(0, len(lines) - 1))
            lines[i] = _retyped(lines[i], data.draw)
            files["sweep/games.jsonl"] = "\n".join(lines) + "\n"
        with tempfile.TemporaryDirectory() as tmp:
            for rel, text in files.items():
                write(Path(tmp) / "src" / rel, text)
            fail("sweep", files, check_sweep(Path(tmp) / "run", Path(tmp) / "src" / "sweep"))

    one()


# ---------------------------------------------------------------------- frames and bodies

FRAME = st.one_of(
    st.text(max_size=60),
    st.binary(max_size=60),
    st.builds(lambda d: "[" * d + "]" * d, st.integers(0, 3000)),
    st.builds(lambda n: '{"type": "act", "seq": 1, "action": ' + "7" * n + "}", st.integers(1, 5000)),
    st.sampled_from(['{"a": NaN}', '{"a": 1e999}', '{"a": -Infinity}', '"\\ud800"', '{"\\udfff": 1}', "\ufeff{}"]),
    st.dictionaries(st.text(max_size=5), WEIRD_VALUES, max_size=4).map(lambda d: json.dumps(d, default=str)),
)


@fuzz(FRAME_EXAMPLES)
def test_fuzz_frames(examples):
    """A websocket frame or an HTTP body: the server's reader (web/guard.read_json over jsonread) returns plain,
    bounded data or refuses it (Refused, 400), never anything else."""
    pytest.importorskip("starlette")
    from interpreter.jsonread import MAX_DEPTH, depth_of
    from interpreter.textpolicy import bad_char
    from interpreter.web.guard import Refused, read_json

    @hypothesis_settings(examples, examples == FRAME_EXAMPLES[0])
    @given(FRAME)
    def one(frame):
        try:
            with time_limit(TIME_LIMIT):
                value = read_json(frame, 80)
        except Refused as e:
            assert e.status == 400 and e.message and "\n" not in e.message
            return
        except RanTooLong:
            pytest.fail(f"reading a frame ran over {TIME_LIMIT:g} s: {frame!r:.200}")
        except Exception as e:  # anything else is a traceback in the server's log
            pytest.fail(f"a frame raised {type(e).__name__}: {frame!r:.200}\n" + traceback.format_exc())
        assert depth_of(value, MAX_DEPTH) <= MAX_DEPTH
        texts = [value] if isinstance(value, str) else []
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                texts += list(v)
                stack += list(v.values())
            elif isinstance(v, list):
                stack += v
            elif isinstance(v, str):
                texts.append(v)
        assert all(bad_char(t) < 0 for t in texts), frame

    one()


def test_the_corpus_holds_an_entry_of_each_new_kind():
    kinds = {p.name.split("-")[0] for p in CORPUS.iterdir() if p.is_dir()}
    assert {"fork", "save", "sweep", "log", "scenario"} <= kinds
    assert all((p / "about.txt").is_file() for p in CORPUS.iterdir() if p.is_dir())
    assert shutil.which  # (the corpus is replayed by test_fuzz.test_corpus)
