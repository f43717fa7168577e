"""A seat's copy of a game's log (``replay --as P<n>``, a table's seat log) against what that seat's observations
showed while the game was played: the same records as its last observation's history, which only grew, no seed,
and no card named in a record a spectator does not read alike that the seat's observations never showed — at 8
players with both expansions, and with the example packs of rule skills, declared zones and counters.

Bots play the game on the step API; every seat is observed after every answer (a card may be seen only for a
moment: discarded face up, then shuffled into the deck before the next question).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.agents.kinds import factory_of
from interpreter.content.loader import load_packs
from interpreter.engine.step import GameState
from interpreter.sim.logs import read_log_text, seat_header, seat_records, state_log_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SEED = 2**100 + 4_321  # far from every other number a game holds
CARD_FIELDS = ("card", "cards", "uid", "old", "new")


def _card_ids(value: object, out: set[int]) -> None:
    """The deck ids of the cards (objects with `id` and `colors`) anywhere in `value`, its history left out."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), int) and "colors" in value:
            out.add(value["id"])
        for k, v in value.items():
            if k != "history":
                _card_ids(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _card_ids(v, out)


def _ints(value: object) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, (list, tuple)):
        return [i for v in value for i in _ints(v)]
    return []


def _plain(value: object) -> object:
    return json.loads(json.dumps(value))


def _check(packs: list[str], players: int, kinds: list[str]) -> int:
    content = load_packs(packs)
    state = GameState(content, players, SEED)
    agents = [factory_of(kinds[s % len(kinds)])(SEED + s, content) for s in range(players)]
    seen: list[set[int]] = [set() for _ in range(players)]
    history: list[list] = [[] for _ in range(players)]
    steps = 0
    while True:
        for s in range(players):
            obs = state.observation(s)
            _card_ids(obs, seen[s])
            now = _plain(obs["history"])
            assert now[: len(history[s])] == history[s], f"P{s}'s history changed at step {steps}"
            history[s] = now
        if state.is_terminal():
            break
        seat = state.current_player()
        state.apply_action(agents[seat].act(state.observation(seat), state.action_descriptors()))
        steps += 1
    game = read_log_text(state_log_text(state, packs, ",".join(kinds)))[0]
    public = {json.dumps(r, sort_keys=True) for r in seat_records(game, None)}
    for s in range(players):
        copy = _plain(seat_records(game, s))
        assert copy == history[s], f"P{s}'s copy is not what its observations showed"
        header = seat_header(game, s)
        assert "seed" not in header and str(SEED) not in json.dumps(copy)
        for rec in copy:
            if json.dumps(rec, sort_keys=True) in public:
                continue
            for field in CARD_FIELDS:
                if field == "card" and isinstance(rec.get(field), str):
                    continue  # (a card type)
                unseen = set(_ints(rec.get(field))) - seen[s]
                assert not unseen, f"P{s}'s copy names cards {sorted(unseen)} it never saw: {rec}"
    return steps


def test_every_seats_copy_at_eight_players_with_both_expansions_is_what_it_saw():
    assert _check([], 8, ["heuristic", "random"]) > 100


@pytest.mark.slow
@pytest.mark.parametrize("pack", ["rule_skills", "zones", "counters_events", "hidden_roles"])
def test_every_seats_copy_with_an_example_pack_is_what_it_saw(pack):
    assert _check([str(EXAMPLES / pack)], 6, ["heuristic", "random"]) > 50
