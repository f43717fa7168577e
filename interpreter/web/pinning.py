"""A role pinned to a seat of a browser table (engine/pins.py; ``play --role`` in the terminal): what a lobby's
request asks for, checked against the table's content and seats when the table is made (tables.Tables.create).
Which seat holds it is the host's to know and nobody else's: the table's settings keep it in the database, with the
seed, and only the answer to the host says it (app.py); the lobby's list, a seat's and a spectator's messages never.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.pins import pin_problems
from ..model.content import Content

MAX_ROLE_ID = 200  # characters of a pinned role's id a request may send (an id is a file's name: far shorter)


class PinError(ValueError):
    """A pin a request cannot have: the message for the page, and its HTTP status (as tables.TableError's)."""

    status = 400


@dataclass(frozen=True)
class PinRequest:
    """The role a request to make a table pins, the seat it names (None: the host's own, as the request gave it:
    checked when called), and whether the role is the server's default (serve --role), which an error then says."""

    role: str
    seat: Any = None
    default: bool = False

    def __call__(self, content: Content, host_seat: int | None, players: int) -> dict[str, Any]:
        """Setup's role and role_seat for a table of `content` with these seats (PinError: what is wrong)."""
        seat = pinned_seat(content, self.role, self.seat, host_seat, players, self.default)
        return {"role": self.role, "role_seat": seat}


def requested_pin(body: Mapping[str, Any], default_role: str | None) -> PinRequest | None:
    """The pin a request to make a table asks for: ``"role"`` left out, the server's default (serve --role); null or
    a blank text, none; else a role's id (its spaces trimmed), dealt to ``"role_seat"``. PinError if the role is not
    a text."""
    role = body.get("role", default_role)
    if role is None or (isinstance(role, str) and not role.strip()):
        return None
    if not isinstance(role, str) or len(role) > MAX_ROLE_ID:
        raise PinError(f"role is a role's id (a text of at most {MAX_ROLE_ID} characters), or null to pin none")
    return PinRequest(role.strip(), body.get("role_seat"), "role" not in body)


def pin_of(setup: Any) -> dict[str, Any] | None:
    """A table's pin as its host is answered it, ``{"role", "seat"}``, or None (`setup`: its play.Setup)."""
    return None if setup.role is None else {"role": setup.role, "seat": setup.role_seat}


def pinned_seat(
    content: Content, role: str, seat: Any, host_seat: int | None, players: int, role_default: bool = False
) -> int:
    """The seat a table's pinned `role` is dealt to: `seat`, or the host's own (None given); a PinError saying what
    is wrong (a role the table's content lacks, with play --role's did-you-mean; no such seat; no seat named where
    the host plays none). `role_default`: the role is the server's default, which the error then says."""
    problems = pin_problems(content, role, None, [players], "in this table's content")
    if problems:
        whose = ' (the server\'s default role, serve --role: send "role": null to pin none)' if role_default else ""
        raise PinError(f"role: {problems[0]}{whose}")
    if seat is None:
        if host_seat is None:
            raise PinError("role_seat: the host plays no seat here: say which seat the pinned role is dealt to")
        return host_seat
    if type(seat) is not int or not 0 <= seat < players:
        got = str(seat)[:20]
        raise PinError(f"role_seat: a seat of the table, 0 to {players - 1}, or null for the host's (got {got!r})")
    return seat
