"""Devices: the catalogue (types, parameters, units), GUID issuance and the registry."""
