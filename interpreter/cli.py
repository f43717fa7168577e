"""The ``fengsheng`` command."""

from __future__ import annotations

import json
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from . import __version__
from .cli_options import (
    bot_options,
    content_option,
    content_paths,
    define_bots,
    expansions_option,
    format_option,
    pin_options,
)
from .seeds import MAX_SEED
from .snippet import clip

# The most games one `simulate` runs (a batch of more is a typo, or a job for several batches and seeds).
MAX_GAMES = 1_000_000

# The loader, the engine and the language load only when a command needs them: `fengsheng --help`
# and a mistyped flag answer at once.


def _load_or_exit(paths):
    from .content.loader import ContentErrors, load_content

    try:
        return load_content(paths)
    except ContentErrors as e:
        for err in e.errors:
            click.echo(str(err), err=True)
        click.echo(f"{len(e.errors)} error(s) in the content; run `fengsheng validate` for details.", err=True)
        sys.exit(1)


class _progress:
    """A progress bar on stderr for a batch of games: only on a terminal, and only once it has run a second."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: Any = None  # a rich Progress, made only for a terminal (rich loads only then)
        self.started: float | None = None

    def __enter__(self) -> Callable[[int], None] | None:
        if not sys.stderr.isatty():
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self.bar = Progress(
            "games", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=Console(stderr=True)
        )
        self.task = self.bar.add_task("games", total=self.total)
        return self.update

    def update(self, done: int) -> None:
        now = time.monotonic()
        if self.started is None:
            self.started = now
        if not self.bar.live.is_started and now - self.started >= 1.0:
            self.bar.start()
        self.bar.update(self.task, completed=done)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None and self.bar.live.is_started:
            self.bar.stop()


class _Mistake(click.ClickException):
    """A mistake in the command line, shown on one line: what is wrong and where the help is (exit status 2)."""

    exit_code = 2

    def __init__(self, e: click.UsageError) -> None:
        # one line, and a value given on the command line (5,000 digits …) is not echoed whole
        super().__init__(clip(" ".join(e.format_message().split()), 300))
        self.command = e.ctx.command_path if e.ctx is not None else "fengsheng"

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.message} (see {self.command} --help)", file=file, err=file is None)


# `fengsheng` or `fengsheng scenario` alone prints its help: that is no mistake
_SHOWS_HELP: tuple[type, ...] = tuple(filter(None, [getattr(click.exceptions, "NoArgsIsHelpError", None)]))


class _LazyGroup(click.Group):
    """A command group whose listed commands live in other modules, imported only when run.

    ``lazy`` maps a command name to ``(module, attribute, one-line help)``; the
    help line lets ``--help`` list the command without importing it. Every usage
    mistake in it or its commands (an unknown flag, a value out of range, a missing
    path) is shown on one line.
    """

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str, str]] | None = None, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.lazy = lazy or {}

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as e:
            if isinstance(e, _SHOWS_HELP):
                raise
            raise _Mistake(e) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            if isinstance(e, _SHOWS_HELP):
                raise
            raise _Mistake(e) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            import importlib

            module, attr, _ = self.lazy[name]
            command = getattr(importlib.import_module(module, __package__), attr)
            assert isinstance(command, click.Command)
            return command
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            if name in self.lazy:
                rows.append((name, self.lazy[name][2]))
            else:
                command = super().get_command(ctx, name)
                if command is not None and not command.hidden:
                    rows.append((name, command.get_short_help_str(formatter.width - 6 - len(name))))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(
    cls=_LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    lazy={
        "play": (".play_cmd", "play", "Play a game in the terminal: your seat against bots, or hot-seat."),
        "serve": (".serve_cmd", "serve", "Serve a table in the browser: a lobby, a link per seat, bots, replays."),
        "new": (".new_cmd", "new", "Write a starting pack, role, card or secret task, with a scenario that passes."),
        "docs": (".docs_cmd", "docs", "Print a documentation page installed with fengsheng, or list the pages."),
        "pack": (".pack_cmd", "pack", "Content packs: what a rule set resolves to, what a fork changes of another."),
        "balance": (
            ".balance_cmd",
            "balance",
            "Sweep a grid of games (players × bots × packs) on every core or a Ray cluster; report it.",
        ),
        "describe": (
            ".describe_cmd",
            "describe",
            "Print the rules text generated from the code of a card, secret task, role or identity.",
        ),
    },
)
@click.version_option(__version__, prog_name="fengsheng")
def main():
    """fengsheng: a data-driven rules interpreter for 风声 (The Message)."""


@main.command()
@click.option("--players", "-p", default=5, show_default=True, type=click.IntRange(2, 10), help="players per game")
@click.option("--games", "-n", default=100, show_default=True, type=click.IntRange(1, MAX_GAMES), help="how many games")
@click.option(
    "--seed",
    "-s",
    default=None,
    type=click.IntRange(0, MAX_SEED),
    help="seed of the batch, to play the same games again (default: a fresh 128-bit seed nobody can guess, "
    "printed in the summary and kept in the log)",
)
@content_option()
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, writable=True),
    help="write every event and decision of every game to this JSONL file",
)
@click.option("--max-turns", type=click.IntRange(1), default=None, help="override the rules' turn limit")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 256),
    default=None,
    help="worker processes (default: every core); the output does not depend on it",
)
@format_option(legacy_json=True, help="the summary (or --game-seed's game) as text, or as one JSON document")
@click.option(
    "--game-seed",
    type=click.IntRange(0, MAX_SEED),
    default=None,
    help="play only the one game with this game seed (a failed game's line in a summary names it)",
)
@click.option("--trace", is_flag=True, help="with --game-seed: print the game's resolution trace")
@pin_options()
@click.option(
    "--pin-seat",
    type=click.IntRange(0, 9),
    default=None,
    metavar="SEAT",
    help="with --game-seed and --role/--task: the seat they are dealt to (a batch's game I has them at seat "
    "I % players; a failed game's line gives it)",
)
@click.option(
    "--agents",
    "agents_spec",
    default=None,
    metavar="KIND|KIND,KIND,…",
    help="the bots: one kind for the table or one per seat (random, heuristic, search:N, ext:NAME for a --bot); "
    "the summary then reports win rates by agent (default: random agents)",
)
@bot_options()
def simulate(
    players,
    games,
    seed,
    content_dirs,
    expansions,
    log_path,
    max_turns,
    jobs,
    fmt,
    game_seed,
    trace,
    agents_spec,
    bot_defs,
    bot_timeout,
    pin_role,
    pin_task,
    pin_seat,
):
    """Play GAMES games between random agents (or --agents) and print a summary.

    The same seed (and content) prints the same result, byte for byte, with any
    number of --jobs. A progress bar shows on stderr when it is a terminal. A game
    that fails is listed with its game seed and the command that plays it alone
    (--game-seed) with its resolution trace (--trace).
    """
    from .agents.external import BotBroken, close_all as close_bots
    from .seeds import fresh_seed
    from .sim import WorkerDied, default_jobs, parse_agents, simulate as run_batch

    define_bots(bot_defs, bot_timeout)
    agents = None
    if agents_spec is not None:
        try:
            agents = parse_agents(agents_spec, players)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--agents") from None
    if trace and game_seed is None:
        raise click.UsageError("--trace needs --game-seed (the one game to trace)")
    if game_seed is not None and log_path:
        raise click.UsageError("--game-seed plays one game and prints it: not with --log")
    paths = content_paths(content_dirs, expansions)
    content = _load_or_exit(paths)
    if players not in content.rules.identity_table:
        raise click.UsageError(
            f"the rules have no identity table for {players} players (have: {sorted(content.rules.identity_table)})"
        )
    if not any(lo <= players <= hi for lo, hi, _ in content.rules.decks):
        sizes = ", ".join(f"{lo}-{hi}" for lo, hi, _ in content.rules.decks) or "none"
        raise click.UsageError(f"the rules have no deck for {players} players (rules.yaml decks: players {sizes})")
    pins = _pins(content, players, pin_role, pin_task, pin_seat, game_seed)
    if game_seed is not None:
        try:
            _one_game(content, players, game_seed, max_turns, trace, agents, fmt, pins)
        except BotBroken as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(1)
        finally:
            close_bots()
        return
    jobs = jobs or default_jobs()
    if seed is None:
        seed = fresh_seed()
    try:
        with _progress(games) as progress:
            summary = run_batch(
                content,
                players,
                games,
                seed,
                log_path=log_path,
                content_paths=paths,
                max_turns=max_turns,
                jobs=jobs,
                progress=progress,
                agents=agents,
                pins=pins,
            )
    except OSError as e:  # the log cannot be written: a missing folder, a full disk
        click.echo(f"error: {e.filename}: {e.strerror}" if e.filename else f"error: {e}", err=True)
        sys.exit(1)
    except BotBroken as e:  # an external bot that cannot play on (agents/external.py): no summary of the rest
        click.echo(f"error: {e}", err=True)
        sys.exit(1)
    except WorkerDied as e:  # a worker process was killed (out of memory, a signal): say which games
        if e.summary is not None:  # the games counted before it died
            e.summary.rerun = _rerun_command(players, content_dirs, expansions, max_turns, agents_spec, pins)
            click.echo(e.summary.text(f"fengsheng {__version__}: {players} players, seed {seed} (stopped early)"))
        click.echo(f"error: {e}", err=True)
        sys.exit(1)
    summary.rerun = _rerun_command(players, content_dirs, expansions, max_turns, agents_spec, pins)
    if fmt == "json":
        # the batch seed: what plays the same games again (a fresh one when --seed was not given)
        click.echo(json.dumps({"seed": seed, **summary.to_json()}, ensure_ascii=False, sort_keys=True, indent=2))
        sys.exit(1 if summary.failures or summary.log_error is not None else 0)
    deck = len(content.deck_for(players))
    header = (
        f"fengsheng {__version__}: {games} games, {players} players, seed {seed}\n"
        f"content: {content.rules.name}; packs: {', '.join(p.id for p in content.packs)}\n"
        f"  ({len(content.card_types)} card types, {deck}-card deck, "
        f"{len(content.tasks)} secret tasks, {len(content.roles)} roles)"
    )
    click.echo(summary.text(header))
    if log_path and summary.log_error is not None:  # the summary above counts every game all the same
        click.echo(
            f"\nerror: the log {log_path} stopped after {summary.log_written} of {games} games: "
            f"{summary.log_error}; it holds those games whole (fengsheng replay {log_path})",
            err=True,
        )
        sys.exit(1)
    if log_path:
        click.echo(f"\nlog written to {log_path}; check it with: fengsheng replay {log_path}")
    if summary.failures:
        sys.exit(1)


def _pins(content, players: int, role: str | None, task: str | None, seat: int | None, game_seed: int | None):
    """The batch's pins (engine/pins.py) from --role, --task and --pin-seat, checked against the content (a
    usage error with a did-you-mean hint), or None."""
    from .engine.pins import Pins, pin_problems

    if seat is not None and (game_seed is None or not (role or task)):
        raise click.UsageError("--pin-seat is the seat of --role/--task in the one game of --game-seed")
    if seat is not None and seat >= players:
        raise click.BadParameter(
            f"seat {seat} at a table of {players} (seats 0-{players - 1})", param_hint="--pin-seat"
        )
    if not (role or task):
        return None
    problems = pin_problems(content, role, task, [players])
    if problems:
        raise click.BadParameter(
            "; ".join(problems), param_hint="--role" if role and "role" in problems[0] else "--task"
        )
    return Pins(role, task, seat or 0)


def _rerun_command(players: int, content_dirs, expansions, max_turns, agents_spec=None, pins=None) -> str:
    """The command that plays one game of this batch alone, with its trace ("{seed}": its game seed; "{index}":
    its index, which places the batch's pins)."""
    import shlex

    words = ["fengsheng", "simulate", "-p", str(players)]
    for d in content_dirs:
        words += ["--content", shlex.quote(str(d))]
    if expansions is not None:
        words += ["--expansions", shlex.quote(expansions)]
    if max_turns is not None:
        words += ["--max-turns", str(max_turns)]
    if agents_spec is not None:
        words += ["--agents", shlex.quote(agents_spec)]
        if "ext:" in agents_spec:
            from .agents.external import definition_words

            words += [w.replace("{", "{{").replace("}", "}}") for w in definition_words()]  # (format()ted)
    if pins:
        words += [f"--{k} {shlex.quote(v)}" for k, v in (("role", pins.role), ("task", pins.task)) if v]
        words += ["--pin-seat", "{pin_seat}"]
    return " ".join([*words, "--game-seed", "{seed}", "--trace"])


# A trace longer than this is shown as its first and last lines (a stuck game asks 50,000 questions).
TRACE_HEAD, TRACE_TAIL = 200, 2_000


def _one_game(
    content, players: int, gseed: int, max_turns, trace: bool, agents=None, fmt: str = "text", pins=None
) -> None:
    """simulate --game-seed: one game, as a batch plays it; its trace with --trace; exit 1 if it fails."""
    from .scenario import format_trace
    from .sim import REASON_TEXT, play_game

    records: list | None = [] if trace else None
    game, failure = play_game(content, players, gseed, max_turns, trace=records, agents=agents, pins=pins)
    lines = format_trace(records) if records else []
    if len(lines) > TRACE_HEAD + TRACE_TAIL:
        left_out = len(lines) - TRACE_HEAD - TRACE_TAIL
        lines = [*lines[:TRACE_HEAD], f"  … {left_out} lines of the trace left out …", *lines[-TRACE_TAIL:]]
    if fmt == "json":
        result = game.result if game is not None and failure is None else None
        record = {
            "game_seed": gseed,
            "players": players,
            "ok": failure is None,
            "failure": None if failure is None else str(failure),
            "turns": game.turn_no if game is not None else None,
            "decisions": game.decision_count if game is not None else None,
            "winners": [p.seat for p in result.winners] if result is not None else None,
            "reason": result.reason if result is not None else None,
        }
        if trace:
            record["trace"] = lines
        click.echo(json.dumps(record, ensure_ascii=False, indent=2))
        sys.exit(0 if failure is None else 1)
    if lines:
        click.echo("resolution trace:")
        click.echo("\n".join(lines))
    head = f"game seed {gseed}, {players} players"
    if failure is not None:
        at = f" (turn {game.turn_no}, {game.decision_count} decisions)" if game is not None else ""
        click.echo(f"FAILED {head}{at}: {failure}")
        sys.exit(1)
    assert game is not None and game.result is not None  # it ran to its end
    winners = ", ".join(f"P{p.seat}" for p in game.result.winners) or "nobody"
    reason = REASON_TEXT.get(game.result.reason, game.result.reason)
    click.echo(f"{head}: winners {winners} ({reason}); {game.turn_no} turns, {game.decision_count} decisions")


@main.command()
@click.argument("log_path", type=click.Path(exists=True, dir_okay=False))
@content_option("content pack directory the games were played with")
@click.option("--game", "only", type=int, default=None, help="replay only the game with this index")
@click.option(
    "--as",
    "view",
    default=None,
    metavar="P<seat>|public",
    help="instead of re-running, show the games as one seat (P2) or a spectator (public) saw them",
)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="with --as: write that seat's copy of the log (JSONL, no seed) instead of printing it",
)
@click.option(
    "--max-turns",
    type=click.IntRange(1),
    default=None,
    help="the turn limit the games were played with (default: the log's, as simulate --max-turns wrote it; "
    "else the rules')",
)
@format_option(help="a line per game, or one JSON document (games: index, seed, ok, message); --as prints JSON Lines")
def replay(log_path, content_dirs, expansions, only, view, out_path, max_turns, fmt):
    """Re-run logged games from their seed and decisions; check the same events and end state.

    With --as, show or export one seat's copy of the referee's log: only the
    records and fields that seat could see, and no seed. The copy is JSON Lines,
    a log's own format, whatever --format says; with --out, --format json prints
    what was written as one JSON document instead of a sentence.
    """
    from .sim import ReplayMismatch, content_fingerprint, failure_text, read_log, replay_game

    try:  # tolerant: a game with a bad line is reported below, the others are replayed
        games = read_log(log_path, tolerant=True)
    except (ReplayMismatch, OSError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(1)
    broken = [_unread(g) for g in games if "broken" in g]
    unread_games = [g for g in games if "broken" in g]
    games = [g for g in games if "broken" not in g]
    if broken and (view is not None or not games):  # a seat's copy is of whole logs only
        for message in broken[: 1 if view is not None else 20]:
            click.echo(f"error: {message}", err=True)
        sys.exit(1)
    if not games:
        click.echo(f"error: {log_path} holds no game", err=True)
        sys.exit(1)
    indexes = [g["header"].get("index") for g in games]
    if only is not None and only not in indexes:
        shown = ", ".join(clip(str(i)) for i in indexes[:10]) + (", …" if len(indexes) > 10 else "")
        click.echo(f"error: --game {clip(str(only))}: the log has no such game (its games: {shown})", err=True)
        sys.exit(2)
    if view is not None:
        _seat_view(games, view, only, out_path, log_path, fmt)
        return
    if out_path is not None:
        click.echo("error: --out needs --as (which seat's copy to write)", err=True)
        sys.exit(2)
    paths = content_paths(content_dirs, expansions)
    if not content_dirs and expansions is None:
        paths = _logged_packs(games, paths, log_path)
    content = _load_or_exit(paths)
    fp = content_fingerprint(paths)
    bad = len(broken)
    records = [
        {"index": g["header"].get("index"), "seed": g["header"].get("seed"), "ok": False, "message": m}
        for g, m in zip(unread_games, broken, strict=True)
    ]
    for message in broken[:20]:
        click.echo(f"error: {message}", err=True)
    if len(broken) > 20:
        click.echo(f"error: … and {len(broken) - 20} more games of the log could not be read", err=True)
    for logged in games:
        h = logged["header"]
        if only is not None and h.get("index") != only:
            continue
        if h.get("content") != fp:
            click.echo(
                f"warning: game {h.get('index')} was played with different content ({h.get('content')} vs {fp})",
                err=True,
            )
        try:
            ok, msg = replay_game(content, logged, max_turns)
        except Exception as e:  # a bug in replay itself: this game is reported, the others are replayed
            ok, msg = False, f"{failure_text(e)}; the log file reproduces it"
        same = h.get("content") == fp
        records.append({"index": h.get("index"), "seed": h.get("seed"), "ok": ok, "message": msg, "same_content": same})
        if fmt == "text":
            click.echo(f"game {h.get('index')} (seed {h.get('seed')}): {'OK' if ok else 'MISMATCH'} — {msg}")
        bad += not ok
    if fmt == "json":
        click.echo(json.dumps({"ok": not bad, "games": records}, ensure_ascii=False, indent=2))
    if bad:
        unread = f" ({len(broken)} of them could not be read)" if broken else ""
        click.echo(f"{bad} game(s) did not replay identically{unread}", err=True)
        sys.exit(1)


def _unread(game: dict) -> str:
    """What is wrong with a game of a log that could not be read, naming the game when its header was read."""
    h = game["header"]
    if "index" in h:  # said on the first line, before any snippet of the line
        first, _, rest = game["broken"].partition("\n")
        return f"{first} (game {h['index']}, seed {h.get('seed')}: not replayed)" + (f"\n{rest}" if rest else "")
    return game["broken"]


def _logged_packs(games: list[dict], default: list, log_path: str) -> list:
    """Without --content or --expansions, replay plays the packs the log's header names (`packs`, written by
    simulate: bundled packs by id, others relative to the log's folder) when they are all there with the content
    the games were played with; else the default content, saying why. A pack that is not there is an error
    (naming it and where it was looked for), unless the default content is the content the log was played with."""
    from pathlib import Path

    from .content.packs import find_log_pack
    from .sim import content_fingerprint

    header = games[0]["header"]
    logged = header.get("packs")
    if not isinstance(logged, list) or not logged or not all(isinstance(p, str) for p in logged):
        return default
    base = Path(log_path).resolve().parent
    paths = []
    for ref in logged:
        found, places = find_log_pack(ref, base)
        if found is None:
            if content_fingerprint(default) == header.get("content"):
                click.echo(
                    f"note: the log names the pack {clip(ref)}, which is not here; the default content is the "
                    "content it was played with: replaying with it",
                    err=True,
                )
                return default
            click.echo(
                f"error: {log_path} was played with the pack {clip(ref)} (its header's `packs`), "
                f"which is not here (looked in {', '.join(clip(p, 300) for p in places)}): give --content DIR (and "
                "--expansions) to replay it with the packs you have",
                err=True,
            )
            sys.exit(1)
        paths.append(found)
    if [p.resolve() for p in paths] == [Path(p).resolve() for p in default]:
        return default
    if content_fingerprint(paths) != header.get("content"):
        click.echo(
            "note: the packs the log names have changed since it was written: replaying with the default "
            "content (give --content to choose)",
            err=True,
        )
        return default
    click.echo("content: " + ", ".join(clip(str(p)) for p in paths) + " (from the log)", err=True)
    return paths


def _seat_view(games, view: str, only, out_path, log_path, fmt: str = "text") -> None:
    """replay --as: print or write one seat's copy of each game. Its header names the packs as the log's does,
    a pack of one's own relative to the copy's folder (the current directory when printed), not the log's."""
    import json
    from pathlib import Path

    from .content.packs import find_log_pack, log_pack_ref
    from .sim import seat_header, seat_records

    here, there = Path(log_path).resolve().parent, Path(out_path).parent if out_path is not None else Path.cwd()

    def moved(ref: object) -> object:
        if not isinstance(ref, str):
            return ref
        found = find_log_pack(ref, here)[0]
        return log_pack_ref(found if found is not None else here / ref, there)

    if view == "public":
        seat = None
    elif view[:1] in ("P", "p") and view[1:].isascii() and view[1:].isdigit() and len(view) <= 4:
        seat = int(view[1:])
    else:
        click.echo(f"error: --as takes P<seat> (e.g. P2) or public, not {clip(repr(view))}", err=True)
        sys.exit(2)
    lines = []
    for logged in games:
        h = logged["header"]
        if only is not None and h.get("index") != only:
            continue
        if h.get("view", "referee") != "referee":
            click.echo(
                f"error: game {h.get('index')} is already one seat's copy ({h.get('view')}); "
                "per-seat copies are made from the referee's log",
                err=True,
            )
            sys.exit(1)
        if seat is not None and not 0 <= seat < h.get("players", 0):
            click.echo(
                f"error: game {h.get('index')} has {h.get('players')} seats (P0..P{h.get('players', 1) - 1})", err=True
            )
            sys.exit(2)
        header = seat_header(logged, seat)
        if isinstance(header.get("packs"), list):
            header["packs"] = [moved(ref) for ref in header["packs"]]
        lines.append(json.dumps({"type": "game", **header}, ensure_ascii=False))
        for rec in seat_records(logged, seat):
            kind = "decision" if "d" in rec else "event"
            lines.append(json.dumps({"type": kind, **rec}, ensure_ascii=False, sort_keys=True))
    text = "\n".join(lines) + "\n"
    if out_path is None:
        click.echo(text, nl=False)
    else:
        try:
            with open(out_path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            click.echo(f"error: cannot write {out_path}: {e.strerror or e}", err=True)
            sys.exit(1)
        n_games = sum(1 for ln in lines if ln.startswith('{"type": "game"'))
        if fmt == "json":
            click.echo(json.dumps({"view": view, "games": n_games, "out": str(out_path)}, ensure_ascii=False))
        else:
            click.echo(f"{view}'s copy of {n_games} game(s) written to {out_path}")


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@format_option(help="each problem with its line and a caret, or one JSON document (ok, errors, warnings)")
@expansions_option()
def validate(paths, fmt, expansions):
    """Check content packs or single files (default: the bundled game); print every problem.

    A pack without a rules.yaml (roles, cards, tasks to add) is checked layered over the bundled
    game, so it may use the base game's cards; single files are checked on their own.

    Each problem is printed as `path:line:col: error CODE: message`, then that
    line of the file with a caret under the column, and a hint where one helps,
    sorted by file, line and column; `fengsheng docs errors` lists the codes. A
    warning (W301, W5xx: something that may go wrong in play, such as loops inside
    loops or a mark read as another kind of value than it is set to) is shown the
    same way and does not fail the check.
    Exit status: 0 clean (warnings allowed), 1 errors, 2 usage error.
    """
    from .content.loader import load_cached, validate_paths

    for t in map(Path, paths):
        if not t.exists():
            raise click.UsageError(f"{t} does not exist")
    singles = [Path(p) for p in paths if not Path(p).is_dir()]
    folders = [p for p in paths if Path(p).is_dir()]
    targets = [*(content_paths(folders, expansions) if folders or not singles else []), *singles]
    # by file, then line and column (the loader finds them stage by stage: a file's schema errors before its code's)
    found = sorted(validate_paths(targets), key=lambda e: (str(e.path), e.line or 0, e.col or 0))
    errors = [e for e in found if e.level == "error"]
    warnings = [e for e in found if e.level != "error"]
    content = None
    if not errors and all(t.is_dir() for t in targets):
        content = load_cached(targets)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "ok": not errors,
                    "errors": [e.to_json() for e in errors],
                    "warnings": [e.to_json() for e in warnings],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        for e in found:
            click.echo(str(e))
        warned = f", {len(warnings)} warning(s)" if warnings else ""
        if errors:
            files = len({e.path for e in errors})
            click.echo(f"{len(errors)} error(s) in {files} file(s){warned}")
        elif content is not None:
            click.echo(
                f"ok: {len(content.card_types)} cards, {len(content.deck)} deck cards, "
                f"{len(content.tasks)} secret tasks, {len(content.identities)} identities, "
                f"{len(content.roles)} roles{warned}"
            )
        else:
            click.echo(f"ok: {len(targets)} file(s){warned}")
    sys.exit(1 if errors else 0)


@main.group()
def scenario():
    """Scenario tests: a mid-game state, scripted answers, expectations (fengsheng docs scenarios)."""


@scenario.command("run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--trace", is_flag=True, help="print the resolution trace of passing scenarios too")
@click.option(
    "--allow-outside",
    is_flag=True,
    help="let a scenario load content packs outside its folder and the current directory",
)
@format_option(
    help="PASS/FAIL lines, or one JSON document: ok, passed, failed, and per file its scenario's name, passed, "
    "failures (message, line, col), the file's errors and, when failing or with --trace, its resolution trace"
)
def scenario_run(paths, trace, allow_outside, fmt):
    """Run scenario files (or every *.scenario.yaml under the given folders); report pass/fail."""
    from .content.loader import ContentErrors
    from .scenario import INTERNAL, failure_record, format_trace, run_scenario

    files = []
    for p in map(Path, paths):
        files += sorted(p.rglob("*.scenario.yaml")) if p.is_dir() else [p]
    if not files:
        raise click.UsageError("no *.scenario.yaml files found")
    failed = 0
    records: list[dict] = []
    for f in files:
        record: dict = {"file": str(f), "name": None, "passed": False, "failures": [], "errors": []}
        records.append(record)
        try:
            result = run_scenario(f, allow_outside=allow_outside)
        except ContentErrors as e:
            record["errors"] = [err.to_json() for err in e.errors]
            if fmt == "text":
                click.echo(f"FAIL {f}: the file has errors")
                for err in e.errors:
                    click.echo(textwrap.indent(str(err), "  "))
            failed += 1
            continue
        except Exception as e:  # a bug: this file is reported, the others still run
            message = f"{INTERNAL}: {type(e).__name__}: {' '.join(str(e).split())[:600]}"
            record["failures"] = [failure_record(message)]
            if fmt == "text":
                click.echo(f"FAIL {f}: {message}")
            failed += 1
            continue
        record.update(name=result.name, passed=result.passed, failures=[failure_record(x) for x in result.failures])
        if trace or not result.passed:
            record["trace"] = format_trace(result.trace)
        if fmt == "text":
            click.echo(result.report())
            if trace and result.passed:
                click.echo("\n".join("    " + t for t in format_trace(result.trace)))
        failed += not result.passed
    if fmt == "json":
        summary = {"ok": not failed, "passed": len(files) - failed, "failed": failed, "files": records}
        click.echo(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        click.echo(f"{len(files) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
