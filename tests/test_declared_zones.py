"""Zones the rules declare (`zones:` in rules.yaml or a pack's `rules:`; issue 26 item 1), with a made-up fork
(tests/fixtures/zones_pack): a private pile only its owner may look at, a 仁区-like shared face-up zone that
overflows to the discard pile, an extra face-down pile beside the deck, and a face-down judgement area resolved at
the draw phase. The seat boundary: a private zone's card is in no other seat's observation, and a resample for
another seat deals it no more often than any hidden card."""

from __future__ import annotations

import contextlib
import json
import random
import textwrap
from pathlib import Path

import pytest

from conftest import S, Seat, done, events, hand
from interpreter.content.loader import BUNDLED_CONTENT, ContentErrors, load_cached, load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.errors import GameOver
from interpreter.engine.observation import observe
from interpreter.engine.pins import Pins
from interpreter.engine.state import DISCARD
from interpreter.engine.table import build
from interpreter.sim import play_game

PACK = Path(__file__).parent / "fixtures" / "zones_pack"


def _table(answers: dict[int, list], hands: dict[int, list[int]], deck_top=(60, 61, 62, 63)):
    """Four seats, P0 the made-up 测试区域 (public), each seat's hand as given."""
    content = load_cached([BUNDLED_CONTENT, PACK])
    seats = [S("red" if i % 2 else "blue", hand=hands.get(i, ())) for i in range(4)]
    g = build(content, seats, [Seat(answers.get(i, ())) for i in range(4)], deck_top=list(deck_top))
    p0 = g.players[0]
    p0.role = content.roles["demo_zoner"]
    p0.role_face_up = True
    return g


def _use(g, name: str) -> None:
    p0 = g.players[0]
    g.skills.use_skill(p0, next(s for s in p0.role.skills if s.name == name))


def _uids(cards) -> list:
    return [c.uid for c in cards]


def _names(obs) -> str:
    """The observation as text, for a search of a card's id in it."""
    return json.dumps(obs, default=lambda o: dict(o) if hasattr(o, "items") else list(o), ensure_ascii=False)


def test_a_private_zone_is_seen_by_its_owner_alone():
    g = _table({0: ["#27"]}, {0: [27, 31]})
    _use(g, "藏牌")
    z, dz = g.zones, g.declared_zones
    assert _uids(dz.zone_cards(dz.declared_zone("私藏"), g.players[0])) == [27] and hand(g, 0) == {31}
    assert [s for s in range(4) if z.knows(s, 27)] == [0]
    mine = observe(g, 0)
    assert mine["players"][0]["zones"]["私藏"][0]["id"] == 27
    for s in (1, 2, 3):
        obs = observe(g, s)
        assert obs["players"][0]["zones"]["私藏"] == (None,)  # how many, not which
        assert '"id": 27' not in _names(obs), s
    (rec,) = events(g, "to_zone", zone="私藏")
    assert rec["seat"] == 0 and rec["secret"] == {"cards": [0]}
    done(g)


def test_cards_taken_back_from_a_private_zone():
    g = _table({0: ["#27"]}, {0: [27, 31]})
    _use(g, "藏牌")
    _use(g, "取藏")
    assert hand(g, 0) == {27, 31} and not g.zones.piles[g.declared_zones.declared_zone("私藏"), 0]
    done(g)


def test_a_shared_face_up_zone_overflows_its_oldest_cards_to_the_discard_pile():
    g = _table({0: ["#21", "#22", "#23"]}, {0: [20, 21, 22, 23]})
    z, dz = g.zones, g.declared_zones
    ren = dz.declared_zone("仁区")
    for _ in range(4):
        _use(g, "施仁")
    # put in 21, 22, 23, then 20 (the last card, not asked): a queue lists the oldest first; 21 overflowed
    assert _uids(dz.zone_cards(ren, None)) == [22, 23, 20]
    assert z.by_uid[21].zone == DISCARD and _uids(z.discard_pile) == [21]
    for s in range(4):  # face up: every seat sees the faces, in the shared `zones` field
        assert [c["id"] for c in observe(g, s)["zones"]["仁区"]] == [22, 23, 20]
    done(g)


def test_an_extra_face_down_pile_beside_the_deck():
    g = _table({}, {})
    z, dz = g.zones, g.declared_zones
    _use(g, "备牌")
    pile = dz.zone_cards(dz.declared_zone("备用牌堆"), None)
    assert _uids(pile) == [61, 60]  # a stack: the last put in comes out first
    assert all(not z.knows(s, 60) for s in range(4))  # from the deck face down: nobody knows them
    assert observe(g, 2)["zones"]["备用牌堆"] == (None, None)
    done(g)


def test_a_face_down_judgement_area_resolves_at_the_draw_phase_and_is_revealed_at_the_end():
    g = _table({0: ["#27"]}, {0: [27, 31]})
    z, dz = g.zones, g.declared_zones
    _use(g, "蓄谋")
    area = dz.declared_zone("蓄谋区")
    assert _uids(dz.zone_cards(area, g.players[0])) == [27]
    assert [s for s in range(4) if z.knows(s, 27)] == [0]  # face down: who put it there knows it
    dz.reveal_zones_at_end()  # (the game's end shows it: at_end reveal)
    assert all(z.knows(s, 27) for s in range(4))
    g2 = _table({0: ["#27"]}, {0: [27, 31]})
    g2.skills.index_triggers()  # (P0's role was set after the table was built)
    _use(g2, "蓄谋")
    g2.flow.draw_phase(g2.players[0], "draw")  # 谋成: shows and discards the plotted card, draws one more
    assert not g2.declared_zones.zone_cards(area, g2.players[0]) and g2.zones.by_uid[27].zone == DISCARD
    assert hand(g2, 0) == {31, 60, 61, 62, 63}  # 1 for 谋成, then the draw phase's 3
    done(g2)


def test_a_resample_for_another_seat_deals_a_private_card_like_any_hidden_card():
    g = _table({0: ["#27"]}, {0: [27, 31]})
    _use(g, "藏牌")
    z = g.zones
    pile = z.piles[g.declared_zones.declared_zone("私藏"), 0]
    hidden = sum(1 for c in z.cards if not z.card_visible(c, 1))
    z.redeal(0, random.Random(0))  # the owner sees it: his re-deal keeps it
    assert pile[0].uid == 27
    true_face = 0
    for k in range(300):
        z.redeal(1, random.Random(k))
        true_face += pile[0].uid == 27
    assert true_face < 300 * 3 / hidden + 5  # about one in `hidden` (the honest rate), not always
    g.check_invariants()


def test_a_zone_the_rules_do_not_declare_is_an_error_at_its_name(tmp_path):
    pack = tmp_path / "fork"
    (pack / "roles").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "id: fork\nname: 分支\nextends: [base]\nrules:\n  zones:\n    私藏: {look: owner}\n", encoding="utf-8"
    )
    role = (PACK / "roles" / "demo_zoner.yaml").read_text(encoding="utf-8")
    role = role.replace('"私藏", self)\n', '"私仓", self)\n')
    (pack / "roles" / "demo_x.yaml").write_text(role.split("  - id: demo_unhide")[0], encoding="utf-8")
    with pytest.raises(ContentErrors) as e:
        load_content(resolve_packs([pack], ["none"]))
    (err,) = [x for x in e.value.errors if x.code == "E311"]
    assert "私仓" in str(err) and "私藏" in str(err)


def test_a_shared_zone_has_no_owner_to_look(tmp_path):
    pack = tmp_path / "fork"
    pack.mkdir()
    text = "id: fork\nname: 分支\nextends: [base]\nrules:\n" + textwrap.indent("zones:\n  公区: {per: shared}\n", "  ")
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentErrors) as e:
        load_content(resolve_packs([pack], ["none"]))
    (err,) = [x for x in e.value.errors if x.code == "E113"]
    assert "公区" in str(err) and err.hint and "everyone" in err.hint


def test_games_with_the_zones_keep_the_invariants_and_the_seat_boundary():
    """Random games with the made-up role pinned: the zones stay consistent; a dead player's discarding zones
    are empty; when the game ends the `at_end: reveal` zones are known to every seat and the private ones are
    still in no other seat's observation."""
    content = load_cached([BUNDLED_CONTENT, PACK])
    moved = 0
    for i in range(12):
        game, failure = play_game(content, 5, 70 + i, record=True, agents=("random",) * 5, pins=Pins("demo_zoner"))
        assert failure is None, failure
        game.check_invariants()
        z, dz = game.zones, game.declared_zones
        moved += sum(1 for r in game.log if r.get("e") == "to_zone")
        plot, private = dz.declared_zone("蓄谋区"), dz.declared_zone("私藏")
        for p in game.players:
            if not p.alive and not p.out:
                assert not dz.zone_pile(plot, p) and not dz.zone_pile(private, p)
            assert all(z.knows(s, c.uid) for c in dz.zone_pile(plot, p) for s in range(5))
            for s in range(5):
                seen = observe(game, s)["players"][p.seat]["zones"]["私藏"]
                assert len(seen) == len(dz.zone_pile(private, p))
                if s != p.seat:
                    assert all(c is None or z.knows(s, c["id"]) for c in seen)
    assert moved > 20  # the zones were used


def test_a_dead_players_zones_are_discarded():
    g = _table({0: ["#27", "不"]}, {0: [27, 31]})  # (his last gift: none)
    _use(g, "藏牌")
    with contextlib.suppress(GameOver):  # (the death may end the game: its discarding is done by then)
        g.resolution.resolve_deaths([g.players[0]])
    z, dz = g.zones, g.declared_zones
    assert not dz.zone_pile(dz.declared_zone("私藏"), g.players[0]) and z.by_uid[27].zone == DISCARD
    g.check_invariants()
