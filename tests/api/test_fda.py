"""FDA 21 CFR Part 11 (api/fda): FDA mode, endorsements, data files signed with user name and
password again, signatures bound to the record's hash, the sealed PDF and its verification link."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from asn1crypto import x509 as asn1_x509
from cryptography.hazmat.primitives import serialization
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko_certvalidator import ValidationContext
from sqlalchemy import select

from api.audit.models import OperationLog
from api.extensions.db import db
from api.seals import certificates
from tests.api.account_helpers import BASE, PASSWORD, auth, login, make_account
from tests.api.device_helpers import add, guids, owner
from tests.api.fda_helpers import REASON, signing_sequence
from tests.api.org_helpers import build_enterprise, ok
from tests.api.report_helpers import REPORT, START, files, files_dir, load_readings
from tests.api.test_storage import create as create_storage
from tests.api.test_storage import room

__all__ = ["files_dir", "guids", "owner", "room"]

FDA = "/api/fda"
EN = {"Accept-Language": "en-US"}
BEGIN, END = START, START + timedelta(hours=6)


def enable(client, headers, enabled=True, password=PASSWORD, user_name="demouser"):
    return client.put(
        f"{FDA}/FdaConfig/update",
        json={"enabled": enabled, "reason": "GxP records", "checkUserName": user_name, "checkPassword": password},
        headers=headers,
    ).get_json()


def entries(app, summary_part: str) -> list[OperationLog]:
    with app.app_context():
        rows = db.session.scalars(
            select(OperationLog).where(OperationLog.summary.contains(summary_part)).order_by(OperationLog.id)
        ).all()
        db.session.expunge_all()
        return rows


@pytest.fixture
def world(app, client, guids):
    """demouser (FDA on, one-step signing) with a device and six hours of readings, an endorsement and
    a data file assigned to its organisation's admin member."""
    e = build_enterprise(app, client, guids, members=("admin",))
    device_id = e.devices["th_b"]
    load_readings(app, device_id, [4.0 + i % 5 for i in range(36)], step_s=600)
    assert enable(client, e.owner)["code"] == 0
    signing_sequence(client, e.owner, "approver")  # one signature makes it signed (sequences: test_sign_workflow)
    endorsement = ok(
        client.post(
            f"{FDA}/Endorsement/insert",
            json={"endorsementName": "Approved", "description": "QA approval of the record"},
            headers={**e.owner, **REASON},
        )
    )
    data_file = ok(
        client.post(
            f"{FDA}/ElectronicSignature/insert",
            json={
                "fileName": "Fridge March batch 7",
                "subjectType": "device",
                "subjectId": device_id,
                "collectBegin": BEGIN.isoformat(),
                "collectEnd": END.isoformat(),
            },
            headers={**e.owner, **REASON},
        )
    )
    assigned = ok(
        client.put(
            f"{FDA}/ElectronicSignature/assign",
            json={"id": data_file["id"], "checkerId": e.member_ids["admin"]},
            headers={**e.owner, **REASON},
        )
    )
    assert assigned["assignState"] == "assigned" and assigned["checker"] == "member_admin"
    return {"e": e, "device": device_id, "endorsement": endorsement["id"], "file": data_file["id"]}


def sign(client, headers, world, password=PASSWORD, user_name="member_admin", **extra):
    return client.post(
        f"{FDA}/ElectronicSignature/sign",
        json={
            "id": world["file"],
            "endorsementId": world["endorsement"],
            "checkUserName": user_name,
            "checkPassword": password,
            **extra,
        },
        headers={**headers, "X-Timezone": "America/New_York"},
    ).get_json()


class TestFdaMode:
    def test_turning_it_on_and_off_is_signed_and_audited_with_the_reason(self, app, client):
        make_account(app)
        owner = auth(login(client))
        assert ok(client.get(f"{FDA}/FdaConfig/get", headers=owner))["enabled"] is False
        refused = enable(client, {**owner, **EN}, password="Wrong#2026")
        assert refused["code"] == 1001 and refused["msg"] == "Incorrect account or password."
        assert ok(client.get(f"{FDA}/FdaConfig/get", headers=owner))["enabled"] is False
        assert [e.user_name for e in entries(app, "Electronic signature refused: FDA mode on")] == ["demouser"]
        body = enable(client, owner)
        assert body["code"] == 0 and body["data"]["enabled"] is True and body["data"]["changedBy"] == "demouser"
        turned_on = [e for e in entries(app, "Turn FDA mode on or off") if e.reason == "GxP records"]
        assert len(turned_on) == 1 and turned_on[0].entry_hash
        # Off takes a second person's signature (tests/api/test_fda_mode_off.py): asked, still on.
        asked = enable(client, owner, enabled=False)["data"]
        assert asked["enabled"] is True and asked["pendingOff"]["reason"] == "GxP records"

    def test_the_reason_and_both_credentials_are_required(self, client, app):
        make_account(app)
        owner = auth(login(client))
        body = client.put(f"{FDA}/FdaConfig/update", json={"enabled": True}, headers=owner).get_json()
        assert body["code"] == 422
        assert set(body["data"]["errors"]) >= {"reason", "checkUserName", "checkPassword"}

    def test_someone_elses_credentials_do_not_sign(self, app, client):
        make_account(app)
        make_account(app, user_name="colleague")
        owner = auth(login(client))
        body = enable(client, {**owner, **EN}, user_name="colleague")
        assert body["code"] == 422 and "checkUserName" in body["data"]["errors"]
        assert len(entries(app, "Electronic signature refused")) == 1


class TestEndorsements:
    def test_crud_and_limits(self, app, client):
        make_account(app)
        owner = auth(login(client))
        created = ok(
            client.post(
                f"{FDA}/Endorsement/insert", json={"endorsementName": "Reviewed", "description": "d"}, headers=owner
            )
        )
        too_long = client.post(
            f"{FDA}/Endorsement/insert", json={"endorsementName": "x" * 51}, headers={**owner, **EN}
        ).get_json()
        assert too_long["code"] == 422 and "endorsementName" in too_long["data"]["errors"]
        duplicate = client.post(
            f"{FDA}/Endorsement/insert", json={"endorsementName": "Reviewed"}, headers={**owner, **EN}
        ).get_json()
        assert duplicate["code"] == 422
        assert duplicate["data"]["errors"]["endorsementName"] == ["An endorsement with this name already exists."]
        ok(
            client.put(
                f"{FDA}/Endorsement/update",
                json={"id": created["id"], "endorsementName": "Reviewed by QA", "description": ""},
                headers=owner,
            )
        )
        page = ok(client.post(f"{FDA}/Endorsement/page", json={}, headers=owner))
        assert [r["endorsementName"] for r in page["list"]] == ["Reviewed by QA"]
        ok(client.delete(f"{FDA}/Endorsement/delete/{created['id']}", headers=owner))
        assert ok(client.post(f"{FDA}/Endorsement/page", json={}, headers=owner))["total"] == 0

    def test_another_accounts_endorsement_is_not_found(self, app, client):
        make_account(app)
        make_account(app, user_name="stranger_1")
        owner, stranger = auth(login(client)), auth(login(client, "stranger_1"))
        created = ok(client.post(f"{FDA}/Endorsement/insert", json={"endorsementName": "Approved"}, headers=owner))
        body = client.delete(f"{FDA}/Endorsement/delete/{created['id']}", headers=stranger).get_json()
        assert body["code"] == 404


class TestDataFiles:
    def test_a_file_needs_fda_mode_a_valid_window_and_an_own_device(self, app, client, guids):
        make_account(app)
        make_account(app, user_name="stranger_1")
        owner, stranger = auth(login(client)), auth(login(client, "stranger_1"))
        device_id = add(client, owner, guids["th_a"][0])
        payload = {
            "fileName": "Batch",
            "subjectId": device_id,
            "collectBegin": BEGIN.isoformat(),
            "collectEnd": END.isoformat(),
        }
        body = client.post(f"{FDA}/ElectronicSignature/insert", json=payload, headers={**owner, **EN}).get_json()
        assert body["code"] == 4601 and body["msg"] == "FDA mode is not enabled for this account."
        assert enable(client, owner)["code"] == 0
        backwards = {**payload, "collectEnd": (BEGIN - timedelta(hours=1)).isoformat()}
        owner = {**owner, **REASON}
        body = client.post(f"{FDA}/ElectronicSignature/insert", json=backwards, headers={**owner, **EN}).get_json()
        assert body["code"] == 422 and "collectEnd" in body["data"]["errors"]
        make_account(app, user_name="stranger_1")
        assert enable(client, stranger, user_name="stranger_1")["code"] == 0
        body = client.post(f"{FDA}/ElectronicSignature/insert", json=payload, headers={**stranger, **REASON}).get_json()
        assert body["code"] == 422 and "subjectId" in body["data"]["errors"]
        created = ok(client.post(f"{FDA}/ElectronicSignature/insert", json=payload, headers=owner))
        assert created["assignState"] == "unassigned" and created["signState"] == "unsigned"
        assert created["creator"] == "demouser"

    def test_only_yourself_or_a_member_can_be_the_checker(self, app, client, world):
        e = world["e"]
        stranger_id = make_account(app, user_name="stranger_1")
        checkers = ok(client.get(f"{FDA}/ElectronicSignature/checkers", headers=e.owner))
        assert {c["userName"] for c in checkers} == {"demouser", "member_admin"}
        body = client.put(
            f"{FDA}/ElectronicSignature/assign",
            json={"id": world["file"], "checkerId": stranger_id},
            headers={**e.owner, **REASON},
        ).get_json()
        assert body["code"] == 422 and "checkerId" in body["data"]["errors"]

    def test_other_accounts_cannot_see_assign_or_sign(self, app, client, world):
        make_account(app, user_name="stranger_1")
        stranger = auth(login(client, "stranger_1"))
        file_id = world["file"]
        assert client.get(f"{FDA}/ElectronicSignature/detail/{file_id}", headers=stranger).get_json()["code"] == 404
        body = client.put(
            f"{FDA}/ElectronicSignature/assign", json={"id": file_id, "checkerId": 1}, headers=stranger
        ).get_json()
        assert body["code"] == 404
        assert sign(client, stranger, world, user_name="stranger_1")["code"] == 404
        assert ok(client.post(f"{FDA}/ElectronicSignature/page", json={}, headers=stranger))["total"] == 0


class TestSigning:
    def test_a_wrong_password_is_refused_localized_and_audited(self, app, client, world):
        checker = world["e"].members["admin"]
        body = sign(client, {**checker, **EN}, world, password="Wrong#2026")
        assert body["code"] == 1001 and body["msg"] == "Incorrect account or password."
        body = sign(client, checker, world, password="Wrong#2026")
        assert body["msg"] == "账号或密码错误。"
        refused = entries(app, "Electronic signature refused: sign Fridge March batch 7")
        assert len(refused) == 2 and refused[0].user_name == "member_admin"
        assert refused[0].after[0]["values"]["reason"] == "Incorrect account or password."
        detail = ok(client.get(f"{FDA}/ElectronicSignature/detail/{world['file']}", headers=checker))
        assert detail["signState"] == "unsigned" and detail["signature"] is None

    def test_five_wrong_passwords_lock_signing_and_sign_in(self, app, client, world):
        checker = {**world["e"].members["admin"], **EN}
        for _ in range(4):
            assert sign(client, checker, world, password="Wrong#2026")["code"] == 1001
        locked = sign(client, checker, world, password="Wrong#2026")
        # Locked and signed out (tests/api/test_fda_signing_lock.py); password sign-in is locked too.
        assert locked["code"] == 2010 and "signing is locked" in locked["msg"]
        assert (
            client.post(f"{BASE}/login", json={"userName": "member_admin", "password": PASSWORD}).get_json()["code"]
            == 429
        )
        assert len(entries(app, "Electronic signature refused")) == 5

    def test_only_the_checker_signs(self, client, world):
        body = sign(client, world["e"].owner, world, user_name="demouser")
        assert body["code"] == 4603

    def test_the_right_password_records_name_time_zone_and_meaning(self, app, client, world):
        checker = world["e"].members["admin"]
        body = sign(client, checker, world, reason="Batch release")
        assert body["code"] == 0, body
        data = body["data"]
        signature = data["signature"]
        assert data["signState"] == "signed"
        assert signature["printedName"] == "member_admin" and signature["meaning"] == "Approved"
        assert signature["meaningDescription"] == "QA approval of the record"
        assert signature["timeZone"] == "America/New_York"
        assert signature["signedAtText"].startswith(signature["signedAt"][:10])
        assert "America/New_York (UTC-0" in signature["signedAtText"]
        assert signature["signedAt"].endswith(("-05:00", "-04:00"))
        assert signature["readings"] == 36 and len(signature["recordHash"]) == 64
        assert data["integrity"] == {
            "intact": True,
            "signatureValid": True,
            "currentHash": signature["recordHash"],
            "currentReadings": 36,
            "lateReadings": 0,
        }
        signed = [e for e in entries(app, "Sign a data file assigned to you") if e.reason == "Batch release"]
        assert len(signed) == 1 and "fda_signature" in signed[0].target
        assert sign(client, checker, world)["code"] == 4602  # once

    def test_a_signed_window_cannot_change_and_late_readings_are_flagged(self, app, client, world):
        e = world["e"]
        assert sign(client, e.members["admin"], world)["code"] == 0
        body = client.put(
            f"{FDA}/ElectronicSignature/update",
            json={
                "id": world["file"],
                "fileName": "Other",
                "collectBegin": BEGIN.isoformat(),
                "collectEnd": (END + timedelta(hours=1)).isoformat(),
            },
            headers={**e.owner, **EN, **REASON},
        ).get_json()
        assert body["code"] == 4602 and body["msg"] == "A signed file cannot be changed."
        assert (
            client.delete(
                f"{FDA}/ElectronicSignature/delete/{world['file']}", headers={**e.owner, **REASON}
            ).get_json()["code"]
            == 4602
        )
        # A reading arrives late inside the signed window: kept, and the signed record shows it.
        load_readings(app, world["device"], [9.9], start=BEGIN + timedelta(minutes=5), live=False)
        detail = ok(client.get(f"{FDA}/ElectronicSignature/detail/{world['file']}", headers=e.owner))
        assert detail["integrity"]["intact"] is False
        assert detail["integrity"]["lateReadings"] == 1 and detail["integrity"]["currentReadings"] == 37
        assert detail["signature"]["readings"] == 36


class TestSignedPdf:
    def test_the_sealed_pdf_validates_and_one_changed_byte_breaks_it(self, app, client, world, files_dir, run_jobs):
        e = world["e"]
        checker = e.members["admin"]
        assert (
            client.post(f"{FDA}/ElectronicSignature/pdf", json={"fileId": world["file"]}, headers=checker).get_json()[
                "code"
            ]
            == 4603
        )  # not signed yet
        assert sign(client, checker, world)["code"] == 0
        queued = ok(client.post(f"{FDA}/ElectronicSignature/pdf", json={"fileId": world["file"]}, headers=checker))
        run_jobs()
        row = files(client, checker)[0]
        assert row["id"] == queued["id"] and row["status"] == "generated", row
        response = client.get(f"{REPORT}/ExportFile/download/{row['id']}", headers=checker)
        pdf = response.data
        assert pdf.startswith(b"%PDF")
        with app.app_context():  # the site's seal chains to the installation's seal root
            root = certificates.certificate_of(certificates.root_seal())
        cert = asn1_x509.Certificate.load(root.public_bytes(serialization.Encoding.DER))
        assert validation(pdf, cert) == (True, True)
        tampered = bytearray(pdf)
        position = pdf.index(b"stream") + 40  # inside the first content stream, covered by the seal
        tampered[position] ^= 0x01
        assert validation(bytes(tampered), cert)[0] is False

        # The verification link (public) confirms signer, time, meaning and the document's hash.
        detail = ok(client.get(f"{FDA}/ElectronicSignature/detail/{world['file']}", headers=checker))
        with app.app_context():
            from api.fda.models import DataFile

            code = db.session.get(DataFile, world["file"]).verify_code
        public = ok(client.get(f"{FDA}/ElectronicSignature/verify?code={code}"))
        assert public["signature"]["printedName"] == "member_admin" and public["signature"]["meaning"] == "Approved"
        assert public["integrity"]["intact"] is True
        assert public["documentHash"] == response.headers["X-Content-SHA256"]
        assert detail["exportFileId"] == row["id"]
        assert client.get(f"{FDA}/ElectronicSignature/verify?code=notacode123").get_json()["code"] == 404


def validation(pdf: bytes, cert) -> tuple[bool, bool]:
    """(intact, valid) of the PDF's seal, trusting the platform's certificate."""
    reader = PdfFileReader(io.BytesIO(pdf))
    signature = reader.embedded_signatures[0]
    try:
        status = validate_pdf_signature(signature, ValidationContext(trust_roots=[cert]))
    except Exception:  # a damaged byte range may not even parse: not intact
        return False, False
    return status.intact, status.valid


class TestStorageFiles:
    def test_a_storage_file_covers_its_probes_only(self, app, client, owner, room):
        assert enable(client, owner)["code"] == 0
        owner = {**owner, **REASON}
        signing_sequence(client, owner, "author")
        storage = create_storage(client, owner, room["guid"])
        endorsement = ok(client.post(f"{FDA}/Endorsement/insert", json={"endorsementName": "Reviewed"}, headers=owner))
        now = datetime.now(UTC)
        data_file = ok(
            client.post(
                f"{FDA}/ElectronicSignature/insert",
                json={
                    "fileName": "Room A last hour",
                    "subjectType": "storage",
                    "subjectId": storage["id"],
                    "collectBegin": (now - timedelta(hours=1)).isoformat(),
                    "collectEnd": (now + timedelta(minutes=1)).isoformat(),
                },
                headers=owner,
            )
        )
        me = ok(client.get(f"{FDA}/ElectronicSignature/checkers", headers=owner))[0]["id"]
        ok(
            client.put(
                f"{FDA}/ElectronicSignature/assign", json={"id": data_file["id"], "checkerId": me}, headers=owner
            )
        )
        world = {"file": data_file["id"], "endorsement": endorsement["id"]}
        signed = sign(client, owner, world, user_name="demouser")
        assert signed["code"] == 0, signed
        # The controller sent four probe readings and six state channels: the file holds the probes.
        assert signed["data"]["signature"]["readings"] == 4
