"""``fengsheng docs [PAGE]``: the documentation pages installed with the package.

    fengsheng docs                 # the pages, each with its title
    fengsheng docs modding         # the page, through a pager on a terminal
    fengsheng docs modding --path  # where its file is (to open it in an editor or a Markdown viewer)

The pages are the repository's docs/ (packaged as interpreter/bundled/docs, interpreter/paths.py), so a
user who installed the wheel reads what a checkout has; messages and the files `fengsheng new` writes name
a page by the command that shows it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .paths import DOCS_DIR


def pages() -> dict[str, Path]:
    """The pages by name (the file name without .md), in alphabetical order."""
    return {p.stem: p for p in sorted(DOCS_DIR.glob("*.md"))}


def title(page: Path) -> str:
    """A page's first heading, without its #."""
    with page.open(encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return ""


@click.command("docs")
@click.argument("page", required=False)
@click.option("--path", "show_path", is_flag=True, help="print where the page's file is instead of the page")
def docs(page: str | None, show_path: bool) -> None:
    """Print a documentation page (Markdown), or list the pages without PAGE.

    PAGE is a page's name as listed (modding, language, errors, …); `docs/modding.md`
    and `modding.md` are taken too.
    """
    found = pages()
    if not found:  # a broken install: say where the pages should have been
        raise click.ClickException(f"no documentation pages in {DOCS_DIR}: reinstall fengsheng")
    if page is None:
        if show_path:
            click.echo(DOCS_DIR)
            return
        width = max(map(len, found))
        click.echo(f"documentation pages ({DOCS_DIR}):")
        for name, path in found.items():
            click.echo(f"  {name:<{width}}  {title(path)}")
        click.echo("fengsheng docs PAGE prints one; fengsheng docs PAGE --path, where its file is")
        return
    name = Path(page).name.removesuffix(".md")
    if name not in found:
        from .snippet import clip
        from .suggest import closest

        hint = closest(name, found)
        also = f"did you mean {hint[0]}? " if hint else ""
        raise click.BadParameter(f"no page {clip(repr(page))}: {also}the pages: {', '.join(found)}", param_hint="PAGE")
    if show_path:
        click.echo(found[name])
        return
    text = found[name].read_text(encoding="utf-8")
    if sys.stdout.isatty():
        click.echo_via_pager(text)
    else:
        click.echo(text, nl=False)
