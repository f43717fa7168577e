"""Counters and events the rules declare (`counters:`, `events:` in rules.yaml or a pack's `rules:`; issue 26
items 2 and 3): built with a made-up fork (tests/fixtures/declared_pack), every mistake reported at its line
with a hint, a triggered skill on a declared event reading its fields, and `describe` wording them."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import Seat
from interpreter.content.loader import ContentErrors, load_content, validate_paths
from interpreter.content.packs import resolve_packs
from interpreter.engine.game import Game
from interpreter.engine.observation import history, observe
from interpreter.engine.table import build
from interpreter.language.builtins import BUILTINS
from interpreter.language.describe_content import describe_declared, describe_role
from interpreter.language.runtime import Ctx
from interpreter.model.declared import NOTHING_DECLARED
from interpreter.sim import random_agents

PACK = Path(__file__).parent / "fixtures" / "declared_pack"
RED_ID, BLUE_ID = "qian_fu_zhan_xian", "te_gong_ji_guan"


@pytest.fixture(scope="module")
def content():
    return load_content(resolve_packs([PACK], ["none"]))


def fork(tmp: Path, rules: str, role: str = "") -> Path:
    """A pack over the base game with these `rules:` (indented under it) and, if given, one role file."""
    pack = tmp / "fork"
    (pack / "roles").mkdir(parents=True)
    text = "id: fork\nname: 分支\nextends: [base]\nrules:\n" + textwrap.indent(textwrap.dedent(rules), "  ")
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    if role:
        (pack / "roles" / "demo_x.yaml").write_text(textwrap.dedent(role), encoding="utf-8")
    return pack


def errors(pack: Path) -> list:
    with pytest.raises(ContentErrors) as e:
        load_content(resolve_packs([pack], ["none"]))
    return e.value.errors


def one(errs: list, code: str):
    found = [e for e in errs if e.code == code]
    assert len(found) == 1, [str(e) for e in errs]
    return found[0]


ROLE = """\
id: demo_x
name: 测试
title: 测试用
gender: male
hidden: false
skills:
  - id: s
    name: 技
    text: 测试。
    kind: triggered
    trigger: {trigger}
    condition: {condition}
    effect: draw(self, 1)
"""

EVENT = """\
events:
  测试判定:
    fields: {who: player, card: card}
    replaceable: [card]
"""


def test_the_base_game_declares_nothing():
    assert load_content(resolve_packs((), ["none"])).declared == NOTHING_DECLARED


def test_a_fork_declares_counters_with_ranges_starts_and_visibility(content):
    shield, secret = content.declared.counters["护盾"], content.declared.counters["暗记"]
    assert (shield.minimum, shield.maximum, shield.initial, shield.visibility) == (0, 5, 0, "public")
    assert shield.initial_for("demo_shield") == 2 and shield.initial_for("other") == 0
    assert shield.clamp(9) == 5 and shield.clamp(-1) == 0
    assert secret.visibility == "owner" and secret.maximum == 3


def test_a_fork_declares_an_event_and_a_skill_reacts_to_it(content):
    e = content.declared.events["测试判定"]
    assert e.fields == (("who", "player"), ("card", "card"), ("reason", "text"))
    assert e.subject == "who" and e.replaceable == ("card",)
    skill = content.roles["demo_shield"].skills[0]
    assert skill.on == ("测试判定",) and skill.condition is not None  # `card` and `who` compiled as its fields


def test_describe_words_the_declarations_and_the_moment(content):
    text = describe_declared(content.declared)
    assert "计数【护盾】：每名角色一个，至少零，至多五，初始为零（demo_shield为二），所有角色可见。" in text
    assert "计数【暗记】" in text and "仅其自己可见" in text
    assert "事件【测试判定】" in text and "生效前可以改换其card" in text
    role = describe_role(content.roles["demo_shield"], content.declared)
    assert role.startswith("【观判】一名角色的测试判定牌生效前，若该牌含有红色")


@pytest.mark.parametrize(
    ("rules", "code", "line", "words", "hint"),
    [
        ("counters:\n  护甲: {max: 5, initial: 7}\n", "E113", 6, "护甲' starts at 7, outside its range 0..5", None),
        ("counters:\n  护甲: {min: 2, max: 1}\n", "E113", 6, "max 1 is below min 2", None),
        ("counters:\n  护甲: {visibility: owner_only}\n", "E113", 6, "unknown visibility 'owner_only'", "owner"),
        ("events:\n  判定:\n    fields: {who: palyer}\n", "E113", 7, "unknown field type 'palyer'", "player"),
        ("events:\n  judge:\n    fields: {who: player}\n", "E113", 6, "judge", None),
        ("events:\n  判定:\n    fields: {self: player}\n", "E113", 7, "field 'self' is a name of the language", None),
        (
            "events:\n  判定:\n    fields: {who: player, n: int}\n    subject: wh\n",
            "E113",
            8,
            "subject 'wh' is not a player field",
            "who",
        ),
        (
            "events:\n  判定:\n    fields: {who: player, card: card}\n    replaceable: [crad]\n",
            "E113",
            8,
            "replaceable 'crad' is not one of its fields",
            "card",
        ),
    ],
)
def test_a_wrong_declaration_is_reported_at_its_line(tmp_path, rules, code, line, words, hint):
    e = one(errors(fork(tmp_path, rules)), code)
    assert e.path.endswith("pack.yaml") and e.line == line and words in e.message, str(e)
    if hint:
        assert hint in (e.hint or ""), str(e)


def test_a_counter_naming_an_unknown_role_gets_the_closest(tmp_path):
    e = one(errors(fork(tmp_path, "counters:\n  护甲: {max: 5, roles: {demo_y: 2}}\n", ROLE_OK)), "E121")
    assert e.line == 6 and "names role 'demo_y'" in e.message and "demo_x" in (e.hint or "")


ROLE_OK = ROLE.format(trigger="turn_start", condition="subject == self")


def test_a_misspelt_declared_event_gets_the_closest_name(tmp_path):
    role = ROLE.format(trigger="测试判丁", condition="who != self")
    e = one(errors(fork(tmp_path, EVENT, role)), "E113")
    assert e.path.endswith("demo_x.yaml") and (e.line, e.col) == (11, 14)
    assert "unknown trigger '测试判丁'" in e.message and "测试判定" in (e.hint or "")


def test_a_misspelt_built_in_event_still_gets_its_suggestion(tmp_path):
    e = one(errors(fork(tmp_path, EVENT, ROLE.format(trigger="turn_strt", condition="subject == self"))), "E113")
    assert "unknown trigger 'turn_strt'" in e.message and "turn_start" in (e.hint or "")


def test_a_field_is_read_only_where_its_event_triggers(tmp_path):
    role = ROLE.format(trigger="turn_start", condition="card has red")
    e = one(errors(fork(tmp_path, EVENT, role)), "E301")
    assert "unknown name `card`" in e.message


def test_events_sharing_a_field_must_give_it_one_type(tmp_path):
    rules = EVENT + "  拼点:\n    fields: {who: player, card: int}\n"
    role = ROLE.format(trigger="[测试判定, 拼点]", condition="subject == self")
    e = one(errors(fork(tmp_path, rules, role)), "E113")
    assert "field 'card' is int in event '拼点' but card in '测试判定'" in e.message


def test_a_role_file_checked_alone_does_not_know_its_packs_events():
    role = PACK / "roles" / "demo_shield.yaml"
    assert [e for e in validate_paths([role]) if e.level == "error"] == []


# ---------------------------------------------------------------------- counters in play


def _table(content):
    """Two players, seat 0 with the made-up demo_shield, the counters started as a game starts them."""
    agents = [Seat(()), Seat(())]
    g = build(
        content,
        [dict(identity=RED_ID, hand=[19, 20]), dict(identity=BLUE_ID, hand=[27])],
        agents,
        deck_top=[31, 32, 33, 34, 35, 36, 37, 38, 39, 40],
    )
    g.players[0].new_role(content.roles["demo_shield"], True)
    g.skills.index_triggers()
    g.seats.start_counters(content.declared.counters.values())
    return g


def test_a_game_starts_each_counter_at_its_players_initial_value(content):
    for seed in range(4):
        g = Game(content, 4, seed, random_agents(seed, 4))
        g.setup()
        for p in g.players:
            want = 2 if p.role is not None and p.role.id == "demo_shield" else 0
            assert BUILTINS["counter"].impl(Ctx(g, p), p, "护盾") == want
    g = _table(content)
    assert [g.seats.counter(p, content.declared.counters["护盾"]) for p in g.players] == [2, 0]


def test_a_counter_keeps_to_its_range(content):
    g = _table(content)
    p0, B = g.players[0], BUILTINS
    ctx = Ctx(g, p0)
    assert B["add_counter"].impl(ctx, p0, "护盾", 9) is True and B["counter"].impl(ctx, p0, "护盾") == 5  # cut to 5
    assert B["add_counter"].impl(ctx, p0, "护盾", 1) is False  # full: nothing changes
    assert B["remove_counter"].impl(ctx, p0, "护盾", 7) is True and B["counter"].impl(ctx, p0, "护盾") == 0
    assert B["remove_counter"].impl(ctx, p0, "护盾", 1) is False
    assert B["set_counter"].impl(ctx, p0, "护盾", 3) is True and g.seats.mark(p0, "护盾") == 3  # the mark it is kept as


def test_a_change_is_an_event_a_skill_reacts_to(content):
    g = _table(content)
    p0 = g.players[0]
    ctx = Ctx(g, p0)
    BUILTINS["remove_counter"].impl(ctx, p0, "护盾", 1)  # 2 -> 1: 补甲 waits for zero
    before = len(p0.hand)
    g.settle()
    assert len(p0.hand) == before
    BUILTINS["remove_counter"].impl(ctx, p0, "护盾", 1)  # 1 -> 0
    g.settle()
    assert len(p0.hand) == before + 1
    changes = [(r["before"], r["after"]) for r in history(g, 1) if r["e"] == "counter_changed"]
    assert changes == [(2, 1), (1, 0)]


def test_an_owner_only_counter_is_in_no_other_seats_view(content):
    g = _table(content)
    p0, p1 = g.players
    BUILTINS["add_counter"].impl(Ctx(g, p0), p0, "暗记", 2)
    BUILTINS["add_counter"].impl(Ctx(g, p1), p1, "护盾", 1)
    assert observe(g, 0)["players"][0]["marks"] == {"护盾": 2, "暗记": 2}
    assert observe(g, 1)["players"][0]["marks"] == {"护盾": 2}  # seat 1 sees the public counter only
    assert observe(g, 1)["players"][1]["marks"] == {"护盾": 1, "暗记": 0}
    assert "暗记" not in str([r for r in history(g, 1) if r.get("seat") == 0])
    assert [r["after"] for r in history(g, 0) if r["e"] == "counter_changed" and r["counter"] == "暗记"] == [2]


def test_an_unknown_counter_gets_the_closest_declared_one(tmp_path):
    role = ROLE.format(trigger="turn_start", condition="subject == self").replace(
        "effect: draw(self, 1)", 'effect: add_counter(self, "护田", 1)'
    )
    e = one(errors(fork(tmp_path, "counters:\n  护甲: {max: 5}\n", role)), "E310")
    assert e.line == 13 and 'unknown counter "护田"' in e.message and "护甲" in (e.hint or "")


def test_a_counter_declared_with_a_mistake_is_not_said_to_be_undeclared(tmp_path):
    """`initial: "1"` leaves the counter out of the rules (its declaration is wrong): the code naming it was told
    to declare it (or given another declared counter's name), though it is declared two lines up. Now the code
    is sent to the declaration."""
    role = ROLE_OK.replace("effect: draw(self, 1)", 'effect: add_counter(self, "护甲", 1)')
    errs = errors(fork(tmp_path, 'counters:\n  护甲: {max: 2, initial: "1"}\n  护盾: {max: 1}\n', role))
    assert one(errs, "E113").line == 6
    e = one(errs, "E310")
    assert e.line == 13 and e.hint == (
        f"it is declared at {tmp_path / 'fork' / 'pack.yaml'}:6, with a mistake reported there: fix that, and this "
        "name counts"
    ), str(e)


def test_a_number_in_quotes_is_told_to_lose_them(tmp_path):
    """`initial: "1"` is a text to YAML: E113 said "should be integer" with what the key is for, not how to write
    it."""
    bad = one(errors(fork(tmp_path, 'counters:\n  护甲: {max: 2, initial: "1"}\n')), "E113")
    assert bad.line == 6 and bad.hint == (
        "a number is written without quotes: 1; each player's value when the game starts (the minimum if left out)"
    ), str(bad)


def test_describe_words_the_fields_of_a_counter_change(content):
    text = describe_role(content.roles["demo_shield"], content.declared)
    assert "【补甲】你的计数变化后，若该计数等于“护盾”且其新值小于其原值且其新值等于零，你摸一张牌。" in text
