"""Tenant definitions (tenants/<slug>/tenant.json) and the branding served per host."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import marshmallow as ma
from flask import current_app, request
from sqlalchemy import select

from api.extensions import uploads
from api.extensions.db import db
from api.platform.models import Platform, PlatformDomain
from api.platform.schemas import TenantDefinitionSchema
from api.platform.styles import style_model_names
from api.tenancy import current_platform, find_platform, normalize_host

log = logging.getLogger(__name__)

# Branding images a browser may be served; the type is checked by name here and by content when
# operators upload their own (later issue).
BRANDING_TYPES = {
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".ico": "image/x-icon",
}
# The folder of logos uploaded on the customization page (never a slug: slugs start with a letter).
UPLOADED_BRANDING = "_branding"
LOGO_COLUMNS = {
    "browserLogo": "browser_logo",
    "loginLogo": "login_logo",
    "indexLogo": "index_logo",
    "loginBackground": "login_background",
}


class TenantDefinitionError(ValueError):
    pass


def branding_file_url(slug: str, name: str) -> str:
    return f"/api/base/BaseCustomPage/file/{slug}/{name}"


def read_tenant_definitions(tenants_dir: Path, themes_dir: Path) -> list[dict[str, Any]]:
    """Every tenants/<slug>/tenant.json, validated; one error lists every bad file and field."""
    schema = TenantDefinitionSchema(style_models=style_model_names(themes_dir))
    definitions, problems = [], []
    for path in sorted(tenants_dir.glob("*/tenant.json")):
        try:
            definition = schema.load(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, ma.ValidationError) as exc:
            problems.append(f"{path}: {getattr(exc, 'messages', exc)}")
            continue
        if definition["slug"] != path.parent.name:
            problems.append(f"{path}: slug {definition['slug']!r} must equal its folder name")
        for key, name in definition["logos"].items():
            if Path(name).name != name or Path(name).suffix.lower() not in BRANDING_TYPES:
                problems.append(f"{path}: logos.{key} must be a file name ending in {', '.join(BRANDING_TYPES)}")
            elif not (path.parent / name).is_file():
                problems.append(f"{path}: logos.{key} file {name} is missing")
        definitions.append(definition)
    seen: dict[str, str] = {}
    for definition in definitions:
        for host in {definition["topDomain"], *definition["domains"]}:
            if host in seen and seen[host] != definition["slug"]:
                problems.append(f"domain {host} is claimed by both {seen[host]} and {definition['slug']}")
            seen[host] = definition["slug"]
    if problems:
        raise TenantDefinitionError("\n".join(problems))
    return definitions


def sync_tenants(tenants_dir: Path | None = None, themes_dir: Path | None = None) -> list[Platform]:
    """Create or update one platform per definition. Idempotent; platforms not on disk are kept.

    A platform created or edited on the customization page (`page_managed`) is the page's: its
    definition only seeds it, so it is left as it is (and reported). A definition claiming a domain
    another platform already answers changes nothing, like any other wrong definition."""
    tenants_dir = tenants_dir or current_app.config["TENANTS_DIR"]
    themes_dir = themes_dir or current_app.config["THEMES_DIR"]
    definitions = read_tenant_definitions(tenants_dir, themes_dir)
    _check_domains_free(definitions)
    platforms = []
    for definition in definitions:
        platform = db.session.scalar(select(Platform).where(Platform.slug == definition["slug"]))
        if platform is not None and platform.page_managed:
            log.info("tenant %s is managed on the customization page: tenants/ left it as it is", platform.slug)
            platforms.append(platform)
            continue
        if platform is None:
            platform = Platform(slug=definition["slug"])
            db.session.add(platform)
        _apply_definition(platform, definition)
        platforms.append(platform)
    db.session.commit()
    return platforms


def _check_domains_free(definitions: list[dict[str, Any]]) -> None:
    hosts = {host: d["slug"] for d in definitions for host in {d["topDomain"], *d["domains"]}}
    held = db.session.execute(
        select(PlatformDomain.domain, Platform.slug)
        .join(Platform)
        .where(PlatformDomain.domain.in_(list(hosts)), Platform.slug.not_in(set(hosts.values())))
    ).all()
    problems = [f"domain {host} of tenants/{hosts[host]} is already answered by platform {slug}" for host, slug in held]
    if problems:
        raise TenantDefinitionError("\n".join(problems))


def _apply_definition(platform: Platform, definition: dict[str, Any]) -> None:
    platform.enterprise_name = definition["enterpriseName"]
    platform.top_domain = definition["topDomain"]
    platform.titles = definition["title"]
    platform.https = definition["https"]
    platform.login_page = definition["loginPage"]
    platform.theme_color = definition["themeColor"].lower()
    platform.style_model = definition["styleModel"]
    platform.default_locale = definition["defaultLocale"]
    platform.enable_register = definition["enableRegister"]
    platform.default_camp = definition["defaultCamp"]
    platform.independent = definition["independent"]
    for key, column in LOGO_COLUMNS.items():
        setattr(platform, column, branding_file_url(definition["slug"], definition["logos"][key]))
    platform.record_company = definition["record"]["company"]
    platform.record_number = definition["record"]["number"]
    platform.record_link = definition["record"]["link"]
    platform.company_address = definition["seller"].get("address")
    platform.tax_id = definition["seller"].get("taxId")
    platform.remark = definition["remark"]
    platform.oauth = definition["oauth"]
    wanted = sorted({definition["topDomain"], *definition["domains"]})
    platform.domains = [
        next((d for d in platform.domains if d.domain == host), None) or PlatformDomain(domain=host) for host in wanted
    ]


def branding_for(top_domain: str) -> Platform | None:
    """Usually the site asks for its own branding: reuse the platform the request resolved."""
    if normalize_host(top_domain) == normalize_host(request.host):
        return current_platform()
    return find_platform(top_domain)


def branding_file(slug: str, name: str) -> tuple[Path, str] | None:
    """The path and media type of a tenant's branding image, or None if there is no such file."""
    if Path(name).name != name or Path(slug).name != slug:
        return None
    if slug == UPLOADED_BRANDING:  # uploaded on the customization page (generated names)
        return uploads.find_upload(slug, name)
    media_type = BRANDING_TYPES.get(Path(name).suffix.lower())
    path = current_app.config["TENANTS_DIR"] / slug / name
    if media_type is None or not path.is_file():
        return None
    return path, media_type
