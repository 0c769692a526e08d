"""The old installation-wide seal: one self-signed key for every site, kept unencrypted beside the
exports (FILES_DIR/.fda-seal). Its key moves into the database, encrypted like every seal key and
retired (it verifies the PDFs it sealed and seals nothing new); the files are removed."""

from __future__ import annotations

import contextlib
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from flask import current_app
from sqlalchemy import select

from api.extensions.db import db, utcnow
from api.seals import certificates
from api.seals.models import SealKey, SealPurpose

FOLDER, KEY_FILE, CERT_FILE = ".fda-seal", "seal-key.pem", "seal-cert.pem"


def legacy_folder() -> Path:
    return Path(current_app.config["FILES_DIR"]) / FOLDER


def absorb_installation_seal() -> SealKey | None:
    """Move the old seal's key into the database (encrypted, retired) and delete its files; None
    when there is none. Committed by the caller."""
    folder = legacy_folder()
    key_path, cert_path = folder / KEY_FILE, folder / CERT_FILE
    if not key_path.is_file():
        return None
    key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes()) if cert_path.is_file() else None
    seal = None
    if cert is not None:
        key_id = certificates.key_id_of(cert)
        seal = db.session.scalar(select(SealKey).where(SealKey.key_id == key_id, SealKey.purpose == SealPurpose.LEGACY))
        if seal is None:
            seal = certificates.new_seal(SealPurpose.LEGACY, None, key, cert)
            seal.active, seal.retired_at = False, utcnow()
            db.session.add(seal)
            db.session.flush()
    for path in (key_path, cert_path):
        path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # something else is in it: left alone
        folder.rmdir()
    return seal
