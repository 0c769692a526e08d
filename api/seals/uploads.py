"""A site's own seal certificate (from a CA its customers' PDF readers trust), uploaded by the operator:
PEM (certificate, then its chain; the private key, encrypted or not) or PKCS#12 with its password.
Checked before it replaces the site's seal: the key belongs to the certificate, the certificate is
valid now and may sign documents, the key is strong enough. The replaced seal is retired, never
deleted (it verifies what it sealed). A refusal names the request field at fault."""

from __future__ import annotations

import base64
import binascii
from datetime import UTC, datetime

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from flask_babel import gettext

from api.extensions.db import db, utcnow
from api.seals import certificates
from api.seals.models import SealKey, SealOrigin, SealPurpose

MIN_RSA_BITS = 2048
EC_CURVES = (ec.SECP256R1, ec.SECP384R1, ec.SECP521R1)


class UploadRefusedError(ValueError):
    """Bad input: `field` names the request field, `message` is translated."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


def parse(
    *,
    certificate: str | None,
    private_key: str | None,
    key_password: str | None,
    pkcs12_base64: str | None,
    now: datetime | None = None,
):
    """(key, certificate, chain) from the uploaded fields, checked; raises UploadRefusedError."""
    password = key_password.encode() if key_password else None
    if pkcs12_base64:
        key, cert, chain = _from_pkcs12(pkcs12_base64, password)
    else:
        if not certificate:
            raise UploadRefusedError("certificate", gettext("Enter the certificate (PEM) or a PKCS#12 file."))
        if not private_key:
            raise UploadRefusedError("privateKey", gettext("Enter the certificate's private key (PEM)."))
        cert, chain = _certificates(certificate)
        key = _private_key(private_key, password)
    check(key, cert, now or datetime.now(UTC), "pkcs12" if pkcs12_base64 else "privateKey")
    return key, cert, chain


def _from_pkcs12(value: str, password: bytes | None):
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise UploadRefusedError("pkcs12", gettext("The PKCS#12 file could not be read.")) from None
    try:
        key, cert, extra = pkcs12.load_key_and_certificates(raw, password)
    except ValueError:
        # Wrong password and damaged file read the same to the library: name both.
        raise UploadRefusedError(
            "keyPassword", gettext("The PKCS#12 file could not be opened: check its password.")
        ) from None
    if key is None or cert is None:
        raise UploadRefusedError("pkcs12", gettext("The PKCS#12 file must hold a certificate and its private key."))
    return key, cert, tuple(extra or ())


def _certificates(value: str) -> tuple[x509.Certificate, tuple[x509.Certificate, ...]]:
    try:
        found = x509.load_pem_x509_certificates(value.encode())
    except ValueError:
        raise UploadRefusedError("certificate", gettext("The certificate is not a PEM certificate.")) from None
    return found[0], tuple(found[1:])


def _private_key(value: str, password: bytes | None):
    try:
        return serialization.load_pem_private_key(value.encode(), password=password)
    except TypeError:  # encrypted without a password, or a password for a plain key
        raise UploadRefusedError(
            "keyPassword", gettext("The private key is encrypted: enter its password (or none for a plain key).")
        ) from None
    except ValueError:
        if password is not None and b"ENCRYPTED" in value.encode():
            raise UploadRefusedError("keyPassword", gettext("The private key's password is wrong.")) from None
        raise UploadRefusedError("privateKey", gettext("The private key is not a PEM private key.")) from None


def check(key, cert: x509.Certificate, now: datetime, key_field: str) -> None:
    if not isinstance(key, rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey):
        raise UploadRefusedError(key_field, gettext("The key must be an RSA or elliptic-curve key."))
    if isinstance(key, rsa.RSAPrivateKey) and key.key_size < MIN_RSA_BITS:
        raise UploadRefusedError(key_field, gettext("An RSA key must have at least 2048 bits."))
    if isinstance(key, ec.EllipticCurvePrivateKey) and not isinstance(key.curve, EC_CURVES):
        raise UploadRefusedError(key_field, gettext("The elliptic curve must be P-256, P-384 or P-521."))
    public = serialization.PublicFormat.SubjectPublicKeyInfo
    if key.public_key().public_bytes(serialization.Encoding.DER, public) != cert.public_key().public_bytes(
        serialization.Encoding.DER, public
    ):
        raise UploadRefusedError(key_field, gettext("The private key does not belong to the certificate."))
    cert_field = "pkcs12" if key_field == "pkcs12" else "certificate"
    if now < cert.not_valid_before_utc:
        raise UploadRefusedError(cert_field, gettext("The certificate is not valid yet."))
    if now >= cert.not_valid_after_utc:
        raise UploadRefusedError(cert_field, gettext("The certificate has expired."))
    _check_usage(cert, cert_field)


def _check_usage(cert: x509.Certificate, field: str) -> None:
    try:
        constraints = cert.extensions.get_extension_for_class(x509.BasicConstraints).value
        if constraints.ca:
            raise UploadRefusedError(field, gettext("A CA certificate cannot seal documents: upload the site's own."))
    except x509.ExtensionNotFound:
        pass
    try:
        usage = cert.extensions.get_extension_for_class(x509.KeyUsage).value
    except x509.ExtensionNotFound:
        return
    if not (usage.digital_signature or usage.content_commitment):
        raise UploadRefusedError(field, gettext("The certificate's key usage does not allow signing documents."))


def install(platform_id: int, key, cert: x509.Certificate, chain, created_by: int | None) -> SealKey:
    """Make the uploaded seal the site's active one; the one it replaces is retired (not committed)."""
    current = certificates.active_seal(SealPurpose.SITE, platform_id)
    if current is not None:
        current.active, current.retired_at = False, utcnow()
        db.session.flush()  # before the new row: one active seal per site
    seal = certificates.new_seal(
        SealPurpose.SITE, platform_id, key, cert, tuple(chain), origin=SealOrigin.UPLOADED, created_by=created_by
    )
    db.session.add(seal)
    db.session.flush()
    return seal
