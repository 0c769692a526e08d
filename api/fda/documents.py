"""The signed PDF of a data file, through the report area's file machinery (api/report: job,
storage, hash, download centre). This module only says what the file covers (a report kind whose
sections carry the signature manifestation and the verification link) and seals the written PDF
with the platform's PAdES signature (pyHanko), so that any PDF reader shows whether it was altered.
"""

from __future__ import annotations

import io
import os
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from flask import current_app
from flask_babel import gettext
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import fields, signers
from sqlalchemy import select

from api.account.auth import require_account
from api.device.models import Device
from api.extensions.db import db
from api.extensions.i18n import N_
from api.extensions.smorest import ApiError
from api.fda import services
from api.fda.models import DataFile, SignState
from api.platform.links import public_url
from api.platform.models import Platform
from api.report.kinds import ReportKind, Subject, device_sensors, register_kind
from api.report.models import ExportFile, FileType
from api.report.services import next_version, request_locale
from api.tenancy import current_platform, data_platform_id

KIND = "fda_signed"
SEAL_FIELD = "PlatformSeal"


def verify_path(code: str) -> str:
    return f"/fda/verify?code={code}"


def subjects(params: dict[str, Any], owner_account_id: int) -> list[Subject]:
    file = db.session.get(DataFile, params["fdaFileId"])
    if file is None or file.sign_state != SignState.SIGNED:
        return []
    signature = services.signature_of(file)
    platform = db.session.get(Platform, params["platformId"])
    link = public_url(platform, verify_path(file.verify_code)) if platform else verify_path(file.verify_code)
    check = services.integrity(file, signature)
    manifestation = (
        gettext("Electronic signature (21 CFR 11.50)"),
        [
            [gettext("Printed name"), gettext("Signed at"), gettext("Meaning"), gettext("User name")],
            [
                signature.printed_name,
                services.local_text(signature.signed_at, signature.time_zone),
                signature.meaning,
                signature.user_name,
            ],
        ],
        True,
    )
    state = (
        gettext("The record matches the signed hash.")
        if check["intact"]
        else gettext("The record changed after signing: %(n)s readings arrived later.", n=check["lateReadings"])
    )
    verification = (
        gettext("Verification"),
        [
            [gettext("File"), file.file_name],
            [gettext("Record hash (SHA-256)"), signature.record_hash],
            [gettext("Signature hash"), signature.signature_hash],
            [gettext("Record state"), state],
            [gettext("Verify at"), link],
        ],
        False,
    )
    by_channel: dict[int, list[int] | None] = {}
    for device_id, sensor in services.channels(file):
        if sensor is None:
            by_channel[device_id] = None
        elif by_channel.get(device_id, []) is not None:
            by_channel.setdefault(device_id, []).append(sensor)
    out = []
    for device_id, sensors in by_channel.items():
        device = db.session.get(Device, device_id)
        out.append(
            Subject(
                device,
                device_sensors(device, sensors),
                file.collect_begin,
                file.collect_end,
                title=file.file_name,
                extra={"sections": [manifestation, verification], "qr": link},
            )
        )
    return out


# ---- the platform's seal -------------------------------------------------------------------------------


def _self_signed(directory: Path) -> tuple[Path, Path]:
    """A self-signed seal for the demo and the tests, made once (a real key: FDA_SEAL_*_FILE)."""
    key_path, cert_path = directory / "seal-key.pem", directory / "seal-cert.pem"
    if key_path.is_file() and cert_path.is_file():
        return key_path, cert_path
    directory.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Cold-chain platform document seal (self-signed)")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=True,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    # Written beside and renamed, so a concurrent job never reads half a key.
    for path, data in (
        (
            key_path,
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            ),
        ),
        (cert_path, cert.public_bytes(serialization.Encoding.PEM)),
    ):
        handle, temporary = tempfile.mkstemp(dir=directory)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    return key_path, cert_path


def seal_files() -> tuple[str, str]:
    config = current_app.config
    if config.get("FDA_SEAL_KEY_FILE") and config.get("FDA_SEAL_CERT_FILE"):
        return config["FDA_SEAL_KEY_FILE"], config["FDA_SEAL_CERT_FILE"]
    key, cert = _self_signed(Path(config["FILES_DIR"]) / ".fda-seal")
    return str(key), str(cert)


def seal_pdf(path: str, params: dict[str, Any]) -> None:
    """Sign the written PDF in place (PAdES baseline, an incremental update)."""
    key_file, cert_file = seal_files()
    passphrase = current_app.config.get("FDA_SEAL_KEY_PASSPHRASE") or None
    signer = signers.SimpleSigner.load(key_file, cert_file, key_passphrase=passphrase.encode() if passphrase else None)
    with open(path, "rb") as source:
        writer = IncrementalPdfFileWriter(source)
        output = io.BytesIO()
        signers.sign_pdf(
            writer,
            signers.PdfSignatureMetadata(
                field_name=SEAL_FIELD,
                reason=params.get("sealReason", "21 CFR Part 11 signed record"),
                location=params.get("sealLocation"),
                subfilter=fields.SigSeedSubFilter.PADES,
                md_algorithm="sha256",
            ),
            signer=signer,
            output=output,
        )
    with open(path, "wb") as target:
        target.write(output.getvalue())


register_kind(ReportKind(KIND, N_("FDA signed data file"), subjects, seal=seal_pdf))


# ---- requests -------------------------------------------------------------------------------------------


def request_pdf(file_id: int) -> ExportFile:
    """A download-centre file (owned by the requester: creator or checker) for a signed data file."""
    me = require_account()
    file = services.visible_file(file_id)
    if file.sign_state != SignState.SIGNED:
        raise ApiError(gettext("Only a signed file has a signed PDF."), code=services.NOT_YOURS)
    devices = [d for d, _ in services.channels(file)]
    if not devices:
        raise services.not_found()
    export = ExportFile(
        platform_id=data_platform_id(),
        owner_account_id=me.id,
        name=f"{file.file_name}_signed.pdf".replace("/", "_")[:120],
        file_type=FileType.PDF,
        kind=KIND,
        params={
            "fdaFileId": file.id,
            "platformId": _site_platform_id(),
            "deviceIds": list(dict.fromkeys(devices)),
            "start": file.collect_begin.isoformat(),
            "end": file.collect_end.isoformat(),
            "timeZone": file.time_zone,
            "unit": me.temperature_unit or "C",
            "locale": request_locale(),
            "sealReason": f"21 CFR Part 11: {file.file_name}"[:100],
        },
    )
    export.version = next_version(export)
    db.session.add(export)
    db.session.flush()
    file.export_file_id = export.id
    db.session.commit()
    return export


def _site_platform_id() -> int:
    """The site the request came to: the verification link points there (a reseller's own domain)."""
    return current_platform().id


def verification(code: str) -> dict:
    result = services.public_verification(code)
    file = result["file"]
    document = None
    if file.export_file_id:
        document = db.session.scalar(select(ExportFile.content_hash).where(ExportFile.id == file.export_file_id))
    return {**result, "documentHash": document}
