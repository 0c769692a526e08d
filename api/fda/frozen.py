"""A signed record is fixed at signing (21 CFR 11.70).

Signing renders the file's PDF at once, seals it (api/fda/documents) and stores it with a snapshot of
everything it printed (device names, limits, time zone, statistics, excursions, readings hash), each
hashed, and a seal hash binding both to the signature: a `RecordVersion`. Later downloads of the signed
file serve the stored bytes (never a new rendering), so a limit changed, a device renamed or deleted
afterwards cannot change what was signed. Every version stays listed on the verify page with its
hashes; the readings are checked against the signed hash on the channels fixed at signing, so a
reading changed in the database shows as a mismatch. A device with signed records cannot be deleted.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from flask_babel import force_locale, gettext
from sqlalchemy import func, insert, or_, select

from api.audit import keyed
from api.audit.recorder import record_event
from api.device.models import Device
from api.extensions import hashkeys
from api.extensions.db import db, utcnow
from api.extensions.i18n import N_
from api.extensions.smorest import ApiError
from api.fda import documents, services, workflow
from api.fda.models import DataFile, RecordVersion, Signature, SignedChannel, SignState, SubjectType
from api.identity.auth import require_account
from api.identity.models import Account
from api.platform.models import Platform
from api.report.formats import Presentation, Progress
from api.report.models import ExportFile, FileType
from api.report.pdf import write_pdf
from api.report.present import Units
from api.report.services import next_version
from api.report.stats import SeriesStats
from api.seals.pdf import read_seal, verify_pdf
from api.tenancy import data_platform_id

DEVICE_HAS_SIGNED_RECORDS = 4605
# Why a version was written (stored as the key, shown in the reader's language).
REASONS = {
    "signing": N_("Rendered and sealed at signing"),
    "legacy": N_("Rendered after signing (the file was signed before records were frozen)"),
}


class _Unwatched(Progress):
    """Rendering inside the signing request: no download-centre row to beat for."""

    def __init__(self) -> None:
        super().__init__(0, 1, time.monotonic)

    def write(self, percent: int) -> None:
        return None


def canonical(snapshot: dict[str, Any]) -> bytes:
    return json.dumps(snapshot, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def seal_content(version: RecordVersion | dict[str, Any], signature: Signature) -> bytes:
    """What the seal hash binds: the version, its PDF's and snapshot's hashes and the signature's hash."""
    get = version.get if isinstance(version, dict) else lambda key: getattr(version, key)
    parts = (str(get("file_id")), str(get("version")), get("pdf_hash"), get("snapshot_hash"))
    return "|".join((*parts, signature.signature_hash)).encode()


def seal_holds(version: RecordVersion, signature: Signature) -> bool:
    """The seal hash was made with the installation's key (api/extensions/hashkeys.py) over this
    version and this signature (a version sealed before keys existed: its plain SHA-256)."""
    return keyed.holds(
        "fda_record_version", version.id, seal_content(version, signature), version.hash_key_id, version.seal_hash
    )


def _sensor_snapshot(sensor, stat: SeriesStats) -> dict[str, Any]:
    first = stat.periods[0] if stat.periods else None
    return {
        "probe": sensor.probe,
        "name": sensor.name,
        "unit": sensor.unit,
        "lower": first.lower if first else sensor.lower,  # in force at the start of the window
        "upper": first.upper if first else sensor.upper,
        "delayMinutes": first.delay_minutes if first else sensor.delay_minutes,
        "limitPeriods": [
            {
                "from": p.start.isoformat(),
                "lower": p.lower,
                "upper": p.upper,
                "delayMinutes": p.delay_minutes,
                "changedBy": p.changed_by,
                "reason": p.reason,
            }
            for p in stat.periods
        ],
        "readings": stat.count,
        "minimum": stat.minimum,
        "maximum": stat.maximum,
        "mean": stat.mean,
        "mkt": stat.mkt,
        "secondsAbove": stat.seconds_above,
        "secondsBelow": stat.seconds_below,
        "excursions": stat.excursions,
        "longestExcursionS": stat.longest_excursion_s,
        "excursionList": [list(x) for x in stat.excursion_list],
        "gaps": len(stat.gaps),
    }


def render(file: DataFile, signature: Signature, requester: Account) -> tuple[bytes, dict[str, Any]]:
    """The sealed PDF of a signed file as the world is now, and the snapshot of what it printed."""
    params = documents.pdf_params(file, requester)
    with force_locale(params["locale"].replace("-", "_")):
        subjects = documents.subjects(params, file.owner_account_id)
        if not subjects:
            raise services.field_error("id", gettext("The device of this file no longer exists: it cannot be signed."))
        presentation = Presentation(
            zone=ZoneInfo(params["timeZone"]),
            units=Units(params["unit"]),
            locale=params["locale"],
            platform=db.session.get(Platform, file.platform_id),
            requester=requester,
            generated_at=signature.signed_at,
        )
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "signed.pdf")
            report = write_pdf(path, subjects, presentation, _Unwatched())
            sealed = documents.seal_pdf(path, params)
            with open(path, "rb") as handle:
                pdf = handle.read()
    snapshot = {
        "file": {
            "id": file.id,
            "name": file.file_name,
            "subjectType": str(file.subject_type),
            "subjectId": file.subject_id,
            "collectBegin": file.collect_begin.isoformat(),
            "collectEnd": file.collect_end.isoformat(),
        },
        "signature": {
            "printedName": signature.printed_name,
            "userName": signature.user_name,
            "meaning": signature.meaning,
            "signedAt": signature.signed_at.isoformat(),
            "timeZone": signature.time_zone,
            "signatureHash": signature.signature_hash,
        },
        # Every step's signature the PDF manifests (the sealed one above is the last): the snapshot's
        # hash binds the earlier steps to the sealed version too.
        "steps": [
            {
                "step": s.step,
                "role": s.role,
                "printedName": s.printed_name,
                "userName": s.user_name,
                "accountId": s.signer_account_id,
                "meaning": s.meaning,
                "signedAt": s.signed_at.isoformat(),
                "timeZone": s.time_zone,
                "signatureHash": s.signature_hash,
            }
            for s in workflow.signatures_of(file)
        ],
        "recordHash": signature.record_hash,
        "readings": signature.readings,
        "channels": [[d, s] for d, s in services.channels(file)],
        "timeZone": params["timeZone"],
        "unit": params["unit"],
        "locale": params["locale"],
        # What sealed the PDF: the site's certificate and the authority's time (RFC 3161).
        "seal": sealed,
        "subjects": [
            {
                "deviceId": subject.device.id,
                "guid": subject.device.guid,
                "deviceName": subject.device.name or "",
                "intervalS": subject.device.interval_s,
                "sensors": [_sensor_snapshot(s, stats[s.probe]) for s in subject.sensors],
            }
            for subject, stats in report.printed
        ],
    }
    return pdf, json.loads(canonical(snapshot))


def freeze(file: DataFile, signature: Signature, reason: str) -> RecordVersion:
    """Render, seal and store the next version of a signed file (not committed). Written with one
    INSERT, not through the flush: the request's trail would otherwise copy the PDF's bytes into its
    entry; it gets an event with the version's hashes instead."""
    me = require_account()
    pdf, snapshot = render(file, signature, me)
    number = (
        db.session.scalar(select(func.max(RecordVersion.version)).where(RecordVersion.file_id == file.id)) or 0
    ) + 1
    values = {
        "platform_id": file.platform_id,
        "file_id": file.id,
        "version": number,
        "created_at": utcnow(),
        "created_by": me.id,
        "reason": reason,
        "pdf": pdf,
        "pdf_hash": hashlib.sha256(pdf).hexdigest(),
        "snapshot": snapshot,
        "snapshot_hash": hashlib.sha256(canonical(snapshot)).hexdigest(),
    }
    values["seal_hash"], values["hash_key_id"] = hashkeys.keyed(seal_content(values, signature))
    version_id = db.session.execute(insert(RecordVersion).values(**values).returning(RecordVersion.id)).scalar_one()
    record_event(
        me,
        f"Signed record sealed: {file.file_name} version {number}",
        target=f"fda_record_version#{version_id}",
        details={"version": number, "pdfSha256": values["pdf_hash"], "snapshotSha256": values["snapshot_hash"]},
    )
    return db.session.get(RecordVersion, version_id)


def sign(args: dict) -> DataFile:
    """Sign a step of a data file (api/fda/workflow.sign); the last step's signature freezes it in the
    same transaction: if the record cannot be rendered and stored, nothing is signed."""
    file = workflow.sign(args)
    if file.sign_state == SignState.SIGNED:
        freeze(file, services.signature_of(file), "signing")
    db.session.commit()
    return file


def versions(file: DataFile) -> list[RecordVersion]:
    return list(
        db.session.scalars(
            select(RecordVersion).where(RecordVersion.file_id == file.id).order_by(RecordVersion.version)
        )
    )


def version_intact(version: RecordVersion, signature: Signature | None) -> bool:
    """The stored bytes and snapshot are what was hashed, and the seal hash binds them to the signature."""
    return (
        signature is not None
        and hashlib.sha256(version.pdf).hexdigest() == version.pdf_hash
        and hashlib.sha256(canonical(version.snapshot)).hexdigest() == version.snapshot_hash
        and services.signature_valid(signature)
        and seal_holds(version, signature)
    )


def present_version(version: RecordVersion, signature: Signature | None) -> dict[str, Any]:
    subjects = version.snapshot.get("subjects", [])
    return {
        "version": version.version,
        "createdAt": version.created_at,
        "reason": gettext(REASONS[version.reason]) if version.reason in REASONS else version.reason,
        "pdfHash": version.pdf_hash,
        "snapshotHash": version.snapshot_hash,
        "sealHash": version.seal_hash,
        "intact": version_intact(version, signature),
        **seal_of(version),
        "deviceNames": [s["deviceName"] for s in subjects],
        "timeZone": version.snapshot.get("timeZone"),
        "readings": version.snapshot.get("readings"),
        "recordHash": version.snapshot.get("recordHash"),
        "sensors": [
            {
                "deviceName": s["deviceName"],
                **{k: x[k] for k in ("name", "unit", "lower", "upper", "excursions", "secondsAbove", "secondsBelow")},
            }
            for s in subjects
            for x in s["sensors"]
        ],
    }


def seal_of(version: RecordVersion) -> dict[str, Any]:
    """The seal's subject and timestamp time, as recorded at sealing (read from the PDF for a version
    sealed before they were recorded)."""
    recorded = version.snapshot.get("seal")
    if recorded is None:
        found = read_seal(version.pdf)
        recorded = found.to_json() if found is not None else {}
    stamped = recorded.get("timestampAt")
    return {"sealSubject": recorded.get("subject"), "timestampAt": datetime.fromisoformat(stamped) if stamped else None}


def public_version(code: str, number: int) -> tuple[DataFile, RecordVersion]:
    """One stored version of a signed file, found by the verification code (public)."""
    file = services.public_verification(code)["file"]
    version = db.session.scalar(
        select(RecordVersion).where(RecordVersion.file_id == file.id, RecordVersion.version == number)
    )
    if version is None:
        raise services.not_found()
    return file, version


def version_pdf(code: str, number: int) -> tuple[str, bytes]:
    """The stored bytes of one version (as sealed; refused if they no longer match their hash)."""
    file, version = public_version(code, number)
    pdf = version.pdf
    if hashlib.sha256(pdf).hexdigest() != version.pdf_hash:
        raise ApiError(gettext("The stored signed record does not match its hash: it is not served."), code=409)
    return f"{file.file_name}_signed_v{version.version}.pdf".replace("/", "_")[:120], pdf


def version_seal_check(code: str, number: int) -> dict[str, Any]:
    """One version's stored PDF checked as a reader would: intact, the seal trusted, the timestamp valid."""
    _file, version = public_version(code, number)
    verdict = verify_pdf(version.pdf)
    return {
        "version": version.version,
        "pdfHash": version.pdf_hash,
        "hashMatches": hashlib.sha256(version.pdf).hexdigest() == version.pdf_hash,
        "sealValid": verdict.valid,
        "intact": verdict.intact,
        "trusted": verdict.trusted,
        "timestampValid": verdict.timestamp_valid,
        "sealSubject": verdict.seal.subject if verdict.seal else None,
        "timestampAt": verdict.seal.timestamp_at if verdict.seal else None,
    }


# ---- requests -------------------------------------------------------------------------------------------


def request_pdf(file_id: int) -> ExportFile:
    """A download-centre file (owned by the requester: creator or checker) with the newest stored
    version of a signed data file: its bytes as sealed at signing."""
    me = require_account()
    file = services.visible_file(file_id)
    if file.sign_state != SignState.SIGNED:
        raise ApiError(gettext("Only a signed file has a signed PDF."), code=services.NOT_YOURS)
    stored = versions(file)
    if stored:
        version = stored[-1]
    else:  # signed before records were frozen: frozen now (channels too), and the verify page says so
        live = services.channels(file)
        if not live:
            raise services.not_found()
        db.session.add_all(SignedChannel(file_id=file.id, device_id=d, sensor=s) for d, s in live)
        db.session.flush()
        version = freeze(file, services.signature_of(file), "legacy")
    export = ExportFile(
        platform_id=data_platform_id(),
        owner_account_id=me.id,
        name=f"{file.file_name}_signed_v{version.version}.pdf".replace("/", "_")[:120],
        file_type=FileType.PDF,
        kind=documents.KIND,
        params={
            "fdaFileId": file.id,
            "recordVersionId": version.id,
            "deviceIds": list(dict.fromkeys(d for d, _ in version.snapshot.get("channels", []))),
            "locale": documents.request_locale(),
        },
    )
    export.version = next_version(export)
    db.session.add(export)
    db.session.flush()
    file.export_file_id = export.id
    db.session.commit()
    return export


def verification(code: str) -> dict:
    """The public verify page: the signature, whether the readings still match the signed hash, and
    every stored version of the signed file with its hashes (the newest one's is `documentHash`)."""
    result = services.public_verification(code)
    signature = result["signature"]
    listed = [present_version(v, signature) for v in versions(result["file"])]
    return {**result, "versions": listed, "documentHash": listed[-1]["pdfHash"] if listed else None}


# ---- a device with signed records is not deleted -----------------------------------------------------


def refuse_deleting_signed(device: Device) -> None:
    """Deleting a device would take its signed records' subject away: refused, naming the files (scrap
    keeps the device and its history). Deleting it anyway would need its own signature."""
    names = db.session.scalars(
        select(DataFile.file_name)
        .outerjoin(SignedChannel, SignedChannel.file_id == DataFile.id)
        .where(
            DataFile.sign_state != SignState.UNSIGNED,  # in review too: its first steps are signed
            DataFile.platform_id == device.platform_id,
            or_(
                SignedChannel.device_id == device.id,
                (DataFile.subject_type == SubjectType.DEVICE) & (DataFile.subject_id == device.id),
            ),
        )
        .distinct()
        .order_by(DataFile.file_name)
        .limit(6)
    ).all()
    if names:
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        raise ApiError(
            gettext(
                "This device has signed FDA records (%(files)s) and cannot be deleted. Scrap it instead: its "
                "history is kept.",
                files=shown,
            ),
            code=DEVICE_HAS_SIGNED_RECORDS,
        )
