"""A heuristic bot: plays to its identity from its seat's observation and what it has seen.

It reads nothing but its two arguments (the observation and the legal action descriptors) and keeps its own memory
between calls (memory.py: the part of its history it has already read, how each seat has behaved, the odds of each
seat's camp); this module makes its choices from it, by rules of thumb for each decision (receive, send, contest,
play phase, role skills, targets, yes/no, a card out of an intel area; anything else at random). It is seeded, so the
same observations give the same answers. docs/bots.md ("The heuristic bot") has the table of its rules and every rule
tried, kept or not, with its figures; the numbers below say where each is measured.

It knows a card, a skill or a secret task only by the content's `bot:` hint (catalogue.BOT_CARD_TACTICS,
BOT_SKILL_TACTICS and BOT_TASK_STYLES: hints.py) and an identity by its camp colour (the rules' own): no card, task
or identity is named here, and a fork's new card or skill is played by its hint; one without gets the generic
treatment (played now and then, targets at random). A 神秘人's task styles are played in tasks.py, the small
choices inside an effect in choices.py; what an intel is worth in front of each seat (the values every choice that
moves one weighs) in valuation.py, its base class.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .base import Descriptor, Observation, mypyc_attr
from .choices import (
    at_stake,
    best_beside,
    best_seat,
    card_into_intel,
    decode_first,
    from_intel,
    neighbours,
    not_of,
    now_and_then,
    option_into_intel,
    pending_colors,
    pick_for_itself,
    swap_card,
    way_of,
)
from .hints import (
    BALANCE,
    CLEAR,
    COUNTER,
    GIVE_TO,
    GRAB,
    GRAB_SKILL,
    HARMFUL,
    HARMFUL_SKILL,
    HELPFUL,
    HELPFUL_SKILL,
    INTEL_CARD,
    INTEL_TO,
    KNOWN,
    LURE,
    MISLEAD,
    PICK_BEST,
    PROBE,
    SAVE_SKILL,
    SEND_SKILL,
    SWAP,
    THREATEN,
    Hints,
    hints_of,
)
from .tasks import death_wins, lures_itself
from .valuation import Valuation

# (Final: compiled, read where used, not looked up in the module's dict: hints.py)
ACCEPT_HIDDEN: Final = 1.0  # the chance to accept a hidden intel (with fewer than two blacks)
SEND_INSTEAD: Final = 0.5  # a `send` skill replaces the send when no hand card's plan is worth more than this
KEEP_OWN_COLOUR: Final = (THREATEN, PROBE, BALANCE)  # play-phase cards a bot with a camp keeps in its camp's colour
MISLEAD_GAIN: Final = 1.0  # a visible intel misled when a neighbour of the holder gains this much more from it
HIDDEN_GUARD: Final = 0.3  # a hidden intel: grab (swap) it when worth this much more to itself (this much harm there)
# a visible intel worth more than 0.5 to itself: grabbed when worth this much more to itself than where it is (10
# players, seeds 20-29: better 100 / worse 38 against "where it is worth less than 0.5"; a margin of 0 played the same)
GRAB_GAIN: Final = 0.3
# a contest card (grab, mislead, swap: its one answer to an intel on its way) is worth this much less sent as an intel
# than its plan (2-10 players, seeds 20-29: its seats won more at each size measured; docs/bots.md)
KEEP_CONTEST: Final = 0.5
CONTEST: Final = (GRAB, MISLEAD, SWAP)
# a `counter` card or skill answers a card use (its nullify() voids it) when the use's taking effect is worth less than
# minus this to the bot's side (its worth: _use_worth); else it passes, keeping the card
COUNTER_MARGIN: Final = 0.3


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # (as Agent, base.py)
class HeuristicAgent(Valuation):
    observes = True
    # The observation's fields it reads (here, in agents/memory.py and agents/choices.py): the driver makes only
    # these (Agent.observation_fields). A subclass that reads another sets its own (or None: every field).
    observation_fields: frozenset[str] | None = frozenset(
        ("seat", "players", "phase", "current", "transit", "me", "known_identities", "history", "decision", "discard")
    )

    def __init__(self, seed: int, hints: Hints | None = None) -> None:
        """`hints`: the content's (hints_of(content)); default: the bundled game's."""
        self.rng = random.Random(seed)
        h = hints if hints is not None else hints_of()
        super().__init__(h)  # (its memory, and the values kept per observation: valuation.py)
        self.tactics, self.skill_tactics = h.tactics, h.skills
        self.intel_options, self.choices = h.intel_options, h.choices
        self._played = frozenset(k for k, t in self.tactics.items() if t in KNOWN)  # card kinds with a play rule
        # ... outside `respond`, where a `counter` card's rule (_answer) has nothing to answer: its other uses (one
        # at the play phase …) are no rule's, and are used now and then as any such use is
        self._played_idle = frozenset(k for k in self._played if self.tactics[k] != COUNTER)
        self._answering = False  # the question now names a card use it would answer (`respond`)
        # (the card use answered, a `counter` skill) it answered so since the idle point began: a skill is used once a
        # use, for one that leaves the use standing (no limit, no nullify) would be offered and taken for ever
        self._countered: set[tuple[Any, str]] = set()
        self._plan: tuple[float, int | None, int | None] | None = None  # its send: (value, ↑ target, lock)
        self._plans: list[tuple[float, int | None, int | None] | None] = []  # the plan of each send option
        self._skill = ""  # the tactic of the skill it is using: its seat choices (asked with no source) follow it
        self._chosen: tuple[str, tuple[str, ...]] | None = None  # its last answer's card: (what asked, its colours)

    def _remember(self, obs: Observation) -> None:
        """Its memory reads what is new; the card it sent (the log's record of its send, which a search bot may
        have overruled) takes up the plan made for that card."""
        i = self.memory.read(obs)
        if i is not None:
            self._plan = self._plans[i] if 0 <= i < len(self._plans) else None
        self._values_of = None  # (what it has just read may change what _keep kept)

    # ------------------------------------------------------------------ decisions

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        # Its own plain copies of the top level and of the descriptors (made afresh for each decision; what they
        # hold stays the shared read-only parts): a FrozenDict is a Python subclass of dict, whose lookups go
        # through Python's generic slot, about 190 instructions more a read than a plain dict's, pure or compiled;
        # the bot reads the top level some 40 times a decision, each descriptor several times. The descriptors
        # first, walked several times as one tuple (the engine's ActionList makes the plain copies directly), their
        # number read from it too (an ActionList's len() is a Python call).
        copies = getattr(actions, "copies", None)
        actions = copies() if copies is not None else tuple([dict(d) for d in actions])
        if not actions:
            raise ValueError("no legal action to choose from")
        assert observation is not None
        obs = dict(observation)
        self._remember(obs)
        decision = obs["decision"]
        # what asks (the skill resolving, else the card kind or skill; "": the rules), and the colours of the card its
        # answer before chose in the same effect (a choice of one card is not asked: the one before may be elsewhere)
        asking: str = (decision.get("skill") or decision.get("source") or "") if decision is not None else ""
        last, self._chosen = self._chosen, None
        chosen = last[1] if last is not None and asking and last[0] == asking else None
        if len(actions) == 1:
            return int(actions[0]["id"])
        self._keep(obs)  # (this decision's state: its camp's colour, its task's style, values kept as worked out)
        kind = decision["kind"] if decision is not None else ""
        source = decision["source"] if decision is not None else ""
        tactic = self.tactics.get(source or "", "")
        # (a choice inside an effect: what the effect does with its answer, hints.choice_roles; "" if nothing known)
        use = self.choices.get((asking, decision["prompt"]), "") if kind == "choose" else ""
        kinds = {d["kind"] for d in actions}
        choice: Descriptor | None = None
        if kind in ("play", "send", "receive"):  # a new idle point: whatever skill it was using has resolved
            self._skill = ""
        # (a question at `respond` names the card use it would answer: answered by a `counter` card or skill or not)
        answering = decision.get("answering") if kind == "play" else None
        self._answering = bool(answering)
        if answering:
            choice = self._answer(obs, actions, answering)
        elif kind in ("play", "send", "receive") and self._countered:
            self._countered.clear()
        if choice is None and "skill" in kinds and kind != "send":
            choice = self._hinted_skill(obs, actions)
        if choice is not None:
            pass
        elif kind == "receive":
            choice = self._receive(obs, actions)
        elif kind == "send" and ("card" in kinds or "skill" in kinds):
            choice = self._send(obs, actions)
        elif kind == "send_target" or (kind == "lock" and "seat" in kinds):
            choice = self._send_seat(obs, actions, kind)
        elif kind == "play":
            choice = self._play(obs, actions)
        elif kind == "death_give_target":  # (the rules' own give: a dying seat's hand, to whom)
            choice = self._choice_for(obs, actions, GIVE_TO, None)
        elif use in (GIVE_TO, INTEL_TO) and "seat" in kinds:  # (what the effect does with the answer: hints.py)
            choice = self._choice_for(obs, actions, use, chosen)
        elif kind == "target" and "seat" in kinds:
            choice = self._target(obs, actions, tactic)
        elif not source and self._skill in (HELPFUL_SKILL, HARMFUL_SKILL) and "seat" in kinds:
            choice = self._target(obs, actions, self._skill)  # a choice inside the effect of its own skill
        elif kind == "confirm" and "yes" in kinds:
            self._skill = self.skill_tactics.get(source or "", "")  # (a triggered skill's ask names the skill)
            choice = next(d for d in actions if d["kind"] == "yes")
        elif tactic == SWAP and "card" in kinds:
            choice = swap_card(obs, actions, self._benefit)
        elif kind == "choose" and "card" in kinds and (picked := from_intel(obs, actions, self._kept_worth, self.rng)):
            choice = picked  # a card out of an intel area: the one worth least there (choices.py)
        elif use == INTEL_CARD and "card" in kinds:
            choice = card_into_intel(obs, actions, self._benefit)  # (choices.py)
        elif tactic == PICK_BEST and "card" in kinds:
            choice = pick_for_itself(obs, actions, self._value_to, self._kept)
        elif kind == "option" and chosen and (into := self.intel_options.get(asking)):
            choice = option_into_intel(actions, into, self._value_to(obs, obs["seat"], chosen) > 0)
        if choice is None:
            choice = actions[self.rng.randrange(len(actions))]
        if asking and choice["kind"] == "card":  # (read only by a later answer in the same effect: not the rules')
            self._chosen = (asking, tuple(choice["card"]["colors"]))
        return int(choice["id"])

    def _hinted_skill(self, obs: Observation, actions: Sequence[Descriptor]) -> Descriptor | None:
        """A skill offered whose `bot:` tactic says take it now (BOT_SKILL_TACTICS; `send` is the send's own)."""
        me = obs["seat"]
        for d in actions:
            tactic = self.skill_tactics.get(d["skill"], "") if d["kind"] == "skill" else ""
            if not tactic or tactic in (SEND_SKILL, GRAB_SKILL, COUNTER):  # (the send's own; a grab where a grab card
                # goes; a counter where a counter card goes: _answer)
                continue
            if tactic == SAVE_SKILL:
                take = bool(obs["players"][me]["dying"])
            elif "skill:" + d["skill"] in self.memory.used:  # once a turn: one that is not limited must not loop
                take = False
            elif tactic == HARMFUL_SKILL:
                take = any(
                    p["alive"] and self.memory.friend(obs, p["seat"]) < 0 for p in obs["players"] if p["seat"] != me
                )
            elif tactic == HELPFUL_SKILL:
                take = any(
                    p["alive"] and self.memory.friend(obs, p["seat"]) > 0 for p in obs["players"] if p["seat"] != me
                )
            else:  # gain
                take = True
            if take:
                self._skill = tactic
                return d
        return None

    def _answer(
        self, obs: Observation, actions: Sequence[Descriptor], answering: Sequence[Mapping[str, Any]]
    ) -> Descriptor | None:
        """At `respond`: a `counter` card or skill offered (the first) when the card use it would answer (the
        decision's `answering`) is worth less than -COUNTER_MARGIN to the bot's side taking effect; else None (it
        passes, unless another rule takes something else offered)."""
        counter = None
        # (which use: its chain, and where its card_used record is, the latest like it, in the history: a second use
        # of the same card by the same seat at the same target, the bot asked nothing else between, is another)
        chain = tuple((u["seat"], u["card"], u["target"]) for u in answering)
        use = (chain, _latest_use(obs["history"], chain[0]) if chain else -1)
        for d in actions:
            kind = d["kind"]
            if (kind == "use" and self.tactics.get(d["as"]) == COUNTER) or (
                kind == "skill"
                and self.skill_tactics.get(d["skill"]) == COUNTER
                and (use, d["skill"]) not in self._countered
            ):
                counter = d
                break
        if counter is None or self._use_worth(obs, answering, 0) >= -COUNTER_MARGIN:
            return None
        if counter["kind"] == "skill":
            self._countered.add((use, counter["skill"]))
        return counter

    def _use_worth(self, obs: Observation, chain: Sequence[Mapping[str, Any]], i: int) -> float:
        """What the card use chain[i] taking effect is worth to the bot's side, by its kind's tactic: a card that hurts
        its target (HARMFUL), minus how friendly the target is (1: itself); one that helps it (HELPFUL), plus that; a
        `lure`, a face-down intel into the target's intel area (its average worth there); a `grab` or a `mislead`, the
        pending intel moved to its user or its target from its holder; a `counter`, minus the worth of the use it
        answers (chain[i + 1]: voided); any other, nothing known (0)."""
        use = chain[i]
        tactic = self.tactics.get(use["card"], "")
        target: int | None = use["target"]
        if tactic == COUNTER:
            return -self._use_worth(obs, chain, i + 1) if i + 1 < len(chain) else 0.0
        if tactic in HARMFUL:
            return -self.memory.friend(obs, target) if target is not None else 0.0
        if tactic in HELPFUL:
            return self.memory.friend(obs, target) if target is not None else 0.0
        if tactic == LURE:
            return self._hidden_benefit(obs, target) if target is not None else 0.0
        if tactic in (GRAB, MISLEAD):
            t = obs["transit"]
            holder: int | None = t["holder"] if t is not None else None
            to: int | None = use["seat"] if tactic == GRAB else target
            if holder is None or to is None or to == holder:
                return 0.0
            colors = pending_colors(obs)
            if colors is None:
                return self._hidden_benefit(obs, to) - self._hidden_benefit(obs, holder)
            return self._benefit(obs, to, colors) - self._benefit(obs, holder, colors)
        return 0.0

    def _choice_for(
        self, obs: Observation, actions: Sequence[Descriptor], use: str, chosen: tuple[str, ...] | None
    ) -> Descriptor | None:
        """A seat chosen inside an effect, answered by what the effect does with it (hints.choice_roles): the seat given
        cards, the likeliest camp-mate; the seat whose intel area takes the card its last answer in the effect chose,
        where that card does most good (none known: None)."""
        me = obs["seat"]
        if use == GIVE_TO:
            return best_seat(actions, lambda s: self.memory.friend(obs, s) if s != me else -2, self.rng)
        if use == INTEL_TO and chosen:
            colors = chosen
            return best_seat(actions, lambda s: self._benefit(obs, s, colors), self.rng)
        return None

    def _now_and_then(self, actions: Sequence[Descriptor]) -> Descriptor | None:
        played = self._played if self._answering else self._played_idle
        return now_and_then(actions, played, self.skill_tactics, self.rng)

    def _receive(self, obs: Observation, actions: Sequence[Descriptor]) -> Descriptor | None:
        by_kind = {d["kind"]: d for d in actions}
        colors = pending_colors(obs)
        # (a `decode` card first where what it shows changes the answer: choices.py)
        if colors is None and (decode := decode_first(obs, actions, self.tactics, self._mine)) is not None:
            return decode
        other = self._now_and_then(actions)  # now and then, a use offered before it answers
        if other is not None:
            return other
        if "accept" not in by_kind or "decline" not in by_kind:
            return by_kind.get("accept") or by_kind.get("decline")
        if colors is not None:
            v = self._value_to(obs, obs["seat"], colors)
            return by_kind["accept"] if v > 0 else by_kind["decline"]
        counts = obs["players"][obs["seat"]]["intel_counts"]
        good = self._mine
        if good is not None and counts[good] >= 2:  # one of its colour wins at once, even as a third black: the
            return by_kind["accept"]  # collect check comes before dying, and its camp wins with it dead or alive
        if counts["black"] >= 2 and not death_wins(self._style, counts):  # (unless its death wins: tasks.py)
            return by_kind["decline"]
        return by_kind["accept"] if self.rng.random() < ACCEPT_HIDDEN else by_kind["decline"]

    def _send_plan(
        self, obs: Observation, card: Mapping[str, Any], others: list[int]
    ) -> tuple[float, int | None, int | None]:
        """The best way to send `card`: (its value, the ↑ target, the seat to lock or None). Kept per observation by
        the card's colours, direction and lock (a hand holds several cards alike)."""
        if obs is not self._values_of:
            self._keep(obs)
        colors, direction, lockable = card["colors"], card["direction"], bool(card.get("lockable"))
        if type(colors) is not tuple:
            return self._work_out_plan(obs, colors, direction, lockable, others)
        plan = self._plan_of.get((colors, direction, lockable))
        if plan is None:
            plan = self._plan_of[(colors, direction, lockable)] = self._work_out_plan(
                obs, colors, direction, lockable, others
            )
        return plan

    def _work_out_plan(
        self, obs: Observation, colors: Sequence[str], direction: str, lockable: bool, others: list[int]
    ) -> tuple[float, int | None, int | None]:
        """Each ↑ target and lock valued: an intel sent is worth, to this bot's side, what it is worth to each seat on
        its way that takes it, each at its `accepts` rate (a locked seat surely), and one that nobody takes comes
        back to the sender, who must take it (an ↑ intel its target refuses comes straight back). `others`: the
        other living seats. One walk of a way values every lock on it: a locked seat's walk is the unlocked one up to
        that seat, which then surely takes the intel (value + left × 1.0 × b, the same float as value + left × b);
        nobody after it is left to take it (the steps after add only zeros, which change no comparison)."""
        benefit, paths = self._benefit, self._paths
        back = benefit(obs, obs["seat"], colors)
        best: tuple[float, int | None, int | None] | None = None  # (the first of the best, as max() keeps it)
        for target in others if direction == "up" else [None]:
            way = paths.get((direction, target))
            if way is None:  # (kept per observation: the plans of every card go the same ways)
                way = paths[(direction, target)] = [(s, self.memory.accepts(s)) for s in way_of(obs, direction, target)]
            left, value = 1.0, 0.0
            locked: dict[int, float] = {}  # seat on the way -> the worth of the intel sent locking it
            for s, rate in way:
                b = benefit(obs, s, colors)
                if lockable:
                    locked[s] = value + left * b
                value += left * rate * b
                left *= 1 - rate
            worth = value + left * back
            if best is None or worth > best[0]:
                best = (worth, target, None)
            for lock in ([target] if target is not None else others) if lockable else ():  # (↑: its target)
                w = locked.get(lock, worth)  # (a seat off the way: as unlocked)
                if w > best[0]:
                    best = (w, target, lock)
        return best if best is not None else (0.0, None, None)

    def _send(self, obs: Observation, actions: Sequence[Descriptor]) -> Descriptor | None:
        # its ↑ target and lock are asked next, before the intel is on its way: it keeps the plan of each
        # option, and takes up the one of the option its seat chose (the log's record of the answer)
        me = obs["seat"]
        others = [p["seat"] for p in obs["players"] if p["alive"] and p["seat"] != me]  # (for every card's plan)
        self._plans = [self._send_plan(obs, d["card"], others) if d["kind"] == "card" else None for d in actions]
        options = [
            (plan[0] - self._kept(actions[i]["card"]), self.rng.random(), i)
            for i, plan in enumerate(self._plans)
            if plan is not None
        ]
        best = max(options) if options else None
        if best is None or best[0] <= SEND_INSTEAD:  # no hand card worth sending: a skill that sends otherwise
            for d in actions:
                if d["kind"] == "skill" and self.skill_tactics.get(d["skill"]) == SEND_SKILL:
                    self._plan, self._skill = None, SEND_SKILL
                    return d
        other = self._now_and_then(actions)  # a card no rule covers (one sending an intel of its own instead) is
        if other is not None and other["kind"] == "use" and best is not None and best[0] > SEND_INSTEAD:
            other = None  # used, as a `send` skill, only when no hand card is worth sending (7-10 players +92 won)
        if other is not None or best is None:
            self._plan = None
            return other
        self._plan = self._plans[best[2]]
        return actions[best[2]]

    def _kept(self, card: Mapping[str, Any]) -> float:
        """What a hand card is worth kept rather than sent as an intel: KEEP_CONTEST for a contest card (its one
        answer to an intel on its way), else nothing."""
        return KEEP_CONTEST if self.tactics.get(card.get("card") or "", "") in CONTEST else 0.0

    def _send_seat(self, obs: Observation, actions: Sequence[Descriptor], kind: str) -> Descriptor | None:
        t = obs["transit"]
        if t is None and self._plan is not None:  # its own send: the target and the lock it planned
            want = self._plan[1] if kind == "send_target" else self._plan[2]
            for d in actions:
                if (d["kind"] == "seat" and d["seat"] == want) or (d["kind"] == "none" and want is None):
                    return d
            return None
        colors = t["card"]["colors"] if t is not None and t["card"] is not None else None
        if colors is None:
            return None
        seats = [d for d in actions if d["kind"] == "seat"]
        best = max(seats, key=lambda d: (self._benefit(obs, d["seat"], colors), self.rng.random()))
        if kind == "lock" and self._benefit(obs, best["seat"], colors) <= 0.3:
            return next((d for d in actions if d["kind"] == "none"), None)
        return best

    def _target(self, obs: Observation, actions: Sequence[Descriptor], source: str) -> Descriptor | None:
        """A target for a card whose tactic is `source`."""
        me = obs["seat"]
        if source in HELPFUL:

            def helped(s: int) -> float:
                p = obs["players"][s]
                blacks: int = p["intel_counts"]["black"]
                return self.memory.friend(obs, s) * (1 + blacks) + (5.0 if p["dying"] else 0.0)

            return best_seat(actions, helped, self.rng)
        if source == PROBE:

            def unknown(s: int) -> float:  # the seat it knows least, the one nearer to three of a colour first
                counts = obs["players"][s]["intel_counts"]
                return -abs(self.memory.friend(obs, s)) + 0.2 * max(counts["red"], counts["blue"]) if s != me else -9

            return best_seat(actions, unknown, self.rng)
        if source == LURE:
            return best_seat(actions, lambda s: 1 if s == me else -1, self.rng)
        if source == MISLEAD:  # where the pending intel does most good
            colors = pending_colors(obs)
            if colors is None:
                return best_seat(actions, lambda s: self._hidden_benefit(obs, s), self.rng)
            return best_seat(actions, lambda s: self._benefit(obs, s, colors), self.rng)
        if source in HARMFUL:

            def hurt(s: int) -> float:
                return -self.memory.friend(obs, s) + 0.1 * obs["players"][s]["hand_count"] if s != me else -9

            return best_seat(actions, hurt, self.rng)
        return None

    def _swap_in(
        self, obs: Observation, holder: int, colors: tuple[str, ...] | None, swaps: Sequence[Descriptor]
    ) -> Descriptor | None:
        """A ``swap`` card puts itself, face down, in place of the pending intel, and the bot knows its colours: the
        one that does most good in front of the holder, if that is HIDDEN_GUARD more than the intel there (seen, or
        valued on average when face down). The holder may be the bot itself: a card of its colour swapped in for the
        face-down intel it is taking is the one way it has to choose what it collects (docs/bots.md, large tables)."""
        if colors is None and holder != obs["seat"] and not at_stake(obs, holder, self._mine, self._style):
            return None  # (a contest card kept for an intel that may decide the game)
        here = self._benefit(obs, holder, colors) if colors is not None else self._hidden_benefit(obs, holder)
        there, best = max(
            ((self._benefit(obs, holder, tuple(d["card"]["colors"])), d) for d in swaps), key=lambda vd: vd[0]
        )
        return best if there - here > HIDDEN_GUARD else None

    def _play(self, obs: Observation, actions: Sequence[Descriptor]) -> Descriptor | None:
        me = obs["seat"]
        uses: dict[str, Descriptor] = {}  # tactic -> the first use of a card with it
        swaps: list[Descriptor] = []  # the uses of `swap` cards, in order
        passing: Descriptor | None = None  # the first pass
        tactics = self.tactics
        for d in actions:  # (one walk: most play windows offer a pass and a few uses)
            kind = d["kind"]
            if kind == "use":
                tactic = tactics.get(d["as"], "")
                uses.setdefault(tactic, d)
                if tactic == SWAP:
                    swaps.append(d)
            elif kind == "skill" and self.skill_tactics.get(d["skill"]) == GRAB_SKILL:
                uses.setdefault(GRAB, d)  # a skill that takes the intel: used where a grab card would be
            elif kind == "pass" and passing is None:
                passing = d
        for tactic in (THREATEN, PROBE, BALANCE, LURE) if self.memory.used else ():  # a play-phase card at most once
            once = uses.get(tactic)  # a turn of each kind (one nullified again and again, drawing its user a card each
            if once is not None and once["as"] in self.memory.used:  # time, looped); nothing used yet: none
                del uses[tactic]
        t = obs["transit"]
        pending = t is not None and t["pending"]
        colors = pending_colors(obs)
        uses.pop(SWAP, None)  # (a swap is chosen by the card it puts in place: _swap_in)
        if pending and t is not None and t["holder"] is not None and swaps:
            swap = self._swap_in(obs, t["holder"], colors, swaps)
            if swap is not None:
                return swap
        # (the pending intel's worth is read only by a grab or a mislead offered: most play windows offer neither)
        moves = GRAB in uses or MISLEAD in uses
        if pending and colors is not None and t is not None and t["holder"] is not None:
            holder = t["holder"]
            here = self._benefit(obs, holder, colors) if moves else 0.0
            if GRAB in uses and holder != me:  # worth having, and more with itself than where it is (docs/bots.md)
                own = self._value_to(obs, me, colors)
                if own > 0.5 and own - here > GRAB_GAIN:
                    return uses[GRAB]
            if MISLEAD in uses and (
                here < -0.5 or best_beside(obs, holder, colors, self._benefit) - here > MISLEAD_GAIN
            ):
                return uses[MISLEAD]  # bad where it is, or far better in front of a neighbour of the holder
        elif (
            pending
            and t is not None
            and t["holder"] not in (None, me)
            and at_stake(obs, t["holder"], self._mine, self._style)
        ):
            holder = t["holder"]  # a hidden intel that may decide the game: its likely worth
            here = self._hidden_benefit(obs, holder) if moves else 0.0
            if GRAB in uses and self._hidden_benefit(obs, me) - here > HIDDEN_GUARD:
                return uses[GRAB]
            beside = neighbours(obs, holder) if MISLEAD in uses and here < -HIDDEN_GUARD else []
            if any(self._hidden_benefit(obs, s) - here > HIDDEN_GUARD for s in beside):  # where it does less harm
                return uses[MISLEAD]
        if CLEAR in uses:
            for p in obs["players"]:
                friendly = p["alive"] and p["intel_counts"]["black"] > 0 and self.memory.friend(obs, p["seat"]) > 0.3
                if p["seat"] == me and death_wins(self._style, p["intel_counts"]):  # (its death wins now)
                    friendly = False
                if friendly and (p["dying"] or not pending):
                    return uses[CLEAR]
        if obs["phase"] == "play" and not pending:
            enemies = [
                p for p in obs["players"] if p["alive"] and p["seat"] != me and self.memory.friend(obs, p["seat"]) < 0
            ]
            mine = obs["players"][me]
            color = self._mine
            alive = sum(1 for p in obs["players"] if p["alive"])
            if color is not None and alive > 2:  # a card of its colour kept to send (not with one other seat left)
                for tactic in KEEP_OWN_COLOUR:
                    card = uses[tactic].get("card") if tactic in uses else None
                    if card is not None and color in card["colors"]:  # kept: another copy of it, if any, is used
                        other = not_of(actions, self.tactics, tactic, color)
                        if other is None:
                            del uses[tactic]
                        else:
                            uses[tactic] = other
            if THREATEN in uses and any(p["hand_count"] >= 2 for p in enemies):
                return uses[THREATEN]
            if PROBE in uses:
                return uses[PROBE]
            if BALANCE in uses and mine["hand_count"] <= 2 and any(p["hand_count"] >= 4 for p in enemies):
                return uses[BALANCE]
            # the deck's top card into its own intel while it holds no black: a card of its colour a third of the
            # time, the intel a large table gives it little of; not with one other seat left (whose sends all come
            # to it anyway, and a black drawn brings its death nearer: 2 players 949 -> 934 won with it)
            counts = mine["intel_counts"]  # (a bot without a camp: as its task's style says, tasks.py)
            lures = counts["black"] == 0 if color is not None else lures_itself(self._style, counts)
            if LURE in uses and lures and alive > 2:
                return uses[LURE]
        return self._now_and_then(actions) or passing


def _latest_use(history: Sequence[Mapping[str, Any]], use: tuple[Any, Any, Any]) -> int:
    """Where the latest card_used record of `use` (its user's seat, the card, the target) is in `history`; -1 if
    none is (the use was not heard)."""
    seat, card, target = use
    for i in range(len(history) - 1, -1, -1):
        r = history[i]
        if r.get("e") == "card_used" and r.get("seat") == seat and r.get("card") == card and r.get("target") == target:
            return i
    return -1
