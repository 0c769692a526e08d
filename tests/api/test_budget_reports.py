"""The stability budget and the disposition on the trip report and the storage report (PDF text read
back, as the other report tests do)."""

from __future__ import annotations

from datetime import timedelta

from tests.api import account_helpers, report_helpers
from tests.api.budget_helpers import B, ok, profile_body
from tests.api.device_helpers import guids, owner
from tests.api.report_helpers import REPORT, files, pdf_text
from tests.api.test_budget import trip
from tests.api.test_budget_lots import placed_lot
from tests.api.test_storage import room
from tests.api.waybill_helpers import W, shipper, trackers

__all__ = ["guids", "owner", "room", "shipper", "trackers"]
providers, files_dir = account_helpers.providers, report_helpers.files_dir
EN = {"Accept-Language": "en-US"}


def flat_pdf(client, headers, file_id) -> str:
    response = client.get(f"{REPORT}/ExportFile/download/{file_id}", headers=headers)
    assert response.status_code == 200
    return " ".join(pdf_text(response.data).split())


def test_the_trip_report_prints_the_budget_and_the_disposition(app, client, shipper, trackers, files_dir, run_jobs):
    waybill, _start = trip(app, client, shipper, trackers)
    profile = ok(client.post(f"{B}/StabilityProfile/insert", json=profile_body(), headers=shipper))
    assign = {"waybillId": waybill["id"], "profileId": profile["id"]}
    ok(client.put(f"{B}/WaybillBudget/assign", json=assign, headers=shipper))
    dispose = {"id": waybill["id"], "disposition": "quarantined", "reason": "Below 0 C for 10 min"}
    ok(client.put(f"{W}/Waybill/dispose", json=dispose, headers=shipper))
    report = ok(
        client.post(f"{W}/Waybill/report", json={"id": waybill["id"], "fileType": "pdf"}, headers={**shipper, **EN})
    )
    run_jobs()
    assert {row["id"]: row for row in files(client, shipper)}[report["id"]]["status"] == "generated"
    text = flat_pdf(client, {**shipper, **EN}, report["id"])
    assert "Stability budget" in text and "Vaccine 2-8" in text
    assert "8 < t ≤ 25 °C 72 h 0 min 10 min (0.2 %) 71 h 50 min" in text, text[text.index("Stability bands") :][:300]
    assert "< 0 °C 0 min 10 min (100 %) exhausted 0 min" in text
    assert "Quarantined" in text and "Below 0 C for 10 min" in text


def test_the_storage_report_prints_its_lots_budgets(app, client, owner, room, files_dir, run_jobs):
    profile = ok(client.post(f"{B}/StabilityProfile/insert", json=profile_body(mktLimit=None), headers=owner))
    lot, start = placed_lot(app, client, owner, room, profile["id"])
    signed = {"id": lot["id"], "disposition": "released"}
    ok(client.put(f"{B}/Lot/dispose", json=signed, headers=owner))
    span = {"startTime": start.isoformat(), "endTime": (start + timedelta(minutes=90)).isoformat()}
    body = {"storageId": lot["storageId"], **span, "fileType": "pdf"}
    report = ok(client.post("/api/storage/ColdStorage/report", json=body, headers={**owner, **EN}))
    run_jobs()
    text = flat_pdf(client, owner, report["id"])
    assert "Lots and stability budgets" in text and "Insulin pens L-2026-11 × 400" in text
    assert "8 < t ≤ 25 °C: 30 min / 72 h 0 min" in text and "Released" in text
