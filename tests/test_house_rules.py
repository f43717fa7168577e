"""House rules as data (docs/modding.md, "House rules"): the rules' switches (hand_limit, first_turn, send_arrows,
lockable) and the phase kinds' settings (`{kind: draw, count: 2}`, `{kind: contest, rounds: 2}`), each read by the
engine where the rule applies, and each mistake reported at its line.

The base game leaves every switch at its default (tests/test_examples.py and the simulate log check that it plays
the same games); here a made-up fork turns each on and games show the rule being kept.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from conftest import fengsheng
from interpreter.content.loader import ContentErrors, load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine import zones as zones_module
from interpreter.engine.game import Game
from interpreter.sim import random_agents

# These tests watch the engine by replacing a component's method on the instance (a phase begun, a card drawn):
# a class compiled by mypyc (FENGSHENG_MYPYC=1, README "A compiled engine") takes no such assignment. The pure
# build runs them; the compiled build plays the same games (.ci/compiled), and examples/house_rules' scenarios
# check the same rules through the game alone in both builds.
_COMPILED_ENGINE = not zones_module.__file__.endswith(".py")
watches_methods = pytest.mark.skipif(_COMPILED_ENGINE, reason="replaces a method on a compiled component's instance")


def fork(tmp: Path, rules: str) -> Path:
    pack = tmp / "fork"
    pack.mkdir(exist_ok=True)
    body = textwrap.indent(textwrap.dedent(rules), "  ")
    (pack / "pack.yaml").write_text(f"id: fork\nname: 分支\nextends: [base]\nrules:\n{body}", encoding="utf-8")
    return pack


def load(pack: Path):
    return load_content(resolve_packs([pack], ["none"]))


def errors(pack: Path) -> list:
    with pytest.raises(ContentErrors) as e:
        load(pack)
    return e.value.errors


def games(content, n: int = 4, players: int = 5):
    for seed in range(n):
        g = Game(content, players, seed, random_agents(seed, players), record=True)
        yield g


def test_the_base_game_leaves_every_switch_at_its_default():
    r = load_content(resolve_packs((), ["none"])).rules
    assert (r.hand_limit, r.first_turn_skip, r.send_arrows, r.lockable) == (
        None,
        (),
        ("up", "left", "right"),
        "printed",
    )
    assert all(ph.settings == () for ph in r.phases)
    assert [ph.setting("count") for ph in r.phases if ph.kind == "draw"] == [None]  # the rules' draw_count
    assert [ph.setting("rounds") for ph in r.phases if ph.kind == "contest"] == [1]


@watches_methods
def test_a_hand_limit_makes_the_current_player_discard_down_at_his_turn_end(tmp_path):
    content = load(fork(tmp_path, "hand_limit: 1\nstart_hand: 5\n"))
    checked = discarded = 0
    for g in games(content):
        flow, enter = g.flow, g.flow.enter_phase

        def watch(phase, g=g, enter=enter):
            nonlocal checked
            if phase == "turn_end" and g.current.alive:
                assert len(g.current.hand) <= 1, (g.turn_no, g.current.seat, len(g.current.hand))
                checked += 1
            enter(phase)

        flow.enter_phase = watch
        g.run()
        discarded += sum(1 for r in g.log if r.get("e") == "discard")
    assert checked > 20 and discarded > 20


def test_the_first_turn_skips_the_phases_first_turn_names(tmp_path):
    content = load(fork(tmp_path, "first_turn: {skip: [draw]}\n"))
    for g in games(content, 3):
        g.trace = []
        g.run()
        phases = " ".join(t[1] for t in g.trace if t[0] == "phase").split("turn_end")
        assert phases[0].split()[:1] == ["play"]  # the first turn: no draw phase
        assert phases[1].split()[:1] == ["draw"]  # the next ones draw


def test_send_arrows_keeps_a_card_with_another_arrow_from_being_sent(tmp_path):
    content = load(fork(tmp_path, "send_arrows: [up, right]\n"))
    assert content.rules.send_arrows == ("up", "right")
    sent = 0
    for g in games(content, 6):
        g.run()
        for r in g.log:
            if r.get("e") == "intel_sent":
                assert r["direction"] != "left", r
                sent += 1
    assert sent > 30


def test_lockable_all_makes_every_copy_lockable_and_none_none(tmp_path):
    everyone = load(fork(tmp_path, "lockable: all\n"))
    assert all(e.lockable for e in everyone.deck)
    pack = fork(tmp_path, "lockable: none\n")
    assert not any(e.lockable for e in load(pack).deck)
    locked = 0
    for g in games(load(pack), 4):
        g.run()
        locked += sum(1 for r in g.log if r.get("e") == "intel_sent" and r["lock"] is not None)
    assert locked == 0


def test_card_targets_others_never_offers_a_card_its_user(tmp_path):
    content = load(fork(tmp_path, "card_targets: others\n"))
    base = load_content(resolve_packs((), ["none"]))
    assert base.rules.card_targets == "any"
    on_self = {"any": 0, "others": 0}
    used = 0
    for name, c in (("any", base), ("others", content)):
        for g in games(c, 6):
            g.run()
            for r in g.log:
                if r.get("e") == "card_used" and r.get("target") is not None:
                    used += name == "others"
                    on_self[name] += r["target"] == r["seat"]
    assert on_self["any"] > 0 and on_self["others"] == 0 and used > 20, (on_self, used)
    # the base game's card kinds are not touched by a fork's load
    assert load_content(resolve_packs((), ["none"])).card_types["cheng_qing"].uses[0].target is not None


@watches_methods
def test_a_draw_phase_draws_its_count(tmp_path):
    content = load(fork(tmp_path, "turn: [{kind: draw, count: 1}, play, send, contest, receive]\n"))
    assert content.rules.phases[0].setting("count") == 1
    counts: list[int] = []
    for g in games(content, 3):
        draw = g.zones.draw

        def watch(p, n, g=g, draw=draw):
            if g.phase == "draw":
                counts.append(n)
            return draw(p, n)

        g.zones.draw = watch
        g.run()
    assert len(counts) > 20 and max(set(counts), key=counts.count) == 1, counts


@watches_methods
def test_a_contest_of_two_rounds_asks_around_twice(tmp_path):
    two = load(fork(tmp_path, "turn: [draw, play, send, {kind: contest, rounds: 2}, receive]\n"))
    base = load_content(resolve_packs((), ["none"]))
    rounds = {}
    for name, content in (("one", base), ("two", two)):
        entered = asked = 0
        for g in games(content, 3):
            flow, contest, enter = g.flow, g.flow.contest_phase, g.flow.enter_phase

            def count_round(contest=contest):
                nonlocal asked
                asked += 1
                contest()

            def count_phase(phase, enter=enter):
                nonlocal entered
                entered += phase == "contest"
                enter(phase)

            flow.contest_phase, flow.enter_phase = count_round, count_phase
            g.run()
        rounds[name] = asked / entered
    assert rounds["one"] == 1 and 1.8 < rounds["two"] <= 2, rounds


def test_a_setting_its_kind_does_not_take_is_pointed_at(tmp_path):
    errs = errors(fork(tmp_path, "turn: [{kind: draw, rounds: 2}, play, send, contest, receive]\n"))
    assert [(e.code, e.line) for e in errs] == [("E111", 5)], errs
    assert "takes no setting 'rounds'" in errs[0].message and "count" in (errs[0].hint or "")


def test_a_setting_out_of_range_and_an_unknown_key_are_pointed_at(tmp_path):
    errs = errors(fork(tmp_path, "turn: [draw, play, send, {kind: contest, rounds: 9}, receive]\n"))
    assert [e.code for e in errs] == ["E113"] and errs[0].line == 5, errs
    errs = errors(fork(tmp_path, "turn: [draw, play, send, {kind: contest, round: 2}, receive]\n"))
    assert errs and errs[0].line == 5 and "rounds" in str(errs[0]), errs


def test_first_turn_naming_a_phase_the_turn_lacks_is_pointed_at(tmp_path):
    errs = errors(fork(tmp_path, "first_turn: {skip: [drow]}\n"))
    assert [(e.code, e.line) for e in errs] == [("E121", 5)], errs
    assert "draw" in (errs[0].hint or "")


def test_a_second_contest_after_one_send_points_at_rounds(tmp_path):
    errs = errors(fork(tmp_path, "turn: [draw, send, contest, contest, receive]\n"))
    assert [e.code for e in errs] == ["E125"] and "rounds: 2" in (errs[0].hint or "")


def test_two_phases_of_one_id_are_refused(tmp_path):
    errs = errors(fork(tmp_path, "turn: [draw, {kind: play, id: draw}, send, receive]\n"))
    assert [e.code for e in errs] == ["E120"], errs


def test_the_schema_of_a_turn_item_names_the_catalogues_kinds_and_settings():
    from interpreter import catalogue as C
    from interpreter.content.schema_stage import schema

    name, obj = schema("rules")["properties"]["turn"]["items"]["oneOf"]
    assert name["enum"] == obj["properties"]["kind"]["enum"] == list(C.PHASE_KINDS)
    settings = {s.name: s for k in C.PHASE_KINDS.values() for s in k.settings}
    assert set(obj["properties"]) == {"kind", "id", *settings}
    for key, s in settings.items():
        assert (obj["properties"][key]["minimum"], obj["properties"][key]["maximum"]) == (s.minimum, s.maximum)


# ---------------------------------------------------------------------- a pack's edits of the turn


def manifest(tmp: Path, body: str) -> Path:
    pack = tmp / "fork"
    pack.mkdir(exist_ok=True)
    (pack / "pack.yaml").write_text("id: fork\nname: 分支\nextends: [base]\n" + textwrap.dedent(body), encoding="utf-8")
    return pack


def test_a_pack_edits_one_phase_of_the_turn_by_its_id(tmp_path):
    content = load(
        manifest(
            tmp_path,
            """\
            rules:
              turn:
                set: {contest: {rounds: 2}}
                replace: {draw: {kind: draw, count: 2}}
                remove: [play]
                insert:
                  - {after: receive, phase: {kind: play, id: late_play}}
                  - {before: draw, phase: discard}
            """,
        )
    )
    phases = content.rules.phases
    assert [ph.id for ph in phases] == ["discard", "draw", "send", "contest", "receive", "late_play"]
    assert phases[1].setting("count") == 2 and phases[3].setting("rounds") == 2
    assert "fork: rules turn play removed" in content.changes
    for g in games(content, 2):
        g.run()


def test_each_edit_naming_a_phase_the_turn_lacks_is_pointed_at_in_the_pack(tmp_path):
    errs = errors(
        manifest(
            tmp_path,
            """\
            rules:
              turn:
                set: {contst: {rounds: 2}}
                remove: [ply]
                insert:
                  - {after: receiv, phase: play}
                  - {phase: discard}
            """,
        )
    )
    got = [(e.code, e.line, e.path.endswith("pack.yaml")) for e in errs]
    assert got == [("E121", 6, True), ("E121", 7, True), ("E121", 9, True), ("E113", 10, True)], errs
    assert [e.hint for e in errs[:3]] == ["did you mean contest?", "did you mean play?", "did you mean receive?"]


def test_an_edit_that_breaks_the_turns_order_is_e125_at_the_pack_line(tmp_path):
    errs = errors(manifest(tmp_path, "rules:\n  turn:\n    insert: [{after: receive, phase: contest}]\n"))
    assert [(e.code, e.line, e.path.endswith("pack.yaml")) for e in errs] == [("E125", 6, True)], errs


def test_a_list_still_replaces_the_turn_whole(tmp_path):
    content = load(manifest(tmp_path, "rules:\n  turn: [send, receive]\n"))
    assert [ph.id for ph in content.rules.phases] == ["send", "receive"]


# ---------------------------------------------------------------------- deck transforms and pack diff


TRANSFORMS = """\
deck:
  transform:
    - {set: {lockable: true}}
    - {where: {direction: left}, set: {direction: right}}
    - {where: {card: shi_tan, color: red}, set: {colors: [black]}}
"""


def test_a_deck_transform_sets_fields_of_every_copy_it_selects(tmp_path):
    base = load_content(resolve_packs((), ["none"]))
    content = load(manifest(tmp_path, TRANSFORMS))
    assert len(content.deck) == len(base.deck) == 118
    assert all(e.lockable for e in content.deck) and not any(e.direction == "left" for e in content.deck)
    before = {e.uid: e for e in base.deck}
    for e in content.deck:
        b = before[e.uid]
        assert e.card_type == b.card_type
        assert e.direction == ("right" if b.direction == "left" else b.direction)
        red_test = b.card_type == "shi_tan" and b.mask & 1
        assert e.mask == (4 if red_test else b.mask)
    assert any("deck transform: lockable true" in c for c in content.changes)


def test_pack_diff_reports_a_transform_per_copy_in_one_record(tmp_path):
    pack = manifest(tmp_path, TRANSFORMS)
    base = load_content(resolve_packs((), ["none"]))
    unlocked = sum(1 for e in base.deck if not e.lockable)
    left = sum(1 for e in base.deck if e.direction == "left")
    r = fengsheng("pack", "diff", "base", pack)
    assert r.exit_code == 1, r.output
    lines = [ln.strip() for ln in r.output.splitlines()[1:]]
    assert f"{unlocked} copies: lockable false → true" in lines
    assert f"{left} copies: direction left → right" in lines
    data = json.loads(fengsheng("pack", "diff", "base", pack, "--format", "json").output)
    rec = [c for c in data["changes"] if c["kind"] == "copies" and c["field"] == "lockable"]
    assert len(rec) == 1 and (rec[0]["old"], rec[0]["new"], len(rec[0]["object"])) == (False, True, unlocked)
    assert sorted(rec[0]["object"]) == sorted(e.uid for e in base.deck if not e.lockable)


def test_a_transform_naming_an_unknown_card_kind_or_field_is_pointed_at(tmp_path):
    errs = errors(manifest(tmp_path, "deck:\n  transform:\n    - {where: {card: shi_tam}, set: {lockable: true}}\n"))
    assert [(e.code, e.line) for e in errs] == [("E121", 6)] and errs[0].hint == "did you mean shi_tan?", errs
    errs = errors(manifest(tmp_path, "deck:\n  transform:\n    - {where: {colour: red}, set: {lockable: true}}\n"))
    assert [(e.code, e.line) for e in errs] == [("E111", 6)] and "color" in (errs[0].hint or ""), errs
    errs = errors(manifest(tmp_path, "deck:\n  transform:\n    - {set: {direction: down}}\n"))
    assert [(e.code, e.line) for e in errs] == [("E113", 6)] and "up" in (errs[0].hint or ""), errs


def test_describe_words_the_turns_settings_and_switches():
    pack = Path(__file__).parents[1] / "examples" / "house_rules"
    out = fengsheng("describe", "回合流程", "--content", pack).output
    assert "{kind: contest, rounds: 2}" in out and "争夺两轮" in out
    assert "摸三张牌；游戏的第一个回合跳过此阶段" in out and "当前角色将手牌弃至四张" in out
    base = fengsheng("describe", "回合流程").output
    assert "争夺两轮" not in base and "手牌弃至" not in base and "跳过" not in base
