"""A PettingZoo AEC environment over the step API (:class:`interpreter.engine.step.GameState`).

::

    from interpreter.rl.pettingzoo_env import env

    e = env(players=5)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``"player_0"`` … ``"player_{n-1}"``, one per seat. Only the seat the
engine is asking acts: ``agent_selection`` is always ``"player_{current_player()}"``.
Nobody leaves the game early: a seat that dies or is out (出局) stays in
``agents``, not terminated, and is simply not selected again — after the
decisions the rules still give it in the turn it dies (its last gift,
``death_give_target`` / ``death_give_card``, and anything its death triggers).
When the game ends every agent is terminated (or truncated, if the content's
turn limit ended it with no winner) and gets its reward from
:meth:`GameState.returns`: +1 for a winner, -1 for everybody else, 0 for all
if nobody won. There is no reward before the end.

Spaces (the same objects for every agent):

* action: ``Discrete(action_space_size)`` — the content's stable action ids
  (:class:`interpreter.engine.actions.ActionSpace`); only the ids in the mask
  are legal.
* observation: ``Dict(observation=Box(0, high, (size,), float32),
  action_mask=Box(0, 1, (action_space_size,), int8))``; the vector is
  :class:`interpreter.rl.encoding.Encoder`'s encoding of the seat's observation,
  the mask is 1 for the legal ids (all 0 when it is not the agent's turn).
  With ``info_state=True`` the dict also holds ``info_state=Box(0, high,
  (size,), float32)``: :class:`interpreter.rl.encoding.InfoStateEncoder`'s
  information-state vector (the observation vector and the seat's own past
  decisions), the same as OpenSpiel's ``information_state_tensor``.

``infos[agent]`` holds the raw plain observation dict (``"observation"``) and
the legal action descriptors (``"actions"``, empty when it is not the agent's
turn) for code that wants more than the vector; pass ``raw_infos=False`` to
leave them out (they cost one observation per seat per step).

:func:`env` wraps :class:`FengshengAECEnv` the way PettingZoo's own classic
environments are wrapped: an illegal action ends the game with -1 for the agent
that made it (``TerminateIllegalWrapper``), out-of-range actions are asserted,
and the call order is enforced. The unwrapped environment raises
:class:`~interpreter.engine.errors.IllegalAction` instead.
"""

from __future__ import annotations

import os
from typing import Any

from . import need_extra

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # the extra is not installed
    raise need_extra(__name__, e) from None

from ..content.loader import load_packs
from ..engine.errors import IllegalAction
from ..engine.step import GameState
from ..seeds import SEED_RANGE, as_seed, derive, fresh_seed
from .encoding import Encoder, InfoStateEncoder, table_summary


def _content(content, expansions: str | None):
    """The `content` argument as a content set: one already loaded as it is; pack folders (a path or a list of
    them, or None for the bundled game) through load_packs, as the CLI resolves them (a PackError, a ValueError,
    for a folder that is not there)."""
    if content is None or isinstance(content, (str, os.PathLike, list, tuple)):
        return load_packs(content, expansions)  # (None: the bundled game; one folder alone: a list of one)
    if expansions is not None:
        raise ValueError("expansions= chooses among the expansions of pack folders, not of a loaded content set")
    return content


def env(**kwargs):
    """A wrapped :class:`FengshengAECEnv` (illegal move → game over with -1, order enforced)."""
    e = FengshengAECEnv(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class FengshengAECEnv(AECEnv, EzPickle):
    """风声 as an agent-environment-cycle game (see the module docstring).

    Arguments: ``players`` (a count the content's identity table deals: ``content.rules.player_counts()``;
    the bundled game's are 2–10), ``content`` (a loaded content set, or pack folders — one path or a list — resolved
    as the CLI's ``--content`` resolves them (``load_packs``: a ``pack.yaml`` fork is layered over the bundled game
    and its expansions); default the bundled game), ``expansions`` (with folders: the CLI's ``--expansions``,
    ``"none"`` or ``"id,id"``; default all), ``max_turns`` (a game still running after this many turns ends
    with no winner: truncation; default the content's limit), ``render_mode``
    (``"ansi"`` or ``"human"``), ``raw_infos`` (put the raw observation and
    action descriptors in ``infos``; default True), ``info_state`` (add the information-state vector to every
    observation as ``"info_state"``; default False).

    ``reset()`` and ``close()`` stop the engine of a game left unfinished (``GameState.close``): a
    ``game_state`` kept from an earlier episode can still be read, not played on.

    Seeding: ``reset(seed=s)`` deals game seed ``s`` exactly (the engine draws all
    its chance from it); a later ``reset()`` without a seed deals a seed derived
    from the last given seed and the number of episodes since
    (:func:`interpreter.seeds.derive`), or, if no seed was ever given, from a
    fresh 128-bit seed (:func:`interpreter.seeds.fresh_seed`).
    """

    # PettingZoo's API: AECEnv declares `metadata` as an attribute every env sets; a ClassVar would clash with that.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "fengsheng_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        players: int = 5,
        content=None,
        max_turns: int | None = None,
        render_mode: str | None = None,
        raw_infos: bool = True,
        info_state: bool = False,
        expansions: str | None = None,
    ):
        EzPickle.__init__(
            self,
            players=players,
            content=content,
            max_turns=max_turns,
            render_mode=render_mode,
            raw_infos=raw_infos,
            info_state=info_state,
            expansions=expansions,
        )
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.content = _content(content, expansions)
        probe = GameState(self.content, players, 0, max_turns)  # validates the player count first; sizes the space
        self.n_players = players
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.raw_infos = raw_infos
        self.encoder = Encoder(self.content, players, max_turns)
        self.info_encoder = InfoStateEncoder(self.content, players, max_turns) if info_state else None
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._state: GameState | None = None
        self.n_actions = probe.action_space_size
        self._action_space = spaces.Discrete(self.n_actions)
        parts: dict[str, spaces.Space] = {
            "observation": spaces.Box(
                low=0.0, high=self.encoder.high.copy(), shape=(self.encoder.size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.n_actions,), dtype=np.int8),
        }
        if self.info_encoder is not None:
            size = self.info_encoder.size
            parts["info_state"] = spaces.Box(
                low=0.0, high=self.info_encoder.high.copy(), shape=(size,), dtype=np.float32
            )
        self._observation_space = spaces.Dict(parts)
        self.action_spaces = {a: self._action_space for a in self.possible_agents}
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self._base: int | None = None  # the last seed given to reset(), or a fresh one: later episodes derive theirs
        self._episode = 0
        self._obs_cache: dict[int, Any] = {}
        self.agents: list[str] = []

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    # ------------------------------------------------------------------ the AEC cycle

    @property
    def game_state(self) -> GameState | None:
        """The underlying :class:`GameState` (read it, clone it; do not apply actions to it directly).

        None before the first reset.
        """
        return self._state

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            whole = as_seed(seed)  # (a whole number of the range every door accepts, nothing that converts to one)
            if whole is None:
                raise ValueError(f"reset(seed=…): a seed is {SEED_RANGE}, not {str(seed)[:40]!r}")
            self._base, self._episode = whole, 0
            game_seed = whole
        else:
            if self._base is None:
                self._base, self._episode = fresh_seed(), 0
            self._episode += 1
            game_seed = derive(self._base, "pettingzoo episode", self._episode)
        self.close()  # the last episode's game, if it was left unfinished
        self._state = GameState(self.content, self.n_players, game_seed, self.max_turns)
        self._obs_cache = {}
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._after_move()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            # int() would take "12" or 12.0 for action 12: an answer is an action id, nothing that converts to one
            raise IllegalAction(f"{agent} answered {str(action)[:40]!r} ({type(action).__name__}), not an action id")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        assert self._state is not None  # reset() first
        self._state.apply_action(int(action))
        self._obs_cache = {}
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after_move(self) -> None:
        """Select the next agent, or end the game for everybody; refresh the infos."""
        state = self._state
        assert state is not None
        if state.is_terminal():
            returns = state.returns()
            truncated = state.result is not None and state.result.reason == "turn_limit"
            for a in self.agents:
                self.rewards[a] = float(returns[self.agent_seat[a]])
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        if self.raw_infos:
            current = self.agent_selection if not state.is_terminal() else None
            descs = state.action_descriptors() if current is not None else ()
            for a in self.agents:
                self.infos[a] = {"observation": self._raw(self.agent_seat[a]), "actions": descs if a == current else ()}

    def _raw(self, seat: int):
        obs = self._obs_cache.get(seat)
        if obs is None:
            assert self._state is not None  # reset() first
            obs = self._obs_cache[seat] = self._state.observation(seat)
        return obs

    def observe(self, agent):
        seat = self.agent_seat[agent]
        mask = np.zeros(self.n_actions, np.int8)
        state = self._state
        assert state is not None  # reset() first
        if not state.is_terminal() and state.current_player() == seat:
            mask[list(state.legal_actions())] = 1
        raw = self._raw(seat)
        obs = {"observation": self.encoder.encode(raw), "action_mask": mask}
        if self.info_encoder is not None:
            obs["info_state"] = self.info_encoder.encode(raw)
        return obs

    # ------------------------------------------------------------------ rendering

    def render(self):
        if self.render_mode is None:
            import warnings

            warnings.warn("render() was called without a render_mode (use render_mode='ansi' or 'human')", stacklevel=1)
            return None
        text = table_summary(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Stop the current game's engine (a game left unfinished is never freed otherwise: GameState.close)."""
        if self._state is not None:
            self._state.close()


raw_env = FengshengAECEnv  # PettingZoo's name for the unwrapped class


__all__ = ["FengshengAECEnv", "env", "raw_env"]
