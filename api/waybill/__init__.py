"""Waybills: shipments with their logger, electric fences, public lookup and share links (what the
area plugs in: api/waybill/manifest.py)."""
