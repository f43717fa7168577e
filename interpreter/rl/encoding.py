"""A fixed-length numeric encoding of one seat's observation (shared by both RL adapters).

:class:`Encoder` turns the plain observation dict of
:meth:`interpreter.engine.step.GameState.observation` into a flat ``float32``
vector whose length depends only on the content and the number of players.
It is a simple, lossy baseline for learning agents, not a second rules
engine: it reads nothing but the observation, so it can never show a seat
more than the seat may know.

The vector is the concatenation of named pieces, in this order (``n`` is the
number of players; "by deck id" means one slot per card of the content's deck,
in increasing deck id; identities, tasks, roles and card types are sorted by
their content id):

=================  ==========  =====================================================
piece              size        meaning
=================  ==========  =====================================================
``me``             n           one-hot: the observing seat
``current``        n           one-hot: whose turn it is (all 0 during setup)
``to_act``         1           1 if the observing seat must answer a decision now
``decision``       13          one-hot: the kind of that decision (12 kinds + other)
``phase``          8           one-hot: setup, draw, play, send, contest, receive,
                               turn_end, other
``turn``           1           the turn number
``alive``          n           per seat: 1 if alive
``out``            n           per seat: 1 if out of the game (出局)
``dying``          n           per seat: 1 if dying (濒死); ``dying_seat`` marks who
``dying_seat``     n           one-hot: the seat whose dying is being resolved
``hand_count``     n           per seat: cards in hand
``intel_count``    n x 3       per seat: red, blue, black intel in front of it
``intel``          n x D       per seat, by deck id: its face-up intel cards
``role_face_up``   n           per seat: 1 if its role is face up
``roles``          n x R       per seat: its role, if the observer may see it
``identity``       I           one-hot: the observer's identity
``task``           T           one-hot: the observer's secret task (神秘人)
``known_ident``    n x I       per seat: identities the observer has seen (own too)
``dealt_roles``    R           the roles the observer was dealt to choose from
``hand``           D           by deck id: the observer's hand
``known_cards``    D           by deck id: other cards the observer can follow
                               (in another hand, the deck, face down …)
``discard``        D           by deck id: the discard pile
``removed``        D           by deck id: cards removed from the game
``in_use``         C           per card type: cards being used now (by what they are used as)
``tr_active``      1           1 while an intel is travelling
``tr_sender``      n           one-hot: its sender
``tr_target``      n           one-hot: its target (↑ intel)
``tr_lock``        n           one-hot: the seat it is locked on
``tr_holder``      n           one-hot: where it is now
``tr_direction``   3           one-hot: left, right, up
``tr_flags``       2           the intel is pending; it is face up
``tr_card``        D           by deck id: the intel card, if the observer may see it
``deck_count``     1           cards left in the deck
``role_pile``      1           roles left in the role pile
``removed_ident``  1           identity cards removed at setup
``winners``        n           at the end: 1 for each winner
``z:<name>``       n x D / D   a zone the rules declare (`zones:`; only when there
                               are any), per seat for a player's zone: by deck id,
                               its cards whose face the observer may see
``zn:<name>``      n / 1       how many cards that zone holds (seen or not)
=================  ==========  =====================================================

(``D`` = deck size, ``R`` = roles, ``I`` = identities, ``T`` = secret tasks,
``C`` = card types.) Counts are raw numbers clipped to the bounds in
:attr:`Encoder.high`, so the vector always lies inside
``Box(0, Encoder.high)``. Left out: the public history (event log), statuses,
per-copy card data, the text of the decision's prompt, counters and lasting
marks, and the order of a declared zone's cards — use the raw observation for
those.

:class:`InfoStateEncoder` is the information-state vector: this vector followed
by a fixed-size record of the seat's own past decisions, read from the decision
records of the observation's history (see its docstring). Like this one it reads
nothing but the observation.
"""

from __future__ import annotations

import re

from . import need_extra

try:
    import numpy as np
except ImportError as e:  # the extra is not installed
    raise need_extra(__name__, e) from None

DECISION_KINDS = (
    "play",
    "send",
    "send_target",
    "lock",
    "receive",
    "target",
    "choose",
    "confirm",
    "option",
    "death_give_target",
    "death_give_card",
    "role",
    "skill_order",
)
PHASES = ("setup", "draw", "play", "send", "contest", "receive", "turn_end")
COLORS = ("red", "blue", "black")
DIRECTIONS = ("left", "right", "up")


def lay_out(pieces, inner_high=None) -> tuple[dict, int, np.ndarray]:
    """Where each piece (name, shape, upper bound) lies in one flat vector: {name: (start, end, shape)}, the
    vector's size, and each entry's upper bound (a piece whose bound is None takes `inner_high`, the bounds of
    a vector nested whole in it)."""
    offsets: dict = {}
    at = 0
    for name, shape, _ in pieces:
        size = int(np.prod(shape))
        offsets[name] = (at, at + size, shape)
        at += size
    high = np.zeros(at, np.float32)
    for name, _, hi in pieces:
        a, b, _ = offsets[name]
        high[a:b] = inner_high if hi is None else hi
    return offsets, at, high


class Encoder:
    """The observation encoding for one content set and player count (see the module docstring)."""

    def __init__(self, content, n_players: int, max_turns: int | None = None):
        self.n = n = n_players
        self.card_ids = sorted({e.uid for e in content.deck})
        self.card_index = {uid: i for i, uid in enumerate(self.card_ids)}
        self.identity_ids = sorted(content.identities)
        self.task_ids = sorted(content.tasks)
        self.role_ids = sorted(content.roles)
        self.type_ids = sorted(content.card_types)
        # the sizes, named as in the module docstring's table
        D, R, T, C = len(self.card_ids), len(self.role_ids), len(self.task_ids), len(self.type_ids)
        I = len(self.identity_ids)  # noqa: E741
        turns = max_turns or content.rules.max_turns
        # (name, shape, upper bound)
        self.pieces: tuple = (
            ("me", (n,), 1),
            ("current", (n,), 1),
            ("to_act", (1,), 1),
            ("decision", (len(DECISION_KINDS) + 1,), 1),
            ("phase", (len(PHASES) + 1,), 1),
            ("turn", (1,), turns),
            ("alive", (n,), 1),
            ("out", (n,), 1),
            ("dying", (n,), 1),
            ("dying_seat", (n,), 1),
            ("hand_count", (n,), D),
            ("intel_count", (n, 3), D),
            ("intel", (n, D), 1),
            ("role_face_up", (n,), 1),
            ("roles", (n, R), 1),
            ("identity", (I,), 1),
            ("task", (T,), 1),
            ("known_ident", (n, I), 1),
            ("dealt_roles", (R,), 1),
            ("hand", (D,), 1),
            ("known_cards", (D,), 1),
            ("discard", (D,), 1),
            ("removed", (D,), 1),
            ("in_use", (C,), D),
            ("tr_active", (1,), 1),
            ("tr_sender", (n,), 1),
            ("tr_target", (n,), 1),
            ("tr_lock", (n,), 1),
            ("tr_holder", (n,), 1),
            ("tr_direction", (3,), 1),
            ("tr_flags", (2,), 1),
            ("tr_card", (D,), 1),
            ("deck_count", (1,), D),
            ("role_pile", (1,), R),
            ("removed_ident", (1,), max(n, 16)),
            ("winners", (n,), 1),
        )
        # the zones the rules declare (none in the base game: its vector is unchanged), after the fixed pieces
        self.zones: tuple[tuple[str, bool], ...] = tuple(
            (z.name, z.per == "player") for z in content.declared.zones.values()
        )
        for name, per_player in self.zones:
            self.pieces += (
                (f"z:{name}", (n, D) if per_player else (D,), 1),
                (f"zn:{name}", (n,) if per_player else (1,), D),
            )
        self.offsets, self.size, self.high = lay_out(self.pieces)
        self._role_index = {r: i for i, r in enumerate(self.role_ids)}
        self._ident_index = {r: i for i, r in enumerate(self.identity_ids)}
        self._task_index = {r: i for i, r in enumerate(self.task_ids)}
        self._type_index = {r: i for i, r in enumerate(self.type_ids)}
        self._kind_index = {k: i for i, k in enumerate(DECISION_KINDS)}
        self._phase_index = {k: i for i, k in enumerate(PHASES)}

    def views(self, buffer: np.ndarray) -> dict:
        """Named, reshaped views into a flat buffer of :attr:`size` floats (written through)."""
        return {name: buffer[a:b].reshape(shape) for name, (a, b, shape) in self.offsets.items()}

    def encode(self, obs, out: np.ndarray | None = None) -> np.ndarray:
        """Encode one observation dict into `out` (a new float32 vector if None) and return it."""
        n = self.n
        if len(obs["players"]) != n:  # (else a numpy IndexError deep in the rows, or a vector silently short)
            raise ValueError(
                f"this encoder is for {n} players; the observation is of a table of {len(obs['players'])} "
                f"(Encoder(content, {len(obs['players'])}) encodes it)"
            )
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0)
        v = self.views(out)
        cards = self.card_index

        def seat(name, s):
            if s is not None and 0 <= s < n:
                v[name][s] = 1

        seat("me", obs["seat"])
        seat("current", obs["current"])
        decision = obs["decision"]
        if decision is not None:
            v["to_act"][0] = 1
            v["decision"][self._kind_index.get(decision["kind"], len(DECISION_KINDS))] = 1
        v["phase"][self._phase_index.get(obs["phase"], len(PHASES))] = 1
        v["turn"][0] = obs["turn"]
        seat("dying_seat", obs["dying"])
        for p in obs["players"]:
            s = p["seat"]
            v["alive"][s] = p["alive"]
            v["out"][s] = p["out"]
            v["dying"][s] = p["dying"]
            v["hand_count"][s] = p["hand_count"]
            ic = p["intel_counts"]
            v["intel_count"][s] = (ic["red"], ic["blue"], ic["black"])
            for c in p["intel"]:
                v["intel"][s, cards[c["id"]]] = 1
            v["role_face_up"][s] = p["role_face_up"]
            if p["role"] is not None:
                v["roles"][s, self._role_index[p["role"]]] = 1
        me = obs["me"]
        if me["identity"] is not None:
            v["identity"][self._ident_index[me["identity"]]] = 1
            v["known_ident"][obs["seat"], self._ident_index[me["identity"]]] = 1
        if me["task"] is not None:
            v["task"][self._task_index[me["task"]]] = 1
        for s, ident in obs["known_identities"].items():
            v["known_ident"][int(s), self._ident_index[ident]] = 1
        for r in me["dealt_roles"]:
            v["dealt_roles"][self._role_index[r]] = 1
        for name, group in (("hand", me["hand"]), ("discard", obs["discard"]), ("removed", obs["removed"])):
            for c in group:
                v[name][cards[c["id"]]] = 1
        for k in obs["known_cards"]:
            v["known_cards"][cards[k["card"]["id"]]] = 1
        for c in obs["in_use"]:
            v["in_use"][self._type_index[c["used_as"]]] += 1
        t = obs["transit"]
        if t is not None:
            v["tr_active"][0] = 1
            seat("tr_sender", t["sender"])
            seat("tr_target", t["target"])
            seat("tr_lock", t["lock"])
            seat("tr_holder", t["holder"])
            if t["direction"] in DIRECTIONS:
                v["tr_direction"][DIRECTIONS.index(t["direction"])] = 1
            v["tr_flags"][:] = (t["pending"], t["face_up"])
            if t["card"] is not None:
                v["tr_card"][cards[t["card"]["id"]]] = 1
        v["deck_count"][0] = obs["deck_count"]
        v["role_pile"][0] = obs["role_pile_count"]
        v["removed_ident"][0] = obs["removed_identities"]
        result = obs["result"]
        if result is not None:
            for s in result["winners"]:
                seat("winners", s)
        if self.zones:
            self._encode_zones(obs, v)
        np.minimum(out, self.high, out=out)
        return out

    def _encode_zones(self, obs, v) -> None:
        """The declared zones as the observation shows them: the faces it shows, and how many cards each holds."""
        cards = self.card_index
        rows = [(p["seat"], p.get("zones") or {}) for p in obs["players"]]
        shared = obs.get("zones") or {}
        for name, per_player in self.zones:
            faces, counts = v[f"z:{name}"], v[f"zn:{name}"]
            for s, zones in rows if per_player else [(None, shared)]:
                held = zones.get(name) or ()
                if s is None:
                    counts[0] = len(held)
                else:
                    counts[s] = len(held)
                for c in held:
                    if c is not None:
                        if s is None:
                            faces[cards[c["id"]]] = 1
                        else:
                            faces[s, cards[c["id"]]] = 1


_LABEL_CARD = re.compile(r"#(\d+)\(")
_LABEL_SEAT = re.compile(r"P(\d+)")


class InfoStateEncoder:
    """The information-state vector of one seat: the observation vector and the seat's own decisions.

    Pieces, in order (``E`` = :attr:`Encoder.size`, ``K`` = 13 decision kinds + other, ``D`` = deck
    cards, ``n`` = players, ``L`` = :attr:`LAST`):

    ==============  ===========  ==================================================================
    ``observation`` E            :class:`Encoder`'s vector of the observation now
    ``own_kinds``   K            how many decisions of each kind the seat has answered
    ``own_cards``   D            by deck id: how many of its answers named that card
    ``own_seats``   n            per seat: how many of its answers named that seat
    ``own_last``    L x (K+D+n)  its last L answers, most recent first: kind, card and seat named
    ==============  ===========  ==================================================================

    The decisions are the observation's decision records (``{"d": kind, "label", …}``, one per
    answered decision, readable by the deciding seat only: docs/observation.md section 4), so the
    vector is a function of the observation alone and can hold nothing the seat may not know: in a
    re-dealt copy every seat's records name the copy's cards. The counts and the window are a
    summary, as a fixed size must be; the exact history (perfect recall) is the observation's
    ``history``, whole in :meth:`interpreter.rl.openspiel_game.FengshengState.information_state_string`.
    """

    LAST = 8

    def __init__(self, content, n_players: int, max_turns: int | None = None):
        self.observation = obs = Encoder(content, n_players, max_turns)
        self.n = n = n_players
        kinds = len(DECISION_KINDS) + 1
        D = len(obs.card_ids)
        row = kinds + D + n
        most = max_turns or content.rules.max_turns
        self.pieces: tuple = (
            ("observation", (obs.size,), None),
            ("own_kinds", (kinds,), most * 100),
            ("own_cards", (D,), most * 100),
            ("own_seats", (n,), most * 100),
            ("own_last", (self.LAST, row), 1),
        )
        self.offsets, self.size, self.high = lay_out(self.pieces, obs.high)
        self._kinds = kinds
        self._cards = D

    def views(self, buffer: np.ndarray) -> dict:
        """Named, reshaped views into a flat buffer of :attr:`size` floats (written through)."""
        return {name: buffer[a:b].reshape(shape) for name, (a, b, shape) in self.offsets.items()}

    def encode(self, obs, out: np.ndarray | None = None) -> np.ndarray:
        """Encode one observation dict into `out` (a new float32 vector if None) and return it."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        v = self.views(out)
        self.observation.encode(obs, out=v["observation"])
        for name in ("own_kinds", "own_cards", "own_seats", "own_last"):
            v[name].fill(0)
        kind_index = self.observation._kind_index
        card_index = self.observation.card_index
        answers = [rec for rec in obs["history"] if "d" in rec]
        for i, rec in enumerate(reversed(answers)):
            kind = kind_index.get(rec["d"], len(DECISION_KINDS))
            label = rec.get("label") or ""
            cards = [card_index[u] for u in map(int, _LABEL_CARD.findall(label)) if u in card_index]
            seat = _LABEL_SEAT.fullmatch(label)
            v["own_kinds"][kind] += 1
            for c in cards:
                v["own_cards"][c] += 1
            if seat is not None and int(seat.group(1)) < self.n:
                v["own_seats"][int(seat.group(1))] += 1
            if i < self.LAST:
                row = v["own_last"][i]
                row[kind] = 1
                for c in cards:
                    row[self._kinds + c] = 1
                if seat is not None and int(seat.group(1)) < self.n:
                    row[self._kinds + self._cards + int(seat.group(1))] = 1
        np.minimum(out, self.high, out=out)
        return out


def table_summary(state) -> str:
    """A short summary of a GameState's table, for rendering and debugging: what every seat can see, and which seat
    is being asked what — which is not public (a decision is its seat's alone: docs/rl.md, "What each door
    carries"), so this is the referee's view, not one to hand a seat."""
    obs = state.observation(0)
    to_act = "-" if state.is_terminal() else f"P{state.current_player()} ({state.decision_kind})"
    lines = [
        f"turn {obs['turn']} phase {obs['phase']} current P{obs['current']} deck {obs['deck_count']} to act {to_act}"
    ]
    for p in obs["players"]:
        c = p["intel_counts"]
        flags = "".join(f for f, on in (("dead ", not p["alive"]), ("out ", p["out"]), ("dying ", p["dying"])) if on)
        role = p["role"] if p["role_face_up"] and p["role"] is not None else "?"
        lines.append(
            f"  P{p['seat']} {flags}role {role} hand {p['hand_count']} "
            f"intel red {c['red']} blue {c['blue']} black {c['black']}"
        )
    if state.result is not None:
        lines.append(f"  over: {state.result.reason}, winners {[p.seat for p in state.result.winners]}")
    return "\n".join(lines)


__all__ = ["Encoder", "InfoStateEncoder", "table_summary", "DECISION_KINDS", "PHASES"]
