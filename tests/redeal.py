"""The re-deal alone, for any seat: tests of what a re-deal deals and keeps, at every seat of a table.

The public doors (``GameState.resample``, ``GameState.world``) deal a sample only for the seat to act: the question
pending was made from the truth (engine/step.py, ``GameState.sample_refused``). What the re-deal itself deals for a
seat — the faces it cannot see, within their pools, the identities and roles, the secrets it drops, its observation
unchanged — does not depend on who is asked, and these tests check it at every seat, on a copy that is not played on.
"""

from __future__ import annotations

import random

from interpreter.engine.step import GameState


def dealt_for(state: GameState, seat: int, rng: random.Random) -> GameState:
    """`state` re-dealt for `seat`: a sample (``resample``) where the public door deals one, else a clone re-dealt in
    place by the re-deal a sample makes (``_apply_edit``, its sub-seed drawn from `rng` as ``resample`` draws it, and
    kept in the copy's recipe, so its own clones are re-dealt alike): its observations and hidden content can be read,
    but its pending question is still the truth's, so it is not to be played on."""
    if not state.sample_refused(seat):
        return state.resample(seat, rng)
    copy = state.clone()
    copy._apply_edit(len(copy._indices), seat, rng.getrandbits(64), None)
    return copy
