"""Moves within the zones the rules declare, and reading them (issue 26 item 1), with the made-up fork
tests/fixtures/zones_pack: put_in_zone onto a zone's top or under its bottom, a reorder by putting a zone's
cards back, overflow from the bottom, and the in_zone condition."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import interpreter.engine.primitives  # noqa: F401  (registers what each primitive does)
from conftest import S, Seat, fengsheng
from interpreter.content.loader import BUNDLED_CONTENT, load_cached, load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.state import DISCARD, shuffle
from interpreter.engine.step import _redeal
from interpreter.engine.table import build, card
from interpreter.language.builtins import BUILTINS
from interpreter.language.runtime import Ctx

PACK = Path(__file__).parent / "fixtures" / "zones_pack"


def _game():
    content = load_cached([BUNDLED_CONTENT, PACK])
    seats = [S("red", hand=(27, 28, 29, 30)), S("blue", hand=(31,))]
    return build(content, seats, [Seat(()), Seat(())], deck_top=[60, 61, 62, 63])


def _call(g, name, *args):
    return BUILTINS[name].impl(Ctx(g, g.players[0]), *args)


def _cards(g, *uids):
    return [card(g, u) for u in uids]


def _listed(g, zone, p=None):
    return [c.uid for c in _call(g, "zone_cards", zone, p)]


def test_a_stack_takes_cards_on_its_top_or_under_its_bottom():
    g = _game()
    p0 = g.players[0]
    assert _call(g, "put_in_zone", _cards(g, 27, 28), "私藏", p0, False)
    assert _listed(g, "私藏", p0) == [28, 27]  # a stack: the last put there comes out first
    assert _call(g, "put_in_zone", _cards(g, 29), "私藏", p0, True)
    assert _listed(g, "私藏", p0) == [28, 27, 29]  # under the bottom: it comes out last
    assert _call(g, "zone_top", "私藏", p0).uid == 28


def test_putting_a_zones_cards_back_reorders_it():
    g = _game()
    p0 = g.players[0]
    _call(g, "put_in_zone", _cards(g, 27, 28, 29), "私藏", p0, False)
    assert _listed(g, "私藏", p0) == [29, 28, 27]
    _call(g, "put_in_zone", _cards(g, 29, 28), "私藏", p0, False)  # the two on top, put back: 28 now on top
    assert _listed(g, "私藏", p0) == [28, 29, 27]
    assert g.zones.knows(0, 27) and not g.zones.knows(1, 27)  # a reorder shows nobody anything
    g.check_invariants()


def test_a_queue_overflows_from_its_bottom_even_a_card_just_put_there():
    g = _game()
    _call(g, "put_in_zone", _cards(g, 27, 28, 29), "仁区", None, False)
    assert _listed(g, "仁区") == [27, 28, 29]  # a queue: its bottom (the oldest) first
    _call(g, "put_in_zone", _cards(g, 30), "仁区", None, False)
    assert _listed(g, "仁区") == [28, 29, 30] and card(g, 27).zone == DISCARD
    _call(g, "put_in_zone", _cards(g, 31), "仁区", None, True)  # under the bottom of a full zone: out at once
    assert _listed(g, "仁区") == [28, 29, 30] and card(g, 31).zone == DISCARD
    g.check_invariants()


def test_in_zone_tells_where_a_card_is():
    g = _game()
    p0, p1 = g.players
    _call(g, "put_in_zone", _cards(g, 27), "私藏", p0, False)
    _call(g, "put_in_zone", _cards(g, 28), "仁区", None, False)
    assert _call(g, "in_zone", card(g, 27), "私藏", p0) is True
    assert _call(g, "in_zone", card(g, 27), "私藏", None) is True  # anyone's
    assert _call(g, "in_zone", card(g, 27), "私藏", p1) is False
    assert _call(g, "in_zone", card(g, 27), "仁区", None) is False
    assert _call(g, "in_zone", card(g, 28), "仁区", None) is True
    assert _call(g, "in_zone", card(g, 29), "私藏", p0) is False  # a hand card
    assert _call(g, "in_zone", None, "仁区", None) is False


# ---------------------------------------------------------------- shuffled: several cards in an order drawn at random

SHUFFLE_PACK = Path(__file__).parent / "fixtures" / "shuffle_pack"
HAND = [27, 35, 40, 41]


def _shuffler(seed: int):
    """A table at `seed` whose P0 (the made-up 洗牌手) holds HAND."""
    content = load_cached([BUNDLED_CONTENT, SHUFFLE_PACK])
    g = build(content, [S("red", hand=HAND), S("blue")], [Seat(()), Seat(())], seed=seed)
    p0 = g.players[0]
    p0.role, p0.role_face_up = content.roles["demo_shuffler"], True
    return g, p0, content.roles["demo_shuffler"].skills


def _onto_deck(seed: int) -> tuple[list[int], object]:
    """乱序 at `seed`: the deck's top four cards, top first, and the game's generator after it."""
    g, p0, (luan_xu, _) = _shuffler(seed)
    g.skills.use_skill(p0, luan_xu)
    return [c.uid for c in reversed(g.zones.deck[-len(HAND) :])], g.rng.getstate()


def test_shuffled_draws_an_order_of_the_same_cards_from_the_games_generator():
    """put_on_deck(shuffled(hand(self))): the same four cards, in an order drawn by the engine's shuffle from the
    game's own generator (nothing else draws in between), so a seed gives one order, and the seeds give many."""
    orders = []
    for seed in range(24):
        order, state = _onto_deck(seed)
        assert sorted(order) == HAND  # a permutation of the hand, nothing lost nor added
        assert _onto_deck(seed) == (order, state)  # the same seed: the same order, the generator left the same
        g, _, _ = _shuffler(seed)
        drawn = list(HAND)
        shuffle(g.rng, drawn)  # what the game's generator draws at that point
        assert order == drawn  # (put_on_deck: the list's first card ends on top)
        orders.append(tuple(order))
    assert len(set(orders)) > 10  # 24 seeds, 24 orders of four cards: not one order for all


def test_a_card_shuffled_alone_or_not_moved_keeps_who_follows_it():
    """One card has no order to hide: shuffled of it marks nothing; cards shuffled and then put in a hand are
    followed as any card put there, and the mark ends with the effect."""
    g, p0, _ = _shuffler(0)
    ctx = Ctx(g, p0)
    one = BUILTINS["shuffled"].impl(ctx, [card(g, 27)])
    assert [c.uid for c in one] == [27] and not g.zones.drawn
    BUILTINS["put_on_deck"].impl(ctx, one, False)
    assert g.zones.knows(0, 27)  # on top of the deck, and P0 knows it is there
    g.stack.push(object())  # an effect resolving
    two = BUILTINS["shuffled"].impl(ctx, _cards(g, 35, 40))
    assert g.zones.drawn == {35, 40}
    BUILTINS["put_in_hand"].impl(ctx, two, g.players[1])
    assert g.zones.knows(1, 35) and not g.zones.drawn  # moved: marked no more
    BUILTINS["shuffled"].impl(ctx, _cards(g, 41, 35))
    g.stack.pop()
    assert not g.zones.drawn  # the effect is over


def test_a_question_over_cards_of_an_order_drawn_shows_the_cards_not_the_order():
    """`let xs = shuffled(hand(self))` then a question over xs, then xs put on the deck in that order: the question
    listed the cards in the order drawn, which the seat then knew to be the deck's (docs/language.md: nobody sees the
    order drawn). Its options are the cards in deck-id order whatever the seed; the deck still gets the drawn order,
    and an option not among the shuffled cards keeps its place (here the pass, last)."""
    asked, tops = set(), set()
    for seed in range(12):
        g, p0, _ = _shuffler(seed)
        g.agents[0] = Seat([0, 0])  # the first option, twice
        ctx = Ctx(g, p0)
        g.stack.push(object())  # an effect resolving
        xs = BUILTINS["shuffled"].impl(ctx, list(p0.hand))
        picked = BUILTINS["choose"].impl(ctx, xs, None, "一张", True, False)
        many = BUILTINS["choose_many"].impl(ctx, xs, None, 0, 1, "几张")
        BUILTINS["put_on_deck"].impl(ctx, xs, False)
        g.stack.pop()
        first, second = (d.options for d in g.agents[0].asked)
        asked.update(tuple(o.uid if o is not None else None for o in opts) for opts in (first, second))
        assert picked is first[0] and many == [second[0]]
        tops.add(tuple(c.uid for c in reversed(g.zones.deck[-len(HAND) :])))
    assert asked == {(*sorted(HAND), None)}  # one order of options for every seed
    assert len(tops) > 6  # the deck's order is still the one drawn


def test_games_whose_effects_draw_an_order_replay_identically(tmp_path):
    """Seed and answers replay a game: the orders shuffled draws come from the game's generator, so replay draws
    them again (4 games of 3 seats, the made-up role dealt to a seat in each: it uses both its skills)."""
    log = tmp_path / "g.jsonl"
    args = ("--content", SHUFFLE_PACK, "--role", "demo_shuffler", "-p", 3, "-n", 4, "-s", 4, "-j", 1, "--log", log)
    r = fengsheng("simulate", *args)
    assert r.exit_code == 0, r.output
    text = log.read_text(encoding="utf-8")
    assert '"skill": "demo_luan_xu"' in text and '"skill": "demo_an_cang"' in text
    r = fengsheng("replay", log)
    assert r.exit_code == 0 and r.output.count("OK — identical") == 4, r.output


class _ReDealing(Seat):
    """P0 of the test below: before its first answer, the game is re-dealt in place for P1 (what a sample for P1,
    GameState.resample, does at that decision: step._redeal), then it answers as scripted."""

    def decide(self, decision, game):
        if not self.asked:
            self.faces_before = [c.uid for c in game.players[0].hand]
            _redeal(game, 1, random.Random(3))
            self.faces_after = [c.uid for c in game.players[0].hand]
        return super().decide(decision, game)


def test_an_order_drawn_before_a_re_deal_is_followed_by_nobody_after_it(tmp_path):
    """A re-deal in the middle of an effect (a sample taken at a question the effect asks) gives the cards new deck
    ids: the cards shuffled before it are still those whose order nobody saw, so once on the deck nobody follows
    them there (P0 held them: in the sample he still knew the order, his observation's known_cards gave it)."""
    pack = tmp_path / "fork"
    (pack / "roles").mkdir(parents=True)
    (pack / "pack.yaml").write_text("id: fork\nname: 分支\nextends: [base]\n", encoding="utf-8")
    role = """\
        id: demo_asker
        name: 问序
        title: 测试
        gender: male
        hidden: false
        skills:
          - id: s
            name: 问序
            text: 出牌阶段，你可以选择一名其他角色，然后将所有手牌以随机顺序置于牌堆顶。
            kind: active
            timing: play_phase
            effect: |
              let xs = shuffled(hand(self))
              let p = choose(from: others(self), prompt: "选择一名其他角色")
              put_on_deck(xs)
        """
    (pack / "roles" / "demo_asker.yaml").write_text(textwrap.dedent(role), encoding="utf-8")
    content = load_content(resolve_packs([pack], ["none"]))
    p0_seat = _ReDealing([0])
    g = build(content, [S("red", hand=(27, 35, 40)), S("blue"), S("blue")], [p0_seat, Seat(()), Seat(())], seed=0)
    p0 = g.players[0]
    p0.new_role(content.roles["demo_asker"], True)
    g.skills.use_skill(p0, p0.role.skills[0], Ctx(g, p0))
    assert p0_seat.faces_before != p0_seat.faces_after  # the re-deal gave his hand cards other deck ids
    top = [c.uid for c in g.zones.deck[-3:]]
    assert sorted(top) == sorted(p0_seat.faces_after)
    assert not any(g.zones.knows(seat, uid) for seat in (0, 1, 2) for uid in top)
    assert not g.zones.drawn
