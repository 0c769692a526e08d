"""Readings: ingestion (HTTP and MQTT), the time-series store and the queries charts need."""
