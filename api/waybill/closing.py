"""What a waybill's completion closes: the fence alarms its trip raised (an "enter" alarm of the
destination fence would otherwise stay open, and escalate, after the goods arrived). A completion
handler (services.COMPLETION_HANDLERS), in the completing transaction."""

from __future__ import annotations

from sqlalchemy import select

from api.alarm.lifecycle import close_for
from api.alarm.models import CloseReason
from api.extensions.db import db
from api.waybill.models import Waybill, WaybillFenceEvent
from api.waybill.services import COMPLETION_HANDLERS

REASON = CloseReason.WAYBILL_COMPLETED


def close_fence_alarms(waybill: Waybill) -> None:
    alarm_ids = db.session.scalars(
        select(WaybillFenceEvent.alarm_id).where(
            WaybillFenceEvent.waybill_id == waybill.id, WaybillFenceEvent.alarm_id.is_not(None)
        )
    ).all()
    close_for(list(alarm_ids), REASON, waybill.completed_at)


def install() -> None:
    """Declared in the area's manifest (installed once per app)."""
    if close_fence_alarms not in COMPLETION_HANDLERS:
        COMPLETION_HANDLERS.insert(0, close_fence_alarms)  # before the trip report is queued: it lists them closed
