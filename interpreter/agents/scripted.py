"""A scripted agent: answers from a list, for tests, examples and replays."""

from __future__ import annotations

from .base import Agent
from .matching import find


class ScriptExhausted(Exception):
    """The game asked a decision the script has no answer for, or the answer is not legal."""


class ScriptedAgent(Agent):
    """Answers are positions in the offered actions (ints), written answers (see agents.matching) or
    predicates over action descriptors.

    A shared script (one list for all seats, as in a replay) works by giving
    every seat the same ScriptedAgent. ``fallback`` answers once the script is used up.
    """

    observes = False

    def __init__(self, answers, fallback=None):
        self.answers = list(answers)
        self.pos = 0
        self.fallback = fallback

    def act(self, observation, actions) -> int:
        if self.pos >= len(self.answers):
            if self.fallback is not None:
                return self.fallback.act(observation, actions)
            raise ScriptExhausted(f"no scripted answer; options: {[d['label'] for d in actions]}")
        answer = self.answers[self.pos]
        self.pos += 1
        if isinstance(answer, int) and not isinstance(answer, bool):
            if 0 <= answer < len(actions):
                return actions[answer]["id"]
        elif callable(answer):
            for d in actions:
                if answer(d):
                    return d["id"]
        else:
            found = find(actions, answer)
            if found is not None:
                return found
        raise ScriptExhausted(
            f"scripted answer {answer!r} is not a legal option; options: {[d['label'] for d in actions]}"
        )
