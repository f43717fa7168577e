"""``fengsheng play``: a game in the terminal, human seats against bots, on the step API.

A human seat is shown exactly what an agent is given: its seat's observation
(``GameState.observation``) and the legal action descriptors, as a numbered menu;
the answer is the chosen descriptor's id, checked by ``apply_action``. Nothing here
reads the engine's objects for a human: the screen is drawn from the observation
and the content's static names (roles, cards, skills, identities, tasks).

A save is the table (players, seed, human seats, bot kinds, packs) and every action
id applied so far; resuming replays them (``Table.load``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from .agents import Agent
from .agents.kinds import agent_kinds
from .engine.step import GameState, IllegalAction
from .model.content import Content

SAVE_FORMAT = "fengsheng-play"
MAX_EVENTS = 60  # the most lines of "what happened" one screen shows (the latest; a line says how many more)
SAVE_VERSION = 1

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
REASON_ZH = {
    "collect": "有人收集了三张红色或蓝色情报",
    "death": "一名角色死亡，完成了秘密任务",
    "turn_end": "回合结束时完成了秘密任务",
    "last_alive": "只剩一名角色存活",
    "turn_limit": "平局：达到回合上限",
    "no_players": "平局：没有玩家了",
}
# the fixed answers' labels are English words in the descriptors; the menu says them in Chinese
KIND_ZH = {"pass": "跳过（不使用牌或技能）", "accept": "接收情报", "decline": "不接收"}


class PlayError(Exception):
    """A save that cannot be read or replayed, a bad table: a message for the user, never a traceback."""


# ---------------------------------------------------------------------- names and texts


class Names:
    """Chinese names of the content's roles, card types, skills, identities and tasks (static data only)."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.skills = {s.id: s.name for r in content.roles.values() for s in r.skills}

    def role(self, role_id: str | None) -> str:
        if role_id is None:
            return "？"
        role = self.content.roles.get(role_id)
        return role.label() if role is not None else role_id

    def card_type(self, type_id: str | None) -> str:
        if type_id is None:
            return "？"
        ct = self.content.card_types.get(type_id)
        return f"【{ct.name}】" if ct is not None else type_id

    def skill(self, skill_id: str | None) -> str:
        return f"［{self.skills.get(skill_id or '', skill_id)}］"

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
    """A card as printed on it: 威逼#40(红黑→锁), its colors styled (plain without colour)."""
    if card is None or card.get("id") is None:
        used = card.get("used_as") if card else None
        return Text(f"背面朝下的牌{'（作为' + used + '）' if used else ''}")
    text = Text(f"{card['name']}#{card['id']}(")
    for c in card["colors"]:
        text.append(COLOR_ZH[c], style=COLOR_STYLE[c])
    text.append(ARROW[card["direction"]] + ("锁" if card.get("lockable") else "") + ")")
    return text


def _cards(cards: Sequence[Mapping[str, Any]] | None) -> Text:
    if not cards:
        return Text("—")
    return Text(" ").join(card_text(c) for c in cards)


def _seat(seat: int | None, me: int) -> str:
    if seat is None:
        return "？"
    return f"P{seat}（你）" if seat == me else f"P{seat}"


def _ids(cards: Any, cards_by_id: Mapping[int, Mapping[str, Any]]) -> str:
    """The cards named by a record's card field (deck ids) as text, or how many when the seat may not see them."""
    if cards is None:
        return "（看不到）"
    if isinstance(cards, int):
        cards = [cards]
    out = []
    for uid in cards:
        if isinstance(uid, int) and uid in cards_by_id:
            out.append(card_text(cards_by_id[uid]).plain)
        else:
            out.append(str(uid))
    return "、".join(out) if out else "—"


def event_text(
    rec: Mapping[str, Any], me: int, names: Names, cards_by_id: Mapping[int, Mapping[str, Any]]
) -> str | None:
    """One record of a seat's history (already projected for it) in readable Chinese; None for bookkeeping."""
    s = lambda k: _seat(rec.get(k), me)  # noqa: E731
    ids = lambda k: _ids(rec.get(k), cards_by_id)  # noqa: E731
    if "d" in rec:  # the seat's own decision
        return f"你选择了：{decision_label(str(rec.get('label')))}（{rec.get('prompt')}）"
    e = rec.get("e")
    if e == "start":
        return f"游戏开始：{rec['players']} 名玩家，P{rec['first']} 先行动"
    if e == "roles_shown":
        shown = [f"P{i}：{names.role(r)}" for i, r in enumerate(rec["roles"]) if r is not None]
        return "翻开的角色：" + ("，".join(shown) if shown else "无")
    if e == "turn_start":
        return f"—— 第 {rec.get('turn')} 回合：{s('seat')} 的回合 ——"
    if e in ("draw_phase", "send_phase_start", "turn_end"):
        return None
    if e == "draw":
        got = "" if rec.get("cards") is None else "：" + ids("cards")
        return f"{s('seat')} 摸了 {rec.get('n')} 张牌{got}"
    if e == "reshuffle":
        return f"弃牌堆洗成新的牌堆（{rec.get('n')} 张）"
    if e == "reveal":
        return f"展示：{ids('cards')}"
    if e == "discard":
        who = f"{s('seat')} " if rec.get("seat") is not None else ""
        return f"{who}弃置：{ids('cards')}"
    if e == "dead_discard":
        return f"{s('seat')} 死亡，弃置：{ids('cards')}"
    if e == "to_hand":
        return f"{s('seat')} 把 {ids('cards')} 加入手牌"
    if e == "give":
        return f"{s('seat')} 交给 {s('to_seat')} {rec.get('n')} 张手牌：{ids('cards')}"
    if e in ("collect", "skill_collect"):
        key = "cards" if "cards" in rec else "card"
        return f"{s('seat')} 把 {ids(key)} 置入情报区"
    if e == "hand_taken":
        return f"{s('seat')} 拿走了 {s('target')} 的手牌"
    if e == "intel_sent":
        card = "一张面朝下的情报" if rec.get("card") is None else ids("card")
        target = f"，目标 {s('target')}" if rec.get("target") is not None else ""
        lock = f"，锁定 {s('lock')}" if rec.get("lock") is not None else ""
        face = "（面朝上）" if rec.get("face_up") else ""
        return f"{s('seat')} 传出 {card}{face}，方向 {ARROW.get(rec.get('direction') or '', '?')}{target}{lock}"
    if e == "direction_set":
        target = f"，目标 {s('target')}" if rec.get("target") is not None else ""
        return f"情报方向变为 {ARROW.get(rec.get('direction') or '', '?')}{target}"
    if e == "intel_arrives":
        return f"情报传到 {s('seat')} 面前"
    if e == "intel_accepted":
        return f"{s('seat')} 接收了情报"
    if e == "pending_moved":
        return f"情报转移到 {s('seat')} 面前"
    if e in ("pending_swapped", "pending_set", "intel_replaced"):
        return f"待收情报被替换：{ids('old')} → {ids('new')}"
    if e == "received":
        return f"{s('seat')} 收到情报 {ids('card')}（来自 {s('sender')}）"
    if e == "card_used":
        target = f"，目标 {s('target')}" if rec.get("target") is not None else ""
        physical = f"（{ids('uid')}）" if rec.get("uid") is not None else ""
        return f"{s('seat')} 使用 {names.card_type(rec.get('card'))}{physical}{target}"
    if e in ("card_resolving", "card_resolved"):
        return None
    if e == "nullified":
        return f"{names.card_type(rec.get('card'))} 被抵消"
    if e == "to_deck":
        return f"{rec.get('n')} 张牌置于牌堆{'底' if rec.get('bottom') else '顶'}"
    if e == "convert":
        return f"{rec.get('source')} 视为 {names.card_type(rec.get('into'))}"
    if e == "ban":
        return "本回合禁止使用：" + "、".join(names.card_type(c) for c in rec.get("cards") or ())
    if e == "status":
        return f"{s('seat')}：{STATUS_ZH.get(rec.get('status') or '', rec.get('status'))}"
    if e == "skill_used":
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
    if e == "game_over":
        return None  # the result panel says it
    return f"{e}: " + ", ".join(f"{k}={v}" for k, v in rec.items() if k != "e")


_LABEL_ZH = {"accept": "接收情报", "decline": "不接收", "pass": "跳过", **ARROW}


def decision_label(label: str) -> str:
    """A decision record's label (the chosen descriptor's) with the engine's English words in Chinese."""
    if label in _LABEL_ZH:
        return _LABEL_ZH[label]
    for word, zh in (("use ", "使用 "), ("skill ", "发动 ")):
        if label.startswith(word):
            return zh + label[len(word) :]
    return label


def _cards_seen(obs: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
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
    for k in obs["known_cards"]:
        add(k["card"])
    if obs["transit"] is not None:
        add(obs["transit"]["card"])
    return out


def menu_label(d: Mapping[str, Any], names: Names) -> str:
    """The menu text of one action descriptor: its label, in Chinese where the label is an English word."""
    kind = d["kind"]
    if kind in KIND_ZH:
        return KIND_ZH[kind]
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


# ---------------------------------------------------------------------- the screen


def render(
    obs: Mapping[str, Any],
    actions: Sequence[Mapping[str, Any]],
    names: Names,
    since: int,
    labels: Mapping[int, str] | None = None,
) -> Group:
    """A seat's screen: the table, its own secrets, the intel in transit, what happened since ``since``, the menu.

    Drawn from the observation and the descriptors only.
    """
    me = obs["seat"]
    parts: list[Any] = []
    phase = PHASE_ZH.get(obs["phase"], obs["phase"])
    current = _seat(obs["current"], me) if obs["current"] is not None else "—"
    head = f"第 {obs['turn']} 回合 · {phase} · 当前回合：{current} · 牌堆 {obs['deck_count']} 张"
    head += f" · 弃牌堆 {len(obs['discard'])} 张"
    if obs["dying"] is not None:
        head += f" · {_seat(obs['dying'], me)} 濒死"
    parts.append(Text(head, style="bold"))

    players = RichTable(show_header=True, header_style="bold", expand=False, pad_edge=False)
    for col in ("座位", "角色", "手牌", "红/蓝/黑", "情报区", "状态"):
        players.add_column(col, overflow="fold")
    for p in obs["players"]:
        role = names.role(p["role"]) if p["role"] is not None else "（背面朝下）"
        if p["role"] is not None and not p["role_face_up"]:
            role += "（背面朝下）"
        state = []
        if not p["alive"]:
            state.append("弃权" if p["out"] else "死亡")
        if p["dying"]:
            state.append("濒死")
        if not p["has_identity"]:
            state.append("身份牌被拿走")
        state += [STATUS_ZH.get(x, x) for x in p["statuses"]]
        ic = p["intel_counts"]
        players.add_row(
            _seat(p["seat"], me),
            role,
            str(p["hand_count"]),
            f"{ic['red']}/{ic['blue']}/{ic['black']}",
            _cards(p["intel"]),
            "、".join(state) or "—",
            style="bold" if p["seat"] == me else None,
        )
    parts.append(players)

    mine = obs["me"]
    lines = [Text(f"身份：{names.identity(mine['identity'])}")]
    if mine["task"]:
        task = names.content.tasks.get(mine["task"])
        lines.append(Text(f"秘密任务：{names.task(mine['task'])}" + (f" —— {task.text}" if task else "")))
    if mine["role"]:
        own_role = names.content.roles.get(mine["role"])
        skills = "、".join(f"［{sk.name}］" for sk in own_role.skills) if own_role else ""
        lines.append(Text(f"角色：{names.role(mine['role'])}" + (f"　技能：{skills}" if skills else "")))
    lines.append(Text("手牌：").append_text(_cards(mine["hand"])))
    for seat, ident in sorted(obs["known_identities"].items()):
        lines.append(Text(f"你看过 P{seat} 的身份：{names.identity(ident)}"))
    for k in obs["known_cards"]:
        where = {"hand": f"P{k['seat']} 的手牌", "deck": f"牌堆第 {k.get('depth', 0) + 1} 张", "processing": "使用中"}
        lines.append(
            Text("你知道的牌：").append_text(card_text(k["card"])).append(f"（在{where.get(k['zone'], k['zone'])}）")
        )
    parts.append(Panel(Group(*lines), title=f"你是 P{me}", title_align="left"))

    t = obs["transit"]
    if t is not None and t["pending"]:
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
        if t["holder"] is not None:
            info.append(f"，现在在 {_seat(t['holder'], me)} 面前")
        info.append("。情报：" + ("（面朝上）" if t["face_up"] else "")).append_text(card)
        parts.append(Panel(info, title="传递中的情报", title_align="left"))
    if obs["in_use"]:
        used = Text(" ").join(
            card_text(c).append(f"（作为{names.card_type(c.get('used_as'))}）") for c in obs["in_use"]
        )
        parts.append(Text("使用中：").append_text(used))
    if obs["staging"]:
        parts.append(Text("翻开的牌：").append_text(_cards(obs["staging"])))

    cards_by_id = _cards_seen(obs)
    events = [event_text(r, me, names, cards_by_id) for r in obs["history"][since:]]
    shown = [e for e in events if e]
    if shown:
        if len(shown) > MAX_EVENTS:
            shown = [f"……（前面还有 {len(shown) - MAX_EVENTS} 条）", *shown[-MAX_EVENTS:]]
        parts.append(Panel(Text("\n".join(shown)), title="刚才发生的事", title_align="left"))

    result = obs["result"]
    if result is not None:
        reason = REASON_ZH.get(result["reason"].split("+")[0], result["reason"])
        winners = "、".join(_seat(w, me) for w in result["winners"]) or "无人"
        verdict = "你赢了！" if me in result["winners"] else "你没有赢。"
        ends = [r for r in obs["history"] if r.get("e") == "game_over"]
        idents = ""
        if ends and ends[-1].get("identities"):
            idents = "\n胜者身份：" + "，".join(
                f"P{s}：{names.identity(i)}" for s, i in sorted(ends[-1]["identities"].items())
            )
        parts.append(Panel(Text(f"游戏结束：{reason}。胜者：{winners}。{verdict}{idents}"), title="结果"))
    elif obs["decision"] is not None:
        dec = obs["decision"]
        source = names.source(dec.get("source"))
        menu = Text(f"{dec['prompt']}" + (f"（{source}）" if source else "") + "\n", style="bold")
        for i, d in enumerate(actions, 1):
            label = labels.get(d["id"]) if labels else None
            menu.append(f"  {i:>2}. {label or menu_label(d, names)}\n")
        menu.append("输入编号选择；h 帮助，s 保存，q 退出", style="dim")
        parts.append(Panel(menu, title=f"P{me}，轮到你决定", title_align="left"))
    return Group(*parts)


# ---------------------------------------------------------------------- the table


@dataclass
class Setup:
    """What a game is played with: all a save holds besides the actions."""

    players: int
    seed: int
    humans: list[int]
    bots: dict[int, str]  # seat -> agent kind
    content: list[str] = field(default_factory=list)  # --content directories
    expansions: str | None = None
    max_turns: int | None = None


def bot_seed(seed: int, seat: int) -> int:
    """Each bot's own seed, from the game's seed and its seat (so a save replays them)."""
    return seed * 1000 + seat


class Table:
    """A game at the table: the step API's state, the human seats, one agent per bot seat."""

    def __init__(self, content: Content, setup: Setup) -> None:
        self.content = content
        self.setup = setup
        self.names = Names(content)
        kinds = agent_kinds()
        self.agents: dict[int, Agent] = {}
        for seat, kind in setup.bots.items():
            if kind not in kinds:
                raise PlayError(f"unknown bot kind {kind!r} (known: {', '.join(kinds)})")
            self.agents[seat] = kinds[kind](bot_seed(setup.seed, seat), content)
        self.state = GameState(content, setup.players, setup.seed, max_turns=setup.max_turns)
        self.seen: dict[int, int] = {s: 0 for s in setup.humans}  # history length a human seat last saw

    def bot_move(self) -> None:
        """Let the bot whose turn it is answer (one action)."""
        seat = self.state.current_player()
        agent = self.agents[seat]
        actions = self.state.action_descriptors()
        obs = self.state.observation(seat) if agent.observes else None
        self.state.apply_action(agent.act(obs, actions))

    def run_bots(self) -> None:
        """Bots answer until a human seat must decide or the game is over."""
        while not self.state.is_terminal() and self.state.current_player() not in self.setup.humans:
            self.bot_move()

    def to_json(self) -> dict[str, Any]:
        s = self.setup
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "players": s.players,
            "seed": s.seed,
            "humans": s.humans,
            "bots": {str(k): v for k, v in sorted(s.bots.items())},
            "content": s.content,
            "expansions": s.expansions,
            "max_turns": s.max_turns,
            "actions": list(self.state.history()),
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), ensure_ascii=False) + "\n", encoding="utf-8")

    @staticmethod
    def read_save(path: str | Path) -> tuple[Setup, list[int]]:
        """The setup and the actions of a save file; a PlayError says what is wrong with it."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as e:
            raise PlayError(f"{path}: cannot read the save: {e.strerror or e}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise PlayError(f"{path}: not a save of fengsheng play (not JSON: {e})") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise PlayError(f'{path}: not a save of fengsheng play (no "format": "{SAVE_FORMAT}")')
        if data.get("version") != SAVE_VERSION:
            raise PlayError(
                f"{path}: save version {data.get('version')!r}; this fengsheng reads version {SAVE_VERSION}"
            )
        try:
            setup = Setup(
                players=int(data["players"]),
                seed=int(data["seed"]),
                humans=[int(h) for h in data["humans"]],
                bots={int(k): str(v) for k, v in data["bots"].items()},
                content=[str(c) for c in data.get("content") or []],
                expansions=data.get("expansions"),
                max_turns=data.get("max_turns"),
            )
            actions = [int(a) for a in data["actions"]]
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise PlayError(f"{path}: a field of the save is missing or malformed ({e})") from None
        return setup, actions

    def replay(self, actions: Sequence[int]) -> None:
        """Apply a save's actions; each bot also answers, so that its own generator stays in step."""
        for n, action in enumerate(actions):
            if self.state.is_terminal():
                raise PlayError(f"the save has {len(actions) - n} action(s) after the end of the game")
            seat = self.state.current_player()
            agent = self.agents.get(seat)
            if agent is not None:
                actions_now = self.state.action_descriptors()
                agent.act(self.state.observation(seat) if agent.observes else None, actions_now)
            try:
                self.state.apply_action(action)
            except IllegalAction:
                raise PlayError(
                    f"action {n + 1} of the save ({action}) is not legal in this game: "
                    "was it saved with other content packs or another version?"
                ) from None
        for seat in self.setup.humans:  # a resumed seat is shown what happened since its last decision
            history = self.state.observation(seat)["history"]
            own = [i for i, r in enumerate(history) if "d" in r]
            self.seen[seat] = own[-1] if own else 0


# ---------------------------------------------------------------------- the loop

HELP = (
    "输入菜单中的编号并按回车来选择。\n"
    "  h 或 ?  这段帮助\n"
    "  s       保存游戏（之后用 fengsheng play --resume 文件 继续）\n"
    "  q       退出（会先问是否保存）\n"
    "Ctrl-C 也会询问是否保存；Ctrl-D（输入结束）直接退出。"
)


def texts(obs: Mapping[str, Any], actions: Sequence[Mapping[str, Any]], names: Names) -> str:
    """The rules texts a seat may want at a decision: its role's skills, its cards', the offered roles'."""
    content = names.content
    lines = []
    roles = [obs["me"]["role"]] + [d["value"] for d in actions if d["kind"] == "role"]
    for role_id in dict.fromkeys(r for r in roles if r):
        role = content.roles.get(role_id)
        if role is not None:
            lines.append(f"{role.label()}：")
            lines += [f"  ［{sk.name}］{sk.text}" for sk in role.skills]
    types = [c["card"] for c in obs["me"]["hand"]] + [d["as"] for d in actions if d["kind"] == "use"]
    for type_id in dict.fromkeys(types):
        ct = content.card_types.get(type_id)
        if ct is not None:
            lines.append(f"【{ct.name}】{ct.text}")
    return "\n".join(lines)


class _EOF(Exception):
    """The input ended (Ctrl-D, or the end of a piped script)."""


class Terminal:
    """The loop of a game in the terminal: screens for the human seats, the bots in between."""

    def __init__(
        self,
        table: Table,
        console: Console,
        read_line: Callable[[], str],
        save_path: str,
        hot_seat: bool,
        echo: bool = False,
    ) -> None:
        self.table = table
        self.console = console
        self._read_line = read_line
        self.save_path = save_path
        self.hot_seat = hot_seat
        self.echo = echo  # print each answer read (input from a pipe or a script is not echoed by a terminal)
        self.last_human: int | None = None

    def read(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=False, highlight=False, soft_wrap=True)
        self.console.file.flush()
        line = self._read_line()
        if line == "":
            raise _EOF
        if self.echo:
            self.console.print(line.rstrip("\n"), markup=False, highlight=False, soft_wrap=True)
        return line.strip()

    def offer_save(self, why: str) -> None:
        """Ask whether to save before quitting; EOF or a second Ctrl-C there quits without saving."""
        try:
            answer = self.read(f"{why}保存游戏吗？输入文件名，直接回车保存到 {self.save_path}，n 不保存：")
        except (_EOF, KeyboardInterrupt):
            self.console.print("\n没有保存。", markup=False, soft_wrap=True)
            return
        if answer.lower() in ("n", "no", "否"):
            self.console.print("没有保存。", markup=False, soft_wrap=True)
            return
        self.do_save(answer or self.save_path)

    def do_save(self, path: str) -> bool:
        try:
            self.table.save(path)
        except OSError as e:
            self.console.print(f"保存失败：{path}: {e.strerror or e}", markup=False, soft_wrap=True)
            return False
        self.console.print(
            f"已保存到 {path}（{len(self.table.state.history())} 个决定）。继续：fengsheng play --resume {path}",
            markup=False,
            soft_wrap=True,
        )
        return True

    def switch_to(self, seat: int) -> None:
        """Between two human seats: clear the screen and wait for the next player."""
        if self.last_human is not None and self.last_human != seat:
            self.clear()
            self.console.rule()
            self.read(f"请把键盘交给 P{seat}。P{seat} 准备好后按回车：")
            self.clear()
        self.last_human = seat

    def clear(self) -> None:
        """Clear the screen and the terminal's scrollback (so the next person cannot scroll up to a hand)."""
        if self.console.is_terminal:
            self.console.file.write("\x1b[H\x1b[2J\x1b[3J")
            self.console.file.flush()

    def decide(self) -> bool:
        """Show the current human seat its screen and apply its answer; False if the player quits."""
        table = self.table
        seat = table.state.current_player()
        if self.hot_seat:
            self.switch_to(seat)
        obs = table.state.observation(seat)
        actions = table.state.action_descriptors()
        self.console.print(render(obs, actions, table.names, table.seen[seat]))
        table.seen[seat] = len(obs["history"])
        n = len(actions)
        while True:
            answer = self.read(f"P{seat} 选择 [1-{n}]：")
            low = answer.lower()
            if low in ("h", "?", "help"):
                self.console.print(HELP, markup=False, soft_wrap=True)
                self.console.print(texts(obs, actions, table.names), markup=False, soft_wrap=True)
            elif low == "s":
                path = self.read(f"保存到（直接回车：{self.save_path}）：") or self.save_path
                self.do_save(path)
            elif low == "q":
                self.offer_save("")
                return False
            elif low == "":
                self.console.print(f"请输入 1 到 {n} 之间的编号（h 帮助）。", markup=False, soft_wrap=True)
            else:
                try:
                    choice = int(answer)
                except ValueError:
                    self.console.print(
                        f"“{answer[:40]}” 不是编号：请输入 1 到 {n} 之间的数字（h 帮助）。",
                        markup=False,
                        soft_wrap=True,
                    )
                    continue
                if not 1 <= choice <= n:
                    self.console.print(
                        f"没有第 {choice} 项：请输入 1 到 {n} 之间的编号。", markup=False, soft_wrap=True
                    )
                    continue
                table.state.apply_action(actions[choice - 1]["id"])  # checked by the step API
                return True

    def play(self) -> int:
        """Play to the end (0), or until the player quits (1)."""
        table = self.table
        try:
            while True:
                table.run_bots()
                if table.state.is_terminal():
                    break
                if not self.decide():
                    return 1
        except KeyboardInterrupt:
            self.console.print("")
            self.offer_save("已中断。")
            return 1
        except _EOF:
            self.console.print("\n输入已结束，退出（没有保存；下次可以先输入 s 保存）。", markup=False, soft_wrap=True)
            return 1
        self.show_end()
        return 0

    def show_end(self) -> None:
        """The final screen for every human seat (each sees its own)."""
        for seat in self.table.setup.humans:
            obs = self.table.state.observation(seat)
            if len(self.table.setup.humans) > 1:
                self.console.rule(f"P{seat}", characters="=")
            self.console.print(render(obs, (), self.table.names, self.table.seen[seat]))
            self.table.seen[seat] = len(obs["history"])
