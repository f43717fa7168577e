"""Stack timing (rules `resolution: stack`, engine/priority.py): speeds, priority, the LIFO stack.

The example pack examples/stack_timing shows the two models side by side in its scenarios (a response to a
response; two triggers on one event). These tests change what a fork may change — the speeds — and check
that the queued base game does not build the stack at all.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from interpreter.content.loader import load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.game import Game
from interpreter.scenario import run_scenario
from interpreter.sim import random_agents

CONTEST = """\
name: two 截获 in the contest
content: [..]
players:
  - identity: qian_fu_zhan_xian
  - identity: te_gong_ji_guan
    hand: [79]
  - identity: shen_mi_ren
    hand: [80]
current: 0
start: contest
pending: {card: 35, sender: 0, holder: 0}
answers:
  1: [use 截获]
  2: [use 截获]
expect:
  players:
    %s: {intel: [35]}
"""


def pack(tmp: Path, rules: str, scenario: str) -> Path:
    folder = tmp / "fork"
    (folder / "tests").mkdir(parents=True)
    (folder / "pack.yaml").write_text(
        "id: fork\nname: 分支\nextends: [base]\nrules:\n" + textwrap.indent(rules, "  "), encoding="utf-8"
    )
    f = folder / "tests" / "s.scenario.yaml"
    f.write_text(scenario, encoding="utf-8")
    return f


def test_a_fast_answer_goes_on_top_and_resolves_first(tmp_path):
    r = run_scenario(pack(tmp_path, "resolution: stack\n", CONTEST % 1), allow_outside=True)
    assert r.passed, r.report()
    nodes = [t[1] for t in r.trace if t[0] == "node"]
    assert "堆叠 +【截获】 (2)" in nodes  # P2's answer on top of P1's


def test_a_fork_that_makes_contest_uses_slow_has_no_answers_in_the_contest(tmp_path):
    # contest uses slow: P2 cannot answer P1's 截获 while it is on the stack; asked afterwards, as queued
    r = run_scenario(pack(tmp_path, "resolution: stack\nspeeds: {contest: slow}\n", CONTEST % 2), allow_outside=True)
    assert r.passed, r.report()
    assert not any(t[0] == "node" and t[1].endswith("(2)") for t in r.trace)


def test_an_unknown_speed_is_pointed_at(tmp_path):
    from interpreter.content.loader import ContentErrors

    f = pack(tmp_path, "resolution: stack\nspeeds: {contest: quick}\n", CONTEST % 1)
    try:
        load_content(resolve_packs([f.parents[1]], ["none"]))
    except ContentErrors as e:
        (err,) = e.errors
        assert err.code == "E113" and err.path.endswith("pack.yaml") and err.line == 6, err
        assert err.message == "unknown speed 'quick'" and "slow, fast" in (err.hint or "")
    else:
        raise AssertionError("speed 'quick' was accepted")


def test_the_queued_base_game_builds_no_stack():
    content = load_content(resolve_packs((), ["none"]))
    g = Game(content, 5, 1, random_agents(1, 5))
    assert g.stack_timing is None and g.card_use.push_use is None


def test_stack_timing_games_replay_from_their_seed(tmp_path):
    folder = tmp_path / "st"
    folder.mkdir()
    (folder / "pack.yaml").write_text(
        "id: st\nname: st\nextends: [base]\nrules: {resolution: stack}\n", encoding="utf-8"
    )
    content = load_content(resolve_packs([folder], ["none"]))
    logs = []
    for _ in range(2):
        g = Game(content, 6, 42, random_agents(42, 6), record=True)
        g.run()
        logs.append(list(g.log))
    assert logs[0] == logs[1] and any(r.get("e") == "card_used" for r in logs[0])


def test_describe_shows_the_model_and_the_fast_idle_points():
    from click.testing import CliRunner

    from interpreter.cli import main

    example = Path(__file__).parents[1] / "examples" / "stack_timing"
    r = CliRunner().invoke(main, ["describe", "回合流程", "--content", str(example)])
    assert r.exit_code == 0, r.output
    assert "结算方式：堆叠结算（stack）" in r.output
    assert "快速（可以响应堆叠中的牌与技能）：情报传递到你面前时、争夺阶段、一名角色濒死时" in r.output


def test_one_players_several_triggers_resolve_in_the_order_he_chooses(tmp_path):
    """rules_skill_order_chosen_by_owner.scenario.yaml under stack timing: the skill she chooses to resolve
    first goes onto the stack last (清空 first: her hand is discarded, then she draws)."""
    fixtures = Path(__file__).parent / "fixtures" / "rulings_pack"
    f = pack(
        tmp_path,
        "resolution: stack\n",
        textwrap.dedent(
            f"""\
            name: two of one player's skills on one event, under stack timing
            content: [{fixtures}, ..]
            players:
              - identity: qian_fu_zhan_xian
                role: demo_twins
                hand: [29]
              - identity: te_gong_ji_guan
            current: 1
            start: receive
            pending: {{card: 35, sender: 1, holder: 0}}
            deck_top: [30]
            answers:
              0: [skill 清空]
            expect:
              players:
                0: {{hand: [30], intel: [35]}}
              discard_contains: [29]
              events:
                - {{d: skill_order, seat: 0, n: 2, label: skill 清空}}
                - {{e: skill_used, seat: 0, skill: demo_clear}}
                - {{e: skill_used, seat: 0, skill: demo_draw}}
            """
        ),
    )
    r = run_scenario(f, allow_outside=True)
    assert r.passed, r.report()
    assert any(t[0] == "node" and t[1].startswith("堆叠结算") for t in r.trace)  # (played on the stack)


class _Answers:
    """Answers every question with its first option: a card or skill before passing."""

    referee = True
    observes = False

    def decide(self, decision, game) -> int:
        return 0


def test_a_contest_of_ten_seats_may_stack_more_than_the_nesting_limit():
    """All twelve 截获 and twelve 调包 answer one another at a 10-player contest: 24 cards wait on the stack, each
    keeping its use's frame, and resolve last in first out. Stack and nesting shared one limit of 20 (E502), so a
    random 10-player game of examples/stack_timing ended with it (simulate -p 10 -n 1000 -s 5, game 3)."""
    from interpreter import catalogue
    from interpreter.engine.table import build, put_pending

    example = Path(__file__).parents[1] / "examples" / "stack_timing"
    content = load_content(resolve_packs([example], ["none"]))
    cards = list(range(67, 91))  # 调包 67-78, 截获 79-90
    seats = [
        dict(identity="qian_fu_zhan_xian" if s % 2 else "te_gong_ji_guan", hand=cards[s * 3 - 3 : s * 3] if s else [])
        for s in range(10)
    ]
    g = build(content, seats, [_Answers() for _ in range(10)])
    g.trace = []
    put_pending(g, 27, sender=0, holder=0)
    g.play_turn("contest")
    deepest = max(int(t[1].rsplit("(", 1)[1][:-1]) for t in g.trace if t[0] == "node" and t[1].startswith("堆叠 +"))
    assert deepest == 24 > catalogue.LIMITS["max_nesting"].value
    assert not g.stack_timing.items and not g.stack.resolving
    assert all(not p.hand for p in g.players[1:9])


def test_the_ten_player_game_the_shared_limit_ended_plays_to_its_end():
    """Game 3 of simulate --content examples/stack_timing -p 10 -n 1000 -s 5: 21 deep at its contest."""
    from interpreter.content.loader import load_packs
    from interpreter.sim import play_game

    content = load_packs([Path(__file__).parents[1] / "examples" / "stack_timing"])
    g, failure = play_game(content, 10, 91085151223078221533797676431269169492)
    assert failure is None and g.result is not None
