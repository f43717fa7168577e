"""``fengsheng validate``: check content packs or single files and print every problem."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from .cli_options import content_paths, expansions_option, format_option
from .model.content import Content
from .suggest import folder_hint


@click.command()
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
    from .content.packs import not_a_pack

    # (os.path's tests, not Path's: a name too long for the system is not there, where Path.exists raises OSError)
    for t in map(Path, paths):
        if not os.path.exists(t):
            hint = folder_hint(str(t), files=True)
            raise click.UsageError(f"{t} does not exist" + (f": {hint}" if hint else ""))
    singles = [Path(p) for p in paths if not os.path.isdir(p)]
    folders = [p for p in paths if os.path.isdir(p)]
    for folder in folders:  # a folder with nothing a pack holds would validate as an empty pack: ok, nothing checked
        problem = not_a_pack(folder)
        if problem is not None:
            raise click.UsageError(problem)
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
                f"ok: {len(content.card_types)} cards, {len(content.deck)} deck cards{_decks_text(content)}, "
                f"{len(content.tasks)} secret tasks, {len(content.identities)} identities, "
                f"{len(content.roles)} roles{warned}"
            )
        else:
            click.echo(f"ok: {len(targets)} file(s){warned}")
    sys.exit(1 if errors else 0)


def _decks_text(content: Content) -> str:
    """Each deck the rules deal by player count, beside the whole deck's size: ` (88 at 2–4 players, 110 at 5–8, 118
    at 9–10)` — the deck a game plays (simulate's "110-card deck") is one of them, not the whole (empty: one deck)."""
    decks = content.rules.decks
    if len(decks) < 2:
        return ""
    parts = []
    for i, (lo, hi, _name) in enumerate(decks):
        size = len(content.deck_for(lo))
        span = f"{lo}" if lo == hi else f"{lo}–{hi}"
        parts.append(f"{size} at {span}" + (" players" if i == 0 else ""))
    return " (" + ", ".join(parts) + ")"
