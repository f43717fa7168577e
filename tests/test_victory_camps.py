"""Camps and victories as data (issue 26 item 5), with a made-up fork (tests/fixtures/camps_pack): whoever wins
by a condition wins with his camp at every check, not only at the collect check (docs/rulings.md R24), unless the
condition says `wins: alone`; a `game_end` condition joins the winners of any ending, and wins a game that would
end in a draw at the turn limit. The receive check is played by examples/third_camp's scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import S, fengsheng, make
from interpreter.content.loader import BUNDLED_CONTENT, ContentErrors, load_cached, load_content
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


# ---------------------------------------------------------------------------------------------- camps declared

THIRD_CAMP = Path(__file__).parents[1] / "examples" / "third_camp"


def test_the_base_game_and_the_third_camp_declare_their_camps():
    base = load_cached([BUNDLED_CONTENT]).rules.camps
    assert {c: (x.name, x.collects) for c, x in base.items()} == {"red": ("红方", "red"), "blue": ("蓝方", "blue")}
    forked = load_cached([BUNDLED_CONTENT, THIRD_CAMP])
    assert list(forked.rules.camps) == ["red", "blue", "灰雀"]  # merged with the base game's
    assert all(i.camp is None or i.camp in forked.rules.camps for i in forked.identities.values())


def test_a_misspelt_camp_is_an_error_at_it_with_the_closest_id(tmp_path):
    fork = tmp_path / "third_camp"
    fork.mkdir()
    text = (THIRD_CAMP / "pack.yaml").read_text(encoding="utf-8").replace("camp: 灰雀 ", "camp: 灰鹊 ", 1)
    (fork / "pack.yaml").write_text(text, encoding="utf-8")
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "camp: 灰鹊" in x)
    with pytest.raises(ContentErrors) as e:
        load_content([BUNDLED_CONTENT, fork])
    (err,) = [x for x in e.value.errors if x.code == "E121"]
    assert err.path.endswith("pack.yaml") and err.line == line and err.col > 1
    assert "灰鹊" in err.message and err.hint.startswith("did you mean 灰雀?")
    # a camp unlike any declared is a camp of its own (a fork that names a new one without declaring it loads)
    assert "甲" not in load_cached([BUNDLED_CONTENT, PACK]).rules.camps


def test_describe_names_the_camps_and_an_identitys_camp_by_its_name():
    out = fengsheng("describe", "阵营", "--content", str(THIRD_CAMP)).output
    assert "红方（red，收集红色情报）" in out and "灰雀（灰雀）：第三阵营" in out
    out = fengsheng("describe", "潜伏战线").output
    assert "属于红方阵营" in out


def test_a_victory_skill_checked_at_game_end_is_told_the_check_from_the_moment(tmp_path):
    """`game_end` is both a victory check (of identities and tasks) and a trigger moment: a role's victory skill
    with `check: game_end` is told which is which."""
    fork = tmp_path / "fork"
    (fork / "roles").mkdir(parents=True)
    (fork / "pack.yaml").write_text("id: fork\nname: 分支\nextends: [base]\n", encoding="utf-8")
    (fork / "roles" / "demo_end.yaml").write_text(
        "id: demo_end\nname: 终局者\ntitle: 测试用\ngender: male\nhidden: false\nskills:\n"
        "  - id: demo_end_win\n    name: 终局\n    text: 游戏结束时，你胜利。\n    kind: victory\n"
        '    check: game_end\n    condition: "true"\n',
        encoding="utf-8",
    )
    with pytest.raises(ContentErrors) as e:
        load_content([BUNDLED_CONTENT, fork])
    errs = [x for x in e.value.errors if x.code in ("E112", "E113")]
    assert errs and any("trigger: game_end" in (x.hint or "") for x in errs), [str(x) for x in errs]
