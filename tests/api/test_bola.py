"""Broken object-level authorization, probed generically from /api/openapi.json (see tests/api/bola.py).

Every documented operation that takes an id is called by accounts of platform `junjia` with the ids
of platform `default`'s accounts: it must be refused (or answer nothing), show none of A's data and
change nothing in the database. A new call is probed as soon as it is documented; an area that adds
objects extends `SEEDERS` so that A owns one of them.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

import pytest
from sqlalchemy import select, update

from api.device.models import DeviceType
from api.extensions.db import db
from api.identity.models import StaffRole
from tests.api import bola
from tests.api.account_helpers import auth, login, make_account
from tests.api.billing_helpers import BILLING, PAYMENT, package_body
from tests.api.calibration_helpers import APP, CAL, PDF, POINTS, RESULT, application_body, item, make_lab_admin
from tests.api.device_helpers import DEVICE, guids, minutes_ago, upload
from tests.api.product_helpers import PRODUCT
from tests.api.upgrade_helpers import new_firmware
from tests.payment_fakes import WeChatPayFake

__all__ = ["guids"]

JUNJIA = "junjia.localhost"
MARKER = "zq7Secret"  # in every free text A writes, so an answer that shows A's data is easy to spot


def seed_devices(a: bola.Recorder, world: dict) -> None:
    guid, key = world["guids"]["th_a"]
    device_id = a.call(
        "post",
        f"{DEVICE}/Device/add",
        json_body={"deviceGuid": guid, "deviceName": f"F{MARKER}"[:15], "timeZone": "Asia/Shanghai"},
    )["id"]
    world["device_id"] = device_id
    world["markers"] += [guid, f"F{MARKER}"[:15]]
    response = upload(
        a.client, guid, key, [{"ts": minutes_ago(m), "readings": {"1": 4.0 + m / 10}} for m in (30, 20, 10)]
    )
    assert response.get_json()["code"] == 0
    a.call("post", f"{DEVICE}/Device/page", json_body={})
    a.call("get", f"{DEVICE}/Device/detail/{device_id}")
    a.call("put", f"{DEVICE}/Device/update", json_body={"deviceId": device_id, "deviceName": f"G{MARKER}"[:15]})
    world["markers"].append(f"G{MARKER}"[:15])
    a.call("put", f"{DEVICE}/Device/focus/{device_id}", json_body={"focus": True})
    a.call("get", f"{DEVICE}/DeviceEvent/list?deviceId={device_id}")
    a.call("post", f"{DEVICE}/DeviceCommand/send", json_body={"deviceId": device_id, "params": {"0101": 5}})
    with a.client.flask_client.application.app_context():  # the TH-2 takes batch parameters
        db.session.execute(update(DeviceType).where(DeviceType.type_code == 0x8002).values(batch_param=True))
        db.session.commit()
    a.call("post", f"{DEVICE}/DeviceCommand/batchSend", json_body={"deviceIds": [device_id], "params": {"0101": 5}})
    a.call("get", f"{DEVICE}/DeviceCommand/list?deviceId={device_id}")
    record = {
        "deviceId": device_id,
        "kind": "maintenance",
        "reportTime": "2026-11-01T09:00:00+08:00",
        "startTime": "2026-11-01T09:00:00+08:00",
        "endTime": "2026-11-01T11:00:00+08:00",
        "person": "Li Wei",
        "approver": "Zhang",
        "content": f"Coils {MARKER}",
    }
    record_id = a.call("post", f"{DEVICE}/MaintenanceRecord/insert", json_body=record)["id"]
    world["markers"].append(f"Coils {MARKER}")
    a.call("put", f"{DEVICE}/MaintenanceRecord/update", json_body={**record, "id": record_id})
    a.call("post", f"{DEVICE}/MaintenanceRecord/page", json_body={"deviceId": device_id})
    for call in ("latest", "energy"):
        a.call("get", f"{DEVICE}/DeviceData/{call}?deviceId={device_id}")
    now = datetime.now(UTC)
    window = urlencode({"start": (now - timedelta(hours=1)).isoformat(), "end": now.isoformat()})
    a.call("get", f"{DEVICE}/DeviceData/chart?deviceId={device_id}&{window}")
    a.call("get", f"{DEVICE}/DeviceData/track?deviceId={device_id}&{window}")


def seed_notices(operator: bola.Recorder, world: dict) -> None:
    notice = operator.call(
        "post",
        "/api/base/BaseNotice/insert",
        json_body={"noticeTitle": f"N {MARKER}", "noticeContent": f"<p>{MARKER}</p>"},
    )
    world["markers"].append(f"N {MARKER}")
    operator.call(
        "put",
        "/api/base/BaseNotice/updateWithNotEmptyFiled",
        json_body={"noticeId": notice["noticeId"], "enabled": True},
    )


def seed_alarms_and_reports(a: bola.Recorder, world: dict) -> None:
    device_id = world["device_id"]
    recipients = [{"name": f"R{MARKER}", "email": "ops@example.com"}]
    setting = {"deviceId": device_id, "multiLevel": False, "channels": ["email"]}
    a.call(
        "post",
        "/api/alarm/PushSetting/save",
        json_body={**setting, "levels": [{"level": 1, "minutes": 0, "recipients": recipients}]},
    )
    report = {
        "reportName": f"D{MARKER}",
        "reportType": "device",
        "frequency": "daily",
        "receivers": [{"name": "QA", "email": "qa@example.com"}],
        "deviceIds": [device_id],
        "nextReportTime": (datetime.now(UTC) + timedelta(hours=1)).isoformat(),
    }
    created = a.call("post", "/api/report/ScheduledReport/insert", json_body=report)
    a.call(
        "put", "/api/report/ScheduledReport/update", json_body={**report, "id": created["id"], "frequency": "weekly"}
    )
    backup = {
        "name": f"B{MARKER}",
        "frequency": "weekly",
        "rangeDays": 7,
        "keepCount": 2,
        "nextRunTime": (datetime.now(UTC) + timedelta(hours=1)).isoformat(),
    }
    saved = a.call("post", "/api/report/BackupSchedule/insert", json_body=backup)
    a.call("put", "/api/report/BackupSchedule/update", json_body={**backup, "id": saved["id"], "keepCount": 3})
    a.call("post", "/api/report/BackupSchedule/archives", json_body={"id": saved["id"], "start": 1, "pageSize": 10})
    world["markers"] += [f"R{MARKER}", f"D{MARKER}", f"B{MARKER}"]


def seed_organizations_and_sharing(a: bola.Recorder, world: dict) -> None:
    device_id = world["device_id"]
    organization = a.call("post", "/api/base/BaseOrganization/insert", json_body={"name": f"O{MARKER}"})
    invite = {"organizationId": organization["id"], "email": "invitee@example.com", "inviterName": "Ann"}
    a.call("post", "/api/base/BaseAccount/invite", json_body=invite)
    items = [{"permissionCode": "0001", "viewStatus": 1, "setStatus": 0}]
    template = a.call("post", f"{DEVICE}/DevicePermissionTemplate/insert", json_body={"name": "T", "items": items})
    share = {"deviceIds": [device_id], "email": "guard@example.com", "templateId": template["id"], "expire": "7d"}
    a.call("post", f"{DEVICE}/DeviceShare/insert", json_body={**share, "sharerName": f"S{MARKER}"[:20]})
    a.call("post", f"{DEVICE}/DeviceTransfer/insert", json_body={"deviceId": device_id, "userName": "operator"})
    world["markers"] += [f"O{MARKER}", f"S{MARKER}"[:20]]


def seed_storages(a: bola.Recorder, world: dict) -> None:
    """A cold storage on A's controller, a virtual storage and a freezer, and every storage call."""
    guid, key = world["guids"]["cold_room"]
    controller = a.call(
        "post",
        f"{DEVICE}/Device/add",
        json_body={"deviceGuid": guid, "deviceName": "Room", "timeZone": "Asia/Shanghai"},
    )["id"]
    upload(a.client, guid, key, [{"ts": minutes_ago(1), "readings": {"1": -18.0, "2": -18.5, "10": -18}}])
    body = {"storageName": f"Room {MARKER}", "volume": f"V{MARKER}", "controllerGuid": guid}
    storage = a.call("post", "/api/storage/ColdStorage/insert", json_body=body)["id"]
    a.call("put", "/api/storage/ColdStorage/update", json_body={**body, "storageId": storage, "mktEnabled": False})
    virtual = {"storageName": f"Virt {MARKER}", "probes": [{"deviceId": controller, "sensor": 2, "zone": "middle"}]}
    virtual_id = a.call("post", "/api/storage/VirtualStorage/insert", json_body=virtual)["id"]
    a.call("put", "/api/storage/VirtualStorage/update", json_body={**virtual, "storageId": virtual_id})
    probe = [{"deviceId": controller, "sensor": 1, "zone": "middle"}]
    freezer = a.call(
        "post", "/api/storage/Freezer/insert", json_body={"storageName": f"Frz {MARKER}", "probes": probe}
    )["id"]
    a.call("put", "/api/storage/Freezer/update", json_body={"storageName": f"Frz {MARKER}", "storageId": freezer})
    world["markers"] += [f"Room {MARKER}", f"V{MARKER}", f"Virt {MARKER}", f"Frz {MARKER}"]
    world["storage_id"] = storage
    now = datetime.now(UTC)
    for entity, sid in (("ColdStorage", storage), ("VirtualStorage", virtual_id), ("Freezer", freezer)):
        window = urlencode({"storageId": sid, "start": (now - timedelta(hours=1)).isoformat(), "end": now.isoformat()})
        a.call("post", f"/api/storage/{entity}/page", json_body={})
        a.call("get", f"/api/storage/{entity}/statusCount")
        a.call("get", f"/api/storage/{entity}/detail/{sid}")
        a.call("get", f"/api/storage/{entity}/chart?{window}")
        a.call("post", f"/api/storage/{entity}/alarmPage", json_body={"storageId": sid})
        for call in ("overview", "params", "topUp", "energy"):
            a.call("get", f"/api/storage/{entity}/{call}?storageId={sid}")
        span = {"startTime": (now - timedelta(hours=1)).isoformat(), "endTime": now.isoformat()}
        a.call("post", f"/api/storage/{entity}/report", json_body={"storageId": sid, **span, "fileType": "csv"})
    a.call("get", f"/api/storage/ColdStorage/pushSetting/get?storageId={storage}")
    push = {
        "storageId": storage,
        "channels": ["email"],
        "levels": [{"level": 1, "minutes": 0, "recipients": [{"name": "R", "email": "r@example.com"}]}],
    }
    for entity, sid in (("ColdStorage", storage), ("VirtualStorage", virtual_id), ("Freezer", freezer)):
        a.call("post", f"/api/storage/{entity}/pushSetting/save", json_body={**push, "storageId": sid})
    a.call(
        "post",
        "/api/storage/CloudControl/send",
        json_body={"storageId": storage, "action": "light", "value": 1, "confirmOffline": True},
    )
    a.call("get", f"/api/storage/CloudControl/list?storageId={storage}")
    seed_on_call(a, world, storage)


def seed_on_call(a: bola.Recorder, world: dict, storage: int) -> None:
    """A storage's on-call schedule (issue 48) and every on-call call."""
    person = {"name": f"P{MARKER}", "email": "oncall@example.com"}
    body = {
        "name": f"OC{MARKER}",
        "timeZone": "Europe/Berlin",
        "scope": "storage",
        "storageId": storage,
        "rota": [{"weekday": 1, "time": "08:00", "person": person}],
        "overrides": [{"start": "2026-12-24", "end": "2026-12-26", "person": person}],
    }
    schedule = a.call("post", "/api/alarm/OnCallSchedule/insert", json_body=body)["id"]
    a.call("put", "/api/alarm/OnCallSchedule/update", json_body={**body, "id": schedule})
    a.call("post", "/api/alarm/OnCallSchedule/page", json_body={})
    a.call("get", f"/api/alarm/OnCallSchedule/detail/{schedule}")
    a.call("get", f"/api/alarm/OnCallSchedule/who?id={schedule}")
    a.call("get", "/api/alarm/OnCallSchedule/people")
    world["markers"] += [f"OC{MARKER}", f"P{MARKER}"]


def seed_waybills(a: bola.Recorder, world: dict) -> None:
    device_id = world["device_id"]
    points = [[31.0, 121.0], [31.0, 121.1], [31.1, 121.1]]
    fence = a.call(
        "post", "/api/waybill/Fence/insert", json_body={"name": f"F{MARKER}", "shape": "polygon", "points": points}
    )
    a.call(
        "put",
        "/api/waybill/Fence/update",
        json_body={"id": fence["id"], "name": f"F{MARKER}", "shape": "polygon", "points": points},
    )
    a.call("post", "/api/waybill/Fence/page", json_body={})
    a.call("get", f"/api/waybill/Fence/detail/{fence['id']}")
    style = {"name": f"T{MARKER}"[:10], "lineColor": "#123456", "stopMinutes": 10, "isDefault": True}
    template = a.call("post", "/api/waybill/TrackTemplate/insert", json_body=style)
    a.call("put", "/api/waybill/TrackTemplate/update", json_body={**style, "id": template["id"]})
    a.call("get", "/api/waybill/TrackTemplate/list")
    waybill = {
        "orderNum": "PO1",
        "goodsName": f"G{MARKER}",
        "expressNumber": "SF7700112233",
        "deviceId": device_id,
        "upperLimit": 8.0,
        "lowerLimit": 2.0,
        "senderName": f"S{MARKER}",
        "senderPhone": "13800138000",
        "receiverName": "Zhang",
        "receiverPhone": "13900139000",
        "originFenceId": fence["id"],
        "fenceModelId": fence["id"],
    }
    created = a.call("post", "/api/waybill/Waybill/insert", json_body=waybill)
    a.call("put", "/api/waybill/Waybill/update", json_body={**waybill, "id": created["id"]})
    a.call("post", "/api/waybill/Waybill/page", json_body={})
    a.call("get", f"/api/waybill/Waybill/detail/{created['id']}")
    a.call("put", f"/api/waybill/Waybill/start/{created['id']}", json_body={"confirm": True})
    a.call("get", f"/api/waybill/Waybill/status?id={created['id']}")
    share = a.call("post", "/api/waybill/WaybillShare/insert", json_body={"waybillId": created["id"], "expire": "1d"})
    a.call("get", f"/api/waybill/WaybillShare/list?waybillId={created['id']}")
    a.call("get", f"/api/waybill/WaybillShare/accessLog?shareId={share['id']}")
    a.call("put", f"/api/waybill/WaybillShare/revoke/{share['id']}")
    a.call("put", f"/api/waybill/Waybill/stop/{created['id']}")
    a.call("put", "/api/waybill/Waybill/dispose", json_body={"id": created["id"], "disposition": "released"})
    second = a.call("post", "/api/waybill/Waybill/insert", json_body={**waybill, "expressNumber": "SF7700112244"})
    world["markers"] += [f"F{MARKER}", f"G{MARKER}", f"S{MARKER}", f"T{MARKER}"[:10], "SF7700112233", "13800138000"]
    world["waybill_id"] = second["id"]


def seed_budgets(a: bola.Recorder, world: dict) -> None:
    """A stability profile on A's waybill and a lot in A's cold storage, and every budget call."""
    body = {
        "name": f"P{MARKER}",
        "rangeLow": 2.0,
        "rangeHigh": 8.0,
        "bands": [{"low": 8.0, "high": 25.0, "hours": 72}],
        "alertPercent": 80,
    }
    profile = a.call("post", "/api/budget/StabilityProfile/insert", json_body=body)
    a.call("put", "/api/budget/StabilityProfile/update", json_body={**body, "id": profile["id"]})
    a.call("post", "/api/budget/StabilityProfile/page", json_body={})
    a.call("get", f"/api/budget/StabilityProfile/detail/{profile['id']}")
    waybill = world["waybill_id"]
    assign = {"waybillId": waybill, "profileId": profile["id"]}
    a.call("put", "/api/budget/WaybillBudget/assign", json_body=assign)
    a.call("get", f"/api/budget/WaybillBudget/get?waybillId={waybill}")
    placed = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    lot = {"storageId": world["storage_id"], "product": f"L{MARKER}", "quantity": 5, "placedAt": placed}
    created = a.call("post", "/api/budget/Lot/insert", json_body={**lot, "profileId": profile["id"]})
    a.call("put", "/api/budget/Lot/update", json_body={**lot, "id": created["id"], "profileId": profile["id"]})
    a.call("post", "/api/budget/Lot/page", json_body={"storageId": world["storage_id"]})
    a.call("get", f"/api/budget/Lot/detail/{created['id']}")
    a.call("get", f"/api/budget/Lot/budget?id={created['id']}")
    a.call("put", "/api/budget/Lot/dispose", json_body={"id": created["id"], "disposition": "released"})
    world["markers"] += [f"P{MARKER}", f"L{MARKER}"]


def seed_platforms_and_system_users(operator: bola.Recorder, world: dict) -> None:
    """A reseller platform and a system user of the operator: junjia's admin must reach neither."""
    operator.call(
        "post",
        "/api/base/BaseCustomPage/insert",
        json_body={
            "enterpriseName": f"P{MARKER}",
            "title": {"en-US": f"P{MARKER}"},
            "topDomain": "bola-reseller.localhost",
            "https": False,
            "loginPage": "default",
            "themeColor": "#123456",
            "styleModel": "default",
            "enableRegister": False,
            "independent": True,
        },
    )
    operator.call(
        "post",
        "/api/base/BaseAccount/sysAddUser",
        json_body={"userName": "bolasysuser", "password": "Cold#2026", "realName": f"U{MARKER}"[:20]},
    )
    world["markers"] += [f"P{MARKER}", f"U{MARKER}"[:20]]


def seed_billing_catalogue(operator: bola.Recorder, world: dict) -> None:
    """The operator's package for A's loggers, packs, an activity, coupons and recharge cards."""
    with operator.client.flask_client.application.app_context():
        th2 = db.session.scalar(select(DeviceType.id).where(DeviceType.type_code == 0x8002))
    body = package_body([th2], packageName=f"P{MARKER}"[:20])
    package = operator.call("post", f"{BILLING}/ServicePackage/insert", json_body=body)
    level = package["levels"][0]["levelId"]
    levels = [{**body["levels"][0], "levelId": level}]
    operator.call("put", f"{BILLING}/ServicePackage/update", json_body={**body, "levels": levels, "id": package["id"]})
    operator.call("post", f"{BILLING}/ServicePackage/page", json_body={})
    pack = {"kind": "sms", "name": f"S{MARKER}"[:20], "count": 100, "fee": 1000}
    pack_id = operator.call("post", f"{BILLING}/MessagePack/insert", json_body=pack)["id"]
    operator.call("put", f"{BILLING}/MessagePack/update", json_body={**pack, "id": pack_id})
    now = datetime.now(UTC)
    window = {"startTime": (now - timedelta(days=1)).isoformat(), "endTime": (now + timedelta(days=9)).isoformat()}
    activity = {"packageId": package["id"], "name": f"A{MARKER}"[:20], "discount": 10, **window}
    activity_id = operator.call("post", f"{BILLING}/Activity/insert", json_body=activity)["id"]
    operator.call("put", f"{BILLING}/Activity/update", json_body={**activity, "id": activity_id})
    operator.call("get", f"{BILLING}/Activity/list")
    coupon = {
        "prefix": "ZQ",
        "fee": 100,
        "count": 1,
        "remark": f"C{MARKER}",
        "validFrom": window["startTime"],
        "validTo": window["endTime"],
    }
    operator.call("post", f"{BILLING}/Coupon/generate", json_body=coupon)
    operator.call("post", f"{BILLING}/Coupon/page", json_body={})
    card = {
        "prefix": "ZQ",
        "packageId": package["id"],
        "levelId": level,
        "months": 12,
        "count": 1,
        "remark": f"K{MARKER}",
        "validTo": window["endTime"],
    }
    world["card"] = operator.call("post", f"{BILLING}/RechargeCard/generate", json_body=card)[0]["code"]
    operator.call("post", f"{BILLING}/RechargeCard/page", json_body={})
    offline = {"deviceGuid": world["guids"]["th_b"][0], "packageId": package["id"], "levelId": level, "months": 12}
    purchase = operator.call("post", f"{BILLING}/OfflinePurchase/insert", json_body={**offline, "contract": "ZQ-1"})
    operator.call("put", f"{BILLING}/OfflinePurchase/retry/{purchase['id']}")
    operator.call("post", f"{BILLING}/OfflinePurchase/page", json_body={})
    # A WeChat Pay merchant on the local fake, so A's order can start a payment (the probe's template).
    world["wechat_fake"] = WeChatPayFake().__enter__()
    merchant = {"provider": "wechat", "config": world["wechat_fake"].merchant_config()}
    operator.call("put", f"{BILLING}/PaymentMerchant/save", json_body=merchant)
    world["billing"] = {"package": package["id"], "level": level, "pack": pack_id, "activity": activity_id}
    world["markers"] += [f"P{MARKER}"[:20], f"S{MARKER}"[:20], f"A{MARKER}"[:20], f"C{MARKER}", f"K{MARKER}"]


def seed_billing_orders(a: bola.Recorder, world: dict) -> None:
    """A's order, recharge card, invoice info and invoice request."""
    shop, device = world["billing"], world["device_id"]
    a.call("post", f"{BILLING}/ServicePackage/forDevices", json_body={"deviceIds": [device]})
    body = {
        "deviceIds": [device],
        "packageId": shop["package"],
        "levelId": shop["level"],
        "months": 12,
        "smsPackId": shop["pack"],
        "activityId": shop["activity"],
        "description": f"D{MARKER}",
    }
    a.call("post", f"{BILLING}/Order/price", json_body=body)
    order = a.call("post", f"{BILLING}/Order/insert", json_body=body)
    a.call("post", f"{BILLING}/Order/page", json_body={})
    a.call("get", f"{BILLING}/Order/detail/{order['id']}")
    a.call("get", f"{PAYMENT}/PayOrder/get?orderCode={order['orderCode']}")
    a.call("get", f"{PAYMENT}/payment/getOpenId?code=zq7")
    a.call("get", f"{PAYMENT}/payment/wechatPay?orderCode={order['orderCode']}&tradeType=jsapi&openId=o-fake-zq7")
    a.call("get", f"{PAYMENT}/PayOrder/confirmPay?orderCode={order['orderCode']}")
    world.pop("wechat_fake").__exit__()  # later calls of other accounts never reach it (not their order)
    a.call("get", f"{BILLING}/MessagePack/list")
    a.call("post", f"{BILLING}/RechargeCard/redeem", json_body={"code": world["card"], "deviceId": device})
    info = {"billMode": "personal", "billName": f"B{MARKER}"[:20], "personalName": f"N{MARKER}", "isDefault": True}
    info_id = a.call("post", f"{BILLING}/InvoiceInfo/insert", json_body=info)["id"]
    a.call("put", f"{BILLING}/InvoiceInfo/update", json_body={**info, "id": info_id})
    a.call("get", f"{BILLING}/InvoiceInfo/list")
    world["billing"].update(order=order["id"], info=info_id)
    world["markers"] += [f"D{MARKER}", f"B{MARKER}"[:20], f"N{MARKER}", order["orderCode"]]


def seed_billing_admin(operator: bola.Recorder, world: dict) -> None:
    shop = world["billing"]
    operator.call("put", f"{BILLING}/OrderAdmin/confirmOffline", json_body={"id": shop["order"], "reference": "ZQ"})
    operator.call("post", f"{BILLING}/OrderAdmin/page", json_body={})
    operator.call("get", f"{BILLING}/PaymentMerchant/list")


def seed_billing_invoices(a: bola.Recorder, world: dict) -> None:
    shop = world["billing"]
    request = a.call(
        "post", f"{BILLING}/InvoiceRequest/insert", json_body={"infoId": shop["info"], "orderIds": [shop["order"]]}
    )
    a.call("post", f"{BILLING}/InvoiceRequest/page", json_body={})
    world["billing"]["request"] = request["id"]


def seed_billing_issue(operator: bola.Recorder, world: dict) -> None:
    operator.call("post", f"{BILLING}/InvoiceAdmin/page", json_body={})
    operator.call("put", f"{BILLING}/InvoiceAdmin/issue/{world['billing']['request']}")


def seed_calibration_orders(a: bola.Recorder, world: dict) -> None:
    device_guid = world["guids"]["th_a"][0]
    body = application_body(MARKER, items=[item(serial=device_guid), item(serial=f"S{MARKER}")])
    body["invoice"] = {"title": f"I{MARKER}"}
    application = a.call("post", f"{APP}/apply", json_body=body)
    application_id = application["applicationId"]
    world["calibration"] = {"application": application_id, "items": [i["itemId"] for i in application["items"]]}
    a.call("post", f"{APP}/page/ApplicationOrder", json_body={})
    a.call("get", f"{APP}/get/applicationInfo?applicationId={application_id}")
    a.call("post", f"{APP}/payOrder", json_body={"applicationId": application_id})  # the lab confirms it offline
    base = {k: v for k, v in body.items() if k not in ("items", "invoice")}
    a.call("put", f"{APP}/update/baseInfo", json_body={**base, "applicationId": application_id})
    a.call("put", f"{APP}/update/invoice", json_body={"applicationId": application_id, "invoice": body["invoice"]})
    a.call("get", f"{APP}/getUserInvoice")
    a.call("post", f"{APP}/applyQuickOrder", json_body={"contact": f"Q{MARKER}", "phone": "13800000000"})
    # A second order, cancelled through a request the lab approves.
    other = a.call("post", f"{APP}/apply", json_body=application_body(MARKER))
    a.call("post", f"{APP}/cancel/apply", json_body={"applicationId": other["applicationId"], "reason": f"R{MARKER}"})
    world["calibration"]["cancelled"] = other["applicationId"]
    world["markers"] += [f"Acme {MARKER}", f"Road {MARKER}", f"I{MARKER}", f"Q{MARKER}", f"S{MARKER}"]


def seed_calibration_lab(lab: bola.Recorder, world: dict) -> None:
    make_lab_admin(lab.client.flask_client.application, "operator")
    cal = world["calibration"]
    application_id = cal["application"]
    lab.call("put", f"{APP}/cancel/check", json_body={"applicationId": cal["cancelled"], "approve": True})
    lab.call("post", f"{APP}/page/allApplicationOrder", json_body={})
    quick = lab.call("post", f"{APP}/page/allQuickOrder", json_body={})["list"][0]
    lab.call("put", f"{APP}/handleQuickOrder", json_body={"quickOrderId": quick["quickOrderId"], "status": "handled"})
    lab.call("put", f"{APP}/applicationStatus", json_body={"applicationId": application_id, "status": 2})


def seed_calibration_shipping(a: bola.Recorder, world: dict) -> None:
    application_id = world["calibration"]["application"]
    tracking = {"applicationId": application_id, "trackingCompany": "SF", "trackingNumber": "SF0001"}
    a.call("put", f"{APP}/trackingNumber", json_body=tracking)


def seed_calibration_results(lab: bola.Recorder, world: dict) -> None:
    cal = world["calibration"]
    application_id = cal["application"]
    lab.call("put", f"{APP}/applicationStatus", json_body={"applicationId": application_id, "status": 4})
    first, second = cal["items"]
    saved = lab.call("post", f"{RESULT}/insert", json_body={"itemId": first, "results": POINTS})
    result = saved["results"][0]
    lab.call("put", f"{RESULT}/update", json_body={**POINTS[0], "resultId": result["resultId"]})
    lab.call("post", f"{RESULT}/insert", json_body={"itemId": second, "results": POINTS[:1]})
    lab.call("get", f"{RESULT}/queryResultList?applicationId={application_id}")
    response = lab.client.post(
        f"{APP}/upload/report?applicationId={application_id}",
        data={"file": (io.BytesIO(PDF), "r.pdf")},
        headers=lab.headers,
    )
    assert response.get_json()["code"] == 0
    lab.templates["POST /api/calibration/Application/upload/report"] = bola.Recorded(
        f"{APP}/upload/report", {"applicationId": str(application_id)}, None, {}
    )
    response = lab.client.post(
        f"{RESULT}/importCert?itemId={second}", data={"file": (io.BytesIO(PDF), "c.pdf")}, headers=lab.headers
    )
    assert response.get_json()["code"] == 0
    lab.templates["POST /api/calibration/ResultInfo/importCert"] = bola.Recorded(
        f"{RESULT}/importCert", {"itemId": str(second)}, None, {}
    )
    lab.call("put", f"{APP}/confirmCalibration", json_body={"applicationId": application_id})


def seed_calibration_downloads(a: bola.Recorder, world: dict) -> None:
    application_id = world["calibration"]["application"]
    for call in ("download/order", "download/report"):
        response = a.client.get(f"{APP}/{call}?applicationId={application_id}", headers=a.headers)
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        a.templates[f"GET /api/calibration/Application/{call}"] = bola.Recorded(
            f"{APP}/{call}", {"applicationId": str(application_id)}, None, {}
        )
    for call in ("result/explain", "getQR"):
        a.call("get", f"{APP}/{call}?applicationId={application_id}")
    a.call("get", f"{CAL}/Certificate/device?deviceId={world['device_id']}")


def seed_probe_certificates(a: bola.Recorder, world: dict) -> None:
    """An outside lab's certificate of A's logger, with its PDF (issue 48)."""
    device_id = world["device_id"]
    body = {
        "deviceId": device_id,
        "sensors": [1],
        "number": f"P{MARKER}",
        "issuer": f"L{MARKER}",
        "calibratedAt": "2026-01-10",
        "dueAt": "2027-01-10",
        "points": [{"reference": 0, "measured": 0.1}],
    }
    record = a.call("post", f"{CAL}/ProbeCertificate/add", json_body=body)
    a.call("get", f"{CAL}/ProbeCertificate/list?deviceId={device_id}")
    response = a.client.post(
        f"{CAL}/ProbeCertificate/upload?id={record['id']}", data={"file": (io.BytesIO(PDF), "c.pdf")}, headers=a.headers
    )
    assert response.get_json()["code"] == 0
    a.templates["POST /api/calibration/ProbeCertificate/upload"] = bola.Recorded(
        f"{CAL}/ProbeCertificate/upload", {"id": str(record["id"])}, None, {}
    )
    response = a.client.get(f"{CAL}/ProbeCertificate/download?id={record['id']}", headers=a.headers)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    a.templates["GET /api/calibration/ProbeCertificate/download"] = bola.Recorded(
        f"{CAL}/ProbeCertificate/download", {"id": str(record["id"])}, None, {}
    )
    world["markers"] += [f"P{MARKER}", f"L{MARKER}"]


def seed_upgrades(operator: bola.Recorder, world: dict) -> None:
    """A series, a firmware for the TH-2 loggers and an upgrade of A's logger (issue 22)."""
    series = operator.call("post", f"{PRODUCT}/DeviceSeries/insert", json_body={"seriesName": f"S{MARKER}"})
    operator.call("put", f"{PRODUCT}/DeviceSeries/update", json_body={"id": series["id"], "seriesName": f"T{MARKER}"})
    operator.call("post", f"{PRODUCT}/DeviceSeries/page", json_body={})
    operator.call("get", f"{PRODUCT}/DeviceSeries/list")
    with operator.client.flask_client.application.app_context():
        th2 = db.session.scalar(select(DeviceType.id).where(DeviceType.type_code == 0x8002))
    firmware = new_firmware(operator.client, operator.headers, th2, f"V{MARKER}")  # multipart: not a template
    operator.call("post", f"{PRODUCT}/Firmware/page", json_body={})
    body = {"firmwareId": firmware["id"], "deviceIds": [world["device_id"]], "stages": [100]}
    rollout = operator.call("post", f"{PRODUCT}/UpgradeRollout/insert", json_body=body)
    operator.call("post", f"{PRODUCT}/UpgradeRollout/page", json_body={})
    operator.call("get", f"{PRODUCT}/UpgradeRollout/detail/{rollout['id']}")
    world["markers"] += [f"T{MARKER}", f"V{MARKER}"]


# (who on platform default, seeder). Areas with new objects append theirs; A's templates teach B's calls.
SEEDERS: list[tuple[str, Callable[[bola.Recorder, dict], None]]] = [
    ("owner", seed_devices),
    ("operator", seed_notices),
    ("owner", seed_alarms_and_reports),
    ("owner", seed_organizations_and_sharing),
    ("owner", seed_storages),
    ("owner", seed_waybills),
    ("owner", seed_budgets),
    ("operator", seed_billing_catalogue),
    ("owner", seed_billing_orders),
    ("operator", seed_billing_admin),
    ("owner", seed_billing_invoices),
    ("operator", seed_billing_issue),
    ("operator", seed_platforms_and_system_users),
    ("owner", seed_calibration_orders),
    ("operator", seed_calibration_lab),
    ("owner", seed_calibration_shipping),
    ("operator", seed_calibration_results),
    ("owner", seed_calibration_downloads),
    ("owner", seed_probe_certificates),
    ("operator", seed_upgrades),
]


@pytest.fixture
def world(app, client, make_client, guids):
    document = client.get("/api/openapi.json").get_json()
    openapi = bola.OpenApi(document)
    make_account(app, user_name="owner_a", email=f"a_{MARKER.lower()}@example.com")
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    recorders = {
        "owner": bola.Recorder(client, auth(login(client, "owner_a")), openapi),
        "operator": bola.Recorder(client, auth(login(client, "operator")), openapi),
    }
    state = {"guids": guids, "markers": ["owner_a", f"a_{MARKER.lower()}@example.com"]}
    for who, seed in SEEDERS:
        seed(recorders[who], state)
    templates = {}
    for recorder in recorders.values():
        templates.update(recorder.templates)
    junjia = make_client(JUNJIA)
    b_ids = {
        make_account(app, host=JUNJIA, user_name="bob_junjia"),
        make_account(app, host=JUNJIA, user_name="admin_junjia", staff_role=StaffRole.PLATFORM_ADMIN),
    }
    callers = {
        "junjia user": auth(login(junjia, "bob_junjia")),
        "junjia admin": auth(login(junjia, "admin_junjia")),
    }
    with app.app_context():
        ids = bola.table_ids(b_ids)
    return {
        "openapi": openapi,
        "templates": templates,
        "ids": ids,
        "markers": state["markers"],
        "client": junjia,
        "callers": callers,
    }


def run_probe(app, world, only: str = "") -> tuple[list[bola.ProbeResult], list[str], list[str]]:
    """Every operation with ids (or those whose key contains `only`), as each of B's callers."""
    openapi, client = world["openapi"], world["client"]
    results, covered, with_ids = [], [], []
    with app.app_context():
        before = bola.fingerprint()
    for operation in openapi.operations:
        if not operation.id_slots or only not in operation.key:
            continue
        with_ids.append(operation.key)
        template = world["templates"].get(operation.key)
        slot_candidates = {slot: bola.candidates(operation, slot[1], world["ids"]) for slot in operation.id_slots}
        rounds = max(len(v) for v in slot_candidates.values())
        if rounds == 0:
            continue
        reached = False
        for who, headers in world["callers"].items():
            for i in range(rounds):
                values = {slot: vals[min(i, len(vals) - 1)] for slot, vals in slot_candidates.items() if vals}
                url, body, extra = bola.build_request(openapi, operation, template, values)
                response = getattr(client, operation.method)(url, json=body, headers={**headers, **extra})
                with app.app_context():
                    after = bola.fingerprint()
                verdict, reason = bola.judge(operation, response, world["markers"])
                if before != after:
                    changed = sorted(t for t in after if after[t] != before.get(t))
                    verdict, reason = "leak", f"database changed: {changed}"
                before = after  # nothing else writes between two calls: this call's after is the next one's before
                reached = reached or verdict != "invalid"
                body_json = response.get_json(silent=True) or {}
                results.append(
                    bola.ProbeResult(operation.key, who, response.status_code, body_json.get("code"), verdict, reason)
                )
        if reached:
            covered.append(operation.key)
    return results, covered, with_ids


def test_no_call_lets_another_platform_use_my_ids(app, world):
    results, covered, with_ids = run_probe(app, world)
    leaks = [r for r in results if r.verdict == "leak"]
    pct = 100.0 * len(covered) / len(with_ids) if with_ids else 100.0
    summary = f"{len(covered)}/{len(with_ids)} calls with ids covered ({pct:.0f}%)"
    print(f"\nBOLA probe: {summary}, {len(results)} requests, {len(leaks)} leaks")
    for r in results:
        print(f"  {r.verdict:8} {r.status} code={r.code} {r.as_who:13} {r.operation} {r.reason}")
    out = os.environ.get("BOLA_REPORT")
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(f"{len(covered)} {len(with_ids)} {len(leaks)} {len(results)}\n")
    assert with_ids, "the probe found no call with ids: is the OpenAPI document empty?"
    assert not leaks, "\n".join(f"{r.operation} as {r.as_who}: {r.reason}" for r in leaks)
    assert covered == with_ids, f"not reaching authorization (all 422): {sorted(set(with_ids) - set(covered))}"


def test_lists_never_show_my_rows_to_another_platform(app, world):
    """Every read without ids (lists, counts, pages), with A's own request body where A made one."""
    openapi, client = world["openapi"], world["client"]
    probed = 0
    for operation in openapi.operations:
        action = operation.path.rsplit("/", 1)[-1].lower()
        reads = operation.method == "get" or action.startswith(("page", "list", "query"))
        if operation.id_slots or "{" in operation.path or not reads or not operation.spec.get("security"):
            continue
        for headers in world["callers"].values():
            url, body, extra = bola.build_request(openapi, operation, world["templates"].get(operation.key), {})
            response = getattr(client, operation.method)(url, json=body, headers={**headers, **extra})
            raw = bola.answer_text(response)
            assert response.status_code < 500, (operation.key, raw[:200])
            assert not [m for m in world["markers"] if m in raw], (operation.key, raw[:300])
            probed += 1
    assert probed >= 4


def test_the_probe_catches_a_leak(app, world, monkeypatch):
    """The probe itself can fail: with the access gate's object check and the device scoping both
    switched off, B reads A's device."""
    import api.access.gate as gate
    import api.device.services as device_services

    monkeypatch.setattr(gate, "check_object", lambda need, object_id, account: None)
    monkeypatch.setattr(device_services, "visible", lambda stmt, model: stmt)
    results, _, _ = run_probe(app, world, only="/Device/")
    monkeypatch.undo()
    assert any(r.verdict == "leak" and "Device/detail" in r.operation for r in results)
    with app.app_context():
        db.session.remove()
