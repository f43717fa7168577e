"""``fengsheng replay``: re-run logged games and check them, or show one seat's copy of a log (--as)."""

from __future__ import annotations

import json
import sys

import click

from .cli_options import ExistingPath, content_option, content_paths, format_option, load_or_exit
from .snippet import clip


@click.command()
@click.argument("log_path", type=ExistingPath(dir_okay=False))
@content_option("content pack directory the games were played with")
@click.option("--game", "only", type=int, default=None, help="replay only the game with this index")
@click.option(
    "--as",
    "view",
    default=None,
    metavar="P<seat>|public",
    help="instead of re-running, show the games as one seat (P2) or a spectator (public) saw them",
)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="with --as: write that seat's copy of the log (JSONL, no seed) instead of printing it",
)
@click.option(
    "--max-turns",
    type=click.IntRange(1),
    default=None,
    help="the turn limit the games were played with (default: the log's, as simulate --max-turns wrote it; "
    "else the rules')",
)
@format_option(help="a line per game, or one JSON document (games: index, seed, ok, message); --as prints JSON Lines")
def replay(log_path, content_dirs, expansions, only, view, out_path, max_turns, fmt):
    """Re-run logged games from their seed and decisions; check the same events and end state.

    With --as, show or export one seat's copy of the referee's log: only the
    records and fields that seat could see, and no seed. The copy is JSON Lines,
    a log's own format, whatever --format says; with --out, --format json prints
    what was written as one JSON document instead of a sentence.
    """
    from .content.fingerprint import older_fingerprint
    from .sim import ReplayMismatch, content_fingerprint, failure_text, read_log, replay_game

    try:  # tolerant: a game with a bad line is reported below, the others are replayed
        games = read_log(log_path, tolerant=True)
    except (ReplayMismatch, OSError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(1)
    broken = [_unread(g) for g in games if "broken" in g]
    unread_games = [g for g in games if "broken" in g]
    games = [g for g in games if "broken" not in g]
    if broken and (view is not None or not games):  # a seat's copy is of whole logs only
        for message in broken[: 1 if view is not None else 20]:
            click.echo(f"error: {message}", err=True)
        sys.exit(1)
    if not games:
        click.echo(f"error: {log_path} holds no game", err=True)
        sys.exit(1)
    indexes = [g["header"].get("index") for g in games]
    if only is not None and only not in indexes:
        shown = ", ".join(clip(str(i)) for i in indexes[:10]) + (", …" if len(indexes) > 10 else "")
        click.echo(f"error: --game {clip(str(only))}: the log has no such game (its games: {shown})", err=True)
        sys.exit(2)
    if view is not None:
        _seat_view(games, view, only, out_path, log_path, fmt)
        return
    if out_path is not None:
        click.echo("error: --out needs --as (which seat's copy to write)", err=True)
        sys.exit(2)
    paths = content_paths(content_dirs, expansions)
    if not content_dirs and expansions is None:
        paths = _logged_packs(games, paths, log_path)
    content = load_or_exit(paths)
    fp = content_fingerprint(content)
    older = [g for g in games if older_fingerprint(g["header"].get("content"))]
    if older:  # said once: every game of such a log has one
        click.echo(
            f"note: {'the log' if len(older) == len(games) else f'{len(older)} game(s) of the log'} carries the "
            f"content fingerprint of an older fengsheng (a hash of the packs' files, {older[0]['header']['content']})"
            f", which cannot be compared with this content's ({fp}): replaying all the same (a mismatch may mean "
            "the content changed)",
            err=True,
        )
    bad = len(broken)
    records = [
        {"index": g["header"].get("index"), "seed": g["header"].get("seed"), "ok": False, "message": m}
        for g, m in zip(unread_games, broken, strict=True)
    ]
    for message in broken[:20]:
        click.echo(f"error: {message}", err=True)
    if len(broken) > 20:
        click.echo(f"error: … and {len(broken) - 20} more games of the log could not be read", err=True)
    copies = 0
    for logged in games:
        h = logged["header"]
        if only is not None and h.get("index") != only:
            continue
        same = None if older_fingerprint(h.get("content")) else h.get("content") == fp  # (None: cannot tell)
        if same is False:
            click.echo(
                f"warning: game {h.get('index')} was played with different content ({h.get('content')} vs {fp})",
                err=True,
            )
        try:
            ok, msg = replay_game(content, logged, max_turns)
        except Exception as e:  # a bug in replay itself: this game is reported, the others are replayed
            ok, msg = False, f"{failure_text(e)}; the log file reproduces it"
        records.append({"index": h.get("index"), "seed": h.get("seed"), "ok": ok, "message": msg, "same_content": same})
        copy = "seed" not in h  # a seat's copy (a page's download, replay --as): nothing to re-run it from
        if fmt == "text" and copy:
            click.echo(f"game {h.get('index')} ({clip(str(h.get('view', 'a seat')))}'s copy): NOT REPLAYED — {msg}")
        elif fmt == "text":
            click.echo(f"game {h.get('index')} (seed {h.get('seed')}): {'OK' if ok else 'MISMATCH'} — {msg}")
        bad += not ok
        copies += copy
    if fmt == "json":
        click.echo(json.dumps({"ok": not bad, "games": records}, ensure_ascii=False, indent=2))
    if bad:
        unread = f" ({len(broken)} of them could not be read)" if broken else ""
        if copies == bad:  # (not "did not replay identically": nothing was compared)
            click.echo(f"{bad} game(s) not replayed: a seat's copy holds no seed; replay the referee's log", err=True)
        else:
            click.echo(f"{bad} game(s) did not replay identically{unread}", err=True)
        sys.exit(1)


def _unread(game: dict) -> str:
    """What is wrong with a game of a log that could not be read, naming the game when its header was read."""
    h = game["header"]
    if "index" in h:  # said on the first line, before any snippet of the line
        first, _, rest = game["broken"].partition("\n")
        return f"{first} (game {h['index']}, seed {h.get('seed')}: not replayed)" + (f"\n{rest}" if rest else "")
    return game["broken"]


def _logged_packs(games: list[dict], default: list, log_path: str) -> list:
    """Without --content or --expansions, replay plays the packs the log's header names (`packs`, written by
    simulate: bundled packs by id, others relative to the log's folder) when they are all there with the content
    the games were played with; else the default content, saying why. A pack that is not there is an error
    (naming it and where it was looked for), unless the default content is the content the log was played with."""
    from pathlib import Path

    from .cli_options import load_or_none
    from .content.fingerprint import older_fingerprint
    from .content.packs import find_log_pack
    from .sim import content_fingerprint

    def same(packs: list) -> bool:  # whether these packs load the content the log was played with
        content = load_or_none(packs)
        return content is not None and content_fingerprint(content) == header.get("content")

    header = games[0]["header"]
    logged = header.get("packs")
    if not isinstance(logged, list) or not logged or not all(isinstance(p, str) for p in logged):
        return default
    base = Path(log_path).resolve().parent
    paths = []
    for ref in logged:
        found, places = find_log_pack(ref, base)
        if found is None:
            if same(default):
                click.echo(
                    f"note: the log names the pack {clip(ref)}, which is not here; the default content is the "
                    "content it was played with: replaying with it",
                    err=True,
                )
                return default
            click.echo(
                f"error: {log_path} was played with the pack {clip(ref)} (its header's `packs`), "
                f"which is not here (looked in {', '.join(clip(p, 300) for p in places)}): give --content DIR (and "
                "--expansions) to replay it with the packs you have",
                err=True,
            )
            sys.exit(1)
        paths.append(found)
    if [p.resolve() for p in paths] == [Path(p).resolve() for p in default]:
        return default
    if older_fingerprint(header.get("content")):  # (an older fengsheng's: nothing to compare it with)
        click.echo("content: " + ", ".join(clip(str(p)) for p in paths) + " (from the log)", err=True)
        return paths
    if not same(paths):
        click.echo(
            "note: the packs the log names have changed since it was written: replaying with the default "
            "content (give --content to choose)",
            err=True,
        )
        return default
    click.echo("content: " + ", ".join(clip(str(p)) for p in paths) + " (from the log)", err=True)
    return paths


def _seat_view(games, view: str, only, out_path, log_path, fmt: str = "text") -> None:
    """replay --as: print or write one seat's copy of each game. Its header names the packs as the log's does,
    a pack of one's own relative to the copy's folder (the current directory when printed), not the log's."""
    import json
    from pathlib import Path

    from .content.packs import find_log_pack, log_pack_ref
    from .sim import seat_header, seat_records

    here, there = Path(log_path).resolve().parent, Path(out_path).parent if out_path is not None else Path.cwd()

    def moved(ref: object) -> object:
        if not isinstance(ref, str):
            return ref
        found = find_log_pack(ref, here)[0]
        return log_pack_ref(found if found is not None else here / ref, there)

    if view == "public":
        seat = None
    elif view[:1] in ("P", "p") and view[1:].isascii() and view[1:].isdigit() and len(view) <= 4:
        seat = int(view[1:])
    else:
        click.echo(f"error: --as takes P<seat> (e.g. P2) or public, not {clip(repr(view))}", err=True)
        sys.exit(2)
    lines = []
    for logged in games:
        h = logged["header"]
        if only is not None and h.get("index") != only:
            continue
        if h.get("view", "referee") != "referee":
            click.echo(
                f"error: game {h.get('index')} is already one seat's copy ({h.get('view')}); "
                "per-seat copies are made from the referee's log",
                err=True,
            )
            sys.exit(1)
        if seat is not None and not 0 <= seat < h.get("players", 0):
            click.echo(
                f"error: game {h.get('index')} has {h.get('players')} seats (P0..P{h.get('players', 1) - 1})", err=True
            )
            sys.exit(2)
        header = seat_header(logged, seat)
        if isinstance(header.get("packs"), list):
            header["packs"] = [moved(ref) for ref in header["packs"]]
        lines.append(json.dumps({"type": "game", **header}, ensure_ascii=False))
        for rec in seat_records(logged, seat):
            kind = "decision" if "d" in rec else "event"
            lines.append(json.dumps({"type": kind, **rec}, ensure_ascii=False, sort_keys=True))
    text = "\n".join(lines) + "\n"
    if out_path is None:
        click.echo(text, nl=False)
    else:
        try:
            with open(out_path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            click.echo(f"error: cannot write {out_path}: {e.strerror or e}", err=True)
            sys.exit(1)
        n_games = sum(1 for ln in lines if ln.startswith('{"type": "game"'))
        if fmt == "json":
            click.echo(json.dumps({"view": view, "games": n_games, "out": str(out_path)}, ensure_ascii=False))
        else:
            click.echo(f"{view}'s copy of {n_games} game(s) written to {out_path}")
