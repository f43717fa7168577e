"""`discard_top(n)`: the discard pile's top cards, which code could not read (a house rule such as 拾遗, "你的回合结束
时，若你没有手牌，你可以获得弃牌堆顶的一张牌", or 三国杀's 获得弃牌堆中的牌, could not be written). With a made-up
fork whose rule skill takes the top card back."""

from __future__ import annotations

import textwrap
from pathlib import Path

from conftest import fengsheng

PACK = """\
id: sy
name: 拾遗
extends: [base]
rules:
  skills:
    - id: sy_shi_yi
      name: 拾遗
      text: 你的回合结束时，若你没有手牌，你可以获得弃牌堆顶的一张牌。
      kind: triggered
      trigger: turn_end
      condition: subject == self and hand_count(self) == 0 and any_of(discard_top(1))
      effect: put_in_hand(discard_top(1), self)
"""

# P0 uses 威逼 #27 on P1 (it goes to the discard pile, the last card there), sends #31 and takes it back itself
SCENARIO = """\
name: 拾遗
content: [sy]
players:
  - {identity: qian_fu_zhan_xian, hand: [27, 31]}
  - {identity: te_gong_ji_guan, hand: [32]}
  - {identity: te_gong_ji_guan}
current: 0
start: play
answers:
  0: [use 威逼, P1, 截获, pass, "#31", accept, yes]
  1: [decline]
  2: [decline]
expect:
  players:
    0: {hand: [27], intel: [31]}
  skills_fired: [拾遗]
  events:
    - {e: card_used, seat: 0, card: wei_bi}
    - {e: to_hand, seat: 0, cards: [27]}
"""


def _fork(tmp: Path) -> None:
    (tmp / "sy").mkdir()
    (tmp / "sy" / "pack.yaml").write_text(PACK, encoding="utf-8")


def test_a_rule_skill_takes_the_discard_piles_top_card(tmp_path):
    _fork(tmp_path)
    (tmp_path / "a.scenario.yaml").write_text(SCENARIO, encoding="utf-8")
    r = fengsheng("scenario", "run", tmp_path / "a.scenario.yaml")
    assert r.exit_code == 0 and "1 passed, 0 failed" in r.output, r.output


def test_an_empty_discard_pile_gives_nothing_and_describe_words_it(tmp_path):
    """The discard pile empty (the card was sent, not used), discard_top(1) is no card: 拾遗 is not offered."""
    _fork(tmp_path)
    empty = SCENARIO.replace('[use 威逼, P1, 截获, pass, "#31", accept, yes]', '[pass, "#31", accept]')
    empty = empty.replace("hand: [27, 31]", "hand: [31]")
    empty = empty.replace("{hand: [27], intel: [31]}", "{hand: [], intel: [31]}")
    empty = empty[: empty.index("  skills_fired")] + "  no_events: [{e: skill_used}]\n"
    (tmp_path / "b.scenario.yaml").write_text(empty, encoding="utf-8")
    r = fengsheng("scenario", "run", tmp_path / "b.scenario.yaml")
    assert r.exit_code == 0 and "1 passed, 0 failed" in r.output, r.output
    out = fengsheng("describe", "拾遗", "--content", tmp_path / "sy").output
    assert "你可以将弃牌堆顶的一张牌加入你的手牌" in out, out


def test_a_misspelt_discard_top_gets_the_closest_name(tmp_path):
    _fork(tmp_path)
    pack = tmp_path / "sy" / "pack.yaml"
    pack.write_text(PACK.replace("put_in_hand(discard_top(1)", "put_in_hand(discard_tpo(1)"), encoding="utf-8")
    r = fengsheng("validate", tmp_path / "sy")
    assert r.exit_code == 1 and "hint: did you mean discard_top?" in r.output, textwrap.shorten(r.output, 500)


def test_discard_top_reads_the_last_discarded_first_and_no_more_than_the_pile_holds():
    """The pile's top is its last card: discard_top(2) is the last two discarded, the last first; a pile of three
    gives three to discard_top(5), and discard_top(0) none. Nothing moves."""
    import interpreter.engine.primitives  # noqa: F401  (what the primitives do)
    from conftest import S, load_cached, make
    from interpreter.language.compiler import Compiler, context_env
    from interpreter.language.runtime import Ctx

    g = make(load_cached(), [S("red", hand=[1, 2, 3]), S("blue")])
    p0 = g.players[0]
    for uid in (2, 1, 3):  # discarded in this order: 3 on top
        g.zones.discard_cards([next(c for c in p0.hand if c.uid == uid)])

    def top(n: int) -> list[int]:
        comp = Compiler(context_env(["self"]), "play_phase", {})
        fn = comp.expression(f"discard_top({n})")
        assert not comp.errors, comp.errors
        return [c.uid for c in fn(Ctx(g, p0))]

    assert (top(1), top(2), top(5), top(0)) == ([3], [3, 1], [3, 1, 2], [])
    assert [c.uid for c in g.zones.discard_pile] == [2, 1, 3] and p0.hand == []
