"""Each probe's calibration (issue 48): the certificates bound to a device's probes, from the
platform's lab (read from its certificates: the item's device, the probes of the item's unit) and
from outside labs (uploaded by the customer, `ProbeCalibration`), and the calls that list, add, attach
a PDF to and delete them.

The finder `find` is what this area answers to telemetry and report (`probe_calibrations` in the
manifest; api/telemetry/calibration.py): they never import this area.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, time

from flask_babel import gettext
from sqlalchemy import select

from api.calibration.models import (
    Application,
    ApplicationItem,
    CalibrationLab,
    Certificate,
    ProbeCalibration,
    ResultInfo,
)
from api.device.models import Device, DeviceParam
from api.extensions import uploads
from api.extensions.db import db, utcnow
from api.extensions.i18n import caller_zone
from api.extensions.smorest import ApiError, field_error
from api.identity.auth import require_account
from api.telemetry.calibration import (
    CalibrationPoint,
    ProbeCertificate,
    overdue_since,
    probe_certificates,
)

DUE_SOON_DAYS = 30


def probe_units(device_id: int) -> dict[int, str]:
    """The device's measurement probes and their units (°C, %RH ...)."""
    device = db.session.get(Device, device_id)
    if device is None:
        return {}
    params: list[DeviceParam] = device.device_type.params
    return {
        p.probe_id: (p.unit.unit_name if p.unit else "")
        for p in params
        if p.probe_id is not None and p.param_type == "sensor"
    }


def _lab_certificates(device_id: int) -> list[tuple[str, ProbeCertificate]]:
    """The lab's certificates of the device's items, each with the unit its item was calibrated in."""
    rows = db.session.execute(
        select(Certificate, ApplicationItem.unit, ApplicationItem.id, Application.calibrated_at, CalibrationLab.name)
        .join(ApplicationItem, ApplicationItem.id == Certificate.item_id)
        .join(Application, Application.id == Certificate.application_id)
        .outerjoin(CalibrationLab, CalibrationLab.platform_id == Certificate.platform_id)
        .where(ApplicationItem.device_id == device_id)
    ).all()
    if not rows:
        return []
    points: dict[int, list[CalibrationPoint]] = {}
    for result in db.session.scalars(
        select(ResultInfo).where(ResultInfo.item_id.in_({r[2] for r in rows})).order_by(ResultInfo.point_no)
    ):
        points.setdefault(result.item_id, []).append(CalibrationPoint(result.reference, result.reading, result.error))
    return [
        (
            unit,
            ProbeCertificate(
                number=cert.number,
                issuer=lab_name or "",
                calibrated_at=calibrated or cert.issued_at,
                due_at=cert.next_due_at,
                passed=cert.passed,
                points=tuple(points.get(item_id, ())),
                own_lab=True,
                key=f"lab-{cert.id}",
            ),
        )
        for cert, unit, item_id, calibrated, lab_name in rows
    ]


def as_certificate(row: ProbeCalibration) -> ProbeCertificate:
    return ProbeCertificate(
        number=row.number,
        issuer=row.issuer,
        calibrated_at=row.calibrated_at,
        due_at=row.due_at,
        passed=row.passed,
        points=tuple(CalibrationPoint(p["reference"], p["measured"], p["deviation"]) for p in row.points or ()),
        own_lab=False,
        key=f"probe-{row.id}",
    )


def find(device_id: int, sensors: list[int]) -> dict[int, list[ProbeCertificate]]:
    """The finder declared in the manifest: every certificate of each asked probe."""
    found: dict[int, list[ProbeCertificate]] = {s: [] for s in sensors}
    lab = _lab_certificates(device_id)
    if lab:
        units = probe_units(device_id)
        for sensor in sensors:
            found[sensor] += [cert for unit, cert in lab if unit == units.get(sensor)]
    for row in db.session.scalars(select(ProbeCalibration).where(ProbeCalibration.device_id == device_id)):
        for sensor in row.sensors or ():
            if sensor in found:
                found[sensor].append(as_certificate(row))
    return found


# ---- the calls -------------------------------------------------------------------------------------


def status(certificates: list[ProbeCertificate], at: datetime) -> tuple[str, datetime | None]:
    """none / valid / due_soon / overdue / failed for a probe, and since when it is overdue."""
    if not certificates:
        return "none", None
    since = overdue_since(certificates, at)
    if since is not None:
        return "overdue", since
    latest = certificates[-1]
    if not latest.passed:
        return "failed", None
    if (latest.due_at - at).total_seconds() <= DUE_SOON_DAYS * 86400:
        return "due_soon", None
    return "valid", None


def listing(device_id: int) -> dict:
    """Per probe of the device: its certificates (newest first), status and since when it is overdue."""
    units = probe_units(device_id)
    outside = {
        f"probe-{row.id}": row
        for row in db.session.scalars(select(ProbeCalibration).where(ProbeCalibration.device_id == device_id))
    }
    now = utcnow()
    probes = []
    for sensor, certificates in probe_certificates(device_id, sorted(units)).items():
        state, since = status(certificates, now)
        probes.append(
            {
                "sensor": sensor,
                "unit": units.get(sensor, ""),
                "status": state,
                "overdueSince": since,
                "certificates": [_certificate_dict(c, outside.get(c.key)) for c in reversed(certificates)],
            }
        )
    device = db.session.get(Device, device_id)
    return {"deviceId": device_id, "correction": bool(device and device.calibration_correction), "probes": probes}


def set_correction(device_id: int, enabled: bool) -> dict:
    """Apply (or not) the probes' certificates' correction to the device's displayed and exported values.
    The device row's change is on the audit trail with the call's reason (FDA mode asks for one)."""
    device = db.session.get(Device, device_id)
    device.calibration_correction = enabled
    db.session.commit()
    return {"deviceId": device.id, "enabled": device.calibration_correction}


def _certificate_dict(cert: ProbeCertificate, row: ProbeCalibration | None) -> dict:
    return {
        "id": row.id if row else None,
        "number": cert.number,
        "issuer": cert.issuer,
        "ownLab": cert.own_lab,
        "calibratedAt": cert.calibrated_at,
        "dueAt": cert.due_at,
        "passed": cert.passed,
        "points": [{"reference": p.reference, "measured": p.measured, "deviation": p.deviation} for p in cert.points],
        "hasFile": bool(row and row.content),
    }


def _utc(day: date) -> datetime:
    """The start of a certificate's date in the caller's zone, as UTC."""
    return datetime.combine(day, time(0), tzinfo=caller_zone()).astimezone(UTC)


def add(args: dict) -> dict:
    """An outside lab's certificate of probes of the device (the schema checked the fields)."""
    device = db.session.get(Device, args["deviceId"])
    units = probe_units(device.id)
    unknown = [s for s in args["sensors"] if s not in units]
    if unknown:
        raise field_error("sensors", gettext("This device has no probe %(sensor)s.", sensor=unknown[0]))
    row = ProbeCalibration(
        platform_id=device.platform_id,
        device_id=device.id,
        sensors=sorted(set(args["sensors"])),
        number=args["number"],
        issuer=args["issuer"],
        calibrated_at=_utc(args["calibratedAt"]),
        due_at=_utc(args["dueAt"]),
        points=[
            {"reference": p["reference"], "measured": p["measured"], "deviation": p["measured"] - p["reference"]}
            for p in args.get("points") or ()
        ],
        passed=args["passed"],
        uploaded_by=require_account().id,
    )
    db.session.add(row)
    db.session.commit()
    return _certificate_dict(as_certificate(row), row) | {"deviceId": device.id, "sensors": row.sensors}


def attach(record_id: int, file) -> dict:
    """The certificate's PDF (the uploads' pdf kind: at most 10 MB, a PDF by its content)."""
    row = db.session.get(ProbeCalibration, record_id)
    content, _ = uploads.read_checked(file, "pdf")
    row.content, row.sha256 = content, hashlib.sha256(content).hexdigest()
    row.file_name = f"{row.number}.pdf"[:100]
    db.session.commit()
    return {"id": row.id, "fileName": row.file_name, "size": len(content), "sha256": row.sha256}


def pdf(record_id: int) -> tuple[bytes, str]:
    row = db.session.get(ProbeCalibration, record_id)
    if row is None or not row.content:
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    return row.content, row.file_name or "certificate.pdf"


def delete(record_id: int) -> None:
    db.session.delete(db.session.get(ProbeCalibration, record_id))
    db.session.commit()
