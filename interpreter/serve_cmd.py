"""``fengsheng serve``: the browser table (interpreter/web/ holds the app; optional extra ``web``)."""

from __future__ import annotations

import click

from .cli_options import bot_options, content_option


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="the address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="the port")
@content_option()
@click.option(
    "--bot-delay",
    default=0.4,
    show_default=True,
    type=click.FloatRange(0, 10),
    help="seconds between two bots' moves, so people can follow them (the game knows no clock)",
)
@bot_options()
def serve(host, port, content_dirs, expansions, bot_delay, bot_defs, bot_timeout):
    """Serve a table in the browser: a lobby to make tables of people and bots, a link per seat,
    each browser seeing only its seat; a replay viewer for logs.

    Open http://HOST:PORT/ and make a table; send each person the link of their seat. Bots of your own
    (--bot NAME=COMMAND) are offered in the lobby as the seat kind ext:NAME.
    """
    try:
        import uvicorn

        from .web.app import create_app
    except ImportError as e:
        raise click.ClickException(
            f"fengsheng serve needs the optional extra `web` ({e.name} is missing): "
            "python3 -m pip install 'fengsheng[web]' (in a checkout of fengsheng: python3 -m pip install -e '.[web]')"
        ) from None
    from .cli import _load_or_exit
    from .cli_options import content_paths, define_bots
    from .content.loader import ContentErrors, load_content
    from .content.packs import PackError, expansions_of, parse_expansions, resolve_packs
    from .paths import BUNDLED_CONTENT

    define_bots(bot_defs, bot_timeout)  # the lobby offers them as ext:NAME; a page names one, never a command
    default_packs = content_paths(content_dirs, expansions)
    _load_or_exit(default_packs)  # the content is checked before the server starts

    def packs_for(text):
        try:
            return resolve_packs(content_dirs, parse_expansions(text))
        except PackError as e:
            raise ValueError(str(e)) from None

    def load(packs):
        try:
            return load_content(packs)
        except ContentErrors as e:
            raise ValueError(f"{len(e.errors)} error(s) in the content: {e.errors[0]}") from None

    app = create_app(load, packs_for, list(expansions_of(BUNDLED_CONTENT)), expansions, bot_delay)
    click.echo(f"fengsheng serve: open http://{host}:{port}/ (Ctrl-C stops the server and its tables)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
