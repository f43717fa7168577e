"""The RL adapters and the step API resolve pack folders as the CLI's --content does (content/packs.py,
pack_folders): a fork that is only a pack.yaml over the base game (examples/jia_gui: draws two, adds a role)
loads onto the bundled game and its expansions, not alone; a misspelt folder is the CLI's one sentence."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conftest import fengsheng
from interpreter.content.loader import BUNDLED_CONTENT, load_cached, load_packs
from interpreter.content.packs import PackError
from interpreter.engine.step import GameState

FORK = Path(__file__).resolve().parent.parent / "examples" / "jia_gui"
NEW_ROLE = "hua_mei"  # the role the fork adds


def _dealt(state: GameState) -> bool:
    return any(r.id == NEW_ROLE for p in state._game.players for r in p.dealt_roles)


def _seed_dealing_the_new_role(content, players: int = 5) -> int:
    """The first seed whose deal hands the fork's new role to a seat (found, not pinned: the deal is the fork's)."""
    for seed in range(200):
        state = GameState(content, players, seed)
        try:
            if _dealt(state):
                return seed
        finally:
            state.close()
    raise AssertionError(f"no seed under 200 deals {NEW_ROLE}")


def test_load_packs_layers_a_pack_only_fork_on_the_bundled_game():
    fork = load_packs([FORK])
    bundled = load_cached()
    assert NEW_ROLE in fork.roles and NEW_ROLE not in bundled.roles
    assert fork.rules.draw_count == 2 and bundled.rules.draw_count == 3
    # the bundled expansions are there too (every bundled role but the one the fork removes)
    assert set(bundled.roles) - set(fork.roles) == {"a_fu_luo_la_jian_die"}
    assert load_packs([BUNDLED_CONTENT, FORK]) is fork  # the old workaround, the base listed first: the same set
    assert len(load_packs([FORK], "none").roles) < len(fork.roles)  # --expansions none, as the CLI's


def test_load_packs_refuses_a_misspelt_folder_as_the_cli_does(tmp_path, monkeypatch):
    (tmp_path / "jia_gui").mkdir()
    with pytest.raises(PackError) as e:
        load_packs([tmp_path / "jia_gu"])
    said = str(e.value)
    assert said == f"Directory '{tmp_path / 'jia_gu'}' does not exist: did you mean {tmp_path / 'jia_gui'}?"
    cli = fengsheng("simulate", "-n", "1", "--content", tmp_path / "jia_gu").output
    assert f"Invalid value for '--content': {said} (see" in cli, cli
    with pytest.raises(PackError, match="has no expansion"):
        load_packs([FORK], "tie_wu")


def test_openspiel_plays_a_pack_only_fork():
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.rl import openspiel_game  # noqa: F401  (registers python_fengsheng)

    seed = _seed_dealing_the_new_role(load_packs([FORK]))
    game = pyspiel.load_game("python_fengsheng", {"players": 5, "seed": seed, "content": str(FORK)})
    assert game.content is load_packs([FORK])
    state = game.new_initial_state()
    state.apply_action(0)  # the deal
    assert _dealt(state.game_state)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.returns()) == 5
    none = pyspiel.load_game("python_fengsheng", {"players": 5, "content": str(FORK), "expansions": "none"})
    assert none.content is load_packs([FORK], "none")
    with pytest.raises(PackError, match="does not exist: did you mean"):
        pyspiel.load_game("python_fengsheng", {"players": 5, "content": str(FORK.parent / "jia_gu")})


def test_pettingzoo_plays_a_pack_only_fork():
    pytest.importorskip("pettingzoo")
    np = pytest.importorskip("numpy")
    from interpreter.rl.pettingzoo_env import env

    seed = _seed_dealing_the_new_role(load_packs([FORK]))
    e = env(players=5, content=FORK)
    assert e.unwrapped.content is load_packs([FORK])
    e.reset(seed=seed)
    assert _dealt(e.unwrapped.game_state)
    rng = random.Random(seed)
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert env(players=5, content=[str(FORK)], expansions="none").unwrapped.content is load_packs([FORK], "none")
    with pytest.raises(PackError, match="does not exist: did you mean"):
        env(players=5, content=FORK.parent / "jia_gu")
    with pytest.raises(ValueError, match="expansions="):
        env(players=5, content=load_cached(), expansions="none")
