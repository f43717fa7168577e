"""Batch simulation, game logs and replay (``fengsheng simulate`` and ``replay``; a sweep plays its games so too).

A game is fully determined by the content, the player count, its seed and the answers given to its
decisions. The log (JSONL) therefore holds a header with the seed, every event and every decision, and
the end-state digest; replay re-runs the game from the seed, feeding the logged answers back, and checks
that every event and the end state come out the same.

The modules, each of one job:

- ``pool``: the worker processes of a batch (also a sweep's): the collector set up for many games, chunks
  by index, a pool whose workers take their signals and die with the batch, how many cores;
- ``batch``: the agents of a game, one game from its seed as a batch plays it, ``simulate``;
- ``summary``: what a batch counts of each game and prints (text or JSON), the Wilson interval;
- ``logs``: writing and reading logs (the checks of their fields), per-seat copies;
- ``replay``: re-running a logged game and saying where it differs.

The names below are the package's public face: import them from ``interpreter.sim``. A test that replaces one
(monkeypatch) patches the module whose code reads it: ``sim.pool.STOP_GRACE``, ``sim.batch.MIN_GAMES_PER_JOB``
(simulate's; a sweep imports its own), ``sim.batch._BATCH``.
"""

from __future__ import annotations

from ..seeds import agent_seed, game_seed
from .batch import (
    WorkerDied,
    drive,
    failure_text,
    make_agents,
    new_game,
    parse_agents,
    play_game,
    play_one,
    random_agents,
    simulate,
    tell_end,
)
from .logs import (
    LOG_FORMAT,
    MAX_LOG_LINE,
    LogWriter,
    ReplayMismatch,
    content_fingerprint,
    read_log,
    read_log_text,
    seat_header,
    seat_records,
    state_log_text,
)
from .pool import (
    BATCH_GC_THRESHOLD,
    CHUNKS_AHEAD,
    MAX_CHUNK,
    MIN_CHUNK,
    MIN_GAMES_PER_JOB,
    STOP_GRACE,
    after_game,
    batch_gc,
    chunks_of,
    default_jobs,
    die_with_parent,
    tune_gc_for_batch,
    worker_pool,
    worker_signals,
)
from .replay import logged_pins, replay_game
from .summary import REASON_TEXT, Summary, game_record, identity_name, pad, reason_text, wilson

__all__ = [
    "BATCH_GC_THRESHOLD",
    "CHUNKS_AHEAD",
    "LOG_FORMAT",
    "MAX_CHUNK",
    "MAX_LOG_LINE",
    "MIN_CHUNK",
    "MIN_GAMES_PER_JOB",
    "REASON_TEXT",
    "STOP_GRACE",
    "LogWriter",
    "ReplayMismatch",
    "Summary",
    "WorkerDied",
    "after_game",
    "agent_seed",
    "batch_gc",
    "chunks_of",
    "content_fingerprint",
    "default_jobs",
    "die_with_parent",
    "drive",
    "failure_text",
    "game_record",
    "game_seed",
    "identity_name",
    "make_agents",
    "new_game",
    "pad",
    "reason_text",
    "parse_agents",
    "play_game",
    "play_one",
    "random_agents",
    "read_log",
    "read_log_text",
    "logged_pins",
    "replay_game",
    "seat_header",
    "seat_records",
    "simulate",
    "state_log_text",
    "tell_end",
    "tune_gc_for_batch",
    "wilson",
    "worker_pool",
    "worker_signals",
]
