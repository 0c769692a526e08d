"""Cold storages, freezers and virtual storages: rooms built from the probes of one or more devices,
their cloud control through the device downlink, and the rolling-MKT alarm (what the area plugs in:
api/storage/manifest.py)."""
