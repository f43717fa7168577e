"""Paired A/B (interpreter/balance/paired.py): McNemar's test on the discordant games, the paired interval, the
variance ratio against independent samples; `balance compare` pairs the games of a pinned two-pack sweep."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from balance_games import fork_with_a_role

from conftest import fengsheng
from interpreter.balance.paired import mcnemar, pair_games, paired_mean


def test_mcnemar_counts_the_discordant_games() -> None:
    # 40 games: 20 won by both, 10 by neither, 8 by the fork only, 2 by the base only
    pairs = [(True, True)] * 20 + [(False, False)] * 10 + [(False, True)] * 8 + [(True, False)] * 2
    r = mcnemar(pairs)
    assert (r["n"], r["base_only"], r["fork_only"]) == (40, 2, 8)
    assert r["difference"] == pytest.approx(6 / 40)
    assert r["p_value"] == pytest.approx(0.109375)  # exact: 2 * P(X <= 2), X ~ Bin(10, 1/2) = 2 * 56/1024
    assert r["low"] < r["difference"] < r["high"]
    # concordant games shrink the paired variance: more pairs agreeing, a larger variance ratio
    assert r["variance_ratio"] > 1 and 0 < r["games_saved"] < 1
    agreeing = mcnemar(pairs + [(True, True)] * 20 + [(False, False)] * 20)
    assert agreeing["variance_ratio"] > r["variance_ratio"]


def test_independent_outcomes_save_nothing_on_average() -> None:
    """Outcomes that do not depend on each other: the ratio is about 1 (pairing saves nothing)."""
    import random

    rng = random.Random(5)
    pairs = [(rng.random() < 0.4, rng.random() < 0.4) for _ in range(4000)]
    assert mcnemar(pairs)["variance_ratio"] == pytest.approx(1.0, abs=0.1)


def test_paired_mean() -> None:
    r = paired_mean([(10, 11), (20, 21), (15, 17), (30, 30)])
    assert r["difference"] == pytest.approx(1.0) and r["variance_ratio"] > 10


def test_games_pair_only_from_the_same_seed() -> None:
    def rec(index: int, seed: int, pack: str, failed: object = None) -> dict:
        return {
            "cell": {"players": 5, "agents": "random", "pack": pack},
            "index": index,
            "seed": seed,
            "failed": failed,
        }

    base = [rec(0, 1, "a"), rec(1, 2, "a"), rec(2, 3, "a")]
    fork = [rec(0, 1, "b"), rec(1, 9, "b"), rec(2, 3, "b", failed="x")]
    assert [(a["index"], b["index"]) for a, b in pair_games(base, fork)[(5, "random")]] == [(0, 0)]


def test_compare_pairs_a_pinned_sweep(tmp_path: Path) -> None:
    pack = fork_with_a_role(tmp_path)
    out = tmp_path / "lab"
    r = fengsheng(
        "balance", "--pack", "base=", "--pack", f"mine={pack}", "-p", 5, "-n", 40, "-j", 1,
        "--agents", "random", "--role", "demo_clerk", "-o", out, "-q", "--format", "json",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    c = fengsheng("balance", "compare", out, "--format", "json", "--no-html")
    assert c.exit_code == 0, c.output
    paired = json.loads(c.stdout)["paired"]
    assert paired["games_paired"] == 40
    kinds = {x["kind"] for x in paired["figures"]}
    assert {"pinned_seat", "identity", "turns"} <= kinds
    seat = next(x for x in paired["figures"] if x["kind"] == "pinned_seat")
    assert seat["n"] == 40 and "demo_clerk" in seat["name"]
    # the identities are dealt alike in both packs: an identity's win agrees in most games
    ident = [x for x in paired["figures"] if x["kind"] == "identity"]
    assert sum(x["variance_ratio"] or 0 for x in ident) / len(ident) > 1
    text = fengsheng("balance", "compare", out, "--html", tmp_path / "c.html", "--lang", "en")
    assert "Paired: the same 40 deals" in text.output
    assert "Paired: the same 40 deals" in (tmp_path / "c.html").read_text(encoding="utf-8")
    assert seat["pins"] == {"role": "demo_clerk"}
    # the paired rows in the report's language: the pinned seat named from its pins, turns by their kind alone
    # (the JSON's English name, "the seat of role demo_clerk", "turns", stayed in the Chinese table before)
    # (by the role's name, as the tables name it: the JSON keeps the id)
    assert "pinned seat won: role 测试文书（测试用） · 5p" in text.output
    zh = fengsheng("balance", "compare", out, "--no-html")
    assert "固定的座位获胜: 角色测试文书（测试用） · 5人" in zh.output and "每局回合数 · 5人" in zh.output
    assert "the seat of" not in zh.output and "每局回合数: turns" not in zh.output
    page = (tmp_path / "c.html").read_text(encoding="utf-8")
    assert "pinned seat won: role 测试文书（测试用）" in page and "the seat of" not in page
    # (any sweep of both packs in one run is dealt alike, not only a pinned one: the note says so)
    assert "swept in one run, pinned or not, both packs are dealt alike" in page


def test_compare_of_sweep_directories_refuses_pins_in_a_line(tmp_path: Path) -> None:
    """--role/--task/--card deal the games of packs swept now; given with sweep directories (whose games were dealt
    with their own pins) they were ignored without a word."""
    out = tmp_path / "lab"
    r = fengsheng("balance", "--pack", "a=", "--pack", "b=", "-p", 5, "-n", 4, "-j", 1, "--agents", "random",
                  "-o", out, "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    for args in ((out,), (out, out)):
        for pin in (("--role", "hua_mei"), ("--task", "xian_xing_zhe"), ("--card", "jie_huo=3")):
            c = fengsheng("balance", "compare", *args, *pin, "--no-html")
            assert c.exit_code == 2 and c.output.startswith(f"error: {pin[0]} pins the games of two packs"), c.output
            assert c.output.strip().endswith(f"leave {pin[0]} out to compare the sweeps as they are"), c.output
            assert len(c.output.strip().splitlines()) == 1


def test_compare_of_sweeps_dealt_with_other_pins_pairs_nothing(tmp_path: Path) -> None:
    """Two sweep directories of the same seed, one with a role pinned: the same seed dealt other deals, so their
    games are not the same deals. They were paired all the same (game by game, seed by seed) and the table said
    'the same 12 deals under both packs', the base's 'pinned seat' a seat that never held the role."""
    plain, pinned = tmp_path / "plain", tmp_path / "pinned"
    for out, pin in ((plain, ()), (pinned, ("--role", "lao_han"))):
        r = fengsheng("balance", "-p", 5, "-n", 12, "-j", 1, "--agents", "random", *pin, "-o", out, "-q")
        assert r.exit_code == 0, r.output
    c = fengsheng("balance", "compare", plain, pinned, "--format", "json", "--no-html")
    assert c.exit_code == 0, c.output
    paired = json.loads(c.stdout)["paired"]
    assert paired["games_paired"] == 0 and paired["figures"] == []
    assert paired["pins_differ"] == {"base": None, "fork": {"role": "lao_han"}}
    text = fengsheng("balance", "compare", plain, pinned, "--lang", "en", "--html", tmp_path / "c.html")
    assert text.exit_code == 0, text.output
    line = "No paired test: the sweeps were dealt with different pins (base: none; fork: role 老汉（裘家二太太）"
    assert line in text.output and "Paired: the same" not in text.output
    assert line in (tmp_path / "c.html").read_text(encoding="utf-8")
    zh = fengsheng("balance", "compare", plain, pinned, "--no-html")
    assert "不做配对检验：两个扫描的固定项不同（基准：无；改版：每局都把角色老汉（裘家二太太）发给一个座位" in zh.output
    # the same pins on both sides (none): paired game by game, as before
    same = fengsheng("balance", "compare", plain, plain, "--format", "json", "--no-html")
    assert json.loads(same.stdout)["paired"]["games_paired"] == 12


def test_compare_of_a_sweep_directory_of_two_packs_against_another_is_refused(tmp_path: Path) -> None:
    """A sweep of two packs given as BASE or FORK beside another sweep: which of its packs stands for its side was
    not said, and the comparison took its first pack without a word."""
    two, one = tmp_path / "two", tmp_path / "one"
    r = fengsheng("balance", "--pack", "a=", "--pack", "b=", "-p", 5, "-n", 4, "-j", 1, "--agents", "random",
                  "-o", two, "-q")  # fmt: skip
    assert r.exit_code == 0, r.output
    r = fengsheng("balance", "-p", 5, "-n", 4, "-j", 1, "--agents", "random", "-o", one, "-q")
    assert r.exit_code == 0, r.output
    for args in ((two, one), (one, two)):
        c = fengsheng("balance", "compare", *args, "--no-html")
        assert c.exit_code == 2, c.output
        assert c.output.startswith(f"error: {two}: holds 2 packs (a, b): compare them alone (balance compare {two})")
        assert len(c.output.strip().splitlines()) == 1
