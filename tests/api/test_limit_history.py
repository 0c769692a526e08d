"""Limits have a history (issue 45): every change of a sensor's limits closes the period in force and
opens a new one with who and why; reports judge each reading by the limits in force at its time and
the PDF lists the changes inside its range (a limit lowered today no longer rewrites yesterday)."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from urllib.parse import quote

from sqlalchemy import select, update

from api.alarm.models import SensorLimitHistory
from api.extensions.db import db, utcnow
from api.extensions.reasons import REASON_HEADER
from api.identity.models import Account
from tests.api import device_helpers, report_helpers
from tests.api.alarm.helpers import set_limits
from tests.api.device_helpers import add
from tests.api.fda_helpers import fda_mode
from tests.api.org_helpers import ok
from tests.api.report_helpers import load_readings, pdf_text
from tests.api.test_evidence import download, request_file, summary_of

guids, owner, files_dir = device_helpers.guids, device_helpers.owner, report_helpers.files_dir

EN = {"Accept-Language": "en-US"}


def history(app, device_id) -> list[SensorLimitHistory]:
    with app.app_context():
        rows = db.session.scalars(
            select(SensorLimitHistory)
            .where(SensorLimitHistory.device_id == device_id, SensorLimitHistory.sensor == 1)
            .order_by(SensorLimitHistory.valid_from, SensorLimitHistory.id)
        ).all()
        db.session.expunge_all()
        return rows


def limit(upper, lower=2.0):
    return {"sensor": 1, "upperLimit": upper, "lowerLimit": lower}


def test_each_change_closes_the_period_in_force_with_who_and_why(app, client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0])
    set_limits(client, owner, device_id, limit(8.0))
    [first] = history(app, device_id)
    assert first.valid_from == datetime(1970, 1, 1, tzinfo=UTC) and first.valid_to is None  # the first: since ever
    assert (first.lower, first.upper, first.enabled) == (2.0, 8.0, True)

    fda_mode(app)
    set_limits(client, {**owner, REASON_HEADER: quote("SOP-12 rev 4")}, device_id, limit(7.5))
    set_limits(client, {**owner, REASON_HEADER: quote("Unchanged")}, device_id, limit(7.5))  # no change: no period
    set_limits(client, {**owner, REASON_HEADER: quote("Probe removed")}, device_id)  # the limit removed
    first, second, third = history(app, device_id)
    assert first.valid_to == second.valid_from and second.valid_to == third.valid_from and third.valid_to is None
    assert (second.upper, second.reason) == (7.5, "SOP-12 rev 4")
    assert (third.upper, third.lower, third.enabled, third.reason) == (None, None, False, "Probe removed")
    with app.app_context():
        me = db.session.scalar(select(Account.id).where(Account.user_name == "demouser"))
    assert second.changed_by == me

    listed = ok(client.get(f"/api/alarm/SensorLimit/history?deviceId={device_id}", headers=owner))
    assert [(p["upperLimit"], p["reason"], p["validTo"] is None) for p in listed] == [
        (None, "Probe removed", True),
        (7.5, "SOP-12 rev 4", False),
        (8.0, None, False),
    ]
    assert listed[1]["changedBy"] == "demouser" and listed[2]["validFrom"].startswith("1970-01-01")


def test_a_report_applies_the_limits_in_force_at_each_readings_time(
    app, make_client, owner, guids, files_dir, run_jobs
):
    client = make_client(lang="en-US")
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    fda_mode(app)
    reason = {REASON_HEADER: quote("Vaccine range per SOP-12 rev 4")}
    set_limits(client, {**owner, **reason}, device_id, limit(8.0))
    set_limits(client, {**owner, **reason}, device_id, limit(7.5))
    now = utcnow().replace(second=0, microsecond=0)
    changed = now - timedelta(hours=1)
    with app.app_context():  # the change was made an hour ago
        db.session.execute(
            update(SensorLimitHistory)
            .where(SensorLimitHistory.device_id == device_id, SensorLimitHistory.valid_to.is_not(None))
            .values(valid_to=changed)
        )
        db.session.execute(
            update(SensorLimitHistory)
            .where(SensorLimitHistory.device_id == device_id, SensorLimitHistory.valid_to.is_(None))
            .values(valid_from=changed)
        )
        db.session.commit()
    # 7.8 °C every 10 minutes for two hours: in range under 8.0, above the 7.5 in force for the last hour.
    start = now - timedelta(hours=2)
    load_readings(app, device_id, [7.8] * 12, start=start, step_s=600)

    ids = {kind: request_file(client, owner, device_id, kind, start, now, sensors=[1]) for kind in ("csv", "pdf")}
    run_jobs()
    rows = list(csv.reader(io.StringIO(download(client, owner, ids["csv"]).decode("utf-8-sig"))))
    summary = summary_of(rows, "Temperature")
    assert summary["Upper limit"] == "8.0 → 7.5" and summary["Lower limit"] == "2.0"
    assert summary["Excursions"] == "1"
    assert summary["Time above upper limit (h:mm)"] == "1:00"  # today's 7.5 over both hours would be 2:00

    report = pdf_text(download(client, owner, ids["pdf"]))
    assert "Limit changes in this period" in report
    assert "Vaccine range per SOP-12 rev 4" in report and "demouser" in report
    assert "8.0 → 7.5" in report


def test_the_migration_seeds_the_limits_in_force_as_valid_since_ever(tmp_path):
    """Migration 0033 on SQLite: an existing limit becomes the first period of its history."""
    from flask_migrate import upgrade
    from sqlalchemy import text

    from api import create_app
    from api.settings import TestConfig
    from tests.api.test_migrations import _insert

    app = create_app(TestConfig, {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'limits.db'}"})
    with app.app_context():
        upgrade(revision="0030")
        with db.engine.begin() as connection:
            connection.execute(text("PRAGMA foreign_keys=OFF"))
            _insert(connection, "device", {"id": 1, "guid": "8002"})
            _insert(connection, "sensor_limit", {"id": 1, "device_id": 1, "sensor": 1, "upper": 8.0, "lower": 2.0})
        upgrade()
        [row] = db.session.scalars(select(SensorLimitHistory)).all()
        assert (row.device_id, row.sensor, row.lower, row.upper, row.valid_to) == (1, 1, 2.0, 8.0, None)
        assert row.valid_from == datetime(1970, 1, 1, tzinfo=UTC)
        db.session.remove()
        db.engine.dispose()
