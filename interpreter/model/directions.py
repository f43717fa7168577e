"""The directions an intel travels in (a card's arrow, deck.yaml ``direction:``), as values.

A leaf module like ``colors.py``: the language (its constants ``left``,
``right``, ``up``) and the engine use these values, and it imports nothing of
the project.
"""

from __future__ import annotations

LEFT, RIGHT, UP = "left", "right", "up"
DIRECTION_ZH = {LEFT: "←", RIGHT: "→", UP: "↑"}
