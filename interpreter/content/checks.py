"""The checks stage: what is wrong only between things, found once each is built.

A mark read as one kind of value where every ``set_mark`` gives it another, or that nothing sets (W301); a
use in place of sending an intel whose effect never sends (W502); a skill named by a role's code that the role
does not have, and a deck the rules use that deck.yaml does not define (E121). Each reports to the sink.
"""

from __future__ import annotations

from typing import Any

from ..language import types as T
from ..language.builtins import TYPED_READS
from ..model.content import Role
from ..snippet import clip
from ..suggest import did_you_mean
from .diagnostics import Diagnostics
from .units import Mark
from .yamlpos import pos_of


def check_marks(sink: Diagnostics, marks: list[Mark], whole_pack: bool) -> None:
    """W301: a mark read as one kind of value where every set_mark of its key gives it another (the typed read
    then yields 0 or none), or, in a whole pack, a mark no effect sets (a typo in its key?)."""
    sets: dict[str, list[Mark]] = {}
    for m in marks:
        if m[2] == "set":
            sets.setdefault(m[0], []).append(m)
    for key, kind, how, path, line, col in marks:
        if how != "read":
            continue
        given = {m[1] for m in sets.get(key, []) if m[1] not in (T.ANY, T.NONE)}
        shown = clip(key)
        always = "0" if kind == T.INT else "none"
        if not given and key not in sets and whole_pack:
            sink.warn_at(
                path,
                line,
                col,
                "W301",
                f'no effect sets the mark "{shown}": this read is always {always}',
                did_you_mean(key, sets) or "set it with set_mark(p, key, value)",
            )
        elif given and kind not in given:
            first = next(m for m in sets[key] if m[1] in given)
            reads = [TYPED_READS["mark"][t] for t in sorted(given) if t in TYPED_READS["mark"]]
            sink.warn_at(
                path,
                line,
                col,
                "W301",
                f'the mark "{shown}" is read here as {T.describe(kind)}, but set_mark gives it '
                f"{' or '.join(T.describe(t) for t in sorted(given))} ({first[3]}:{first[4]}): "
                f"this read is always {always}",
                "read it with " + " or ".join(f"{r}(...)" for r in reads) if reads else None,
            )


def warn_never_sends(
    sink: Diagnostics, path: Any, container: Any, calls: set[str], what: str, timing: str = "send_start"
) -> None:
    """W502: a use instead of sending an intel (send_start, need_send) whose effect (`container["effect"]`) calls
    neither `send` nor `use_card` is offered again and again (the player is asked until an intel is sent): a
    stuck game (E503)."""
    if calls & {"send", "use_card"}:
        return
    pos = pos_of(container, "effect")
    line, col = pos.map(1, 1) if pos is not None else (1, 1)
    sink.warn_at(
        path,
        line,
        col,
        "W502",
        f"{what} is used at {timing}, instead of sending an intel, but its effect never calls `send(...)`: "
        "the player is asked to send again, and may be offered it forever (a stuck game)",
        "end the effect with send(...), or use it at another timing",
    )


def defer_skill_refs(u: Any, role: Role | None, refs: list[tuple[str, str, Any, int, int]], own: Any) -> None:
    """The skills a role's code (`role`; None: the rules' skills' code, a card's or a victory's) names by
    gain_skill(self, "名") … or has_skill(anyone, "名") that are not its own (`own`: the role's skills, or the rules';
    none for a card): kept in u.skill_refs for check_skill_refs, once the whole content is known (a role's code may
    name a rule skill, a rule skill's a role's: Skills.skill_named finds both)."""
    names = {n for sk in own for n in (sk.name, sk.id)}
    whose = f"the role {role.name} has" if role is not None else "the rules have"
    rid = role.id if role is not None else None
    for name, func, rpath, line, col in refs:
        if name not in names:
            u.skill_refs.append((rid, whose, func, name, rpath, line, col))


def check_skill_refs(sink: Diagnostics, refs: list, roles: dict, rule_skills: Any) -> None:
    """E121: a skill code names (units.Units.skill_refs: not its own) that it can never name in play. At run time a
    name is looked up among the seat's role's skills, then the rule skills (Skills.skill_named). So has_skill(self,
    "名") may name any role's skill or rule skill of the content (a rule skill's code runs for every seat, whatever
    its role); gain_skill, lose_skill and skill_yang of one's own a rule skill in a role's code (its seat holds that
    role), any role's skill or rule skill in a rule skill's code. Refs of a role no longer in the content (removed
    by a pack) are not checked."""
    role_skills = [sk for r in roles.values() for sk in r.skills]
    rules = list(rule_skills)
    every = role_skills + rules
    every_names = {n for sk in every for n in (sk.name, sk.id)}
    rule_names = {n for sk in rules for n in (sk.name, sk.id)}
    for rid, whose, func, name, rpath, line, col in refs:
        if rid is not None and rid not in roles:
            continue
        if func == "has_skill" or rid is None:
            if name in every_names:
                continue
            names = [sk.name for sk in every]
            said = f'no skill of the content is called "{clip(name)}" (has_skill names a role\'s skill or a rule skill)'
            if func != "has_skill":
                said = (
                    f"{whose} no skill \"{clip(name)}\", nor does any role ({func} in a rule skill's or a card's code "
                    "names a rule skill or a role's)"
                )
        else:
            if name in rule_names:
                continue
            own = roles[rid].skills
            names = [sk.name for sk in [*own, *rules]]
            said = f'{whose} no skill "{clip(name)}"' + (", nor is it a rule skill" if rules else "")
        sink.error_at(
            rpath,
            line,
            col,
            "E121",
            said,
            did_you_mean(name, names)
            or (
                "a skill is named by its name or its id"
                if func == "has_skill" or rid is None
                else "skills it may name: " + "、".join(dict.fromkeys(names))
            ),
        )


def check_rule_decks(sink: Diagnostics, rules_file: Any, rules_data: Any, decks: dict) -> None:
    """E121: a deck rules.yaml plays with (`decks:`) that deck.yaml does not define."""
    for spec in rules_data.get("decks") or []:
        name = spec.get("deck") if isinstance(spec, dict) else None
        if isinstance(name, str) and name not in decks:
            sink.err(
                rules_file,
                pos_of(spec, "deck"),
                "E121",
                f"rules.yaml uses deck '{clip(name)}', which deck.yaml does not define",
                did_you_mean(name, decks),
            )


def check_rule_skill_ids(
    sink: Diagnostics, rules_file: Any, rules_data: Any, rule_skills: Any, roles: dict, origins: dict | None = None
) -> None:
    """E120: a rule skill (the rules' `skills:`) with the id or the name of a role's skill. A skill is named by its id
    alone in the log (skill_used), an action, a question and a sample's re-deal (the skills of a re-dealt role go with
    it): one id for two skills a seat may hold at once would make them one. Code (gain_skill, lose_skill,
    skill_yang), a scenario's answer and the table's choice name a skill by its name, and Skills.skill_named looks in
    the role's first: a rule skill's code would change the role's skill of its name. The hint's prefix is the id of
    the pack that writes it (`origins`: ("rule_skill", id) -> Origin), so a modder reads his own."""
    entries = rules_data.get("skills") if isinstance(rules_data, dict) else None
    if not rule_skills or not isinstance(entries, list):
        return
    owners: dict[str, str] = {}
    named: dict[str, str] = {}  # a role's skill's name -> the role's
    for role in roles.values():
        for sk in role.skills:
            owners.setdefault(sk.id, role.name)
            named.setdefault(sk.name, role.name)
    for i, entry in enumerate(entries):
        sid = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(sid, str) and sid in owners:
            origin = (origins or {}).get(("rule_skill", sid))
            prefix = f"{origin.pack}_{sid}" if origin is not None else f"jia_gui_{sid}"
            sink.err(
                rules_file,
                pos_of(entry, "id") or pos_of(entries, i),
                "E120",
                f"the rule skill '{sid}' has the id of a skill of the role {owners[sid]}",
                "a skill is named by its id alone (the log, the actions, the questions), and every seat holds the "
                "rule skills beside its role's: give the rule skill an id no role's skill has (a prefix of the "
                f"house rule's, e.g. {prefix})",
            )
            continue  # (one mistake told once: a rule skill with a role's skill's id mostly has its name too)
        name = entry.get("name") if isinstance(entry, dict) else None
        if isinstance(name, str) and name in named:  # its id its own, its name a role's skill's
            sink.err(
                rules_file,
                pos_of(entry, "name") or pos_of(entries, i),
                "E120",
                f"the rule skill {clip(name)} has the name of a skill of the role {named[name]}",
                "a seat of that role would hold two skills of one name: code names a skill by its name (gain_skill, "
                "lose_skill, skill_yang: the role's would be taken), and so do a scenario's answer and the table's "
                "choice; give the rule skill a name of its own",
            )
