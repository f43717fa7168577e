"""A card used at a named moment (`use_card(c, at: "play_phase")`, `usable(c, at: ...)`): an effect outside any
idle point uses a card with the uses its card type has at that idle point, their conditions and targets, and the
one resolution model; a card in one of the user's declared zones may be used (蓄谋). A made-up fork: its role 谋划者
keeps cards in a per-player zone 暗格 and, at its draw phase, uses the top one as if in its play phase."""

from __future__ import annotations

import textwrap

import pytest

from conftest import S, Seat, done, events, hand
from interpreter.content.loader import BUNDLED_CONTENT, ContentErrors, load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.table import build
from interpreter.language.describe import describe_program

PACK = """\
id: plot_fork
name: 测试蓄谋
extends: [base]
rules:
  zones:
    暗格: {look: owner}
"""

ROLE = """\
id: demo_plotter
name: 谋划者
title: 测试用
gender: male
hidden: false
skills:
  - id: demo_plot_use
    name: 筹划
    text: 你可以如在出牌阶段般使用你暗格顶的牌。
    kind: active
    timing: play_phase
    effect: |
      let c = zone_top("暗格", self)
      if usable(c, at: "{at}") {{
        use_card(c, at: "{at}")
      }} else {{
        discard(c)
      }}
  - id: demo_plot_hand
    name: 急用
    text: 你可以如在出牌阶段般使用一张手牌。
    kind: active
    timing: play_phase
    effect: |
      use_card(choose(from: hand(self) where usable(it, at: "play_phase"), prompt: "使用一张牌"), at: "play_phase")
"""


def _pack(tmp_path, at: str = "play_phase"):
    pack = tmp_path / "plot_fork"
    (pack / "roles").mkdir(parents=True)
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    (pack / "roles" / "demo_plotter.yaml").write_text(ROLE.format(at=at), encoding="utf-8")
    return pack


def _table(tmp_path, answers, hands, zone=(), at="play_phase"):
    content = load_content([BUNDLED_CONTENT, _pack(tmp_path, at)])
    seats = [S("red" if i % 2 else "blue", hand=hands.get(i, ())) for i in range(3)]
    g = build(content, seats, [Seat(answers.get(i, ())) for i in range(3)], deck_top=[60, 61, 62, 63])
    p0 = g.players[0]
    p0.role = content.roles["demo_plotter"]
    p0.role_face_up = True
    dz = g.declared_zones
    dz.put_in_zone([g.zones.by_uid[u] for u in zone], dz.declared_zone("暗格"), p0)
    return g


def _use(g, name: str) -> None:
    p0 = g.players[0]
    g.skills.use_skill(p0, next(s for s in p0.role.skills if s.name == name))


def test_a_zone_card_is_used_outside_any_idle_point_as_if_in_the_play_phase(tmp_path):
    # 威逼 #36 waits in 暗格; nobody is at an idle point (no question is being offered), yet it is used with its
    # play-phase use: its target (P1 or P2), its declared name, P1 gives the 截获 he holds
    g = _table(tmp_path, {0: ["P1", "【截获】"]}, {1: [79]}, zone=[36])
    assert g.card_use.timing is None
    _use(g, "筹划")
    assert hand(g, 0) == {79} and hand(g, 1) == set()
    (used,) = events(g, "card_used", uid=36)
    assert used["seat"] == 0 and used["target"] == 1 and used["timing"] == "play_phase"
    assert events(g, "card_resolved", uid=36)
    assert g.zones.by_uid[36] in g.zones.discard_pile
    assert g.card_use.timing is None  # the moment it was used at is not left behind
    done(g)


def test_a_use_the_card_has_not_at_that_idle_point_is_not_made(tmp_path):
    # 威逼 has no use at the contest: usable is false, use_card would not resolve; the skill discards it instead
    g = _table(tmp_path, {}, {}, zone=[36], at="contest")
    _use(g, "筹划")
    assert not events(g, "card_used") and g.zones.by_uid[36] in g.zones.discard_pile
    done(g)


def test_a_hand_card_is_used_at_a_named_moment_with_its_conditions(tmp_path):
    # 试探 #1 in hand used as if in the play phase (its target P2); the 截获 #79 beside it has no play-phase use and
    # is not offered (the choice of one card asks nothing)
    g = _table(tmp_path, {0: ["P2"]}, {0: [1, 79], 2: [80]})
    _use(g, "急用")
    (used,) = events(g, "card_used", uid=1)
    assert used["target"] == 2
    assert 79 in hand(g, 0) and 1 not in hand(g, 0)
    g.check_invariants()


def test_another_players_zone_card_is_not_usable(tmp_path):
    g = _table(tmp_path, {}, {}, zone=[36])
    z = g.zones
    card = z.by_uid[36]
    p1 = g.players[1]
    ctype = card.type
    assert g.card_use.legal_uses(g.players[0], card, ctype, "play_phase")
    assert not g.card_use.legal_uses(p1, card, ctype, "play_phase")


@pytest.mark.parametrize(
    ("at", "hint"),
    [("play", "play_phase"), ("contset", "contest")],
)
def test_an_unknown_idle_point_is_an_error_at_its_place_with_the_closest_one(tmp_path, at, hint):
    with pytest.raises(ContentErrors) as e:
        load_content(resolve_packs([_pack(tmp_path, at)], ["none"]))
    errs = [x for x in e.value.errors if x.code == "E316"]
    assert len(errs) == 2  # usable's and use_card's
    assert all(f'"{at}"' in str(x) and hint in (x.hint or "") and x.line and x.col for x in errs)


def test_an_idle_point_computed_in_play_is_refused(tmp_path):
    pack = _pack(tmp_path)
    role = pack / "roles" / "demo_plotter.yaml"
    role.write_text(role.read_text(encoding="utf-8").replace('at: "play_phase")\n', "at: name_of(c))\n", 1))
    with pytest.raises(ContentErrors) as e:
        load_content(resolve_packs([pack], ["none"]))
    assert any(x.code in ("E302", "E316") for x in e.value.errors)


def test_describe_words_the_moment():
    code = 'use_card(c, at: "play_phase")\nuse_card(none, as: 【威逼】, at: "contest")'
    text = describe_program(textwrap.dedent(code))
    assert "如在出牌阶段般使用" in text and "如在争夺阶段般视为使用【威逼】" in text, text
