"""``fengsheng serve``: the browser table (interpreter/web/ holds the app; optional extra ``web``)."""

from __future__ import annotations

import errno
import socket
import sys
from dataclasses import replace
from pathlib import Path

import click

from .cli_options import bot_options, content_option
from .web.guard import Limits, default_hosts, default_origins, open_link


def cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (the port in use, an address not of this machine, a name that
    does not resolve), or None. Tried before the server prints the link to open: uvicorn found it only after that
    line, so a second `fengsheng serve` on a busy port said "open http://127.0.0.1:8000/" (another program's
    page) and then one line of uvicorn's log. Binds as asyncio's server does (SO_REUSEADDR, every address of the
    name) and lets go at once; port 0 (any free port) always binds."""
    try:
        addresses = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        return f"cannot listen on {host!r}: {e.strerror} (give --host an address or name of this machine)"
    for family, kind, proto, _name, address in addresses:
        try:
            probe_socket = socket.socket(family, kind, proto)
        except OSError:  # a family this machine lacks (IPv6 off: localhost's ::1): asyncio's server skips it too
            continue
        with probe_socket as probe:
            if sys.platform != "win32":  # (there it would let the bind share a port in use: asyncio sets it not)
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)  # (as asyncio: IPv4 binds apart)
            try:
                probe.bind(address)
                probe.listen()
            except OSError as e:
                where = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
                if e.errno == errno.EADDRINUSE:
                    return (
                        f"cannot listen on {where}: the port is in use (another fengsheng serve, or another program):"
                        " stop it, or give another --port"
                    )
                if e.errno == errno.EACCES and 0 < port < 1024:
                    return f"cannot listen on {where}: {e.strerror} (a port below 1024 needs privileges)"
                if e.errno == errno.EACCES:
                    return f"cannot listen on {where}: {e.strerror}"
                return f"cannot listen on {where}: {e.strerror} (give --host an address of this machine)"
    return None


def free_port(host: str) -> int | None:
    """A port free on `host` now, for --port 0 (any free port): the one the system gives a socket bound to port 0,
    let go at once. The server must know it before it starts: the links it prints and the Host and Origin it
    answers for name it (with 0 in them, every page was refused). None if `host` cannot be bound (cannot_listen
    then says why)."""
    try:
        addresses = socket.getaddrinfo(host or None, 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError:
        return None
    for family, kind, proto, _name, address in addresses:  # (the first family this machine has: as cannot_listen)
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.bind(address)
                return int(probe.getsockname()[1])
        except OSError:
            continue
    return None


def host_problem(name: str) -> str | None:
    """Why `name` is no --allowed-host, or None: a host is compared without its port and scheme (Host's name), so a
    URL or a name:port answers for no request, and a wildcard is ``*`` alone or a leading ``*.`` before a name
    (``*.`` is not ``*``, which answers for every host). An IPv6 address keeps its colons."""
    what = "a host is a name or an address (play.example.org, *.example.org, 127.0.0.1, ::1), without scheme or port"
    bare = name.strip("[]") if name.startswith("[") else name
    if not bare or any(c.isspace() or c in "/@?#" for c in bare) or bare.count(":") == 1:
        return what
    if "*" in bare and not (bare == "*" or (bare.startswith("*.") and "*" not in bare[2:] and bare[2:].strip("."))):
        return what
    return None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="the address to listen on")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="the port (0: a free one, which the link printed names)",
)
@content_option()
@click.option(
    "--bot-delay",
    default=0.4,
    show_default=True,
    type=click.FloatRange(0, 10),
    help="seconds between two bots' moves, so people can follow them (the game knows no clock)",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="a host name the server answers for (repeat; *.example.org for its subdomains); default: the address "
    "of --host (127.0.0.1: also localhost; 0.0.0.0: this machine's names and addresses)",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    metavar="URL",
    help="the origin of pages that may make tables and open seats, e.g. https://fengsheng.example.org (repeat); "
    "default: http://HOST:PORT for each allowed host",
)
@click.option(
    "--max-tables",
    default=Limits.tables,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="tables the server holds (a finished one is forgotten to make room)",
)
@click.option(
    "--max-tables-per-client",
    default=Limits.tables_per_client,
    show_default=True,
    type=click.IntRange(0, 100_000),
    help="unfinished tables made from one address (0: no limit; behind a reverse proxy every client has its address)",
)
@click.option(
    "--db",
    "db_path",
    metavar="PATH",
    help="the SQLite database the tables are kept in, so they survive a restart (default: tables.sqlite3 in the "
    "user's data folder, $FENGSHENG_DATA_DIR or ~/.local/share/fengsheng); --db :memory: keeps nothing",
)
@click.option(
    "--keep-finished",
    default=30.0,
    show_default=True,
    type=click.FloatRange(0, 36_500),
    metavar="DAYS",
    help="days a finished table (its logs for the replay viewer) is kept; 0: for ever",
)
@click.option(
    "--role",
    "role",
    default=None,
    metavar="ID",
    help="pin this role (its id) to the host's seat of every table made in the lobby, unless its form says another or "
    "none: to playtest a new role of your pack (--content) at the table, as play --role does",
)
@bot_options()
def serve(
    host,
    port,
    content_dirs,
    expansions,
    bot_delay,
    allowed_hosts,
    allowed_origins,
    max_tables,
    max_tables_per_client,
    db_path,
    keep_finished,
    role,
    bot_defs,
    bot_timeout,
):
    """Serve a table in the browser: a lobby to make tables of people and bots, a link per seat,
    each browser seeing only its seat; a replay viewer for logs.

    Open http://HOST:PORT/ and make a table; send each person the link of their seat. Bots of your own
    (--bot NAME=COMMAND) are offered in the lobby as the seat kind ext:NAME. Only pages of the server's
    own address may use it: behind a reverse proxy, name the proxy's host and origin (--allowed-host,
    --allowed-origin).
    """
    try:
        import uvicorn

        from .web.app import create_app
    except ImportError as e:
        from .extras import install_command

        raise click.ClickException(
            f"fengsheng serve needs the optional extra `web` ({e.name} is missing): {install_command('web')}"
        ) from None
    from .cli_options import content_paths, define_bots, load_or_exit
    from .content.loader import ContentErrors, load_content
    from .content.packs import PackError, expansions_of, parse_expansions, resolve_packs
    from .paths import BUNDLED_CONTENT

    define_bots(bot_defs, bot_timeout)  # the lobby offers them as ext:NAME; a page names one, never a command
    default_packs = content_paths(content_dirs, expansions)
    content = load_or_exit(default_packs)  # the content is checked before the server starts
    if role is not None:  # (as play --role: an id the content lacks is a usage error with a did-you-mean)
        from .engine.pins import pin_problems

        for wrong in pin_problems(content, role, None, []):
            raise click.BadParameter(wrong, param_hint="'--role'")

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

    if port == 0:  # (before the hosts and origins it answers for, which name the port)
        port = free_port(host) or 0
    hosts = list(allowed_hosts) or default_hosts(host)
    for name in allowed_hosts:
        problem = host_problem(name)
        if problem is not None:
            raise click.BadParameter(f"{name!r}: {problem}", param_hint="--allowed-host")
    origins = list(allowed_origins) or default_origins(hosts, port)
    for origin in origins:
        if not origin.startswith(("http://", "https://")) or origin.rstrip("/").count("/") != 2:
            raise click.BadParameter(f"{origin!r}: an origin is scheme://host[:port]", param_hint="--allowed-origin")
    limits = replace(Limits(), tables=max_tables, tables_per_client=max_tables_per_client)
    from .sealed import data_dir
    from .web.store import DB_FILE, Store, StoreError

    where = None if db_path == ":memory:" else Path(db_path) if db_path else data_dir() / DB_FILE

    def restored(tables, problems):
        kept = tables.tables.values()
        on = sum(1 for t in kept if not t.over())
        if where is not None:  # (a database in memory starts empty: nothing to restore, nothing to say)
            click.echo(f"  restored {on} unfinished and {len(kept) - on} finished table(s)")
        for problem in problems:
            click.echo(f"  {problem}", err=True)

    try:
        store = Store(where, keep=keep_finished * 86400 if keep_finished else None)
        app = create_app(
            load,
            packs_for,
            list(expansions_of(BUNDLED_CONTENT)),
            expansions,
            bot_delay,
            hosts,
            origins,
            limits,
            store,
            restored,
            default_role=role,
        )
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    problem = cannot_listen(host, port)
    if problem is not None:
        store.close()  # (its lock goes with it)
        raise click.ClickException(problem)
    if where is None:
        click.echo("fengsheng serve: tables kept in memory only (--db :memory:): a restart loses them")
    else:
        click.echo(f"fengsheng serve: tables kept in {where}")
    link = open_link(host, port, hosts, origins)  # (one it answers for: --allowed-host may name others)
    stops = "the server and its tables" if where is None else "the server; its tables are kept for its next start"
    click.echo(f"fengsheng serve: open {link} (Ctrl-C stops {stops})")
    click.echo(f"  answers for {', '.join(hosts)}; pages of {', '.join(origins)}")
    if role is not None:  # (said here alone: the lobby tells whoever opens it only that a role is pinned)
        click.echo(f"  a new table pins the role {role} to its host's seat unless its form says otherwise")
    try:
        # (a websocket is pinged every 20 s and dropped if it has not answered 20 s later: a dead one goes then; a
        # seat's new websocket closes its oldest at once, app.make_room)
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="warning",
            ws_max_size=limits.frame_bytes * 4,
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
        )
    finally:
        store.close()  # (its lock goes: another server may open the database)
