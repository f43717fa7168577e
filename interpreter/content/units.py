"""The compile-units stage: one piece of effect code in a content file (a card use's target, condition or
effect; a skill's condition or effect; a victory's condition) compiled by the effect language's compiler.

:meth:`Units.compile` returns a :class:`UnitResult`: the compiled function (None if absent or wrong) and
what the build and check stages want to know of the code (the context names it reads, the primitives it
calls, the parts of the game state it reads, its seat guard, the skills it names). Its errors and warnings
go to the diagnostics sink at their place in the file (a unit's line 1 is the line its text starts on);
the marks it sets and reads are recorded on the stage for the checks stage (W301, checks.check_marks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Compiling binds each primitive's implementation; importing the engine's primitives module registers them all.
from ..catalogue import EVENT_SET_VARS, TRIGGER_EVENTS, VICTORY_CHECKS, triggers_setting
from ..engine import primitives  # noqa: F401
from ..language.compiler import Compiler
from ..language.errors import LanguageError
from ..language.guard import seat_guard
from ..language.namespace import CONTEXT_VARS, context_env, field_var
from ..model.declared import NOTHING_DECLARED, Declared
from .diagnostics import ContentError, Diagnostics
from .manifest import KIND_FOLDERS, FilePos
from .precompiled import table as precompiled
from .yamlpos import pos_of

# the error of a name the rules do not declare (language/calls.py's _undeclared), and the table of the rules its
# declaration goes in
_DECLARED_TABLES = {"E310": "counters", "E311": "zones", "E312": "events"}
_UNDECLARED = re.compile(r'unknown \w+ "(.*)"\Z')

# Context variables each kind of code unit can read.
CARD_VARS = ["self", "current", "this_card"]
PENDING_VARS = ["pending", "holder", "sender"]
ANSWERED_VARS = ["answered", "answered_user", "answered_target"]  # the `respond` idle point: the card answered

# A mark set or read with its key written out: (key, kind, "set" or "read", path, line, col) (W301)
Mark = tuple[str, Any, str, Any, int, int]
# a skill named by code and not found among its own (units.Units.skill_refs): (the role's id, or None for a rule
# skill's code; who names it, for the message; the primitive; the name; path, line, col)
SkillRef = tuple[str | None, str, str, str, Any, int, int]


def card_env(timing: str, has_target: bool, for_target_rule: bool = False) -> dict:
    names = list(CARD_VARS)
    if has_target and not for_target_rule:
        names.append("target")
    if timing == "dying":
        names.append("dying")
    if timing in ("send_idle", "contest"):
        names += PENDING_VARS
    if timing == "respond":  # (the intel may be pending: a card used in the contest is answered there)
        names += ANSWERED_VARS + PENDING_VARS
    return context_env(names)


def skill_env(skill: dict, declared: Declared = NOTHING_DECLARED) -> dict:
    """The context variables of a skill's code: by its kind and timings; a triggered skill's declared events add
    their fields (build_roles checked that events sharing a field give it one type)."""
    env = _skill_names(skill)
    triggers = skill.get("trigger") if skill.get("kind") == "triggered" else None
    for t in triggers if isinstance(triggers, list) else [triggers]:
        if not isinstance(t, str):
            continue
        e = declared.events.get(t)
        built_in = TRIGGER_EVENTS.get(t)
        typed = e.fields if e is not None else built_in.typed if built_in is not None else ()
        for fname, ftype, *_ in typed:
            env[fname] = field_var(fname, ftype, f"'{t}'")
    listed = triggers if isinstance(triggers, list) else [triggers]
    if all(isinstance(t, str) and t in TRIGGER_EVENTS for t in listed):  # a declared event's fields: its own
        for var in EVENT_SET_VARS:  # none at each of its triggers: reading it is E304, not a skill that never fires
            if not any(t in triggers_setting(var) for t in listed):
                env.pop(var, None)
    return env


def _skill_names(skill: dict) -> dict:
    names = ["self", "current"]
    timing = skill.get("timing")
    timings = timing if isinstance(timing, list) else [timing]
    if skill.get("kind") == "triggered":
        names += ["subject", "this_card", "target", "used_as", "event"]
    if "dying" in timings:
        names.append("dying")
    if "send_idle" in timings or "contest" in timings or skill.get("kind") == "triggered":
        names += PENDING_VARS
    if "respond" in timings:
        names += ANSWERED_VARS + [v for v in PENDING_VARS if v not in names]
    return context_env(names)


def victory_env(check: str) -> dict:
    names = ["self", "current"]
    if VICTORY_CHECKS[check].subject:  # the checks about one player (catalogue.VICTORY_CHECKS)
        names.append("subject")
    return context_env(names)


@dataclass
class UnitResult:
    """One unit compiled: `fn` is None when the unit is absent or has an error (reported)."""

    fn: Any = None
    names_read: set[str] = field(default_factory=set)  # context variables the code reads (this_card: per copy)
    calls: set[str] = field(default_factory=set)  # the primitives it calls (W502: send or use_card)
    state_reads: Any = None  # the parts of the game state it reads (Compiler.state_reads)
    guard: Any = None  # an expression's seat guard (language/guard.py), if asked for and it compiled clean
    skill_refs: list[tuple[str, str, Any, int, int]] = field(default_factory=list)  # (name, primitive, path, line, col)


class Units:
    """The stage, for one load: the card names code may name (【...】), the card kinds a pack removed (their
    names get their own message), the marks every unit set and read."""

    def __init__(self, sink: Diagnostics, card_names: dict | None = None) -> None:
        self.sink = sink
        self.card_names: dict = card_names if card_names is not None else {}
        # card name -> the pack that removed that card kind, and that pack's layer
        self.removed_names: dict[str, tuple[str, int]] = {}
        self.marks: list[Mark] = []
        # skills named by code (has_skill(self, "名") …) that are not of its own role, or not rule skills in a rule
        # skill's code: checked against the whole content once it is built (checks.check_skill_refs)
        self.skill_refs: list[SkillRef] = []
        self.declared: Declared = NOTHING_DECLARED  # the rules' counters and events (build_declared.py)
        # the largest table the rules play (build_rules.most_players): a loop over players counts as it (W501); None:
        # no rules known (one file on its own), the catalogue's estimate
        self.most_players: int | None = None
        self.alone = False  # one file checked on its own (`validate FILE`): the rules it is played with are not known
        self.owner: tuple[str, Any] | None = None  # (kind, id) of the card, role or task being built: E305 names it
        self.owner_layer: int | None = None  # ... and the layer of the pack it comes from (None: not known)

    def compile(
        self,
        path: Any,
        container: Any,
        key: str,
        env: dict,
        unit: Any,
        expect: str | None = None,
        *,
        data_types: dict | None = None,
        skip_codes: set[str] | frozenset[str] = frozenset(),
        guarded: bool = False,
    ) -> UnitResult:
        """Compile `container[key]` as a program (`expect` None) or an expression of type `expect`, for the idle
        point or event `unit`, with the context variables of `env`; `guarded`: an expression's seat guard too. Errors
        of `skip_codes` are not reported (the unit is checked out of its context)."""
        text = container.get(key) if container is not None else None
        if not isinstance(text, str):
            return UnitResult()
        comp = Compiler(
            env,
            unit,
            self.card_names,
            data_types,
            precompiled(),
            counters=self.declared.counters,
            zones=self.declared.zones,
            events=self.declared.events,
            most_players=self.most_players,
        )
        if self.alone:  # one file on its own: the counters, zones and events its pack's rules declare are not known
            skip_codes = {*skip_codes, "E310", "E311", "E312", "E313", "E314"}
        pos = pos_of(container, key)
        if isinstance(pos, FilePos):  # code merged in from a pack.yaml (an identity's victory): its own file
            path = pos.path
        try:
            fn = comp.program(text) if expect is None else comp.expression(text, expect)
        except LanguageError as e:
            comp.errors += [e, *e.also]
            fn = None
        clean = not comp.errors
        guard = None
        if guarded and fn is not None and clean and comp.tree is not None:
            guard = seat_guard(comp.tree, env, CONTEXT_VARS)
        self._report(path, pos, comp, skip_codes)

        def at(line: int, col: int) -> tuple[int, int]:
            return pos.map(line, col) if pos is not None else (line, col)

        refs = [(name, func, path, *at(line, col)) for name, func, line, col in comp.skill_refs]
        self.marks += [(mkey, mtype, how, path, *at(line, col)) for mkey, mtype, how, line, col in comp.marks]
        return UnitResult(fn if clean else None, comp.names_read, comp.calls, comp.state_reads(), guard, refs)

    def _unread_rules(self) -> str | None:
        """A pack.yaml or rules.yaml that could not be read (E100-E104), where the counters, zones and events
        code names would be declared: "declare it" is then the wrong hint (it may be declared there)."""
        for e in self.sink.errors:
            if e.code in ("E100", "E101", "E102", "E103", "E104") and Path(e.path).name in ("pack.yaml", "rules.yaml"):
                return e.path
        return None

    def _report(self, path: Any, pos: Any, comp: Compiler, skip_codes: set[str] | frozenset[str]) -> None:
        """The unit's errors and warnings, at their place in the file."""
        for err in comp.errors:
            if err.code in skip_codes:
                continue
            name = err.message.removeprefix("unknown card name 【").removesuffix("】")
            if err.code == "E305" and name in self.removed_names:
                pack, at = self.removed_names[name]
                err.message = f"【{name}】 was removed by pack '{pack}'"
                err.hint = (
                    "the pack that removes a card kind also removes or replaces what names it (remove: / replace:)"
                )
                kind, ident = self.owner or ("", None)
                if self.owner_layer is not None and self.owner_layer == at:  # a file of the removing pack itself
                    err.hint = (
                        f"this file is in pack '{pack}', which removes the card kind (`remove: cards:`): name another "
                        "card here, or keep the card kind"
                    )
                elif self.owner_layer is not None and self.owner_layer > at:  # a pack layered above it
                    err.hint = (
                        f"this file is not below pack '{pack}', which removes the card kind, so it cannot remove it "
                        "(a pack removes only what the packs it extends define): name another card here, or keep "
                        "the card kind"
                    )
                elif kind in KIND_FOLDERS and isinstance(ident, str):  # the line to write, with the id to write
                    err.hint = (
                        f"the pack that removes a card kind also removes or replaces what names it: in pack "
                        f"'{pack}', `remove: {KIND_FOLDERS[kind]}: [{ident}]` (or list it under `replace:` with a "
                        "file of its own)"
                    )
            if err.code in ("E310", "E311", "E312") and (err.hint or "").startswith("declare it in the rules'"):
                unread = self._unread_rules()
                if unread is not None:  # declared there, maybe: what it declares is not known until it reads
                    err.hint = f"{unread} did not load (its error is reported): fix it first; what it declares counts"
            if err.code in _DECLARED_TABLES and (m := _UNDECLARED.match(err.message)):
                where = self.sink.wrong_declarations.get((_DECLARED_TABLES[err.code], m[1]))
                if where is not None:  # declared, with a mistake: "declare it" (or another name) would mislead
                    err.hint = f"it is declared at {where}, with a mistake reported there: fix that, and this name "
                    err.hint += "counts"
            if pos is None:
                self.sink.errors.append(ContentError(str(path), err.line, err.col, err.code, err.message, err.hint))
            else:
                line, col = pos.map(err.line, err.col)
                self.sink.error_at(path, line, col, err.code, err.message, err.hint)
        for w in comp.warnings:
            line, col = pos.map(w.line, w.col) if pos is not None else (w.line, w.col)
            self.sink.warn_at(path, line, col, w.code, w.message, w.hint)
