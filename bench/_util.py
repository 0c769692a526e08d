from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def report(name: str, value: float, unit: str) -> None:
    print(f"BENCH {name} {value:.3f} {unit}", flush=True)


def timings_ms(call: Callable[[], object], repeat: int, warmup: int = 20) -> list[float]:
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def percentile(samples: list[float], q: float) -> float:
    return statistics.quantiles(samples, n=100)[int(q) - 1]
