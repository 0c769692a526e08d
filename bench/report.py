"""Export and report benchmarks on PostgreSQL (issue 8).

- export_csv_s: CSV export of `BENCH_REPORT_DEVICES` (10) single-probe devices x one year of
  one-minute data (5,256,000 readings; 1 device, 525,600, to profile), bulk-loaded through the
  COPY path of api/telemetry/store.py, by a real `rq worker` process, from the job's start to its
  end (RQ's own timestamps). Target <= 60 s at 10 devices.
- export_csv_peak_mb: the peak resident memory (VmHWM) of that worker's processes (the worker built
  the app, its work horse inherits it and writes the file): the export streams from a server-side
  cursor, so it stays flat whatever the range. Target <= 300 MB.
- report_pdf_30d_s: the PDF report of one device over 30 days (43,200 readings). Target <= 5 s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from redis import Redis
from rq import Queue
from rq.job import Job
from sqlalchemy import select, text

from api.account.services import ensure_account
from api.device.catalogue import sync_catalogue
from api.device.models import Device
from api.device.services import claim, issue_guids
from api.extensions.db import db
from api.identity.models import AccountType
from api.platform.services import sync_tenants
from api.report.generate import generate
from api.report.jobs import generate_file
from api.report.models import ExportFile, FileType
from api.telemetry.store import store_readings
from api.tenancy import find_platform
from bench._util import BENCH_DATABASE_URL, BENCH_REDIS_URL, bench_app, report, sized

DEVICES = sized(int(os.environ.get("BENCH_REPORT_DEVICES", "10")), 2)
MINUTES = sized(525_600, 2 * 1440)
START = datetime(2025, 1, 1, tzinfo=UTC)
CORRECTED = os.environ.get("BENCH_REPORT_CORRECTED") == "1"
END = START + timedelta(minutes=MINUTES)
LOAD_BATCH = min(262_800, MINUTES)  # half a year of one device per COPY
WORKER_CLASS = "api.jobs.worker.AppWorker"


def run() -> None:
    app = bench_app()
    files = Path(tempfile.mkdtemp(prefix="bench-files-"))
    app.config["FILES_DIR"] = files
    with app.app_context():
        sync_tenants()
        types = sync_catalogue()
        platform = find_platform("localhost")
        account = ensure_account(platform, "benchreport", "Bench#2026", account_type=AccountType.ENTERPRISE)
        db.session.commit()
        fleet = issue_guids(platform, types[0x8001], DEVICES, "BENCHRPT")  # TL-1: one probe
        device_ids = []
        for guid, _key in fleet:
            device = db.session.scalar(select(Device).where(Device.guid == guid))
            claim(device, account.id, f"F{guid[-6:]}", "UTC")
            device_ids.append(device.id)
        db.session.commit()
        if CORRECTED:
            correct(device_ids)
        load(device_ids)
        platform_id, account_id = platform.id, account.id
    try:
        seconds, peak_mb = bench_csv(app, files, platform_id, account_id, device_ids)
        report("export_csv_s", seconds, "s")
        report("export_csv_peak_mb", peak_mb, "MB")
        report("report_pdf_30d_s", bench_pdf(app, platform_id, account_id, device_ids[0]), "s")
    finally:
        shutil.rmtree(files, ignore_errors=True)  # a 250 MB CSV


def correct(device_ids: list[int]) -> None:
    """BENCH_REPORT_CORRECTED=1: each device applies its calibration correction, one outside certificate
    (two points) covering the whole range: the corrected path's cost (issue 48), beside the plain one."""
    from api.calibration.models import ProbeCalibration

    points = [
        {"reference": 0.0, "measured": 0.2, "deviation": 0.2},
        {"reference": 10.0, "measured": 9.9, "deviation": -0.1},
    ]
    for device_id in device_ids:
        device = db.session.get(Device, device_id)
        device.calibration_correction = True
        db.session.add(
            ProbeCalibration(
                platform_id=device.platform_id,
                device_id=device_id,
                sensors=[1],
                number="BENCH-1",
                issuer="Bench lab",
                calibrated_at=START - timedelta(days=1),
                due_at=START + timedelta(days=400),
                points=points,
                passed=True,
            )
        )
    db.session.commit()


def load(device_ids: list[int]) -> None:
    started = time.perf_counter()
    for device_id in device_ids:
        for first in range(0, MINUTES, LOAD_BATCH):
            rows = [
                (device_id, 1, START + timedelta(minutes=i), round(4.0 + (i % 97) / 25 - (i % 13) / 10, 1))
                for i in range(first, min(first + LOAD_BATCH, MINUTES))
            ]
            store_readings(db.session, rows)
            db.session.commit()
    db.session.execute(text("ANALYZE reading"))
    db.session.commit()
    print(f"# loaded {len(device_ids) * MINUTES:,} readings in {time.perf_counter() - started:.1f} s", flush=True)


def new_file(platform_id, account_id, device_ids, file_type, start, end) -> ExportFile:
    export = ExportFile(
        platform_id=platform_id,
        owner_account_id=account_id,
        name=f"bench.{file_type.value}",
        file_type=file_type,
        kind="device",
        params={
            "deviceIds": device_ids,
            "sensors": None,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "timeZone": "Asia/Shanghai",
            "unit": "C",
            "locale": "zh-CN",
        },
    )
    db.session.add(export)
    db.session.commit()
    return export


def memory_kb(pid: int, field: str = "VmHWM") -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    """The processes `pid` forked (RQ's work horse), from /proc/<pid>/task/<pid>/children."""
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def bench_csv(app, files: Path, platform_id, account_id, device_ids) -> tuple[float, float]:
    with app.app_context():
        export = new_file(platform_id, account_id, device_ids, FileType.CSV, START, END)
        file_id = export.id
    connection = Redis.from_url(BENCH_REDIS_URL)
    queue = Queue("exports", connection=connection)
    queue.empty()
    job = queue.enqueue(generate_file, file_id, job_id=f"bench-export-{file_id}", job_timeout=3600)
    env = {
        **os.environ,
        "APP_ENV": "development",
        "DATABASE_URL": BENCH_DATABASE_URL,
        "REDIS_URL": BENCH_REDIS_URL,
        "FILES_DIR": str(files),
    }
    rq = Path(sys.executable).with_name("rq")
    worker = subprocess.Popen(  # noqa: S603 - our own rq worker
        # The worker class production runs (Makefile, docs/settings.md): the app is built once in
        # the parent before the job, not inside the timed job by its work horse.
        [str(rq), "worker", "--worker-class", WORKER_CLASS, "--burst", "--url", BENCH_REDIS_URL, "exports"],
        env=env,
        cwd=Path(__file__).resolve().parents[1],
        stdout=subprocess.DEVNULL,
    )
    peak = horse = 0
    while worker.poll() is None:
        peak = max(peak, memory_kb(worker.pid))
        for pid in children(worker.pid):
            horse = max(horse, memory_kb(pid))
        time.sleep(0.25)
    print(f"# peak: worker {peak / 1024:.0f} MB (the built app), work horse {horse / 1024:.0f} MB", flush=True)
    peak = max(peak, horse)
    job = Job.fetch(job.id, connection=connection)
    with app.app_context():
        done = db.session.get(ExportFile, file_id)
        if done.status != "generated":
            raise RuntimeError(f"export {done.status}: {done.reason}")
        print(f"# csv: {done.size / 1e6:.0f} MB, job {job.get_status()}", flush=True)
    return (job.ended_at - job.started_at).total_seconds(), peak / 1024


def bench_pdf(app, platform_id, account_id, device_id) -> float:
    with app.app_context():
        export = new_file(platform_id, account_id, [device_id], FileType.PDF, END - timedelta(days=30), END)
        started = time.perf_counter()
        result = generate(export.id)
        elapsed = time.perf_counter() - started
        if result != "generated":
            raise RuntimeError(f"report {result}")
    return elapsed
