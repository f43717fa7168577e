"""Fuzz the loader and the commands: broken content, scenario files and logs end in a clean error, never a traceback.

Each example takes one bundled content file, one scenario file or one simulate log, breaks it with one to
three mutations (below) and drives the commands in-process on it: `validate`, then on what still validates a
short `simulate -n 2 -j 1` and a `scenario run` over the mutated pack; a mutated scenario is validated and run;
a mutated log is replayed. Every run must exit with 0, 1 or 2, print no traceback, raise nothing but
SystemExit, report no "internal error" of the engine, and end within TIME_LIMIT seconds.

The mutations: truncation (in the middle of a character too), random unicode inserted, lines duplicated (keys
given twice) or deleted, tokens of the YAML or the effect code swapped for any token or one of their kind,
numbers made huge or changed, values nested thousands deep, anchors and aliases that grow tenfold at each level,
and on the parsed file a key or item deleted, a value or a key of another type, a value made an alias of another.

The everyday run tries a fixed, derandomized handful of examples; the slow run (`-m slow`, CI) many more,
also derandomized, so a CI run is reproducible and a red one is never luck. To explore, set
FENGSHENG_FUZZ_EXAMPLES=N: then each test draws N new random examples. Hypothesis keeps no database.
An input that fails is written to tests/fuzz_corpus/ (its format: tests/fuzz_corpus/README.md) once
shrunk; commit it with the fix: the everyday run replays every entry there.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import resource
import shutil
import signal
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.control import current_build_context
from links import link_tree, write_own

from interpreter.cli import main
from interpreter.content import loader as content_loader
from interpreter.content.loader import BUNDLED_CONTENT
from interpreter.content.yamlpos import PosDict, PosList, load as load_yaml

TESTS = Path(__file__).parent
CORPUS = TESTS / "fuzz_corpus"
SCENARIOS = TESTS / "scenarios"
FIXTURES = TESTS / "fixtures"
CONTENT_FILES = sorted(p.relative_to(BUNDLED_CONTENT).as_posix() for p in BUNDLED_CONTENT.rglob("*.yaml"))
SCENARIO_FILES = sorted(p.name for p in SCENARIOS.glob("*.scenario.yaml"))
TIME_LIMIT = 10.0  # seconds, for one command on one input
MEMORY_HEADROOM = 1536 * 2**20  # bytes of address space a fuzz test may add to what its process held

# examples per test: (everyday, slow); FENGSHENG_FUZZ_EXAMPLES=N gives the slow run N of each, for a long session
_SLOW = int(os.environ.get("FENGSHENG_FUZZ_EXAMPLES", "0"))
PACK_EXAMPLES = (6, _SLOW or 200)
FILE_EXAMPLES = (25, _SLOW or 1500)
SCENARIO_EXAMPLES = (10, _SLOW or 500)
LOG_EXAMPLES = (6, _SLOW or 150)


# ---------------------------------------------------------------------- running a command


class RanTooLong(BaseException):
    """Raised by the alarm in a command that outlives TIME_LIMIT (a BaseException: `except Exception` lets it by)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: Any) -> None:
        raise RanTooLong(f"over {seconds:g} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextmanager
def memory_capped(headroom: int = MEMORY_HEADROOM) -> Iterator[None]:
    """The process's address space capped at `headroom` above its size now (RLIMIT_AS; restored after): an input
    that makes a command take more (a deck id of 30,000,000 once took 3.79 GB for two games) is a MemoryError."""
    with open("/proc/self/status", encoding="ascii") as f:
        size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    old = resource.getrlimit(resource.RLIMIT_AS)
    cap = size + headroom
    if old[1] != resource.RLIM_INFINITY:
        cap = min(cap, old[1])
    resource.setrlimit(resource.RLIMIT_AS, (cap, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, old)


def run(args: list[str], again: bool = True) -> tuple[int, str, list[str]]:
    """Run `fengsheng ARGS` in-process: (exit code, output, what went wrong).

    A run over the time limit is tried once more (a busy machine can stall one): it fails if both are.
    """
    where = f"fengsheng {' '.join(args)}"
    started = time.monotonic()
    try:
        with time_limit(TIME_LIMIT):
            r = CliRunner().invoke(main, args)
    except RanTooLong:
        return run(args, again=False) if again else (-1, "", [f"{where}: ran over {TIME_LIMIT:g} s"])
    elapsed = time.monotonic() - started
    if elapsed > TIME_LIMIT and again:
        return run(args, again=False)
    problems = []
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        tb = "".join(traceback.format_exception(type(r.exception), r.exception, r.exception.__traceback__))
        problems.append(f"{where}: raised\n{tb}")
    if "Traceback (most recent call last)" in r.output:
        problems.append(f"{where}: printed a traceback\n{r.output[-3000:]}")
    if "internal error" in r.output:
        problems.append(f"{where}: the engine failed on content that validated\n{r.output[-3000:]}")
    if r.exit_code not in (0, 1, 2):
        problems.append(f"{where}: exit status {r.exit_code}")
    if elapsed > TIME_LIMIT:
        problems.append(f"{where}: took {elapsed:.1f} s")
    return r.exit_code, r.output, problems


def forget(tmp: Path) -> None:
    """Drop the loader's cached copies of the packs under `tmp` (each example has its own folder)."""
    content_loader.CONTENT_SETS.drop(lambda key: any(str(tmp) in p for p in key))


# ---------------------------------------------------------------------- what is checked


write = write_own  # (a file of the example's own, over a link of link_tree's too)


def scenario_over(pack: Path, scenario: str) -> str:
    """A bundled scenario's text, played over `pack` (and the test fixtures it names)."""
    text = (SCENARIOS / scenario).read_text(encoding="utf-8")
    packs = [str(pack)]
    if re.search(r"^content:", text, re.M):
        packs.append(str(FIXTURES / "role_pack"))
        text = re.sub(r"^content:.*$", "", text, count=1, flags=re.M)
    return f"content: {json.dumps(packs, ensure_ascii=False)}\n" + text


def check_pack(tmp: Path, files: dict[str, str | bytes], players: int = 5, scenario: str | None = None) -> list[str]:
    """The bundled content with `files` (paths relative to it) replaced: validate the pack and each file alone,
    then simulate two games and run a scenario over it if it validates."""
    pack = tmp / "pack"
    link_tree(BUNDLED_CONTENT, pack)
    for rel, data in files.items():
        write(pack / rel, data)
    problems = []
    try:
        for rel in files:
            problems += run(["validate", str(pack / rel)])[2]
        status, _, found = run(["validate", str(pack)])
        problems += found
        if status == 0:
            batch = ["simulate", "-n", "2", "-j", "1", "-s", "1", "-p", str(players), "--content", str(pack)]
            problems += run(batch)[2]
            scen = write(tmp / "over.scenario.yaml", scenario_over(pack, scenario or SCENARIO_FILES[0]))
            problems += run(["scenario", "run", "--allow-outside", str(scen)])[2]
    finally:
        forget(tmp)
    return problems


def check_scenario(tmp: Path, data: str | bytes) -> list[str]:
    """A scenario file next to a copy of the test fixtures (its `content:` paths are relative): validate, run."""
    link_tree(FIXTURES, tmp / "tests" / "fixtures")
    scen = write(tmp / "tests" / "scenarios" / "fuzz.scenario.yaml", data)
    try:
        return run(["validate", str(scen)])[2] + run(["scenario", "run", "--allow-outside", str(scen)])[2]
    finally:
        forget(tmp)


def check_log(tmp: Path, data: str | bytes) -> list[str]:
    """A log: replay it, and show it as one seat and as a spectator."""
    log = write(tmp / "g.jsonl", data)
    problems = []
    for extra in ([], ["--as", "P1"], ["--as", "public"]):
        problems += run(["replay", str(log), *extra])[2]
    return problems


# ---------------------------------------------------------------------- mutations

Draw = Callable[..., Any]

TOKEN = re.compile(r'【[^】\n]*】|"[^"\n]*"|[A-Za-z_][A-Za-z_0-9]*|\d+|[^\sA-Za-z_0-9]')
WEIRD_TOKENS = [
    "99999999999999999999999999",
    "-1",
    "0",
    "1e400",
    ".inf",
    "-.nan",
    "0x7fffffffffffffff",
    "1000000",
    "（",
    "）",
    "“",
    "\u200b",
    "\t",
    "【】",
    "【不存在】",
    '"',
    "{",
    "}",
    "&a",
    "*a",
    "!!python/object:os.system",
    "!!binary",
    "%YAML 1.1",
    "---",
    "...",
    "<<",
]
# every token of the bundled files (YAML and effect code alike), and some that are nowhere in them
VOCABULARY = (
    sorted(
        {
            m.group()
            for rel in CONTENT_FILES
            for m in TOKEN.finditer((BUNDLED_CONTENT / rel).read_text(encoding="utf-8"))
        }
    )
    + WEIRD_TOKENS
)
HUGE = ["9" * 40, "-9223372036854775809", "18446744073709551616", "1e400", "-1e400", ".nan", "1000000000", "-1"]
WEIRD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([10**40, -(2**63) - 1, 2**64, 1_000_000_000]),
    st.floats(),
    st.text(max_size=12),
    st.lists(st.integers(-3, 130), max_size=4),
    st.dictionaries(st.text(max_size=6), st.integers(-3, 130), max_size=3),
)


def _text(data: str | bytes) -> str:
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else data


def truncate(data: str | bytes, draw: Draw) -> bytes:
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    return raw[: draw(st.integers(0, len(raw)))]  # may cut a character in two


def insert_unicode(data: str | bytes, draw: Draw) -> str:
    text = _text(data)
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(st.text(min_size=1, max_size=8)) + text[at:]


def duplicate_line(data: str | bytes, draw: Draw) -> str:
    lines = _text(data).splitlines(keepends=True) or [""]
    i = draw(st.integers(0, len(lines) - 1))
    j = draw(st.integers(0, len(lines)))
    return "".join([*lines[:j], lines[i] if lines[i].endswith("\n") else lines[i] + "\n", *lines[j:]])


def delete_line(data: str | bytes, draw: Draw) -> str:
    lines = _text(data).splitlines(keepends=True) or [""]
    del lines[draw(st.integers(0, len(lines) - 1))]
    return "".join(lines)


def _replace_token(text: str, draw: Draw, new: str) -> str:
    tokens = list(TOKEN.finditer(text))
    if not tokens:
        return text + new
    m = tokens[draw(st.integers(0, len(tokens) - 1))]
    return text[: m.start()] + new + text[m.end() :]


def swap_token(data: str | bytes, draw: Draw) -> str:
    return _replace_token(_text(data), draw, draw(st.sampled_from(VOCABULARY)))


def _kind(token: str) -> str:
    return "name" if re.match(r"[A-Za-z_]", token) else "number" if token.isdigit() else "other"


VOCABULARY_BY_KIND = {k: [t for t in VOCABULARY if _kind(t) == k] for k in ("name", "number", "other")}


CODE_KEY = re.compile(r"^(\s*(?:- )?(?:effect|condition|target|check):\s*)(.*)$")


def _in_code(text: str) -> list:
    """The tokens of the effect code in a file: `effect: |` blocks and code written after its key."""
    out: list = []
    block, offset = None, 0
    for line in text.splitlines(keepends=True):
        indent = len(line) - len(line.lstrip(" "))
        if block is not None and (not line.strip() or indent > block):
            out += [_Shifted(t, offset) for t in TOKEN.finditer(line)]
        else:
            block = None
            m = CODE_KEY.match(line)
            if m and m.group(2).rstrip() in ("|", ">", "|-", ">-"):
                block = indent
            elif m:
                out += [_Shifted(t, offset + m.start(2)) for t in TOKEN.finditer(m.group(2))]
        offset += len(line)
    return out


class _Shifted:
    """A token match placed in the whole text."""

    def __init__(self, m: re.Match[str], offset: int) -> None:
        self._group, self._start = m.group(), offset + m.start()

    def group(self) -> str:
        return self._group

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._start + len(self._group)


def swap_alike(data: str | bytes, draw: Draw) -> str:
    """A token of the effect code (or of the file, if it has none) replaced by another of its kind (a name by
    a name, a number by a number): often still valid, so that the engine runs it."""
    text = _text(data)
    tokens = _in_code(text) or list(TOKEN.finditer(text))
    if not tokens:
        return text
    m = tokens[draw(st.integers(0, len(tokens) - 1))]
    new = draw(st.sampled_from(VOCABULARY_BY_KIND[_kind(m.group())]))
    return text[: m.start()] + new + text[m.end() :]


def other_number(data: str | bytes, draw: Draw) -> str:
    """A number replaced by another, small or large (a count in effect code, a deck id, a limit)."""
    text = _text(data)
    numbers = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", text))
    if not numbers:
        return text
    m = numbers[draw(st.integers(0, len(numbers) - 1))]
    new = draw(st.sampled_from(["0", "1", "2", "3", "5", "10", "20", "99", "118", "119", "10000", "1000000000"]))
    return text[: m.start()] + new + text[m.end() :]


def huge_number(data: str | bytes, draw: Draw) -> str:
    text = _text(data)
    numbers = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", text))
    if numbers and draw(st.booleans()):
        m = numbers[draw(st.integers(0, len(numbers) - 1))]
        return text[: m.start()] + draw(st.sampled_from(HUGE)) + text[m.end() :]
    return _replace_token(text, draw, draw(st.sampled_from(HUGE)))


NESTINGS = {
    "list": lambda n: "[" * n + "1" + "]" * n,
    "map": lambda n: "{a: " * n + "1" + "}" * n,
    "block": lambda n: "\n" + "".join(" " * (2 * i + 2) + "- \n" for i in range(n)),
    "parens": lambda n: "(" * n + "1" + ")" * n,
    "if": lambda n: "if true { " * n + "draw(self, 1)" + " }" * n,
    "not": lambda n: "not " * n + "true",
    "minus": lambda n: "-" * n + "1",
}


def deep_nesting(data: str | bytes, draw: Draw) -> str:
    n = draw(st.sampled_from([30, 200, 1000, 5000]))
    return _replace_token(_text(data), draw, NESTINGS[draw(st.sampled_from(sorted(NESTINGS)))](n))


def alias_bomb(data: str | bytes, draw: Draw) -> str:
    """Anchors that double (or grow tenfold) at each level, and a value somewhere replaced by the last one."""
    levels, width = draw(st.integers(1, 9)), draw(st.sampled_from([2, 10]))
    defs = [f"&a0 [{', '.join(['x'] * width)}]"]
    defs += [f"&a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, levels + 1)]
    lines = _text(data).splitlines(keepends=True)
    values = [i for i, ln in enumerate(lines) if re.match(r"^\s*(- )?[\w]+:\s*\S", ln)]
    if values:
        i = values[draw(st.integers(0, len(values) - 1))]
        lines[i] = re.sub(r"^(\s*(?:- )?[\w]+:).*", lambda m: m.group(1) + f" *a{levels}", lines[i].rstrip("\n"))
        lines[i] += "\n"
    return f"zz_anchors: [{', '.join(defs)}]\n" + "".join(lines)


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(PosDict, yaml.representer.SafeRepresenter.represent_dict)
_Dumper.add_representer(PosList, yaml.representer.SafeRepresenter.represent_list)


def _nodes(data: Any, path: tuple = (), out: list | None = None) -> list[tuple]:
    """The paths of every value under `data` (at most 3000)."""
    out = [] if out is None else out
    if len(out) >= 3000:
        return out
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        out.append((*path, k))
        _nodes(v, (*path, k), out)
    return out


def _at(data: Any, path: tuple) -> Any:
    for k in path:
        data = data[k]
    return data


def structure(data: str | bytes, draw: Draw) -> str | bytes:
    """Delete a key or an item, give a value another type, or make one value an alias of another (dumped again)."""
    try:
        tree = load_yaml(_text(data))
    except (yaml.YAMLError, RecursionError):
        return data
    paths = _nodes(tree)
    if not paths:
        return data
    path = paths[draw(st.integers(0, len(paths) - 1))]
    parent, key = _at(tree, path[:-1]), path[-1]
    op = draw(st.sampled_from(["delete", "retype", "alias", "key"]))
    if op == "delete":
        del parent[key]
    elif op == "retype":
        parent[key] = draw(WEIRD_VALUES)
    elif op == "key" and isinstance(parent, dict):
        parent[draw(WEIRD_VALUES.filter(lambda v: not isinstance(v, (list, dict))))] = parent.pop(key)
    elif op == "alias":
        shared = [p for p in paths if isinstance(_at(tree, p), (dict, list)) and p[: len(path)] != path]
        if shared:  # a container not under the replaced value (no cycle)
            parent[key] = _at(tree, shared[draw(st.integers(0, len(shared) - 1))])
    try:
        return yaml.dump(tree, Dumper=_Dumper, allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, RecursionError, TypeError):
        return data


MUTATIONS = {
    "truncate": truncate,
    "insert_unicode": insert_unicode,
    "duplicate_line": duplicate_line,
    "delete_line": delete_line,
    "swap_token": swap_token,
    "swap_alike": swap_alike,
    "other_number": other_number,
    "huge_number": huge_number,
    "deep_nesting": deep_nesting,
    "alias_bomb": alias_bomb,
    "structure": structure,
}


# the mutations that often leave a file valid: what they make reaches the engine
MILD = ["other_number", "swap_alike", "delete_line", "duplicate_line"]


def mutate(data: str | bytes, draw: Draw, names: list[str] | None = None) -> str | bytes:
    names = names or sorted(MUTATIONS)
    for name in draw(st.lists(st.sampled_from(names), min_size=1, max_size=3), label="mutations"):
        data = MUTATIONS[name](data, draw)
    return data


def mutate_log(text: str, draw: Draw) -> str | bytes:
    """A log: a field of one record deleted or changed, or any mutation of its text."""
    lines = text.splitlines()
    if draw(st.booleans()):
        return mutate(text, draw)
    i = draw(st.integers(0, len(lines) - 1))
    rec = json.loads(lines[i])
    keys = sorted(rec)
    key = keys[draw(st.integers(0, len(keys) - 1))]
    if draw(st.booleans()):
        del rec[key]
    else:
        rec[key] = draw(WEIRD_VALUES)
    lines[i] = json.dumps(rec, ensure_ascii=False)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- the corpus


def save(kind: str, files: dict[str, str | bytes], problems: list[str]) -> Path | None:
    """Keep a failing input (once shrunk: the final run of the falsifying example) in the corpus."""
    try:
        if not current_build_context().is_final:
            return None
    except Exception:  # outside a Hypothesis run
        return None
    digest = hashlib.sha256(repr(sorted(files.items())).encode()).hexdigest()[:10]
    entry = CORPUS / f"{kind}-{digest}"
    for rel, data in files.items():
        write(entry / rel, data)
    write(entry / "about.txt", problems[0].splitlines()[0] + "\n")
    return entry


def fail(kind: str, files: dict[str, str | bytes], problems: list[str]) -> None:
    if problems:
        entry = save(kind, files, problems)
        kept = f"\n(kept in {entry.relative_to(TESTS.parent)})" if entry else ""
        pytest.fail("\n\n".join(problems) + kept, pytrace=False)


def corpus_entries() -> list[Path]:
    return sorted(p for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []


def check_entry(tmp: Path, entry: Path) -> list[str]:
    folder = entry / "content"
    overlay = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    problems = []
    if overlay:
        problems += check_pack(tmp / "p", overlay)
    if (entry / "scenario.yaml").exists():
        problems += check_scenario(tmp / "s", (entry / "scenario.yaml").read_bytes())
    if (entry / "log.jsonl").exists():
        problems += check_log(tmp / "l", (entry / "log.jsonl").read_bytes())
    if (entry / "fork").is_dir():
        problems += check_fork(tmp / "f", entry / "fork")
    if (entry / "save.json").exists():
        problems += check_save(tmp / "v", (entry / "save.json").read_bytes())
    if (entry / "sweep").is_dir():
        problems += check_sweep(tmp / "w", entry / "sweep")
    return problems


def check_fork(tmp: Path, fork: Path) -> list[str]:
    """A pack layered over the bundled game (its own pack.yaml and files): validate it; if it validates, two games
    at five players and two at ten, and `pack show`."""
    pack = tmp / fork.name
    shutil.copytree(fork, pack)
    try:
        status, _, problems = run(["validate", str(pack)])
        problems += run(["pack", "show", str(pack)])[2]
        if status == 0:
            for players in ("5", "10"):
                problems += run(["simulate", "-n", "2", "-j", "1", "-s", "1", "-p", players, "--content", str(pack)])[2]
        return problems
    finally:
        forget(tmp)


def check_save(tmp: Path, data: str | bytes) -> list[str]:
    """A `play` save: read it as --resume does (every problem a PlayError, within the time limit)."""
    from interpreter.play import PlayError, Table

    save = write(tmp / "save.json", data)
    try:
        with time_limit(TIME_LIMIT):
            Table.read_save(save)
    except PlayError:
        pass
    except RanTooLong:
        return [f"reading the save {save}: ran over {TIME_LIMIT:g} s"]
    except Exception as e:
        return [f"reading the save {save}: raised\n" + "".join(traceback.format_exception(type(e), e, e.__traceback__))]
    return []


def check_sweep(tmp: Path, sweep: Path) -> list[str]:
    """A sweep folder (sweep.json, games.jsonl): its report, as JSON, without the HTML page."""
    folder = tmp / "sweep"
    shutil.copytree(sweep, folder)
    return run(["balance", "report", str(folder), "--format", "json", "--no-html"])[2]


# ---------------------------------------------------------------------- the tests


def fuzz(counts: tuple[int, int]) -> Any:
    """Parametrize a test with its everyday example count, and a slow run of many random examples."""
    return pytest.mark.parametrize(
        "examples", [counts[0], pytest.param(counts[1], marks=pytest.mark.slow)], ids=["everyday", "slow"]
    )


def hypothesis_settings(examples: int, everyday: bool) -> settings:
    return settings(
        max_examples=examples,
        derandomize=everyday or not _SLOW,  # random only when someone asked to explore
        database=None,
        deadline=None,
        print_blob=True,
        suppress_health_check=list(HealthCheck),  # slow, large inputs on purpose
    )


@pytest.mark.parametrize("entry", corpus_entries(), ids=lambda p: p.name)
def test_corpus(tmp_path, entry):
    """Every input that ever crashed a command stays fixed, each under a memory cap (MEMORY_HEADROOM above what the
    process held: a hostile fork plays under it every day; tests/test_memory_cap.py runs each fork in a process of
    its own capped at 1 GB, in the slow run)."""
    with memory_capped():
        problems = check_entry(tmp_path, entry)
    assert not problems, "\n\n".join(problems)


@fuzz(PACK_EXAMPLES)
def test_fuzz_content_pack(examples):
    """A bundled content file mutated: validate the pack (and the file alone); simulate and run a scenario on it."""

    @hypothesis_settings(examples, examples == PACK_EXAMPLES[0])
    @given(st.data())
    def one(data):
        rel = data.draw(st.sampled_from(CONTENT_FILES), label="file")
        names = MILD if data.draw(st.booleans(), label="mild") else None  # half of them: to run the engine
        files = {rel: mutate((BUNDLED_CONTENT / rel).read_text(encoding="utf-8"), data.draw, names)}
        players = data.draw(st.integers(2, 10), label="players")
        scenario = data.draw(st.sampled_from(SCENARIO_FILES), label="scenario")
        with tempfile.TemporaryDirectory() as tmp:
            fail("pack", {f"content/{k}": v for k, v in files.items()}, check_pack(Path(tmp), files, players, scenario))

    one()


@fuzz(FILE_EXAMPLES)
def test_fuzz_single_file(examples):
    """A bundled content file mutated, given alone to validate (the fast path: many more examples)."""

    @hypothesis_settings(examples, examples == FILE_EXAMPLES[0])
    @given(st.data())
    def one(data):
        rel = data.draw(st.sampled_from(CONTENT_FILES), label="file")
        mutated = mutate((BUNDLED_CONTENT / rel).read_text(encoding="utf-8"), data.draw)
        with tempfile.TemporaryDirectory() as tmp:
            path = write(Path(tmp) / "pack" / rel, mutated)
            fail("file", {f"content/{rel}": mutated}, run(["validate", str(path)])[2])

    one()


@fuzz(SCENARIO_EXAMPLES)
def test_fuzz_scenario(examples):
    """A scenario file mutated: validate it and run it."""

    @hypothesis_settings(examples, examples == SCENARIO_EXAMPLES[0])
    @given(st.data())
    def one(data):
        name = data.draw(st.sampled_from(SCENARIO_FILES), label="scenario")
        mutated = mutate((SCENARIOS / name).read_text(encoding="utf-8"), data.draw)
        with tempfile.TemporaryDirectory() as tmp:
            fail("scenario", {"scenario.yaml": mutated}, check_scenario(Path(tmp), mutated))

    one()


@pytest.fixture(scope="module")
def simulate_log() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "g.jsonl"
        status, output, problems = run(["simulate", "-n", "2", "-p", "3", "-j", "1", "-s", "1", "--log", str(log)])
        assert status == 0 and not problems, output
        yield log.read_text(encoding="utf-8")


@fuzz(LOG_EXAMPLES)
def test_fuzz_replay(examples, simulate_log):
    """A simulate log mutated (a field of a record changed or deleted, or its text broken): replay it."""

    @hypothesis_settings(examples, examples == LOG_EXAMPLES[0])
    @given(st.data())
    def one(data):
        mutated = mutate_log(simulate_log, data.draw)
        with tempfile.TemporaryDirectory() as tmp:
            fail("log", {"log.jsonl": mutated}, check_log(Path(tmp), mutated))

    one()


def _tokens(loader_class: type, text: str) -> list:
    """What the scanner of `loader_class` reads in `text`: each token's kind, place and value, then its error."""
    out: list = []
    try:
        loader = loader_class(text)
    except yaml.YAMLError as e:  # the reader refuses a character before any token
        return [str(e)]
    try:
        while not loader.check_token(yaml.StreamEndToken):
            t = loader.get_token()
            out.append((type(t).__name__, t.start_mark.index, t.end_mark.index, getattr(t, "value", None)))
    except yaml.YAMLError as e:
        out.append(str(e))
    finally:
        loader.dispose()
    return out


SCANNER_EXAMPLES = (6, _SLOW or 300)
# texts at the edges of the simple-key rules: flow nested deep on one line and over lines, a flow key 1,024
# characters long and one 1,025 long, a block key without its colon (a required key gone stale), keys at
# several flow levels closed in turn
SCANNER_TEXTS = [
    "a: " + "[" * 600 + "1" + "]" * 600 + "\n",
    "a: " + "{b: " * 300 + "1" + "}" * 300 + "\n",
    "a: [\n" + "[\n" * 200 + "1" + "]\n" * 200 + "]\n",
    "a: {" + "x" * 1024 + ": 1}\n",
    "a: {" + "x" * 1025 + ": 1}\n",
    "a: [" + "x" * 1025 + "]\nb: 2\n",
    "a: 1\nb\nc: 2\n",
    "a:\n  b: 1\n  c\n  d: 2\n",
    "a: [[b, c]: 1, {d: [e]}: 2, [f: 3]]\n",
    "[a, [b, [c, [d: 1], e: 2], f: 3], g: 4]\n",
    "{a: [b\n  c: 1]}\n",
]


@pytest.mark.parametrize("text", SCANNER_TEXTS, ids=range(len(SCANNER_TEXTS)))
def test_the_scanner_reads_what_pyyaml_reads_at_the_edges(text):
    """yamlpos's pure-Python parser finds simple keys faster than PyYAML's (nested flow text was quadratic): it
    reads the same tokens and stops at the same error on texts at the edges of the simple-key rules."""
    from interpreter.content.yamlpos import _Loader

    assert _tokens(_Loader, text) == _tokens(yaml.SafeLoader, text)


@fuzz(SCANNER_EXAMPLES)
def test_the_scanner_reads_what_pyyaml_reads(examples):
    """yamlpos's pure-Python parser finds simple keys faster than PyYAML's (nested flow text was quadratic): on
    mutated content files (deep nesting among the mutations) it reads the same tokens and stops at the same error."""
    from interpreter.content.yamlpos import _Loader

    @hypothesis_settings(examples, examples == SCANNER_EXAMPLES[0])
    @given(st.data())
    def one(data):
        rel = data.draw(st.sampled_from(CONTENT_FILES), label="file")
        text = _text(mutate((BUNDLED_CONTENT / rel).read_text(encoding="utf-8"), data.draw))
        assert _tokens(_Loader, text) == _tokens(yaml.SafeLoader, text)

    one()
