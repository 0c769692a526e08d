"""Realistic demo loggers (`flask simulate`): fridges with day/night drift and door openings,
a cold room with defrost cycles and an energy meter, an ultra-low freezer, a truck on a GPS route,
batteries running down and short offline gaps (buffered, then sent late like real loggers).

Values are a pure function of (device, time), so the 30-day back-fill of `flask seed-demo` and the
live simulator agree, and a re-sent record is always the same duplicate.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import requests

log = logging.getLogger(__name__)

# Shanghai -> Hangzhou and back, every 8 hours.
ROUTE = [(31.2304, 121.4737), (31.0, 121.1), (30.75, 120.75), (30.5, 120.4), (30.2741, 120.1551)]
ROUTE_PERIOD = 8 * 3600


# A GPS shipment tracker (waybills): Shanghai -> Kunshan -> Suzhou (a 30-minute stop with the door
# open) -> Wuxi -> Nanjing, leaving at 08:00 China time every day, about 300 km in five hours; it waits
# at Nanjing, drives back in the evening and waits at the Shanghai depot overnight. One excursion
# per outbound trip (the reefer unit struggling for half an hour after the stop).
TRACKER_ROUTE = [
    (31.2304, 121.4737),  # Shanghai depot
    (31.3856, 120.9807),  # Kunshan
    (31.2989, 120.5853),  # Suzhou (stop)
    (31.4912, 120.3119),  # Wuxi
    (32.0603, 118.7969),  # Nanjing
]
TRACKER_STOP = 2  # the waypoint where it stops
TRACKER_LEG_HOURS = (1.0, 0.75, 0.75, 2.0)  # driving time of each leg
TRACKER_STOP_HOURS = 0.5
TRACKER_DEPART_UTC = 0  # 08:00 China time
TRACKER_RETURN_UTC = 10


def tracker_position(ts: datetime) -> tuple[tuple[float, float], str]:
    """(position, phase) of the tracker at `ts`: phase is depot, driving, stop, arrived or returning."""
    hours = (ts.hour + ts.minute / 60 + ts.second / 3600 - TRACKER_DEPART_UTC) % 24
    schedule = []  # (from hour, to hour, from point, to point, phase)
    clock = 0.0
    for leg, duration in enumerate(TRACKER_LEG_HOURS):
        schedule.append((clock, clock + duration, TRACKER_ROUTE[leg], TRACKER_ROUTE[leg + 1], "driving"))
        clock += duration
        if leg + 1 == TRACKER_STOP:
            schedule.append((clock, clock + TRACKER_STOP_HOURS, TRACKER_ROUTE[leg + 1], TRACKER_ROUTE[leg + 1], "stop"))
            clock += TRACKER_STOP_HOURS
    for start, end, a, b, phase in schedule:
        if start <= hours < end:
            f = (hours - start) / (end - start)
            return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f), phase
    back = TRACKER_RETURN_UTC - TRACKER_DEPART_UTC
    if hours < back:
        return TRACKER_ROUTE[-1], "arrived"
    if hours < back + clock:  # the same way back, without the stop
        f = (hours - back) / clock
        along = f * (len(TRACKER_ROUTE) - 1)
        i = min(int(along), len(TRACKER_ROUTE) - 2)
        a, b = TRACKER_ROUTE[-1 - i], TRACKER_ROUTE[-2 - i]
        g = along - i
        return (a[0] + (b[0] - a[0]) * g, a[1] + (b[1] - a[1]) * g), "returning"
    return TRACKER_ROUTE[0], "depot"


def _tracker_bump(ts: datetime, phase: str) -> float:
    """The door open during the stop (+3 °C), then a half-hour excursion above 8 °C after it."""
    hours = (ts.hour + ts.minute / 60 - TRACKER_DEPART_UTC) % 24
    stop_start = sum(TRACKER_LEG_HOURS[:TRACKER_STOP])
    if phase == "stop":
        return 3.0 * math.sin(math.pi * (hours - stop_start) / TRACKER_STOP_HOURS)
    after = hours - stop_start - TRACKER_STOP_HOURS
    return 6.0 * math.sin(math.pi * after / 0.5) if 0 <= after < 0.5 else 0.0


@dataclass(frozen=True)
class Profile:
    kind: str  # fridge, fridge_rh, cold_room, freezer, truck, tracker
    setpoint: float


def _rng(guid: str, *parts) -> random.Random:
    seed = hashlib.sha256(":".join([guid, *map(str, parts)]).encode()).digest()
    return random.Random(int.from_bytes(seed[:8], "big"))  # noqa: S311 - simulation, not security


def _door_bump(guid: str, ts: datetime) -> float:
    """Door openings: a few per day, each warming the fridge for up to 15 minutes."""
    hour = ts.replace(minute=0, second=0, microsecond=0)
    rng = _rng(guid, "door", hour.isoformat())
    if not 7 <= (ts.hour + 8) % 24 <= 20 or rng.random() > 0.35:  # opening hours, local China time
        return 0.0
    opened = rng.randint(0, 45)
    minutes = ts.minute - opened
    return 0.0 if not 0 <= minutes <= 15 else rng.uniform(2.0, 4.5) * math.exp(-minutes / 5)


def _excursion(guid: str, ts: datetime) -> float:
    """About once in four days a fridge warms above its limit for about an hour."""
    day = ts.date().isoformat()
    rng = _rng(guid, "excursion", day)
    if rng.random() > 0.25:
        return 0.0
    start = rng.randint(0, 22 * 60)
    minute = ts.hour * 60 + ts.minute - start
    return 0.0 if not 0 <= minute <= 60 else 5.0 * math.sin(math.pi * minute / 60)


# Stationary 4G loggers report the coarse position of their site (cell location), somewhere in Shanghai.
SITE_CENTRE = (31.2304, 121.4737)
SITE_SPREAD = 0.12


def site(guid: str) -> dict:
    rng = _rng(guid, "site")
    lat, lng = SITE_CENTRE
    return {
        "lat": round(lat + rng.uniform(-SITE_SPREAD, SITE_SPREAD), 5),
        "lng": round(lng + rng.uniform(-SITE_SPREAD, SITE_SPREAD), 5),
    }


def readings(guid: str, profile: Profile, ts: datetime) -> dict:
    """One record for `ts` (without the credential)."""
    rng = _rng(guid, ts.isoformat())
    day_phase = math.sin(2 * math.pi * ((ts.hour + ts.minute / 60 + 8) % 24 - 9) / 24)
    record: dict = {"ts": int(ts.timestamp() * 1000)}
    days_in = (ts - datetime(2026, 1, 1, tzinfo=UTC)).total_seconds() / 86400
    record["battery"] = round(max(5.0, 100 - (days_in % 180) * 0.5), 1)
    record["signal"] = round(-65 - 15 * abs(day_phase) - rng.uniform(0, 8))
    if profile.kind in ("fridge", "fridge_rh"):
        temp = profile.setpoint + 0.6 * day_phase + _door_bump(guid, ts) + _excursion(guid, ts) + rng.gauss(0, 0.12)
        values = {"1": round(temp, 1)}
        if profile.kind == "fridge_rh":
            values["2"] = round(
                min(95, max(20, 58 - 6 * day_phase - 2 * (temp - profile.setpoint) + rng.gauss(0, 1))), 1
            )
        record["location"] = site(guid)
    elif profile.kind == "cold_room":
        minutes = (ts.hour * 60 + ts.minute) % 360  # defrost every 6 hours for 20 minutes
        defrost = 13 * math.sin(math.pi * minutes / 20) if minutes < 20 else 0.0
        base = profile.setpoint + 0.8 * math.sin(2 * math.pi * minutes / 45) + defrost
        values = {
            str(p): round(base + offset + rng.gauss(0, 0.2), 1) for p, offset in ((1, 0), (2, 0.6), (3, -0.4), (4, 1.1))
        }
        hours = (ts - datetime(2026, 1, 1, tzinfo=UTC)).total_seconds() / 3600
        values["9"] = round(hours * 2.4 + 0.3 * math.sin(hours / 3), 2)  # cumulative kWh
        # The controller's state: compressor while the room cools, fan, defrost, door, setpoint, light.
        cooling = minutes >= 20 and math.cos(2 * math.pi * minutes / 45) > 0
        door = _door_bump(guid, ts) > 0.5
        values.update({"5": int(cooling), "6": int(minutes >= 20), "7": int(minutes < 20), "8": int(door)})
        values.update({"10": profile.setpoint, "11": 0})
    elif profile.kind == "freezer":
        minutes = (ts.hour * 60 + ts.minute) % 720  # defrost every 12 hours
        defrost = 25 * math.sin(math.pi * minutes / 30) if minutes < 30 else 0.0
        values = {
            "1": round(profile.setpoint + defrost + 1.2 * math.sin(2 * math.pi * minutes / 60) + rng.gauss(0, 0.3), 1)
        }
        record["location"] = site(guid)
    elif profile.kind == "tracker":
        (lat, lng), phase = tracker_position(ts)
        record["location"] = {
            "lat": round(lat + rng.gauss(0, 0.00005), 6),
            "lng": round(lng + rng.gauss(0, 0.00005), 6),
        }
        values = {"1": round(profile.setpoint + _tracker_bump(ts, phase) + rng.gauss(0, 0.15), 1)}
    else:  # truck
        phase = (ts.timestamp() % ROUTE_PERIOD) / ROUTE_PERIOD
        leg = phase * 2 * (len(ROUTE) - 1)
        leg = leg if leg <= len(ROUTE) - 1 else 2 * (len(ROUTE) - 1) - leg
        i = min(int(leg), len(ROUTE) - 2)
        f = leg - i
        (lat1, lng1), (lat2, lng2) = ROUTE[i], ROUTE[i + 1]
        record["location"] = {"lat": round(lat1 + (lat2 - lat1) * f, 5), "lng": round(lng1 + (lng2 - lng1) * f, 5)}
        values = {"1": round(profile.setpoint + 0.5 * day_phase + rng.gauss(0, 0.2), 1)}
    record["readings"] = values
    return record


def offline(guid: str, ts: datetime) -> bool:
    """A 40-minute silence once a day (the logger buffers and sends it afterwards)."""
    rng = _rng(guid, "gap", ts.date().isoformat())
    start = rng.randint(0, 23 * 60)
    return 0 <= ts.hour * 60 + ts.minute - start < 40


def timeline(start: datetime, end: datetime, interval_s: int):
    first = datetime.fromtimestamp(math.ceil(start.timestamp() / interval_s) * interval_s, UTC)
    ts = first
    while ts < end:
        yield ts
        ts += timedelta(seconds=interval_s)


@dataclass
class SimulatedDevice:
    guid: str
    key: str
    profile: Profile
    interval_s: int
    last_sent: datetime
    # A stateful device model (e.g. api/storage/controller.ColdRoomController): its record(ts) replaces
    # readings() and its apply(params) takes commands.
    model: object | None = None


class HttpSender:
    def __init__(self, api_url: str, host: str):
        self.url = f"{api_url.rstrip('/')}/api/device/DeviceData/upload"
        self.host = host
        self.session = requests.Session()

    def send(self, device: SimulatedDevice, records: list[dict]) -> bool:
        try:
            response = self.session.post(
                self.url,
                json={"guid": device.guid, "records": records},
                timeout=30,
                headers={"X-Device-Id": device.guid, "X-Device-Key": device.key, "Host": self.host},
            )
        except requests.RequestException as exc:
            log.warning("upload of %s failed: %s", device.guid, exc)
            return False
        return response.status_code == 200

    def commands(self, device: SimulatedDevice) -> None:
        """HTTP devices poll their pending settings and apply them at once."""
        base = self.url.rsplit("/DeviceData/", 1)[0]
        headers = {"X-Device-Id": device.guid, "X-Device-Key": device.key, "Host": self.host}
        try:
            pending = self.session.get(f"{base}/DeviceCommand/pending", headers=headers, timeout=10).json()["data"]
            for command in pending or []:
                ok, error = device.model.apply(command["params"]) if device.model is not None else (True, None)
                self.session.post(
                    f"{base}/DeviceCommand/ack",
                    json={"commandId": command["id"], "ok": ok, **({"error": error} if error else {})},
                    headers=headers,
                    timeout=10,
                )
        except (requests.RequestException, ValueError, KeyError) as exc:
            log.warning("command poll of %s failed: %s", device.guid, exc)


class MqttSender:
    def __init__(self, client):
        self.client = client

    def send(self, device: SimulatedDevice, records: list[dict]) -> bool:
        info = self.client.publish(
            f"devices/{device.guid}/telemetry",
            json.dumps({"guid": device.guid, "key": device.key, "records": records}),
            qos=1,
        )
        info.wait_for_publish(timeout=10)
        return info.is_published()

    def commands(self, device: SimulatedDevice) -> None:
        """MQTT devices receive commands by subscription (see run); nothing to poll."""


def run(
    devices: list[SimulatedDevice], sender, *, tick_s: float = 10.0, stop_after: float | None = None, gaps: bool = True
) -> int:
    """Send what each device has logged since its last upload and take its pending settings every
    tick (a connected logger answers a command at once); returns the number of records sent.
    `gaps=False` leaves out the daily silences (tests that need every device reachable)."""
    started = time.monotonic()
    sent = 0
    while stop_after is None or time.monotonic() - started < stop_after:
        now = datetime.now(UTC)
        for device in devices:
            if gaps and offline(device.guid, now):
                continue  # in a gap: keep buffering, unreachable for commands
            due = [ts for ts in timeline(device.last_sent + timedelta(seconds=1), now, device.interval_s)]
            if due:
                records = [
                    device.model.record(ts) if device.model is not None else readings(device.guid, device.profile, ts)
                    for ts in due
                ]
                if sender.send(device, records):
                    device.last_sent = due[-1]
                    sent += len(records)
            sender.commands(device)
            if getattr(device.model, "report_now", False):  # a controller reports its state on a change
                device.model.report_now = False
                sender.send(device, [device.model.record(now)])
        time.sleep(tick_s)
    return sent
