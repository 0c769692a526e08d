"""The storage area's object kind, registered with the access layer's gate.

A cold room or freezer is seen by its owner and by whoever reaches one of its devices, and changed
by its owner and by members reaching all of its devices (api/storage/services): one storage holds
several devices, so the gate asks this area's rule instead of one device's reach.
"""

from __future__ import annotations

from api.access.gate import register_kind
from api.extensions.smorest import OPERATE, Need
from api.storage import services
from api.storage.models import ColdStorage


def admit_storage(storage: ColdStorage, need: Need) -> None:
    """Seeing is the load's rule (services.visible_storage); changing needs write access to its devices."""
    if need.access == OPERATE:
        services.require_write(storage, services.viewer_devices([storage]))


def register() -> None:
    register_kind(services.STORAGE_KIND, services.visible_storage, admit=admit_storage)
