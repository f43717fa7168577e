"""What one seat may see: the only window an honest agent uses."""
from __future__ import annotations


class PlayerView:
    """A read-only view of the game for one seat.

    Public: seats, who is alive, hand sizes, every intel area, face-up roles,
    the phase, the current player and where the pending intel is (and the
    card itself only if face up). Private to this seat: its hand, identity,
    secret task, and the cards it has been shown (``known``).
    """

    def __init__(self, game, seat: int):
        self._game = game
        self.seat = seat

    @property
    def me(self):
        return self._game.players[self.seat]

    @property
    def hand(self):
        return list(self.me.hand)

    @property
    def identity(self):
        return self.me.identity

    @property
    def task(self):
        return self.me.task

    @property
    def phase(self) -> str:
        return self._game.phase

    @property
    def current_seat(self) -> int:
        return self._game.current.seat

    def alive(self) -> list[int]:
        return [p.seat for p in self._game.players if p.alive]

    def hand_count(self, seat: int) -> int:
        return len(self._game.players[seat].hand)

    def intel(self, seat: int):
        return list(self._game.players[seat].intel)

    def pending(self):
        """The pending intel if face up or known to this seat, else None."""
        g = self._game
        if g.pending is None:
            return None
        if g.pending_face_up or self.me.known.get(g.pending.uid) is g.pending:
            return g.pending
        return None

    def holder_seat(self):
        h = self._game.holder
        return h.seat if h is not None else None

    def known(self) -> dict:
        return dict(self.me.known)

    def known_identities(self) -> dict:
        """Identity cards this seat has looked at (seat -> identity)."""
        return dict(self.me.known_identities)

    def role(self, seat: int):
        """The role of a seat if face up (or this seat's own), else None."""
        p = self._game.players[seat]
        return p.role if p.role_face_up or seat == self.seat else None
