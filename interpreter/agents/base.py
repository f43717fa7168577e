"""The agent interface: plain data in, one action id out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

_T = TypeVar("_T")

try:  # only mypyc reads it (setup.py's compiled build compiles the bots); plain Python may have no mypy_extensions
    from mypy_extensions import mypyc_attr as mypyc_attr  # (re-exported: the other bots take it from here)
except ImportError:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
        return lambda cls: cls


# What an agent is given: read-only plain data (FrozenDicts in a game, a dict whose mutators raise; plain dicts
# from JSON do as well). Typed dict, not Mapping: compiled (setup.py), a dict's `get`, `in` and walks are calls
# into dict's own C code, a Mapping's go through Python's generic method lookup (a `get` about 350 instructions
# against 140). Each field's type is documented in docs/observation.md and the JSON schemas, not in Python, so
# the values are Any.
Observation = dict[str, Any]
Descriptor = dict[str, Any]  # one legal action: {"id", "kind", "label", ...}
Part = dict[str, Any]  # a part of an observation read as a dict (a history record, a player's row, a card's face)


# In the compiled build (setup.py) the bots are compiled: bots of tests and tools subclass them, and a bot is
# copied (copy.deepcopy) or pickled like any object.
@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Agent:
    """Answers decisions for one seat.

    ``act(observation, actions)`` receives that seat's observation (read-only
    plain data, docs/observation.md) and the legal actions as read-only
    descriptors (``{"id", "kind", "label", ...}``), and returns the ``id`` of one
    of them. Nothing it is given refers to the engine, and the engine checks
    every answer: an id that was not offered is refused.

    An agent that never looks at the observation (a uniform random one) sets
    ``observes = False`` and is passed ``None``, which saves building it. One
    that reads only some of its top-level fields may name them in
    ``observation_fields`` (a frozenset of field names, docs/observation.md):
    the synchronous driver then makes only those, in their usual order, with
    the values they have in the whole observation (a subset of the same data).
    None (the default): every field. Only the driver reads it: an agent handed
    an observation another way (the step API, a search bot's guide) is handed
    all of it.

    A *search* bot (``searches = True``) is called with ``search(observation, actions, world)``
    instead, where ``world`` is its seat's ``World`` (engine/step.py): the one thing it may do
    with it is ``world.sample(rng)``, a copy of the game in which everything the seat cannot see
    is dealt again. Drivers that offer no world call ``act``.
    """

    observes = True
    observation_fields: frozenset[str] | None = None  # the fields it reads (None: all of them), see above
    searches = False
    referee = False  # only white-box rule tests set this (they are handed the engine's Decision)
    hears_end = False  # True: the driver calls end(observation) when the game is over (see above)

    def act(self, observation: Observation | None, actions: Sequence[Descriptor]) -> int:
        raise NotImplementedError(
            f"{type(self).__name__} answers no decision: an agent is a subclass of Agent whose act(observation, "
            "actions) returns the id of one of the actions (docs/bots.md)"
        )

    def end(self, observation: Observation | None) -> None:
        """The game is over (for ``hears_end`` agents): the seat's final observation, or None if it stopped early."""

    def search(self, observation: Observation, actions: Sequence[Descriptor], world: Any) -> int:
        """A decision with the seat's World to sample from (only for ``searches``); by default, ``act``."""
        return self.act(observation, actions)
