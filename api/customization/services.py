"""Platform customization: create, change and delete branded sites from the page.

The operator runs every platform; a reseller admin changes only their own platform's branding (the
reduced form of schemas.RESELLER_FIELDS). A change is live on every process within about a second
(api/extensions/snapshots.py). A platform the page touched is `page_managed`: `flask sync-tenants`
leaves it alone from then on (docs/tenants.md: the page wins over tenants/).
"""

from __future__ import annotations

import re
import secrets

from flask import current_app
from flask_babel import gettext
from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from werkzeug.datastructures import FileStorage

from api.account.services import hash_password
from api.billing.models import Order, PayStatus
from api.customization.schemas import RESELLER_FIELDS, UPLOAD_FIELDS
from api.device.models import Device
from api.extensions import uploads
from api.extensions.db import db, escape_like, paginate, utcnow
from api.extensions.smorest import ApiError, field_error
from api.identity.models import Account, AccountType, StaffRole
from api.identity.staff import StaffScope, access_denied
from api.notify.models import Channel
from api.notify.services import add_message
from api.platform.models import Platform, PlatformDomain
from api.platform.services import UPLOADED_BRANDING as UPLOAD_FOLDER
from api.platform.services import branding_file_url
from api.tenancy import operator_platform

UPLOADED_URL = re.compile(r"^/api/base/BaseCustomPage/file/([a-z_][a-z0-9_-]{0,49})/([A-Za-z0-9._-]{1,100})$")
COLUMNS = {
    "enterpriseName": "enterprise_name",
    "title": "titles",
    "topDomain": "top_domain",
    "https": "https",
    "loginPage": "login_page",
    "themeColor": "theme_color",
    "styleModel": "style_model",
    "defaultLocale": "default_locale",
    "enableRegister": "enable_register",
    "independent": "independent",
    "loginLogo": "login_logo",
    "indexLogo": "index_logo",
    "loginBackground": "login_background",
    "browserLogo": "browser_logo",
    "recordCompany": "record_company",
    "recordNumber": "record_number",
    "recordLink": "record_link",
    "remark": "remark",
    "companyAddress": "company_address",
    "taxId": "tax_id",
}
RECORD_FIELDS = ("recordCompany", "recordNumber", "recordLink")


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


# ---- reading ---------------------------------------------------------------------------------------


def _with_admin_names(platforms: list[Platform]) -> list[Platform]:
    ids = {p.admin_account_id for p in platforms if p.admin_account_id}
    rows = db.session.execute(select(Account.id, Account.user_name).where(Account.id.in_(ids))).all() if ids else []
    names = dict(rows)
    for platform in platforms:
        platform.admin_user_name = names.get(platform.admin_account_id)
    return platforms


def page(scope: StaffScope, args: dict) -> dict:
    stmt = scope.restrict(select(Platform), Platform.id)
    if args.get("keyword"):
        pattern = f"%{escape_like(args['keyword'].lower())}%"
        stmt = stmt.where(
            or_(
                func.lower(Platform.enterprise_name).like(pattern, escape="\\"),
                func.lower(Platform.top_domain).like(pattern, escape="\\"),
                Platform.id.in_(
                    select(PlatformDomain.platform_id).where(PlatformDomain.domain.like(pattern, escape="\\"))
                ),
            )
        )
    result = paginate(stmt, args, Platform.created_at.desc(), Platform.id.desc())
    _with_admin_names(result["list"])
    return result


def get(scope: StaffScope, platform_id: int) -> Platform:
    platform = db.session.get(Platform, platform_id)
    if platform is None or not scope.reaches(platform.id):
        raise not_found()
    return _with_admin_names([platform])[0]


# ---- uploads ---------------------------------------------------------------------------------------


def upload(field: str, file: FileStorage | None) -> dict:
    """Store a logo, background or browser icon (checked by content) and give its url for the form."""
    try:
        stored = uploads.store_upload(file, UPLOAD_FIELDS[field], UPLOAD_FOLDER)
    except ApiError as error:  # the same refusal, naming the field
        raise ApiError(
            f"{field}: {error.msg}",
            code=error.code,
            http_status=error.http_status,
            data={"errors": {field: [error.msg]}},
        ) from error
    return {"field": field, "url": branding_file_url(UPLOAD_FOLDER, stored.name)}


def _check_image(field: str, url: str, current: str | None) -> None:
    """A logo is an uploaded file (or the one it already is): never an arbitrary address."""
    if url == current:
        return
    match = UPLOADED_URL.match(url)
    if match is None or match.group(1) != UPLOAD_FOLDER or uploads.find_upload(UPLOAD_FOLDER, match.group(2)) is None:
        raise field_error(field, gettext("Upload the image first."))
    kind = uploads.KINDS[UPLOAD_FIELDS[field]]
    if "." + match.group(2).rsplit(".", 1)[-1] not in kind.types:
        raise field_error(field, gettext("file error"), status=415)


# ---- writing ---------------------------------------------------------------------------------------


def _check_domains(platform: Platform | None, hosts: list[str]) -> None:
    seen: set[str] = set()
    for host in hosts:
        if host in seen:
            raise field_error("domains", gettext("The domain %(domain)s is listed twice.", domain=host))
        seen.add(host)
    others = select(PlatformDomain.domain).where(PlatformDomain.domain.in_(hosts))
    tops = select(Platform.top_domain).where(Platform.top_domain.in_(hosts))
    if platform is not None and platform.id is not None:
        others = others.where(PlatformDomain.platform_id != platform.id)
        tops = tops.where(Platform.id != platform.id)
    taken = set(db.session.scalars(others)) | set(db.session.scalars(tops))
    aliases = set(current_app.config["HOST_ALIASES"]) - ({platform.top_domain} if platform else set())
    taken |= aliases & set(hosts)
    if taken:
        host = sorted(taken)[0]
        field = "topDomain" if hosts and hosts[0] == host else "domains"
        raise field_error(field, gettext("The domain %(domain)s is already used by another platform.", domain=host))


def _apply(platform: Platform, args: dict) -> None:
    with db.session.no_autoflush:  # the checks query the other platforms before anything is written
        _apply_fields(platform, args)


def _apply_fields(platform: Platform, args: dict) -> None:
    for field, column in COLUMNS.items():
        if field not in args:
            continue
        value = args[field]
        if field in UPLOAD_FIELDS and value is not None:
            _check_image(field, value, getattr(platform, column))
        if field == "themeColor":
            value = value.lower()
        setattr(platform, column, value)
    record = [getattr(platform, COLUMNS[f]) for f in RECORD_FIELDS]
    if any(record) and not all(record):
        missing = next(f for f, value in zip(RECORD_FIELDS, record, strict=True) if not value)
        raise field_error(missing, gettext("Company, number and link of the filing are shown together."))
    if "topDomain" in args or "domains" in args:
        extra = args.get("domains", [d.domain for d in platform.domains if d.domain != platform.top_domain])
        hosts = [platform.top_domain, *[h for h in extra if h != platform.top_domain]]
        _check_domains(platform, hosts)
        platform.domains = [
            next((d for d in platform.domains if d.domain == host), None) or PlatformDomain(domain=host)
            for host in sorted(set(hosts))
        ]
    platform.page_managed = True


def _slug_for(args: dict) -> str:
    base = re.sub(r"[^a-z0-9-]", "-", args["topDomain"].split(".")[0])[:40].strip("-") or "site"
    base = base if base[0].isalpha() else f"p-{base}"
    slug, n = base, 1
    while db.session.scalar(select(Platform.id).where(Platform.slug == slug)) is not None:
        n += 1
        slug = f"{base}-{n}"
    return slug


def insert(scope: StaffScope, args: dict) -> Platform:
    if not scope.is_operator:
        raise access_denied()
    platform = Platform(slug=_slug_for(args), oauth={}, domains=[])
    admin = args.pop("admin", None)
    _apply(platform, args)
    db.session.add(platform)
    db.session.flush()
    if admin:
        _link_admin(platform, admin)  # the mail leaves through the outbox once this commits
    _commit()
    return get(scope, platform.id)


def update(scope: StaffScope, args: dict) -> Platform:
    platform = db.session.get(Platform, args["id"])
    if platform is None or not scope.reaches(platform.id):
        raise not_found()
    if not scope.is_operator:
        refused = sorted(set(args) - RESELLER_FIELDS)
        if refused:
            raise field_error(refused[0], gettext("Only the platform operator can change this field."), status=403)
    admin = args.pop("admin", None)
    _apply(platform, {k: v for k, v in args.items() if k != "id"})
    if admin:
        _link_admin(platform, admin)  # the mail leaves through the outbox once this commits
    _commit()
    return get(scope, platform.id)


def _removable(scope: StaffScope, platform_id: int) -> Platform:
    if not scope.is_operator:
        raise access_denied()
    platform = db.session.get(Platform, platform_id)
    if platform is None:
        raise not_found()
    if platform.slug == current_app.config["OPERATOR_TENANT"]:
        raise ApiError(gettext("The operator's own platform cannot be deleted."), code=409, http_status=409)
    return platform


def set_closed(scope: StaffScope, platform_id: int, closed: bool) -> Platform:
    """Switch a site off (its domains answer "site closed", nobody signs in there) or on again."""
    platform = _removable(scope, platform_id)
    platform.closed_at = (platform.closed_at or utcnow()) if closed else None
    db.session.commit()
    return get(scope, platform.id)


def delete(scope: StaffScope, platform_id: int) -> None:
    """Remove a site nobody paid on: with its accounts and devices (registered, never paying). A site
    with paying customers can only be switched off (set_closed)."""
    platform = _removable(scope, platform_id)
    paying = db.session.scalar(
        select(func.count(func.distinct(Order.owner_account_id))).where(
            Order.platform_id == platform.id, Order.pay_status.in_((PayStatus.PAID, PayStatus.REFUNDED))
        )
    )
    if paying:
        raise ApiError(
            gettext(
                "This site has %(count)s paying customers: it cannot be removed; switch it off instead.",
                count=paying,
            ),
            code=409,
            http_status=409,
        )
    admin = db.session.get(Account, platform.admin_account_id) if platform.admin_account_id else None
    if admin is not None and admin.platform_id != platform.id:
        admin.staff_role = None  # an account of the operator's data space stays, without the site's rights
    # Every flush inside the try: an account with trail rows (operation_log is append-only, so its
    # account_id cannot be set NULL) is refused at the accounts' flush, not only at the commit.
    try:
        for device in db.session.scalars(select(Device).where(Device.platform_id == platform.id)):
            db.session.delete(device)
        db.session.flush()
        for account in db.session.scalars(select(Account).where(Account.platform_id == platform.id)):
            db.session.delete(account)
        db.session.flush()
        db.session.delete(platform)
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        raise ApiError(
            gettext("This platform still owns data (accounts, devices or their records): it cannot be deleted."),
            code=409,
            http_status=409,
        ) from exc


def _commit() -> None:
    try:
        db.session.commit()
    except IntegrityError as exc:  # two operators saving the same domain at once
        db.session.rollback()
        raise field_error("topDomain", gettext("This domain is already used by another platform.")) from exc


# ---- the reseller's admin account ------------------------------------------------------------------


def _link_admin(platform: Platform, admin: dict):
    """Link an existing account of the platform's data space by user name, or create it; either way
    it becomes the platform's admin and gets a sign-in link through the outbox."""
    space_id = platform.id if platform.independent else operator_platform().id
    account = db.session.scalar(
        select(Account).where(Account.platform_id == space_id, Account.user_name == admin["userName"])
    )
    if account is None:
        for field, column in (("email", Account.email), ("phone", Account.phone)):
            if admin.get(field) and db.session.scalar(
                select(Account.id).where(Account.platform_id == space_id, column == admin[field])
            ):
                raise field_error(f"admin.{field}", gettext("The user already exists"))
        account = Account(
            platform_id=space_id,
            user_name=admin["userName"],
            real_name=admin.get("realName"),
            email=admin.get("email"),
            phone=admin.get("phone"),
            # Nobody knows this password: the admin sets their own through the link.
            password_hash=hash_password(secrets.token_urlsafe(24)),
            account_type=AccountType.ENTERPRISE,
        )
        db.session.add(account)
    elif account.staff_role == StaffRole.OPERATOR:
        raise field_error("admin.userName", gettext("The operator cannot be a platform's admin."))
    account.staff_role = StaffRole.PLATFORM_ADMIN
    db.session.flush()
    platform.admin_account_id = account.id
    return _sign_in_link(platform, account)


def _sign_in_link(platform: Platform, account: Account):
    """Links in mail are built from the platform's configured domain and scheme, never the request."""
    link = f"{'https' if platform.https else 'http'}://{platform.top_domain}/user/recover"
    site = platform.title_for(platform.default_locale)
    text = gettext(
        "You are the administrator of %(site)s. Sign in as %(user)s at %(link)s after setting your password there.",
        site=site,
        user=account.user_name,
        link=link,
    )
    if account.email:
        return add_message(platform.id, Channel.EMAIL, account.email, text, subject=site)
    if account.phone:
        return add_message(platform.id, Channel.SMS, account.phone, text)
    return None
