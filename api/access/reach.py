"""Who reaches a device: its owner, members of its organisation (by their roles' keys), and
accounts it is shared with, until the share expires, as far as the share's template allows.

The organisation and sharing areas register how they reach devices (`register_reach`); this layer
composes them and never imports those areas. Template items are {permissionCode, setStatus,
viewStatus}: per parameter (hex key) or per block (detail tab) of DEVICE_BLOCKS.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import g
from flask_babel import gettext
from sqlalchemy import Select, and_, bindparam, or_

from api.extensions.db import db, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import require_account, takes_part
from api.tenancy import data_platform_id

# The blocks (device-detail tabs) a permission template can show or hide, besides parameters.
DEVICE_BLOCKS = ("realtime", "chart", "map", "info", "params", "energy", "log", "records", "alarm", "push")
FULL, MEMBER, SHARED = "owner", "member", "shared"
# A need's block for calls that set parameters: the template decides per parameter (hex key).
PARAMETERS = "parameters"
# Body code of a device-level refusal: HTTP 200 so the console keeps the user signed in (an HTTP 403
# logs out, console-shell section 8); the message is the spec's.
DEVICE_REFUSED = 4030


@dataclass(frozen=True)
class ReachRule:
    """How an area lets an account reach devices it does not own.

    relation: MEMBER (its roles' keys apply) or SHARED (a template applies).
    participation: the key of account.auth's participation flags that must be on for the rule to apply.
    device_ids(me, platform_id, now): a SELECT of device ids, with bind parameters or values.
    templates(me, now): {device id: template items} (SHARED rules only).
    placed(): a SELECT of the device ids the relation groups, whoever reaches them (the device
    list counts the devices placed in an organisation), or None.
    """

    relation: str
    participation: str
    device_ids: Callable[..., Select]
    templates: Callable[[int, object], dict[int, list[dict]]] | None = None
    placed: Callable[[], Select] | None = None


_rules: list[ReachRule] = []
_reach_query: list[Select] = []


def register_reach(rule: ReachRule) -> None:
    _rules[:] = [r for r in _rules if r.relation != rule.relation] + [rule]
    _reach_query.clear()


def placed_device_ids(relation: str) -> Select[tuple[int]] | None:
    """The devices the rule of `relation` groups (MEMBER: placed in an organisation), or None when no
    registered rule groups devices."""
    for rule in _rules:
        if rule.relation == relation and rule.placed is not None:
            return rule.placed()
    return None


def _reached_devices_query() -> Select[tuple[int]]:
    """Devices an account reaches without owning them, with bind parameters (me, platform_id, now).
    It runs on every device call, and building it costs more than running it: built once."""
    if not _reach_query:
        me, platform_id, now = bindparam("me"), bindparam("platform_id"), bindparam("now")
        selects = [rule.device_ids(me, platform_id, now) for rule in _rules]
        query = selects[0]
        for other in selects[1:]:
            query = query.union(other)
        _reach_query.append(query)
    return _reach_query[0]


def _takes_part_anywhere(account_id: int) -> bool:
    return any(takes_part(account_id, rule.participation) for rule in _rules)


def reached_device_ids() -> list[int]:
    """Devices the signed-in account reaches without owning them (once per request), so the common
    case (an account on its own) keeps the plain owner filter and its index."""
    if "reached_device_ids" not in g:
        me = require_account().id
        if not _rules or not _takes_part_anywhere(me):
            g.reached_device_ids = []
            return g.reached_device_ids
        params = {"me": me, "platform_id": data_platform_id(), "now": utcnow()}
        g.reached_device_ids = sorted(set(db.session.scalars(_reached_devices_query(), params)))
    return g.reached_device_ids


def visible(stmt: Select, model) -> Select:
    """Restrict a device query to the devices the signed-in account may see in this data space."""
    return stmt.where(visibility_clause(model)).params(visibility_params())


def visibility_clause(model, reaches_others: bool | None = None):
    """visible()'s condition with bind parameters, for queries built once and run with
    visibility_params(): `reaches_others` (default: the signed-in account's) picks the shape."""
    if reaches_others is None:
        reaches_others = signed_in_reaches_others()
    mine = model.owner_account_id == bindparam("viewer_id")
    in_space = model.platform_id == bindparam("viewer_platform_id")
    if not reaches_others:
        return and_(in_space, mine)
    return and_(in_space, or_(mine, model.id.in_(bindparam("viewer_reaches", expanding=True))))


def signed_in_reaches_others() -> bool:
    return bool(reached_device_ids())


def visibility_params() -> dict:
    reached = reached_device_ids()
    params = {"viewer_id": require_account().id, "viewer_platform_id": data_platform_id()}
    return {**params, "viewer_reaches": reached} if reached else params


def share_templates() -> dict[int, list[dict]]:
    """{device id: template items} of the signed-in account's live shares, without the devices it
    reaches as a member (an organisation's device is the member's by role, not by the share)."""
    if "share_templates" not in g:
        me = require_account().id
        now = utcnow()
        shares: dict[int, list[dict]] = {}
        for rule in _rules:
            if rule.relation == SHARED and rule.templates and takes_part(me, rule.participation):
                shares.update(rule.templates(me, now))
        if shares:
            for rule in _rules:
                if rule.relation == MEMBER and takes_part(me, rule.participation):
                    query = rule.device_ids(me, data_platform_id(), now)
                    for device_id in db.session.scalars(query):
                        shares.pop(device_id, None)
        g.share_templates = shares
    return g.share_templates


def device_access(device) -> str:
    """How the signed-in account reaches a visible device: owner, member or shared."""
    if device.owner_account_id == require_account().id:
        return FULL
    return SHARED if device.id in share_templates() else MEMBER


def reaches(device) -> str | None:
    """device_access() for any device of the data space, None when the account does not reach it."""
    me = require_account().id
    if device.platform_id != data_platform_id():
        return None
    if device.owner_account_id == me:
        return FULL
    if device.id not in reached_device_ids():
        return None
    return device_access(device)


def device_permissions(device) -> list[dict] | None:
    """Device permission list of console-shell section 3 ({permissionCode, setStatus, viewStatus})
    for a shared device; None for owners and members (the account's keys apply)."""
    if device_access(device) != SHARED:
        return None
    return [
        {"permissionCode": item["permissionCode"], "setStatus": item["setStatus"], "viewStatus": item["viewStatus"]}
        for item in share_templates()[device.id]
    ]


def _item(device, code: str) -> dict | None:
    return next((i for i in share_templates().get(device.id, ()) if i["permissionCode"] == code), None)


def may_view(device, code: str) -> bool:
    """Whether a parameter (hex key) or block of the device is visible to the signed-in account."""
    if device_access(device) != SHARED:
        return True
    item = _item(device, code)
    return item is not None and item["viewStatus"] == 1 and item["setStatus"] != -1


def may_operate(device, code: str) -> bool:
    if device_access(device) != SHARED:
        return True
    item = _item(device, code)
    return item is not None and item["viewStatus"] == 1 and item["setStatus"] == 1


def parameter_codes(device) -> list[str]:
    return [f"{p.param_key:04x}" for p in device.device_type.params]


def visible_params(device, params):
    """The device type's parameters the signed-in account may see."""
    return [p for p in params if may_view(device, f"{p.param_key:04x}")]


def hidden_sensors(device) -> set[str]:
    """Sensor numbers (as strings) of the parameters a share's template hides."""
    if device_access(device) != SHARED:
        return set()
    params = device.device_type.params
    shown = {p.probe_id for p in visible_params(device, params) if p.probe_id is not None}
    return {str(p.probe_id) for p in params if p.probe_id is not None and p.probe_id not in shown}


def visible_values(device, values: dict | None) -> dict:
    """Latest values ({sensor number: value}) without the hidden parameters' sensors."""
    if not values or device_access(device) != SHARED:
        return values or {}
    hidden = hidden_sensors(device)
    return {sensor: value for sensor, value in values.items() if str(sensor) not in hidden}


def refuse_device_access() -> ApiError:
    return ApiError(gettext("No permission to view this device's details"), code=DEVICE_REFUSED)


def require_block(device, block: str) -> None:
    """Refuse a detail block the share's template hides (a body code, not HTTP 403)."""
    if not may_view(device, block):
        raise refuse_device_access()


def require_device_write(device, codes=None) -> None:
    """Changing a device: owners and members (by their keys) may; a shared user only sets the
    parameters its template marks operable (`codes`), and nothing else."""
    if device_access(device) != SHARED:
        return
    if not codes or not all(may_operate(device, code) for code in codes):
        raise refuse_device_access()
