"""The signed PDF of a data file, through the report area's file machinery (api/report: job,
storage, hash, download centre). This module only says what the file covers (a report kind whose
sections carry the signature manifestation and the verification link) and seals the written PDF
with the site's PAdES seal and a trusted timestamp (api/seals), so that any PDF reader shows whether
it was altered and when it was sealed.
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask_babel import gettext

from api.device.models import Device
from api.extensions.db import db
from api.extensions.i18n import N_
from api.fda import services, workflow
from api.fda.models import DataFile, RecordVersion, SignState
from api.identity.models import Account
from api.platform.links import public_url
from api.platform.models import Platform
from api.report.kinds import ReportKind, Subject, device_sensors
from api.report.services import request_locale
from api.seals import legacy
from api.seals.pdf import seal_pdf_file
from api.tenancy import current_platform

KIND = "fda_signed"
SEAL_FIELD = "PlatformSeal"


def verify_path(code: str) -> str:
    return f"/fda/verify?code={code}"


def subjects(params: dict[str, Any], owner_account_id: int) -> list[Subject]:
    file = db.session.get(DataFile, params["fdaFileId"])
    if file is None or file.sign_state != SignState.SIGNED:
        return []
    signature = services.signature_of(file)
    platform = db.session.get(Platform, params["platformId"])
    link = public_url(platform, verify_path(file.verify_code)) if platform else verify_path(file.verify_code)
    check = services.integrity(file, signature)
    signed_steps = signature_rows(file)
    manifestation = (
        gettext("Electronic signatures (21 CFR 11.50)"),
        [
            [gettext("Step"), gettext("Printed name"), gettext("Account"), gettext("Signed at"), gettext("Meaning")],
            *[
                [row["step"], row["printedName"], row["account"], row["signedAt"], row["meaning"]]
                for row in signed_steps
            ],
        ],
        True,
    )
    state = (
        gettext("The record matches the signed hash.")
        if check["intact"]
        else gettext("The record changed after signing: %(n)s readings arrived later.", n=check["lateReadings"])
    )
    verification = (
        gettext("Verification"),
        [
            [gettext("File"), file.file_name],
            [gettext("Record hash (SHA-256)"), signature.record_hash],
            [gettext("Signature hash"), signature.signature_hash],
            [gettext("Record state"), state],
            [gettext("Verify at"), link],
        ],
        False,
    )
    by_channel: dict[int, list[int] | None] = {}
    for device_id, sensor in services.channels(file):
        if sensor is None:
            by_channel[device_id] = None
        elif by_channel.get(device_id, []) is not None:
            by_channel.setdefault(device_id, []).append(sensor)
    out = []
    for device_id, sensors in by_channel.items():
        device = db.session.get(Device, device_id)
        out.append(
            Subject(
                device,
                device_sensors(device, sensors),
                file.collect_begin,
                file.collect_end,
                title=file.file_name,
                extra={"sections": [manifestation, verification], "qr": link, "signatures": signed_steps},
            )
        )
    return out


def signature_rows(file: DataFile) -> list[dict[str, str]]:
    """Each step of the file as the PDF prints it (api/report/pdf signature_block): the manifestation
    of a signed step (printed name, user name with the stable account id, date and time with the zone,
    meaning); a step not signed yet says so, naming whom it is assigned to."""
    rows = []
    for step in workflow.steps_of(file):
        label = workflow.step_label(step)
        signature = step["signature"]
        if signature is None:
            waiting = (
                gettext("Pending: assigned to %(name)s", name=step["assignee"])
                if step["assignee"]
                else gettext("Pending")
            )
            rows.append({"step": label, "printedName": waiting, "account": "-", "signedAt": "-", "meaning": "-"})
            continue
        # A stable account id beside the name (§11.100: a name alone may have meant another person).
        account = (
            f"{signature['userName']} (#{signature['accountId']})"
            if signature["accountId"] is not None
            else signature["userName"]
        )
        rows.append(
            {
                "step": label,
                "printedName": signature["printedName"],
                "account": account,
                "signedAt": signature["signedAtText"],
                "meaning": signature["meaning"],
            }
        )
    return rows


# ---- the site's seal ------------------------------------------------------------------------------------


def seal_pdf(path: str, params: dict[str, Any]) -> dict[str, Any]:
    """Seal the written PDF in place with the site's seal and an RFC 3161 timestamp (PAdES, an
    incremental update; api/seals). The site is the one the file was rendered for (its link is
    printed). Answers what sealed it (subject, key id, timestamp time) for the record's snapshot."""
    legacy.absorb_installation_seal()  # the old unencrypted installation key leaves the exports folder
    sealed = seal_pdf_file(
        path,
        params["platformId"],
        field_name=SEAL_FIELD,
        reason=params.get("sealReason", "21 CFR Part 11 signed record"),
        location=params.get("sealLocation"),
    )
    return sealed.to_json()


# ---- what the signed file is rendered with ------------------------------------------------------------


def pdf_params(file: DataFile, requester: Account) -> dict[str, Any]:
    """Everything the signed PDF of a file is rendered with: window, zone, unit, language, seal."""
    return {
        "fdaFileId": file.id,
        "platformId": _site_platform_id(),
        "deviceIds": list(dict.fromkeys(d for d, _ in services.channels(file))),
        "start": file.collect_begin.isoformat(),
        "end": file.collect_end.isoformat(),
        "timeZone": file.time_zone,
        "unit": requester.temperature_unit or "C",
        "locale": request_locale(),
        "sealReason": f"21 CFR Part 11: {file.file_name}"[:100],
    }


def _site_platform_id() -> int:
    """The site the request came to: the verification link points there (a reseller's own domain)."""
    return current_platform().id


def stored_pdf(params: dict[str, Any]) -> bytes:
    """The frozen bytes of a signed record's version: served as they were sealed, never rendered again;
    refused if they no longer match the hash written at signing."""
    version = db.session.get(RecordVersion, params.get("recordVersionId") or 0)
    if version is None:
        raise ValueError(gettext("The signed record's stored version no longer exists."))
    if hashlib.sha256(version.pdf).hexdigest() != version.pdf_hash:
        raise ValueError(gettext("The stored signed record does not match its hash: it is not served."))
    return version.pdf


SIGNED_FILE_KIND = ReportKind(
    KIND, N_("FDA signed data file"), subjects, seal=seal_pdf, listed=False, stored=stored_pdf
)
