"""A seal key: the installation's seal root, its local timestamp authority, or a site's document seal.

The private key is kept encrypted (PKCS#8, the key-encryption key of api/seals/kek.py); the
certificate and its chain are public. A replaced seal stays (active false) so that what it sealed
can still be verified.
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, str_enum, utcnow


class SealPurpose(enum.StrEnum):
    ROOT = "root"  # the installation's seal CA: issues the site seals and the local TSA certificate
    TSA = "tsa"  # the local RFC 3161 timestamp authority (tests, make run)
    SITE = "site"  # a site's (platform's) document seal
    LEGACY = "legacy"  # the old installation-wide seal (its key was a file): kept to verify, seals nothing new


class SealOrigin(enum.StrEnum):
    GENERATED = "generated"
    UPLOADED = "uploaded"


class SealKey(Model):
    __tablename__ = "seal_key"
    __table_args__ = (
        # One active seal per site, and one active root / TSA per installation.
        Index(
            "uq_seal_key_active_site",
            "platform_id",
            unique=True,
            postgresql_where=text("active AND platform_id IS NOT NULL"),
            sqlite_where=text("active AND platform_id IS NOT NULL"),
        ),
        Index(
            "uq_seal_key_active_installation",
            "purpose",
            unique=True,
            postgresql_where=text("active AND platform_id IS NULL"),
            sqlite_where=text("active AND platform_id IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    purpose: Mapped[SealPurpose] = mapped_column(str_enum(SealPurpose, 10))
    platform_id: Mapped[int | None] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    active: Mapped[bool] = mapped_column(default=True)
    origin: Mapped[SealOrigin] = mapped_column(str_enum(SealOrigin, 10))
    certificate_pem: Mapped[str] = mapped_column(Text)
    # The issuers above the certificate (PEM, nearest first); empty for a self-signed certificate.
    chain_pem: Mapped[str] = mapped_column(Text, default="")
    # PKCS#8 PEM encrypted with the key-encryption key; `kek_id` names which one (never the key).
    encrypted_private_key: Mapped[str] = mapped_column(Text)
    kek_id: Mapped[str] = mapped_column(String(16))
    # SHA-256 of the certificate's SubjectPublicKeyInfo, hex: how a sealed blob names its key.
    key_id: Mapped[str] = mapped_column(String(64), index=True)
    subject: Mapped[str] = mapped_column(String(500))
    issuer: Mapped[str] = mapped_column(String(500))
    serial_number: Mapped[str] = mapped_column(String(64))
    not_before: Mapped[datetime] = mapped_column()
    not_after: Mapped[datetime] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The account that uploaded it (no foreign key: the seals sit below the accounts).
    created_by: Mapped[int | None] = mapped_column()
    retired_at: Mapped[datetime | None] = mapped_column()
