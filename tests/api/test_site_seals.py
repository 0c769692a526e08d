"""Seals per site (issue 45 finding 9): each site seals with its own certificate (issued by the
installation's seal root), its key encrypted at rest; every seal carries an RFC 3161 timestamp from
the configured authority (the local one in tests) that verifies; a changed byte breaks it."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from sqlalchemy import select, update
from werkzeug.serving import make_server

from api.audit.models import OperationLog
from api.extensions.db import db
from api.platform.models import Platform
from api.seals import certificates, kek, sign_detached, timestamps, verify_detached
from api.seals.local_tsa import local_authority, wsgi_app
from api.seals.models import SealKey, SealPurpose
from api.seals.pdf import verify_pdf
from tests.api.customization_helpers import CUSTOM, staff
from tests.api.org_helpers import ok
from tests.api.report_helpers import files_dir
from tests.api.test_fda import EN, FDA, guids, world
from tests.api.test_fda_frozen import sha, signed_world
from tests.api.trail_helpers import bypass_append_only

__all__ = ["files_dir", "guids", "world"]

DATA = b"chain head 42: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


def platform_id(slug: str) -> int:
    return db.session.scalar(select(Platform.id).where(Platform.slug == slug))


@pytest.fixture
def sites(app):
    with app.app_context():
        yield platform_id("default"), platform_id("junjia")


@pytest.fixture
def http_tsa(app):
    """The local authority served over HTTP on 127.0.0.1 (listed in OUTBOUND_ALLOWED_HOSTS), and
    SEAL_TSA_URL pointing at it for the test."""
    with app.app_context():
        server = make_server("127.0.0.1", 0, wsgi_app(local_authority()))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}/tsa"
    app.config["SEAL_TSA_URL"] = url
    try:
        yield url
    finally:
        app.config["SEAL_TSA_URL"] = ""
        server.shutdown()
        thread.join()


def test_two_sites_seal_with_different_certificates_of_one_root(app, sites):
    default, junjia = sites
    with app.app_context():
        first, second = certificates.site_seal(default), certificates.site_seal(junjia)
        assert first.key_id != second.key_id and first.certificate_pem != second.certificate_pem
        assert certificates.site_seal(default).id == first.id  # made once, then found
        root = certificates.certificate_of(certificates.root_seal())
        for seal in (first, second):
            cert = certificates.certificate_of(seal)
            assert cert.issuer == root.subject
            cert.verify_directly_issued_by(root)
        assert "junjia" in second.subject


def test_the_private_key_at_rest_is_encrypted_and_opens_only_with_the_kek(app, sites):
    default, _ = sites
    with app.app_context():
        seal = certificates.site_seal(default)
        row = db.session.get(SealKey, seal.id)
        assert "BEGIN ENCRYPTED PRIVATE KEY" in row.encrypted_private_key
        assert "BEGIN PRIVATE KEY" not in row.encrypted_private_key
        assert "BEGIN EC PRIVATE KEY" not in row.encrypted_private_key
        with pytest.raises(TypeError):  # no password: refused
            serialization.load_pem_private_key(row.encrypted_private_key.encode(), password=None)
        with pytest.raises(ValueError):
            serialization.load_pem_private_key(row.encrypted_private_key.encode(), password=b"not the kek")
        key = serialization.load_pem_private_key(row.encrypted_private_key.encode(), password=kek.kek())
        public = (
            certificates.certificate_of(row)
            .public_key()
            .public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        )
        assert (
            key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
            == public
        )
        # Another KEK configured: the key is not opened (and says why).
        app.config["SEAL_KEK"] = "another-kek"
        try:
            with pytest.raises(kek.KekError):
                certificates.material(row)
        finally:
            app.config["SEAL_KEK"] = ""


def test_the_kek_file_is_private_and_never_with_the_exports(app, tmp_path):
    with app.app_context():
        saved = dict(app.config)
        try:
            app.config["SEAL_KEK_FILE"] = tmp_path / "secrets" / "kek"
            first = kek.kek()
            assert (tmp_path / "secrets" / "kek").stat().st_mode & 0o777 == 0o600
            assert kek.kek() == first and len(first) >= 43
            app.config["SEAL_KEK_FILE"] = app.config["FILES_DIR"] / "exports" / "kek"
            with pytest.raises(kek.KekError):
                kek.kek()
        finally:
            app.config.update(saved)


def test_a_detached_seal_verifies_and_names_its_timestamp(app, sites):
    default, _ = sites
    with app.app_context():
        blob = sign_detached(default, DATA)
        assert blob.data_sha256 == hashlib.sha256(DATA).hexdigest()
        assert blob.key_id == certificates.site_seal(default).key_id
        assert abs((datetime.now(UTC) - blob.timestamp_time).total_seconds()) < 300
        verdict = verify_detached(default, DATA, blob)
        assert verdict.valid and verdict.intact and verdict.trusted and verdict.timestamp_valid, verdict.problems
        assert verdict.timestamp_time == blob.timestamp_time
        # Stored as JSON and read back: the same verdict.
        assert verify_detached(default, DATA, type(blob).from_json(blob.to_json())).valid
        # The token alone checks against the signature value it stamps.
        stamped = timestamps.verify_token(blob.timestamp_token, _signature_value(blob.signature))
        assert stamped.valid, stamped.problem
        assert "timestamp authority" in stamped.authority


def _signature_value(cms_der: bytes) -> bytes:
    from asn1crypto import cms

    return cms.ContentInfo.load(cms_der)["content"]["signer_infos"][0]["signature"].native


def test_a_changed_byte_or_another_site_breaks_a_detached_seal(app, sites):
    default, junjia = sites
    with app.app_context():
        blob = sign_detached(default, DATA)
        changed = verify_detached(default, DATA[:-1] + b"9", blob)
        assert not changed.valid and not changed.intact
        # Another site's seal does not verify as this site's.
        assert not verify_detached(junjia, DATA, blob).valid
        assert not verify_detached(junjia, DATA, blob).trusted
        # A flipped byte inside the signature: a verdict, never an exception.
        damaged = bytearray(blob.signature)
        damaged[len(damaged) // 2] ^= 0x01
        assert not verify_detached(default, DATA, replace(blob, signature=bytes(damaged))).valid
        # The blob's token swapped for another seal's token: refused.
        other = sign_detached(default, b"other data")
        assert not verify_detached(default, DATA, replace(blob, timestamp_token=other.timestamp_token)).valid


def test_a_token_from_the_http_authority_verifies_and_a_flipped_byte_breaks_it(app, http_tsa):
    with app.app_context():
        token = timestamps.request_token(DATA)
        verdict = timestamps.verify_token(token, DATA)
        assert verdict.valid, verdict.problem
        assert not timestamps.verify_token(token, DATA + b"!").valid
        flipped = bytearray(token)
        flipped[-40] ^= 0x01  # inside the authority's signature
        assert not timestamps.verify_token(bytes(flipped), DATA).valid
        # An authority the installation does not trust: refused.
        assert not timestamps.verify_token(token, DATA, roots=[]).valid


def test_a_seal_over_http_carries_the_authoritys_token(app, sites, http_tsa):
    default, _ = sites
    with app.app_context():
        blob = sign_detached(default, DATA)
        assert verify_detached(default, DATA, blob).valid


def test_an_unlisted_authority_address_is_refused(app, sites):
    from api.extensions.outbound import OutboundRefusedError

    default, _ = sites
    app.config["SEAL_TSA_URL"] = "http://10.1.2.3/tsa"
    try:
        with app.app_context(), pytest.raises(OutboundRefusedError):
            sign_detached(default, DATA)
    finally:
        app.config["SEAL_TSA_URL"] = ""


def test_the_local_authority_certificate_is_for_timestamping_only(app):
    with app.app_context():
        cert = certificates.certificate_of(certificates.tsa_seal())
        usage = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage)
        assert usage.critical and list(usage.value) == [x509.oid.ExtendedKeyUsageOID.TIME_STAMPING]
        assert db.session.scalar(select(SealKey).where(SealKey.purpose == SealPurpose.TSA)).platform_id is None


# ---- the signed PDF: the site's seal and a trusted timestamp, every version verifiable -------------------


def pdf_status(pdf: bytes, root_pem: bytes):
    """pyHanko's own validation of the PDF's seal, trusting the installation's seal root."""
    from asn1crypto import x509 as asn1_x509
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    root = asn1_x509.Certificate.load(x509.load_pem_x509_certificate(root_pem).public_bytes(serialization.Encoding.DER))
    signature = PdfFileReader(io.BytesIO(pdf)).embedded_signatures[0]
    return validate_pdf_signature(signature, ValidationContext(trust_roots=[root], allow_fetching=False))


def root_pem(app) -> bytes:
    with app.app_context():
        return certificates.root_seal().certificate_pem.encode()


def rerender(app, owner_id: int, file_id: int) -> None:
    """The signed file rendered and sealed again (what a further signature of a workflow does)."""
    from flask import g

    from api.fda import frozen, services
    from api.fda.models import DataFile
    from api.identity.models import Account

    with app.test_request_context("/api/fda/ElectronicSignature/pdf", headers={"Host": "localhost"}):
        app.preprocess_request()
        g.account = db.session.get(Account, owner_id)
        file = db.session.get(DataFile, file_id)
        frozen.freeze(file, services.signature_of(file), "legacy")
        db.session.commit()


def test_the_signed_pdf_carries_the_sites_seal_and_a_timestamp_that_verifies(app, client, world, files_dir, run_jobs):
    _e, pdf, verified = signed_world(app, client, world, run_jobs)
    status = pdf_status(pdf, root_pem(app))
    assert status.intact and status.valid and status.trusted, status.pretty_print_details()
    stamp = status.timestamp_validity
    assert stamp is not None and stamp.intact and stamp.valid and stamp.trusted
    with app.app_context():
        seal = certificates.site_seal(platform_id("default"))
        assert certificates.key_id_of(x509.load_der_x509_certificate(status.signing_cert.dump())) == seal.key_id
        tsa = certificates.certificate_of(certificates.tsa_seal())
    assert stamp.signing_cert.subject.human_friendly == tsa.subject.rfc4514_string().replace("CN=", "Common Name: ")
    [version] = verified["versions"]
    assert version["sealSubject"] == seal.subject
    assert version["timestampAt"] is not None
    # One flipped byte inside the sealed range: the seal no longer verifies (api/seals/pdf.py, which
    # reports a byte range that no longer parses as not intact too).
    tampered = bytearray(pdf)
    tampered[pdf.index(b"stream") + 40] ^= 0x01
    with app.app_context():
        assert verify_pdf(pdf).valid
        broken = verify_pdf(bytes(tampered))
    assert not broken.valid and not broken.intact


def test_no_unencrypted_key_is_left_in_the_exports_folder(app, client, world, files_dir, run_jobs):
    # An installation sealed by the old code: its self-signed key unencrypted under FILES_DIR/.fda-seal.
    from cryptography.hazmat.primitives.asymmetric import ec

    from api.seals.models import SealPurpose

    with app.app_context():
        folder = Path(app.config["FILES_DIR"]) / ".fda-seal"
        root = certificates.material(certificates.root_seal())  # any certificate will do as the old one
    folder.mkdir(parents=True)
    old_key = ec.generate_private_key(ec.SECP256R1())
    old_cert = (
        x509.CertificateBuilder()
        .subject_name(root.certificate.subject)
        .issuer_name(root.certificate.subject)
        .public_key(old_key.public_key())
        .serial_number(7)
        .not_valid_before(datetime(2026, 1, 1, tzinfo=UTC))
        .not_valid_after(datetime(2036, 1, 1, tzinfo=UTC))
        .sign(old_key, hashes.SHA256())
    )
    (folder / "seal-key.pem").write_bytes(
        old_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    (folder / "seal-cert.pem").write_bytes(old_cert.public_bytes(serialization.Encoding.PEM))
    _e, pdf, _verified = signed_world(app, client, world, run_jobs)
    assert not (folder / "seal-key.pem").exists()
    leftovers = [p for p in Path(app.config["FILES_DIR"]).rglob("*") if p.is_file()]
    assert not [p for p in leftovers if b"PRIVATE KEY" in p.read_bytes()]
    with app.app_context():
        [kept] = db.session.scalars(select(SealKey).where(SealKey.purpose == SealPurpose.LEGACY)).all()
        assert kept.active is False and "ENCRYPTED PRIVATE KEY" in kept.encrypted_private_key
        assert kept.key_id == certificates.key_id_of(old_cert)
        # New seals use the site's key, not the old one.
        assert (
            certificates.key_id_of(x509.load_der_x509_certificate(pdf_status(pdf, root_pem(app)).signing_cert.dump()))
            != kept.key_id
        )


def test_the_verify_page_lists_every_version_and_each_verifies(app, client, world, files_dir, run_jobs):
    e, pdf, _before = signed_world(app, client, world, run_jobs)
    with app.app_context():
        from api.fda.models import DataFile

        code = db.session.get(DataFile, world["file"]).verify_code
    rerender(app, e.member_ids["admin"], world["file"])
    after = ok(client.get(f"{FDA}/ElectronicSignature/verify?code={code}", headers=EN))
    assert [v["version"] for v in after["versions"]] == [1, 2]
    first, second = after["versions"]
    assert first["pdfHash"] == sha(pdf) and second["pdfHash"] != first["pdfHash"]
    assert after["documentHash"] == second["pdfHash"]
    for listed in after["versions"]:
        assert listed["sealSubject"] and listed["timestampAt"] and listed["createdAt"] and listed["intact"]
        # Each version downloads as it was sealed, and its seal checks out.
        download = client.get(f"{FDA}/ElectronicSignature/verify/pdf?code={code}&version={listed['version']}")
        assert download.status_code == 200 and download.mimetype == "application/pdf"
        assert sha(download.data) == listed["pdfHash"] == download.headers["X-Content-SHA256"]
        assert f"_signed_v{listed['version']}.pdf" in download.headers["Content-Disposition"]
        checked = ok(client.get(f"{FDA}/ElectronicSignature/verify/seal?code={code}&version={listed['version']}"))
        assert checked["sealValid"] and checked["intact"] and checked["trusted"] and checked["timestampValid"]
        assert checked["hashMatches"] and checked["sealSubject"] == listed["sealSubject"]
    # The first version is still the one downloaded before the re-render.
    v1 = client.get(f"{FDA}/ElectronicSignature/verify/pdf?code={code}&version=1")
    assert v1.data == pdf
    # A version that does not exist, or a wrong code: not found; a bad version number: 422 naming it.
    assert client.get(f"{FDA}/ElectronicSignature/verify/pdf?code={code}&version=9").get_json()["code"] == 404
    assert client.get(f"{FDA}/ElectronicSignature/verify/seal?code=notacode123&version=1").get_json()["code"] == 404
    bad = client.get(f"{FDA}/ElectronicSignature/verify/pdf?code={code}&version=x", headers=EN)
    assert bad.status_code == 422 and "version" in json.dumps(bad.get_json())


def test_a_stored_version_whose_seal_was_altered_is_reported(app, client, world, files_dir, run_jobs):
    _e, pdf, _before = signed_world(app, client, world, run_jobs)
    from api.fda.models import DataFile, RecordVersion

    with app.app_context():
        code = db.session.get(DataFile, world["file"]).verify_code
        tampered = bytearray(pdf)
        tampered[pdf.index(b"stream") + 40] ^= 0x01
        # Someone with database access replaces the bytes and their hash: the hash matches, the seal does not.
        bypass_append_only()  # as the database's superuser: the application may not (migration 0035)
        db.session.execute(
            update(RecordVersion)
            .where(RecordVersion.file_id == world["file"])
            .values(pdf=bytes(tampered), pdf_hash=sha(bytes(tampered)))
        )
        db.session.commit()
    checked = ok(client.get(f"{FDA}/ElectronicSignature/verify/seal?code={code}&version=1"))
    assert checked["hashMatches"] is True and checked["sealValid"] is False


# ---- the operator uploads a site's own certificate -------------------------------------------------------


def own_certificate(common_name: str, *, key=None, days=(-1, 365), ca_usage=False):
    """A site certificate from a CA of the site's own (a local fake of a commercial CA): (key, cert, ca)."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Junjia Trust CA")])
    now = datetime.now(UTC)
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(1)
        .not_valid_before(now - timedelta(days=2))
        .not_valid_after(now + timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = key or ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(2)
        .not_valid_before(now + timedelta(days=days[0]))
        .not_valid_after(now + timedelta(days=days[1]))
        .add_extension(x509.BasicConstraints(ca=ca_usage, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, True, False, False, False, ca_usage, False, False, False), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    return key, cert, ca


def pem_of(*certs) -> str:
    return "".join(c.public_bytes(serialization.Encoding.PEM).decode() for c in certs)


def key_pem(key, password: bytes | None = None) -> str:
    encryption = serialization.BestAvailableEncryption(password) if password else serialization.NoEncryption()
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption).decode()


def upload_seal(client, headers, **body):
    return client.post(f"{CUSTOM}/seal/upload", json=body, headers={**headers, **EN})


def refused_field(response) -> list[str]:
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == 422, body
    return list(body["data"]["errors"])


def test_the_operator_uploads_a_sites_own_certificate(app, make_client):
    (operator, op_headers), (reseller, reseller_headers), (user, user_headers) = staff(app, make_client)
    with app.app_context():
        junjia = platform_id("junjia")
        generated = certificates.site_seal(junjia)
    key, cert, ca = own_certificate("Junjia document seal")
    answer = upload_seal(
        operator,
        op_headers,
        platformId=junjia,
        certificate=pem_of(cert, ca),
        privateKey=key_pem(key, b"s3cret"),
        keyPassword="s3cret",
    )
    seal = ok(answer)
    assert seal["origin"] == "uploaded" and seal["subject"] == "CN=Junjia document seal"
    assert seal["issuer"] == "CN=Junjia Trust CA" and seal["platformId"] == junjia
    assert "PRIVATE KEY" not in answer.get_data(as_text=True) and "s3cret" not in answer.get_data(as_text=True)
    shown = ok(operator.get(f"{CUSTOM}/seal/{junjia}", headers=op_headers))
    assert shown["keyId"] == seal["keyId"] and "privateKey" not in shown
    with app.app_context():
        # The key is kept encrypted with the KEK; the generated seal is retired, not deleted.
        row = db.session.get(SealKey, seal["id"])
        assert "ENCRYPTED PRIVATE KEY" in row.encrypted_private_key and row.created_by is not None
        assert db.session.get(SealKey, generated.id).active is False
        # Seals of the site now carry its own certificate and verify against its own CA.
        blob = sign_detached(junjia, DATA)
        assert blob.key_id == certificates.key_id_of(cert)
        assert verify_detached(junjia, DATA, blob).valid
        # The trail records the upload with the key redacted.
        [entry] = db.session.scalars(select(OperationLog).where(OperationLog.path == f"{CUSTOM}/seal/upload")).all()
        trail = json.dumps(entry.after)
        assert "Junjia document seal" in trail and "PRIVATE KEY" not in trail and row.encrypted_private_key not in trail
    # A reseller admin reaches its own site only; a customer is no staff.
    assert reseller.get(f"{CUSTOM}/seal/{platform_id_of(app, 'default')}", headers=reseller_headers).status_code == 404
    assert (
        upload_seal(
            user, user_headers, platformId=junjia, certificate=pem_of(cert), privateKey=key_pem(key)
        ).status_code
        == 403
    )


def platform_id_of(app, slug: str) -> int:
    with app.app_context():
        return platform_id(slug)


def test_a_bad_certificate_or_key_is_a_422_naming_the_field(app, make_client):
    from cryptography.hazmat.primitives.asymmetric import ec, rsa
    from cryptography.hazmat.primitives.serialization import pkcs12

    (operator, headers), _reseller, _user = staff(app, make_client)
    junjia = platform_id_of(app, "junjia")
    key, cert, ca = own_certificate("Junjia document seal")
    other_key = ec.generate_private_key(ec.SECP256R1())
    # A key that is not the certificate's.
    answer = upload_seal(operator, headers, platformId=junjia, certificate=pem_of(cert), privateKey=key_pem(other_key))
    assert refused_field(answer) == ["privateKey"]
    assert "does not belong to the certificate" in answer.get_json()["msg"]
    # Not a certificate; not a key; an encrypted key without / with a wrong password.
    assert refused_field(
        upload_seal(operator, headers, platformId=junjia, certificate="hello", privateKey=key_pem(key))
    ) == ["certificate"]
    assert refused_field(
        upload_seal(operator, headers, platformId=junjia, certificate=pem_of(cert), privateKey="nope")
    ) == ["privateKey"]
    locked = key_pem(key, b"right")
    assert refused_field(
        upload_seal(operator, headers, platformId=junjia, certificate=pem_of(cert), privateKey=locked)
    ) == ["keyPassword"]
    assert refused_field(
        upload_seal(
            operator, headers, platformId=junjia, certificate=pem_of(cert), privateKey=locked, keyPassword="wrong"
        )
    ) == ["keyPassword"]
    # Expired, or a CA certificate, or too weak a key.
    old_key, expired, _ = own_certificate("old", days=(-400, -1))
    assert refused_field(
        upload_seal(operator, headers, platformId=junjia, certificate=pem_of(expired), privateKey=key_pem(old_key))
    ) == ["certificate"]
    ca_key, ca_cert, _ = own_certificate("a CA", ca_usage=True)
    assert refused_field(
        upload_seal(operator, headers, platformId=junjia, certificate=pem_of(ca_cert), privateKey=key_pem(ca_key))
    ) == ["certificate"]
    weak = rsa.generate_private_key(public_exponent=65537, key_size=1024)  # noqa: S505 - the weak key the check must refuse
    weak_key, weak_cert, _ = own_certificate("weak", key=weak)
    assert refused_field(
        upload_seal(operator, headers, platformId=junjia, certificate=pem_of(weak_cert), privateKey=key_pem(weak_key))
    ) == ["privateKey"]
    # PKCS#12 with its password: accepted; with a wrong one: refused naming the password.
    bundle = pkcs12.serialize_key_and_certificates(
        b"junjia", key, cert, [ca], serialization.BestAvailableEncryption(b"p12pass")
    )
    encoded = base64.b64encode(bundle).decode()
    assert refused_field(upload_seal(operator, headers, platformId=junjia, pkcs12=encoded, keyPassword="bad")) == [
        "keyPassword"
    ]
    assert refused_field(upload_seal(operator, headers, platformId=junjia, pkcs12="%%%")) == ["pkcs12"]
    assert refused_field(upload_seal(operator, headers, platformId=junjia)) == ["certificate"]
    assert refused_field(upload_seal(operator, headers, platformId=0, certificate=pem_of(cert))) == ["platformId"]
    # Nothing refused was stored: the site still seals with its generated certificate.
    with app.app_context():
        assert certificates.site_seal(junjia).origin.value == "generated"
    accepted = ok(upload_seal(operator, headers, platformId=junjia, pkcs12=encoded, keyPassword="p12pass"))
    assert accepted["subject"] == "CN=Junjia document seal" and accepted["chainPem"] == pem_of(ca)


def independent_authority(tmp_path):
    """A timestamp authority of its own CA (a local fake of a public TSA): (WSGI app, CA PEM path)."""
    from asn1crypto import keys as asn1_keys
    from asn1crypto import x509 as asn1_x509
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    from pyhanko.sign.timestamps import DummyTimeStamper

    now = datetime.now(UTC)
    ca_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Public TSA Root")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(1)
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    tsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    tsa = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Public TSA")]))
        .issuer_name(ca_name)
        .public_key(tsa_key.public_key())
        .serial_number(2)
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=365))
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
        .sign(ca_key, hashes.SHA256())
    )

    def der(cert):
        return asn1_x509.Certificate.load(cert.public_bytes(serialization.Encoding.DER))

    stamper = DummyTimeStamper(
        tsa_cert=der(tsa),
        tsa_key=asn1_keys.PrivateKeyInfo.load(
            tsa_key.private_bytes(
                serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        ),
    )
    trust = tmp_path / "tsa-roots.pem"
    trust.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    return wsgi_app(stamper), trust


def test_a_public_authority_is_trusted_through_the_trust_file_only(app, sites, tmp_path):
    default, _ = sites
    authority, trust = independent_authority(tmp_path)
    server = make_server("127.0.0.1", 0, authority)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    app.config["SEAL_TSA_URL"] = f"http://127.0.0.1:{server.server_port}/"
    try:
        with app.app_context():
            blob = sign_detached(default, DATA)
            untrusted = verify_detached(default, DATA, blob)
            assert untrusted.intact and untrusted.trusted and not untrusted.timestamp_valid and not untrusted.valid
            app.config["SEAL_TSA_TRUST_FILE"] = str(trust)
            trusted = verify_detached(default, DATA, blob)
            assert trusted.valid, trusted.problems
    finally:
        app.config["SEAL_TSA_URL"] = app.config["SEAL_TSA_TRUST_FILE"] = ""
        server.shutdown()
        thread.join()


def test_seals_work_on_sqlite_as_make_run_has_them(tmp_path):
    """make run's embedded default is SQLite: the seals are made in the request's own transaction there."""
    from flask_migrate import upgrade

    from api import create_app
    from api.platform.services import sync_tenants
    from api.settings import DevelopmentConfig

    app = create_app(
        DevelopmentConfig,
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'coldchain.db'}",
            "REDIS_URL": "redis://127.0.0.1:1/0",
            "FILES_DIR": tmp_path / "files",
            "SEAL_KEK_FILE": tmp_path / "secrets" / "kek",
        },
    )
    with app.app_context():
        upgrade()
        sync_tenants()
        default, junjia = platform_id("default"), platform_id("junjia")
        blob = sign_detached(default, DATA)
        db.session.commit()
        assert verify_detached(default, DATA, blob).valid
        assert not verify_detached(junjia, DATA, blob).valid
        assert certificates.site_seal(default).key_id != certificates.site_seal(junjia).key_id
        assert len(db.session.scalars(select(SealKey).where(SealKey.active.is_(True))).all()) == 4  # root, TSA, 2 sites
