"""Alarms: rules, evaluation on ingest and on a schedule, the alarm lifecycle, processing, push
settings and escalation. Notifications go through the outbox in api/notify. What the area plugs in
is declared in api/alarm/manifest.py."""
