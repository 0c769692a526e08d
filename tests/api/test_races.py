"""The race probe on PostgreSQL (tests/api/races.py): each once-only rule (free service per device and
level, coupon, recharge card, settlement, refund, GUID claim, share, offline purchase, transfer offer
and consent, a calibration cancellation) hit by 20 concurrent requests over a gunicorn process of the
api: exactly one success, the rest clear refusals (or, for an idempotent call, one spend however often
it is answered), never a 500.
And the probe itself: a planted check-then-insert is reported as a double spend.

`RACE_REPORT=<file>` makes the probe write "<rules probed> <double spends>" there, for
bench/reliability.py (`race_rules_probed`, `race_double_spends`)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from tests.api import races
from tests.api.billing_helpers import wechat_fake
from tests.api.device_helpers import guids
from tests.api.gunicorn_helpers import Api

__all__ = ["guids", "wechat_fake"]

pytestmark = pytest.mark.skipif(
    "postgresql" not in os.environ.get("TEST_DATABASE_URL", "postgresql"), reason="the probe is PostgreSQL's"
)


@pytest.fixture(scope="module")
def api(app):
    server = Api(app, "-w", "2").wait_healthy()
    yield server
    server.close()


def test_each_once_only_rule_holds_under_20_concurrent_requests(app, client, guids, wechat_fake, api):
    outcomes = races.probe(races.scene(app, client, api.port, guids, wechat_fake))
    if os.environ.get("RACE_REPORT"):
        doubles = sum(o.double_spends for o in outcomes)
        Path(os.environ["RACE_REPORT"]).write_text(f"{len(outcomes)} {doubles}\n")
    assert [o.rule for o in outcomes] == [*races.RULES, "calibration_cancel"]
    assert all(o.holds for o in outcomes), races.summary(outcomes)
    assert sum(o.double_spends for o in outcomes) == 0


def test_the_probe_reports_a_planted_check_then_insert_as_a_double_spend(app, client, guids, wechat_fake):
    planted = Api(
        app,
        "-w",
        "2",
        env={"RACE_PLANT_KEY": f"race-plant-{uuid.uuid4().hex}"},
        wsgi="tests.api.race_planted:create_app()",
    ).wait_healthy()
    try:
        [outcome] = races.probe(races.scene(app, client, planted.port, guids, wechat_fake), ["free_service"])
    finally:
        planted.close()
    assert outcome.double_spends >= 1 and not outcome.holds, races.summary([outcome])
    assert outcome.server_errors == 0
