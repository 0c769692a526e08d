"""The installation qualification (IQ): what is installed, identified so that a second installation
can be compared with this one: the commit, versions, database and schema revision, and SHA-256 hashes
of the api's source tree and the lock files."""

from __future__ import annotations

import hashlib
import platform
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import current_app
from sqlalchemy.exc import SQLAlchemyError

from api.extensions.db import db
from api.settings import ROOT

# The libraries the records, signatures, seals and documents depend on.
KEY_PACKAGES = (
    "flask",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "marshmallow",
    "argon2-cffi",
    "cryptography",
    "pyhanko",
    "asn1crypto",
    "reportlab",
    "openpyxl",
    "rq",
    "redis",
)
LOCK_FILES = ("requirements.lock", "package-lock.json", "pyproject.toml")


@dataclass(frozen=True)
class Item:
    name: str
    value: str
    ok: bool = True  # False: the IQ finds something the reader must look at


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(  # noqa: S603 - fixed git arguments, no shell
            ["git", *args],  # noqa: S607 - git from PATH, as a developer runs it
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def commit() -> Item:
    head = _git("rev-parse", "HEAD")
    if head is None:
        return Item("Git commit", "unknown (no git checkout)", ok=False)
    changed = _git("status", "--porcelain", "--untracked-files=no")
    if changed:
        return Item("Git commit", f"{head} with uncommitted changes", ok=False)
    return Item("Git commit", head)


def project_version() -> str:
    try:
        return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return metadata.version("coldchain")


def versions() -> list[Item]:
    items = [
        Item("Product version (pyproject.toml)", project_version()),
        Item("Python", f"{platform.python_implementation()} {sys.version.split()[0]}"),
        Item("Operating system", platform.platform()),
    ]
    for package in KEY_PACKAGES:
        try:
            items.append(Item(package, metadata.version(package)))
        except metadata.PackageNotFoundError:
            items.append(Item(package, "not installed", ok=False))
    return items


def database() -> list[Item]:
    """The engine and whether its schema is at the migrations' head (a shortfall is an IQ finding)."""
    heads = set(ScriptDirectory(str(Path(current_app.extensions["migrate"].directory))).get_heads())
    try:
        with db.engine.connect() as connection:
            dialect = connection.dialect
            server = ".".join(str(part) for part in dialect.server_version_info or ()) or "?"
            current = set(MigrationContext.configure(connection).get_current_heads())
    except SQLAlchemyError as exc:
        return [Item("Database", f"unreachable: {type(exc).__name__}", ok=False)]
    at_head = current == heads
    state = "at head" if at_head else f"NOT at head ({', '.join(sorted(heads))})"
    return [
        Item("Database engine", f"{dialect.name} {server} ({dialect.driver})"),
        Item("Schema revision", f"{', '.join(sorted(current)) or 'none'} {state}", ok=at_head),
    ]


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def source_tree_hash(folder: Path) -> tuple[str, int]:
    """One SHA-256 over every source file under `folder` (relative path and content hash, in path
    order; caches and compiled catalogues left out): equal trees, equal hashes. Returns the file count."""
    digest = hashlib.sha256()
    files = sorted(
        path
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".mo")
    )
    for path in files:
        digest.update(f"{path.relative_to(folder.parent).as_posix()}\0{sha256_file(path)}\n".encode())
    return digest.hexdigest(), len(files)


def hashes() -> list[Item]:
    tree, count = source_tree_hash(ROOT / "api")
    items = [Item(f"api/ source tree ({count} files)", tree)]
    for name in LOCK_FILES:
        path = ROOT / name
        items.append(Item(name, sha256_file(path)) if path.exists() else Item(name, "missing", ok=False))
    return items


def identification() -> list[Item]:
    return [commit(), *versions()]


def qualification() -> list[Item]:
    """The IQ checks: the schema at head, then what is installed, by hash."""
    return [*database(), *hashes()]
