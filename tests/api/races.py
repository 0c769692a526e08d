"""The race probe: every once-only rule hit by 20 concurrent requests over the real api (a gunicorn
process on the test database, tests/api/gunicorn_helpers.py), started together by a barrier.

A rule holds when exactly one request spends it, every other one is answered with a clear refusal
(a non-zero code and a message, or for a provider's notification its own "accepted" answer without
effect) and none with a 500. What was spent is read from the database, not from the answers: a
double spend the answers hide (two "successes" that wrote one row each, or a notification applied
twice) still counts. `probe` is what tests/api/test_races.py asserts and bench/reliability.py reports
(`race_rules_probed`, `race_double_spends`).
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

from api.billing.models import Coupon, Order, OrderDevice, PayStatus
from api.device.models import Device, DeviceEvent, DeviceType
from api.device.services import issue_guids
from api.extensions.db import db
from api.identity.models import StaffRole
from api.sharing.models import DeviceShare, DeviceTransfer, TransferStatus
from api.tenancy import find_platform
from tests.api.account_helpers import auth, login, make_account
from tests.api.billing_helpers import BILLING, PAYMENT, merchant, ok, package_body, type_id
from tests.api.device_helpers import DEVICE, add

CONCURRENCY = 20


@dataclass
class Answer:
    status: int  # 0: no HTTP answer at all (the connection failed)
    code: int | None = None  # the envelope's code (None: no envelope, e.g. a provider's answer)
    msg: str | None = None


@dataclass
class Outcome:
    rule: str
    answers: list[Answer]
    spent: int  # how many times the database shows the once-only thing spent
    refusals: tuple[int, ...] = ()  # the codes of the rule's own refusal (anything else is not clear)
    # An idempotent call (a provider's notification delivered again, a share or a retry repeated) is
    # answered success every time: its answers say nothing, only the one spend counts.
    idempotent: bool = False

    @property
    def successes(self) -> int:
        return sum(1 for a in self.answers if a.status in (200, 204) and a.code in (0, None))

    @property
    def server_errors(self) -> int:
        return sum(1 for a in self.answers if a.status >= 500 or a.status == 0)

    @property
    def unclear_refusals(self) -> int:
        """Refusals that are not the rule's own, with its message (a clear refusal names what went wrong:
        'Failed to create order' for a deadlock or a constraint's error is not one)."""
        if self.idempotent:
            return 0
        return sum(
            1
            for a in self.answers
            if not (a.status in (200, 204) and a.code == 0) and not (a.code in self.refusals and a.msg)
        )

    @property
    def double_spends(self) -> int:
        times = max(self.spent, 0 if self.idempotent else self.successes)
        return max(0, times - 1)

    @property
    def holds(self) -> bool:
        if self.idempotent:  # e.g. every delivery of a genuine notification is acknowledged (no retries)
            answered = self.successes == len(self.answers)
        else:
            answered = self.successes == 1 and self.unclear_refusals == 0
        return self.spent == 1 and answered and self.server_errors == 0


def call(port: int, method: str, path: str, body=None, headers=None, raw: bytes | None = None) -> Answer:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        payload = raw if raw is not None else (json.dumps(body) if body is not None else None)
        all_headers = {"Host": "localhost", "Content-Type": "application/json", **(headers or {})}
        connection.request(method, path, body=payload, headers=all_headers)
        response = connection.getresponse()
        data = response.read()
    except (OSError, http.client.HTTPException):
        return Answer(0)
    finally:
        connection.close()
    try:
        envelope = json.loads(data) if data else None
    except ValueError:
        envelope = None
    if isinstance(envelope, dict) and "code" in envelope and isinstance(envelope["code"], int):
        return Answer(response.status, envelope["code"], envelope.get("msg"))
    return Answer(response.status)


def together(port: int, requests: list[dict]) -> list[Answer]:
    """Send the requests at once: one thread each, released together by a barrier."""
    barrier = threading.Barrier(len(requests))
    answers: list[Answer | None] = [None] * len(requests)

    def send(index: int, request: dict) -> None:
        barrier.wait()
        answers[index] = call(port, **request)

    threads = [threading.Thread(target=send, args=(i, r)) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [a or Answer(0) for a in answers]


# ---- the scene: an operator's catalogue and merchant, a buyer with devices --------------------------------


@dataclass
class Scene:
    app: object
    client: object
    port: int
    wechat: object  # tests.payment_fakes.WeChatPayFake
    operator: dict
    buyer: dict
    package: dict
    level: int
    devices: list[int]  # the buyer's
    unclaimed_guid: str
    transfer_id: int | None = None
    paid_order: dict | None = None  # the settlement rule's, refunded by the refund rule
    recipient: dict | None = None

    def count(self, stmt) -> int:
        with self.app.app_context():
            return db.session.scalar(stmt) or 0

    def order(self, **extra) -> dict:
        body = {"deviceIds": self.devices[:1], "packageId": self.package["id"], "levelId": self.level, **extra}
        return body


def scene(app, client, port: int, guids: dict, wechat) -> Scene:
    make_account(app, user_name="race_operator", staff_role=StaffRole.OPERATOR)
    operator = auth(login(client, "race_operator"))
    package = ok(client.post(f"{BILLING}/ServicePackage/insert", json=package_body([type_id(app)]), headers=operator))
    merchant(client, operator, "wechat", wechat.merchant_config())
    make_account(app, user_name="race_buyer", email="race@example.com")
    buyer = auth(login(client, "race_buyer"))
    devices = [add(client, buyer, guids["th_a"][0], name="Race A"), add(client, buyer, guids["th_b"][0], name="Race B")]
    return Scene(
        app,
        client,
        port,
        wechat,
        operator,
        buyer,
        package,
        package["levels"][0]["levelId"],
        devices,
        guids["cold_room"][0],
    )


# ---- the rules ---------------------------------------------------------------------------------------------


def free_service(s: Scene) -> Outcome:
    body = s.order(free=True)
    answers = together(
        s.port, [{"method": "POST", "path": f"{BILLING}/Order/insert", "body": body, "headers": s.buyer}] * CONCURRENCY
    )
    spent = s.count(
        select(func.count())
        .select_from(Order)
        .join(OrderDevice, OrderDevice.order_id == Order.id)
        .where(OrderDevice.device_id == s.devices[0], Order.free_days > 0, Order.pay_status == PayStatus.PAID)
    )
    return Outcome("free_service", answers, spent, refusals=(3105,))


def coupon(s: Scene) -> Outcome:
    now = datetime.now(UTC)
    batch = {
        "prefix": "RACE",
        "fee": 100,
        "count": 1,
        "validFrom": (now - timedelta(hours=1)).isoformat(),
        "validTo": (now + timedelta(days=1)).isoformat(),
    }
    [made] = ok(s.client.post(f"{BILLING}/Coupon/generate", json=batch, headers=s.operator))
    body = s.order(months=12, couponCode=made["code"])
    answers = together(
        s.port, [{"method": "POST", "path": f"{BILLING}/Order/insert", "body": body, "headers": s.buyer}] * CONCURRENCY
    )
    spent = s.count(
        select(func.count())
        .select_from(Order)
        .join(Coupon, Coupon.id == Order.coupon_id)
        .where(Coupon.code == made["code"], Order.pay_status != PayStatus.CLOSED)
    )
    return Outcome("coupon", answers, spent, refusals=(3201,))


def recharge_card(s: Scene) -> Outcome:
    batch = {
        "prefix": "RACE",
        "packageId": s.package["id"],
        "levelId": s.level,
        "months": 12,
        "count": 1,
        "validTo": (datetime.now(UTC) + timedelta(days=90)).isoformat(),
    }
    [card] = ok(s.client.post(f"{BILLING}/RechargeCard/generate", json=batch, headers=s.operator))
    body = {"code": card["code"], "deviceId": s.devices[0]}
    request = {"method": "POST", "path": f"{BILLING}/RechargeCard/redeem", "body": body, "headers": s.buyer}
    answers = together(s.port, [request] * CONCURRENCY)
    spent = s.count(select(func.count()).select_from(Order).where(Order.transaction_id == card["code"]))
    return Outcome("recharge_card", answers, spent, refusals=(3401,))


def _recharges(s: Scene, order_code: str, action: str) -> int:
    with s.app.app_context():
        details = db.session.scalars(select(DeviceEvent.detail).where(DeviceEvent.action == action)).all()
    return sum(1 for detail in details if (detail or {}).get("orderCode") == order_code)


def settlement(s: Scene) -> Outcome:
    """WeChat delivers one payment's notification 20 times at once: the devices are extended once."""
    order = ok(s.client.post(f"{BILLING}/Order/insert", json=s.order(months=12), headers=s.buyer))
    url = f"{PAYMENT}/payment/wechatPay?orderCode={order['orderCode']}&tradeType=native"
    ok(s.client.get(url, headers=s.buyer))
    headers, body = s.wechat.pay(order["orderCode"])
    request = {"method": "POST", "path": f"{PAYMENT}/notify/wechat", "raw": body, "headers": headers}
    answers = together(s.port, [request] * CONCURRENCY)
    s.paid_order = order
    return Outcome("settlement", answers, _recharges(s, order["orderCode"], "recharge"), idempotent=True)


def refund(s: Scene) -> Outcome:
    if s.paid_order is None:
        settlement(s)
    order = s.paid_order
    request = {
        "method": "PUT",
        "path": f"{BILLING}/OrderAdmin/refund",
        "body": {"id": order["id"]},
        "headers": s.operator,
    }
    answers = together(s.port, [request] * CONCURRENCY)
    return Outcome("refund", answers, _recharges(s, order["orderCode"], "refund"), refusals=(3006,))


def guid_claim(s: Scene) -> Outcome:
    """Four accounts add the same unclaimed GUID, five times each, at once: one of them owns it."""
    claimants = []
    for number in range(4):
        make_account(s.app, user_name=f"race_claim_{number}")
        claimants.append(auth(login(s.client, f"race_claim_{number}")))
    body = {"deviceGuid": s.unclaimed_guid, "deviceName": "Claimed", "timeZone": "Asia/Shanghai"}
    requests = [
        {"method": "POST", "path": f"{DEVICE}/Device/add", "body": body, "headers": claimants[i % 4]}
        for i in range(CONCURRENCY)
    ]
    answers = together(s.port, requests)
    claims = (
        select(func.count())
        .select_from(DeviceEvent)
        .join(Device, Device.id == DeviceEvent.device_id)
        .where(Device.guid == s.unclaimed_guid, DeviceEvent.action == "add")
    )
    # 3001: another account owns it now; 3005: the winner's own repeats (already in your account).
    return Outcome("guid_claim", answers, s.count(claims), refusals=(3001, 3005))


def _recipient(s: Scene) -> dict:
    if s.recipient is None:
        make_account(s.app, user_name="race_recipient")
        s.recipient = auth(login(s.client, "race_recipient"))
    return s.recipient


def share(s: Scene) -> Outcome:
    """The owner shares a device with one account 20 times at once: one share (updated), never two."""
    _recipient(s)
    template = {"name": "Race view", "items": [{"permissionCode": "realtime", "viewStatus": 1, "setStatus": 0}]}
    template_id = ok(s.client.post(f"{DEVICE}/DevicePermissionTemplate/insert", json=template, headers=s.buyer))["id"]
    body = {
        "deviceIds": s.devices[:1],
        "userName": "race_recipient",
        "sharerName": "Race owner",
        "templateId": template_id,
        "expire": "1d",
    }
    request = {"method": "POST", "path": f"{DEVICE}/DeviceShare/insert", "body": body, "headers": s.buyer}
    answers = together(s.port, [request] * CONCURRENCY)
    rows = select(func.count()).select_from(DeviceShare).where(DeviceShare.device_id == s.devices[0])
    return Outcome("share", answers, s.count(rows), idempotent=True)


def offline_purchase(s: Scene) -> Outcome:
    """An operator retries a waiting offline purchase 20 times at once: the device is recharged once."""
    with s.app.app_context():
        logger = db.session.scalar(select(DeviceType).where(DeviceType.type_code == 0x8002))
        [(guid, _key)] = issue_guids(find_platform("localhost"), logger, 1, "R9")
        db.session.commit()
    body = {"packageId": s.package["id"], "levelId": s.level, "months": 12, "deviceGuid": guid}
    purchase = ok(s.client.post(f"{BILLING}/OfflinePurchase/insert", json=body, headers=s.operator))
    assert purchase["state"] == "not_recharged"  # nobody has added the device yet
    add(s.client, s.buyer, guid, name="Race offline")
    path = f"{BILLING}/OfflinePurchase/retry/{purchase['id']}"
    answers = together(s.port, [{"method": "PUT", "path": path, "headers": s.operator}] * CONCURRENCY)
    orders = select(func.count()).select_from(Order).where(Order.transaction_id == f"offline-{purchase['id']}")
    return Outcome("offline_purchase", answers, s.count(orders), idempotent=True)


def transfer_offer(s: Scene) -> Outcome:
    _recipient(s)
    body = {"deviceId": s.devices[1], "userName": "race_recipient"}
    request = {"method": "POST", "path": f"{DEVICE}/DeviceTransfer/insert", "body": body, "headers": s.buyer}
    answers = together(s.port, [request] * CONCURRENCY)
    pending = select(DeviceTransfer.id).where(
        DeviceTransfer.device_id == s.devices[1], DeviceTransfer.status == TransferStatus.PENDING
    )
    with s.app.app_context():
        ids = db.session.scalars(pending).all()
    s.transfer_id = ids[0] if ids else None
    return Outcome("transfer_offer", answers, len(ids), refusals=(5006,))


def transfer_consent(s: Scene) -> Outcome:
    """The recipient consents 20 times at once: the device moves once, the rest are told it is decided."""
    if s.transfer_id is None:
        transfer_offer(s)
    path = f"{DEVICE}/DeviceTransfer/accept/{s.transfer_id}"
    answers = together(s.port, [{"method": "PUT", "path": path, "headers": s.recipient}] * CONCURRENCY)
    accepted = select(func.count()).select_from(DeviceTransfer).where(DeviceTransfer.status == TransferStatus.ACCEPTED)
    return Outcome("transfer_consent", answers, s.count(accepted), refusals=(5007,))


RULES: dict[str, Callable[[Scene], Outcome]] = {
    "free_service": free_service,
    "coupon": coupon,
    "recharge_card": recharge_card,
    "settlement": settlement,
    "refund": refund,
    "guid_claim": guid_claim,
    "share": share,
    "offline_purchase": offline_purchase,
    "transfer_offer": transfer_offer,
    "transfer_consent": transfer_consent,
}


def probe(s: Scene, rules: list[str] | None = None) -> list[Outcome]:
    from tests.api.races_calibration import calibration_cancel  # it builds on this module

    every = {**RULES, "calibration_cancel": calibration_cancel}
    return [every[name](s) for name in (rules or list(every))]


def summary(outcomes: list[Outcome]) -> str:
    return "\n".join(
        f"{o.rule}: spent {o.spent}, successes {o.successes}, 5xx {o.server_errors}, unclear {o.unclear_refusals}, "
        f"answers {sorted({(a.status, a.code, a.msg) for a in o.answers}, key=str)}"
        for o in outcomes
    )
