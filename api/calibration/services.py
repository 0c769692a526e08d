"""The calibration service's rules: prices, applications and their state machine. Results per point
are in api/calibration/results.py, certificates and lab files in certificates.py, quick orders in
quick_orders.py; they build on the lookups here.

Who sees what: a customer sees its own applications only; the site's lab admins (api/calibration/
models.LabAdmin, keys `calibration.lab.*`) see every application of their site. Every lookup is
scoped to the request's data space, so another site's ids find nothing (404).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from flask_babel import gettext
from sqlalchemy import or_, select
from sqlalchemy.orm import selectinload

from api.calibration import states
from api.calibration.models import (
    Application,
    ApplicationItem,
    CalibrationLab,
    LabAdmin,
    PriceConf,
    ServiceLevel,
    StatusHistory,
)
from api.calibration.states import Action, Actor
from api.device.models import Device
from api.extensions.db import db, paginate, utcnow
from api.extensions.i18n import N_
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.identity.models import Account
from api.tenancy import data_platform_id

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


def new_order_no(prefix: str) -> str:
    return f"{prefix}{utcnow():%Y%m%d}{secrets.randbelow(10**6):06d}"


def _own_device(account: Account, serial: str) -> int | None:
    return db.session.scalar(
        select(Device.id).where(
            Device.guid == serial,
            Device.owner_account_id == account.id,
            Device.platform_id == data_platform_id(),
            Device.deleted.is_(False),
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
        order_no=new_order_no("CA"),
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


def require_active(application: Application) -> None:
    if states.is_cancelled(application.status):
        raise refuse(CANCELLED_MESSAGE)


def update_base(args: dict) -> Application:
    application = own(args["applicationId"])
    require_active(application)
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
    require_active(application)
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
    require_active(application)
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
    before the commit (api/calibration/payment.py gives the payment back there). The application's
    row is locked and read afresh: two lab admins answering at once cancel (and refund) once."""
    application = any_of_site(args["applicationId"])
    db.session.scalar(
        select(Application)
        .where(Application.id == application.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
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
