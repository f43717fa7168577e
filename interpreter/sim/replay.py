"""Replay: re-run a logged game from its seed, feeding the logged answers back, and check that every event and
the end state come out the same (or that it fails the same way as it failed when played)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine.pins import Pins, pinned_content
from ..engine.step import GameState
from ..model.deck_counts import DeckCountError
from .batch import failure_text

if TYPE_CHECKING:
    from ..engine.game import Game


def replay_game(content, logged: dict, max_turns: int | None = None) -> tuple[bool, str]:
    """Re-run one logged game; returns (identical?, message). The turn limit is `max_turns` if given, else the
    header's (a log made with simulate --max-turns), else the rules'."""
    h = logged["header"]
    if max_turns is None and isinstance(h.get("max_turns"), int) and not isinstance(h.get("max_turns"), bool):
        max_turns = h["max_turns"] if h["max_turns"] >= 1 else None
    if "seed" not in h:
        return False, "this is one seat's copy of the log (no seed): only the referee's copy can be replayed"
    problem = content.rules.cannot_seat_at_doors(h["players"])
    if problem is not None:
        return False, problem
    pins = logged_pins(logged)
    if pins is not None and (pins.role or pins.task) and not 0 <= pins.seat < h["players"]:
        return False, f"the log's pins name seat {pins.seat}, not a seat at a table of {h['players']}"
    try:  # (a card pin this content cannot meet: a log of another pack, or edited by hand)
        pinned_content(content, pins)
    except DeckCountError as e:
        return False, f"the log's card pin cannot be played with this content: {e}"
    decisions, at = _decisions_of(logged)
    played = _play_logged(content, logged, pins, decisions, at, max_turns)
    if played.parted is not None:
        return False, played.parted
    if played.state is None:
        return False, f"the replay failed as it started: {played.error}"
    return _compared(logged, played.state._game, len(decisions), played.used, played.error)


def _decisions_of(logged: dict) -> tuple[list[dict], list[str]]:
    """The decision records of a logged game, and where each is: its number, and its line of the log file if
    read from one."""
    decisions: list[dict] = []
    at = []
    for rec, line in zip(logged["records"], logged.get("lines") or [None] * len(logged["records"]), strict=False):
        if "d" in rec:
            decisions.append(rec)
            at.append(f"decision {len(decisions)}" + (f" (line {line})" if line else ""))
    return decisions, at


class _Played(NamedTuple):
    state: GameState | None  # None: the game failed as it started
    used: int  # the logged decisions answered
    error: str | None  # the failure text of a game that failed in the replay (as logged, or a new failure)
    parted: str | None  # why the log and the game parted ways before the end (the replay stopped there)


def logged_pins(logged: Mapping[str, Any]) -> Pins | None:
    """The pins a logged game was played with (its setup record's, engine/pins.py), or None."""
    records = logged.get("records") or []
    first = records[0] if records and isinstance(records[0], Mapping) else {}
    return Pins.from_dict(first.get("pins")) if first.get("e") == "setup" else None


def _play_logged(
    content, logged: dict, pins: Pins | None, decisions: list[dict], at: list[str], max_turns: int | None
) -> _Played:
    """Play the game from the header's seed, answering each decision as logged, as long as the game asks what the
    log recorded."""
    h = logged["header"]
    state = None
    pos = 0
    try:
        state = GameState(content, h["players"], h["seed"], max_turns=max_turns, pins=pins)
        while not state.is_terminal():
            if pos >= len(decisions):
                stopped = _bot_failed_here(logged, state)
                if stopped is not None:  # the game stopped here when played: an external bot failed to answer
                    return _Played(state, pos, stopped, None)
                last = (logged.get("lines") or [None])[-1]
                return _Played(
                    state,
                    pos,
                    None,
                    f"the game asks more decisions than the log has ({state.decision_kind} for "
                    f"P{state.current_player()})"
                    + (f"; its records stop at line {last} (was the log cut off?)" if last else ""),
                )
            rec = decisions[pos]
            pos += 1
            legal = state.legal_actions()
            if rec["seat"] != state.current_player() or rec["d"] != state.decision_kind or rec["n"] != len(legal):
                return _Played(
                    state,
                    pos,
                    None,
                    f"{at[pos - 1]}: log has {rec['d']} for P{rec['seat']} with {rec['n']} options, the "
                    f"game asks {state.decision_kind} for P{state.current_player()} with {len(legal)}",
                )
            state.apply_action(legal[rec["choice"]])
        state._game.check_invariants()  # as simulate checks every game it plays
    except Exception as e:  # the game fails in the replay: as logged (a failed game), or a new failure
        return _Played(state, pos, failure_text(e), None)
    return _Played(state, pos, None, None)


def _bot_failed_here(logged: dict, state: GameState) -> str | None:
    """The logged failure if the game failed when played because the external bot of the seat asked now gave no
    legal answer (BotError: nothing of it was applied, so the game stopped at this very question), else None. The
    replay cannot ask the bot again; it checks that the game got to a question of that seat."""
    failed = (logged.get("end") or {}).get("failed")
    if not isinstance(failed, str) or not failed.startswith(f"BotError: P{state.current_player()}'s bot "):
        return None
    return failed


def _compared(logged: dict, game: Game, decisions: int, used: int, error: str | None) -> tuple[bool, str]:
    """replay_game's verdict on a replay that answered `used` of the log's `decisions`: the records, then how the
    game ended (the end digest, or the failure)."""
    if used != decisions:
        return False, f"the game ended after {used} of {decisions} logged decisions" + (f" ({error})" if error else "")
    differs = _records_differ(logged["records"], game.log, error)
    if differs is not None:
        return False, differs
    end = logged.get("end")
    if end is None:
        last = (logged.get("lines") or [None])[-1]  # a game without records has no end either: not replayed
        return False, f"the log has no end record (was it cut off{f' after line {last}' if last else ''}?)"
    failed = end.get("failed")  # simulate logs a failed game as far as it got
    if failed is not None or error is not None:
        return _failures_compared(failed, error, decisions, len(game.log))
    if json.dumps(end["digest"], sort_keys=True) != json.dumps(game.digest(), sort_keys=True):
        return False, "the end state differs from the logged one"
    winners = ", ".join(f"P{s}" for s in game.digest()["winners"]) or "nobody"
    over = game.result
    assert over is not None  # the replay ran to the end
    return True, (
        f"identical: {decisions} decisions, {len(game.log)} records, "
        f"{game.turn_no} turns, winners {winners} ({over.reason})"
    )


def _records_differ(logged: list[dict], replayed: list[dict], error: str | None) -> str | None:
    """Where the replay's records first differ from the log's, or None if they are the same."""
    logged_recs = [json.dumps(r, sort_keys=True, ensure_ascii=False) for r in logged]
    new_recs = [json.dumps(r, sort_keys=True, ensure_ascii=False) for r in replayed]
    if logged_recs == new_recs:
        return None
    for i, (a, b) in enumerate(zip(logged_recs, new_recs, strict=False)):  # they may differ in length
        if a != b:
            la, lb = _around_difference(a, b)
            return f"record {i + 1} differs:\n  log:    {la}\n  replay: {lb}"
    return f"the log has {len(logged_recs)} records, the replay {len(new_recs)}" + (f" ({error})" if error else "")


def _failures_compared(failed: str | None, error: str | None, decisions: int, records: int) -> tuple[bool, str]:
    """The verdict when the logged game or its replay failed: identical only if both failed the same way."""
    if failed is None:
        return False, f"the replay failed: {error}"
    if error is None:
        return False, f"the logged game failed ({failed}); the replay did not"
    if error != failed:
        return False, f"the game failed differently:\n  log:    {failed}\n  replay: {error}"
    if error.startswith("BotError: "):  # (_bot_failed_here: the replay got to the question the bot did not answer)
        return (
            True,
            f"identical up to the question its external bot failed, {decisions} decisions, {records} records: {error}",
        )
    return True, f"identical failure after {decisions} decisions, {records} records: {error}"


def _around_difference(a: str, b: str, width: int = 160) -> tuple[str, str]:
    """Two lines that differ, each cut to `width` characters around where they first differ (a record may be long)."""
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    start = max(0, at - width // 2)

    def cut(s: str) -> str:
        end = start + width
        return ("…" if start else "") + s[start:end] + ("…" if end < len(s) else "")

    return cut(a), cut(b)
