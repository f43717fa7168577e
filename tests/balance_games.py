"""Sweep directories made of real games, for the balance report's tests (no win rate is written by hand).

``make_sweep`` plays games as a sweep does (balance/grid.py: play_record) and writes sweep.json and
games.jsonl with records.py, as ``fengsheng balance`` writes them, in this process (no workers)."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter import __version__
from interpreter.balance import records, sweep

FIXTURES = Path(__file__).parent / "fixtures"


def fork_with_a_role(folder: Path) -> Path:
    """A fork pack at `folder`/pack that adds one role to the base game (tests/fixtures/role_pack's demo_clerk)."""
    pack = folder / "pack"
    (pack / "roles").mkdir(parents=True)
    shutil.copy(FIXTURES / "role_pack" / "roles" / "demo_clerk.yaml", pack / "roles")
    return pack


def game_entry(content, players: int, agents: str, pack: str, index: int, seed: int) -> dict:
    """One game's record as a sweep writes it (balance/sweep.py): its cell, its seed, the game and its seats."""
    return sweep.play_record(content, records.Cell(players, agents, pack), index, seed).to_dict()


def make_sweep(
    out: Path, content, players=(5,), agents=("random",), pack: str = "base", games: int = 20, seed: int = 1
) -> list[dict]:
    """Play the grid and write it as a sweep directory; returns the records."""
    out.mkdir(parents=True, exist_ok=True)
    games_played = [game_entry(content, n, a, pack, i, seed) for n in players for a in agents for i in range(games)]
    write_sweep(out, games_played, players=players, agents=agents, packs=[pack], per_cell=games, seed=seed)
    return games_played


def write_sweep(out: Path, games, players, agents, packs, per_cell: int, seed: int = 1) -> None:
    """sweep.json and games.jsonl, written by records.py as a sweep writes them."""
    spec = records.SweepSpec(
        version=__version__,
        seed=seed,
        players=tuple(players),
        agents=tuple(agents),
        packs=tuple(records.Pack(name) for name in packs),
        games=per_cell,
    )
    records.write_spec(out, spec)
    with open(out / records.GAMES_FILE, "w", encoding="utf-8") as f:
        for g in games:
            f.write(records.record_line(records.GameRecord.from_dict(g)))
