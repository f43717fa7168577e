"""The heuristic bot's answers to choices asked inside a card's or a skill's effect, where the content gives no hint.

Plain functions of the seat's observation, the legal actions and the bot's own valuation (heuristic.py passes
its ``_benefit``): no card, skill or task is named, the rule reads only where the cards offered lie.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .base import Descriptor, Observation

Benefit = Callable[[Observation, int, tuple[str, ...]], float]  # (obs, seat, colours) -> worth to the bot's side


def from_intel(
    obs: Observation, actions: Sequence[Descriptor], benefit: Benefit, rng: random.Random
) -> Descriptor | None:
    """A card to choose when every card offered lies in one seat's intel area: a card chosen there leaves it (澄清
    discards a black one, a card that sends an intel of its own sends one away), so the one worth least there to
    the bot's side — not its own colour from its own intel, a black one rather than one of a camp-mate's colour.
    None when the cards offered are not all in one intel area (a hand, cards set aside: no rule)."""
    cards = [d for d in actions if d["kind"] == "card"]
    if not cards:
        return None
    ids = {d["card"]["id"] for d in cards}
    for p in obs["players"]:
        if ids <= {c["id"] for c in p["intel"]}:
            seat = p["seat"]
            return min(cards, key=lambda d: (benefit(obs, seat, tuple(d["card"]["colors"])), rng.random()))
    return None
