"""Options that several ``fengsheng`` commands share, declared once, and the loading of their content."""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from .cache import Kept, file_stamp, remember
from .suggest import folder_hint


def expansions_help(default: str = "all (the default), none") -> str:
    """--expansions' help; `default` names the choices with the command's default among them (pack diff's is
    none, not all)."""
    return (
        f"bundled expansions to play with: {default}, or ids separated by commas "
        "(tie_wu_zi, lao_yang_fang); a pack of your own with its own rules.yaml gets none unless named"
    )


EXPANSIONS_HELP = expansions_help()


FORMAT_HELP = "text for people, or json for programs: one JSON document on stdout, messages on stderr"


def format_option(
    formats: Sequence[str] = ("text", "json"), legacy_json: bool = False, help: str = FORMAT_HELP
) -> Callable[[Any], Any]:
    """``--format text|json`` (passed as ``fmt``): the one spelling of machine output on every command that
    prints results. With `legacy_json`, the command's old ``--json`` flag is kept for one release, hidden: it
    means ``--format json`` and says so on stderr."""
    option = click.option(
        "--format", "fmt", type=click.Choice(list(formats)), default="text", show_default=True, help=help
    )
    if not legacy_json:
        return option

    def decorate(f: Callable[..., Any]) -> Any:
        @functools.wraps(f)
        def command(*args: Any, legacy_json_flag: bool = False, **kw: Any) -> Any:
            if legacy_json_flag:
                deprecated("--json", "--format json")
                kw["fmt"] = "json"
            return f(*args, **kw)

        return click.option("--json", "legacy_json_flag", is_flag=True, hidden=True)(option(command))

    return decorate


def deprecated(old: str, new: str) -> None:
    """The note on stderr for a spelling kept for one release (the output itself is unchanged)."""
    click.echo(f"note: {old} is deprecated and goes in the next release: use {new}", err=True)


class ExistingPath(click.Path):
    """A file or folder that must exist: one that is not there is refused with the entry beside it closest in
    spelling (tests/scenario -> did you mean tests/scenarios?), the slip a newcomer makes typing it."""

    def __init__(self, file_okay: bool = True, dir_okay: bool = True) -> None:
        super().__init__(exists=True, file_okay=file_okay, dir_okay=dir_okay)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as e:
            hint = folder_hint(str(value), files=self.file_okay) if not os.path.exists(value) else None
            if hint is None:
                raise
            self.fail(f"{e.message.rstrip('.')}: {hint}", param, ctx)


def pack_folder_of_file(path: Any) -> str | None:
    """For a file given where a pack's folder goes (``--content my_pack/pack.yaml``, a role's file): the pack's
    folder it is in (the nearest of three folders above it that holds a pack's part, as a relative path), or None."""
    from .content.packs import not_a_pack

    try:
        if not os.path.isfile(path):
            return None
        for above in list(Path(path).resolve().parents)[:3]:
            if not_a_pack(above) is None:
                return str(above) if os.path.isabs(path) else os.path.relpath(above)
    except (OSError, ValueError):  # (relpath: another drive)
        return None
    return None


def pack_of_file(path: Any) -> str | None:
    """The words naming the pack's folder a file given for a pack is in (pack_folder_of_file), or None."""
    folder = pack_folder_of_file(path)
    return f"a pack is given by its folder: {folder}" if folder is not None else None


class PackFolder(ExistingPath):
    """A content pack's folder, which must exist: one that is not there is refused with the folder beside it
    closest in spelling (examples/jia_gu -> did you mean examples/jia_gui?)."""

    def __init__(self) -> None:
        super().__init__(file_okay=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """A folder that holds nothing a pack holds is refused too (an empty pack would load silently)."""
        from .content.packs import not_a_pack

        try:
            folder = super().convert(value, param, ctx)
        except click.BadParameter as e:
            pack = pack_of_file(value)
            if pack is None:
                raise
            self.fail(f"{e.message.rstrip('.')}: {pack}", param, ctx)
        problem = not_a_pack(folder)
        if problem is not None:
            self.fail(problem, param, ctx)
        return folder


def content_option(
    help: str = "content pack directory: a pack without rules.yaml is layered over the bundled game "
    "(repeat to layer several); one with rules.yaml is a rule set of its own",
) -> Callable[[Any], Any]:
    """``--content DIR`` (repeatable, passed as ``content_dirs``) and ``--expansions`` (passed as ``expansions``)."""
    content = click.option("--content", "content_dirs", multiple=True, type=PackFolder(), help=help)
    return lambda f: content(expansions_option()(f))


def pin_options() -> Callable[[Any], Any]:
    """``--role ID``, ``--task ID`` and ``--card ID=N`` (passed as ``pin_role``, ``pin_task``, ``pin_cards``): a
    role, a secret task dealt to a seat in every game, the seat rotating (game i at seat i % players) so each is
    covered evenly; a card kind kept at N copies in every deck (engine/pins.py; parse with :func:`card_pins`)."""
    role = click.option(
        "--role",
        "pin_role",
        multiple=True,
        callback=_one_pin,
        metavar="ID",
        help="deal this role (its id) to a seat in every game, the seat rotating so each is covered evenly; the "
        "others are dealt as usual (a pack that lacks the role deals that seat from the bottom of the role pile, so "
        "the other seats get the same roles in every pack)",
    )
    task = click.option(
        "--task",
        "pin_task",
        multiple=True,
        callback=_one_pin,
        metavar="ID",
        help="deal this secret task (its id) to a seat in every game, as --role does (that seat gets an identity "
        "that draws a task)",
    )
    card = click.option(
        "--card",
        "pin_cards",
        multiple=True,
        metavar="ID=N",
        help="keep this card kind (its id) at N copies in every deck (N from 0: 0 takes it out): copies leave by the "
        "highest deck ids, or are added as copies of its own; a new card met in few games then in many (a pack "
        "that lacks the card plays its decks unchanged); repeat for several cards",
    )
    return lambda f: role(task(card(f)))


def _one_pin(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> str | None:
    """--role and --task pin one id each: given twice is a usage error naming both (click would keep the last one
    silently, and the sweep would test another role than the designer meant)."""
    if len(values) > 1:
        raise click.BadParameter(
            f"given {len(values)} times ({', '.join(values)}): one is pinned at a time; run once per id",
            param=param,
        )
    return values[0] if values else None


def card_pins(texts: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """``--card ID=N`` as the pins keep them: (card id, copies), sorted by id. A usage error says what is wrong
    with one (not ID=N, N not a whole number from 0, a card given twice)."""
    from .model.deck_counts import MAX_COPIES  # (here: the model is not loaded for --help)

    out: dict[str, int] = {}
    for text in texts:
        m = re.fullmatch(r"\s*([^=\s]+)\s*=\s*(\S+)\s*", text)
        if not m:
            raise click.BadParameter(
                f"{text!r} is not ID=N (a card kind's id and its copies: mi_dian=6)", param_hint="'--card'"
            )
        card, n = m[1], m[2]
        if not (n.isascii() and n.isdigit() and int(n) <= MAX_COPIES):
            raise click.BadParameter(
                f"{text!r}: the copies are a whole number from 0 to {MAX_COPIES} (0 takes the card out of the decks)",
                param_hint="'--card'",
            )
        if card in out:
            raise click.BadParameter(f"card {card!r} is given twice", param_hint="'--card'")
        out[card] = int(n)
    return tuple(sorted(out.items()))


def pins_of(
    role: str | None, task: str | None, cards: Sequence[tuple[str, int]] = (), keyed: bool = False
) -> dict[str, Any] | None:
    """The grid's pins as sweep.json keeps them (None: nothing pinned, dealt as usual): {"role": id, "task": id,
    "cards": {id: N}}, each only when given; {"keyed": true} when nothing is pinned but the games are dealt in the
    keyed order all the same (`keyed`: a grid of several packs, so that their games pair as far as the packs allow;
    any pin deals so)."""
    pins: dict[str, Any] = {k: v for k, v in (("role", role), ("task", task)) if v is not None}
    if cards:
        pins["cards"] = dict(cards)
    if keyed and not pins:
        pins["keyed"] = True
    return pins or None


def check_pins(
    contents: dict[str, Any],
    role: str | None,
    task: str | None,
    players: Sequence[int],
    cards: Sequence[tuple[str, int]] = (),
) -> None:
    """--role and --task name a role and a task of at least one pack (a did-you-mean hint otherwise), and a task
    only at player counts where an identity draws one; --card a card kind of at least one pack, and a pack that has
    it a copy in its deck to copy when copies are to be added. A usage error says what is wrong."""
    from .engine.pins import card_pin_problems, pin_problems

    where = "in any pack of the grid" if len(contents) > 1 else "in the content"
    for value, option in ((role, "--role"), (task, "--task")):
        if value is None:
            continue
        pin_role, pin_task = (value, None) if option == "--role" else (None, value)
        # the pack that has it (or else the last, most often the fork, whose ids the hint should come from)
        problems = [pin_problems(content, pin_role, pin_task, list(players), where) for content in contents.values()]
        if not all(problems):
            continue
        raise click.BadParameter("; ".join(problems[-1]), param_hint=f"'{option}'")
    for card, n in cards:
        having = {label: c for label, c in contents.items() if card in c.card_types}
        if not having:
            problem = card_pin_problems(list(contents.values())[-1], [(card, n)], where)[0]
            raise click.BadParameter(problem, param_hint="'--card'")
        for label, content in having.items():
            for problem in card_pin_problems(content, [(card, n)]):
                where = f"pack {label}: " if len(contents) > 1 else ""
                raise click.BadParameter(where + problem, param_hint="'--card'")


def expansions_option(help: str = EXPANSIONS_HELP) -> Callable[[Any], Any]:
    """``--expansions all|none|ID,ID``: which bundled expansions join the base game (`help`: a command whose
    default is not all says so)."""
    return click.option("--expansions", "expansions", default=None, metavar="all|none|ID,…", help=help)


def content_paths(paths: Sequence[str | Path], expansions: str | None = None) -> list[Path]:
    """The packs to load for --content and --expansions (interpreter/content/packs.py); a bad id exits 2."""
    from .content.packs import PackError, parse_expansions, resolve_packs

    try:
        return resolve_packs(paths, parse_expansions(expansions))
    except PackError as e:
        raise click.BadParameter(str(e), param_hint="'--expansions'") from None


def parse_players(text: str) -> list[int]:
    """``--players``: counts and ranges separated by commas (``5``, ``5,6,7``, ``5-8``, ``4,6-8``), each from
    MIN_PLAYERS to MAX_SEATS (a range of a million counts is a typo, refused before it is built); returned sorted,
    each once. Which of them the content plays is checked once it is loaded (check_players). Raises ValueError
    saying what is wrong."""
    from .model.content import MAX_SEATS, MIN_PLAYERS

    out: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        m = re.fullmatch(r"(\d{1,9})(?:\s*-\s*(\d{1,9}))?", part)
        if not m:
            raise ValueError(f"{part!r} is not a player count or a range such as 5-8")
        lo, hi = int(m[1]), int(m[2] or m[1])
        if lo > hi:
            raise ValueError(f"{part!r}: a range goes from the smaller count to the larger (write {hi}-{lo})")
        for n in (lo, hi):
            if not MIN_PLAYERS <= n <= MAX_SEATS:
                raise ValueError(f"{part!r}: a game here has {MIN_PLAYERS} to {MAX_SEATS} players")
        out.update(range(lo, hi + 1))
    return sorted(out)


PLAYERS_HINT = "'--players' / '-p'"


def players_option(what: str) -> Callable[[Any], Any]:
    """``--players/-p N`` (default 5) of a command that plays one table size (`what`: "players at the table", …):
    a whole number, checked by check_players once the content is loaded, not by a range fixed here."""
    return click.option(
        "--players",
        "-p",
        default=5,
        show_default=True,
        type=int,
        help=f"{what}: a count the content's identity table deals",
    )


def check_players(content: Any, players: int, param_hint: str = PLAYERS_HINT) -> None:
    """A player count given on the command line, checked against the loaded content: the counts its identity table
    (and decks) play, up to MAX_SEATS (model/content.py). Not a click range fixed in advance: a fork plays the
    counts its rules deal, and only once they are loaded is it known which. Exits 2 with one line naming the counts
    the content plays."""
    problem = content.rules.cannot_seat_at_doors(players)
    if problem is not None:
        raise click.BadParameter(problem, param_hint=param_hint)


BOT_HELP = (
    "an external bot, a program of your own spoken to in JSON lines (docs/bots-protocol.md): NAME=COMMAND, then "
    "seat it as the kind ext:NAME (repeat for several bots)"
)


def bot_options() -> Callable[[Any], Any]:
    """``--bot NAME=COMMAND`` (repeatable, passed as ``bot_defs``) and ``--bot-timeout SECONDS`` (``bot_timeout``):
    the external bots a seat names as ``ext:NAME`` (agents/external.py); define them with :func:`define_bots`."""
    bot = click.option("--bot", "bot_defs", multiple=True, metavar="NAME=COMMAND", help=BOT_HELP)
    timeout = click.option(
        "--bot-timeout",
        "bot_timeout",
        type=click.FloatRange(0, 3600, min_open=True),
        default=None,
        metavar="SECONDS",
        help="seconds an external bot may take to answer one decision (default: 10; its first answer gets 10 "
        "more to start)",
    )
    return lambda f: bot(timeout(f))


def define_bots(bot_defs: Sequence[str], bot_timeout: float | None) -> None:
    """Make the ``--bot`` definitions the external bots of this command; a bad one exits 2, saying why."""
    from .agents.external import DEFAULT_TIMEOUT, define

    try:
        define(bot_defs, DEFAULT_TIMEOUT if bot_timeout is None else bot_timeout)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="'--bot'") from None


def load_or_exit(paths: Sequence[str | Path]) -> Any:
    """The content of these packs, or every error in it on stderr and exit status 1. (The loader, the engine
    and the language load only when a command needs them: `fengsheng --help` and a mistyped flag answer at once.)"""
    return _kept(paths, lambda: (_load(paths), True))


def load_or_none(paths: Sequence[str | Path]) -> Any:
    """The content of these packs (kept as load_or_exit keeps it), or None when it does not load: for a command
    that only asks whether some packs are the content it was given (replay, of the packs a log names)."""
    from .content.loader import ContentErrors, load_content

    def load() -> tuple[Any, bool]:
        try:
            return load_content(paths), True
        except ContentErrors:
            return None, False

    return _kept(paths, load)


def _kept(paths: Sequence[str | Path], load: Callable[[], tuple[Any, bool]]) -> Any:
    """What `load` makes of these packs (its value, and whether it may be kept), kept in LOADED under the packs'
    absolute paths and their files' stamps; made afresh each time when they cannot be stamped (_stamps: None)."""
    stamps = _stamps(paths)
    if stamps is None:
        return load()[0]
    return remember(LOADED, (tuple(str(Path(p).resolve()) for p in paths), stamps), load)


def _load(paths: Sequence[str | Path]) -> Any:
    from .content.loader import ContentErrors, load_content

    try:
        return load_content(paths)
    except ContentErrors as e:
        for err in e.errors:
            click.echo(str(err), err=True)
        click.echo(f"{len(e.errors)} error(s) in the content; run `fengsheng validate` for details.", err=True)
        sys.exit(1)


# The content a command loaded, kept in this process while nothing under its packs' folders changed: a process
# that runs commands again and again (the tests, a notebook or a script calling `main`) loads an unchanged pack
# once. Whether a pack is unchanged: cache.file_stamp of every folder and file under it (links followed), taken
# only when none changed in the last cache.SETTLED. A command changes nothing of its content (the engine's own
# indexes aside, the same for the same content).
LOADED: Kept[Any] = Kept("command content", limit=16)  # (the packs' absolute paths, their stamps) -> the content
MAX_STAMPED = 5_000  # folders and files under a command's packs, at most, for its content to be kept


def _stamps(paths: Sequence[str | Path]) -> tuple | None:
    """The stamps of everything under these packs' folders, in a fixed order; None if something there changed in
    the last cache.SETTLED, cannot be read, or the folders hold more than MAX_STAMPED entries."""
    out: list[tuple] = []
    try:
        for root in paths:
            for folder, dirs, files in os.walk(root, followlinks=True, onerror=_raise):
                dirs.sort()
                for name in (os.curdir, *sorted(files)):
                    stamp = file_stamp(os.path.join(folder, name))
                    if stamp is None or len(out) >= MAX_STAMPED:
                        return None
                    out.append((folder, name, stamp))
    except OSError:
        return None
    return tuple(out)


def _raise(e: OSError) -> None:
    raise e
