"""The heuristic bot's benefit of an intel, worked out in place for a camp bot (heuristic.py _work_out_benefit: the
commonest value a decision asks, its steps copied out of _value_as for speed), stays what its definition says:
its own intel friend(self) * _value_as(its camp), another seat's mate * _value_as(its camp) - enemy *
_value_as(the other camp). A constant changed in one copy and not the other fails here (the speed-ups of 9e2665a
and baddf6c were checked only by playing the same games at the time). And a benefit kept from an earlier observation
(_values: while what it is worked out from is the same) is the one worked out afresh now."""

from __future__ import annotations

import itertools

from test_agents_heuristic import PASS, _contest, _swap

from conftest import light_and_slow
from interpreter.agents.heuristic import HeuristicAgent
from interpreter.agents.hints import OPPOSITE
from interpreter.engine.step import drive

COUNTS = [{"red": r, "blue": b, "black": k} for r in (0, 2) for b in (0, 2) for k in (0, 2)]
COLORS = [c for n in (1, 2, 3) for c in itertools.combinations(("red", "blue", "black"), n)]


def test_a_camp_bots_benefit_is_its_value_as_weighted_by_the_odds():
    checked = 0
    for identity in ("qian_fu_zhan_xian", "te_gong_ji_guan"):
        for own, other in itertools.product(COUNTS, repeat=2):
            obs = _contest(identity, 1)
            obs["players"][0]["intel_counts"], obs["players"][1]["intel_counts"] = own, other
            obs["known_identities"] = {"2": identity}  # (a known camp-mate: its odds are not a third each)
            bot = HeuristicAgent(0)
            bot.act(obs, (_swap("red"), PASS))  # (reads the observation: its camp, its odds)
            mine = bot._mine
            assert mine is not None
            for colors, seat in itertools.product(COLORS, (0, 1, 2)):
                if seat == 0:
                    want = bot.memory.friend(obs, 0) * bot._value_as(obs, 0, colors, mine)
                else:
                    mate, enemy, _ = bot.memory.odds(obs, seat)
                    want = mate * bot._value_as(obs, seat, colors, mine) - enemy * bot._value_as(
                        obs, seat, colors, OPPOSITE[mine]
                    )
                assert bot._benefit(obs, seat, colors) == want, (identity, own, other, colors, seat)
                checked += 1
    assert checked == 2 * 64 * 7 * 3


class _Checked(HeuristicAgent):
    """A heuristic bot that checks each benefit it reads (kept from one observation to the next while what it is
    worked out from is the same: _values) against the one worked out afresh from the observation it decides on."""

    def __init__(self, seed: int, seen: dict[bool, int]) -> None:
        super().__init__(seed)
        self.seen = seen  # camp bot or not -> benefits checked

    def _benefit(self, obs, seat, colors):
        v = super()._benefit(obs, seat, colors)
        assert v == self._work_out_benefit(obs, seat, colors), (obs["seat"], seat, colors)
        self.seen[self._mine is not None] += 1
        return v


@light_and_slow("size", ((3, 5, 8), 2), ((3, 5, 8, 10), 12))
def test_a_benefit_kept_from_an_earlier_observation_is_the_one_worked_out_now(content, size):
    players, games = size
    seen = {True: 0, False: 0}
    for n in players:
        for g in range(games):
            drive(content, n, 700 + g, [_Checked(g * 11 + s, seen) for s in range(n)])
    assert seen[True] > 1000 and seen[False] > 100, seen  # (camp bots and 神秘人 both)
