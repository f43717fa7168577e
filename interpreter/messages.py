"""The message catalogue: one sentence per record of a game's history, one per decision and one per question.

The terminal table (``play.py``), the browser table and the replay viewer (``web/view.py``) all word an event
with :func:`event_text` and a decision with :func:`decision_text`, so the same event reads the same everywhere.
Every line names its subject (who drew, who discarded, who showed); a decision echoes the answer as its option
read in the menu (不锁定, not 不); a question names who asks and through which card or skill
(:func:`prompt_text`: ``P4 的［<skill>］：<its question>``). Everything here reads records already projected
for the seat looking, and the decision descriptor of its observation, never the engine's objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .catalogue import TIMINGS
from .seat_text import ARROW, COLOR_ZH, DIRECTION_ZH, STATUS_ZH, Names, _ids, _seat, mark_word

# the fixed answers' labels are English words in a decision record; the menu says them so (seat_text.menu_label)
_LABEL_ZH = {"accept": "接收情报", "decline": "不接收", "pass": "跳过", **DIRECTION_ZH}
# a declined optional choice (the option None, labelled 不): what declining meant, by the decision's kind
_NONE_ZH = {"lock": "不锁定", "death_give_target": "不交出手牌"}
# the decisions the turn's own rules ask (no card or skill): what asks them, in words
_RULES_ASK = "规则"


def decision_label(label: str, kind: str | None = None) -> str:
    """A decision record's label (the chosen option's) as its option read in the menu (seat_text.menu_label)."""
    if label == "不":
        return _NONE_ZH.get(kind or "", "不选")
    if label in _LABEL_ZH:
        return _LABEL_ZH[label]
    for word, zh in (("use ", "使用 "), ("skill ", "发动技能 ")):
        if label.startswith(word):
            return zh + label[len(word) :]
    return label


def prompt_zh(prompt: object) -> str:
    """A decision's prompt as shown: an idle point's is its timing's name (play_phase), said in Chinese."""
    timing = TIMINGS.get(prompt) if isinstance(prompt, str) else None
    return timing.zh_at if timing is not None else str(prompt)


def asker_text(decision: Mapping[str, Any], me: int, names: Names) -> str:
    """Who asks a decision, and through what: ``P4 的［<skill>］``, ``你的【<card>】``, or ``规则`` when the turn's own
    rules ask (send, receive, an idle point, the hand limit). From the decision descriptor alone."""
    asker = decision.get("asker")
    if asker is None:
        return _RULES_ASK
    who = "你的" if asker == me else f"P{asker} 的"
    via = names.skill(decision["skill"]) if decision.get("skill") else names.source(decision.get("source"))
    return who + (via or "效果")


def prompt_text(obs: Mapping[str, Any], names: Names) -> str:
    """The decision's question, after who asks it and through which card or skill (asker_text)."""
    dec = obs["decision"]
    return f"{asker_text(dec, obs['seat'], names)}：{prompt_zh(dec['prompt'])}"


def asker_rules(obs: Mapping[str, Any], names: Names) -> list[str]:
    """The rules text of the skill or card that asks the seat's decision (first of the texts a key or a click
    away), or nothing when the rules ask."""
    dec = obs["decision"]
    if dec is None or dec.get("asker") is None:
        return []
    if dec.get("skill"):
        text = names.skill_text(dec["skill"])
        return [f"{names.skill(dec['skill'])}（{asker_text(dec, obs['seat'], names)}）{text}"] if text else []
    ct = names.content.card_types.get(dec.get("source") or "")
    return [f"【{ct.name}】{ct.text}"] if ct is not None else []


def decision_text(rec: Mapping[str, Any], me: int) -> str:
    """A decision record (a seat's own, or any in the referee's log): who answered, the answer as the menu said
    it, and the question."""
    who = "你" if rec.get("seat") == me else f"P{rec.get('seat')} "
    answer = decision_label(str(rec.get("label")), str(rec.get("d")))
    return f"{who}选择了：{answer}（问：{prompt_zh(rec.get('prompt'))}）"


def event_text(
    rec: Mapping[str, Any], me: int, names: Names, cards_by_id: Mapping[int, Mapping[str, Any]]
) -> str | None:
    """One record of a seat's history (already projected for it) in readable Chinese; None for bookkeeping and
    for a record whose event another line already says (skill_collect: the collect's own line)."""
    s = lambda k: _seat(rec.get(k), me)  # noqa: E731
    ids = lambda k: _ids(rec.get(k), cards_by_id, names)  # noqa: E731
    # "，目标 P2": an optional part of a line, said only when the record has it
    part = lambda word, k: f"，{word} {s(k)}" if rec.get(k) is not None else ""  # noqa: E731
    if "d" in rec:  # a decision
        return decision_text(rec, me)
    e = rec.get("e")
    if e == "start":
        return f"游戏开始：{rec['players']} 名玩家，P{rec['first']} 先行动"
    if e == "roles":  # the deal of roles (the referee's log only)
        return "发到的角色：" + "，".join(f"P{i}：{names.role(r)}" for i, r in enumerate(rec.get("roles") or ()))
    if e == "roles_shown":
        shown = [f"P{i}：{names.role(r)}" for i, r in enumerate(rec["roles"]) if r is not None]
        return "翻开的角色：" + ("，".join(shown) if shown else "无")
    if e == "turn_start":
        return f"—— 第 {rec.get('turn')} 回合：{s('seat')} 的回合 ——"
    if e in ("draw_phase", "send_phase_start", "turn_end", "skill_collect", "card_resolving", "card_resolved"):
        return None
    if e == "draw":
        got = "" if rec.get("cards") is None else "：" + ids("cards")
        return f"{s('seat')} 摸了 {rec.get('n')} 张牌{got}"
    if e == "reshuffle":
        return f"弃牌堆洗成新的牌堆（{rec.get('n')} 张）"
    if e == "reveal":
        if rec.get("private"):  # 查看: shown to some seats only (the reader among them), not to the table
            # a seat's name between Chinese words has a space either side, as in every record's words (从 P2 的手牌中)
            whose = f" {s('seat')} 的" if rec.get("seat") is not None else ""
            return f"查看{whose}牌（只给查看的人看）：{ids('cards')}"
        return f"{s('seat')} 展示：{ids('cards')}" if rec.get("seat") is not None else f"翻开展示：{ids('cards')}"
    if e == "discard":
        return f"{s('seat')} 弃置：{ids('cards')}" if rec.get("seat") is not None else f"置入弃牌堆：{ids('cards')}"
    if e == "dead_discard":
        return f"{s('seat')} 死亡，弃置：{ids('cards')}"
    if e == "to_hand":
        return f"{s('seat')} 把 {ids('cards')} 加入手牌"
    if e == "to_zone":  # a zone the rules declare: a player's, or the table's (seat none)
        whose = f" {s('seat')} 的" if rec.get("seat") is not None else ""  # (a space either side, as above)
        return f"{ids('cards')} 被置入{whose}{rec.get('zone')}"
    if e == "give":
        return f"{s('seat')} 交给 {s('to_seat')} {rec.get('n')} 张手牌：{ids('cards')}"
    if e == "collect":
        return f"{s('seat')} 把 {ids('cards')} 置入情报区"
    if e == "hand_taken":
        return f"{s('seat')} 从 {s('target')} 的手牌中拿走了牌"  # (one card or more: the hand is not said to be gone)
    if e == "intel_sent":
        card = "一张面朝下的情报" if rec.get("card") is None else ids("card")
        face = "（面朝上）" if rec.get("face_up") else ""
        arrow = ARROW.get(rec.get("direction") or "", "?")
        return f"{s('seat')} 传出 {card}{face}，方向 {arrow}{part('目标', 'target')}{part('锁定', 'lock')}"
    if e == "direction_set":
        arrow = ARROW.get(rec.get("direction") or "", "?")
        return f"{s('seat')} 传出的情报方向变为 {arrow}{part('目标', 'target')}"
    if e == "lock_set":
        return f"{s('seat')} 传出的情报锁定 {s('target')}"
    if e == "intel_arrives":
        return f"情报传到 {s('seat')} 面前"
    if e == "intel_accepted":
        return f"{s('seat')} 接收了情报"
    if e == "pending_moved":
        return f"情报转移到 {s('seat')} 面前"
    if e in ("pending_swapped", "pending_set", "intel_replaced"):
        whose = f"{s('seat')} 的情报" if e == "intel_replaced" else "待收情报"
        return f"{whose}被替换：{ids('old')} → {ids('new')}"
    if e == "received":
        return f"{s('seat')} 收到情报 {ids('card')}（来自 {s('sender')}）"
    if e == "card_used":
        physical = f"（{ids('uid')}）" if rec.get("uid") is not None else ""
        return f"{s('seat')} 使用 {names.card_type(rec.get('card'))}{physical}{part('目标', 'target')}"
    if e == "nullified":
        whose = f"{s('seat')} 的" if rec.get("seat") is not None else ""
        return f"{whose}{names.card_type(rec.get('card'))} 被抵消"
    if e == "to_deck":
        return f"{rec.get('n')} 张牌置于牌堆{'底' if rec.get('bottom') else '顶'}"
    if e == "convert":
        return f"本回合手牌中的 {names.card_type(rec.get('source'))} 视为 {names.card_type(rec.get('into'))}"
    if e == "ban":
        return "本回合禁止使用：" + "、".join(names.card_type(c) for c in rec.get("cards") or ())
    if e == "status":
        return f"{s('seat')}：{STATUS_ZH.get(rec.get('status') or '', rec.get('status'))}"
    if e == "skill_used":
        if rec.get("skill") is None:  # a face-down role's skill, announced: which one is its owner's secret
            return f"{s('seat')} 的背面角色牌发动了一项技能"
        return f"{s('seat')} 发动 {names.skill(rec.get('skill'))}"
    if e == "role_flipped":
        state = "翻开" if rec.get("face_up") else "盖伏"
        return f"{s('seat')} 的角色{state}：{names.role(rec.get('role'))}"
    if e == "role_replaced":
        return f"{s('seat')} 的角色 {names.role(rec.get('old'))} 换成了 {names.role(rec.get('new'))}"
    if e == "identity_seen":
        return f"{s('seat')} 查看了 {s('of')} 的身份"
    if e == "identity_taken":
        return f"{s('seat')} 拿走了 {s('of')} 的身份牌"
    if e == "declare":
        return f"{s('seat')} 宣言 {names.card_type(rec.get('value'))}"
    if e == "dying":
        return f"{s('seat')} 进入濒死状态"
    if e == "saved":
        return f"{s('seat')} 脱离濒死"
    if e == "died":
        return f"{s('seat')} 死亡"
    if e == "abstain":
        return f"{s('seat')} 无法传出情报，弃权"
    if e == "usurp":
        return f"{s('seat')} 篡夺了胜利"
    if e == "victory":
        return "胜利：" + "、".join(_seat(w, me) for w in rec.get("winners") or ())
    if e in ("game_over", "game_start", "game_end"):
        return None  # the result panel says it; the moments 游戏开始时 and 游戏结束时 (the start line says it)
    return _pack_event_text(rec, me, names, cards_by_id)


def _pack_event_text(
    rec: Mapping[str, Any], me: int, names: Names, cards_by_id: Mapping[int, Mapping[str, Any]]
) -> str | None:
    """The records of the primitives that packs and a few skills use (a mark or counter of the pack's own words, a
    binding on who receives the intel, 转换技, 改判, hidden picks); the raw record only for an event no catalogue
    entry names (tests/test_messages.py checks every one of catalogue.EVENTS reads as a sentence)."""
    e = rec.get("e")
    s = lambda k: _seat(rec.get(k), me)  # noqa: E731
    ids = lambda k: _ids(rec.get(k), cards_by_id, names)  # noqa: E731
    if e == "round_end":
        return "—— 一轮结束 ——"
    if e == "receivers_set":  # who must or may not receive the intel in transit (a secret binding: its seat alone)
        bound = (("must", "必须"), ("cannot", "不能"))
        said = "；".join(
            f"{'、'.join(_seat(p, me) for p in rec[k])} {verb}接收这份情报" for k, verb in bound if rec.get(k)
        )
        return said or None  # (an effect that bound nobody: no empty line)
    if e == "intel_protected":
        return "这份情报在接收前不能被使用：" + "、".join(names.card_type(c) for c in rec.get("cards") or ())
    if e == "mark":  # a mark kept for the game (keep_mark): its key is the pack's own word
        value, key = rec.get("value"), rec.get("key")
        if rec.get("card_value"):  # (a card: its face may be hidden, so the record does not name it)
            return f"{s('seat')} 的标记「{key}」：一张牌"
        if value is None:
            return f"{s('seat')} 的标记「{key}」清除了"
        if value is True:
            return f"{s('seat')} 有了标记「{key}」"
        if type(value) is int and rec.get("player_value"):
            return f"{s('seat')} 的标记「{key}」：{_seat(value, me)}"
        return f"{s('seat')} 的标记「{key}」：{value if type(value) is int else mark_word(value, names)}"
    if e == "counter_changed":
        return f"{s('seat')} 的「{rec.get('counter')}」：{rec.get('before')} → {rec.get('after')}"
    if e == "skill_changed":
        return f"{s('seat')} {'获得' if rec.get('has') else '失去'}了技能 {names.skill(rec.get('skill'))}"
    if e == "skill_switched":
        return f"{s('seat')} 的 {names.skill(rec.get('skill'))} 转为{'阴' if rec.get('state') == 'yin' else '阳'}"
    if e == "field_replaced":  # 改判: a card (old, new) or another value (before, after), as its field's type reads
        event, field = rec.get("event"), rec.get("field")
        if "old" in rec:
            was, now = ids("old"), ids("new")
        else:
            kind = names.field_type(event, field)
            was, now = (_field_value(rec.get(k), kind, me, names) for k in ("before", "after"))
        return f"{s('seat')} 改写了「{event}」的 {field}：{was} → {now}"
    if e == "picks_revealed":
        return f"{'、'.join(_seat(p, me) for p in rec.get('seats') or ())} 选的牌一齐翻开：{ids('cards')}"
    return f"{e}: " + ", ".join(f"{k}={v}" for k, v in rec.items() if k != "e")


def _field_value(value: Any, kind: str | None, me: int, names: Names) -> str:
    """A declared event's field value as a record holds it (events.py's _plain), in words by the field's type: a
    player by seat, a card name by its name, a colour in Chinese, a list item by item (a tuple in a seat's
    observation, whose history is frozen), anything else as it is."""
    if isinstance(value, (list, tuple)):  # (players, colors: each item of the one type)
        item = kind[:-1] if kind is not None and kind.endswith("s") else kind
        return "、".join(_field_value(v, item, me, names) for v in value) or "无"
    if value is None:
        return "无"
    if kind == "player" and type(value) is int:
        return _seat(value, me)
    if kind == "cardname" and isinstance(value, str):
        return names.card_type(value)
    if kind == "color" and isinstance(value, str):
        return COLOR_ZH.get(value, value)
    return str(value)


def setup_text(rec: Mapping[str, Any], names: Names) -> str:
    """The referee's record of the deal: each seat's identity and secret task, the deck's size."""
    tasks = rec.get("tasks") or []
    seats = []
    for s, ident in enumerate(rec.get("identities") or []):
        task = tasks[s] if s < len(tasks) else None
        seats.append(f"P{s} {names.identity(ident)}" + (f"（{names.task(task)}）" if task else ""))
    return f"发牌（只有裁判看得到）：{'，'.join(seats)}；牌堆 {len(rec.get('deck') or [])} 张"
