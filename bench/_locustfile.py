"""Locust users of the load benchmark (bench/reliability.py starts locust headless with this file).

The users are FastHttpUser (geventhttpclient): the generator shares the machine's two cores with the
api it measures, and python-requests' client spent several times the CPU per call, so the generator,
not the api, set the tail. Each simulated browser holds a session issued before the run, and mixes the
calls a console user and a device make: account info, the device list, a day's chart, and a device's
batch upload. Login is also measured as a task of its own (argon2id makes it the most expensive call
by design).
"""

from __future__ import annotations

import json
import os
import random
from datetime import UTC, datetime, timedelta

from locust import FastHttpUser, between, task

FIXTURE = json.loads(os.environ.get("LOAD_FIXTURE", "{}"))
HOST_HEADER = {"Host": "localhost", "Accept-Language": "en-US"}


class ConsoleUser(FastHttpUser):
    wait_time = between(0.5, 1.5)

    def on_start(self) -> None:
        self.rng = random.Random()  # noqa: S311 - load shape, not security
        # A browser that signed in before the run (its session token); sign-in is a task of its own.
        token = self.rng.choice(FIXTURE["tokens"])
        self.headers = {**HOST_HEADER, "Authorization": f"Bearer {token}"}

    def _login(self) -> str | None:
        with self.client.post(
            "/api/base/BaseAccount/login",
            json={"userName": FIXTURE["user"], "password": FIXTURE["password"]},
            headers=HOST_HEADER,
            name="login",
            catch_response=True,
        ) as response:
            body = response.json() if response.status_code == 200 else {}
            if body.get("code") != 0:
                response.failure(f"login answered {response.status_code} {body.get('code')}")
                return None
            return body["data"]["token"]

    def _ok(self, response) -> None:
        try:
            code = response.json().get("code")
        except ValueError:
            code = None
        if response.status_code != 200 or code != 0:
            response.failure(f"{response.status_code} code={code}")

    @task(1)
    def login(self) -> None:
        self._login()

    @task(3)
    def account_info(self) -> None:
        with self.client.get(
            "/api/base/BaseAccount/accountInfo", headers=self.headers, name="accountInfo", catch_response=True
        ) as response:
            self._ok(response)

    @task(3)
    def device_list(self) -> None:
        with self.client.post(
            "/api/device/Device/page",
            json={"start": 1, "pageSize": 10},
            headers=self.headers,
            name="device_list",
            catch_response=True,
        ) as response:
            self._ok(response)

    @task(2)
    def chart(self) -> None:
        end = datetime.now(UTC)
        params = {
            "deviceId": FIXTURE["chartDevice"],
            "start": (end - timedelta(days=1)).isoformat(),
            "end": end.isoformat(),
        }
        with self.client.get(
            "/api/device/DeviceData/chart", params=params, headers=self.headers, name="chart", catch_response=True
        ) as response:
            self._ok(response)

    @task(3)
    def ingestion(self) -> None:
        guid, key = self.rng.choice(FIXTURE["devices"])
        now = datetime.now(UTC)
        records = [
            {
                "ts": int((now - timedelta(seconds=i * 60 + self.rng.random())).timestamp() * 1000),
                "readings": {"1": 4.2},
            }
            for i in range(10)
        ]
        with self.client.post(
            "/api/device/DeviceData/upload",
            json={"guid": guid, "records": records},
            headers={**HOST_HEADER, "X-Device-Id": guid, "X-Device-Key": key},
            name="ingestion",
            catch_response=True,
        ) as response:
            self._ok(response)
