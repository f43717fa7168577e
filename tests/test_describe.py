"""`fengsheng describe`: rules text generated from the effect-language code."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.content.loader import BUNDLED_CONTENT, load_content
from interpreter.content.packs import default_packs, resolve_packs
from interpreter.content.yamlpos import load as load_yaml
from interpreter.describe_cmd import describe
from interpreter.language import describe as D, describe_content as C, types as T
from interpreter.language.builtins import BUILTINS, REQUIRED
from interpreter.model.content import CardType, CardUse, SecretTask, Victory

ROLE_PACK = Path(__file__).parent / "fixtures" / "role_pack"


def _files(sub, root=BUNDLED_CONTENT):
    return sorted((Path(root) / sub).glob("*.yaml"))


def _load(path):
    return load_yaml(Path(path).read_text(encoding="utf-8"))


CARDS = {d["id"]: d for d in map(_load, _files("cards"))}
TASKS = {d["id"]: d for d in map(_load, _files("secret_tasks"))}
RULES = _load(BUNDLED_CONTENT / "rules.yaml")
ROLES = {d["id"]: d for d in map(_load, _files("roles", ROLE_PACK))}
# the roles of the full bundled game: the base's and every bundled expansion's
BUNDLED_ROLES = {d["id"]: d for pack in default_packs() for d in map(_load, _files("roles", pack))}
LOADED = load_content(resolve_packs([ROLE_PACK]))  # what describe renders: the loaded objects

BAD = ("无法生成", "无法解析", "？", "{", "}", "None")


def _clean(text):
    assert text and text.strip(), "empty description"
    for bad in BAD:
        assert bad not in text, f"{bad!r} in {text!r}"
    return text


def run(*args):
    return CliRunner().invoke(describe, list(args))


# ------------------------------------------------------------------ every bundled object renders


@pytest.mark.parametrize("cid", sorted(CARDS))
def test_every_card_renders(cid):
    text = _clean(C.describe_card(LOADED.card_types[cid]))
    assert text.endswith(("。", "）"))


@pytest.mark.parametrize("tid", sorted(TASKS))
def test_every_task_renders(tid):
    _clean(C.describe_task(LOADED.tasks[tid]))


@pytest.mark.parametrize("iid", sorted(RULES["identities"]))
def test_every_identity_renders(iid):
    text = _clean(C.describe_identity(LOADED.identities[iid]))
    assert "身份颜色" in text


@pytest.mark.parametrize("rid", sorted(ROLES))
def test_demo_roles_render(rid):
    text = _clean(C.describe_role(LOADED.roles[rid]))
    for sk in ROLES[rid]["skills"]:
        assert f"【{sk['name']}】" in text


def test_there_is_content_to_describe():
    assert len(CARDS) >= 13 and len(TASKS) >= 7 and len(ROLES) >= 2


# ------------------------------------------------------------------ key phrases of the cards


def card(name):
    return next(C.describe_card(c) for c in LOADED.card_types.values() if c.name == name)


def task(name):
    return next(C.describe_task(t) for t in LOADED.tasks.values() if t.name == name)


def test_replacement_wording():
    text = card("利诱")
    assert "若如此做会" in text and "改为" in text
    assert "将该牌加入你的手牌" in text
    assert text.startswith("出牌阶段，选择一名角色，")


def test_then_wording():
    text = card("欲擒故纵")
    assert "然后你摸两张牌" in text
    assert text == "传递阶段，代替正常的传出情报，改为将你面前的一张红色或蓝色情报面朝上传出，然后你摸两张牌。"


def test_may_wording():
    text = card("破译")
    assert "你可以" in text
    assert text.startswith("传递阶段，情报传递到你面前时，查看待收情报")
    assert "黑色" in text


def test_second_use_at_dying():
    text = card("澄清")
    assert "濒死" in text
    assert "你也可以在一名角色濒死时对其使用。" in text
    assert "黑色情报" in text


def test_exact_short_cards():
    assert card("截获") == "争夺阶段，将待收情报移至你面前。"
    assert card("调包") == "争夺阶段，将这张牌面朝下代替待收情报，并将原情报弃置。"


def test_in_turn_merging():
    assert "你和他依次弃置所有手牌，再依次摸三张牌" in card("平衡")


def test_loop_and_choose_one():
    text = card("风云变幻")
    assert "从牌堆顶翻开N张牌（N为存活角色数）" in text
    assert "从你开始，逆时针每名角色依次" in text
    assert "选择一项：①" in text and "②" in text


def test_choose_one_options():
    text = card("调虎离山")
    assert "选择一项：①令他本回合角色技能无效；②令他本回合不能使用手牌" in text


def test_target_rules():
    assert "选择一名其他角色" in card("平衡")
    assert "选择一名有手牌的其他角色" in card("密令")
    assert "相邻的一名角色" in card("误导")


def test_face_down_and_removed_cards():
    text = card("试探")
    assert "将这张牌面朝下交给他" in text
    assert text.count("执行之后将这张牌移出游戏。") == 1
    assert "各自对应的数值" in text  # per-copy data is mentioned


def test_declaration_uses_the_prompt_noun():
    assert "声明【澄清】【截获】【调包】【误导】中的一个卡名" in card("威逼")
    assert "宣言“东风”“西风”“静风”中的一个暗号" in card("密令")


# ------------------------------------------------------------------ victory checks


def test_usurp_wording():
    text = task("篡夺者")
    assert text.startswith("你的回合，一名角色宣告胜利时，你代替其胜利。")
    assert "已死亡" in text  # dead_may_win is noted


def test_collect_unclaimed_wording():
    assert "收集了三张红色或蓝色情报但没有宣告胜利" in task("诱变者")


def test_collect_counts():
    assert task("双面间谍") == "你收集了三张或更多红色情报或者三张或更多蓝色情报。"


def test_death_conditions():
    assert task("清道夫") == "一名红色和蓝色情报均不超过一张的角色死亡。"
    assert task("先行者").startswith("你死亡时，拥有红色或蓝色情报")
    assert task("镇压者").startswith("你的回合，一名")


def test_turn_end_wording():
    text = task("搅局者")
    assert text.startswith("你的回合结束时，其他角色均")
    assert "两张或更多" in text


def test_identity_victory():
    text = C.describe_identity(LOADED.identities["qian_fu_zhan_xian"])
    assert "你收集了三张或更多红色情报" in text
    solo = next(i for i in LOADED.identities.values() if i.takes_task)
    assert "秘密任务" in C.describe_identity(solo)


# ------------------------------------------------------------------ roles


def test_triggered_skill_wording():
    assert C.describe_role(LOADED.roles["demo_clerk"]) == "【记录】你接收黑色情报后，可以摸两张牌。"


def test_active_flip_up_skill_wording():
    text = C.describe_role(LOADED.roles["demo_spy"])
    assert text.startswith("【窥探】争夺阶段")
    assert "限一次" in text and "你可以翻开此角色牌，然后摸一张牌" in text


def test_may_goes_before_the_verb_when_the_first_clause_has_its_own_subject(tmp_path):
    """可以 is never put before a subject: 可以你和该角色依次摸一张牌 reads 你可以与该角色依次摸一张牌."""
    role = tmp_path / "pack" / "roles" / "ce_shi.yaml"
    role.parent.mkdir(parents=True)
    role.write_text(
        "id: ce_shi\nname: 测试\ntitle: 新手\ngender: male\nhidden: true\nskills:\n"
        "  - {id: yi, name: 一, text: 测试。, kind: triggered, trigger: received, optional: true,\n"
        '     condition: subject != self, effect: "draw(self, 1)\\ndraw(subject, 1)"}\n'
        '  - {id: er, name: 二, text: 测试。, kind: active, timing: play_phase, effect: "draw(current, 1)"}\n',
        encoding="utf-8",
    )
    r = run("ce_shi", "--content", str(BUNDLED_CONTENT), "--content", str(role.parent.parent))
    assert r.exit_code == 0, r.output
    assert "你可以与该角色依次摸一张牌。" in r.output, r.output
    assert "你可以令当前回合角色摸一张牌" in r.output, r.output
    assert "可以你" not in r.output and "可以该" not in r.output, r.output


# ------------------------------------------------------------------ the renderer on its own


@pytest.mark.parametrize(
    "code, phrase",
    [
        ("count(intel(self) where it has red) >= 3", "你收集了三张或更多红色情报"),
        ("count(intel(target) where it has black) < 2", "黑色情报少于两张"),
        ("hand_count(target) > 0", "有手牌"),
        ("current == self", "当前回合角色是你"),
        ("dying == self", "濒死角色是你"),
        ("pending has black", "待收情报含有黑色"),
        ("sender != holder", "情报传出者不是面前有待收情报的角色"),
        ("not is_face_up()", "面朝下"),
        ("intel(target) where it has black", "目标角色面前的黑色情报"),
        ("hand(self) where it has red or it has blue", "你的红色或蓝色手牌"),
        ("set_aside() where not (it has black)", "不含黑色的"),
        ("none_of(others(self) where hand_count(it) > 0)", "其他角色均没有手牌"),
        ("this_card", "这张牌"),
        ("subject", "该角色"),
        ("usable(none, as: 【威逼】)", "你现在可以视为使用【威逼】"),
        ("usable(pending, as: 【误导】)", "待收情报可由你现在当作【误导】使用"),
    ],
)
def test_expressions(code, phrase):
    assert phrase in D.describe_expr(code)


@pytest.mark.parametrize(
    "code, phrase",
    [
        ("may { draw(self, 1) }", "你可以摸一张牌"),
        ("may { draw(self, 1)\ndraw(target, 1) }", "你可以与目标角色依次摸一张牌"),
        ("may { draw(target, 1) }", "你可以令目标角色摸一张牌"),
        ("discard(hand(self))\nthen draw(self, 2)", "然后你摸两张牌"),
        ("for p in alive_from(self) { draw(p, 1) }", "从你开始，逆时针每名角色依次摸一张牌"),
        ('choose_one { option "a" { draw(self, 1) } option "b" { draw(self, 2) } }', "选择一项：①"),
        (
            "collect(top_card(), target) instead if makes_three(target, top_card()) { discard(top_card()) }",
            "若如此做会让目标角色收集三张或更多同色情报，则改为",
        ),
        ("if hand_count(self) == 0 { draw(self, 2) } else { draw(self, 1) }", "；否则，"),
        ("repeat 3 { draw(self, 1) }", "重复三次"),
        ("take_top(alive_count())", "（N为存活角色数）"),
        ("add_status(target, skills_disabled)", "令目标角色本回合角色技能无效"),
        ("put_on_deck(hand(self), bottom: true)", "将你的手牌置于牌堆底"),
        # after a condition about another player the subject is said again: not 若该角色……，摸一张牌 (who draws?)
        (
            "may { let p = choose(from: others(self))\ndraw(p, 1)\nif hand_count(p) > 2 { draw(self, 1) } }",
            "该角色摸一张牌，若该角色拥有三张或更多手牌，你摸一张牌",
        ),
        (
            "may { draw(self, 1)\nif hand_count(self) > 2 { draw(self, 1) } }",
            "若你拥有三张或更多手牌，摸一张牌",
        ),  # not 放回牌堆顶: the other end
        ("put_on_deck(hand(self))", "将你的手牌放回牌堆顶"),
    ],
)
def test_programs(code, phrase):
    assert phrase in D.describe_program(code)


def _sample_args(b):
    sample = {
        T.PLAYER: "target",
        T.PLAYERS: "others(self)",
        T.CARD: "pending",
        T.CARDS: "hand(self)",
        T.LIST: "intel(target) where it has red",
        T.INT: "2",
        T.BOOL: "true",
        T.COLOR: "black",
        T.TEXT: '"x"',
        T.STATUS: "must_receive",
        T.ANY: "red",
    }
    return ", ".join(sample.get(p.type, "self") for p in b.params if p.default is REQUIRED)


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_renders(name):
    b = BUILTINS[name]
    code = f"{name}({_sample_args(b)})"
    text = D.describe_program(code) if b.kind == "action" else D.describe_expr(code)
    assert text and not re.search(r"[{}]|[a-z]_[a-z]|\bNone\b", text), text


def test_parse_errors_are_reported_not_raised():
    # the loader refuses such code; an object built by hand may still hold it
    broken = CardType("x", "x", "")
    broken.uses.append(CardUse(broken, "play_phase", None, None, lambda ctx: None, effect_source="draw(self, "))
    assert "无法解析" in C.describe_card(broken)
    task = SecretTask("x", "x", "", [Victory("death", lambda ctx: True, source="subject ==")])
    assert "无法解析" in C.describe_task(task)


def test_renderer_names_no_content():
    """The renderer is general: no card, task or role name appears in its source."""
    names = [d["name"] for d in CARDS.values()] + [d["name"] for d in TASKS.values()]
    names += [spec["name"] for spec in RULES["identities"].values()]
    language = Path(D.__file__).parent
    sources = [language / f for f in ("describe.py", "describe_content.py", "phrases.py")]
    for src in (*sources, Path(__file__).parents[1] / "interpreter" / "describe_cmd.py"):
        text = src.read_text(encoding="utf-8")
        assert not [n for n in names if n in text], src
    # nor does the wording of the primitives (their phrasing in builtins.py)
    templates = [t for b in BUILTINS.values() for t in b.phrasing.templates()]
    assert not [n for n in names if any(n in t for t in templates)]


# ------------------------------------------------------------------ the command


def test_describe_by_id_and_name():
    for arg in ("jie_huo", "截获", "【截获】"):
        r = run(arg)
        assert r.exit_code == 0, r.output
        assert "截获" in r.output and "卡牌" in r.output
        assert "原文：争夺阶段，将待收情报移至你面前。" in r.output
        assert "由代码生成：争夺阶段，将待收情报移至你面前。" in r.output


def _described_roles(output: str) -> list[str]:
    """The role ids of the headers (name · 角色 · id · …) of describe's output."""
    return [line.split(" · ")[2] for line in output.splitlines() if " · 角色 · " in line]


def test_describe_a_role_version_by_its_label():
    for arg in ("李宁玉（SP）", "李宁玉（SP）（译电科科长）"):
        r = run(arg)
        assert r.exit_code == 0, r.output
        assert _described_roles(r.output) == ["li_ning_yu_sp"]
    r = run("李宁玉")  # the name alone: every version
    assert sorted(_described_roles(r.output)) == ["li_ning_yu", "li_ning_yu_sp"]


def test_describe_task_and_identity():
    r = run("诱变者")
    assert r.exit_code == 0 and "秘密任务" in r.output and "由代码生成" in r.output
    r = run("te_gong_ji_guan")
    assert r.exit_code == 0 and "身份" in r.output and "蓝色" in r.output


def test_describe_role_from_a_layered_pack():
    r = run("demo_clerk", "--content", str(BUNDLED_CONTENT), "--content", str(ROLE_PACK))
    assert r.exit_code == 0, r.output
    assert "角色" in r.output and "【记录】你接收黑色情报后，可以摸两张牌。" in r.output


def test_unknown_name_exits_2_with_a_suggestion():
    r = run("截货")
    assert r.exit_code == 2
    assert "did you mean" in r.output and "截获" in r.output
    r = run("jie_hou")
    assert r.exit_code == 2 and "jie_huo" in r.output
    r = run("zzzz")
    assert r.exit_code == 2 and "zzzz" in r.output
    r = run("视屎")  # a skill's name misspelt (describe finds a role by a skill's name): its role named with it
    assert r.exit_code == 2 and "did you mean 视死 (a skill of 老汉, lao_han)?" in r.output, r.output


def test_usage_errors_exit_2():
    assert run().exit_code == 2
    assert run("jie_huo", "--all").exit_code == 2
    assert run("jie_huo", "--format", "pdf").exit_code == 2


def test_all_md_catalogue():
    r = run("--all", "--format", "md", "--content", str(BUNDLED_CONTENT), "--content", str(ROLE_PACK))
    assert r.exit_code == 0, r.output
    out = r.output
    assert out.startswith("# ")
    for heading in ("## 卡牌", "## 秘密任务", "## 角色", "## 身份", "## 规则"):
        assert heading in out
    for d in CARDS.values():
        assert f"### {d['name']} `{d['id']}`" in out
    for d in TASKS.values():
        assert d["name"] in out
    assert "测试文书" in out
    assert out.count("**由代码生成**") == (
        len(CARDS) + len(TASKS) + len(ROLES) + len(BUNDLED_ROLES) + len(RULES["identities"]) + 2  # + turn, camps
    )
    assert "无法生成" not in out


def test_all_md_names_its_packs_portably(tmp_path, monkeypatch):
    """The catalogue's pack line holds no absolute path: bundled packs by id, another folder relative to here."""
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    r = run("--all", "--format", "md")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if x.startswith("内容包："))
    assert line == "内容包：" + "，".join(f"`{ref}`" for ref in ("base", "tie_wu_zi", "lao_yang_fang")), line
    pack = tmp_path / "pack"
    shutil.copytree(ROLE_PACK, pack)
    r = run("--all", "--format", "md", "--content", str(BUNDLED_CONTENT), "--content", str(pack))
    assert r.exit_code == 0, r.output
    assert "内容包：`base`，`tie_wu_zi`，`lao_yang_fang`，`../pack`\n" in r.output, r.output[:400]
    assert str(tmp_path) not in r.output


def test_all_text():
    r = run("--all")
    assert r.exit_code == 0
    for d in CARDS.values():
        assert d["name"] in r.output
    assert r.output.count("由代码生成") == len(CARDS) + len(TASKS) + len(BUNDLED_ROLES) + len(RULES["identities"]) + 2
    assert "摸牌阶段 [draw]" in r.output  # the turn's skeleton (回合流程)
    assert "红方（red，收集红色情报）" in r.output  # the camps (阵营)


def test_the_turn_skeleton():
    r = run("回合流程")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "turn: draw, play, send, contest, receive" in r.output and "结算方式：排队结算（queued）" in r.output
    phases = [ln.strip().split(" [")[0] for ln in lines if " [" in ln]
    assert phases == ["摸牌阶段", "出牌阶段", "传递阶段", "争夺阶段", "接收阶段"]


def test_single_md():
    r = run("li_you", "--format", "md")
    assert r.exit_code == 0
    assert r.output.startswith("## 利诱 `li_you`")
    assert "**原文**" in r.output and "若如此做会" in r.output


def test_a_skill_name_finds_its_role():
    r = run("同盟", "--content", str(BUNDLED_CONTENT), "--content", str(ROLE_PACK))
    assert r.exit_code == 0, r.output
    assert r.output.startswith("测试搭档（测试用） · 角色 · demo_partner")


def test_two_picks_of_one_kind_are_named_apart():
    """Two players (or cards) picked in one effect read 角色甲 / 角色乙, not 该角色 twice."""
    code = """
let a = choose(from: others(self), prompt: "一")
let b = choose(from: others(self) where it != a, prompt: "二")
let c = choose(from: hand(a), by: b, prompt: "三")
collect(c, a)
"""
    text = D.describe_program(code)
    assert "（角色甲）" in text and "（角色乙）" in text and "（牌甲）" not in text  # one card: 该牌
    assert "角色乙选择角色甲的一张手牌" in text and "将该牌置入角色甲的情报区" in text
    one = D.describe_program('let a = choose(from: others(self), prompt: "一")\ndraw(a, 1)')
    assert "甲" not in one and "该角色摸一张牌" in one


def test_a_queried_card_and_a_picked_card_are_named_apart():
    text = D.describe_program(
        'let top = top_card()\nreveal(top)\nlet c = choose(from: hand(self), prompt: "x")\n'
        "discard(c)\nthen if shares_color(c, top) { draw(self, 1) }"
    )
    assert "（牌甲）" in text and "（牌乙）" in text and "牌乙与牌甲含有相同颜色" in text


def test_gender_reads_in_chinese():
    assert D.describe_expr('gender(target) == "female"').endswith("是女性角色")
    assert "男性角色" in D.describe_expr('any_of(alive() where gender(it) == "male")')


# ------------------------------------------------------------------ named values, events, lasting marks


def test_two_numbers_bound_by_let_are_named_apart():
    text = D.describe_program(
        "let a = count(hand(self) where it has red)\nlet b = count(hand(self) where it has black)\n"
        "if a > b { draw(self, 1) } elif b > a { draw(self, 2) }"
    )
    assert "（数值甲）" in text and "（数值乙）" in text and "若数值乙大于数值甲" in text
    assert "该数值" not in text  # one said twice in a sentence would not say which
    one = D.describe_program("let a = count(hand(self))\ndiscard(hand(self))\ndraw(self, a)\nthen draw(self, a)")
    assert "数值甲" not in one  # a single number keeps its short wording


@pytest.mark.parametrize(
    "code, phrase",
    [
        ('event == "intel_sent"', "此时是一名角色传出情报时"),
        ('"received" == event', "此时是一名角色接收情报后"),
        ('event != "received"', "此时不是一名角色接收情报后"),
    ],
)
def test_which_trigger_fired_reads_as_its_moment(code, phrase):
    text = D.describe_expr(code)
    assert text == phrase and "intel_sent" not in text and "received" not in text


def test_a_mark_kept_for_the_game_is_not_this_turns():
    turn = D.describe_expr('mark_number(self, "蓄力") >= 2')
    assert "本回合" in turn  # set_mark's marks last the turn
    kept = D.kept_marks([D.parse('add_mark(self, "蓄力", 1, max: 3)\nkeep_mark(self, "败", true)')])
    assert kept == {"蓄力", "败"}
    r = D.Renderer(target_word=D.TARGET_LONG, kept_marks=kept)
    assert D.describe_expr('mark_number(self, "蓄力") >= 2', r) == "你记下的“蓄力”（数值）不少于二"
    assert "本回合" not in D.describe_expr('has_mark(self, "败")', r)
    assert "本回合" not in D.describe_expr('not has_mark(self, "败")', r)
    assert "本回合" in D.describe_expr('has_mark(self, "别的")', r)  # another key: still this turn's


def test_a_role_reading_its_counter_says_no_this_turn():
    from interpreter.content.loader import load_cached

    role = load_cached([BUNDLED_CONTENT, Path(__file__).parent / "fixtures" / "lasting_pack"]).roles["demo_lasting"]
    text = C.describe_role(role)
    spend = next(line for line in text.splitlines() if line.startswith("【发力】"))
    assert "蓄力" in spend and "本回合" not in spend  # set by another skill of the role with add_mark


def test_a_may_before_a_condition_reads_as_using_the_skill():
    """可以 before a body that opens with 若…… reads 可以发动：若……, never 可以若……"""
    from interpreter.content.loader import load_cached

    content = load_cached(default_packs())
    texts = [C.describe_role(r) for r in content.roles.values()]
    assert not [t for t in texts if "可以若" in t]
    jiang_hu = next(t for t in texts if "【江湖令】" in t)
    assert "你可以发动：若此时是一名角色传出情报时" in jiang_hu


@pytest.mark.parametrize(
    "code, text",
    [
        ('add_mark(self, "蓄力", -2)', "令你的“蓄力”标记减少二。"),
        ('add_mark(self, "蓄力", 1, max: 3)', "令你的“蓄力”标记增加一（至多为三）。"),
    ],
)
def test_a_counter_taken_down_reads_as_less(code, text):
    assert D.describe_program(code) == text
