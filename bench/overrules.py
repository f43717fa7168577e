#!/usr/bin/env python
"""Where the paired search overrules its guide, and what each overrule is worth in the real game.

    python bench/overrules.py [--players 5] [--games 60] [--first 0] [--rollouts 16] [--seed 77]
                              [--variant NAME=KEY=VALUE,...] ...
    python bench/overrules.py --players 8 --variant kept= --variant h1=horizon=1 --variant n16=samples=16,bar=2

A game's result is a blunt measure of one decision: most of the game happens after it, so a paired test
(bench/strength.py --paired) needs thousands of games to tell a search from its guide. This bench looks at the
decisions instead. It plays heuristic games (game g: game seed ``game_seed(seed, g)``, every agent seeded as
``sim.make_agents`` seeds it, the watched seat g mod n as in bench/strength.py) and, at every decision of the
watched seat, asks each variant of ``search:N:paired`` what it would answer, handing it that seat's World as a
driver does (the search sees only what the seat may). Each variant keeps its own guide, fed the same
observations, so the guide's answer is the one the heuristic bot in that seat plays, and every variant is judged
on the same decisions. Where a variant answers otherwise than its guide, both answers are valued **in the real
game** — this bench is the referee, not a seat: ``--rollouts`` copies of the real state, each answered one way or
the other and played to the end by heuristic bots at every seat, the same rollout seeds for both answers — and the
overrule's gain is the difference in the seat's mean result (1 a win, 0 a loss, ½ nobody). The guide's answer is
then played and the game goes on.

Per variant it prints the overrules, their mean gain with its standard error, how many were better and worse,
the same by decision kind and by the seat's identity, the search's CPU seconds a game, and its overrules' summed gain
a game (with its standard error over the games) and that less the first variant's, game by game. A variant is ``NAME=``
(the kept search) or ``NAME=KEY=VALUE,...`` with the keys ``samples`` (N), ``horizon`` (turns, 0 to the end),
``bar`` (the sign test's z), ``candidates`` (actions compared, the guide's included), ``lean`` (the weight of the
colours a seat accepted in the samples' identities), ``kinds`` (the decisions searched, joined by ``+``), ``rank``
(how the candidates beyond the guide's answer are chosen: ``random``, or ``guide``, its next-best answers first) and
``confirm`` (fresh samples an overrule must also win on before it is made; 0, none).

A diagnosis, never a bot: ``truth`` hands the variant's search, instead of the seat's World, one that deals the
real game — ``truth=game`` (each sample a copy of it: the other hands, the deck's order, the identities, tasks and
roles, what every seat knows, the generator) or the real game with part of it dealt again uniformly:
``truth=game-cards`` (the deck and the other seats' hands, the faces the seat cannot see, shuffled among those
places), ``truth=game-ids`` (the identities and their tasks of the seats whose identity the seat has not seen,
shuffled among them) or ``truth=game-cards+ids`` (both). It tells how much of what the search misses is which
hidden fact. docs/bots.md has what it found.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.agents.heuristic import HeuristicAgent
from interpreter.agents.hints import Hints, hints_of
from interpreter.agents.search import PAIRED_KINDS, SearchAgent
from interpreter.content.loader import load_cached
from interpreter.engine.errors import EngineError
from interpreter.engine.step import GameState
from interpreter.seeds import agent_seed, game_seed
from interpreter.sim import make_agents

KEYS = {
    "samples": int,
    "horizon": int,
    "bar": float,
    "candidates": int,
    "lean": float,
    "kinds": str,
    "rank": str,
    "confirm": int,
    "truth": str,
}
TRUTHS = ("game", "game-cards", "game-ids", "game-cards+ids")  # the diagnosis `truth`: what stays true


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME=KEY=VALUE,...`` -> (NAME, {key: value}); ValueError saying what is wrong."""
    name, _, rest = text.partition("=")
    if not name:
        raise ValueError(f"variant {text!r}: NAME=KEY=VALUE,... (a name first; `kept=` for the kept search)")
    params: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        if key not in KEYS or not value:
            raise ValueError(f"variant {name}: {item!r} is not KEY=VALUE with a key of {', '.join(KEYS)}")
        if key == "truth" and value not in TRUTHS:
            raise ValueError(f"variant {name}: truth={value} is not one of {', '.join(TRUTHS)}")
        params[key] = frozenset(value.split("+")) if key == "kinds" else KEYS[key](value)
    return name, params


def make_search(seed: int, hints: Hints, params: dict[str, Any]) -> SearchAgent:
    """The paired search of a variant, seeded as ``search:N:paired`` in the watched seat would be."""
    options: dict[str, Any] = {}
    if "horizon" in params:
        options["horizon"] = params["horizon"]
    return SearchAgent(
        seed,
        params.get("samples", 8),
        hints,
        "paired",
        kinds=params.get("kinds", PAIRED_KINDS),
        candidates=params.get("candidates", 4),
        bar=params.get("bar", 1.5),
        lean_weight=params.get("lean", 0.7),
        rank=params.get("rank", "random"),
        confirm=params.get("confirm", 0),
        **options,
    )


def value(state: GameState, seat: int, action: int, rollouts: int, seed: int, hints: Hints) -> float:
    """The seat's mean result over `rollouts` copies of the real state answered with `action` and played to the end
    by heuristic bots (the rollout seeds drawn from `seed`: the same for every action valued with it)."""
    r = random.Random(seed)
    total = 0.0
    for _ in range(rollouts):
        bot_seeds = random.Random(r.getrandbits(64))
        seeds = [bot_seeds.getrandbits(64) for _ in range(state.n_players)]
        copy = state.clone()
        try:
            copy.apply_action(action)
            bots: dict[int, HeuristicAgent] = {}
            while not copy.is_terminal():
                s = copy.current_player()
                bot = bots.get(s)
                if bot is None:
                    bot = bots[s] = HeuristicAgent(seeds[s], hints)
                copy.apply_action(bot.act(copy.observation(s), copy.action_descriptors()))
            returns = copy.returns()
            total += 0.5 if not any(returns) else (1.0 if returns[seat] > 0 else 0.0)
        except EngineError:  # a copy the engine stops (E503 ...): a draw, as the search counts it
            total += 0.5
        finally:
            copy.close()
    return total / rollouts


class Truth:
    """Diagnosis only (the bench is the referee): a World for the search of a variant with ``truth``, whose samples
    are copies of the real game, with the deck and the other hands (`cards`) and/or the identities the seat has not
    seen (`ids`) dealt again uniformly from the sample's generator. Not a seat's view: never handed to a bot."""

    def __init__(self, state: GameState, seat: int, truth: str) -> None:
        self.state, self.seat = state, seat
        self.cards, self.ids = "cards" in truth, "ids" in truth

    def sample(self, rng: random.Random, weigh: Any = None) -> GameState:
        copy = self.state.clone()
        game = copy._game
        seat = self.seat
        if self.cards:
            zones = game.zones
            places = list(zones.deck) + [c for p in game.players if p.seat != seat for c in p.hand]
            hidden = [c for c in places if not zones.card_visible(c, seat)]
            faces = [c.face() for c in hidden]
            rng.shuffle(faces)
            for card, face in zip(hidden, faces, strict=True):
                card.set_face(face)
            zones.by_uid = {c.uid: c for c in zones.cards}
            zones.sightings += 1  # (faces moved: what observations keep by these is made again)
            zones.intel_changes += 1
        if self.ids:
            known = game.players[seat].known_identities
            slots = [p for p in game.players if p.seat != seat and p.seat not in known and p.identity is not None]
            dealt = [(p.identity, p.task) for p in slots]
            rng.shuffle(dealt)
            for p, (identity, task) in zip(slots, dealt, strict=True):
                p.identity, p.task = identity, task
                p.version += 1
            game.seats.standing += 1  # (as Skills.redeal: the victory checks follow it)
        return copy


class Tally:
    """One variant's overrules: their gains, by decision kind and by the seat's identity, and its CPU time."""

    def __init__(self) -> None:
        self.gains: dict[str, list[float]] = defaultdict(list)
        self.per_game: list[float] = []  # each game's summed gain (a game without an overrule: 0)
        self.seconds = 0.0

    def add(self, kind: str, identity: str, gain: float) -> None:
        for key in ("all", f"kind {kind}", f"identity {identity}"):
            self.gains[key].append(gain)
        self.per_game[-1] += gain


def summary(xs: list[float]) -> str:
    """`n`, the mean gain with its standard error, better / worse."""
    n = len(xs)
    mean = sum(xs) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
    better, worse = sum(x > 0 for x in xs), sum(x < 0 for x in xs)
    return f"{n:4d} overrules, gain {mean:+.3f} ± {se:.3f} a decision, better {better}, worse {worse}"


def mean_se(xs: list[float]) -> str:
    """The mean of `xs` with its standard error."""
    n = len(xs)
    mean = sum(xs) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
    return f"{mean:+.4f} ± {se:.4f}"


def watch(content, n: int, g: int, seed: int, rollouts: int, variants: list, tallies: list[Tally]) -> None:
    """Game g: the heuristic bots play it; at each decision of the watched seat every variant answers, and each
    answer that differs from the guide's is valued in the real game against the guide's."""
    hints = hints_of(content)
    gseed = game_seed(seed, g)
    seat = g % n
    state = GameState(content, n, gseed)
    agents = make_agents(("heuristic",) * n, gseed, content)
    searches = [make_search(agent_seed(gseed, seat), hints, params) for _, params in variants]
    for tally in tallies:
        tally.per_game.append(0.0)
    while not state.is_terminal():
        s = state.current_player()
        if s != seat:
            state.apply_action(agents[s].act(state.observation(s), state.action_descriptors()))
            continue
        world = state.world(seat)
        answers = []
        for search, tally, (_name, params) in zip(searches, tallies, variants, strict=True):
            seen: Any = Truth(state, seat, params["truth"]) if "truth" in params else world
            start = time.process_time()
            answers.append(search.search(state.observation(seat), state.action_descriptors(), seen))
            tally.seconds += time.process_time() - start
        played = agents[seat].act(state.observation(seat), state.action_descriptors())  # the guide's answer
        differ = {a for a in answers if a != played}
        if differ:
            rollout_seed = random.Random(gseed ^ len(state.history())).getrandbits(64)
            base = value(state, seat, played, rollouts, rollout_seed, hints)
            gains = {a: value(state, seat, a, rollouts, rollout_seed, hints) - base for a in differ}
            identity = state._game.players[seat].identity  # (the referee's view: this bench is no seat)
            name = identity.name if identity is not None else "-"
            for a, tally in zip(answers, tallies, strict=True):
                if a != played:
                    tally.add(str(state.decision_kind), name, gains[a])
        state.apply_action(played)
    state.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=60, help="games watched")
    ap.add_argument("--first", type=int, default=0, help="the first game's index (to add games to an earlier run)")
    ap.add_argument("--rollouts", type=int, default=16, help="rollouts to the end valuing each answer")
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--variant", action="append", default=[], help="NAME=KEY=VALUE,... (repeatable; default kept=)")
    a = ap.parse_args()
    try:
        variants = [parse_variant(v) for v in a.variant or ["kept="]]
    except ValueError as e:
        ap.error(str(e))
    if a.rollouts < 1 or a.games < 1:
        ap.error("--games and --rollouts are at least 1")
    content = load_cached()
    tallies = [Tally() for _ in variants]
    for g in range(a.first, a.first + a.games):
        watch(content, a.players, g, a.seed, a.rollouts, variants, tallies)
    last = a.first + a.games - 1
    print(f"{a.players} players, games {a.first}-{last}, seed {a.seed}, {a.rollouts} rollouts an answer")
    for text, tally in zip(a.variant or ["kept="], tallies, strict=True):
        print(f"{text}: search {tally.seconds / a.games:.2f} CPU s a game")
        if not tally.gains:
            print("  no overrule")
        for key in sorted(tally.gains, key=lambda k: (k != "all", k)):
            print(f"  {key:<16} {summary(tally.gains[key])}")
        # what its overrules gained a game (its mean over the games, with the standard error from game to game),
        # and the same less the first variant's, game by game (the same decisions: a sharper comparison)
        line = f"  gain a game {mean_se(tally.per_game)}"
        if tally is not tallies[0]:
            diff = [x - y for x, y in zip(tally.per_game, tallies[0].per_game, strict=True)]
            line += f"; less the first variant's, game by game, {mean_se(diff)}"
        print(line)


if __name__ == "__main__":
    main()
