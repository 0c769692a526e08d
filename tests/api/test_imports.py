"""Every import's caps come from one place (api/extensions/uploads.py IMPORTS) and are checked before
any parser sees the file: its size, its rows, and for a zip container (XLSX) its central directory:
the members' unpacked size and compression ratio. Issue 44: a 204 KB XLSX SIM import doubled the
api's memory; a 188 KB workbook unpacking to 56 MB took openpyxl 28.7 s to read here."""

from __future__ import annotations

import io
import time
import zipfile
from dataclasses import replace

import pytest
from openpyxl import Workbook
from sqlalchemy import func, select
from werkzeug.datastructures import FileStorage

from api.extensions import uploads
from api.extensions.db import db
from api.product import sim_import
from api.product.models import SimCard
from tests.api.product_helpers import PRODUCT
from tests.api.test_product_fleet import people, workbook

__all__ = ["people"]

SIM = f"{PRODUCT}/SimCard"
HEADER = ["cardNum", "iccId", "operator", "openTime", "activeTime", "expiredTime", "balance", "remark"]


def bomb(rows: int = 5000, cols: int = 200) -> bytes:
    """A real workbook whose sheet holds rows x cols inline strings: ~190 KB zipped, ~56 MB unpacked."""
    base = io.BytesIO()
    book = Workbook()
    book.active.append(HEADER)
    book.save(base)
    cells = "".join('<c t="inlineStr"><is><t>89860400000000000011</t></is></c>' for _ in range(cols)).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(base) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename != "xl/worksheets/sheet1.xml":
                target.writestr(info, data)
                continue
            head, _, _ = data.partition(b"<sheetData>")
            with target.open(info.filename, "w") as member:
                member.write(head + b"<sheetData>")
                for number in range(1, rows + 1):
                    member.write(b'<row r="%d">' % number + cells + b"</row>")
                member.write(b"</sheetData></worksheet>")
    return out.getvalue()


def post(client, headers, content: bytes, lang: str = "en-US"):
    return client.post(
        f"{SIM}/import",
        headers={**headers, "Accept-Language": lang},
        data={"file": (io.BytesIO(content), "sims.xlsx")},
        content_type="multipart/form-data",
    )


def sims(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(SimCard))


@pytest.fixture
def no_parser(monkeypatch):
    """openpyxl must never be reached by a refused file."""

    def refuse(*args, **kwargs):
        raise AssertionError("the workbook was parsed")

    monkeypatch.setattr(sim_import, "load_workbook", refuse)


def test_a_zip_bomb_workbook_is_refused_fast_without_parsing(app, people, no_parser):
    ((operator, op), _, _), _ids = people
    content = bomb()
    assert len(content) < 300 * 1024
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        assert sum(m.file_size for m in archive.infolist()) > 50 * uploads.MB
    for lang, message in (("en-US", "The file unpacks to more than 20 MB."), ("zh-CN", "文件解压后超过 20 MB。")):
        started = time.perf_counter()
        answer = post(operator, op, content, lang)
        elapsed = time.perf_counter() - started
        body = answer.get_json()
        assert answer.status_code == 413 and body["data"]["errors"] == {"file": [message]}, body
        assert elapsed < 2, elapsed  # the checks read the zip's directory only (about 13 ms here)
    assert sims(app) == 0


def test_a_member_compressed_beyond_the_ratio_is_refused(app, people, no_parser):
    ((operator, op), _, _), _ids = people
    content = bomb(rows=800)  # about 9 MB unpacked: under the size cap, far above the ratio
    answer = post(operator, op, content)
    body = answer.get_json()
    assert answer.status_code == 413, body
    assert body["data"]["errors"]["file"] == [
        "The file is compressed more than 100 times and is refused as a possible zip bomb."
    ]
    many = io.BytesIO()
    with zipfile.ZipFile(many, "w") as archive:
        for number in range(uploads.IMPORTS["xlsx"].max_members + 1):
            archive.writestr(f"part{number}.xml", b"<a/>")
    body = post(operator, op, many.getvalue()).get_json()
    assert body["code"] == 413 and body["data"]["errors"]["file"] == ["The file holds too many parts (at most 100)."]
    too_big = b"PK\x03\x04" + b"\x00" * (2 * uploads.MB)
    body = post(operator, op, too_big).get_json()
    assert body["code"] == 413 and body["data"]["errors"]["file"] == ["The file is too large (at most 2 MB)."]
    assert sims(app) == 0


def test_too_many_rows_are_refused_and_nothing_is_imported(app, people, monkeypatch):
    ((operator, op), _, _), _ids = people
    rows = [[f"1486{n:011d}", f"8986{n:016d}", None, None, None, None, 0, None] for n in range(5001)]
    body = post(operator, op, workbook(rows).getvalue()).get_json()
    assert body["code"] == 413 and body["data"]["errors"]["file"] == ["At most 5000 rows per file."], body
    assert sims(app) == 0
    # The limit is read from IMPORTS: at the limit the rows are imported, one more refuses them all.
    monkeypatch.setitem(uploads.IMPORTS, "xlsx", replace(uploads.IMPORTS["xlsx"], max_rows=3))
    assert post(operator, op, workbook(rows[:4]).getvalue()).get_json()["data"]["errors"]["file"] == [
        "At most 3 rows per file."
    ]
    answer = post(operator, op, workbook(rows[:3]).getvalue()).get_json()
    assert answer["code"] == 0 and answer["data"]["imported"] == 3, answer
    assert sims(app) == 3


def test_every_import_kind_has_all_its_caps():
    for kind, limits in uploads.IMPORTS.items():
        assert limits.max_bytes > 0 and limits.max_rows > 0, kind
        if kind in ("xlsx", "zip"):  # zip containers
            assert limits.max_unpacked > limits.max_bytes and limits.max_ratio and limits.max_members, kind


def test_the_zip_checks_alone(app):
    with app.test_request_context("/", headers={"Accept-Language": "zh-CN"}):
        with pytest.raises(uploads.ApiError) as refused:
            uploads.read_import(FileStorage(io.BytesIO(bomb())), "zip", field="archive")
        assert refused.value.data == {"errors": {"archive": ["文件解压后超过 50 MB。"]}}
        with pytest.raises(uploads.ApiError) as refused:
            uploads.read_import(FileStorage(io.BytesIO(b"not a zip")), "xlsx")
        assert refused.value.http_status == 415
        with pytest.raises(uploads.ApiError) as refused:
            uploads.read_import(None, "csv")
        assert refused.value.http_status == 422
        plain = io.BytesIO()
        Workbook().save(plain)
        assert uploads.read_import(FileStorage(io.BytesIO(plain.getvalue())), "xlsx") == plain.getvalue()
