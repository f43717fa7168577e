"""Sealing a save's referee part: the seed and the actions, unreadable without the user's key.

A hot-seat save (``fengsheng play``: several people at one machine) must not show anybody at the table the
seed (it fixes every hidden card) or the action ids (deck ids: which cards each seat sent face down). The
save keeps them sealed: encrypted and authenticated with a key kept in the user's data folder, made on first
use with mode 0600. What this does and does not hide is said in docs/play.md ("What a save hides"): it stops
a reader of the file, not someone who may read the key file — at a hot-seat table, everyone at the keyboard.

The construction is BLAKE2b throughout (the standard library's, keyed): a keystream of BLAKE2b(key, nonce ‖
block number) blocks XORed with the text (a PRF in counter mode), then a BLAKE2b MAC over nonce and ciphertext
(encrypt-then-MAC), with separate keys derived for the two. A leaf module: it imports nothing of the project.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

__all__ = ["KEY_FILE", "SealError", "data_dir", "open_sealed", "seal", "user_key"]

KEY_FILE = "save.key"
_KEY_BYTES = 32
_NONCE_BYTES = 16
_TAG_BYTES = 32
_BLOCK = 64  # BLAKE2b's largest digest


class SealError(ValueError):
    """A sealed text that cannot be opened (another key, changed bytes, not a sealed text); the message says
    which and what to do."""


def data_dir() -> Path:
    """The user's data folder for fengsheng: ``$FENGSHENG_DATA_DIR``, else ``$XDG_DATA_HOME/fengsheng``, else
    ``~/.local/share/fengsheng``."""
    explicit = os.environ.get("FENGSHENG_DATA_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "fengsheng"


def user_key(create: bool) -> bytes | None:
    """The user's save key (data_dir()/save.key); made (0600, in a 0700 folder) if `create` and missing, else
    None when missing. OSError when the folder cannot be made or the file read."""
    path = data_dir() / KEY_FILE
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        if not create:
            return None
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        key = secrets.token_bytes(_KEY_BYTES)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        return key
    if len(key) != _KEY_BYTES:
        raise SealError(f"{path} is not a fengsheng save key ({len(key)} bytes, not {_KEY_BYTES})")
    return key


def _subkey(key: bytes, purpose: bytes) -> bytes:
    return hashlib.blake2b(purpose, key=key, digest_size=_KEY_BYTES).digest()


def _keystream_xor(key: bytes, nonce: bytes, data: bytes) -> bytes:
    out = bytearray(len(data))
    for block in range(0, len(data), _BLOCK):
        pad = hashlib.blake2b(nonce + block.to_bytes(8, "big"), key=key).digest()
        chunk = data[block : block + _BLOCK]
        out[block : block + len(chunk)] = bytes(a ^ b for a, b in zip(chunk, pad, strict=False))
    return bytes(out)


def _tag(key: bytes, nonce: bytes, ciphertext: bytes) -> bytes:
    return hashlib.blake2b(nonce + ciphertext, key=key, digest_size=_TAG_BYTES).digest()


def seal(key: bytes, text: bytes) -> str:
    """`text` encrypted and authenticated with `key`, as printable ASCII (base64)."""
    nonce = secrets.token_bytes(_NONCE_BYTES)
    ciphertext = _keystream_xor(_subkey(key, b"encrypt"), nonce, text)
    return base64.b64encode(nonce + ciphertext + _tag(_subkey(key, b"mac"), nonce, ciphertext)).decode("ascii")


def open_sealed(key: bytes, sealed: str) -> bytes:
    """The text `seal(key, text)` sealed; SealError if `sealed` is not such a text or another key sealed it."""
    try:
        raw = base64.b64decode(sealed.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise SealError("the sealed part is not a sealed text (not base64)") from None
    if len(raw) < _NONCE_BYTES + _TAG_BYTES:
        raise SealError("the sealed part is too short to be a sealed text")
    nonce, ciphertext, tag = raw[:_NONCE_BYTES], raw[_NONCE_BYTES:-_TAG_BYTES], raw[-_TAG_BYTES:]
    if not hmac.compare_digest(tag, _tag(_subkey(key, b"mac"), nonce, ciphertext)):
        raise SealError("the sealed part was changed, or was sealed with another key")
    return _keystream_xor(_subkey(key, b"encrypt"), nonce, ciphertext)
