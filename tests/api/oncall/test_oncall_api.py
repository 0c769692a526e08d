"""On-call schedules through the api: CRUD, the gate and tenant isolation, validation with localized
field errors, and who is on call (api/oncall)."""

from __future__ import annotations

from sqlalchemy import select

from api.extensions.db import db
from api.identity.models import Account
from tests.api.org_helpers import ok

ONCALL = "/api/alarm/OnCallSchedule"


def rota_body(enterprise, **overrides):
    body = {
        "name": "Night desk",
        "timeZone": "Europe/Berlin",
        "rota": [
            {"weekday": 1, "time": "08:00", "person": {"accountId": enterprise.member_ids["operator"]}},
            {"weekday": 5, "time": "18:00", "person": {"name": "Guard", "phone": "13900139002", "lang": "en-US"}},
        ],
        "overrides": [
            {"start": "2026-12-24", "end": "2026-12-26", "person": {"name": "Santa", "email": "s@example.com"}}
        ],
    }
    body.update(overrides)
    return body


def insert(client, enterprise, headers=None, **overrides):
    return client.post(f"{ONCALL}/insert", json=rota_body(enterprise, **overrides), headers=headers or enterprise.owner)


def errors(response):
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == 422, body
    return body["data"]["errors"]


class TestCrud:
    def test_add_read_list_change_delete(self, client, enterprise):
        created = ok(insert(client, enterprise))
        assert created["scope"] == "site" and created["timeZone"] == "Europe/Berlin"
        assert created["rota"][0]["person"]["name"] == "member_operator"  # a user is shown by name
        assert created["rota"][0]["person"]["email"] == "member_operator@example.com"
        assert created["rota"][1]["person"]["phone"] == "+8613900139002"
        assert created["onCallNow"]["person"]["name"] in ("member_operator", "Guard", "Santa")
        detail = ok(client.get(f"{ONCALL}/detail/{created['id']}", headers=enterprise.owner))
        assert detail["rota"] == created["rota"] and detail["overrides"] == created["overrides"]
        listed = ok(client.post(f"{ONCALL}/page", json={"start": 1, "pageSize": 10}, headers=enterprise.owner))
        assert listed["total"] == 1 and listed["list"][0]["onCallNow"]["scheduleId"] == created["id"]
        # The edit form sends the loaded record back unchanged: accepted, same content.
        same = {key: detail[key] for key in ("id", "name", "timeZone", "scope", "organizationId", "storageId")}
        same |= {"rota": detail["rota"], "overrides": detail["overrides"]}
        changed = ok(client.put(f"{ONCALL}/update", json=same, headers=enterprise.owner))
        assert changed["rota"] == detail["rota"] and changed["overrides"] == detail["overrides"]
        renamed = ok(
            client.put(f"{ONCALL}/update", json={**same, "name": "Day desk", "rota": []}, headers=enterprise.owner)
        )
        assert renamed["name"] == "Day desk" and renamed["rota"] == []
        ok(client.delete(f"{ONCALL}/delete/{created['id']}", headers=enterprise.owner))
        assert ok(client.post(f"{ONCALL}/page", json={}, headers=enterprise.owner))["total"] == 0

    def test_organization_and_storage_scopes_name_the_accounts_own(self, client, enterprise, stranger):
        scoped = ok(insert(client, enterprise, scope="organization", organizationId=enterprise.branch))
        assert scoped["organizationId"] == enterprise.branch
        theirs = ok(client.post("/api/base/BaseOrganization/insert", json={"name": "Other"}, headers=stranger))["id"]
        # Another account's organisation is answered as missing; a scope without its object names the field.
        assert insert(client, enterprise, scope="organization", organizationId=theirs).status_code == 404
        assert "storageId" in errors(insert(client, enterprise, scope="storage"))

    def test_people_lists_the_accounts_users(self, client, enterprise):
        people = ok(client.get(f"{ONCALL}/people", headers=enterprise.owner))
        ids = {p["accountId"] for p in people}
        assert set(enterprise.member_ids.values()) <= ids


class TestValidation:
    def test_unknown_zone(self, client, enterprise):
        english = {**enterprise.owner, "Accept-Language": "en-US"}
        found = errors(insert(client, enterprise, english, timeZone="Mars/Olympus"))
        assert found == {"timeZone": ["Unknown time zone."]}
        assert errors(insert(client, enterprise, timeZone="Mars/Olympus")) == {"timeZone": ["未知的时区。"]}

    def test_duplicate_hand_over_is_named_localized(self, client, enterprise):
        twice = [
            {"weekday": 2, "time": "08:00", "person": {"name": f"P{i}", "email": f"p{i}@example.com"}} for i in (1, 2)
        ]
        assert "rota.1.time" in errors(insert(client, enterprise, rota=twice))
        chinese = {**enterprise.owner, "Accept-Language": "zh-CN"}
        body = client.post(f"{ONCALL}/insert", json=rota_body(enterprise, rota=twice), headers=chinese).get_json()
        assert body["data"]["errors"]["rota.1.time"][0] != "Another hand-over is at the same weekday and time."

    def test_person_not_in_the_account(self, app, client, enterprise, stranger):
        with app.app_context():
            stranger_id = db.session.scalar(select(Account.id).where(Account.user_name == "stranger_1"))
        rota = [{"weekday": 1, "time": "08:00", "person": {"accountId": stranger_id}}]
        assert "rota.0.person.accountId" in errors(insert(client, enterprise, rota=rota))
        override = [{"start": "2026-12-01", "end": "2026-12-02", "person": {"accountId": stranger_id}}]
        assert "overrides.0.person.accountId" in errors(insert(client, enterprise, overrides=override))

    def test_contact_needs_a_name_and_a_phone_or_email(self, client, enterprise):
        rota = [{"weekday": 1, "time": "08:00", "person": {"name": "Nobody"}}]
        assert "rota" in errors(insert(client, enterprise, rota=rota))
        rota = [{"weekday": 8, "time": "25:00", "person": {"name": "X", "email": "x@example.com"}}]
        assert "rota" in errors(insert(client, enterprise, rota=rota))

    def test_override_ends_after_it_starts(self, client, enterprise):
        back = [
            {"start": "2026-12-03T10:00", "end": "2026-12-03T09:00", "person": {"name": "A", "email": "a@example.com"}}
        ]
        assert "overrides.0.end" in errors(insert(client, enterprise, overrides=back))
        bad = [{"start": "3 Dec", "end": "2026-12-03", "person": {"name": "A", "email": "a@example.com"}}]
        assert "overrides" in errors(insert(client, enterprise, overrides=bad))


class TestWho:
    def test_who_at_an_instant_and_now(self, client, enterprise):
        created = ok(insert(client, enterprise))
        at = lambda text: ok(  # noqa: E731
            client.get(f"{ONCALL}/who", query_string={"id": created["id"], "at": text}, headers=enterprise.owner)
        )
        tuesday = at("2026-12-01T10:00:00+01:00")
        assert tuesday["person"]["name"] == "member_operator" and tuesday["source"] == "rota"
        assert tuesday["since"].startswith("2026-11-30T")
        assert at("2026-12-05T09:00:00+01:00")["person"]["name"] == "Guard"
        christmas = at("2026-12-25T12:00:00+01:00")
        assert christmas["person"]["name"] == "Santa" and christmas["source"] == "override"
        assert at("2026-11-30T06:59:00Z")["person"]["name"] == "Guard"  # 07:59 in Berlin: before Monday's hand-over
        now = ok(client.get(f"{ONCALL}/who", query_string={"id": created["id"]}, headers=enterprise.owner))
        assert now["person"] is not None

    def test_nobody_on_an_empty_schedule(self, client, enterprise):
        created = ok(insert(client, enterprise, rota=[], overrides=[]))
        found = ok(client.get(f"{ONCALL}/who", query_string={"id": created["id"]}, headers=enterprise.owner))
        assert found["person"] is None and found["source"] is None


class TestGate:
    def test_another_account_sees_nothing_of_it(self, client, enterprise, stranger):
        created = ok(insert(client, enterprise))
        for response in (
            client.get(f"{ONCALL}/detail/{created['id']}", headers=stranger),
            client.get(f"{ONCALL}/who", query_string={"id": created["id"]}, headers=stranger),
            client.delete(f"{ONCALL}/delete/{created['id']}", headers=stranger),
            client.put(
                f"{ONCALL}/update", json={**rota_body(enterprise, rota=[]), "id": created["id"]}, headers=stranger
            ),
        ):
            assert response.status_code == 404, response.get_json()
        assert ok(client.post(f"{ONCALL}/page", json={}, headers=stranger))["total"] == 0

    def test_members_work_on_the_creators_schedules_by_their_roles_keys(self, client, enterprise):
        created = ok(insert(client, enterprise, headers=enterprise.members["operator"]))
        listed = ok(client.post(f"{ONCALL}/page", json={}, headers=enterprise.owner))
        assert [row["id"] for row in listed["list"]] == [created["id"]]  # the creator's schedule
        assert (
            client.delete(f"{ONCALL}/delete/{created['id']}", headers=enterprise.members["operator"]).status_code == 403
        )
        observer = enterprise.members["observer"]
        assert insert(client, enterprise, headers=observer).status_code == 403
        assert client.post(f"{ONCALL}/page", json={}, headers=observer).status_code == 403
        ok(client.delete(f"{ONCALL}/delete/{created['id']}", headers=enterprise.members["admin"]))

    def test_signed_out_is_refused(self, client, enterprise):
        assert client.post(f"{ONCALL}/page", json={}).status_code == 401
