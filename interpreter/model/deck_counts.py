"""A content set whose decks hold a card kind at a given count: the card pin (``--card ID=N``, engine/pins.py).

A new card is about two copies in a deck of a hundred and more: a seat meets it in few games, and a sweep learns
little of what it does. Pinned at, say, six copies in every deck, its users get many more uses per game.

:func:`with_deck_counts` derives that content set from a loaded one: every deck the rules use
(``rules.decks``) holds exactly N copies of the kind. Fewer than it has: the copies with the highest deck ids
leave that deck. More: new copies, each cloned in turn from that deck's own copies of the kind (in deck id order)
or, when the deck has none, from the content's other copies; their deck ids count up from the highest id of the
content, deck by deck in the rules' order, so the same content and counts give the same deck (seed + pins replay
a game). N = 0 takes the kind out of those decks. A copy that left every deck leaves the card list too.
Nothing else of the content changes, and the content given is left as it was (a new ``deck`` list and ``decks``
dict, the same objects everywhere else). A kind the content does not have leaves it unchanged (a pack of a grid
without the card plays its decks as they are).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from .content import Content, DeckEntry

# The most copies of a kind a pin may ask for (``--card``, a sweep.json, a log's setup record): a deck of thousands of
# copies of one card is no game anyone plays, and a hand-edited count of a billion must not make a billion entries.
MAX_COPIES = 999


class DeckCountError(ValueError):
    """A count that cannot be met: copies to add of a kind the content has no copy of to clone."""


def with_deck_counts(content: Content, counts: Iterable[tuple[str, int]]) -> Content:
    """The content with every deck the rules use holding exactly `count` copies of each kind (see the module
    docstring); `content` itself when every deck already does. Raises DeckCountError when copies must be added of
    a kind with no copy in the content's card list."""
    by_uid = {e.uid: e for e in content.deck}
    decks = {name: list(uids) for name, uids in content.decks.items()}
    added: list[DeckEntry] = []
    left: set[int] = set()
    next_uid = max(by_uid, default=0) + 1
    used = list(dict.fromkeys(name for _, _, name in content.rules.decks if name in decks))
    for kind, count in counts:
        if not 0 <= count <= MAX_COPIES:
            raise DeckCountError(f"{count} copies of card {kind!r}: a pin keeps 0 to {MAX_COPIES} copies")
        if kind not in content.card_types:
            continue
        everywhere = sorted((e for e in content.deck if e.card_type == kind), key=_uid)
        for name in used:
            uids = decks[name]
            mine = sorted(u for u in uids if by_uid[u].card_type == kind)
            if len(mine) > count:
                gone = set(mine[count:])
                decks[name] = [u for u in uids if u not in gone]
                left |= gone
            elif len(mine) < count:
                models = [by_uid[u] for u in mine] or everywhere
                if not models:
                    raise DeckCountError(f"no copy of card {kind!r} in the deck to copy for {count} copies")
                for k in range(count - len(mine)):
                    m = models[k % len(models)]
                    e = DeckEntry(next_uid, kind, m.mask, m.direction, m.lockable, dict(m.data))
                    added.append(e)
                    by_uid[e.uid] = e
                    uids.append(e.uid)
                    next_uid += 1
    if not added and not left:
        return content
    still = {u for uids in decks.values() for u in uids}
    deck = [e for e in content.deck if e.uid not in left or e.uid in still] + added
    return dataclasses.replace(content, deck=deck, decks=decks)


def _uid(e: DeckEntry) -> int:
    return e.uid
