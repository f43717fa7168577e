"""``fengsheng simulate``: play a batch of games between bots and print a summary, or one game alone
(--game-seed) with its resolution trace (interpreter/sim/ plays them)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

import click

from . import __version__
from .cli_options import (
    bot_options,
    card_pins,
    check_players,
    content_option,
    content_paths,
    define_bots,
    format_option,
    load_or_exit,
    pin_options,
    players_option,
)
from .seeds import MAX_SEED

# The most games one `simulate` runs (a batch of more is a typo, or a job for several batches and seeds).
MAX_GAMES = 1_000_000


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


@click.command()
@players_option("players per game")
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
    type=click.IntRange(0),
    default=None,
    metavar="SEAT",
    help="with --game-seed and --role/--task: the seat they are dealt to (a batch's game I has them at seat "
    "I % players; a failed game's line gives it)",
)
@click.option(
    "--keyed-deal",
    is_flag=True,
    help="deal in the keyed order (engine/pins.py) that pinned games and the games of a sweep of several packs are "
    "dealt in, so that packs played from the same seed share their deals; a failed game's line gives it",
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
    pin_cards,
    pin_seat,
    keyed_deal,
):
    """Play GAMES games between random agents (or --agents) and print a summary.

    The same seed (and content) prints the same result, byte for byte, with any
    number of --jobs. A progress bar shows on stderr when it is a terminal. A game
    that fails is listed with its game seed and the command that plays it alone
    (--game-seed) with its resolution trace (--trace).
    """
    from .agents.external import BotBroken, close_all as close_bots
    from .cli_options import pins_of
    from .engine.pins import pinned_content
    from .seeds import fresh_seed
    from .sim import WorkerDied, default_jobs, parse_agents, simulate as run_batch

    define_bots(bot_defs, bot_timeout)
    if trace and game_seed is None:
        raise click.UsageError("--trace needs --game-seed (the one game to trace)")
    if game_seed is not None and log_path:
        raise click.UsageError("--game-seed plays one game and prints it: not with --log")
    paths = content_paths(content_dirs, expansions)
    content = load_or_exit(paths)
    check_players(content, players)  # (before --agents, which makes a kind per seat)
    agents = None
    if agents_spec is not None:
        try:
            agents = parse_agents(agents_spec, players)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--agents") from None
    pins = _pins(content, players, pin_role, pin_task, card_pins(pin_cards), pin_seat, game_seed, keyed_deal)
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
        # the batch seed: what plays the same games again (a fresh one when --seed was not given); what was pinned
        pinned = {"pins": pins_of(pins.role, pins.task, pins.cards, pins.keyed)} if pins else {}
        click.echo(
            json.dumps({"seed": seed, **pinned, **summary.to_json()}, ensure_ascii=False, sort_keys=True, indent=2)
        )
        sys.exit(1 if summary.failures or summary.log_error is not None else 0)
    deck = len(pinned_content(content, pins).deck_for(players))  # (the deck a card pin plays)
    header = (
        f"fengsheng {__version__}: {games} games, {players} players, seed {seed}\n"
        f"content: {content.rules.name}; packs: {', '.join(p.id for p in content.packs)}\n"
        f"  ({len(content.card_types)} card types, {deck}-card deck, "
        f"{len(content.tasks)} secret tasks, {len(content.roles)} roles)"
    ) + _pinned_line(content, pins, players)
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


def _pins(
    content,
    players: int,
    role: str | None,
    task: str | None,
    cards,
    seat: int | None,
    game_seed: int | None,
    keyed: bool = False,
):
    """The batch's pins (engine/pins.py) from --role, --task, --card and --pin-seat, checked against the content (a
    usage error with a did-you-mean hint), or None. With --game-seed, a pin the content lacks is a note, not an
    error: the command that replays one game of a pinned sweep names the grid's pins, and a pack of the grid without
    the role, task or card played its games with them all the same (that seat dealt from the bottom of the role
    pile, the decks unchanged)."""
    from .engine.pins import Pins, card_pin_problems, pin_problems

    if seat is not None and (game_seed is None or not (role or task)):
        raise click.UsageError("--pin-seat is the seat of --role/--task in the one game of --game-seed")
    if seat is not None and seat >= players:
        raise click.BadParameter(
            f"seat {seat} at a table of {players} (seats 0-{players - 1})", param_hint="--pin-seat"
        )
    pins = Pins(role, task, seat or 0, cards, keyed)
    if not pins:
        return None
    checked_role, checked_task, checked_cards = role, task, cards
    if game_seed is not None:  # (one game: what the content lacks was played as a pack without it plays it)
        lacking = [("role", role, content.roles), ("secret task", task, content.tasks)]
        lacking += [("card", card, content.card_types) for card, _ in cards]
        for what, value, have in lacking:
            if value is not None and value not in have:
                click.echo(
                    f"note: no {what} {value!r} in the content: played as a pinned sweep's pack without it", err=True
                )
        checked_role = role if role in content.roles else None
        checked_task = task if task in content.tasks else None
        checked_cards = tuple((card, n) for card, n in cards if card in content.card_types)
    problems = pin_problems(content, checked_role, checked_task, [players])
    if problems:
        raise click.BadParameter(
            "; ".join(problems), param_hint="--role" if role and "role" in problems[0] else "--task"
        )
    problems = card_pin_problems(content, checked_cards)
    if problems:
        raise click.BadParameter("; ".join(problems), param_hint="--card")
    return pins


def _pinned_line(content, pins, players: int) -> str:
    """The summary's line saying what every game pinned ("" when nothing), as the balance report's first line."""
    if not pins:
        return ""
    if not pins.pinned:
        return "\ndealt in the keyed order (--keyed-deal): as a sweep of several packs deals"
    what = []
    if pins.role:
        what.append(f"role {content.roles[pins.role].label()} ({pins.role})")
    if pins.task:
        what.append(f"secret task {content.tasks[pins.task].name} ({pins.task})")
    dealt = f"{' and '.join(what)} dealt to a seat in every game (game i at seat i mod {players})" if what else ""
    kept = [f"card {content.card_types[c].name} ({c}) kept at {n} copies in every deck" for c, n in pins.cards]
    return "\npinned: " + "; ".join([dealt, *kept] if dealt else kept)


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
        words += [f"--card {shlex.quote(f'{card}={n}')}" for card, n in pins.cards]
        if pins.role or pins.task:
            words += ["--pin-seat", "{pin_seat}"]
        if not pins.pinned:
            words += ["--keyed-deal"]
    return " ".join([*words, "--game-seed", "{seed}", "--trace"])


# A trace longer than this is shown as its first and last lines (a stuck game asks 50,000 questions).
TRACE_HEAD, TRACE_TAIL = 200, 2_000


def _one_game(
    content, players: int, gseed: int, max_turns, trace: bool, agents=None, fmt: str = "text", pins=None
) -> None:
    """simulate --game-seed: one game, as a batch plays it; its trace with --trace; exit 1 if it fails."""
    from .model.content import rule_counts
    from .scenario import format_trace
    from .sim import play_game, reason_text

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
    reason = reason_text(game.result.reason, rule_counts(content.rules))
    click.echo(f"{head}: winners {winners} ({reason}); {game.turn_no} turns, {game.decision_count} decisions")
