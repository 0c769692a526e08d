"""The seal certificates: one seal root per installation, which issues a certificate to each site
(platform) on its first seal and to the local timestamp authority, so every generated seal chains to
one root a verifier trusts. A site may instead carry its own certificate (api/seals/uploads.py).

Keys are generated and stored in a transaction of their own: a seal made with a key must find that
key again even if the caller's transaction is rolled back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.asymmetric.types import CertificateIssuerPrivateKeyTypes, PrivateKeyTypes
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from api.extensions.db import db
from api.platform.models import Platform
from api.seals import kek
from api.seals.models import SealKey, SealOrigin, SealPurpose

ROOT_NAME = "Cold-chain platform seal root"
TSA_NAME = "Cold-chain platform local timestamp authority"
ROOT_YEARS, LEAF_YEARS = 20, 10


@dataclass(frozen=True)
class SealMaterial:
    """A seal's key, certificate and the certificates above it (nearest first)."""

    seal: SealKey
    private_key: PrivateKeyTypes
    certificate: x509.Certificate
    chain: tuple[x509.Certificate, ...]


def key_id_of(certificate: x509.Certificate) -> str:
    spki = certificate.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return hashlib.sha256(spki).hexdigest()


def pem(certificate: x509.Certificate) -> str:
    return certificate.public_bytes(serialization.Encoding.PEM).decode()


def load_chain(chain_pem: str) -> tuple[x509.Certificate, ...]:
    return tuple(x509.load_pem_x509_certificates(chain_pem.encode())) if chain_pem.strip() else ()


def material(seal: SealKey) -> SealMaterial:
    return SealMaterial(
        seal,
        kek.decrypt(seal.encrypted_private_key, seal.kek_id),
        x509.load_pem_x509_certificate(seal.certificate_pem.encode()),
        load_chain(seal.chain_pem),
    )


def certificate_of(seal: SealKey) -> x509.Certificate:
    return x509.load_pem_x509_certificate(seal.certificate_pem.encode())


def new_seal(
    purpose: SealPurpose,
    platform_id: int | None,
    private_key: PrivateKeyTypes,
    certificate: x509.Certificate,
    chain: tuple[x509.Certificate, ...] = (),
    *,
    origin: SealOrigin = SealOrigin.GENERATED,
    created_by: int | None = None,
) -> SealKey:
    encrypted, encrypted_with = kek.encrypt(private_key)
    return SealKey(
        purpose=purpose,
        platform_id=platform_id,
        active=True,
        origin=origin,
        certificate_pem=pem(certificate),
        chain_pem="".join(pem(c) for c in chain),
        encrypted_private_key=encrypted,
        kek_id=encrypted_with,
        key_id=key_id_of(certificate),
        subject=certificate.subject.rfc4514_string()[:500],
        issuer=certificate.issuer.rfc4514_string()[:500],
        serial_number=format(certificate.serial_number, "x")[:64],
        not_before=certificate.not_valid_before_utc,
        not_after=certificate.not_valid_after_utc,
        created_by=created_by,
    )


# ---- finding (and on first use making) the installation's and a site's seal ------------------------


def active_seal(purpose: SealPurpose, platform_id: int | None = None, session: Session | None = None) -> SealKey | None:
    session = session or db.session
    stmt = select(SealKey).where(SealKey.purpose == purpose, SealKey.active.is_(True))
    stmt = stmt.where(SealKey.platform_id.is_(None) if platform_id is None else SealKey.platform_id == platform_id)
    return session.scalar(stmt)


def root_seal() -> SealKey:
    return _ensure(SealPurpose.ROOT, None)


def tsa_seal() -> SealKey:
    return _ensure(SealPurpose.TSA, None)


def site_seal(platform_id: int) -> SealKey:
    """The site's active seal; generated (issued by the installation's root) on first use."""
    return _ensure(SealPurpose.SITE, platform_id)


def site_seals(platform_id: int) -> list[SealKey]:
    """Every seal the site has had, newest first (the retired ones verify what they sealed)."""
    stmt = select(SealKey).where(SealKey.purpose == SealPurpose.SITE, SealKey.platform_id == platform_id)
    return list(db.session.scalars(stmt.order_by(SealKey.id.desc())))


def _ensure(purpose: SealPurpose, platform_id: int | None) -> SealKey:
    found = active_seal(purpose, platform_id)
    if found is not None:
        return found
    if purpose is not SealPurpose.ROOT:
        root_seal()
    with _own_transaction() as session:
        if active_seal(purpose, platform_id, session) is None:
            try:
                with session.begin_nested():
                    session.add(_generate(purpose, platform_id, session))
            except IntegrityError:
                pass  # another process made it first: use theirs
    found = active_seal(purpose, platform_id)
    if found is None:
        raise LookupError(f"no {purpose.value} seal could be made")
    return found


@contextmanager
def _own_transaction() -> Iterator[Session]:
    if db.engine.dialect.name == "sqlite":
        # One writer at a time on SQLite: a second connection would wait on the request's own one.
        with db.session.begin_nested():
            yield db.session
        return
    with Session(db.engine) as session, session.begin():
        yield session


def _generate(purpose: SealPurpose, platform_id: int | None, session: Session) -> SealKey:
    now = datetime.now(UTC)
    if purpose is SealPurpose.ROOT:
        key = ec.generate_private_key(ec.SECP256R1())
        name = _name(ROOT_NAME)
        cert = _builder(name, name, key, now, ROOT_YEARS, ca=True).sign(key, hashes.SHA256())
        return new_seal(purpose, None, key, cert)
    root = material(active_seal(SealPurpose.ROOT, None, session))
    if purpose is SealPurpose.TSA:
        # RFC 3161 tokens are RSA-signed here (pyHanko's TSA signer signs with RSA only).
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        usage = x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING])
        cert = _sign_leaf(_name(TSA_NAME), key, root, now, usage)
        return new_seal(purpose, None, key, cert, (root.certificate,))
    platform = session.get(Platform, platform_id)
    if platform is None:
        raise LookupError(f"no platform {platform_id}")
    key = ec.generate_private_key(ec.SECP256R1())
    cert = _sign_leaf(_name(f"{platform.enterprise_name} document seal"[:64], platform.slug), key, root, now, None)
    return new_seal(purpose, platform_id, key, cert, (root.certificate,))


def _name(common_name: str, unit: str | None = None) -> x509.Name:
    attributes = [x509.NameAttribute(NameOID.COMMON_NAME, common_name)]
    if unit:
        attributes.append(x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, unit[:64]))
    return x509.Name(attributes)


def _builder(subject, issuer, key, now, years, *, ca: bool) -> x509.CertificateBuilder:
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(now + timedelta(days=365 * years))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=0 if ca else None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=not ca,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=ca,
                crl_sign=ca,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
    )


def _sign_leaf(subject, key, root: SealMaterial, now, usage: x509.ExtendedKeyUsage | None) -> x509.Certificate:
    issuer_key: CertificateIssuerPrivateKeyTypes = root.private_key  # type: ignore[assignment]
    builder = _builder(subject, root.certificate.subject, key, now, LEAF_YEARS, ca=False).add_extension(
        x509.AuthorityKeyIdentifier.from_issuer_public_key(root.certificate.public_key()), critical=False
    )
    if usage is not None:
        builder = builder.add_extension(usage, critical=True)
    return builder.sign(issuer_key, hashes.SHA256())
