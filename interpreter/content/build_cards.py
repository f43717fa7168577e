"""The build stage for cards, secret tasks and victories: a file's checked data → typed content objects
(model/content.py), each code unit compiled by the units stage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..catalogue import VICTORY_WINS
from ..model.content import TIMINGS, VICTORY_CHECKS, CardType, CardUse, SecretTask, Victory
from .checks import defer_skill_refs, warn_never_sends
from .units import Units, card_env, victory_env
from .yamlpos import PosDict

# idle points whose uses replace sending an intel: an effect there that never sends leaves the player asked again
SEND_REPLACING = ("send_start", "need_send")


def build_card(u: Units, path: Path, data: Any) -> CardType:
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
    refs: list[tuple[str, str, Any, int, int]] = []
    for i, use in enumerate(data.get("uses") or []):
        if not isinstance(use, PosDict) or use.get("timing") not in TIMINGS:
            continue
        cu = _card_use(u, path, data, ctype, use, i, refs)
        if cu is not None:
            ctype.uses.append(cu)
            ctype.uses_by_timing.setdefault(cu.timing, []).append(cu)
    # the skills its code names (its user may hold any role): checked once the whole content is built, as a rule
    # skill's (a shared `effect` is compiled with each use: once)
    defer_skill_refs(u, None, list(dict.fromkeys(refs)), ())
    return ctype


def _card_use(
    u: Units, path: Path, data: Any, ctype: CardType, use: PosDict, i: int, refs: list[tuple[str, str, Any, int, int]]
) -> CardUse | None:
    """The card's i-th use; None if it has no effect, or its effect does not compile (reported). The skills its code
    names go to `refs`."""
    timing = use["timing"]
    eff_container = use if "effect" in use else data
    if "effect" not in eff_container:
        u.sink.err(path, use.pos, "E112", "this use has no effect, and the card gives no shared `effect`")
        return None
    dt = ctype.data_keys
    target = u.compile(path, use, "target", card_env(timing, False, True), timing, "players", data_types=dt)
    cond = u.compile(path, use, "condition", card_env(timing, False), timing, "bool", data_types=dt)
    effect = u.compile(path, eff_container, "effect", card_env(timing, "target" in use), timing, data_types=dt)
    refs += target.skill_refs + cond.skill_refs + effect.skill_refs
    if effect.fn is None:
        return None
    if timing in SEND_REPLACING:
        warn_never_sends(u.sink, path, eff_container, effect.calls, f"this use of {ctype.label()}", timing)
    per_copy = "this_card" in target.names_read | cond.names_read
    cu = CardUse(ctype, timing, target.fn, cond.fn, effect.fn, i, per_copy=per_copy)
    cu.target_source, cu.condition_source = use.get("target"), use.get("condition")  # for describe
    cu.effect_source = use.get("effect")
    return cu


def build_victories(u: Units, path: Path, container: Any, key: str) -> list[Victory]:
    out = []
    for v in container.get(key) or []:
        if not isinstance(v, PosDict) or v.get("check") not in VICTORY_CHECKS:
            continue
        r = u.compile(path, v, "condition", victory_env(v["check"]), v["check"], "bool")
        defer_skill_refs(u, None, r.skill_refs, ())  # (has_skill: checked once the whole content is built)
        if r.fn is not None:
            out.append(
                Victory(
                    v["check"],
                    r.fn,
                    bool(v.get("dead_may_win", False)),
                    v.get("condition", ""),
                    r.state_reads,
                    v.get("wins", "camp") if v.get("wins") in VICTORY_WINS else "camp",
                )
            )
    return out


def build_task(u: Units, path: Path, data: Any) -> SecretTask:
    return SecretTask(
        data.get("id", path.stem),
        data.get("name", "?"),
        data.get("text", ""),
        build_victories(u, path, data, "victory"),
        data.get("bot"),
    )
