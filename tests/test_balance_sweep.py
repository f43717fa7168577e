"""`fengsheng balance` sweeps: the same records whatever runs them (--jobs 1, --jobs 2, Ray), a cell plays the
games `simulate` plays, an interrupted sweep resumes to the same records, a grid is extended by more games
and never mixed with another, and a mistake in the command line is one clear line."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from links import link_tree

from conftest import fengsheng
from interpreter.balance.records import GAMES_FILE, SWEEP_FILE, read_records
from interpreter.balance.sweep import PackSource, SweepError, make_spec, run_sweep
from interpreter.balance_cmd import default_out
from interpreter.cli_options import parse_players
from interpreter.content.loader import BUNDLED_CONTENT
from interpreter.content.packs import resolve_packs
from interpreter.sim import Summary, simulate

REPO = Path(__file__).resolve().parents[1]
RUNAWAY = Path(__file__).parent / "fixtures" / "runaway_pack"


@pytest.fixture(scope="module")
def base() -> PackSource:
    return PackSource("base", (), None, tuple(str(p) for p in resolve_packs([], None)))


def _spec(base, games=4, players=(4, 5), agents=("random", "heuristic,random,random,random,random"), seed=11):
    return make_spec(seed, players, agents, [base], games)


@pytest.fixture(scope="module")
def whole(base, content, tmp_path_factory) -> tuple[Path, object]:
    """The uninterrupted sweep of _spec(base) (12 games in one process) and what run_sweep said of it, played once
    for the three tests that compare with it (they only read it)."""
    d = tmp_path_factory.mktemp("whole")
    return d, run_sweep(d, _spec(base), [base], {"base": content}, jobs=1)


def _lines(records) -> list[str]:
    return [json.dumps(r.to_dict(), sort_keys=True, ensure_ascii=False) for r in records]


def test_jobs_1_and_jobs_2_write_the_same_records(tmp_path, base, content, whole):
    spec = _spec(base)
    assert [c.label() for c in spec.cells()] == [
        "4 players · random · base",
        "5 players · random · base",
        "5 players · heuristic,random,random,random,random · base",
    ]
    folder, one = whole  # jobs=1
    two = run_sweep(tmp_path / "two", spec, [base], {"base": content}, jobs=2)
    assert (one.played, one.kept, one.total) == (two.played, two.kept, two.total) == (12, 0, 12)
    a, b = read_records(folder), read_records(tmp_path / "two")
    assert len(a) == 12 and _lines(a) == _lines(b)
    assert (folder / SWEEP_FILE).read_text() == (tmp_path / "two" / SWEEP_FILE).read_text()
    # every game is a different deal, and its seats carry the cell's agents
    assert len({r.seed for r in a if r.cell.players == 5}) == 4
    mixed = [r for r in a if r.cell.agents.startswith("heuristic")]
    assert all([s.agent for s in r.seats] == ["heuristic", *["random"] * 4] for r in mixed)
    for r in a:
        assert sorted(s.seat for s in r.seats if s.won) == r.winner_seats
        assert [s.identity for s in r.seats] == r.identities


def test_a_cell_plays_the_games_simulate_plays(tmp_path, base, content):
    spec = _spec(base, games=5, players=(5,), agents=("heuristic,random,random,random,random",))
    run_sweep(tmp_path, spec, [base], {"base": content}, jobs=1)
    from_sweep = Summary(players=5, agents=spec.cells()[0].seat_kinds())
    for r in read_records(tmp_path):
        d = r.to_dict()
        d["skill_uses"] = Counter(d["skill_uses"])
        from_sweep.add_record(d)
    batch = simulate(content, 5, 5, spec.seed, agents=spec.cells()[0].seat_kinds())
    assert from_sweep.to_json() == batch.to_json()


def test_a_truncated_sweep_resumes_to_the_records_of_an_uninterrupted_one(tmp_path, base, content, whole):
    spec = _spec(base)
    folder = whole[0]
    part = tmp_path / "part"
    part.mkdir()
    shutil.copy(folder / SWEEP_FILE, part / SWEEP_FILE)
    lines = (folder / GAMES_FILE).read_text(encoding="utf-8").splitlines(keepends=True)
    (part / GAMES_FILE).write_text("".join(lines[7:1:-1]) + lines[0][:55], encoding="utf-8")  # 6 games, 1 cut
    seen: list[tuple[int, int]] = []
    done = run_sweep(part, spec, [base], {"base": content}, jobs=2, progress=lambda d, t: seen.append((d, t)))
    assert (done.kept, done.played) == (6, 6)
    assert seen[0] == (6, 12) and seen[-1] == (12, 12)
    assert _lines(read_records(part)) == _lines(read_records(folder))
    again = run_sweep(part, spec, [base], {"base": content}, jobs=1)  # nothing left to play
    assert (again.kept, again.played) == (12, 0)


def test_more_games_extend_a_sweep_fewer_or_another_grid_are_refused(tmp_path, base, content, whole):
    run_sweep(tmp_path / "a", _spec(base, games=2), [base], {"base": content}, jobs=1)
    grown = run_sweep(tmp_path / "a", _spec(base, games=4), [base], {"base": content}, jobs=1)
    assert (grown.kept, grown.played) == (6, 6)
    assert _spec(base, games=4) == _spec(base)  # the uninterrupted sweep's grid
    assert _lines(read_records(tmp_path / "a")) == _lines(read_records(whole[0]))
    with pytest.raises(SweepError, match=r"holds 4 games per cell and --games asks 3: give --games 4 or more"):
        run_sweep(tmp_path / "a", _spec(base, games=3), [base], {"base": content}, jobs=1)
    with pytest.raises(SweepError, match=r"holds a sweep of another grid \(seed: 11 in the directory, 12 now\)"):
        run_sweep(tmp_path / "a", _spec(base, seed=12), [base], {"base": content}, jobs=1)
    restarted = run_sweep(tmp_path / "a", _spec(base, games=1), [base], {"base": content}, jobs=1, resume=False)
    assert (restarted.kept, restarted.played) == (0, 3)
    assert len(read_records(tmp_path / "a")) == 3


def test_a_per_seat_list_that_fits_no_player_count_is_refused(base):
    with pytest.raises(SweepError, match=r"names 2 seats but the grid's player counts are 4, 5"):
        _spec(base, agents=("random,heuristic",))
    with pytest.raises(SweepError, match=r"unknown agent 'clever'"):
        _spec(base, agents=("clever",))


def test_players_and_default_directory_names():
    assert parse_players("5") == [5]
    assert parse_players("4,6-8, 5") == [4, 5, 6, 7, 8]
    bad_texts = [("33", "2 to 32"), ("2-999999999", "2 to 32"), ("8-5", "write 5-8"), ("five", "not a player count")]
    for bad, message in bad_texts:
        with pytest.raises(ValueError, match=message):
            parse_players(bad)
    assert default_out([5, 6, 7, 8], ["heuristic"], ["base"], 0) == "balance-5-8p-heuristic-base"
    assert default_out([5, 7], ["heuristic,random,random,random,random", "random"], ["base", "mine"], 3) == (
        "balance-5+7p-heuristic1random4+random-base+mine-s3"
    )


def test_the_command_sweeps_resumes_and_names_its_mistakes(tmp_path):
    out = tmp_path / "sweep"
    r = fengsheng("balance", "-p", "4-5", "--agents", "random", "-n", 3, "-j", 1, "-o", out, "-s", 2)
    assert r.exit_code == 0, r.output
    assert "sweep: 2 cells × 3 games = 6 games (local)" in r.output
    assert len(read_records(out)) == 6
    r = fengsheng("balance", "-p", "4-5", "--agents", "random", "-n", 3, "-j", 1, "-o", out, "-s", 2)
    assert r.exit_code == 0 and "0 games played" in r.output and "(6 were done before)" in r.output
    r = fengsheng("balance", "-p", "5", "--agents", "random", "-n", 3, "-o", out, "-s", 2)
    assert r.exit_code == 1
    assert "error: " in r.output and "holds a sweep of another grid (players: [4, 5] in the directory" in r.output
    pack = tmp_path / "pack"  # (a folder that holds a pack's part: --content refuses one that holds none)
    (pack / "roles").mkdir(parents=True)
    for args, message in [
        (["-p", "12"], "'--players': the rules have no identity table for 12 players (they have one for 2-10 players)"),
        (["--agents", "clever"], "unknown agent 'clever'"),
        (["--pack", "x"], "'x': write LABEL=DIR"),
        (["--pack", f"a={tmp_path / 'nowhere'}"], "is not a directory"),
        (["--pack", "a=", "--pack", "a="], "two packs are labelled a"),
        (["--pack", "a=", "--content", str(pack)], "not both"),
        (["--backend", "local", "--address", "auto"], "--address is a Ray cluster's"),
        (["--address", "nonsense"], "give the Ray head's HOST:PORT"),
        (["--expansions", "nope"], "--expansions"),
    ]:
        r = fengsheng("balance", *args, "-o", tmp_path / "x")
        assert r.exit_code == 2, (args, r.output)
        assert message in r.output and r.output.startswith("error: "), (args, r.output)
        assert len(r.output.strip().splitlines()) == 1, r.output


def test_a_pack_without_its_label_is_answered_with_the_spelling_it_meant(tmp_path, monkeypatch):
    """`--pack my_pack` (a folder) and `--pack base` (the README's `--pack base=` without its `=`) said only "write
    LABEL=DIR[,DIR…]"; a newcomer had to work out the label. The error now gives the option as it should read."""
    (tmp_path / "my_pack" / "roles").mkdir(parents=True)
    (tmp_path / "my_pack" / "pack.yaml").write_text("id: my_pack\n", encoding="utf-8")
    (tmp_path / "my_pack" / "roles" / "r.yaml").write_text("id: r\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for given, meant in [
        ("my_pack", "--pack my_pack=my_pack?"),
        ("my_pack/", "--pack my_pack=my_pack/?"),
        ("base", "--pack base= (the bundled game labelled base)?"),
        # a file of the pack (its pack.yaml, a role's file): its folder, as the other commands' --content says
        ("my_pack/pack.yaml", "--pack my_pack=my_pack?"),
        ("my_pack/roles/r.yaml", "--pack my_pack=my_pack?"),
        (str(tmp_path / "my_pack" / "pack.yaml"), f"--pack my_pack={tmp_path / 'my_pack'}?"),
    ]:
        r = fengsheng("balance", "--pack", given, "-p", 5, "-n", 1, "-o", tmp_path / "x")
        assert r.exit_code == 2 and f"did you mean {meant}" in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1, r.output
    r = fengsheng("balance", "--pack", "a b", "-p", 5, "-n", 1, "-o", tmp_path / "x")  # nothing it could mean
    assert r.exit_code == 2 and "write LABEL=DIR" in r.output and "did you mean" not in r.output, r.output
    assert not (tmp_path / "x").exists()


def test_a_misspelt_folder_is_named_with_the_folder_beside_it(tmp_path):
    """A pack or sweep folder that is not there (a slip: jia_gu for jia_gui) is a one-line error naming the folder
    beside it closest in spelling; nothing close, no hint."""
    (tmp_path / "jia_gui").mkdir()
    (tmp_path / "jia_gui" / "pack.yaml").write_text("id: jia_gui\nname: 家规\nextends: [base]\n")
    (tmp_path / "lab-jia").mkdir()
    for args, message in [
        (["balance", "--pack", "b=", "--pack", f"j={tmp_path / 'jia_gu'}"], f"did you mean {tmp_path / 'jia_gui'}?"),
        (["balance", "compare", "base", tmp_path / "jia_gu"], f"no such folder (did you mean {tmp_path / 'jia_gui'}?)"),
        (["balance", "report", tmp_path / "lab-jai"], f"writes): did you mean {tmp_path / 'lab-jia'}?"),
        (["balance", "compare", tmp_path / "lab-jai"], f"did you mean {tmp_path / 'lab-jia'}?"),
        (["balance", "report", tmp_path / "zzz"], "writes)"),
    ]:
        r = fengsheng(*args, "-o", tmp_path / "x") if args[1] != "report" else fengsheng(*args)
        assert r.exit_code in (1, 2) and message in r.output and r.output.startswith("error: "), (args, r.output)
        assert len(r.output.strip().splitlines()) == 1, r.output
    assert "did you mean" not in fengsheng("balance", "report", tmp_path / "zzz").output
    assert not (tmp_path / "x").exists()


def test_a_misspelt_content_folder_is_named_with_the_folder_beside_it(tmp_path):
    """--content with a folder that is not there (every command that takes it): click's one line, with the folder
    beside it closest in spelling; a path that is a file, or nothing close, as before."""
    (tmp_path / "jia_gui").mkdir()
    (tmp_path / "a_file").write_text("")
    for command in (["simulate", "-n", "1"], ["balance", "-n", "1", "-o", tmp_path / "x"], ["describe", "--all"]):
        r = fengsheng(*command, "--content", tmp_path / "jia_gu")
        assert r.exit_code == 2 and r.output.startswith("error: Invalid value for '--content': Directory "), r.output
        assert f"does not exist: did you mean {tmp_path / 'jia_gui'}? (see " in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1, r.output
        for other, said in ((tmp_path / "zzz", "does not exist. (see"), (tmp_path / "a_file", "is a file. (see")):
            r = fengsheng(*command, "--content", other)
            assert r.exit_code == 2 and said in r.output and "did you mean" not in r.output, r.output
    assert not (tmp_path / "x").exists()


def test_failed_games_are_kept_and_listed_with_the_command_that_replays_them(tmp_path):
    looping = tmp_path / "rules"
    looping.mkdir()
    for name in ("rules.yaml", "deck.yaml"):
        shutil.copy(BUNDLED_CONTENT / name, looping / name)
    for folder in ("cards", "secret_tasks"):
        link_tree(BUNDLED_CONTENT / folder, looping / folder)
    (looping / "roles").mkdir()
    shutil.copy(RUNAWAY / "roles" / "demo_looper.yaml", looping / "roles")
    out = tmp_path / "sweep"
    r = fengsheng(
        "balance",
        "-p",
        2,
        "-n",
        6,
        "-s",
        3,
        "--agents",
        "random",
        "--pack",
        f"loop={looping}",
        "-o",
        out,
        "--lang",
        "en",
    )
    assert r.exit_code == 1, r.output
    failed = [x for x in read_records(out) if x.failed]
    assert failed and all("E501" in x.failed or "EngineError" in x.failed for x in failed)
    assert f"Failed games ({len(failed)})" in r.output
    for x in failed:  # each listed once (in the report), with the command that re-runs it
        assert r.output.count(f"(game seed {x.seed})") == 1, r.output
        assert r.output.count(f"--content {looping} --game-seed {x.seed} --trace") == 1, r.output
    assert f"fengsheng simulate -p 2 --agents random --content {looping} --game-seed {failed[0].seed} --trace" in (
        r.output
    )
    # the report of the directory lists them the same way
    again = fengsheng("balance", "report", out, "--no-html")
    assert again.exit_code == 0 and again.output.count(f"--game-seed {failed[0].seed} --trace") == 1, again.output


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads a process's children in /proc (Linux)")
def test_a_killed_sweep_resumes_to_the_records_of_an_uninterrupted_one(tmp_path):
    """SIGTERM, then SIGKILL (no chance to clean up) mid-way, with two workers; then the same command: the same
    records as one uninterrupted run, and no worker outlives its sweep."""
    # enough games that the kill lands before the end: an idle machine's workers take chunks of about a
    # second of play (80 games were all written before the SIGKILL arrived)
    GAMES = 400
    args = ["balance", "-p", "5", "--agents", "heuristic", "-n", str(GAMES), "-q", "-s", "5"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-c", "from interpreter.cli import main; main()", *args, "-o", str(tmp_path / "killed")]
    games = tmp_path / "killed" / GAMES_FILE

    def written() -> int:
        return games.read_text().count("\n") if games.exists() else 0

    def stop_after(lines: int, sig: int) -> tuple[subprocess.Popen, list[int]]:
        proc = subprocess.Popen([*cmd, "-j", "2"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and written() < lines:
            time.sleep(0.05)
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        proc.send_signal(sig)
        proc.wait(60)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(Path(f"/proc/{c}").exists() for c in children):
            time.sleep(0.05)
        assert not [c for c in children if Path(f"/proc/{c}").exists()], "a worker outlived its sweep"
        return proc, [int(c) for c in children]

    proc, workers = stop_after(10, signal.SIGTERM)
    assert proc.returncode == 130 and len(workers) == 2
    assert proc.stderr is not None
    kept = written()
    assert f"error: interrupted: {kept} of {GAMES} games are kept in" in proc.stderr.read().decode()
    proc, _ = stop_after(kept + 15, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert kept + 15 <= written() < GAMES
    subprocess.run([*cmd, "-j", "2"], env=env, check=True, stdout=subprocess.DEVNULL)
    whole = [*cmd[:-1], str(tmp_path / "whole"), "-j", "1"]
    subprocess.run(whole, env=env, check=True, stdout=subprocess.DEVNULL)
    assert _lines(read_records(tmp_path / "killed")) == _lines(read_records(tmp_path / "whole"))


@pytest.mark.slow
def test_a_local_ray_instance_writes_the_records_of_local_processes(tmp_path, base, content):
    ray = pytest.importorskip("ray")
    spec = _spec(base, games=6)
    run_sweep(tmp_path / "local", spec, [base], {"base": content}, jobs=1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        done = run_sweep(tmp_path / "ray", spec, [base], backend="ray")
    finally:
        ray.shutdown()
    assert (done.played, done.total) == (18, 18)
    assert _lines(read_records(tmp_path / "ray")) == _lines(read_records(tmp_path / "local"))


def test_ray_workers_are_handed_the_packs_by_absolute_path(tmp_path, monkeypatch):
    """A pack typed relative to where the sweep runs is handed to Ray's workers by its absolute path: a node's
    working directory is its own, so a relative folder would name another one there (or none)."""
    import interpreter.balance.sweep as sweep_module

    shutil.copytree(REPO / "examples" / "jia_gui", tmp_path / "mine")
    monkeypatch.chdir(tmp_path)
    source = PackSource("mine", ("mine",), None, tuple(str(p) for p in resolve_packs(["mine"], None)))
    handed = []
    monkeypatch.setattr(sweep_module, "run_ray", lambda spec, paths, *rest: handed.append(paths))
    run_sweep(tmp_path / "s", make_spec(1, [5], ["random"], [source], 1), [source], backend="ray")
    assert handed[0]["mine"][-1] == str(tmp_path / "mine")
    assert all(Path(p).is_absolute() for p in handed[0]["mine"])


def test_ray_missing_names_the_extra_as_an_installed_user_installs_it(tmp_path, base, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    with pytest.raises(SweepError) as caught:
        run_sweep(tmp_path / "s", _spec(base, games=1, players=(5,), agents=("random",)), [base], backend="ray")
    said = str(caught.value)  # (the extra's own packages: fengsheng is not on PyPI, extras.py)
    assert "python3 -m pip install 'ray[default]>=" in said and "fengsheng[" not in said, said


def test_a_ray_worker_refuses_content_that_is_not_the_grids(base):
    from interpreter.balance.ray_backend import _ray_chunk

    cell = {"players": 5, "agents": "random", "pack": "base"}
    good, seconds = _ray_chunk(base.paths, base.pack().fingerprint, 1, None, cell, [0])
    assert good[0]["index"] == 0 and good[0]["cell"] == cell and seconds > 0
    refused = r"is not the content of the grid \(fingerprint game-[0-9a-f]{16}, the grid's 0000\)"
    with pytest.raises(SweepError, match=refused):
        _ray_chunk(base.paths, "0000", 1, None, cell, [0])


def test_a_worker_that_dies_stops_the_sweep_with_its_games_kept(tmp_path, base, content, whole, monkeypatch):
    """A worker killed mid-sweep stops it with the games played so far kept, and the same sweep then resumes to the
    records of the uninterrupted one (`whole`: the same grid, played once for the tests that compare with it)."""
    import interpreter.balance.sweep as sweep_module

    spec = _spec(base)
    play = sweep_module.play_record

    def dies_at_game_2(content, cell, index, seed, max_turns=None, pins=None):
        if index == 2 and cell.players == 5:
            os.kill(os.getpid(), signal.SIGKILL)  # a worker killed (out of memory, a signal)
        return play(content, cell, index, seed, max_turns, pins)

    monkeypatch.setattr(sweep_module, "play_record", dies_at_game_2)  # the forked workers inherit it
    with pytest.raises(SweepError, match=r"a worker process died .*; \d+ of 12 games are kept in .*the same command"):
        run_sweep(tmp_path, spec, [base], {"base": content}, jobs=2)
    kept = read_records(tmp_path)
    assert 0 < len(kept) < 12
    monkeypatch.setattr(sweep_module, "play_record", play)
    run_sweep(tmp_path, spec, [base], {"base": content}, jobs=2)
    assert _lines(read_records(tmp_path)) == _lines(read_records(whole[0]))


def test_a_sweep_played_by_other_code_is_not_resumed(tmp_path, base, content):
    from dataclasses import replace

    spec = _spec(base, games=1)
    assert len(spec.engine) == 16
    run_sweep(tmp_path, replace(spec, engine="0123456789abcdef"), [base], {"base": content}, jobs=1)
    with pytest.raises(SweepError, match=r"was played by other fengsheng code \(engine 0123456789abcdef, now \w+\)"):
        run_sweep(tmp_path, spec, [base], {"base": content}, jobs=1)
    from interpreter.balance.ray_backend import _ray_chunk

    cell = {"players": 5, "agents": "random", "pack": "base"}
    with pytest.raises(SweepError, match=r"the fengsheng code on .* is not the sweep's"):
        _ray_chunk(base.paths, base.pack().fingerprint, 1, None, cell, [0], "0123456789abcdef")


_IMPORT_LINE = re.compile(r"[ \t]*(from[ \t]+\S+[ \t]+import\b|import[ \t])")


def _imports(source: str) -> list[ast.stmt]:
    """Every import statement of a module, those in functions, classes, branches and handlers too: each line that
    starts one, with the lines that continue it, parsed alone (ast.parse of the whole module, its expressions most
    of the tree, took ten times as long). Should a line that reads like an import not parse as one (a docstring's,
    a comment with a bracket in a statement of several lines), the whole module is parsed and walked instead."""
    lines = source.splitlines()
    out: list[ast.stmt] = []
    for i, line in enumerate(lines):
        if not _IMPORT_LINE.match(line):
            continue
        statement, j = line.strip(), i
        while (statement.count("(") > statement.count(")") or statement.endswith("\\")) and j + 1 < len(lines):
            j += 1
            statement += "\n" + lines[j]
        try:
            out += ast.parse(statement).body
        except SyntaxError:
            return list(_statements(ast.parse(source)))
    return out


def _statements(tree):
    """Every statement of a module, those in functions, classes, branches and handlers too (an import is one):
    the expressions, most of a tree, are not walked."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo.extend(getattr(node, field, None) or ())


def test_the_engine_fingerprint_reads_what_plays_a_game():
    from interpreter.balance import grid as sweep_module

    root = Path(sweep_module.__file__).resolve().parents[1]
    for part in sweep_module.PLAYING:
        assert (root / part / "__init__.py").is_file(), part
    for f in sweep_module.PLAYING_FILES:
        assert (root / f).is_file(), f
    # every module a game runs is in it: whatever play_game imports of the package, transitively
    seen, todo = set(), ["interpreter.sim"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = root.parent / (name.replace(".", "/") + ".py")
        if not path.exists():
            path = root.parent / name.replace(".", "/") / "__init__.py"
        for node in _imports(path.read_text(encoding="utf-8")):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = name.split(".")[: -node.level] if path.name != "__init__.py" else name.split(".")
                if path.name == "__init__.py" and node.level > 1:
                    base = base[: -(node.level - 1)]
                mod = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:
                    sub = f"{mod}.{alias.name}"
                    exists = (root.parent / (sub.replace(".", "/") + ".py")).exists()
                    todo.append(sub if exists else mod)
    packages = {f"interpreter.{p}" for p in sweep_module.PLAYING}  # each with every module inside it
    files = {"interpreter." + f.removesuffix(".py").replace("/", ".") for f in sweep_module.PLAYING_FILES}
    files = {"interpreter" if m == "interpreter.__init__" else m for m in files}  # each that module alone
    assert {"interpreter.engine.game", "interpreter.agents.heuristic", "interpreter.content.loader"} <= seen
    outside = sorted(m for m in seen if m not in files and not any(m == p or m.startswith(p + ".") for p in packages))
    # helpers that cannot change a game: error texts and did-you-mean, where the bundled content and the cache are,
    # the text policy and the bounded JSON reader (they refuse an input, they change no game)
    assert set(outside) <= {
        "interpreter.snippet",
        "interpreter.suggest",
        "interpreter.paths",
        "interpreter.cache",
        "interpreter.textpolicy",
        "interpreter.jsonread",
    }


def test_chunks_follow_each_cells_pace():
    from interpreter.balance.grid import Chunker
    from interpreter.balance.records import Cell

    fast, slow = Cell(5, "random", "base"), Cell(5, "search:50", "base")
    chunker = Chunker([(fast, list(range(100))), (slow, list(range(10)))], seconds=1.0, most=40)
    assert chunker.next() == (fast, [0])  # not yet measured: one game
    chunker.played(fast, 1, 0.01)
    assert chunker.next() == (fast, list(range(1, 41)))  # 100 games a second: as many as a chunk holds
    chunker.played(fast, 40, 0.2)  # the pace is averaged: 0.0075 s a game
    assert chunker.next() == (fast, list(range(41, 81)))
    assert chunker.next() == (fast, list(range(81, 100)))  # the rest of the cell
    assert chunker.next() == (slow, [0])
    chunker.played(slow, 1, 12.0)
    assert chunker.next() == (slow, [1])  # a game of more than a second: one at a time
    handed = [chunker.next() for _ in range(9)]
    assert [c for c in handed if c] == [(slow, [i]) for i in range(2, 10)] and handed[-1] is None


def test_a_sweep_names_its_packs_from_its_directory_and_is_reported_from_anywhere(tmp_path, monkeypatch):
    """sweep.json names a pack relative to the sweep's directory, not as typed (relative to where the sweep ran):
    `balance report` from another folder lists the pack's roles and names it from there in its re-run commands,
    the same grid typed from another folder resumes, an older sweep.json (as typed) is still read and resumed, and
    a pack that is not there (or changed since) is said, never an empty skill list without a word."""
    from interpreter.balance import pack_facts, report as rep

    work, other = tmp_path / "work", tmp_path / "other"
    shutil.copytree(REPO / "examples" / "jia_gui", work / "mine")
    other.mkdir()
    grid = ["balance", "-p", 5, "-n", 2, "-s", 3, "--agents", "random", "-q"]
    monkeypatch.chdir(work)
    assert fengsheng(*grid, "--pack", "mine=mine", "-o", "sweeps/s").exit_code == 0
    spec_file = work / "sweeps" / "s" / SWEEP_FILE
    assert json.loads(spec_file.read_text(encoding="utf-8"))["packs"][0]["content"] == ["../../mine"]

    monkeypatch.chdir(other)
    sweep = work / "sweeps" / "s"
    r = fengsheng("balance", "report", sweep, "--format", "json", "--no-html")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and data["pack_notes"] == {} and "note:" not in r.stderr, r.output
    assert "画眉（歌女）" in data["sweep"]["content_roles"]["mine"]
    meta, notes = pack_facts.locate_packs(rep.load_sweep(sweep).meta, sweep)
    assert notes == {} and f"--content {work / 'mine'} " in pack_facts.rerun_command(meta, "mine", "random", 5, 7)
    r = fengsheng(*grid, "--pack", f"mine={work / 'mine'}", "-o", sweep)  # the same grid, typed from here
    assert r.exit_code == 0 and "another grid" not in r.output, r.output
    assert len(read_records(sweep)) == 2

    # an older sweep.json keeps the folders as typed, relative to where the sweep ran: read from there, resumed
    old = json.loads(spec_file.read_text(encoding="utf-8"))
    old["packs"][0]["content"] = ["mine"]
    spec_file.write_text(json.dumps(old), encoding="utf-8")
    monkeypatch.chdir(work)
    r = fengsheng("balance", "report", sweep, "--format", "json", "--no-html")
    assert "画眉（歌女）" in json.loads(r.stdout)["sweep"]["content_roles"]["mine"], r.output
    assert fengsheng(*grid, "--pack", "mine=mine", "-o", "sweeps/s").exit_code == 0
    assert json.loads(spec_file.read_text(encoding="utf-8"))["packs"][0]["content"] == ["../../mine"]

    # a comment added is no change of the game: no note
    monkeypatch.chdir(other)
    role = work / "mine" / "roles" / "hua_mei.yaml"
    role.write_text(role.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    r = fengsheng("balance", "report", sweep, "--no-html", "--lang", "en")
    assert r.exit_code == 0 and "note:" not in r.stdout, r.output
    # the pack changed since the sweep, then is gone: a note naming it, in the terminal, the JSON and the HTML
    changed = role.read_text(encoding="utf-8").replace("hand_count(self) >= 1", "hand_count(self) >= 2")
    role.write_text(changed, encoding="utf-8")
    r = fengsheng("balance", "report", sweep, "--no-html", "--lang", "en")
    assert r.exit_code == 0 and f"note: pack mine: the content at {work / 'mine'} has changed" in r.stdout, r.output
    # ... and no longer loads (a slip made while the sweep ran): the note says so, and where, not "the content now"
    good = role.read_text(encoding="utf-8")
    role.write_text(good.replace("trigger: received", "trigger: recieved"), encoding="utf-8")
    r = fengsheng("balance", "report", sweep, "--no-html", "--lang", "en")
    assert r.exit_code == 0 and "has changed since the sweep and no longer loads (" in r.stdout, r.output
    assert "hua_mei.yaml:" in r.stdout and "error E113: unknown trigger 'recieved'" in r.stdout
    assert f"fengsheng validate {work / 'mine'} says what to fix" in r.stdout
    r = fengsheng("balance", "report", sweep, "--no-html")
    assert f"注意：扩展包mine：{work / 'mine'}的内容在扫描之后改动过，已无法载入（" in r.stdout, r.output
    assert f"运行 fengsheng validate {work / 'mine'} 查看要改什么" in r.stdout
    role.write_text(good, encoding="utf-8")
    shutil.move(work / "mine", work / "moved")
    r = fengsheng("balance", "report", sweep, "--format", "json", "--no-html")
    text = json.loads(r.stdout)["pack_notes"]["mine"]
    assert f"its folder ../../mine is not here (looked in {work / 'mine'}, ../../mine)" in text, text
    assert f"put the pack back at {work / 'mine'} to list them" in text
    facts = json.loads(r.stdout)["pack_note_facts"]["mine"]
    assert facts == {"kind": "missing", "pack": "mine", "lost": [["../../mine", [str(work / "mine"), "../../mine"]]],
                     "at": [str(work / "mine")]}  # fmt: skip
    # the stderr's note in the report's language (Chinese by default), as the tables say it
    assert "注意：扩展包mine：它的文件夹../../mine不在这里" in r.stderr
    assert "mine" not in json.loads(r.stdout)["sweep"]["content_roles"]
    r = fengsheng("balance", "report", sweep, "--lang", "en")
    assert r.exit_code == 0 and "note: pack mine: its folder ../../mine is not here" in r.stdout, r.output
    assert "its folder ../../mine is not here" in (sweep / "report.html").read_text(encoding="utf-8")
    # in Chinese (the default), the terminal and the page: not the English text in a Chinese report
    r = fengsheng("balance", "report", sweep)
    assert r.exit_code == 0 and f"把扩展包放回{work / 'mine'}即可列出" in r.stdout, r.output
    assert "is not here" not in r.stdout
    page = (sweep / "report.html").read_text(encoding="utf-8")
    assert "它的文件夹../../mine不在这里" in page and "is not here" not in page


def test_a_full_disk_says_how_many_games_the_sweep_keeps_and_resumes(tmp_path, monkeypatch):
    """games.jsonl cannot grow (RLIMIT_FSIZE: the OSError a full disk gives): one line says how many games are
    kept and that the same command resumes; it does (before: 'error: games.jsonl: No space left on device').
    In-process: the limit is set around the command alone (SIGXFSZ ignored, so a write past it is an OSError), and
    no .pyc is written while it holds (one cut short would break the checkout's next imports)."""
    import resource

    out = str(tmp_path / "out")
    args = ["balance", "-p", "5", "-n", "12", "--agents", "random", "-o", out, "-j", "1", "-s", "1", "-q"]
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    old_limit, old_signal = resource.getrlimit(resource.RLIMIT_FSIZE), signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (8000, old_limit[1]))
    try:
        r = fengsheng(*args)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old_limit)
        signal.signal(signal.SIGXFSZ, old_signal)
    assert r.exit_code == 1, r.output
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith(f"error: {out}: records could not be written (File too large): "), line
    kept = int(line.split("): ")[1].split(" of ")[0])
    assert 0 < kept < 12 and f"{kept} of 12 games are kept in {out}" in line and "the same command resumes" in line
    resumed = fengsheng(*args)
    assert resumed.exit_code == 0, resumed.output
    assert len((tmp_path / "out" / "games.jsonl").read_text(encoding="utf-8").splitlines()) == 12


def test_a_pack_whose_content_changed_is_named_not_called_another_grid(tmp_path, base):
    """The same command after an edit to a pack's game (its fingerprint changed): the error names the pack and
    says its content changed; it said the directory held 'another grid' and to give the same options, which the
    user had, the packs' fingerprints cut short where they differ."""
    from dataclasses import replace

    from interpreter.balance.grid import prepare

    then, now = (replace(base, fingerprint=f"game-{c * 16}") for c in "ab")
    prepare(tmp_path, make_spec(1, [5], ["random"], [then], 2))
    assert prepare(tmp_path, make_spec(1, [5], ["random"], [then], 3)) == []  # (unchanged: resumed, extended)
    for games in (3, 4):  # the same --games, or more
        with pytest.raises(SweepError) as e:
            prepare(tmp_path, make_spec(1, [5], ["random"], [now], games))
        said = str(e.value)
        assert "pack base (the bundled game: game-aaaaaaaaaaaaaaaa then, game-bbbbbbbbbbbbbbbb now)" in said, said
        assert "another grid" not in said and "--restart" in said, said
    with pytest.raises(SweepError, match=r"another grid \(seed: 1 in the directory, 2 now; packs"):
        prepare(tmp_path, make_spec(2, [5], ["random"], [now], 3))  # more than the content: the grid's differences


def test_a_kept_fresh_seed_can_be_typed_back_and_deals_the_same_games(tmp_path: Path) -> None:
    # (a sweep seating an external bot keeps a fresh 128-bit seed in sweep.json; --seed was limited to 2**62, so the
    # same deals could not be swept again into another directory, nor paired with `balance compare`)
    from click.testing import CliRunner

    from interpreter.cli import main as cli_main

    seed = 2**120 + 7
    games = []
    for name in ("a", "b"):
        out = tmp_path / name
        got = CliRunner().invoke(cli_main, ["balance", "-p", "5", "-n", "2", "-s", str(seed), "--out", str(out), "-q"])
        assert got.exit_code == 0, got.output
        assert json.loads((out / "sweep.json").read_text())["seed"] == seed
        # (games.jsonl is in the order the workers finished, so the games are compared by their index)
        played = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
        games.append({game["index"]: game["identities"] for game in played})
    assert len(games[0]) == 2 and games[0] == games[1]
    # the terminal report says it, as the page does (docs/bots-protocol.md: `balance report` shows it): where an
    # external bot was seated, sweep.json is the only other place it is kept
    for lang, said in (("zh", f"种子 {seed} · 人数 5"), ("en", f"seed {seed} · players 5")):
        shown = CliRunner().invoke(cli_main, ["balance", "report", str(tmp_path / "a"), "--lang", lang])
        assert shown.exit_code == 0 and said in shown.output, shown.output
