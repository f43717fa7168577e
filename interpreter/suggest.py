"""Did you mean …? The one place that finds the names closest to a misspelt one.

A leaf module: the loader (unknown keys, ids, card names), the language checker
(unknown names and functions) and the CLI (``describe`` of an unknown name)
all suggest with it, so a hint reads and behaves the same everywhere.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable


def closest(word: object, candidates: Iterable[object], n: int = 1, loose: bool = False) -> list[str]:
    """The candidates most like `word`, best first (at most n).

    By string similarity, with a lower bar for short words: in a name of two or
    three Chinese characters one wrong character already halves the score.
    `loose` (for searching, not for error hints) adds candidates that contain
    the word or are contained in it, then, for Chinese, those sharing the most
    characters.
    """
    key = str(word)
    words = list(dict.fromkeys(str(c) for c in candidates))
    close = difflib.get_close_matches(key, words, n=n, cutoff=0.5 if len(key) <= 3 else 0.6)
    if close or not loose or not key:
        return close
    close = [w for w in words if key in w or w in key][:n]
    if not close and not key.isascii():
        scored = sorted(((len(set(key) & set(w)), w) for w in words), reverse=True)
        close = [w for score, w in scored if score and score >= max(1, len(set(key)) // 2)][:n]
    return close


def did_you_mean(word: object, candidates: Iterable[object]) -> str | None:
    """The hint for an unknown name: "did you mean X?", or None if nothing is close."""
    words = list(dict.fromkeys(str(c) for c in candidates))
    key = str(word)
    # a known name the word starts with, a snake_case part longer (draw_card, discard_cards): the
    # name the writer meant, though the spelling of another may be closer (mark_card)
    # — unless another is the same word but for a slip or two (a_fu_luo_la_jian_dei: a_fu_luo_la_jian_die,
    # not the stem a_fu_luo_la)
    stems = [w for w in words if key.startswith(w + "_")]
    close = closest(key, words)
    if stems and not (close and difflib.SequenceMatcher(None, key, close[0]).ratio() >= 0.9):
        close = [max(stems, key=len)]
    return f"did you mean {close[0]}?" if close else None


def folder_hint(path: str, files: bool = False, base: str | os.PathLike[str] = ".") -> str | None:
    """The hint for a folder that is not there (examples/jia_gu): "did you mean examples/jia_gui?", the folder
    beside it closest in spelling, or None. `files`: a file beside it may be meant too (a door that takes files
    or folders); `base`: the folder a relative path is read from (a scenario's own, for its `content:`), the hint
    written as the path was."""
    parent, name = os.path.split(os.path.normpath(path))
    try:
        entries = [e.name for e in os.scandir(os.path.join(base, parent or ".")) if files or e.is_dir()]
    except OSError:
        return None
    close = closest(name, entries)
    return f"did you mean {os.path.join(parent, close[0])}?" if close else None
