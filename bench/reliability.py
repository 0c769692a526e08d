"""Reliability and security figures (issue 10): `make bench-reliability` (`python -m bench reliability`).

- fuzz_requests / fuzz_failures: schemathesis (all phases) over the documented api, signed in as the
  demo user and the operator (tests/api/fuzz.py), a longer budget than `make test` gives it.
- bola_probed_pct / bola_leaks: the probe of tests/api/test_bola.py (calls with ids covered, leaks).
- id_forms_probed_ops / id_forms_leaks: the id-forms probe of tests/api/test_id_forms.py (operations
  with integer ids called with ids spelt "+2", "02", "٢", 2.0 ... as another site and a share viewer).
- bfla_probed_pct / bfla_leaks: the function-level probe of tests/api/test_bfla.py (guarded operations
  judged against their declared need, calls that did more than the need allows).
- race_rules_probed / race_double_spends: the race probe of tests/api/test_races.py (each once-only
  rule hit by 20 concurrent requests over gunicorn on PostgreSQL; spends past the first, summed).
- fault_*: the fault scenarios of tests/reliability/scenarios.py on private engines.
- load_<endpoint>_p50_ms / _p99_ms / _errors: locust (headless) against gunicorn (2 gevent workers,
  this machine has 2 cores) at 50 and 200 concurrent clients; the plain names are the 200-client run.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

from bench._util import BENCH_DATABASE_URL, BENCH_REDIS_URL, QUICK, bench_app, report, serve_gunicorn, sized

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
FUZZ_SECONDS = int(os.environ.get("BENCH_FUZZ_SECONDS", sized("150", "3")))
LOAD_SECONDS = int(os.environ.get("BENCH_LOAD_SECONDS", sized("30", "3")))
LOAD_WORKERS = 2  # this machine has 2 cores
GUNICORN = [str(BIN / "gunicorn"), "-w", str(LOAD_WORKERS), "--backlog", "1024"]  # gunicorn.conf.py's gevent workers
LOCUST = [str(BIN / "locust"), "-f", str(ROOT / "bench" / "_locustfile.py"), "--headless", "--only-summary"]
# Users finish the call in flight when the time is up (else it would count as a failure with status 0).
LOCUST += ["--loglevel", "ERROR", "--stop-timeout", "30"]
MAX_CLIENTS = sized(200, 10)
LOAD_RUNS = sized((50, MAX_CLIENTS), (MAX_CLIENTS,))  # concurrent clients of each load run
ENDPOINTS = ("login", "accountInfo", "device_list", "chart", "ingestion")


def run() -> None:
    fuzzing()
    if QUICK:
        # The probes are tests of the suite and the fault scenarios tests/reliability's (`make test`
        # and `make reliability` run them); the quick run checks the fuzzing and load paths.
        print("# quick: the probes and fault scenarios left to the test suites", flush=True)
    else:
        bola()
        id_forms()
        bfla()
        races()
        faults()
    load()


def fuzzing() -> None:
    from tests.api import fuzz

    app = bench_app()
    fuzz.seed(app)
    requests = failures = 0
    for who in ("demouser", "operator"):
        result = fuzz.run(app, who, max_examples=sized(50, 2), max_time=FUZZ_SECONDS)
        requests += result.requests
        failures += len(result.failures) + len(result.errors)
        for line in result.failures + result.errors:
            print(f"  fuzz {who}: {line}", file=sys.stderr)
    report("fuzz_requests", requests, "requests")
    report("fuzz_failures", failures, "failures")


PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]


def probe_figures(test: str, keyword: str, report_variable: str) -> list[str]:
    """Run one probe test of the suite, which writes its figures to the file `report_variable` names.
    A run that wrote none failed before it could count (a fixture, the database): say why, with the end
    of pytest's output, instead of reading an empty file."""
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as out:
        run = subprocess.run(  # noqa: S603 - our own test
            [*PYTEST, test, "-k", keyword],
            cwd=ROOT,
            env={**os.environ, report_variable: out.name},
            check=False,
            capture_output=True,
            text=True,
        )
        figures = Path(out.name).read_text().split()
    if not figures:
        tail = "\n".join((run.stdout + run.stderr).strip().splitlines()[-25:])
        raise SystemExit(f"{test} -k {keyword} wrote no figures (pytest exit {run.returncode}):\n{tail}")
    if run.returncode:
        print(f"  {test}: pytest exit {run.returncode} (the figures below say why)", file=sys.stderr)
    return figures


def bola() -> None:
    covered, with_ids, leaks, probes = (
        int(x) for x in probe_figures("tests/api/test_bola.py", "use_my_ids", "BOLA_REPORT")
    )
    report("bola_probed_pct", 100.0 * covered / with_ids, "%")
    report("bola_leaks", leaks, "leaks")
    report("bola_requests", probes, "requests")


def id_forms() -> None:
    figures = probe_figures("tests/api/test_id_forms.py", "no_spelling", "ID_FORMS_REPORT")
    probed, leaks, calls = (int(x) for x in figures)
    report("id_forms_probed_ops", probed, "operations")
    report("id_forms_leaks", leaks, "leaks")
    report("id_forms_requests", calls, "requests")


def bfla() -> None:
    pct, leaks, calls, over = probe_figures("tests/api/test_bfla.py", "does_more", "BFLA_REPORT")
    report("bfla_probed_pct", float(pct), "%")
    report("bfla_leaks", int(leaks), "leaks")
    report("bfla_requests", int(calls), "requests")
    report("bfla_over_refused", int(over), "requests")


def races() -> None:
    rules, double_spends = probe_figures("tests/api/test_races.py", "each_once_only_rule", "RACE_REPORT")
    report("race_rules_probed", int(rules), "rules")
    report("race_double_spends", int(double_spends), "count")


def faults() -> None:
    from tests.reliability import scenarios

    worker = [scenarios.worker_notifications(), scenarios.worker_long_job()]
    report("fault_worker_lost", sum(f["lost"] for f in worker), "items")
    report("fault_worker_duplicated", sum(f["duplicated"] for f in worker), "items")
    report("fault_worker_recovery_s", max(f["recovery_s"] for f in worker), "s")
    redis = scenarios.redis_restart()
    report("fault_redis_lost", redis["lost"], "jobs")
    report("fault_redis_duplicated", redis["duplicated"], "jobs")
    report("fault_redis_recovery_s", redis["recovery_s"], "s")
    pg = scenarios.postgres_restart()
    report("fault_postgres_lost", pg["lost"], "readings")
    report("fault_postgres_duplicated", pg["duplicated"], "readings")
    report("fault_postgres_recovery_s", pg["recovery_s"], "s")
    mqtt = scenarios.mqtt_restart()
    report("fault_mqtt_lost", mqtt["lost"], "readings")
    report("fault_mqtt_duplicated", mqtt["duplicated"], "readings")
    report("fault_mqtt_recovery_s", mqtt["recovery_s"], "s")


def load_fixture() -> dict:
    from sqlalchemy import select

    from api import demo
    from api.device.catalogue import sync_catalogue
    from api.device.models import Device
    from api.device.services import claim, issue_guids
    from api.extensions.db import db
    from api.identity.models import Account
    from api.identity.sessions import issue_token
    from api.platform.services import sync_tenants
    from api.tenancy import find_platform

    app = bench_app()
    with app.app_context():
        sync_tenants()
        demo.seed(timedelta(days=1))
        types = sync_catalogue()
        platform = find_platform("localhost")
        owner = db.session.scalar(select(Device.owner_account_id).where(Device.owner_account_id.is_not(None)))
        chart_device = db.session.scalar(select(Device.id).where(Device.owner_account_id == owner).order_by(Device.id))
        fleet = issue_guids(platform, types[0x8002], 20, "LOAD")
        for guid, _key in fleet:
            claim(db.session.scalar(select(Device).where(Device.guid == guid)), owner, guid[-6:], "UTC")
        account = db.session.get(Account, owner)
        user_name = account.user_name
        # One session per simulated browser, issued directly: 200 sign-ins at once would only measure
        # argon2 (login is measured by its own task).
        with app.test_request_context(headers={"Host": "localhost"}):
            tokens = [issue_token(account, platform) for _ in range(MAX_CLIENTS)]
    return {
        "user": user_name,
        "password": demo.DEMO_PASSWORD,
        "tokens": tokens,
        "chartDevice": chart_device,
        "devices": fleet,
    }


def load() -> None:
    from tests.reliability.engines import free_port

    fixture = load_fixture()
    port = free_port()
    env = {
        **os.environ,
        "APP_ENV": "production",
        "SECRET_KEY": "bench-secret-key-reliability",
        "DEVICE_KEY_SECRET": "dev-only-change-me",  # the key the fixture's device credentials were derived with
        "HOST_ALIASES": "localhost=default",
        "DATABASE_URL": BENCH_DATABASE_URL,
        "REDIS_URL": BENCH_REDIS_URL,
        "RATELIMIT_ENABLED": "0",
        "CAPTCHA_REQUIRED": "0",  # people solve captchas; a load generator cannot
    }
    server = serve_gunicorn([*GUNICORN, "-b", f"127.0.0.1:{port}", "bench._load_app:app"], env, LOAD_WORKERS)
    try:
        for clients in LOAD_RUNS:
            stats = locust(port, clients, fixture)
            suffix = "" if clients == MAX_CLIENTS else f"_c{clients}"
            for endpoint in ENDPOINTS:
                row = stats.get(endpoint)
                if row is None:
                    continue
                report(f"load_{endpoint}_p50_ms{suffix}", float(row["50%"]), "ms")
                report(f"load_{endpoint}_p99_ms{suffix}", float(row["99%"]), "ms")
                report(f"load_{endpoint}_errors{suffix}", int(row["Failure Count"]), "errors")
                report(f"load_{endpoint}_requests{suffix}", int(row["Request Count"]), "requests")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def locust(port: int, clients: int, fixture: dict) -> dict[str, dict]:
    with tempfile.TemporaryDirectory() as folder:
        prefix = str(Path(folder) / "load")
        subprocess.run(  # noqa: S603 - our own load generator
            [
                *LOCUST,
                *("-u", str(clients), "-r", str(max(10, clients // 4)), "-t", f"{LOAD_SECONDS}s"),
                *("--host", f"http://127.0.0.1:{port}", "--csv", prefix),
            ],
            cwd=ROOT,
            env={**os.environ, "LOAD_FIXTURE": json.dumps(fixture)},
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        with open(f"{prefix}_failures.csv", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                print(f"  load {clients} clients: {row['Name']} x{row['Occurrences']}: {row['Error']}", file=sys.stderr)
        with open(f"{prefix}_stats.csv", encoding="utf-8") as handle:
            return {row["Name"]: row for row in csv.DictReader(handle)}
