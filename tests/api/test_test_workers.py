"""The xdist workers of `make test` never share a database, a Redis database or a file folder
(tests/conftest.py `isolate_worker`), worker 0 is the run without xdist, and an xdist group runs on
one worker."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from api.settings import TestConfig
from tests import conftest

SETTINGS = ("SQLALCHEMY_DATABASE_URI", "REDIS_URL", "FILES_DIR", "UPLOAD_DIR")


def test_every_worker_has_its_own_database_redis_database_and_folders(monkeypatch, tmp_path):
    created = []
    monkeypatch.setattr(conftest, "create_database", lambda url: created.append(url.database))
    # A plain run's settings as the input, not this process's (an xdist worker has isolated its own).
    base = {
        "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://postgres@127.0.0.1:5432/test",
        "REDIS_URL": "redis://127.0.0.1:6379/14",
        "FILES_DIR": tmp_path / "var" / "files",
        "UPLOAD_DIR": tmp_path / "var" / "uploads",
    }
    seen = []
    for number in range(len(conftest.WORKER_REDIS_DBS)):
        for name, value in base.items():
            monkeypatch.setattr(TestConfig, name, value)
        conftest.isolate_worker(number)
        seen.append({name: str(getattr(TestConfig, name)) for name in SETTINGS})
    for name in SETTINGS:
        assert len({worker[name] for worker in seen}) == len(seen), name
    assert seen[0]["SQLALCHEMY_DATABASE_URI"] == base["SQLALCHEMY_DATABASE_URI"]
    assert seen[0]["REDIS_URL"] == base["REDIS_URL"]
    assert seen[1]["SQLALCHEMY_DATABASE_URI"].endswith("_gw1") and seen[1]["REDIS_URL"].endswith("/12")
    assert len(created) == len(seen) - 1  # worker 0's database is the configured one
    with pytest.raises(pytest.UsageError):
        conftest.isolate_worker(len(conftest.WORKER_REDIS_DBS))


GROUPED_MODULE = """
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("one")


@pytest.mark.parametrize("number", range(8))
def test_worker(number):
    Path(os.environ["WORKERS_SEEN"], str(number)).write_text(os.environ["PYTEST_XDIST_WORKER"])
"""


def test_the_tests_of_an_xdist_group_run_on_one_worker(tmp_path):
    """`make test`'s `--dist loadgroup` sends a group (the MQTT tests, the tests that read the source
    tree) to one worker. It did not with pytest 9.2.0, whose node ids xdist 3.8 can no longer
    suffix with the group: every group was silently split over the workers."""
    (tmp_path / "test_grouped.py").write_text(textwrap.dedent(GROUPED_MODULE))
    seen = tmp_path / "seen"
    seen.mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadgroup", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env={**os.environ, "WORKERS_SEEN": str(seen)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-2000:]
    workers = {path.read_text() for path in seen.iterdir()}
    assert len(list(seen.iterdir())) == 8 and len(workers) == 1, workers
