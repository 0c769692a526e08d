"""A simulated cold-room refrigeration controller for `flask simulate` and the tests: a room that
warms through its walls and door, a compressor switching on and off around the setpoint (duty
cycles), a defrost every 6 hours that lifts the evaporator probe, door openings that spike the door
probe, a cumulative energy meter, and obedience to cloud-control commands (setpoint, compressor
start / stop, manual defrost, light) acknowledged on devices/{guid}/acks.

Channels (catalogue type CS-4): 1 door, 2 middle, 3 evaporator, 4 return air, 5 compressor, 6 fan,
7 defrosting, 8 door open, 9 energy (kWh), 10 setpoint, 11 light.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from api.telemetry.simulator import _rng

log = logging.getLogger(__name__)

AMBIENT = 25.0
LEAK_PER_S = 0.0001  # share of the gap to ambient gained per second through the walls
DOOR_LEAK_PER_S = 0.0003  # while the door is open
COOLING_PER_S = 0.012  # °C per second the running compressor removes
HYSTERESIS = 1.0
DEFROST_EVERY = timedelta(hours=6)
DEFROST_FOR = timedelta(minutes=20)
COMPRESSOR_KW = 3.0
STEP_S = 10


@dataclass
class ColdRoomController:
    guid: str
    setpoint: float = -18.0
    air: float | None = None
    compressor_enabled: bool = True
    compressor: bool = False
    light: bool = False
    defrost_period: timedelta | None = DEFROST_EVERY  # None: only defrost cycles a user starts
    manual_defrost_until: datetime | None = None
    energy_kwh: float = 0.0
    now: datetime | None = None
    report_now: bool = False  # a command changed the state: send a record at once
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    # ---- physics ----

    def defrosting(self, ts: datetime) -> bool:
        if self.manual_defrost_until is not None and ts < self.manual_defrost_until:
            return True
        if self.defrost_period is None:
            return False
        since_midnight = ts.hour * 3600 + ts.minute * 60 + ts.second
        return since_midnight % int(self.defrost_period.total_seconds()) < DEFROST_FOR.total_seconds()

    def door_open(self, ts: datetime) -> bool:
        """A couple of openings an hour in working hours (local China time), 1-3 minutes each."""
        hour = ts.replace(minute=0, second=0, microsecond=0)
        rng = _rng(self.guid, "room-door", hour.isoformat())
        if not 7 <= (ts.hour + 8) % 24 <= 20:
            return False
        for _ in range(rng.randint(0, 3)):
            start, length = rng.randint(0, 57), rng.randint(1, 3)
            if start <= ts.minute < start + length:
                return True
        return False

    def advance(self, ts: datetime) -> None:
        """Run the room from its last moment to `ts` in 10-second steps (a long gap restarts at the setpoint)."""
        if self.now is None or ts - self.now > timedelta(hours=2) or self.air is None:
            self.now, self.air = ts, self.setpoint if self.air is None else self.air
            if not self.energy_kwh:  # the meter continues the back-filled history's (telemetry/simulator.py)
                self.energy_kwh = (ts - datetime(2026, 1, 1, tzinfo=UTC)).total_seconds() / 3600 * 2.4
            self._switch(ts)
            return
        while self.now < ts:
            dt = min(STEP_S, (ts - self.now).total_seconds())
            self.now += timedelta(seconds=dt)
            leak = LEAK_PER_S + (DOOR_LEAK_PER_S if self.door_open(self.now) else 0.0)
            self.air += (AMBIENT - self.air) * leak * dt
            self._switch(self.now)
            if self.compressor:
                self.air -= COOLING_PER_S * dt
                self.energy_kwh += COMPRESSOR_KW * dt / 3600
            if self.defrosting(self.now):
                self.air += 0.002 * dt  # the heaters warm the room a little

    def _switch(self, ts: datetime) -> None:
        if not self.compressor_enabled or self.defrosting(ts):
            self.compressor = False
        elif self.air > self.setpoint + HYSTERESIS:
            self.compressor = True
        elif self.air < self.setpoint - HYSTERESIS:
            self.compressor = False

    def record(self, ts: datetime) -> dict:
        with self.lock:
            self.advance(ts)
            rng = _rng(self.guid, "room", ts.isoformat())
            defrost, door = self.defrosting(ts), self.door_open(ts)
            evaporator = self.air + (12.0 if defrost else -5.0 if self.compressor else -1.0)
            readings = {
                "1": round(self.air + (3.5 if door else 0.4) + rng.gauss(0, 0.1), 1),
                "2": round(self.air + rng.gauss(0, 0.1), 1),
                "3": round(evaporator + rng.gauss(0, 0.2), 1),
                "4": round(self.air + 0.7 + rng.gauss(0, 0.1), 1),
                "5": int(self.compressor),
                "6": int(not defrost),
                "7": int(defrost),
                "8": int(door),
                "9": round(self.energy_kwh, 2),
                "10": self.setpoint,
                "11": int(self.light),
            }
        return {"ts": int(ts.timestamp() * 1000), "readings": readings, "signal": -60}

    # ---- commands ----

    def apply(self, params: dict) -> tuple[bool, str | None]:
        """Apply a command's settings ({hex key: value}); False with a reason for one it cannot take."""
        with self.lock:
            for key, value in params.items():
                if key == "0201":
                    self.setpoint = float(value)
                elif key == "0203":
                    self.compressor_enabled = bool(value)
                elif key == "0204" and value:
                    start = self.now or datetime.now().astimezone()
                    self.manual_defrost_until = start + DEFROST_FOR
                elif key == "0205":
                    self.light = bool(value)
                elif key == "0202":
                    self.defrost_period = timedelta(minutes=int(value))
                elif key != "0101":
                    return False, f"unknown setting {key}"
            if self.now is not None:
                self._switch(self.now)
            self.report_now = True
        return True, None


def attach(client, devices) -> None:
    """Subscribe the simulator's MQTT client to the commands of every simulated controller; each
    command is applied and acknowledged on devices/{guid}/acks (with the device's credential)."""
    by_guid = {device.guid: device for device in devices if isinstance(device.model, ColdRoomController)}
    if not by_guid:
        return

    def on_message(client, userdata, message):
        guid = message.topic.split("/")[1]
        device = by_guid.get(guid)
        try:
            body = json.loads(message.payload)
            command_id, params = int(body["commandId"]), dict(body["params"])
        except (ValueError, KeyError, TypeError):
            log.warning("controller %s: bad command dropped", guid)
            return
        ok, error = device.model.apply(params)
        ack = {"guid": guid, "key": device.key, "commandId": command_id, "ok": ok, "error": error}
        client.publish(f"devices/{guid}/acks", json.dumps(ack), qos=1)

    def subscribe(client, *_args):
        client.subscribe([(f"devices/{guid}/commands", 1) for guid in by_guid])

    client.on_message = on_message
    client.on_connect = subscribe
    if client.is_connected():
        subscribe(client)
