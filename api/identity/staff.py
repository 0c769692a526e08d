"""Who is platform staff, and over which platforms: the one check behind every operator call.

- The operator (staff role `operator`) signed in on the operator's site runs every platform.
- A reseller admin (staff role `platform_admin`) signed in on their own site runs that platform
  only: the one whose customization names them as admin, or the independent site whose data space
  their account belongs to (a seeded reseller). Nobody else is staff, whatever keys they hold.
Permission keys (`customized.list.edit` ...) are checked first by the access gate (`Blueprint.requires`); this decides
the reach, and refuses with 403 'Access Denied' like a missing key.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, g
from flask_babel import gettext
from sqlalchemy import Select

from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.identity.models import Account, StaffRole
from api.platform.models import Platform
from api.tenancy import current_platform


@dataclass(frozen=True)
class StaffScope:
    account: Account
    # None: every platform (the operator); else the one platform a reseller admin runs.
    platform: Platform | None

    @property
    def is_operator(self) -> bool:
        return self.platform is None

    def reaches(self, platform_id: int) -> bool:
        return self.platform is None or self.platform.id == platform_id

    def restrict(self, stmt: Select, column) -> Select:
        """Only rows of the platforms this staff member runs (`column` holds the platform id)."""
        return stmt if self.platform is None else stmt.where(column == self.platform.id)


def access_denied() -> ApiError:
    return ApiError(gettext("Access Denied"), code=403, http_status=403)


def manages(account: Account, platform: Platform) -> bool:
    """Whether `account` is the reseller admin of `platform`."""
    if account.staff_role not in (StaffRole.PLATFORM_ADMIN, StaffRole.OPERATOR):
        return False
    if platform.admin_account_id == account.id:
        return True
    operator_site = platform.slug == current_app.config["OPERATOR_TENANT"]
    return platform.independent and not operator_site and account.platform_id == platform.id


def staff_scope(*, operator_only: bool = False) -> StaffScope:
    """The signed-in staff member's reach on this site, or 403 for anybody else (or, with
    `operator_only`, for a reseller admin)."""
    if "staff_scope" not in g:
        account = require_account()
        platform = current_platform()
        if account.staff_role == StaffRole.OPERATOR and platform.slug == current_app.config["OPERATOR_TENANT"]:
            g.staff_scope = StaffScope(account, None)
        elif manages(account, platform):
            g.staff_scope = StaffScope(account, platform)
        else:
            g.staff_scope = None
    scope = g.staff_scope
    if scope is None or (operator_only and not scope.is_operator):
        raise access_denied()
    return scope
