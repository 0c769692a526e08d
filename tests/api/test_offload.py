"""CPU-bound work leaves the event loop (issue 46): in a gevent-patched process, as gunicorn's workers
are, the loop goes on serving other greenlets while a password is hashed. The control hashes in place,
as the api did: the loop cannot run at all meanwhile, so the check can fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
from gevent import monkey

monkey.patch_all()
import sys

import gevent

from api.extensions import offload

if sys.argv[1] == "in-place":  # the planted defect: the work runs on the loop
    offload.cpu_bound = lambda work, *args, **kwargs: work(*args, **kwargs)
ticks = 0


def ticker():
    global ticks
    while True:
        ticks += 1
        gevent.sleep(0.001)


gevent.spawn(ticker)
gevent.sleep(0.01)
hasher = offload.Hasher()
before = ticks
hashed = hasher.hash("Cold#2026")
assert hasher.matches(hashed, "Cold#2026") and not hasher.matches(hashed, "wrong") and not hasher.matches("x", "y")
print(ticks - before)
"""


@pytest.mark.parametrize(("mode", "loop_runs"), [("offloaded", True), ("in-place", False)])
def test_hashing_a_password_holds_up_no_greenlet(mode, loop_runs):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    ticks_while_hashing = int(done.stdout.split()[-1])
    assert (ticks_while_hashing > 0) is loop_runs, done.stdout


def test_without_gevent_the_work_runs_in_place():
    from api.extensions import offload

    assert not offload.on_event_loop()
    assert offload.cpu_bound(lambda a, b=0: a + b, 2, b=3) == 5
