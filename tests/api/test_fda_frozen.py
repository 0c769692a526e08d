"""A signed record is fixed at signing (21 CFR 11.70, issue 45 finding 1): the signed PDF and a snapshot
of what it printed are stored at signing; changing the world afterwards (limits, device name, time
zone, the device deleted) moves neither the served bytes nor the verify page; a reading row changed in
the database is reported as a mismatch; a device with signed records cannot be deleted."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from urllib.parse import quote

from sqlalchemy import delete, func, select, update

from api.audit.models import OperationLog
from api.extensions.db import db
from api.extensions.reasons import REASON_HEADER
from api.fda.models import DataFile, RecordVersion, SignedChannel
from api.telemetry.models import Reading
from tests.api.org_helpers import ok
from tests.api.report_helpers import REPORT, files, files_dir, pdf_text, set_device
from tests.api.test_fda import BEGIN, EN, FDA, entries, guids, sign, world
from tests.api.trail_helpers import bypass_append_only

__all__ = ["files_dir", "guids", "world"]

REASON = {REASON_HEADER: quote("SOP-12 rev 4")}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def save_limits(client, headers, device_id, upper, lower=2.0):
    body = {"deviceId": device_id, "limits": [{"sensor": 1, "upperLimit": upper, "lowerLimit": lower}]}
    return ok(client.post("/api/alarm/SensorLimit/save", json=body, headers={**headers, **EN, **REASON}))


def signed_pdf(client, headers, file_id, run_jobs, **extra) -> bytes:
    """Ask for the signed PDF (download centre), run the job, download it; its hash is checked."""
    queued = ok(client.post(f"{FDA}/ElectronicSignature/pdf", json={"fileId": file_id}, headers={**headers, **extra}))
    run_jobs()
    [row] = [r for r in files(client, headers) if r["id"] == queued["id"]]
    assert row["status"] == "generated", row
    response = client.get(f"{REPORT}/ExportFile/download/{row['id']}", headers=headers)
    assert response.status_code == 200
    assert response.headers["X-Content-SHA256"] == sha(response.data)
    return response.data


def verify(app, client, file_id) -> dict:
    with app.app_context():
        code = db.session.get(DataFile, file_id).verify_code
    return ok(client.get(f"{FDA}/ElectronicSignature/verify?code={code}", headers=EN))


def signed_world(app, client, world, run_jobs):
    """Limits 2-8 on the Own Fridge (its first: in force over the window; readings 4-8: no excursion),
    the file signed, its PDF downloaded."""
    e = world["e"]
    save_limits(client, e.owner, world["device"], upper=8.0)
    assert sign(client, e.members["admin"], world)["code"] == 0
    pdf = signed_pdf(client, e.owner, world["file"], run_jobs)
    return e, pdf, verify(app, client, world["file"])


class TestFrozenAtSigning:
    def test_limits_name_and_time_zone_changed_afterwards_move_nothing(self, app, client, world, files_dir, run_jobs):
        e, pdf, before = signed_world(app, client, world, run_jobs)
        [version] = before["versions"]
        assert version["version"] == 1 and version["intact"] is True
        assert version["pdfHash"] == sha(pdf) == before["documentHash"]
        assert version["deviceNames"] == ["Own Fridge"] and version["readings"] == 36
        assert version["recordHash"] == before["signature"]["recordHash"]
        [sensor] = [s for s in version["sensors"] if s["upper"] is not None]  # the temperature
        assert (sensor["upper"], sensor["lower"], sensor["excursions"]) == (8.0, 2.0, 0)
        text = pdf_text(pdf)
        assert "Own Fridge" in text and "8.0" in text
        # The manifestation names the signer with a stable account id (§11.100).
        assert f"member_admin (#{e.member_ids['admin']})" in text.replace("\n", " ")
        # The trail names the sealed version with its hashes, and carries no copy of the PDF.
        [sealed] = entries(app, "Signed record sealed: Fridge March batch 7 version 1")
        assert sealed.after[0]["values"]["pdfSha256"] == version["pdfHash"]
        with app.app_context():
            trail = db.session.scalars(select(OperationLog.after)).all()
        assert not any("%PDF" in json.dumps(after) for after in trail)

        # After signing: the upper limit lowered (the 8.0 readings would be 7 excursions), the device
        # renamed and moved to another zone; the PDF asked for again in another zone and language.
        save_limits(client, e.owner, world["device"], upper=7.5)
        renamed = client.put(
            "/api/device/Device/update",
            json={"deviceId": world["device"], "deviceName": "Pharmacy B", "timeZone": "Asia/Tokyo"},
            headers={**e.owner, **EN, **REASON},
        ).get_json()
        assert renamed["code"] == 0, renamed
        again = signed_pdf(client, e.owner, world["file"], run_jobs, **{"X-Timezone": "Asia/Tokyo", **EN})
        assert again == pdf and sha(again) == version["pdfHash"]
        assert "Pharmacy B" not in pdf_text(again)

        after = verify(app, client, world["file"])
        assert after["versions"] == before["versions"]  # still one version, same hashes, same snapshot
        assert after["integrity"]["intact"] is True and after["documentHash"] == sha(pdf)

    def test_a_reading_changed_in_the_database_is_a_mismatch(self, app, client, world, files_dir, run_jobs):
        e, pdf, before = signed_world(app, client, world, run_jobs)
        with app.app_context():
            changed = db.session.execute(
                update(Reading)
                .where(Reading.device_id == world["device"], Reading.ts == BEGIN + timedelta(minutes=20))
                .values(value=5.5)
            ).rowcount
            db.session.commit()
        assert changed == 1
        after = verify(app, client, world["file"])
        assert after["integrity"]["intact"] is False
        assert after["integrity"]["currentHash"] != after["signature"]["recordHash"]
        assert after["integrity"]["lateReadings"] == 0  # not a late reading: an altered one
        # What was signed is still there, as it was: the stored version and its bytes.
        assert after["versions"] == before["versions"] and after["versions"][0]["intact"] is True
        assert signed_pdf(client, e.owner, world["file"], run_jobs) == pdf

    def test_stored_bytes_altered_in_the_database_are_not_served(self, app, client, world, files_dir, run_jobs):
        e, pdf, _before = signed_world(app, client, world, run_jobs)
        with app.app_context():
            bypass_append_only()
            db.session.execute(
                update(RecordVersion)
                .where(RecordVersion.file_id == world["file"])
                .values(pdf=pdf.replace(b"8.0", b"7.5"))
            )
            db.session.commit()
        after = verify(app, client, world["file"])
        assert after["versions"][0]["intact"] is False
        queued = ok(client.post(f"{FDA}/ElectronicSignature/pdf", json={"fileId": world["file"]}, headers=e.owner))
        run_jobs()
        [row] = [r for r in files(client, e.owner) if r["id"] == queued["id"]]
        assert row["status"] == "failed"

    def test_a_file_signed_before_freezing_is_frozen_once_and_says_so(self, app, client, world, files_dir, run_jobs):
        e, _pdf, _before = signed_world(app, client, world, run_jobs)
        with app.app_context():  # as a file signed before records were frozen
            bypass_append_only()
            db.session.execute(delete(RecordVersion).where(RecordVersion.file_id == world["file"]))
            db.session.execute(delete(SignedChannel).where(SignedChannel.file_id == world["file"]))
            db.session.commit()
        first = signed_pdf(client, e.owner, world["file"], run_jobs)
        second = signed_pdf(client, e.owner, world["file"], run_jobs)
        assert first == second
        [version] = verify(app, client, world["file"])["versions"]
        assert version["pdfHash"] == sha(first) and version["intact"] is True
        assert version["reason"].startswith("Rendered after signing")
        with app.app_context():  # its channels are fixed now too: a later deletion cannot empty it
            fixed = db.session.scalars(select(SignedChannel.device_id).where(SignedChannel.file_id == world["file"]))
            assert list(fixed) == [world["device"]]


class TestSignedDevice:
    def test_it_cannot_be_deleted_and_its_record_survives_a_deletion(self, app, client, world, files_dir, run_jobs):
        e, pdf, before = signed_world(app, client, world, run_jobs)
        device_id = world["device"]
        unexplained = client.delete(f"/api/device/Device/delete/{device_id}", headers={**e.owner, **EN}).get_json()
        assert unexplained["code"] == 4604, unexplained  # FDA mode: no reason, no deletion (finding 6)
        refused = client.delete(
            f"/api/device/Device/delete/{device_id}", headers={**e.owner, **EN, **REASON}
        ).get_json()
        assert refused["code"] == 4605, refused
        assert "Fridge March batch 7" in refused["msg"] and "Scrap it instead" in refused["msg"]
        chinese = client.delete(f"/api/device/Device/delete/{device_id}", headers={**e.owner, **REASON}).get_json()
        assert chinese["code"] == 4605 and "Fridge March batch 7" in chinese["msg"] and "报废" in chinese["msg"]
        batch = ok(
            client.post(
                "/api/device/Device/batch",
                json={"action": "delete", "deviceIds": [device_id]},
                headers={**e.owner, **EN, **REASON},
            )
        )
        assert batch == [{"deviceId": device_id, "ok": False, "msg": refused["msg"]}]
        with app.app_context():
            from api.device.models import Device

            assert db.session.scalar(select(Device.deleted).where(Device.id == device_id)) is False

        # Deleted anyway (directly in the database): the record is checked on the channels fixed at
        # signing, and the stored PDF is still served.
        set_device(app, device_id, deleted=True)
        after = verify(app, client, world["file"])
        assert after["integrity"]["intact"] is True and after["integrity"]["currentReadings"] == 36
        assert after["versions"] == before["versions"]
        assert signed_pdf(client, e.owner, world["file"], run_jobs) == pdf

    def test_scrap_keeps_it_and_its_history(self, app, client, world, files_dir, run_jobs):
        e, _pdf, _before = signed_world(app, client, world, run_jobs)
        scrapped = client.put(f"/api/device/Device/scrap/{world['device']}", headers={**e.owner, **REASON}).get_json()
        assert scrapped["code"] == 0, scrapped
        assert verify(app, client, world["file"])["integrity"]["intact"] is True

    def test_a_file_whose_device_is_gone_is_not_signed(self, app, client, world, files_dir):
        e = world["e"]
        deleted = client.delete(f"/api/device/Device/delete/{world['device']}", headers={**e.owner, **REASON})
        assert deleted.get_json()["code"] == 0  # nothing signed yet: deleting is allowed
        body = sign(client, {**e.members["admin"], **EN}, world)
        assert body["code"] == 422 and body["data"]["errors"]["id"] == [
            "The device of this file no longer exists: it cannot be signed."
        ]
        detail = ok(client.get(f"{FDA}/ElectronicSignature/detail/{world['file']}", headers=e.owner))
        assert detail["signState"] == "unsigned" and detail["signature"] is None
        with app.app_context():
            assert db.session.scalar(select(func.count()).select_from(RecordVersion)) == 0
