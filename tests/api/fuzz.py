"""Schemathesis over /api/openapi.json against the WSGI app, signed in as a demo account and the operator.

All four phases (examples, coverage, fuzzing, stateful) run with a bounded budget; the checks are
"no server error", "the response matches its documented schema" and "the documented content type".
Every documented operation is fuzzed (new ones included) except the few that end the fuzzer's own
session: logging out, cancelling the account, changing its password.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import schemathesis
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import events

from api import demo
from api.extensions.db import db
from api.extensions.ratelimit import limiter
from api.platform.services import sync_tenants

# Calls that end the session the fuzzer signs in with (tested one by one in tests/api).
SESSION_ENDING = [
    "/api/base/BaseAccount/loginOut",
    "/api/base/BaseAccount/cancelWithNoParam",
    "/api/base/BaseAccount/updatePassword",
]
CHECKS = ["not_a_server_error", "response_schema_conformance", "content_type_conformance"]
HOST = "localhost"


@dataclass
class FuzzResult:
    who: str
    requests: int = 0
    operations: int = 0
    failures: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def seed(app) -> None:
    """The demo world (accounts, fleet, a day of history) on the app's database."""
    with app.app_context():
        sync_tenants()
        demo.seed(timedelta(hours=6))
        db.session.commit()


def token_for(app, user_name: str) -> str:
    client = app.test_client()
    body = client.post(
        "/api/base/BaseAccount/login",
        json={"userName": user_name, "password": demo.DEMO_PASSWORD},
        headers={"Host": HOST},
    ).get_json()
    assert body["code"] == 0, body
    return body["data"]["token"]


def run(app, who: str, *, max_examples: int, max_time: int, seed_value: int = 2026) -> FuzzResult:
    """Fuzz every operation signed in as `who`; returns requests sent and the failures found."""
    limiter.enabled = False  # a rate limit would stop the fuzzer before it reaches the handlers
    try:
        token = token_for(app, who)
        config = SchemathesisConfig.from_dict(
            {
                "max-time": max_time,
                "seed": seed_value,
                "headers": {"Host": HOST, "Authorization": f"Bearer {token}", "Accept-Language": "en-US"},
                "workers": 1,
                "continue-on-failure": True,
                "checks": {
                    "enabled": False,
                    **{name: {"enabled": True} for name in CHECKS},
                },
                "phases": {"stateful": {"max-steps": 20}},
                "generation": {"max-examples": max_examples, "deterministic": False},
                "operations": [{"include-path": path, "enabled": False} for path in SESSION_ENDING],
            }
        )
        schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=config, headers={"Host": HOST})
        result = FuzzResult(who)
        for event in schemathesis.engine.from_schema(schema).execute():
            if isinstance(event, events.ScenarioFinished):
                result.operations += 1
                result.requests += len(event.recorder.interactions)
                for check_list in event.recorder.checks.values():
                    for check in check_list:
                        if check.status.name == "FAILURE" and check.failure_info is not None:
                            failure = check.failure_info.failure
                            text = f"{event.recorder.label} [{event.phase}] {check.name}: {failure.title}: "
                            text += str(failure.message)[:300] + "\n    " + check.failure_info.code_sample[:600]
                            if text not in result.failures:
                                result.failures.append(text)
            elif isinstance(event, events.NonFatalError):
                result.errors.append(f"{event.label}: {event.info.format()}"[:500])
            elif isinstance(event, events.FatalError):
                result.errors.append(f"fatal: {event.exception!r}")
        return result
    finally:
        limiter.enabled = True
