"""bench/overrules.py: how a variant is read and made into a paired search, and (slow) a run end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from bench_scripts import load_bench

ROOT = Path(__file__).resolve().parents[1]


def _overrules():
    return load_bench("overrules")


def test_a_variant_is_read_into_the_search_it_names() -> None:
    bench = _overrules()
    assert bench.parse_variant("kept=") == ("kept", {})
    name, params = bench.parse_variant("wide=samples=16,horizon=1,bar=2,candidates=6,lean=0,kinds=send+play")
    assert name == "wide"
    assert params == {
        "samples": 16,
        "horizon": 1,
        "bar": 2.0,
        "candidates": 6,
        "lean": 0.0,
        "kinds": frozenset({"send", "play"}),
    }
    search = bench.make_search(5, None, params)
    assert (search.simulations, search.horizon, search.bar, search.candidates) == (16, 1, 2.0, 6)
    assert (search.lean_weight, search.kinds, search.rollout) == (0.0, frozenset({"send", "play"}), "paired")
    kept = bench.make_search(5, None, {})  # what search:8:paired makes
    from interpreter.agents.search import HORIZON, LEAN_WEIGHT, PAIRED_CANDIDATES, PAIRED_KINDS, PAIRED_Z

    assert (kept.simulations, kept.horizon, kept.bar, kept.candidates) == (8, HORIZON, PAIRED_Z, PAIRED_CANDIDATES)
    assert (kept.lean_weight, kept.kinds) == (LEAN_WEIGHT, PAIRED_KINDS)


def test_truth_deals_the_real_game_with_what_it_names_dealt_again() -> None:
    # (the diagnosis: the search of a variant with `truth` is handed copies of the real game, part of it dealt again)
    import random

    from interpreter.content.loader import load_cached
    from interpreter.engine.step import GameState

    bench = _overrules()
    assert bench.parse_variant("t=truth=game-cards+ids") == ("t", {"truth": "game-cards+ids"})
    with pytest.raises(ValueError, match="truth=cards is not one of game, game-cards"):
        bench.parse_variant("t=truth=cards")
    state = GameState(load_cached(), 8, 3)
    while state.current_player() != 0 or len(state.history()) < 60:  # (a decision of seat 0 well into the game)
        state.apply_action(state.legal_actions()[0])

    def faces(s: GameState) -> list[int]:  # (the deck's, then the other seats' hands', by place)
        return [c.face()[0] for c in s._game.zones.deck] + [c.face()[0] for p in s._game.players[1:] for c in p.hand]

    def ids(s: GameState) -> list[str]:
        return [p.identity.id for p in s._game.players]

    same = bench.Truth(state, 0, "game").sample(random.Random(1))
    assert faces(same) == faces(state) and ids(same) == ids(state)
    cards = bench.Truth(state, 0, "game-cards").sample(random.Random(1))
    assert faces(cards) != faces(state) and sorted(faces(cards)) == sorted(faces(state)) and ids(cards) == ids(state)
    assert [c.face()[0] for c in cards._game.players[0].hand] == [c.face()[0] for c in state._game.players[0].hand]
    both = [bench.Truth(state, 0, "game-ids").sample(random.Random(r)) for r in range(4)]
    assert all(faces(s) == faces(state) and ids(s)[0] == ids(state)[0] for s in both)
    assert any(ids(s) != ids(state) for s in both)
    for s in [same, cards, *both]:
        s.close()


@pytest.mark.parametrize("text", ["=samples=2", "a=foo=1", "a=samples=", "a=samples"])
def test_a_variant_not_of_the_form_is_refused_with_what_it_takes(text: str) -> None:
    with pytest.raises(ValueError, match=r"NAME=KEY=VALUE|is not KEY=VALUE with a key of samples"):
        _overrules().parse_variant(text)


@pytest.mark.slow
def test_a_run_prints_each_variants_overrules() -> None:
    # (games 7-8: the search overrules its guide there, three times with the bot of 2026-11-30; in games 3-4, where it
    # overruled it before, the guide's grab rule left it nothing to overrule)
    cmd = [sys.executable, str(ROOT / "bench" / "overrules.py"), "--games", "2", "--first", "7", "--rollouts", "2"]
    cmd += ["--variant", "kept=", "--variant", "never=kinds=nothing"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "5 players, games 7-8, seed 77, 2 rollouts an answer"
    kept = lines.index(next(line for line in lines if line.startswith("kept=: search ")))
    assert lines[kept + 1].startswith("  all ") and "overrules, gain" in lines[kept + 1]
    none = lines.index(next(line for line in lines if line.startswith("never=kinds=nothing: search ")))
    # each variant ends with its overrules' summed gain a game; a later one also with that less the first's
    assert lines[none - 1].startswith("  gain a game ") and "less the first" not in lines[none - 1]
    assert none == len(lines) - 3 and lines[none + 1] == "  no overrule"
    assert lines[none + 2].startswith("  gain a game +0.0000 ± 0.0000; less the first variant's, game by game, ")
