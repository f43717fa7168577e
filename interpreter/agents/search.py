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

``rollout="paired"`` (``search:N:paired``) searches differently, and only the decisions that carry the
game (receiving, the card sent and its target; not the lock: docs/bots.md): it compares the guide's answer
with up to three others by **common random numbers** — each is played from the same N samples with the same rollout
seeds, by heuristic bots at every seat, so two results differ only where the action made the difference
— and takes another action only when it did better in clearly more samples than it did worse (a sign
test). A rollout stops ``HORIZON`` turns on and the position is evaluated with the sample's identities
(its camp's intel of its colour, the other camp's, blacks and deaths) — far less noise than one game's
end. A candidate that is not ahead after ``PAIRED_FIRST`` samples gets no more. Samples are dealt with
the guide's camp guesses (World.sample's `weigh`): a deal of identities that contradicts the colours a seat
accepted by choice is dealt again with a probability that grows with the contradiction, and one that
contradicts what its own probe cards (the `probe` function) showed, always. Two options measured and not kept
(docs/bots.md): the guide's next-best answers as the candidates (`rank="guide"`) and an overrule played again on
fresh samples before it is made (`confirm`).

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
from ..engine.game import Game
from ..engine.step import GameState, Weigh, World
from ..model.colors import BLACK_BIT, BLUE_BIT, RED_BIT
from .base import Agent, Descriptor, Observation
from .heuristic import HeuristicAgent
from .hints import Hints, hints_of

EXPLORE = 0.7  # UCB1's exploration constant (results are in [0, 1])
CONFIDENCE = 1.5  # how many standard errors another action's mean must beat the heuristic choice's by
ROLLOUTS = ("random", "heuristic", "paired")  # the default first
# `paired`: which decisions it searches (the kinds of docs/observation.md's decision), how many actions it compares
PAIRED_KINDS = frozenset({"receive", "send", "send_target"})  # (the lock: overruled once in 40, a fifth of the CPU)
PAIRED_CANDIDATES = 4  # the guide's answer and up to three others (drawn at random when there are more)
# how the others are chosen when there are more: drawn at random, or the guide's next-best answers first (its own
# values of each card sent and each ↑ target; the other kinds, and options it does not value, drawn at random)
RANKS = ("random", "guide")  # the default first
PAIRED_FIRST = 3  # samples every candidate gets; then only those ahead of the guide get more
PAIRED_Z = 1.5  # the sign test's bar: better - worse >= PAIRED_Z * sqrt(better + worse) (and >= 2)
LEAN_WEIGHT = 0.7  # how strongly a seat's accepted colours make a sample's identity for it likelier
HORIZON = 2  # `paired`: turns played on before a position is evaluated (0: to the game's end)
PROGRESS = (0.0, 1.0, 3.0)  # a seat's value of holding 0, 1, 2 intel of its camp's colour
BLACKS = (0.0, 0.5, 1.5)  # its cost of holding 0, 1, 2 black intel
DEAD = 2.0  # the cost of its death
WIN_VALUE = 8.0  # a win (a loss: minus) before the horizon
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

    def __init__(
        self,
        seed: int,
        simulations: int = 50,
        hints: Hints | None = None,
        rollout: str = "random",
        horizon: int = HORIZON,
        *,
        kinds: frozenset[str] = PAIRED_KINDS,
        candidates: int = PAIRED_CANDIDATES,
        bar: float = PAIRED_Z,
        lean_weight: float = LEAN_WEIGHT,
        rank: str = RANKS[0],
        confirm: int = 0,
    ) -> None:
        if simulations < 1:
            raise ValueError(f"a search bot needs at least one simulation per decision, not {simulations}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout policy {rollout!r} (known: {', '.join(ROLLOUTS)})")
        if candidates < 2:
            raise ValueError(f"a paired search compares at least two actions, not {candidates}")
        if rank not in RANKS:
            raise ValueError(f"unknown ranking of candidates {rank!r} (known: {', '.join(RANKS)})")
        self.rng = random.Random(seed ^ SEARCH_SEED)
        self.simulations = simulations
        self.hints = hints if hints is not None else hints_of()  # (read once: the rollout bots share them)
        self.rollout = rollout
        self.horizon = horizon
        # `paired`: the decisions searched, the actions compared, the sign test's bar, the weight of accepted colours
        # (the defaults are the kept ones; bench/overrules.py measures others)
        self.kinds, self.candidates, self.bar, self.lean_weight = kinds, candidates, bar, lean_weight
        self.rank = rank
        self.confirm = confirm  # fresh samples an overrule must also win on before it is made (0: none)
        self._sent: list[Descriptor | None] = []  # its last send decision's options' cards (rank "guide")
        # its prior and its answer where it cannot search; it keeps its memory of the game in step. Seeded
        # as a heuristic bot in its seat would be: where the search never overrules it, the game is the one
        # that bot would have played (bench/strength.py compares the two, game by game)
        self.guide = HeuristicAgent(seed, hints)
        self.last: dict[int, tuple[int, float]] = {}  # the last search's root: action -> (visits, mean)
        self.failed = 0  # simulations whose sample the engine stopped (EngineError): counted as draws
        self.overruled = 0  # decisions answered otherwise than its guide

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        """Without a World (a driver that offers none) it answers as its heuristic guide."""
        return self.guide.act(observation, actions)

    def search(self, observation: Observation, actions: Sequence[Descriptor], world: World) -> int:
        prior = self.guide.act(observation, actions)
        self.last = {}
        decision = observation["decision"]
        if self.rank == "guide" and decision is not None and decision["kind"] == "send":
            # (its ↑ target is asked next: which card went is read then from its own send's record, an option's index)
            self._sent = [d.get("card") for d in actions]
        if len(actions) < 2:
            return prior
        if self.rollout == "paired":
            return self._paired(observation, actions, world, prior)
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
        self.overruled += best != prior
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
        finally:
            state.close()
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

    # ------------------------------------------------------------------ paired comparisons

    def _paired(self, obs: Observation, actions: Sequence[Descriptor], world: World, prior: int) -> int:
        """Flat Monte Carlo with common random numbers: each candidate is played from the same samples with
        the same rollout seeds (heuristic bots at every seat), and a candidate replaces the guide's answer
        when it did better in clearly more samples than it did worse (a sign test over the samples where
        the two results differ)."""
        decision = obs["decision"]
        kind = decision["kind"] if decision is not None else ""
        if kind not in self.kinds:
            return prior
        others = [int(d["id"]) for d in actions if int(d["id"]) != prior]
        if len(others) > self.candidates - 1:
            if self.rank == "guide":
                others = self._ranked(obs, actions, kind, others)[: self.candidates - 1]
            else:
                others = self.rng.sample(others, self.candidates - 1)
        seat = int(obs["seat"])
        weigh = self._weigh(self._leans(obs), self._allowed(obs))
        base: list[float] = []
        results: dict[int, list[float]] = {a: [] for a in others}
        alive = list(others)
        for i in range(self.simulations):
            sample_seed = self.rng.getrandbits(64)
            rollout_seed = self.rng.getrandbits(64)
            base.append(self._play_out(world.sample(random.Random(sample_seed), weigh), seat, prior, rollout_seed))
            for a in alive:
                results[a].append(
                    self._play_out(world.sample(random.Random(sample_seed), weigh), seat, a, rollout_seed)
                )
            if i + 1 >= PAIRED_FIRST:  # more samples only for the candidates still ahead of the guide's answer
                alive = [a for a in alive if self._margin(results[a], base)[0] > 0]
                if not alive:
                    break
        self.last = {a: (len(r), sum(r) / len(r)) for a, r in [(prior, base), *results.items()]}
        best, best_margin = prior, 0.0
        for a in others:
            margin, spread, differ = self._margin(results[a], base)
            if differ >= 3 and margin >= self.bar * spread and margin / spread > best_margin:
                best, best_margin = a, margin / spread
        if best != prior and self.confirm and not self._confirmed(world, weigh, seat, prior, best):
            best = prior
        self.overruled += best != prior
        return best

    def _confirmed(self, world: World, weigh: Weigh | None, seat: int, prior: int, best: int) -> bool:
        """An overrule about to be made, played again on `confirm` fresh samples (paired as before): it stands only
        if it did better in more of them than it did worse. The samples that chose it are no fair measure of it:
        of several candidates and early stops, the luckiest clears the bar most often."""
        base: list[float] = []
        fresh: list[float] = []
        for _ in range(self.confirm):
            sample_seed = self.rng.getrandbits(64)
            rollout_seed = self.rng.getrandbits(64)
            base.append(self._play_out(world.sample(random.Random(sample_seed), weigh), seat, prior, rollout_seed))
            fresh.append(self._play_out(world.sample(random.Random(sample_seed), weigh), seat, best, rollout_seed))
        return self._margin(fresh, base)[0] > 0

    def _ranked(self, obs: Observation, actions: Sequence[Descriptor], kind: str, others: list[int]) -> list[int]:
        """`others` (every legal action but the guide's answer), the guide's next-best answers first: at a send, by
        its value of sending each card (its plan less what the card is worth kept); at an ↑ target, by its value of
        the card reaching each seat. Ties, and after them the options it gives no value (a skill, a use; every
        option of the other kinds), in an order drawn from the search's generator (as the guide breaks its ties).
        Reads only what its guide worked out from this seat's observations, and draws nothing from the guide's
        generator: the guide's answers stay those of a heuristic bot in its seat."""
        values = self._guide_values(obs, actions, kind)
        draw = self.rng.random
        valued = [a for _, _, a in sorted((-values[a], draw(), a) for a in others if a in values)]
        rest = [a for a in others if a not in values]
        self.rng.shuffle(rest)
        return valued + rest

    def _guide_values(self, obs: Observation, actions: Sequence[Descriptor], kind: str) -> dict[int, float]:
        """Action id -> the guide's value of it, for the options it values at a send or an ↑ target ({} else)."""
        guide = self.guide
        if kind == "send":
            plans = guide._plans  # (the plan of each option, made by the guide's answer to this very decision)
            if len(plans) != len(actions):
                return {}
            return {
                int(d["id"]): plan[0] - guide._kept(d["card"])
                for d, plan in zip(actions, plans, strict=True)
                if plan is not None
            }
        if kind != "send_target":
            return {}
        t, me = obs["transit"], obs["seat"]
        if t is not None:  # an intel on its way, sent on by an effect: as its guide, by the seat it reaches
            if t["card"] is None:
                return {}
            colors = tuple(t["card"]["colors"])
            return {int(d["id"]): guide._benefit(obs, d["seat"], colors) for d in actions if d["kind"] == "seat"}
        # its own send: the card is the option its own last send record chose
        history = obs["history"]
        choice = next((r["choice"] for r in reversed(history) if r.get("d") == "send" and r.get("seat") == me), None)
        card = self._sent[choice] if choice is not None and 0 <= choice < len(self._sent) else None
        if card is None:
            return {}
        colors, lockable = tuple(card["colors"]), bool(card.get("lockable"))
        back = guide._benefit(obs, me, colors)  # (refused, an ↑ intel comes back to its sender, who must take it)
        values: dict[int, float] = {}
        for d in actions:
            if d["kind"] == "seat":
                s = int(d["seat"])
                b, rate = guide._benefit(obs, s, colors), guide.memory.accepts(s)
                # as the guide's plan: taken at the seat's rate of accepting, or surely when locked
                values[int(d["id"])] = (
                    max(rate * b + (1 - rate) * back, b) if lockable else rate * b + (1 - rate) * back
                )
        return values

    @staticmethod
    def _margin(results: list[float], base: list[float]) -> tuple[float, float, int]:
        """Over the samples both were played in: (the sum of the differences to the guide's answer, the root of
        the sum of their squares, how many differ). With results 0 and 1, the first is the number of samples it
        did better in less those it did worse in, and margin / spread is the sign test's statistic."""
        d = [x - y for x, y in zip(results, base, strict=False) if x != y]
        return sum(d), math.sqrt(sum(x * x for x in d)), len(d)

    def _leans(self, obs: Observation) -> dict[int, float]:
        """Per other seat whose identity it has not seen: red minus blue intel that seat accepted by choice, as
        its guide counted them from what this seat saw (the guide has just read this observation)."""
        known = obs["known_identities"]
        return {
            s: v
            for s, v in self.guide.memory.lean.items()  # (its own guide's memory)
            if s != obs["seat"] and str(s) not in known and v
        }

    def _allowed(self, obs: Observation) -> dict[int, frozenset[str]]:
        """Per other seat whose identity it has not seen: the identity colours this seat's own probes left it (the
        guide's reading of the answers, from what this seat saw)."""
        known = obs["known_identities"]
        return {s: c for s, c in self.guide.memory.probes.allowed.items() if s != obs["seat"] and str(s) not in known}

    def _weigh(self, lean: dict[int, float], allowed: dict[int, frozenset[str]]) -> Weigh | None:
        """Its belief about the identities it has not seen, for its World to deal samples by (World.sample's
        `weigh`): a deal is kept with the probability exp(lean_weight * (lean * side - |lean|)) summed over the
        seats that leant (side +1 for a red identity, -1 for blue, 0 without a camp), and never when it gives a
        seat an identity colour this seat's probes ruled out (`allowed`). None when it has nothing to weigh by."""
        if not lean and not allowed:
            return None
        camps, colours, strength = self.guide.camps, self.guide.memory.identity_colors, self.lean_weight
        lean, allowed = dict(lean), dict(allowed)  # (its own copies: the World re-plays a sample with this function)

        def weigh(deal: dict[int, str]) -> float:
            for s, fits in allowed.items():
                ident = deal.get(s)
                if ident is not None and colours.get(ident) not in fits:
                    return 0.0
            weight = 0.0
            for s, v in lean.items():
                ident = deal.get(s)
                camp = camps.get(ident) if ident is not None else None
                side = 1 if camp == "red" else -1 if camp == "blue" else 0
                weight += strength * (v * side - abs(v))
            return math.exp(weight)

        return weigh

    def _play_out(self, state: GameState, seat: int, action: int, rollout_seed: int) -> float:
        """The result of `action` in a sample, the rest played by heuristic bots seeded from `rollout_seed`: the
        game's end, 1 (a win), 0 (a loss) or ½, or, with a horizon, the evaluation of the position HORIZON turns
        on (a win or a loss before: ±WIN_VALUE)."""
        game = state._game  # (the sample's own deal: identities, intel counts)
        identity = game.players[seat].identity
        camp = self.guide.camps.get(identity.id) if identity is not None else None
        stop = game.turn_no + self.horizon if self.horizon and camp is not None else None
        try:
            state.apply_action(action)
            bots: dict[int, HeuristicAgent] = {}
            r = random.Random(rollout_seed)
            seeds = [r.getrandbits(64) for _ in range(state.n_players)]
            while not state.is_terminal():
                if stop is not None and camp is not None and game.turn_no >= stop:
                    return self._evaluate(game, camp)
                s = state.current_player()
                bot = bots.get(s)
                if bot is None:
                    bot = bots[s] = HeuristicAgent(seeds[s], self.hints)
                state.apply_action(bot.act(state.observation(s), state.action_descriptors()))
        except EngineError:
            self.failed += 1
            return 0.5 if stop is None else 0.0
        finally:
            state.close()  # (a sample left a few turns on keeps its whole game otherwise)
        returns = state.returns()
        if stop is not None:
            return 0.0 if not any(returns) else (WIN_VALUE if returns[seat] > 0 else -WIN_VALUE)
        return 0.5 if not any(returns) else (1.0 if returns[seat] > 0 else 0.0)

    def _evaluate(self, game: Game, camp: str) -> float:
        """A position for a seat of the camp collecting `camp`, with every identity known (a sample's): its camp's
        intel of its colour, the other camp's of theirs (PROGRESS by count), blacks (BLACKS by count) and deaths
        (DEAD) — good on its side, bad on the other; seats without a camp do not count."""
        value = 0.0
        for p in game.players:
            other = self.guide.camps.get(p.identity.id) if p.identity is not None else None
            if other is None:
                continue
            side = 1.0 if other == camp else -1.0
            if not p.alive:
                value -= side * DEAD
                continue
            own = p.counts[RED_BIT] if other == "red" else p.counts[BLUE_BIT]
            value += side * (PROGRESS[min(own, 2)] - BLACKS[min(p.counts[BLACK_BIT], 2)])
        return value
