"""Scenario files and the zones the rules declare: setting them up (a seat's `zones:`, the table's `zones:`)
and checking them at the end (`expect: players.<seat>.zones`, `expect: zones`).

Each zone's cards are listed as the language's zone_cards lists them: the card that comes out first first (a
stack's top, a queue's bottom). Kept apart from scenario.py, which calls these two functions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .content.yamlpos import Pos, key_pos_of, pos_of
from .engine.table import TableError, put_zone
from .snippet import brief
from .suggest import did_you_mean

Where = Callable[[Pos | None, str], str]


def setup_zones(g: Any, data: dict, seats: list, where: Where) -> list[str]:
    """Put the cards of each seat's `zones:` and of the scenario's own `zones:` (shared zones) in place; the
    failures, each at its line (empty: all set)."""
    wanted: list[tuple[int | None, dict]] = [(i, spec.get("zones") or {}) for i, spec in enumerate(seats)]
    wanted.append((None, data.get("zones") or {}))
    for seat, zones in wanted:
        for name, uids in zones.items():
            try:
                put_zone(g, str(name), seat, uids)
            except TableError as e:
                prefix = f"setup: seat {seat}: " if seat is not None else "setup: "
                numbers = g.declared_zones.zone_numbers
                hint = did_you_mean(str(name), numbers) if str(name) not in numbers else None
                return [where(key_pos_of(zones, name), prefix + str(e) + (f"; {hint}" if hint else ""))]
    return []


def zone_fails(g: Any, seat: int | None, want: dict, at: Where) -> list[str]:
    """`zones:` expected at the end (seat's, or the table's for seat None): each named zone holds exactly these
    cards, in zone_cards' order."""
    fails = []
    declared = g.declared_zones
    for name, uids in want.items():
        number = declared.zone_numbers.get(name)
        owner = g.players[seat] if seat is not None else None
        whose = f"P{seat} zone" if seat is not None else "zone"
        if number is None:
            hint = did_you_mean(str(name), declared.zone_numbers)
            msg = f"{whose} {brief(name)}: the rules declare no such zone" + (f"; {hint}" if hint else "")
            fails.append(at(key_pos_of(want, name), msg))
            continue
        got = [c.uid for c in declared.zone_cards(number, owner)]
        if got != list(uids):
            fails.append(at(pos_of(want, name), f"{whose} {name}: expected {list(uids)} (first out first), got {got}"))
    return fails
