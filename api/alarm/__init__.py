"""Alarms: rules, evaluation on ingest and on a schedule, the alarm lifecycle, processing, push
settings and escalation. Notifications go through the outbox in api/notify."""

from api.alarm.escalation import WEBHOOK_SECRET, refund_failed, webhook_secret
from api.alarm.evaluation import LIMITS_AND_ACTIVE_ALARMS, on_readings
from api.alarm.lifecycle import switch_off_alarms
from api.asset.hooks import on_asset_devices_switched
from api.notify.delivery import FAILURE_HOOKS, SECRET_RESOLVERS
from api.telemetry.ingest import BATCH_LOOKUPS, READING_HANDLERS


def register_evaluation() -> None:
    """Evaluate alarms on ingest, through the seam the ingestion service leaves (idempotent)."""

    if on_readings not in READING_HANDLERS:
        READING_HANDLERS.append(on_readings)
    if LIMITS_AND_ACTIVE_ALARMS not in BATCH_LOOKUPS:
        BATCH_LOOKUPS.append(LIMITS_AND_ACTIVE_ALARMS)

    # Disabling an asset turns its devices' alarms off (enabling needs nothing: evaluation resumes
    # with the devices' first readings).

    on_asset_devices_switched(switch_off_alarms)

    # The outbox knows no area: alarm webhooks' secrets and SMS / voice refunds plug in here.

    SECRET_RESOLVERS[WEBHOOK_SECRET] = webhook_secret
    if refund_failed not in FAILURE_HOOKS:
        FAILURE_HOOKS.append(refund_failed)
