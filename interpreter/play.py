"""``fengsheng play``: a game in the terminal, human seats against bots, on the step API.

A human seat is shown exactly what an agent is given: its seat's observation
(``GameState.observation``) and the legal action descriptors, as a numbered menu;
the answer is the chosen descriptor's id, checked by ``apply_action``. Nothing here
reads the engine's objects for a human: the screen is drawn from the observation
and the content's static names (roles, cards, skills, identities, tasks).

A save is the table (players, human seats, bot kinds, packs) and, sealed with the user's key
(sealed.py), the seed and every action id applied so far; resuming replays them
(``Table.read_save``). A save names its packs as a log's header does (``content.packs.log_pack_ref``:
a bundled pack by id, another relative to the save's folder), so a save moved with its pack, or made
in another checkout, resumes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.text import Text

from . import jsonread
from .agents import Agent
from .agents.external import BotError
from .agents.kinds import default_kind, factory_of
from .engine.pins import Pins
from .engine.step import EngineError, GameState, IllegalAction
from .messages import event_text, prompt_text
from .model.content import Content
from .screen_table import FittedTable, Folded, ScreenTable
from .sealed import KEY_FILE, SealError, data_dir, open_sealed, seal, user_key
from .seat_text import (
    HEAD_SEPARATOR,
    Names,
    card_text,
    cards_seen,
    cards_text,
    head_line,
    in_use_text,
    known_place,
    menu_label,
    player_states,
    result_text,
    role_cell,
    role_line,
    rule_skills_line,
    seat_name,
    task_line,
    transit_text,
    zone_lines,
)
from .seeds import SEED_RANGE, agent_seed, is_seed
from .suggest import folder_hint
from .summary import game_summary

SAVE_FORMAT = "fengsheng-play"
MAX_EVENTS = 60  # the most lines of "what happened" one screen shows (the latest; a line says how many more)
SAVE_VERSION = 2


class PlayError(Exception):
    """A save that cannot be read or replayed, a bad table: a message for the user, never a traceback."""


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
    # (folded between its items: the terminal broke 弃牌堆 1 over 张)
    parts: list[Any] = [Folded(Text(head_line(obs), style="bold"), between=(HEAD_SEPARATOR,))]

    columns = ("座位", "角色", "手牌", "红/蓝/黑", "情报区", "状态")
    players, narrow = ScreenTable(columns), ScreenTable(columns[:4] + columns[5:])
    intel = []  # (the narrow layout: each intel area on a line of its own under the table)
    for p in obs["players"]:
        ic = p["intel_counts"]
        row: list[str | Text] = [
            seat_name(p["seat"], me),
            role_cell(p, names),
            str(p["hand_count"]),
            f"{ic['red']}/{ic['blue']}/{ic['black']}",
            cards_text(p["intel"]),
            "、".join(player_states(p, obs, names)) or "—",
        ]
        style = "bold" if p["seat"] == me else None
        players.add_row(*row, style=style)
        narrow.add_row(*row[:4], *row[5:], style=style)
        if p["intel"]:
            intel.append(Text(f"{row[0]} 的情报区：").append_text(cards_text(p["intel"])))
    # a screen too narrow for the table with names and cards whole: the intel areas under it
    parts.append(FittedTable(players, narrower=Group(FittedTable(narrow), Folded(Text("\n").join(intel)))))

    mine = obs["me"]
    lines = [Text(f"身份：{names.identity(mine['identity'])}")]
    if mine["task"]:
        lines.append(Text(task_line(mine["task"], names)))
    if mine["role"]:
        lines.append(Text(role_line(mine["role"], names)))
    rule_skills = rule_skills_line(names)
    if rule_skills is not None:
        lines.append(Text(rule_skills))
    lines.append(Text("手牌：").append_text(cards_text(mine["hand"])))
    for seat, ident in sorted(obs["known_identities"].items()):
        lines.append(Text(f"你看过 P{seat} 的身份：{names.identity(ident)}"))
    for k in obs["known_cards"]:
        lines.append(Text("你知道的牌：").append_text(card_text(k["card"])).append(known_place(k)))
    mine_text = Folded(Text("\n").join(lines))  # (one text: one layout)
    parts.append(Panel(mine_text, title=f"你是 P{me}", title_align="left"))

    transit = transit_text(obs, names)
    if transit is not None:
        parts.append(Panel(Folded(transit), title="传递中的情报", title_align="left"))
    if obs["in_use"]:
        used = Text(" ").join(in_use_text(c, names) for c in obs["in_use"])
        parts.append(Text("使用中：").append_text(used))
    if obs["staging"]:
        parts.append(Text("翻开的牌：").append_text(cards_text(obs["staging"])))
    zones = zone_lines(obs)
    if zones:  # the zones the rules declare, as this seat sees them
        parts.append(Panel(Folded(Text("\n".join(zones))), title="区域", title_align="left"))

    cards_by_id = cards_seen(obs)
    events = [event_text(r, me, names, cards_by_id) for r in obs["history"][since:]]
    shown = [e for e in events if e]
    if shown:
        if len(shown) > MAX_EVENTS:
            shown = [f"……（前面还有 {len(shown) - MAX_EVENTS} 条）", *shown[-MAX_EVENTS:]]
        parts.append(Panel(Folded(Text("\n".join(shown))), title="刚才发生的事", title_align="left"))

    result = result_text(obs, names)
    if result is not None:
        parts.append(Panel(Folded(Text(result)), title="结果"))
    elif obs["decision"] is not None:
        menu = Text(prompt_text(obs, names) + "\n", style="bold")
        for i, d in enumerate(actions, 1):
            label = labels.get(d["id"]) if labels else None
            menu.append(f"  {i:>2}. {label or menu_label(d, names, obs['decision'].get('kind'))}\n")
        menu.append("输入编号选择；h 帮助与规则文字（先是提问的技能或牌），s 保存，q 退出", style="dim")
        parts.append(Panel(Folded(menu), title=f"P{me}，轮到你决定", title_align="left"))
    return Group(*parts)


# ---------------------------------------------------------------------- the table


@dataclass
class Setup:
    """What a game is played with: all a save holds besides the actions."""

    players: int
    seed: int
    humans: list[int]
    bots: dict[int, str]  # seat -> agent kind
    content: list[str] = field(default_factory=list)  # --content directories (a save names them portably)
    expansions: str | None = None
    max_turns: int | None = None
    # --role: a role id dealt to the first person's seat (engine/pins.py), for a designer playtesting a new role;
    # kept in the save's sealed part, as the seed is (at a hot-seat table it is one seat's secret)
    role: str | None = None
    # the seat `role` is dealt to, where it is not the first person's (fengsheng serve: the host's seat, or the one
    # the host named); None: the first person's, as play deals it (a save does not keep it: play never sets it)
    role_seat: int | None = None


def bot_seed(seed: int, seat: int) -> int:
    """Each bot's own seed, from the game's seed and its seat (so a save replays them): a one-way hash
    (seeds.derive), so a bot's seed, which a bot in another process is handed, leads back to the game's only
    by trying seeds, out of reach for a table's fresh seed."""
    return agent_seed(seed, seat)  # as a batch's bots: the game simulate --game-seed plays with these bots


SEAL_PAD = 4096  # a save's sealed part is a multiple of this (Table.to_json: its length tells no count of actions)
MAX_SAVE_BYTES = 64 * 1024 * 1024  # a save of 100,000 decisions is well under 2 MB


def _brief(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _read_save_json(path: str | Path) -> dict[str, Any]:
    """A save file's JSON object, read bounded (size, nesting, numbers); a PlayError saying what is wrong."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SAVE_BYTES + 1)
    except OSError as e:
        hint = folder_hint(str(path), files=True) if isinstance(e, FileNotFoundError) else None
        raise PlayError(f"{path}: cannot read the save: {e.strerror or e}" + (f": {hint}" if hint else "")) from None
    if len(raw) > MAX_SAVE_BYTES:
        raise PlayError(f"{path}: not a save of fengsheng play (larger than {MAX_SAVE_BYTES // 2**20} MB)")
    try:
        data = jsonread.loads(raw)
    except jsonread.JsonInputError as e:
        if e.line:
            where = f"{path}:{e.line}:{e.column}"
            raise PlayError(f"{where}: not a save of fengsheng play (not JSON: {e.reason})") from None
        raise PlayError(f"{path}: not a save of fengsheng play ({e.reason})") from None
    if not isinstance(data, dict):
        raise PlayError(f'{path}: not a save of fengsheng play (no "format": "{SAVE_FORMAT}")')
    return data


def _schema_problem(data: dict[str, Any]) -> str | None:
    """The first way `data` breaks schema/save.schema.json, with where, or None."""
    import jsonschema

    from .paths import SCHEMA_DIR

    schema = json.loads((SCHEMA_DIR / "save.schema.json").read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    where = "/".join(str(p) for p in e.absolute_path) or "the save"
    return f"{where}: {_brief_message(e.message)} (schema/save.schema.json)"


def _brief_message(text: str) -> str:
    """A schema message with a long value in it cut in the middle: its start and what is said of it stay."""
    return text if len(text) <= 200 else text[:80] + "…" + text[-80:]


def _table_problem(data: dict[str, Any]) -> str | None:
    """What makes the table of a schema-valid save impossible to seat: a seat beyond the table, a seat both a
    person's and a bot's or nobody's, a bot spec no bot answers to."""
    players, humans = data["players"], data["humans"]
    bots = {int(k): v for k, v in data["bots"].items()}
    outside = sorted(s for s in [*humans, *bots] if s >= players)
    if outside:
        return f"seat {outside[0]} at a table of {players} (P0 … P{players - 1})"
    both = sorted(set(humans) & set(bots))
    if both:
        return f"P{both[0]} is both a person's seat (humans) and a bot's (bots)"
    empty = sorted(set(range(players)) - set(humans) - set(bots))
    if empty:
        return f"P{empty[0]} is nobody's seat: neither in humans nor in bots"
    for seat, spec in sorted(bots.items()):
        try:
            factory_of(spec)
        except ValueError as e:
            return f"bots/{seat}: {e}"
    return None


def _unseal(path: str | Path, sealed: object) -> dict[str, Any]:
    """The referee part of a save (its seed and actions), opened with the user's key; a PlayError that says what
    to do when the key is not here (the save was written on another machine or by another user)."""
    if not isinstance(sealed, str):
        raise PlayError(f"{path}: a field of the save is missing or malformed (no sealed part)")
    try:
        key = user_key(create=False)
    except (OSError, SealError) as e:
        raise PlayError(f"{path}: cannot read the save key: {e}") from None
    where = data_dir() / KEY_FILE
    if key is None:
        raise PlayError(
            f"{path}: the save is sealed with the save key of the user who wrote it, and there is none here "
            f"({where}): copy that user's {KEY_FILE} there, or point FENGSHENG_DATA_DIR at the folder that holds it"
        )
    try:
        opened = jsonread.loads(open_sealed(key, sealed))
    except SealError as e:
        raise PlayError(f"{path}: cannot open the save's sealed part with the key in {where}: {e}") from None
    except jsonread.JsonInputError:
        raise PlayError(f"{path}: the save's sealed part does not hold a seed and actions") from None
    if not isinstance(opened, dict):
        raise PlayError(f"{path}: the save's sealed part does not hold a seed and actions")
    return opened


def _check_table(path: str | Path, data: dict[str, Any], table: object) -> None:
    """A PlayError naming the fields of the table in the open (players, humans, bots, expansions, max_turns) that
    differ from the copy sealed with the seed: an edit of them would resume another game than the one saved (its
    bots of another kind, another turn limit, a seat changing hands). Saves written before 2026-12-01 seal no copy
    and are not checked; `content` is not sealed: the save says to edit it when its pack has moved."""
    if table is None:
        return
    if not isinstance(table, dict):
        raise PlayError(f"{path}: the save's sealed part does not hold a seed and actions")
    changed = [k for k, v in table.items() if data.get(k) != v]
    if changed:
        was = "; ".join(f"{k}: {_brief(table[k])}" for k in changed)
        raise PlayError(
            f"{path}: the save's {', '.join(changed)} {'was' if len(changed) == 1 else 'were'} changed after it was "
            f"saved (it said {was}): put that back — a save resumes the game it was made at, with its table"
        )


def _save_pack(path: str | Path, ref: str) -> str:
    """The folder a save's `content` entry names (a bundled pack's id; a folder relative to the save's folder,
    else to the current directory; an absolute folder, as older saves name them); a PlayError naming the pack,
    where it was looked for and what to do when it is not there."""
    import os

    from .content.packs import find_log_pack

    found, places = find_log_pack(ref, Path(path).resolve().parent)
    if found is None:
        raise PlayError(
            f"{path}: the game was played with the pack {ref!r} (the save's `content`), which is not here "
            f"(looked in {', '.join(os.path.normpath(p) for p in places)}): put the pack's folder there — the save "
            "names it relative to its own folder — or resume from the folder that holds it, or edit the save's "
            "`content` to say where it is"
        )
    return str(found)


def _to_stderr(text: str) -> None:
    import sys

    print(text, file=sys.stderr, flush=True)


class Table:
    """A game at the table: the step API's state, the human seats, one agent per bot seat.

    An external bot that fails (agents/external.py: a bad answer, an exit, a timeout) does not stop a table
    people sit at: its seat is played by the default bot kind from that decision on, and ``notify`` is told
    why (the terminal prints it; a server's table, on the server's output). The actions applied are the game:
    the seed and them replay it whoever answered."""

    def __init__(self, content: Content, setup: Setup) -> None:
        self.content = content
        self.setup = setup
        self.names = Names(content)
        self.agents: dict[int, Agent] = {}
        for seat, kind in setup.bots.items():
            try:
                factory = factory_of(kind)  # a kind or a spec such as search:20
            except ValueError as e:
                raise PlayError(str(e)) from None
            self.agents[seat] = factory(bot_seed(setup.seed, seat), content)
        pins = None
        if setup.role is not None:
            pins = Pins(role=setup.role, seat=setup.humans[0] if setup.role_seat is None else setup.role_seat)
        self.state = GameState(content, setup.players, setup.seed, max_turns=setup.max_turns, pins=pins)
        self.seen: dict[int, int] = {s: 0 for s in setup.humans}  # history length a human seat last saw
        self.notify: Callable[[str], None] = _to_stderr  # where a failed external bot's message goes
        self.ended = False  # the bots that hear it were told the game is over (finish)
        # the engine stopped the game (apply): its message is the referee's (it may name a hand card, and a seat asked
        # at a window holds something usable there); the people at the table are shown its `public` words only
        self.stopped: EngineError | None = None

    def referee_records(self) -> list[dict[str, Any]]:
        """The referee's records of the finished game (every hidden card and secret); nothing while it goes on."""
        if not self.state.is_terminal():
            return []
        return list(self.state._game.log)  # (as sim.state_log_text reads a table's game for its log)

    def final_summary(self) -> dict[str, Any] | None:
        """Once the game is over: every identity, secret task and role, how and why it ended (summary.py)."""
        players = self.state.observation(0)["players"] if self.state.is_terminal() else None
        return game_summary(self.referee_records(), self.names, players)

    def apply(self, action: int) -> None:
        """Answer the current decision (IllegalAction if `action` is not legal). A safety limit the engine runs into
        (E501–E505: a stuck game, a runaway loop) ends the game where it stands: `stopped` keeps the error."""
        try:
            self.state.apply_action(action)
        except EngineError as e:
            self.stopped = e

    def bot_move(self) -> None:
        """Let the bot whose turn it is answer (one action)."""
        seat = self.state.current_player()
        self.apply(self.bot_answer(seat, self.agents[seat]))

    def bot_answer(self, seat: int, agent: Agent) -> int:
        """The bot's answer to the current decision: a search bot is handed its seat's World to sample from."""
        return self.bot_question(seat, agent)()

    def bot_question(self, seat: int, agent: Agent) -> Callable[[], int]:
        """The current decision put to the bot at `seat`, as a call that returns its answer. What it is handed
        (its seat's observation, the legal actions, a search bot's World) is gathered now; the call reads no
        more of the game, so a server may make it on another thread while the game stands still."""
        actions = self.state.action_descriptors()
        if agent.searches:
            observation, world = self.state.observation(seat), self.state.world(seat)
            return lambda: agent.search(observation, actions, world)
        seen = self.state.observation(seat) if agent.observes else None
        if not agent.hears_end:
            return lambda: agent.act(seen, actions)
        return lambda: self._external_answer(seat, agent, seen, actions)

    def _external_answer(self, seat: int, agent: Agent, seen: Any, actions: Sequence[Any]) -> int:
        """An external bot's answer; if it fails, the default kind takes its seat and answers instead."""
        try:
            return agent.act(seen, actions)
        except BotError as e:
            kind = default_kind()
            stand_in = factory_of(kind)(bot_seed(self.setup.seed, seat), self.content)
            self.agents[seat] = stand_in
            self.notify(f"{e.public}; P{seat} is played by the {kind} bot from now on")
            return stand_in.act(seen if stand_in.observes else None, actions)

    def finish(self) -> None:
        """Tell the bots that hear it (external ones) that the game is over, or stopped before its end (a quit):
        each its seat's final observation, or None. Once; their processes are kept for another game."""
        if self.ended:
            return
        self.ended = True
        over = self.state.is_terminal()
        for seat, agent in self.agents.items():
            if agent.hears_end:
                agent.end(self.state.observation(seat) if over else None)

    def run_bots(self) -> None:
        """Bots answer until a human seat must decide or the game is over."""
        while not self.state.is_terminal() and self.state.current_player() not in self.setup.humans:
            self.bot_move()

    def to_json(self, key: bytes) -> dict[str, Any]:
        """The save: the table in the open (who sits where, the packs) and its referee part — the seed and the
        action ids — sealed with `key` (sealed.py; docs/play.md, "What a save hides").

        Not the count of actions, in the open or in the sealed part's length: a seat is asked at a window (争夺阶段)
        only when it holds something it may use there, so the count of the game's decisions between two saves
        tells whether the bots (or the other people at a hot-seat table) held such a card — what fengsheng serve
        never sends a seat (docs/play.md). The referee part is padded with spaces to a multiple of SEAL_PAD bytes
        (JSON reads them as nothing), so its sealed length moves only every few hundred decisions."""
        s = self.setup
        pinned = {"role": s.role} if s.role is not None else {}
        table = {
            "players": s.players,
            "humans": s.humans,
            "bots": {str(k): v for k, v in sorted(s.bots.items())},
            "expansions": s.expansions,
            "max_turns": s.max_turns,
        }
        # the table is sealed too, as it is shown in the open: an edit of it (a bot made random, a turn limit, a seat
        # given to a bot or a person) would change the game the seed and actions resume; read_save refuses one
        sealed = {"seed": s.seed, "actions": list(self.state.history()), **pinned, "table": table}
        referee = json.dumps(sealed, separators=(",", ":"))
        referee += " " * (-len(referee) % SEAL_PAD)
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            **table,
            "content": s.content,
            "sealed": seal(key, referee.encode("utf-8")),
        }

    def save(self, path: str | Path) -> None:
        """Write the save; its packs are named as a log's header names them (a bundled pack by id, another
        relative to the save's folder), so it means the same in another checkout or beside its pack elsewhere.
        The user's save key is made on the first save (OSError if its folder cannot be written)."""
        from .content.packs import log_pack_ref

        key = user_key(create=True)
        assert key is not None
        data = self.to_json(key)
        data["content"] = [log_pack_ref(c, Path(path).parent) for c in self.setup.content]
        Path(path).write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")

    @staticmethod
    def read_save(path: str | Path) -> tuple[Setup, list[int]]:
        """The setup and the actions of a save file; a PlayError says what is wrong with it. The file is read
        bounded (jsonread), checked against schema/save.schema.json and for a table that can be seated before
        anything is played. Reads this version (the referee part sealed) and version 1 (written before saves
        were sealed: seed and actions in the open)."""
        data = _read_save_json(path)
        if data.get("format") != SAVE_FORMAT:
            raise PlayError(f'{path}: not a save of fengsheng play (no "format": "{SAVE_FORMAT}")')
        if data.get("version") not in (1, SAVE_VERSION):
            raise PlayError(
                f"{path}: save version {_brief(data.get('version'))}; this fengsheng reads versions 1 to {SAVE_VERSION}"
            )
        wrong = _schema_problem(data) or _table_problem(data)
        if wrong:
            raise PlayError(f"{path}: {wrong}")
        referee = data if data["version"] == 1 else _unseal(path, data["sealed"])
        seed, actions = referee.get("seed"), referee.get("actions")
        if not isinstance(seed, int) or not is_seed(seed):
            raise PlayError(f"{path}: the save's seed is {SEED_RANGE}")
        if not isinstance(actions, list) or not all(type(a) is int and 0 <= a < 2**31 for a in actions):
            raise PlayError(f"{path}: the save's actions are a list of action ids (whole numbers)")
        role = referee.get("role")
        if role is not None and not (isinstance(role, str) and 0 < len(role) <= 200):
            raise PlayError(f"{path}: the save's pinned role is a role's id")
        _check_table(path, data, referee.get("table"))
        setup = Setup(
            players=data["players"],
            seed=seed,
            humans=list(data["humans"]),
            bots={int(k): v for k, v in data["bots"].items()},
            content=[_save_pack(path, ref) for ref in data.get("content") or []],
            expansions=data.get("expansions"),
            max_turns=data.get("max_turns"),
            role=role,
        )
        return setup, actions

    def replay(self, actions: Sequence[int]) -> None:
        """Apply a save's actions; each bot also answers, so that its own generator stays in step."""
        for n, action in enumerate(actions):
            if self.state.is_terminal():
                raise PlayError(f"the save has {len(actions) - n} action(s) after the end of the game")
            seat = self.state.current_player()
            agent = self.agents.get(seat)
            if agent is not None:
                self.bot_answer(seat, agent)
            try:
                self.apply(action)
            except IllegalAction:
                # (not the action's id: it names a card — a face-down send, a card given — and the terminal is
                # the table's: a `content` edited to stop the replay where one likes would show it to everyone)
                raise PlayError(
                    f"action {n + 1} of the save is not legal in this game: "
                    "was it saved with other content packs or another version?"
                ) from None
        for seat in self.setup.humans:  # a resumed seat is shown what happened since its last decision
            history = self.state.observation(seat)["history"]
            own = [i for i, r in enumerate(history) if "d" in r]
            self.seen[seat] = own[-1] if own else 0
