"""风声 as an OpenSpiel Python game: ``pyspiel.load_game("python_fengsheng")``.

Importing this module registers the game (short name ``python_fengsheng``)::

    import pyspiel
    import interpreter.rl.openspiel_game  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_fengsheng", {"players": 5, "seed": 7})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

Game parameters:

* ``players`` (2–10, default 5);
* ``seed`` (default 0): the engine's chance seed. Every shuffle and random
  pick is drawn inside the engine from this seed, so OpenSpiel sees no chance
  nodes: the game type is ``DETERMINISTIC`` *given the seed*. A different
  deal is a different game (``{"seed": k}``); the hidden information is
  still hidden (imperfect information), and an algorithm that needs other
  deals has to load games with other seeds;
* ``max_turns`` (default 0 = the content's limit, 300 in the bundled rules):
  a game still running after this many turns ends with no winner;
* ``content`` (default ``"bundled"``, the bundled content): else content
  pack directories, separated by ``os.pathsep`` (the game string holds it,
  so a path with ``,``, ``=`` or parentheses in it cannot be used).

Type: sequential, deterministic (see ``seed``), imperfect information, general
sum, terminal rewards: +1 for each winner, -1 for everyone else, 0 for all if
nobody won (the turn limit). Actions are the content's stable action ids
(:class:`interpreter.engine.actions.ActionSpace`), so ``num_distinct_actions``
is the size of that space and ``legal_actions()`` is a sorted subset.
``max_game_length`` is an estimate, not a proof: ``max_turns × 100 × players``
(random play uses at most ~8 decisions per seat per turn).

Observations: :meth:`FengshengGame.make_py_observer` gives the tensor of
:class:`interpreter.rl.encoding.Encoder` (the same encoding as the PettingZoo
environment, with one named piece per part of the encoding) and, as the
string, the JSON of the seat's observation dict. No information-state
observer is provided (``provides_information_state_*`` are False).

States are copied the way OpenSpiel copies Python states — a new initial state
whose attributes are deep-copied — and the engine's paused game cannot be
copied as such: a state keeps its :class:`GameState` in a small holder whose
deep copy is :meth:`GameState.clone` (a replay from the seed) and which
pickles as the seed and the list of actions.
"""

from __future__ import annotations

import json
import os

from . import need_extra

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # the extra is not installed
    raise need_extra(__name__, e) from None

from ..content.loader import load_cached
from ..engine.actions import space_for
from ..engine.step import GameState
from .encoding import Encoder

SHORT_NAME = "python_fengsheng"
MIN_PLAYERS, MAX_PLAYERS = 2, 10
DECISIONS_PER_SEAT_PER_TURN = 100  # for the max_game_length estimate

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Fengsheng (风声, The Message)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification={"players": 5, "seed": 0, "max_turns": 0, "content": "bundled"},
)


def _content(paths: str):
    return load_cached(None if paths in ("", "bundled") else paths.split(os.pathsep))


class FengshengGame(pyspiel.Game):
    """The game; its parameters are described in the module docstring."""

    def __init__(self, params=None):
        params = dict(params or {})
        spec = _GAME_TYPE.parameter_specification
        self.n_players = int(params.get("players", spec["players"]))
        self.seed = int(params.get("seed", spec["seed"]))
        self.max_turns = int(params.get("max_turns", spec["max_turns"])) or None
        self.content_paths = str(params.get("content", spec["content"]))
        if not MIN_PLAYERS <= self.n_players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {self.n_players}")
        self.content = _content(self.content_paths)
        turns = self.max_turns or self.content.rules.max_turns
        info = pyspiel.GameInfo(
            num_distinct_actions=space_for(self.content).size,
            max_chance_outcomes=0,
            num_players=self.n_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=turns * DECISIONS_PER_SEAT_PER_TURN * self.n_players,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.encoder = Encoder(self.content, self.n_players, self.max_turns)
        self._initial: GameState | None = None

    def new_initial_state(self):
        return FengshengState(self)

    def initial_state(self) -> GameState:
        """The GameState every new state reads until its first action (shared, never changed)."""
        if self._initial is None:
            self._initial = GameState(self.content, self.n_players, self.seed, self.max_turns)
        return self._initial

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of one seat's observation (the only kind offered: no perfect recall, no public-only view)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            iig_obs_type.perfect_recall
            or not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "python_fengsheng only observes as one seat (public info + its own private info, no perfect recall)"
            )
        return FengshengObserver(self.encoder)


class _Replay:
    """Holds a state's GameState: deep-copied by GameState.clone(), pickled as the seed and the actions.

    Until its first action a state reads the game's one shared initial
    GameState (copy on write): OpenSpiel makes a blank initial state for every
    copy, and for every ``observation_tensor_size()`` it asks, so those cost
    no deal.
    """

    __slots__ = ("players", "seed", "max_turns", "content_paths", "_initial", "_state")

    def __init__(self, players, seed, max_turns, content_paths, initial=None, state=None):
        self.players = players
        self.seed = seed
        self.max_turns = max_turns
        self.content_paths = content_paths
        self._initial = initial
        self._state = state

    def _new(self) -> GameState:
        return GameState(_content(self.content_paths), self.players, self.seed, self.max_turns)

    @property
    def state(self) -> GameState:
        """The GameState to read (the shared initial one before any action: do not change it)."""
        if self._state is not None:
            return self._state
        if self._initial is None:
            self._initial = self._new()
        return self._initial

    def apply(self, action: int) -> None:
        if self._state is None:
            self._state = self._new()
        self._state.apply_action(action)

    def __deepcopy__(self, memo):
        return _Replay(
            self.players,
            self.seed,
            self.max_turns,
            self.content_paths,
            self._initial,
            self._state.clone() if self._state is not None else None,
        )

    def __getstate__(self):
        actions = self._state.history() if self._state is not None else []
        return (self.players, self.seed, self.max_turns, self.content_paths, actions)

    def __setstate__(self, data):
        self.players, self.seed, self.max_turns, self.content_paths, actions = data
        self._initial = self._state = None
        for a in actions:
            self.apply(a)


class FengshengState(pyspiel.State):
    """One game in progress: a thin layer over :class:`GameState` (see the module docstring)."""

    def __init__(self, game: FengshengGame):
        super().__init__(game)
        self._replay = _Replay(game.n_players, game.seed, game.max_turns, game.content_paths, game.initial_state())

    @property
    def game_state(self) -> GameState:
        """The underlying engine state, to read or clone: apply actions through this object, never to it."""
        return self._replay.state

    def current_player(self):
        s = self._replay.state
        return pyspiel.PlayerId.TERMINAL if s.is_terminal() else s.current_player()

    def _legal_actions(self, player):
        s = self._replay.state
        if s.is_terminal() or player != s.current_player():
            return []
        return sorted(s.legal_actions())

    def _apply_action(self, action):
        self._replay.apply(int(action))

    def _action_to_string(self, player, action):
        s = self._replay.state
        if not s.is_terminal() and player == s.current_player():
            for d in s.action_descriptors():
                if d["id"] == action:
                    return f"{d['label']} #{action}"
        return f"{' '.join(str(k) for k in space_for(s.content).key(action))} #{action}"

    def is_terminal(self):
        return self._replay.state.is_terminal()

    def returns(self):
        return list(self._replay.state.returns())

    def __str__(self):
        """Seed, whose turn, and the actions so far: enough to tell states apart (the engine is deterministic).

        A readable table is ``table_summary(state.game_state)`` (interpreter.rl.encoding).
        """
        s = self._replay.state
        if s.is_terminal():
            r = s.result
            where = f"over: {r.reason}, winners {[p.seat for p in r.winners]}" if r is not None else "over"
        else:
            where = f"to act: P{s.current_player()} ({s.decision_kind})"
        return f"seed {s.seed} players {s.n_players}; {where}; actions: {' '.join(map(str, s.history()))}"


class FengshengObserver:
    """OpenSpiel's PyObserver: the Encoder's vector (named pieces in ``dict``) and the observation's JSON."""

    def __init__(self, encoder: Encoder):
        self.encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = encoder.views(self.tensor)

    def set_from(self, state: FengshengState, player: int) -> None:
        self.encoder.encode(state.game_state.observation(player), out=self.tensor)

    def string_from(self, state: FengshengState, player: int) -> str:
        return json.dumps(state.game_state.observation(player), ensure_ascii=False)


pyspiel.register_game(_GAME_TYPE, FengshengGame)

__all__ = ["FengshengGame", "FengshengState", "FengshengObserver", "SHORT_NAME"]
