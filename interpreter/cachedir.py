"""A private cache folder for this user (the effect grammar's parse tables), or None.

A leaf module. The folder is ``$FENGSHENG_CACHE_DIR``, else
``$XDG_CACHE_HOME/fengsheng``, else ``~/.cache/fengsheng``; it is made with
mode 0700 and used only if it belongs to this user and nobody else may write
to it (what is cached there is read back with pickle). ``FENGSHENG_CACHE=0``
turns caching off. Nothing in it is needed: without it, things are only slower.
"""

from __future__ import annotations

import os
import stat
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def cache_dir() -> Path | None:
    if os.environ.get("FENGSHENG_CACHE", "1") == "0":
        return None
    explicit = os.environ.get("FENGSHENG_CACHE_DIR")
    if explicit:
        path = Path(explicit)
    else:
        try:
            base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        except (RuntimeError, KeyError, OSError):  # no $HOME and no entry in the password database
            return None
        path = Path(base) / "fengsheng"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = path.stat()
    except OSError:
        return None
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return None
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    return path
