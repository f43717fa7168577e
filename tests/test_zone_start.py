"""A zone's starting cards and their return (`start:`, `returns:` of a shared zone the rules declare; seed 001's
额外牌堆), with the made-up fork tests/fixtures/extra_pile_pack: the four 调虎离山 (deck ids 109-112) begin in a
face-down pile beside the deck, and one bound for the discard pile goes back there, shuffled in."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import S, Seat
from interpreter.content.loader import BUNDLED_CONTENT, ContentErrors, load_cached, load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.observation import observe
from interpreter.engine.state import DECK, HAND
from interpreter.engine.table import build, card
from interpreter.sim import play_game

PACK = Path(__file__).parent / "fixtures" / "extra_pile_pack"
EXTRA = {109, 110, 111, 112}


def test_the_selected_copies_begin_in_the_zone_not_in_the_deck():
    content = load_cached([BUNDLED_CONTENT, PACK])
    game, failure = play_game(content, 5, 3, record=True, agents=("random",) * 5)
    assert failure is None, failure
    game.check_invariants()
    z, dz = game.zones, game.declared_zones
    extra = dz.declared_zone("备用牌堆")
    assert {c.uid for c in z.cards if c.uid in EXTRA} == EXTRA
    assert set(z.homes) == EXTRA and set(z.homes.values()) == {extra}
    assert not EXTRA & {c.uid for c in z.discard_pile}  # none lies in the discard pile: each went back
    first = observe(game, 0)
    assert len(first["zones"]["备用牌堆"]) == len(dz.zone_pile(extra, None))


def test_a_dealt_table_starts_with_them_and_a_discarded_one_goes_back_unfollowed():
    content = load_cached([BUNDLED_CONTENT, PACK])
    g = build(content, [S("red", hand=(27, 109)), S("blue", hand=(31,))], [Seat(()), Seat(())], deck_top=[110])
    z, dz = g.zones, g.declared_zones
    extra = dz.declared_zone("备用牌堆")
    # 109 in a hand and 110 stacked on the deck stay where the table put them; the others begin in the pile
    assert {c.uid for c in dz.zone_pile(extra, None)} == {111, 112}
    assert card(g, 109).zone == HAND and card(g, 110).zone == DECK
    z.discard_cards([card(g, 109)])
    assert {c.uid for c in dz.zone_pile(extra, None)} == {109, 111, 112}
    assert not any(z.knows(s, 109) for s in range(2))  # shuffled into a face-down pile: nobody can follow it
    assert not z.discard_pile
    z.discard_cards([card(g, 27)])  # an ordinary card is discarded as usual
    assert [c.uid for c in z.discard_pile] == [27]
    g.check_invariants()


def _fork(tmp_path, zone: str):
    pack = tmp_path / "fork"
    pack.mkdir()
    text = "id: fork\nname: 分支\nextends: [base]\nrules:\n" + textwrap.indent("zones:\n" + zone, "  ")
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentErrors) as e:
        load_content(resolve_packs([pack], ["none"]))
    return e.value.errors


def test_only_a_shared_zone_has_starting_cards(tmp_path):
    errors = _fork(tmp_path, "  私区: {look: owner, start: {card: jie_huo}}\n")
    (err,) = [x for x in errors if x.code == "E113"]
    assert "私区" in str(err) and err.hint and "per: shared" in err.hint and err.line == 6


def test_a_starting_card_kind_the_content_lacks_is_said_with_the_closest(tmp_path):
    errors = _fork(tmp_path, "  备用: {per: shared, look: nobody, start: {card: jie_hou}}\n")
    (err,) = [x for x in errors if x.code == "E121"]
    assert "jie_hou" in str(err) and err.hint and "jie_huo" in err.hint
