"""The installation's local RFC 3161 timestamp authority: for the tests and `make run`, where no
public authority is configured. Its certificate is issued by the installation's seal root with the
timeStamping purpose only; its tokens are real RFC 3161 tokens (pyHanko's own TSA signer).

In-process (SEAL_TSA_URL unset) or over HTTP: `flask seals tsa` serves `wsgi_app` (POST an
application/timestamp-query, get an application/timestamp-reply), so the HTTP client is exercised too.
"""

from __future__ import annotations

from datetime import datetime

from asn1crypto import keys, tsp
from asn1crypto import x509 as asn1_x509
from cryptography.hazmat.primitives import serialization
from pyhanko.sign.timestamps import DummyTimeStamper
from pyhanko_certvalidator.registry import SimpleCertificateStore
from werkzeug.wrappers import Request, Response

from api.seals import certificates

MAX_QUERY_BYTES = 64 * 1024


def local_authority(clock: datetime | None = None) -> DummyTimeStamper:
    """The local TSA (its key decrypted for the call). `clock`: a fixed time for the tokens (tests)."""
    tsa = certificates.material(certificates.tsa_seal())
    cert = asn1_x509.Certificate.load(tsa.certificate.public_bytes(serialization.Encoding.DER))
    key = keys.PrivateKeyInfo.load(
        tsa.private_key.private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    chain = [asn1_x509.Certificate.load(c.public_bytes(serialization.Encoding.DER)) for c in tsa.chain]
    return DummyTimeStamper(
        tsa_cert=cert, tsa_key=key, certs_to_embed=SimpleCertificateStore.from_certs(chain), fixed_dt=clock
    )


def wsgi_app(authority: DummyTimeStamper):
    """A WSGI app answering RFC 3161 requests over HTTP with `authority` (loaded once, in memory)."""

    @Request.application
    def app(request: Request) -> Response:
        if request.method != "POST":
            return Response("POST an application/timestamp-query\n", status=405, mimetype="text/plain")
        body = request.get_data(cache=False)
        if request.mimetype != "application/timestamp-query" or not body or len(body) > MAX_QUERY_BYTES:
            return Response("expected an application/timestamp-query\n", status=400, mimetype="text/plain")
        try:
            query = tsp.TimeStampReq.load(body)
            query.native  # noqa: B018 - parse it all now: a malformed query is a 400, not a 500
            reply = authority.request_tsa_response(query)
        except (ValueError, TypeError, KeyError):
            return Response("malformed timestamp query\n", status=400, mimetype="text/plain")
        return Response(reply.dump(), mimetype="application/timestamp-reply")

    return app
