"""A fleet's one-record uploads over keep-alive HTTP/1.1 connections (bench/fleet.py).

A fleet reaches the api through many connections at once; the benchmark holds a pool of them, as
the MQTT publishers do, each a closed loop: send one device's upload, read the whole answer, send
the next device's. Each connection is an asyncio protocol that writes its requests as bytes, which
keeps the generator to about 8% of a core per 500 requests/s: http.client in threads cost it
several times that, on the same two cores as the servers. Each connection finishes the request it
has sent when the time is up, so every answered request is counted and none is left half-sent (the
stored readings must equal four per answered request). A connection the server closes counts as an
error and is not reopened: the run's exact check fails on any error.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import time

PATH = "/api/device/DeviceData/upload"
HEAD = (
    "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    "X-Device-Id: {guid}\r\nX-Device-Key: {key}\r\nContent-Length: {length}\r\n\r\n"
)


def record(rng: random.Random) -> dict:
    """One record of 4 readings (about -18 degrees) plus battery and signal, as a logger sends it."""
    return {
        "ts": int(time.time() * 1000),
        "readings": {str(s): round(-18 + rng.gauss(0, 1), 1) for s in (1, 2, 3, 4)},
        "battery": 87,
        "signal": -71,
    }


def upload_request(guid: str, key: str, rng: random.Random) -> bytes:
    body = json.dumps({"guid": guid, "records": [record(rng)]})
    return (HEAD.format(path=PATH, guid=guid, key=key, length=len(body)) + body).encode()


class _Connection(asyncio.Protocol):
    """One keep-alive connection in a closed loop over its devices. A protocol, not streams: the
    answer is parsed in the callback that receives it and the next request written at once, with
    no coroutine or future between them."""

    def __init__(self, devices: list, seed: int, until: float, latencies: list, errors: list, closed):
        self.devices, self.until, self.latencies, self.errors = devices, until, latencies, errors
        self.rng = random.Random(seed)  # noqa: S311 - benchmark data
        self.closed = closed  # a future: done when the connection has stopped
        self.sent = 0
        self.started = 0.0  # when the request in flight was written
        self.buffer = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        self._send()

    def _send(self) -> None:
        if time.perf_counter() >= self.until:
            self.transport.close()
            return
        _id, guid, key = self.devices[self.sent % len(self.devices)]
        request = upload_request(guid, key, self.rng)
        self.sent += 1
        self.started = time.perf_counter()
        self.transport.write(request)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        head = self.buffer[:end].lower()
        start = head.find(b"content-length:")
        length = int(head[start + 15 :].split(b"\r\n", 1)[0]) if start >= 0 else 0
        if len(self.buffer) < end + 4 + length:
            return
        if self.buffer[9:12] == b"200":
            self.latencies.append((time.perf_counter() - self.started) * 1000)
        else:
            self.errors[0] += 1
        self.buffer = self.buffer[end + 4 + length :]
        self._send()

    def connection_lost(self, exc) -> None:
        if time.perf_counter() < self.until:
            self.errors[0] += 1  # closed by the server before the time was up
        if not self.closed.done():
            self.closed.set_result(None)


def _process(port: int, devices: list, connections: int, seconds: float, out) -> None:
    latencies: list[float] = []
    errors = [0]

    async def fleet() -> None:
        loop = asyncio.get_running_loop()
        until = time.perf_counter() + seconds
        closed = []
        for number in range(connections):
            done = loop.create_future()
            closed.append(done)
            share = devices[number::connections]
            connection = _Connection(share, number, until, latencies, errors, done)
            await loop.create_connection(lambda connection=connection: connection, "127.0.0.1", port)
        await asyncio.gather(*closed)

    asyncio.run(fleet())
    out.put((latencies, errors[0]))


def upload_for(port: int, fleet: list, connections: int, seconds: float, processes: int = 2) -> tuple[list[float], int]:
    """`connections` keep-alive connections shared by `processes` client processes, each device's
    uploads on one connection, for `seconds`: (latencies in ms of the answers 200, other answers and
    connection errors)."""
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    workers = [
        context.Process(target=_process, args=(port, fleet[n::processes], connections // processes, seconds, out))
        for n in range(processes)
    ]
    for worker in workers:
        worker.start()
    results = [out.get(timeout=seconds + 120) for _ in workers]
    for worker in workers:
        worker.join(30)
    return [ms for result in results for ms in result[0]], sum(result[1] for result in results)
