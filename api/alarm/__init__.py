"""Alarms: rules, evaluation on ingest and on a schedule, the alarm lifecycle, processing, push
settings and escalation. Notifications go through the outbox in api/notify."""


def register_evaluation() -> None:
    """Evaluate alarms on ingest, through the seam the ingestion service leaves (idempotent)."""
    from api.alarm.evaluation import on_readings
    from api.telemetry.ingest import READING_HANDLERS

    if on_readings not in READING_HANDLERS:
        READING_HANDLERS.append(on_readings)

    # Disabling an asset turns its devices' alarms off (enabling needs nothing: evaluation resumes
    # with the devices' first readings).
    from api.alarm.lifecycle import switch_off_alarms
    from api.asset.hooks import on_asset_devices_switched

    on_asset_devices_switched(switch_off_alarms)
