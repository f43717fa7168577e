"""The engine's safety limits, each with a made-up role that runs away (tests/fixtures/runaway_pack):
a step budget between two decisions (E501), a limit on uses resolving inside one another (E502), a
stuck game that says what repeats (E503), and validate's warnings of what it can see before play
(W501, W502). The numbers are in interpreter/catalogue.py (LIMITS)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from conftest import TWELVE
from interpreter import catalogue
from interpreter.content.loader import BUNDLED_CONTENT, load_cached, validate_paths
from interpreter.engine.errors import EngineError
from interpreter.engine.table import build, put_pending

RUNAWAY = Path(__file__).parent / "fixtures" / "runaway_pack"


class First:
    """Answers every question with its first option (a skill is offered before pass and before hand cards)."""

    referee = True
    observes = False

    def __init__(self) -> None:
        self.asked = 0

    def decide(self, decision, game) -> int:
        self.asked += 1
        return 0


@pytest.fixture(scope="module")
def runaway():
    return load_cached([BUNDLED_CONTENT, RUNAWAY])


def _table(content, role: str, hand=(), current=0):
    agents = [First(), First(), First()]
    g = build(
        content,
        [
            dict(identity="qian_fu_zhan_xian", hand=list(hand)),
            dict(identity="te_gong_ji_guan"),
            dict(identity="qian_fu_zhan_xian"),
        ],
        agents,
        current=current,
    )
    g.players[0].new_role(content.roles[role], True)
    g.skills.index_triggers()
    return g, agents


def test_a_use_that_retriggers_itself_ends_with_E502_naming_the_chain(runaway):
    """回声: after his 截获 resolves he uses 截获 again (a virtual use), which triggers him again: without the
    limit this was a RecursionError."""
    g, _ = _table(runaway, "demo_echo", hand=[79])  # 截获
    put_pending(g, 27, sender=1, holder=1)
    with pytest.raises(EngineError) as e:
        g.play_turn("contest")
    msg = str(e.value)
    limit = catalogue.LIMITS["max_nesting"].value
    assert msg.startswith("E502 ") and f"more than {limit} cards and skills" in msg
    # the chain, outermost first: the skill twenty times (each time it used 截获, whose settlement triggered
    # it again), then the 截获 that would have been one too many
    assert msg.endswith(f"→ 【截获】 (测试回声（测试用）·回声 ×{limit}, 【截获】 ×1)")


def test_six_nested_repeats_end_with_E501_at_once(runaway):
    """15.6 billion iterations under the old per-loop cap; the step budget stops them after 20,000."""
    g, _ = _table(runaway, "demo_looper")
    g.enter_phase("play")
    with pytest.raises(EngineError) as e:
        g.flow.idle_loop(g.players[0], "play_phase")
    msg = str(e.value)
    budget = catalogue.LIMITS["step_budget"].value
    assert msg.startswith("E501 ") and f"more than {budget} steps" in msg
    assert msg.endswith("resolving: 测试循环（测试用）·循环")
    assert budget < -g.steps_left + budget <= budget + catalogue.LIMITS["max_repeat"].value


def test_the_budget_is_given_again_at_each_decision(runaway):
    """The budget counts between two decisions: 2,500 iterations a use, used eight times with a decision
    between, never runs out."""
    g, _ = _table(runaway, "demo_looper")
    skill = runaway.roles["demo_looper"].skills[0]
    two_levels = dataclasses.replace(skill, effect=_compile("repeat 50 { repeat 50 { let x = 1 } }"))
    for _ in range(8):
        g.ask(g.players[0], "confirm", [True, False])  # a decision: the budget is given again
        g.skills.use_skill(g.players[0], two_levels)
    # the inner loop: 50 times 50 iterations; the outer loop is free (its 50 are bounded by the code); the use: 1;
    # the use's event (skill_used): 1
    assert g.steps_left == catalogue.LIMITS["step_budget"].value - 2_500 - 1 - 1


def test_cards_moved_and_events_spend_the_budget_too(runaway):
    """17,500 iterations (under the budget), each drawing the whole deck and discarding it: 4 million card moves
    (half a minute) without the moves counted; with them, the game ends after about 20,000 moves."""
    g, _ = _table(runaway, "demo_looper")
    skill = runaway.roles["demo_looper"].skills[0]
    churn = dataclasses.replace(
        skill,
        effect=_compile("repeat 50 { repeat 50 { repeat 7 {\n draw(self, 200)\n discard(hand(self))\n } } }"),
    )
    g.ask(g.players[0], "confirm", [True, False])  # a decision: the budget starts afresh
    before = g.zones.moves
    with pytest.raises(EngineError) as e:
        g.skills.use_skill(g.players[0], churn)
    assert str(e.value).startswith("E501 step budget exceeded")
    budget = catalogue.LIMITS["step_budget"].value
    assert budget * 0.8 < g.zones.moves - before < budget + 7 * 2 * len(g.cards)  # checked as each loop starts


def _compile(text: str):
    import interpreter.engine.primitives  # noqa: F401  (what the primitives do)
    from interpreter.language.compiler import Compiler, context_env

    comp = Compiler(context_env(["self"]), "play_phase", {})
    fn = comp.program(text)
    assert not comp.errors
    return fn


def test_a_use_instead_of_sending_that_sends_nothing_is_a_stuck_game_that_says_what_repeats(runaway):
    """沉默 is offered at send_start and sends nothing; with no hand card it is all P0 can do, forever."""
    g, _ = _table(runaway, "demo_mute")
    g.MAX_DECISIONS = 200
    with pytest.raises(EngineError) as e:
        g.play_turn("send")
    msg = str(e.value)
    assert msg.startswith("E503 the game is stuck: more than 200 decisions")
    assert "were `send` (传出情报) for P0, answered 'skill 沉默'" in msg


def test_skills_that_keep_triggering_each_other_at_one_node_end_with_E504(runaway):
    """再来: using it triggers it again, in the next round of triggers (not inside the last use)."""
    g, _ = _table(runaway, "demo_chatter")
    g.skills.use_skill(g.players[0], runaway.roles["demo_chatter"].skills[0])
    with pytest.raises(EngineError) as e:
        g.settle("发动技能后")
    rounds = catalogue.LIMITS["max_trigger_rounds"].value
    assert str(e.value).startswith(f"E504 triggered skills keep triggering each other (more than {rounds} rounds")
    # which skills loop: language.md says each safety error names what is resolving (it named nothing)
    assert str(e.value).endswith("the skills that trigger on what the last round did: P0 再来 (skill_used)"), e.value
    assert len(g.players[0].hand) == 1 + rounds


def test_under_stack_timing_the_loop_is_named_too(runaway):
    """The same 再来 in a fork whose triggered skills go on the stack (examples/stack_timing): each use resolves
    inside the last one's settling, and E504 said only "check the content for a loop", naming nothing."""
    content = load_cached([BUNDLED_CONTENT, Path(__file__).parents[1] / "examples" / "stack_timing", RUNAWAY])
    g, _ = _table(content, "demo_chatter")
    assert g.stack_timing is not None
    g.skills.use_skill(g.players[0], content.roles["demo_chatter"].skills[0])
    with pytest.raises(EngineError) as e:
        g.settle("发动技能后")
    assert str(e.value).startswith("E504 triggered skills keep triggering each other on the stack"), e.value
    assert str(e.value).endswith("; resolving inside one another: P0 再来"), e.value


def test_validate_warns_of_nested_loops_and_of_a_send_replacement_that_never_sends():
    found = validate_paths([BUNDLED_CONTENT, RUNAWAY])
    assert [e.level for e in found] == ["warning", "warning"]
    by_code = {e.code: e for e in found}
    w501, w502 = by_code["W501"], by_code["W502"]
    assert w501.path.endswith("demo_looper.yaml") and (w501.line, w501.col) == (17, 11)  # the third repeat
    assert "125,000" in w501.message
    assert w502.path.endswith("demo_mute.yaml") and w502.line == 15 and "send(...)" in w502.message


def test_the_bundled_game_and_its_expansions_have_no_warning():
    from interpreter.content.packs import resolve_packs

    assert load_cached(resolve_packs([], None)).warnings == []


_FOUR_LOOPS_OVER_PLAYERS = """\
id: demo_roll_call
name: 点名
title: 测试用
gender: female
hidden: false
skills:
  - id: demo_roll_call_skill
    name: 点名
    text: 出牌阶段，你可以发动此技能（它什么也不做）。
    kind: active
    timing: play_phase
    effect: |
      for a in all_players() {
        for b in all_players() {
          for c in all_players() {
            for d in all_players() {
              let x = 1
            }
          }
        }
      }
"""


def test_w501_counts_a_loop_over_players_as_the_rules_largest_table(tmp_path):
    """Four loops over players inside one another: 10**4 = 10,000 iterations at the bundled game's largest table
    (under the 20,000-step budget: no warning), 12**4 = 20,736 at a made-up pack's 12 (W501). The count is the
    rules' (Rules.player_counts), not catalogue.LOOP_ESTIMATE's 10, which stays the estimate of code compiled with
    no rules known."""
    from interpreter.language.compiler import Compiler, context_env

    budget = catalogue.LIMITS["step_budget"].value
    assert 10**4 <= budget < 12**4
    for name, manifest in (
        ("ten", "id: demo_ten\nname: 十人\nversion: 0.1.0\nextends: [base]\n"),
        ("twelve", TWELVE),
    ):
        (tmp_path / name / "roles").mkdir(parents=True)
        (tmp_path / name / "pack.yaml").write_text(manifest, encoding="utf-8")
        (tmp_path / name / "roles" / "demo_roll_call.yaml").write_text(_FOUR_LOOPS_OVER_PLAYERS, encoding="utf-8")
    assert validate_paths([BUNDLED_CONTENT, tmp_path / "ten"]) == []
    found = validate_paths([BUNDLED_CONTENT, tmp_path / "twelve"])
    assert [e.code for e in found] == ["W501"], found
    assert found[0].path.endswith("demo_roll_call.yaml") and "20,736" in found[0].message
    # with no rules known (a unit compiled by hand), a loop over players counts as the catalogue's default
    assert catalogue.LOOP_ESTIMATE["players"] == 10
    effect = _FOUR_LOOPS_OVER_PLAYERS.split("effect: |\n", 1)[1]
    effect = "\n".join(line.removeprefix("      ") for line in effect.splitlines())
    for most, warned in ((None, False), (12, True)):
        comp = Compiler(context_env(["self"]), "play_phase", {}, most_players=most)
        comp.program(effect)
        assert not comp.errors and [w.code for w in comp.warnings] == (["W501"] if warned else []), comp.warnings


def test_a_stack_that_never_stops_growing_ends_with_E505_naming_the_stack_limit(runaway):
    """再动 (no limit, no cost, fast at the contest under stack timing): its user answers his own use with it, again
    and again. It ends at the stack limit, told from the nesting limit (E502 at 20 cut legal stacks short: a
    10-player contest of random seats puts 21 cards and skills on it)."""
    content = load_cached([BUNDLED_CONTENT, Path(__file__).parents[1] / "examples" / "stack_timing", RUNAWAY])
    g, _ = _table(content, "demo_fidget")
    put_pending(g, 27, sender=1, holder=1)
    with pytest.raises(EngineError) as e:
        g.play_turn("contest")
    msg = str(e.value)
    limit = catalogue.LIMITS["max_stack"].value
    assert limit > 2 * catalogue.LIMITS["max_nesting"].value
    assert msg.startswith(
        f"E505 the stack is too deep: more than {limit} cards and skills waiting on it at once "
        "(the stack limit, max_stack;"
    ), msg
    assert msg.endswith(f"P0 再动 → P0 再动 → P0 再动 (P0 再动 ×{limit + 1})"), msg
    assert len(g.stack_timing.items) == limit + 1


def test_a_stuck_games_public_words_name_no_card_nor_seat(runaway):
    """回旋: each card he uses comes back to his hand, so at the contest he answers 截获 for ever. The message (the
    referee's) names that answer, a card in his hand; the words a table is shown (play, serve) name neither it nor
    the seat asked (being asked at a window tells that one holds something usable there)."""
    g, _ = _table(runaway, "demo_boomerang", hand=[79])  # 截获
    g.MAX_DECISIONS = 200
    put_pending(g, 27, sender=1, holder=1)
    with pytest.raises(EngineError) as e:
        g.play_turn("contest")
    assert "answered 'use 截获#79(红↑)'" in str(e.value) and "for P0" in str(e.value)
    assert e.value.public == (
        "E503 the game is stuck: more than 200 decisions, the same question asked again and again without moving "
        "the game on (the referee's log says which)"
    )
    # another limit's public words are its code's line of the catalogue: they name nothing of the game
    assert EngineError("step budget exceeded: resolving: 某人（身份）·技能", "E501").public == (
        "E501 " + catalogue.ERROR_CODES["E501"]
    )
