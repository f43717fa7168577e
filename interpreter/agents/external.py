"""External bots: a bot that is a program of its own, run as a subprocess and spoken to in JSON lines.

An in-process agent is trusted code: it runs in the interpreter that holds the ``Game``, and Python code
can always find other objects there (the caller's frames, ``gc``). An external bot is the isolated
option: a separate process that is sent, for its seat only, what the step API gives that seat — the
observation and the legal actions' descriptors, as JSON — and that answers with an action id. Its
argv is the command as typed, its environment is the caller's with nothing added, its stdin and stdout
are the protocol; nothing else of the game reaches it. docs/bots-protocol.md is the protocol.

**Naming.** A command defines named bots (``--bot NAME=COMMAND``: :func:`define`); a seat names one
as the kind ``ext:NAME`` (``agents/kinds.py``), which fits a comma-separated list of kinds per seat.
The command is split as a POSIX shell would split it (``shlex``) and started without a shell.

**Processes.** A process is leased by a game's agent at its seat's first decision and given back when
the game ends (the ``end`` line), so a batch starts one process per bot and seat and reuses it from
game to game (``hello`` starts each game); a worker process of ``simulate --jobs`` starts its own.
:func:`close_all` ends them (a batch's end; at exit too).

**Failures.** Every answer is checked: a line that is not an action id, an id that was not offered,
a process that exits, or no answer within the timeout raises :class:`BotError`, which names the seat
and the command; the process is then ended (a late answer must not be taken for the next one) and the
next game starts a fresh one. A bot that cannot be started, or that failed this many games in a row
(FAILURES_IN_A_ROW, at any seat), raises :class:`BotBroken`: a batch stops rather than fail every game.
The clock only bounds how long a bot is waited for; no game depends on it.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import queue
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .base import Agent, Descriptor, Observation

PROTOCOL = 1  # the protocol's version, sent in `hello` (docs/bots-protocol.md)
DEFAULT_TIMEOUT = 10.0  # seconds a bot may take to answer one decision (--bot-timeout)
START_GRACE = 10.0  # more seconds for the first answer of a process just started (its interpreter, its imports)
END_GRACE = 2.0  # seconds a bot is given to exit once its stdin is closed, before it is killed
FAILURES_IN_A_ROW = 3  # games in a row a bot at one seat may fail before a batch stops (BotBroken)
MAX_LINE = 65_536  # bytes of one line a bot writes that are read (an answer is a few digits)
KIND_PREFIX = "ext:"  # a seat's kind that names an external bot: ext:NAME

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,39}")
_ANSWER = re.compile(r"-?[0-9]{1,19}")
PUBLIC_WHAT = "a decision"  # a decision as BotError.public names it: no kind, no count, no ids


class BotError(Exception):
    """An external bot failed one game: its answer was not a legal action id, it exited, or it did not answer
    in time. The message names the seat, the bot and its command, and what was wrong.

    `public`: the same without what it says of the seat's decision (its kind, how many actions, their ids: the deck
    ids of the cards the seat may use, its dealt roles), for people at a table (play's screen, serve's console) who
    must not learn the bot's hand; the message itself is for a batch, where no person sits."""

    def __init__(self, message: str, public: str | None = None) -> None:
        super().__init__(message)
        self.public = message if public is None else public


class BotBroken(BotError):
    """An external bot that cannot play on: it cannot be started, or it failed FAILURES_IN_A_ROW games in a row
    (at any seat). A batch stops with this message instead of failing every game."""


@dataclass(frozen=True)
class BotCommand:
    """A named external bot: its name (the kind ``ext:NAME``), its command as typed and as argv, its timeout."""

    name: str
    text: str
    argv: tuple[str, ...]
    timeout: float = DEFAULT_TIMEOUT

    def who(self, seat: int | None) -> str:
        """How errors name it: the seat, the kind and the command."""
        at = f"P{seat}'s bot" if seat is not None else "bot"
        return f"{at} {KIND_PREFIX}{self.name} ({self.text})"


# ---------------------------------------------------------------------- the bots a command defined

_DEFINED: dict[str, BotCommand] = {}


def parse_definition(text: str, timeout: float = DEFAULT_TIMEOUT) -> BotCommand:
    """``NAME=COMMAND`` (``--bot``): the name before the first ``=``, the command after it. Raises ValueError
    saying what is wrong: no name, a name with other characters, a command that does not split (an unclosed
    quote), a program that is not found."""
    name, eq, command = text.partition("=")
    name = name.strip()
    if not eq or not _NAME.fullmatch(name):
        raise ValueError(
            f"{text!r}: give a name and the command, NAME=COMMAND (e.g. --bot mine='python3 my_bot.py', then "
            "--agents ext:mine); a name is letters, digits, _ . - (at most 40)"
        )
    try:
        argv = tuple(shlex.split(command))
    except ValueError as e:
        raise ValueError(f"--bot {name}: the command {command!r} does not split into words: {e}") from None
    if not argv:
        raise ValueError(f"--bot {name}: the command is empty (NAME=COMMAND)")
    program = argv[0]
    if shutil.which(program) is None:
        where = "is not a file that can be run" if os.sep in program else "is not found on PATH"
        raise ValueError(f"--bot {name}: the program {program!r} {where}")
    if not timeout > 0:
        raise ValueError(f"--bot-timeout: a number of seconds above 0 (got {timeout})")
    return BotCommand(name, command.strip(), argv, float(timeout))


def define(texts: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> dict[str, BotCommand]:
    """Make the bots of ``--bot NAME=COMMAND`` (each given once) the ones ``ext:NAME`` names in this process,
    replacing any defined before. Raises ValueError (parse_definition's, or a name given twice)."""
    bots: dict[str, BotCommand] = {}
    for text in texts:
        bot = parse_definition(text, timeout)
        if bot.name in bots:
            raise ValueError(f"--bot {bot.name} is given twice")
        bots[bot.name] = bot
    adopt(bots)
    return dict(bots)


def adopt(bots: Mapping[str, BotCommand]) -> None:
    """Take these definitions as they are (a worker process is handed its batch's)."""
    _DEFINED.clear()
    _DEFINED.update(bots)


def defined() -> dict[str, BotCommand]:
    """The external bots defined in this process, by name."""
    return dict(_DEFINED)


def bot_named(name: str) -> BotCommand:
    """The bot ``ext:NAME`` names; ValueError if none was defined by that name."""
    if not name:
        raise ValueError(f"{KIND_PREFIX}NAME names a bot given with --bot NAME=COMMAND (the name is missing)")
    if name not in _DEFINED:
        known = ", ".join(_DEFINED) or "none"
        raise ValueError(
            f"no external bot named {name!r}: define it with --bot {name}='COMMAND' (defined: {known}; "
            "docs/bots-protocol.md)"
        )
    return _DEFINED[name]


def definition_words(bots: Mapping[str, BotCommand] | None = None) -> list[str]:
    """The ``--bot`` options that define these bots again (and ``--bot-timeout``), as words for a command line,
    already quoted."""
    bots = defined() if bots is None else bots
    out: list[str] = []
    for bot in bots.values():
        out += ["--bot", shlex.quote(f"{bot.name}={bot.text}")]
    timeouts = {b.timeout for b in bots.values()} - {DEFAULT_TIMEOUT}
    if timeouts:
        out += ["--bot-timeout", f"{max(timeouts):g}"]
    return out


# ---------------------------------------------------------------------- one process


def _line(message: Mapping[str, Any]) -> bytes:
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class BotProcess:
    """One running bot: its stdin fed by a writer thread (a bot that reads nothing can never block the game), its
    stdout read line by line by a reader thread, its stderr passed on line by line, each prefixed with the seat
    and the bot (``[P2 ext:mine] …``), the last line kept for error messages."""

    def __init__(self, bot: BotCommand, seat: int) -> None:
        self.bot, self.seat = bot, seat
        self.who = bot.who(seat)
        extra: dict[str, Any] = {"start_new_session": True} if os.name == "posix" else {}
        try:  # its environment is ours (PATH, a virtualenv), with nothing of the game added; no shell
            self.proc = subprocess.Popen(
                list(bot.argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                close_fds=True,
                **extra,
            )
        except OSError as e:
            raise BotBroken(f"{self.who} cannot be started: {e.strerror or e}") from None
        self.fresh = True  # no answer yet: the first one may take START_GRACE longer
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.out: queue.Queue[bytes | None] = queue.Queue()
        self.last_words = ""  # its last line on stderr
        threads = [
            threading.Thread(target=t, name=f"bot P{seat} {bot.name}", daemon=True)
            for t in (self._write, self._read, self._pass_stderr)
        ]
        self.stderr_reader = threads[2]  # joined before a crash is reported, so its last words are in the report
        for thread in threads:
            thread.start()

    def _write(self) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            while (data := self.out.get()) is not None:
                stdin.write(data)
                stdin.flush()
        except (OSError, ValueError):  # it exited (a broken pipe) or was killed: its answer will say so
            pass
        finally:
            with contextlib.suppress(OSError, ValueError):
                stdin.close()

    def _read(self) -> None:
        stdout = self.proc.stdout
        assert stdout is not None
        try:
            while line := stdout.readline(MAX_LINE):
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError, ValueError):
                stdout.close()
        self.lines.put(None)  # the end of its output

    def _pass_stderr(self) -> None:
        stderr = self.proc.stderr
        assert stderr is not None
        prefix = f"[P{self.seat} {KIND_PREFIX}{self.bot.name}] "
        try:
            while line := stderr.readline(MAX_LINE):
                text = line.decode("utf-8", "replace").rstrip("\r\n")
                self.last_words = text
                try:
                    sys.stderr.write(prefix + text + "\n")
                    sys.stderr.flush()
                except (OSError, ValueError):  # our stderr is gone: keep draining the bot's
                    pass
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError, ValueError):
                stderr.close()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue one line for the bot (never blocks: a bot that does not read fails by its answer's timeout)."""
        self.out.put(_line(message))

    def answer(self, what: str) -> bytes:
        """The next line the bot writes, within its timeout; BotError if it exits or does not answer in time."""
        timeout = self.bot.timeout + (START_GRACE if self.fresh else 0.0)
        deadline = time.monotonic() + timeout
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.kill()
            if not self.fresh:
                late = "{} did not answer {} within {:g} s (--bot-timeout): it was stopped"
                raise BotError(
                    late.format(self.who, what, timeout), late.format(self.who, PUBLIC_WHAT, timeout)
                ) from None
            # Its first answer: the figure is --bot-timeout plus the start's grace, which the reader did not type; and a
            # bot that never answers at all most often wrote its answer into its own output buffer, never flushed.
            first = (
                f"{self.who} did not answer {{}}, its first, within {timeout:g} s (--bot-timeout "
                f"{self.bot.timeout:g} s + {START_GRACE:g} s for a process just started): it was stopped. "
                "Does it flush its output after each answer? (docs/bots-protocol.md, section 3)"
            )
            raise BotError(first.format(what), first.format(PUBLIC_WHAT)) from None
        if line is None:
            status = self._exit_status()
            # its stderr drains on its own thread: a loaded machine may not have read the last line yet
            self.stderr_reader.join(END_GRACE)
            said = f"; its last line on stderr: {self.last_words[:300]}" if self.last_words else ""
            raise BotError(
                f"{self.who} exited ({status}) before answering {what}{said}",
                f"{self.who} exited ({status}) before answering {PUBLIC_WHAT}{said}",
            )
        self.fresh = False
        return line

    def stray(self) -> bytes | None:
        """A line the bot wrote that nobody asked for (two answers to one decision), if one is waiting."""
        try:
            line = self.lines.get_nowait()
        except queue.Empty:
            return None
        if line is None:  # not a line: the end of its output, left for answer() to report
            self.lines.put(None)
        return line

    def _exit_status(self) -> str:
        try:
            code = self.proc.wait(END_GRACE)
        except subprocess.TimeoutExpired:
            self.kill()
            return "its stdout closed"
        if code < 0:
            return f"killed by signal {-code}"
        return f"status {code}"

    def kill(self) -> None:
        _forget(self)
        if self.proc.poll() is None:
            self.proc.kill()
        self.out.put(None)
        self.proc.wait()

    def close(self) -> None:
        """End it the polite way: its stdin closes (its cue to exit); killed after END_GRACE if it lingers."""
        _forget(self)
        self.out.put(None)
        try:
            self.proc.wait(END_GRACE)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# ---------------------------------------------------------------------- the processes of this OS process

_LOCK = threading.Lock()
_OWNER: list[int] = []  # the pid the pool below belongs to (a forked worker starts its own)
_IDLE: dict[tuple[str, int], list[BotProcess]] = {}  # (bot name, seat) -> processes between games
_LIVE: set[BotProcess] = set()  # every process started here and not ended
_FAILED: dict[str, int] = {}  # bot name -> games it failed in a row (at any seat)


def _mine() -> None:
    """Make the pool this process's: a forked child inherits its parent's entries, which are not its to use."""
    pid = os.getpid()
    if _OWNER and _OWNER[0] == pid:
        return
    _OWNER[:] = [pid]
    _IDLE.clear()
    _LIVE.clear()
    _FAILED.clear()
    atexit.register(close_all)
    try:  # a worker of a process pool leaves through multiprocessing, which runs its finalizers, not atexit
        from multiprocessing import util

        util.Finalize(None, close_all, exitpriority=10)
    except Exception:  # pragma: no cover  (no multiprocessing)
        pass


def _forget(p: BotProcess) -> None:
    with _LOCK:
        _LIVE.discard(p)
        idle = _IDLE.get((p.bot.name, p.seat), [])
        if p in idle:
            idle.remove(p)


def lease(bot: BotCommand, seat: int) -> BotProcess:
    """A process for `bot` at `seat`: one that played a game there before and is alive, else a new one."""
    with _LOCK:
        _mine()
        idle = _IDLE.setdefault((bot.name, seat), [])
        while idle:
            p = idle.pop()
            if p.bot == bot and p.alive():
                return p
            _LIVE.discard(p)
    p = BotProcess(bot, seat)
    with _LOCK:
        _LIVE.add(p)
    return p


def give_back(p: BotProcess, finished: bool) -> None:
    """A process whose game ended (its `end` line sent): kept for the seat's next game. A game that `finished`
    (not stopped by a failure) ends its bot's run of failed games."""
    with _LOCK:
        if finished:
            _FAILED.pop(p.bot.name, None)
        if p in _LIVE and p.alive():
            _IDLE.setdefault((p.bot.name, p.seat), []).append(p)


def failed(bot: BotCommand) -> int:
    """Count a game `bot` failed: the games it failed in a row (at any seat) in this process."""
    with _LOCK:
        _FAILED[bot.name] = n = _FAILED.get(bot.name, 0) + 1
    return n


def running() -> int:
    """How many bot processes this process has running (tests; a batch's end)."""
    with _LOCK:
        return len(_LIVE) if _OWNER and _OWNER[0] == os.getpid() else 0


def close_all() -> None:
    """End every bot process this process started (a batch's end, exit); a forked child ends none of its
    parent's."""
    if not _OWNER or _OWNER[0] != os.getpid():
        return
    with _LOCK:
        live = list(_LIVE)
        _IDLE.clear()
        _FAILED.clear()
    for p in live:
        p.close()


# ---------------------------------------------------------------------- the agent


_DIGESTS: dict[int, tuple[Any, str]] = {}  # id(action space) -> (the space, its digest); one per content set


def content_id(content: Any) -> dict[str, Any]:
    """What `hello` says of the content: its packs, the size of its action space, and a digest of the action
    space's numbering (two contents with the same digest give every action the same id)."""
    if content is None:
        return {"packs": [], "action_space": None, "digest": None}
    from ..engine.actions import space_for

    space = space_for(content)
    kept = _DIGESTS.get(id(space))
    if kept is None or kept[0] is not space:  # kept per action space (a batch says hello for every game and
        # seat), beside it rather than on it: the compiled engine's classes take no attribute of another module's
        kept = _DIGESTS[id(space)] = (space, hashlib.blake2b(repr(space.keys).encode(), digest_size=8).hexdigest())
    digest = kept[1]
    packs = [{"id": p.id, "version": p.version} for p in getattr(content, "packs", ())]
    return {"packs": packs, "action_space": space.size, "digest": digest}


def _shown(line: bytes, limit: int = 80) -> str:
    text = line.decode("utf-8", "replace").rstrip("\r\n")
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _ids_text(ids: Sequence[int], limit: int = 12) -> str:
    shown = ", ".join(map(str, ids[:limit]))
    return shown + (f" … ({len(ids)} in all)" if len(ids) > limit else "")


class ExternalAgent(Agent):
    """One seat's external bot for one game: it sends `hello` at the seat's first decision, a `decide` line per
    decision (the observation with the history records it has not sent yet, and the descriptors), reads and
    checks the answer, and sends `end` when the driver tells it the game is over (``end``)."""

    observes = True
    hears_end = True

    def __init__(self, bot: BotCommand, seed: int, content: Any = None) -> None:
        self.bot = bot
        self.seed = seed  # the seat's bot seed (seeds.derive(game seed, "agent", seat)): handed to the bot
        self.content = content
        self.process: BotProcess | None = None
        self.seat: int | None = None
        self.sent = 0  # history records of this game the bot has been sent

    def _begin(self, observation: Observation) -> BotProcess:
        self.seat = int(observation["seat"])
        p = lease(self.bot, self.seat)
        self.process = p
        p.send(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "seat": self.seat,
                "players": len(observation["players"]),
                "seed": self.seed,
                "content": content_id(self.content),
                "timeout": self.bot.timeout,
            }
        )
        return p

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        if observation is None:
            raise BotError(f"{self.bot.who(self.seat)}: an external bot is sent its observation; none was given")
        p = self.process or self._begin(observation)
        ids = [int(d["id"]) for d in actions]
        kind = (observation.get("decision") or {}).get("kind", "?")
        what = f"a decision ({kind}, {len(ids)} actions)"
        try:
            stray = p.stray()
            if stray is not None:
                raise BotError(f"{p.who} wrote a line nobody asked for, {_shown(stray)}: one line per decide")
            history = observation["history"]
            seen = {k: v for k, v in observation.items() if k != "history"}
            seen["history"] = history[self.sent :]
            p.send({"type": "decide", "history_from": self.sent, "observation": seen, "actions": list(actions)})
            self.sent = len(history)
            line = p.answer(what)
            text = line.decode("utf-8", "replace").strip()
            if not _ANSWER.fullmatch(text):
                rule = "an answer is one action id, a number alone on its line"
                raise BotError(
                    f"{p.who} answered {_shown(line)} to {what}: {rule} (here one of {_ids_text(ids)}); print "
                    "anything else to stderr",
                    f"{p.who} answered {_shown(line)} to {PUBLIC_WHAT}: {rule}; print anything else to stderr",
                )
            answer = int(text)
            if answer not in ids:
                raise BotError(
                    f"{p.who} answered {answer} to {what}, not one of the legal action ids ({_ids_text(ids)})",
                    f"{p.who} answered {answer} to {PUBLIC_WHAT}, not one of the legal action ids",
                )
        except BotError as e:
            self.process = None
            p.kill()
            if failed(self.bot) >= FAILURES_IN_A_ROW:
                again = f" (it failed {FAILURES_IN_A_ROW} games in a row)"
                raise BotBroken(f"{e}{again}", e.public + again) from None
            raise
        return answer

    def end(self, observation: Observation | None) -> None:
        """The game is over (its final observation for this seat), or it stopped before its end (None: failed
        or abandoned): the bot is told, and its process kept for the seat's next game."""
        p, self.process = self.process, None
        if p is None:
            return
        message: dict[str, Any] = {"type": "end", "result": None, "history_from": self.sent, "observation": None}
        if observation is not None:
            history = observation["history"]
            seen = {k: v for k, v in observation.items() if k != "history"}
            seen["history"] = history[self.sent :]
            message["result"] = observation.get("result")
            message["observation"] = seen
        p.send(message)
        give_back(p, observation is not None)


def external_factory(name: str) -> Callable[..., Agent]:
    """The factory ``ext:NAME`` names: ``(seed, content=None) -> ExternalAgent`` (ValueError if NAME was not
    defined)."""
    bot = bot_named(name)

    def make(seed: int, content: Any = None) -> Agent:
        return ExternalAgent(bot, seed, content)

    return make
