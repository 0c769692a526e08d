"""Permission keys (business-domain section 6): the tree, what each kind of account holds, and the rule.

The rule (console-shell section 6): a check passes if "the key, with optional sub-key, is in the
granted list": the key itself or a sub-key of it (`device.list.query` opens the route `device.list`).
A route key does NOT grant its actions: an operation that edits checks `device.list.edit`, and only an
account granted that action passes. Roles store a fully checked route as the route key; it is expanded
into the route and all its actions when an account's keys are computed (`expand`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from flask import g, has_request_context

from api.identity.auth import takes_part
from api.identity.models import Account, StaffRole

CRUD = ("query", "add", "edit", "delete")

# (key, actions, children): what account holders and organisation roles grant from.
TREE: tuple[tuple[str, tuple[str, ...], tuple], ...] = (
    ("home", (), ()),
    ("message.list", ("query", "edit", "delete"), ()),
    ("device.list", (*CRUD, "enable", "disable", "export", "share", "transfer"), ()),
    (
        "alarm",
        (),
        (
            ("alarm.limit", ("query", "edit"), ()),
            ("alarm.push", ("query", "edit"), ()),
            ("alarm.oncall", CRUD, ()),  # on-call schedules (issue 48)
        ),
    ),
    ("storage.list", (*CRUD, "export"), ()),
    ("freezer.list", (*CRUD, "export"), ()),
    (
        "waybill",
        (),
        (
            ("waybill.list", (*CRUD, "export", "start", "stop", "dispose", "share"), ()),
            ("waybill.geofence", CRUD, ()),
        ),
    ),
    ("asset", (), (("asset.list", (*CRUD, "enable", "disable"), ()),)),
    ("project.list", CRUD, ()),
    ("organization.list", CRUD, (("organization.list.userList", CRUD, ()),)),
    ("fda", (), ()),
    (
        "consumer",
        (),
        (
            ("consumer.info", (), ()),
            ("consumer.list", CRUD, ()),
            ("consumer.role", CRUD, ()),
            ("consumer.recharge", ("query", "buy", "invoice"), ()),
            ("consumer.download", ("query", "delete"), ()),
            ("consumer.sharer", CRUD, ()),
        ),
    ),
    ("operation.log", ("query",), ()),
    # The provincial data interface (issue 26): an account uploads its own devices' and storages' data.
    ("dataInterface.index", CRUD, ()),
    # Data centre: scheduled backups of the account's own devices, settings and readings (issue 26).
    ("service.center", (), (("service.center.scheduledBackup", CRUD, ()),)),
)

# Platform staff only: roles cannot grant these, so a member never becomes staff.
STAFF_TREE: tuple[tuple[str, tuple[str, ...], tuple], ...] = (
    ("operation", (), ()),
    ("operation.system", (), (("operation.system.consumer", CRUD, ()), ("operation.system.role", CRUD, ()))),
    ("operation.unlock", (), ()),
    ("customized.list", CRUD, ()),
    ("notice.list", CRUD, ()),
    # The help centre's categories and articles of the site (issue 26).
    ("help.list", CRUD, ()),
)
OPERATOR_TREE: tuple[tuple[str, tuple[str, ...], tuple], ...] = (
    (
        "operation.device",
        (),
        tuple(
            (f"operation.device.{name}", CRUD, ())
            for name in ("systemManage", "list", "guid", "guidRecord", "sim", "alarmlist", "dataApi")
        ),
    ),
    (
        "operation.product",
        (),
        tuple(
            (f"operation.product.{name}", CRUD, ())
            for name in ("type", "param", "unit", "series", "alarm", "warning", "template", "version")
        ),
    ),
    (
        "operation.order",
        (),
        tuple((f"operation.order.{name}", CRUD, ()) for name in ("package", "recharge", "offlinebuy", "list")),
    ),
)

# Every member may open the home page and its own account information.
MEMBER_BASELINE = ("home", "consumer.info")


def _walk(nodes) -> list[dict]:
    out = []
    for key, actions, children in nodes:
        kids = [{"key": f"{key}.{action}", "action": action, "children": []} for action in actions]
        out.append({"key": key, "action": None, "children": kids + _walk(children)})
    return out


def tree() -> list[dict]:
    """The tree as the role editor shows it: {key, action, children}."""
    return _walk(TREE)


def _keys_of(nodes) -> list[str]:
    keys: list[str] = []

    def visit(items):
        for node in items:
            keys.append(node["key"])
            visit(node["children"])

    visit(_walk(nodes))
    return keys


def all_keys() -> frozenset[str]:
    """Keys a role may grant."""
    return frozenset(_keys_of(TREE))


ACCOUNT_HOLDER = tuple(_keys_of(TREE))
# A reseller's admin edits its own platform's branding only: no new platforms, no deleting
# (api/identity/staff.py scopes which platform); the operator holds the whole customization area.
_OPERATOR_ONLY = ("customized.list.add", "customized.list.delete")
PLATFORM_ADMIN = (*ACCOUNT_HOLDER, *(key for key in _keys_of(STAFF_TREE) if key not in _OPERATOR_ONLY))
OPERATOR = (*PLATFORM_ADMIN, *_OPERATOR_ONLY, *_keys_of(OPERATOR_TREE))
GRANTS: dict[StaffRole | None, tuple[str, ...]] = {
    None: ACCOUNT_HOLDER,
    StaffRole.PLATFORM_ADMIN: PLATFORM_ADMIN,
    StaffRole.OPERATOR: OPERATOR,
}
_DESCENDANTS: dict[str, tuple[str, ...]] = {}


def expand(keys: Iterable[str]) -> list[str]:
    """Stored role keys -> granted keys: a route key stands for the route and all its actions."""
    if not _DESCENDANTS:
        for node in _walk((*TREE, *STAFF_TREE, *OPERATOR_TREE)):
            _index(node)
    out = dict.fromkeys(())
    for key in keys:
        out[key] = None
        out.update(dict.fromkeys(_DESCENDANTS.get(key, ())))
    return list(out)


def _index(node: dict) -> tuple[str, ...]:
    below: list[str] = []
    for child in node["children"]:
        below.append(child["key"])
        below.extend(_index(child))
    _DESCENDANTS[node["key"]] = tuple(below)
    return _DESCENDANTS[node["key"]]


def key_passes(granted: set[str] | frozenset[str], key: str) -> bool:
    """The key itself, or a sub-key of it, is granted. A parent does not grant its children."""
    if key in granted:
        return True
    prefix = key + "."
    return any(item.startswith(prefix) for item in granted)


# The organisation area says which keys an account holds as a member of someone else's organisation
# (None when it is no such member): registered, so this layer imports no business area.
_member_keys: list[Callable[[int], list[str] | None]] = []


def register_member_keys(provider: Callable[[int], list[str] | None]) -> None:
    _member_keys[:] = [provider]


# Areas with their own staff (the calibration lab's admins) say which extra keys an account holds
# there, whatever its role on the console: registered, so this layer imports no business area.
_extra_keys: dict[str, Callable[[Account], Iterable[str]]] = {}


def register_extra_keys(area: str, provider: Callable[[Account], Iterable[str]]) -> None:
    _extra_keys[area] = provider


def permission_keys(account: Account) -> list[str]:
    """The account's granted keys, expanded (computed once per request)."""
    cache = g.setdefault("permission_keys", {}) if has_request_context() else {}
    if account.id not in cache:
        role_keys = None
        if _member_keys and not account.staff_role and takes_part(account.id, "organizations"):
            role_keys = _member_keys[0](account.id)
        keys = expand([*MEMBER_BASELINE, *role_keys]) if role_keys is not None else list(GRANTS[account.staff_role])
        for provider in _extra_keys.values():
            keys += [key for key in provider(account) if key not in keys]
        cache[account.id] = keys
    return cache[account.id]


def has_permission(account: Account, key: str) -> bool:
    return key_passes(set(permission_keys(account)), key)
