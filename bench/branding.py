"""Branding lookup per request (every page view before sign-in asks for it), on PostgreSQL.

Reported as p50 / p99 in ms and as a ratio to /api/health (one trivial query, no host lookup), so
that a noisy shared machine moves both and the ratio stays comparable between runs.
"""

from __future__ import annotations

from api.platform.services import sync_tenants
from bench._util import bench_app, percentile, report, sized, timings_ms

REPEAT = sized(2000, 30)


def run() -> None:
    app = bench_app()
    with app.app_context():
        sync_tenants()
    client = app.test_client()
    headers = {"Host": "junjia.localhost:3000", "Accept-Language": "en-US"}

    def checked(url: str):
        def call():
            response = client.get(url, headers=headers)
            if response.status_code != 200:
                raise RuntimeError(f"{url}: {response.status_code} {response.get_data(as_text=True)}")

        return call

    branding = checked("/api/base/BaseCustomPage/queryByTopDomain?topDomain=junjia.localhost")
    health = checked("/api/health")

    branding_ms = timings_ms(branding, REPEAT)
    health_ms = timings_ms(health, REPEAT)
    report("branding_p50_ms", percentile(branding_ms, 50), "ms")
    report("branding_p99_ms", percentile(branding_ms, 99), "ms")
    report("branding_vs_health_p50_ratio", percentile(branding_ms, 50) / percentile(health_ms, 50), "x")
