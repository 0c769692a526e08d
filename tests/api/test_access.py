"""Issue 15's findings, each as a regression test through the api: an Observer member cannot
change what it may only see, a share recipient reads nothing its template hides, secrets never
come back, and a device-level refusal keeps the user signed in (a body code, not HTTP 403)."""

from __future__ import annotations

from tests.api.org_helpers import DEVICE, build_enterprise, guids, ok
from tests.api.test_sharing import setup_share

__all__ = ["guids"]

ALARM = "/api/alarm"
LIMITS = [{"sensor": 1, "upperLimit": 8, "lowerLimit": 2}, {"sensor": 2, "upperLimit": 90, "lowerLimit": 20}]
PUSH = {
    "multiLevel": False,
    "channels": ["email"],
    "levels": [{"level": 1, "minutes": 0, "recipients": [{"name": "Night Lead", "email": "lead@example.com"}]}],
}


def limits_of(client, headers, device_id):
    return ok(client.get(f"{ALARM}/SensorLimit/list", query_string={"deviceId": device_id}, headers=headers))


def test_an_observer_member_changes_nothing_of_an_organisation_device(app, client, guids):
    enterprise = build_enterprise(app, client, guids)
    device_id, owner, observer = enterprise.devices["th_a"], enterprise.owner, enterprise.members["observer"]
    ok(client.post(f"{ALARM}/SensorLimit/save", json={"deviceId": device_id, "limits": LIMITS}, headers=owner))
    before = limits_of(client, owner, device_id)
    refused = [
        client.post(f"{ALARM}/SensorLimit/save", json={"deviceId": device_id, "limits": []}, headers=observer),
        client.post(f"{ALARM}/PushSetting/save", json={"deviceId": device_id, **PUSH}, headers=observer),
        client.put(f"{DEVICE}/Device/focus/{device_id}", json={"focus": True}, headers=observer),
        client.post(
            "/api/report/ExportFile/export", json={"deviceIds": [device_id], "fileType": "csv"}, headers=observer
        ),
    ]
    assert [r.status_code for r in refused] == [403] * 4, [r.get_json() for r in refused]
    assert limits_of(client, owner, device_id) == before  # nothing deleted
    # The Observer still sees the limits (its role grants the query action).
    assert limits_of(client, observer, device_id) == before


def test_a_share_recipient_reads_nothing_its_template_hides(app, client, guids):
    owner, recipient, device_id, _ = setup_share(app, client, guids)
    ok(client.post(f"{ALARM}/SensorLimit/save", json={"deviceId": device_id, "limits": LIMITS}, headers=owner))
    ok(client.post(f"{ALARM}/PushSetting/save", json={"deviceId": device_id, **PUSH}, headers=owner))
    query = {"deviceId": device_id}
    for call in ("SensorLimit/list", "PushSetting/get", "Alarm/deviceStatus"):
        response = client.get(f"{ALARM}/{call}", query_string=query, headers=recipient)
        # Refused at the device level: HTTP 200 and code 4030, so the console keeps the user signed in.
        assert (response.status_code, response.get_json()["code"]) == (200, 4030), call
        assert "lead@example.com" not in response.get_data(as_text=True)
    page = client.post(f"{ALARM}/Alarm/page", json=query, headers=recipient)
    assert page.get_json()["code"] == 4030
    assert (
        "No permission"
        in client.get(
            f"{ALARM}/PushSetting/get", query_string=query, headers={**recipient, "Accept-Language": "en-US"}
        ).get_json()["msg"]
    )


def test_a_recipient_allowed_the_alarm_block_still_misses_the_hidden_parameter(app, client, guids):
    template = {
        "name": "Alarms",
        "items": [
            {"permissionCode": "alarm", "viewStatus": 1, "setStatus": 0},
            {"permissionCode": "0001", "viewStatus": 1, "setStatus": 0},
        ],
    }
    owner, recipient, device_id, _ = setup_share(app, client, guids, template=template)
    ok(client.post(f"{ALARM}/SensorLimit/save", json={"deviceId": device_id, "limits": LIMITS}, headers=owner))
    assert [row["sensor"] for row in limits_of(client, recipient, device_id)] == [1]
    assert [row["sensor"] for row in limits_of(client, owner, device_id)] == [1, 2]
    # Allowed to see, not to operate: saving limits is refused and changes nothing.
    body = client.post(
        f"{ALARM}/SensorLimit/save", json={"deviceId": device_id, "limits": []}, headers=recipient
    ).get_json()
    assert body["code"] == 4030
    assert len(limits_of(client, owner, device_id)) == 2


def test_webhook_secrets_are_write_only(app, client, guids, monkeypatch):
    owner, _recipient, device_id, _ = setup_share(app, client, guids)
    secret = "a-receiver-secret-of-32-characters"
    saved = client.post(
        f"{ALARM}/PushSetting/save",
        json={
            "deviceId": device_id,
            **PUSH,
            "channels": ["email", "webhook"],
            "webhookUrl": "http://127.0.0.1:9/alarm",
            "webhookSecret": secret,
        },
        headers=owner,
    )
    read = client.get(f"{ALARM}/PushSetting/get", query_string={"deviceId": device_id}, headers=owner)
    for response in (saved, read):
        assert secret not in response.get_data(as_text=True)
        assert response.get_json()["data"]["webhookSecretSet"] is True


def test_a_route_key_does_not_grant_its_actions(app, client, guids):
    """A role granted only `device.list.query` opens the device list but edits nothing."""
    enterprise = build_enterprise(app, client, guids, members=("observer",))
    observer = enterprise.members["observer"]
    info = ok(client.get("/api/base/BaseAccount/accountInfo", headers=observer))
    assert "device.list.query" in info["permissionRoutes"] and "device.list.edit" not in info["permissionRoutes"]
    assert client.post(f"{DEVICE}/Device/page", json={}, headers=observer).get_json()["code"] == 0
    response = client.put(
        f"{DEVICE}/Device/update", json={"deviceId": enterprise.devices["th_a"], "remark": "x"}, headers=observer
    )
    assert response.status_code == 403
