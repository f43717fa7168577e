"""A scripted agent: answers from a list, for tests, scenarios and replays."""
from __future__ import annotations

from ..engine.decisions import option_label, option_matches
from .base import Agent


class ScriptExhausted(Exception):
    """The game asked a decision the script has no answer for."""


class ScriptedAgent(Agent):
    """Answers are indices, or labels / predicates matched against the option labels.

    A shared script (one list for all seats, as in a replay log) can be used by
    giving every seat the same ScriptedAgent.
    """

    def __init__(self, answers, fallback=None):
        self.answers = list(answers)
        self.pos = 0
        self.fallback = fallback

    def decide(self, decision, view) -> int:
        if self.pos >= len(self.answers):
            if self.fallback is not None:
                return self.fallback.decide(decision, view)
            raise ScriptExhausted(f"no scripted answer for {decision!r}")
        answer = self.answers[self.pos]
        self.pos += 1
        if isinstance(answer, int) and not isinstance(answer, bool):
            return answer
        labels = [option_label(o) for o in decision.options]
        if callable(answer):
            for i, o in enumerate(decision.options):
                if answer(o):
                    return i
        else:
            for i, o in enumerate(decision.options):
                if option_matches(o, answer):
                    return i
        raise ScriptExhausted(f"scripted answer {answer!r} is not a legal option of {decision!r}; "
                              f"options: {labels}")
