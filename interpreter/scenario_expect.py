"""A scenario's expectations (`expect:`) checked against the game it played: players' hands, intel, counts,
marks, counters, what a seat knows, events (present, absent, counted), skills fired, winners. Each unmet
expectation is a failure, at its place in the file when known (interpreter/scenario.py runs the scenario).
"""

from __future__ import annotations

from typing import Any

from .content.yamlpos import Pos, key_pos_of, pos_of
from .engine.observation import observe
from .model.colors import BLACK_BIT, BLUE_BIT, RED_BIT
from .scenario_zones import zone_fails
from .snippet import brief
from .suggest import did_you_mean


def _ids(cards) -> list:
    return [c.uid for c in cards]


def _near_misses(log: list, pattern: dict) -> str:
    """What the game did instead of an expected event, for its failure: that it happened before the event
    above it in the list, or the records of its kind (as much of each as the pattern names), else nothing."""
    if any(_match(rec, pattern) for rec in log):
        return "; it happened, but before the event listed above it"
    kind = next((k for k in ("e", "d") if k in pattern), None)
    same = [rec for rec in log if kind is not None and rec.get(kind) == pattern[kind]]
    if not same:
        return f"; the game recorded no {pattern[kind]!r} at all" if kind is not None else ""
    shown = [{k: rec.get(k) for k in pattern} for rec in same[:4]]
    more = f" and {len(same) - 4} more" if len(same) > 4 else ""
    return f"; its {pattern[kind]!r} records: " + ", ".join(map(str, shown)) + more


def _match(event: dict, pattern: dict) -> bool:
    for k, v in pattern.items():
        if k == "seat" and isinstance(v, str) and v.startswith("P"):
            v = int(v[1:])
        if event.get(k) != v:
            return False
    return True


# what `players.<seat>.<key>` in a scenario's expectations reads from the player
_PLAYER_FACTS = {
    "hand": lambda p: sorted(_ids(p.hand)),
    "intel": lambda p: sorted(_ids(p.intel)),
    "hand_count": lambda p: len(p.hand),
    "intel_count": lambda p: len(p.intel),
    "alive": lambda p: p.alive,
    "out": lambda p: p.out,
    "role_face_up": lambda p: p.role_face_up,
    "role": lambda p: p.role.id if p.role is not None else None,
    "red": lambda p: p.counts[RED_BIT],
    "blue": lambda p: p.counts[BLUE_BIT],
    "black": lambda p: p.counts[BLACK_BIT],
}


# what `players.<seat>.<key>` checks while the scenario runs, not in the end state (see _SeatAgent)
_RUN_FACTS = ("asked", "not_offered")
# what `players.<seat>.knows` / `knows_not` read: the cards whose face the seat's observation shows
_SIGHT_FACTS = ("knows", "knows_not")


def _faces_seen(g, seat: int) -> set[int]:
    """The deck ids of the cards whose face `seat`'s observation shows now (its hand, the public zones, the cards
    of other zones it knows: known_cards …); the history is left out (its records name cards by id only)."""
    seen: set[int] = set()

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            if isinstance(v.get("id"), int) and "card" in v:  # a card's face (actions.card_data)
                seen.add(v["id"])
            for k, x in v.items():
                if k != "history":
                    walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)

    walk(observe(g, seat))
    return seen


def _counter_fails(g, seat: int, want: dict, at) -> list[str]:
    """`counters`: each named counter of the rules has this value at the end."""
    fails = []
    declared = g.content.declared.counters
    for name, value in want.items():
        c = declared.get(name)
        if c is None:
            hint = did_you_mean(str(name), declared)
            fails.append(
                at(
                    key_pos_of(want, name),
                    f"P{seat} counters: the rules declare no counter {brief(name)}" + (f"; {hint}" if hint else ""),
                )
            )
        elif g.seats.counter(g.players[seat], c) != value:
            fails.append(
                at(
                    pos_of(want, name),
                    f"P{seat} counter {name}: expected {value}, got {g.seats.counter(g.players[seat], c)}",
                )
            )
    return fails


def _sight_fails(g, seat: int, want: dict, key: str, at) -> list[str]:
    """`knows`: each card's face is in the seat's observation at the end; `knows_not`: none is."""
    fails = []
    uids = want[key]
    seen = _faces_seen(g, seat)
    for j, uid in enumerate(uids):
        card = g.zones.by_uid.get(uid)
        if card is None:
            fails.append(at(pos_of(uids, j), f"P{seat} {key}: no card #{uid} in this game"))
            continue
        if (uid in seen) != (key == "knows"):
            where = g.zones.zone_name(card)
            verb = "does not see" if key == "knows" else "sees"
            fails.append(at(pos_of(uids, j), f"P{seat} {key}: P{seat} {verb} the face of #{uid} ({where})"))
    return fails


def _plain(_pos: Pos | None, message: str) -> str:
    return message


def _count_fails(log: list, counts: list, at=_plain) -> list[str]:
    """`event_counts`: each pattern matches exactly `times` records (0: never)."""
    fails = []
    for j, want in enumerate(counts):
        pattern, times = want["match"], want["times"]
        got = sum(1 for e in log if _match(e, pattern))
        if got != times:
            fails.append(at(pos_of(counts, j), f"event {pattern} happened {got} time(s), expected exactly {times}"))
    return fails


def check_expectations(g, over, expect: dict, at=_plain) -> list[str]:
    """What of `expect` the game did not do, each failure pointed at its expectation by `at` (a `_Where`: the
    file, line and column, and the line with a caret; without it, the message alone)."""
    fails = []
    if "winners" in expect:
        got = sorted(p.seat for p in over.winners) if over else None
        want = sorted(expect["winners"])
        if got != want:
            fails.append(
                at(pos_of(expect, "winners"), f"winners: expected {want}, got {got if over else 'no end of game'}")
            )
    if "reason" in expect and (over is None or over.reason != expect["reason"]):
        msg = f"game end reason: expected {expect['reason']}, got {over.reason if over else None}"
        fails.append(at(pos_of(expect, "reason"), msg))
    if "game_over" in expect and bool(over) != expect["game_over"]:
        fails.append(at(pos_of(expect, "game_over"), f"game over: expected {expect['game_over']}, got {bool(over)}"))
    for seat, want in (expect.get("players") or {}).items():
        p = g.players[int(seat)]
        for key, v in want.items():
            if key in _RUN_FACTS:  # checked while the scenario ran (_SeatAgent)
                continue
            if key in _SIGHT_FACTS:
                fails += _sight_fails(g, int(seat), want, key, at)
                continue
            if key == "counters":
                fails += _counter_fails(g, int(seat), want["counters"], at)
                continue
            if key == "zones":
                fails += zone_fails(g, int(seat), want["zones"], at)
                continue
            fact = _PLAYER_FACTS.get(key)
            if fact is None:
                fails.append(at(key_pos_of(want, key), f"players.{seat}: unknown expectation '{key}'"))
                continue
            g_v = fact(p)
            w_v = sorted(v) if key in ("hand", "intel") else v
            if g_v != w_v:
                fails.append(at(pos_of(want, key), f"P{seat} {key}: expected {w_v}, got {g_v}"))
    fails += zone_fails(g, None, expect.get("zones") or {}, at)
    zones = {"discard": g.discard_pile, "removed": g.removed}
    for zone, cards in zones.items():
        uids = expect.get(f"{zone}_contains", [])
        for j, uid in enumerate(uids):
            if uid not in _ids(cards):
                fails.append(at(pos_of(uids, j), f"{zone} pile: expected to contain #{uid}, has {_ids(cards)}"))
    if "deck_top" in expect:
        top = list(reversed(_ids(g.deck)))[: len(expect["deck_top"])]
        if top != expect["deck_top"]:
            fails.append(at(pos_of(expect, "deck_top"), f"deck top: expected {expect['deck_top']}, got {top}"))
    if "role_pile" in expect:
        got = [r.id for r in reversed(g.role_pile)]
        if got != expect["role_pile"]:
            msg = f"role pile (top first): expected {expect['role_pile']}, got {got}"
            fails.append(at(pos_of(expect, "role_pile"), msg))
    if "pending" in expect:
        got = g.pending.uid if g.pending is not None else None
        if got != expect["pending"]:
            fails.append(at(pos_of(expect, "pending"), f"pending intel: expected {expect['pending']}, got {got}"))
    log = g.log
    i = 0
    events = expect.get("events", [])
    for j, pattern in enumerate(events):
        while i < len(log) and not _match(log[i], pattern):
            i += 1
        if i >= len(log):
            said = f"event {pattern} did not happen (in this order)" + _near_misses(log, pattern)
            fails.append(at(pos_of(events, j), said))
            break
        i += 1
    never = expect.get("no_events", [])
    for j, pattern in enumerate(never):
        if any(_match(e, pattern) for e in log):
            fails.append(at(pos_of(never, j), f"event {pattern} happened but must not"))
    fails += _count_fails(log, expect.get("event_counts", []), at)
    fired = [t[2] for t in g.trace or [] if t[0] == "fired"]
    names = expect.get("skills_fired", [])
    for j, name in enumerate(names):
        if name not in fired:
            said = f"skill {name} did not fire (fired: {fired or 'none'})" + _active_note(g, name)
            fails.append(at(pos_of(names, j), said))
    return fails


def _active_note(g, name: str) -> str:
    """Why an active skill is never in skills_fired: it is an answer, used, not fired (`skill NAME`), and its use is
    the record skill_used — what to expect instead, with its id ("" for a skill that is not active)."""
    skills = [*(s for r in g.content.roles.values() for s in r.skills), *g.content.rules.skills]
    active = next((s for s in skills if s.name == name and s.kind == "active"), None)
    if active is None:
        return ""
    return (
        f": {name} is an active skill, used by an answer (skill {name}), which skills_fired does not list; expect "
        f"its use under events: {{e: skill_used, skill: {active.id}}}"
    )
