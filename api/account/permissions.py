"""Permission keys (business-domain section 6) granted to each kind of account.

Roles and organisations (a later issue) will grant keys per role; until then these templates are
the grants. accountInfo returns them as permissionRoutes and `login_required(key)` enforces them.
"""

from __future__ import annotations

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
    return list(GRANTS.get(account.staff_role, ()))


def has_permission(account: Account, key: str) -> bool:
    """A key passes if it, or a parent of it (`operation` for `operation.device`), is granted."""
    granted = set(permission_keys(account))
    parts = key.split(".")
    return any(".".join(parts[:i]) in granted for i in range(len(parts), 0, -1))
