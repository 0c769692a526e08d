"""The key-encryption key (KEK) that keeps the seal keys encrypted at rest.

SEAL_KEK (the key itself) or SEAL_KEK_FILE (a file holding it); when neither is set, a random key is
generated once into SEAL_KEK_FILE's default, a 0600 file in the instance's var folder. It never sits
with the exported files (FILES_DIR): a copy of the exports, or of the database, alone opens no key.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes
from flask import current_app

from api.extensions.hashkeys import private_file


class KekError(RuntimeError):
    """The key-encryption key is missing, misplaced, or not the one a key was encrypted with."""


def kek() -> bytes:
    config = current_app.config
    if config.get("SEAL_KEK"):
        return str(config["SEAL_KEK"]).encode()
    path = Path(config["SEAL_KEK_FILE"]).resolve()
    files = Path(config["FILES_DIR"]).resolve()
    if path == files or files in path.parents:
        raise KekError(f"SEAL_KEK_FILE ({path}) must not be inside FILES_DIR ({files})")
    return _read_or_create(path)


def _read_or_create(path: Path) -> bytes:
    """The KEK file, generated once (0600, written whole and linked into place: of two processes
    starting at once, both read the one that was linked)."""
    if not path.is_file():
        private_file(path, base64.urlsafe_b64encode(secrets.token_bytes(32)))
    return _read(path)


def _read(path: Path) -> bytes:
    value = path.read_bytes().strip()
    if not value:
        raise KekError(f"SEAL_KEK_FILE ({path}) is empty")
    return value


def kek_id(key: bytes | None = None) -> str:
    """Which KEK encrypted a key (a hash prefix: names it without revealing it)."""
    return hashlib.sha256(b"seal-kek:" + (key if key is not None else kek())).hexdigest()[:16]


def encrypt(private_key: PrivateKeyTypes) -> tuple[str, str]:
    """The key as encrypted PKCS#8 PEM, and the id of the KEK it is encrypted with."""
    key = kek()
    pem = private_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.BestAvailableEncryption(key)
    )
    return pem.decode(), kek_id(key)


def decrypt(encrypted_pem: str, expected_kek_id: str) -> PrivateKeyTypes:
    key = kek()
    if kek_id(key) != expected_kek_id:
        raise KekError("the configured SEAL_KEK is not the one this seal key was encrypted with")
    return serialization.load_pem_private_key(encrypted_pem.encode(), password=key)
