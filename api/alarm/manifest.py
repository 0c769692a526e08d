"""What the alarm area brings (api/hooks.py)."""

from api.alarm import access_rules, limit_history, models
from api.alarm.ack import on_provider_event
from api.alarm.escalation import WEBHOOK_SECRET, refund_failed, retired_device_send, webhook_secret
from api.alarm.evaluation import LIMITS_AND_ACTIVE_ALARMS, on_readings
from api.alarm.lifecycle import close_retired, switch_off_alarms
from api.alarm.routes import blp
from api.hooks import IngestStep, Manifest, PeriodicJob, Placed, SessionEvent

MANIFEST = Manifest(
    area="alarm",
    blueprints=(Placed(240, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    # After the waybill's step: its arming applies to the same batch's evaluation.
    ingest_steps=(IngestStep(20, on_readings, LIMITS_AND_ACTIVE_ALARMS),),
    # Every change of a limit opens a period of its history.
    session_events=(SessionEvent("before_flush", limit_history.record_history),),
    # The outbox knows no area: alarm webhooks' secrets and SMS / voice refunds plug in here.
    secret_resolvers={WEBHOOK_SECRET: webhook_secret},
    delivery_failures=(refund_failed,),
    # Disabling an asset turns its devices' alarms off (enabling needs nothing: evaluation resumes
    # with the devices' first readings).
    asset_switches=(switch_off_alarms,),
    # Disabling or scrapping a device closes its open alarms with the reason; a send already in the
    # outbox for a disabled or scrapped device is withheld when it is due.
    device_retirements=(close_retired,),
    send_guards=(retired_device_send,),
    # SMS replies carrying an alarm's code and key presses during its call acknowledge it.
    provider_inbound=(on_provider_event,),
    periodic_jobs=(
        PeriodicJob("api.alarm.jobs.sweep_devices", interval=30, timeout=120),
        PeriodicJob("api.alarm.jobs.escalate_alarms", interval=30, timeout=120),
    ),
)
