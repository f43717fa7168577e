"""Load a content pack: YAML files → schema checks → cross references → compiled objects.

Every problem is collected (not just the first) as a :class:`ContentError`
with file, line, column, a stable code and, where it helps, a hint. A content
mistake never surfaces as a Python traceback. Several pack directories may be
given: a later pack overrides earlier ones by id (a rule-set fork), and its
``rules.yaml`` / ``deck.yaml`` replace the earlier ones.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import pickle
import re
import sys
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, cast

import yaml

from ..catalogue import PHASE_KINDS, RESOLUTIONS, SPEEDS

# Compiling binds each primitive's implementation; importing the engine's primitives module registers them all.
from ..engine import primitives  # noqa: F401
from ..language import types as T
from ..language.builtins import TYPED_READS
from ..language.compiler import CONTEXT_VARS, Compiler, context_env
from ..language.errors import LanguageError
from ..language.guard import seat_guard
from ..language.parser import keep, kept, save_parse_cache
from ..model.colors import COLOR_BITS
from ..model.content import (
    TIMINGS,
    TRIGGER_EVENTS,
    VICTORY_CHECKS,
    CardType,
    CardUse,
    Content,
    DeckEntry,
    Identity,
    Origin,
    PackInfo,
    Phase,
    Role,
    Rules,
    SecretTask,
    Skill,
    Victory,
    base_phases,
    phase_list,
)
from ..paths import BUNDLED_CONTENT, SCHEMA_DIR
from ..snippet import MAX_MESSAGE, brief, clip, line_of, snippet, split_lines
from ..suggest import closest, did_you_mean
from .manifest import (
    KIND_WORD,
    FilePos,
    Finding,
    Manifest,
    check_refs,
    merge_rules,
    rules_fragment_schema,
    without_nulls,
)
from .packs import MANIFEST, bundled_packs, default_packs, expansions_of, pack_ref
from .precompiled import table as precompiled
from .yamlpos import PosDict, TooLarge, colon_in_wrapped_text, key_pos_of, load as load_yaml, pos_of

MAX_FILE_BYTES = 1_000_000


# idle points whose uses replace sending an intel: an effect there that never sends leaves the player asked again
SEND_REPLACING = ("send_start", "need_send")


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


@cache
def schema(kind: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{kind}.schema.json").read_text(encoding="utf-8"))


def _suggest(word, candidates):
    return did_you_mean(word, candidates)


# Files read before in this process that parsed and met their schema with nothing to report, by kind and text:
# the data, pickled (each read gets its own copy, which the builders may change). A process that loads packs
# again and again (the tests, `fengsheng serve`) parses and schema-checks each unchanged file once; a file with
# any finding is read in full every time, so that its findings are reported again. Bounded: cleared when full.
_FULL_WIDTH_KEY = re.compile(r"^(\s*(?:-\s+)?)([A-Za-z_][\w-]*)\s*：")


def _full_width_key(lines: list[str], upto: int) -> tuple[int, int, str] | None:
    """The last of line `upto` (1-based) and the two before it that starts with a key followed by a
    full-width colon `：` (a Chinese input method's), as (line, column of the colon, key); else None.
    YAML reads such a line as one text and fails on a line after it."""
    for n in range(min(upto, len(lines)), max(upto - 3, 0), -1):
        m = _FULL_WIDTH_KEY.match(lines[n - 1])
        if m:
            return n, m.end(), m.group(2)
    return None


_CLEAN_READS: dict[tuple[str, str], bytes] = {}
_CLEAN_READS_MAX = 4096


@lru_cache(maxsize=1)
def _reads_version() -> str:
    """What a clean read depends on beyond the file's text: the schemas, this reader (this module and yamlpos.py)
    and the YAML library. Such reads are also kept between runs in the parse cache (language/parser.py: kept,
    keep) under a key with this digest, so a run whose files all read clean before skips YAML parsing and the
    schema checks (and importing jsonschema); anything changed here reads every file again."""
    digest = hashlib.sha256(f"{yaml.__version__} {sys.version_info[:2]}".encode())
    for part in (*sorted(SCHEMA_DIR.glob("*.json")), Path(__file__), Path(__file__).with_name("yamlpos.py")):
        with contextlib.suppress(OSError):
            digest.update(part.name.encode() + b"\0" + part.read_bytes())
    return digest.hexdigest()[:16]


# Cards, roles and secret tasks built from such a file with nothing to report, by kind, file name, text and the
# card names known (【...】 in the code): the object (never changed once built, like load_cached's) and the marks
# its code set and read. Built again for any file with a finding.
_CLEAN_BUILDS: dict[tuple, tuple[object, list[tuple]]] = {}

# Schema errors after which the value is still of a shape the builders read (a string, a number): it stays.
_HARMLESS = {"required", "additionalProperties", "minLength", "pattern", "minimum", "maximum"}


# Context variables each kind of code unit can read.
CARD_VARS = ["self", "current", "this_card"]
PENDING_VARS = ["pending", "holder", "sender"]


def card_env(timing: str, has_target: bool, for_target_rule: bool = False) -> dict:
    names = list(CARD_VARS)
    if has_target and not for_target_rule:
        names.append("target")
    if timing == "dying":
        names.append("dying")
    if timing in ("send_idle", "contest"):
        names += PENDING_VARS
    return context_env(names)


def skill_env(skill: dict) -> dict:
    names = ["self", "current"]
    timing = skill.get("timing")
    timings = timing if isinstance(timing, list) else [timing]
    if skill.get("kind") == "triggered":
        names += ["subject", "this_card", "target", "used_as", "event"]
    if "dying" in timings:
        names.append("dying")
    if "send_idle" in timings or "contest" in timings or skill.get("kind") == "triggered":
        names += PENDING_VARS
    return context_env(names)


def victory_env(check: str) -> dict:
    names = ["self", "current"]
    if check in ("collect_unclaimed", "death"):
        names.append("subject")
    return context_env(names)


def _branch_errors(e) -> list:
    """A value that fits none of a `oneOf` (a timing, or a list of timings): the errors of the branch meant
    for the value's shape (the enum for a name, the items for a list), so that the message says what is wrong
    with it and suggests a name, not "is not valid under any of the given schemas"."""
    if e.validator not in ("oneOf", "anyOf") or not e.context:
        return [e]
    shaped = {
        c.schema_path[0]
        for c in e.context
        if not c.relative_path
        and (c.validator == "type" or (c.validator == "enum" and isinstance(c.instance, (list, dict))))
    }
    branches = [c for c in e.context if c.schema_path[0] not in shaped]
    if not branches or len({c.schema_path[0] for c in branches}) > 1:
        return [e]
    return [sub for c in branches for sub in _branch_errors(c)]


def _one_or_more(value) -> tuple:
    """`timing:` / `trigger:` is one name or a list of names."""
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else (value,)


# What an enum's key names, where the key alone reads badly in "unknown KEY 'x'" (a list of phase kinds).
ENUM_NOUNS = {"turn": "phase kind", "speeds": "idle point"}
ENUM_VALUE_NOUNS = {"speeds": "speed"}  # ... and what the values of such a mapping are


class Loader:
    def __init__(self):
        self.errors: list[ContentError] = []
        self.warnings: list[ContentError] = []  # W5xx: the content loads, but may misbehave in play
        # (id of a mapping or list, key) of each value check_schema reported and took out: building from the
        # rest checks what it can of the object and says nothing more of the missing value
        self.dropped: set[tuple[int, object]] = set()
        # marks set and read with their key written out: (key, kind, "set" or "read", path, line, col) (W301)
        self.marks: list[tuple] = []
        self.card_names: dict = {}
        self.removed_names: dict[str, str] = {}  # card name -> the pack that removed that card kind
        self.sources: dict[str, list[str]] = {}  # path -> the lines of its text as read (for error snippets)

    # ------------------------------------------------------------------ reporting

    def err(self, path, pos, code, message, hint=None):
        if isinstance(pos, FilePos):  # a value merged in from a pack.yaml: its own file
            path = pos.path
        if pos is None:  # no position: 1:1 and no snippet
            self.errors.append(ContentError(str(path), 1, 1, code, message, hint))
        else:
            self.error_at(path, pos.line, pos.col, code, message, hint)

    def error_at(self, path, line, col, code, message, hint=None):
        """An error at a known line and column of the file, shown with that line of its text as read."""
        source = line_of(self.sources.get(str(path)), line)
        self.errors.append(ContentError(str(path), line, col, code, message, hint, source))

    def warn_at(self, path, line, col, code, message, hint=None):
        """A warning (W5xx) at a line and column of the file: shown like an error, but the content loads."""
        source = line_of(self.sources.get(str(path)), line)
        self.warnings.append(ContentError(str(path), line, col, code, message, hint, source, "warning"))

    def check_marks(self, whole_pack: bool) -> None:
        """W301: a mark read as one kind of value where every set_mark of its key gives it another (the typed read
        then yields 0 or none), or, in a whole pack, a mark no effect sets (a typo in its key?)."""
        sets: dict[str, list[tuple]] = {}
        for m in self.marks:
            if m[2] == "set":
                sets.setdefault(m[0], []).append(m)
        for key, kind, how, path, line, col in self.marks:
            if how != "read":
                continue
            given = {m[1] for m in sets.get(key, []) if m[1] not in (T.ANY, T.NONE)}
            shown = clip(key)
            if not given and key not in sets and whole_pack:
                self.warn_at(
                    path,
                    line,
                    col,
                    "W301",
                    f'no effect sets the mark "{shown}": this read is always {"0" if kind == T.INT else "none"}',
                    _suggest(key, sets) or "set it with set_mark(p, key, value)",
                )
            elif given and kind not in given:
                first = next(m for m in sets[key] if m[1] in given)
                reads = [TYPED_READS["mark"][t] for t in sorted(given) if t in TYPED_READS["mark"]]
                self.warn_at(
                    path,
                    line,
                    col,
                    "W301",
                    f'the mark "{shown}" is read here as {T.describe(kind)}, but set_mark gives it '
                    f"{' or '.join(T.describe(t) for t in sorted(given))} ({first[3]}:{first[4]}): "
                    f"this read is always {'0' if kind == T.INT else 'none'}",
                    "read it with " + " or ".join(f"{r}(...)" for r in reads) if reads else None,
                )

    def warn_never_sends(self, path, container, key, calls: set, what: str, timing: str = "send_start") -> None:
        """W502: a use instead of sending an intel (send_start, need_send) whose effect calls neither `send`
        nor `use_card` is offered again and again (the player is asked until an intel is sent): a stuck
        game (E503)."""
        if calls & {"send", "use_card"}:
            return
        pos = pos_of(container, key)
        line, col = pos.map(1, 1) if pos is not None else (1, 1)
        self.warn_at(
            path,
            line,
            col,
            "W502",
            f"{what} is used at {timing}, instead of sending an intel, but its effect never calls `send(...)`: "
            "the player is asked to send again, and may be offered it forever (a stuck game)",
            "end the effect with send(...), or use it at another timing",
        )

    # ------------------------------------------------------------------ files

    def read(self, path: Path, kind: str):
        """Read one YAML file and check it against its schema. None if unusable."""
        try:
            with open(path, "rb") as f:  # no more than the limit is read (a device such as /dev/zero never ends)
                raw = f.read(MAX_FILE_BYTES + 1)
        except OSError as e:
            self.err(path, None, "E100", f"cannot read the file: {e.strerror}")
            return None
        if len(raw) > MAX_FILE_BYTES:
            self.err(
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
            line = raw[: e.start].count(b"\n") + 1
            start = raw.rfind(b"\n", 0, e.start) + 1
            end = raw.find(b"\n", e.start)
            shown = raw[start : len(raw) if end < 0 else end].rstrip(b"\r").decode("utf-8", "backslashreplace")
            col = len(raw[start : e.start].decode("utf-8")) + 1  # in characters, as every other column
            binary = e.start == nul
            self.errors.append(
                ContentError(
                    str(path),
                    line,
                    col,
                    "E102",
                    "a NUL byte: this is a binary file, not YAML text"
                    if binary
                    else f"byte 0x{raw[e.start]:02x} is not UTF-8",
                    "content files are YAML text, saved as UTF-8" if binary else "save the file as UTF-8",
                    None if binary else shown,  # a binary line shows nothing useful
                )
            )
            return None
        if text.startswith("\ufeff"):
            text = text[1:]
        self.sources[str(path)] = split_lines(text)
        clean = _CLEAN_READS.get((kind, text))
        if clean is not None:
            return pickle.loads(clean)
        clean = kept((f"read {kind} {_reads_version()}", text))  # read clean in an earlier run?
        if clean is not None:
            with contextlib.suppress(Exception):  # a damaged entry: read the file instead
                data = pickle.loads(clean)
                _CLEAN_READS[kind, text] = clean
                return data
        findings = len(self.errors), len(self.warnings), len(self.dropped)
        if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
            self.err(
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
            self.error_at(path, line, col, "E104", str(e.problem), e.hint)
            return None
        except yaml.reader.ReaderError as e:  # a character YAML does not allow: no mark, a position in the text
            before = text[: e.position]
            line, col = before.count("\n") + 1, e.position - before.rfind("\n")
            message = f"YAML syntax: the character U+{e.character:04X} is not allowed in a YAML file"
            hint = "remove it: a YAML file holds printable characters, tabs and line breaks"
            self.error_at(path, line, col, "E101", message, hint)
            return None
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            problem = getattr(e, "problem", None) or str(e)
            hint = None
            src_line = (line_of(self.sources[str(path)], line) or "") if mark else ""
            context, context_mark = getattr(e, "context", None), getattr(e, "context_mark", None)
            full_width = _full_width_key(self.sources[str(path)], line) if mark else None
            wrapped = colon_in_wrapped_text(
                self.sources[str(path)],
                str(problem),
                context,
                context_mark.line + 1 if context_mark else None,
                line,
                col,
            )
            if full_width:  # `key：value`: YAML reads one text, and fails on a later line
                line, col, key = full_width
                problem = f"a full-width colon '：' after the key `{key}`"
                hint = f"YAML needs the ASCII colon and a space: `{key}: ...`"
            elif context == "while scanning a quoted scalar" and context_mark and "end of stream" in str(problem):
                line, col = context_mark.line + 1, context_mark.column + 1
                problem = "this quoted text is never closed: the file ends inside it"
                hint = "end the text with the same quote mark, on its line; or leave the quotes out"
            elif context in ("while parsing a flow sequence", "while parsing a flow mapping") and context_mark:
                opening = "[" if "sequence" in context else "{"
                closing = "]" if opening == "[" else "}"
                hint = (
                    f"the `{opening}` at line {context_mark.line + 1}, column {context_mark.column + 1} "
                    f"is not closed by `{closing}` before this"
                )
            elif wrapped:  # `: ` in a text over two lines (a `rulings:` item): YAML reads a key
                line, col, problem, hint = wrapped
            elif "\t" in src_line or re.search(r"\btabs?\b", str(problem)):
                hint = "YAML indentation must use spaces, not tabs"
            elif "mapping values are not allowed" in str(problem) and re.match(r"\s*-?\s*[\w-]+: .*: ", src_line):
                hint = (
                    "a value with `: ` in it is put in quotes, or, code with a keyword argument (`from: ...`), "
                    "written as a block: `effect: |` and the code on the lines below, indented"
                )
            elif "mapping values are not allowed" in str(problem) or "expected <block end>" in str(problem):
                hint = "check the indentation of this line against the line above"
            if mark:
                self.error_at(path, line, col, "E101", f"YAML syntax: {problem}", hint)
            else:
                self.errors.append(ContentError(str(path), line, col, "E101", f"YAML syntax: {problem}", hint))
            return None
        if not isinstance(data, PosDict):
            self.err(path, getattr(data, "pos", None), "E110", f"a {kind} file must be a mapping (key: value lines)")
            return None
        self.check_schema(path, data, kind)
        if (len(self.errors), len(self.warnings), len(self.dropped)) == findings:
            if len(_CLEAN_READS) >= _CLEAN_READS_MAX:
                _CLEAN_READS.clear()
            _CLEAN_READS[kind, text] = blob = pickle.dumps(data, pickle.HIGHEST_PROTOCOL)
            keep((f"read {kind} {_reads_version()}", text), blob)
        return data

    def check_schema(self, path, data, kind, schema_doc: dict | None = None):
        """Report every way `data` breaks the schema (of `kind`, or `schema_doc`), then take out each value of
        the wrong shape (a list where an id goes, an unknown timing), so that building from the rest never meets it."""
        import jsonschema  # (here: a run whose files all read clean before never needs it)

        validator = jsonschema.Draft202012Validator(schema_doc if schema_doc is not None else schema(kind))
        wrong = set()
        found = []
        for e in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
            if e.absolute_path and e.validator not in _HARMLESS:
                wrong.add(tuple(e.absolute_path))
            found += _branch_errors(e)
        # a required key written with a slip (`hiden:`) is reported once, as the unknown key that means it
        meant: set[tuple[int, str]] = set()
        for e in found:
            if e.validator == "additionalProperties" and isinstance(e.instance, dict):
                allowed = list(e.schema.get("properties", {}))
                for extra in e.instance:
                    close = closest(str(extra), allowed) if extra not in allowed else []
                    if close:
                        meant.add((id(e.instance), close[0]))
        for e in found:
            container, key = data, None
            node = data
            for k in e.absolute_path:
                container, key = node, k
                try:
                    node = node[k]
                except (KeyError, IndexError, TypeError):
                    break
            pos = pos_of(container, key) if key is not None else data.pos
            code, msg, hint = "E113", e.message, None
            if e.validator == "additionalProperties":
                allowed = list(e.schema.get("properties", {}))
                extras = [k for k in node if k not in allowed] if isinstance(node, dict) else []
                for extra in extras:
                    where = key_pos_of(node, extra)
                    h = _suggest(extra, allowed) or ("allowed keys: " + ", ".join(allowed) if allowed else None)
                    self.err(path, where, "E111", f"unknown key '{clip(str(extra))}'", h)
                continue
            if e.validator == "required":
                code = "E112"
                missing = e.message.split("'")[1] if "'" in e.message else e.message
                if (id(e.instance), missing) in meant:
                    continue  # the unknown key close to it was reported, with the name to write
                msg = f"missing key '{missing}'"
                pos = getattr(node, "pos", pos)
                desc = e.schema.get("properties", {}).get(missing, {}).get("description")
                hint = desc
            elif e.validator == "enum":
                hint = _suggest(e.instance, e.validator_value)
                named = [k for k in e.absolute_path if isinstance(k, str)]
                noun = ENUM_NOUNS.get(named[-1], named[-1]) if named else ""
                if len(named) > 1 and named[-2] in ENUM_VALUE_NOUNS:  # a value of a mapping keyed by names
                    noun = ENUM_VALUE_NOUNS[named[-2]]
                msg = f"unknown {noun} {brief(e.instance)}" if named else f"{brief(e.instance)} is not allowed here"
                hint = hint or "allowed values: " + ", ".join(map(str, e.validator_value))
            elif e.validator == "type":
                msg = f"{brief(e.instance)} should be {e.validator_value}"
                if isinstance(e.instance, bool) and e.validator_value == "string":
                    hint = f'YAML reads {str(e.instance).lower()} as a yes/no value: put the code in quotes, "..."'
                elif e.validator_value == "boolean":
                    hint = _suggest(str(e.instance).lower(), ["true", "false"]) or "write true or false"
                else:  # what the value is for, as the schema says it
                    hint = e.schema.get("description")
            self.err(path, pos, code, msg, hint)
        # the deepest first, and of a list's items the last first, so that each path still leads to its value
        for at in wrong:  # what building must not take for missing (a skill whose misspelt trigger was taken out)
            node = data
            try:
                for k in at[:-1]:
                    node = node[k]
            except (KeyError, IndexError, TypeError):
                continue
            self.dropped.add((id(node), at[-1]))
        for at in sorted(wrong, key=lambda p: [(isinstance(k, str), str(k) if isinstance(k, str) else k) for k in p])[
            ::-1
        ]:
            node = data
            try:
                for k in at[:-1]:
                    node = node[k]
                del node[at[-1]]
            except (KeyError, IndexError, TypeError):
                pass

    def build(self, path: Path, data: PosDict, kind: str, names: tuple) -> Any:
        """load_card, load_role or load_task (by `kind`) of a file read by read(), built once per process for the
        same text and card names (`names`: the sorted items of card_names) when it has nothing to report."""
        key = (kind, path.name, "\n".join(self.sources.get(str(path), ())), names)
        hit = _CLEAN_BUILDS.get(key)
        if hit is not None:
            obj, marks = hit
            self.marks += [(*m[:3], path, *m[3:]) for m in marks]
            return obj
        findings, first_mark = (len(self.errors), len(self.warnings)), len(self.marks)
        obj = {"card": self.load_card, "role": self.load_role, "secret_task": self.load_task}[kind](path, data)
        if (len(self.errors), len(self.warnings)) == findings and str(path) in self.sources:
            if len(_CLEAN_BUILDS) >= _CLEAN_READS_MAX:
                _CLEAN_BUILDS.clear()
            _CLEAN_BUILDS[key] = obj, [(*m[:3], *m[4:]) for m in self.marks[first_mark:]]
        return obj

    # ------------------------------------------------------------------ code units

    def compile_unit(
        self,
        path,
        container,
        key,
        env,
        unit,
        mode,
        expect=None,
        reads: set | None = None,
        data_types=None,
        calls: set | None = None,
        guards: list | None = None,
        skip_codes: set[str] | frozenset[str] = frozenset(),
        skill_refs: list | None = None,
        state_reads: list | None = None,
    ):
        """Compile one code unit; None if absent or wrong. `guards` (an expression): gets its seat guard;
        `state_reads`: gets the parts of the game state the code reads (Compiler.state_reads).
        Errors of `skip_codes` are not reported (the unit is checked out of its context)."""
        text = container.get(key) if container is not None else None
        if text is None:
            return None
        if not isinstance(text, str):
            return None
        comp = Compiler(env, unit, self.card_names, data_types, precompiled())
        pos = pos_of(container, key)
        if isinstance(pos, FilePos):  # code merged in from a pack.yaml (an identity's victory): its own file
            path = pos.path
        try:
            fn = comp.program(text) if mode == "program" else comp.expression(text, expect)
        except LanguageError as e:
            comp.errors += [e, *e.also]
            fn = None
        if reads is not None:
            reads |= comp.names_read
        if calls is not None:
            calls |= comp.calls
        if state_reads is not None:
            state_reads.append(comp.state_reads())
        if guards is not None and fn is not None and not comp.errors and comp.tree is not None:
            guards.append(seat_guard(comp.tree, env, CONTEXT_VARS))
        for err in comp.errors:
            if err.code in skip_codes:
                continue
            name = err.message.removeprefix("unknown card name 【").removesuffix("】")
            if err.code == "E305" and name in self.removed_names:
                err.message = f"【{name}】 was removed by pack '{self.removed_names[name]}'"
                err.hint = (
                    "the pack that removes a card kind also removes or replaces what names it (remove: / replace:)"
                )
            if pos is None:
                self.errors.append(ContentError(str(path), err.line, err.col, err.code, err.message, err.hint))
            else:
                self.error_at(path, *pos.map(err.line, err.col), err.code, err.message, err.hint)
        for w in comp.warnings:
            line, col = pos.map(w.line, w.col) if pos is not None else (w.line, w.col)
            self.warn_at(path, line, col, w.code, w.message, w.hint)
        if skill_refs is not None:
            for name, line, col in comp.skill_refs:
                skill_refs.append((name, path, *(pos.map(line, col) if pos is not None else (line, col))))
        for mkey, mtype, how, line, col in comp.marks:
            line, col = pos.map(line, col) if pos is not None else (line, col)
            self.marks.append((mkey, mtype, how, path, line, col))
        return fn if not comp.errors else None

    # ------------------------------------------------------------------ kinds

    def load_card(self, path, data) -> CardType:
        ctype = CardType(
            id=data.get("id", path.stem),
            name=data.get("name", "?"),
            text=data.get("text", ""),
            face_down=bool(data.get("face_down", False)),
            after_use=data.get("after_use", "discard"),
            data_keys=dict(data.get("data") or {}),
            effect_source=data.get("effect"),
            bot=data.get("bot"),
        )
        for i, use in enumerate(data.get("uses") or []):
            if not isinstance(use, PosDict) or use.get("timing") not in TIMINGS:
                continue
            timing = use["timing"]
            has_target = "target" in use
            eff_container = use if "effect" in use else data
            if "effect" not in eff_container:
                self.err(path, use.pos, "E112", "this use has no effect, and the card gives no shared `effect`")
                continue
            reads: set = set()
            dt = ctype.data_keys
            target = self.compile_unit(
                path, use, "target", card_env(timing, False, True), timing, "expr", "players", reads, dt
            )
            cond = self.compile_unit(path, use, "condition", card_env(timing, False), timing, "expr", "bool", reads, dt)
            calls: set = set()
            effect = self.compile_unit(
                path,
                eff_container,
                "effect",
                card_env(timing, has_target),
                timing,
                "program",
                data_types=dt,
                calls=calls,
            )
            if effect is None:
                continue
            if timing in SEND_REPLACING:
                self.warn_never_sends(path, eff_container, "effect", calls, f"this use of {ctype.label()}", timing)
            cu = CardUse(ctype, timing, target, cond, effect, i, per_copy="this_card" in reads)
            cu.target_source, cu.condition_source = use.get("target"), use.get("condition")  # for describe
            cu.effect_source = use.get("effect")
            ctype.uses.append(cu)
            ctype.uses_by_timing.setdefault(timing, []).append(cu)
        return ctype

    def load_victories(self, path, container, key) -> list:
        out = []
        for v in container.get(key) or []:
            if not isinstance(v, PosDict) or v.get("check") not in VICTORY_CHECKS:
                continue
            reads: list = []
            fn = self.compile_unit(
                path, v, "condition", victory_env(v["check"]), v["check"], "expr", "bool", state_reads=reads
            )
            if fn is not None:
                out.append(
                    Victory(v["check"], fn, bool(v.get("dead_may_win", False)), v.get("condition", ""), reads[0])
                )
        return out

    def load_role(self, path, data) -> Role:
        role = Role(
            data.get("id", path.stem),
            data.get("name", "?"),
            data.get("title", ""),
            data.get("gender", "male"),
            bool(data.get("hidden", False)),
            version=data.get("version", ""),
        )
        skill_refs: list = []  # (name, path, line, col): skills of this role named by gain_skill(self, "名") …
        skill_ids: set[str] = set()
        for i, sk in enumerate(data.get("skills") or []):
            if not isinstance(sk, PosDict):
                continue
            pos = pos_of(data["skills"], i)
            sid = sk.get("id")
            if isinstance(sid, str) and sid in skill_ids:
                self.err(
                    path,
                    pos_of(sk, "id"),
                    "E120",
                    f"the role has two skills with the id '{sid}'",
                    "each skill has its own id (its uses, its limit and its statistics go by it); one skill at "
                    "several moments is one entry with `moments:`",
                )
            if isinstance(sid, str):
                skill_ids.add(sid)
            if "moments" not in sk:
                if "kind" not in sk and (id(sk), "kind") not in self.dropped:
                    self.err(
                        path,
                        sk.pos,
                        "E112",
                        "missing key 'kind'",
                        "active, triggered, passive or victory; or `moments:`, a list of the skill's moments",
                    )
                built = self.load_moment(path, role, sk, sk, i, pos, skill_refs)
                if built is not None:
                    role.skills.append(built)
                continue
            moments = self.load_moments(path, role, sk, i, skill_refs)
            if moments:
                for m in moments:
                    m.moments = moments
                role.skills.append(moments[0])
        own = {n for sk in role.skills for n in (sk.name, sk.id)}
        for name, rpath, line, col in skill_refs:
            if name not in own:
                self.error_at(
                    rpath,
                    line,
                    col,
                    "E121",
                    f'the role {role.name} has no skill "{clip(name)}"',
                    _suggest(name, [sk.name for sk in role.skills])
                    or "its skills: " + "、".join(sk.name for sk in role.skills),
                )
        return role

    def load_moment(self, path, role, sk, own, i, pos, skill_refs) -> Skill | None:
        """One skill, or one moment of a skill with `moments:` (sk: the skill's keys with the moment's over them;
        own: the mapping the moment's own keys were read from, for what the schema check took out)."""
        kind = sk.get("kind")
        if kind not in ("active", "triggered", "passive", "victory"):
            return None  # missing or unknown: the schema check reported it
        timings, triggers = _one_or_more(sk.get("timing")), _one_or_more(sk.get("trigger"))
        misspelt = (id(own), "timing" if kind == "active" else "trigger") in self.dropped
        if kind == "active" and (not timings or any(t not in TIMINGS for t in timings)):
            if not misspelt:
                self.err(
                    path,
                    pos,
                    "E112",
                    "an active skill needs `timing:` (the idle point where it is used)",
                    "timings: " + ", ".join(TIMINGS),
                )
            self.check_skill_code(path, sk, kind)
            return None
        if kind == "triggered" and (not triggers or any(t not in TRIGGER_EVENTS for t in triggers)):
            if not misspelt:
                self.err(
                    path,
                    pos,
                    "E112",
                    "a triggered skill needs `trigger:` (the event it reacts to, or a list)",
                    "events: " + ", ".join(TRIGGER_EVENTS),
                )
            self.check_skill_code(path, sk, kind)
            return None
        if kind == "victory" and sk.get("check") not in ("declare", "co_win"):
            if (id(own), "check") not in self.dropped:
                self.err(path, pos, "E112", "a victory skill needs `check:` (declare or co_win)")
            self.check_skill_code(path, sk, kind)
            return None
        events = timings or triggers
        unit = (events if len(events) > 1 else events[0] if events else None) or sk.get("check") or kind
        env = skill_env(sk)
        guards: list = []
        cond = self.compile_unit(path, sk, "condition", env, unit, "expr", "bool", guards=guards, skill_refs=skill_refs)
        calls: set = set()
        effect = self.compile_unit(path, sk, "effect", env, unit, "program", calls=calls, skill_refs=skill_refs)
        replacing = [t for t in SEND_REPLACING if t in timings]
        if kind == "active" and replacing and effect is not None:
            self.warn_never_sends(path, sk, "effect", calls, f"the skill {sk.get('name', '?')}", replacing[0])
        limit = sk.get("limit") or {}
        return Skill(
            sk.get("id", f"skill{i}"),
            sk.get("name", "?"),
            sk.get("text", ""),
            cast(str, kind),  # the schema requires it (a file that breaks the schema does not load)
            timings or None,
            triggers or None,
            cond,
            effect,
            limit.get("per"),
            limit.get("times", 1),
            bool(sk.get("flips_up", False)),
            bool(sk.get("optional", True)),
            role,
            sk.get("condition", ""),
            sk.get("check"),
            sk.get("effect", ""),
            guards[0] if guards and kind == "triggered" else None,
            bool(sk.get("switch", False)),
            bool(sk.get("persistent", False)),
            bool(sk.get("dormant", False)),
        )

    def load_moments(self, path, role, sk, i, skill_refs) -> tuple[Skill, ...]:
        """A skill with several moments (`moments:`): one Skill per moment, sharing the skill's id, name, text,
        limit and costs (so its uses, its limit, its state and its statistics are one skill's). A moment gives
        its kind, its timing/trigger/check, and may give its own condition, effect and optional; the skill's
        condition and effect are those of every moment that gives none."""
        moments = sk.get("moments")
        if not isinstance(moments, list):
            return ()  # the schema check reported it
        for key in ("kind", "timing", "trigger", "check"):
            if key in sk:
                self.err(
                    path,
                    key_pos_of(sk, key),
                    "E114",
                    f"a skill with `moments:` gives `{key}:` in each moment, not on the skill",
                    "move it into the moment it belongs to",
                )
        first_error = len(self.errors)
        out: list[Skill] = []
        seen: dict[str, int] = {}
        for j, m in enumerate(moments):
            if not isinstance(m, PosDict):
                continue
            mpos = pos_of(moments, j)
            if m.get("kind") == "passive":
                self.err(
                    path,
                    key_pos_of(m, "kind"),
                    "E114",
                    "a moment is active, triggered or victory",
                    "a standing rule (锁定技) is a triggered moment with optional: false",
                )
                continue
            merged = PosDict({k: v for k, v in sk.items() if k != "moments"})
            merged.update(m)
            merged.pos = m.pos
            merged.key_pos = {**sk.key_pos, **m.key_pos}
            merged.val_pos = {**sk.val_pos, **m.val_pos}
            for when in (*_one_or_more(m.get("timing")), *_one_or_more(m.get("trigger")), m.get("check")):
                if when is not None and seen.setdefault(str(when), j) != j:
                    self.err(
                        path,
                        mpos,
                        "E114",
                        f"two moments of the skill {sk.get('name', '?')} are both at `{when}`",
                        "one moment per timing or event: put both in one moment (a list of triggers or timings)",
                    )
            built = self.load_moment(path, role, merged, m, i, mpos, skill_refs)
            if built is not None:
                out.append(built)
        # the skill's shared condition and effect are compiled once per moment: say each problem once
        unique: list = []
        for e in self.errors[first_error:]:
            if all(
                (e.line, e.col, e.code, e.message) != (u.line, u.col, u.code, u.message) or e.path != u.path
                for u in unique
            ):
                unique.append(e)
        self.errors[first_error:] = unique
        if len(out) != len([m for m in moments if isinstance(m, PosDict)]):
            return ()  # a moment is wrong (and reported): the skill is not built
        return tuple(out)

    def check_skill_code(self, path, sk, kind) -> None:
        """Check the condition and effect of a skill that cannot be built (its timing, trigger or check is
        missing or misspelt, and reported), so that one mistake does not hide the others: every error but
        those that depend on the timing (E304)."""
        env = skill_env(sk)
        self.compile_unit(path, sk, "condition", env, kind, "expr", "bool", skip_codes={"E304"})
        self.compile_unit(path, sk, "effect", env, kind, "program", skip_codes={"E304"})

    def load_task(self, path, data) -> SecretTask:
        return SecretTask(
            data.get("id", path.stem),
            data.get("name", "?"),
            data.get("text", ""),
            self.load_victories(path, data, "victory"),
            data.get("bot"),
        )

    def load_rules(self, path, data) -> tuple[Rules, dict]:
        identities = {}
        for iid, spec in (data.get("identities") or {}).items():
            if not isinstance(spec, dict) or spec.get("color") not in COLOR_BITS:
                continue
            identities[iid] = Identity(
                iid,
                spec.get("name", iid),
                COLOR_BITS[spec["color"]],
                spec.get("camp"),
                bool(spec.get("takes_task", False)),
                self.load_victories(path, spec, "victory"),
            )
        table = {}
        for n, row in (data.get("identity_table") or {}).items():
            try:
                count = int(n)
            except (TypeError, ValueError):
                self.err(path, key_pos_of(data["identity_table"], n), "E113", f"{brief(n)} is not a player count")
                continue
            for iid in row:
                if iid not in identities:
                    self.err(path, key_pos_of(row, iid), "E121", f"unknown identity '{iid}'", _suggest(iid, identities))
            if sum(row.values()) != count:
                self.err(
                    path,
                    pos_of(data["identity_table"], n),
                    "E122",
                    f"the identities for {count} players add up to {sum(row.values())}",
                )
            table[count] = {k: v for k, v in row.items() if k in identities}
        decks = [  # an entry that breaks the schema is reported by check_schema
            (d["players"][0], d["players"][1], d["deck"])
            for d in data.get("decks") or []
            if isinstance(d, dict) and isinstance(d.get("players"), list) and len(d["players"]) == 2 and "deck" in d
        ]
        phases = self.load_turn(path, data)
        resolution = data.get("resolution", "queued")
        rules = Rules(
            phases=phases,
            resolution=resolution if resolution in RESOLUTIONS else "queued",
            speeds={k: v for k, v in (data.get("speeds") or {}).items() if k in TIMINGS and v in SPEEDS},
            name=data.get("name", ""),
            start_hand=data.get("start_hand", 3),
            draw_count=data.get("draw_count", 3),
            max_turns=data.get("max_turns", 300),
            identity_table=table,
            decks=decks,
            give_on_death=data.get("give_on_death", 3),
            collect_count=data.get("collect_count", 3),
            death_count=data.get("death_count", 3),
        )
        return rules, identities

    def load_turn(self, path, data) -> tuple[Phase, ...]:
        """The rules' `turn:` as phases (the base game's when absent), its order checked (E125).

        An unknown kind is the schema's error (with did-you-mean); the turn is then the base game's.
        """
        kinds = data.get("turn")
        if not isinstance(kinds, list):
            return base_phases()
        if not all(isinstance(k, str) and k in PHASE_KINDS for k in kinds):
            return base_phases()
        phases = phase_list(kinds)
        where = pos_of(data, "turn")
        if not any(PHASE_KINDS[k].required for k in kinds):
            need = [n for n, k in PHASE_KINDS.items() if k.required]
            self.err(
                path,
                where,
                "E125",
                f"the turn has no {' or '.join(repr(n) for n in need)} phase: every turn sends an intel",
                f"add {need[0]!r} ({PHASE_KINDS[need[0]].zh}) to `turn:`",
            )
        # a phase that works on the intel a send phase sent comes after one, before the next, each once
        opened: dict[str, int] = {}  # kind -> index of the phase that opened the span (a send)
        done: dict[str, set[str]] = {}  # opening kind -> kinds already seen in its span
        for i, kind in enumerate(kinds):
            k = PHASE_KINDS[kind]
            at = pos_of(kinds, i)
            if k.after is None:
                if any(PHASE_KINDS[o].after == kind for o in PHASE_KINDS):  # a phase others work on
                    prev = opened.get(kind)
                    if prev is not None and "receive" not in done[kind]:
                        self._never_received(path, kinds, prev)
                    opened[kind], done[kind] = i, set()
                continue
            if k.after not in opened:
                self.err(
                    path,
                    at,
                    "E125",
                    f"phase '{phases[i].id}' ({k.zh}) needs a '{k.after}' phase before it: "
                    f"it works on the intel that phase sent",
                    f"move it after a '{k.after}' phase",
                )
                continue
            seen = done[k.after]
            if kind in seen:
                self.err(
                    path,
                    at,
                    "E125",
                    f"phase '{phases[i].id}' ({k.zh}) comes twice after the same '{k.after}' phase",
                    f"a second one needs a '{k.after}' phase of its own before it",
                )
            elif kind == "contest" and "receive" in seen:
                self.err(
                    path,
                    at,
                    "E125",
                    f"phase '{phases[i].id}' ({k.zh}) comes after the intel was received: nothing is left to contest",
                    "put the contest phase before the receive phase",
                )
            seen.add(kind)
        for kind, i in opened.items():
            if "receive" not in done[kind]:
                self._never_received(path, kinds, i)
        return phases

    def _never_received(self, path, kinds, i) -> None:
        self.err(
            path,
            pos_of(kinds, i),
            "E125",
            f"the intel that phase '{kinds[i]}' (传递阶段) sends is never received",
            "add a 'receive' phase after it (before any other 'send' phase)",
        )

    def load_deck(self, path, data, card_types, skip_kinds=frozenset(), taken=frozenset()) -> tuple[list, dict]:
        """The deck's copies and named decks. Copies of `skip_kinds` (card kinds a pack removed) are left out;
        an id in `taken` (copies already in the deck this adds to) is used twice."""
        entries, seen = [], {}
        skipped: set = set()  # the copies of removed card kinds: a deck may still name them
        for i, c in enumerate(data.get("cards") or []):
            if not isinstance(c, PosDict) or "id" not in c or "card" not in c:
                continue
            pos = pos_of(data["cards"], i)
            if c["id"] in seen or c["id"] in taken:
                self.err(path, pos, "E120", f"card id {c['id']} is used twice")
                continue
            if c["card"] in skip_kinds:
                skipped.add(c["id"])
                continue
            seen[c["id"]] = True
            ctype = card_types.get(c["card"])
            if ctype is None:
                self.err(
                    path,
                    pos_of(c, "card"),
                    "E121",
                    f"unknown card type '{c['card']}'",
                    _suggest(c["card"], card_types) or "card types: " + ", ".join(sorted(card_types)),
                )
                continue
            mask = 0
            for col in c.get("colors") or []:
                mask |= COLOR_BITS.get(col, 0)
            copy_data = {}
            given = c.get("data") or {}
            for key, typ in ctype.data_keys.items():
                if key not in given:
                    self.err(
                        path,
                        pos_of(c, "data") or pos,
                        "E112",
                        f"card {c['id']} ({ctype.name}) needs data '{key}' ({typ})",
                    )
                    continue
                copy_data[COLOR_BITS.get(key, key)] = self._data_value(path, c["data"], key, typ)
            for key in given:
                if key not in ctype.data_keys:
                    self.err(
                        path,
                        key_pos_of(given, key),
                        "E111",
                        f"{ctype.name} has no per-copy data '{key}'",
                        _suggest(key, ctype.data_keys),
                    )
            entries.append(
                DeckEntry(c["id"], c["card"], mask, c.get("direction", "up"), bool(c.get("lockable", False)), copy_data)
            )
        all_ids = [e.uid for e in entries]
        decks = {}
        for name, spec in (data.get("decks") or {}).items():
            inc = spec.get("include", "all")
            if inc == "all":
                ids = list(all_ids)
            elif isinstance(inc, dict):
                lo, hi = inc["range"]
                ids = [u for u in all_ids if lo <= u <= hi]
            else:
                ids = list(inc)
            exclude = set(spec.get("exclude") or [])
            for u in list(exclude) + (ids if isinstance(inc, list) else []):
                if u not in seen and u not in skipped:
                    self.err(
                        path,
                        pos_of(data["decks"], name),
                        "E121",
                        f"deck '{clip(str(name))}' names card id {brief(u)}, which deck.yaml does not have",
                    )
            decks[name] = [u for u in ids if u not in exclude and u in seen]
        return entries, decks

    def _data_value(self, path, given, key, typ):
        v = given[key]
        if typ == "int" and isinstance(v, int) and not isinstance(v, bool):
            return v
        if typ == "color" and v in COLOR_BITS:
            return COLOR_BITS[v]
        if typ == "text" and isinstance(v, str):
            return v
        self.err(path, pos_of(given, key), "E113", f"data '{clip(str(key))}' should be {typ}, got {brief(v)}")
        return None


def _files(dirs, sub):
    out = {}
    for d in dirs:
        folder = Path(d) / sub
        if folder.is_dir():
            for f in sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml")):
                out[f.stem] = f  # a later pack overrides an earlier one's file of the same name
    return list(out.values())


def _last_file(dirs, name):
    found = None
    for d in dirs:
        f = Path(d) / name
        if f.is_file():
            found = f
    return found


def _read_kind(L: Loader, dirs, folder: str, kind: str) -> list[tuple[int, Path, PosDict]]:
    """Read and schema-check every file of one kind in every pack: (layer, file, data), in layering order."""
    out = []
    for layer, d in enumerate(dirs):
        sub = Path(d) / folder
        if sub.is_dir():
            for f in sorted(sub.glob("*.yaml")) + sorted(sub.glob("*.yml")):
                data = L.read(f, kind)
                if data is not None and isinstance(data.get("id"), str):
                    out.append((layer, f, data))
    return out


class _Packs:
    """The loaded folders and their manifests: which pack each layer is, and what each manifest asks."""

    def __init__(self, L: Loader, dirs: list[Path]):
        self.L, self.dirs = L, dirs
        self.manifests: dict[int, Manifest] = {}
        for layer, d in enumerate(dirs):
            path = d / MANIFEST
            if path.is_file():
                data = L.read(path, "pack")
                if data is not None:
                    self.manifests[layer] = Manifest(layer, d, path, data)
        self.ids = [self.manifests[i].id if i in self.manifests else d.name for i, d in enumerate(dirs)]
        self.changes: list[str] = []
        self.removed: dict[str, set[str]] = {kind: set() for kind in KIND_WORD}
        self.removed_by: dict[str, str] = {}  # a removed card kind's id -> the pack that removed it
        self._check_extends()

    def _check_extends(self) -> None:
        here = [d.resolve() for d in self.dirs]
        for m in self.manifests.values():
            listed = m.data.get("expansions") or []
            have = expansions_of(m.folder)
            for i, name in enumerate(listed):
                # a listed expansion that is not there is skipped (a copy of the rule set without it), unless
                # its name is close to one that is: a typo
                hint = did_you_mean(name, have) if isinstance(name, str) and name not in have else None
                if hint:
                    self.report(
                        Finding(
                            m.path,
                            pos_of(listed, i),
                            "E121",
                            f"pack '{m.id}' lists the expansion '{name}', which is not a folder in its expansions/",
                            hint,
                        )
                    )
            refs = m.data.get("extends") or []
            for i, ref in enumerate(refs):
                target = pack_ref(ref, m.folder)
                if target is None:
                    self.report(
                        Finding(
                            m.path,
                            pos_of(refs, i),
                            "E121",
                            f"pack '{m.id}' extends '{ref}', which is neither a bundled pack nor a folder next to it",
                            did_you_mean(ref, bundled_packs()) or "bundled packs: " + ", ".join(bundled_packs()),
                        )
                    )
                elif target.resolve() not in here[: m.layer]:
                    self.report(
                        Finding(
                            m.path,
                            pos_of(refs, i),
                            "E124",
                            f"pack '{m.id}' extends '{ref}', which is loaded after it: the packs extend each other",
                            "a pack cannot extend one that extends it",
                        )
                    )

    def report(self, f: Finding) -> None:
        if f.pos is None:
            self.L.err(f.path, None, f.code, f.message, f.hint)
        else:
            self.L.error_at(f.path, f.pos.line, f.pos.col, f.code, f.message, f.hint)

    def origin(self, layer: int, f: Path, data: PosDict) -> Origin:
        pos = pos_of(data, "id")
        return Origin(self.ids[layer], str(f), pos.line if pos is not None else 1)

    def resolve(self, folder: str, items: list[tuple[int, Path, PosDict]]) -> dict[str, tuple[int, Path, PosDict]]:
        """One definition per id: a later pack's replaces an earlier one's where allowed; removals applied."""
        word = KIND_WORD[folder]
        winners: dict[str, tuple[int, Path, PosDict]] = {}
        first: dict[str, int] = {}  # id -> the layer of its first definition
        for layer, f, data in items:
            ident = data["id"]
            first.setdefault(ident, layer)
            old = winners.get(ident)
            if old is not None:
                m = self.manifests.get(layer)
                if old[0] == layer:
                    self.L.err(
                        f, pos_of(data, "id"), "E120", f"{word} id '{clip(ident)}' is used twice (also {old[1]})"
                    )
                    continue
                if m is not None and ident not in dict(m.ids("replace", folder)):
                    self.L.err(
                        f,
                        pos_of(data, "id"),
                        "E120",
                        f"{word} '{clip(ident)}' is already defined by pack '{self.ids[old[0]]}' ({old[1]})",
                        f"to replace it, list it in {m.path.name}: replace: {folder}: [{ident}]",
                    )
                    continue
                self.changes.append(f"{self.ids[layer]}: {word} {ident} replaced")
            elif layer > 0:
                self.changes.append(f"{self.ids[layer]}: {word} {ident} added")
            winners[ident] = (layer, f, data)
        absent = self.absent_ids(folder)
        for m in self.manifests.values():
            defined = {i: layer for i, layer in first.items() if i in winners}
            _, found = check_refs(m, folder, defined, "replace")
            for problem in found:
                self.report(problem)
            removed, found = check_refs(m, folder, defined, "remove", absent)
            for problem in found:
                self.report(problem)
            for ident in removed:
                if winners[ident][0] < m.layer:
                    del winners[ident]
                    self.removed[folder].add(ident)
                    self.removed_by[ident] = m.id
                    self.changes.append(f"{m.id}: {word} {ident} removed")
        return winners

    def absent_ids(self, folder: str) -> frozenset[str]:
        """The ids a kind folder of the rule set's expansions defines, of the expansions not loaded."""
        loaded = {d.resolve() for d in self.dirs}
        ids = set()
        for exp in expansions_of(self.dirs[0]).values():
            if exp.resolve() not in loaded and (exp / folder).is_dir():
                for f in (exp / folder).glob("*.y*ml"):
                    m = re.search(
                        r"^id:\s*([a-z][a-z0-9_]*)\s*$", f.read_text(encoding="utf-8", errors="replace"), re.M
                    )
                    if m:
                        ids.add(m[1])
        return frozenset(ids)

    def merge_rules(self, rules_layer: int, data: PosDict, rules_schema: dict) -> None:
        for m in sorted(self.manifests.values(), key=lambda m: m.layer):
            fragment = m.data.get("rules")
            if m.layer < rules_layer or not isinstance(fragment, PosDict):
                continue
            check = PosDict(rules=without_nulls(fragment))
            check.pos, check.key_pos, check.val_pos = m.data.pos, m.data.key_pos, m.data.val_pos
            before = len(self.L.errors)
            self.L.check_schema(m.path, check, "pack", {"type": "object", "properties": {"rules": rules_schema}})
            if len(self.L.errors) == before:
                self.changes += merge_rules(data, fragment, m.path, m.id)

    def change_deck(self, deck_layer: int, loader: Loader, entries: list, decks: dict, card_types: dict) -> None:
        for m in sorted(self.manifests.values(), key=lambda m: m.layer):
            spec = m.data.get("deck")
            if m.layer < deck_layer or not isinstance(spec, PosDict):
                continue
            have = {e.uid for e in entries}
            gone = []
            removes = spec.get("remove") or []
            for i, uid in enumerate(removes):
                if uid in have:
                    gone.append(uid)
                else:
                    loader.err(
                        m.path,
                        pos_of(removes, i),
                        "E121",
                        f"pack '{m.id}' removes deck card {uid}, which the deck does not have",
                    )
            if gone:
                entries[:] = [e for e in entries if e.uid not in gone]
                for name in decks:
                    decks[name] = [u for u in decks[name] if u not in gone]
                self.changes.append(f"{m.id}: deck copies {', '.join(map(str, gone))} removed")
            adds = spec.get("add")
            if isinstance(adds, list) and adds:
                wrapper = PosDict(cards=adds)
                wrapper.pos, wrapper.key_pos, wrapper.val_pos = spec.pos, {}, dict(spec.val_pos)
                wrapper.val_pos["cards"] = wrapper.val_pos.get("add", spec.pos)
                new, _ = loader.load_deck(m.path, wrapper, card_types, taken={e.uid for e in entries})
                by_uid = {c.get("id"): c for c in adds if isinstance(c, dict)}
                for e in new:
                    wanted = by_uid.get(e.uid, {}).get("decks")
                    for name in wanted or list(decks):
                        if name in decks:
                            decks[name].append(e.uid)
                        else:
                            loader.err(
                                m.path,
                                pos_of(by_uid[e.uid], "decks"),
                                "E121",
                                f"deck card {e.uid} joins deck '{name}', which the deck does not define",
                                did_you_mean(name, decks) or "decks: " + ", ".join(decks),
                            )
                entries += new
                if new:
                    self.changes.append(f"{m.id}: deck copies {', '.join(str(e.uid) for e in new)} added")

    def infos(self) -> list[PackInfo]:
        out = []
        for layer, d in enumerate(self.dirs):
            m = self.manifests.get(layer)
            data = m.data if m is not None else {}
            extends = data.get("extends") or []
            out.append(
                PackInfo(
                    self.ids[layer],
                    str(data.get("name") or d.name),
                    str(d),
                    str(data.get("version") or ""),
                    str(data.get("description") or ""),
                    tuple(x for x in extends if isinstance(x, str)),
                )
            )
        return out


def load_content(paths=None, errors: list[ContentError] | None = None) -> Content:
    """Load and compile content packs, layered in order (default: the full bundled game). Raises ContentErrors.

    Each folder is one pack; a pack's pack.yaml (if any) says what it changes of the packs before
    it (interpreter/content/manifest.py, docs/modding.md). Given `errors`, it raises nothing: the
    errors found are added to that list and what loaded is returned (a file with an error in part
    or not at all; no rules.yaml: empty rules), for `fengsheng describe`, which shows what it can.
    """
    dirs = [Path(p) for p in (paths or default_packs())]
    L = Loader()
    for d in dirs:
        if not d.is_dir():
            L.err(d, None, "E100", "not a content directory")
    if L.errors and errors is None:
        raise ContentErrors(L.errors)
    packs = _Packs(L, dirs)
    origins: dict[tuple[str, str], Origin] = {}
    # card names must be known before any code compiles (【...】 names in effects)
    card_files = _read_kind(L, dirs, "cards", "card")
    cards = packs.resolve("cards", card_files)
    for _, _, data in card_files:
        if data["id"] in packs.removed["cards"] and isinstance(data.get("name"), str):
            L.removed_names[data["name"]] = packs.removed_by[data["id"]]
    for _, _, data in cards.values():
        if isinstance(data.get("name"), str):
            L.card_names[data["name"]] = data["id"]
    names = tuple(sorted(L.card_names.items()))
    card_types: dict[str, CardType] = {}
    for ident, (layer, f, data) in cards.items():
        card_types[ident] = L.build(f, data, "card", names)
        origins["card", ident] = packs.origin(layer, f, data)
    tasks: dict[str, SecretTask] = {}
    for ident, (layer, f, data) in packs.resolve(
        "secret_tasks", _read_kind(L, dirs, "secret_tasks", "secret_task")
    ).items():
        tasks[ident] = L.build(f, data, "secret_task", names)
        origins["secret_task", ident] = packs.origin(layer, f, data)
    roles: dict[str, Role] = {}
    for ident, (layer, f, data) in packs.resolve("roles", _read_kind(L, dirs, "roles", "role")).items():
        roles[ident] = L.build(f, data, "role", names)
        origins["role", ident] = packs.origin(layer, f, data)
    removed_kinds = packs.removed["cards"]
    rules_layer, rules_file = _last_layer(dirs, "rules.yaml")
    deck_layer, deck_file = _last_layer(dirs, "deck.yaml")
    rules: Rules | None = None
    rules_data = None
    identities: dict[str, Identity] = {}
    if rules_file is None:
        L.err(dirs[-1] / "rules.yaml", None, "E100", "the content has no rules.yaml")
    else:
        rules_data = L.read(rules_file, "rules")
        if rules_data is not None:
            packs.merge_rules(rules_layer, rules_data, _rules_fragment_schema())
            rules, identities = L.load_rules(rules_file, rules_data)
    deck: list[DeckEntry] = []
    decks: dict[str, list[int]] = {}
    if deck_file is None:
        L.err(dirs[-1] / "deck.yaml", None, "E100", "the content has no deck.yaml")
    else:
        data = L.read(deck_file, "deck")
        if data is not None:
            deck, decks = L.load_deck(deck_file, data, card_types, skip_kinds=removed_kinds)
            packs.change_deck(deck_layer, L, deck, decks, card_types)
            if rules is not None and rules_data is not None:
                for spec in rules_data.get("decks") or []:
                    name = spec.get("deck") if isinstance(spec, dict) else None
                    if isinstance(name, str) and name not in decks:
                        L.err(
                            rules_file,
                            pos_of(spec, "deck"),
                            "E121",
                            f"rules.yaml uses deck '{clip(name)}', which deck.yaml does not define",
                            _suggest(name, decks),
                        )
    save_parse_cache()  # the effect texts parsed, for the next run (language/parser.py)
    L.check_marks(whole_pack=True)
    if errors is not None:
        errors += L.errors
        rules = rules or Rules("", 0, 0, 0, {}, [])
    elif L.errors:
        raise ContentErrors(L.errors)
    assert rules is not None  # a missing or unreadable rules.yaml is an error above
    return Content(
        rules=rules,
        card_types=card_types,
        deck=deck,
        decks=decks,
        identities=identities,
        tasks=tasks,
        roles=roles,
        warnings=L.warnings,
        packs=packs.infos(),
        origins=origins,
        changes=packs.changes,
    )


def _last_layer(dirs, name) -> tuple[int, Path | None]:
    found: tuple[int, Path | None] = (0, None)
    for layer, d in enumerate(dirs):
        f = Path(d) / name
        if f.is_file():
            found = (layer, f)
    return found


@cache
def _rules_fragment_schema() -> dict:
    return rules_fragment_schema(schema("rules"))


def kind_of_file(path: Path) -> str | None:
    """Which content kind a file is, from its name and folder."""
    name = path.name
    if name.endswith(".scenario.yaml"):
        return "scenario"
    if name in ("rules.yaml", "rules.yml"):
        return "rules"
    if name in ("deck.yaml", "deck.yml"):
        return "deck"
    if name == "pack.yaml":
        return "pack"
    return {"cards": "card", "roles": "role", "secret_tasks": "secret_task"}.get(path.parent.name)


def validate_paths(paths) -> list:
    """Check content packs (directories) and single files; returns every ContentError found (warnings
    too: those with level "warning", W5xx; they do not stop the content from loading).

    A single file is checked on its own against the bundled content (so a card
    name in an effect must exist in the bundled cards or in the file itself).
    """
    errors = []
    dirs = [Path(p) for p in paths if Path(p).is_dir()]
    files = [Path(p) for p in paths if not Path(p).is_dir()]
    if dirs:
        try:
            errors += load_cached(dirs).warnings  # kept: `validate` reports what it loaded without loading it twice
        except ContentErrors as e:
            errors += e.errors
    for f in files:
        kind = kind_of_file(f)
        L = Loader()
        if kind is None:
            try:
                with open(f, "rb") as file:
                    binary = b"\0" in file.read(8192)
            except OSError as e:
                L.err(f, None, "E100", f"cannot read the file: {e.strerror}")
                binary = None
            if binary:
                L.err(
                    f,
                    None,
                    "E102",
                    "this is a binary file, not YAML text",
                    "give validate a pack folder or a .yaml file",
                )
            elif binary is not None:
                L.err(
                    f,
                    None,
                    "E105",
                    "cannot tell what kind of content this file is",
                    "put it in cards/, roles/ or secret_tasks/, or name it rules.yaml, deck.yaml or *.scenario.yaml",
                )
            errors += L.errors
            continue
        for cf in _files([BUNDLED_CONTENT], "cards"):
            try:
                name, ident = _name_and_id(cf.read_text(encoding="utf-8"))
                L.card_names[name] = ident
            except Exception:  # the bundled content is validated on its own
                pass
        data = L.read(f, kind)
        if data is not None:
            if kind == "card":
                if isinstance(data.get("name"), str) and isinstance(data.get("id"), str):
                    L.card_names[data["name"]] = data["id"]
                L.load_card(f, data)
            elif kind == "role":
                L.load_role(f, data)
            elif kind == "secret_task":
                L.load_task(f, data)
            elif kind == "rules":
                L.load_rules(f, data)
            elif kind == "deck":
                try:
                    types = load_cached().card_types
                except ContentErrors:
                    types = {}
                L.load_deck(f, data, types)
        L.check_marks(whole_pack=False)  # one file: its marks may be set in other files
        errors += L.errors + L.warnings
    return errors


@lru_cache(maxsize=1024)
def _name_and_id(text: str) -> tuple:
    """A card file's name and id, parsed once per text in a process (validate_paths reads them for every file)."""
    d = load_yaml(text)
    return d["name"], d["id"]


_cache: dict = {}


def load_cached(paths=None) -> Content:
    """load_content, once per process for the same folders (by their absolute paths: `jia_gui` in two
    working directories is two packs). Edits made to the files after the first load are not seen."""
    key = tuple(str(Path(p).resolve()) for p in (paths or default_packs()))
    if key not in _cache:
        _cache[key] = load_content(paths)
    return _cache[key]
