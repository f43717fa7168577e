"""Shared by the browser table's tests (tests/test_web.py, tests/test_web_browser.py): the app on the bundled
content, and what a seat may not be shown at a moment of a game."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from interpreter.content.loader import load_cached
from interpreter.content.packs import parse_expansions, resolve_packs
from interpreter.engine.frozen import FrozenDict
from interpreter.engine.step import GameState
from interpreter.seat_text import Names


def make_app(
    bot_delay: float = 0.0,
    port: int | None = None,
    limits=None,
    store=None,
    retry_seconds: float = 5.0,
    restored=None,
    default_role: str | None = None,
):
    """The app on the bundled content, answering for Starlette's test client (``testserver``) or, given a `port`,
    for a browser at http://127.0.0.1:PORT; its tables kept in `store` (default: an in-memory database, so every
    test goes through the writes a server makes)."""
    from interpreter.web.app import create_app
    from interpreter.web.store import Store

    hosts = ["testserver"] if port is None else ["127.0.0.1"]
    origins = ["http://testserver"] if port is None else [f"http://127.0.0.1:{port}"]
    return create_app(
        load_cached,
        lambda text: resolve_packs([], parse_expansions(text)),
        ["tie_wu_zi", "lao_yang_fang"],
        bot_delay=bot_delay,
        hosts=hosts,
        origins=origins,
        limits=limits,
        store=Store(None) if store is None else store,
        restored=restored,
        retry_seconds=retry_seconds,
        default_role=default_role,
    )


@contextmanager
def database_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder for a test's database: in memory where the system has a folder there (/dev/shm), else `tmp_path`.
    The server commits every action with synchronous=FULL: on a disk each commit waits for its fsync (a test's
    hundred actions took a second and a half of waiting); in memory the same writes, WAL and locks wait for none."""
    shm = Path("/dev/shm")
    if not shm.is_dir():
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(dir=shm, prefix="fengsheng-test-") as folder:
        yield Path(folder)


_NESTED = (dict, list, tuple)  # the plain JSON values that hold others (FrozenDicts are dicts)
_CARD_FIELDS = ("cards", "card", "uid", "old", "new")  # the fields of a record that name cards by deck id

# A history record's card ids, by the record: the engine hands a seat the same frozen record objects in each of
# its observations (a FrozenDict hashes by identity, and the key held here keeps that identity from being reused),
# so the leak tests, which read a seat's whole history at every message, walk each record once. Cleared when large.
_RECORD_IDS: dict[FrozenDict, frozenset[int]] = {}


def card_ids(data: Any) -> set[int]:
    """The deck ids of the cards shown with their face anywhere in `data` (a dict with an id and a name), and the
    deck ids a record names (its card fields). (A stack, not a generator of paths, and a frozen record's ids
    remembered: this runs on every message of every game the leak tests play.)"""
    return _walk(data, set(), remember=True)


def _walk(data: Any, out: set[int], remember: bool) -> set[int]:
    """card_ids of `data` added to `out`; `remember`: a frozen record's ids taken from, or kept in, _RECORD_IDS."""
    stack = [data]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if "e" in v:
                if remember and type(v) is FrozenDict:
                    ids = _RECORD_IDS.get(v)
                    if ids is None:
                        if len(_RECORD_IDS) > 100_000:
                            _RECORD_IDS.clear()
                        ids = _RECORD_IDS[v] = frozenset(_walk(v, set(), remember=False))
                    out |= ids
                    continue
                for key in _CARD_FIELDS:
                    x = v.get(key)
                    if isinstance(x, int) and not isinstance(x, bool):
                        out.add(x)
                    elif isinstance(x, (list, tuple)):
                        out.update(i for i in x if isinstance(i, int) and not isinstance(i, bool))
            uid = v.get("id")
            if isinstance(uid, int) and "name" in v:
                out.add(uid)
            stack.extend([x for x in v.values() if isinstance(x, _NESTED)])
        elif isinstance(v, (list, tuple)):
            stack.extend([x for x in v if isinstance(x, _NESTED)])
    return out


_SECRET_KEYS = ("identity", "seed")


# A frozen record's values under those keys, by the record (as _RECORD_IDS: the same records in every observation).
_RECORD_KEYED: dict[FrozenDict, tuple[tuple[str, Any], ...]] = {}


def _keyed(data: Any, remember: bool = True) -> list[tuple[Any, str, Any]]:
    """The values inside plain JSON data under an "identity" or "seed" key, each as (the top-level key it is
    under, its key, the value). (No path is built: this runs on every message; `_path` finds one to report. A
    frozen record's are remembered.)"""
    found: list[tuple[Any, str, Any]] = []
    stack: list[tuple[Any, Any]] = [(None, data)]
    while stack:
        top, v = stack.pop()
        if isinstance(v, dict):
            if remember and top is not None and "e" in v and type(v) is FrozenDict:
                inside = _RECORD_KEYED.get(v)
                if inside is None:
                    if len(_RECORD_KEYED) > 100_000:
                        _RECORD_KEYED.clear()
                    inside = _RECORD_KEYED[v] = tuple((k, x) for _, k, x in _keyed({"": v}, remember=False))
                found += [(top, k, x) for k, x in inside]
                continue
            for k, x in v.items():
                under = k if top is None else top
                if k in _SECRET_KEYS:
                    found.append((under, k, x))
                if isinstance(x, _NESTED):
                    stack.append((under, x))
        elif isinstance(v, (list, tuple)):
            under = 0 if top is None else top  # (a list at the top: its items' paths start with an index)
            stack.extend((under, x) for x in v if isinstance(x, _NESTED))
    return found


def _path(data: Any, key: str, value: Any) -> tuple | None:
    """The first path inside `data` to `value` under `key` (to say where a leak is)."""
    if isinstance(data, dict):
        items: Any = data.items()
    elif isinstance(data, (list, tuple)):
        items = enumerate(data)
    else:
        return None
    for k, x in items:
        if k == key and x == value:
            return (k,)
        below = _path(x, key, value)
        if below is not None:
            return (k, *below)
    return None


def hidden_values(state: GameState, me: int, names: Names) -> dict[str, Any]:
    """What seat `me` may not be shown now: the deck ids of the cards in the other seats' hands and of a face-down
    intel in transit that its observation does not show anywhere (its history included), the face-down roles of
    the others it does not know, the others' secret tasks (when not its own) and identities it has not looked at."""
    mine = state.observation(me)
    seen = card_ids(mine)
    # every seat's role, task and identity from the referee's game, not from the observations: an observation that
    # leaked another seat's task as its seat's own would otherwise have the leaked task counted as one the seat
    # may see, and the real owner's (its observation wrong too) missing from what is hidden
    players = state._game.players
    truth = players[me]
    own_task = truth.task.id if truth.task is not None else None
    cards: list[int] = []
    roles: list[str] = []
    tasks: list[str] = []
    identities: list[tuple[int, str]] = []
    for seat in range(state.n_players):
        if seat == me:
            continue
        theirs = state.observation(seat)
        real = players[seat]
        cards += [c["id"] for c in theirs["me"]["hand"] if c["id"] not in seen]
        if mine["players"][seat]["role"] is None and real.role is not None:
            roles.append(names.role(real.role.id))
        if real.task is not None and real.task.id != own_task:
            tasks.append(names.task(real.task.id))
        shown = mine["result"] is not None and seat in mine["result"]["winners"]  # the winners' are shown at the end
        if str(seat) not in mine["known_identities"] and real.identity is not None and not shown:
            identities.append((seat, real.identity.id))
        t = theirs["transit"]
        if t is not None and t["card"] is not None and mine["transit"]["card"] is None and t["card"]["id"] not in seen:
            cards.append(t["card"]["id"])
    allowed = {truth.identity.id if truth.identity is not None else None, *mine["known_identities"].values()}
    return {"cards": cards, "roles": roles, "tasks": tasks, "identities": identities, "allowed": allowed}


_NAMED = re.compile(r"#(\d+)")


def leaks(text: str, data: Any, hidden: dict[str, Any], names: Names) -> list[str]:
    """The hidden values found in one message (its text and its data)."""
    allowed = hidden["allowed"]
    found = []
    ids = card_ids(data)
    named = {int(n) for n in _NAMED.findall(text)}  # every "#<deck id>" in the text, in one pass
    for uid in hidden["cards"]:
        hit = re.search(rf"#{uid}(?!\d)", text) if uid in named else None
        if uid in ids or hit:
            where = f" in “…{text[max(0, hit.start() - 40) : hit.end() + 20]}…”" if hit else " in the data"
            found.append(f"card #{uid}{where}")
    found += [f"role {r}" for r in hidden["roles"] if r in text]
    found += [f"task {t}" for t in hidden["tasks"] if t in text]
    for seat, ident in hidden["identities"]:
        name = names.identity(ident)
        if f"P{seat}：{name}" in text or f"P{seat} 的身份：{name}" in text:
            found.append(f"P{seat}'s identity {name}")
    for top, key, v in _keyed(data):  # no identity but the seat's own and those it looked at
        if key == "identity" and top != "view" and v is not None and v not in allowed:
            outside_view = {k: x for k, x in data.items() if k != "view"} if isinstance(data, dict) else data
            found.append(f"identity {v} at {_path(outside_view, key, v)}")
        if key == "seed":
            found.append(f"the seed at {_path(data, key, v)}")
    return found


def spectator_hidden(state: GameState, names: Names) -> dict[str, Any]:
    """What a spectator may not be shown now: every card in a hand, and a face-down intel in transit, that its
    public observation does not show; every role not shown to all, every secret task, every identity but the
    winners' (shown to every seat at the end)."""
    public = state.public_observation()
    seen = card_ids(public)
    cards: list[int] = []
    roles: list[str] = []
    tasks: list[str] = []
    identities: list[tuple[int, str]] = []
    for seat in range(state.n_players):
        theirs = state.observation(seat)
        cards += [c["id"] for c in theirs["me"]["hand"] if c["id"] not in seen]
        if public["players"][seat]["role"] is None and theirs["me"]["role"] is not None:
            roles.append(names.role(theirs["me"]["role"]))
        if theirs["me"]["task"] is not None:
            tasks.append(names.task(theirs["me"]["task"]))
        won = public["result"] is not None and seat in public["result"]["winners"]  # shown to all at the end
        if theirs["me"]["identity"] is not None and not won:
            identities.append((seat, theirs["me"]["identity"]))
        t = theirs["transit"]
        if (
            t is not None
            and t["card"] is not None
            and public["transit"]["card"] is None
            and t["card"]["id"] not in seen
        ):
            cards.append(t["card"]["id"])
    return {"cards": cards, "roles": roles, "tasks": tasks, "identities": identities, "allowed": set()}


def finish_table(web) -> None:
    """Play a web table to its end: each person answering its first legal action, each bot its own (on the thread
    the game was dealt on: a test client's portal, for a table of an app)."""
    while not web.over():
        if web.bot_to_move():
            web.bot_answered(web.bot_question()())
        else:
            seat = web.waiting_for()
            assert web.act(seat, web.seq(seat), web.state.legal_actions()[0]) is None
