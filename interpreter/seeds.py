"""Seeds: where a game's chance comes from, and how the seeds of its parts are derived.

A game's seed fixes everything chance decides — identities, tasks, roles dealt, hands, every shuffle
and blind pick — so whoever knows it knows every hidden card. Two rules follow:

- A game people or an untrusted bot play (``serve``, ``play``, a batch with no ``--seed``, a sweep with no
  ``--seed`` that seats an external bot; fengsheng's own bots are trusted code and sweep from 0) gets a fresh seed of
  ``SEED_BITS`` bits from the operating system (``secrets``); the engine's generator takes it whole
  (``random.Random`` seeds from every bit of an int). A seed a user types (``--seed 7``) is kept as it is:
  reproducible batches and tests need it, and whoever typed it is the referee.
- A seed derived from another one (a game of a batch, a bot of a table) is a one-way hash of it
  (BLAKE2b, no secret key), never an affine function: knowing one derived seed — a finished game's referee
  log, a bot's own seed — leads back to its parent or its siblings only by trying parents, which a fresh
  seed's bits put out of reach; a small typed parent (``--seed 7``) can be found so (docs/bots-protocol.md).

This module imports nothing of the project: every layer may derive seeds the same way.
"""

from __future__ import annotations

import hashlib
import operator
import secrets

__all__ = ["MAX_SEED", "SEED_BITS", "SEED_RANGE", "agent_seed", "derive", "fresh_seed", "game_seed", "is_seed"]

SEED_BITS = 128
"""The bits of a fresh seed: 2**128 equally likely deals, beyond any search from what a seat sees."""


MAX_SEED = 2**256 - 1
"""The largest seed a command, a log, a save or a table accepts: room for any fresh or derived seed, and a
bound on what a file or a request can make the engine hash."""

SEED_RANGE = "a whole number from 0 to 2**256 - 1"


def is_seed(value: object) -> bool:
    """Whether `value` is a seed a game can be played with: an int (not a bool) in 0..MAX_SEED."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SEED


def as_whole(value: object) -> int | None:
    """`value` as an int if it is a whole number — an int or a number type that says it is whole (a numpy integer,
    through ``__index__``), never a bool, a float or a text that would convert to one — else None (int() would take
    1.5 or True for 1). A seed (as_seed), and the step API's seat and player count, are read so. A type whose
    ``__index__`` refuses its value (a numpy array of one id, as ``argmax(..., keepdims=True)`` gives: "only integer
    scalar arrays can be converted") is not one either: its door says what it takes, not numpy's TypeError."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def as_seed(value: object) -> int | None:
    """`value` as a seed if it is one: a whole number (as_whole) in 0..MAX_SEED; None otherwise (the engine's
    generator plays -1 as 1)."""
    whole = as_whole(value)
    return whole if whole is not None and is_seed(whole) else None


def fresh_seed() -> int:
    """A new seed nobody can guess: SEED_BITS bits from the operating system's generator."""
    return secrets.randbits(SEED_BITS)


def derive(seed: int, purpose: str, index: int) -> int:
    """The seed of part `index` of `purpose` (``"game"`` of a batch, ``"bot"`` of a table …) of a game or
    batch seeded with `seed`: SEED_BITS bits of a BLAKE2b hash of the three. Deterministic (seed + index
    replay it), and one-way (no derived seed leads back to `seed` or to another index's)."""
    text = f"fengsheng/{purpose}/{seed}/{index}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=SEED_BITS // 8).digest(), "big")


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a batch or sweep started with `seed` (``simulate``, ``balance``): a per-seat
    copy that names a game's place in its batch, or one game's seed made public after it ended, leads back
    neither to the batch seed nor to another game's."""
    return derive(seed, "game", index)


def agent_seed(gseed: int, seat: int) -> int:
    """The seed of the agent at `seat` of the game seeded with `gseed`: an agent that knows its own seed (a bot
    in another process is handed it) learns nothing of the game's."""
    return derive(gseed, "agent", seat)
