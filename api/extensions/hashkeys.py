"""The key of the trail's and the signatures' hashes (21 CFR 11.10(e), 11.70): HMAC-SHA256 with a
secret kept outside the database, so that someone who can write the database cannot recompute a
hash that verifies.

Where the key comes from, first found wins: `AUDIT_HMAC_KEY` (the secret itself), `AUDIT_HMAC_KEY_FILE`
(a file holding it), else a random key generated once into `<var>/keys/audit-hmac.key` (mode 0600,
beside FILES_DIR; the demo and `make run`). Each keyed hash is stored with the key's id, a short
fingerprint, so the key can be rotated: retired keys stay readable from `AUDIT_HMAC_RETIRED_KEY_FILES`
(comma-separated files) and the rows they hashed still verify. A row without a key id was hashed
before keys existed (plain SHA-256); the callers decide which of those they still accept.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from flask import current_app

KEY_ID_LENGTH = 16
KEY_FILE_NAME = "audit-hmac.key"


@dataclass(frozen=True)
class HashKey:
    key_id: str
    secret: bytes = b""

    def mac(self, data: bytes) -> str:
        return hmac.new(self.secret, data, hashlib.sha256).hexdigest()


def key_id_of(secret: bytes) -> str:
    """A fingerprint naming the key (not the key: a one-way hash of it, domain-separated)."""
    return hashlib.sha256(b"coldchain-audit-hmac-key-id:" + secret).hexdigest()[:KEY_ID_LENGTH]


def _key(secret: bytes) -> HashKey:
    if len(secret) < 16:
        raise RuntimeError("the audit HMAC key must be at least 16 bytes")
    return HashKey(key_id_of(secret), secret)


def keys_folder() -> Path:
    """The installation's folder of local keys: beside FILES_DIR (var/), never inside what is served."""
    return Path(current_app.config["FILES_DIR"]).parent / "keys"


def private_file(path: Path, data: bytes) -> None:
    """Write `data` to a new file readable by its owner only; if another process wrote it first, keep
    theirs, so every process of the installation uses the same key. Written whole beside it and linked
    into place (the link fails if the name exists): no process ever reads half a key."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # created 0600
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileExistsError):  # another process's key is in place: keep it
            os.link(temporary, path)
    finally:
        os.unlink(temporary)


@lru_cache(maxsize=16)
def _file_key(path: str) -> HashKey:
    """A key file, read once per process (a rotation restarts the processes)."""
    return _key(Path(path).read_bytes().strip())


def _generated() -> HashKey:
    path = keys_folder() / KEY_FILE_NAME
    if not path.is_file():
        private_file(path, secrets.token_hex(32).encode())
    return _file_key(str(path))


def current_key() -> HashKey:
    """The key new hashes are made with."""
    config = current_app.config
    if config.get("AUDIT_HMAC_KEY"):
        return _key(str(config["AUDIT_HMAC_KEY"]).encode())
    if config.get("AUDIT_HMAC_KEY_FILE"):
        return _file_key(str(config["AUDIT_HMAC_KEY_FILE"]))
    return _generated()


def key_by_id(key_id: str) -> HashKey | None:
    """The current or a retired key with this id; None if the installation has no such key."""
    current = current_key()
    if current.key_id == key_id:
        return current
    for name in current_app.config.get("AUDIT_HMAC_RETIRED_KEY_FILES") or ():
        retired = _file_key(str(name))
        if retired.key_id == key_id:
            return retired
    return None


def keyed(data: bytes) -> tuple[str, str]:
    """The keyed hash of `data` with the current key, and the key's id."""
    key = current_key()
    return key.mac(data), key.key_id


def matches(data: bytes, key_id: str | None, stored: str | None) -> bool:
    """Whether `stored` is the hash of `data` under key `key_id` (None: plain SHA-256, a row hashed
    before keys existed). An unknown key id never matches."""
    if stored is None:
        return False
    if key_id is None:
        return hmac.compare_digest(hashlib.sha256(data).hexdigest(), stored)
    key = key_by_id(key_id)
    return key is not None and hmac.compare_digest(key.mac(data), stored)
