"""Sending a connector's intervals: scheduled once, claimed under a lease, signed, retried, logged.

Exactly once, as far as two systems without a shared transaction allow:
- an interval becomes one log row (unique connector + window start), however often the tick runs;
- a worker claims a row with one conditional UPDATE (pending and due, or sending with an expired
  lease), so two workers never send it at the same time, and a row whose worker was killed
  mid-send is taken over once its lease is over;
- every attempt of a row carries the same batch number, the idempotency key the province dedupes
  on: a resend after a crash between the province's answer and our commit is recognised there, and
  its "already received" answer counts as accepted;
- the result is written only by the worker holding the claim (same attempt number), so a late
  answer of a taken-over attempt never overwrites a newer one.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import requests
from sqlalchemy import or_, select, tuple_, update

from api.datainterface.models import Connector, ConnectorDelivery, ConnectorMapping, DeliveryStatus
from api.device.models import Device, DeviceParam
from api.extensions import outbound
from api.extensions.db import db, utcnow
from api.notify.adapters import DeliveryError, UnsafeTargetError, check_target, sign
from api.storage.models import StorageProbe
from api.telemetry.readings import reading_source

log = logging.getLogger(__name__)

# Readings a logger uploads a little after the interval's end still make it into that interval.
GRACE = timedelta(minutes=1)
# A claim lasts longer than one request may take; after it, another worker may take the row over.
HTTP_TIMEOUT_S = 20
LEASE = timedelta(seconds=HTTP_TIMEOUT_S * 3)
MAX_ATTEMPTS = 6
BACKOFF_BASE = timedelta(minutes=1)
BACKOFF_CAP = timedelta(minutes=30)
# A connector that was stuck (no cron for a day) catches up at most this many intervals per tick.
MAX_WINDOWS_PER_TICK = 288
REMOTE_MESSAGE_CHARS = 500


def align(moment: datetime, minutes: int) -> datetime:
    """The start of the interval of `minutes` (counted from the epoch, UTC) that holds `moment`."""
    step = minutes * 60
    return datetime.fromtimestamp(int(moment.timestamp()) // step * step, UTC)


def batch_number(delivery_connector_id: int, window_start: datetime) -> str:
    return f"C{delivery_connector_id}-{window_start.astimezone(UTC):%Y%m%d%H%M}"


def backoff(attempts: int) -> timedelta:
    return min(BACKOFF_BASE * 2 ** max(attempts - 1, 0), BACKOFF_CAP)


# ---- scheduling ---------------------------------------------------------------------------------------------


def schedule(now: datetime | None = None) -> list[int]:
    """Put every finished interval of every enabled connector in the log (once); the due rows' ids."""
    now = now or utcnow()
    for connector in db.session.scalars(select(Connector).where(Connector.enabled.is_(True))):
        _log_windows(connector, now)
    db.session.commit()
    return due(now)


def _log_windows(connector: Connector, now: datetime) -> None:
    step = timedelta(minutes=connector.interval_minutes)
    start = connector.cursor or align(now, connector.interval_minutes)
    logged = 0
    while start + step + GRACE <= now and logged < MAX_WINDOWS_PER_TICK:
        known = db.session.scalar(
            select(ConnectorDelivery.id).where(
                ConnectorDelivery.connector_id == connector.id, ConnectorDelivery.window_start == start
            )
        )
        if known is None:
            db.session.add(
                ConnectorDelivery(
                    connector_id=connector.id,
                    window_start=start,
                    window_end=start + step,
                    batch_no=batch_number(connector.id, start),
                    status=DeliveryStatus.PENDING,
                    next_attempt_at=now,
                    created_at=now,
                )
            )
        start += step
        logged += 1
    connector.cursor = start


def due(now: datetime) -> list[int]:
    """Rows a worker should try now: pending and due, or sending under an expired lease (a killed worker)."""
    stmt = (
        select(ConnectorDelivery.id)
        .join(Connector, Connector.id == ConnectorDelivery.connector_id)
        .where(Connector.enabled.is_(True), _claimable(now))
        .order_by(ConnectorDelivery.window_start)
    )
    return list(db.session.scalars(stmt))


def _claimable(now: datetime):
    return or_(
        (ConnectorDelivery.status == DeliveryStatus.PENDING) & (ConnectorDelivery.next_attempt_at <= now),
        (ConnectorDelivery.status == DeliveryStatus.SENDING) & (ConnectorDelivery.lease_until < now),
    )


def send_due(now: datetime | None = None) -> dict[str, int]:
    """schedule() and one attempt at every due interval, here (the CLI's catch-up); counts by status."""
    counts: dict[str, int] = {}
    for delivery_id in schedule(now):
        status = send(delivery_id, now)
        key = status.value if status else "skipped"
        counts[key] = counts.get(key, 0) + 1
    return counts


# ---- sending ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    status: DeliveryStatus | None  # None: try again later
    code: str | None
    message: str | None


def send(delivery_id: int, now: datetime | None = None) -> DeliveryStatus | None:
    """One attempt at one interval; the status it leaves, or None when another worker holds it, it
    is not due, or its connector is disabled (a disabled connector sends nothing)."""
    now = now or utcnow()
    attempt = _claim(delivery_id, now)
    if attempt is None:
        return None
    delivery = db.session.get(ConnectorDelivery, delivery_id)
    connector = db.session.get(Connector, delivery.connector_id)
    records = payload_records(connector, delivery.window_start, delivery.window_end)
    body = json.dumps(
        {
            "appId": connector.app_id,
            "batchNo": delivery.batch_no,
            "windowStart": _iso(delivery.window_start),
            "windowEnd": _iso(delivery.window_end),
            "records": records,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode()
    outcome = post(connector, delivery.batch_no, body)
    return _finish(delivery_id, attempt, len(records), outcome, now)


def _claim(delivery_id: int, now: datetime) -> int | None:
    """Take the row (one conditional UPDATE, committed before anything leaves); the attempt number."""
    enabled = select(Connector.id).where(Connector.enabled.is_(True))
    result = db.session.execute(
        update(ConnectorDelivery)
        .where(ConnectorDelivery.id == delivery_id, ConnectorDelivery.connector_id.in_(enabled), _claimable(now))
        .values(
            status=DeliveryStatus.SENDING,
            attempts=ConnectorDelivery.attempts + 1,
            lease_until=now + LEASE,
            sent_at=now,
        )
        .returning(ConnectorDelivery.attempts)
    )
    attempt = result.scalar()
    db.session.commit()
    return attempt


def post(connector: Connector, batch_no: str, body: bytes) -> Outcome:
    """POST the body signed with HMAC-SHA256(secret, "timestamp.body") and read the province's answer."""
    try:
        check_target(connector.endpoint)
    except UnsafeTargetError as exc:
        return Outcome(DeliveryStatus.REFUSED, None, str(exc))
    except DeliveryError as exc:
        return Outcome(None, None, str(exc))
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": "coldchain-datainterface/1",
        "X-App-Id": connector.app_id,
        "X-Batch-No": batch_no,
        "X-Timestamp": timestamp,
        "X-Signature": sign(connector.secret, timestamp, body),
    }
    try:
        response = outbound.session().post(
            connector.endpoint, data=body, headers=headers, timeout=HTTP_TIMEOUT_S, allow_redirects=False
        )
    except requests.RequestException as exc:
        return Outcome(None, None, f"unreachable: {exc}"[:REMOTE_MESSAGE_CHARS])
    return read_answer(response)


def read_answer(response: requests.Response) -> Outcome:
    """code 0 is accepted; another code (or a 4xx) is a refusal with the remote message; a 5xx,
    429 or an answer that is no JSON envelope is tried again."""
    try:
        answer = response.json()
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        retry = response.status_code >= 500 or response.status_code == 429 or response.status_code < 400
        status = None if retry else DeliveryStatus.REFUSED
        return Outcome(status, str(response.status_code), response.text[:REMOTE_MESSAGE_CHARS] or None)
    code = answer.get("code")
    message = answer.get("msg") or answer.get("message")
    message = str(message)[:REMOTE_MESSAGE_CHARS] if message is not None else None
    code_text = None if code is None else str(code)[:32]
    if response.status_code >= 500 or response.status_code == 429:
        return Outcome(None, code_text, message)
    if response.status_code < 300 and code_text == "0":
        return Outcome(DeliveryStatus.ACCEPTED, code_text, message)
    return Outcome(DeliveryStatus.REFUSED, code_text or str(response.status_code), message)


def _finish(delivery_id: int, attempt: int, count: int, outcome: Outcome, now: datetime) -> DeliveryStatus | None:
    values: dict = {"record_count": count, "remote_code": outcome.code, "remote_message": outcome.message}
    status = outcome.status
    if status is None and attempt >= MAX_ATTEMPTS:
        status = DeliveryStatus.FAILED
    if status is None:
        values.update(status=DeliveryStatus.PENDING, next_attempt_at=now + backoff(attempt), lease_until=None)
    else:
        values.update(status=status, lease_until=None, finished_at=now)
    # Only the holder of this very attempt writes its result.
    written = db.session.execute(
        update(ConnectorDelivery)
        .where(
            ConnectorDelivery.id == delivery_id,
            ConnectorDelivery.status == DeliveryStatus.SENDING,
            ConnectorDelivery.attempts == attempt,
        )
        .values(**values)
    ).rowcount
    db.session.commit()
    if not written:
        log.warning("delivery %s: attempt %s was taken over; its answer is not recorded", delivery_id, attempt)
        return None
    return values["status"]


# ---- what is sent -------------------------------------------------------------------------------------------


def payload_records(connector: Connector, start: datetime, end: datetime) -> list[dict]:
    """The readings of the interval [start, end) of every mapped device (all sensors) and storage
    (its probes), each with the equipment code the province knows it by."""
    codes: dict[tuple[int, int | None], str] = {}
    mappings = db.session.scalars(select(ConnectorMapping).where(ConnectorMapping.connector_id == connector.id))
    for mapping in mappings:
        if mapping.device_id is not None:
            codes[(mapping.device_id, None)] = mapping.equipment_code
        else:
            probes = db.session.scalars(select(StorageProbe).where(StorageProbe.storage_id == mapping.storage_id))
            for probe in probes:
                codes.setdefault((probe.device_id, probe.sensor), mapping.equipment_code)
    if not codes:
        return []
    whole = [device_id for device_id, sensor in codes if sensor is None]
    pairs = [(device_id, sensor) for device_id, sensor in codes if sensor is not None]
    r = reading_source(start, end)
    stmt = select(r.c.device_id, r.c.sensor, r.c.ts, r.c.value).where(r.c.ts >= start, r.c.ts < end)
    matches = []
    if whole:
        matches.append(r.c.device_id.in_(whole))
    if pairs:
        matches.append(tuple_(r.c.device_id, r.c.sensor).in_(pairs))
    readings = db.session.execute(stmt.where(or_(*matches)).order_by(r.c.ts, r.c.device_id, r.c.sensor))
    units = _units({device_id for device_id, _ in codes})
    out = []
    for reading in readings:
        code = codes.get((reading.device_id, None)) or codes.get((reading.device_id, reading.sensor))
        out.append(
            {
                "equipmentCode": code,
                "sensor": reading.sensor,
                "time": _iso(reading.ts),
                "value": reading.value,
                "unit": units.get((reading.device_id, reading.sensor)),
            }
        )
    return out


def _units(device_ids: set[int]) -> dict[tuple[int, int], str]:
    rows = db.session.execute(
        select(Device.id, DeviceParam)
        .join(DeviceParam, DeviceParam.device_type_id == Device.device_type_id)
        .where(Device.id.in_(device_ids), DeviceParam.probe_id.is_not(None))
    )
    return {(device_id, param.probe_id): param.unit.unit_name for device_id, param in rows if param.unit is not None}


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
