"""The heuristic bot's odds of another seat's camp (interpreter/agents/camps.py), on made-up identities."""

from __future__ import annotations

import math

from interpreter.agents.camps import ENEMY, MATE, NO_CAMP, camp_index, camps_allowed, identities_left, weigh

CAMPS = {"owl": "red", "fox": "blue"}  # a made-up table: the owl's camp collects red, the fox's blue; the crow none
COLORS = {"owl": "red", "fox": "blue", "crow": "green"}
DEALT = {"owl": 2, "fox": 2, "crow": 1}


def test_an_identity_is_a_mate_an_enemy_or_without_a_camp():
    assert camp_index(CAMPS, "owl", "red") == MATE
    assert camp_index(CAMPS, "fox", "red") == ENEMY
    assert camp_index(CAMPS, "crow", "red") == NO_CAMP
    assert camp_index(CAMPS, None, "red") == NO_CAMP  # (an identity taken: none)


def test_the_identities_left_leave_out_its_own_and_the_known_ones():
    assert identities_left(CAMPS, DEALT, "red", ["owl"]) == (1.0, 2.0, 1.0)
    assert identities_left(CAMPS, DEALT, "red", ["owl", "fox", "crow"]) == (1.0, 1.0, 0.0)


def test_probes_leave_the_camps_of_the_colours_allowed():
    assert camps_allowed(CAMPS, COLORS, "red", frozenset({"blue"})) == {ENEMY}
    assert camps_allowed(CAMPS, COLORS, "red", frozenset({"red", "green"})) == {MATE, NO_CAMP}


def test_the_odds_follow_the_colour_a_seat_took():
    assert weigh([1.0, 1.0, 0.0], 0.0, "red") == (0.5, 0.5, 0.0)
    mate, enemy, _ = weigh([1.0, 1.0, 0.0], 1.0, "red")  # it took a red it could see: likelier a red camp-mate
    assert math.isclose(mate / enemy, math.exp(1.4))
    mate, enemy, _ = weigh([1.0, 1.0, 0.0], 1.0, "blue")  # ... an enemy of a blue bot
    assert math.isclose(enemy / mate, math.exp(1.4))
    assert weigh([0.0, -1.0, 0.0], 0.0, "red") == (0.5, 0.5, 0.0)  # nothing left (a table the rules lack): even
