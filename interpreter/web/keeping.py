"""A table of ``fengsheng serve`` to and from its database (store.py): what is kept of it, and the table set up
again from what was kept, replayed from its seed and actions to where it stood.

The settings kept hold the seed: they are written to the database only, never sent to a seat, the host or the
lobby. A seat is kept by the digests of its key and invitation (tables.digest), never a key.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..engine.step import IllegalAction
from ..model.content import Content
from ..play import PlayError, Setup, Table
from .links import SeatLink
from .people import Chat
from .store import KeptTable, Store, StoreError
from .tables import HUMAN, OPEN, TableError, Tables, WebTable


def restored(kept: KeptTable, content: Callable[[Sequence[Path]], Content], store: Store) -> WebTable:
    """A kept table set up again from its settings and seats, and played from its seed through its actions (an
    unfinished one's bots asked their decisions again, so their generators stand where they stood); a
    TableError (or the error of its setup) if that cannot be done."""
    s = kept.settings
    packs = [Path(p) for p in s["packs"]]
    seats = list(s["seats"])
    humans = [i for i, k in enumerate(seats) if k in (HUMAN, OPEN)]
    bots = {i: k for i, k in enumerate(seats) if k not in (HUMAN, OPEN)}
    setup = Setup(players=len(seats), seed=int(s["seed"]), humans=humans, bots=bots, expansions=s["expansions"])
    kept_content = content(packs)
    role, seat = s.get("pin") or (None, None)  # (a table kept before roles were pinned in the lobby has none)
    if role is not None:  # the role its host pinned, dealt again to its seat: the same game, the same links
        if not isinstance(role, str) or type(seat) is not int or not 0 <= seat < len(seats):
            raise TableError(f"its pinned role is not a role's id and a seat of the table ({str(role)[:40]!r})")
        if role not in kept_content.roles:
            raise TableError(f"it was dealt the role {role!r} (pinned by its host), which its content no longer has")
        setup.role, setup.role_seat = role, seat
    table = Table(kept_content, setup)
    links = {
        k.seat: SeatLink(k.seat, key=k.key, reserved=k.reserved, invite=k.invite, claimed=k.claimed, name=k.name)
        for k in kept.seats
    }
    state, finished = table.state, kept.finished is not None
    for n, action in enumerate(kept.actions):
        if state.is_terminal():
            raise TableError(f"{len(kept.actions) - n} action(s) are kept after the end of its game")
        seat = state.current_player()
        agent = table.agents.get(seat)
        if agent is not None and not finished:  # its bot answers again: its generator stays in step
            table.bot_answer(seat, agent)
        try:
            table.apply(action)  # (a game the engine stopped stops again: Table.stopped)
        except IllegalAction:
            raise TableError(
                f"its action {n + 1} ({action}) is not legal in this game (other content, or another version?)"
            ) from None
        if seat in links:
            links[seat].answered += 1
    finished_at = kept.finished
    if state.is_terminal() and not finished:  # its end was not written (the disk was full then): written now
        finished_at = time.time()
        with contextlib.suppress(StoreError):
            store.finished(kept.id, finished_at)
    return WebTable(
        kept.id,
        table,
        packs,
        s["expansions"],
        links,
        s["referee"],
        host_seat=s["host_seat"],
        chosen_seed=bool(s["chosen_seed"]),
        label=s["label"],
        client=s["client"],
        store=store,
        played=len(kept.actions),
        chat_on=bool(s.get("chat", True)),
        timer=s.get("timer"),
        chat=Chat(list(kept.chat)),
        finished_at=finished_at,
    )


def restore(tables: Tables, now: float | None = None) -> list[str]:
    """Every table the database keeps, replayed from its seed and actions (an unfinished one with its bots
    asked each of their decisions again, so their generators stand where they stood); expired finished ones
    are deleted first. Returns a line for each table that could not be restored (its content is gone, a role its
    host pinned is no longer in it, an action is no longer legal): it stays in the database, unplayed, and its links
    are told it is kept but not restored (unrestored.py; the line, which may name its pin, is the server's
    output's alone), so a start with its content as it was restores it."""
    if tables.store is None:
        return []
    tables.expire(now)
    problems = []
    try:
        everything = tables.store.tables()
    except StoreError as e:
        return [str(e)]
    for kept in everything:
        try:
            tables.tables[kept.id] = restored(kept, tables.content, tables.store)
        except (TableError, PlayError, ValueError, OSError, KeyError, TypeError) as e:
            problems.append(f"table {kept.id} was not restored: {e}")
            tables.unrestored.add(kept.id, kept.finished)  # (a finished one until its time is up)
    return problems
