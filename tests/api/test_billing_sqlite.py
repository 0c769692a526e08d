"""The once-only rules on `make run`'s SQLite, where they are held differently: SQLite ignores FOR
UPDATE (it serializes writers), so what holds there is the partial unique indexes and the conditional
updates, which SQLite runs as PostgreSQL does. Through the api, on a fresh migrated SQLite file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask_migrate import upgrade
from sqlalchemy import select

from api import create_app
from api.billing import orders
from api.billing.models import FreeServiceUse, Order
from api.billing.orders import close_stale
from api.device.catalogue import sync_catalogue
from api.device.services import issue_guids
from api.extensions.db import db, utcnow
from api.identity.models import StaffRole
from api.platform.services import sync_tenants
from api.settings import DevelopmentConfig
from api.tenancy import find_platform
from tests.api.account_helpers import auth, login, make_account
from tests.api.billing_helpers import BILLING, ok, package_body, type_id
from tests.api.device_helpers import add


class Client:
    def __init__(self, app):
        self.flask = app.test_client()

    def __getattr__(self, method):
        def call(url, headers=None, **kwargs):
            return getattr(self.flask, method)(url, headers={"Host": "localhost", **(headers or {})}, **kwargs)

        return call


def test_free_service_coupon_and_transfer_rules_hold_on_sqlite(tmp_path, monkeypatch):
    app = create_app(
        DevelopmentConfig,
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'coldchain.db'}",
            "REDIS_URL": "redis://127.0.0.1:1/0",
            "CAPTCHA_REQUIRED": False,
        },
    )
    with app.app_context():
        upgrade()
        sync_tenants()
        types = sync_catalogue()
        [(guid, _key)] = issue_guids(find_platform("localhost"), types[0x8002], 1, "S1")
        db.session.commit()
    client = Client(app)
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    operator = auth(login(client, "operator"))
    make_account(app, user_name="buyer_one")
    make_account(app, user_name="buyer_two")
    buyer = auth(login(client, "buyer_one"))
    device = add(client, buyer, guid)
    package = ok(client.post(f"{BILLING}/ServicePackage/insert", json=package_body([type_id(app)]), headers=operator))
    level = package["levels"][0]["levelId"]

    free = {"deviceIds": [device], "packageId": package["id"], "levelId": level, "free": True}
    assert ok(client.post(f"{BILLING}/Order/insert", json=free, headers=buyer))["payStatus"] == "paid"
    assert client.post(f"{BILLING}/Order/insert", json=free, headers=buyer).get_json()["code"] == 3105
    # Without the early answer, the unique constraint refuses the second free service (in a savepoint).
    monkeypatch.setattr(orders, "_free_service", lambda order, level, devices: None)
    assert client.post(f"{BILLING}/Order/insert", json=free, headers=buyer).get_json()["code"] == 3105
    monkeypatch.undo()
    with app.app_context():
        assert len(db.session.scalars(select(FreeServiceUse)).all()) == 1

    now = datetime.now(UTC)
    batch = {
        "prefix": "C",
        "fee": 100,
        "count": 1,
        "validFrom": (now - timedelta(hours=1)).isoformat(),
        "validTo": (now + timedelta(days=1)).isoformat(),
    }
    [coupon] = ok(client.post(f"{BILLING}/Coupon/generate", json=batch, headers=operator))
    year = {"deviceIds": [device], "packageId": package["id"], "levelId": level, "months": 12}
    first = ok(client.post(f"{BILLING}/Order/insert", json={**year, "couponCode": coupon["code"]}, headers=buyer))
    refused = client.post(f"{BILLING}/Order/insert", json={**year, "couponCode": coupon["code"]}, headers=buyer)
    assert refused.get_json()["code"] == 3201
    with app.app_context():  # the conditional close (UPDATE ... RETURNING on SQLite) gives the coupon back
        assert close_stale(utcnow() + timedelta(hours=3)) == 1
        assert db.session.get(Order, first["id"]).pay_status == "closed"
    again = ok(client.post(f"{BILLING}/Order/insert", json={**year, "couponCode": coupon["code"]}, headers=buyer))
    assert again["payFee"] == first["payFee"]

    offer = {"deviceId": device, "userName": "buyer_two"}
    assert ok(client.post("/api/device/DeviceTransfer/insert", json=offer, headers=buyer))["status"] == "pending"
    second = client.post("/api/device/DeviceTransfer/insert", json=offer, headers=buyer).get_json()
    assert second["code"] == 5006
    with app.app_context():
        db.engine.dispose()
