"""The turn's skeleton as data (rules `turn:`): phases reordered, repeated or dropped by a pack, and every
mistake in the list reported at its line (E113 with did-you-mean, E125 for an order the turn cannot play).

The base game's turn is the default; a fork's list replaces it whole (docs/modding.md, "The turn's skeleton").
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter import catalogue as C
from interpreter.content.loader import ContentErrors, load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.game import Game
from interpreter.model.content import base_phases
from interpreter.sim import random_agents


def fork(tmp: Path, turn: str, extra: str = "") -> Path:
    pack = tmp / "fork"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        textwrap.dedent(
            f"""\
            id: fork
            name: 分支
            extends: [base]
            rules:
              turn: {turn}
            """
        )
        + extra,
        encoding="utf-8",
    )
    return pack


def errors(pack: Path) -> list:
    with pytest.raises(ContentErrors) as e:
        load_content(resolve_packs([pack], ["none"]))
    return e.value.errors


def test_the_base_game_declares_its_turn_and_a_pack_inherits_it(tmp_path):
    base = load_content(resolve_packs((), ["none"]))
    assert [ph.kind for ph in base.rules.phases] == list(C.BASE_TURN) and base.rules.phases == base_phases()
    assert base.rules.resolution == "queued"
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: p\nname: p\nextends: [base]\nrules: {draw_count: 2}\n", encoding="utf-8")
    assert load_content(resolve_packs([pack], ["none"])).rules.phases == base.rules.phases


def test_a_repeated_phase_gets_its_own_id(tmp_path):
    content = load_content(
        resolve_packs([fork(tmp_path, "[draw, play, send, contest, receive, play, draw]")], ["none"])
    )
    assert [ph.id for ph in content.rules.phases] == ["draw", "play", "send", "contest", "receive", "play_2", "draw_2"]
    assert content.rules.phases[5].label() == "出牌阶段（play_2）"


def test_a_turn_without_contest_skips_straight_to_receiving(tmp_path):
    content = load_content(resolve_packs([fork(tmp_path, "[send, receive, draw]")], ["none"]))
    played = []
    for seed in range(3):
        g = Game(content, 3, seed, random_agents(seed, 3))
        g.trace = []  # (the resolution trace records each phase entered)
        g.run()
        seen = [t[1] for t in g.trace if t[0] == "phase"]
        turns = [t.split() for t in " ".join(seen).split("turn_end")]
        # every whole turn: send, then receive when the intel was accepted, then draw; the last may stop short
        assert all(t in (["send", "receive", "draw"], ["send", "draw"]) for t in turns[:-1]), turns
        played += turns[:-1]
    assert ["send", "receive", "draw"] in played


def test_an_unknown_phase_kind_is_pointed_at_with_a_suggestion(tmp_path):
    (err,) = errors(fork(tmp_path, "[draw, plya, send, contest, receive]"))
    assert err.code == "E113" and err.path.endswith("pack.yaml") and (err.line, err.col) == (5, 16)
    assert err.message == "unknown phase kind 'plya'" and "did you mean play?" in (err.hint or "")


@pytest.mark.parametrize(
    "turn, col, words",
    [
        ("[draw, play]", 9, "every turn sends an intel"),
        ("[draw, contest, send, receive]", 16, "needs a 'send' phase before it"),
        ("[send, receive, receive]", 25, "comes twice after the same 'send' phase"),
        ("[send, receive, contest]", 25, "nothing is left to contest"),
        ("[send, contest, play]", 10, "never received"),
        ("[send, send, receive]", 10, "never received"),
    ],
)
def test_an_order_the_turn_cannot_play_is_e125_at_its_phase(tmp_path, turn, col, words):
    found = errors(fork(tmp_path, turn))
    assert [e.code for e in found] == ["E125"], found
    (err,) = found
    assert words in err.message and err.path.endswith("pack.yaml") and (err.line, err.col) == (5, col), err


def test_an_unknown_resolution_model_is_pointed_at(tmp_path):
    pack = fork(tmp_path, "[draw, play, send, contest, receive]")
    with (pack / "pack.yaml").open("a", encoding="utf-8") as f:
        f.write("  resolution: queud\n")
    (err,) = errors(pack)
    assert err.code == "E113" and "did you mean queued?" in (err.hint or "")


def test_a_discard_phase_lets_each_player_discard_in_turn(tmp_path):
    from interpreter.scenario import run_scenario

    pack = fork(tmp_path, "[draw, play, send, contest, receive, discard]")
    (pack / "tests").mkdir()
    f = pack / "tests" / "discard.scenario.yaml"
    f.write_text(
        textwrap.dedent(
            """\
            name: 弃牌阶段 — from the current player, each may discard hand cards until they stop
            content: [..]
            players:
              - identity: qian_fu_zhan_xian
                hand: [36, 37]
              - identity: te_gong_ji_guan
                hand: [38]
            current: 1
            start: discard
            answers:
              1: [none]
              0: ["#37", "#36"]
            expect:
              players:
                0: {hand: []}
                1: {hand: [38]}
              discard_contains: [36, 37]
              events:
                - {e: discard, cards: [37, 36]}
                - {e: turn_end, seat: 1}
            """
        ),
        encoding="utf-8",
    )
    r = run_scenario(f, allow_outside=True)
    assert r.passed, r.report()
    assert next(t[1] for t in r.trace if t[0] == "node") == "弃牌阶段结束时"
