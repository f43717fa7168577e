"""Small choices of the heuristic bot (heuristic.py): a card chosen inside an effect where the content gives no hint,
the best seat offered by a score, the colours of the intel on its way, the seats an intel it sends reaches, the
places a `mislead` card can move an intel to, whether a face-down intel is worth a contest card, the card a `swap`
card puts in its place, the copy of a card it plays, a use no rule covers now and then, whether a `decode` card is
worth using before a face-down intel, a card picked for itself and whether it goes into its intel, a card an effect
puts into an intel area.

Plain functions of the seat's observation, the legal actions and the bot's own valuation (heuristic.py passes
its ``_benefit``): no card, skill or task is named; they read where the cards offered lie, the seats, the tactics.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any, Final

from .base import Descriptor, Observation
from .hints import COLLECT, DECODE

# the chance to use a skill without a `bot:` hint, or a card whose tactic has no play rule, wherever it is offered
# (cards at 0.05: the bot won no more, and a fork's card was measured on a third of the uses: docs/bots.md)
PLAY_OTHER: Final = 0.15

Benefit = Callable[[Observation, int, tuple[str, ...]], float]  # (obs, seat, colours) -> worth to the bot's side


def from_intel(
    obs: Observation, actions: Sequence[Descriptor], benefit: Benefit, rng: random.Random
) -> Descriptor | None:
    """A card to choose when every card offered lies in one seat's intel area: a card chosen there leaves it (a `clear`
    card discards a black one, a card that sends an intel of its own sends one away), so the one worth least there to
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


def decode_first(
    obs: Observation, actions: Sequence[Descriptor], tactics: Mapping[str, str], camp: str | None
) -> Descriptor | None:
    """A `decode` card offered before a face-down intel is answered, used where what it shows changes the answer: by a
    bot without a camp (its task reads the colours), by one with two blacks already (it declines a hidden intel then),
    and with one other seat left (an intel it declines goes back to that seat, the sender). A bot with a camp and
    fewer than two blacks takes the intel whatever it is: it keeps the card, an intel to send (docs/bots.md)."""
    me = obs["players"][obs["seat"]]
    if camp is not None and me["intel_counts"]["black"] < 2 and sum(1 for p in obs["players"] if p["alive"]) > 2:
        return None
    return next((d for d in actions if d["kind"] == "use" and tactics.get(d["as"]) == DECODE), None)


def pending_colors(obs: Observation) -> tuple[str, ...] | None:
    """The colours of the intel on its way, if it is pending and face up to this seat (None: no such intel)."""
    t = obs["transit"]
    if t is None or not t["pending"] or t["card"] is None:
        return None
    return tuple(t["card"]["colors"])


def way_of(obs: Observation, direction: str, target: int | None) -> list[int]:
    """The seats an intel sent by this seat reaches in turn: the ↑ target, or the living seats round the table."""
    if direction == "up":
        return [target] if target is not None else []
    n, me = len(obs["players"]), int(obs["seat"])
    step = 1 if direction == "right" else -1
    seats = ((me + step * k) % n for k in range(1, n))
    return [s for s in seats if obs["players"][s]["alive"]]


def best_seat(actions: Sequence[Descriptor], score: Callable[[int], float], rng: random.Random) -> Descriptor | None:
    """The seat offered with the best score (ties at random), None if no seat is offered."""
    seats = [d for d in actions if d["kind"] == "seat"]
    if not seats:
        return None
    return max(seats, key=lambda d: (score(d["seat"]), rng.random()))


def neighbours(obs: Observation, seat: int) -> list[int]:
    """The living seats either side of `seat`: where a `mislead` card can move the intel in front of it."""
    n = len(obs["players"])
    return [s for s in ((seat + 1) % n, (seat - 1) % n) if obs["players"][s]["alive"]]


def best_beside(obs: Observation, holder: int, colors: tuple[str, ...], benefit: Benefit) -> float:
    """What this intel is worth to the bot's side in front of the holder's better living neighbour."""
    return max((benefit(obs, s, colors) for s in neighbours(obs, holder)), default=-99.0)


def at_stake(obs: Observation, holder: int, mine: str | None, style: str | None) -> bool:
    """Whether a face-down intel in front of another seat (`holder`) may decide the game: the holder holds two red or
    two blue intel (a third of a colour is a win, a camp's or a task's), or the bot does — a bot with a camp (`mine`,
    the colour it collects) two of its camp's colour (two of the other win it nothing), a `collect` task (`style`) two
    of either, any other task never (no third of its own wins it) — or one other seat is left (every intel goes
    between the two of them). Only then does the bot spend a contest card on it (grab, mislead, swap): earlier, a
    face-down intel is worth a few tenths either way, and the card is its one answer when a seat is about to make
    three (7-10 players, seeds 20-29: better 1,802 / worse 1,602: docs/bots.md)."""
    players = obs["players"]
    counts = players[holder]["intel_counts"]
    if counts["red"] >= 2 or counts["blue"] >= 2:
        return True
    own = players[obs["seat"]]["intel_counts"]
    if mine is not None:  # its own third wins only in its camp's colour
        if own[mine] >= 2:
            return True
    elif style == COLLECT and (own["red"] >= 2 or own["blue"] >= 2):  # (no other task's third wins it)
        return True
    return sum(1 for p in players if p["alive"]) <= 2


def swap_card(obs: Observation, actions: Sequence[Descriptor], benefit: Benefit) -> Descriptor | None:
    """A `swap` card's card to put, face down, in place of the intel on its way: the one that does most good to the
    bot's side in front of its holder (no holder: None)."""
    t = obs["transit"]
    if t is None or t["holder"] is None:
        return None
    holder = t["holder"]
    cards = [d for d in actions if d["kind"] == "card"]
    return max(cards, key=lambda d: benefit(obs, holder, d["card"]["colors"]))


def not_of(actions: Sequence[Descriptor], tactics: Mapping[str, str], tactic: str, color: str) -> Descriptor | None:
    """The first use of a card with this tactic whose colours do not include `color` (None: there is none)."""
    for d in actions:
        if d["kind"] == "use" and tactics.get(d["as"]) == tactic:
            card = d.get("card")
            if card is None or color not in card["colors"]:
                return d
    return None


def now_and_then(
    actions: Sequence[Descriptor], played: Container[str], skills: Mapping[str, str], rng: random.Random
) -> Descriptor | None:
    """Now and then (PLAY_OTHER), one of the offered uses no rule covers: a skill without a `bot:` hint, a card
    whose tactic has no play rule (not in `played`, the card kinds with one). How a skill or card nothing is known of
    gets used at all, so that a balance sweep measures a fork's new skill or card with it in play."""
    others = [
        d
        for d in actions
        if (d["kind"] == "use" and d["as"] not in played) or (d["kind"] == "skill" and d["skill"] not in skills)
    ]
    if not others:
        return None
    if rng.random() < PLAY_OTHER:
        return others[rng.randrange(len(others))]
    return None


def pick_for_itself(
    obs: Observation,
    actions: Sequence[Descriptor],
    value: Callable[[Observation, int, Sequence[str]], float],
    kept: Callable[[Mapping[str, Any]], float],
) -> Descriptor:
    """A card picked for itself (a `pick_best` card: one of several shown, into its hand or, sharing no colour with its
    intel, into its intel instead): as intel, what it is worth there (`value`: to a seat) if that is something; else,
    in hand, what it is worth kept (`kept`). Picked by its worth as intel alone, it took a card of a colour it held,
    which the rule keeps out of its intel, before a contest card (10 players, seeds 20-29: better 578 / worse 500:
    docs/bots.md)."""
    me = obs["seat"]
    held = {c for card in obs["players"][me]["intel"] for c in card["colors"]}

    def worth(d: Descriptor) -> float:
        colors = d["card"]["colors"]
        v = value(obs, me, colors)
        return v if v > 0 and held.isdisjoint(colors) else kept(d["card"])

    return max((d for d in actions if d["kind"] == "card"), key=worth)


def option_into_intel(actions: Sequence[Descriptor], into: frozenset[str], keep: bool) -> Descriptor | None:
    """An option that puts a card into its own intel (`into`: hints.intel_options) or another: the first when the card
    is worth having there (`keep`: the card its last answer chose), else the other (a `pick_best` card's choice
    answered at random put a black into its intel half the time, and its own colour into its hand: 10 players, seeds
    20-29, better 507 / worse 449; docs/bots.md)."""
    return next((d for d in actions if d["kind"] == "option" and (d["label"] in into) == keep), None)


def card_into_intel(obs: Observation, actions: Sequence[Descriptor], benefit: Benefit) -> Descriptor | None:
    """The card an effect puts into an intel area, the seat asked next (hints.choice_roles' INTEL_CARD): the one that
    does most good to the bot's side in the best living seat for it."""
    cards = [d for d in actions if d["kind"] == "card"]
    seats = [p["seat"] for p in obs["players"] if p["alive"]]
    if not cards or not seats:
        return None

    def best_place(d: Descriptor) -> float:
        colors = tuple(d["card"]["colors"])
        return max(benefit(obs, s, colors) for s in seats)

    return max(cards, key=best_place)
