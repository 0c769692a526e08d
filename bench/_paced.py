"""Paced users: an open workload for latency targets ("N concurrent clients").

Each user is a thread with its own keep-alive connection that asks, waits for the answer, then
pauses for an exponential time (mean `pace_s`) before asking again, independently of the others,
as people watching a list do. A user connects when it first asks, after its first pause, so users
neither start nor refresh in lockstep. Latencies are measured from just before the request is
sent to the end of the body; the first `warmup_s` seconds are not counted.

(Python at about 50 requests/s costs the client a few percent of a core; wrk was used before, but
it opens every connection at once and holds it idle until its first delayed request, which
gunicorn's threads wait on, so its tail measured wrk's start more than the api.)
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass
class PacedResult:
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0


def paced_users(
    url: str,
    *,
    method: str,
    headers: dict,
    body: bytes | None,
    users: int,
    seconds: float,
    pace_s: float,
    warmup_s: float = 5.0,
    seed: int = 1,
) -> PacedResult:
    target = urlsplit(url)
    start = time.perf_counter()
    counted_from, until = start + warmup_s, start + warmup_s + seconds
    result = PacedResult(seconds=seconds)
    lock = threading.Lock()

    def user(number: int) -> None:
        rng = random.Random(seed * 1_000 + number)  # noqa: S311 - think times, not secrets
        connection = None
        time.sleep(rng.expovariate(1 / pace_s))
        while time.perf_counter() < until:
            if connection is None:
                connection = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
            sent = time.perf_counter()
            try:
                connection.request(method, target.path, body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = None
                ok = False
            took_ms = (time.perf_counter() - sent) * 1000
            if sent >= counted_from:
                with lock:
                    if ok:
                        result.latencies_ms.append(took_ms)
                    else:
                        result.errors += 1
            time.sleep(max(0.0, min(rng.expovariate(1 / pace_s), until - time.perf_counter())))
        if connection is not None:
            connection.close()

    threads = [threading.Thread(target=user, args=(n,), daemon=True) for n in range(users)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=warmup_s + seconds + 30)
    return result
