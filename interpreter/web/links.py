"""A table's human seats' secrets as the server keeps them: each seat's key and invitation, and the referee token,
kept as digests only (a copy of the database opens no seat), and the secrets handed to a table's host once.

tables.py makes and checks them; store.py writes what :meth:`SeatLink.kept` gives.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from .store import KeptSeat

# a key a page proposes for the seat of its invitation or the open seat it joins (WebTable.redeem, claim_open): URL-safe
# base64 of at least 16 random bytes, as the server's own keys (secrets.token_urlsafe(16)); anything else is not
# taken, and the server makes the key
PROPOSED_KEY = re.compile(r"[A-Za-z0-9_-]{22,64}")


@dataclass
class SeatLink:
    """A human seat's secrets, as digests: its key (whoever holds it sits there) and, for a reserved seat the host
    hands out, an invitation that is exchanged once for the key. The key is made when it is handed out (to the
    host for its own seat, for an invitation when it is used, by the lobby's join for an open seat) and only its
    digest is kept. A reserved seat is never handed out by the lobby's join; the host's own seat has no
    invitation. An open seat's key goes to nobody until the lobby's join hands it out, once, to the first who
    asks."""

    seat: int
    key: str | None = None  # the digest of the seat's key, once it was handed out
    reserved: bool = True
    invite: str | None = None  # the digest of a reserved seat's invitation
    claimed: bool = False  # its key handed out (the lobby's join, an invitation used, the host's own seat)
    name: str | None = None  # the name its person took
    connected: int = 0  # open websockets of this seat
    answered: int = 0  # decisions this seat answered (its own count: WebTable.seq)

    def kept(self) -> KeptSeat:
        """What the database keeps of the seat."""
        return KeptSeat(self.seat, self.reserved, self.key, self.invite, self.claimed, self.name)

    def joinable(self) -> bool:
        """The lobby's join may hand out this seat's key: an open seat nobody took yet."""
        return not self.reserved and not self.claimed and not self.connected


def digest(token: str) -> str:
    """What is kept of a key, an invitation or a referee token: enough to recognise it, nothing to open with."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def well_formed(proposed: str | None) -> str | None:
    """A key a page proposed, if it is one the server would make (PROPOSED_KEY); None: the server makes the key."""
    return proposed if proposed is not None and PROPOSED_KEY.fullmatch(proposed) else None


def matches(kept: str | None, token: str) -> bool:
    """Whether `token` is the one whose digest was kept (compared in constant time)."""
    return kept is not None and secrets.compare_digest(kept, digest(token))


@dataclass
class Handout:
    """The secrets made with a table, for its host's answer alone (they are kept nowhere else): its own seat's
    key, the invitations of the other reserved seats, the referee token."""

    seat_key: str | None
    invites: dict[int, str]
    referee: str
