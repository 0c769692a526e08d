"""The calibration service: customers order calibrations of their loggers, the lab issues certificates."""
