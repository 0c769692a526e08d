"""The calibration service's rules: prices, applications and their state machine, results per point,
certificates (numbered uniquely, generated as PDF from the results), quick orders and lab files.

Who sees what: a customer sees its own applications only; the site's lab admins (api/calibration/
models.LabAdmin, keys `calibration.lab.*`) see every application of their site. Every lookup is
scoped to the request's data space, so another site's ids find nothing (404).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import timedelta

from flask_babel import gettext
from sqlalchemy import or_, select
from sqlalchemy.orm import selectinload

from api.account.auth import require_account
from api.account.models import Account
from api.calibration import certificate as certificate_pdf
from api.calibration import states
from api.calibration.models import (
    Application,
    ApplicationItem,
    CalibrationLab,
    Certificate,
    FileKind,
    LabAdmin,
    LabFile,
    NumberCounter,
    PriceConf,
    QuickOrder,
    QuickOrderStatus,
    ResultInfo,
    ServiceLevel,
    StatusHistory,
)
from api.calibration.states import Action, Actor
from api.device.models import Device
from api.extensions import uploads
from api.extensions.db import db, paginate, utcnow
from api.extensions.i18n import N_
from api.extensions.smorest import ApiError
from api.platform.links import public_url
from api.tenancy import current_platform, data_platform_id

LAB_KEYS = ("calibration.lab", "calibration.lab.query", "calibration.lab.edit")
# More instruments than this in one application: the customer is asked to contact customer service.
MAX_ITEMS = 50
CANCELLED_MESSAGE = N_("this order has been cancelled")
TOO_MANY = N_("Too many products: please contact customer service for a bulk calibration.")
DEFAULT_LAB = "Calibration Laboratory"
# Prices (cents) when the lab has configured none.
DEFAULT_PRICES = {
    ServiceLevel.STANDARD: (15000, 3, 3000, 7),
    ServiceLevel.EXPRESS: (25000, 3, 4000, 3),
    ServiceLevel.ACCREDITED: (40000, 3, 6000, 10),
}
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


# ---- who ------------------------------------------------------------------------------------------


def is_lab_admin(account: Account) -> bool:
    return (
        db.session.scalar(
            select(LabAdmin.id).where(LabAdmin.account_id == account.id, LabAdmin.platform_id == account.platform_id)
        )
        is not None
    )


def lab_keys(account: Account) -> tuple[str, ...]:
    """The keys a lab admin holds (registered with the access layer's key computation)."""
    return LAB_KEYS if is_lab_admin(account) else ()


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def refuse(message: str, **values) -> ApiError:
    return ApiError(gettext(message, **values), code=400)


def lab() -> CalibrationLab | None:
    return db.session.scalar(select(CalibrationLab).where(CalibrationLab.platform_id == data_platform_id()))


# ---- prices ---------------------------------------------------------------------------------------


def prices() -> list[dict]:
    rows = {
        row.level: row
        for row in db.session.scalars(select(PriceConf).where(PriceConf.platform_id == data_platform_id()))
    }
    out = []
    for level in ServiceLevel:
        row = rows.get(level)
        base, included, point, days = (
            (row.base_price, row.included_points, row.point_price, row.days) if row else DEFAULT_PRICES[level]
        )
        out.append(
            {
                "level": level.value,
                "basePrice": base,
                "includedPoints": included,
                "pointPrice": point,
                "currency": row.currency if row else "CNY",
                "days": days,
            }
        )
    return out


def item_price(level: str, points: int, quantity: int) -> int:
    conf = next(p for p in prices() if p["level"] == level)
    extra = max(0, points - conf["includedPoints"])
    return (conf["basePrice"] + extra * conf["pointPrice"]) * quantity


# ---- applications ---------------------------------------------------------------------------------


def _order_no(prefix: str) -> str:
    return f"{prefix}{utcnow():%Y%m%d}{secrets.randbelow(10**6):06d}"


def _own_device(account: Account, serial: str) -> int | None:
    return db.session.scalar(
        select(Device.id).where(
            Device.guid == serial, Device.owner_account_id == account.id, Device.platform_id == data_platform_id()
        )
    )


def apply(args: dict) -> Application:
    account = require_account()
    items = args["items"]
    if len(items) > MAX_ITEMS:
        raise ApiError(gettext(TOO_MANY), code=4001, data={"maxItems": MAX_ITEMS})
    application = Application(
        platform_id=data_platform_id(),
        owner_account_id=account.id,
        order_no=_order_no("CA"),
        status=states.SUBMITTED,
        company=args["company"],
        contact=args["contact"],
        phone=args["phone"],
        email=args.get("email"),
        address=args.get("address"),
        remark=args.get("remark"),
        invoice=args.get("invoice"),
    )
    for row in items:
        points = sorted(row["points"])
        application.items.append(
            ApplicationItem(
                device_model=row["deviceModel"],
                serial=row["serial"],
                device_id=_own_device(account, row["serial"]),
                quantity=row["quantity"],
                points=points,
                range_text=row.get("range"),
                unit=row["unit"],
                level=ServiceLevel(row["level"]),
                price=item_price(row["level"], len(points), row["quantity"]),
            )
        )
    application.total_price = sum(item.price for item in application.items)
    application.history.append(StatusHistory(from_status=None, to_status=states.SUBMITTED, actor_account_id=account.id))
    db.session.add(application)
    db.session.commit()
    return application


def _load(application_id: int) -> Application | None:
    return db.session.scalar(
        select(Application)
        .where(Application.id == application_id, Application.platform_id == data_platform_id())
        .options(selectinload(Application.items).selectinload(ApplicationItem.results))
    )


def own(application_id: int) -> Application:
    """The caller's own application (customer calls)."""
    application = _load(application_id)
    if application is None or application.owner_account_id != require_account().id:
        raise not_found()
    return application


def any_of_site(application_id: int) -> Application:
    """Any application of the site (lab calls; the route checked the lab key)."""
    application = _load(application_id)
    if application is None:
        raise not_found()
    return application


def visible(application_id: int) -> Application:
    """Shared reads: the owner, or a lab admin of the site."""
    account = require_account()
    application = _load(application_id)
    if application is None or (application.owner_account_id != account.id and not is_lab_admin(account)):
        raise not_found()
    return application


def move(
    application: Application,
    target: int,
    actor: Actor,
    action: Action,
    note: str | None = None,
    actor_id: int | None = None,
) -> StatusHistory:
    """The one way a status changes: the move must be in the table (api/calibration/states.py).
    `actor_id`: who, when not the signed-in account (a payment notification names its payer)."""
    current = application.status
    if not states.allowed(current, target, actor, action):
        if states.is_cancelled(current):
            raise refuse(CANCELLED_MESSAGE)
        raise ApiError(
            gettext(
                "The order cannot go from '%(a)s' to '%(b)s'.",
                a=gettext(states.STATUS_NAMES.get(current, "?")),
                b=gettext(states.STATUS_NAMES.get(target, "?")),
            ),
            code=409,
        )
    application.status = target
    row = StatusHistory(
        from_status=current,
        to_status=target,
        actor_account_id=actor_id if actor_id is not None else require_account().id,
        note=note,
    )
    application.history.append(row)
    return row


def _filtered(stmt, args: dict):
    if args.get("status"):
        stmt = stmt.where(Application.status == args["status"])
    if args.get("orderNo"):
        stmt = stmt.where(Application.order_no.icontains(args["orderNo"], autoescape=True))
    if args.get("keyword"):
        word = args["keyword"]
        stmt = stmt.where(
            or_(
                Application.company.icontains(word, autoescape=True),
                Application.contact.icontains(word, autoescape=True),
                Application.order_no.icontains(word, autoescape=True),
            )
        )
    return stmt.options(selectinload(Application.items))


def customer_page(args: dict) -> dict:
    stmt = select(Application).where(
        Application.platform_id == data_platform_id(), Application.owner_account_id == require_account().id
    )
    return paginate(_filtered(stmt, args), args, Application.id.desc())


def admin_page(args: dict) -> dict:
    stmt = select(Application).where(Application.platform_id == data_platform_id())
    return paginate(_filtered(stmt, args), args, Application.id.desc())


def set_status(args: dict) -> Application:
    application = any_of_site(args["applicationId"])
    move(application, args["status"], Actor.LAB, Action.STATUS, args.get("note"))
    db.session.commit()
    return application


def tracking(args: dict) -> Application:
    application = own(args["applicationId"])
    move(application, states.SHIPPED, Actor.CUSTOMER, Action.TRACKING, args["trackingNumber"])
    application.tracking_company = args["trackingCompany"]
    application.tracking_number = args["trackingNumber"]
    db.session.commit()
    return application


def _require_active(application: Application) -> None:
    if states.is_cancelled(application.status):
        raise refuse(CANCELLED_MESSAGE)


def update_base(args: dict) -> Application:
    application = own(args["applicationId"])
    _require_active(application)
    if application.status > states.SHIPPED:
        raise refuse(N_("The instruments are at the lab: contact details can no longer change here."))
    for field, column in (("company", "company"), ("contact", "contact"), ("phone", "phone")):
        setattr(application, column, args[field])
    for field in ("email", "address", "remark"):
        if field in args:
            setattr(application, field, args[field])
    db.session.commit()
    return application


def update_invoice(args: dict) -> Application:
    application = own(args["applicationId"])
    _require_active(application)
    application.invoice = args["invoice"]
    db.session.commit()
    return application


def user_invoice() -> dict | None:
    """The invoice details of the customer's latest application that had some (to prefill the form)."""
    return db.session.scalar(
        select(Application.invoice)
        .where(
            Application.owner_account_id == require_account().id,
            Application.platform_id == data_platform_id(),
            Application.invoice.is_not(None),
        )
        .order_by(Application.id.desc())
        .limit(1)
    )


def cancel_apply(args: dict) -> Application:
    application = own(args["applicationId"])
    _require_active(application)
    if application.status not in states.CANCELLABLE:
        raise refuse(N_("The instruments are at the lab: this order can no longer be cancelled."))
    if application.cancel_requested:
        raise refuse(N_("A cancellation request is already waiting for the lab."))
    application.cancel_requested = True
    application.cancel_reason = args["reason"]
    application.cancel_answer = None
    db.session.commit()
    return application


def cancel_check(args: dict, on_cancelled: Callable[[Application], None] | None = None) -> Application:
    """The lab answers a cancellation request; `on_cancelled` runs after an approved cancellation,
    before the commit (api/calibration/payment.py gives the payment back there)."""
    application = any_of_site(args["applicationId"])
    if not application.cancel_requested:
        raise refuse(N_("No cancellation request is waiting for this order."))
    if args["approve"]:
        move(application, states.CANCELLED, Actor.LAB, Action.CANCEL, args.get("answer"))
        if on_cancelled is not None:
            on_cancelled(application)
    application.cancel_requested = False
    application.cancel_answer = args.get("answer")
    db.session.commit()
    return application


# ---- results and certificates --------------------------------------------------------------------


def _item_of_site(item_id: int) -> ApplicationItem:
    item = db.session.scalar(
        select(ApplicationItem)
        .join(Application)
        .where(ApplicationItem.id == item_id, Application.platform_id == data_platform_id())
    )
    if item is None:
        raise not_found()
    return item


def results_of(application_id: int) -> list[dict]:
    application = visible(application_id)
    return [item_results(item) for item in application.items]


def item_results(item: ApplicationItem) -> dict:
    return {"item": item, "results": item.results}


def _result_values(row: dict) -> dict:
    error = row.get("error")
    if error is None:
        error = round(row["reading"] - row["reference"], 6)
    return {
        "reference": row["reference"],
        "reading": row["reading"],
        "error": error,
        "uncertainty": row["uncertainty"],
        "passed": row["passed"],
    }


def insert_results(args: dict) -> dict:
    item = _item_of_site(args["itemId"])
    application = item.application
    _require_active(application)
    if application.status == states.RECEIVED:
        move(application, states.CALIBRATING, Actor.LAB, Action.RESULT)
    elif application.status != states.CALIBRATING:
        raise refuse(N_("Results are recorded once the lab has received the instruments."))
    taken = {r.point_no for r in item.results}
    account = require_account()
    for row in args["results"]:
        if row["pointNo"] in taken:
            raise ApiError(
                gettext("Point %(n)s already has a result: update it instead.", n=row["pointNo"]),
                code=422,
                data={"errors": {"pointNo": [gettext("Already recorded")]}},
            )
        taken.add(row["pointNo"])
        item.results.append(ResultInfo(point_no=row["pointNo"], recorded_by=account.id, **_result_values(row)))
    db.session.commit()
    return item_results(item)


def update_result(args: dict) -> ResultInfo:
    result = db.session.scalar(
        select(ResultInfo)
        .join(ApplicationItem)
        .join(Application)
        .where(ResultInfo.id == args["resultId"], Application.platform_id == data_platform_id())
    )
    if result is None:
        raise not_found()
    application = db.session.get(Application, db.session.get(ApplicationItem, result.item_id).application_id)
    _require_active(application)
    if application.status != states.CALIBRATING:
        raise refuse(N_("Results can no longer change: the certificate is issued."))
    for key, value in _result_values(args).items():
        setattr(result, key, value)
    result.recorded_by = require_account().id
    db.session.commit()
    return result


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
    _require_active(application)
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
    item = _item_of_site(args["itemId"])
    application = item.application
    _require_active(application)
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
    _require_active(application)
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


# ---- quick orders --------------------------------------------------------------------------------


def apply_quick(args: dict) -> QuickOrder:
    order = QuickOrder(
        platform_id=data_platform_id(),
        owner_account_id=require_account().id,
        order_no=_order_no("CQ"),
        company=args.get("company"),
        contact=args["contact"],
        phone=args["phone"],
        device_model=args.get("deviceModel"),
        quantity=args["quantity"],
        remark=args.get("remark"),
    )
    if order.quantity > MAX_ITEMS:
        raise ApiError(gettext(TOO_MANY), code=4001, data={"maxItems": MAX_ITEMS})
    db.session.add(order)
    db.session.commit()
    return order


def quick_page(args: dict) -> dict:
    stmt = select(QuickOrder).where(QuickOrder.platform_id == data_platform_id())
    if args.get("status"):
        stmt = stmt.where(QuickOrder.status == args["status"])
    if args.get("keyword"):
        word = args["keyword"]
        stmt = stmt.where(
            or_(
                QuickOrder.contact.icontains(word, autoescape=True),
                QuickOrder.phone.icontains(word, autoescape=True),
                QuickOrder.order_no.icontains(word, autoescape=True),
            )
        )
    return paginate(stmt, args, QuickOrder.id.desc())


def handle_quick(args: dict) -> QuickOrder:
    order = db.session.scalar(
        select(QuickOrder).where(QuickOrder.id == args["quickOrderId"], QuickOrder.platform_id == data_platform_id())
    )
    if order is None:
        raise not_found()
    if order.status != QuickOrderStatus.PENDING:
        raise refuse(N_("This quick order has already been handled."))
    order.status = QuickOrderStatus(args["status"])
    order.handle_note = args.get("note")
    order.handled_by = require_account().id
    db.session.commit()
    return order
