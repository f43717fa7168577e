"""风声 as an OpenSpiel Python game: ``pyspiel.load_game("python_fengsheng")``.

Importing this module registers the game (short name ``python_fengsheng``)::

    import pyspiel
    import interpreter.rl.openspiel_game  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_fengsheng", {"players": 5})
    state = game.new_initial_state()          # a chance node: the deal
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(0)             # the one outcome: a fresh deal
        else:
            state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

Game parameters:

* ``players`` (default 5): a count the content's identity table deals (the bundled game's: 2–10); the
  game's type (``game.get_type()``) gives the content's fewest and most players as ``min_num_players`` and
  ``max_num_players``;
* ``seed`` (default -1): -1 deals every game from a fresh 128-bit seed
  (:func:`interpreter.seeds.fresh_seed`) when its chance node is applied; a seed
  ``0 <= k < 2**31`` deals seed ``k`` every time (reproducible tests and batches: whoever
  knows the game string knows every card). OpenSpiel's game parameters are C ints:
  ``load_game`` cannot take a larger seed (a RuntimeError or SpielError of its own),
  so a game of another door with a fresh 128-bit seed is replayed by ``GameState``;
* ``max_turns`` (default 0 = the content's limit, 300 in the bundled rules):
  a game still running after this many turns ends with no winner;
* ``content`` (default ``"bundled"``, the bundled content): else content
  pack directories, separated by ``os.pathsep`` (the game string holds it,
  so a path with ``,``, ``=`` or parentheses in it cannot be used), resolved
  as the CLI's ``--content`` resolves them (``load_packs``, the step API's): a pack without
  ``rules.yaml`` (a ``pack.yaml`` fork) is layered over the bundled game and
  its expansions; a folder that is not there is a ValueError saying so;
* ``expansions`` (default ``"all"``): which expansions of the rule set join,
  as the CLI's ``--expansions`` (``"none"``, or ids separated by ``;``, since
  the game string keeps ``,`` for itself).

Chance is ``SAMPLED_STOCHASTIC``: the initial state is a chance node with one
outcome (action 0, probability 1) that deals the game from a seed drawn as
above; every later shuffle and blind pick is drawn inside ``apply_action`` from
that deal's generator. What a search reads (docs/rl.md, "What each door
carries"):

* the state a bot is handed is the real game: every in-process caller can read
  all of it (``state.game_state``, ``history()``, pickles); only out-of-process
  bots are kept from it;
* ``clone()`` (OpenSpiel's ``Clone``, hence ``child()`` and every algorithm that
  copies a state to search it) is the game **re-dealt from the acting seat's
  view**: what that seat cannot see — other hands, the deck order, face-down
  cards, other identities, tasks and face-down roles, and the generator of all
  later chance — is dealt again (:meth:`GameState.resample`). Clones of the same
  state at the same point share one re-deal, so a search tree stays consistent
  (a stock ``MCTSBot`` plays one determinization per decision, never the truth);
  a terminal state or the deal's chance node is copied as it is. (The engine's
  re-dealt GameState inside a clone holds neither the real seed nor the actions
  before its re-deal: GameState.resample. OpenSpiel's C++ bots do not run on
  this game at all);
* ``resample_from_infostate(player, sampler)`` is a fresh re-deal from
  ``player``'s view, its randomness drawn from ``sampler``: what ``ISMCTSBot``
  uses;
* ``information_state_string/tensor(player)`` hold only what ``player`` may
  know: its observation, whose history is every record it read and every
  decision it answered (perfect recall).

Exact copies, for referees: ``copy.deepcopy`` and ``pickle`` (a seed and the
list of actions; a re-dealt copy cannot be pickled), and the engine's
``state.game_state.clone()``.

Type: sequential, sampled stochastic, imperfect information, general sum,
terminal rewards: +1 for each winner, -1 for everyone else, 0 for all if
nobody won (the turn limit). Actions are the content's stable action ids
(:class:`interpreter.engine.actions.ActionSpace`), so ``num_distinct_actions``
is the size of that space and ``legal_actions()`` is a sorted subset.
``max_game_length`` is an estimate, not a proof: ``max_turns × 100 × players``
(random play uses at most ~8 decisions per seat per turn).

Observations: :meth:`FengshengGame.make_py_observer` gives, for one seat, the
tensor of :class:`interpreter.rl.encoding.Encoder` (the same encoding as the
PettingZoo environment) and, with ``perfect_recall``, the tensor of
:class:`interpreter.rl.encoding.InfoStateEncoder`; the string of both is the
JSON of the seat's observation, which carries its whole history.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import sys

from . import need_extra

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # the extra is not installed
    raise need_extra(__name__, e) from None

from ..content.loader import load_cached
from ..content.packs import PackError, missing_folder, pack_folders
from ..engine.actions import space_for
from ..engine.step import GameState
from ..model.content import MAX_SEATS, MIN_PLAYERS
from ..seeds import derive, fresh_seed
from .encoding import Encoder, InfoStateEncoder

SHORT_NAME = "python_fengsheng"
DECISIONS_PER_SEAT_PER_TURN = 100  # for the max_game_length estimate
DEAL = 0  # the one outcome of the deal's chance node
FRESH = -1  # the seed parameter's "a fresh seed for every deal"

# The game's type but for its player counts (pyspiel.GameType is made whole, with no copy-and-change).
_TYPE: dict = dict(
    short_name=SHORT_NAME,
    long_name="Python Fengsheng (风声, The Message)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification={"players": 5, "seed": FRESH, "max_turns": 0, "content": "bundled", "expansions": "all"},
)
# what the registry lists, knowing no content: the counts the doors that read files take; each game's own type
# gives its content's fewest and most players (_game_type), beyond MAX_SEATS too if its identity table deals them
_GAME_TYPE = pyspiel.GameType(**_TYPE, max_num_players=MAX_SEATS, min_num_players=MIN_PLAYERS)


def _game_type(content) -> pyspiel.GameType:
    """The registered type with the content's fewest and most players: OpenSpiel's game info reads them from the
    content's identity table, as every door does, not from a range fixed here."""
    counts = content.rules.player_counts()
    return pyspiel.GameType(**_TYPE, max_num_players=counts[-1], min_num_players=counts[0])


def _packs(paths: str, expansions: str) -> tuple[str, ...]:
    """The folders the `content` and `expansions` parameters load, resolved as the CLI resolves `--content` and
    `--expansions` (packs.pack_folders, as load_packs); a missing folder or an unknown expansion is a ValueError
    (PackError) saying so."""
    given = [] if paths in ("", "bundled") else paths.split(os.pathsep)
    for folder in given:  # (folders joined by the CLI's habit, a comma: "Directory 'a,b' does not exist." said no more)
        problem = missing_folder(folder) if "," in folder else None
        if problem is not None:
            raise PackError(
                f"{problem} The content parameter separates folders with {os.pathsep!r} (os.pathsep): "
                "the game string keeps ',' for itself"
            )
    return tuple(str(p) for p in pack_folders(given, expansions.replace(";", ",")))


def _content(packs: tuple[str, ...]):
    return load_cached(list(packs))


class FengshengGame(pyspiel.Game):
    """The game; its parameters are described in the module docstring."""

    def __init__(self, params=None):
        params = dict(params or {})
        spec = _GAME_TYPE.parameter_specification
        self.n_players = int(params.get("players", spec["players"]))
        seed = int(params.get("seed", spec["seed"]))
        self.fixed_seed = None if seed == FRESH else seed
        self.max_turns = int(params.get("max_turns", spec["max_turns"])) or None
        self.content_paths = str(params.get("content", spec["content"]))
        if seed < FRESH:
            raise ValueError(f"seed must be -1 (a fresh seed for every deal) or a seed >= 0, not {seed}")
        if self.max_turns is not None and self.max_turns < 0:  # (else refused by the engine at the first deal)
            raise ValueError(
                f"max_turns must be 0 (the content's limit) or a number of turns >= 1, not {self.max_turns}"
            )
        self.packs = _packs(self.content_paths, str(params.get("expansions", spec["expansions"])))
        self.content = _content(self.packs)
        problem = self.content.rules.cannot_seat(self.n_players)  # the counts are the content's (no MAX_SEATS:
        if problem is not None:  # this door reads no file and serves nobody)
            raise ValueError(problem)
        turns = self.max_turns or self.content.rules.max_turns
        info = pyspiel.GameInfo(
            num_distinct_actions=space_for(self.content).size,
            max_chance_outcomes=1,
            num_players=self.n_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=turns * DECISIONS_PER_SEAT_PER_TURN * self.n_players,
        )
        super().__init__(_game_type(self.content), info, params)
        self.encoder = Encoder(self.content, self.n_players, self.max_turns)
        self.info_encoder = InfoStateEncoder(self.content, self.n_players, self.max_turns)

    def new_initial_state(self):
        return FengshengState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """One seat's observer: the observation (default) or, with ``perfect_recall``, the information state.

        Both observe as one seat (public information and its own private information); a public-only
        or all-players view is refused.
        """
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("python_fengsheng only observes as one seat (public info + its own private info)")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return FengshengObserver(self.info_encoder)
        return FengshengObserver(self.encoder)


class _World:
    """Holds a state's GameState and says how OpenSpiel may copy it (see the module docstring).

    A deep copy — OpenSpiel's ``Clone`` copies a Python state's attributes with ``copy.deepcopy`` — is the
    game re-dealt from the acting seat's view; every deep copy made at the same point of the same world
    gets the same re-deal (``_shared``), so a search that clones a state again and again searches one
    consistent world. The state pickles itself (:meth:`FengshengState.__reduce__`: exact, the seed and the
    actions); a re-dealt world holds no seed of its own and cannot be pickled.
    """

    __slots__ = ("players", "max_turns", "packs", "fixed_seed", "seed", "state", "draws", "_shared")

    def __init__(self, players, max_turns, packs, fixed_seed, seed=None, state=None, draws=None):
        self.players = players
        self.max_turns = max_turns
        self.packs = packs  # the folders resolved (FengshengGame.packs), loaded as they are
        self.fixed_seed = fixed_seed
        self.seed = seed  # the real game's seed; None before the deal and in a re-dealt world
        self.state: GameState | None = state  # None before the deal
        self.draws = draws  # where re-deals draw their seeds
        self._shared: tuple | None = None  # (actions applied, re-deal seed) of the copies made at this point

    def deal(self) -> None:
        self.seed = fresh_seed() if self.fixed_seed is None else self.fixed_seed
        self.state = GameState(_content(self.packs), self.players, self.seed, self.max_turns)
        self.draws = random.Random(derive(self.seed, "openspiel re-deals", 0))

    def apply(self, action: int) -> None:
        if self.state is None:
            if action != DEAL:
                raise pyspiel.SpielError(f"the deal's chance node has one outcome, {DEAL}, not {action}")
            self.deal()
        else:
            self.state.apply_action(action)

    def redealt(self, seat: int, rng: random.Random) -> _World:
        """This world with what `seat` cannot see dealt again from `rng` (GameState.resample)."""
        assert self.state is not None
        return _World(
            self.players,
            self.max_turns,
            self.packs,
            self.fixed_seed,
            None,
            self.state.resample(seat, rng),
            random.Random(rng.getrandbits(128)),
        )

    def __deepcopy__(self, memo):
        s = self.state
        if s is None or s.is_terminal():  # nothing dealt yet; nobody left to search for
            return _World(
                self.players,
                self.max_turns,
                self.packs,
                self.fixed_seed,
                self.seed,
                None if s is None else s.clone(),
                None if self.draws is None else random.Random(self.draws.getrandbits(128)),
            )
        at = len(s.history())
        if self._shared is None or self._shared[0] != at:
            self._shared = (at, self.draws.getrandbits(128))
        return self.redealt(s.current_player(), random.Random(self._shared[1]))

    def __reduce__(self):
        raise pickle.PicklingError("pickle the python_fengsheng state, not its world")

    def __del__(self, _finalizing=sys.is_finalizing):
        """Stop the engine of a game dropped before its end: a search drops thousands of clones a decision, and a
        paused engine is never freed otherwise (GameState.close; about 100 kB a clone). (``sys`` is bound as a
        default: at exit a world still alive may be freed after this module's globals are cleared.)"""
        state = self.state
        if state is not None and not state.is_terminal() and not _finalizing():  # at exit greenlets go anyway
            state.close()


def _seed_from(sampler) -> int:
    """A 128-bit seed from an OpenSpiel probability sampler (a callable giving floats in [0, 1))."""
    if not callable(sampler):  # (said before anything is drawn: "'Random' object is not callable" named no cure)
        raise TypeError(
            "a probability sampler is a callable giving floats in [0, 1) (pyspiel.UniformProbabilitySampler(0., 1.), "
            f"random.Random(seed).random), not {type(sampler).__name__}"
        )
    seed = 0
    for _ in range(3):
        seed = (seed << 48) | int(float(sampler()) * (1 << 48))
    return seed


class FengshengState(pyspiel.State):
    """One game in progress: a thin layer over :class:`GameState` (see the module docstring)."""

    def __init__(self, game: FengshengGame):
        super().__init__(game)
        self._world = _World(game.n_players, game.max_turns, game.packs, game.fixed_seed)

    @property
    def game_state(self) -> GameState | None:
        """The underlying engine state, to read or clone (None before the deal): apply actions through
        this object, never to it. It is this state's own: when this state is freed, it is stopped
        (``GameState.close``) — keep a ``clone()`` of it to go on reading it."""
        return self._world.state

    def current_player(self):
        s = self._world.state
        if s is None:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL if s.is_terminal() else s.current_player()

    def chance_outcomes(self):
        return [(DEAL, 1.0)] if self._world.state is None else []

    def _legal_actions(self, player):
        s = self._world.state
        if s is None or s.is_terminal() or player != s.current_player():
            return []
        return sorted(s.legal_actions())

    def _apply_action(self, action):
        self._world.apply(int(action))

    def _action_to_string(self, player, action):
        s = self._world.state
        if player == pyspiel.PlayerId.CHANCE:
            return "deal"
        if s is not None and not s.is_terminal() and player == s.current_player():
            for d in s.action_descriptors():
                if d["id"] == action:
                    return f"{d['label']} #{action}"
        space = space_for(self.get_game().content)
        if not 0 <= action < space.size:  # (OpenSpiel passes any int: an IndexError from the action space named none)
            raise pyspiel.SpielError(f"{action} is not an action id of this game (0..{space.size - 1})")
        return f"{' '.join(str(k) for k in space.key(action))} #{action}"

    def is_terminal(self):
        s = self._world.state
        return s is not None and s.is_terminal()

    def returns(self):
        s = self._world.state
        return [0.0] * self.get_game().n_players if s is None else list(s.returns())

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one: the game re-dealt from its view, the randomness
        drawn from `probability_sampler` (OpenSpiel's ``UniformProbabilitySampler``, or any callable
        giving floats in [0, 1)). Its ``history()`` is empty: OpenSpiel's action list cannot be written
        from Python, and the real one would name cards only other seats chose."""
        seat = int(player_id)
        if not 0 <= seat < self.get_game().n_players:  # (as OpenSpiel's own checks of a player: a SpielError)
            raise pyspiel.SpielError(f"player {seat} is not at this table (0..{self.get_game().n_players - 1})")
        if self._world.state is None:
            return self.clone()
        # (asked before the end's exact copy: a game stopped before its end is terminal here, yet its copy plays on)
        refused = self._world.state.sample_refused(seat)
        if refused:  # (before the sampler is drawn from)
            raise pyspiel.SpielError(refused + " (docs/step-api.md)")
        if self._world.state.is_terminal():
            return self.clone()
        sample = FengshengState(self.get_game())
        sample._world = self._world.redealt(seat, random.Random(_seed_from(probability_sampler)))
        return sample

    def __reduce__(self):
        """Pickle (and ``copy.deepcopy``) as the game's parameters and the world's seed and actions: an exact
        copy. OpenSpiel's own serialization of a sampled-stochastic game asks the C++ game for its generator,
        which a Python game does not have, so ``pickle`` goes around it."""
        w = self._world
        if w.state is not None and w.seed is None:
            raise pickle.PicklingError(
                "a re-dealt copy of a python_fengsheng state (clone, resample_from_infostate) cannot be "
                "pickled or deep-copied: pickle the real game's state"
            )
        actions = w.state.history() if w.state is not None else None
        return (_restore, (dict(self.get_game().get_parameters()), w.seed, actions))

    def __str__(self):
        """The number of players and the actions so far: what a state and its clones share.

        A readable table is ``table_summary(state.game_state)`` (interpreter.rl.encoding).
        """
        return f"python_fengsheng, {self.get_game().n_players} players; actions: {' '.join(map(str, self.history()))}"


def _restore(params: dict, seed: int | None, actions: list[int] | None) -> FengshengState:
    """The state :meth:`FengshengState.__reduce__` pickled: the same actions applied to the same deal."""
    state = pyspiel.load_game(SHORT_NAME, params).new_initial_state()
    if actions is None:
        return state
    fixed = state._world.fixed_seed
    state._world.fixed_seed = seed  # the deal's chance node deals the pickled seed
    state.apply_action(DEAL)
    state._world.fixed_seed = fixed
    for a in actions:
        state.apply_action(a)
    return state


class FengshengObserver:
    """OpenSpiel's PyObserver: an encoder's vector (named pieces in ``dict``) and the observation's JSON."""

    def __init__(self, encoder: Encoder | InfoStateEncoder):
        self.encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = encoder.views(self.tensor)

    def set_from(self, state: FengshengState, player: int) -> None:
        s = state.game_state
        if s is None:  # before the deal nobody knows anything
            self.tensor.fill(0)
        else:
            self.encoder.encode(s.observation(player), out=self.tensor)

    def string_from(self, state: FengshengState, player: int) -> str:
        s = state.game_state
        if s is None:
            return ""
        return json.dumps(s.observation(player), ensure_ascii=False)


pyspiel.register_game(_GAME_TYPE, FengshengGame)

__all__ = ["FengshengGame", "FengshengState", "FengshengObserver", "SHORT_NAME"]
