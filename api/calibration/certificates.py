"""Calibration certificates: numbering and confirming them, the lab's imported certificate and report PDFs,
the order and report documents, their QR codes and the public verification."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask_babel import gettext
from sqlalchemy import select

from api.calibration import certificate as certificate_pdf
from api.calibration import states
from api.calibration.models import (
    Application,
    ApplicationItem,
    CalibrationLab,
    Certificate,
    FileKind,
    LabFile,
    NumberCounter,
)
from api.calibration.results import item_of_site
from api.calibration.services import (
    CANCELLED_MESSAGE,
    DEFAULT_LAB,
    any_of_site,
    lab,
    move,
    not_found,
    refuse,
    require_active,
    visible,
)
from api.calibration.states import Action, Actor
from api.extensions import uploads
from api.extensions.db import db, utcnow
from api.extensions.i18n import N_
from api.identity.auth import require_account
from api.identity.models import Account
from api.platform.links import public_url
from api.tenancy import current_platform

VERIFY_PATH = "/calibration/verify?code="


DETAIL_FIELDS = (
    "order_no",
    "status",
    "company",
    "contact",
    "phone",
    "email",
    "address",
    "remark",
    "invoice",
    "total_price",
    "currency",
    "tracking_company",
    "tracking_number",
    "cancel_requested",
    "cancel_reason",
    "cancel_answer",
    "calibrated_at",
    "created_at",
    "items",
)


def _next_number(platform_id: int, prefix: str) -> str:
    year = utcnow().year
    counter = db.session.scalar(
        select(NumberCounter)
        .where(NumberCounter.platform_id == platform_id, NumberCounter.year == year)
        .with_for_update()
    )
    if counter is None:
        counter = NumberCounter(platform_id=platform_id, year=year, last=0)
        db.session.add(counter)
    counter.last += 1
    db.session.flush()
    return f"{prefix}-{year}-{platform_id:02d}{counter.last:05d}"


def verify_url(code: str) -> str:
    return public_url(current_platform(), VERIFY_PATH + code)


def _imported(application: Application) -> dict[int, LabFile]:
    files = db.session.scalars(
        select(LabFile)
        .where(LabFile.application_id == application.id, LabFile.kind == FileKind.CERTIFICATE)
        .order_by(LabFile.id)
    )
    return {int(f.file_name.split(":", 1)[0]): f for f in files}


def confirm(args: dict) -> Application:
    """The lab confirms the calibration: every item has its results (or an imported certificate);
    each gets a uniquely numbered certificate and the order's PDF is generated from the results."""
    application = any_of_site(args["applicationId"])
    require_active(application)
    imported = _imported(application)
    missing = [item.serial for item in application.items if not item.results and item.id not in imported]
    if application.status == states.CALIBRATING and missing:
        raise refuse(N_("Record the results of every instrument first: %(serials)s"), serials=", ".join(missing))
    move(application, states.COMPLETED, Actor.LAB, Action.CONFIRM, args.get("note"))
    the_lab = lab()
    prefix = the_lab.number_prefix if the_lab else "CAL"
    now = utcnow()
    months = args["validMonths"]
    for item in application.items:
        file = imported.get(item.id)
        code = secrets.token_urlsafe(16)
        cert = Certificate(
            platform_id=application.platform_id,
            application_id=application.id,
            item_id=item.id,
            number=_next_number(application.platform_id, prefix),
            verify_code=code,
            issued_at=now,
            next_due_at=now + timedelta(days=round(months * 30.44)),
            passed=all(r.passed for r in item.results) if item.results else True,
            imported=file is not None,
        )
        db.session.add(cert)
        if file is not None:
            cert.pdf = file.content
            cert.sha256 = hashlib.sha256(file.content).hexdigest()
    application.calibrated_at = now
    db.session.flush()
    certificates = certificates_of(application)
    owner = db.session.get(Account, application.owner_account_id)
    generated = []
    for cert in certificates:
        if not cert.imported:
            item = next(i for i in application.items if i.id == cert.item_id)
            cert.pdf = certificate_pdf.build([(cert, item)], application, the_lab, owner, verify_url)
            cert.sha256 = hashlib.sha256(cert.pdf).hexdigest()
            generated.append((cert, item))
    if generated:
        application.pdf = certificate_pdf.build(generated, application, the_lab, owner, verify_url)
    db.session.commit()
    return application


def certificates_of(application: Application) -> list[Certificate]:
    return list(
        db.session.scalars(
            select(Certificate).where(Certificate.application_id == application.id).order_by(Certificate.item_id)
        )
    )


def _pdf_upload(file) -> bytes:
    content, _ = uploads.read_checked(file, "pdf")
    return content


def import_cert(args: dict, file) -> dict:
    """The lab imports a certificate PDF of one item (an external or hand-signed certificate):
    before confirmation it stands in for the results; after, it replaces the generated file."""
    item = item_of_site(args["itemId"])
    application = item.application
    require_active(application)
    if application.status not in (states.CALIBRATING, states.COMPLETED, states.RECEIVED):
        raise refuse(N_("Certificates are imported once the lab has received the instruments."))
    content = _pdf_upload(file)
    db.session.add(
        LabFile(
            application_id=application.id,
            kind=FileKind.CERTIFICATE,
            file_name=f"{item.id}:certificate.pdf",
            content=content,
            uploaded_by=require_account().id,
        )
    )
    cert = db.session.scalar(select(Certificate).where(Certificate.item_id == item.id))
    if cert is not None:
        cert.pdf, cert.imported, cert.sha256 = content, True, hashlib.sha256(content).hexdigest()
    db.session.commit()
    return {"itemId": item.id, "size": len(content), "certificateNumber": cert.number if cert else None}


def upload_report(args: dict, file) -> dict:
    application = any_of_site(args["applicationId"])
    require_active(application)
    content = _pdf_upload(file)
    row = LabFile(
        application_id=application.id,
        kind=FileKind.REPORT,
        file_name=f"report-{application.order_no}.pdf",
        content=content,
        uploaded_by=require_account().id,
    )
    db.session.add(row)
    db.session.commit()
    return {"applicationId": application.id, "fileName": row.file_name, "size": len(content)}


def has_report(application_id: int) -> bool:
    return (
        db.session.scalar(
            select(LabFile.id).where(LabFile.application_id == application_id, LabFile.kind == FileKind.REPORT).limit(1)
        )
        is not None
    )


def detail_dict(application: Application) -> dict:
    """The detail answer: the application, its history, certificates and whether a report exists."""
    return {
        "id": application.id,
        **{key: getattr(application, key) for key in DETAIL_FIELDS},
        "history": application.history,
        "certificates": qr_codes(application.id),
        "hasReport": has_report(application.id),
        "owner": application.owner_account_id == require_account().id,
    }


def order_pdf(application_id: int, item_id: int | None) -> tuple[bytes, str]:
    """The certificate PDF of an order (or of one of its items); refused for a cancelled order."""
    application = visible(application_id)
    if states.is_cancelled(application.status):
        raise refuse(CANCELLED_MESSAGE)
    if application.status != states.COMPLETED:
        raise refuse(N_("The certificate is not issued yet."))
    if item_id is not None:
        cert = db.session.scalar(
            select(Certificate).where(Certificate.application_id == application.id, Certificate.item_id == item_id)
        )
        if cert is None or cert.pdf is None:
            raise not_found()
        return cert.pdf, f"{cert.number}.pdf"
    if application.pdf is None:
        certs = certificates_of(application)
        if not certs or certs[0].pdf is None:
            raise refuse(N_("The certificate is not issued yet."))
        return certs[0].pdf, f"{certs[0].number}.pdf"
    return application.pdf, f"certificate-{application.order_no}.pdf"


def report_pdf(application_id: int) -> tuple[bytes, str]:
    application = visible(application_id)
    if states.is_cancelled(application.status):
        raise refuse(CANCELLED_MESSAGE)
    row = db.session.scalar(
        select(LabFile)
        .where(LabFile.application_id == application.id, LabFile.kind == FileKind.REPORT)
        .order_by(LabFile.id.desc())
        .limit(1)
    )
    if row is None:
        raise refuse(N_("The lab has not uploaded a report for this order."))
    return row.content, row.file_name


def qr_codes(application_id: int) -> list[dict]:
    application = visible(application_id)
    items = {item.id: item for item in application.items}
    return [
        {
            "itemId": cert.item_id,
            "certificateNumber": cert.number,
            "serial": items[cert.item_id].serial,
            "url": verify_url(cert.verify_code),
        }
        for cert in certificates_of(application)
    ]


def explain(application_id: int) -> dict:
    """The results in words, per instrument: how many points passed, the largest error and uncertainty."""
    application = visible(application_id)
    rows = []
    for item in application.items:
        results = item.results
        worst = max(results, key=lambda r: abs(r.error), default=None)
        passed = all(r.passed for r in results) if results else None
        if not results:
            text = gettext("No results recorded yet.")
        elif passed:
            text = gettext(
                "All %(n)s points are within tolerance; the largest error is %(e)s %(u)s.",
                n=len(results),
                e=f"{worst.error:+.3f}",
                u=item.unit,
            )
        else:
            failed = [str(r.point_no) for r in results if not r.passed]
            text = gettext(
                "Points %(points)s are out of tolerance: adjust or replace the instrument.", points=", ".join(failed)
            )
        rows.append(
            {
                "itemId": item.id,
                "deviceModel": item.device_model,
                "serial": item.serial,
                "passed": passed,
                "points": len(results),
                "maxError": worst.error if worst else None,
                "maxUncertainty": max((r.uncertainty for r in results), default=None),
                "explanation": text,
            }
        )
    return {
        "items": rows,
        "statement": gettext(
            "Error = reading - reference value. The expanded uncertainty U is stated at a coverage factor "
            "k = 2 (about 95 per cent confidence). A point passes when its error lies within the instrument's "
            "tolerance."
        ),
    }


def verify(code: str) -> dict:
    cert = db.session.scalar(select(Certificate).where(Certificate.verify_code == code))
    if cert is None:
        raise not_found()
    application = db.session.get(Application, cert.application_id)
    item = db.session.get(ApplicationItem, cert.item_id)
    the_lab = db.session.scalar(select(CalibrationLab).where(CalibrationLab.platform_id == cert.platform_id))
    return {
        "certificateNumber": cert.number,
        "lab": the_lab.name if the_lab else DEFAULT_LAB,
        "customer": application.company,
        "deviceModel": item.device_model,
        "serial": item.serial,
        "issuedAt": cert.issued_at,
        "nextDueAt": cert.next_due_at,
        "passed": cert.passed,
        "valid": not states.is_cancelled(application.status) and cert.next_due_at > utcnow(),
        "sha256": cert.sha256,
    }


def device_certificate(device_id: int) -> dict | None:
    """The latest certificate of a device (items whose serial was the device's GUID)."""
    row = db.session.execute(
        select(Certificate, Application)
        .join(ApplicationItem, ApplicationItem.id == Certificate.item_id)
        .join(Application, Application.id == Certificate.application_id)
        .where(ApplicationItem.device_id == device_id, Application.status == states.COMPLETED)
        .order_by(Certificate.issued_at.desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    cert, application = row
    mine = application.owner_account_id == require_account().id
    return {
        "certificateNumber": cert.number,
        "issuedAt": cert.issued_at,
        "nextDueAt": cert.next_due_at,
        "passed": cert.passed,
        "overdue": cert.next_due_at <= utcnow(),
        "applicationId": application.id if mine else None,
        "itemId": cert.item_id if mine else None,
        "verifyUrl": verify_url(cert.verify_code),
    }
