"""``fengsheng play``'s loop in the terminal: each human seat's screen (play.render) and menu, the bots in
between, saving and quitting, and after the end the summary that turns every card up and the logs a key away.

The table itself (its seats, bots, saves) is ``play.Table``; this module only talks to the person at the
keyboard.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from .messages import asker_rules
from .play import Table, render
from .screen_table import Folded
from .seat_text import Names, rules_texts
from .summary import log_lines, summary_lines

# ---------------------------------------------------------------------- the loop

HELP = (
    "输入菜单中的编号并按回车来选择。\n"
    "  h 或 ?  这段帮助\n"
    "  s       保存游戏（之后用 fengsheng play --resume 文件 继续）\n"
    "  q       退出（会先问是否保存）\n"
    "Ctrl-C 也会询问是否保存；Ctrl-D（输入结束）直接退出。"
)


def texts(obs: Mapping[str, Any], actions: Sequence[Mapping[str, Any]], names: Names) -> str:
    """The rules texts a seat may want at a decision: the asking skill's or card's first, then its role's skills,
    its cards', the offered roles'."""
    return "\n".join(asker_rules(obs, names) + rules_texts(obs, actions, names))


# `fengsheng play`'s exit status (docs/play.md)
EXIT_OK = 0  # the game ended, or the player quit with q (and a save asked for then succeeded)
EXIT_FAILED = 1  # a save asked for on quitting failed, the input ended before the game did, or the engine stopped it
EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports an interrupted program (128 + SIGINT)


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
        self.quit_saved = True  # a quit with q: False if the save asked for then failed

    def read(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=False, highlight=False, soft_wrap=True)
        self.console.file.flush()
        line = self._read_line()
        if line == "":
            raise _EOF
        if self.echo:
            self.console.print(line.rstrip("\n"), markup=False, highlight=False, soft_wrap=True)
        return line.strip()

    def offer_save(self, why: str) -> bool:
        """Ask whether to save before quitting; EOF or a second Ctrl-C there quits without saving.
        False only if the player asked for a save and it failed."""
        try:
            answer = self.read(f"{why}保存游戏吗？输入文件名，直接回车保存到 {self.save_path}，n 不保存：")
        except (_EOF, KeyboardInterrupt):
            self.console.print("\n没有保存。", markup=False, soft_wrap=True)
            return True
        if answer.lower() in ("n", "no", "否"):
            self.console.print("没有保存。", markup=False, soft_wrap=True)
            return True
        if answer.lower() in ("y", "yes", "是"):  # a yes to the question, not a file named y
            answer = ""
        return self.do_save(answer or self.save_path)

    def do_save(self, path: str) -> bool:
        try:
            self.table.save(path)
        except OSError as e:
            self.console.print(f"保存失败：{path}: {e.strerror or e}", markup=False, soft_wrap=True)
            return False
        import shlex

        from .agents.external import KIND_PREFIX, defined, definition_words

        # a save names an external bot by ext:NAME only: the hint gives its --bot again
        names = {k[len(KIND_PREFIX) :] for k in self.table.setup.bots.values() if k.startswith(KIND_PREFIX)}
        bots = definition_words({n: b for n, b in defined().items() if n in names})
        again = " ".join(["fengsheng", "play", "--resume", shlex.quote(path), *bots])
        self.console.print(  # (not how many actions the game has had: Table.to_json says why)
            f"已保存到 {path}。继续：{again}",
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
                # (folded between words and names: a rules text is one long line, which the terminal would cut anywhere)
                self.console.print(Folded(Text(HELP + "\n" + texts(obs, actions, table.names))))
            elif low == "s":
                path = self.read(f"保存到（直接回车：{self.save_path}）：") or self.save_path
                self.do_save(path)
            elif low == "q":
                self.quit_saved = self.offer_save("")
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
                table.apply(actions[choice - 1]["id"])  # checked by the step API
                return True

    def play(self) -> int:
        """Play to the end, or until the player quits; the exit status (docs/play.md): 0 for the game's end or a
        quit with q (saved or not), 1 when a save asked for on quitting failed, the input ended mid-game or the
        engine stopped the game (show_stop), 130 after Ctrl-C (as a shell reports an interrupted program), whether
        or not the game was then saved."""
        table = self.table
        table.notify = self._bot_failed
        try:
            return self._play()
        finally:
            table.finish()

    def _bot_failed(self, text: str) -> None:
        self.console.print(f"[bot] {text}", markup=False, soft_wrap=True)

    def _play(self) -> int:
        table = self.table
        try:
            while True:
                table.run_bots()
                if table.state.is_terminal():
                    break
                if not self.decide():
                    return EXIT_OK if self.quit_saved else EXIT_FAILED
        except KeyboardInterrupt:
            self.console.print("")
            self.offer_save("已中断。")
            return EXIT_INTERRUPTED
        except _EOF:
            self.console.print("\n输入已结束，退出（没有保存；下次可以先输入 s 保存）。", markup=False, soft_wrap=True)
            return EXIT_FAILED
        if table.stopped is not None:
            self.show_stop()
            return EXIT_FAILED
        self.show_end()
        return EXIT_OK

    def show_stop(self) -> None:
        """The engine stopped the game (a safety limit: Table.stopped): everyone at the terminal reads its public words;
        its whole message, which may name a hand card, is the referee's, the last line of the referee's log."""
        stopped = self.table.stopped
        assert stopped is not None
        self.console.print(f"引擎中止了这局游戏：{stopped.public}", markup=False, soft_wrap=True)
        self.console.print(
            f"本局种子：{self.table.setup.seed}（用 -s 指定它可以重玩这一局）", markup=False, soft_wrap=True
        )
        self.show_logs()

    def show_end(self) -> None:
        """The final screen for every human seat (each sees its own)."""
        for seat in self.table.setup.humans:
            obs = self.table.state.observation(seat)
            if len(self.table.setup.humans) > 1:
                self.console.rule(f"P{seat}", characters="=")
            self.console.print(render(obs, (), self.table.names, self.table.seen[seat]))
            self.table.seen[seat] = len(obs["history"])
        summary = self.table.final_summary()
        if summary is not None:  # the game is over: every card turned up
            self.console.print(
                Panel(Folded(Text("\n".join(summary_lines(summary)))), title="终局：全部揭晓", title_align="left")
            )
        # the game is over: its seed hides nothing any more (the referee's part, as `serve` gives it after the end)
        self.console.print(
            f"本局种子：{self.table.setup.seed}（用 -s 指定它可以重玩这一局）", markup=False, soft_wrap=True
        )
        self.show_logs()

    def show_logs(self) -> None:
        """After the end, asked once: the referee's whole log (r) or one seat's copy (its number), a key away;
        Enter, the end of the input or anything else ends (a script's leftover answers do not loop here)."""
        table = self.table
        n = table.setup.players
        try:
            answer = self.read(f"输入 r 看裁判的完整记录，0-{n - 1} 看该席的记录，直接回车结束：").lower()
        except (_EOF, KeyboardInterrupt):
            self.console.print("")
            return
        if answer == "r":
            seat = None
        elif answer.isdigit() and int(answer) < n:
            seat = int(answer)
        else:
            return
        title = "裁判的完整记录" if seat is None else f"P{seat} 的记录"
        lines = log_lines(table.referee_records(), table.names, seat)
        if seat is None and table.stopped is not None:  # (the referee's alone: it may name a hand card)
            lines.append(f"引擎中止：{table.stopped}")
        self.console.print(Panel(Folded(Text("\n".join(lines))), title=title, title_align="left"))
