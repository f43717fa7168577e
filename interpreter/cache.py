"""What fengsheng keeps to go faster, in this process and between runs: one module, one helper.

Nothing kept is needed: without it things are only slower. Each kind of thing kept is declared by the module
that makes it, as a :class:`Kept` (a name; a version naming everything its values depend on beyond their key;
whether each hit is a fresh copy; whether it is kept between runs), and used through :func:`remember`: the
value kept under a key, else made, and kept if its maker says it may be (a content file with a finding is read
every time, so that it reports it again). A caller that changes nothing of what it gets says so (``shared``):
a kind kept as copies then gives it one object per entry in this process, not a fresh copy each time. What is
kept:

* ``ast`` and ``code`` (language/parser.py): each effect text's tree and each code unit's compiled Python,
  between runs (parsing is most of what loading content costs);
* ``read`` (content/read.py): each content file that read clean (YAML parsed, schema met, nothing to report),
  in this process and between runs; ``file text``: the text of a file unchanged on disk since well before it
  was read, in this process;
* ``build``, ``named in a file``, ``card name`` and ``content set`` (content/loader.py): cards, roles and tasks
  built from such files, the card names and texts of each file, the bundled cards' names for ``validate``, and
  ``load_cached``'s content sets, in this process;
* ``expansions`` and ``pack.yaml lists`` (content/packs.py): a rule set's expansions in their order, and the
  names a pack.yaml's ``extends:`` and ``expansions:`` list, in this process.
* ``command content`` (cli_options.py): the content a command loaded, by what every folder and file under its
  packs is on disk (``file_stamp``), in this process. (A content's fingerprint, content/fingerprint.py, is kept
  on the content object itself.)

In this process a kind keeps at most its ``limit`` values (all of them go when it is full). Between runs the
kinds share one file in the user's private cache folder (:func:`cache_dir`): read once, at the first lookup;
:func:`save` adds what this process used to what the file holds by then (other content sets stay, up to
MAX_ENTRIES, the entries not used longest making room) and replaces it atomically; an entry of a kind whose
version changed is dropped. The file is read back at a save only if another process replaced it since this one
wrote it; :func:`save_soon` (the loader's) saves at most every SAVE_EVERY seconds, and at exit. A leaf module:
it imports nothing of the project.
"""

from __future__ import annotations

import atexit
import contextlib
import marshal
import os
import pickle
import stat
import sys
import time
from collections.abc import Callable, Hashable
from functools import lru_cache
from pathlib import Path
from typing import Any, Generic, TypeVar

V = TypeVar("V")

MAX_ENTRIES = 4000  # entries in the file kept between runs (the bundled game: about 700)
_OLD_FILES = "effect-ast-*.pickle"  # what earlier versions kept between runs (the parse cache alone)

Codec = tuple[Callable[[Any], bytes], Callable[[bytes], Any]]
PICKLE: Codec = (lambda value: pickle.dumps(value, pickle.HIGHEST_PROTOCOL), pickle.loads)
MARSHAL: Codec = (marshal.dumps, marshal.loads)


@lru_cache(maxsize=1)
def cache_dir() -> Path | None:
    """The user's private cache folder, or None: ``$FENGSHENG_CACHE_DIR``, else ``$XDG_CACHE_HOME/fengsheng``, else
    ``~/.cache/fengsheng``; made with mode 0700 and used only if it belongs to this user and nobody else may
    write to it (what is kept there is read back with pickle). ``FENGSHENG_CACHE=0`` turns caching off."""
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


# What a file is on disk may key what was made from it, in this process (``file_stamp``) only once it has not changed
# for SETTLED: two writes within one tick of the file system's clock may leave the same times.
SETTLED = 2_000_000_000  # nanoseconds


def file_stamp(path: str | os.PathLike[str]) -> tuple[int, int, int, int, int] | None:
    """What a file or folder is on disk: its device and inode, size, and modification and change times (the change
    time moves on any write, and nobody can set it back); None if it cannot be looked at or changed in the last
    SETTLED nanoseconds (a file written just now is read every time)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < SETTLED:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class Kept(Generic[V]):
    """One kind of thing kept (see the module's docstring). `copies`: each hit is a fresh copy made with this
    codec (the caller may change what it gets); needed `between_runs`, where `version()` (None: not kept
    between runs) names what the values depend on beyond their key."""

    def __init__(
        self,
        name: str,
        *,
        version: Callable[[], str | None] = lambda: "",
        copies: Codec | None = None,
        between_runs: bool = False,
        in_process: bool = True,
        limit: int | None = 4096,
    ) -> None:
        assert copies is not None or not between_runs, "a kind kept between runs is kept as bytes"
        self.name, self.version, self.copies = name, version, copies
        self.between_runs, self.in_process, self.limit = between_runs, in_process, limit
        self._memo: dict[Hashable, Any] = {}  # in this process: the values, or their bytes (copies)
        self._shared: dict[Hashable, tuple[bytes, V]] = {}  # copies: the bytes in _memo and the one value loaded
        _KINDS[name] = self

    def get(self, key: Hashable, *, shared: bool = False) -> V | None:
        """The value kept under `key`, or None. `shared` (a kind kept as copies): the caller changes nothing of
        what it gets, so every shared get of the same entry in this process gets one object, loaded once."""
        found = self._memo.get(key)
        if found is not None:
            if self.copies is None:
                return found
            if not shared:
                return self._loaded(found)
            held = self._shared.get(key)
            if held is None or held[0] is not found:  # not loaded yet, or loaded from bytes made again since
                held = (found, self._loaded(found))
                self._shared[key] = held
            return held[1]
        at = self._file_key(key)
        if at is None:
            return None
        blob = _store_get(at)
        if blob is None:
            return None
        try:
            value = self._loaded(blob)
        except Exception:  # a damaged entry: made again
            _store_drop(at)
            return None
        self._remember(key, blob)
        return value

    def put(self, key: Hashable, value: V, *, shared: bool = False) -> None:
        """Keep `value` under `key`; `shared`: the caller that made it changes nothing of it either (see get),
        so it is the object later shared gets return."""
        blob: Any = value
        if self.copies is not None:
            try:
                blob = self.copies[0](value)
            except (RecursionError, pickle.PicklingError, ValueError):  # nested too deep, or not kept that way
                return
        self._remember(key, blob)
        if shared and self.copies is not None and self.in_process:
            self._shared[key] = (blob, value)
        at = self._file_key(key)
        if at is not None:
            _store_put(at, blob)

    def __len__(self) -> int:
        """How many values this process keeps of this kind."""
        return len(self._memo)

    def values(self) -> list[Any]:
        """What this process keeps of this kind (of a kind kept as copies: their bytes)."""
        return list(self._memo.values())

    def clear(self) -> None:
        """Forget what this process kept of this kind (the file kept between runs stays)."""
        self._memo.clear()
        self._shared.clear()

    def drop(self, which: Callable[[Any], bool]) -> None:
        """Forget the keys `which` says, in this process."""
        for key in [k for k in self._memo if which(k)]:
            del self._memo[key]
            self._shared.pop(key, None)

    def _loaded(self, blob: bytes) -> V:
        assert self.copies is not None
        value: V = self.copies[1](blob)
        return value

    def _remember(self, key: Hashable, blob: Any) -> None:
        if not self.in_process:
            return
        if self.limit is not None and len(self._memo) >= self.limit:
            self._memo.clear()
            self._shared.clear()
        self._memo[key] = blob

    def _file_key(self, key: Hashable) -> tuple[str, str, Hashable] | None:
        if not self.between_runs:
            return None
        version = self.version()
        return (self.name, version, key) if version is not None else None


_KINDS: dict[str, Kept[Any]] = {}  # every kind declared in this process, by name


def remember(kept: Kept[V], key: Hashable, make: Callable[[], tuple[V, bool]], *, shared: bool = False) -> V:
    """The value `kept` holds under `key`; else `make()`'s (value, whether it may be kept), kept if it may.
    `shared`: the caller changes nothing of what it gets (Kept.get): a kind kept as copies then hands out one
    object per entry in this process instead of a fresh copy each time."""
    found = kept.get(key, shared=shared)
    if found is not None:
        return found
    value, keep = make()
    if keep:
        kept.put(key, value, shared=shared)
    return value


# ---------------------------------------------------------------------- the file kept between runs


class _Store:
    """The entries kept between runs, (kind, version, key) -> bytes, as read from the file and added since."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries = self._read()
        self.used: dict[tuple, None] = {}  # in the order of first use: the oldest make room first
        self.new = False
        # the file as this process last wrote it: its stamp (inode, size, time) and its entries. A process that
        # loads again and again (the tests, `fengsheng serve`) saves after each load with something new: while
        # the file is still the one it wrote, it is not read back (a few MB unpickled) to be merged again
        self.written: tuple[tuple[int, int, int], dict[tuple, bytes]] | None = None
        self.old_files_gone = False
        self.saved_at: float | None = None  # _clock() at the last save (save_soon)
        self.wanted = False  # a save_soon put off: done at the next save, at new_run() or when the process exits

    def _read(self) -> dict[tuple, bytes]:
        try:
            with self.path.open("rb") as f:
                loaded = pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, IndexError, TypeError):
            return {}  # nothing kept yet, or a file this version cannot read: everything is made again
        return loaded if isinstance(loaded, dict) else {}

    def _on_disk(self) -> dict[tuple, bytes]:
        """What the file holds now, without the stale entries: as this process wrote it last, if it is still that
        file (another process's save replaces it by a new file: another inode), else read."""
        if self.written is not None:
            with contextlib.suppress(OSError):
                if _stamp(os.stat(self.path)) == self.written[0]:
                    return dict(self.written[1])  # stale entries were left out when it was written
        return _fresh(self._read())

    def save(self) -> None:
        self.wanted = False
        self.saved_at = _clock()
        if not self.new:
            return
        # what other processes kept since this one read the file (another content set, another pack) stays,
        # up to MAX_ENTRIES: the entries this process did not use, oldest first, make room
        merged = self._on_disk()
        for key in self.used:
            if key in self.entries:
                merged.pop(key, None)
                merged[key] = self.entries[key]
        if len(merged) > MAX_ENTRIES:
            spare = [k for k in merged if k not in self.used]
            for key in spare[: len(merged) - MAX_ENTRIES]:
                del merged[key]
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            with tmp.open("wb") as f:
                pickle.dump(merged, f, protocol=pickle.HIGHEST_PROTOCOL)
                f.flush()
                stamp = _stamp(os.fstat(f.fileno()))
            os.replace(tmp, self.path)
            self.new = False
            self.written = (stamp, merged)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
            return
        if not self.old_files_gone:
            self.old_files_gone = True
            for old in self.path.parent.glob(_OLD_FILES):
                with contextlib.suppress(OSError):
                    old.unlink()


def _stamp(st: os.stat_result) -> tuple[int, int, int]:
    return st.st_ino, st.st_size, st.st_mtime_ns


def _fresh(entries: dict[tuple, bytes]) -> dict[tuple, bytes]:
    """The entries that are not stale, in a dict of their own: stale is an entry of a kind declared in this process
    under another version (kept by an older fengsheng), or a key of no kind's shape."""
    versions = {name: kind.version() for name, kind in _KINDS.items()}
    return {
        k: v for k, v in entries.items() if isinstance(k, tuple) and len(k) == 3 and versions.get(k[0], k[1]) == k[1]
    }


@lru_cache(maxsize=1)
def _store() -> _Store | None:
    folder = cache_dir()
    if folder is None:
        return None
    return _Store(folder / f"kept-{sys.implementation.cache_tag or 'python'}.pickle")


def _store_get(key: tuple) -> bytes | None:
    store = _store()
    found = store.entries.get(key) if store is not None else None
    if found is not None:
        assert store is not None
        store.used[key] = None
    return found


def _store_put(key: tuple, blob: bytes) -> None:
    store = _store()
    if store is not None:
        store.entries[key] = blob
        store.used[key] = None
        store.new = True


def _store_drop(key: tuple) -> None:
    store = _store()
    if store is not None:
        store.entries.pop(key, None)


def save() -> None:
    """Keep what this process made of the kinds kept between runs, for the next run (a no-op without a cache
    folder or anything new)."""
    store = _store()
    if store is not None:
        store.save()


SAVE_EVERY = 2.0  # seconds: save_soon saves at most this often; what it puts off is saved when the process exits
_clock = time.monotonic


def save_soon() -> None:
    """save(), unless this process saved less than SAVE_EVERY seconds ago: then at the next save, at new_run() or
    when the process exits. (Each save writes the whole file, a few MB: a process that loads packs again and again,
    the tests or `fengsheng serve`, saved after each load with anything new; a command that loads once saves at
    once, as before.)"""
    store = _store()
    if store is None or not store.new:
        return
    if store.saved_at is None or _clock() - store.saved_at >= SAVE_EVERY:
        store.save()
    elif not store.wanted:
        store.wanted = True
        if not _at_exit:
            _at_exit.append(atexit.register(_save_wanted))


_at_exit: list[object] = []  # the exit hook, once registered


def _save_wanted() -> None:
    """What a save_soon put off, saved (at exit and new_run)."""
    store = _store() if _store.cache_info().currsize else None  # only a store already in use: no folder made now
    if store is not None and store.wanted:
        store.save()


def new_run() -> None:
    """Forget the cache folder and the file as read (tests: what a new process would find), once what a save_soon
    put off is saved; what each kind keeps in this process stays (Kept.clear)."""
    _save_wanted()
    cache_dir.cache_clear()
    _store.cache_clear()
