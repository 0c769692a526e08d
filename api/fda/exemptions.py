"""The changes FDA mode asks no reason for: the one list, each with why (21 CFR 11.10(e), EU GMP Annex 11
§9). Every other POST / PUT / PATCH / DELETE of a signed-in account is a change to records, devices,
limits, roles or permissions and states its reason (or is signed, where its need declares `gxp`), so a
new operation is covered the day it is written (api/fda/records.py applies the rule).

An exemption is judged on what the gate knows of the operation: its method and path, and the
permission key its need declares.
"""

from __future__ import annotations

from api.extensions.smorest import Need

READ = "a read: the query travels in a POST body and nothing changes"
OWN_ACCOUNT = "the user's own sign-in credentials or contact, changed with a code or the old password"
COMMERCE = "purchases, payments and invoices: commerce on billing's own trail, not a GxP record"
COPY = "an export or download: a copy of records, no record changes"
SENDS_COPIES = "an export, or the schedule that sends one: copies of records, no record changes"

# A POST whose path ends in "page" (".../page", ".../alarmPage") reads a page of a list. The permission
# key's "query" action says nothing: Device/batch deletes devices under `device.list.query`.
READ_PAGE_SUFFIX = "page"
# The action of the permission key (its last part), for POST only.
EXEMPT_POST_ACTIONS: dict[str, str] = {"export": COPY}

# Permission keys (or the routes above them) whose every operation is exempt.
EXEMPT_KEYS: dict[str, str] = {
    "consumer.info": "the user's own profile (name, photo): not a record",
    "consumer.recharge": COMMERCE,
    "consumer.download": "the download centre holds copies (exports): removing one changes no record",
    "device.list.export": SENDS_COPIES,
}

# Single operations, as "METHOD path" with the path as routed.
EXEMPT_OPERATIONS: dict[str, str] = {
    "POST /api/base/BaseAccount/bindEmail": OWN_ACCOUNT,
    "POST /api/base/BaseAccount/bindPhone": OWN_ACCOUNT,
    "POST /api/base/BaseAccount/updatePassword": OWN_ACCOUNT,
    "POST /api/base/BaseAccount/acceptInvite": (
        "the user's own answer to an invitation; the invitation (who, which role) stated its reason"
    ),
    "PUT /api/alarm/AlarmMessage/read": "a notification's read mark: the reader's own view",
    "PUT /api/device/Device/focus/<int:device_id>": "pins a device to the top of the user's lists: a view preference",
    "POST /api/base/BaseNotice/queryNotice": READ,
    "POST /api/base/BaseAccount/queryUserByCondition": READ,
    "POST /api/base/BaseOperationLog/exportPdf": COPY,
    "POST /api/calibration/Application/page/ApplicationOrder": READ,
    "POST /api/device/DeviceShare/received": READ,
    "POST /api/report/BackupSchedule/archives": READ,
    "POST /api/calibration/Application/payOrder": COMMERCE,
    "POST /api/report/BackupSchedule/runNow/<int:schedule_id>": "runs a scheduled backup now: " + COPY,
    "POST /api/fda/ElectronicSignature/pdf": "queues a copy of the PDF stored at signing: a download",
    "POST /api/fda/ElectronicSignature/sign": (
        "the electronic signature itself: user name, password and meaning (and its reason) in its body"
    ),
    "PUT /api/fda/FdaConfig/update": "signed in its body: user name, password and the reason",
    "POST /api/fda/FdaConfig/approveOff": "signed in its body: the second person's user name, password and meaning",
    "POST /api/fda/FdaConfig/cancelOff": "withdraws the requester's own pending request; FDA mode stays on",
}


def exemption(need: Need, method: str, rule: str) -> str | None:
    """Why this operation asks no reason (None: it is a change and asks one)."""
    why = EXEMPT_OPERATIONS.get(f"{method} {rule}")
    if why is not None:
        return why
    key = need.key or ""
    for exempt_key, why in EXEMPT_KEYS.items():
        if key == exempt_key or key.startswith(exempt_key + "."):
            return why
    if method == "POST":
        if rule.lower().endswith(READ_PAGE_SUFFIX):
            return READ
        return EXEMPT_POST_ACTIONS.get(key.rsplit(".", 1)[-1])
    return None
