"""The rules text of content objects (cards, secret tasks, roles, identities), generated from their code.

``fengsheng describe`` prints it next to the text a designer wrote (``text:``). It works on loaded
objects (``model/content.py``), from the source text they keep of each code unit, and words each
code unit with the generic renderer of ``describe.py``; the openings (timings, triggers, victory
checks, use limits) are the catalogue's wording.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .. import catalogue
from ..model.colors import COLOR_NAMES, collect_check_words
from ..model.content import BASE_COUNTS, Camp, CardType, Identity, Role, Rules, SecretTask, Skill, Victory
from ..model.declared import NOTHING_DECLARED, Declared, EventDecl, ZoneDecl
from . import ast
from .describe import (
    CHECK_ZH,
    COLOR_ZH,
    DATA_TYPE_ZH,
    TARGET_LONG,
    TIMING_ZH,
    TRIGGER_ZH,
    VAR_ZH,
    YOU,
    Renderer,
    expression,
    is_var,
    kept_marks,
    phrasing_of,
)
from .errors import LanguageError
from .parser import parse
from .phrases import cn_num, end_sentence


def _unparsable(e: LanguageError) -> str:
    return f"（代码无法解析：第{e.line}行第{e.col}列：{e.message}）"


def _target_lead(r: Renderer, target: ast.Node, timing: str) -> tuple[str, str]:
    """(the opening that introduces the target, the 对…使用 of a further use)."""
    if isinstance(target, ast.ListLit) and len(target.items) == 1:
        who = r.val(target.items[0])
        return f"对{who}使用", "对其使用" if timing == "dying" and is_var(target.items[0], "dying") else f"对{who}使用"
    one = r.np(target).one()
    return f"选择{one}", f"对{one}使用"


def describe_card(card: CardType, counts: tuple[int, int] = BASE_COUNTS) -> str:
    """The rules text of a card, generated from its uses' target rules, conditions and effects (`counts`: the
    rules', model.content.rule_counts, which `makes_three` says)."""
    sentences, shared_done = [], False
    for use in card.uses:
        timing, opening = use.timing, TIMING_ZH.get(use.timing, use.timing)
        r = Renderer(face_down=card.face_down, data_types=card.data_keys, counts=counts)
        try:
            target = expression(use.target_source) if use.target_source is not None else None
            effect = parse(use.effect_source if use.effect_source is not None else card.effect_source or "")
        except LanguageError as e:
            sentences.append(end_sentence(f"{opening}，{_unparsable(e)}"))
            continue
        if use.effect_source is None and shared_done:  # a further use of the shared effect
            at = catalogue.TIMINGS[timing].zh_at if timing in catalogue.TIMINGS else timing
            sentences.append(f"你也可以在{at}{_target_lead(r, target, timing)[1] if target else '使用'}。")
            continue
        parts = [opening]
        if use.condition_source is not None:
            try:
                cnode = expression(use.condition_source)
                ph = phrasing_of(cnode)
                said = r.args(cnode).get(ph.exists_in) if isinstance(cnode, ast.Call) and ph and ph.exists_in else None
                if said is None or not ast.contains(effect, said):  # not 若你有手牌 where the effect names them
                    parts.append(f"若{r.cond(cnode).text()}")
            except LanguageError as e:
                parts.append(f"（条件无法解析：{e.message}）")
        if target is not None:
            parts.append(_target_lead(r, target, timing)[0])
        else:
            r.vars["target"] = TARGET_LONG
        body = r.program(effect, YOU)
        parts.append(("代替正常的传出情报，改为" if timing == "send_start" else "") + body)
        parts[-1] += "".join(f"（{note}）" for note in r.notes if note not in body)
        sentences.append(end_sentence("，".join(p for p in parts if p)))
        shared_done = shared_done or use.effect_source is None
    text = "".join(sentences)
    text += "这张牌面朝下使用。" if card.face_down and "面朝下" not in text else ""
    text += "执行之后将这张牌移出游戏。" if card.after_use == "remove" else ""
    if card.data_keys:
        words = "/".join(sorted({DATA_TYPE_ZH.get(t, t) for t in card.data_keys.values()}))
        text += f"（每张牌上印有{'、'.join(COLOR_ZH.get(k, k) for k in card.data_keys)}各自对应的{words}。）"
    return text


def _is_eq(node: ast.Node, a: str, b: str, op: str = "==") -> bool:
    """node is `a op b` or `b op a` for variable names a and b."""
    if not (isinstance(node, ast.BinOp) and node.op == op):
        return False
    return (is_var(node.left, a) and is_var(node.right, b)) or (is_var(node.left, b) and is_var(node.right, a))


def _roles_of(conj: list[ast.Node]) -> tuple[bool, bool, bool, list[ast.Node]]:
    """Of the parts of a condition: is the subject you, is it someone else, is it your turn; and the rest."""
    kinds = [
        (_is_eq(c, "subject", "self"), _is_eq(c, "subject", "self", "!="), _is_eq(c, "current", "self")) for c in conj
    ]
    you, other, turn = (any(k[i] for k in kinds) for i in range(3))
    return you, other, turn, [c for c, k in zip(conj, kinds, strict=True) if not any(k)]


def _victory_text(v: Victory, counts: tuple[int, int] = BASE_COUNTS) -> str:
    """One victory condition in the wording of its check; a collect check's says the rules' count (`counts`:
    model.content.rule_counts, the model's defaults without rules) and the colours the engine's check counts."""
    try:
        node = expression(v.source or "true")
    except LanguageError as e:
        return _unparsable(e)
    r = Renderer(target_word=TARGET_LONG, counts=counts)
    you, other, your_turn, rest = _roles_of(ast.conjuncts(node))
    if you:
        r.vars["subject"] = YOU
    phrases = [r.cond(c) for c in rest if not is_var(c, "true")]
    both = (r.join_phrases(phrases, "且") if len(phrases) > 1 else phrases[0]) if phrases else None
    cond, lead = both.text() if both else "", "你的回合，" if your_turn else ""
    who = YOU if you else ("一名其他角色" if other else "一名角色")
    someone = VAR_ZH["subject"]  # 该角色
    collected = f"{cn_num(counts[0], '张')}{collect_check_words()}情报"
    if v.check == "collect":
        out = lead + (cond or f"收集{collected}")
    elif v.check == "collect_unclaimed":
        out = f"{lead}{who}收集了{collected}但没有宣告胜利" + (f"，且{cond}" if cond else "")
    elif v.check == "death" and you:
        out = f"{lead}你死亡时" + (f"，{both.text(YOU)}" if both else "")
    elif v.check == "death" and both and all(p.subj == someone for p in phrases):  # 一名……的角色死亡
        rel = both.pred if both.subj == someone else "且".join(p.pred for p in phrases)
        out = f"{lead}一名{rel}的{'其他角色' if other else '角色'}死亡"
    elif v.check == "death":
        out = f"{lead}{who}死亡" + (f"时，{cond}" if cond else "")
    elif v.check == "turn_end":
        out = ("你的回合结束时" if your_turn else "一名角色的回合结束时") + (f"，{cond}" if cond else "")
    elif v.check == "usurp":
        out = lead + (f"若{cond}，" if cond else "") + CHECK_ZH["usurp"]
    elif v.check == "receive":
        out = lead + ("你接收情报后" if you else f"{who}接收情报后") + (f"，{cond}" if cond else "")
    elif v.check == "game_end":
        out = lead + CHECK_ZH["game_end"] + (f"，{cond}" if cond else "")
    else:
        out = lead + (cond or "总是")
    alone = "（单独胜利，同阵营的角色不因此胜利。）" if v.wins == "alone" else ""
    return end_sentence(out) + alone + ("（你已死亡时也可以因此胜利。）" if v.dead_may_win else "")


def describe_task(task: SecretTask, counts: tuple[int, int] = BASE_COUNTS) -> str:
    """A secret task's victory condition(s), generated from its `victory:` code (`counts`: the rules', which a
    collect check's wording says)."""
    return "或者：".join(_victory_text(v, counts) for v in task.victories) or "（没有胜利条件）"


def describe_identity(
    identity: Identity, camps: Mapping[str, Camp] | None = None, counts: tuple[int, int] = BASE_COUNTS
) -> str:
    """An identity of rules.yaml: its color, camp (by the name the rules' `camps:` give it, if they declare it)
    and victory conditions (`counts`: the rules', as describe_task)."""
    color = COLOR_NAMES.get(identity.color, str(identity.color))
    text = f"身份颜色为{COLOR_ZH.get(color, color)}，"
    camp = identity.camp
    declared = (camps or {}).get(camp) if camp is not None else None
    if camp is None:
        text += "没有阵营，各自为战。"
    elif declared is not None:
        text += f"属于{declared.name}阵营，与同阵营的角色共同胜利。"
    else:
        text += f"属于{COLOR_ZH.get(camp, camp)}阵营，与同阵营的角色共同胜利。"
    wins = [_victory_text(v, counts) for v in identity.victories]
    text += ("胜利条件：" + "或者：".join(wins)) if wins else ""
    return text + ("抽取一张秘密任务，以其胜利条件为自己的胜利条件。" if identity.takes_task else "")


def describe_camps(camps: Mapping[str, Camp]) -> str:
    """The camps the rules declare (`camps:`), one line each: name, id, what it collects, what it is."""
    lines = []
    for c in camps.values():
        collects = f"，收集{COLOR_ZH.get(c.collects, c.collects)}情报" if c.collects else ""
        about = f"：{c.description}" if c.description else ""
        lines.append(f"{c.name}（{c.id}{collects}）{about}")
    return "\n".join(lines)


def _skill_text(sk: Skill, declared: Declared = NOTHING_DECLARED, counts: tuple[int, int] = BASE_COUNTS) -> str:
    return _sentence(*_skill_parts(sk, declared=declared, counts=counts))


def _sentence(lead: str, cond_text: str, body: str) -> str:
    # the clause after the opening is about 你: said after a condition or an opening about someone else,
    # unless the body names 你 itself (你和他依次……)
    who = YOU if (cond_text or not lead.startswith(YOU)) and not body.startswith((YOU, "可以" + YOU)) else ""
    return end_sentence("，".join(p for p in (lead, cond_text, who + body) if p))


_KEPT: dict[int, tuple[Role, frozenset[str]]] = {}


def _kept_marks(role: Role | None) -> frozenset[str]:
    """The marks a role's skills keep for the game (their reads then say no 本回合), once per role."""
    if role is None:
        return frozenset()
    found = _KEPT.get(id(role))
    if found is None or found[0] is not role:
        programs = []
        for m in role.moments:
            for text in (m.effect_text, m.condition_text):
                try:
                    programs.append(parse(text) if text else None)
                except LanguageError:
                    continue
        found = _KEPT[id(role)] = (role, kept_marks(programs))
    return found[1]


def _with_limit(lead: str, sk: Skill) -> str:
    if sk.limit_scope in catalogue.LIMIT_SCOPES:
        lead += ("，" if lead else "") + catalogue.LIMIT_SCOPES[sk.limit_scope].format(n=cn_num(sk.limit_times))
    return lead


def _skill_parts(
    sk: Skill, limit: bool = True, declared: Declared = NOTHING_DECLARED, counts: tuple[int, int] = BASE_COUNTS
) -> tuple[str, str, str]:
    """A skill's opening (when, and its limit unless `limit` is false), its condition (若…) and its body."""
    r = Renderer(target_word=TARGET_LONG, may_subject=False, kept_marks=_kept_marks(sk.role), counts=counts)
    whens = TRIGGER_ZH
    for t in sk.on or () if sk.kind == "triggered" else ():  # a built-in event's fields read by name (counter_changed)
        e = catalogue.TRIGGER_EVENTS.get(t)
        r.vars.update({name: zh for name, _, zh in e.typed} if e is not None else {})
    if declared.events and sk.kind == "triggered":
        whens = {name: e.zh for name, e in declared.trigger_events().items()}
        for t in sk.on or ():
            if t in declared.events:
                r.vars.update(_field_nouns(declared.events[t]))
    lead = cond_text = ""
    try:
        whole = expression(sk.condition_text) if sk.condition_text else None
    except LanguageError as e:
        whole, cond_text = None, f"（条件无法解析：{e.message}）"
    if sk.kind == "triggered":
        events = list(sk.on or ("",))
        you, other, your_turn, rest = _roles_of(ast.conjuncts(whole) if whole else [])
        colors = {  # this_card has red: said in the opening (你接收红色情报后)
            i: c.right.name
            for i, c in enumerate(rest)
            if isinstance(c, ast.BinOp)
            and c.op == "has"
            and is_var(c.left, "this_card")
            and is_var(c.right, *COLOR_ZH)
            and isinstance(c.right, ast.Var)
        }
        rest = [c for i, c in enumerate(rest) if i not in colors]
        if your_turn and events[0] in ("turn_start", "turn_end") and not other:
            you, your_turn = True, False  # the subject of a turn event is the current player
        if you:
            r.vars["subject"] = YOU
        nouns = {t: e.card_noun for t, e in catalogue.TRIGGER_EVENTS.items()}
        r.vars["this_card"] = "该" + nouns.get(events[0], "情报")
        s = YOU if you else ("其他角色" if other else "一名角色")
        cnoun = "或".join(COLOR_ZH[c] for c in colors.values()) + nouns.get(events[0], "情报")
        said = [whens.get(t, t).format(s=s, c=cnoun if len(events) == 1 else nouns.get(t, "情报")) for t in events]
        lead = ("你的回合，" if your_turn else "") + "，或".join(said)
        if rest:
            both = r.join_phrases([r.cond(c) for c in rest], "且") if len(rest) > 1 else r.cond(rest[0])
            cond_text = "若" + both.text()
    else:
        lead = "或".join(TIMING_ZH.get(t, t) for t in sk.timing or ()) if sk.kind == "active" else ""
        cond_text = "若" + r.cond(whole).text() if whole else cond_text
    if limit:
        lead = _with_limit(lead, sk)
    may = (sk.kind == "active" or sk.optional) and sk.kind != "passive"
    try:
        prog = parse(sk.effect_text or "")
        r.plan_labels(prog.body)
        segs = r.block(prog.body, YOU)
        body = r.join(r.may_first(segs, YOU) if may and not sk.flips_up else segs, YOU)
    except LanguageError as e:
        prog, body = ast.Program(), _unparsable(e)
    if sk.flips_up:
        body = "翻开此角色牌，然后" + body if body else "翻开此角色牌"
    if may and body and not body.startswith("可以"):
        # a body that opens with a loop or a condition (若……) reads 可以发动：…, not 可以若……
        opens = bool(prog.body) and isinstance(prog.body[0], (ast.For, ast.Repeat, ast.If)) and not sk.flips_up
        body = ("可以发动：" if opens or body.startswith("若") else "可以") + body
    return lead, cond_text, body


def _tags(sk: Skill) -> str:
    """The labels of a skill: 锁定技, 转换技 (阳 at first), 持恒技, one not had at first."""
    tags = [
        tag
        for tag, on in (
            ("锁定技", sk.kind == "passive"),
            ("转换技，初始为阳", sk.switch),
            ("持恒技", sk.persistent),
            ("初始未拥有", sk.dormant),
            (
                catalogue.FACE_DOWN_USES[sk.while_face_down][1] if sk.while_face_down else "",
                sk.while_face_down is not None,
            ),
        )
        if on
    ]
    return "".join(f"（{t}）" for t in tags)


def describe_role(role: Role, declared: Declared = NOTHING_DECLARED, counts: tuple[int, int] = BASE_COUNTS) -> str:
    """A role's skills, one line each: 【skill】text (`declared`: the rules' events its skills may react to)."""
    return describe_skills(role.skills, declared, counts)


def describe_skills(
    skills: Sequence[Skill], declared: Declared = NOTHING_DECLARED, counts: tuple[int, int] = BASE_COUNTS
) -> str:
    """Skills, one line each: 【skill】text (a role's; or the rules' skills, every seat's, worded as a role's are: 你 is
    the seat that holds it)."""
    lines = [f"【{sk.name}】{_tags(sk)}{_moments_text(sk, declared, counts)}" for sk in skills]
    return "\n".join(lines) or "（没有技能）"


_VISIBILITY_ZH = {"public": "所有角色可见", "owner": "仅其自己可见"}
_FIELD_TYPE_ZH = {
    "player": "角色",
    "players": "角色们",
    "card": "牌",
    "cards": "牌",
    "int": "数",
    "bool": "是否",
    "color": "颜色",
    "colors": "颜色",
    "text": "文字",
    "cardname": "牌名",
}


def _field_nouns(e: EventDecl) -> dict[str, str]:
    """How the rules text calls the fields of a declared event: by their type's noun (该牌), with the field's name
    where two fields share a type."""
    types = [t for _, t in e.fields]
    return {f: "该" + _FIELD_TYPE_ZH.get(t, t) + (f"（{f}）" if types.count(t) > 1 else "") for f, t in e.fields}


def describe_declared(declared: Declared) -> str:
    """The rules' own counters and events (`counters:`, `events:`), one line each."""
    lines = []
    for c in declared.counters.values():
        top = f"至多{cn_num(c.maximum)}" if c.maximum is not None else "无上限"
        start = f"初始为{cn_num(c.initial)}"
        if c.by_role:
            start += "（" + "，".join(f"{rid}为{cn_num(n)}" for rid, n in c.by_role.items()) + "）"
        lines.append(
            f"计数【{c.zh}】：每名角色一个，至少{cn_num(c.minimum)}，{top}，{start}，{_VISIBILITY_ZH[c.visibility]}。"
        )
    for e in declared.events.values():
        fields = "、".join(f"{f}（{_FIELD_TYPE_ZH.get(t, t)}）" for f, t in e.fields)
        text = f"事件【{e.name}】：{fields}"
        if e.replaceable:
            text += "；生效前可以改换其" + "、".join(e.replaceable)
        lines.append(text + "。")
    for z in declared.zones.values():
        lines.append(f"区域【{z.name}】：" + "，".join(_zone_words(z)) + "。")
    return "\n".join(lines)


_ZONE_LOOK_ZH = {
    "everyone": "正面朝上，所有角色可见",
    "owner": "背面朝上，仅其所属角色可以查看",
    "nobody": "背面朝上，无人可以查看",
}


def _zone_words(z: ZoneDecl) -> list[str]:
    """A declared zone's rule, in words (describe 计数与事件)."""
    words = ["每名角色一个" if z.per == "player" else "所有角色共用一个", _ZONE_LOOK_ZH[z.look]]
    words.append("后置入的牌先取出" if z.order == "stack" else "先置入的牌先取出")
    if z.capacity is not None:
        where = "弃牌堆" if z.overflow == "discard" else "游戏外"
        words.append(f"至多{cn_num(z.capacity)}张，超出时最早置入的牌置入{where}")
    if z.per == "player":
        words.append("其角色死亡时弃置其中的牌" if z.at_death == "discard" else "其角色死亡时其中的牌保留")
    if z.at_end == "reveal":
        words.append("游戏结束时展示其中的牌")
    return words


def _moments_text(sk: Skill, declared: Declared = NOTHING_DECLARED, counts: tuple[int, int] = BASE_COUNTS) -> str:
    """A skill's text; a skill with several moments (`moments:`): one sentence per moment, in order, or one
    sentence with their openings joined (X后，或Y，…) when they share their condition and what they do."""
    if not sk.moments:
        return _skill_text(sk, declared, counts)
    parts = [_skill_parts(m, limit=False, declared=declared, counts=counts) for m in sk.moments]
    if len({(c, b) for _, c, b in parts}) == 1 and all(lead for lead, _, _ in parts):
        return _sentence(_with_limit("，或".join(lead for lead, _, _ in parts), sk), parts[0][1], parts[0][2])
    parts = [_skill_parts(m, declared=declared, counts=counts) for m in sk.moments]
    return "".join(_sentence(*p) for p in parts)


def describe_turn(rules: Rules) -> str:
    """The turn's skeleton as the rules declare it (`turn:`, `resolution:`): one line per phase, with its
    timing nodes and idle points (catalogue.PHASE_KINDS)."""
    model = catalogue.RESOLUTIONS[rules.resolution]
    lines = [f"结算方式：{model.zh}（{model.name}）"]
    if rules.resolution == "stack":
        fast = [t.zh_at for name, t in catalogue.TIMINGS.items() if rules.speeds.get(name, t.speed) == "fast"]
        lines.append("快速（可以响应堆叠中的牌与技能）：" + "、".join(fast) + "；其余为慢速")
    lines.append("回合开始")
    for ph in rules.phases:
        kind = catalogue.PHASE_KINDS[ph.kind]
        what = "、".join(kind.nodes)
        idle = "、".join(catalogue.TIMINGS[t].zh_at for t in kind.timings)
        text = f"{ph.label()} [{ph.id}]：时点 {what}" + (f"；空闲时点 {idle}" if idle else "")
        for setting in kind.settings:  # each setting worded by the catalogue, a left-out one at its default
            value = ph.setting(setting.name)
            if value is None and setting.rule is not None:
                value = getattr(rules, setting.rule)
            if value is not None and (value != setting.default or setting.rule is not None):
                text += "；" + setting.zh.format(cn_num(value, setting.unit))
        if ph.id in rules.first_turn_skip:
            text += "；游戏的第一个回合跳过此阶段"
        lines.append(text)
    end = "回合结束："
    if rules.hand_limit is not None:
        end += f"当前角色将手牌弃至{cn_num(rules.hand_limit)}张；"
    lines.append(end + "回合结束时，检查回合结束时的胜利条件；每轮结束时")
    return "\n".join(lines)
