"""The scripted agent: answers from a list, for scenarios, examples, replays and tests.

One class serves every script. An answer is a position in the offered actions
(an int), a written form (a label, a card name, a seat "P2", yes/no …; see
agents.matching), or a predicate over action descriptors. It is strict: a
decision the script has no answer for, or an answer that is not legal, raises
ScriptExhausted (unless a ``fallback`` agent takes over once the script is used
up), saying where the answer came from when the script knows (``locate``). It
records what it was asked (``asked``: the labels offered at each decision), so
a test or a scenario can check what the seat was offered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.decisions import option_matches
from ..suggest import closest
from .base import Agent, Descriptor, Observation
from .matching import find, forms

_NUMBER = re.compile(r"[#Pp]?\d+")


def _hint(answer: object, actions: Sequence[Descriptor]) -> str | None:
    """For an answer that names no option, the written form of an option it is a slip of, if one is close: a name
    after `use` or `skill` is compared with the names after the same word (the word alone would make any two uses
    look alike). None for a number, a deck id or a seat (#135, P7: one close in spelling is no likelier than
    another, and the options listed say which there are)."""
    if not isinstance(answer, str):
        return None
    verb, name = "", answer.strip()
    if name.startswith(("use ", "skill ")):
        verb, name = name.split(None, 1)[0] + " ", name.split(None, 1)[1].strip()
    if _NUMBER.fullmatch(name):
        return None
    written = [w for d in actions for w in (d["label"], *forms(d))]
    close = closest(name, [w[len(verb) :].strip() for w in written if w.startswith(verb)])
    return verb + close[0] if close else None


class ScriptExhausted(Exception):
    """The game asked a decision the script has no answer for, or the answer is not legal."""


class ScriptedAgent(Agent):
    """Answers from a list, strictly, recording every decision it is asked.

    ``seat`` names the seat in messages; ``locate(i, message)`` places a message
    about answer ``i`` in its file (a scenario adds ``path:line:col`` and the
    line); ``unscripted_hint`` says how to add a missing answer. A shared
    script (one list for all seats, as in a replay) works by giving every seat
    the same ScriptedAgent.

    ``referee=True`` is the white-box mode of rule tests, which check exactly
    what the engine offered: the agent is handed the engine's Decision (see
    ``Agent.referee``), answers are option indices, written forms
    (``decisions.option_matches``) or predicates over the engine's option
    objects, and ``asked`` records the Decisions. Bots and players never get
    this view.
    """

    observes = False

    def __init__(
        self,
        answers: Sequence[Any],
        fallback: Agent | None = None,
        *,
        seat: int | None = None,
        locate: Callable[[int, str], str] | None = None,
        unscripted_hint: str = "",
        referee: bool = False,
    ):
        self.referee = referee
        self.answers = list(answers)
        self.pos = 0
        self.fallback = fallback
        self.seat = seat
        self.locate = locate
        self.unscripted_hint = unscripted_hint
        self.asked: list[Any] = []  # each decision asked, in order: its labels (a Decision for a referee)

    @property
    def unused(self) -> list[Any]:
        """The answers the game never asked for."""
        return self.answers[self.pos :]

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        labels = tuple(d["label"] for d in actions)
        self.asked.append(labels)
        who = f"P{self.seat}" if self.seat is not None else "the script"
        if self.pos >= len(self.answers):
            if self.fallback is not None:
                return self.fallback.act(observation, actions)
            hint = f"; {self.unscripted_hint}" if self.unscripted_hint else ""
            message = f"{who} was asked an unscripted decision with options {list(labels)}{hint}"
            if self.locate is not None and self.answers:  # pointed at the last answer: the next one goes after it
                message = self.locate(len(self.answers) - 1, message + " after this one")
            raise ScriptExhausted(message)
        answer = self.answers[self.pos]
        self.pos += 1
        if isinstance(answer, int) and not isinstance(answer, bool):
            if 0 <= answer < len(actions):
                aid: int = actions[answer]["id"]
                return aid
        elif callable(answer):
            for d in actions:
                if answer(d):
                    aid = d["id"]
                    return aid
        else:
            found = find(actions, answer)
            if found is not None:
                return found
        message = f"{who}'s answer #{self.pos} {answer!r} is not a legal option; options: {list(labels)}"
        slip = _hint(answer, actions)
        message += f"; did you mean {slip}?" if slip else ""
        raise ScriptExhausted(self.locate(self.pos - 1, message) if self.locate is not None else message)

    def decide(self, decision: Any, game: Any) -> int:
        """The referee's view (``referee=True``): answer the engine's Decision with an option index."""
        self.asked.append(decision)
        if self.pos >= len(self.answers):
            if self.fallback is not None:
                ids, descs = game.actions(decision)
                index: int = game.index_of(decision, ids, self.fallback.act(None, descs))
                return index
            raise ScriptExhausted(f"no scripted answer for {decision!r}")
        answer = self.answers[self.pos]
        self.pos += 1
        if isinstance(answer, int) and not isinstance(answer, bool):
            return answer
        for i, option in enumerate(decision.options):
            if answer(option) if callable(answer) else option_matches(option, answer):
                return i
        raise ScriptExhausted(
            f"scripted answer {answer!r} is not a legal option of {decision!r}; options: {decision.labels()}"
        )
