"""What else happens when a device is taken out of use (disabled or scrapped).

The device area switches the device (api/device/services.py); other areas follow through handlers
they declare in their manifest (`device_retirements`: the alarm area closes the device's open alarms
with the reason), `handler(device_id, reason)`.

`reason` is "device_disabled" or "device_scrapped". Handlers run inside the device's transaction
(before its commit) and must not commit themselves.
"""

from __future__ import annotations

from collections.abc import Callable

DISABLED = "device_disabled"
SCRAPPED = "device_scrapped"

RetireHandler = Callable[[int, str], None]
# What the manifests declare (`device_retirements`), installed by api/assembly.py.
RETIRE_HANDLERS: list[RetireHandler] = []


def device_retired(device_id: int, reason: str) -> None:
    """Called by the device service when `device_id` is disabled or scrapped."""
    for handler in list(RETIRE_HANDLERS):
        handler(device_id, reason)
