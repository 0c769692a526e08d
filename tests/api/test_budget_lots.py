"""A storage's lots through the api: placed under a profile, their budget from the storage's probes
(the worst of them), the threshold alarm once, the disposition signed in FDA mode, and reach."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import quote

from sqlalchemy import select

from api.alarm.models import Alarm, AlarmKind
from api.budget.services import check_budgets
from api.device.models import Device
from api.extensions.db import db
from api.extensions.reasons import REASON_HEADER
from api.fda.records import PASSWORD_HEADER, SIGNER_HEADER
from api.storage.models import ColdStorage
from tests.api.account_helpers import PASSWORD
from tests.api.budget_helpers import B, errors_of, ok, profile_body
from tests.api.device_helpers import guids, owner, stranger, upload
from tests.api.fda_helpers import fda_mode
from tests.api.test_storage import create, room

__all__ = ["guids", "owner", "room", "stranger"]


def ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def placed_lot(app, client, owner, room, profile_id: int | None) -> tuple[dict, datetime]:
    storage = create(client, owner, room["guid"])
    start = (datetime.now(UTC) - timedelta(hours=2)).replace(second=0, microsecond=0)
    with app.app_context():
        db.session.get(Device, room["controller"]).interval_s = 300
        db.session.commit()
    # Probe 1 (door) 12 °C for 30 min then back; probe 3 30 °C for 10 min; the others in range.
    records = []
    for minute in range(0, 60, 10):
        door = 12.0 if minute < 30 else 5.0
        evaporator = 30.0 if minute == 10 else 5.0
        records.append(
            {"ts": ms(start + timedelta(minutes=minute)), "readings": {"1": door, "2": 5, "3": evaporator, "4": 5}}
        )
    assert upload(client, room["guid"], room["key"], records[::-1]).status_code == 200  # newest first
    body = {
        "storageId": storage["id"],
        "product": "Insulin pens",
        "lotNumber": "L-2026-11",
        "quantity": 400,
        "placedAt": start.isoformat(),
        "removedAt": (start + timedelta(minutes=60)).isoformat(),
        "profileId": profile_id,
    }
    return ok(client.post(f"{B}/Lot/insert", json=body, headers=owner)), start


def test_a_lots_budget_is_its_worst_probe_and_its_alarm_is_raised_once(app, client, owner, room):
    profile = ok(client.post(f"{B}/StabilityProfile/insert", json=profile_body(mktLimit=None), headers=owner))
    lot, start = placed_lot(app, client, owner, room, profile["id"])
    budget = ok(client.get(f"{B}/Lot/budget?id={lot['id']}", headers=owner))
    assert [b["usedSeconds"] for b in budget["bands"]] == [1800, 600, 0]
    assert not budget["exhausted"] and not budget["dispositionRequired"]
    with app.app_context():  # the window is shown in the storage's zone, which the answer names
        assert budget["timeZone"] == db.session.get(ColdStorage, lot["storageId"]).time_zone
    page = ok(client.post(f"{B}/Lot/page", json={"storageId": lot["storageId"]}, headers=owner))
    assert [row["product"] for row in page["list"]] == ["Insulin pens"]
    with app.app_context():
        assert check_budgets(start + timedelta(minutes=70)) == 0  # 0.7 % and 2.8 % used: nothing yet
    tight = ok(
        client.post(
            f"{B}/StabilityProfile/insert",
            json=profile_body(name="Tight", mktLimit=None, bands=[{"low": 8, "high": None, "hours": 0.5}]),
            headers=owner,
        )
    )
    body = {**lot, "profileId": tight["id"]}
    for key in ("disposition", "dispositionReason", "disposedAt"):
        body.pop(key)
    ok(client.put(f"{B}/Lot/update", json=body, headers=owner))
    with app.app_context():
        assert check_budgets(start + timedelta(minutes=70)) == 1  # the door probe: 30 min of 30, exhausted
        assert check_budgets(start + timedelta(minutes=75)) == 0
        [alarm] = db.session.scalars(select(Alarm).where(Alarm.kind == AlarmKind.BUDGET)).all()
        assert alarm.device_id == room["controller"]
    budget = ok(client.get(f"{B}/Lot/budget?id={lot['id']}", headers=owner))
    assert budget["exhausted"] and budget["dispositionRequired"] and budget["alerted"]


def test_a_lots_disposition_is_signed_in_fda_mode(app, client, owner, room):
    profile = ok(client.post(f"{B}/StabilityProfile/insert", json=profile_body(), headers=owner))
    lot, _start = placed_lot(app, client, owner, room, profile["id"])
    no_reason = client.put(f"{B}/Lot/dispose", json={"id": lot["id"], "disposition": "rejected"}, headers=owner)
    assert "reason" in errors_of(no_reason.get_json())
    fda_mode(app)
    body = {"id": lot["id"], "disposition": "quarantined", "reason": "Door probe at 12 °C for 30 min"}
    unsigned = client.put(f"{B}/Lot/dispose", json=body, headers={**owner, REASON_HEADER: quote("hold")}).get_json()
    assert unsigned["code"] == 4604 and unsigned["data"]["needs"] == "signature"
    signed = {**owner, REASON_HEADER: quote("Quarantined"), SIGNER_HEADER: "demouser", PASSWORD_HEADER: quote(PASSWORD)}
    done = ok(client.put(f"{B}/Lot/dispose", json=body, headers=signed))
    assert done["disposition"] == "quarantined" and done["dispositionReason"].startswith("Door probe")
    budget = ok(client.get(f"{B}/Lot/budget?id={lot['id']}", headers=owner))
    assert budget["disposition"] == "quarantined"


def test_lots_are_reached_through_their_storage(app, client, owner, stranger, room):
    lot, _start = placed_lot(app, client, owner, room, None)
    assert client.get(f"{B}/Lot/detail/{lot['id']}", headers=stranger).status_code == 404
    assert client.get(f"{B}/Lot/budget?id={lot['id']}", headers=stranger).status_code == 404
    assert client.post(f"{B}/Lot/page", json={"storageId": lot["storageId"]}, headers=stranger).status_code == 404
    refused = client.put(
        f"{B}/Lot/dispose", json={"id": lot["id"], "disposition": "released"}, headers=stranger
    ).status_code
    assert refused == 404
    mine = ok(client.get(f"{B}/Lot/budget?id={lot['id']}", headers=owner))
    assert mine["profile"] is None and mine["bands"] == []
