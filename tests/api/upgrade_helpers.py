"""Shared pieces of the series / firmware / upgrade tests (api/product/firmware.py, rollouts.py)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from flask import current_app
from sqlalchemy import func, select

from api.device.catalogue import sync_catalogue
from api.device.models import Device, DeviceCommand
from api.device.services import issue_guids
from api.extensions.db import db
from api.product.firmware import FIRMWARE_FOLDER
from api.product.models import DeviceSeries, FirmwareVersion, UpgradeRollout, UpgradeTarget
from api.tenancy import find_platform
from tests.api.customization_helpers import staff
from tests.api.device_helpers import backdate_issuance
from tests.api.product_helpers import PRODUCT

SERIES = f"{PRODUCT}/DeviceSeries"
FIRMWARE = f"{PRODUCT}/Firmware"
ROLLOUT = f"{PRODUCT}/UpgradeRollout"
TH2, CS4 = 0x8002, 0x8003
IMAGE = b"\x7fFW" + bytes(range(256)) * 16


@pytest.fixture
def people(app, make_client):
    """(operator, reseller, user) as (client, headers), the catalogue synced."""
    with app.app_context():
        sync_catalogue()
        db.session.commit()
    return staff(app, make_client, lang="en-US")


def type_id(app, code: int = TH2) -> int:
    with app.app_context():
        return sync_catalogue()[code].id


def issue(app, count: int, code: int = TH2) -> list[tuple[int, str, str]]:
    """`count` new devices of the type: (id, guid, key)."""
    with app.app_context():
        device_type = sync_catalogue()[code]
        issued = issue_guids(find_platform("localhost"), device_type, count, "UPG")
        backdate_issuance()
        ids = {d.guid: d.id for d in db.session.scalars(select(Device).where(Device.guid.in_([g for g, _ in issued])))}
        db.session.commit()
    return [(ids[guid], guid, key) for guid, key in issued]


def upload(client, headers, device_type_id: int, content: bytes = IMAGE, **fields):
    query = {"deviceTypeId": device_type_id, "latestVersionValue": "2.0.0", "latestVersionLabel": "v2.0.0"}
    query.update(fields)
    return client.post(
        f"{FIRMWARE}/upload",
        headers=headers,
        query_string={k: v for k, v in query.items() if v is not None},
        data={"upgradeMultipartFile": (io.BytesIO(content), "fw.bin")},
        content_type="multipart/form-data",
    )


def new_firmware(client, headers, device_type_id: int, version: str = "2.0.0") -> dict:
    answer = upload(client, headers, device_type_id, latestVersionValue=version, latestVersionLabel=f"v{version}")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["data"]


def rollout(client, headers, firmware_id: int, device_ids: list[int], **extra) -> dict:
    answer = client.post(
        f"{ROLLOUT}/insert", headers=headers, json={"firmwareId": firmware_id, "deviceIds": device_ids, **extra}
    )
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["data"]


def detail(client, headers, rollout_id: int) -> dict:
    answer = client.get(f"{ROLLOUT}/detail/{rollout_id}", headers=headers)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["data"]


def states(client, headers, rollout_id: int) -> dict[int, str]:
    return {t["deviceId"]: t["state"] for t in detail(client, headers, rollout_id)["targets"]}


def stored_counts(app) -> tuple[int, ...]:
    """Rows of the upgrade tables, commands and files in the firmware folder: a refused write keeps them."""
    with app.app_context():
        rows = tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (DeviceSeries, FirmwareVersion, UpgradeRollout, UpgradeTarget, DeviceCommand)
        )
        folder = Path(current_app.config["UPLOAD_DIR"]) / FIRMWARE_FOLDER
        return (*rows, len(list(folder.glob("*"))) if folder.is_dir() else 0)


def device_headers(guid: str, key: str) -> dict:
    return {"X-Device-Id": guid, "X-Device-Key": key}


def device_ack(client, guid: str, key: str, command_id: int, **body):
    answer = client.post(
        "/api/device/DeviceCommand/ack",
        headers=device_headers(guid, key),
        json={"commandId": command_id, "ok": True, **body},
    )
    assert answer.status_code == 200, answer.get_json()


def pending_upgrade(client, guid: str, key: str) -> dict | None:
    """The upgrade command waiting for the device (as a device without MQTT fetches it)."""
    commands = client.get("/api/device/DeviceCommand/pending", headers=device_headers(guid, key)).get_json()["data"]
    return next((c for c in commands if "firmware" in c["params"]), None)
