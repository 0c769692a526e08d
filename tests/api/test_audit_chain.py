"""The operation log is a hash chain (api/audit/chain.py): editing or deleting one row with SQL is
found by `flask audit verify`, which names exactly that entry; the periodic job alarms staff."""

from __future__ import annotations

import csv
import io
import itertools
import json

from sqlalchemy import select, text, update

from api.audit import chain
from api.audit import export as audit_export
from api.audit.jobs import verify_audit_chain
from api.audit.models import AuditChainHead, OperationLog
from api.extensions.db import db
from api.identity.models import StaffRole
from api.notify.models import OutboundMessage
from tests.api import report_helpers
from tests.api.account_helpers import auth, login, make_account
from tests.api.report_helpers import REPORT, files, pdf_text
from tests.api.trail_helpers import bypass_append_only

ORG = "/api/base/BaseOrganization"
files_dir = report_helpers.files_dir


def write_entries(app, client, count: int = 4) -> list[OperationLog]:
    make_account(app, user_name="chain_owner")
    headers = auth(login(client, "chain_owner"))
    for i in range(count):
        body = client.post(f"{ORG}/insert", json={"name": f"Site {i} north"}, headers=headers).get_json()
        assert body["code"] == 0, body
    with app.app_context():
        rows = db.session.scalars(select(OperationLog).order_by(OperationLog.seq)).all()
        db.session.expunge_all()
    assert len(rows) >= count
    return rows


def run_verify(app):
    return app.test_cli_runner().invoke(args=["audit", "verify"])


def test_entries_are_linked_and_the_intact_chain_verifies(app, client):
    rows = write_entries(app, client)
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert rows[0].prev_hash == chain.GENESIS
    for previous, entry in itertools.pairwise(rows):
        assert entry.prev_hash == previous.entry_hash
    result = run_verify(app)
    assert result.exit_code == 0, result.output
    assert f"{len(rows)} entries, chain intact" in result.output
    with app.app_context():
        head = db.session.get(AuditChainHead, rows[0].platform_id)
        assert (head.seq, head.last_hash) == (rows[-1].seq, rows[-1].entry_hash)


def test_an_edited_row_is_named(app, client):
    rows = write_entries(app, client)
    victim = rows[2]
    with app.app_context():
        bypass_append_only()
        db.session.execute(
            text("UPDATE operation_log SET user_name = 'someone_else' WHERE id = :id"), {"id": victim.id}
        )
        db.session.commit()
    result = run_verify(app)
    assert result.exit_code == 1
    assert f"entry #{victim.seq} (id {victim.id}): its content was changed" in result.output


def test_an_edited_value_inside_the_changes_is_named(app, client):
    rows = write_entries(app, client)
    victim = rows[1]
    with app.app_context():
        forged = [{"table": "organization", "id": "1", "values": {"name": "Forged"}}]
        bypass_append_only()
        db.session.execute(
            text("UPDATE operation_log SET after = CAST(:after AS json) WHERE id = :id"),
            {"after": json.dumps(forged), "id": victim.id},
        )
        db.session.commit()
    result = run_verify(app)
    assert result.exit_code == 1
    assert f"entry #{victim.seq} (id {victim.id}): its content was changed" in result.output


def test_a_deleted_row_is_named(app, client):
    rows = write_entries(app, client)
    victim = rows[1]
    with app.app_context():
        bypass_append_only()
        db.session.execute(text("DELETE FROM operation_log WHERE id = :id"), {"id": victim.id})
        db.session.commit()
    result = run_verify(app)
    assert result.exit_code == 1
    assert f"entry #{victim.seq} (no row): missing (the next entry present is #{rows[2].seq}" in result.output


def test_deleting_the_newest_row_is_named(app, client):
    rows = write_entries(app, client)
    with app.app_context():
        bypass_append_only()
        db.session.execute(text("DELETE FROM operation_log WHERE id = :id"), {"id": rows[-1].id})
        db.session.commit()
    result = run_verify(app)
    assert result.exit_code == 1
    assert f"entry #{rows[-1].seq} (no row): missing" in result.output


def test_a_rehashed_row_still_breaks_the_next_link(app, client):
    """Recomputing the edited row's own hash is not enough: the next entry points at the old one."""
    rows = write_entries(app, client)
    victim = rows[1]
    with app.app_context():
        entry = db.session.get(OperationLog, victim.id)
        db.session.expunge(entry)
        entry.user_name = "someone_else"
        forged_hash = chain.digest(entry, entry.prev_hash)
        bypass_append_only()
        db.session.execute(
            text("UPDATE operation_log SET user_name = 'someone_else', entry_hash = :h WHERE id = :id"),
            {"h": forged_hash, "id": victim.id},
        )
        db.session.commit()
    result = run_verify(app)
    assert result.exit_code == 1
    assert f"entry #{rows[2].seq} (id {rows[2].id}): its link to the previous entry is broken" in result.output


def test_the_periodic_job_alarms_staff_once(app, client):
    rows = write_entries(app, client)
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR, email="ops@example.com")
    with app.app_context():
        assert verify_audit_chain() == []
        bypass_append_only()
        db.session.execute(text("UPDATE operation_log SET path = '/elsewhere' WHERE id = :id"), {"id": rows[0].id})
        db.session.commit()
        breaks = verify_audit_chain()
        assert len(breaks) == 1 and f"id {rows[0].id}" in breaks[0]
        verify_audit_chain()
        sent = db.session.scalars(select(OutboundMessage).where(OutboundMessage.recipient == "ops@example.com")).all()
        assert len(sent) == 1 and "hash chain is broken" in sent[0].body


def test_the_trail_exports_as_csv_with_its_hashes(app, client):
    rows = write_entries(app, client, count=2)
    headers = auth(login(client, "chain_owner"))
    response = client.get(
        "/api/base/BaseOperationLog/export?userName=chain_owner", headers={**headers, "X-Timezone": "Asia/Shanghai"}
    )
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    lines = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert lines[0][0] == "Entry" and lines[0][-1] == "Entry hash"
    assert [line[-1] for line in lines[1:]] == [r.entry_hash for r in rows]
    assert all(line[1].endswith("+08:00") for line in lines[1:])
    assert lines[0][3] == "Account id" and "Site 0 north" in lines[1][10]
    nobody = client.get("/api/base/BaseOperationLog/export?userName=nobody_here", headers=headers)
    assert len(list(csv.reader(io.StringIO(nobody.data.decode("utf-8-sig"))))) == 1


def queue_pdf(client, headers, **filters) -> dict:
    return client.post("/api/base/BaseOperationLog/exportPdf", json=filters, headers=headers).get_json()


def generated_pdf(client, headers, queued: dict, run_jobs) -> str:
    """Run the queued job; the text of the file the download centre then serves."""
    assert queued["code"] == 0, queued
    assert queued["data"]["status"] == "generating" and queued["data"]["fileName"].startswith("audit-trail-")
    run_jobs()
    listed = {row["id"]: row for row in files(client, headers)}
    assert listed[queued["data"]["id"]]["status"] == "generated", listed[queued["data"]["id"]]
    response = client.get(f"{REPORT}/ExportFile/download/{queued['data']['id']}", headers=headers)
    assert response.status_code == 200 and response.mimetype == "application/pdf", response.data[:300]
    return pdf_text(response.data)


def test_the_trail_exports_as_a_numbered_pdf_with_every_entry(app, client, monkeypatch, files_dir, run_jobs):
    """A job lays the PDF out; the request only queues it, and the file lands in the download centre."""
    rows = write_entries(app, client, count=3)
    headers = {**auth(login(client, "chain_owner")), "X-Timezone": "Asia/Shanghai", "Accept-Language": "en-US"}
    queued = queue_pdf(client, headers, userName="chain_owner")
    text = generated_pdf(client, headers, queued, run_jobs)
    assert "Audit trail" in text and "Account: chain_owner" in text and "User: chain_owner" in text
    for row in rows:
        assert row.entry_hash in text.replace("\n", "").replace("\r", "")
    assert "Site 2 north" in text and "+08:00" in text
    assert f"page 1 of {text.count('page ')}" in text
    # Entries written after the request are not in the file: it is the trail as it was asked for.
    assert "Queue the audit trail" not in text

    # Wider than a PDF holds: refused with what to do, never a copy with entries left out.
    monkeypatch.setattr(audit_export, "PDF_LIMIT", 2)
    refused = queue_pdf(client, headers, userName="chain_owner")
    assert refused["code"] == audit_export.TOO_MANY_FOR_PDF
    assert refused["msg"] == "More than 2 entries match: narrow the time or user for a PDF, or export CSV."
    assert client.get("/api/base/BaseOperationLog/exportPdf", headers=headers).status_code == 405


def test_an_entry_longer_than_a_page_runs_over_pages(app, client, files_dir, run_jobs):
    """An entry can hold fifty changed rows: its values run over pages instead of breaking the PDF."""
    rows = write_entries(app, client, count=1)
    huge = [{"table": "device", "id": str(i), "values": {"remark": "x" * 400, "n": i}} for i in range(50)]
    with app.app_context():
        bypass_append_only()
        db.session.execute(update(OperationLog).where(OperationLog.id == rows[0].id).values(after=huge))
        db.session.commit()
    headers = {**auth(login(client, "chain_owner")), "Accept-Language": "en-US"}
    text = generated_pdf(client, headers, queue_pdf(client, headers, userName="chain_owner"), run_jobs)
    assert "page 1 of" in text and "page 2 of" in text
