"""Fixtures of the alarm tests (the device and account fixtures come from the shared helpers)."""

from __future__ import annotations

import pytest

from api.device.models import Device
from api.extensions.db import db
from tests.api.account_helpers import providers  # noqa: F401
from tests.api.device_helpers import add, guids, owner, stranger  # noqa: F401


@pytest.fixture
def fridge(app, client, request):
    """The owner's TH-2 logger: (device id, guid, key), with 5 SMS and 5 voice calls."""
    guid, key = request.getfixturevalue("guids")["th_a"]
    device_id = add(client, request.getfixturevalue("owner"), guid, name="Fridge")
    with app.app_context():
        device = db.session.get(Device, device_id)
        device.sms_count = device.voice_count = 5
        db.session.commit()
    return device_id, guid, key
