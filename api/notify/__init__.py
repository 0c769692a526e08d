"""Outbound messages (SMS, voice, email, webhook): an outbox row, then a job sends it once."""
