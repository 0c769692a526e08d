"""Benchmarks: each module's `run()` prints `BENCH <name> <value> <unit>` lines."""
