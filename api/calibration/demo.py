"""Demo calibration facts of `flask seed-demo`: the default site's lab, its price list, a lab admin
(`labadmin`) and demouser's orders in different states: submitted, shipped, completed (results and a
certificate of the Vaccine Fridge's logger) and cancelled, plus a pending quick order.
Idempotent: nothing is added once demouser has calibration orders."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask import current_app
from sqlalchemy import select

from api.account.services import ensure_account
from api.calibration import certificate, states
from api.calibration.certificates import VERIFY_PATH
from api.calibration.models import (
    Application,
    ApplicationItem,
    CalibrationLab,
    Certificate,
    LabAdmin,
    NumberCounter,
    PriceConf,
    QuickOrder,
    ResultInfo,
    ServiceLevel,
    StatusHistory,
)
from api.calibration.services import DEFAULT_PRICES
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.identity.models import Account, AccountType
from api.platform.links import public_url
from api.platform.models import Platform

LAB_ADMIN = "labadmin"
# (reference, reading, uncertainty) at -20, 0 and 25 °C.
DEMO_POINTS = ((-20.0, -20.12, 0.08), (0.0, 0.05, 0.06), (25.0, 25.09, 0.07))


def seed_calibration(platform: Platform, customer: Account, device: Device, password: str) -> list[tuple[str, str]]:
    admin = ensure_account(
        platform,
        LAB_ADMIN,
        password,
        account_type=AccountType.ENTERPRISE,
        real_name="Lab Admin",
        company_name="ColdTrace Metrology Lab",
        email="lab@example.com",
    )
    if db.session.scalar(select(LabAdmin).where(LabAdmin.account_id == admin.id)) is None:
        db.session.add(LabAdmin(platform_id=platform.id, account_id=admin.id))
    lab = db.session.scalar(select(CalibrationLab).where(CalibrationLab.platform_id == platform.id))
    if lab is None:
        lab = CalibrationLab(
            platform_id=platform.id,
            name="ColdTrace Metrology Lab",
            address="88 Zhangjiang Road, Shanghai",
            accreditation="CNAS L0000 (demo)",
            phone="+86 21 5555 0100",
            email="lab@example.com",
            signatory="Dr. Chen Jing",
            number_prefix="CTL",
        )
        db.session.add(lab)
    for level, (base, included, point, days) in DEFAULT_PRICES.items():
        if db.session.scalar(select(PriceConf).where(PriceConf.platform_id == platform.id, PriceConf.level == level)):
            continue
        db.session.add(
            PriceConf(
                platform_id=platform.id,
                level=level,
                base_price=base,
                included_points=included,
                point_price=point,
                days=days,
            )
        )
    db.session.commit()
    if db.session.scalar(select(Application.id).where(Application.owner_account_id == customer.id).limit(1)):
        return [(LAB_ADMIN, password)]
    now = utcnow()
    made = {}
    for n, status in enumerate((states.SUBMITTED, states.SHIPPED, states.COMPLETED, states.CANCELLED), start=1):
        application = Application(
            platform_id=platform.id,
            owner_account_id=customer.id,
            order_no=f"CA{now:%Y%m%d}9000{n:02d}",
            status=states.SUBMITTED,
            company="Demo Cold Chain Co.",
            contact="Demo User",
            phone="+86 138 0000 0000",
            email="demouser@example.com",
            address="1 Demo Street, Shanghai",
            created_at=now - timedelta(days=40 - n * 8),
        )
        serial = device.guid if status == states.COMPLETED else f"SN-DEMO-{n:03d}"
        item = ApplicationItem(
            device_model="TH-20 logger",
            serial=serial,
            device_id=device.id if status == states.COMPLETED else None,
            quantity=1,
            points=[p[0] for p in DEMO_POINTS],
            range_text="-40 ~ 85 °C",
            unit="°C",
            level=ServiceLevel.STANDARD,
            price=DEFAULT_PRICES[ServiceLevel.STANDARD][0],
        )
        application.items.append(item)
        application.total_price = item.price
        path = {
            states.SUBMITTED: [],
            states.SHIPPED: [states.CONFIRMED, states.SHIPPED],
            states.COMPLETED: [states.CONFIRMED, states.SHIPPED, states.RECEIVED, states.CALIBRATING, states.COMPLETED],
            states.CANCELLED: [states.CANCELLED],
        }[status]
        application.history.append(
            StatusHistory(from_status=None, to_status=states.SUBMITTED, actor_account_id=customer.id)
        )
        for target in path:
            application.history.append(
                StatusHistory(from_status=application.status, to_status=target, actor_account_id=admin.id)
            )
            application.status = target
        if status >= states.SHIPPED:
            application.tracking_company, application.tracking_number = "SF Express", f"SF10000{n:05d}"
        if status == states.CANCELLED:
            application.cancel_reason, application.cancel_answer = "Ordered twice", "Cancelled as requested"
        db.session.add(application)
        made[status] = (application, item)
    db.session.flush()
    application, item = made[states.COMPLETED]
    for no, (reference, reading, uncertainty) in enumerate(DEMO_POINTS, start=1):
        item.results.append(
            ResultInfo(
                point_no=no,
                reference=reference,
                reading=reading,
                error=round(reading - reference, 3),
                uncertainty=uncertainty,
                passed=True,
                recorded_by=admin.id,
            )
        )
    counter = db.session.scalar(
        select(NumberCounter).where(NumberCounter.platform_id == platform.id, NumberCounter.year == now.year)
    ) or NumberCounter(platform_id=platform.id, year=now.year, last=0)
    counter.last += 1
    db.session.add(counter)
    cert = Certificate(
        platform_id=platform.id,
        application_id=application.id,
        item_id=item.id,
        number=f"{lab.number_prefix}-{now.year}-{platform.id:02d}{counter.last:05d}",
        verify_code=secrets.token_urlsafe(16),
        issued_at=now - timedelta(days=2),
        next_due_at=now - timedelta(days=2) + timedelta(days=365),
        passed=True,
    )
    db.session.add(cert)
    application.calibrated_at = cert.issued_at
    db.session.flush()
    with current_app.test_request_context():
        pdf = certificate.build(
            [(cert, item)], application, lab, customer, lambda code: public_url(platform, VERIFY_PATH + code)
        )
    cert.pdf, cert.sha256 = pdf, hashlib.sha256(pdf).hexdigest()
    application.pdf = pdf
    db.session.add(
        QuickOrder(
            platform_id=platform.id,
            owner_account_id=customer.id,
            order_no=f"CQ{now:%Y%m%d}900001",
            company="Demo Cold Chain Co.",
            contact="Demo User",
            phone="+86 138 0000 0000",
            device_model="TH-20 logger",
            quantity=12,
            remark="Yearly calibration of the warehouse loggers",
        )
    )
    db.session.commit()
    return [(LAB_ADMIN, password)]
