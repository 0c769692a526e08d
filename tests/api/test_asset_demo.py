"""Demo projects and assets (`flask seed-demo`): the demo account's project and asset pages have data
(the console width test walks them), within the spec's limits, and seeding again adds nothing."""

from __future__ import annotations

from datetime import timedelta

from api import demo
from api.asset.demo import DEMO_ASSETS, DEMO_PROJECTS
from api.asset.schemas import AssetInputSchema
from api.project.schemas import ProjectInputSchema
from tests.api.account_helpers import auth, login


def test_demo_projects_and_assets_are_listed_with_their_devices(app, client):
    with app.app_context():
        demo.seed(backfill=timedelta(0))
        demo.seed(backfill=timedelta(0))  # idempotent
    headers = auth(login(client, "demouser", demo.DEMO_PASSWORD))
    projects = client.post("/api/base/BaseProject/page", json={}, headers=headers).get_json()["data"]
    assert projects["total"] == len(DEMO_PROJECTS)
    assert {p["projectName"]: len(p["deviceIds"]) for p in projects["list"]} == {
        name: len(devices) for name, devices in DEMO_PROJECTS
    }
    assets = client.post("/api/base/BaseAsset/page", json={}, headers=headers).get_json()["data"]
    assert assets["total"] == len(DEMO_ASSETS)
    by_name = {a["combName"]: a for a in assets["list"]}
    assert sorted(d["deviceName"] for d in by_name["Pharmacy fridge, ward 3"]["devices"]) == [
        "Pharmacy Fridge",
        "Vaccine Fridge",
    ]
    assert by_name["Pharmacy fridge, ward 3"]["custom"] == [{"key": "Service contract", "value": "SC-7781"}]


def test_demo_projects_and_assets_keep_the_spec_limits():
    for name, _devices in DEMO_PROJECTS:
        assert ProjectInputSchema().validate({"projectName": name}) == {}
    for name, type_name, number, brand, model, volume, remark, custom, _devices in DEMO_ASSETS:
        fields = {"combName": name, "combTypeName": type_name, "combNum": number, "brand": brand}
        fields |= {"model": model, "volume": volume, "remark": remark, "custom": custom, "deviceIds": []}
        assert AssetInputSchema().validate(fields) == {}
