"""What an area below the audit trail and FDA mode may ask of them without importing them (the areas
above would close a cycle): write an event on the trail, and whether FDA mode governs an account's
records. The audit and FDA manifests register the implementations (api/assembly.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# record_event(account | None, summary, *, target=None, details=None, platform_id=None)
RECORDERS: list[Callable[..., None]] = []
# account id -> True when FDA mode governs the records it owns
GXP_MODES: list[Callable[[int], bool]] = []


def record_event(account: Any, summary: str, **fields: Any) -> None:
    for recorder in RECORDERS:
        recorder(account, summary, **fields)


def gxp_mode(account_id: int | None) -> bool:
    return account_id is not None and any(mode(account_id) for mode in GXP_MODES)
