"""Signing workflows (issue 45 finding 7; api/fda/workflow.py): an account's signing sequence (author,
reviewer, approver) is followed step by step, each step by a different person, never the creator for
a review or an approval; every signer sees the meanings of its step (a member too); the signed PDF
prints each manifestation (21 CFR 11.50: printed name, account id, date and time with zone, meaning)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from api.extensions.db import db
from api.fda.models import DataFile, RecordVersion, Signature
from tests.api.account_helpers import PASSWORD, auth, login, make_account
from tests.api.device_helpers import guids
from tests.api.fda_helpers import REASON, signing_sequence
from tests.api.org_helpers import ACCOUNT, ROLE, build_enterprise, member_ticket, ok
from tests.api.report_helpers import files_dir, load_readings, pdf_text
from tests.api.test_fda import BEGIN, EN, END, FDA, enable, entries
from tests.api.test_fda_frozen import signed_pdf, verify

__all__ = ["files_dir", "guids"]

ZH = {"Accept-Language": "zh-CN"}
ZONES = {"author": "Asia/Shanghai", "reviewer": "Europe/Berlin", "approver": "America/New_York"}


def add_signer(app, client, e, user_name: str, role_id: int) -> tuple[dict, int]:
    account_id = make_account(app, user_name=user_name, email=f"{user_name}@example.com")
    ok(
        client.post(
            f"{ACCOUNT}/organizationAddUser",
            json={"organizationId": e.branch, "ticket": member_ticket(client, e.owner, user_name), "roleId": role_id},
            headers=e.owner,
        )
    )
    return auth(login(client, user_name)), account_id


@pytest.fixture
def flow(app, client, guids):
    """demouser (FDA on) creates a file of its fridge; its sequence: author (any), reviewer
    (member_reviewer or member_admin), approver (member_approver only), each with its own meaning.
    member_admin is an Administrator member; the other two members hold a role with `fda` only."""
    e = build_enterprise(app, client, guids, members=("admin",))
    role = ok(client.post(f"{ROLE}/insert", json={"roleName": "QA signer", "permissions": ["fda"]}, headers=e.owner))
    reviewer, reviewer_id = add_signer(app, client, e, "member_reviewer", role["id"])
    approver, approver_id = add_signer(app, client, e, "member_approver", role["id"])
    device_id = e.devices["th_b"]
    load_readings(app, device_id, [4.0 + i % 5 for i in range(36)], step_s=600)
    assert enable(client, e.owner)["code"] == 0
    # FDA mode asks every change its reason (api/fda/records.py): the owner and its members give one.
    for headers in (e.owner, reviewer, approver, e.members["admin"]):
        headers.update(REASON)
    meanings = {
        name: ok(client.post(f"{FDA}/Endorsement/insert", json={"endorsementName": name}, headers=e.owner))["id"]
        for name in ("Authored", "Reviewed", "Approved")
    }
    checkers = ok(client.get(f"{FDA}/ElectronicSignature/checkers", headers=e.owner))
    owner_id = next(c["id"] for c in checkers if c["userName"] == "demouser")
    sequence = {
        "steps": [
            {"role": "author", "endorsementIds": [meanings["Authored"]]},
            {
                "role": "reviewer",
                "endorsementIds": [meanings["Reviewed"]],
                "signerIds": [reviewer_id, e.member_ids["admin"]],
            },
            {"role": "approver", "endorsementIds": [meanings["Approved"]], "signerIds": [approver_id]},
        ]
    }
    response = client.put(
        f"{FDA}/SigningSequence/update", json=sequence, headers={**e.owner, "X-Change-Reason": "SOP-7 signing"}
    ).get_json()
    assert response["code"] == 0, response
    data_file = ok(
        client.post(
            f"{FDA}/ElectronicSignature/insert",
            json={
                "fileName": "Fridge batch 9",
                "subjectType": "device",
                "subjectId": device_id,
                "collectBegin": BEGIN.isoformat(),
                "collectEnd": END.isoformat(),
            },
            headers=e.owner,
        )
    )
    return {
        "e": e,
        "file": data_file["id"],
        "meanings": meanings,
        "ids": {"demouser": owner_id, "member_reviewer": reviewer_id, "member_approver": approver_id},
        "headers": {"demouser": e.owner, "member_reviewer": reviewer, "member_approver": approver},
        "admin": (e.members["admin"], e.member_ids["admin"]),
    }


def assign(client, flow, checker_id, step=None, headers=None):
    body = {"id": flow["file"], "checkerId": checker_id, **({"step": step} if step else {})}
    return client.put(f"{FDA}/ElectronicSignature/assign", json=body, headers=headers or flow["e"].owner).get_json()


def sign(client, flow, headers, user_name, meaning, zone="Asia/Shanghai", **extra):
    return client.post(
        f"{FDA}/ElectronicSignature/sign",
        json={
            "id": flow["file"],
            "endorsementId": flow["meanings"][meaning],
            "checkUserName": user_name,
            "checkPassword": PASSWORD,
            **extra,
        },
        headers={**headers, "X-Timezone": zone},
    ).get_json()


def detail(client, flow, headers=None) -> dict:
    return ok(client.get(f"{FDA}/ElectronicSignature/detail/{flow['file']}", headers=headers or flow["e"].owner))


def meanings_of(client, flow, headers) -> list[str]:
    return [
        m["endorsementName"]
        for m in ok(client.get(f"{FDA}/ElectronicSignature/meanings/{flow['file']}", headers=headers))
    ]


def assign_all(client, flow) -> None:
    ids = flow["ids"]
    assert assign(client, flow, ids["demouser"])["code"] == 0  # the creator authors its own file
    assert assign(client, flow, ids["member_reviewer"], step=2)["code"] == 0
    assert assign(client, flow, ids["member_approver"], step=3)["code"] == 0


class TestTheSequence:
    def test_author_reviewer_approver_in_turn_then_signed_and_frozen(self, app, client, flow, files_dir, run_jobs):
        assign_all(client, flow)
        shown = detail(client, flow)
        assert [(s["role"], s["state"], s["assignee"]) for s in shown["steps"]] == [
            ("author", "current", "demouser"),
            ("reviewer", "pending", "member_reviewer"),
            ("approver", "pending", "member_approver"),
        ]
        names = {"author": "demouser", "reviewer": "member_reviewer", "approver": "member_approver"}
        meanings = {"author": "Authored", "reviewer": "Reviewed", "approver": "Approved"}
        for number, role in enumerate(("author", "reviewer", "approver"), start=1):
            headers = {**flow["headers"][names[role]], **EN}  # the PDF is rendered in the last signer's language
            assert meanings_of(client, flow, headers) == [meanings[role]]
            body = sign(client, flow, headers, names[role], meanings[role], zone=ZONES[role])
            assert body["code"] == 0, body
            data = body["data"]
            assert data["steps"][number - 1]["state"] == "signed"
            assert data["signState"] == ("signed" if role == "approver" else "in_review")
            if role != "approver":
                following = data["nextStep"]
                assert following["step"] == number + 1 and following["assignee"] == list(names.values())[number]
                assert data["signature"] is None  # not final yet
        final = detail(client, flow, {**flow["e"].owner, **EN})
        assert final["nextStep"] is None and final["integrity"]["intact"] is True
        manifestations = [s["signature"] for s in final["steps"]]
        assert [(m["printedName"], m["meaning"], m["timeZone"]) for m in manifestations] == [
            ("demouser", "Authored", "Asia/Shanghai"),
            ("member_reviewer", "Reviewed", "Europe/Berlin"),
            ("member_approver", "Approved", "America/New_York"),
        ]
        assert [m["accountId"] for m in manifestations] == [flow["ids"][n] for n in names.values()]
        assert "Europe/Berlin (UTC+01:00)" in manifestations[1]["signedAtText"]
        assert final["signature"]["meaning"] == "Approved" and final["signature"]["step"] == 3
        # A signer of an earlier step still reaches the file it signed.
        assert detail(client, flow, flow["headers"]["member_reviewer"])["signState"] == "signed"
        assert len(entries(app, "Signed record sealed: Fridge batch 9 version 1")) == 1  # frozen once, at the end
        public = verify(app, client, flow["file"])
        assert [s["meaning"] for s in public["signatures"]] == ["Authored", "Reviewed", "Approved"]

        # The signed PDF prints each manifestation: name, account id, time with zone, meaning, step.
        text = " ".join(pdf_text(signed_pdf(client, flow["e"].owner, flow["file"], run_jobs, **EN)).split())
        for step, manifestation in zip(final["steps"], manifestations, strict=True):
            expected = (
                manifestation["printedName"],
                f"{manifestation['userName']} (#{manifestation['accountId']})",
                " ".join(manifestation["signedAtText"].split()),
                manifestation["meaning"],
                f"Step {step['step']} ({step['roleName']})",
            )
            for part in expected:
                assert part in text, part
        assert "Prepared by" not in text and "Approved by" not in text  # no blank lines posing as a form
        # The frozen snapshot keeps every step's signature, so the seal binds the earlier steps too.
        with app.app_context():
            [version] = db.session.scalars(select(RecordVersion).where(RecordVersion.file_id == flow["file"])).all()
            steps = version.snapshot["steps"]
            hashes = db.session.scalars(
                select(Signature.signature_hash).where(Signature.file_id == flow["file"]).order_by(Signature.step)
            ).all()
        assert [(s["step"], s["role"], s["accountId"]) for s in steps] == [
            (1, "author", flow["ids"]["demouser"]),
            (2, "reviewer", flow["ids"]["member_reviewer"]),
            (3, "approver", flow["ids"]["member_approver"]),
        ]
        assert [s["signatureHash"] for s in steps] == hashes

    def test_a_later_step_is_refused_before_the_earlier_one(self, app, client, flow):
        assign_all(client, flow)
        approver = flow["headers"]["member_approver"]
        early = sign(client, flow, {**approver, **EN}, "member_approver", "Approved")
        assert early["code"] == 422 and "step" in early["data"]["errors"]
        assert "Step 3 (Approver) can be signed only after step 2 (reviewer)" in early["msg"]
        assert "步骤" in sign(client, flow, {**approver, **ZH}, "member_approver", "Approved")["msg"]
        assert sign(client, flow, flow["e"].owner, "demouser", "Authored")["code"] == 0
        # Naming a step that is not the current one is refused too, even by its assignee.
        reviewer = {**flow["headers"]["member_reviewer"], **EN}
        skipped = sign(client, flow, reviewer, "member_reviewer", "Reviewed", step=3)
        assert skipped["code"] == 422 and "step" in skipped["data"]["errors"]
        shown = detail(client, flow)
        assert [s["state"] for s in shown["steps"]] == ["signed", "current", "pending"]
        assert shown["signState"] == "in_review"

    def test_the_same_person_signs_only_one_step(self, client, flow):
        admin, admin_id = flow["admin"]
        assert assign(client, flow, admin_id)["code"] == 0  # the admin member authors
        ahead = assign(client, flow, admin_id, step=2, headers={**flow["e"].owner, **EN})
        assert ahead["code"] == 422 and "checkerId" in ahead["data"]["errors"]
        assert "different person" in ahead["msg"]
        assert sign(client, flow, admin, "member_admin", "Authored")["code"] == 0
        again = assign(client, flow, admin_id, headers={**flow["e"].owner, **EN})  # now the review step
        assert again["code"] == 422 and "different person" in again["msg"]
        assert detail(client, flow)["nextStep"]["assignee"] is None

    def test_the_creator_cannot_assign_itself_a_review_or_an_approval(self, client, flow):
        me = flow["ids"]["demouser"]
        for step in (2, 3):
            body = assign(client, flow, me, step=step, headers={**flow["e"].owner, **EN})
            assert body["code"] == 422 and "checkerId" in body["data"]["errors"]
            assert "The creator of a file cannot review or approve it." in body["msg"]
        zh = assign(client, flow, me, step=2, headers={**flow["e"].owner, **ZH})
        assert zh["code"] == 422 and "创建者" in zh["msg"]
        # The approver step is member_approver's only: nobody else is assigned to it.
        _, admin_id = flow["admin"]
        other = assign(client, flow, admin_id, step=3, headers={**flow["e"].owner, **EN})
        assert other["code"] == 422 and "may not sign step 3 (approver)" in other["msg"]

    def test_a_signer_is_refused_at_a_step_not_theirs_and_meanings_of_another_step(self, client, flow):
        assign_all(client, flow)
        stranger = sign(client, flow, flow["headers"]["member_reviewer"], "member_reviewer", "Reviewed")
        assert stranger["code"] == 422  # assigned to step 2: too early
        wrong_meaning = sign(client, flow, {**flow["e"].owner, **EN}, "demouser", "Approved")
        assert wrong_meaning["code"] == 422 and "endorsementId" in wrong_meaning["data"]["errors"]
        admin, _ = flow["admin"]
        url = f"{FDA}/ElectronicSignature/meanings/{flow['file']}"
        assert client.get(url, headers=admin).status_code == 404  # no step of its: the file is not its to see
        early = client.get(url, headers=flow["headers"]["member_reviewer"]).get_json()
        assert early["code"] == 422 and "step" in early["data"]["errors"]  # its step comes later


class TestMeanings:
    def test_a_member_checker_gets_the_owners_meanings_of_its_step(self, client, flow):
        admin, admin_id = flow["admin"]
        assert assign(client, flow, admin_id)["code"] == 0
        # The member's own endorsement list is empty: the dialog's meanings come from the file's step.
        assert (
            ok(client.post(f"{FDA}/Endorsement/page", json={"start": 1, "pageSize": 20}, headers=admin))["total"] == 0
        )
        assert meanings_of(client, flow, admin) == ["Authored"]
        assert sign(client, flow, admin, "member_admin", "Authored")["code"] == 0

    def test_a_step_without_named_meanings_offers_every_endorsement_of_the_owner(self, client, flow):
        signing_sequence(client, flow["e"].owner, "author", "approver")
        flow = {**flow}
        created = ok(
            client.post(
                f"{FDA}/ElectronicSignature/insert",
                json={
                    "fileName": "Open meanings",
                    "subjectId": flow["e"].devices["th_b"],
                    "collectBegin": BEGIN.isoformat(),
                    "collectEnd": END.isoformat(),
                },
                headers=flow["e"].owner,
            )
        )
        assert [s["role"] for s in created["steps"]] == ["author", "approver"]
        flow["file"] = created["id"]
        admin, admin_id = flow["admin"]
        assert assign(client, flow, admin_id)["code"] == 0
        assert meanings_of(client, flow, admin) == ["Authored", "Reviewed", "Approved"]


class TestSequenceConfiguration:
    def test_the_default_is_author_reviewer_approver(self, app, client, guids):
        e = build_enterprise(app, client, guids, members=())
        shown = ok(client.get(f"{FDA}/SigningSequence/get", headers={**e.owner, **EN}))
        assert shown["configured"] is False
        assert [(s["role"], s["roleName"]) for s in shown["steps"]] == [
            ("author", "Author"),
            ("reviewer", "Reviewer"),
            ("approver", "Approver"),
        ]

    def test_bad_steps_are_refused_naming_the_field(self, client, flow):
        owner = {**flow["e"].owner, **EN, "X-Change-Reason": "test"}
        empty = client.put(f"{FDA}/SigningSequence/update", json={"steps": []}, headers=owner).get_json()
        assert empty["code"] == 422 and "steps" in empty["data"]["errors"]
        unknown = client.put(
            f"{FDA}/SigningSequence/update",
            json={"steps": [{"role": "author", "endorsementIds": [999999]}]},
            headers=owner,
        ).get_json()
        assert unknown["code"] == 422 and "steps.0.endorsementIds" in unknown["data"]["errors"]
        stranger = client.put(
            f"{FDA}/SigningSequence/update",
            json={"steps": [{"role": "reviewer", "signerIds": [999999]}]},
            headers=owner,
        ).get_json()
        assert stranger["code"] == 422 and "steps.0.signerIds" in stranger["data"]["errors"]
        creator_only = client.put(
            f"{FDA}/SigningSequence/update",
            json={"steps": [{"role": "approver", "signerIds": [flow["ids"]["demouser"]]}]},
            headers=owner,
        ).get_json()
        assert creator_only["code"] == 422
        # Nothing stored was lost: the three steps stay.
        assert len(ok(client.get(f"{FDA}/SigningSequence/get", headers=owner))["steps"]) == 3

    def test_a_file_keeps_the_sequence_it_was_created_with(self, client, flow):
        signing_sequence(client, flow["e"].owner, "author")
        assert [s["role"] for s in detail(client, flow)["steps"]] == ["author", "reviewer", "approver"]


def test_a_file_from_before_sequences_is_signed_in_one_step(app, client, flow):
    with app.app_context():
        db.session.execute(update(DataFile).where(DataFile.id == flow["file"]).values(workflow=None))
        db.session.commit()
    _, admin_id = flow["admin"]
    admin, _ = flow["admin"]
    assert assign(client, flow, admin_id)["code"] == 0
    assert meanings_of(client, flow, admin) == ["Authored", "Reviewed", "Approved"]
    body = sign(client, flow, admin, "member_admin", "Approved")
    assert body["code"] == 0, body
    assert body["data"]["signState"] == "signed" and len(body["data"]["steps"]) == 1


def test_a_file_in_review_keeps_its_device_and_its_window(client, flow):
    """The author's signature already binds the record: the device cannot be deleted under it, and
    the window cannot change or the file be deleted while the later steps wait."""
    assign_all(client, flow)
    owner = {**flow["e"].owner, **EN}
    assert sign(client, flow, owner, "demouser", "Authored")["code"] == 0
    device_id = flow["e"].devices["th_b"]
    refused = client.delete(f"/api/device/Device/delete/{device_id}", headers=owner).get_json()
    assert refused["code"] == 4605 and "Fridge batch 9" in refused["msg"]
    moved = client.put(
        f"{FDA}/ElectronicSignature/update",
        json={
            "id": flow["file"],
            "fileName": "Fridge batch 9",
            "collectBegin": BEGIN.isoformat(),
            "collectEnd": (BEGIN + timedelta(hours=3)).isoformat(),
        },
        headers=owner,
    ).get_json()
    assert moved["code"] == 4602
    assert client.delete(f"{FDA}/ElectronicSignature/delete/{flow['file']}", headers=owner).get_json()["code"] == 4602
    assert detail(client, flow)["signState"] == "in_review"
