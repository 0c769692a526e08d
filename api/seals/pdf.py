"""The PAdES seal of a PDF with a site's seal key and an RFC 3161 signature timestamp, and its check.

Every sealed PDF carries the timestamp token of the configured authority (api/seals/timestamps.py);
no PDF is sealed without one. Checking a PDF names the seal that made it (its key id is looked up
among every site's seals, retired ones and the old installation-wide seal included), whether the
bytes are intact, whether the certificate chains to the installation's seal root (or the site's
uploaded chain) and whether the timestamp verifies.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from datetime import datetime

from asn1crypto import x509 as asn1_x509
from cryptography import x509
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import fields, signers
from pyhanko.sign.validation import async_validate_pdf_signature
from pyhanko_certvalidator import ValidationContext
from sqlalchemy import select

from api.extensions.db import db
from api.seals import certificates, detached, timestamps
from api.seals.models import SealKey, SealOrigin


@dataclass(frozen=True)
class PdfSeal:
    """What sealed a PDF: the seal's certificate subject, key id and the authority's time."""

    subject: str
    key_id: str
    timestamp_at: datetime | None

    def to_json(self) -> dict:
        return {
            "subject": self.subject,
            "keyId": self.key_id,
            "timestampAt": self.timestamp_at.isoformat() if self.timestamp_at else None,
        }


@dataclass(frozen=True)
class PdfSealVerdict:
    valid: bool  # intact, trusted and timestamped
    intact: bool
    trusted: bool
    timestamp_valid: bool
    seal: PdfSeal | None
    problem: str = ""


def seal_pdf_file(path: str, platform_id: int, *, field_name: str, reason: str, location: str | None) -> PdfSeal:
    """Seal the PDF at `path` in place (an incremental update) with the site's seal and a timestamp."""
    seal = certificates.site_seal(platform_id)
    signer = detached.signer_for(seal)
    stamper = timestamps.timestamper()
    with open(path, "rb") as source:
        writer = IncrementalPdfFileWriter(source)
        output = io.BytesIO()
        signers.sign_pdf(
            writer,
            signers.PdfSignatureMetadata(
                field_name=field_name,
                reason=reason,
                location=location,
                subfilter=fields.SigSeedSubFilter.PADES,
                md_algorithm="sha256",
            ),
            signer=signer,
            timestamper=stamper,
            output=output,
        )
    sealed = output.getvalue()
    found = read_seal(sealed)
    if found is None or found.timestamp_at is None:  # never a seal without its timestamp
        raise timestamps.TimestampRequestError("the sealed PDF carries no timestamp")
    with open(path, "wb") as target:
        target.write(sealed)
    return found


def _last_signature(pdf: bytes):
    reader = PdfFileReader(io.BytesIO(pdf), strict=False)
    embedded = reader.embedded_regular_signatures
    return embedded[-1] if embedded else None


def read_seal(pdf: bytes) -> PdfSeal | None:
    """The seal's subject, key id and timestamp time as written in the PDF (not checked)."""
    try:
        signature = _last_signature(pdf)
        if signature is None:
            return None
        cert = x509.load_der_x509_certificate(signature.signer_cert.dump())
        token = detached.embedded_token(signature.signed_data)
        when = timestamps.token_time(token.dump()) if token is not None else None
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return PdfSeal(cert.subject.rfc4514_string(), certificates.key_id_of(cert), when)


def _roots_for(seal: SealKey | None) -> list[asn1_x509.Certificate]:
    roots = [detached.asn1_certificate(certificates.certificate_of(certificates.root_seal()))]
    if seal is not None and (seal.origin is SealOrigin.UPLOADED or seal.platform_id is None):
        chain = certificates.load_chain(seal.chain_pem)
        roots.append(detached.asn1_certificate(chain[-1] if chain else certificates.certificate_of(seal)))
    return roots


def verify_pdf(pdf: bytes) -> PdfSealVerdict:
    """Check a sealed PDF: never raises on a damaged file (the verdict says so)."""
    found = read_seal(pdf)
    if found is None:
        return PdfSealVerdict(False, False, False, False, None, "no readable seal")
    seal = db.session.scalar(select(SealKey).where(SealKey.key_id == found.key_id).order_by(SealKey.id.desc()))
    context = ValidationContext(trust_roots=_roots_for(seal), allow_fetching=False)
    authorities = ValidationContext(trust_roots=timestamps.trust_roots(), allow_fetching=False)
    try:
        status = asyncio.run(
            async_validate_pdf_signature(
                _last_signature(pdf), signer_validation_context=context, ts_validation_context=authorities
            )
        )
    except Exception as error:
        return PdfSealVerdict(False, False, False, False, found, str(error)[:200])
    intact = bool(status.intact and status.valid)
    trusted = bool(status.trusted) and seal is not None
    ts = status.timestamp_validity
    timestamp_valid = bool(ts is not None and ts.intact and ts.valid and ts.trusted)
    problem = (
        ""
        if intact and trusted and timestamp_valid
        else "not intact"
        if not intact
        else "seal not trusted"
        if not trusted
        else "timestamp does not verify"
    )
    return PdfSealVerdict(intact and trusted and timestamp_valid, intact, trusted, timestamp_valid, found, problem)
