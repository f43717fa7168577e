"""Camps and victories as data (issue 26 item 5), with a made-up fork (tests/fixtures/camps_pack): whoever wins
by a condition wins with his camp at every check, not only at the collect check (docs/rulings.md R24), unless the
condition says `wins: alone`; a `game_end` condition joins the winners of any ending, and wins a game that would
end in a draw at the turn limit. The receive check is played by examples/third_camp's scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import S, make
from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.engine.errors import GameOver

PACK = Path(__file__).parent / "fixtures" / "camps_pack"


@pytest.fixture(scope="module")
def camps():
    return load_cached([BUNDLED_CONTENT, PACK])


def _over(call) -> tuple[list[int], str]:
    with pytest.raises(GameOver) as over:
        call()
    return sorted(p.seat for p in over.value.winners), over.value.reason


def test_a_turn_end_win_takes_the_camp_with_it_dead_or_alive(camps):
    g = make(
        camps,
        [S("jia_zhang", intel=[27]), S("blue"), S("jia_ban", alive=False), S("red"), S("jia_du")],
    )
    assert _over(g.victory.check_turn_end_victory) == ([0, 2, 4], "turn_end")


def test_a_condition_that_wins_alone_leaves_the_camp_out(camps):
    g = make(camps, [S("jia_du", intel=[27]), S("blue"), S("jia_ban"), S("red"), S("jia_zhang")])
    assert _over(g.victory.check_turn_end_victory) == ([0], "turn_end")


def test_a_game_end_condition_joins_the_winners_of_a_collect_win(camps):
    g = make(camps, [S("red", intel=[27, 28, 29]), S("blue"), S("red"), S("shou_wang", intel=[35, 36]), S("blue")])
    assert _over(lambda: g.settle("test")) == ([0, 2, 3], "collect")


def test_a_game_end_condition_wins_at_the_turn_limit_and_only_when_it_holds(camps):
    g = make(camps, [S("red"), S("blue"), S("shou_wang", intel=[35, 36]), S("blue"), S("red")])
    assert _over(lambda: g.victory.end_without_winner("turn_limit")) == ([2], "game_end")
    g = make(camps, [S("red"), S("blue"), S("shou_wang", intel=[35]), S("blue"), S("red")])
    assert _over(lambda: g.victory.end_without_winner("turn_limit")) == ([], "turn_limit")
