"""Liveness of the api and its engines, and the cron heartbeat."""
