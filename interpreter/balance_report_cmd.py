"""``fengsheng balance report DIR`` and ``fengsheng balance compare BASE [FORK]``: a sweep's report and an A/B.

The statistics are in interpreter/balance/report.py and compare.py, the HTML in balance/html.py; this
module reads the command line, the sweep directories, and writes the outputs. docs/balance.md walks
through both.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from .cli_options import (
    EXPANSIONS_HELP,
    card_pins,
    check_pins,
    deprecated,
    format_option,
    parse_players,
    pin_options,
    pins_of,
)
from .seeds import MAX_SEED
from .suggest import folder_hint


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def lang_option() -> Any:
    """--lang zh|en: the language of the report's tables and HTML (Chinese by default; the JSON's keys and values
    stay English)."""
    from .balance.messages import DEFAULT_LANG, LANGS

    return click.option(
        "--lang",
        type=click.Choice(LANGS),
        default=DEFAULT_LANG,
        show_default=True,
        help="the language of the tables and the HTML: zh (中文) or en (English); JSON stays English",
    )


PIPED_WIDTH = 160  # columns of the tables when the output is not a terminal (a file, a pager, a pipe)


def _console() -> Any:
    """The console the tables print on: a terminal's own width; piped, PIPED_WIDTH columns and no wrapping of
    long lines (rich would otherwise take 80 columns and break sentences and table cells mid-word: a file or a
    pager shows long lines whole). Machine output is --format json, never these tables."""
    import sys

    from rich.console import Console

    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(highlight=False, width=PIPED_WIDTH, soft_wrap=True)


def _write(path: Path, text: str, what: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        _fail(f"{path}: cannot write the {what} ({e.strerror or e})", 1)


def _json_out(data: dict, target: str | None) -> None:
    if target is None:
        return
    text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    if target == "-":
        click.echo(text, nl=False)
    else:
        _write(Path(target), text, "JSON")


def _json_target(json_path: str | None, fmt: str) -> str | None:
    """Where the JSON goes: "-" (stdout, instead of the tables) with --format json; a file with the old
    ``--json FILE`` (kept for one release, hidden: written beside the tables); else nowhere. The old
    ``--json -`` is --format json."""
    if json_path is None:
        return "-" if fmt == "json" else None
    if json_path == "-":
        deprecated("--json -", "--format json")
        return "-"
    if fmt == "json":
        raise click.UsageError("--format json prints the JSON: not with --json FILE (write --format json > FILE)")
    deprecated("--json FILE", "--format json > FILE (the JSON on stdout, instead of the tables)")
    return json_path


def _load(path: str) -> Any:
    from .balance.report import SweepError, load_sweep

    try:
        return load_sweep(path)
    except SweepError as e:
        _fail(str(e))


def _report_of(sweep: Any, packs: list[str] | None = None, say: bool = False, lang: str = "zh") -> dict:
    """The report of a sweep (only the records of `packs` if given), with the packs' skill lists when they load:
    its packs are looked for beside the sweep's directory (sweep.json names them relative to it), and a pack
    that is not there, or changed since, is a note in the report (and on stderr with `say`, in `lang`)."""
    from .balance.messages import say as say_in
    from .balance.pack_facts import (
        card_pin_facts,
        locate_packs,
        new_other_items,
        new_roles,
        pack_counts,
        pack_skills,
        pin_names,
    )
    from .balance.report import build_report
    from .balance.words import note_text

    records = sweep.records if packs is None else [r for r in sweep.records if r["cell"]["pack"] in packs]
    meta, notes = locate_packs(sweep.meta, sweep.path)
    notes = {name: note for name, note in notes.items() if packs is None or name in packs}
    if say:
        for note in notes.values():
            click.echo(say_in("note", lang, text=note_text(note, lang)), err=True)
    skills = pack_skills(meta)
    report = build_report(
        meta, records, skills, new_roles(meta, skills), notes, new_other_items(meta), pack_counts(meta)
    )
    report["sweep"]["pinned_cards"] = card_pin_facts(meta)
    report["sweep"]["pinned_names"] = pin_names(meta)
    report["pack_diffs"] = {name: d for name, d in _pack_diffs(meta).items() if packs is None or name in packs}
    return report


def _pack_diffs(meta: dict) -> dict[str, dict]:
    """Per pack of the sweep that is a fork (content folders that load): what `pack diff` says it changes of the
    bundled game with the same expansions, as records (`pack diff --format json`'s), the changed decks' sizes
    and its lines for people (in English: the tables and the page say them in their language)."""
    from .content.loader import load_cached
    from .content.packs import parse_expansions, resolve_packs
    from .pack_cmd import compare as diff_records, deck_sizes, diff_lines, summary

    out: dict[str, dict] = {}
    for pack in meta.get("packs") or []:
        if pack.get("missing") or not pack.get("content"):
            continue
        try:
            words = parse_expansions(pack.get("expansions"))
            a = summary(load_cached(resolve_packs([], words)))
            b = summary(load_cached(resolve_packs(list(pack["content"]), words)))
        except Exception:  # a pack moved or broken since the sweep: the report's note says so
            continue
        changes = diff_records(a, b)
        if changes:
            out[str(pack.get("name"))] = {
                "changes": changes,
                "deck_sizes": deck_sizes(a, b, changes),  # (the lines in the report's language are made of these)
                "lines": diff_lines(a, b, changes),
            }
    return out


@click.command()
@click.argument("directory", metavar="DIR", type=click.Path())
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="where to write the HTML report [default: DIR/report.html]",
)
@click.option("--no-html", is_flag=True, help="write no HTML report")
@format_option(help="tables, or the report as one JSON document (docs/balance.md lists its keys)")
@click.option("--json", "json_path", default=None, metavar="FILE|-", hidden=True)  # for one release: --format json
@click.option("--roles/--no-roles", default=True, show_default=True, help="print the table of every role")
@lang_option()
def report(
    directory: str, html_path: str | None, no_html: bool, fmt: str, json_path: str | None, roles: bool, lang: str
) -> None:
    """The report of a sweep's directory: first a verdict in words on each new role, card and task and the
    fork's pack diff; then win rates by identity, secret task and role with Wilson 95% intervals per player
    count, strong/weak roles and unused skills flagged, card uses and their users' win rates, game length, how
    games ended.

    Prints it as tables (as JSON with --format json) and writes a self-contained HTML report with charts."""
    from .balance.html import render_report

    json_path = _json_target(json_path, fmt)
    sweep = _load(directory)
    if not sweep.records:
        _fail(f"{directory}: the sweep has no games yet (run `fengsheng balance --out {directory}` to play them)", 1)
    result = _report_of(sweep, say=json_path == "-", lang=lang)  # (the tables show the notes)
    if json_path != "-":
        from .balance.terminal import print_report

        print_report(result, _console(), roles=roles, lang=lang)
    _json_out(result, json_path)
    if not no_html:
        target = Path(html_path) if html_path else Path(directory) / "report.html"
        from .balance.messages import say as say_in

        title = say_in("report_title", lang, name=Path(directory).name)
        _write(target, render_report(result, title, lang), "HTML report")
        click.echo(f"HTML report: {target}", err=json_path == "-")


def _is_sweep(path: str) -> bool:
    # (os.path.isfile, not Path.is_file: a name too long for the system raises OSError there)
    return os.path.isfile(Path(path) / "sweep.json")


@click.command()
@click.argument("base", metavar="BASE")
@click.argument("fork", metavar="[FORK]", required=False)
@click.option(
    "--detect",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="the difference of a win rate or share to plan for: games needed to see it with 80% power",
)
@click.option(
    "--detect-turns",
    type=click.FloatRange(0, min_open=True),
    default=1.0,
    show_default=True,
    help="the same, for turns per game",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="where to write the HTML [default: the fork's sweep directory, compare.html]",
)
@click.option("--no-html", is_flag=True, help="write no HTML")
@format_option(help="tables, or the comparison as one JSON document (docs/balance.md lists its keys)")
@click.option("--json", "json_path", default=None, metavar="FILE|-", hidden=True)  # for one release: --format json
@click.option("--roles/--no-roles", default=True, show_default=True, help="print the table of every role")
@click.option(
    "--players",
    "-p",
    "players_text",
    default="5",
    show_default=True,
    metavar="N|N,N,…|N-M",
    help="packs: the player counts to sweep",
)
@click.option(
    "--agents", "agents_specs", multiple=True, metavar="KIND|KIND,…", help="packs: the bots (default heuristic)"
)
@click.option(
    "--games", "-n", type=click.IntRange(1, 1_000_000), default=200, show_default=True, help="packs: games per cell"
)
@click.option(
    "--seed", "-s", type=click.IntRange(0, MAX_SEED), default=0, show_default=True, help="packs: seed of the sweep"
)
@click.option("--expansions", default=None, metavar="all|none|ID,…", help="packs: " + EXPANSIONS_HELP)
@click.option(
    "--jobs", "-j", type=click.IntRange(1, 1024), default=None, help="packs: worker processes (default: every core)"
)
@pin_options()
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False),
    default=None,
    help="packs: the sweep's directory [default: compare-BASE-FORK]",
)
@lang_option()
def compare(
    base: str,
    fork: str | None,
    detect: float,
    detect_turns: float,
    html_path: str | None,
    no_html: bool,
    fmt: str,
    json_path: str | None,
    roles: bool,
    players_text: str,
    agents_specs: tuple[str, ...],
    games: int,
    seed: int,
    expansions: str | None,
    jobs: int | None,
    out: str | None,
    pin_role: str | None,
    pin_task: str | None,
    pin_cards: tuple[str, ...],
    lang: str,
) -> None:
    """A/B: which figures moved from BASE to FORK, whether significantly, and how many games it takes to tell.

    \b
    BASE and FORK are two sweep directories (the same grid, e.g. one with --content my_pack);
    or one sweep directory alone that holds two packs (`balance --pack base= --pack mine=my_pack`);
    or two packs to sweep now with the same grid and the same deals: content directories, or `base` for
    the bundled game (then --players, --agents, --games, --seed, --jobs, --out say how).
    """
    from .balance.compare import CompareError, compare_reports, print_compare
    from .balance.html_compare import render_compare
    from .balance.paired import paired_figures

    json_path = _json_target(json_path, fmt)
    given = [o for o, v in (("--role", pin_role), ("--task", pin_task), ("--card", pin_cards)) if v]
    unpaired: dict | None = None  # two sweep directories dealt with other pins: each side's, for the note
    if given and (fork is None or _is_sweep(base) or _is_sweep(fork)):  # (pins are for packs swept now)
        _fail(
            f"{'/'.join(given)} {'pins' if len(given) == 1 else 'pin'} the games of two packs swept now (balance "
            "compare base my_pack --role ID): a sweep directory's games were dealt with the pins its sweep.json "
            f"names (its report's first line says them); leave {'/'.join(given)} out to compare the sweeps as they are"
        )

    if fork is None:
        sweep = _load(base)
        labels = [p["name"] for p in sweep.meta.get("packs", [])]
        if len(labels) != 2:
            _fail(
                f"{base}: holds {len(labels)} pack(s) ({', '.join(labels)}): give BASE and FORK (two sweep directories "
                "or two packs), or one directory swept with two --pack"
            )
        base_report, fork_report = (_report_of(sweep, [label], True, lang) for label in labels)
        where = Path(base)
        sides = _sides(sweep, sweep, labels)
    elif _is_sweep(base) and _is_sweep(fork):
        base_sweep, fork_sweep = _load(base), _load(fork)
        for arg, sweep in ((base, base_sweep), (fork, fork_sweep)):
            labels = [p["name"] for p in sweep.meta.get("packs", [])]
            if len(labels) > 1:  # (which of its packs stands for its side is not said)
                _fail(
                    f"{arg}: holds {len(labels)} packs ({', '.join(labels)}): compare them alone (balance compare "
                    f"{arg}), or give two sweep directories of one pack each"
                )
        base_report, fork_report = (_report_of(sw, say=True, lang=lang) for sw in (base_sweep, fork_sweep))
        where = Path(fork)
        base_pins, fork_pins = base_sweep.meta.get("pins") or None, fork_sweep.meta.get("pins") or None
        if base_pins != fork_pins:  # the same seed dealt other deals: no game of one is a game of the other
            unpaired = {"base": base_pins, "fork": fork_pins}
            sides = ([], [], None)
        else:
            sides = _sides(base_sweep, fork_sweep, None)
    elif _is_sweep(base) or _is_sweep(fork):
        sweep_arg, other = (base, fork) if _is_sweep(base) else (fork, base)
        _fail(f"{sweep_arg} is a sweep directory but {other} is not: give two sweep directories, or two packs to sweep")
        return
    else:
        for arg in (base, fork):  # both packs, checked before anything is swept
            _pack_label(arg)
        where = _sweep_packs(
            base, fork, players_text, agents_specs, games, seed, expansions, jobs, out, pin_role, pin_task, pin_cards
        )
        sweep = _load(str(where))
        labels = [p["name"] for p in sweep.meta["packs"]]
        base_report, fork_report = (_report_of(sweep, [label], True, lang) for label in labels)
        sides = _sides(sweep, sweep, labels)
    for name, rep in (("BASE", base_report), ("FORK", fork_report)):
        if not rep["groups"]:
            _fail(f"{name} has no games to compare", 1)
    try:
        result = compare_reports(base_report, fork_report, detect, detect_turns)
    except CompareError as e:
        _fail(str(e))
        return
    result["paired"] = paired_figures(*sides)
    if unpaired is not None:
        result["paired"]["pins_differ"] = unpaired
    # the pinned role's and task's names for the pinned seat's row (either side's pack that has them)
    result["paired"]["pinned_names"] = {**base_report["sweep"]["pinned_names"], **fork_report["sweep"]["pinned_names"]}
    if json_path != "-":
        print_compare(result, _console(), roles=roles, lang=lang)
    _json_out(result, json_path)
    if not no_html:
        target = Path(html_path) if html_path else where / "compare.html"
        _write(target, render_compare(result, lang=lang), "HTML")
        click.echo(f"HTML: {target}", err=json_path == "-")


def _sides(base: Any, fork: Any, labels: list[str] | None) -> tuple[list[dict], list[dict], dict | None]:
    """The records of each side (of one pack each when `labels` names two packs of one sweep) and the pins of
    the fork's grid, for the paired comparison."""
    if labels is not None:
        a = [r for r in base.records if r["cell"]["pack"] == labels[0]]
        b = [r for r in fork.records if r["cell"]["pack"] == labels[1]]
    else:
        a, b = base.records, fork.records
        if len({r["cell"]["pack"] for r in a}) != 1 or len({r["cell"]["pack"] for r in b}) != 1:
            return [], [], None  # several packs a side: which pairs with which is not said
    pins = fork.meta.get("pins") or base.meta.get("pins")
    return a, b, pins


def _pack_label(arg: str) -> tuple[str, tuple[str, ...]]:
    if arg == "base":
        return "base", ()
    path = Path(arg)
    # a pack is a folder with a pack.yaml (a fork) or a rules.yaml (a rule set of its own); any other folder
    # (/tmp, a home folder) would be swept for minutes as the bundled game before anyone saw the mistake
    folder = os.path.isdir(path)  # (not Path.is_dir: a name too long for the system raises OSError there)
    if not folder or not ((path / "pack.yaml").is_file() or (path / "rules.yaml").is_file()):
        hint = None if folder else folder_hint(arg)
        what = "a folder with no sweep.json, pack.yaml or rules.yaml" if folder else "no such folder"
        what += f" ({hint})" if hint else ""
        _fail(f"{arg}: neither a sweep directory nor a content pack directory (nor `base`, the bundled game): {what}")
    return path.resolve().name, (arg,)


def _sweep_packs(
    base: str,
    fork: str,
    players_text: str,
    agents_specs: tuple[str, ...],
    games: int,
    seed: int,
    expansions: str | None,
    jobs: int | None,
    out: str | None,
    pin_role: str | None = None,
    pin_task: str | None = None,
    pin_cards: tuple[str, ...] = (),
) -> Path:
    """Sweep both packs in one grid (the same deals for both) with sweep's runner; returns its directory."""
    from .balance.sweep import PackSource, SweepError, make_spec, run_sweep
    from .cli_options import content_paths, load_or_exit
    from .sim import content_fingerprint

    packs = [_pack_label(base), _pack_label(fork)]
    if packs[0][0] == packs[1][0]:
        packs[1] = (packs[1][0] + "-fork", packs[1][1])
    try:
        players = parse_players(players_text)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="'--players'") from None
    sources, contents = [], {}
    for label, dirs in packs:
        paths = content_paths(dirs, expansions)
        contents[label] = load_or_exit(paths)
        fingerprint = content_fingerprint(contents[label])
        sources.append(PackSource(label, dirs, expansions, tuple(str(p) for p in paths), fingerprint))
    cards = card_pins(pin_cards)
    check_pins(contents, pin_role, pin_task, players, cards)
    try:
        pins = pins_of(pin_role, pin_task, cards, keyed=True)  # (two packs: dealt in the keyed order, so they pair)
        spec = make_spec(seed, players, list(agents_specs) or ["heuristic"], sources, games, pins=pins)
    except SweepError as e:
        raise click.BadParameter(str(e), param_hint="'--agents'") from None
    where = Path(out or f"compare-{packs[0][0]}-{packs[1][0]}")
    click.echo(f"sweep: {len(spec.cells()) * games} games → {where}", err=True)
    try:
        run_sweep(where, spec, sources, contents, jobs=jobs)
    except SweepError as e:
        _fail(str(e), 1)
    return where
