"""An information-set search bot: determinized Monte Carlo tree search over its seat's World.

``SearchAgent(seed, simulations)`` answers a decision with a fixed budget of simulations. Each
simulation is one *determinization*: ``world.sample(rng)`` (engine/step.py) deals again
everything its seat cannot see — the other hands, the deck, face-down intel, the others'
identities, tasks and face-down roles — consistently with its observation, and replays to the
present decision. Then, in that copy:

1. **Selection** (single-observer IS-MCTS): from the root, the bot's own actions are chosen by
   UCB1 over the statistics of its information set, counting an action's *availability* (how
   often it was legal when its node was visited, ISMCTS's correction for actions that exist in
   some determinizations only). The tree follows the bot's own decisions while it keeps the
   turn to answer (a card, then its target, then ...); the first answer of another seat ends
   the tree.
2. **Rollout**: from there to the end of the game, every seat (the bot's own too) is played by
   the rollout policy: uniformly random legal moves (``rollout="random"``, the default) or the
   heuristic bot (``rollout="heuristic"``, each seat from its own observation *in the sample*;
   about four times the cost of a simulation, and no better for the same CPU time in
   bench/strength.py --paired: docs/bots.md).
3. **Backup**: the bot's result in that game — 1 for a win, 0 for a loss, ½ when nobody won —
   is added along the path.

The heuristic bot's own choice is the *prior*: it is simulated first, and it is the answer unless
another root action beats its mean result by more than ``CONFIDENCE`` standard errors of the
difference (taking a result's spread at its largest, ½): with a few dozen simulations spread
over a dozen actions, a lead of one or two lucky games is noise. Among the actions that clear
that bar, the one with the largest lead beyond it. A decision with one legal action is not
searched.

Honest by construction: the bot reads its observation, the action descriptors and the samples
its World deals, which depend only on what its seat has seen and on the bot's generator (a test
gives it two games that differ in everything its seat cannot see: same answers). Seeded: the same
seed and the same decisions give the same answers.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..engine.errors import EngineError
from ..engine.step import GameState, World
from .base import Agent, Descriptor, Observation
from .heuristic import HeuristicAgent, Hints

EXPLORE = 0.7  # UCB1's exploration constant (results are in [0, 1])
CONFIDENCE = 1.5  # how many standard errors another action's mean must beat the heuristic choice's by
ROLLOUTS = ("random", "heuristic")  # the default first
SEARCH_SEED = 0x5EA2C4  # the search's own generator: the seed xor this (the guide has the seed itself)


class _Node:
    """The statistics of one information set of the bot's: per action, visits, summed result, availability."""

    __slots__ = ("visits", "total", "avail", "children")

    def __init__(self) -> None:
        self.visits: dict[int, int] = {}
        self.total: dict[int, float] = {}
        self.avail: dict[int, int] = {}
        self.children: dict[int, _Node] = {}

    def select(self, legal: Sequence[int], first: int | None = None) -> int:
        for a in legal:
            self.avail[a] = self.avail.get(a, 0) + 1
        if first is not None and first in legal and first not in self.visits:
            return first
        for a in legal:
            if a not in self.visits:
                return a
        best, best_score = legal[0], -math.inf
        for a in legal:
            n = self.visits[a]
            score = self.total[a] / n + EXPLORE * math.sqrt(math.log(self.avail[a]) / n)
            if score > best_score:
                best, best_score = a, score
        return best

    def update(self, a: int, result: float) -> None:
        self.visits[a] = self.visits.get(a, 0) + 1
        self.total[a] = self.total.get(a, 0.0) + result

    def child(self, a: int) -> _Node:
        node = self.children.get(a)
        if node is None:
            node = self.children[a] = _Node()
        return node


class SearchAgent(Agent):
    observes = True
    searches = True

    def __init__(self, seed: int, simulations: int = 50, hints: Hints | None = None, rollout: str = "random") -> None:
        if simulations < 1:
            raise ValueError(f"a search bot needs at least one simulation per decision, not {simulations}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout policy {rollout!r} (known: {', '.join(ROLLOUTS)})")
        self.rng = random.Random(seed ^ SEARCH_SEED)
        self.simulations = simulations
        self.hints = hints
        self.rollout = rollout
        # its prior and its answer where it cannot search; it keeps its memory of the game in step. Seeded
        # as a heuristic bot in its seat would be: where the search never overrules it, the game is the one
        # that bot would have played (bench/strength.py compares the two, game by game)
        self.guide = HeuristicAgent(seed, hints)
        self.last: dict[int, tuple[int, float]] = {}  # the last search's root: action -> (visits, mean)
        self.failed = 0  # simulations whose sample the engine stopped (EngineError): counted as draws

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        """Without a World (a driver that offers none) it answers as its heuristic guide."""
        return self.guide.act(observation, actions)

    def search(self, observation: Observation, actions: Sequence[Descriptor], world: World) -> int:
        prior = self.guide.act(observation, actions)
        self.last = {}
        if len(actions) < 2:
            return prior
        seat = int(observation["seat"])
        root = _Node()
        for _ in range(self.simulations):
            state = world.sample(random.Random(self.rng.getrandbits(64)))
            self._simulate(state, seat, root, prior)
        ids = [int(d["id"]) for d in actions]
        self.last = {a: (root.visits[a], root.total[a] / root.visits[a]) for a in ids if a in root.visits}
        if prior not in root.visits:  # (a budget of one simulation visits only the prior)
            return prior
        n_prior = root.visits[prior]
        mean_prior = root.total[prior] / n_prior
        best, best_lead = prior, 0.0
        for a in ids:
            n = root.visits.get(a)
            if not n or a == prior:
                continue
            # the lead over the prior, less CONFIDENCE standard errors (a result's spread is at most ½)
            lead = root.total[a] / n - mean_prior - CONFIDENCE * 0.5 * math.sqrt(1 / n + 1 / n_prior)
            if lead > best_lead:
                best, best_lead = a, lead
        return best

    # ------------------------------------------------------------------ one simulation

    def _simulate(self, state: GameState, seat: int, root: _Node, prior: int) -> None:
        path: list[tuple[_Node, int]] = []
        node: _Node | None = root
        first: int | None = prior
        try:
            while node is not None and not state.is_terminal() and state.current_player() == seat:
                a = node.select(state.legal_actions(), first)
                path.append((node, a))
                state.apply_action(a)
                node, first = node.child(a), None
            result = self._rollout(state, seat)
        except EngineError:  # a sample the engine stopped (e.g. E503, stuck): a draw, and counted, not a crash
            self.failed += 1
            result = 0.5
        for n, a in path:
            n.update(a, result)

    def _rollout(self, state: GameState, seat: int) -> float:
        r = random.Random(self.rng.getrandbits(64))
        if self.rollout == "random":
            below = r._randbelow  # type: ignore[attr-defined]  # (as RandomAgent: randrange without its checks)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[below(len(legal))])
        else:
            bots: dict[int, HeuristicAgent] = {}
            while not state.is_terminal():
                s = state.current_player()
                bot = bots.get(s)
                if bot is None:
                    bot = bots[s] = HeuristicAgent(r.getrandbits(64), self.hints)
                state.apply_action(bot.act(state.observation(s), state.action_descriptors()))
        returns = state.returns()
        return 0.5 if not any(returns) else (1.0 if returns[seat] > 0 else 0.0)
