"""Seals: each site's (platform's) signing key and certificate, RFC 3161 trusted timestamps, and
detached seals over any bytes. A low package: it knows the platforms and the extensions only, so
the fda area (PDF seals) and the audit area (sealed chain heads) both use it.

    from api.seals import sign_detached, verify_detached, SealedBlob, DetachedVerdict

- api/seals/detached.py: sign_detached(platform_id, data) -> SealedBlob; verify_detached(...) -> verdict
- api/seals/timestamps.py: request_token(data), verify_token(token, data), timestamper()
- api/seals/local_tsa.py: the installation's local timestamp authority (tests, make run)
- api/seals/certificates.py: the installation's seal root, each site's seal (generated on first use)
- api/seals/kek.py: the key-encryption key that keeps the seal keys encrypted at rest
- api/seals/uploads.py: a site's own certificate and key, checked before they replace the generated one
"""

from api.seals.detached import DetachedVerdict, SealedBlob, sign_detached, verify_detached

__all__ = ["DetachedVerdict", "SealedBlob", "sign_detached", "verify_detached"]
