"""The content fingerprint: a hash of what a game is made of, as the engine reads it.

A log's header (``content``) and a balance sweep's ``sweep.json`` (each pack's ``fingerprint``) keep it, so that
``fengsheng replay`` can warn that a log was played on other content and a sweep refuses to resume on changed
content. What counts is what can change a game, nothing else:

* counted: the rules (``rules.yaml`` with what every pack.yaml merges or edits into it), every card, secret task
  and role the layering keeps (one definition per id, in the loader's order; a removed one is gone), the deck as
  built (each copy, every named deck, after the packs' deck changes and the lock rule) — every value in them, the
  texts the game shows (names, card and skill texts: they are in its logs) and effect code as written (a ``#``
  comment inside a condition or effect counts, being part of the code's text), and the order of every mapping
  and list below a file's top level: the engine reads some in their order (the identity table deals in it: a
  5-player table written in another order deals other games for the same seed). The expansions chosen count
  through what they add, replace and remove.
* not counted: YAML comments, layout (indentation, quoting, block or flow style, anchors), the order of a
  file's top-level keys (each is read by its name), the folders and file names things come from, pack.yaml's
  own words (id, name, version, description) and every file the loader does not read (scenarios, a pack's
  tests, its docs). A file name counts only through the order the loader reads card
  definitions in (by file name): a card file renamed past another puts its cards in another order, which changes
  the fingerprint (the cards' order is the order a card's name is offered in, when an effect asks for one). Secret
  tasks and roles are dealt in id order and are hashed in it: a task or role file renamed keeps the fingerprint, as
  it keeps the games.

So packs that differ only in what is not counted have one fingerprint, and a comment fixed or a scenario added
keeps it.
The fingerprint is computed from the parsed data the loader kept on the content (``Content.made_of``), on the
first call, and kept there: nothing of it costs a command that does not ask for it (bench/cli.py's start-up).

Fingerprints are ``game-`` and 16 hex digits. fengsheng before this one hashed the packs' files as bytes (16 hex
digits, no prefix): :func:`older_fingerprint` tells such a fingerprint, which can be compared with nothing now.
"""

from __future__ import annotations

from typing import Any

from ..model.content import Content, MadeOf

PREFIX = "game-"
_HEX = frozenset("0123456789abcdef")


def content_fingerprint(content: Content) -> str:
    """The fingerprint of a loaded content set (the module's docstring says what counts); computed once per
    content object. Content not made by the loader (built by hand) has none: ValueError."""
    made_of = content.made_of
    if not isinstance(made_of, MadeOf):
        raise ValueError("this content was not made by the loader (load_content): it has no fingerprint")
    if made_of.fingerprint:
        return made_of.fingerprint
    import hashlib

    # the cards in the loader's order, the secret tasks and roles in id order: the tasks are dealt and the role
    # pile built sorted by id (Game's deal, EngineIndex.roles_in_order), so a task or role file renamed past another
    # deals the same games. The tasks are sorted in the places they hold: content whose tasks the loader read in id
    # order already (the bundled game's, with or without its expansions) keeps the fingerprint it had
    kept = [d for d in made_of.definitions if d[0] != "roles"]
    places = [i for i, d in enumerate(kept) if d[0] == "secret_tasks"]
    for i, d in zip(places, sorted((kept[i] for i in places), key=lambda d: d[1]), strict=True):
        kept[i] = d
    kept += sorted((d for d in made_of.definitions if d[0] == "roles"), key=lambda d: d[1])
    parts = [
        ("rules", _top_level(made_of.rules)),
        [(folder, ident, _top_level(data)) for folder, ident, data in kept],
        [(e.uid, e.card_type, e.mask, e.direction, e.lockable, e.data) for e in made_of.deck],
        made_of.decks,
    ]
    # repr of plain data (dicts, lists, texts, numbers, booleans, None: what YAML is read as) is one text per
    # value, with the types told apart (5 and '5'), mappings in their order; fast, as it is done in C
    made_of.fingerprint = PREFIX + hashlib.sha256(repr(parts).encode()).hexdigest()[:16]
    return made_of.fingerprint


def _top_level(data: Any) -> Any:
    """A file's data with its top-level keys in a fixed order (each is read by its name); below it, as written."""
    if isinstance(data, dict):
        return sorted(data.items(), key=lambda kv: repr(kv[0]))
    return data


def older_fingerprint(value: object) -> bool:
    """Whether `value` is a fingerprint of an older fengsheng (a hash of the packs' files as bytes: 16 hex digits),
    which no content's fingerprint can equal now."""
    return isinstance(value, str) and len(value) == 16 and set(value) <= _HEX
