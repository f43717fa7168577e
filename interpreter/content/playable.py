"""What validates, plays: checks of a whole rule set that the engine would otherwise meet in the middle of
every game (issue 29). Each is an error at a position:

- E126: a player count whose identity table deals more identities that draw a secret task (神秘人) than the
  content has secret tasks (removing every task validated, then every game with a 神秘人 failed);
- E127: a deck too small for the player counts it is played at: fewer copies than every player's starting
  hand and one card more each (an empty deck validated; a 10-card deck at ten players stalled games);
- E128: stack timing with a fast idle point whose uses send an intel instead of the normal send
  (`send_start`, `need_send`): such a use answered while another is on the stack sends a second intel while
  the first is in transit (it failed 6 games in 30 at ten players).

The place is the pack that made the change when one did (its `remove:`, `deck:` or `rules: speeds:`), else
the rules' own entry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..model.content import Rules
from .diagnostics import Diagnostics
from .layering import Layers
from .yamlpos import key_pos_of, pos_of

__all__ = ["SENDING_IDLE_POINTS", "check_playable"]

SENDING_IDLE_POINTS = ("send_start", "need_send")
"""The idle points whose uses replace the normal send: one of them answered on a stack sends a second intel."""


def check_playable(
    sink: Diagnostics,
    layers: Layers,
    rules_file: Path,
    rules_data: Any,
    rules: Rules,
    identities: dict,
    tasks: dict,
    decks: dict[str, list[int]],
) -> None:
    _check_tasks(sink, layers, rules_file, rules_data, rules, identities, tasks)
    _check_decks(sink, layers, rules_file, rules_data, rules, decks)
    _check_speeds(sink, rules_file, rules_data, rules)


def _last_manifest_with(layers: Layers, *keys: str) -> tuple[Any, Any] | None:
    """(the manifest, the value) of the last pack whose pack.yaml has data at `keys` (e.g. remove, secret_tasks)."""
    for layer in sorted(layers.manifests, reverse=True):
        m = layers.manifests[layer]
        node: Any = m.data
        for k in keys:
            node = node.get(k) if isinstance(node, dict) else None
        if node:
            parent: Any = m.data
            for k in keys[:-1]:
                parent = parent.get(k)
            return m, pos_of(parent, keys[-1])
    return None


def _check_tasks(
    sink: Diagnostics, layers: Layers, rules_file: Path, rules_data: Any, rules: Rules, identities: dict, tasks: dict
) -> None:
    table = rules_data.get("identity_table") if isinstance(rules_data, dict) else None
    for n, row in sorted(rules.identity_table.items()):
        need = sum(count for iid, count in row.items() if iid in identities and identities[iid].takes_task)
        if need <= len(tasks):
            continue
        names = "、".join(sorted({identities[i].name for i in row if i in identities and identities[i].takes_task}))
        where = _last_manifest_with(layers, "remove", "secret_tasks")
        path, pos = (where[0].path, where[1]) if where else (rules_file, _row_pos(table, n))
        sink.err(
            path,
            pos,
            "E126",
            f"with {n} players the identity table deals {need} {names} a secret task each, "
            f"but the content has {len(tasks)} secret task{'s' if len(tasks) != 1 else ''}",
            "keep at least as many secret tasks as the identities that draw one (remove fewer), "
            "or take those identities out of the identity table",
        )
        return  # one count says it: the others follow


def _row_pos(table: Any, n: int) -> Any:
    if not isinstance(table, dict):
        return None
    for key in table:
        if str(key) == str(n):
            return key_pos_of(table, key)
    return None


def _check_decks(
    sink: Diagnostics, layers: Layers, rules_file: Path, rules_data: Any, rules: Rules, decks: dict[str, list[int]]
) -> None:
    specs = rules_data.get("decks") if isinstance(rules_data, dict) else None
    for i, (_lo, hi, name) in enumerate(rules.decks):
        if name not in decks:
            continue  # E121, reported by check_rule_decks
        need = hi * (rules.start_hand + 1)
        have = len(decks[name])
        if have >= need:
            continue
        where = _last_manifest_with(layers, "deck", "remove") or _last_manifest_with(layers, "remove", "cards")
        spec = specs[i] if isinstance(specs, list) and i < len(specs) else None
        path, pos = (where[0].path, where[1]) if where else (rules_file, pos_of(spec, "deck") if spec else None)
        sink.err(
            path,
            pos,
            "E127",
            f"deck '{name}' has {have} card{'s' if have != 1 else ''}, too few for {hi} players: a game at that "
            f"count needs at least {need} ({hi} starting hands of {rules.start_hand} and one card more each)",
            "keep more copies in that deck, or play it at fewer players (the rules' decks:)",
        )


def _check_speeds(sink: Diagnostics, rules_file: Path, rules_data: Any, rules: Rules) -> None:
    if rules.resolution != "stack":
        return
    speeds = rules_data.get("speeds") if isinstance(rules_data, dict) else None
    for point in SENDING_IDLE_POINTS:
        if rules.speeds.get(point) == "fast":
            sink.err(
                rules_file,
                pos_of(speeds, point),
                "E128",
                f"{point} cannot be fast: its uses send an intel instead of the normal send, and one answered "
                "while another is on the stack would send a second intel while the first is in transit",
                f"leave {point} slow (the default); make the uses that answer fast by their own idle points "
                "(send_idle, contest, dying, respond)",
            )
    if rules.speeds.get("respond") == "slow":
        sink.err(
            rules_file,
            pos_of(speeds, "respond"),
            "E128",
            "respond cannot be slow: its uses answer a card use on the stack, and a slow use is made only with the "
            "stack empty, so they would never be offered",
            "leave respond fast (the default), or give those cards and skills another idle point",
        )
