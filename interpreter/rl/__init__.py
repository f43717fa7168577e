"""Adapters for game-AI libraries (the optional ``rl`` extra: ``pip install -e '.[rl]'``).

* :mod:`interpreter.rl.pettingzoo_env` — a PettingZoo AEC environment
  (``FengshengAECEnv``, and the wrapped factory ``env(**kwargs)``);
* :mod:`interpreter.rl.openspiel_game` — an OpenSpiel Python game, registered
  as ``python_fengsheng`` when the module is imported;
* :mod:`interpreter.rl.encoding` — the fixed-length observation vector both use;
* :mod:`interpreter.rl.rl_doc` — docs/rl.md's sizes and action id table, generated from the code.

Nothing is imported here, so ``import interpreter.rl`` works without the
extra; each adapter module needs its own library. See docs/rl.md.
"""
