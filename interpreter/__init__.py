"""fengsheng: a declarative, data-driven rules interpreter for 风声 (The Message).

Layers, low to high (each imports only those below it; ARCHITECTURE.md):

* ``interpreter.catalogue``, ``interpreter.model`` — the rule vocabulary, colors, directions and
  the typed content objects;
* ``interpreter.language`` — the effect language: grammar, typed AST, checker/compiler;
* ``interpreter.engine``   — the game state, the fixed phase skeleton and the timing-node loop;
* ``interpreter.content``  — load YAML content packs (cards, deck, rules, secret tasks, roles)
  with positions, validate them against ``schema/`` and compile their effect code;
* ``interpreter.agents``   — who answers decisions: random, scripted, (later) heuristic and human;
* ``interpreter.cli``      — the ``fengsheng`` command.
"""

__version__ = "0.2.0"
