"""CPU-bound work off the event loop.

gunicorn serves the api with gevent workers (gunicorn.conf.py): every request of a worker is a
greenlet of one thread, so a call that computes for 100 ms without yielding (argon2 hashing at
sign-in, parsing an uploaded workbook) stalls every other request of that worker for as long: under
50 users signing in and uploading, each call's p99 rose to seconds. Here such work runs in gevent's
pool of native threads and the greenlet waits for it cooperatively; argon2 releases the GIL while it
hashes, so the loop goes on serving at full speed. Without gevent (threads, the tests, jobs) the work
runs in place: a thread of its own already lets the others run.

Only self-contained work goes here: no database session, no request or app context (those belong to
the calling greenlet's thread).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

T = TypeVar("T")


def on_event_loop() -> bool:
    """This process serves as gevent greenlets (gevent's worker patched the standard library)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("threading")


def cpu_bound(work: Callable[..., T], /, *args, **kwargs) -> T:
    """`work(*args, **kwargs)`, in a native thread when the caller is a greenlet of an event loop."""
    if not on_event_loop():
        return work(*args, **kwargs)
    import gevent

    return gevent.get_hub().threadpool.apply(work, args, kwargs)


class Hasher:
    """argon2id hashing and checking that never holds up the event loop. RFC 9106's "low memory"
    profile (t=3, m=64 MiB, p=4), argon2-cffi's default; OWASP's minimum is t=2, m=19 MiB."""

    def __init__(self) -> None:
        self._argon2 = PasswordHasher()

    def hash(self, secret: str) -> str:
        return cpu_bound(self._argon2.hash, secret)

    def matches(self, hashed: str, secret: str) -> bool:
        """Whether `secret` is the one `hashed` was made from; a malformed hash matches nothing."""
        try:
            return cpu_bound(self._argon2.verify, hashed, secret)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, hashed: str) -> bool:
        return self._argon2.check_needs_rehash(hashed)
