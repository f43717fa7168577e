"""The build stage for roles: a role file's checked data → a Role with its skills (model/content.py).

A skill is one moment (its kind, its timing, trigger or check) or several (``moments:``), each built as a
Skill sharing the skill's id, name, text, limit and costs; its code units compiled by the units stage.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from ..catalogue import FACE_DOWN_USES
from ..model.content import TIMINGS, TRIGGER_EVENTS, Role, Skill
from ..suggest import did_you_mean
from .build_cards import SEND_REPLACING
from .checks import defer_skill_refs, warn_never_sends
from .units import Units, skill_env
from .yamlpos import PosDict, key_pos_of, pos_of

SkillRefs = list[tuple[str, str, Any, int, int]]  # (name, primitive, path, line, col): gain_skill(self, "名") ...


def build_role(u: Units, path: Path, data: Any) -> Role:
    role = Role(
        data.get("id", path.stem),
        data.get("name", "?"),
        data.get("title", ""),
        data.get("gender", "male"),
        bool(data.get("hidden", False)),
        version=data.get("version", ""),
    )
    skill_refs: SkillRefs = []
    role.skills = build_skills(u, path, data, role, skill_refs)
    defer_skill_refs(u, role, skill_refs, role.skills)
    if not role.hidden:
        _warn_flips_up_face_up(u, path, data)
    return role


def _warn_flips_up_face_up(u: Units, path: Path, data: Any) -> None:
    """W116: `flips_up: true` (usable only while its role is face down) on a role that is not hidden (it starts face
    up): the skill is never offered unless a card or skill turns the role face down first — `hidden: true` forgot?"""
    for sk in data.get("skills") or []:
        if isinstance(sk, PosDict) and sk.get("flips_up") is True:
            u.sink.warn(
                path,
                key_pos_of(sk, "flips_up"),
                "W116",
                f"the skill {sk.get('name', '?')} has `flips_up: true` (usable only while its role is face down), but "
                "the role is not hidden: it starts face up, so the skill is offered only once something turns it "
                "face down",
                "a hidden role (the mask icon) is `hidden: true`; a skill of a face-up role needs no `flips_up`",
            )


def build_rule_skills(u: Units, path: Path, data: Any) -> tuple[Skill, ...]:
    """The rules' `skills:` (rule skills: every seat holds them, whatever its role), built as a role's skills are,
    with the same checks; each marked `of_rules`, with no role. What their code names by gain_skill, lose_skill,
    skill_yang or has_skill is a rule skill or a role's (E121 if no skill of the content is so named, once the
    content is built: checks.check_skill_refs)."""
    skill_refs: SkillRefs = []
    skills = build_skills(u, path, data, None, skill_refs)
    for sk in skills:
        for m in sk.moments or (sk,):
            m.of_rules = True
    defer_skill_refs(u, None, skill_refs, skills)
    return tuple(skills)


def build_skills(u: Units, path: Path, data: Any, role: Role | None, skill_refs: SkillRefs) -> list[Skill]:
    """The skills of `data["skills"]` (a role file's, or the rules' with `role` None), each checked and compiled."""
    built_skills: list[Skill] = []
    skill_ids: set[str] = set()
    entries = data.get("skills") or []
    if not isinstance(entries, list):
        return built_skills  # (the schema check reported it)
    for i, sk in enumerate(entries):
        if not isinstance(sk, PosDict):
            continue
        pos = pos_of(entries, i)
        _check_id(u, path, sk, skill_ids, role is None)
        _warn_no_text(u, path, sk)
        if "moments" not in sk:
            if "kind" not in sk and (id(sk), "kind") not in u.sink.dropped:
                u.sink.err(
                    path,
                    sk.pos,
                    "E112",
                    "missing key 'kind'",
                    "active, triggered, passive or victory; or `moments:`, a list of the skill's moments",
                )
            built = _moment(u, path, role, sk, sk, i, pos, skill_refs)
            if built is not None:
                built_skills.append(built)
            continue
        moments = _moments(u, path, role, sk, i, skill_refs)
        if moments:
            for m in moments:
                m.moments = moments
            built_skills.append(moments[0])
    return built_skills


def _warn_no_text(u: Units, path: Path, sk: PosDict) -> None:
    """W117: a skill without `text:` (or an empty one). It plays, but a person at the table reads only its name
    (【name】 with nothing after it) in the role's panel and in `h`, and `describe`'s 原文 is empty: the text is
    what players read, and what a designer checks the code against."""
    text = sk.get("text")
    if isinstance(text, str) and text.strip():
        return
    u.sink.warn(
        path,
        key_pos_of(sk, "text") if "text" in sk else sk.pos,
        "W117",
        f"the skill {sk.get('name', '?')} has no text: players at the table read only its name",
        "write what it does as the role card prints it (`text:`); `fengsheng describe` prints a text generated "
        "from its code to start from",
    )


def _check_id(u: Units, path: Path, sk: PosDict, skill_ids: set[str], of_rules: bool = False) -> None:
    """E120: two skills of the role (or of the rules) with one id."""
    sid = sk.get("id")
    if isinstance(sid, str) and sid in skill_ids:
        u.sink.err(
            path,
            pos_of(sk, "id"),
            "E120",
            f"the {'rules have' if of_rules else 'role has'} two skills with the id '{sid}'",
            "each skill has its own id (its uses, its limit and its statistics go by it); one skill at "
            "several moments is one entry with `moments:`",
        )
    if isinstance(sid, str):
        skill_ids.add(sid)


def _one_or_more(value: Any) -> tuple:
    """`timing:` / `trigger:` is one name or a list of names."""
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else (value,)


def _moment(
    u: Units, path: Path, role: Role | None, sk: Any, own: Any, i: int, pos: Any, skill_refs: SkillRefs
) -> Skill | None:
    """One skill, or one moment of a skill with `moments:` (sk: the skill's keys with the moment's over them;
    own: the mapping the moment's own keys were read from, for what the schema check took out)."""
    kind = sk.get("kind")
    if kind not in ("active", "triggered", "passive", "victory"):
        return None  # missing or unknown: the schema check reported it
    timings, triggers = _one_or_more(sk.get("timing")), _one_or_more(sk.get("trigger"))
    if not _has_its_moment(u, path, sk, own, kind, timings, triggers, pos):
        if not _declared_style(triggers) or not u.alone:
            _check_code(u, path, sk, kind)
        return None
    events = timings or triggers
    unit = (events if len(events) > 1 else events[0] if events else None) or sk.get("check") or kind
    env = skill_env(sk, u.declared)
    cond = u.compile(path, sk, "condition", env, unit, "bool", guarded=True)
    effect = u.compile(path, sk, "effect", env, unit)
    skill_refs += cond.skill_refs + effect.skill_refs
    replacing = [t for t in SEND_REPLACING if t in timings]
    if kind == "active" and replacing and effect.fn is not None:
        warn_never_sends(u.sink, path, sk, effect.calls, f"the skill {sk.get('name', '?')}", replacing[0])
    _check_face_down(u, path, sk)
    limit = sk.get("limit") or {}
    return Skill(
        sk.get("id", f"skill{i}"),
        sk.get("name", "?"),
        sk.get("text", ""),
        cast(str, kind),  # the schema requires it (a file that breaks the schema does not load)
        timings or None,
        triggers or None,
        cond.fn,
        effect.fn,
        limit.get("per"),
        limit.get("times", 1),
        bool(sk.get("flips_up", False)),
        bool(sk.get("optional", True)),
        role,
        sk.get("condition", ""),
        sk.get("check"),
        sk.get("effect", ""),
        cond.guard if kind == "triggered" else None,
        bool(sk.get("switch", False)),
        bool(sk.get("persistent", False)),
        bool(sk.get("dormant", False)),
        bot=sk.get("bot"),
        while_face_down=sk.get("while_face_down") if sk.get("while_face_down") in FACE_DOWN_USES else None,
    )


def _check_face_down(u: Units, path: Path, sk: Any) -> None:
    """E115: `flips_up: true` (its use turns the role face up: it works only by revealing the role) and
    `while_face_down:` (it works with the role still hidden) say opposite things of one skill."""
    if sk.get("flips_up") is True and sk.get("while_face_down") in FACE_DOWN_USES:
        u.sink.err(
            path,
            key_pos_of(sk, "while_face_down"),
            "E115",
            f"the skill {sk.get('name', '?')} has both `flips_up: true` (using it turns its role face up) and "
            "`while_face_down:` (it works while its role stays face down)",
            "keep one: `flips_up: true` for a skill whose use reveals the role (its cost), or `while_face_down: "
            "silent|announced` for one that works hidden (docs/language.md, Skills of a face-down role); two "
            "such moments of one role are two skills",
        )


def _has_its_moment(
    u: Units, path: Path, sk: Any, own: Any, kind: str, timings: tuple, triggers: tuple, pos: Any
) -> bool:
    """Whether the skill says when it happens as its kind needs (an active skill's timing, a triggered one's
    trigger, a victory's check); E112 if not (unless the schema check took a misspelt one out, and said so)."""
    misspelt = (id(own), "timing" if kind == "active" else "trigger") in u.sink.dropped
    if kind == "active" and (not timings or any(t not in TIMINGS for t in timings)):
        if not misspelt:
            u.sink.err(
                path,
                pos,
                "E112",
                "an active skill needs `timing:` (the idle point where it is used)",
                "timings: " + ", ".join(TIMINGS),
            )
        return False
    if kind == "triggered" and triggers and not _declared_triggers(u, path, sk, own, triggers):
        return False  # (reported, or checked alone; its code is checked there)
    known = u.declared.events
    if kind == "triggered" and (not triggers or any(t not in TRIGGER_EVENTS and t not in known for t in triggers)):
        if not misspelt:
            u.sink.err(
                path,
                pos,
                "E112",
                "a triggered skill needs `trigger:` (the event it reacts to, or a list)",
                "events: " + ", ".join(TRIGGER_EVENTS),
            )
        return False
    if kind == "victory" and sk.get("check") not in ("declare", "co_win"):
        if (id(own), "check") not in u.sink.dropped:
            u.sink.err(path, pos, "E112", "a victory skill needs `check:` (declare or co_win)")
        return False
    return True


def _moments(u: Units, path: Path, role: Role | None, sk: PosDict, i: int, skill_refs: SkillRefs) -> tuple[Skill, ...]:
    """A skill with several moments (`moments:`): one Skill per moment, sharing the skill's id, name, text,
    limit and costs (so its uses, its limit, its state and its statistics are one skill's). A moment gives
    its kind, its timing/trigger/check, and may give its own condition, effect and optional; the skill's
    condition and effect are those of every moment that gives none."""
    moments = sk.get("moments")
    if not isinstance(moments, list):
        return ()  # the schema check reported it
    for key in ("kind", "timing", "trigger", "check"):
        if key in sk:
            u.sink.err(
                path,
                key_pos_of(sk, key),
                "E114",
                f"a skill with `moments:` gives `{key}:` in each moment, not on the skill",
                "move it into the moment it belongs to",
            )
    first_error = len(u.sink.errors)
    out: list[Skill] = []
    seen: dict[str, int] = {}
    for j, m in enumerate(moments):
        if not isinstance(m, PosDict):
            continue
        mpos = pos_of(moments, j)
        if m.get("kind") == "passive":
            u.sink.err(
                path,
                key_pos_of(m, "kind"),
                "E114",
                "a moment is active, triggered or victory",
                "a standing rule (锁定技) is a triggered moment with optional: false",
            )
            continue
        merged = _merged(sk, m)
        for when in (*_one_or_more(m.get("timing")), *_one_or_more(m.get("trigger")), m.get("check")):
            if when is not None and seen.setdefault(str(when), j) != j:
                u.sink.err(
                    path,
                    mpos,
                    "E114",
                    f"two moments of the skill {sk.get('name', '?')} are both at `{when}`",
                    "one moment per timing or event: put both in one moment (a list of triggers or timings)",
                )
        built = _moment(u, path, role, merged, m, i, mpos, skill_refs)
        if built is not None:
            out.append(built)
    _say_once(u, first_error)
    if len(out) != len([m for m in moments if isinstance(m, PosDict)]):
        return ()  # a moment is wrong (and reported): the skill is not built
    return tuple(out)


def _merged(sk: PosDict, m: PosDict) -> PosDict:
    """A moment's keys over its skill's (but `moments:`), with their positions."""
    merged = PosDict({k: v for k, v in sk.items() if k != "moments"})
    merged.update(m)
    merged.pos = m.pos
    merged.key_pos = {**sk.key_pos, **m.key_pos}
    merged.val_pos = {**sk.val_pos, **m.val_pos}
    return merged


def _say_once(u: Units, first_error: int) -> None:
    """The skill's shared condition and effect are compiled once per moment: each problem said once."""
    unique: list = []
    for e in u.sink.errors[first_error:]:
        if all(
            (e.line, e.col, e.code, e.message) != (x.line, x.col, x.code, x.message) or e.path != x.path for x in unique
        ):
            unique.append(e)
    u.sink.errors[first_error:] = unique


def _declared_triggers(u: Units, path: Path, sk: Any, own: Any, triggers: tuple) -> bool:
    """Whether each trigger that is no built-in event (a Chinese name: the schema took the rest) is an event the
    rules declare (E113 with the closest names if not); and, for a skill reacting to several declared events,
    that a field they share has one type (E113). Checked alone (`validate` of one file), a role's declared
    events are not known: its skill is not built, and nothing is said (validate the pack's folder)."""
    events = u.declared.events
    unknown = [t for t in triggers if t not in TRIGGER_EVENTS and t not in events]
    if unknown and u.alone:  # its code is checked but for the names its events would give it
        u.compile(path, sk, "condition", skill_env(sk), "triggered", "bool", skip_codes={"E301", "E304"})
        u.compile(path, sk, "effect", skill_env(sk), "triggered", skip_codes={"E301", "E304"})
        return False
    where = own if "trigger" in own else sk
    for t in unknown:
        names = list(u.declared.trigger_events())
        u.sink.err(
            path,
            _trigger_pos(where, t),
            "E113",
            f"unknown trigger {t!r}: no built-in event and not one the rules declare",
            did_you_mean(t, names)
            or (
                "declared events: " + ", ".join(events)
                if events
                else "declare it in the rules' `events:` (rules.yaml, or a pack's rules:)"
            ),
        )
    if unknown:
        return False
    seen: dict[str, tuple[str, str]] = {}
    for t in triggers:
        for fname, ftype in events[t].fields if t in events else ():
            other = seen.setdefault(fname, (t, ftype))
            if other[1] != ftype:
                u.sink.err(
                    path,
                    _trigger_pos(where, t),
                    "E113",
                    f"field '{fname}' is {ftype} in event {t!r} but {other[1]} in {other[0]!r}",
                    "a skill reads a field of its events by one name: give the field one type, or make two skills",
                )
                return False
    return True


def _declared_style(triggers: tuple) -> bool:
    """Does the skill name an event no built-in one (a name of the kind the rules declare)?"""
    return any(isinstance(t, str) and t not in TRIGGER_EVENTS for t in triggers)


def _trigger_pos(where: Any, name: str) -> Any:
    value = where.get("trigger")
    if isinstance(value, list) and name in value:
        return pos_of(value, value.index(name))
    return pos_of(where, "trigger")


def _check_code(u: Units, path: Path, sk: Any, kind: str) -> None:
    """Check the condition and effect of a skill that cannot be built (its timing, trigger or check is
    missing or misspelt, and reported), so that one mistake does not hide the others: every error but
    those that depend on the timing (E304)."""
    env = skill_env(sk)
    u.compile(path, sk, "condition", env, kind, "bool", skip_codes={"E304"})
    u.compile(path, sk, "effect", env, kind, skip_codes={"E304"})
