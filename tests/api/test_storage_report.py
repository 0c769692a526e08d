"""Issue 20: storage reports through the export machinery: a storage's probes over a window as PDF /
CSV in the download centre (MKT per probe and for the storage), only the probes the storage holds,
and nobody else's storage."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest

from api.extensions.db import utcnow
from tests.api import account_helpers, report_helpers
from tests.api.device_helpers import guids, owner, stranger
from tests.api.report_helpers import REPORT, files
from tests.api.test_storage import create, ok, room

__all__ = ["guids", "owner", "room", "stranger"]
providers, files_dir = account_helpers.providers, report_helpers.files_dir
pdfium = pytest.importorskip("pypdfium2")

S = "/api/storage"


def request(client, headers, entity, storage_id, file_type, **extra):
    end = utcnow() + timedelta(minutes=1)
    body = {"storageId": storage_id, "startTime": (end - timedelta(hours=2)).isoformat(), "endTime": end.isoformat()}
    return client.post(f"{S}/{entity}/report", json={**body, "fileType": file_type, **extra}, headers=headers)


def download(client, headers, file_id) -> bytes:
    response = client.get(f"{REPORT}/ExportFile/download/{file_id}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.data


def test_a_storage_report_covers_its_probes_with_the_storage_mkt(app, client, owner, room, files_dir, run_jobs):
    storage = create(client, owner, room["guid"], mktEnabled=True, mktWindowHours=24, mktLimit=-10.0)
    en = {**owner, "Accept-Language": "en-US"}
    pdf = ok(request(client, en, "ColdStorage", storage["id"], "pdf"))
    csv_file = ok(request(client, en, "ColdStorage", storage["id"], "csv"))
    assert pdf["status"] == "generating" and pdf["fileName"].startswith("Cold Room A_")
    run_jobs()
    rows = {row["id"]: row for row in files(client, owner)}
    assert rows[pdf["id"]]["status"] == "generated" and rows[csv_file["id"]]["status"] == "generated"
    text = download(client, owner, pdf["id"])
    document = pdfium.PdfDocument(text)
    content = "\n".join(page.get_textpage().get_text_range() for page in document)
    assert "Storage report Cold Room A" in content
    assert "MKT of the storage" in content and "Evaporator" in content and "Door" in content
    assert "Mean kinetic temperature" in content or "MKT" in content
    table = list(csv.reader(io.StringIO(download(client, owner, csv_file["id"]).decode("utf-8-sig"))))
    data = [row for row in table[1:] if len(row) > 3 and row[1] == room["guid"] and row[2].startswith("20")]
    assert len(data) == 1 and {"-17.5", "-18.0", "-20.5", "-16.8"} <= set(data[0])
    assert not [row for row in table if "Logger 1" in row]  # the logger is not in this storage


def test_a_virtual_storage_report_holds_only_its_probes(app, client, owner, room, guids, files_dir, run_jobs):
    virtual = ok(
        client.post(
            f"{S}/VirtualStorage/insert",
            json={
                "storageName": "Warehouse 3",
                "probes": [
                    {"deviceId": room["logger"], "sensor": 1, "zone": "door"},
                    {"deviceId": room["controller"], "sensor": 2, "zone": "middle"},
                ],
            },
            headers=owner,
        )
    )
    queued = ok(request(client, owner, "VirtualStorage", virtual["id"], "csv"))
    run_jobs()
    table = list(csv.reader(io.StringIO(download(client, owner, queued["id"]).decode("utf-8-sig"))))
    readings = [
        row for row in table[1:] if len(row) > 3 and row[1] in (room["guid"], guids["th_a"][0]) and row[2][:2] == "20"
    ]
    assert {row[1] for row in readings} == {room["guid"], guids["th_a"][0]}
    values = {cell for row in readings for cell in row[3:]}
    assert "4.2" in values and "-18.0" in values
    assert "55.0" not in values and "55" not in values and "-17.5" not in values  # humidity, other probes


def test_nobody_else_reports_on_my_storage_and_bad_input_names_the_field(client, owner, stranger, room, files_dir):
    storage = create(client, owner, room["guid"])
    refused = request(client, stranger, "ColdStorage", storage["id"], "pdf")
    assert refused.status_code == 404 and refused.get_json()["code"] == 404
    assert files(client, stranger) == []
    wrong_kind = request(client, owner, "Freezer", storage["id"], "pdf")
    assert wrong_kind.status_code == 404
    bad = request(client, owner, "ColdStorage", storage["id"], "zip")
    assert bad.status_code == 422 and "fileType" in bad.get_json()["data"]["errors"]
    end = utcnow()
    backwards = client.post(
        f"{S}/ColdStorage/report",
        json={
            "storageId": storage["id"],
            "startTime": end.isoformat(),
            "endTime": (end - timedelta(hours=1)).isoformat(),
        },
        headers=owner,
    )
    assert backwards.status_code == 422 and "endTime" in backwards.get_json()["data"]["errors"]
    assert files(client, owner) == []
