"""``fengsheng play``: play a game in the terminal (interpreter/play.py holds the table, play_loop.py the loop)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .cli_options import bot_options, content_option, players_option
from .seeds import MAX_SEED

DEFAULT_SAVE = "fengsheng-save.json"


def _read_line() -> str:
    return sys.stdin.readline()


@click.command()
@players_option("players at the table")
@click.option(
    "--seed",
    "-s",
    default=None,
    type=click.IntRange(0, MAX_SEED),
    help="the game's seed, to deal a known game (default: a fresh 128-bit seed that nobody at the table sees)",
)
@click.option("--seat", default=0, show_default=True, type=click.IntRange(0), help="your seat (P0, P1 …)")
@click.option(
    "--hot-seat",
    "hot_seat",
    type=click.IntRange(2),
    default=None,
    help="N humans at one terminal, seats P0 … P(N-1); the screen is cleared between them",
)
@click.option(
    "--bots",
    default=None,
    metavar="KIND[,KIND…]",
    help="the bots' kind (heuristic, the default; random; search or search:N, N simulations a decision; ext:NAME, "
    "a program of your own given with --bot): one for every bot seat, or one per bot seat in order",
)
@bot_options()
@content_option()
@click.option("--max-turns", type=click.IntRange(1), default=None, help="override the rules' turn limit")
@click.option(
    "--role",
    "role",
    default=None,
    metavar="ID",
    help="deal this role (its id) to your seat (with --hot-seat, P0's): to playtest a new role at the table",
)
@click.option(
    "--resume",
    "resume",
    type=click.Path(dir_okay=False),
    default=None,
    help="continue a saved game (the table, the packs and the seed come from the save)",
)
@click.option(
    "--save",
    "save_path",
    default=DEFAULT_SAVE,
    show_default=True,
    type=click.Path(dir_okay=False),
    help="where `s` and Ctrl-C save the game by default",
)
def play(
    players,
    seed,
    seat,
    hot_seat,
    bots,
    bot_defs,
    bot_timeout,
    content_dirs,
    expansions,
    max_turns,
    role,
    resume,
    save_path,
):
    """Play a game in the terminal: your seat against bots, or several people at one keyboard.

    You see only your seat's observation: your hand, identity and task, every intel area, the
    intel in transit, the face-up roles and what happened since your last decision; every
    decision is a numbered menu. Type s to save, q to quit; `--resume FILE` continues a save.
    """
    from rich.console import Console
    from rich.text import Text

    from .agents.kinds import default_kind, factory_of
    from .cli_options import check_players, content_paths, define_bots, load_or_exit
    from .engine.pins import pin_problems
    from .play import PlayError, Setup, Table
    from .play_loop import Terminal
    from .screen_table import Folded
    from .seeds import fresh_seed

    console = Console(highlight=False)
    seed_was_fresh = False
    define_bots(bot_defs, bot_timeout)  # (also when resuming: a save names an external bot by ext:NAME only)
    if resume is not None:
        ctx = click.get_current_context()
        table_options = (
            "players",
            "seed",
            "seat",
            "hot_seat",
            "bots",
            "content_dirs",
            "expansions",
            "max_turns",
            "role",
        )
        given = [
            "--" + name.replace("_dirs", "").replace("_", "-")
            for name in table_options
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
        ]
        if given:
            raise click.UsageError(f"--resume takes the table from the save; leave out {', '.join(given)}")
    try:
        if resume is not None:
            setup, actions = Table.read_save(resume)
        else:
            if seed is None:
                seed, seed_was_fresh = fresh_seed(), True
            # the count checked against the content before any seat is made of it
            check_players(load_or_exit(content_paths(content_dirs, expansions)), players)
            if hot_seat and hot_seat > players:
                raise click.BadParameter(f"{hot_seat} humans at a table of {players}", param_hint="'--hot-seat'")
            humans = list(range(hot_seat)) if hot_seat else [seat]
            if max(humans) >= players:
                raise click.BadParameter(
                    f"seat {seat} at a table of {players} (P0 … P{players - 1})", param_hint="'--seat'"
                )
            bot_seats = [s for s in range(players) if s not in humans]
            wanted = [k.strip() for k in (bots or default_kind()).split(",") if k.strip()] or [default_kind()]
            for k in wanted:
                try:
                    factory_of(k)
                except ValueError as e:
                    raise click.BadParameter(str(e), param_hint="'--bots'") from None
            if len(wanted) not in (1, len(bot_seats)):
                raise click.BadParameter(
                    f"{len(wanted)} kinds for {len(bot_seats)} bot seats: give one kind, or one per bot seat",
                    param_hint="'--bots'",
                )
            per_seat = wanted * len(bot_seats) if len(wanted) == 1 else wanted
            setup = Setup(
                players=players,
                seed=seed,
                humans=humans,
                bots=dict(zip(bot_seats, per_seat, strict=True)),
                content=[str(Path(c).resolve()) for c in content_dirs],
                expansions=expansions,
                max_turns=max_turns,
                role=role,
            )
            actions = []
        content = load_or_exit(content_paths(setup.content, setup.expansions))
        for problem in pin_problems(content, setup.role, None, [setup.players]):  # (a save's role too: its packs)
            raise click.BadParameter(problem, param_hint="'--role'")
        problem = content.rules.cannot_seat_at_doors(setup.players)
        if problem is not None:  # (a save's count: -p's was checked above)
            raise click.ClickException(f"cannot set up the game: {problem}")
        table = Table(content, setup)
        if actions:
            table.replay(actions)
    except PlayError as e:
        raise click.ClickException(str(e)) from None
    except ValueError as e:  # the content cannot seat this many players (no deck, no identity table)
        raise click.ClickException(f"cannot set up the game: {e}") from None

    bot_text = ", ".join(f"P{s} {k}" for s, k in sorted(setup.bots.items())) or "none"
    # the seed only for whoever typed it: a seat that learns it knows every hidden card
    shown_seed = f", seed {setup.seed}" if resume is None and not seed_was_fresh else ""
    banner = (
        f"fengsheng play: {setup.players} players{shown_seed}; you: "
        + ", ".join(f"P{h}" for h in setup.humans)
        + f"; bots: {bot_text}"
        + ("; resumed" if resume else "")  # (not after how many actions: Table.to_json says why)
    )
    # folded between its parts to the terminal's width (about 104 columns at 5 players: the terminal cut it mid-word)
    console.print(Folded(Text(banner), between=("; ", ", ")))
    terminal = Terminal(
        table,
        console,
        _read_line,
        save_path=resume or save_path,
        hot_seat=len(setup.humans) > 1,
        echo=not sys.stdin.isatty(),
    )
    sys.exit(terminal.play())
