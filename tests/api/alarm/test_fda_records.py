"""FDA mode on the alarm area's GxP records (api/fda/records): a change of limits, push settings or
device parameters states its reason, and processing an alarm is signed (user name and password again,
the reason as its meaning); without FDA mode nothing is asked."""

from __future__ import annotations

from urllib.parse import quote

from sqlalchemy import select

from api.alarm.models import Alarm, SensorLimit
from api.audit.models import OperationLog
from api.extensions.db import db
from api.extensions.reasons import REASON_HEADER
from api.fda.records import EVIDENCE_REQUIRED, PASSWORD_HEADER, SIGNER_HEADER
from tests.api.account_helpers import PASSWORD
from tests.api.alarm.helpers import ALARM, messages, record, save_push
from tests.api.device_helpers import upload
from tests.api.fda_helpers import fda_mode
from tests.api.org_helpers import build_enterprise

EN = {"Accept-Language": "en-US"}
LIMIT = {"sensor": 1, "upperLimit": 8, "lowerLimit": 2}


def save_limits(client, headers, device_id, upper=8, **extra):
    limit = {**LIMIT, "upperLimit": upper}
    body = {"deviceId": device_id, "limits": [limit]}
    return client.post(f"{ALARM}/SensorLimit/save", json=body, headers={**headers, **EN, **extra}).get_json()


def stored_upper(app, device_id):
    with app.app_context():
        row = db.session.scalar(select(SensorLimit).where(SensorLimit.device_id == device_id, SensorLimit.sensor == 1))
        return row.upper if row else None


def trail(app, path_part):
    with app.app_context():
        stmt = select(OperationLog).where(OperationLog.path.contains(path_part)).order_by(OperationLog.id)
        rows = db.session.scalars(stmt).all()
        db.session.expunge_all()
        return rows


def reason(text):
    return {REASON_HEADER: quote(text)}


def test_without_fda_mode_a_limit_change_needs_no_reason(app, client, owner, fridge):
    assert save_limits(client, owner, fridge[0])["code"] == 0
    assert stored_upper(app, fridge[0]) == 8


def test_in_fda_mode_a_change_states_its_reason_and_the_trail_keeps_it(app, client, owner, fridge):
    device_id = fridge[0]
    assert save_limits(client, owner, device_id)["code"] == 0
    fda_mode(app)
    refused = save_limits(client, owner, device_id, upper=10)
    assert refused["code"] == EVIDENCE_REQUIRED and refused["data"]["needs"] == "reason", refused
    assert refused["msg"] == "FDA mode: give a reason for this change."
    assert stored_upper(app, device_id) == 8  # nothing changed
    pushed = save_push(client, {**owner, **EN}, device_id)
    assert pushed["code"] == EVIDENCE_REQUIRED and pushed["data"]["needs"] == "reason"

    assert save_limits(client, owner, device_id, upper=10, **reason("Vaccine range per SOP-12 rev 3"))["code"] == 0
    assert stored_upper(app, device_id) == 10
    [*_, entry] = trail(app, "SensorLimit/save")
    assert entry.reason == "Vaccine range per SOP-12 rev 3"
    fda_mode(app, enabled=False)
    assert save_limits(client, owner, device_id, upper=9)["code"] == 0


def excursion_message(app, client, owner, fridge):
    device_id, guid, key = fridge
    assert save_limits(client, owner, device_id)["code"] == 0
    upload(client, guid, key, [record(2, 5.0), record(1, 12.5)])
    [message] = [m for m in messages(app) if m.alarm_id]
    return message


def process(client, headers, message_id, **extra):
    body = {"ids": [message_id], "processState": "agreed", "result": "Door closed"}
    return client.put(f"{ALARM}/AlarmMessage/process", json=body, headers={**headers, **EN, **extra}).get_json()


def process_state(app, alarm_id):
    with app.app_context():
        return db.session.get(Alarm, alarm_id).process_state.value


def test_in_fda_mode_processing_an_alarm_is_signed_with_the_password_again(app, client, owner, fridge):
    message = excursion_message(app, client, owner, fridge)
    fda_mode(app)
    unsigned = process(client, owner, message.id, **reason("Door left open during loading"))
    assert unsigned["code"] == EVIDENCE_REQUIRED and unsigned["data"]["needs"] == "signature", unsigned

    wrong = process(
        client, owner, message.id, **reason("Door left open"), **{SIGNER_HEADER: "demouser", PASSWORD_HEADER: "wrong"}
    )
    assert wrong["code"] != 0 and process_state(app, message.alarm_id) == "pending"
    assert any("Electronic signature refused" in e.summary for e in trail(app, "AlarmMessage/process"))

    signed = process(
        client,
        owner,
        message.id,
        **reason("Door left open during loading"),
        **{SIGNER_HEADER: "demouser", PASSWORD_HEADER: quote(PASSWORD)},
    )
    assert signed["code"] == 0, signed
    assert process_state(app, message.alarm_id) == "agreed"
    manifestation = [e for e in trail(app, "AlarmMessage/process") if e.summary.startswith("Electronically signed")]
    assert len(manifestation) == 1
    assert manifestation[0].after[0]["values"]["meaning"] == "Door left open during loading"
    assert manifestation[0].reason == "Door left open during loading"


def test_the_need_is_published(client):
    spec = client.get("/api/openapi.json").get_json()
    assert spec["paths"]["/api/alarm/SensorLimit/save"]["post"]["x-access"]["gxp"] == "reason"
    assert spec["paths"]["/api/alarm/AlarmMessage/process"]["put"]["x-access"]["gxp"] == "signature"


def test_the_owners_fda_mode_applies_to_a_members_change_of_its_device(app, client, guids):
    """A member of the enterprise changes a limit of the owner's device: the owner's records are in FDA
    mode, so the reason is asked although the member's own account is not."""
    enterprise = build_enterprise(app, client, guids, members=("admin",))
    device_id = enterprise.devices["th_a"]
    member = enterprise.members["admin"]
    assert save_limits(client, member, device_id)["code"] == 0
    fda_mode(app)  # demouser, the owner
    refused = save_limits(client, member, device_id, upper=9)
    assert refused["code"] == EVIDENCE_REQUIRED, refused
    assert save_limits(client, member, device_id, upper=9, **reason("Range per SOP-12"))["code"] == 0
    assert stored_upper(app, device_id) == 9
