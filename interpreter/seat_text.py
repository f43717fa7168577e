"""A seat's view of the game in readable Chinese, from its observation and the content's static names.

Shared by the terminal game (``interpreter/play.py``) and the browser table (``interpreter/web/``): the
names of roles, cards, skills, identities and tasks; a card as printed on it; one history record, a
decision's label, an action descriptor's menu text; the head line, the intel in transit and the result.
Everything here reads plain observation data (``GameState.observation``) and action descriptors, never the
engine's objects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from .engine.state import mask_colors
from .model.colors import collect_check_words
from .model.content import Content

COLOR_ZH = {"red": "红", "blue": "蓝", "black": "黑"}
COLOR_STYLE = {"red": "bold red", "blue": "bold blue", "black": "bold"}
ARROW = {"left": "←", "right": "→", "up": "↑"}
DIRECTION_ZH = {"left": "左（←）", "right": "右（→）", "up": "上（↑，指定目标）"}
PHASE_ZH = {
    "setup": "准备",
    "draw": "摸牌阶段",
    "play": "出牌阶段",
    "send": "情报传递阶段",
    "contest": "争夺阶段",
    "receive": "情报接收阶段",
    "turn_end": "回合结束",
}
STATUS_ZH = {
    "cannot_use_cards": "不能使用牌",
    "skills_disabled": "技能无效",
    "cannot_receive": "不能接收情报",
    "must_receive": "必须接收情报",
}
# how a game ended (its result's reason, sim.REASON_TEXT's keys), as ending_text says it to a player
REASON_ZH = {
    "collect": "有人收集了 {collect} 张{colors}情报",  # the rules' collect_count, the colours the check counts
    "death": "一名角色死亡，完成了秘密任务",
    "receive": "一名角色接收情报后达成了胜利条件",
    "turn_end": "回合结束时完成了秘密任务",
    "last_alive": "只剩一名角色存活",
    "turn_limit": "平局：达到回合上限",
    "game_end": "达到回合上限，游戏结束时有人达成了胜利条件",
    "no_players": "平局：没有玩家了",
}
USURPED_ZH = "，随后胜利被篡夺"  # a reason's "+usurp": a usurp condition replaced the winners the check found
# the fixed answers' labels are English words in the descriptors; the menu says them in Chinese
KIND_ZH = {"pass": "跳过（不使用牌或技能）", "accept": "接收情报", "decline": "不接收"}

# ---------------------------------------------------------------------- names and texts


class Names:
    """Chinese names of the content's roles, card types, skills, identities and tasks (static data only)."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.skills = {s.id: s.name for r in content.roles.values() for s in r.skills}
        self.skills.update({s.id: s.name for s in content.rules.skills})  # (every seat holds the rules' skills)
        self._faces = {e.uid: e for e in content.deck}

    def role(self, role_id: str | None) -> str:
        if role_id is None:
            return "？"
        role = self.content.roles.get(role_id)
        return role.label() if role is not None else role_id

    def card_face(self, uid: int) -> dict[str, Any] | None:
        """What is printed on deck copy `uid`, as a card of an observation (`card_text` shows it); None if the deck
        has no such copy. A history record names a card by its deck id only where the seat may know which card
        it is, so its face is no secret to that seat: a card gone from every zone the seat can see still reads
        as its face (NAME#ID(colours, arrow, lock)), not as a bare number."""
        e = self._faces.get(uid)
        ct = self.content.card_types.get(e.card_type) if e is not None else None
        if e is None or ct is None:
            return None
        return {
            "id": uid,
            "name": ct.name,
            "colors": mask_colors(e.mask),
            "direction": e.direction,
            "lockable": e.lockable,
        }

    def card_type(self, type_id: str | None) -> str:
        if type_id is None:
            return "？"
        ct = self.content.card_types.get(type_id)
        return f"【{ct.name}】" if ct is not None else type_id

    def field_type(self, event: str | None, field: str | None) -> str | None:
        """The type (of the language) of a field of an event the rules declare, None if no such event or field:
        what a value of it in a record is (a seat, a card name's id, a number …)."""
        decl = self.content.declared.events.get(event or "")
        return decl.field_types().get(field or "") if decl is not None else None

    def skill(self, skill_id: str | None) -> str:
        return f"［{self.skills.get(skill_id or '', skill_id)}］"

    def skill_text(self, skill_id: str) -> str:
        """A skill's rules text (its role's card, or the rules' for a rule skill), or "" for no such skill."""
        for role in self.content.roles.values():
            for sk in role.skills:
                if sk.id == skill_id:
                    return str(sk.text)
        for sk in self.content.rules.skills:
            if sk.id == skill_id:
                return str(sk.text)
        return ""

    def identity(self, identity_id: str | None) -> str:
        if identity_id is None:
            return "？"
        ident = self.content.identities.get(identity_id)
        return ident.name if ident is not None else identity_id

    def task(self, task_id: str | None) -> str:
        if task_id is None:
            return ""
        task = self.content.tasks.get(task_id)
        return task.name if task is not None else task_id

    def source(self, source: str | None) -> str:
        """A decision's source: a card type or a skill id, or nothing."""
        if not source:
            return ""
        if source in self.content.card_types:
            return self.card_type(source)
        if source in self.skills:
            return self.skill(source)
        return source


def card_text(card: Mapping[str, Any] | None) -> Text:
    """A card as printed on it: its name, #deck id, then (colours, arrow, 锁 if lockable), its colours styled
    (plain without colour)."""
    if card is None or card.get("id") is None:
        used = card.get("used_as") if card else None
        return Text(f"背面朝下的牌{'（作为' + used + '）' if used else ''}")
    text = Text(f"{card['name']}#{card['id']}(")
    for c in card["colors"]:
        text.append(COLOR_ZH[c], style=COLOR_STYLE[c])
    text.append(ARROW[card["direction"]] + ("锁" if card.get("lockable") else "") + ")")
    return text


def cards_text(cards: Sequence[Mapping[str, Any]] | None) -> Text:
    if not cards:
        return Text("—")
    return Text(" ").join(card_text(c) for c in cards)


def _seat(seat: int | None, me: int | None) -> str:
    if seat is None:
        return "？"
    return f"P{seat}（你）" if seat == me else f"P{seat}"


def _ids(cards: Any, cards_by_id: Mapping[int, Mapping[str, Any]], names: Names | None = None) -> str:
    """The cards named by a record's card field (deck ids) as text, or how many when the seat may not see them."""
    if cards is None:
        return "（看不到）"
    if isinstance(cards, int):
        cards = [cards]
    out = []
    for uid in cards:
        face = None
        if isinstance(uid, int) and not isinstance(uid, bool):
            face = cards_by_id.get(uid) or (names.card_face(uid) if names is not None else None)
        out.append(card_text(face).plain if face is not None else str(uid))
    return "、".join(out) if out else "—"


def cards_seen(obs: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    """Every card the observation shows with its face, by deck id (to name the cards of history records)."""
    out: dict[int, Mapping[str, Any]] = {}

    def add(c: Any) -> None:
        if isinstance(c, Mapping) and isinstance(c.get("id"), int) and "name" in c:
            out[c["id"]] = c

    for p in obs["players"]:
        for c in p["intel"]:
            add(c)
    for key in ("discard", "removed", "staging", "in_use", "removed_face_down"):
        for c in obs[key]:
            add(c)
    for c in obs["me"]["hand"]:
        add(c)
    for cards in _declared_zones(obs):
        for c in cards[2]:
            add(c)
    for k in obs["known_cards"]:
        add(k["card"])
    if obs["transit"] is not None:
        add(obs["transit"]["card"])
    return out


def _declared_zones(obs: Mapping[str, Any]) -> list[tuple[int | None, str, Sequence[Any]]]:
    """The zones the rules declare, as the observation shows them: (the player's seat, none for a shared zone;
    the zone's name; its cards, a card the seat may not see as None). None of them without declared zones."""
    out: list[tuple[int | None, str, Sequence[Any]]] = [(None, n, cs) for n, cs in (obs.get("zones") or {}).items()]
    for p in obs["players"]:
        out += [(p["seat"], n, cs) for n, cs in (p.get("zones") or {}).items()]
    return out


def zone_lines(obs: Mapping[str, Any]) -> list[str]:
    """One line per declared zone holding cards (play's screen and the browser table): the shared ones, then each
    player's; the faces this seat may see, the others as 背面朝上."""
    me = obs["seat"]
    lines = []
    for seat, name, cards in _declared_zones(obs):
        if not cards:
            continue
        whose = f"{_seat(seat, me)} 的" if seat is not None else ""
        faces = "、".join(card_text(c).plain if c is not None else "（背面朝上）" for c in cards)
        lines.append(f"{whose}{name}（{len(cards)} 张）：{faces}")
    return lines


def menu_label(d: Mapping[str, Any], names: Names, decision: str | None = None) -> str:
    """The menu text of one action descriptor: its label, in Chinese where the label is an English word.
    `decision`: the decision's kind, which says what declining it means (不锁定 at a lock, else 不选)."""
    kind = d["kind"]
    if kind in KIND_ZH:
        return KIND_ZH[kind]
    if kind == "none":
        return "不锁定" if decision == "lock" else "不选"
    if kind == "use":
        card = card_text(d["card"]).plain
        as_name = d.get("as_name")
        return f"使用 {card}" + (f" 作为【{as_name}】" if as_name and as_name != d["card"]["name"] else "")
    if kind == "skill":
        return f"发动技能 ［{d['name']}］"
    if kind == "card":
        return card_text(d["card"]).plain
    if kind == "direction":
        return DIRECTION_ZH.get(d["value"], d["label"])
    if kind == "color":
        return COLOR_ZH.get(d["value"], d["label"])
    if kind == "seat":
        return f"P{d['seat']}"
    if kind == "role":
        role = names.content.roles.get(d["value"])
        skills = "、".join(f"［{sk.name}］" for sk in role.skills) if role else ""
        return names.role(d["value"]) + (f"　技能：{skills}" if skills else "")
    if kind == "identity":
        return names.identity(d["value"])
    if kind == "task":
        return names.task(d["value"])
    return str(d["label"])


# ---------------------------------------------------------------------- the parts of a seat's screen


HEAD_SEPARATOR = " · "  # between the header's items: where a narrow terminal's screen folds it (play.render)


def head_line(obs: Mapping[str, Any]) -> str:
    """The turn, the phase, whose turn it is, the deck and discard pile, who is dying."""
    me = obs["seat"]
    phase = PHASE_ZH.get(obs["phase"], obs["phase"])
    current = _seat(obs["current"], me) if obs["current"] is not None else "—"
    items = [f"第 {obs['turn']} 回合", phase, f"当前回合：{current}", f"牌堆 {obs['deck_count']} 张"]
    items.append(f"弃牌堆 {len(obs['discard'])} 张")
    if obs["dying"] is not None:
        items.append(f"{_seat(obs['dying'], me)} 濒死")
    return HEAD_SEPARATOR.join(items)


def seat_name(seat: int | None, me: int) -> str:
    """P2, or P2（你） for the seat looking."""
    return _seat(seat, me)


def role_cell(p: Mapping[str, Any], names: Names) -> str:
    """A player's role as the seat looking knows it (``（背面朝下）`` while face down)."""
    role = names.role(p["role"]) if p["role"] is not None else "（背面朝下）"
    if p["role"] is not None and not p["role_face_up"]:
        role += "（背面朝下）"
    return role


def player_states(
    p: Mapping[str, Any], obs: Mapping[str, Any] | None = None, names: Names | None = None, referee: bool = False
) -> list[str]:
    """A player's standing in words: 死亡, 弃权, 濒死, 身份牌被拿走, statuses, then the marks kept for the game that
    this seat sees (the rules' counters among them: 护甲2; a flag by its name). Given the seat's observation, a mark
    holding a player reads as his seat (盟友：P3) and a card name by the card's name: an observation holds a player
    as his seat number, which only the history's `mark` record (`player_value`) tells from a number. `referee`:
    drawn from a seat's observation for the referee, who is nobody's seat (no （你）)."""
    state = []
    if not p["alive"]:
        state.append("弃权" if p["out"] else "死亡")
    if p["dying"]:
        state.append("濒死")
    if not p["has_identity"]:
        state.append("身份牌被拿走")
    state += [STATUS_ZH.get(x, x) for x in p["statuses"]]
    marks = p.get("marks") or {}
    if marks:
        players = player_marks(obs["history"]) if obs is not None else {}
        me = obs["seat"] if obs is not None and not referee else None  # (None: a spectator or the referee: no （你）)
        state += [mark_text(k, v, names, bool(players.get((p.get("seat"), k))), me) for k, v in marks.items()]
    return state


def player_marks(history: Sequence[Mapping[str, Any]]) -> dict[tuple[Any, Any], bool]:
    """(seat, key) → whether the mark's last value recorded in this seat's history is a player."""
    said: dict[tuple[Any, Any], bool] = {}
    for rec in history:
        if rec.get("e") == "mark":
            said[(rec.get("seat"), rec.get("key"))] = bool(rec.get("player_value"))
    return said


def mark_text(key: str, value: Any, names: Names | None = None, player: bool = False, me: int | None = None) -> str:
    """A mark kept for the game as the table shows it: a number or a value after its name, a flag by its name, a card
    as 一张牌 (an observation holds a card kept as a mark as null: its face may be hidden; a mark cleared is gone), a
    color in Chinese (红色), a card name by its name given the content's `names`, a player as his seat when the
    caller knows the value is one (`player`; `me`: the seat looking, for （你）, None for a spectator, who is
    nobody)."""
    if value is True:
        return key
    if value is None:
        return f"{key}：一张牌"
    if type(value) is int:
        return f"{key}：{_seat(value, me)}" if player else f"{key}{value}"
    return f"{key}：{mark_word(value, names)}"


def mark_word(value: Any, names: Names | None) -> str:
    """A mark's text value in words: a color's name (the observation's and the log's word for it: red) in Chinese, a
    card name by its name, any other text as it is."""
    if value in COLOR_ZH:
        return f"{COLOR_ZH[value]}色"
    if names is not None and isinstance(value, str) and value in names.content.card_types:
        return names.card_type(value)
    return str(value)


def task_line(task_id: str | None, names: Names) -> str:
    task = names.content.tasks.get(task_id or "")
    return f"秘密任务：{names.task(task_id)}" + (f" —— {task.text}" if task else "")


def role_line(role_id: str, names: Names) -> str:
    own_role = names.content.roles.get(role_id)
    skills = "、".join(f"［{sk.name}］" for sk in own_role.skills) if own_role else ""
    return f"角色：{names.role(role_id)}" + (f"　技能：{skills}" if skills else "")


RULE_SKILLS_ZH = "规则技能（每名角色都有）"


def rule_skills_line(names: Names) -> str | None:
    """The skills the rules give every seat (a house rule: docs/modding.md, "Rule skills"), by name, or None for
    rules without any: a seat's panel says them beside its role's, since no role card of the table prints them."""
    skills = names.content.rules.skills
    return f"{RULE_SKILLS_ZH}：" + "、".join(f"［{sk.name}］" for sk in skills) if skills else None


# (a hand's seat spaced from 在 as from the 的 after it: known_place)
KNOWN_WHERE = {"hand": " P{seat} 的手牌", "deck": "牌堆第 {depth} 张", "processing": "使用中"}


def known_place(k: Mapping[str, Any]) -> str:
    """Where a card the seat knows of is: （在 P1 的手牌）, a seat's name spaced from the Chinese either side as in the
    log's every record (messages.py)."""
    where = KNOWN_WHERE.get(k["zone"])
    text = where.format(seat=k.get("seat"), depth=k.get("depth", 0) + 1) if where else k["zone"]
    return f"（在{text}）"


def transit_text(obs: Mapping[str, Any], names: Names) -> Text | None:
    """The intel in transit as the seat sees it, or None when there is none."""
    me = obs["seat"]
    t = obs["transit"]
    if t is None or not t["pending"]:
        return None
    if t["card"] is not None:
        card = card_text(t["card"])
    elif t["known_as"]:
        card = Text(f"面朝下（是一张{names.card_type(t['known_as'])}）")
    else:
        card = Text("面朝下，看不到")
    info = Text(f"{_seat(t['sender'], me)} 传出，方向 {ARROW[t['direction']]}")
    if t["target"] is not None:
        info.append(f"，目标 {_seat(t['target'], me)}")
    if t["lock"] is not None:
        info.append(f"，锁定 {_seat(t['lock'], me)}")
    if intel_under_way(obs["history"]):
        info.append("，刚传出，还没有到任何人面前")
    elif t["holder"] is not None:
        info.append(f"，现在在 {_seat(t['holder'], me)} 面前")
    info.append("。情报：" + ("（面朝上）" if t["face_up"] else "")).append_text(card)
    return info


def intel_under_way(history: Sequence[Mapping[str, Any]]) -> bool:
    """Is the intel just sent and not yet in front of anyone (the skills and cards of 传出情报时)? The seat's
    history says so: its last step of the intel's journey is the sending (the engine keeps the sender as the
    holder until the intel arrives somewhere)."""
    for rec in reversed(history):
        e = rec.get("e")
        if e in ("intel_arrives", "pending_moved", "turn_start"):
            return False
        if e == "intel_sent":
            return True
    return False


def in_use_text(c: Mapping[str, Any], names: Names) -> Text:
    return card_text(c).append(f"（作为{names.card_type(c.get('used_as'))}）")


def result_text(obs: Mapping[str, Any], names: Names, history: Sequence[Mapping[str, Any]] | None = None) -> str | None:
    """The end of the game for the seat looking (who won, why, the winners' identities), or None while it goes on;
    for a spectator (``obs["seat"]`` None) the same without the seat's own verdict.

    ``history`` is the seat's whole history when ``obs`` carries only a part of it."""
    me = obs["seat"]
    result = obs["result"]
    if result is None:
        return None
    reason = ending_text(result["reason"], names)
    winners = "、".join(_seat(w, me) for w in result["winners"]) or "无人"
    # (a spectator, seat None, played no seat: neither won nor lost)
    verdict = "" if me is None else "你赢了！" if me in result["winners"] else "你没有赢。"
    ends = [r for r in (obs["history"] if history is None else history) if r.get("e") == "game_over"]
    idents = ""
    if ends and ends[-1].get("identities"):
        idents = "\n胜者身份：" + "，".join(
            f"P{s}：{names.identity(i)}" for s, i in sorted(ends[-1]["identities"].items())
        )
    return f"游戏结束：{reason}。胜者：{winners}。{verdict}{idents}"


def ending_text(reason: str, names: Names) -> str:
    """How a game ended, from its result's reason (``collect``, ``collect+usurp`` …), in the words of REASON_ZH: the
    result both tables show and the end's reveal say it so. A usurped victory says so (the winners are not the ones
    the check found), and a collect check names the rules' count (a fork may change it) and the colours the engine's
    check counts (model/colors.COLLECT_CHECKED: what set the check off, whatever colour the winners' camp collects).
    A reason the engine does not give (a log's, uploaded to the replay viewer: any text) is said as it is, never read
    as a template."""
    base, _, after = reason.partition("+")
    words = REASON_ZH.get(base)
    collect = names.content.rules.collect_count
    text = words.format(collect=collect, colors=collect_check_words()) if words is not None else base
    return text + USURPED_ZH if after == "usurp" else text


def rules_texts(obs: Mapping[str, Any], actions: Sequence[Mapping[str, Any]], names: Names) -> list[str]:
    """The rules texts a seat may want at a decision: its role's skills, the rules' skills, its cards', the offered
    roles'."""
    content = names.content
    lines = []
    roles = [obs["me"]["role"]] + [d["value"] for d in actions if d["kind"] == "role"]
    for role_id in dict.fromkeys(r for r in roles if r):
        role = content.roles.get(role_id)
        if role is not None:
            lines.append(f"{role.label()}：")
            lines += [f"  ［{sk.name}］{sk.text}" for sk in role.skills]
    if content.rules.skills:  # every seat's, whatever its role: offered beside the role's, printed on no role card
        lines.append(f"{RULE_SKILLS_ZH}：")
        lines += [f"  ［{sk.name}］{sk.text}" for sk in content.rules.skills]
    types = [c["card"] for c in obs["me"]["hand"]] + [d["as"] for d in actions if d["kind"] == "use"]
    for type_id in dict.fromkeys(types):
        ct = content.card_types.get(type_id)
        if ct is not None:
            lines.append(f"【{ct.name}】{ct.text}")
    return lines
