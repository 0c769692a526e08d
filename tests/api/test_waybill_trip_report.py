"""Issue 47: the trip report prints every time in one zone, the device's, named in its header (the fence
events and the track were printed in UTC beside a +08:00 header for the same moment, and the zone followed
the requester's browser), and lists the stops (start, end, duration, place)."""

from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select

from api.extensions.db import db
from api.extensions.i18n import local_text
from api.waybill.models import WaybillFenceEvent
from tests.api.report_helpers import files, files_dir, pdf_text
from tests.api.waybill_helpers import ORIGIN, W, create, device, now, route, send, shipper, trackers

__all__ = ["files_dir", "shipper", "trackers"]

SHANGHAI = ZoneInfo("Asia/Shanghai")


def test_one_zone_for_every_time_and_the_stops_listed(app, client, shipper, trackers, files_dir, run_jobs):
    origin = client.post(
        f"{W}/Fence/insert",
        json={"name": "Depot", "shape": "circle", "center": list(ORIGIN), "radius": 500},
        headers=shipper,
    ).get_json()["data"]
    device_id = device(client, shipper, trackers)
    waybill = create(client, shipper, device_id, originFenceId=origin["id"], startMode="fence", alarmEmail=None)
    begin = now() - timedelta(minutes=60)
    positions = route(begin, step=timedelta(minutes=1))[:12]  # leaves the depot at position 9
    last = positions[-1]
    halt = [(last[0] + timedelta(minutes=m), last[1]) for m in range(1, 13)]  # 11 minutes standing still
    for ts, position in positions + halt:
        send(client, trackers, "gt_a", ts, position=position)
    client.put(f"{W}/Waybill/stop/{waybill['id']}", headers=shipper)
    # Asked from a browser in New York, in English: still the device's zone (Asia/Shanghai).
    asked = {**shipper, "X-Timezone": "America/New_York", "Accept-Language": "en-US"}
    answer = client.post(f"{W}/Waybill/report", json={"id": waybill["id"], "fileType": "pdf"}, headers=asked)
    assert answer.get_json()["code"] == 0, answer.get_json()
    run_jobs()
    [row] = files(client, shipper)
    assert row["status"] == "generated", row
    text = pdf_text(client.get(f"/api/report/ExportFile/download/{row['id']}", headers=shipper).data)
    flat = " ".join(text.split())
    with app.app_context():
        [leave] = db.session.scalars(select(WaybillFenceEvent)).all()
        left_at = local_text(leave.ts, SHANGHAI, seconds=False)
    assert left_at in flat  # the fence event in the device's zone, with its offset
    assert "Asia/Shanghai" in flat and "America/New_York" not in flat
    offsets = set(re.findall(r"\d{2}:\d{2}(?::\d{2})? ([+-]\d{2}:\d{2})", flat))
    assert offsets == {"+08:00"}, offsets  # no UTC or New York time anywhere
    assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", flat)  # no raw ISO (UTC) stamps
    assert "Stops" in flat
    stop_start = local_text(halt[0][0] - timedelta(minutes=1), SHANGHAI, seconds=False)
    stop_end = local_text(halt[-1][0], SHANGHAI, seconds=False)
    assert f"{stop_start} {stop_end} 12 min" in flat, flat[flat.index("Stops") : flat.index("Stops") + 300]
