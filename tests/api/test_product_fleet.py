"""GUID batches with their export records, and SIM cards (business-domain sections 3 and 5)."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import Workbook, load_workbook
from sqlalchemy import func, select

from api.device.catalogue import sync_catalogue
from api.device.credentials import device_secret
from api.device.models import Device, GuidBatch
from api.extensions.db import db
from api.product.models import GuidExport, SimCard
from api.tenancy import find_platform
from tests.api.customization_helpers import staff
from tests.api.product_helpers import PRODUCT

BATCH = f"{PRODUCT}/GuidBatch"
SIM = f"{PRODUCT}/SimCard"


@pytest.fixture
def people(app, make_client):
    with app.app_context():
        types = sync_catalogue()
        db.session.commit()
        ids = {"type": types[0x8002].id, "domain": find_platform("localhost").id}
    return staff(app, make_client, lang="en-US"), ids


def counts(app) -> tuple[int, int, int, int]:
    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (GuidBatch, Device, GuidExport, SimCard)
        )


def batch(ids, **overrides) -> dict:
    return {"orderCode": "PO-2026-001", "num": 5, "deviceTypeId": ids["type"], "domainId": ids["domain"]} | overrides


def test_issue_a_batch_list_it_and_download_it_as_csv_and_xlsx_with_a_record(app, people):
    ((operator, op), _, (user, us)), ids = people
    issued = operator.post(f"{BATCH}/insert", headers=op, json=batch(ids, deviceTag="pharmacy"))
    assert issued.status_code == 200, issued.get_json()
    row = issued.get_json()["data"]
    assert (row["num"], row["claimed"], row["exports"], row["deviceTag"]) == (5, 0, 0, "pharmacy")
    guids = operator.post(f"{BATCH}/guids", headers=op, json={"batchId": row["id"]}).get_json()["data"]
    assert guids["total"] == 5 and all(len(g["deviceGuid"]) == 18 for g in guids["list"])

    answer = operator.get(f"{BATCH}/export/{row['id']}?format=csv", headers=op)
    assert answer.status_code == 200 and "attachment" in answer.headers["Content-Disposition"]
    lines = list(csv.reader(io.StringIO(answer.data.decode("utf-8-sig"))))
    assert len(lines) == 6
    with app.app_context():
        assert all(device_secret(guid) == key for guid, key in lines[1:])
    sheet = load_workbook(io.BytesIO(operator.get(f"{BATCH}/export/{row['id']}?format=xlsx", headers=op).data))
    assert sheet.worksheets[0].max_row == 6

    records = operator.post(f"{PRODUCT}/GuidExport/page", headers=op, json={}).get_json()["data"]
    assert [(r["fileFormat"], r["userName"], r["orderCode"]) for r in records["list"]] == [
        ("xlsx", "operator", "PO-2026-001"),
        ("csv", "operator", "PO-2026-001"),
    ]
    listed = operator.post(f"{BATCH}/page", headers=op, json={"orderCode": "2026"}).get_json()["data"]
    assert listed["list"][0]["exports"] == 2 and listed["list"][0]["typeName"] == "TH-2 Temperature & Humidity Logger"

    # Staff only: a user can neither download nor issue, and nothing is recorded.
    before = counts(app)
    assert user.get(f"{BATCH}/export/{row['id']}?format=csv", headers=us).status_code == 403
    assert user.post(f"{BATCH}/insert", headers=us, json=batch(ids)).status_code == 403
    assert counts(app) == before


BAD_BATCHES = [
    ("orderCode", "x" * 21),
    ("orderCode", " "),
    ("num", 0),
    ("num", 1000),
    ("deviceTypeId", 999999),
    ("domainId", 999999),
    ("deviceTag", "x" * 51),
]


@pytest.mark.parametrize(("field", "value"), BAD_BATCHES)
def test_bad_batch_input_names_the_field_and_issues_nothing(app, people, field, value):
    ((operator, op), _, _), ids = people
    before = counts(app)
    answer = operator.post(f"{BATCH}/insert", headers=op, json=batch(ids, **{field: value}))
    assert answer.status_code == 422 and field in answer.get_json()["data"]["errors"], answer.get_json()
    assert counts(app) == before


def sim(**overrides) -> dict:
    return {
        "cardNum": "148601234567890",
        "iccId": "89860412345678901234",
        "operator": "China Mobile",
        "openTime": "2026-01-01T00:00:00+08:00",
        "activeTime": "2026-01-05T00:00:00+08:00",
        "expiredTime": "2027-01-01T00:00:00+08:00",
        "balance": 1200,
        "useState": "unused",
        "rechargeState": "recharged",
        "remark": "Batch PO-2026-001",
    } | overrides


def test_sim_cards_are_registered_changed_bound_and_unbound(app, people):
    ((operator, op), _, _), ids = people
    created = operator.post(f"{SIM}/insert", headers=op, json=sim())
    assert created.status_code == 200, created.get_json()
    card = created.get_json()["data"]
    guid = operator.post(f"{BATCH}/insert", headers=op, json=batch(ids, num=1))
    guid = operator.post(f"{BATCH}/guids", headers=op, json={"batchId": guid.get_json()["data"]["id"]})
    guid = guid.get_json()["data"]["list"][0]["deviceGuid"]
    bound = operator.post(f"{SIM}/bind", headers=op, json={"id": card["id"], "deviceGuid": guid}).get_json()["data"]
    assert bound["deviceGuid"] == guid and bound["useState"] == "in_use"
    other = operator.post(f"{SIM}/insert", headers=op, json=sim(iccId="89860400000000000001")).get_json()["data"]
    taken = operator.post(f"{SIM}/bind", headers=op, json={"id": other["id"], "deviceGuid": guid})
    assert taken.status_code == 422 and "deviceGuid" in taken.get_json()["data"]["errors"]
    missing = operator.post(f"{SIM}/bind", headers=op, json={"id": other["id"], "deviceGuid": "1234"})
    assert missing.status_code == 422
    unbound = operator.post(f"{SIM}/bind", headers=op, json={"id": card["id"], "deviceGuid": None}).get_json()["data"]
    assert unbound["deviceGuid"] is None and unbound["useState"] == "unused"
    changed = operator.put(f"{SIM}/update", headers=op, json={**sim(remark="moved"), "id": card["id"]})
    assert changed.get_json()["data"]["remark"] == "moved"
    found = operator.post(f"{SIM}/page", headers=op, json={"keyword": "0001"}).get_json()["data"]
    assert [c["id"] for c in found["list"]] == [other["id"]]
    assert operator.delete(f"{SIM}/delete/{other['id']}", headers=op).status_code == 200


BAD_SIMS = [
    ("cardNum", "1" * 16),
    ("cardNum", "12ab"),
    ("iccId", "8" * 31),
    ("iccId", "8986-04"),
    ("remark", "x" * 101),
    ("balance", -1),
    ("useState", "lost"),
    ("expiredTime", "2025-01-01T00:00:00+08:00"),  # before it opened
    ("openTime", "2026-01-01"),
]


@pytest.mark.parametrize(("field", "value"), BAD_SIMS)
def test_bad_sim_input_names_the_field_and_stores_nothing(app, people, field, value):
    ((operator, op), _, _), _ids = people
    before = counts(app)
    answer = operator.post(f"{SIM}/insert", headers=op, json=sim(**{field: value}))
    assert answer.status_code == 422 and field in answer.get_json()["data"]["errors"], answer.get_json()
    assert counts(app) == before


def test_a_duplicate_iccid_is_refused(app, people):
    ((operator, op), _, _), _ids = people
    assert operator.post(f"{SIM}/insert", headers=op, json=sim()).status_code == 200
    again = operator.post(f"{SIM}/insert", headers=op, json=sim(cardNum="1"))
    assert again.status_code == 422 and "iccId" in again.get_json()["data"]["errors"]


def workbook(rows) -> io.BytesIO:
    book = Workbook()
    sheet = book.active
    sheet.append(["cardNum", "iccId", "operator", "openTime", "activeTime", "expiredTime", "balance", "remark"])
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    out.seek(0)
    return out


def test_import_from_xlsx_answers_a_result_per_row(app, people):
    ((operator, op), _, _), _ids = people
    rows = [
        [148600000000001, "89860400000000000011", "China Mobile", None, None, None, 500, "ok"],
        ["1486000000000012345", "89860400000000000012", None, None, None, None, 0, None],  # card number too long
        ["148600000000003", "89860400000000000011", None, None, None, None, 0, None],  # ICCID repeated
        ["148600000000004", "89860400000000000014", "China Unicom", None, None, None, 0, "x" * 101],
        [],
        ["148600000000005", "89860400000000000015", "China Telecom", None, None, None, 0, None],
    ]
    answer = operator.post(
        f"{SIM}/import",
        headers=op,
        data={"file": (workbook(rows), "sims.xlsx")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 200, answer.get_json()
    result = answer.get_json()["data"]
    assert result["imported"] == 2
    assert [(r["row"], r["ok"]) for r in result["rows"]] == [(2, True), (3, False), (4, False), (5, False), (7, True)]
    assert result["rows"][1]["message"].startswith("cardNum")
    with app.app_context():
        assert set(db.session.scalars(select(SimCard.icc_id))) == {"89860400000000000011", "89860400000000000015"}
    junk = operator.post(
        f"{SIM}/import",
        headers=op,
        data={"file": (io.BytesIO(b"not a workbook"), "x.xlsx")},
        content_type="multipart/form-data",
    )
    assert junk.status_code == 415


def sheet_of(rows) -> io.BytesIO:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    out.seek(0)
    return out


def import_sheet(client, headers, rows):
    form = {"file": (sheet_of(rows), "sims.xlsx")}
    answer = client.post(f"{SIM}/import", headers=headers, data=form, content_type="multipart/form-data")
    return answer.get_json()


@pytest.mark.parametrize(
    "header",
    [
        ["余额（元）", "备注", "卡号", "ICCID", "开卡日期", "运营商", "到期日期", "激活日期"],
        ["Balance (yuan)", "Remark", "Card number", "ICCID", "Opened on", "Carrier", "Expires on", "Activated on"],
        ["balance", "remark", "cardNum", "iccId", "openTime", "operator", "expiredTime", "activeTime"],
    ],
)
def test_import_maps_columns_by_header_reads_yuan_and_common_dates(app, people, header):
    """Issue 47: 20 was read as 0.20, 5.5 and text dates were refused, columns were read by position."""
    ((operator, op), _, _), _ids = people
    rows = [
        header,
        [20, None, "148600000000001", "89860400000000000011", "2026-01-05", "China Mobile", "2027/1/5", "20260106"],
        [5.5, "r", "148600000000002", "89860400000000000012", "2026年1月5日", None, "2027.01.05 08:30", None],
        ["¥1,234.50", None, "148600000000003", "89860400000000000013", None, None, None, None],
        ["5.555", None, "148600000000004", "89860400000000000014", None, None, None, None],
        [1, None, "148600000000005", "89860400000000000015", "next week", None, None, None],
    ]
    result = import_sheet(operator, {**op, "X-Timezone": "Asia/Shanghai"}, rows)["data"]
    assert [(r["row"], r["ok"]) for r in result["rows"]] == [(2, True), (3, True), (4, True), (5, False), (6, False)]
    assert result["rows"][3]["message"].startswith("balance") and result["rows"][4]["message"].startswith("openTime")
    listed = operator.post(f"{SIM}/page", headers={**op, "X-Timezone": "Asia/Shanghai"}, json={}).get_json()["data"]
    cards = {c["iccId"]: c for c in listed["list"]}
    assert cards["89860400000000000011"]["balance"] == 2000
    assert cards["89860400000000000012"]["balance"] == 550
    assert cards["89860400000000000013"]["balance"] == 123450
    first = cards["89860400000000000011"]
    assert (first["operator"], first["openTime"][:10], first["expiredTime"][:10], first["activeTime"][:10]) == (
        "China Mobile",
        "2026-01-05",
        "2027-01-05",
        "2026-01-06",
    )
    assert first["openTime"].startswith("2026-01-05T00:00:00")  # midnight where the operator is
    assert cards["89860400000000000012"]["openTime"][:10] == "2026-01-05"
    assert cards["89860400000000000012"]["expiredTime"].startswith("2027-01-05T08:30")


def test_a_sheet_without_the_required_columns_is_refused_naming_them(app, people):
    ((operator, op), _, _), _ids = people
    answer = import_sheet(operator, op, [["Carrier", "Balance"], ["x", 1]])
    assert answer["code"] == 422 and "Card number" in answer["data"]["errors"]["file"][0]


@pytest.mark.parametrize(("lang", "first"), [("en-US", "Card number"), ("zh-CN", "卡号")])
def test_the_template_has_headers_in_the_callers_language_and_imports_as_is(app, make_client, people, lang, first):
    ((_operator, op), _, (user, us)), _ids = people
    client = make_client(lang=lang)
    answer = client.get(f"{SIM}/template", headers=op)
    assert answer.status_code == 200 and "attachment" in answer.headers["Content-Disposition"]
    rows = [list(r) for r in load_workbook(io.BytesIO(answer.data)).worksheets[0].iter_rows(values_only=True)]
    assert rows[0][0] == first and len(rows) == 2
    result = import_sheet(client, op, rows)["data"]  # the template's example row imports unchanged
    assert result["imported"] == 1, result
    assert user.get(f"{SIM}/template", headers=us).status_code == 403
