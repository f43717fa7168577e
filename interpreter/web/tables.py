"""The tables a ``fengsheng serve`` holds: one game each on the step API, human seats by secret key, bots.

A table is a :class:`interpreter.play.Table` (the step API's ``GameState``, one agent per bot seat, each
seeded from the game's seed and its seat) and a secret key per human seat.

The host is blind. Whoever makes a table is given its own seat's key (if it plays), an *invitation* for each
other reserved seat, and a referee token; never the seed (a fresh one from ``seeds.fresh_seed``) nor another
seat's key. An invitation works once: the first browser that opens it is given the seat's key, and from then on
the invitation opens nothing, so a host who opens someone else's invitation takes that seat away from its
person — who finds the link spent and can say so — instead of watching it unseen. The referee token reads the
referee's log (seed and every action) only once the game is over. A seed given by the host (reproducible tests,
a replayed deal) is allowed, and every seat is told the table's seed was chosen: its host can know every card.

A seat is sent only its observation, the legal actions when it is the one to answer, and its screen in Chinese
drawn from them (``view.seat_view``); the server checks every action it gets: the seat must be the one to answer, the
action must answer the decision the seat was shown (``seq``: the seat's own count of its decisions, see
:meth:`WebTable.seq`), and the id must be legal. Anything else is refused with a message and changes nothing.

What a seat is sent counts only what it may know. No message carries the game's count of actions (a decision
that only its seat sees — which of two copies of a card to give — would still show in it), and a seat is sent
a message only when what it may know changed (app.py compares :meth:`WebTable.message`'s fingerprint), so the
number of messages does not count the others' hidden decisions either.

No clock and no unseeded generator touch a game: the seed and the actions replay it, and a finished table's
referee log is what ``simulate --log`` writes (``fengsheng replay`` accepts it). The tokens are drawn
from the operating system's generator; they are not part of the game.

Every table is kept in the server's database (``store.py``): its settings, the digests of its keys and
invitations (a key is made when it is handed out, and only its digest is kept: a copy of the database opens no
seat), and each action. Everything is written first and changed in memory after: an action is committed, then
applied; a key, a name or a chat line is written, then taken. A write that fails (``StoreError``: a full disk, a
read-only file) therefore changes nothing anyone can see: the table stands where the file says it stands, and
the same answer can be sent again. ``keeping.restore`` replays each kept table from its seed and actions when the
server starts: the same links open the same seats; one it cannot replay stays kept and its links say so.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents.kinds import agent_kinds
from ..engine.step import IllegalAction
from ..model.content import MAX_SEATS, MIN_PLAYERS, Content
from ..play import Setup, Table
from ..seeds import SEED_RANGE, fresh_seed, is_seed
from ..sim import read_log_text, seat_header, seat_records, state_log_text
from .expiry import Expiry
from .guard import Limits
from .links import Handout, SeatLink, digest, matches, well_formed
from .people import Chat, Refused, clean_line, clean_name, line_data
from .store import KeptSeat, Store, StoreError
from .unrestored import GONE, not_restored
from .view import seat_view

HUMAN = "human"  # a reserved human seat: the host's own, or its invitation goes to the host to hand to one person
OPEN = "open"  # an open human seat: nothing goes to the host; the lobby's join hands it to the first who asks


class TableError(Exception):
    """A table that cannot be made, an unknown table or token: a message for the page, and its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class WebTable:
    """One game at the server: the table, its seats' keys, the referee token (the log once it is over)."""

    id: str
    table: Table
    packs: list[Path]
    expansions: str | None
    seats: dict[int, SeatLink]  # human seats
    referee: str  # the digest of the referee's token: the referee's log, once the game is over
    host_seat: int | None = None  # the seat the host plays (its key went to the host), if any
    chosen_seed: bool = False  # the host gave the seed: it can know every card (every seat is told)
    busy: bool = False  # bots are moving
    label: str = ""
    client: str = ""  # the address the table was made from (Limits.tables_per_client)
    store: Store | None = None  # where its actions and seats are written (None: kept in memory only)
    played: int = 0  # the actions applied (the next one written is number `played`)
    handout: Handout | None = None  # the secrets made with it, until its host was answered
    chat_on: bool = True  # its people may chat (the host's choice)
    chat: Chat = field(default_factory=Chat)
    watching: int = 0  # spectators' websockets open
    # the host's move timer in seconds, or None: the page counts it down and, at 0, answers the first option of
    # its menu itself (docs/play.md); the server and the engine never read a clock for it
    timer: int | None = None
    pending: int | None = None  # a bot's answer to the current decision that could not be written yet
    stalled: bool = False  # a bot's answer could not be written: the table waits (its people were told, once)
    # when its game ended, by the server's clock (the database's `finished`): a finished table is gone once the
    # database's time for it is up (Tables.get, Tables.listed); None while it is being played
    finished_at: float | None = None

    # ------------------------------------------------------------------ who is who

    @property
    def state(self):  # the step API's GameState
        return self.table.state

    @property
    def players(self) -> int:
        return self.table.setup.players

    def seat_of(self, token: str) -> int | None:
        """The seat whose key is `token` (an invitation is not a key)."""
        for link in self.seats.values():
            if matches(link.key, token):
                return link.seat
        return None

    def hand_out(self, seat: int, key: str | None = None) -> str:
        """A key for `seat` (a fresh one, or `key`, the one a page proposed: `redeem`), handed out now: its digest
        is kept (and written) and the seat is claimed."""
        link = self.seats[seat]
        if key is None:
            key = secrets.token_urlsafe(16)
        kept = link.kept()
        kept.key, kept.claimed = digest(key), True
        self.keep_seat(kept)  # (StoreError: nothing handed out, the seat as it was)
        link.key, link.claimed = kept.key, True
        return key

    def keep_seat(self, kept: KeptSeat) -> None:
        """A seat as it is about to be, written (StoreError if it cannot be: then it is not changed)."""
        if self.store is not None:
            self.store.seat(self.id, kept)

    def redeem(self, invite: str, proposed: str | None = None) -> tuple[int | None, str | None]:
        """An invitation exchanged for its seat: (the seat, its key) the first time, (the seat, None) once it was
        used (its key went to whoever used it first), (None, None) for no invitation of this table.

        `proposed`: the key the page made and kept before it asked (a well-formed one becomes the seat's key, else
        a fresh one is made). The invitation is spent when it is written, before the page hears the key: were the
        connection lost in between, a key made here would be lost with it, and the seat with it, for good (the
        invitation refused from then on, no other link to the seat). A page that made its key itself holds it
        already, and joins with it when it reconnects. (The host, who knows the invitation, cannot know the key.)"""
        for link in self.seats.values():
            if matches(link.invite, invite):
                if link.claimed:
                    return link.seat, None
                return link.seat, self.hand_out(link.seat, well_formed(proposed))
        return None, None

    def reissue(self, seat: Any) -> str:
        """A fresh invitation for `seat`, a reserved seat whose invitation nobody used yet (for its host alone: app.py
        asks the referee token first): its digest takes the old one's place, written before it is handed out
        (StoreError: nothing changed, the old invitation still works), so the old invitation opens nothing from
        then on. A TableError for a seat with no invitation to replace (400: no seat of the table; 409: the host's
        own, an open or a bot's seat, a used invitation — its key is its person's —, or a game over). The host
        knows each of these (the table's seats are public, which invitations are used is answered to it): the
        refusal tells it nothing it did not know."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise TableError(f"seat is a seat's number, 0 to {self.players - 1} (got {str(seat)[:20]!r})")
        link = self.seats.get(seat)
        if link is None or link.invite is None:
            raise TableError(f"P{seat} has no invitation (the host's own seat, an open seat or a bot's)", 409)
        if link.claimed:
            raise TableError(
                f"P{seat}'s invitation was used: the seat is its person's (a key is never given again)", 409
            )
        if self.over():
            raise TableError("the game is over: nobody can take a seat any more", 409)
        invite = secrets.token_urlsafe(16)
        kept = link.kept()
        kept.invite = digest(invite)
        self.keep_seat(kept)  # (StoreError: not written, so not changed)
        link.invite = kept.invite
        return invite

    def claim_open(self, proposed: str | None = None) -> tuple[int, str] | None:
        """The lobby's join: the first open seat nobody took, and its key; None if there is none left.

        `proposed`: the key the lobby's page made and kept before it asked, as for `redeem`: a well-formed one
        becomes the seat's key, and asked again with it (the answer was lost on its way: the seat was taken and
        written, its link never reached the page) the seat it opens is answered again, not a second seat."""
        own = well_formed(proposed)
        if own is not None:
            held = self.seat_of(own)
            if held is not None:
                return held, own
        for seat, link in sorted(self.seats.items()):
            if link.joinable():
                return seat, self.hand_out(seat, own)
        return None

    # ------------------------------------------------------------------ its people (people.py)

    def set_name(self, seat: int, name: Any) -> None:
        """The name the person at `seat` took (people.clean_name: Refused if it is not one), kept."""
        link = self.seats[seat]
        kept = link.kept()
        kept.name = clean_name(name)
        self.keep_seat(kept)
        link.name = kept.name

    def say(self, seat: int, text: Any, now: float) -> dict[str, Any]:
        """A chat line of `seat`, checked, kept (written) and returned for everyone at the table; Refused with
        why (no chat at this table, a bad line, too fast)."""
        if not self.chat_on:
            raise Refused("这张桌没有开聊天。")
        link = self.seats[seat]
        line = self.chat.say(seat, link.name or f"P{seat}", clean_line(text), now)
        if self.store is not None:
            try:
                self.store.chat(self.id, len(self.chat.lines) - 1, *line)
            except StoreError:
                self.chat.lines.pop()  # (not said: nobody was sent it)
                raise
        return line_data(line)

    def people(self) -> dict[str, Any]:
        """Who is at the table: each seat a person's (its name, whether it is online) or a bot's, and how many are
        watching. All public."""
        bots = self.table.setup.bots
        return {
            "type": "people",
            "seats": [
                {
                    "seat": s,
                    "kind": bots.get(s, HUMAN),
                    "name": self.seats[s].name if s in self.seats else None,
                    "online": bool(s in self.seats and self.seats[s].connected),
                }
                for s in range(self.players)
            ],
            "watching": self.watching,
            "chat": self.chat_on,
        }

    def settings(self, seats: list[str]) -> dict[str, Any]:
        """What the database keeps of the table besides its seats and actions: enough to set it up again. The seed
        is kept there and nowhere a seat, the host or the lobby can read."""
        return {
            "seats": seats,
            "packs": [str(p) for p in self.packs],
            "expansions": self.expansions,
            "seed": self.table.setup.seed,
            "host_seat": self.host_seat,
            "chosen_seed": self.chosen_seed,
            "label": self.label,
            "client": self.client,
            "referee": self.referee,
            "chat": self.chat_on,
            "timer": self.timer,  # the host's move timer (the page's: docs/play.md), or None
            "pin": [self.table.setup.role, self.table.setup.role_seat],  # the host's alone, as the seed (pinning.py)
        }

    def is_host(self, token: str) -> bool:
        return bool(token) and matches(self.referee, token)

    def invitations(self) -> dict[str, list[int]]:
        """For the host alone (app.py asks the referee token): the reserved seats whose invitation is still unused
        and those whose invitation was used. The invitations themselves are not here: the server keeps only their
        digests (a copy of the database opens no seat), so only the host's browser, which was answered them, holds
        them."""
        invited = [link for _, link in sorted(self.seats.items()) if link.invite is not None]
        return {
            "unused": [link.seat for link in invited if not link.claimed],
            "used": [link.seat for link in invited if link.claimed],
        }

    def over(self) -> bool:
        return self.state.is_terminal()

    def bot_to_move(self) -> bool:
        return not self.over() and self.state.current_player() in self.table.agents

    def waiting_for(self) -> int | None:
        """The human seat to answer, or None (a bot's turn, or the game is over)."""
        if self.over() or self.bot_to_move():
            return None
        return int(self.state.current_player())

    # ------------------------------------------------------------------ what a seat is sent

    def seq(self, seat: int) -> int:
        """The seat's sequence number: the decisions it answered, plus one while it is asked one. It counts only
        what the seat knows (its own answers, and that it is asked now); an answer must carry the seq of the
        decision it answers, so a stale answer (a second click, an old window) is refused."""
        link = self.seats[seat]
        return link.answered + (1 if self.waiting_for() == seat else 0)

    def message(self, seat: int | None, since: int) -> tuple[dict[str, Any], int, str]:
        """The message for `seat` that has been sent `since` records of its history: its observation (the history
        from `since` on), the legal actions if it is to answer, its screen, its seq. Returns it, the new count
        and its fingerprint: what the seat may know now (two messages with one fingerprint tell the seat nothing
        new, so the second is not sent). `seat` None: a spectator, sent the public observation
        (``GameState.public_observation``: a seat with no hand), never an action, seq 0, no panel of its own."""
        state = self.state
        obs = state.observation(seat) if seat is not None else state.public_observation()
        history = obs["history"]
        since = min(since, len(history))
        mine = seat is not None and self.waiting_for() == seat
        actions = state.action_descriptors() if mine else ()
        view = seat_view(obs, actions, self.table.names, since)
        if seat is None:
            view["me"] = None  # (nobody's identity, task, role or hand to show)
        observation = {k: v for k, v in obs.items() if k != "history"}
        observation["history"] = history[since:]
        seq = self.seq(seat) if seat is not None else 0
        message = {
            "type": "state",
            "table": self.id,
            "seat": seat,
            "players": self.players,
            "seq": seq,
            "history_from": since,
            "observation": observation,
            "actions": actions,
            "view": view,
            "over": state.is_terminal(),
            "bots": {str(s): k for s, k in sorted(self.table.setup.bots.items())},
            "chosen_seed": self.chosen_seed,  # the host chose the seed: it can know every card
            "timer": self.timer,  # the host's move timer (seconds) or None
            # once the game is over, every card turned up, for the seats and the spectators alike (at a real table
            # the end's reveal is shown to everyone in the room): identities, tasks, roles, how and why it ended
            "summary": self.table.final_summary() if state.is_terminal() else None,
            "stopped": self.table.stopped.public if self.table.stopped is not None else None,  # (no hidden card)
        }
        fingerprint = json.dumps(
            [{k: v for k, v in obs.items() if k != "history"}, len(history), seq, [a["id"] for a in actions]],
            sort_keys=True,
            default=str,
        )
        return message, len(history), fingerprint

    # ------------------------------------------------------------------ moves

    def act(self, seat: int, seq: Any, action: Any) -> str | None:
        """A human seat's answer: None if applied, else why it was refused (nothing changed)."""
        state = self.state
        if state.is_terminal():
            return "游戏已经结束。"
        if state.current_player() != seat or seat in self.table.agents:
            return "现在不是你的决定。"
        if not isinstance(seq, int) or isinstance(seq, bool) or seq != self.seq(seat):
            return "这个选择已过期：局面已经变了，请看最新的局面再选。"
        if not isinstance(action, int) or isinstance(action, bool):
            return f"不是一个行动编号：{str(action)[:40]}"
        if action not in state.legal_actions():
            return f"行动 {action if -(10**20) < action < 10**20 else '…'} 不是现在合法的选择。"
        self._commit(action)  # (StoreError: not written, so not applied: the seat may send it again)
        self.seats[seat].answered += 1
        self._apply(action)
        return None

    def _commit(self, action: int) -> None:
        """The next action, written and committed before it is applied (StoreError if it cannot be: then the game
        is not moved, and memory and file still agree)."""
        if self.store is not None:
            self.store.action(self.id, self.played, action)
        self.played += 1

    def _apply(self, action: int) -> None:
        """The committed action applied; if it ended the game, its end written and the bots that hear it told."""
        self.table.apply(action)  # (the engine may stop the game: Table.stopped, the referee's words; `public` said)
        if not self.state.is_terminal():
            return
        self.finished_at = time.time()
        if self.store is not None:
            # (a failed write here is repaired when the table is restored: keeping.restored stamps it then)
            with contextlib.suppress(StoreError):
                self.store.finished(self.id, self.finished_at)
        self.table.finish()

    def bot_question(self) -> Callable[[], int]:
        """The decision put to the bot to answer, as a call that returns its answer (``Table.bot_question``): it
        reads nothing of the game, so the server makes it off its event loop while this table stands still. A
        bot's answer that could not be written is given again: the bot is not asked twice, so its generator stands
        where it would in a game never stopped (and where a restored table's does)."""
        if self.pending is not None:
            pending = self.pending
            return lambda: pending
        seat = self.state.current_player()
        return self.table.bot_question(seat, self.table.agents[seat])

    def bot_answered(self, action: int) -> None:
        """The bot's answer to the decision it was asked (nothing else moved this table meanwhile), committed and
        applied; StoreError if it cannot be written (then it is kept as `pending`, the game not moved)."""
        if action not in self.state.legal_actions():
            raise IllegalAction(f"the bot at P{self.state.current_player()} answered {action}, not a legal action")
        self.pending = action
        self._commit(action)
        self.pending = None
        self._apply(action)

    # ------------------------------------------------------------------ logs and the lobby

    def agents_text(self) -> str:
        return ",".join(self.table.setup.bots.get(s, HUMAN) for s in range(self.players))

    def referee_log(self) -> str:
        """The referee's log of the finished game (JSONL, as ``simulate --log`` writes one game). Once the game
        is over any seat may read it too (the end turns every card up; app.py's log route)."""
        if not self.over():
            raise TableError("the game is not over: its log is kept until it ends (it holds every hidden card)")
        return state_log_text(self.state, self.packs, self.agents_text(), failed=self.table.stopped)

    def seat_log(self, seat: int) -> str:
        """One seat's copy of the finished game's log (as ``fengsheng replay --as P<seat>`` writes it)."""
        logged = read_log_text(self.referee_log())[0]
        lines = [json.dumps({"type": "game", **seat_header(logged, seat)}, ensure_ascii=False)]
        lines += [
            json.dumps({"type": "decision" if "d" in r else "event", **r}, ensure_ascii=False, sort_keys=True)
            for r in seat_records(logged, seat)
        ]
        return "\n".join(lines) + "\n"

    def chat_text(self) -> str:
        """The table's chat as JSONL, one line a record ``{"type": "chat", n, seat, name, text}``: a file of its own,
        not records of the game's log (``fengsheng replay`` reads a log's records as the game's and refuses a file
        that does not start with a game's header). Everyone at the table was sent each line: nothing hidden."""
        return "".join(
            json.dumps({"type": "chat", "n": n, **line_data(line)}, ensure_ascii=False) + "\n"
            for n, line in enumerate(self.chat.lines)
        )

    def summary(self) -> dict[str, Any]:
        """What the lobby lists: no seed, no key, no count of actions (the turn is public)."""
        return {
            "id": self.id,
            "players": self.players,
            "label": self.label,
            "seats": [
                {
                    "seat": s,
                    "kind": self.table.setup.bots.get(s, HUMAN),
                    "open": s in self.seats and self.seats[s].joinable(),
                    "reserved": s in self.seats and self.seats[s].reserved,
                    "connected": bool(s in self.seats and self.seats[s].connected),
                }
                for s in range(self.players)
            ],
            "expansions": self.expansions,
            "chosen_seed": self.chosen_seed,
            "turn": self.state.observation(0)["turn"],  # public: every seat sees it (no count of actions)
            "over": self.over(),
        }


class Tables:
    """Every table of one server, by id (t1, t2 …, in the order they were made)."""

    def __init__(
        self,
        load: Callable[[list[Path]], Content],
        packs_for: Callable[[str | None], list[Path]],
        default_expansions: str | None = None,
        limits: Limits | None = None,
        store: Store | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.store = store  # None: the tables are kept in memory only
        self._load = load  # packs -> content (kept: each set of packs is loaded once)
        self._packs_for = packs_for  # --expansions text -> the packs to load
        self.default_expansions = default_expansions
        self.tables: dict[str, WebTable] = {}
        self.expiry = Expiry(store, self.tables)  # when a finished table is gone
        self.unrestored = self.expiry.unrestored  # kept in the database, not replayed at the start
        self._content: dict[tuple[str, ...], Content] = {}
        # one load at a time: the replay viewer loads a log's content in a worker thread while the event loop may
        # load another (a table of other expansions), and the loader is not thread-safe (cache.py's store)
        self._loading = threading.Lock()
        self._made = store.last_made() if store is not None else 0

    def content(self, packs: Sequence[Path]) -> Content:
        """The content of these packs, loaded once: a content loaded already is handed out at once; a load waits
        for any other under way (two threads asking for the same packs get one load and one content)."""
        key = tuple(str(p) for p in packs)
        got = self._content.get(key)
        if got is None:
            with self._loading:
                got = self._content.get(key)
                if got is None:
                    got = self._content[key] = self._load(list(packs))
        return got

    def player_counts(self) -> list[int]:
        """The player counts a table of the server's default expansions is played at (the lobby offers them; a
        table of other expansions is checked against its own when it is made)."""
        return self.content(self._packs_for(self.default_expansions)).rules.door_counts()

    def create(
        self,
        seats: Sequence[str],
        seed: int | None = None,
        expansions: str | None = None,
        host_seat: int | str | None = "first",
        client: str = "",
        chat: bool = True,
        timer: int | None = None,
        pin: Callable[[Content, int | None, int], dict[str, Any]] | None = None,
    ) -> WebTable:
        """A new table: one entry per seat, ``human`` (a reserved seat: the host's own, or one it hands out by an
        invitation), ``open`` (an open seat: the lobby's join hands its key out) or a bot kind (agents/kinds.py).

        `host_seat` is the ``human`` seat the host plays (its key goes to the host), None if the host does not
        play, ``"first"`` the first ``human`` seat if there is one. `seed` None draws a fresh one nobody knows;
        a seed given is the host's: the table says so to every seat. `client` is the address it is made from: the
        server holds at most Limits.tables tables (the oldest finished one is forgotten to make room) and at most
        Limits.tables_per_client unfinished ones made from one address. `pin`: a role dealt to a seat (pinning.py)."""
        players = len(seats)
        if not MIN_PLAYERS <= players <= MAX_SEATS:  # (a bound on the request; the content's counts: below)
            raise TableError(f"a table has {MIN_PLAYERS} to {MAX_SEATS} seats (got {players})")
        kinds = agent_kinds()
        for s, kind in enumerate(seats):
            if kind not in (HUMAN, OPEN) and kind not in kinds:
                raise TableError(f"P{s}: unknown seat kind {kind!r} ({HUMAN}, {OPEN}, {', '.join(kinds)})")
        if HUMAN not in seats and OPEN not in seats:
            raise TableError(f"a table needs at least one human seat ({HUMAN} or {OPEN})")
        self.expire()
        forget = self._room_for(client)
        if host_seat == "first":
            host_seat = next((s for s, k in enumerate(seats) if k == HUMAN), None)
        if host_seat is not None and (
            not isinstance(host_seat, int)
            or isinstance(host_seat, bool)
            or not 0 <= host_seat < players
            or seats[host_seat] != HUMAN
        ):
            raise TableError(
                f"the host's seat is one of the table's {HUMAN} seats, or null if the host does not play "
                f"(got {str(host_seat)[:20]!r})"
            )
        chosen = seed is not None
        if seed is None:
            seed = fresh_seed()
        if not is_seed(seed):
            raise TableError(f"the seed is {SEED_RANGE} (got {str(seed)[:30]!r})")
        if expansions is None:
            expansions = self.default_expansions
        try:
            packs = self._packs_for(expansions)
        except ValueError as e:
            raise TableError(str(e)) from None
        content = self.content(packs)
        problem = content.rules.cannot_seat_at_doors(players)
        if problem is not None:
            raise TableError(problem)
        humans = [s for s, k in enumerate(seats) if k in (HUMAN, OPEN)]
        bots = {s: k for s, k in enumerate(seats) if k not in (HUMAN, OPEN)}
        setup = Setup(players, seed, humans, bots, [], expansions, **(pin(content, host_seat, players) if pin else {}))
        try:
            table = Table(content, setup)
        except ValueError as e:
            raise TableError(f"cannot set up the game: {e}") from None
        self._made += 1  # (a table refused before here takes no id)
        tid = f"t{self._made}"
        links = {}
        invites: dict[int, str] = {}
        seat_key = secrets.token_urlsafe(16) if host_seat is not None else None
        for s in humans:
            reserved = seats[s] == HUMAN
            if reserved and s != host_seat:
                invites[s] = secrets.token_urlsafe(16)
            links[s] = SeatLink(
                s,
                key=digest(seat_key) if s == host_seat and seat_key is not None else None,
                reserved=reserved,
                invite=digest(invites[s]) if s in invites else None,
                claimed=s == host_seat,
            )
        referee = secrets.token_urlsafe(16)
        web = WebTable(
            tid,
            table,
            packs,
            expansions,
            links,
            digest(referee),
            host_seat=host_seat,
            chosen_seed=chosen,
            client=client,
            label=f"{players} 人桌，" + "、".join(f"P{s} {k}" for s, k in enumerate(seats)),
            store=self.store,
            handout=Handout(seat_key, invites, referee),
            chat_on=chat,
            timer=timer,
        )
        if self.store is not None:
            try:
                self.store.add_table(tid, self._made, web.settings(list(seats)), [x.kept() for x in links.values()])
            except StoreError as e:
                self._made -= 1
                raise TableError(f"the table cannot be kept: {e}", 503) from None
        for done in forget:  # (room made once the new table is kept: its logs go with it)
            del self.tables[done]
        if forget and self.store is not None:
            with contextlib.suppress(StoreError):  # (they come back at a restart, and are expired in time)
                self.store.forget(forget)
        self.tables[tid] = web
        return web

    # ------------------------------------------------------------------ the database

    def expire(self, now: float | None = None) -> None:
        """The finished tables older than the database keeps them, deleted (expiry.py)."""
        self.expiry.expire(now)

    def _room_for(self, client: str) -> list[str]:
        """The finished tables (oldest first) to forget for one more table from `client`, or a TableError (429: that
        address's share of unfinished tables is made; 503: the server is full of unfinished ones). Named only: create
        forgets them once the new table is kept (a request refused on the way costs no finished table its logs)."""
        per_client = self.limits.tables_per_client
        if per_client and sum(1 for t in self.tables.values() if t.client == client and not t.over()) >= per_client:
            raise TableError(
                f"{_tables(per_client)} made from this address already: finish one, or ask the server's "
                "owner (serve --max-tables-per-client)",
                429,
            )
        done = [tid for tid, t in self.tables.items() if t.over()][: max(0, len(self.tables) - self.limits.tables + 1)]
        if len(self.tables) - len(done) >= self.limits.tables:
            raise TableError(
                f"the server holds {_tables(self.limits.tables)}: try again later (serve --max-tables)", 503
            )
        return done

    def listed(self) -> list[WebTable]:
        """The tables the lobby lists (expiry.py: none past its time)."""
        return [self.tables[tid] for tid in self.expiry.listed()]

    def get(self, tid: str, now: float | None = None) -> WebTable:
        table = None if self.expiry.gone(tid, now) else self.tables.get(tid)  # (past its time: gone, expiry.py)
        if table is None and tid in self.unrestored.ids():  # (why is the server's output's to say: it may name a pin)
            raise TableError(not_restored(tid), GONE)
        if table is None:
            raise TableError(f"no table {tid[:20]!r} on this server", 404)
        return table


def _tables(n: int) -> str:
    """A count of unfinished tables in English: "1 unfinished table", "3 unfinished tables"."""
    return f"{n} unfinished table{'' if n == 1 else 's'}"
