"""Jobs the fault scenarios run on a real RQ worker (declared with the api's own @job decorator)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from rq import Retry

from api.jobs import DEFAULT, EXPORTS, job, redis_connection


@job(EXPORTS, retry=Retry(max=2, interval=1), timeout=60)
def long_export(folder: str, number: int, chunks: int) -> str:
    """An export-like job: writes its file chunk by chunk into a temporary file and publishes it by
    an atomic rename at the end, so a run killed half-way leaves no half file, and a re-run starts over."""
    final = Path(folder) / f"export-{number}.csv"
    if final.exists():
        return "exists"
    part = Path(folder) / f"export-{number}.{os.getpid()}.part"
    with part.open("w", encoding="utf-8") as handle:
        for chunk in range(chunks):
            handle.write(f"{number},{chunk}\n")
            handle.flush()
            time.sleep(0.05)
    part.replace(final)
    redis_connection().rpush("reliab:export-finished", number)
    return "written"


@job(DEFAULT, timeout=30)
def count_once(number: int) -> None:
    """Records that it ran (every run) and what it counted (a set: once per number)."""
    connection = redis_connection()
    connection.rpush("reliab:runs", number)
    connection.sadd("reliab:counted", number)
