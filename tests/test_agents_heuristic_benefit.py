"""The heuristic bot's benefit of an intel, worked out in place for a camp bot (heuristic.py _work_out_benefit: the
commonest value a decision asks, its steps copied out of _value_as for speed), stays what its definition says:
its own intel friend(self) * _value_as(its camp), another seat's mate * _value_as(its camp) - enemy *
_value_as(the other camp). A constant changed in one copy and not the other fails here (the speed-ups of 9e2665a
and baddf6c were checked only by playing the same games at the time)."""

from __future__ import annotations

import itertools

from test_agents_heuristic import PASS, _contest, _swap

from interpreter.agents.heuristic import OPPOSITE, HeuristicAgent

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
