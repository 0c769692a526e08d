"""The calibration area's object kind and its lab admins' keys, registered with the access layer.

An application is its customer's (owner-only kind); the lab's calls are guarded by the keys
`calibration.lab.query` / `calibration.lab.edit`, which the site's lab admins hold whatever their
role on the console (api/calibration/models.LabAdmin). Applications are paid through billing's orders:
the area registers their settlement there (api/calibration/payment.py).
"""

from __future__ import annotations

from sqlalchemy import select

from api.access.gate import register_kind
from api.access.keys import register_extra_keys
from api.calibration import services
from api.calibration.models import Application, ProbeCalibration
from api.device.access_rules import load_device
from api.extensions.db import db
from api.tenancy import data_platform_id


def load_application(application_id: int) -> Application | None:
    return db.session.scalar(
        select(Application).where(Application.id == application_id, Application.platform_id == data_platform_id())
    )


def load_probe_certificate(record_id: int) -> ProbeCalibration | None:
    return db.session.scalar(
        select(ProbeCalibration).where(
            ProbeCalibration.id == record_id, ProbeCalibration.platform_id == data_platform_id()
        )
    )


def _device_of_probe_certificate(row: ProbeCalibration):
    return load_device(row.device_id)


def register() -> None:
    register_kind("calibration_application", load_application)
    # An outside lab's certificate is its device's: who may change the device's records may change it.
    register_kind("probe_certificate", load_probe_certificate, device_of=_device_of_probe_certificate)
    register_extra_keys("calibration", services.lab_keys)
