"""Schemathesis over the whole documented api (tests/api/fuzz.py), signed in as the demo user and
the operator: no server errors, every answer matches its documented schema and content type."""

from __future__ import annotations

import os

import pytest

from tests.api import fuzz
from tests.api.account_helpers import auth, login

# Seconds per identity: fits `make test`; `make bench-reliability` runs a longer budget.
BUDGET = int(os.environ.get("FUZZ_SECONDS", "75"))


@pytest.mark.parametrize("who", ["demouser", "operator"])
def test_fuzzing_finds_no_server_error_and_no_schema_violation(app, who):
    fuzz.seed(app)
    result = fuzz.run(app, who, max_examples=10, max_time=BUDGET)
    print(f"\nfuzz {who}: {result.requests} requests, {result.operations} scenarios, {len(result.failures)} failures")
    assert result.requests > 200, "the fuzzer hardly ran"
    assert not result.errors, "\n".join(result.errors)
    assert not result.failures, "\n".join(result.failures)


def test_ids_beyond_the_database_range_are_bad_input_not_a_crash(app, client):
    fuzz.seed(app)
    headers = auth(login(client, "demouser"))
    assert client.put("/api/device/Device/enable/99999999999", headers=headers).status_code == 404
    body = client.put(
        "/api/device/Device/update", json={"deviceId": 2**40, "deviceName": "x"}, headers=headers
    ).get_json()
    assert body["code"] == 422
    assert client.get("/api/device/DeviceEvent/list?deviceId=-99999999999", headers=headers).status_code == 422
    # The session is usable again after the refused statement.
    assert client.post("/api/device/Device/page", json={}, headers=headers).get_json()["code"] == 0
