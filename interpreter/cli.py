"""The ``fengsheng`` command: its group (one-line usage mistakes, commands loaded when run) and the commands'
list. Each command lives in a module of its own: simulate_cmd, replay_cmd, validate_cmd, scenario_cmd (listed
with their help), play_cmd, serve_cmd, new_cmd, docs_cmd, pack_cmd, balance_cmd, describe_cmd (loaded when run)."""

from __future__ import annotations

from typing import Any

import click

from . import __version__
from .replay_cmd import replay
from .scenario_cmd import scenario
from .simulate_cmd import simulate
from .snippet import clip
from .validate_cmd import validate


def _pack_hint(e: click.UsageError) -> str | None:
    """`--pack` given to a command that takes its packs by `--content` (simulate, play, describe …): `balance
    --pack LABEL=DIR` made it a natural guess, and click's own did-you-mean offered unrelated options
    (`--task`, `--trace`)."""
    if not isinstance(e, click.NoSuchOption) or e.option_name not in ("--pack", "--packs") or e.ctx is None:
        return None
    if not any("--content" in getattr(p, "opts", ()) for p in e.ctx.command.params):
        return None
    return (
        f"No such option '{e.option_name}': a pack folder is given with --content DIRECTORY (repeat it to layer "
        "packs); --pack LABEL=DIR is balance's, to compare packs in one sweep"
    )


def _prefer_prefixed(e: click.UsageError) -> None:
    """An unknown option that begins a command's option names (`--game`: --games, --game-seed) is offered those
    only: click's close matches by spelling added unrelated ones (`--trace`)."""
    if not isinstance(e, click.NoSuchOption) or e.ctx is None or not e.option_name.startswith("--"):
        return
    if not e.option_name.strip("-"):  # (`--=`: no name to match; every option began with it)
        e.possibilities = []
        return
    names = {o for p in e.ctx.command.params if not getattr(p, "hidden", False) for o in (*p.opts, *p.secondary_opts)}
    prefixed = sorted(o for o in names if o.startswith(e.option_name) and o != e.option_name)
    if prefixed:
        e.possibilities = prefixed


def _reading(e: BaseException) -> click.Context | None:
    """The context of the command whose arguments were being read when `e` was raised (the innermost one a frame of
    its traceback holds as `ctx`: Command.parse_args'), or None."""
    found = None
    tb = e.__traceback__
    while tb is not None:
        ctx = tb.tb_frame.f_locals.get("ctx")
        if isinstance(ctx, click.Context):
            found = ctx
        tb = tb.tb_next
    return found


class _Mistake(click.ClickException):
    """A mistake in the command line, shown on one line: what is wrong and where the help is (exit status 2)."""

    exit_code = 2

    def __init__(self, e: click.UsageError, within: click.Context | None = None) -> None:
        # one line, and a value given on the command line (5,000 digits …) is not echoed whole
        _prefer_prefixed(e)
        super().__init__(clip(" ".join((_pack_hint(e) or e.format_message()).split()), 300))
        # whose help: the command that raised it; else (an option's missing value: click names no command) the one
        # whose arguments were being read (a group's subcommand: `scenario run`), else the subcommand `within` was
        # invoking
        reading = e.ctx if e.ctx is not None else _reading(e)
        if reading is not None:
            self.command = reading.command_path
        elif within is not None and within.invoked_subcommand:
            self.command = f"{within.command_path} {within.invoked_subcommand}"
        else:
            self.command = within.command_path if within is not None else "fengsheng"

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.message} (see {self.command} --help)", file=file, err=file is None)


class _Failure(click.ClickException):
    """A command that cannot do its job (a file exists, the database is another program's …), shown as every other
    one-line error of the command is, ``error: …`` (click's own says ``Error: …``); its exit status kept."""

    def __init__(self, e: click.ClickException) -> None:
        super().__init__(e.message)
        self.exit_code = e.exit_code

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.message}", file=file, err=file is None)


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
            raise _Mistake(e, ctx) from None
        except click.ClickException as e:
            if isinstance(e, (_Mistake, _Failure)):
                raise
            raise _Failure(e) from None

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
        "new": (
            ".new_cmd",
            "new",
            "Write a starting pack, role, card or secret task that validates (a role or card: with a scenario).",
        ),
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


# The commands of their own modules listed with their docstring's first line (imported with this module: they
# load nothing heavy until run); the lazy ones above load only when run.
main.add_command(simulate)
main.add_command(replay)
main.add_command(validate)
main.add_command(scenario)


if __name__ == "__main__":  # pragma: no cover
    main()
