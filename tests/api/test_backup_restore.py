"""Backups can be restored (issue 47): one account's archive -> `flask backup restore` into a fresh
database -> the same account archived again over the same range gives identical entries (readings,
settings, limits, push settings, manifest). A tampered archive is refused and writes nothing."""

from __future__ import annotations

import io
import zipfile
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from flask_migrate import upgrade
from sqlalchemy import func, select

from api import create_app
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.identity.models import Account
from api.platform.services import sync_tenants
from api.report.archive import backup_subjects, write_backup
from api.report.formats import Presentation
from api.report.restore import RestoreError, restore
from api.settings import DevelopmentConfig
from tests.api.account_helpers import auth, login, make_account
from tests.api.alarm.helpers import record, save_push, set_limits
from tests.api.customization_helpers import staff
from tests.api.device_helpers import add, guids, upload

__all__ = ["guids"]


class _Progress:
    def tick(self, readings: int) -> None:
        pass


def archive(path, user_name: str, start, end, generated_at) -> None:
    """The account's backup archive of [start, end), as a scheduled run writes it."""
    account = db.session.scalar(select(Account).where(Account.user_name == user_name))
    devices = db.session.scalars(
        select(Device.id).where(Device.owner_account_id == account.id, Device.deleted.is_(False)).order_by(Device.id)
    ).all()
    params = {"deviceIds": list(devices), "start": start.isoformat(), "end": end.isoformat()}
    presentation = Presentation(
        zone=ZoneInfo("Asia/Shanghai"),
        units=None,
        locale="en-US",
        platform=None,
        requester=account,
        generated_at=generated_at,
    )
    write_backup(str(path), backup_subjects(params, account.id), presentation, _Progress())


def logged(minutes: float, value: float) -> dict:
    """A reading as loggers send them: on a whole second (the fresh database of `make run` is SQLite,
    which keeps times to the second)."""
    reading = record(minutes, value)
    reading["ts"] -= reading["ts"] % 1000
    return reading


def entries(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zipped:
        return {name: zipped.read(name) for name in zipped.namelist()}


def fresh_app(tmp_path):
    app = create_app(
        DevelopmentConfig,
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'fresh.db'}", "REDIS_URL": "redis://127.0.0.1:1/0"},
    )
    with app.app_context():
        upgrade()
        sync_tenants()
        db.session.commit()
    return app


def test_archive_restore_archive_is_identical(app, client, guids, tmp_path):
    make_account(app)
    owner = auth(login(client))
    fridge = add(client, owner, guids["th_a"][0], name="Ward Fridge", tz="Asia/Shanghai")
    room = add(client, owner, guids["cold_room"][0], name="Cold Room")
    set_limits(client, owner, fridge, {"sensor": 1, "upperLimit": 8, "lowerLimit": 2})
    assert save_push(client, owner, fridge)["code"] == 0
    for minutes in (50, 40, 30, 20, 10):
        assert upload(client, *guids["th_a"], [logged(minutes, 4.0 + minutes / 10)]).status_code == 200
    assert upload(client, *guids["cold_room"], [logged(25, -18.5)]).status_code == 200
    end = utcnow().replace(microsecond=0)
    start, generated = end - timedelta(hours=2), end
    first, second = tmp_path / "first.zip", tmp_path / "second.zip"
    with app.app_context():
        archive(first, "demouser", start, end, generated)
    written = entries(first)
    assert {"manifest.json", "settings.json", f"devices/{guids['th_a'][0]}.csv"} <= set(written)
    assert written[f"devices/{guids['th_a'][0]}.csv"].count(b"\n") == 6  # header and five readings
    assert room

    fresh = fresh_app(tmp_path)
    runner = fresh.test_cli_runner()
    result = runner.invoke(args=["backup", "restore", str(first)])
    assert result.exit_code == 0, result.output
    assert "2 devices, 6 readings" in result.output
    with fresh.app_context():
        archive(second, "demouser", start, end, generated)
    again = entries(second)
    assert again.keys() == written.keys()
    for name in written:
        assert again[name] == written[name], name


def test_a_tampered_archive_is_refused_and_writes_nothing(app, client, guids, tmp_path):
    make_account(app)
    owner = auth(login(client))
    add(client, owner, guids["th_a"][0], name="Ward Fridge")
    assert upload(client, *guids["th_a"], [record(5, 4.0)]).status_code == 200
    end = utcnow().replace(microsecond=0)
    good, bad = tmp_path / "good.zip", tmp_path / "bad.zip"
    with app.app_context():
        archive(good, "demouser", end - timedelta(hours=1), end, end)
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(bad, "w") as target:
        for name in source.namelist():
            content = source.read(name)
            target.writestr(name, content.replace(b"4.0", b"9.0") if name.endswith(".csv") else content)
    fresh = fresh_app(tmp_path)
    result = fresh.test_cli_runner().invoke(args=["backup", "restore", str(bad)])
    assert result.exit_code != 0 and "checksum" in result.output
    with fresh.app_context():
        assert db.session.scalar(select(func.count()).select_from(Device)) == 0
        with pytest.raises(RestoreError):
            restore(str(tmp_path / "missing.zip"))


def test_the_operator_restores_an_uploaded_archive_and_a_user_cannot(app, make_client, guids, tmp_path):
    (operator, op), _, (user, us) = staff(app, make_client, lang="en-US")
    add(user, us, guids["th_a"][0], name="Ward Fridge")
    assert upload(user, *guids["th_a"], [logged(5, 4.0)]).status_code == 200
    end = utcnow().replace(microsecond=0)
    path = tmp_path / "upload.zip"
    with app.app_context():
        archive(path, "demouser", end - timedelta(hours=1), end, end)

    def send(client, headers, content: bytes):
        form = {"file": (io.BytesIO(content), "backup.zip")}
        return client.post("/api/report/BackupRestore", headers=headers, data=form, content_type="multipart/form-data")

    assert send(user, us, path.read_bytes()).status_code == 403
    answer = send(operator, op, path.read_bytes())
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["data"] == {"account": "demouser", "devices": 1, "readings": 1}
    refused = send(operator, op, b"PK\x05\x06" + b"\x00" * 18)
    assert refused.status_code in (415, 422) and "file" in refused.get_json()["data"]["errors"]
