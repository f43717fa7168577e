"""``fengsheng balance``: run a sweep over a grid of games (player counts × agents × packs), then report it.

The group's own options run the sweep (interpreter/balance/sweep.py); its subcommands read a sweep's
directory (``balance report DIR``, ``balance compare BASE FORK``: interpreter/balance/report.py,
compare.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from .balance_report_cmd import compare as compare_command, lang_option, report as report_command
from .cli_options import (
    EXPANSIONS_HELP,
    PackFolder,
    bot_options,
    card_pins,
    check_pins,
    content_paths,
    define_bots,
    format_option,
    pack_folder_of_file,
    pack_of_file,
    parse_players,
    pin_options,
    pins_of,
)
from .content.packs import not_a_pack
from .seeds import MAX_SEED
from .suggest import folder_hint

MAX_GAMES = 1_000_000  # per cell


def parse_pack(text: str) -> tuple[str, tuple[str, ...]]:
    """``--pack LABEL=DIR[,DIR…]`` (``LABEL=`` alone: the bundled game): (label, folders). Raises ValueError."""
    label, eq, dirs = text.partition("=")
    label = label.strip()
    if not eq or not re.fullmatch(r"[\w.+-]{1,40}", label):
        raise ValueError(
            f"{text!r}: write LABEL=DIR[,DIR…] (a label of letters, digits, ., _, +, -; LABEL= alone is the "
            "bundled game)" + ("" if eq else _label_hint(text.strip()))
        )
    folders = tuple(d.strip() for d in dirs.split(",") if d.strip())
    for d in folders:
        if not os.path.isdir(d):  # (not Path.is_dir: a name too long for the system raises OSError there)
            hint = pack_of_file(d) or folder_hint(d)
            raise ValueError(f"{text!r}: {d} is not a directory" + (f": {hint}" if hint else ""))
    return label, folders


def _label_hint(text: str) -> str:
    """What a --pack without ``=`` most likely meant: a folder, labelled by its name; else a label of the bundled
    game (``--pack base``, the README's ``--pack base=`` without its ``=``)."""
    folder = text if text and os.path.isdir(text) else pack_folder_of_file(text) if text else None
    problem = not_a_pack(folder) if folder is not None else None
    if problem is not None:  # (a folder, but no pack: `/`, `.` …)
        return ": " + problem
    if folder is not None:  # (a folder, or a file of one: its pack.yaml, a role's file)
        label = re.sub(r"[^\w.+-]", "_", Path(folder).resolve().name)[:40] or "mine"
        return f": did you mean --pack {label}={folder}?"
    if re.fullmatch(r"[\w.+-]{1,40}", text):
        return f": did you mean --pack {text}= (the bundled game labelled {text})?"
    return ""


def default_out(players: Sequence[int], agents: Sequence[str], packs: Sequence[str], seed: int) -> str:
    """The output directory named after the grid (no clock: the same command resumes the same sweep;
    --games is left out of the name, so that more games extend it)."""
    counts = f"{players[0]}-{players[-1]}" if list(players) == list(range(players[0], players[-1] + 1)) else None
    parts = [
        (counts if len(players) > 1 and counts else "+".join(map(str, players))) + "p",
        "+".join(_short_agents(a) for a in agents),
        "+".join(packs),
    ]
    if seed:
        parts.append(f"s{seed}")
    name = "balance-" + "-".join(parts)
    name = re.sub(r"[^\w.+-]", "_", name)
    if len(name) > 80:  # a grid too large to spell out: a short digest of it
        import hashlib

        name = "balance-" + hashlib.sha256(name.encode()).hexdigest()[:12]
    return name


def sweep_seed(agents: Sequence[str], out: str, resume: bool) -> int:
    """The seed of a sweep given no --seed. 0 for fengsheng's own bots: trusted code in the game's process, which
    could read the game itself. A grid that seats an external bot (ext:NAME) gets a fresh seed (seeds.fresh_seed),
    or, resumed, the one its directory keeps: the bot is handed its own seed, a hash of its game's, and a sweep
    played from 0 let it find its game's seed, which deals every hidden card, by hashing the sweep's games as the
    sweep does (docs/bots-protocol.md, section 5) — even in a container with none of the sweep's files to read."""
    from .agents.external import KIND_PREFIX
    from .balance.records import SWEEP_FILE, RecordError, read_spec

    if not any(kind.strip().startswith(KIND_PREFIX) for spec in agents for kind in spec.split(",")):
        return 0
    if resume and (Path(out) / SWEEP_FILE).exists():
        with contextlib.suppress(RecordError):  # (a sweep.json that cannot be read: the sweep's own error says why)
            return read_spec(out).seed
    from .seeds import fresh_seed

    return fresh_seed()


def _short_agents(spec: str) -> str:
    """An agent spec in a directory name: a per-seat list with its kinds counted ("heuristic1random4")."""
    kinds = [k.strip().replace(":", "") for k in spec.split(",")]
    if len(kinds) == 1:
        return kinds[0]
    seen: dict[str, int] = {}
    for k in kinds:
        seen[k] = seen.get(k, 0) + 1
    return "".join(f"{k}{n}" for k, n in seen.items())


class _Progress:
    """A rich progress bar with ETA on stderr: only on a terminal and without --quiet."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: Any = None

    def __enter__(self) -> _Progress:
        return self

    def update(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("games"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )
            self.task = self.bar.add_task("games", total=total, completed=done)
            self.bar.start()
        self.bar.update(self.task, completed=done, total=total)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


@click.group(invoke_without_command=True)
@click.option(
    "--players",
    "-p",
    "players_text",
    default="5",
    show_default=True,
    metavar="N|N,N,…|N-M",
    help="player counts: one, a list (5,6,7) or a range (5-8)",
)
@click.option(
    "--agents",
    "agents_specs",
    multiple=True,
    metavar="KIND|KIND,KIND,…",
    help="the bots, as simulate --agents takes them: one kind for the table (heuristic, random, …, ext:NAME for a "
    "--bot) or one per seat; repeat to sweep several "
    "(a per-seat list joins only the player count it names seats for) [default: heuristic]",
)
@bot_options()
@click.option(
    "--content",
    "content_dirs",
    multiple=True,
    type=PackFolder(),
    help="one pack: a content directory layered over the bundled game (repeat to layer several); "
    "for several packs in one grid use --pack",
)
@click.option(
    "--pack",
    "pack_specs",
    multiple=True,
    metavar="LABEL=DIR[,DIR…]",
    help="a pack of the grid, under a label: its content directories, layered as --content layers them "
    "(LABEL= alone: the bundled game); repeat to compare packs (e.g. --pack base= --pack mine=my_pack)",
)
@click.option("--expansions", default=None, metavar="all|none|ID,…", help=EXPANSIONS_HELP + "; for every pack")
@pin_options()
@click.option("--games", "-n", default=100, show_default=True, type=click.IntRange(1, MAX_GAMES), help="games per cell")
@click.option(
    "--seed",
    "-s",
    default=None,
    type=click.IntRange(0, MAX_SEED),
    help="seed of the sweep [default: 0; a grid with an external bot (ext:NAME), a fresh one nobody can guess, "
    "kept in the sweep's directory]",
)
@click.option("--max-turns", type=click.IntRange(1), default=None, help="override the rules' turn limit")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 1024),
    default=None,
    help="worker processes (default: every core; with --backend ray, the CPUs of the local Ray instance); "
    "the records do not depend on it",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default=None,
    help="local processes (default) or Ray (the extra balance: pip install -e '.[balance]' in a checkout)",
)
@click.option(
    "--address",
    default=None,
    metavar="HOST:PORT|auto",
    help="the Ray cluster to run on (implies --backend ray; default: start a local Ray instance)",
)
@click.option(
    "--out",
    "-o",
    "out",
    type=click.Path(file_okay=False),
    default=None,
    help="the sweep's directory (default: balance-… named after the grid, in the current directory)",
)
@click.option(
    "--resume/--restart",
    default=True,
    help="resume the sweep in --out (the default: the games done are kept), or discard it and start over",
)
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
@format_option(help="the sweep's report as tables, or as one JSON document (as balance report --format json)")
@lang_option()
@click.pass_context
def balance(
    ctx: click.Context,
    players_text: str,
    agents_specs: tuple[str, ...],
    bot_defs: tuple[str, ...],
    bot_timeout: float | None,
    content_dirs: tuple[str, ...],
    pack_specs: tuple[str, ...],
    expansions: str | None,
    pin_role: str | None,
    pin_task: str | None,
    pin_cards: tuple[str, ...],
    games: int,
    seed: int | None,
    max_turns: int | None,
    jobs: int | None,
    backend: str | None,
    address: str | None,
    out: str | None,
    resume: bool,
    quiet: bool,
    fmt: str,
    lang: str,
) -> None:
    """Sweep a grid of games — player counts × agents × packs, GAMES per cell — on every core or a Ray
    cluster, and report it.

    Each game's record is written to the sweep's directory as it finishes (sweep.json: the grid;
    games.jsonl: one line per game). The same command again resumes an interrupted sweep; a larger
    --games extends a finished one. Game I of a cell is the game `fengsheng simulate -p N --agents A
    --seed S` plays as its game I (with the sweep's --role, --task and --card, and --keyed-deal in a
    sweep of several packs): the records are the same whatever --jobs or --backend.

    \b
    fengsheng balance -p 5-8 -n 200                       the full game under heuristic play
    fengsheng balance --pack base= --pack mine=my_pack    the game with and without your pack
    fengsheng balance --pack base= --pack mine=my_pack --role ID   your new role in every game
    fengsheng balance report DIR                          the report of a sweep's directory
    """
    if ctx.invoked_subcommand is not None:
        return
    from .balance.sweep import PackSource, SweepError, make_spec, run_sweep
    from .sim import content_fingerprint

    try:
        players = parse_players(players_text)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="'--players'") from None
    define_bots(bot_defs, bot_timeout)
    agents = list(dict.fromkeys(",".join(k.strip() for k in a.split(",")) for a in agents_specs)) or ["heuristic"]
    if content_dirs and pack_specs:
        raise click.UsageError("give one pack with --content, or several with --pack LABEL=DIR, not both")
    if address is not None:
        from .balance.ray_backend import address_problem

        wrong = address_problem(address)
        if wrong:
            raise click.BadParameter(wrong, param_hint="'--address'")
        if backend == "local":
            raise click.UsageError("--address is a Ray cluster's: not with --backend local")
        backend = "ray"
    backend = backend or "local"
    if backend == "ray" and any("ext:" in a for a in agents):
        raise click.UsageError("external bots (ext:NAME) play on local worker processes only: not with Ray")
    packs: list[tuple[str, tuple[str, ...]]] = []
    for text in pack_specs:
        try:
            packs.append(parse_pack(text))
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="'--pack'") from None
    if not packs:
        packs = [("+".join(Path(d).resolve().name for d in content_dirs) if content_dirs else "base", content_dirs)]
    labels = [label for label, _ in packs]
    if len(set(labels)) != len(labels):
        twice = sorted({x for x in labels if labels.count(x) > 1})
        raise click.BadParameter(f"two packs are labelled {', '.join(twice)}", param_hint="'--pack'")

    from .cli_options import load_or_exit

    sources, contents = [], {}
    for label, dirs in packs:
        paths = content_paths(dirs, expansions)
        content = load_or_exit(paths)
        fingerprint = content_fingerprint(content)
        sources.append(PackSource(label, tuple(dirs), expansions, tuple(str(p) for p in paths), fingerprint))
        for n in players:
            problem = content.rules.cannot_seat_at_doors(n)
            if problem is not None:
                where = f"pack {label}: " if len(packs) > 1 else ""
                raise click.BadParameter(where + problem, param_hint="'--players'")
        contents[label] = content
    cards = card_pins(pin_cards)
    check_pins(contents, pin_role, pin_task, players, cards)
    try:
        # (several packs: their games dealt in the keyed order even with nothing pinned, so that they pair)
        pins = pins_of(pin_role, pin_task, cards, keyed=len(sources) > 1)
        out = out or default_out(players, agents, labels, seed or 0)
        if seed is None:
            seed = sweep_seed(agents, out, resume)
        spec = make_spec(seed, players, agents, sources, games, max_turns, pins)
    except SweepError as e:
        raise click.BadParameter(str(e), param_hint="'--agents'") from None
    cells = spec.cells()
    if not quiet:
        click.echo(
            f"sweep: {len(cells)} cells × {games} games = {len(cells) * games} games "
            f"({backend}{f' at {address}' if address else ''}) → {out}",
            err=True,
        )
    started = time.monotonic()
    try:
        with _Progress(not quiet) as bar:
            outcome = run_sweep(
                out,
                spec,
                sources,
                contents,
                jobs=jobs,
                backend=backend,
                address=address,
                resume=resume,
                progress=bar.update,
            )
    except SweepError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(130 if type(e).__name__ == "SweepInterrupted" else 1)
    except OSError as e:  # the records cannot be written: a full disk, a folder removed
        click.echo(f"error: {e.filename}: {e.strerror}" if e.filename else f"error: {e}", err=True)
        sys.exit(1)
    seconds = time.monotonic() - started
    if not quiet:
        kept = f" ({outcome.kept} were done before)" if outcome.kept else ""
        click.echo(f"{outcome.played} games played in {seconds:.1f} s{kept}; records in {out}", err=True)
    _report(ctx, out, fmt, lang)
    if outcome.failed:  # (the report above lists them, each with the command that re-runs it)
        click.echo(f"{outcome.failed} game(s) failed: see the failed games in the report", err=True)
        sys.exit(1)


balance.add_command(report_command)  # `balance report DIR`
balance.add_command(compare_command)  # `balance compare BASE [FORK]`


def _report(ctx: click.Context, out: str, fmt: str = "text", lang: str = "zh") -> None:
    """Print the sweep's report (``balance report DIR --format FMT``) when the report command is there."""
    command = balance.get_command(ctx, "report")
    if command is None:
        click.echo(f"the records are in {out}/games.jsonl (one game per line)", err=fmt == "json")
        return
    sub = command.make_context("report", [out, "--format", fmt, "--lang", lang], parent=ctx)
    with sub:
        command.invoke(sub)
