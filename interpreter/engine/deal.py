"""Dealing the faces a seat cannot see again (the step API's resample; Zones.redeal): which faces, what each
card must fit of what everyone knows of it, and a uniform draw among the deals that fit (deal_fitting).

Kept apart from zones.py (where the cards are and who sees them): this is only the arithmetic of a fair deal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from .state import COLOR_BITS, PROCESSING, REMOVED, Card

if TYPE_CHECKING:
    import random


def selected(cards: list[Card], where_pairs: tuple[tuple[str, object], ...]) -> list[Card]:
    """The cards a zone's `start:` selects (ZoneDecl.start: a deck transform's `where:` as pairs): all of what
    is given must hold — its kind among `card`, the colour it has, its arrow, its lock."""
    where = dict(where_pairs)
    kinds = cast("tuple[str, ...]", where.get("card") or ())  # (the kind ids, a tuple: build_declared)
    mask = COLOR_BITS.get(str(where.get("color")), 0)
    return [
        c
        for c in cards
        if not (
            (kinds and c.type.id not in kinds)
            or (mask and not c.mask & mask)
            or ("direction" in where and c.direction != where["direction"])
            or ("lockable" in where and c.lockable != where["lockable"])
        )
    ]


def deal_faces(
    hidden: list[Card], pending: Card | None, r: random.Random, pending_arrow: str | None, pending_lock: bool
) -> None:
    """Deal again the faces of `hidden`, the cards a seat cannot see, in the order of their places: positions stay,
    faces move.

    The faces dealt are those of every card the seat (`seat` below) cannot see (all the faces it has not seen),
    jointly: a card whose face everyone knows something of gets a face that fits what is known — a card used face down
    one of the card types its printed type is known to be (``Card.known_types``: the type it was used as,
    or any type after an effect used it as another), the pending intel face down the arrow everyone saw it
    sent with (`pending_arrow`, None if it was not) and the lock symbol if it was locked through it
    (`pending_lock`); the other hidden cards (hands, the deck) any face. Every hidden attribute moves with
    the face: deck id, type, colours, arrow, lock symbol, per-copy data.

    What is drawn: a uniformly random assignment of those faces to those cards among all that fit (each
    consistent deal equally likely — what the seat's information gives when every deal it could not tell
    from the true one was equally likely; deal_fitting). The cards are taken in the order of their places
    (deck, hands by seat, pending, in use, removed) and the faces in the order of their deck ids, so what
    comes out depends on what `seat` has seen and on `r` only, never on where the hidden faces really lie:
    two games `seat` cannot tell apart give the same sample.
    """
    free: list[Card] = []
    pinned: list[Card] = []
    fits: list[_Fit] = []
    for c in hidden:
        types = c.known_types if c.used_as is not None else None
        if c is pending:
            fit = (types, pending_arrow, pending_lock)
        elif c.zone == PROCESSING or c.zone == REMOVED:
            fit = (types, None, False)
        else:
            fit = (None, None, False)
        if fit[0] is None and fit[1] is None and not fit[2]:
            free.append(c)
        else:
            pinned.append(c)
            fits.append(fit)
    faces = sorted([c.face() for c in hidden], key=_first)  # every face `seat` has not seen, by deck id
    picks = deal_fitting(faces, fits, r)
    while picks is None:
        # No deal fits: a state whose faces moved under a question asked before (a re-deal in place for another
        # seat than the one answering, whose card may then be used as what it no longer is). What cannot fit is
        # dealt freely, the last card first (a function of what `seat` knows all the same).
        free.append(pinned.pop())
        fits.pop()
        picks = deal_fitting(faces, fits, r)
    taken = set(picks)
    rest = [f for j, f in enumerate(faces) if j not in taken]
    r.shuffle(rest)
    for c, j in zip(pinned, picks, strict=True):
        c.set_face(faces[j])
    for c, face in zip(free, rest, strict=True):
        c.set_face(face)


def _first(face: tuple) -> Any:
    return face[0]  # Card.FACE starts with the deck id


# what everyone knows of a hidden card's face: the card types its printed type is one of (None: any), its arrow
# (None: not known), whether it has the lock symbol (True: it has; False: not known)
_Fit = tuple[frozenset[str] | None, str | None, bool]


def _fits(face: tuple, fit: _Fit) -> bool:
    types, arrow, lock = fit
    return (types is None or face[1].id in types) and (arrow is None or face[3] == arrow) and (not lock or face[4])


def _one_more(used: tuple[int, ...], g: int) -> tuple[int, ...]:
    counts = list(used)
    counts[g] += 1
    return tuple(counts)


def deal_fitting(faces: list[tuple], fits: list[_Fit], r: random.Random) -> list[int] | None:
    """For each card with a known fact (`fits`, in order) the index of its face in `faces`: all distinct, each a
    fitting face, the whole assignment drawn uniformly among all that fit (the cards dealt after them take the
    faces left in any order: each such assignment leaves them the same number of deals).

    Exact, and without the bias of a greedy deal (first card first from all that fit it, which favours the
    faces the later cards cannot take) or its dead ends: the faces are grouped by the set of cards they fit,
    the assignments are counted group by group (count: the number of ways to deal cards i.. given how many of
    each group are taken, memoized), and each card's group is drawn with weight (its faces left) x (the ways to
    deal the rest), then one of that group's faces left uniformly. The cards with known facts are few (a face-down
    intel, the cards used face down), and so are the groups. None if no assignment fits (nothing drawn)."""
    k = len(fits)
    if k == 0:
        return []
    groups: dict[int, list[int]] = {}  # the cards a face fits, as bits -> the faces (indices), in order
    for j, face in enumerate(faces):
        sig = 0
        for i, fit in enumerate(fits):
            if _fits(face, fit):
                sig |= 1 << i
        if sig:
            groups.setdefault(sig, []).append(j)
    sigs = sorted(groups)
    members = [groups[s] for s in sigs]
    sizes = [len(m) for m in members]
    fitting = [[g for g, s in enumerate(sigs) if s >> i & 1] for i in range(k)]
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(i: int, used: tuple[int, ...]) -> int:
        if i == k:
            return 1
        got = memo.get((i, used))
        if got is None:
            got = 0
            for g in fitting[i]:
                left = sizes[g] - used[g]
                if left > 0:
                    got += left * count(i + 1, _one_more(used, g))
            memo[(i, used)] = got
        return got

    used = (0,) * len(sigs)
    total = count(0, used)
    if total == 0:
        return None
    left_faces = [list(m) for m in members]
    picks: list[int] = []
    for i in range(k):
        x = r.randrange(count(i, used))
        for g in fitting[i]:
            left = sizes[g] - used[g]
            if left <= 0:
                continue
            after = _one_more(used, g)
            ways = count(i + 1, after)
            if x < left * ways:
                picks.append(left_faces[g].pop(x // ways))
                used = after
                break
            x -= left * ways
    return picks
