"""Sharing with permission templates, expiry and transfer: the shared user sees exactly what the
template allows (hidden parameters absent from real-time data and charts) and the API refuses the
rest; an expired share loses access; a transfer waits for the recipient's consent."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from api.extensions.db import db, utcnow
from api.notify.models import OutboundMessage
from api.sharing.models import DeviceShare
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import add, guids, minutes_ago
from tests.api.org_helpers import DEVICE, ok, send_readings
from tests.api.report_helpers import export, files, files_dir, read_csv

__all__ = ["files_dir", "guids"]

# Temperature (0001) visible but not settable; humidity (0002) hidden; real-time and chart shown,
# the map hidden; the logging interval (0101) not in the template at all.
TEMPLATE = {
    "name": "Temp only",
    "items": [
        {"permissionCode": "0001", "viewStatus": 1, "setStatus": 0},
        {"permissionCode": "0002", "viewStatus": 0, "setStatus": 0},
        {"permissionCode": "realtime", "viewStatus": 1, "setStatus": 0},
        {"permissionCode": "chart", "viewStatus": 1, "setStatus": 0},
        {"permissionCode": "map", "viewStatus": 0, "setStatus": 0},
    ],
}


def setup_share(app, client, guids, expire="8h", template=TEMPLATE):
    make_account(app)
    owner = auth(login(client))
    make_account(app, user_name="recipient", email="recipient@example.com")
    recipient = auth(login(client, "recipient"))
    device_id = add(client, owner, guids["th_a"][0], "Shared Fridge")
    send_readings(client, guids, "th_a", {"1": 4.5, "2": 61.0}, minutes=3)
    send_readings(client, guids, "th_a", {"1": 4.7, "2": 62.0}, minutes=1)
    template_id = ok(client.post(f"{DEVICE}/DevicePermissionTemplate/insert", json=template, headers=owner))["id"]
    shares = ok(
        client.post(
            f"{DEVICE}/DeviceShare/insert",
            json={
                "deviceIds": [device_id],
                "userName": "recipient",
                "sharerName": "Night guard",
                "templateId": template_id,
                "expire": expire,
            },
            headers=owner,
        )
    )
    return owner, recipient, device_id, shares[0]["id"]


def chart(client, headers, device_id, sensors=(1, 2)):
    now = utcnow()
    query = {
        "deviceId": device_id,
        "start": (now - timedelta(hours=1)).isoformat(),
        "end": (now + timedelta(minutes=1)).isoformat(),
        "sensors": ",".join(str(s) for s in sensors),
    }
    return client.get(f"{DEVICE}/DeviceData/chart", query_string=query, headers=headers)


def test_template_hides_a_parameter_in_list_detail_realtime_and_chart(app, client, guids):
    owner, recipient, device_id, _ = setup_share(app, client, guids)
    [row] = ok(client.post(f"{DEVICE}/Device/page", json={}, headers=recipient))["list"]
    assert row["id"] == device_id and row["values"] == {"1": 4.7}
    assert [sensor["probeId"] for sensor in row["sensors"]] == [1]  # the hidden humidity is not even labelled
    detail = ok(client.get(f"{DEVICE}/Device/detail/{device_id}", headers=recipient))
    assert [p["paramKey"] for p in detail["params"]] == ["0001"]
    assert {p["permissionCode"]: p["viewStatus"] for p in detail["permissions"]}["0002"] == 0
    latest = ok(client.get(f"{DEVICE}/DeviceData/latest", query_string={"deviceId": device_id}, headers=recipient))
    assert latest["values"] == {"1": 4.7}
    series = ok(chart(client, recipient, device_id))["series"]
    assert list(series) == ["1"] and len(series["1"]) == 2
    # The owner sees everything.
    assert ok(client.get(f"{DEVICE}/Device/detail/{device_id}", headers=owner))["permissions"] is None
    assert list(ok(chart(client, owner, device_id))["series"]) == ["1", "2"]
    owner_latest = ok(client.get(f"{DEVICE}/DeviceData/latest", query_string={"deviceId": device_id}, headers=owner))
    assert owner_latest["values"] == {"1": 4.7, "2": 62.0}


def test_hidden_blocks_and_management_are_refused(app, client, guids):
    owner, recipient, device_id, _ = setup_share(app, client, guids)
    now = utcnow()
    track = client.get(
        f"{DEVICE}/DeviceData/track",
        query_string={"deviceId": device_id, "start": (now - timedelta(hours=1)).isoformat(), "end": now.isoformat()},
        headers=recipient,
    )
    # A device-level refusal is a body code, not HTTP 403 (which would sign the user out).
    assert (track.status_code, track.get_json()["code"]) == (200, 4030)
    events = client.get(f"{DEVICE}/DeviceEvent/list", query_string={"deviceId": device_id}, headers=recipient)
    assert (events.status_code, events.get_json()["code"]) == (200, 4030)
    refused = [
        client.put(
            f"{DEVICE}/Device/update", json={"deviceId": device_id, "deviceName": "Mine now"}, headers=recipient
        ),
        client.put(f"{DEVICE}/Device/stopUsing/{device_id}", headers=recipient),
        client.delete(f"{DEVICE}/Device/delete/{device_id}", headers=recipient),
        client.post(
            f"{DEVICE}/DeviceCommand/send", json={"deviceId": device_id, "params": {"0101": 10}}, headers=recipient
        ),
    ]
    assert [(r.status_code, r.get_json()["code"]) for r in refused] == [(200, 4030)] * 4
    detail = ok(client.get(f"{DEVICE}/Device/detail/{device_id}", headers=owner))
    assert detail["deviceName"] == "Shared Fridge" and detail["useFlag"] is True
    # A shared user cannot re-share or transfer a device it does not own.
    body = client.post(
        f"{DEVICE}/DeviceTransfer/insert", json={"deviceId": device_id, "userName": "demouser"}, headers=recipient
    ).get_json()
    assert body["code"] == 4030


def test_operable_parameter_can_be_set_by_the_shared_user(app, client, guids):
    template = {
        "name": "Operator",
        "items": [*TEMPLATE["items"], {"permissionCode": "0101", "viewStatus": 1, "setStatus": 1}],
    }
    _owner, recipient, device_id, _ = setup_share(app, client, guids, template=template)
    body = client.post(
        f"{DEVICE}/DeviceCommand/send", json={"deviceId": device_id, "params": {"0101": 10}}, headers=recipient
    ).get_json()
    assert body["code"] == 0, body


def test_expired_share_loses_access(app, client, guids):
    owner, recipient, device_id, share_id = setup_share(app, client, guids)
    assert ok(client.get(f"{DEVICE}/Device/detail/{device_id}", headers=recipient))["id"] == device_id
    with app.app_context():
        db.session.execute(
            update(DeviceShare).where(DeviceShare.id == share_id).values(expires_at=utcnow() - timedelta(seconds=1))
        )
        db.session.commit()
    assert ok(client.post(f"{DEVICE}/Device/page", json={}, headers=recipient))["total"] == 0
    assert client.get(f"{DEVICE}/Device/detail/{device_id}", headers=recipient).status_code == 404
    assert chart(client, recipient, device_id).status_code == 404
    page = ok(client.post(f"{DEVICE}/DeviceShare/page", json={}, headers=owner))
    assert page["list"][0]["expired"] is True


def test_share_expiry_options(app, client, guids):
    owner, _recipient, device_id, share_id = setup_share(app, client, guids, expire="8h")
    [row] = ok(client.post(f"{DEVICE}/DeviceShare/page", json={}, headers=owner))["list"]
    with app.app_context():
        expires = db.session.get(DeviceShare, share_id).expires_at
    assert timedelta(hours=7, minutes=59) < expires - utcnow() <= timedelta(hours=8)
    assert row["sharerName"] == "Night guard" and row["recipientName"] == "recipient"
    bad = [
        {"expire": "2w"},
        {"expire": "custom"},
        {"expire": "custom", "expireTime": (utcnow() - timedelta(hours=1)).isoformat()},
        {"expire": "1d", "sharerName": "X"},
    ]
    for patch in bad:
        payload = {"id": share_id, "sharerName": "Night guard", "templateId": row["templateId"], **patch}
        body = client.put(f"{DEVICE}/DeviceShare/update", json=payload, headers=owner).get_json()
        assert body["code"] == 422, (patch, body)
    body = client.put(
        f"{DEVICE}/DeviceShare/update",
        json={"id": share_id, "sharerName": "Day guard", "templateId": row["templateId"], "expire": "7d"},
        headers=owner,
    ).get_json()
    assert body["code"] == 0
    with app.app_context():
        assert db.session.get(DeviceShare, share_id).expires_at - utcnow() > timedelta(days=6, hours=23)
    assert device_id


def test_template_name_limit_and_codes(app, client, guids):
    make_account(app)
    owner = auth(login(client))
    add(client, owner, guids["th_a"][0])
    too_long = client.post(
        f"{DEVICE}/DevicePermissionTemplate/insert", json={"name": "X" * 11, "items": []}, headers=owner
    ).get_json()
    assert too_long["code"] == 422 and "name" in too_long["data"]["errors"]
    unknown = client.post(
        f"{DEVICE}/DevicePermissionTemplate/insert",
        json={"name": "Bad", "items": [{"permissionCode": "kitchen", "viewStatus": 1, "setStatus": 1}]},
        headers=owner,
    ).get_json()
    assert unknown["code"] == 422
    codes = ok(client.get(f"{DEVICE}/DevicePermissionTemplate/codes", headers=owner))
    assert {p["code"] for p in codes["params"]} == {"0001", "0002", "0101"} and "chart" in codes["blocks"]
    assert ok(client.get(f"{DEVICE}/DevicePermissionTemplate/list", headers=owner)) == []


def test_sharing_with_an_unregistered_phone_sends_an_invitation_and_registering_claims_it(app, client, guids):
    from sqlalchemy import select

    from api.notify.models import OutboundMessage

    make_account(app)
    owner = auth(login(client))
    device_id = add(client, owner, guids["th_a"][0], "Phone Fridge")
    template_id = ok(client.post(f"{DEVICE}/DevicePermissionTemplate/insert", json=TEMPLATE, headers=owner))["id"]
    ok(
        client.post(
            f"{DEVICE}/DeviceShare/insert",
            json={
                "deviceIds": [device_id],
                "phone": "13900139001",
                "sharerName": "Courier",
                "templateId": template_id,
                "expire": "1d",
            },
            headers=owner,
        )
    )
    with app.app_context():
        [message] = db.session.scalars(select(OutboundMessage)).all()
        assert message.recipient == "+8613900139001" and "Phone Fridge" in message.body
        from api.account.services import WELCOMES
        from api.identity.models import Account, AccountType
        from api.tenancy import find_platform

        account = Account(
            platform_id=find_platform("localhost").id,
            user_name="courier",
            phone="+8613900139001",
            password_hash="x",
            account_type=AccountType.PERSONAL,
        )
        db.session.add(account)
        db.session.flush()
        for welcome in WELCOMES:  # what registration runs (the areas' account_welcomes)
            welcome(account)
        db.session.commit()
        share = db.session.scalars(select(DeviceShare)).one()
        assert share.recipient_account_id == account.id and share.recipient_phone is None


def test_transfer_waits_for_consent(app, client, guids):
    make_account(app)
    owner = auth(login(client))
    make_account(app, user_name="buyer_1")
    buyer = auth(login(client, "buyer_1"))
    device_id = add(client, owner, guids["th_a"][0], "Sold Fridge")
    transfer = ok(
        client.post(
            f"{DEVICE}/DeviceTransfer/insert", json={"deviceId": device_id, "userName": "buyer_1"}, headers=owner
        )
    )
    assert transfer["status"] == "pending"
    # Nothing moves before consent.
    assert client.get(f"{DEVICE}/Device/detail/{device_id}", headers=buyer).status_code == 404
    assert ok(client.get(f"{DEVICE}/Device/detail/{device_id}", headers=owner))["id"] == device_id
    # The sender cannot accept on the recipient's behalf.
    assert client.put(f"{DEVICE}/DeviceTransfer/accept/{transfer['id']}", headers=owner).status_code == 404
    incoming = ok(client.post(f"{DEVICE}/DeviceTransfer/page", json={}, headers=buyer))["list"]
    assert incoming[0]["incoming"] is True and incoming[0]["deviceName"] == "Sold Fridge"
    assert ok(client.put(f"{DEVICE}/DeviceTransfer/accept/{transfer['id']}", headers=buyer))["status"] == "accepted"
    assert ok(client.get(f"{DEVICE}/Device/detail/{device_id}", headers=buyer))["id"] == device_id
    assert client.get(f"{DEVICE}/Device/detail/{device_id}", headers=owner).status_code == 404
    again = client.put(f"{DEVICE}/DeviceTransfer/reject/{transfer['id']}", headers=buyer).get_json()
    assert again["code"] == 5007


def test_rejected_transfer_keeps_the_owner(app, client, guids):
    make_account(app)
    owner = auth(login(client))
    make_account(app, user_name="buyer_1")
    buyer = auth(login(client, "buyer_1"))
    device_id = add(client, owner, guids["th_a"][0], "Kept Fridge")
    transfer = ok(
        client.post(
            f"{DEVICE}/DeviceTransfer/insert", json={"deviceId": device_id, "userName": "buyer_1"}, headers=owner
        )
    )
    assert ok(client.put(f"{DEVICE}/DeviceTransfer/reject/{transfer['id']}", headers=buyer))["status"] == "rejected"
    assert ok(client.get(f"{DEVICE}/Device/detail/{device_id}", headers=owner))["id"] == device_id
    assert minutes_ago(0)


def test_template_hides_a_parameter_in_exports(app, client, guids, files_dir, run_jobs):
    _owner, recipient, device_id, _ = setup_share(app, client, guids)
    now = utcnow()
    body = export(client, recipient, [device_id], "csv", start=now - timedelta(hours=1), end=now + timedelta(minutes=1))
    assert body["code"] == 0, body
    run_jobs()
    [row] = files(client, recipient)
    assert row["status"] == "generated", row
    _raw, rows = read_csv(client, recipient, row["id"])
    # name, GUID, time, temperature, the back-filled and calibration-overdue marks only; then the
    # summary of temperature only
    assert len(rows[0]) == 6 and "湿度" not in ",".join(rows[0]) and "Humidity" not in ",".join(rows[0])
    readings = rows[1 : rows.index([])]
    assert [r[3] for r in readings] == ["4.5", "4.7"]
    assert all("湿度" not in ",".join(r) for r in rows)


def test_the_transfer_recipient_hears_of_the_offer_in_the_bell_and_by_mail(app, make_client, guids):
    """Issue 47: the recipient got no bell, message or mail."""
    client = make_client(lang="en-US")
    make_account(app)
    owner = auth(login(client))
    make_account(app, user_name="buyer_2", email="buyer2@example.com")
    buyer = auth(login(client, "buyer_2"))
    device_id = add(client, owner, guids["th_a"][0], "Sold Fridge")
    offer = {"deviceId": device_id, "userName": "buyer_2"}
    transfer = ok(client.post(f"{DEVICE}/DeviceTransfer/insert", json=offer, headers=owner))

    messages = ok(client.post("/api/alarm/AlarmMessage/page", json={"start": 1, "pageSize": 10}, headers=buyer))["list"]
    [message] = [m for m in messages if "offers to transfer" in m["content"]]
    assert "Sold Fridge" in message["content"] and "demouser" in message["content"]
    zh = make_client().post("/api/alarm/AlarmMessage/page", json={"start": 1, "pageSize": 10}, headers=buyer).get_json()
    assert "Sold Fridge" in zh["data"]["list"][0]["content"] and "offers" not in zh["data"]["list"][0]["content"]
    with app.app_context():
        [mail] = db.session.scalars(
            select(OutboundMessage).where(OutboundMessage.recipient == "buyer2@example.com")
        ).all()
        assert "Sold Fridge" in mail.body and mail.subject
    # The sender's inbox holds nothing of it; a second offer of the same device is refused, no second mail.
    mine = ok(client.post("/api/alarm/AlarmMessage/page", json={"start": 1, "pageSize": 10}, headers=owner))["list"]
    assert mine == []
    assert client.post(f"{DEVICE}/DeviceTransfer/insert", json=offer, headers=owner).get_json()["code"] == 5006
    assert transfer["status"] == "pending"
