"""游戏开始时 (trigger `game_start`): once, after the deal and before the first turn, recorded in every game of a
content with a skill reacting to it, dealt or not (a face-down role's would be told by the record). 徐静·蓄爆 of
examples/san_guo_mechanics (蓄力技（1/3）) takes its initial charge there."""

from __future__ import annotations

from pathlib import Path

from interpreter.agents import RandomAgent
from interpreter.content.loader import load_cached
from interpreter.content.packs import default_packs, resolve_packs
from interpreter.engine.game import Game

SAN_GUO = Path(__file__).parents[1] / "examples" / "san_guo_mechanics"


def _game(content, seed, n=5):
    g = Game(content, n, seed, [RandomAgent(seed * 10 + i) for i in range(n)], max_turns=3, record=True)
    g.run()
    return g


def test_game_start_comes_once_before_the_first_turn_and_charges_xu_jing():
    content = load_cached(resolve_packs([SAN_GUO]))
    seen = 0
    for seed in range(1, 200):
        g = _game(content, seed)
        kinds = [r.get("e") for r in g.log]
        owner = next((p for p in g.players if p.role is not None and p.role.id == "xu_jing"), None)
        assert kinds.count("game_start") == 1  # whoever was dealt 徐静: the content has a skill reacting to it
        if owner is None or not owner.role_face_up:
            continue
        assert kinds.index("game_start") < kinds.index("turn_start")
        first = kinds.index("turn_start")
        charged = [r for r in g.log[:first] if r.get("e") == "mark" and r.get("key") == "蓄力"]
        assert [(r["seat"], r["value"]) for r in charged] == [(owner.seat, 1)]  # before anyone's turn
        seen += 1
        if seen == 2:
            break
    assert seen == 2


def test_a_game_without_game_start_skills_records_none():
    content = load_cached(default_packs())
    g = _game(content, 7)
    assert "game_start" not in {r.get("e") for r in g.log}
