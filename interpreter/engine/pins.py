"""Pins: a role or a secret task dealt to a given seat, for a designer testing that one thing.

A new role is one of some sixty and is dealt in about one game in twelve: a sweep learns little about
it. A pin deals it to a seat in every game (``balance --role ID``, ``simulate --role ID``; the batch
rotates the seat, game ``i`` at seat ``i % players``, so every seat position is covered evenly). The
game's setup honours it (Game.setup, Skills.deal_roles): everything else is dealt as usual, and all the
chance is still drawn from the game's seeded generator in the same order — seed + pins replay the
game. The pins are written into the game's ``setup`` record, so a log replays with them.

* **role**: the pinned seat is dealt that role and keeps it, its one option; the others are dealt from the rest
  of the shuffled role pile as usual. The pinned role waits at the bottom of the pile for the pinned seat's turn of
  the deal, which also puts the role under it out of the game unseen where each seat is dealt two, and asks the seat
  to keep the pinned role (Skills.deal_roles): the deal stops at every seat with the same count of roles left as
  without a pin, so nothing the other seats see tells them which seat a face-down role was pinned to.
* **task**: the pinned seat gets an identity that draws a secret task (if its own does not, it swaps
  identities with the next seat round the table whose identity does) and that task; the other tasks are
  drawn as usual. A player count whose identity table has no task-drawing identity cannot pin a task.
* **cards** (``--card ID=N``): every deck the rules use holds exactly N copies of that card kind
  (model/deck_counts.py: fewer, the highest deck ids leave; more, copies cloned from its own). The game is
  made with that content (:func:`pinned_content`, kept per content and counts, so a batch derives it once), so
  everything that reads the game's content (its index, its observations, the actions) sees one deck. A content
  without the kind plays its decks unchanged. No seat is involved: the rotation means nothing to a card pin.
  A card pin alone still makes a pinned game, dealt in the keyed order below: two packs compared with the same
  card pin then share their deals too.

**Paired deals.** A pinned game deals in a keyed order (:class:`PairedDeal`) instead of shuffling: one
64-bit key is drawn from the game's generator, and identities, secret tasks, the deck and the role pile
are each ordered by a keyed hash of the key and each item's id, the first player drawn from the key. So
two packs played from the same seed with the same pins deal every item they share in the same relative
order: the same identities, the same first player, the other seats' roles and the deck's common cards
the same as far as the packs' differences allow (a card or role only one pack has sits where its hash
puts it and shifts only what is dealt after it). A paired sweep (``balance compare``) then sees the
luck of the deal cancel between the packs. A sweep of several packs (``balance --pack A --pack B``, ``balance
compare``) deals every game so even with nothing pinned (``keyed``: ``simulate --keyed-deal`` reruns one of its
games alone): the same seats get the same roles wherever both packs have them, not only the same identities.

Data, not code: a pin names any role, task or card kind of the content by id; nothing here knows one.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..model.content import Content
from ..model.deck_counts import MAX_COPIES, with_deck_counts
from ..suggest import did_you_mean

T = TypeVar("T")


@dataclass(frozen=True)
class Pins:
    """What to deal to `seat`: a role id, a secret task id (None: dealt as usual); and the card kinds every deck
    holds at a given count, as (card id, copies) sorted by id (empty: the decks as the content has them)."""

    role: str | None = None
    task: str | None = None
    seat: int = 0
    cards: tuple[tuple[str, int], ...] = ()
    # dealt in the keyed order (PairedDeal): any pin is, and a game of a sweep of several packs with nothing pinned
    keyed: bool = False

    def __post_init__(self) -> None:
        if self.pinned and not self.keyed:  # (so two pins that deal alike are equal)
            object.__setattr__(self, "keyed", True)

    def __bool__(self) -> bool:
        """Whether the game is dealt by these pins (in the keyed order): anything pinned, or `keyed` alone."""
        return self.keyed

    @property
    def pinned(self) -> bool:
        """Whether something is pinned (a role, a task, a card count): what a report says every game pins."""
        return self.role is not None or self.task is not None or bool(self.cards)

    @property
    def dealt(self) -> bool:
        """Whether a seat is dealt something (a role or a task): a card pin alone involves no seat."""
        return self.role is not None or self.task is not None

    def to_dict(self) -> dict[str, Any]:
        """As a log's setup record and a sweep's grid keep it: the seat only when one is dealt something (a
        card-only pin's rotating seat would mean nothing there)."""
        out: dict[str, Any] = {"seat": self.seat} if self.dealt else {}
        if self.keyed and not self.pinned:  # (any pin deals in the keyed order: said only when it is alone)
            out["keyed"] = True
        if self.role is not None:
            out["role"] = self.role
        if self.task is not None:
            out["task"] = self.task
        if self.cards:
            out["cards"] = dict(self.cards)
        return out

    @classmethod
    def from_dict(cls, d: Any) -> Pins | None:
        """The pins a log's setup record or a sweep's grid holds (None when it holds none)."""
        if not isinstance(d, dict):
            return None
        cards = card_counts(d.get("cards"))
        # (a role or task is an id, a text: anything else, a hand-edited log's, is no pin)
        role, task = (v if isinstance(v, str) and v else None for v in (d.get("role"), d.get("task")))
        keyed = d.get("keyed") is True
        if not (role or task or cards or keyed):
            return None
        seat = d.get("seat", 0) if role or task else 0
        return cls(role=role, task=task, seat=seat if type(seat) is int else 0, cards=cards, keyed=keyed)

    def at(self, seat: int) -> Pins:
        """The same pins at another seat (a card-only pin stays at seat 0: it deals no seat anything)."""
        return Pins(self.role, self.task, seat if self.dealt else 0, self.cards, self.keyed)

    def label(self) -> str:
        """The pins in words: "role lao_zhang, task xxx, card mi_dian=6"."""
        words = [f"{k} {v}" for k, v in (("role", self.role), ("task", self.task)) if v is not None]
        return ", ".join([*words, *(f"card {card}={n}" for card, n in self.cards)])


def card_counts(d: Any) -> tuple[tuple[str, int], ...]:
    """The card pins of plain data ({card id: copies}) as Pins keeps them: sorted by id, each a text id and a whole
    number from 0 to MAX_COPIES (anything else is left out; sweep.json's reader refuses it first, records.py)."""
    if not isinstance(d, dict):
        return ()
    return tuple(
        sorted((k, v) for k, v in d.items() if isinstance(k, str) and k and type(v) is int and 0 <= v <= MAX_COPIES)
    )


# The content of each card pin met, kept so that a batch derives it once (and its games share one ContentIndex):
# (id(the content given), its card pins) -> (the content given, the content derived), the latest DERIVED_KEPT.
_DERIVED: dict[tuple[int, tuple[tuple[str, int], ...]], tuple[Content, Content]] = {}
_DERIVED_LOCK = threading.Lock()
DERIVED_KEPT = 8


def pinned_content(content: Content, pins: Pins | None) -> Content:
    """The content a game with these pins is played with: `content` whose decks hold each pinned card kind at its
    count (model/deck_counts.py), or `content` itself when nothing of the deck is pinned."""
    if pins is None or not pins.cards:
        return content
    key = (id(content), pins.cards)
    with _DERIVED_LOCK:
        kept = _DERIVED.get(key)
        if kept is not None and kept[0] is content:
            return kept[1]
    derived = with_deck_counts(content, pins.cards)
    with _DERIVED_LOCK:
        if len(_DERIVED) >= DERIVED_KEPT:
            del _DERIVED[next(iter(_DERIVED))]
        _DERIVED[key] = (content, derived)
    return derived


def _id_hint(value: str, items: dict[str, Any], roles: bool = False) -> str | None:
    """The hint for an id `items` (roles, tasks or card kinds by id) lacks: the ids of the items so named when
    `value` is a name (画眉, 密电; for `roles` also a label, 画眉（歌女）: what a designer reads on the card, where the
    pins take ids), else the id closest in spelling."""
    named: list[str] = []
    for x in items.values():
        shown = str(x.label()) if roles else str(x.name)
        if value == x.name or value == shown:
            named.append(f"{x.id} ({shown})")
    if named:
        return "a name, not an id: did you mean " + " or ".join(named) + "?"
    return did_you_mean(value, items)


def pin_problems(
    content: Any,
    role: str | None,
    task: str | None,
    players: list[int] | tuple[int, ...],
    where: str = "in the content",
) -> list[str]:
    """What is wrong with pinning `role` and `task` in games of these player counts of `content`: an id the
    content lacks (with a hint: the id of a role or task so named, or a did-you-mean), a task at a player count
    none of whose identities draws one. `where`: what lacks the id, as the message says it (a grid of several
    packs: none of them)."""
    problems = []
    if role is not None and role not in content.roles:
        hint = _id_hint(role, content.roles, roles=True)
        problems.append(f"no role {role!r} {where}" + (f": {hint}" if hint else ""))
    if task is not None:
        if task not in content.tasks:
            hint = _id_hint(task, content.tasks) or f"the tasks are {', '.join(sorted(content.tasks))}"
            problems.append(f"no secret task {task!r} {where}: {hint}")
        for n in players:
            table = content.rules.identity_table.get(n) or {}
            if not any(content.identities[i].takes_task for i in table):
                problems.append(f"no identity draws a secret task at {n} players: a task cannot be pinned there")
    return problems


def card_pin_problems(content: Any, cards: Sequence[tuple[str, int]], where: str = "in the content") -> list[str]:
    """What is wrong with pinning these card counts in `content`: a card kind it lacks (with a hint: the id of the
    card so named, or a did-you-mean; `where` as pin_problems says it), copies to add of a kind with no copy in
    the content's deck to copy."""
    problems = []
    for card, n in cards:
        if card not in content.card_types:
            hint = _id_hint(card, content.card_types)
            problems.append(f"no card {card!r} {where}" + (f": {hint}" if hint else ""))
        elif n > 0 and not any(e.card_type == card for e in content.deck):
            problems.append(f"card {card!r} has no copy in the deck to make {n} copies of")
    return problems


def pin_seat(idents: list[Any], seat: int) -> None:
    """Make the identity at `seat` one that draws a secret task: swap with the next seat round the table whose
    identity does (in place). Raises ValueError when none does."""
    n = len(idents)
    for step in range(n):
        j = (seat + step) % n
        if idents[j].takes_task:
            idents[seat], idents[j] = idents[j], idents[seat]
            return
    raise ValueError(f"no identity at {n} players draws a secret task: a task cannot be pinned")


class PairedDeal:
    """The order of a pinned game's deal: every item placed by a keyed hash of (the game's deal key, the stage,
    the item's name), so items two packs share come in the same relative order whatever else each pack has."""

    def __init__(self, key: int) -> None:
        self.key = key.to_bytes(8, "big")

    def _rank(self, stage: str, name: str) -> bytes:
        return hashlib.blake2b(f"{stage}:{name}".encode(), key=self.key, digest_size=8).digest()

    def order(self, stage: str, items: Sequence[T], name: Callable[[T], object]) -> list[T]:
        """`items` in the deal's order for `stage` (a list popped from its end deals the last first). Copies of
        one name (the identity cards) are told apart by their rank among that name's copies."""
        seen: dict[str, int] = {}
        ranked = []
        for x in items:
            key = str(name(x))
            k = seen[key] = seen.get(key, -1) + 1
            ranked.append((self._rank(stage, f"{key}#{k}"), x))
        ranked.sort(key=lambda pair: pair[0])
        return [x for _, x in ranked]

    def below(self, stage: str, n: int) -> int:
        """A number from 0 to n - 1 for `stage` (the first player)."""
        return int.from_bytes(self._rank(stage, ""), "big") % n
