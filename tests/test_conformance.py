"""One conformance suite for every door a game is driven through (tests/conformance_doors.py), OpenSpiel-style:
the same properties asked of each implementation.

1. The same seed and the same answers give the same game through every door (the actions, the returns, the
   winners and reason, every seat's final observation).
2. At every decision the seat is handed exactly the step API's ``observation(seat)`` and
   ``action_descriptors()``, in the door's format (the RL encoding and mask, the web message, the bot's
   ``decide`` line), and nothing else that is not public or drawn from them; never the game's seed.
3. An illegal or malformed answer is refused with nothing applied (and, where the door lets the game go on,
   the game continues as if it had not been given).
4. A finished game reports the same returns and winners through every door.
5. A game nobody seeded gets a fresh seed, and the door hands no seat that seed.

A door that cannot be asked a property says why (``Door.cannot``), and the test is skipped with that reason.
"""

from __future__ import annotations

import importlib.util

import pytest
from conformance_doors import Door, Reference, canon, doors, reference, seed_of

from conftest import fengsheng
from interpreter.seeds import MAX_SEED

# the optional extras each door needs (skipped with the reason when one is missing)
_NEEDS = {
    "pettingzoo": ("numpy", "pettingzoo", "gymnasium"),
    "openspiel": ("numpy", "pyspiel"),
    "web": ("starlette",),
}
_NAMES = ["step", "batch", "sim", "pettingzoo", "openspiel", "table", "web", "external"]

# everyday games: short (a turn limit), 2 to 5 players; heavier ones are marked slow
_GAMES = [
    pytest.param(2, 0, 2, id="2p"),
    pytest.param(3, 1, 3, id="3p", marks=pytest.mark.slow),
    pytest.param(5, 2, 2, id="5p"),
    pytest.param(4, 3, None, id="4p-whole", marks=pytest.mark.slow),
    pytest.param(7, 4, 6, id="7p", marks=pytest.mark.slow),
    pytest.param(10, 5, 3, id="10p", marks=pytest.mark.slow),
]

_REFERENCES: dict[tuple, Reference] = {}


def _reference(players: int, index: int, max_turns: int | None) -> Reference:
    key = (players, index, max_turns)
    if key not in _REFERENCES:
        _REFERENCES[key] = reference(players, seed_of(index), max_turns)
    return _REFERENCES[key]


@pytest.fixture(params=_NAMES)
def door(request, tmp_path) -> Door:
    for module in _NEEDS.get(request.param, ()):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"the {request.param} door needs {module} (an optional extra), which is not installed")
    return next(d for d in doors(tmp_path) if d.name == request.param)


def _can(door: Door, prop: str) -> None:
    if prop in door.cannot:
        pytest.skip(f"the {door.name} door: {door.cannot[prop]}")


@pytest.mark.parametrize("players, index, max_turns", _GAMES)
def test_the_same_seed_and_answers_give_the_same_game_and_each_seat_is_handed_its_own_view(
    door, players, index, max_turns
):
    ref = _reference(players, index, max_turns)
    assert len(ref.decisions) > players  # a game with decisions of every kind the start has, at least
    played = door.play(ref)
    # (1) and (4): the same game, the same end
    assert played.history == ref.played.history
    assert played.returns == ref.played.returns
    assert (played.winners, played.reason) == (ref.played.winners, ref.played.reason)
    assert played.final == ref.played.final
    # (2): exactly the step API's observation and descriptors at every decision, in the door's format (a door in
    # the step API's own format: the reference's record of what it handed, made with that projection once)
    if type(door).project is Door.project:
        expected = door.arrange(list(ref.played.given))
    else:
        expected = door.arrange([(d.seat, door.project(d.seat, d.observation, d.actions)) for d in ref.decisions])
    got = door.arrange(played.given)
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert g == e, f"the {door.name} door's decision {i} (P{e[0]}) differs from the step API's"
    # and never the game's seed (a 128-bit number: found if written in)
    assert not any(str(ref.seed) in canon(g) for g in played.given)


# bad answers, made from the first decision's legal ids: a malformed answer names a legal id in another type
_BAD = {
    "an-id-not-offered": lambda legal: max(legal) + 1,
    "a-huge-number": lambda legal: MAX_SEED,
    "negative": lambda legal: -1,
    "a-legal-id-as-text": lambda legal: str(legal[0]),
    "a-legal-id-as-float": lambda legal: float(legal[0]),
    "none": lambda legal: None,
}


@pytest.mark.parametrize("bad", list(_BAD))
def test_an_illegal_or_malformed_answer_is_refused_with_nothing_applied(door, bad):
    _can(door, "refuses")
    ref = _reference(2, 0, 2)  # (the everyday game of the test above: made once)
    answer = _BAD[bad](sorted(a["id"] for a in ref.decisions[0].actions))
    if door.name == "external" and not isinstance(answer, int):
        pytest.skip("an external bot answers a line of text, read as a number or refused (tests/test_external_bots.py)")
    refused, played = door.refuses(ref, answer)
    assert refused, f"the {door.name} door took {answer!r} or changed the game refusing it"
    if played is not None:  # the door let the game go on: the same game as if the bad answer was never given
        assert played.history == ref.played.history and played.returns == ref.played.returns
        assert played.final == ref.played.final


def test_a_game_nobody_seeded_gets_a_fresh_seed_that_no_seat_is_handed(door):
    _can(door, "fresh")
    seeds = []
    for _ in range(2):
        seed, texts = door.fresh(3)
        assert 2**64 <= seed <= MAX_SEED  # 128 bits from the OS: below 2**64 by chance once in 2**64
        assert not any(str(seed) in t for t in texts), f"the {door.name} door handed a seat its fresh seed"
        seeds.append(seed)
    assert seeds[0] != seeds[1]


def test_the_batch_driver_draws_a_fresh_batch_seed():
    """simulate without --seed (the batch door's `fresh`): a 128-bit batch seed, a game seed derived from it."""
    import json

    r = fengsheng("simulate", "-p", 3, "-n", 1, "--max-turns", 1, "--format", "json", "--expansions", "none")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["seed"] >= 2**64
