"""Fixtures of the download-centre tests: a files directory per test, devices with readings."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pypdfium2
import pytest
from sqlalchemy import select, update

from api.device.models import Device
from api.extensions.db import db
from api.settings import TestConfig
from api.telemetry.models import Reading
from api.telemetry.store import store_readings

REPORT = "/api/report"


def pdf_text(content: bytes) -> str:
    """The text of a PDF, page after page (what a reader sees, not the drawing operators)."""
    document = pypdfium2.PdfDocument(content)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


START = datetime(2026, 3, 7, 0, 0, tzinfo=UTC)  # the US change to summer time is 2026-03-08


@pytest.fixture
def files_dir(app, tmp_path, monkeypatch):
    """A files directory per test; jobs go to the test Redis (whatever an earlier test did to it)."""
    monkeypatch.setitem(app.config, "FILES_DIR", tmp_path / "files")
    if app.config["REDIS_URL"] != TestConfig.REDIS_URL:
        monkeypatch.setitem(app.config, "REDIS_URL", TestConfig.REDIS_URL)
        monkeypatch.setitem(app.extensions, "jobs", {"redis": None, "down_until": 0.0})
    return tmp_path / "files"


def load_readings(
    app, device_id: int, values: list[float], sensor: int = 1, start=START, step_s: int = 600, live: bool = True
) -> None:
    """Store readings every `step_s` seconds from `start` (through the COPY path on PostgreSQL); `live`:
    as if each had been received at its own time (else they are back-filled: received now)."""
    with app.app_context():
        rows = [(device_id, sensor, start + timedelta(seconds=i * step_s), v) for i, v in enumerate(values)]
        store_readings(db.session, rows)
        if live:
            db.session.execute(
                update(Reading)
                .where(Reading.device_id == device_id, Reading.sensor == sensor, Reading.ts >= start)
                .values(received_at=Reading.ts)
            )
        db.session.commit()


def set_device(app, device_id: int, **fields) -> None:
    with app.app_context():
        device = db.session.scalar(select(Device).where(Device.id == device_id))
        for key, value in fields.items():
            setattr(device, key, value)
        db.session.commit()


def export(client, headers, device_ids, file_type="csv", start=START, end=None, **extra):
    end = end or start + timedelta(days=2)
    return client.post(
        f"{REPORT}/ExportFile/export",
        json={
            "deviceIds": device_ids,
            "startTime": start.isoformat(),
            "endTime": end.isoformat(),
            "fileType": file_type,
            **extra,
        },
        headers=headers,
    ).get_json()


def files(client, headers) -> list[dict]:
    body = client.post(f"{REPORT}/ExportFile/page", json={"start": 1, "pageSize": 50}, headers=headers).get_json()
    assert body["code"] == 0, body
    return body["data"]["list"]


def read_csv(client, headers, file_id) -> tuple[bytes, list[list[str]]]:
    response = client.get(f"{REPORT}/ExportFile/download/{file_id}", headers=headers)
    assert response.status_code == 200, response.get_json()
    raw = response.data
    return raw, list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
