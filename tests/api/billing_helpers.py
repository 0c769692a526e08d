"""Billing test helpers: an operator's catalogue for the TH-2 loggers, merchants on the local fakes,
devices claimed by an owner."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from werkzeug.serving import make_server

from api.device.models import Device, DeviceType
from api.extensions.db import db
from api.identity.models import StaffRole
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import add
from tests.conftest import DEFAULT_HOST
from tests.payment_fakes import AlipayFake, PayPalFake, WeChatPayFake

BILLING, PAYMENT = "/api/billing", "/api/payment"
YEAR_FEE, YEAR_DATA = 19900, 2100  # 199.00 + 21.00 a year per device


def ok(response) -> dict | list | None:
    body = response.get_json()
    assert response.status_code == 200 and body["code"] == 0, body
    return body["data"]


def type_id(app, code: int = 0x8002) -> int:
    with app.app_context():
        return db.session.scalar(select(DeviceType.id).where(DeviceType.type_code == code))


def package_body(device_type_ids: list[int], **changes) -> dict:
    body = {
        "packageName": "Standard",
        "packageCode": "20260001",
        "status": True,
        "currency": "CNY",
        "deviceTypeIds": device_type_ids,
        "levels": [
            {
                "levelName": "Basic",
                "serviceItems": ["Data upload", "Alarm SMS"],
                "prices": [
                    {"months": 12, "serviceFee": YEAR_FEE, "dataFee": YEAR_DATA, "discount": 0, "recommended": True},
                    {"months": 24, "serviceFee": 2 * YEAR_FEE, "dataFee": 2 * YEAR_DATA, "discount": 10},
                ],
                "free": {"timeLength": 30, "smsCount": 5, "voiceCount": 1},
            }
        ],
    }
    return {**body, **changes}


@pytest.fixture
def operator(app, client):
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    return auth(login(client, "operator"))


@pytest.fixture
def wechat_fake():
    with WeChatPayFake() as fake:
        yield fake


@pytest.fixture
def alipay_fake():
    with AlipayFake() as fake:
        yield fake


@pytest.fixture
def paypal_fake():
    with PayPalFake() as fake:
        yield fake


@pytest.fixture
def shop(app, client, guids, operator):
    """The operator's package for TH-2 loggers (levels ids known), an owner with two claimed loggers."""
    package = ok(client.post(f"{BILLING}/ServicePackage/insert", json=package_body([type_id(app)]), headers=operator))
    make_account(app, user_name="buyer_one", email="buyer@example.com")
    buyer = auth(login(client, "buyer_one"))
    devices = [add(client, buyer, guids["th_a"][0], name="Fridge A"), add(client, buyer, guids["th_b"][0], name="B")]
    return {"package": package, "level": package["levels"][0]["levelId"], "buyer": buyer, "devices": devices}


def merchant(client, operator, provider: str, config: dict) -> None:
    ok(client.put(f"{BILLING}/PaymentMerchant/save", json={"provider": provider, "config": config}, headers=operator))


def expiries(app, device_ids: list[int]) -> list[datetime]:
    with app.app_context():
        return [db.session.get(Device, i).service_expires_at for i in device_ids]


def counts(app, device_ids: list[int]) -> list[tuple[int, int]]:
    with app.app_context():
        return [(d.sms_count, d.voice_count) for d in (db.session.get(Device, i) for i in device_ids)]


def order_year(client, shop, **extra) -> dict:
    body = {"deviceIds": shop["devices"], "packageId": shop["package"]["id"], "levelId": shop["level"], "months": 12}
    return ok(client.post(f"{BILLING}/Order/insert", json={**body, **extra}, headers=shop["buyer"]))


def in_months(start: datetime, months: int) -> datetime:
    """Expected end: the same day `months` later (tests use whole years)."""
    return start.replace(year=start.year + months // 12)


def soon() -> str:
    return (datetime.now(UTC) + timedelta(days=30)).isoformat()


@pytest.fixture
def live_api(app):
    """The api over real HTTP (a thread), as the site's host: where the fakes deliver notifications."""

    def as_site(environ, start_response):
        environ["HTTP_HOST"] = DEFAULT_HOST
        return app(environ, start_response)

    server = make_server("127.0.0.1", 0, as_site, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
