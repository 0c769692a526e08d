"""The heap of a long-running process (gunicorn worker, RQ worker, MQTT subscriber).

A built app is hundreds of thousands of objects (modules, models, schemas, compiled statements)
that live as long as the process. Python's collector walks all of them on every full collection,
which the allocations of an ordinary batch trigger: tens of milliseconds, in the middle of a
request or a sweep. Frozen after startup, they are skipped by every collection (and a forked
child, an RQ work horse, no longer copies the pages a collection would touch).
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> None:
    """Call once per process, after the app is built and before it serves."""
    gc.collect()
    gc.freeze()
