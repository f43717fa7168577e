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


def check_skill_refs(sink: Diagnostics, role: Role, refs: list[tuple[str, Any, int, int]]) -> None:
    """E121: a skill the role's code names (gain_skill(self, "名") ...) that the role does not have."""
    own = {n for sk in role.skills for n in (sk.name, sk.id)}
    for name, rpath, line, col in refs:
        if name not in own:
            sink.error_at(
                rpath,
                line,
                col,
                "E121",
                f'the role {role.name} has no skill "{clip(name)}"',
                did_you_mean(name, [sk.name for sk in role.skills])
                or "its skills: " + "、".join(sk.name for sk in role.skills),
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
