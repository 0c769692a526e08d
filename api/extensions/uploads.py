"""Files users upload: size caps, type checked by content, generated names, served inert.

Spec (business-domain section 5): "limits 1, 2 or 10 MB depending on field; images JPG, JPEG, PNG;
icon only for icon fields; JSON only for some uploads." A field names its kind; `accept_upload`
refuses a file over its kind's cap with HTTP 413 'The file is too large' and a file whose bytes are
not one of the kind's types with 'file error' (HTTP 415), whatever its name or declared type says.
The stored name is generated (never the client's), so a name cannot climb out of the upload folder,
overwrite another file or pick its own extension. Files are served with nosniff, a sandboxing CSP
and as attachments unless they are images.
"""

from __future__ import annotations

import hashlib
import io
import json
import secrets
import zipfile
from dataclasses import dataclass
from pathlib import Path

from flask import Response, current_app, send_file
from flask_babel import gettext
from werkzeug.datastructures import FileStorage

from api.extensions.field_rules import field_rules
from api.extensions.i18n import N_
from api.extensions.smorest import ApiError

MB = 1024 * 1024
TOO_LARGE = N_("The file is too large")
FILE_ERROR = N_("file error")

# Magic bytes of every type a user may upload.
SIGNATURES: dict[str, tuple[bytes, ...]] = {
    ".png": (b"\x89PNG\r\n\x1a\n",),
    ".jpg": (b"\xff\xd8\xff",),
    ".ico": (b"\x00\x00\x01\x00",),
    ".pdf": (b"%PDF-",),
}
MEDIA_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".pdf": "application/pdf",
    ".bin": "application/octet-stream",
}


@dataclass(frozen=True)
class UploadKind:
    max_bytes: int
    types: tuple[str, ...]  # extensions, checked by content


# The spec's three caps: icons 1 MB, images 2 MB, documents (JSON data files) 10 MB.
KINDS = {
    "icon": UploadKind(1 * MB, (".ico", ".png")),
    "image": UploadKind(2 * MB, (".jpg", ".png")),
    "json": UploadKind(10 * MB, (".json",)),
    "pdf": UploadKind(10 * MB, (".pdf",)),  # calibration reports and certificates
    "firmware": UploadKind(
        field_rules()["upgrade"]["firmwareMaxMB"] * MB, (".bin",)
    ),  # device firmware: any bytes, never served inline
}
# The whole request may carry the largest file plus its multipart framing and a few form fields.
MAX_REQUEST_BYTES = max(kind.max_bytes for kind in KINDS.values()) + 64 * 1024


@dataclass(frozen=True)
class StoredUpload:
    name: str
    path: Path
    media_type: str
    size: int
    sha256: str


def sniff(content: bytes, allowed: tuple[str, ...]) -> str | None:
    """The extension whose content `content` really is (among `allowed`), else None."""
    for extension in allowed:
        if extension == ".bin":  # an opaque image for a device: checked by size and checksum only
            return extension
        if extension == ".json":
            try:
                json.loads(content.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                continue
            return extension
        if any(content.startswith(magic) for magic in SIGNATURES.get(extension, ())):
            return extension
    return None


def read_checked(file: FileStorage | None, kind: str) -> tuple[bytes, str]:
    """The bytes and true extension of an uploaded file, or an ApiError (413 too large, 415 wrong type)."""
    spec = KINDS[kind]
    if file is None:
        raise ApiError(gettext(FILE_ERROR), code=400, http_status=400)
    content = file.stream.read(spec.max_bytes + 1)
    if len(content) > spec.max_bytes:
        raise ApiError(gettext(TOO_LARGE), code=413, http_status=413)
    extension = sniff(content, spec.types) if content else None
    if extension is None:
        raise ApiError(gettext(FILE_ERROR), code=415, http_status=415)
    return content, extension


def upload_root() -> Path:
    return Path(current_app.config["UPLOAD_DIR"])


def store_upload(file: FileStorage | None, kind: str, folder: str) -> StoredUpload:
    """Check and store an upload under `folder` (e.g. the platform's slug) with a generated name."""
    content, extension = read_checked(file, kind)
    directory = upload_root() / _safe_segment(folder)
    directory.mkdir(parents=True, exist_ok=True)
    name = secrets.token_hex(16) + extension
    path = directory / name
    path.write_bytes(content)
    return StoredUpload(
        name=name,
        path=path,
        media_type=MEDIA_TYPES[extension],
        size=len(content),
        sha256=hashlib.sha256(content).hexdigest(),
    )


def find_upload(folder: str, name: str) -> tuple[Path, str] | None:
    """A stored upload by its generated name, or None (names are never paths)."""
    stem, dot, extension = name.partition(".")
    if (
        not dot
        or f".{extension}" not in MEDIA_TYPES
        or len(stem) != 32
        or not all(c in "0123456789abcdef" for c in stem)
    ):
        return None
    path = upload_root() / _safe_segment(folder) / name
    if not path.is_file():
        return None
    return path, MEDIA_TYPES[f".{extension}"]


def send_upload(path: Path, media_type: str) -> Response:
    """Serve a stored upload: never sniffed, never run, downloaded unless it is an image."""
    response = send_file(path, mimetype=media_type, max_age=3600, as_attachment=not media_type.startswith("image/"))
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response


def _safe_segment(folder: str) -> str:
    if not folder or Path(folder).name != folder or folder in {".", ".."}:
        raise ValueError(f"bad upload folder {folder!r}")
    return folder


def delete_upload(folder: str, name: str) -> None:
    """Remove a stored upload (a name that is not one of ours removes nothing)."""
    found = find_upload(folder, name)
    if found is not None:
        found[0].unlink(missing_ok=True)


# ---- imports: files the api parses (XLSX, CSV, JSON, ZIP) ----------------------------------------------
#
# The one source of every import's caps, checked before any parser sees the file: its size as
# uploaded, and for zip containers (XLSX is one) the central directory alone (members, their declared
# sizes together, each member's compression ratio), so a small file that inflates to gigabytes is
# refused in milliseconds instead of filling the api's memory (issue 44: a 204 KB XLSX SIM import
# took the api from 371 to 723 MB). A reader stops at `max_rows` + 1 and calls `check_rows`.


@dataclass(frozen=True)
class ImportLimits:
    max_bytes: int  # the file as uploaded
    max_rows: int  # data rows (a header row not counted)
    max_unpacked: int = 0  # zip containers: the members' declared sizes together (0: not a zip)
    max_ratio: int = 0  # zip containers: a member's size over its compressed size
    max_members: int = 0  # zip containers: how many members


# A member smaller than this is not judged by its ratio (a few repeated bytes compress very well).
RATIO_FLOOR = 256 * 1024
ZIP_MAGIC = b"PK\x03\x04"
IMPORTS = {
    "xlsx": ImportLimits(2 * MB, 5000, max_unpacked=20 * MB, max_ratio=100, max_members=100),
    "csv": ImportLimits(2 * MB, 5000),
    "json": ImportLimits(10 * MB, 5000),
    "zip": ImportLimits(10 * MB, 5000, max_unpacked=50 * MB, max_ratio=100, max_members=1000),
}


def import_refused(field: str, message: str, status: int) -> ApiError:
    """A refused import: the message names the field (the form's file field)."""
    text = f"{gettext('Invalid input')} - {field}: {message}"
    return ApiError(text, code=status, http_status=status, data={"errors": {field: [message]}})


def read_import(file: FileStorage | None, kind: str, field: str = "file") -> bytes:
    """The bytes of an import file once its size (and, for a zip container, its central directory)
    passed the caps of IMPORTS[kind]; nothing is parsed or inflated before."""
    limits = IMPORTS[kind]
    if file is None:
        raise import_refused(field, gettext("This field is required."), 422)
    content = file.stream.read(limits.max_bytes + 1)
    if len(content) > limits.max_bytes:
        message = gettext("The file is too large (at most %(mb)s MB).", mb=limits.max_bytes // MB)
        raise import_refused(field, message, 413)
    if not content:
        raise import_refused(field, gettext(FILE_ERROR), 415)
    if limits.max_unpacked:
        check_zip(content, limits, field)
    return content


def check_zip(content: bytes, limits: ImportLimits, field: str) -> None:
    """Read the zip's central directory only (no member is inflated) and refuse what would unpack
    beyond the caps. zipfile inflates no more than a member's declared size, so the sums hold."""
    if not content.startswith(ZIP_MAGIC):
        raise import_refused(field, gettext(FILE_ERROR), 415)
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError):
        raise import_refused(field, gettext(FILE_ERROR), 415) from None
    if len(members) > limits.max_members:
        message = gettext("The file holds too many parts (at most %(count)s).", count=limits.max_members)
        raise import_refused(field, message, 413)
    if sum(member.file_size for member in members) > limits.max_unpacked:
        message = gettext("The file unpacks to more than %(mb)s MB.", mb=limits.max_unpacked // MB)
        raise import_refused(field, message, 413)
    for member in members:
        if member.file_size > RATIO_FLOOR and member.file_size > limits.max_ratio * max(member.compress_size, 1):
            message = gettext(
                "The file is compressed more than %(ratio)s times and is refused as a possible zip bomb.",
                ratio=limits.max_ratio,
            )
            raise import_refused(field, message, 413)


def check_rows(count: int, kind: str, field: str = "file") -> None:
    """Refuse a file with more data rows than IMPORTS[kind] allows (the reader stops at one more)."""
    limit = IMPORTS[kind].max_rows
    if count > limit:
        raise import_refused(field, gettext("At most %(rows)s rows per file.", rows=limit), 413)
