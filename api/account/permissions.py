"""Permission keys (business-domain section 6) granted to an account.

An account on its own (or creating organisations) holds the template of its kind below. An account
that is a member of someone else's organisation holds what its roles there grant (api/role), plus
the member baseline. accountInfo returns the keys as permissionRoutes and `login_required(key)`
enforces them with the same rule the web applies (api/role/permissions.key_passes).
"""

from __future__ import annotations

from flask import g, has_request_context

from api.account.models import Account, StaffRole

ACCOUNT_HOLDER = (
    "home",
    "message.list",
    "device.list",
    "storage.list",
    "freezer.list",
    "waybill.list",
    "waybill.geofence",
    "asset.list",
    "project.list",
    "organization.list",
    "organization.list.userList",
    "fda",
    "consumer",
    "consumer.info",
    "consumer.list",
    "consumer.role",
    "consumer.recharge",
    "consumer.download",
    "consumer.sharer",
    "operation.log",
)
PLATFORM_ADMIN = (
    *ACCOUNT_HOLDER,
    "customized.list",
    "notice.list",
    "operation",
    "operation.system",
    "operation.system.consumer",
    "operation.system.role",
    "operation.unlock",
)
OPERATOR = (
    *PLATFORM_ADMIN,
    "operation.device",
    "operation.product",
    "operation.order",
    "service.center",
    "service.center.scheduledBackup",
    "dataInterface.index",
)
GRANTS: dict[StaffRole | None, tuple[str, ...]] = {
    None: ACCOUNT_HOLDER,
    StaffRole.PLATFORM_ADMIN: PLATFORM_ADMIN,
    StaffRole.OPERATOR: OPERATOR,
}


def permission_keys(account: Account) -> list[str]:
    """The account's keys (computed once per request)."""
    cache = g.setdefault("permission_keys", {}) if has_request_context() else {}
    if account.id not in cache:
        from api.role.services import member_keys
        from api.tenancy import takes_part

        member = not account.staff_role and takes_part(account.id, "organizations")
        role_keys = member_keys(account.id) if member else None
        cache[account.id] = role_keys if role_keys is not None else list(GRANTS.get(account.staff_role, ()))
    return cache[account.id]


def has_permission(account: Account, key: str) -> bool:
    from api.role.permissions import key_passes

    return key_passes(set(permission_keys(account)), key)
