"""What code reads (catalogue.STATE_PARTS, builtins' `reads`) and the checks it lets the engine skip.

A collect check that found no winner is not run again until something its conditions read changed — when
every collect-stage condition of the content declares what it reads. These tests build real tables and
count the conditions the engine evaluates.
"""

from __future__ import annotations

import pytest

from conftest import Seat
from interpreter.content.loader import load_cached
from interpreter.engine.errors import GameOver
from interpreter.engine.state import INTEL, LEFT, RED, RIGHT
from interpreter.engine.table import build
from interpreter.language import builtins
from interpreter.language.compiler import CONTEXT_VARS, Compiler

RED_ID, BLUE_ID = "qian_fu_zhan_xian", "te_gong_ji_guan"


def reads(text: str, env: tuple[str, ...] = ("self", "current", "subject")):
    comp = Compiler({n: CONTEXT_VARS[n] for n in env}, "collect", {})
    comp.expression(text, "bool")
    assert not comp.errors, comp.errors
    return comp.state_reads()


def test_a_condition_reads_what_its_primitives_and_context_variables_declare():
    assert reads("count(intel(self) where it has red) >= 3") == {"intel"}
    assert reads("current == self") == {"turn"}
    assert reads("any_of(others(self) where count(intel(it)) > 1) and current == self") == {
        "intel",
        "standing",
        "turn",
    }
    assert reads("true") == frozenset()
    # hand_count declares nothing: the condition may read anything
    assert builtins.BUILTINS["hand_count"].reads is None
    assert reads("hand_count(self) > 0") is None


def test_only_a_query_declares_reads_and_only_known_parts():
    with pytest.raises(ValueError, match="STATE_PARTS"):
        builtins.declare("made_up_read", "query", [], "int", "x", reads=("the_weather",))
    assert "made_up_read" not in builtins.BUILTINS


def red_cards(content, k):
    return [e.uid for e in content.deck if e.mask == RED][:k]


def test_a_collect_check_is_run_again_only_when_what_it_reads_changed(monkeypatch):
    content = load_cached()
    assert all(
        v.reads is not None
        for h in (*content.identities.values(), *content.tasks.values())
        for v in h.victories
        if v.check in ("collect", "collect_unclaimed")
    )
    r = red_cards(content, 6)
    # P0 (blue) holds three red intel: no winner, but every node has a collect check to make
    g = build(
        content,
        [dict(identity=BLUE_ID, intel=r[:3]), dict(identity=RED_ID, intel=r[3:5]), dict(identity=BLUE_ID)],
        [Seat() for _ in range(3)],
    )
    assert g.victory.collect_exact
    held: list[int] = []  # the seats whose conditions the engine evaluated

    def counted(condition):
        def run(ctx):
            held.append(ctx.me.seat)
            return condition(ctx)

        return run

    # each collect condition of the content counts its evaluations (the content's own objects, not the engine's
    # methods: the engine may be compiled, README "A compiled engine")
    for h in (*content.identities.values(), *content.tasks.values()):
        for v in h.victories:
            if v.check in ("collect", "collect_unclaimed"):
                monkeypatch.setattr(v, "condition", counted(v.condition))
    g.victory.check_collect_victory()
    assert held == [0]  # P0's own condition (blue): false
    held.clear()
    g.emit("note", seat=1)  # something happened, but nothing a collect condition reads
    g.victory.check_collect_victory()
    assert held == []
    g.seats.add_status(g.players[2], "cannot_use_cards")
    g.emit("status", seat=2)
    g.victory.check_collect_victory()
    assert held == []
    # a third red intel in front of P1 (red): checked again, and P1 wins with his camp
    g.zones.move(g.zones.by_uid[r[5]], INTEL, g.players[1])
    with pytest.raises(GameOver) as over:
        g.victory.check_collect_victory()
    assert [p.seat for p in over.value.winners] == [1]
    assert held == [0, 1]


def test_a_seat_leaving_the_game_is_a_change_the_check_sees():
    content = load_cached()
    r = red_cards(content, 3)
    g = build(
        content,
        [dict(identity=BLUE_ID, intel=r), dict(identity=BLUE_ID), dict(identity=RED_ID)],
        [Seat() for _ in range(3)],
    )
    g.victory.check_collect_victory()
    before = g.seats.standing
    g.seats.withdraw(g.players[0])
    assert g.seats.standing == before + 1
    assert g.victory.collect_quiet[1] != g.seats.standing


def test_the_living_kept_per_seat_follow_every_change_of_the_standing():
    content = load_cached()
    g = build(
        content,
        [dict(identity=BLUE_ID), dict(identity=RED_ID), dict(identity=BLUE_ID), dict(identity=RED_ID)],
        [Seat() for _ in range(4)],
    )
    p0, p1, p2, p3 = g.players
    assert g.seats.alive_from(p2) == [p2, p3, p0, p1] and g.seats.alive_count() == 4
    g.seats.kill(p3)  # dying and death resolve through Seats: each counts as a change
    assert g.seats.alive_from(p2) == [p2, p0, p1] and g.seats.alive_count() == 3
    assert g.seats.neighbor(p2, RIGHT) is p0 and g.seats.neighbor(p0, LEFT) is p2
    g.seats.withdraw(p1)
    assert g.seats.alive_players() == [p0, p2] and g.seats.alive_count() == 2
    mine = g.seats.alive_from(p0)
    mine.append(p3)  # a caller's list is its own: what is kept does not change
    assert g.seats.alive_from(p0) == [p0, p2]
