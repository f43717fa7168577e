"""``fengsheng play``: whole games through the command with scripted input, saves, hot-seat, bad input,
the seat boundary."""

from __future__ import annotations

import io
import itertools
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

from interpreter.agents.kinds import agent_kinds
from interpreter.cli import main
from interpreter.content.loader import BUNDLED_CONTENT, load_cached
from interpreter.play import Setup, Table
from interpreter.play_loop import Terminal

ANSWERS = "1\n" * 3000  # always the first option: enough lines for a whole game


def _play(args: list[str], stdin: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", *args], input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def _opening(output: str) -> str:
    """The opening line (`fengsheng play: …`), its folded lines joined: the lines before the first screen's header
    (it folds after a `;` or `,` to the terminal's width, 80 columns here unless COLUMNS says otherwise)."""
    return " ".join(itertools.takewhile(lambda line: not line.startswith("第 "), output.splitlines()))


def _after_last_prompt(output: str) -> str:
    """What was printed after the last menu answer: the final screen of a game."""
    return output[output.rindex("选择 [") :]


@pytest.fixture(scope="module")
def whole_game() -> tuple[int, str]:
    """One whole game against random bots, always the first option (played once for the tests that read it; at
    seed 2 the seat is asked whether to lock a card it sends)."""
    return _play(["-p", "4", "-s", "2", "--bots", "random", "--max-turns", "40"], ANSWERS)


def test_a_whole_game_against_bots_to_the_end(whole_game):
    code, out = whole_game
    assert code == 0, out[-2000:]
    assert _opening(out) == "fengsheng play: 4 players, seed 2; you: P0; bots: P1 random, P2 random, P3 random"
    assert "游戏结束" in out and "P0，轮到你决定" in out
    assert "选择角色" in out  # the first decision: the role
    assert "P1 摸了 3 张牌" in out  # others' draws, without the cards
    assert "身份：" in out and "手牌：" in out


def test_an_idle_point_is_asked_in_chinese_not_by_its_timing_id(whole_game):
    """The play phase's menu and the seat's own answer say 出牌阶段, not the engine's `play_phase`."""
    code, out = whole_game
    assert code == 0, out[-2000:]
    assert "│ 规则：出牌阶段" in out and "（问：出牌阶段）" in out
    assert "play_phase" not in out


def test_the_same_seed_and_answers_give_the_same_game():
    args = ["-p", "5", "-s", "11", "--bots", "random", "--max-turns", "30"]
    a = _play(args, ANSWERS)[1]
    b = _play(args, ANSWERS)[1]
    assert a == b
    c = _play(["-p", "5", "-s", "12", "--bots", "random", "--max-turns", "30"], ANSWERS)[1]
    assert c != a


# search: the next test; random bots play longer games here: the slow run (every day the heuristic bots)
@pytest.mark.parametrize(
    "kind", [k if k != "random" else pytest.param(k, marks=pytest.mark.slow) for k in agent_kinds() if k != "search"]
)
def test_save_then_resume_gives_the_same_game(tmp_path, kind):
    args = ["-p", "4", "-s", "8", "--bots", kind, "--max-turns", "40"]
    whole = _play(args, ANSWERS)[1]
    save = tmp_path / "g.json"
    code, out = _play([*args, "--save", str(save)], "1\n" * 6 + "s\n\n")  # six answers, save, then the input ends
    assert code == 1 and "已保存到" in out and "输入已结束" in out
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["format"] == "fengsheng-play" and data["humans"] == [0] and len(Table.read_save(save)[1]) >= 6
    assert data["bots"] == {"1": kind, "2": kind, "3": kind} and "seed" not in data and "actions" not in data
    code, resumed = _play(["--resume", str(save)], ANSWERS)
    assert code == 0, resumed[-2000:]
    assert _opening(resumed).endswith("; resumed")
    assert _after_last_prompt(resumed) == _after_last_prompt(whole)


def test_a_save_names_its_pack_portably_and_resumes_beside_it_elsewhere(tmp_path):
    """A save names a pack of one's own relative to the save's folder (no absolute path), so the save moved with
    its pack resumes; a pack that is not there is an error naming it, where it was looked for and what to do."""
    fork = tmp_path / "fork"
    shutil.copytree(Path(__file__).resolve().parents[1] / "examples" / "stack_timing", fork)
    args = ["-p", "4", "-s", "8", "--bots", "random", "--max-turns", "40", "--content", str(fork)]
    whole = _play(args, ANSWERS)[1]
    save = tmp_path / "saves" / "g.json"
    save.parent.mkdir()
    code, out = _play([*args, "--save", str(save)], "1\n" * 6 + "s\n\n")
    assert code == 1 and "已保存到" in out, out[-2000:]
    text = save.read_text(encoding="utf-8")
    assert json.loads(text)["content"] == ["../fork"] and str(tmp_path) not in text
    # the save and its pack moved together (another folder, another machine)
    moved = tmp_path / "elsewhere" / "deeper"
    shutil.copytree(fork, moved / "fork")
    (moved / "saves").mkdir()
    shutil.copy(save, moved / "saves" / "g.json")
    shutil.rmtree(fork)
    code, resumed = _play(["--resume", str(moved / "saves" / "g.json")], ANSWERS)
    assert code == 0, resumed[-2000:]
    assert _after_last_prompt(resumed) == _after_last_prompt(whole)
    # the pack is not there: which one, where it was looked for, what to do — not a game with other content
    code, out = _play(["--resume", str(save)], ANSWERS)
    assert code == 1 and "the pack '../fork'" in out and "which is not here" in out, out[-2000:]
    assert f"(looked in {tmp_path / 'fork'}, ../fork)" in out and "put the pack's folder there" in out
    assert "选择 [" not in out


@pytest.mark.slow
def test_a_search_bot_searches_at_the_table_and_a_resumed_game_keeps_it_in_step():
    """A search bot at a table is handed its seat's World (it searches: its last root has visits); resuming a
    save asks it again at its decisions, so its next answers are the ones the unbroken game gets."""
    content = load_cached()
    setup = Setup(players=3, seed=6, humans=[0], bots={1: "search:4", 2: "random"})
    table = Table(content, setup)
    searched = 0
    while searched < 4:
        if table.state.current_player() == 0:
            table.state.apply_action(table.state.legal_actions()[0])
        else:
            seat = table.state.current_player()
            table.bot_move()
            searched += seat == 1 and bool(getattr(table.agents[1], "last", None))
    saved = table.state.history()
    resumed = Table(content, setup)
    resumed.replay(saved)
    for t in (table, resumed):
        for _ in range(12):
            if t.state.current_player() == 0:
                t.state.apply_action(t.state.legal_actions()[0])
            else:
                t.bot_move()
    assert resumed.state.history() == table.state.history()


def test_hot_seat_switches_and_passes_the_keyboard():
    code, out = _play(["-p", "3", "-s", "2", "--hot-seat", "2", "--bots", "random", "--max-turns", "20"], ANSWERS)
    assert code == 0, out[-2000:]
    assert "you: P0, P1; bots: P2 random" in out
    assert "请把键盘交给 P1" in out and "请把键盘交给 P0" in out
    assert "P0，轮到你决定" in out and "P1，轮到你决定" in out
    # between two seats' screens there is always the hand-over prompt
    screens = re.findall(r"请把键盘交给 P(\d)|P(\d)，轮到你决定", out)
    last = None
    for handover, screen in screens:
        if handover:
            last = None
            continue
        assert last is None or last == screen, "two seats' screens without a hand-over between them"
        last = screen


def test_bad_input_gets_a_message_and_the_game_goes_on():
    code, out = _play(["-p", "4", "-s", "3", "--bots", "random"], "abc\n99\n0\n\n-1\nh\n1\n")
    assert code == 1  # the input ends after the first answer
    assert "“abc” 不是编号" in out
    assert "没有第 99 项" in out and "没有第 0 项" in out and "没有第 -1 项" in out
    assert "请输入 1 到" in out and "输入菜单中的编号" in out  # the empty line, then the help
    assert re.search(r"（.+）：\n  ［.+］.+", out)  # the help gives the offered roles' skills and their texts
    assert "你选择了" in out  # the 1 was taken
    assert "输入已结束" in out


def test_eof_at_once_and_q_quit_cleanly(tmp_path):
    code, out = _play(["-p", "3", "-s", "1", "--bots", "random"], "")
    assert code == 1 and "输入已结束" in out
    code, out = _play(["-p", "3", "-s", "1", "--bots", "random", "--save", str(tmp_path / "q.json")], "q\nn\n")
    assert code == 0 and "没有保存" in out and not (tmp_path / "q.json").exists()  # an orderly quit


def test_exit_status_of_a_quit_follows_its_save(tmp_path):
    """q and a save that worked: 0; q and a save that failed: 1 (docs/play.md, exit status)."""
    save = tmp_path / "ok.json"
    code, out = _play(["-p", "3", "-s", "1", "--bots", "random", "--save", str(save)], "1\nq\n\n")
    assert code == 0 and f"已保存到 {save}" in out and save.exists()
    bad = tmp_path / "no_such_folder" / "g.json"
    code, out = _play(["-p", "3", "-s", "1", "--bots", "random"], f"1\nq\n{bad}\n")
    assert code == 1 and "保存失败" in out and not bad.exists()


def test_yes_to_save_on_quitting_saves_to_the_default_file_not_one_named_y(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for yes in ("y", "yes", "是"):
        save = tmp_path / f"{yes}.json"
        code, out = _play(["-p", "3", "-s", "1", "--bots", "random", "--save", str(save)], f"1\nq\n{yes}\n")
        assert code == 0 and f"已保存到 {save}" in out
        assert save.exists() and not (tmp_path / yes).exists()


def test_ctrl_c_offers_to_save(tmp_path, monkeypatch):
    import interpreter.play_cmd as play_cmd

    lines = iter(["1\n", "1\n", KeyboardInterrupt(), "\n"])

    def read_line() -> str:
        x = next(lines)
        if isinstance(x, BaseException):
            raise x
        return x

    monkeypatch.setattr(play_cmd, "_read_line", read_line)
    save = tmp_path / "c.json"
    code, out = _play(["-p", "4", "-s", "6", "--bots", "random", "--save", str(save)], "")
    assert code == 130 and "已中断" in out and "已保存到" in out
    assert len(Table.read_save(save)[1]) >= 2


def test_mistakes_on_the_command_line_and_in_saves(tmp_path):
    code, out = _play(["-p", "4", "--bots", "nobody"], "")
    assert code != 0 and "unknown agent 'nobody'" in out
    code, out = _play(["-p", "4", "--bots", "search:0"], "")
    assert code != 0 and "search:0: the number of simulations per decision is a positive integer" in out
    code, out = _play(["-p", "4", "--bots", "random,random"], "")
    assert code != 0 and "2 kinds for 3 bot seats" in out
    code, out = _play(["-p", "3", "--seat", "5"], "")
    assert code != 0 and "seat 5 at a table of 3" in out
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, out = _play(["--resume", str(bad)], "")
    assert code == 1 and "not a save of fengsheng play" in out
    bad.write_text(json.dumps({"format": "fengsheng-play", "version": 1, "players": 4}), encoding="utf-8")
    code, out = _play(["--resume", str(bad)], "")
    assert code == 1 and "the save: 'humans' is a required property (schema/save.schema.json)" in out
    bad.write_text(
        json.dumps(
            {
                "format": "fengsheng-play",
                "version": 1,
                "players": 4,
                "seed": 1,
                "humans": [0],
                "bots": {"1": "random", "2": "random", "3": "random"},
                "actions": [999999],
            }
        ),
        encoding="utf-8",
    )
    code, out = _play(["--resume", str(bad)], "")
    assert code == 1 and "is not legal in this game" in out
    code, out = _play(["--resume", str(bad), "-p", "5", "--bots", "random"], "")
    assert code == 2 and "--resume takes the table from the save; leave out --players, --bots" in out
    code, out = _play(["--resume", str(tmp_path / "none.json")], "")
    assert code == 1 and "cannot read the save" in out


def test_role_deals_that_role_to_the_persons_seat_and_a_save_keeps_it(tmp_path):
    """`play --role ID` (a designer playtesting a new role at the table) deals that role to the person's seat, who
    is asked to keep it, its one option (every seat is asked in its turn of the deal: a seat skipped would tell the
    others it was the pinned one); a save resumes with it (it is in the sealed part, as the seed: at a hot-seat table
    one seat's secret); an id the content lacks is a usage error with a did-you-mean."""
    args = ["-p", "4", "-s", "8", "--bots", "random", "--max-turns", "40", "--seat", "2"]
    code, out = _play(args, ANSWERS)
    assert code == 0 and "规则：选择角色" in out and "角色：老汉（" not in out  # (the seed does not deal it)
    whole = _play([*args, "--role", "lao_han"], ANSWERS)[1]
    first = whole[: whole.index("选择 [")]
    assert "规则：选择角色（这个角色是指定给你的）" in first and "老汉（裘家二太太）" in first
    assert "P2 选择 [1-1]" in whole
    save = tmp_path / "g.json"
    code, out = _play([*args, "--role", "lao_han", "--save", str(save)], "1\n" * 6 + "s\n\n")
    assert code == 1 and "已保存到" in out and "lao_han" not in save.read_text(encoding="utf-8")
    code, resumed = _play(["--resume", str(save)], ANSWERS)
    assert code == 0, resumed[-2000:]
    assert _after_last_prompt(resumed) == _after_last_prompt(whole)
    code, out = _play(["--resume", str(save), "--role", "lao_han"], "")
    assert code == 2 and "leave out --role" in out
    code, out = _play(["-p", "4", "--role", "lao_hn"], "")
    assert code == 2 and "no role 'lao_hn' in the content: did you mean lao_han?" in out


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"humans": [99]}, "humans/0: 99 is greater than the maximum of 31"),
        ({"humans": [5]}, "seat 5 at a table of 4 (P0 … P3)"),
        ({"humans": []}, "humans: [] should be non-empty"),
        ({"humans": [0, 1]}, "P1 is both a person's seat (humans) and a bot's (bots)"),
        ({"bots": {"1": "random"}}, "P2 is nobody's seat"),
        ({"expansions": ["none"]}, "expansions: ['none'] is not of type 'string', 'null'"),
        ({"max_turns": "x"}, "max_turns: 'x' is not of type 'integer', 'null'"),
        ({"bots": {"1": "search:999999999", "2": "random", "3": "random"}}, "at most 100,000 simulations"),
        ({"bots": {"1": "search:" + "9" * 5000, "2": "random", "3": "random"}}, "9999' is too long"),
        ({"bots": {"1": "search:" + "9" * 150, "2": "random", "3": "random"}}, "at most 100,000 simulations"),
        ({"seed": -1}, "seed: -1 is less than the minimum of 0"),
        ({"actions": [[[[1]]]]}, "actions/0: [[[1]]] is not of type 'integer'"),
        ({"players": 10**5000}, "a number of thousands of digits"),
        ({"humans": [[[]]] * 2 + ["[" * 10000]}, ""),
    ],
)
def test_a_save_is_checked_whole_before_anything_is_played(tmp_path, change, says):
    """Each malformed save of the robustness audit: one message naming what is wrong, no traceback, no hang."""
    save = {
        "format": "fengsheng-play",
        "version": 1,
        "players": 4,
        "seed": 1,
        "humans": [0],
        "bots": {"1": "random", "2": "random", "3": "random"},
        "actions": [],
    }
    bad = tmp_path / "bad.json"
    try:
        bad.write_text(json.dumps({**save, **change}), encoding="utf-8")
    except ValueError:  # json cannot write an integer that long either: write it by hand
        bad.write_text(json.dumps(save)[:-1] + ', "players": ' + "9" * 5000 + "}", encoding="utf-8")
    code, out = _play(["--resume", str(bad)], "")
    assert code == 1 and out.startswith(f"error: {bad}") and says in out and out.count("\n") == 1, out


def test_a_save_nested_deeply_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "deep.json"
    bad.write_text('{"format": "fengsheng-play", "humans": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    code, out = _play(["--resume", str(bad)], "")
    assert code == 1 and "values nested too deeply" in out and "Traceback" not in out


def test_without_bots_the_preferred_kind_plays():
    code, out = _play(["-p", "3", "-s", "4", "--max-turns", "15"], ANSWERS)
    assert code == 0, out[-2000:]
    kind = next(iter(agent_kinds()))
    assert f"bots: P1 {kind}, P2 {kind}" in out and "游戏结束" in out


def test_agent_kinds_always_offer_random():
    kinds = agent_kinds()
    assert "random" in kinds
    agent = kinds["random"](3)
    assert agent.act(None, [{"id": 4, "kind": "accept", "label": "accept"}]) == 4


@pytest.mark.parametrize(
    ("seed", "humans"),
    [  # every day: one human at P0, and three at one keyboard; the slow run adds other seats and seeds
        (1, [0]),
        pytest.param(4, [0], marks=pytest.mark.slow),
        pytest.param(9, [2], marks=pytest.mark.slow),
        (5, [0, 1, 3]),
    ],
)
def test_the_screen_never_shows_another_seats_hidden_values(seed, humans):
    """At every decision, the screen printed since the last answer holds no card of another seat's hand
    that the seat on screen cannot see, no face-down role of another seat and no other seat's secret task
    (with hot-seat, the seat on screen is the one that answers next). Over 12 turns: a screen that shows the seat
    two along its last hand card, its face-down role or (at P0, seed 1) its task still fails it."""
    content = load_cached()
    bots = {s: "random" for s in range(5) if s not in humans}
    table = Table(content, Setup(players=5, seed=seed, humans=humans, bots=bots, max_turns=12))
    out = io.StringIO()
    console = Console(file=out, width=200, no_color=True)
    names = table.names
    checked = 0
    compared: set[str] = set()
    terminal: Terminal

    def hidden_now(me: int) -> list[str]:
        state = table.state
        mine = state.observation(me)
        visible = {c["id"] for c in mine["me"]["hand"]} | {k["card"]["id"] for k in mine["known_cards"]}
        hidden = []
        my_task = mine["me"]["task"]
        for seat in range(5):
            if seat == me:
                continue
            theirs = state.observation(seat)
            hidden += [f"#{c['id']}(" for c in theirs["me"]["hand"] if c["id"] not in visible]
            if mine["players"][seat]["role"] is None and theirs["me"]["role"] is not None:
                hidden.append(names.role(theirs["me"]["role"]))
            task = theirs["me"]["task"]
            if task is not None and task != my_task:
                hidden.append(names.task(task))
        return hidden

    def read_line() -> str:
        nonlocal checked
        if table.state.is_terminal():  # the end's summary turns every card up, by design (test_the_end_...)
            return "\n"
        screen = out.getvalue()
        out.seek(0)
        out.truncate()
        me = terminal.last_human if terminal.last_human is not None else humans[0]
        for value in hidden_now(me):
            compared.add(value)
            assert value not in screen, f"P{me}'s screen shows {value!r}"
        checked += 1
        return "1\n"

    terminal = Terminal(table, console, read_line, save_path="unused.json", hot_seat=len(humans) > 1)
    assert terminal.play() == 0
    assert checked > 10
    assert any(v.startswith("#") for v in compared) and any(not v.startswith("#") for v in compared)


def test_hot_seat_clears_the_screen_and_the_scrollback_between_seats():
    """On a terminal, each seat's screens come between two clears: the next person cannot scroll up to them."""
    content = load_cached()
    table = Table(content, Setup(players=3, seed=2, humans=[0, 1], bots={2: "random"}, max_turns=8))
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=True, no_color=True)
    terminal = Terminal(table, console, lambda: "1\n", save_path="unused.json", hot_seat=True)
    assert terminal.play() == 0
    game = out.getvalue().split("游戏结束", 1)[0]  # the final screens (every seat's, in turn) come after
    chunks = game.split("\x1b[3J")
    assert len(chunks) > 4
    for chunk in chunks:
        seats = set(re.findall(r"P(\d)，轮到你决定", chunk))
        assert len(seats) <= 1, f"screens of {seats} without a clear between them"


def test_a_card_out_of_sight_now_is_named_by_its_face_in_the_history():
    """A record names a card by deck id only for the seats that saw it; once it has left every zone the seat can
    see (taken into another's hand), the history still says which card it was, not a bare number."""
    from interpreter.messages import event_text
    from interpreter.seat_text import Names

    names = Names(load_cached())
    assert event_text({"e": "discard", "seat": 2, "cards": [42]}, 0, names, {}) == "P2 弃置：利诱#42(黑→锁)"
    assert event_text({"e": "to_hand", "seat": 1, "cards": [42, 36]}, 0, names, {}) == (
        "P1 把 利诱#42(黑→锁)、威逼#36(黑←) 加入手牌"
    )
    assert event_text({"e": "discard", "cards": None}, 0, names, {}) == "置入弃牌堆：（看不到）"


def test_declining_a_choice_says_what_is_declined(whole_game):
    """The engine's optional-choice answer (label 不) reads 不锁定 at a lock and 不选 elsewhere."""
    from interpreter.seat_text import Names, menu_label

    names = Names(load_cached())
    none = {"id": 0, "kind": "none", "label": "不"}
    assert menu_label(none, names, "lock") == "不锁定"
    assert menu_label(none, names, "choose") == "不选"
    code, out = whole_game  # a game with a lock
    assert code == 0 and "1. 不锁定" in out and not re.search(r"\d\. 不\s+│", out)


def test_the_ends_reveal_keeps_each_seat_with_its_role_at_80_columns():
    """Each seat's line of the reveal names the seat, its role and identity on one screen line at 80 columns: a
    secret task's long text (no space in it for rich to break at) once pushed the role under a lone `★胜 P3`."""
    content = load_cached()
    table = Table(content, Setup(players=5, seed=11, humans=[0], bots={s: "heuristic" for s in range(1, 5)}))
    out = io.StringIO()
    console = Console(file=out, width=80, no_color=True)
    answers = iter(["1\n"] * 3000)
    assert Terminal(table, console, lambda: next(answers, ""), save_path="unused.json", hot_seat=False).play() == 0
    end = out.getvalue()[out.getvalue().index("终局：全部揭晓") :].splitlines()
    tasks = 0
    for seat in range(5):
        theirs = table.state.observation(seat)["me"]
        role, identity = table.names.role(theirs["role"]), table.names.identity(theirs["identity"])
        assert any(f"P{seat} {role}，身份：{identity}" in line for line in end), "\n".join(end)
        tasks += bool(theirs["task"])
    assert tasks and sum("秘密任务：" in line for line in end) == tasks  # (the game has a secret task to show)


def test_the_end_reveals_every_identity_task_and_role_and_the_logs_are_a_key_away():
    """After the last decision: a summary naming every seat's role, identity and secret task, how the game
    ended and why (the check); then r prints the referee's whole log, the deal included."""
    content = load_cached()
    table = Table(content, Setup(players=5, seed=3, humans=[0], bots={s: "random" for s in range(1, 5)}))
    out = io.StringIO()
    console = Console(file=out, width=200, no_color=True)
    answers = iter(["1\n"] * 3000)

    def read_line() -> str:
        return "r\n" if table.state.is_terminal() else next(answers)

    assert Terminal(table, console, read_line, save_path="unused.json", hot_seat=False).play() == 0
    screen = out.getvalue()
    end = screen[screen.index("终局：全部揭晓") :]
    for seat in range(5):
        theirs = table.state.observation(seat)["me"]
        assert f"P{seat} " in end
        assert f"身份：{table.names.identity(theirs['identity'])}" in end
        if theirs["task"]:
            assert table.names.task(theirs["task"]) in end
        assert table.names.role(theirs["role"]) in end
    result = table.state.observation(0)["result"]
    assert ("检查" in end or "存活" in end or "回合上限" in end) and "游戏结束" in end, result
    assert "裁判的完整记录" in end and "发牌（只有裁判看得到）" in end


def _broken_words(screen: str, words: set[str]) -> list[str]:
    """The places where a screen breaks one of `words` (role names, 背面朝下) or a card (威逼#28(红←)) between two
    of its lines, in a table's column or a panel: the two lines' pieces at the same place, joined by a ` ⏎ `. A
    name may end a line before its title (``简先生`` then ``（话剧演员）``), never anywhere else."""
    card = re.compile(r"#\d*$|#\d+\([^)]*$")  # a card cut before its closing bracket
    lines = [re.split(r"[│┃]", line) for line in screen.splitlines()]
    broken = []
    for above, below in itertools.pairwise(lines):
        if len(above) != len(below) or len(above) < 3:
            continue
        for a, b in zip(above[1:-1], below[1:-1], strict=True):
            a, b = a.strip(), b.strip()
            if not a or not b:
                continue
            joined = a + b
            if card.search(a) or any(w in joined and w not in a and w not in b and b[0] != "（" for w in words):
                broken.append(f"{a} ⏎ {b}")
    return broken


_HEAD_ITEMS = (  # the header's items in order (the last only while someone is dying)
    r"第 \d+ 回合",
    r"[^\s·]+",
    r"当前回合：(P\d+(（你）)?|—)",
    r"牌堆 \d+ 张",
    r"弃牌堆 \d+ 张",
    r"P\d+(（你）)? 濒死",
)


def _split_headers(screen: str) -> list[str]:
    """The screens' header lines (``第 1 回合 · 争夺阶段 · 当前回合：P1 · 牌堆 92 张 · 弃牌堆 1 张``, up to the
    table under them) whose items are not each whole on one line: each line's ` · `-separated items, in order,
    must be the header's (a line ends with `` ·`` where it folds)."""
    lines = screen.splitlines()
    split = []
    for i, line in enumerate(lines):
        if not re.match(r"第 \d+ 回合 ", line):
            continue
        block = list(itertools.takewhile(lambda x: not x.startswith("┏"), lines[i:]))
        items = [item for x in block for item in x.strip().removesuffix(" ·").split(" · ")]
        if not (5 <= len(items) <= 6 and all(re.fullmatch(p, x) for p, x in zip(_HEAD_ITEMS, items, strict=False))):
            split.append(" ⏎ ".join(block))
    return split


@pytest.mark.parametrize("width", [60, 80, 120])
def test_no_screen_breaks_a_role_name_or_a_card_between_two_lines(width):
    """At 60, 80 and 120 columns no line is wider than the terminal and no table cell or panel line breaks a role's
    name, 背面朝下 or a card: at 80 columns the seats' table once folded `盛老板（富商）（背面` over `朝下）` (rich
    narrows the widest columns and folds what no longer fits character by character), and the log
    `小九（追梦少年` over `）` and `威逼#28(` over `红←)` (rich breaks Chinese only where it has a space). At 60 the
    seats' intel areas go under the table, each on its line. The help's rules texts (one long line each) are folded
    to the screen as well, and the header between its items: at 60 the terminal broke `弃牌堆 1` over `张`."""
    content = load_cached()
    table = Table(
        content, Setup(players=5, seed=7, humans=[0], bots={s: "heuristic" for s in range(1, 5)}, max_turns=8)
    )
    out = io.StringIO()
    console = Console(file=out, width=width, no_color=True)
    answers = iter(["h\n", *["1\n"] * 3000])  # (h: the rules texts, folded to the screen too)
    terminal = Terminal(table, console, lambda: next(answers, ""), save_path="unused.json", hot_seat=False, echo=True)
    assert terminal.play() == 0
    screen = out.getvalue()
    words = {table.names.role(r) for r in content.roles} | {"（背面朝下）"}
    assert _broken_words(screen, words) == []
    assert _split_headers(screen) == []
    assert (" ·\n弃牌堆 " in screen) == (width == 60)  # (folded at 60 only, between two items)
    assert max(cell_len(line) for line in screen.splitlines()) <= width
    assert "背面朝下" in screen and "终局：全部揭晓" in screen  # (what the test is about is on the screens)
    assert "输入菜单中的编号并按回车来选择" in screen  # (and the help)
    assert "┃ 情报区" in screen  # (the table's own column, while it fits)
    assert ("P2 的情报区：" in screen) == (width == 60)  # (at 60, once intel is received, under the table)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_opening_line_folds_between_its_parts_to_the_terminal(monkeypatch, width):
    """The opening line (about 104 columns at 5 players) folds after a `;` or `,` to the terminal's width (COLUMNS),
    never inside a part: the terminal cut it mid-word (`P3 heur` over `istic`). Its words are the same."""
    monkeypatch.setenv("COLUMNS", str(width))
    code, out = _play(["-p", "5", "-s", "3", "--bots", "heuristic"], "q\nn\n")
    assert code == 0, out[-2000:]
    banner = list(itertools.takewhile(lambda x: not x.startswith("第 "), out.splitlines()))
    whole = "fengsheng play: 5 players, seed 3; you: P0; bots: P1 heuristic, P2 heuristic, P3 heuristic, P4 heuristic"
    assert _opening(out) == whole
    assert all(cell_len(line) <= width and line.endswith((";", ",")) for line in banner[:-1]), banner
    assert cell_len(banner[-1]) <= width
    assert len(banner) == {60: 2, 80: 2, 120: 1}[width]


@pytest.mark.slow  # (1.5 s: 400 decisions drawn at the terminal; the web table's twin in test_web_store is everyday)
def test_an_engine_stop_shows_the_table_its_public_words_and_the_referee_its_whole_message():
    """A stuck game (E503) of a made-up role whose cards come back to his hand (tests/fixtures/runaway_pack): its
    message names the answer given again and again, here a card in P0's hand (截获#80); a traceback printed it to
    everyone at the terminal. The table reads the error's public words; the referee's log (r) ends with it whole."""
    runaway = Path(__file__).parent / "fixtures" / "runaway_pack"
    content = load_cached([BUNDLED_CONTENT, runaway])
    setup = Setup(players=3, seed=5, humans=[0], bots={1: "random", 2: "random"}, max_turns=40, role="demo_boomerang")
    table = Table(content, setup)
    table.state._game.MAX_DECISIONS = 100  # (then 300 questions watched: what repeats)
    out = io.StringIO()
    terminal = Terminal(
        table,
        Console(file=out, width=1000, no_color=True),
        lambda: "r\n" if table.stopped else "1\n",
        "unused.json",
        False,
    )
    assert terminal.play() == 1
    whole = str(table.stopped)
    assert whole.startswith("E503 ") and "'use 截获#80(红↑)'" in whole
    shown, referee = out.getvalue().split("─ 裁判的完整记录 ─", 1)
    said = next(line for line in shown.splitlines() if "引擎中止了这局游戏" in line)
    assert said.endswith(f"：{table.stopped.public}") and "#" not in said and "截获" not in said
    assert whole not in shown and f"引擎中止：{whole}" in referee
