"""The scenario format's expectations fail when what they say is broken (docs/scenarios.md).

Each passing scenario of tests/scenarios/format_*.scenario.yaml is copied with one change that
breaks its expectation; the runner must report that failure, in its own words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.scenario import run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
NOT_OFFERED_ACCEPT = (19, 36)  # format_statuses_and_not_offered without its statuses line: P1's not_offered


def _run_changed(tmp_path: Path, name: str, old: str, new: str):
    text = (SCENARIOS / name).read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {name}"
    f = tmp_path / name
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    return run_scenario(f)


@pytest.mark.parametrize(
    "name",
    [
        "format_identity_none.scenario.yaml",
        "format_statuses_and_not_offered.scenario.yaml",
        "format_used_limit.scenario.yaml",
        "format_travel_up_never_asked.scenario.yaml",
    ],
)
def test_the_format_scenarios_pass(name):
    result = run_scenario(SCENARIOS / name)
    assert result.passed, result.report()


def test_a_player_with_an_identity_card_does_not_win_with_gu_xiao_meng(tmp_path):
    result = _run_changed(
        tmp_path, "format_identity_none.scenario.yaml", "  - identity: none", "  - identity: te_gong_ji_guan"
    )
    (failure,) = result.failures  # at the expectation it breaks, with the line and a caret
    assert failure.endswith(":18:12: winners: expected [0, 2], got [0]\n      winners: [0, 2]\n               ^")


def test_an_unknown_identity_is_a_setup_failure_at_its_line(tmp_path):
    result = _run_changed(tmp_path, "format_identity_none.scenario.yaml", "  - identity: none", "  - identity: nobody")
    (failure,) = result.failures
    assert ":13:15: setup: seat 2: unknown identity 'nobody' (known: " in failure and "none)" in failure


def test_without_the_status_accepting_is_offered_and_reported(tmp_path):
    result = _run_changed(
        tmp_path, "format_statuses_and_not_offered.scenario.yaml", "    statuses: [cannot_receive]\n", ""
    )
    assert not result.passed
    # at the item of not_offered it breaks (once, however many decisions offered it)
    (failure,) = [f for f in result.failures if "must not be offered" in f]
    assert failure.message == "P1 was offered 'accept', which must not be offered (options: ['accept', 'decline'])"
    assert (failure.line, failure.col) == NOT_OFFERED_ACCEPT


def test_an_unknown_status_is_a_setup_failure(tmp_path):
    result = _run_changed(
        tmp_path,
        "format_statuses_and_not_offered.scenario.yaml",
        "    statuses: [cannot_receive]",
        "    statuses: [sleepy]",
    )
    (failure,) = result.failures
    assert "setup: seat 1: unknown status 'sleepy' (known: cannot_use_cards" in failure


def test_a_misspelt_status_or_identity_gets_a_did_you_mean(tmp_path):
    result = _run_changed(
        tmp_path,
        "format_statuses_and_not_offered.scenario.yaml",
        "    statuses: [cannot_receive]",
        "    statuses: [cannot_recieve]",
    )
    (failure,) = result.failures
    assert "unknown status 'cannot_recieve'; did you mean cannot_receive? (known: " in failure


def test_a_seat_never_asked_that_is_asked_fails_in_its_own_words(tmp_path):
    result = _run_changed(tmp_path, "format_travel_up_never_asked.scenario.yaml", "target: 2}", "target: 1}")
    assert not result.passed
    (failure,) = result.failures
    assert failure == "P1 was asked a decision with options ['accept', 'decline'], but must never be asked"
    assert "unscripted" not in failure


def test_a_seat_that_must_be_asked_and_is_not(tmp_path):
    result = _run_changed(
        tmp_path, "format_travel_up_never_asked.scenario.yaml", "3: {asked: false}", "3: {asked: true}"
    )
    assert result.failures == ["P3 was never asked a decision, but must be asked"]


def test_an_up_intel_at_travel_without_its_target_is_a_setup_failure(tmp_path):
    result = _run_changed(tmp_path, "format_travel_up_never_asked.scenario.yaml", ", target: 2}", "}")
    (failure,) = result.failures
    assert "setup: an ↑ intel sent at `start: travel` needs pending.target" in failure


def test_a_count_that_does_not_match_is_reported(tmp_path):
    result = _run_changed(
        tmp_path,
        "format_travel_up_never_asked.scenario.yaml",
        "{e: intel_arrives}, times: 1}",
        "{e: intel_arrives}, times: 2}",
    )
    (failure,) = result.failures
    assert ":25:7: event {'e': 'intel_arrives'} happened 1 time(s), expected exactly 2\n" in failure


def test_a_count_of_zero_is_never(tmp_path):
    result = _run_changed(
        tmp_path, "format_travel_up_never_asked.scenario.yaml", "{e: received}, times: 1}", "{e: received}, times: 0}"
    )
    (failure,) = result.failures
    assert ":26:7: event {'e': 'received'} happened 1 time(s), expected exactly 0\n" in failure


def test_uses_already_made_count_against_the_limit(tmp_path):
    result = _run_changed(tmp_path, "format_used_limit.scenario.yaml", "    used: {you_di_shen_ru: 1}\n", "")
    assert "P0 was offered 'skill 诱敌深入', which must not be offered" in result.failures[0]


def test_uses_of_a_skill_the_role_lacks_is_a_setup_failure(tmp_path):
    result = _run_changed(
        tmp_path, "format_used_limit.scenario.yaml", "    used: {you_di_shen_ru: 1}", "    used: {lian_luo: 1}"
    )
    (failure,) = result.failures
    assert (
        "setup: seat 0: role 'bian_yun_jiang' has no skill 'lian_luo' (its skills: you_di_shen_ru, jian_di_feng_xing)"
        in failure
    )


def test_a_card_id_the_deck_lacks_is_a_setup_failure_at_its_line_with_the_ids_it_has(tmp_path):
    result = _run_changed(tmp_path, "format_statuses_and_not_offered.scenario.yaml", "hand: [30]", "hand: [999]")
    (failure,) = result.failures
    assert ":8:12: setup: seat 0 hand: card #999 is not in the deck (its ids: 1-118)" in failure


def test_a_start_that_is_no_phase_is_a_setup_failure_at_its_line(tmp_path):
    """A misspelt `start:` is pointed at, with the turn's phases and a did-you-mean, before anything is played."""
    result = _run_changed(tmp_path, "format_identity_none.scenario.yaml", "start: ", "start: plya\n# ")
    (failure,) = result.failures
    assert "start: the turn has no phase 'plya' (its phases: draw, play, send, contest, receive" in failure
    assert failure.split(": start:")[0].endswith(":15:8") and "did you mean play?" in failure


def test_a_misspelt_event_kind_in_no_events_is_a_setup_failure_not_a_pass(tmp_path):
    """A pattern naming no event kind matches no record: `no_events:` would pass whatever the game did."""
    result = _run_changed(tmp_path, "format_used_limit.scenario.yaml", "{e: skill_used,", "{e: skil_used,")
    (failure,) = result.failures
    assert ":21:11: expect.no_events[0]: no event kind 'skil_used'; did you mean skill_used?" in failure


def test_a_misspelt_field_in_no_events_is_a_setup_failure_not_a_pass(tmp_path):
    name = "format_used_limit.scenario.yaml"
    result = _run_changed(tmp_path, name, "skill: you_di_shen_ru}", "skil: you_di_shen_ru}")
    (failure,) = result.failures
    assert ":21:23: expect.no_events[0]: the skill_used record has no field 'skil' (its fields: seat, skill" in failure
    assert "did you mean skill?" in failure


def test_a_misspelt_decision_kind_in_events_is_a_setup_failure_at_its_line(tmp_path):
    result = _run_changed(tmp_path, "format_statuses_and_not_offered.scenario.yaml", "{d: receive,", "{d: recieve,")
    (failure,) = result.failures
    assert ":23:11: expect.events[0]: no decision kind 'recieve'; did you mean receive?" in failure


def test_a_skill_no_role_has_in_skills_fired_is_a_setup_failure(tmp_path):
    name = "role_jian_xian_sheng_cong_rong_ying_dui.scenario.yaml"
    result = _run_changed(tmp_path, name, "skills_fired: [从容应对]", "skills_fired: [从容应队]")
    (failure,) = result.failures
    said = "expect.skills_fired: no role of the content (nor its rules) has a skill '从容应队'; did you mean 从容应对?"
    assert said in failure


def test_an_answer_naming_a_skill_no_role_has_is_a_setup_failure_at_its_line(tmp_path):
    """`skill NAME` in answers or not_offered that no role has: named at its line, the closest first."""
    name = "format_used_limit.scenario.yaml"
    result = _run_changed(tmp_path, name, "not_offered: [skill 诱敌深入]", "not_offered: [skill 诱敌深人]")
    (failure,) = result.failures
    assert ":18:23: expect.players.0.not_offered: 'skill 诱敌深人' names no skill of any role of the content" in failure
    assert "(P0's role 边云疆 has: " in failure and "did you mean skill 诱敌深入?" in failure
    result = _run_changed(tmp_path, name, '0: ["#30", no]', '0: [skill 诱敌深入, "#30", no]')
    assert not any("names no skill" in f for f in result.failures), result.failures  # a skill that exists: run


def test_an_end_state_that_differs_is_reported_at_its_expectation(tmp_path):
    """Like a setup mistake, a failed expectation names its file, line and column, with the line and a caret."""
    result = _run_changed(
        tmp_path, "format_used_limit.scenario.yaml", "{e: skill_used, skill: you_di_shen_ru}", "{e: received}"
    )
    (failure,) = result.failures
    assert ":21:7: event {'e': 'received'} happened but must not\n" in failure and failure.rstrip().endswith("^")


def test_a_script_that_runs_short_points_at_its_last_answer(tmp_path):
    result = _run_changed(tmp_path, "format_used_limit.scenario.yaml", '0: ["#30", no]', '0: ["#30"]')
    (failure,) = result.failures
    assert ":14:7: P0 was asked an unscripted decision with options ['是', '否']; add an answer to answers.0" in failure
    assert "after this one\n" in failure and '0: ["#30"]' in failure


def test_knows_and_knows_not_report_the_card_and_where_it_is(tmp_path):
    result = _run_changed(
        tmp_path,
        "role_li_xing_sou_ji_watchers_know.scenario.yaml",
        "0: {knows: [36, 40], knows_not: [27]}",
        "0: {knows: [27], knows_not: [36]}",
    )
    assert not result.passed
    assert any("P0 knows: P0 does not see the face of #27 (P2's hand)" in f for f in result.failures)
    assert any("P0 knows_not: P0 sees the face of #36 (P1's hand)" in f for f in result.failures)
    assert len(result.failures) == 2


def test_knows_not_of_a_card_the_game_lacks_fails_rather_than_passes(tmp_path):
    result = _run_changed(
        tmp_path, "role_li_xing_sou_ji_watchers_know.scenario.yaml", "knows_not: [27]", "knows_not: [999]"
    )
    (failure,) = result.failures
    assert "P0 knows_not: no card #999 in this game" in failure


def test_a_contest_or_travel_without_a_pending_intel_is_a_setup_failure_at_start(tmp_path):
    """Before: 'internal error … AssertionError:' with no message, blamed on the engine (issue 29)."""
    for start in ("contest", "travel"):
        f = tmp_path / f"{start}.scenario.yaml"
        f.write_text(
            "name: x\nplayers:\n  - identity: qian_fu_zhan_xian\n  - identity: te_gong_ji_guan\n"
            f"  - identity: te_gong_ji_guan\ncurrent: 0\nstart: {start}\n",
            encoding="utf-8",
        )
        result = run_scenario(f)
        assert not result.passed
        assert result.failures[0].startswith(f"{f}:7:8: start: {start} needs an intel in transit")
        assert "internal error" not in "".join(result.failures)


def test_an_expected_event_that_did_not_happen_shows_what_did(tmp_path):
    """'event … did not happen (in this order)' alone left a designer to read the whole trace: the failure now
    gives the game's records of that kind (what the pattern names of each), or says the event came earlier
    than the one listed above it, or that the game recorded none of its kind."""
    name = "card_ping_heng_user_draws_first.scenario.yaml"
    wrong = _run_changed(
        tmp_path, name, "- {e: draw, seat: 1, cards: [31, 32, 33]}", "- {e: draw, seat: 1, cards: [31]}"
    )
    (failure,) = wrong.failures
    assert (
        "did not happen (in this order); its 'draw' records: {'e': 'draw', 'seat': 0, 'cards': [27, 28, 29]}, "
        "{'e': 'draw', 'seat': 1, 'cards': [31, 32, 33]}" in failure
    )
    order = _run_changed(
        tmp_path,
        name,
        "    - {e: draw, seat: 0, cards: [27, 28, 29]}\n    - {e: draw, seat: 1, cards: [31, 32, 33]}",
        "    - {e: draw, seat: 1, cards: [31, 32, 33]}\n    - {e: draw, seat: 0, cards: [27, 28, 29]}",
    )
    (failure,) = order.failures
    assert "did not happen (in this order); it happened, but before the event listed above it" in failure
    none = _run_changed(tmp_path, name, "- {e: discard, cards: [79, 91]}", "- {e: died, seat: 1}")
    (failure,) = none.failures
    assert "{'e': 'died', 'seat': 1} did not happen (in this order); the game recorded no 'died' at all" in failure


def test_a_seat_key_written_as_answers_name_a_player_says_to_write_its_number(tmp_path):
    """`P1:` under expect.players (or answers), as an answer names a player: it said only that 'P1' is not a seat."""
    name = "card_ping_heng_user_draws_first.scenario.yaml"
    result = _run_changed(tmp_path, name, "    1: {hand: [31, 32, 33]}", "    P1: {hand: [31, 32, 33]}")
    (failure,) = result.failures
    assert "expect.players: 'P1' is not a seat (the table has 0 to 2); a seat here is its number: 1" in failure
    far = _run_changed(tmp_path, name, "    1: {hand: [31, 32, 33]}", "    P7: {hand: [31, 32, 33]}")
    (failure,) = far.failures  # no such seat at all: nothing to suggest
    assert failure.splitlines()[0].endswith("expect.players: 'P7' is not a seat (the table has 0 to 2)")


def test_failures_are_reported_in_the_order_of_the_file(tmp_path):
    """A designer reads the failures top to bottom against the file: they came in the order of the runner's checks
    (winners before players, whatever the file says), now by line and column; those at no place last."""
    name = "format_used_limit.scenario.yaml"
    text = (SCENARIOS / name).read_text(encoding="utf-8")
    text = text.replace("1: {intel: [30]}", "1: {intel: [31], not_offered: [accept]}") + "  winners: [1]\n"
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    result = run_scenario(f)
    placed = [x for x in result.failures if x.startswith(str(f))]
    assert [x.split("\n")[0].split(": ", 1)[1] for x in placed] == [
        "P1 intel: expected [31], got [30]",
        "P1 was offered 'accept', which must not be offered (options: ['accept', 'decline'])",
        "winners: expected [1], got no end of game",
    ]
    assert [(x.line, x.col) for x in placed] == [(19, 16), (19, 36), (22, 12)]
    assert placed[1].message.startswith("P1 was offered 'accept', which must not be offered")
    assert len(result.failures) == 3


def test_a_misspelt_card_in_an_answer_gets_a_did_you_mean(tmp_path):
    """An answer naming a card (or a skill) by a slip of its name: the option's written form it was close to, the
    name compared after the same word (`use 截获` is not taken for a slip of `use 利诱`); a deck id or a seat gets
    none (one close in spelling is no likelier than another)."""
    name = "card_li_you_on_self.scenario.yaml"
    (failure,) = _run_changed(tmp_path, name, "0: [use 利诱,", "0: [use 利透,").failures
    assert ":13:7: P0's answer #1 'use 利透' is not a legal option; options: [" in failure
    assert failure.split("\n")[0].endswith("; did you mean use 利诱?")
    (failure,) = _run_changed(tmp_path, name, "0: [use 利诱,", "0: [use 截获,").failures
    assert "did you mean" not in failure
    name = "format_used_limit.scenario.yaml"
    (failure,) = _run_changed(tmp_path, name, '0: ["#30", no]', "0: [威毙, no]").failures
    assert failure.split("\n")[0].endswith("is not a legal option; options: ['威逼#30(红→)']; did you mean 威逼?")
    (failure,) = _run_changed(tmp_path, name, '0: ["#30", no]', '0: ["#130", no]').failures
    assert "did you mean" not in failure


def test_a_misspelt_deck_gets_a_did_you_mean(tmp_path):
    result = _run_changed(tmp_path, "format_used_limit.scenario.yaml", "current: 0", "deck: standrad\ncurrent: 0")
    (failure,) = result.failures
    assert ":11:7: setup: no deck 'standrad'; did you mean standard? (deck.yaml has: full, standard, small)" in failure
