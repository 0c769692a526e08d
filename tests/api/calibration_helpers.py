"""Helpers of the calibration tests: a lab admin of a site, an application body, and the calls that
walk an order to a given status through the api."""

from __future__ import annotations

from sqlalchemy import select

from api.calibration.models import LabAdmin
from api.extensions.db import db
from api.identity.models import Account
from api.tenancy import find_platform

CAL = "/api/calibration"
APP = f"{CAL}/Application"
RESULT = f"{CAL}/ResultInfo"
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def make_lab_admin(app, user_name: str, host: str = "localhost") -> None:
    with app.app_context():
        platform = find_platform(host)
        account = db.session.scalar(
            select(Account).where(Account.platform_id == platform.id, Account.user_name == user_name)
        )
        db.session.add(LabAdmin(platform_id=platform.id, account_id=account.id))
        db.session.commit()


def item(**extra) -> dict:
    return {
        "deviceModel": "TH-20",
        "serial": "SN-0001",
        "quantity": 1,
        "points": [-20, 0, 25],
        "range": "-40~85 °C",
        "unit": "°C",
        "level": "standard",
        **extra,
    }


def application_body(marker: str = "", items: list[dict] | None = None, **extra) -> dict:
    return {
        "company": f"Acme {marker}".strip(),
        "contact": "Li Wei",
        "phone": "13800000000",
        "email": "li@example.com",
        "address": f"Road {marker}".strip(),
        "items": items if items is not None else [item()],
        **extra,
    }


POINTS = [
    {"pointNo": 1, "reference": -20.0, "reading": -20.11, "uncertainty": 0.08, "passed": True},
    {"pointNo": 2, "reference": 0.0, "reading": 0.04, "uncertainty": 0.06, "passed": True},
    {"pointNo": 3, "reference": 25.0, "reading": 25.37, "uncertainty": 0.07, "passed": False},
]
