"""Keys, certificates, RSA signatures and the threaded WSGI server the payment fakes share."""

from __future__ import annotations

import base64
import threading
from datetime import UTC, datetime, timedelta

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

# ---- keys --------------------------------------------------------------------------------------------------


def new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def private_pem(key: rsa.RSAPrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def public_pem(key: rsa.RSAPrivateKey) -> str:
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


def self_signed(key: rsa.RSAPrivateKey, name: str, serial: int) -> x509.Certificate:
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.now(UTC)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(serial)
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=365))
        .sign(key, hashes.SHA256())
    )


def rsa_sign(key: rsa.RSAPrivateKey, text: str) -> str:
    return base64.b64encode(key.sign(text.encode(), padding.PKCS1v15(), hashes.SHA256())).decode()


def rsa_verify(public_key, text: str, signature: str) -> bool:
    try:
        public_key.verify(base64.b64decode(signature), text.encode(), padding.PKCS1v15(), hashes.SHA256())
    except Exception:
        return False
    return True


class HttpFake:
    """A WSGI server in a thread; subclasses implement `handle(request) -> Response`."""

    def __init__(self, port: int = 0):
        self.port = port

    def __enter__(self):
        self.server = make_server("127.0.0.1", self.port, self._app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()

    @Request.application
    def _app(self, request: Request) -> Response:
        return self.handle(request)

    def handle(self, request: Request) -> Response:  # pragma: no cover - overridden
        raise NotImplementedError
