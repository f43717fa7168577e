"""Balance reports and A/B (interpreter/balance/report.py, pack_facts.py, terminal.py, compare.py, html.py;
`fengsheng balance report/compare`).

The A/B statistics are checked against published values and independent formulas (the report's own:
tests/test_balance_stats.py); the flags against record
sets made of real games (tests/balance_games.py) with one seat relabelled as a made-up role whose wins
or skill uses are then set, so the expected outcome is known by construction.
"""

from __future__ import annotations

import copy
import io
import json
import math
import pickle
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from interpreter.balance import compare as cmp, pack_facts, report as rep
from interpreter.balance.html import render_report
from interpreter.balance.html_compare import render_compare
from interpreter.balance.words import identity_rows
from interpreter.sim import wilson

sys.path.insert(0, str(Path(__file__).parent))
from balance_games import make_sweep, write_sweep

GAMES = 80
ROLE = "测试角色（试验员）"


@pytest.fixture(scope="module")
def played(content, tmp_path_factory) -> tuple[Path, list[dict]]:
    """A sweep of real games: 5 players, random bots, the bundled game."""
    d = tmp_path_factory.mktemp("sweep")
    return d, make_sweep(d, content, players=(5,), agents=("random",), games=GAMES, seed=11)


def relabel(records: list[dict], seat: int = 0, role: str = ROLE) -> list[dict]:
    """The same games with `seat`'s role renamed `role` (a role in every game, at one seat). The records are plain
    data: copied through pickle, as deep as copy.deepcopy and a tenth of its time (80 games, 16 times a run)."""
    out = pickle.loads(pickle.dumps(records))
    for r in out:
        s = r["seats"][seat]
        old = s["role"]
        s["role"] = role
        r["roles"] = [role if x == old else x for x in r["roles"]]
        r["skill_uses"] = {k: v for k, v in r["skill_uses"].items() if not k.startswith(f"{old}·")}
    return out


def group(report: dict, players=5) -> dict:
    return next(g for g in report["groups"] if g["players"] == players)


# ---------------------------------------------------------------------- statistics


@pytest.mark.parametrize(
    ("k1", "n1", "k2", "n2", "expected"),
    [  # Newcombe (1998), "Interval estimation for the difference between independent proportions", method 10
        (48, 80, 56, 70, (0.0524, 0.3339)),
        (3, 10, 9, 10, (0.1705, 0.8090)),
        (0, 29, 5, 56, (-0.0381, 0.1926)),
        (0, 20, 0, 10, (-0.1611, 0.2775)),
        (0, 10, 0, 10, (-0.2775, 0.2775)),
    ],
)
def test_newcombe_interval_matches_published_values(k1, n1, k2, n2, expected):
    assert tuple(round(v, 4) for v in cmp.newcombe(k1, n1, k2, n2)) == expected


def test_two_proportion_z_is_the_square_root_of_pearsons_chi_square():
    k1, n1, k2, n2 = 48, 80, 56, 70
    z, p = cmp.two_proportion_z(k1, n1, k2, n2)
    table = [[k1, n1 - k1], [k2, n2 - k2]]
    total = n1 + n2
    cols = [k1 + k2, total - k1 - k2]
    chi2 = sum(
        (table[i][j] - [n1, n2][i] * cols[j] / total) ** 2 / ([n1, n2][i] * cols[j] / total)
        for i in range(2)
        for j in range(2)
    )
    assert z > 0 and math.isclose(z * z, chi2, rel_tol=1e-12)
    assert math.isclose(p, math.erfc(math.sqrt(chi2 / 2)), rel_tol=1e-12)  # chi-square(1 df) tail
    assert round(p, 4) == 0.0080
    assert cmp.two_proportion_z(0, 10, 0, 10) == (0.0, 1.0)  # no variance: nothing to test


def test_sample_sizes_match_the_textbook_formulas():
    # p 0.5 -> 0.6, two-sided 5%, power 80%: 388 per group (Fleiss, without continuity correction)
    assert cmp.n_for_proportions(0.5, 0.1) == 388
    # the difference is turned down, not up, where up would pass 100%
    assert cmp.n_for_proportions(0.98, 0.05) == cmp.n_for_proportions(0.93, 0.05)
    # means: 2 (z_a + z_b)^2 sd^2 / d^2 = 15.7 (sd 1, d 1) -> 16
    assert cmp.n_for_means(1.0, 1.0) == 16


# ---------------------------------------------------------------------- the report


def test_report_counts_seats_as_the_records_say(played):
    _, records = played
    report = rep.build_report({}, records)
    g = group(report)
    seats = [s for r in records if r["failed"] is None for s in r["seats"]]
    for row in g["identities"]:
        mine = [s for s in seats if s["identity"] == row["name"]]
        assert (row["won"], row["n"]) == (sum(s["won"] for s in mine), len(mine))
        assert (row["low"], row["high"]) == wilson(row["won"], row["n"])
    assert sum(r["n"] for r in g["roles"]) == len(seats)
    assert g["turns"]["games"] == len([r for r in records if r["failed"] is None])
    assert sum(r["games"] for r in g["end_reasons"]) == g["turns"]["games"]
    assert sum(k for _, k in g["turns"]["histogram"]) == g["turns"]["games"]


def test_expected_rate_is_the_other_roles_rate_with_the_same_identities(played):
    _, records = played
    records = relabel(records)
    g = group(rep.build_report({}, records))
    row = next(r for r in g["roles"] if r["name"] == ROLE)
    seats = [s for r in records for s in r["seats"]]
    others = [s for s in seats if s["role"] != ROLE]
    mine = [s for s in seats if s["role"] == ROLE]

    def rate_of(ident):
        pool = [s for s in others if s["identity"] == ident]
        return sum(s["won"] for s in pool) / len(pool)

    assert math.isclose(row["expected"], sum(rate_of(s["identity"]) for s in mine) / len(mine))


@pytest.mark.parametrize(("won", "flag"), [(True, "strong"), (False, "weak")])
def test_a_role_that_always_or_never_wins_is_flagged(played, won, flag):
    _, records = played
    records = relabel(records)
    for r in records:
        r["seats"][0]["won"] = won
    report = rep.build_report({}, records)
    row = next(r for r in group(report)["roles"] if r["name"] == ROLE)
    assert row["flag"] == flag and row["holm"]
    assert (row["high"] < row["expected"]) if flag == "weak" else (row["low"] > row["expected"])
    flags = [f for f in report["flags"] if f["subject"] == ROLE]
    assert [f["kind"] for f in flags] == [flag]
    assert f"of {GAMES} seats" in flags[0]["text"]


def test_too_few_seats_are_not_flagged(played):
    _, records = played
    records = relabel(records[: rep.MIN_ROLE_SEATS - 1])
    for r in records:
        r["seats"][0]["won"] = True
    row = next(r for r in group(rep.build_report({}, records))["roles"] if r["name"] == ROLE)
    assert row["rate"] == 1.0 and row["flag"] is None


def test_unused_and_rare_skills_are_flagged(played):
    _, records = played
    records = relabel(records)
    for i, r in enumerate(records):
        r["skill_uses"][f"{ROLE}·常用"] = 2
        if i == 0:
            r["skill_uses"][f"{ROLE}·偶用"] = 1  # 1 game of 120: under 5%
    skills = {"base": {ROLE: [("常用", "active"), ("偶用", "triggered"), ("不用", "active")]}}
    report = rep.build_report({}, records, skills)
    rows = {s["skill"]: s for s in group(report)["skills"] if s["role"] == ROLE}
    assert rows["常用"]["flag"] is None and rows["常用"]["uses_per_game"] == 2.0
    assert rows["偶用"]["flag"] == "rare" and rows["偶用"]["games_used"] == 1
    assert rows["不用"]["flag"] == "unused" and rows["不用"]["games_in_play"] == GAMES
    kinds = {f["subject"]: f["kind"] for f in report["flags"] if f["kind"] in ("unused", "rare")}
    assert kinds[f"{ROLE}·不用"] == "unused" and kinds[f"{ROLE}·偶用"] == "rare"
    # without the content's skill lists a skill never used cannot be known
    rows = {s["skill"] for s in group(rep.build_report({}, records))["skills"] if s["role"] == ROLE}
    assert rows == {"常用", "偶用"}


def test_skills_offered_and_taken(played):
    """Each skill row says in how many games it was offered (records' skill_offers) beside those it was used in;
    a flag says whether an unused skill was offered at all; records without offers (an older sweep) give None."""
    _, records = played
    records = relabel(records)
    for i, r in enumerate(records):
        r["skill_offers"] = {f"{ROLE}·常用": 3, f"{ROLE}·不要": 2 if i < 30 else 0}
        r["skill_uses"] = {f"{ROLE}·常用": 1 if i % 2 else 0}
    skills = {"base": {ROLE: [("常用", "active"), ("不要", "active"), ("不来", "triggered")]}}
    report = rep.build_report({}, records, skills)
    rows = {s["skill"]: s for s in group(report)["skills"] if s["role"] == ROLE}
    assert (rows["常用"]["games_offered"], rows["常用"]["offers"], rows["常用"]["games_used"]) == (
        GAMES,
        3 * GAMES,
        GAMES // 2,
    )
    assert (rows["不要"]["games_offered"], rows["不要"]["offers"], rows["不要"]["games_used"]) == (30, 60, 0)
    assert (rows["不来"]["games_offered"], rows["不来"]["games_used"]) == (0, 0)
    texts = {f["subject"]: f["text"] for f in report["flags"] if f["kind"] == "unused"}
    assert texts[f"{ROLE}·不要"].endswith("offered in 30 of them") and texts[f"{ROLE}·不来"].endswith("never offered")
    for r in records:
        del r["skill_offers"]
    rows = {s["skill"]: s for s in group(rep.build_report({}, records, skills))["skills"] if s["role"] == ROLE}
    assert rows["常用"]["games_offered"] is None and rows["常用"]["offers"] is None


def test_a_skill_keeps_its_kind_when_a_record_names_it_first(played):
    """A skill's kind is the content's, whether the first game its role was in offered it, used it or did not
    name it (it was blank when that game's offers or uses were read before the role's skill list)."""
    _, records = played
    records = relabel(records)
    for i, r in enumerate(records):
        r["skill_offers"] = {f"{ROLE}·问过": 1, f"{ROLE}·用过": 1} if i == 0 else {}
        r["skill_uses"] = {f"{ROLE}·用过": 1} if i == 0 else {}
    skills = {"base": {ROLE: [("问过", "triggered"), ("用过", "victory"), ("没问", "active")]}}
    rows = {s["skill"]: s for s in group(rep.build_report({}, records, skills))["skills"] if s["role"] == ROLE}
    kinds = {name: row["kind"] for name, row in rows.items()}
    assert kinds == {"问过": "triggered", "用过": "victory", "没问": "active"}
    # a skill the content does not list (its pack not found) has no kind
    rows = {s["skill"]: s for s in group(rep.build_report({}, records))["skills"] if s["role"] == ROLE}
    assert rows["用过"]["kind"] is None


def test_a_role_that_left_play_after_its_skill_counts_as_in_play(played):
    """A role can use a skill and then leave play (端木静（SP）'s 后来人 replaces its own role): the records list the
    roles at the end, so that game counts the role as in play through its skill's use or offer. Before, such a
    skill could be used in more games than its role was in play, and the report stopped on a traceback (Wilson's
    interval of 3 wins of 2)."""
    _, records = played
    records = relabel(records)
    for i, r in enumerate(records):
        r["skill_offers"] = {f"{ROLE}·后来": 1} if i < 30 else {}
        r["skill_uses"] = {f"{ROLE}·后来": 1} if i < 20 else {}
        if i < 30:  # replaced: another role at its seat at the end
            r["roles"] = [x for x in r["roles"] if x != ROLE] + ["新角色（替身）"]
            r["seats"][0]["role"] = "新角色（替身）"
        if i >= 40:  # not dealt at all
            r["roles"] = [x for x in r["roles"] if x != ROLE]
            r["seats"][0]["role"] = "别的角色（路人）"
    skills = {"base": {ROLE: [("后来", "active")]}}
    rows = {s["skill"]: s for s in group(rep.build_report({}, records, skills))["skills"] if s["role"] == ROLE}
    row = rows["后来"]
    assert (row["games_in_play"], row["games_offered"], row["games_used"]) == (40, 30, 20)
    assert row["share_of_games"]["rate"] == 0.5 and row["uses_per_game"] == 0.5


def test_failed_games_are_listed_and_left_out(played):
    _, records = played
    records = copy.deepcopy(records[:30])
    records[3] = {"cell": records[3]["cell"], "index": 3, "seed": records[3]["seed"], "failed": "EngineError: boom"}
    report = rep.build_report({}, records)
    g = group(report)
    assert (g["games"], g["failed"], g["turns"]["games"]) == (30, 1, 29)
    seed = records[3]["seed"]
    assert g["failures"] == [{"players": 5, "index": 3, "seed": seed, "failed": "EngineError: boom", "rerun": None}]
    # with the sweep's spec, each failed game comes with the command that plays it alone
    meta = {"packs": [{"name": "base", "content": ["my pack"], "expansions": "none"}], "max_turns": 40}
    (f,) = group(rep.build_report(meta, records))["failures"]
    assert f["rerun"] == (
        f"fengsheng simulate -p 5 --agents random --content 'my pack' --expansions none --max-turns 40 "
        f"--game-seed {seed} --trace"
    )
    assert report["flags"][0]["kind"] == "failures"


def test_games_at_the_turn_limit_are_named_with_their_seeds(played):
    """A draw at the turn limit is an ending of its own, and each such game is named with its seed and the command
    that re-runs it (a stalemate between bots can be looked at), in the JSON, the terminal and the page."""
    _, records = played
    records = copy.deepcopy(records[:30])
    for i in (4, 9):
        records[i]["reason"] = "turn_limit"
    meta = {"packs": [{"name": "base", "content": ["my pack"], "expansions": "none"}], "max_turns": 40}
    report = rep.build_report(meta, records)
    g = group(report)
    assert [(f["index"], f["seed"]) for f in g["turn_limit_games"]] == [
        (records[4]["index"], records[4]["seed"]),
        (records[9]["index"], records[9]["seed"]),
    ]
    assert g["turn_limit_games"][0]["rerun"].endswith(f"--game-seed {records[4]['seed']} --trace")
    assert any(r["reason"] == "turn_limit" and r["games"] == 2 for r in g["end_reasons"])
    en, zh = render_report(report, lang="en"), render_report(report, lang="zh")
    assert "Games that reached the turn limit (draws):" in en and str(records[9]["seed"]) in en
    assert "到达回合上限的对局（平局）" in zh
    from rich.console import Console

    from interpreter.balance.terminal import print_report

    console = Console(record=True, width=200)
    print_report(report, console, lang="en")
    out = console.export_text()
    assert "Games that reached the turn limit (2, draws)" in out and g["turn_limit_games"][1]["rerun"] in out
    assert group(rep.build_report(meta, copy.deepcopy(records[10:20])))["turn_limit_games"] == []


def test_a_seat_without_a_role_is_counted_and_drawn(played):
    _, records = played
    records = copy.deepcopy(records[:20])
    records[0]["seats"][1]["role"] = None  # content without roles, or a role taken away
    report = rep.build_report({}, records)
    assert next(r for r in group(report)["roles"] if r["name"] == rep.NO_ROLE)["n"] == 1
    assert rep.NO_ROLE in render_report(report)


def test_a_seat_without_an_identity_card_is_named_in_the_reports_language(played):
    """The records name a seat that ended without an identity card (承志 took it) 无身份牌, the engine's word; the
    English report and page said it in Chinese beside 'identity', 'won/n'. The JSON keeps the records' name."""
    from types import SimpleNamespace

    from interpreter.balance.terminal import print_report
    from interpreter.balance.words import NO_IDENTITY
    from interpreter.sim.summary import identity_name

    assert identity_name(SimpleNamespace(identity=None)) == NO_IDENTITY
    _, records = played
    records = copy.deepcopy(records[:20])
    records[0]["seats"][1]["identity"] = NO_IDENTITY
    report = rep.build_report({}, records)
    assert any(r["name"] == NO_IDENTITY for r in group(report)["identities"])
    page = render_report(report, lang="en")
    assert "no identity card" in page and NO_IDENTITY not in page
    assert NO_IDENTITY in render_report(report, lang="zh")
    console = Console(record=True, width=200)
    print_report(report, console, lang="en")
    out = console.export_text()
    assert "no identity card" in out and NO_IDENTITY not in out
    # balance compare's tables and page too (they said 无身份牌 in English; a figure needs seats enough to be tested)
    for r in records:
        r["seats"][1]["identity"] = NO_IDENTITY
    result = cmp.compare_reports(rep.build_report({}, records), rep.build_report({}, records))
    assert any(x["kind"] == "identity" and x["name"] == NO_IDENTITY for x in result["figures"])
    console = Console(record=True, width=200)
    cmp.print_compare(result, console, lang="en")
    out = console.export_text()
    assert "no identity card" in out and NO_IDENTITY not in out
    page = render_compare(result, lang="en")
    assert "no identity card" in page and NO_IDENTITY not in page
    assert NO_IDENTITY in render_compare(result, lang="zh")


def test_player_counts_get_their_own_groups_and_a_pooled_one(content, tmp_path):
    """The grouping alone (4 games a player count: the check is of counts, which any number of games shows)."""
    records = make_sweep(tmp_path, content, players=(4, 5), agents=("random",), games=4, seed=3)
    report = rep.build_report({}, records)
    assert [g["players"] for g in report["groups"]] == [4, 5, rep.ALL]
    assert [g["games"] for g in report["groups"]] == [4, 4, 8]
    assert report["groups"][2]["seats"] == report["groups"][0]["seats"] + report["groups"][1]["seats"]


# ---------------------------------------------------------------------- JSON keys (documented in docs/balance.md)

REPORT_KEYS = {
    "format",
    "pack_notes",
    "pack_note_facts",
    "sweep",
    "rules",
    "flags",
    "new_roles",
    "new_items",
    "verdicts",
    "pack_diffs",
    "groups",
}
GROUP_KEYS = {
    "pack", "agents", "players", "games", "failed", "seats", "identities", "tasks", "roles", "skills",
    "turns", "decisions", "end_reasons", "failures", "turn_limit_games", "cards",
}  # fmt: skip
RATE_KEYS = {"name", "won", "n", "rate", "low", "high", "half_width"}
ROLE_KEYS = RATE_KEYS | {"expected", "p_value", "flag", "holm", "seats_for_5_points"}
SKILL_KEYS = {
    "role", "skill", "kind", "games_in_play", "games_offered", "offers", "games_used", "uses", "uses_per_game",
    "share_of_games", "flag",
}  # fmt: skip
SPREAD_KEYS = {"games", "mean", "median", "p10", "p90", "min", "max", "histogram"}
FLAG_KEYS = {"kind", "pack", "agents", "players", "subject", "text"}
COMPARE_KEYS = {
    "format", "base", "fork", "alpha", "power", "detect", "detect_turns", "figures_tested", "too_few",
    "min_test_n", "pairs", "moved", "figures", "only_base", "only_fork", "fork_flags", "paired",
}  # fmt: skip
FIGURE_KEYS = {
    "kind", "name", "players", "agents", "base", "fork", "difference", "low", "high", "z", "p_value",
    "significant", "holm", "games_needed",
}  # fmt: skip


def test_report_json_keys_are_stable_and_documented(played):
    d, records = played
    report = rep.build_report(rep.load_sweep(d).meta, relabel(records))
    assert set(report) == REPORT_KEYS and report["format"] == 1
    g = group(report)
    assert set(g) == GROUP_KEYS
    assert all(set(r) == RATE_KEYS for r in g["identities"] + g["tasks"])
    assert all(set(r) == ROLE_KEYS for r in g["roles"])
    assert all(set(s) == SKILL_KEYS for s in g["skills"])
    assert set(g["turns"]) == SPREAD_KEYS == set(g["decisions"])
    assert all(set(f) >= FLAG_KEYS for f in report["flags"])
    json.dumps(report)  # plain data
    doc = (Path(__file__).parents[1] / "docs" / "balance.md").read_text(encoding="utf-8")
    for key in REPORT_KEYS | GROUP_KEYS | ROLE_KEYS | SKILL_KEYS | SPREAD_KEYS | COMPARE_KEYS | FIGURE_KEYS:
        assert f"`{key}`" in doc, f"docs/balance.md does not document the key {key!r}"


# ---------------------------------------------------------------------- A/B


def test_a_sweep_against_itself_moves_nothing(played):
    _, records = played
    r = rep.build_report({}, records)
    result = cmp.compare_reports(r, r)
    assert set(result) == COMPARE_KEYS
    assert result["figures"] and all(set(x) == FIGURE_KEYS for x in result["figures"])
    assert result["moved"] == [] and all(x["difference"] == 0 for x in result["figures"])
    kinds = {x["kind"] for x in result["figures"]}
    assert {"identity", "end_reason", "turns", "decisions"} <= kinds


def test_a_role_made_to_win_moves_and_survives_holm(played):
    _, records = played
    base = relabel(records)
    fork = copy.deepcopy(base)
    for r in fork:
        r["seats"][0]["won"] = True
    result = cmp.compare_reports(rep.build_report({}, base), rep.build_report({}, fork))
    moved = [x for x in result["moved"] if x["kind"] == "role" and x["name"] == ROLE]
    assert len(moved) == 1 and moved[0]["holm"] and moved[0]["difference"] > 0.3
    fig = next(x for x in result["figures"] if x["kind"] == "role" and x["name"] == ROLE)
    assert (fig["low"], fig["high"]) == pytest.approx(
        cmp.newcombe(fig["base"]["won"], fig["base"]["n"], fig["fork"]["won"], fig["fork"]["n"])
    )
    # a role in every game, one seat each: seats needed per side = games needed
    assert fig["games_needed"] == cmp.n_for_proportions(fig["base"]["rate"], cmp.DETECT)


def test_a_role_only_in_the_fork_is_listed(played, content):
    _, records = played
    base_roles = {role.label(): [] for role in content.roles.values()}
    base = rep.build_report({}, records, {"base": base_roles})
    fork = rep.build_report({}, relabel(records), {"base": {**base_roles, ROLE: []}})
    result = cmp.compare_reports(base, fork)
    assert [r["name"] for r in result["only_fork"]] == [ROLE]
    # whether a role not dealt on one side is new is known only from the content
    result = cmp.compare_reports(rep.build_report({}, records), rep.build_report({}, relabel(records)))
    assert result["only_fork"] == [] and result["too_few"] > 0


def test_a_role_only_in_the_fork_is_flagged_as_the_report_flags_it(played, content):
    """A flag that does not survive Holm's correction is a lead in the report; the A/B says so too."""
    _, records = played
    base_roles = {role.label(): [] for role in content.roles.values()}
    fork_records = relabel(records)
    for r in fork_records:
        r["seats"][0]["won"] = True
    base = rep.build_report({}, records, {"base": base_roles})
    fork = rep.build_report({}, fork_records, {"base": {**base_roles, ROLE: []}})
    for survives in (True, False):
        for g in fork["groups"]:
            for row in g["roles"]:
                if row["name"] == ROLE:
                    row["holm"] = survives
        result = cmp.compare_reports(base, fork)
        rows = result["only_fork"]
        assert rows and all(r["flag"] == "strong" and r["holm"] is survives for r in rows)
        for lang, strong, lead in (("en", "STRONG", " (lead)"), ("zh", "偏强", "（待确认）")):
            out = io.StringIO()
            cmp.print_compare(result, Console(file=out, width=200), lang=lang)
            lines = [ln for ln in out.getvalue().splitlines() if ln.startswith(f"  {ROLE} [")]
            assert lines and all(ln.endswith(strong if survives else strong + lead) for ln in lines), lines
            page = render_compare(result, lang=lang)
            assert (strong + lead in page) is not survives


def test_sweeps_without_a_common_cell_cannot_be_compared(played, content, tmp_path):
    _, records = played
    other = make_sweep(tmp_path, content, players=(4,), agents=("random",), games=3)
    with pytest.raises(cmp.CompareError, match="no cell in common"):
        cmp.compare_reports(rep.build_report({}, records), rep.build_report({}, other))


# ---------------------------------------------------------------------- HTML


def _self_contained(html: str) -> None:
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert not re.search(r"https?://", html), "the report names a URL"
    for fetch in ("<script", "src=", "<link", "@import", "url("):
        assert fetch not in html


def test_html_report_is_self_contained_and_names_every_role(played):
    d, records = played
    records = relabel(records)
    for r in records:
        r["seats"][0]["won"] = True
    report = rep.build_report(rep.load_sweep(d).meta, records)
    html = render_report(report, lang="en")
    _self_contained(html)
    for g in report["groups"]:  # (a seat without an identity card in the page's language: no identity card)
        for row in g["roles"] + identity_rows(g["identities"], "en") + g["tasks"]:
            assert row["name"] in html
    assert html.count("<svg") >= 4  # identities, tasks, roles, histogram, endings
    assert "STRONG" in html and ROLE in html and '<html lang="en">' in html
    zh = render_report(report)  # Chinese by default, the same figures
    assert '<html lang="zh-Hans">' in zh and "偏强" in zh and "各角色胜率" in zh and "STRONG" not in zh
    assert "Win rate" not in zh and all(row["name"] in zh for g in report["groups"] for row in g["roles"])


def test_html_compare_is_self_contained(played):
    _, records = played
    base = relabel(records)
    fork = copy.deepcopy(base)
    for r in fork:
        r["seats"][0]["won"] = True
    result = cmp.compare_reports(rep.build_report({}, base), rep.build_report({}, fork))
    html = render_compare(result, lang="en")
    _self_contained(html)
    assert ROLE in html and "Moved at the 5% level" in html
    zh = render_compare(result)
    assert ROLE in zh and "在5%水平上变动" in zh and "Moved" not in zh


def test_a_compare_names_endings_and_lengths_in_the_reports_language(played):
    """The tables of how games ended and of their length speak the report's language, not the engine's ids."""
    _, records = played
    base = relabel(records)
    fork = copy.deepcopy(base)
    for r in fork[: len(fork) // 2]:
        r["reason"], r["turns"] = "death", r["turns"] + 3
    result = cmp.compare_reports(rep.build_report({}, base), rep.build_report({}, fork))
    reasons = {x["name"] for x in result["figures"] if x["kind"] == "end_reason"}
    assert "death" in reasons
    texts = {}
    for lang in ("zh", "en"):
        out = io.StringIO()
        cmp.print_compare(result, Console(file=out, width=200), lang=lang)
        texts[lang] = out.getvalue() + render_compare(result, lang=lang)
    assert "死亡达成任务 · " in texts["zh"] and "回合 · " in texts["zh"] and "决策 · " in texts["zh"]
    assert not re.search(r"\b(death|collect|turns|decisions) · ", texts["zh"])
    assert "death · " in texts["en"] and "turns · " in texts["en"]


# ---------------------------------------------------------------------- the commands


@pytest.fixture
def run():
    from interpreter.balance_report_cmd import compare, report

    runner = CliRunner()

    def go(command, *args):
        """The command in English (the tests read its words) unless --lang is given."""
        cmd = {"report": report, "compare": compare}[command]
        words = [str(a) for a in args]
        if "--lang" not in words and "--help" not in words:
            words += ["--lang", "en"]
        return runner.invoke(cmd, words, catch_exceptions=False)

    return go


def test_report_command_writes_html_and_json(played, run, tmp_path):
    d, _ = played
    out = tmp_path / "r.html"
    res = run("report", d, "--html", out, "--no-roles")
    assert res.exit_code == 0, res.output
    assert "Win rate by identity" in res.output and f"HTML report: {out}" in res.output
    _self_contained(out.read_text(encoding="utf-8"))
    res = run("report", d, "--format", "json", "--html", tmp_path / "again.html")
    assert res.exit_code == 0 and f"HTML report: {tmp_path / 'again.html'}" in res.stderr
    data = json.loads(res.stdout)  # the JSON alone on stdout: no tables
    assert set(data) == REPORT_KEYS and data["sweep"]["records"] == GAMES and data["format"] == 1
    (tmp_path / "r.json").write_text(res.stdout, encoding="utf-8")
    # every role's line says how far to trust it: its seats won / played, the interval, ± points, expected
    res = run("report", d, "--no-html")
    table = res.output[res.output.index("Win rate by role") :]
    assert all(col in table for col in ("won/n", "95%", "±pts", "exp.", "flag"))
    some = group(json.loads((tmp_path / "r.json").read_text(encoding="utf-8")))["roles"][0]
    assert f"{some['won']}/{some['n']}" in table and f"±{100 * some['half_width']:.1f}" in table


def test_the_old_json_spellings_work_for_a_release(played, run, tmp_path):
    """--json - is --format json; --json FILE still writes the file beside the tables; each says what replaces it."""
    d, records = played
    new = run("report", d, "--format", "json", "--no-html")
    old = run("report", d, "--json", "-", "--no-html")
    assert old.exit_code == 0 and json.loads(old.stdout) == json.loads(new.stdout)
    assert "note: --json - is deprecated and goes in the next release: use --format json" in old.stderr
    old = run("report", d, "--json", tmp_path / "r.json", "--no-html", "--no-roles")
    assert old.exit_code == 0 and "Win rate by identity" in old.stdout
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8")) == json.loads(new.stdout)
    assert "use --format json > FILE" in old.stderr
    fork = tmp_path / "fork"
    write_sweep(fork, relabel(records), players=(5,), agents=("random",), packs=["base"], per_cell=GAMES)
    old = run("compare", d, fork, "--no-roles", "--no-html", "--json", tmp_path / "c.json")
    assert old.exit_code == 0 and set(json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))) == COMPARE_KEYS
    both = run("report", d, "--format", "json", "--json", tmp_path / "x.json")
    assert both.exit_code == 2 and "not with --json FILE" in both.output
    assert "--json" not in run("report", "--help").output  # hidden


def test_report_command_errors_are_clear(run, tmp_path, played):
    res = run("report", tmp_path / "nowhere")
    assert res.exit_code == 2 and "not a directory" in res.output and "Traceback" not in res.output
    res = run("report", tmp_path)
    assert res.exit_code == 2 and "not a sweep directory: it has no sweep.json" in res.output
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "sweep.json").write_text("{not json", encoding="utf-8")
    res = run("report", bad)
    assert res.exit_code == 2 and "sweep.json:1:2: not JSON" in res.output
    _, records = played
    broken = tmp_path / "broken"
    write_sweep(broken, records[:2], players=(5,), agents=("random",), packs=["base"], per_cell=2)
    with open(broken / "games.jsonl", "a", encoding="utf-8") as f:
        f.write('{"cell": 5}\n{"cell": {"players": 5, "agents": "random", "pack": "base"}, "index": 9, "seed": 1}\n')
    res = run("report", broken)
    assert res.exit_code == 2 and "games.jsonl:3: `cell` should be" in res.output
    empty = tmp_path / "empty"
    write_sweep(empty, [], players=(5,), agents=("random",), packs=["base"], per_cell=2)
    res = run("report", empty)
    assert res.exit_code == 1 and "no games yet" in res.output


def test_compare_command_on_two_sweeps(played, run, content, tmp_path):
    d, records = played
    fork = tmp_path / "fork"
    write_sweep(fork, relabel(records), players=(5,), agents=("random",), packs=["base"], per_cell=GAMES)
    res = run("compare", d, fork, "--no-roles")
    assert res.exit_code == 0, res.output
    assert "figures compared" in res.output and "Roles only in the fork" in res.output
    assert (fork / "compare.html").is_file()
    res = run("compare", d, fork, "--format", "json", "--no-html")
    assert res.exit_code == 0 and set(json.loads(res.stdout)) == COMPARE_KEYS and res.stderr == ""
    res = run("compare", d, tmp_path / "nothing")
    assert res.exit_code == 2 and "is a sweep directory but" in res.output
    res = run("compare", d)
    assert res.exit_code == 2 and "holds 1 pack(s)" in res.output


def test_compare_command_sweeps_two_packs(run, tmp_path):
    pack = Path(__file__).parents[1] / "examples" / "jia_gui"
    out = tmp_path / "ab"
    res = run("compare", "base", pack, "-p", "5", "-n", "6", "--agents", "random", "-j", "1", "-o", out, "--no-roles")
    assert res.exit_code == 0, res.output
    spec = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert [p["name"] for p in spec["packs"]] == ["base", "jia_gui"] and spec["games"] == 6
    assert "base (6 games) vs jia_gui (6 games)" in res.output and (out / "compare.html").is_file()
    # the pack's own role (not in the bundled game) is singled out in its report
    res = run("report", out, "--format", "json", "--no-html")
    data = json.loads(res.stdout)
    assert data["new_roles"] == {"jia_gui": ["画眉（歌女）"]}
    assert render_report(data, lang="en").count("New roles in jia_gui") == 1
    res = run("compare", "base", tmp_path / "no_such_pack")
    assert res.exit_code == 2 and "neither a sweep directory nor a content pack directory" in res.output
    # a folder that is neither a sweep nor a pack (issue 29: `compare /tmp /tmp` swept for minutes): refused at once
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "notes.txt").write_text("x", encoding="utf-8")
    res = run("compare", tmp_path / "plain", tmp_path / "plain", "-o", tmp_path / "nowhere")
    assert res.exit_code == 2 and "a folder with no sweep.json, pack.yaml or rules.yaml" in res.output
    assert not (tmp_path / "nowhere").exists()


def test_a_skill_with_several_moments_shows_each_moments_kind(tmp_path):
    """pack_skills reads each role's skills from the sweep's packs: a skill with `moments:` is listed once, with
    the kind of every moment (not only the first's)."""
    pack = tmp_path / "moments_pack"
    (pack / "roles").mkdir(parents=True)
    (pack / "roles" / "ce_shi.yaml").write_text(
        """id: ce_shi
name: 测试
title: 试验员
gender: male
hidden: false
skills:
  - id: liang_shi
    name: 两时
    text: 测试用。
    moments:
      - {kind: triggered, trigger: skill_collect}
      - {kind: active, timing: contest}
    effect: draw(self, 1)
  - id: yi_shi
    name: 一时
    text: 测试用。
    kind: active
    timing: contest
    effect: draw(self, 1)
""",
        encoding="utf-8",
    )
    meta = {"packs": [{"name": "mine", "content": [str(pack)], "expansions": "none"}]}
    skills = pack_facts.pack_skills(meta)["mine"]
    assert skills["测试（试验员）"] == [("两时", "triggered + active"), ("一时", "active")]


def test_a_skills_kind_is_in_the_pages_language(played):
    """The page's skill table and a flag name a skill's kind in the report's language, each moment's kind of a
    skill with several (the Chinese page showed 'triggered', 'active' in English)."""
    from interpreter.balance.html import skill_table
    from interpreter.balance.words import flag_text

    _, records = played
    records = relabel(records)
    for i, r in enumerate(records):
        r["skill_uses"] = {f"{ROLE}·两时": 1} if i == 0 else {}
    skills = {"base": {ROLE: [("两时", "triggered + active"), ("一时", "victory")]}}
    report = rep.build_report({}, records, skills)
    zh, en = skill_table(group(report), "zh"), skill_table(group(report), "en")
    assert '<td class="name">触发 + 主动</td>' in zh and '<td class="name">胜利</td>' in zh
    assert "triggered" not in zh and "victory" not in zh
    assert '<td class="name">triggered + active</td>' in en and '<td class="name">victory</td>' in en
    rare = next(f for f in report["flags"] if f["subject"] == f"{ROLE}·两时")
    assert "（触发 + 主动技能）" in flag_text(rare, "zh") and "(triggered + active skill)" in flag_text(rare, "en")
