"""Rule skills (docs/modding.md, "Rule skills"): the rules' `skills:`, which every seat holds for the whole game
whatever its role. With a made-up fork: the triggered one fires for every seat, the active one is offered to every
seat with its limit counted per seat, a seat whose role is face down uses one in everyone's sight (the skill named,
nothing of its role), a sample (the step API's re-deal) keeps them with the seats, packs add, replace and remove
them by id, and each mistake is reported at its line of the pack.yaml that wrote it.
"""

from __future__ import annotations

import functools
import json
import random
import re
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from conftest import S, fengsheng, make
from interpreter.agents.hints import hints_of
from interpreter.content.fingerprint import content_fingerprint
from interpreter.content.loader import ContentErrors, load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.game import Game
from interpreter.engine.observation import observe
from interpreter.engine.step import _redeal
from interpreter.sim import random_agents

# every seat draws at the start of its own turn; any seat may, once a turn, discard two hand cards to draw one
SKILLS = """\
rules:
  skills:
    - id: jia_gui_mo_pai
      name: 家规摸牌
      text: 你的回合开始时，摸一张牌。
      kind: triggered
      trigger: turn_start
      optional: false
      condition: subject == self
      effect: draw(self, 1)
    - id: jia_gui_huan_pai
      name: 家规换牌
      text: 每回合限一次，你可以弃置两张手牌，然后摸一张牌。
      kind: active
      timing: [play_phase, contest]
      limit: {per: turn}
      condition: hand_count(self) >= 2
      effect: |
        discard(choose_many(from: hand(self), min: 2, max: 2, prompt: "弃置两张手牌"))
        draw(self, 1)
      bot: gain
"""


def pack(tmp: Path, body: str = SKILLS, name: str = "fork", extends: str = "base") -> Path:
    folder = tmp / name
    folder.mkdir(exist_ok=True)
    (folder / "pack.yaml").write_text(f"id: {name}\nname: 分支\nextends: [{extends}]\n{body}", encoding="utf-8")
    return folder


def load(folder: Path):
    return load_content(resolve_packs([folder], ["none"]))


def errors(folder: Path) -> list:
    with pytest.raises(ContentErrors) as e:
        load(folder)
    return e.value.errors


@pytest.fixture(scope="module")
def content(tmp_path_factory):
    return load(pack(tmp_path_factory.mktemp("rule_skills")))


def _rule(content, sid: str):
    return next(s for s in content.rules.skills if s.id == sid)


def _skill_ids(options) -> list[str]:
    return [o.use.id for o in options if o.card is None]


# ---------------------------------------------------------------------- in play


def test_the_triggered_rule_skill_fires_for_every_seat(content):
    """In random games every seat that starts a turn draws by the rule skill, whatever role it was dealt."""
    seats: set[int] = set()
    for seed in range(2):
        g = Game(content, 5, seed, random_agents(seed, 5), record=True, max_turns=8)
        g.run()
        starts = [r["seat"] for r in g.log if r.get("e") == "turn_start"]
        fired = [r["seat"] for r in g.log if r.get("e") == "skill_used" and r.get("skill") == "jia_gui_mo_pai"]
        assert fired == starts  # (a dead seat starts no turn)
        seats |= set(fired)
        assert g.skill_uses[("", "家规摸牌")] == len(fired)  # counted as the rules' (simulate: 规则·家规摸牌)
        # and by seat (the balance report's users of a rule skill, as a card's)
        assert {s: k for (s, name), k in g.rule_skill_uses.items() if name == "家规摸牌"} == Counter(fired)
    assert seats == set(range(5))


def test_the_active_rule_skill_is_offered_to_every_seat_and_its_limit_is_counted_per_seat(content):
    g = make(content, [S("red", hand=[1]), S("blue", hand=[2, 3, 4, 5]), S("blue", hand=[6, 7, 8, 9])])
    huan_pai = _rule(content, "jia_gui_huan_pai")
    offered = {p.seat: _skill_ids(g.card_use.card_options(p, "contest")) for p in g.players}
    assert offered == {0: [], 1: ["jia_gui_huan_pai"], 2: ["jia_gui_huan_pai"]}  # P0 holds one card: its condition
    g.skills.pay_skill(g.players[2], huan_pai)  # P2 uses it
    assert _skill_ids(g.card_use.card_options(g.players[2], "contest")) == []  # once a turn ...
    assert _skill_ids(g.card_use.card_options(g.players[1], "contest")) == ["jia_gui_huan_pai"]  # ... each seat
    assert _skill_ids(g.card_use.card_options(g.players[1], "play_phase")) == ["jia_gui_huan_pai"]
    assert _skill_ids(g.card_use.card_options(g.players[1], "send_idle")) == []  # not at its other idle points


def test_a_face_down_roles_seat_uses_a_rule_skill_in_everyones_sight(content):
    """The rules are public: the use names the skill to every seat, and it does not turn the role face up."""
    g = make(content, [S("red", hand=[1, 2]), S("blue"), S("blue")], {0: ["#1", "#2"]})
    p0 = g.players[0]
    p0.new_role(content.roles["a_fu_luo_la"], False)  # a hidden role, face down
    g.skills.index_triggers()
    huan_pai = _rule(content, "jia_gui_huan_pai")
    assert g.skills.skill_blocker(p0, huan_pai) is None  # (a role's own skill would be "role is face down")
    g.skills.use_skill(p0, huan_pai)
    (rec,) = [r for r in g.log if r.get("e") == "skill_used"]
    assert "to" not in rec and "secret" not in rec
    for seat in range(3):
        seen = [dict(r) for r in observe(g, seat)["history"] if r.get("e") == "skill_used"]
        assert seen == [{"e": "skill_used", "seat": 0, "skill": "jia_gui_huan_pai"}]
    assert p0.role_face_up is False
    text = json.dumps(observe(g, 1), ensure_ascii=False, default=str)
    assert "a_fu_luo_la" not in text  # nothing of the role it is


@pytest.mark.parametrize("seed", range(4))
def test_a_sample_keeps_the_rule_skills_with_the_seats(content, seed):
    """A re-deal for another seat deals the face-down roles again; the rule skills stay every seat's: their triggers
    indexed for each seat, their uses counted against their limit, their records kept."""
    g = make(content, [S("red", hand=[1, 2]), S("blue", hand=[4, 5, 6]), S("blue")], {0: ["#1", "#2"]})
    g.players[0].new_role(content.roles["a_fu_luo_la"], False)
    g.players[1].new_role(content.roles["bai_kun_shan"], False)
    g.skills.set_role_pile([content.roles["gu_xiao_meng"]])
    g.skills.index_triggers()
    huan_pai = _rule(content, "jia_gui_huan_pai")
    g.skills.use_skill(g.players[0], huan_pai)
    assert g.rule_skill_uses == {(0, "家规换牌"): 1}
    _redeal(g, 2, random.Random(seed))
    assert g.rule_skill_uses == {}  # statistics of the truth's play: a sample counts its own from its deal
    mo_pai = _rule(content, "jia_gui_mo_pai")
    assert all(mo_pai in g.skills.triggers_by_seat[p.seat] for p in g.players)
    assert "jia_gui_huan_pai" not in _skill_ids(g.card_use.card_options(g.players[0], "contest"))  # still counted
    assert "jia_gui_huan_pai" in _skill_ids(g.card_use.card_options(g.players[1], "contest"))
    assert [r.get("skill") for r in g.log if r.get("e") == "skill_used"] == ["jia_gui_huan_pai"]


def test_a_replaced_role_keeps_the_rule_skills_states(tmp_path):
    """A rule skill lost (lose_skill) stays lost when the seat's role is replaced: its state is the seat's."""
    c = load(pack(tmp_path))
    g = make(c, [S("red", hand=[1, 2]), S("blue"), S("blue")])
    p0 = g.players[0]
    p0.new_role(c.roles["lao_bie"], True)
    g.skills.set_role_pile([c.roles["xiao_jiu"]])
    g.skills.index_triggers()
    assert g.skills.change_skill(p0, "家规换牌", False)
    (rec,) = [r for r in g.log if r.get("e") == "skill_changed"]
    assert "to" not in rec  # (public, as the rule skill is)
    assert g.skills.replace_role(p0, 1) and p0.role.id == "xiao_jiu"
    assert "jia_gui_huan_pai" in p0.lost_skills
    assert "jia_gui_huan_pai" not in _skill_ids(g.card_use.card_options(p0, "contest"))


def test_a_face_down_seats_lost_rule_skill_shows_in_every_row_and_its_roles_skills_do_not(content):
    """The loss of a rule skill is told to everyone (skill_changed, public), so the players' rows say it for a seat
    whose role is face down too (they said nothing: a row's skills were shown only with its role); a skill of that
    role, lost, stays its owner's to see."""
    g = make(content, [S("red"), S("blue"), S("blue")])
    p0 = g.players[0]
    p0.new_role(content.roles["a_fu_luo_la"], False)
    g.skills.index_triggers()
    assert g.skills.change_skill(p0, "家规换牌", False)
    role_skill = p0.role.skills[0].id
    p0.lost_skills.add(role_skill)  # (one of its role's, as lose_skill would: told to its owner alone)
    for seat in (1, 2):
        assert dict(observe(g, seat)["players"][0]["skills"]) == {"jia_gui_huan_pai": "lost"}
    assert dict(observe(g, 0)["players"][0]["skills"]) == {"jia_gui_huan_pai": "lost", role_skill: "lost"}


def test_the_heuristic_bot_plays_a_rule_skill_by_its_hint(content):
    assert hints_of(content).skills["jia_gui_huan_pai"] == "gain"
    r = fengsheng(
        "simulate", "-n", 3, "-p", 5, "-j", 1, "-s", 2, "--agents", "heuristic", "--content", _folder(content)
    )
    assert r.exit_code == 0, r.output
    uses = {ln.split()[0]: int(ln.split()[-1]) for ln in r.output.splitlines() if ln.strip().startswith("规则·")}
    # `bot: gain`: taken whenever offered, once a turn (without the hint: now and then, 3 uses in these games)
    assert uses["规则·家规换牌"] >= 15 and uses["规则·家规摸牌"] >= 15, uses


def _folder(content) -> str:
    return content.packs[-1].folder


def test_a_person_at_the_table_is_told_the_rule_skills_and_offered_one_by_its_name(content):
    """`play`: the seat's panel names the rules' skills from the first screen (no role card prints them), `h` gives
    their texts, and the active one is offered as 发动技能 ［家规换牌］. Before, a person met a house rule only when
    it was offered, and `h` there gave its text nowhere (the rules ask at an idle point, not the skill)."""
    from click.testing import CliRunner

    from interpreter.cli import main

    args = ["play", "-p", "3", "-s", "4", "--max-turns", "6", "--expansions", "none", "--content", _folder(content)]
    r = CliRunner().invoke(main, args, input="h\n1\n" * 400)
    assert "Traceback" not in r.output and r.exit_code == 0, r.output[-2000:]
    first = r.output[: r.output.index("选择角色")]
    assert "规则技能（每名角色都有）：［家规摸牌］、［家规换牌］" in first, first
    assert "发动技能 ［家规换牌］" in r.output
    assert "  ［家规换牌］每回合限一次，你可以弃置两张手牌，然后摸一张牌。" in r.output  # (h, at a decision)
    from interpreter.seat_text import Names
    from interpreter.web.view import seat_view

    g = make(content, [S("red"), S("blue"), S("blue")])  # the browser's panel says them too
    assert seat_view(observe(g, 1), (), Names(content))["me"]["rule_skills"] == (
        "规则技能（每名角色都有）：［家规摸牌］、［家规换牌］"
    )


def test_the_balance_report_knows_the_rule_skills_and_flags_one_never_used(tmp_path):
    """The report's skills of a fork are its roles' and, now, its rules' (规则·名, as the records count them): a rule
    skill never offered was not listed at all (the report knew only the roles' skills, and those seen used), the
    kind of one used was blank, and 规则 would have been a new role. Flagged, it says the games, not "the games its
    role was in play"."""
    never = "    - {id: jia_gui_wu, name: 家规无, kind: active, timing: play_phase, condition: hand_count(self) > 99, "
    never += "effect: 'draw(self, 1)'}\n"
    folder = pack(tmp_path, SKILLS + never)
    args = ["-p", 4, "-n", 20, "-j", 1, "-s", 1, "--agents", "random", "-o", tmp_path / "lab", "-q"]
    assert fengsheng("balance", "--pack", f"fork={folder}", *args).exit_code == 0
    r = fengsheng("balance", "report", tmp_path / "lab", "--format", "json", "--lang", "en")
    report = json.loads(r.stdout)
    rows = {sk["skill"]: sk for sk in report["groups"][0]["skills"] if sk["role"] == "规则"}
    assert {k: (v["kind"], v["games_in_play"], v["flag"]) for k, v in rows.items()} == {
        "家规摸牌": ("triggered", 20, None),
        "家规换牌": ("active", 20, None),
        "家规无": ("active", 20, "unused"),
    }, rows
    flag = next(f for f in report["flags"] if f["subject"] == "规则·家规无")
    assert flag["text"] == "used in 0 of the 20 games (active skill); never offered", flag
    assert "规则" not in str(report["new_roles"])
    text = fengsheng("balance", "report", tmp_path / "lab", "--lang", "en").output
    assert "规则·家规无" in text and "used in 0 of the 20 games (active skill); never offered" in text, text
    # the group's table of the rules' skills, as its cards have one (the roles' skills are told by the flags alone):
    # new ones marked, each with the win rate of the seats that used it against every seat's
    assert "Rule skills (every seat's): games offered, games used, uses per game; win rate of the seats" in text, text
    assert re.search(r"家规无 \(new\)\s+active\s+0/20\s+0/20\s+0\.00\s+0/0\s+—\s+\d+\.\d% *\n", text), text
    mo_pai = next(r for r in report["groups"][0]["rule_skills"] if r["name"] == "家规摸牌")
    assert re.search(rf"家规摸牌 \(new\)\s+triggered\s+20/20\s+20/20\s+[\d.]+\s+{mo_pai['won']}/{mo_pai['n']}\s", text)
    # counted per seat as the game played (each seat's uses add up to the game's), so a new rule skill has a verdict
    from interpreter.balance.records import read_records

    for rec in read_records(tmp_path / "lab"):
        assert all(s.rule_skills is not None for s in rec.seats)  # (kept even by a seat that used none)
        for name in rows:
            assert sum(s.rule_skills.get(name, 0) for s in rec.seats) == rec.skill_uses.get(f"规则·{name}", 0)
    assert report["new_items"]["fork"]["rule_skills"] == ["家规换牌", "家规摸牌", "家规无"]
    said = {v["name"]: v for v in report["verdicts"] if v["kind"] == "rule_skill"}
    assert 0 < mo_pai["n"] <= 80 and said["家规摸牌"]["row"] == mo_pai and said["家规无"]["status"] == "unseen"
    assert said["家规摸牌"]["text"].startswith(f"{mo_pai['uses_per_game']:.2f} uses per game; ")


def test_an_active_rule_skill_expected_to_fire_is_told_it_is_used_by_an_answer(tmp_path):
    """skills_fired lists triggered skills; an active one (家规换牌, used by `skill 家规换牌`) "did not fire (fired:
    none)" though it was used: the message now says why, and what to expect instead."""
    pack(tmp_path)
    scenario = tmp_path / "huan.scenario.yaml"
    scenario.write_text(
        textwrap.dedent("""\
            name: 换牌
            content: [fork]
            players:
              - {identity: qian_fu_zhan_xian, hand: [27, 28, 29]}
              - {identity: te_gong_ji_guan}
            deck_top: [30]
            current: 0
            start: play
            answers:
              0: [skill 家规换牌, "#28", "#29", pass, "#27", accept]
              1: [decline]
            expect:
              skills_fired: [家规换牌]
            """),
        encoding="utf-8",
    )
    out = fengsheng("scenario", "run", scenario).output
    assert (
        "skill 家规换牌 did not fire (fired: none): 家规换牌 is an active skill, used by an answer (skill 家规换牌), "
        "which skills_fired does not list; expect its use under events: {e: skill_used, skill: jia_gui_huan_pai}"
    ) in out, out


# ---------------------------------------------------------------------- describe, pack diff, fingerprint


def test_describe_and_pack_diff_show_the_rule_skills(content, tmp_path):
    out = fengsheng("describe", "家规换牌", "--content", _folder(content)).output
    assert (
        "规则技能 · 规则 · skills" in out
        and "【家规换牌】每回合限一次" in out
        and "【家规摸牌】你的回合开始时，摸一张牌" in out
    )
    catalogue = fengsheng("describe", "--all", "--format", "md", "--content", _folder(content)).output
    assert "### 规则技能 `skills`" in catalogue and "【家规换牌】每回合限一次" in catalogue
    r = fengsheng("pack", "diff", "base", _folder(content))
    assert "+ rule skill 家规换牌 (jia_gui_huan_pai, pack fork)" in r.output
    changed = pack(tmp_path, SKILLS.replace("effect: draw(self, 1)", "effect: draw(self, 2)"), "other")
    r = fengsheng("pack", "diff", _folder(content), changed)
    assert [ln.strip() for ln in r.output.splitlines()[1:]] == [
        "~ rule skill 家规摸牌 (jia_gui_mo_pai, pack other): code changed"
    ]
    # a limit, `optional` or a bot hint changed alone is a change too: they read as the same game, texts and code alike
    edits = {"limit: {per: turn}": "limit: {per: turn, times: 2}", "optional: false": "optional: true", "bot: gain": ""}
    changed = pack(tmp_path, functools.reduce(lambda body, e: body.replace(*e), edits.items(), SKILLS), "third")
    r = fengsheng("pack", "diff", _folder(content), changed)
    assert r.exit_code == 1 and [ln.strip() for ln in r.output.splitlines()[1:]] == [
        "~ rule skill 家规换牌 (jia_gui_huan_pai, pack third): code, bot hint changed",
        "~ rule skill 家规摸牌 (jia_gui_mo_pai, pack third): code changed",
    ]


def test_the_fingerprint_counts_the_rule_skills(content, tmp_path):
    changed = load(pack(tmp_path, SKILLS.replace("effect: draw(self, 1)", "effect: draw(self, 2)")))
    base = load_content(resolve_packs((), ["none"]))
    fingerprints = {content_fingerprint(c) for c in (content, changed, base)}
    assert len(fingerprints) == 3
    assert "skills" not in base.made_of.rules  # the base game has none: its fingerprint is as it was


# ---------------------------------------------------------------------- layering


LAYER = """\
rules:
  skills:
    remove: [jia_gui_mo_pai]
    replace:
      - id: jia_gui_huan_pai
        name: 家规换牌
        kind: active
        timing: play_phase
        limit: {per: turn, times: 2}
        effect: draw(self, 1)
    add:
      - id: jia_gui_bu_pai
        name: 家规补牌
        kind: triggered
        trigger: turn_end
        condition: subject == self and hand_count(self) == 0
        effect: draw(self, 1)
"""


def test_a_pack_over_a_pack_adds_replaces_and_removes_rule_skills_by_id(tmp_path):
    pack(tmp_path)
    top = pack(tmp_path, LAYER, "top", "../fork")
    c = load(top)
    assert [(s.id, s.limit_times) for s in c.rules.skills] == [("jia_gui_huan_pai", 2), ("jia_gui_bu_pai", 1)]
    assert c.changes[-3:] == [
        "top: rules skill jia_gui_mo_pai removed",
        "top: rules skill jia_gui_huan_pai replaced",
        "top: rules skill jia_gui_bu_pai added",
    ]
    assert c.origins["rule_skill", "jia_gui_bu_pai"].pack == "top"
    # the fork's list, where the base game has none, is added, not "replaced" (which read as something taken away)
    assert "fork: rules skills added" in c.changes and "fork: rules skills replaced" not in c.changes, c.changes
    whole = pack(tmp_path, "rules:\n  skills: []\n", "none_left", "../fork")  # a list replaces them whole
    assert load(whole).rules.skills == ()


def test_edits_naming_what_the_rules_do_not_have_are_pointed_at(tmp_path):
    pack(tmp_path)
    body = """\
rules:
  skills:
    remove: [jia_gui_mo_bai]
    replace:
      - {id: jia_gui_huan, name: 换, kind: active, timing: play_phase, effect: "draw(self, 1)"}
    add:
      - {id: jia_gui_huan_pai, name: 换, kind: active, timing: play_phase, effect: "draw(self, 1)"}
"""
    errs = errors(pack(tmp_path, body, "top", "../fork"))
    got = [(e.code, e.line, Path(e.path).parent.name) for e in errs]
    assert got == [("E121", 6, "top"), ("E121", 8, "top"), ("E120", 10, "top")], errs
    assert errs[0].hint == "did you mean jia_gui_mo_pai?" and errs[1].hint == "did you mean jia_gui_huan_pai?"
    assert "skills: replace:" in (errs[2].hint or "")


# ---------------------------------------------------------------------- checker


def _one(tmp_path, entry: str, name: str = "fork"):
    body = "rules:\n  skills:\n" + textwrap.indent(textwrap.dedent(entry), "    ")
    return errors(pack(tmp_path, body, name))


def test_a_bad_rule_skill_is_reported_at_its_line_and_column_of_the_pack_yaml(tmp_path):
    errs = _one(tmp_path, "- {id: a, name: 甲, kind: triggered, trigger: turn_stat, effect: 'draw(self, 1)'}\n")
    assert [(e.code, e.line, e.col) for e in errs] == [("E113", 6, 50)] and "turn_start" in (errs[0].hint or ""), errs
    errs = _one(tmp_path, "- id: a\n  name: 甲\n  kind: active\n  timing: play_phase\n  effect: draw(self, one)\n")
    assert [(e.code, e.line) for e in errs] == [("E301", 10)] and errs[0].path.endswith("pack.yaml"), errs
    errs = _one(tmp_path, "- {id: a, name: 甲, kind: active, effect: 'draw(self, 1)'}\n")
    assert [e.code for e in errs] == ["E112"] and "timing" in errs[0].message


def test_a_rule_skill_cannot_say_what_only_a_role_card_can(tmp_path):
    """flips_up, while_face_down and dormant are about a role card: E111 with why, at the key."""
    errs = _one(
        tmp_path, "- {id: a, name: 甲, kind: active, timing: play_phase, flips_up: true, effect: 'draw(self, 1)'}\n"
    )
    assert [(e.code, e.line) for e in errs] == [("E111", 6)], errs
    assert "no role card" in (errs[0].hint or "")


def test_two_rule_skills_or_a_rule_skill_and_a_roles_skill_with_one_id_are_e120(tmp_path):
    two = "- {id: a, name: 甲, kind: active, timing: play_phase, effect: 'draw(self, 1)'}\n" * 2
    errs = _one(tmp_path, two)
    assert [(e.code, e.line) for e in errs] == [("E120", 7)] and "the rules have two skills" in errs[0].message
    # a role's skill id: 老鳖's 联络 is lian_luo
    errs = _one(
        tmp_path, "- {id: lian_luo, name: 联络, kind: active, timing: play_phase, effect: 'draw(self, 1)'}\n", "b"
    )
    assert [(e.code, e.line, e.col) for e in errs] == [("E120", 6, 12)], errs
    # the prefix hinted is the pack's own id (it said jia_gui_… to every pack)
    assert "role 老鳖" in errs[0].message and (errs[0].hint or "").endswith("e.g. b_lian_luo)"), errs[0].hint


def test_a_rule_skills_code_names_rule_skills(tmp_path):
    """gain_skill / lose_skill / skill_yang in a rule skill's code name rule skills (E121 with the closest)."""
    entry = "- {id: a, name: 甲, kind: active, timing: play_phase, effect: 'lose_skill(self, \"乙\")'}\n"
    errs = _one(tmp_path, entry)
    assert [(e.code, e.line) for e in errs] == [("E121", 6)] and "the rules have no skill" in errs[0].message, errs


def test_code_names_a_rule_skill_from_a_role_and_a_roles_skill_from_a_rule_skill(tmp_path):
    """At run time a name is looked up among the seat's role's skills, then the rule skills (Skills.skill_named), so
    a role's code may name a rule skill (has_skill, lose_skill …) and a rule skill's code any role's skill
    (has_skill): that was a false E121 (the role, or the rules, checked against its own skills alone). A name no
    skill of the content has is still E121, with the closest."""
    entry = (
        "- {id: a, name: 家规, kind: active, timing: play_phase, condition: 'has_skill(self, \"视死\")', "
        "effect: 'lose_skill(self, \"视死\")'}\n"
    )
    folder = pack(tmp_path, "rules:\n  skills:\n" + textwrap.indent(entry, "    "))
    (folder / "roles").mkdir()
    role = (
        "id: fork_shi_ji\nname: 试技\ntitle: 测试\ngender: male\nhidden: false\nskills:\n"
        "  - id: fork_mian\n    name: 免\n    text: 出牌阶段，若你拥有技能【家规】，你可以失去之。\n    kind: active\n"
        "    timing: play_phase\n    condition: 'has_skill(self, \"家规\")'\n    effect: 'lose_skill(self, \"家规\")'\n"
    )
    (folder / "roles" / "fork_shi_ji.yaml").write_text(role, encoding="utf-8")
    load(folder)  # 视死 is 老汉's, 家规 the rules'
    (folder / "roles" / "fork_shi_ji.yaml").write_text(
        role.replace('has_skill(self, "家规")', 'has_skill(self, "家归")'), encoding="utf-8"
    )
    (e,) = errors(folder)
    assert (e.code, e.line, e.hint) == ("E121", 12, "did you mean 家规?"), e
    assert e.message.startswith('no skill of the content is called "家归"'), e.message
    # lose_skill in a role's code: its own or a rule skill, not another role's (the seat holds its own role)
    (folder / "roles" / "fork_shi_ji.yaml").write_text(
        role.replace('lose_skill(self, "家规")', 'lose_skill(self, "视死")'), encoding="utf-8"
    )
    (e,) = errors(folder)
    assert (e.code, e.line, e.hint) == ("E121", 13, "skills it may name: 免、家规"), e
    assert e.message == 'the role 试技 has no skill "视死", nor is it a rule skill', e


def test_a_rule_skill_with_the_name_of_a_roles_skill_is_e120(tmp_path):
    """Code names a skill by its name, and a seat's role's skills are looked in first: a rule skill named 视死 whose
    code took itself away (lose_skill(self, "视死")) took 老汉's 视死 from a seat of that role, and kept its own."""
    entry = "- {id: a, name: 视死, kind: active, timing: play_phase, effect: 'lose_skill(self, \"视死\")'}\n"
    errs = _one(tmp_path, entry)
    assert [(e.code, e.line, e.col) for e in errs] == [("E120", 6, 21)], errs
    assert "the name of a skill of the role 老汉" in errs[0].message
