"""RFC 3161 trusted timestamps: a token for some data from the configured authority, and its check.

SEAL_TSA_URL names the timestamp authority (RFC 3161 over HTTP; the outbound-address rules of
api/extensions/outbound.py apply, so a local one is listed in OUTBOUND_ALLOWED_HOSTS). Its issuing
certificate is trusted through SEAL_TSA_TRUST_FILE (PEM; the installation's seal root is always
trusted). Unset, the installation's local authority (api/seals/local_tsa.py) stamps in-process:
what the tests and `make run` use; it makes real tokens that any RFC 3161 verifier checks.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from asn1crypto import cms, tsp
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from flask import current_app
from pyhanko.sign.timestamps import TimeStamper
from pyhanko.sign.timestamps.common_utils import TimestampRequestError, set_tsp_headers
from pyhanko.sign.validation.errors import SignatureValidationError
from pyhanko.sign.validation.generic_cms import validate_tst_signed_data
from pyhanko_certvalidator import ValidationContext
from pyhanko_certvalidator.errors import PathBuildingError, PathValidationError

from api.extensions import outbound
from api.seals import certificates
from api.seals.local_tsa import local_authority

TOKEN_MEDIA_TYPE = "application/timestamp-reply"
TIMEOUT_SECONDS = 10


class OutboundTimeStamper(TimeStamper):
    """pyHanko's HTTP client, but through the api's checked outbound session (check_url before the
    call, check_peer on connecting): the same rule as every other address the api reaches."""

    def __init__(self, url: str, timeout: float = TIMEOUT_SECONDS):
        super().__init__()
        self.url = outbound.check_url(url)
        self.timeout = timeout

    async def async_request_tsa_response(self, req: tsp.TimeStampReq) -> tsp.TimeStampResp:
        return await asyncio.to_thread(self._post, req)

    def _post(self, req: tsp.TimeStampReq) -> tsp.TimeStampResp:
        try:
            with outbound.session() as http:
                answer = http.post(self.url, data=req.dump(), headers=set_tsp_headers({}), timeout=self.timeout)
        except OSError as error:
            raise TimestampRequestError("the timestamp authority could not be reached") from error
        if answer.status_code != 200 or answer.headers.get("Content-Type") != TOKEN_MEDIA_TYPE:
            raise TimestampRequestError(f"the timestamp authority answered {answer.status_code}")
        return tsp.TimeStampResp.load(answer.content)


def timestamper() -> TimeStamper:
    """The configured authority's client, or the installation's local authority."""
    url = current_app.config.get("SEAL_TSA_URL")
    if url:
        return OutboundTimeStamper(url)
    return local_authority()


def trust_roots() -> list[asn1_x509.Certificate]:
    """The roots a timestamp authority's certificate must chain to."""
    roots = [_asn1(certificates.certificate_of(certificates.root_seal()))]
    trust_file = current_app.config.get("SEAL_TSA_TRUST_FILE")
    if trust_file:
        for cert in x509.load_pem_x509_certificates(Path(trust_file).read_bytes()):
            roots.append(_asn1(cert))
    return roots


def _asn1(certificate) -> asn1_x509.Certificate:
    return asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER))


def request_token(data: bytes, stamper: TimeStamper | None = None) -> bytes:
    """An RFC 3161 token (DER ContentInfo) over SHA-256(data). Raises TimestampRequestError."""
    stamper = stamper or timestamper()
    token = asyncio.run(stamper.async_timestamp(hashlib.sha256(data).digest(), "sha256"))
    return token.dump()


@dataclass(frozen=True)
class TimestampVerdict:
    valid: bool  # the token is intact, for this data, and its authority chains to a trusted root
    time: datetime | None  # the authority's time (genTime), when the token could be read
    authority: str  # the authority certificate's subject
    problem: str = ""


def token_time(token: bytes) -> datetime:
    return _tst_info(cms.ContentInfo.load(token))["gen_time"].native


def _tst_info(content: cms.ContentInfo) -> tsp.TSTInfo:
    return content["content"]["encap_content_info"]["content"].parsed


def verify_token(token: bytes, data: bytes, roots: list[asn1_x509.Certificate] | None = None) -> TimestampVerdict:
    """Check a token against the data it stamps and the trusted authority roots (default: trust_roots())."""
    try:
        content = cms.ContentInfo.load(token)
        signed_data = content["content"]
        when = _tst_info(content)["gen_time"].native
        signer = _signer_subject(signed_data)
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        return TimestampVerdict(False, None, "", f"not an RFC 3161 token: {error}")
    context = ValidationContext(trust_roots=roots if roots is not None else trust_roots(), allow_fetching=False)

    def imprint(algorithm: str) -> bytes:
        return hashlib.new(algorithm, data).digest()

    try:
        status = asyncio.run(validate_tst_signed_data(signed_data, context, imprint))
    except (SignatureValidationError, PathBuildingError, PathValidationError, ValueError, TypeError, KeyError) as error:
        return TimestampVerdict(False, when, signer, str(error))
    if not status.get("intact"):
        return TimestampVerdict(False, when, signer, "the token does not cover this data")
    if not status.get("valid"):
        return TimestampVerdict(False, when, signer, "the token's signature does not verify")
    if status.get("signing_cert") is not None:
        signer = status["signing_cert"].subject.human_friendly
    if status.get("trust_problem_indic") is not None:
        return TimestampVerdict(False, when, signer, "the timestamp authority is not trusted")
    return TimestampVerdict(True, when, signer)


def _signer_subject(signed_data: cms.SignedData) -> str:
    sid = signed_data["signer_infos"][0]["sid"]
    for choice in signed_data["certificates"]:
        cert = choice.chosen
        if sid.name == "issuer_and_serial_number" and cert.issuer_serial == (
            f"{sid.chosen['issuer'].sha256.hex()}:{sid.chosen['serial_number'].native}"
        ):
            return cert.subject.human_friendly
    return ""
