"""Every benchmark runs (issue 46): `make bench` runs every module of bench/, one failing module does
not hide the others' figures, and each module runs here at its smallest size (`python -m bench
--quick <name>`), so a broken benchmark fails `make test` instead of the next `make bench`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from types import SimpleNamespace

import pytest

import bench.__main__ as bench_main
from api.settings import ROOT

MODULES = bench_main.modules()


def test_make_bench_runs_every_module_of_the_folder():
    on_disk = {path.stem for path in (ROOT / "bench").glob("*.py") if not path.stem.startswith("_")}
    assert set(MODULES) == on_disk
    assert {"alarm", "branding", "fleet", "reliability", "report", "telemetry"} <= on_disk
    # The target names no module: python -m bench then runs them all.
    assert re.search(r"^bench: .*\n\t\$\(BIN\)/python -m bench\n", (ROOT / "Makefile").read_text(), re.MULTILINE)


def test_a_failing_module_is_named_and_the_next_ones_still_run(monkeypatch, capsys):
    ran = []

    def module(name: str):
        def run() -> None:
            ran.append(name)
            if name == "bench.alarm":
                raise RuntimeError("the time is earlier than the device GUID's issue time")

        return SimpleNamespace(run=run)

    monkeypatch.setattr(bench_main.importlib, "import_module", module)
    with pytest.raises(SystemExit) as stopped:
        bench_main.main(["alarm", "branding"])
    assert ran == ["bench.alarm", "bench.branding"]
    assert str(stopped.value.code) == "benchmarks failed: alarm"
    assert "the time is earlier than the device GUID's issue time" in capsys.readouterr().err


@pytest.mark.xdist_group("mqtt")  # the telemetry module ingests through the shared broker
@pytest.mark.parametrize("name", MODULES)
def test_each_module_runs_at_its_smallest_size(app, name):
    """On this worker's own database (at the migrations' head, emptied by the quick run) and Redis."""
    env = {
        **os.environ,
        "BENCH_QUICK": "1",
        "BENCH_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
        "BENCH_REDIS_URL": app.config["REDIS_URL"],
    }
    run = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", name],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    output = "\n".join((run.stdout + run.stderr).splitlines()[-40:])
    assert run.returncode == 0, output
    assert [line for line in run.stdout.splitlines() if line.startswith("BENCH ")], output
