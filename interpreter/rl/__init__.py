"""Adapters for game-AI libraries (the optional ``rl`` extra: in a checkout, ``pip install -e '.[rl]'``).

* :mod:`interpreter.rl.pettingzoo_env` — a PettingZoo AEC environment
  (``FengshengAECEnv``, and the wrapped factory ``env(**kwargs)``);
* :mod:`interpreter.rl.openspiel_game` — an OpenSpiel Python game, registered
  as ``python_fengsheng`` when the module is imported;
* :mod:`interpreter.rl.encoding` — the fixed-length observation and information-state vectors both use;
* :mod:`interpreter.rl.rl_doc` — docs/rl.md's sizes and action id table, generated from the code.

Nothing is imported here, so ``import interpreter.rl`` works without the
extra; each adapter module needs its own library, and says how to install it
when one is missing (:func:`need_extra`). See docs/rl.md.
"""


def need_extra(module: str, e: ImportError) -> ImportError:
    """The error an adapter raises when a library of the extra is missing: which one, and how to install it."""
    from ..extras import install_command

    return ImportError(
        f"{module} needs the optional extra `rl` ({e.name} is missing): {install_command('rl')}", name=e.name
    )
