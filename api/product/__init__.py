"""The operator's back-office for the fleet: device types and model codes, parameters, units,
GUID batches and SIM cards. The catalogue itself is api/device's (one owner per fact); this area
edits it and owns only what the device area has no use for (SIM cards, GUID export records)."""
