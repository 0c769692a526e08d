"""What else happens when an asset's devices are switched off or on.

Disabling an asset disables its devices and turns off their alarms; enabling reverses both
(business-domain section 4). Devices are switched here (api/asset/services.py); alarms belong to the
alarm area, which declares its switch in its manifest (`asset_switches`, api/hooks.py).

Handlers run inside the asset's transaction (before its commit) and must not commit themselves.
"""

from __future__ import annotations

from collections.abc import Callable

AssetSwitchHandler = Callable[[list[int], bool], None]
SWITCH_HANDLERS: list[AssetSwitchHandler] = []


def on_asset_devices_switched(handler: AssetSwitchHandler) -> AssetSwitchHandler:
    if handler not in SWITCH_HANDLERS:
        SWITCH_HANDLERS.append(handler)
    return handler


def asset_devices_switched(device_ids: list[int], enabled: bool) -> None:
    """Called by the asset service after switching `device_ids` on or off (alarms follow)."""
    for handler in list(SWITCH_HANDLERS):
        handler(device_ids, enabled)
