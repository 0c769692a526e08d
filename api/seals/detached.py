"""Detached seals over any bytes (the audit trail's chain heads, exported records ...).

    sign_detached(platform_id: int, data: bytes) -> SealedBlob
    verify_detached(platform_id: int, data: bytes, blob: SealedBlob) -> DetachedVerdict

`sign_detached` signs SHA-256(data) with the site's seal key (CMS / PKCS#7 SignedData, detached:
the data is not inside; CAdES signed attributes) and has the configured RFC 3161 authority stamp the
signature value; the token travels inside the CMS as its signature-time-stamp attribute and beside it
in the blob. The site's seal is generated on first use (api/seals/certificates.py). Raises
TimestampRequestError when the authority cannot be reached: no seal is made without a timestamp.

`verify_detached` checks that the CMS covers `data`, that its signer is one of the site's seals
(the active one or a retired one; another site's seal does not verify), that the certificate chains
to the installation's seal root or the site's uploaded chain, and that the timestamp token is intact,
covers the signature and comes from a trusted authority. It never raises on a bad blob: the verdict
says what is wrong. Store a blob with `to_json()` / `SealedBlob.from_json()`.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
from dataclasses import dataclass, field
from datetime import datetime

from asn1crypto import cms, keys
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from pyhanko.sign import signers
from pyhanko.sign.validation.errors import SignatureValidationError
from pyhanko.sign.validation.generic_cms import async_validate_detached_cms
from pyhanko_certvalidator import ValidationContext
from pyhanko_certvalidator.registry import SimpleCertificateStore

from api.seals import certificates, timestamps
from api.seals.models import SealKey, SealOrigin


@dataclass(frozen=True)
class SealedBlob:
    signature: bytes  # DER CMS ContentInfo (SignedData, detached), the timestamp token inside
    timestamp_token: bytes  # DER RFC 3161 token over the signature value (the same one as inside)
    certificate_pem: str  # the site seal's certificate
    key_id: str  # SHA-256 of the certificate's SubjectPublicKeyInfo, hex
    timestamp_time: datetime  # the authority's time (genTime)
    data_sha256: str  # what was signed, for the record (the verifier hashes the data itself)

    def to_json(self) -> dict:
        return {
            "signature": base64.b64encode(self.signature).decode(),
            "timestampToken": base64.b64encode(self.timestamp_token).decode(),
            "certificatePem": self.certificate_pem,
            "keyId": self.key_id,
            "timestampTime": self.timestamp_time.isoformat(),
            "dataSha256": self.data_sha256,
        }

    @classmethod
    def from_json(cls, value: dict) -> SealedBlob:
        return cls(
            base64.b64decode(value["signature"]),
            base64.b64decode(value["timestampToken"]),
            value["certificatePem"],
            value["keyId"],
            datetime.fromisoformat(value["timestampTime"]),
            value["dataSha256"],
        )


@dataclass(frozen=True)
class DetachedVerdict:
    valid: bool  # all of the below
    intact: bool  # the signature covers exactly this data
    trusted: bool  # the signer is the site's seal and chains to a trusted root
    timestamp_valid: bool  # the token covers the signature and its authority is trusted
    timestamp_time: datetime | None
    key_id: str
    subject: str
    problems: tuple[str, ...] = field(default=())


def asn1_certificate(certificate: x509.Certificate) -> asn1_x509.Certificate:
    return asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER))


def signer_for(seal: SealKey) -> signers.SimpleSigner:
    """A pyHanko signer with the seal's key (decrypted for the call) and its chain."""
    material = certificates.material(seal)
    key_der = material.private_key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return signers.SimpleSigner(
        signing_cert=asn1_certificate(material.certificate),
        signing_key=keys.PrivateKeyInfo.load(key_der),
        cert_registry=SimpleCertificateStore.from_certs([asn1_certificate(c) for c in material.chain]),
    )


def sign_detached(platform_id: int, data: bytes) -> SealedBlob:
    seal = certificates.site_seal(platform_id)
    stamper = timestamps.timestamper()
    content = asyncio.run(
        signer_for(seal).async_sign_general_data(data, "sha256", detached=True, use_cades=True, timestamper=stamper)
    )
    token = embedded_token(content["content"])
    if token is None:  # pyHanko stamps when given a timestamper; never seal without one
        raise timestamps.TimestampRequestError("the seal carries no timestamp")
    return SealedBlob(
        signature=content.dump(),
        timestamp_token=token.dump(),
        certificate_pem=seal.certificate_pem,
        key_id=seal.key_id,
        timestamp_time=timestamps.token_time(token.dump()),
        data_sha256=hashlib.sha256(data).hexdigest(),
    )


def embedded_token(signed_data: cms.SignedData) -> cms.ContentInfo | None:
    for attribute in signed_data["signer_infos"][0]["unsigned_attrs"] or ():
        if attribute["type"].native == "signature_time_stamp_token":
            return attribute["values"][0]
    return None


def trust_roots_for(platform_id: int) -> list[asn1_x509.Certificate]:
    """The installation's seal root, and the top of each certificate the site uploaded."""
    roots = [asn1_certificate(certificates.certificate_of(certificates.root_seal()))]
    for seal in certificates.site_seals(platform_id):
        if seal.origin is SealOrigin.UPLOADED:
            chain = certificates.load_chain(seal.chain_pem)
            roots.append(asn1_certificate(chain[-1] if chain else certificates.certificate_of(seal)))
    return roots


def verify_detached(platform_id: int, data: bytes, blob: SealedBlob) -> DetachedVerdict:
    problems: list[str] = []
    try:
        content = cms.ContentInfo.load(blob.signature)
        signed_data = content["content"]
        signed_data.native  # noqa: B018 - parse it all: a damaged blob is a verdict, not an exception
        token = embedded_token(signed_data)
    except (ValueError, TypeError, KeyError) as error:
        return DetachedVerdict(False, False, False, False, None, blob.key_id, "", (f"unreadable signature: {error}",))
    known = {seal.key_id: seal for seal in certificates.site_seals(platform_id)}
    context = ValidationContext(trust_roots=trust_roots_for(platform_id), allow_fetching=False)
    authorities = ValidationContext(trust_roots=timestamps.trust_roots(), allow_fetching=False)
    try:
        status = asyncio.run(
            async_validate_detached_cms(
                data, signed_data, signer_validation_context=context, ts_validation_context=authorities
            )
        )
    except (SignatureValidationError, ValueError, TypeError, KeyError, NotImplementedError) as error:
        return DetachedVerdict(False, False, False, False, None, blob.key_id, "", (str(error),))
    signer = x509.load_der_x509_certificate(status.signing_cert.dump())
    key_id = certificates.key_id_of(signer)
    intact = bool(status.intact and status.valid)
    if not intact:
        problems.append("the signature does not cover this data")
    trusted = bool(status.trusted) and key_id in known
    if key_id not in known:
        problems.append("the signer is not this site's seal")
    elif not status.trusted:
        problems.append("the seal certificate does not chain to a trusted root")
    ts_status = status.timestamp_validity
    if token is None or ts_status is None:
        timestamp_valid, when = False, None
        problems.append("the seal carries no timestamp")
    else:
        timestamp_valid = bool(ts_status.intact and ts_status.valid and ts_status.trusted)
        when = ts_status.timestamp
        if token.dump() != blob.timestamp_token:
            timestamp_valid = False
            problems.append("the blob's timestamp token is not the one inside the signature")
        elif not timestamp_valid:
            problems.append("the timestamp does not verify")
    return DetachedVerdict(
        valid=intact and trusted and timestamp_valid,
        intact=intact,
        trusted=trusted,
        timestamp_valid=timestamp_valid,
        timestamp_time=when,
        key_id=key_id,
        subject=signer.subject.rfc4514_string(),
        problems=tuple(problems),
    )
