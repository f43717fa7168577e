"""Events the rules declare, played (issue 26 item 3): `emit` announces one as a timing node, a skill reacting
to it replaces a field (改判) and the announcing effect goes on with the new value, `reveal_top` is a judgement,
`pick_hidden` a simultaneous hidden choice, `game_end` a moment; each checked at load (E312-E314). A made-up
fork, written per test (no game object of the project named)."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from conftest import Seat
from interpreter.content.loader import ContentErrors, load_cached, load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.observation import history
from interpreter.engine.state import DISCARD, HAND, STAGING
from interpreter.engine.table import build
from interpreter.language.builtins import BUILTINS
from interpreter.language.runtime import Ctx

RED_ID, BLUE_ID = "qian_fu_zhan_xian", "te_gong_ji_guan"
RED_TOP, BLACK_CARD, BLACK_CARD_2, OTHER = 27, 35, 36, 37  # red 威逼; black 威逼 ×2; another black

RULES = """\
events:
  测判:
    fields: {who: player, card: card}
    replaceable: [card]
  测令:
    fields: {who: player, n: int}
    replaceable: [n]
"""

ROLES = {
    "demo_judge": """\
      - id: s
        name: 测卜
        text: 出牌阶段，你可以判定：若判定牌含有红色，你摸两张牌。
        kind: active
        timing: play_phase
        effect: |
          let c = reveal_top("测判", self)
          if c has red { draw(self, 2) }
    """,
    "demo_fix": """\
      - id: s
        name: 测改
        text: 锁定技，一名角色的判定牌生效前，你打出一张手牌代替之。
        kind: triggered
        trigger: 测判
        optional: false
        condition: count(hand(self)) > 0
        effect: |
          replace_field("card", choose(from: hand(self), prompt: "代替判定牌"))
    """,
    "demo_order": """\
      - id: s
        name: 测发
        text: 出牌阶段，你可以发令，然后摸两张牌。
        kind: active
        timing: play_phase
        effect: |
          let n = emit("测令", who: self, n: 2)
          draw(self, n)
    """,
    "demo_cut": """\
      - id: s
        name: 测截
        text: 锁定技，其他角色发令时，令其改为摸零张牌。
        kind: triggered
        trigger: 测令
        optional: false
        condition: who != self
        effect: replace_field("n", 0)
    """,
    "demo_watch": """\
      - id: s
        name: 测看
        text: 锁定技，一名角色的判定牌生效前，若其为黑色，你摸一张牌。
        kind: triggered
        trigger: 测判
        optional: false
        condition: card has black
        effect: draw(self, 1)
    """,
    "demo_end": """\
      - id: s
        name: 测终
        text: 锁定技，游戏结束时，你摸一张牌。
        kind: triggered
        trigger: game_end
        optional: false
        effect: draw(self, 1)
    """,
}


def fork(tmp: Path, rules: str = RULES, roles: dict[str, str] | None = None) -> Path:
    pack = tmp / "fork"
    (pack / "roles").mkdir(parents=True)
    text = "id: fork\nname: 分支\nextends: [base]\nrules:\n" + textwrap.indent(rules, "  ")
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    for rid, skills in (ROLES if roles is None else roles).items():
        head = f"id: {rid}\nname: 测{rid[-3:]}\ntitle: 测试\ngender: male\nhidden: false\nskills:\n"
        (pack / "roles" / f"{rid}.yaml").write_text(head + textwrap.dedent(skills), encoding="utf-8")
    return pack


@pytest.fixture(scope="module")
def content(tmp_path_factory):
    return load_content(resolve_packs([fork(tmp_path_factory.mktemp("events"))], ["none"]))


def table(content, roles, hands, deck_top, answers=None):
    answers = answers or {}
    agents = [Seat(answers.get(i, ())) for i in range(len(roles))]
    seats = [dict(identity=RED_ID if i == 0 else BLUE_ID, hand=list(h)) for i, h in enumerate(hands)]
    g = build(content, seats, agents, deck_top=list(deck_top))
    for p, rid in zip(g.players, roles, strict=True):
        if rid is not None:
            p.new_role(content.roles[rid], True)
    g.skills.index_triggers()
    return g


def use(g, seat, role_id):
    p = g.players[seat]
    skill = p.role.skills[0]
    assert skill.name.startswith("测")
    g.skills.use_skill(p, skill, Ctx(g, p))
    g.settle()


def errors(pack: Path) -> list:
    with pytest.raises(ContentErrors) as e:
        load_content(resolve_packs([pack], ["none"]))
    return e.value.errors


def one(errs, code):
    found = [e for e in errs if e.code == code]
    assert len(found) == 1, [str(e) for e in errs]
    return found[0]


# ---------------------------------------------------------------------- a judgement and 改判


def test_a_red_judgement_draws_and_its_card_is_discarded(content):
    g = table(content, ["demo_judge", None], [[], []], [RED_TOP, OTHER, BLACK_CARD_2])
    use(g, 0, "demo_judge")
    assert {c.uid for c in g.players[0].hand} == {OTHER, BLACK_CARD_2}
    assert g.zones.by_uid[RED_TOP].zone == DISCARD and not g.zones.staging and not g.zones.judging
    rec = next(r for r in history(g, 1) if r.get("e") == "测判")
    assert rec["seat"] == 0 and rec["who"] == 0 and rec["card"] == RED_TOP  # the card face up: public
    g.check_invariants()


def test_a_replaced_judgement_card_changes_the_outcome(content):
    """改判: the black hand card replaces the red judgement card, so the judging player draws nothing."""
    g = table(content, ["demo_judge", "demo_fix"], [[], [BLACK_CARD]], [RED_TOP, OTHER, BLACK_CARD_2])
    use(g, 0, "demo_judge")
    assert g.players[0].hand == []  # without the replacement: two cards
    cards = g.zones.by_uid
    assert cards[BLACK_CARD].zone == DISCARD and cards[RED_TOP].zone == DISCARD  # both discarded when it ends
    rec = next(r for r in g.log if r.get("e") == "field_replaced")
    assert (rec["seat"], rec["event"], rec["field"], rec["old"], rec["new"]) == (1, "测判", "card", RED_TOP, BLACK_CARD)
    g.check_invariants()


def test_a_skill_reacting_after_the_replacement_reads_the_new_card_on_show(content):
    g = table(content, ["demo_judge", "demo_fix", "demo_watch"], [[], [BLACK_CARD], []], [RED_TOP, OTHER])
    use(g, 0, "demo_judge")
    assert [c.uid for c in g.players[2].hand] == [OTHER]  # 测看 saw the black card that replaced the red one
    assert g.zones.by_uid[BLACK_CARD].knowers == g.all_mask  # shown to all when it took the judgement's place


# ---------------------------------------------------------------------- emit


def test_emit_goes_on_with_the_value_a_skill_replaced(content):
    g = table(content, ["demo_order", None], [[], []], [OTHER, BLACK_CARD_2])
    use(g, 0, "demo_order")
    assert len(g.players[0].hand) == 2
    g = table(content, ["demo_order", "demo_cut"], [[], []], [OTHER, BLACK_CARD_2])
    use(g, 0, "demo_order")
    assert g.players[0].hand == []  # 测截 made it zero before the effect drew
    rec = next(r for r in g.log if r.get("e") == "field_replaced")
    assert (rec["field"], rec["before"], rec["after"]) == ("n", 2, 0)


def test_an_emitted_hidden_card_is_secret_to_the_seats_that_cannot_see_it(tmp_path):
    roles = {
        "demo_show": """\
          - id: s
            name: 测示
            text: 出牌阶段，你可以以一张手牌判定。
            kind: active
            timing: play_phase
            effect: |
              emit("测判", who: self, card: choose(from: hand(self)))
        """
    }
    content = load_content(resolve_packs([fork(tmp_path, RULES, roles)], ["none"]))
    g = table(content, ["demo_show", None], [[BLACK_CARD], []], [])
    use(g, 0, "demo_show")
    rec = next(r for r in history(g, 1) if r.get("e") == "测判")
    assert rec.get("card") is None  # seat 1 does not see the hand card it names
    assert next(r for r in history(g, 0) if r.get("e") == "测判")["card"] == BLACK_CARD


def test_replaced_hidden_cards_are_secret_to_the_seats_that_cannot_see_them(tmp_path):
    """改判 of a field of cards: the replaced and the replacing cards are named in the record as the announced event
    names them, each only to the seats that see it (a list of deck ids sent to every seat told the other seats which
    hand cards they were)."""
    rules = RULES + "  测交:\n    fields: {who: player, cs: cards}\n    replaceable: [cs]\n"
    roles = {
        "demo_give": """\
          - id: s
            name: 测交
            text: 出牌阶段，你可以宣告你的手牌。
            kind: active
            timing: play_phase
            effect: |
              emit("测交", who: self, cs: hand(self))
        """,
        "demo_swap": """\
          - id: s
            name: 测换
            text: 锁定技，其他角色宣告时，你以你的手牌代替之。
            kind: triggered
            trigger: 测交
            optional: false
            condition: who != self
            effect: replace_field("cs", hand(self))
        """,
    }
    content = load_content(resolve_packs([fork(tmp_path, rules, roles)], ["none"]))
    g = table(content, ["demo_give", "demo_swap", None], [[BLACK_CARD], [OTHER], []], [])
    use(g, 0, "demo_give")
    seen = [next(r for r in history(g, s) if r.get("e") == "field_replaced") for s in range(3)]
    assert [(list(r["old"] or ()), list(r["new"] or ())) for r in seen] == [
        ([BLACK_CARD], []),  # the giver sees its own card, not the other's
        ([], [OTHER]),
        ([], []),  # a third seat sees neither
    ]
    assert all("before" not in r and "after" not in r for r in seen)


# ---------------------------------------------------------------------- a hidden simultaneous choice


def test_hidden_picks_show_nothing_before_all_are_made(content):
    """Each picks in turn; the second picker's view while it picks holds nothing of the first pick."""
    views = []

    class Peek(Seat):
        def decide(self, *args):
            views.append((len(history(g, 1)), g.zones.by_uid[BLACK_CARD].knowers >> 1 & 1))
            return super().decide(*args)

    g = table(content, [None, None], [[BLACK_CARD, OTHER], [RED_TOP, BLACK_CARD_2]], [])
    g.agents[1] = Peek([f"#{RED_TOP}"])
    g.agents[0] = Seat([f"#{BLACK_CARD}"])
    before = len(history(g, 1))
    p0, p1 = g.players
    picks = BUILTINS["pick_hidden"].impl(Ctx(g, p0), [p0, p1], "", True)
    assert [c.uid for c in picks] == [BLACK_CARD, RED_TOP]
    assert views == [(before, 0)]  # no record and no sight of P0's card while P1 picked
    assert all(c.zone == STAGING for c in picks)
    rec = next(r for r in history(g, 1) if r.get("e") == "picks_revealed")
    assert list(rec["seats"]) == [0, 1] and list(rec["cards"]) == [BLACK_CARD, RED_TOP]


def test_hidden_picks_kept_unrevealed_stay_in_hand(content):
    g = table(content, [None, None], [[BLACK_CARD], [RED_TOP]], [])
    p0, p1 = g.players
    picks = BUILTINS["pick_hidden"].impl(Ctx(g, p0), [p0, p1], "", False)
    assert [c.uid for c in picks] == [BLACK_CARD, RED_TOP] and all(c.zone == HAND for c in picks)
    assert g.zones.by_uid[BLACK_CARD].knowers >> 1 & 1 == 0 and not any(r.get("e") == "picks_revealed" for r in g.log)


# ---------------------------------------------------------------------- game_end


def test_the_game_end_moment_fires_its_skills(content):
    g = table(content, ["demo_end", None], [[], []], [OTHER])
    g.game_end_moment()
    assert [c.uid for c in g.players[0].hand] == [OTHER]
    assert any(r.get("e") == "game_end" for r in g.log)
    g = table(content, [None, None], [[], []], [OTHER])
    g.game_end_moment()  # nobody dealt a skill hearing it: recorded all the same (a face-down role's is not told)
    assert any(r.get("e") == "game_end" for r in g.log)
    base = load_cached(resolve_packs([], ["none"]))
    g = table(base, [None, None], [[], []], [OTHER])
    g.game_end_moment()  # a content with no skill hearing it: nothing recorded (the base game's logs do not change)
    assert not any(r.get("e") == "game_end" for r in g.log)


# ---------------------------------------------------------------------- checked at load


SKILL = """\
  - id: s
    name: 测错
    text: 测试。
    kind: {kind}
    {when}
    effect: |
      {effect}
"""


@pytest.mark.parametrize(
    ("kind", "when", "effect", "code", "words", "hint"),
    [
        ("active", "timing: play_phase", 'emit("测叛", who: self, card: none)', "E312", 'unknown event "测叛"', "测判"),
        ("active", "timing: play_phase", 'emit("测令", who: self, m: 2)', "E313", "has no field `m`", "n"),
        ("active", "timing: play_phase", 'emit("测令", who: self)', "E313", "does not give its field `n`", "n: …"),
        ("active", "timing: play_phase", 'emit("测令", who: self, n: self)', "E313", "field `n` of event", None),
        ("active", "timing: play_phase", 'reveal_top("测令", self)', "E313", "cannot be a judgement", None),
        ("active", "timing: play_phase", 'replace_field("n", 1)', "E314", "only in a triggered skill", None),
        ("triggered", "trigger: 测令", 'replace_field("who", self)', "E314", "is not replaceable", "n"),
        ("triggered", "trigger: 测令", 'replace_field("n", self)', "E313", "field `n` of event", None),
    ],
)
def test_a_wrong_use_is_reported_at_its_place(tmp_path, kind, when, effect, code, words, hint):
    skill = SKILL.replace("{kind}", kind).replace("{when}", when).replace("{effect}", effect)
    e = one(errors(fork(tmp_path, RULES, {"demo_bad": skill})), code)
    assert e.path.endswith("demo_bad.yaml") and e.line == 13 and words in e.message, str(e)
    if hint:
        assert hint in (e.hint or ""), str(e)


@pytest.mark.parametrize(
    ("when", "condition", "func"),
    [
        ("timing: play_phase", 'emit("测令", who: self, n: 2) > 0', "emit"),
        ("trigger: 测令", 'replace_field("n", 0)', "replace_field"),
    ],
)
def test_a_declared_events_call_is_refused_in_a_condition(tmp_path, when, condition, func):
    """emit (a timing node: skills act and ask there) and replace_field change the game: in a condition, which the
    engine tests any number of times, E317 at the call, as any action's (they are compiled apart from the others)."""
    kind = "active" if when.startswith("timing") else "triggered"
    skill = SKILL.replace("{kind}", kind).replace("{when}", f"{when}\n    condition: |\n      {condition}")
    skill = skill.replace("{effect}", "draw(self, 1)")
    e = one(errors(fork(tmp_path, RULES, {"demo_bad": skill})), "E317")
    assert e.path.endswith("demo_bad.yaml") and (e.line, e.col) == (13, 5), str(e)
    assert e.message.startswith(f"{func}(...) changes the game: it cannot be used in a condition"), str(e)


def test_a_resample_while_picks_are_hidden_deals_the_first_pick_like_any_hidden_card(content):
    """While P1 picks, P0's pick is a hand card P1 cannot see like any other: a re-deal for P1 gives P0 that card
    about as often as any hidden card (before the reveal nothing pins it), and P1's own hand is kept."""
    counts = []

    class Stop(Exception):
        pass

    class Redeal(Seat):
        def decide(self, *args):
            z = g.zones
            hidden = sum(1 for c in z.cards if not z.card_visible(c, 1))
            kept = 0
            for k in range(300):
                z.redeal(1, random.Random(k))
                kept += BLACK_CARD in {c.uid for c in g.players[0].hand}
                assert {c.uid for c in g.players[1].hand} == {RED_TOP, BLACK_CARD_2}
            counts.append((kept, hidden))
            raise Stop

    g = table(content, [None, None], [[BLACK_CARD, OTHER], [RED_TOP, BLACK_CARD_2]], [])
    g.agents[0] = Seat([f"#{BLACK_CARD}"])
    g.agents[1] = Redeal()
    p0, p1 = g.players
    with pytest.raises(Stop):
        BUILTINS["pick_hidden"].impl(Ctx(g, p0), [p0, p1], "", True)
    ((kept, hidden),) = counts
    assert kept < 300 * 2 * 3 / hidden + 5  # about two in `hidden` (P0 holds two cards), not always
