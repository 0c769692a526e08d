"""Which alarm kinds a device is evaluated for, with what threshold and text: the operator's rules
per device type (AlarmRule), or the built-in defaults when a type has none; plus the owner's
per-sensor limits (SensorLimit)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from sqlalchemy import Row, Select, select

from api.alarm.models import AlarmKind, AlarmRule, MessageTemplate, RuleClass, SensorLimit
from api.extensions.db import db, one_of_param, per_dialect
from api.extensions.snapshots import Snapshots

LOW_BATTERY_PERCENT = 20.0


@dataclass(frozen=True)
class Rule:
    kind: AlarmKind
    active: bool = True
    level: int = 1
    threshold: float | None = None
    name: str | None = None
    content: str | None = None
    template_id: int | None = None
    rule_class: RuleClass = RuleClass.ALARM


DEFAULT_RULES = {
    AlarmKind.UPPER: Rule(AlarmKind.UPPER),
    AlarmKind.LOWER: Rule(AlarmKind.LOWER),
    AlarmKind.OFFLINE: Rule(AlarmKind.OFFLINE),
    AlarmKind.BATTERY: Rule(AlarmKind.BATTERY, threshold=LOW_BATTERY_PERCENT, rule_class=RuleClass.WARNING),
    AlarmKind.FAULT: Rule(AlarmKind.FAULT),
    AlarmKind.FENCE: Rule(AlarmKind.FENCE),
    AlarmKind.BUDGET: Rule(AlarmKind.BUDGET),
}


# The operator edits a type's rules in the back office, rarely; every ingested batch reads them.
_type_rules: Snapshots[Mapping[AlarmKind, Rule]] = Snapshots(AlarmRule)


def rules_for_type(device_type_id: int) -> Mapping[AlarmKind, Rule]:
    """The operator's rules of the type over the built-in defaults (read-only: a shared copy)."""

    def load() -> Mapping[AlarmKind, Rule]:
        rules = dict(DEFAULT_RULES)
        for row in db.session.scalars(select(AlarmRule).where(AlarmRule.device_type_id == device_type_id)):
            rules[row.alarm_kind] = Rule(
                kind=row.alarm_kind,
                active=row.active_default,
                level=row.alarm_level,
                threshold=row.threshold if row.threshold is not None else DEFAULT_RULES[row.alarm_kind].threshold,
                name=row.rule_name,
                content=row.content,
                template_id=row.template_id,
                rule_class=row.rule_class,
            )
        return MappingProxyType(rules)

    return _type_rules.get(device_type_id, load)


# What evaluation reads of a limit: plain rows, not ORM objects (every ingested batch loads them;
# nothing here writes them).
LIMIT_COLUMNS = (
    SensorLimit.device_id,
    SensorLimit.sensor,
    SensorLimit.upper,
    SensorLimit.lower,
    SensorLimit.delay_minutes,
)


@per_dialect
def enabled_limits_query() -> Select:
    """The enabled limits (LIMIT_COLUMNS) of the devices in parameter `ids`."""
    return select(*LIMIT_COLUMNS).where(one_of_param(SensorLimit.device_id, "ids"), SensorLimit.enabled.is_(True))


def enabled_limits(device_ids: list[int]) -> dict[int, dict[int, Row]]:
    """Each device's enabled limits by sensor (rows with sensor, upper, lower, delay_minutes)."""
    limits: dict[int, dict[int, Row]] = {device_id: {} for device_id in device_ids}
    for limit in db.session.execute(enabled_limits_query(), {"ids": list(device_ids)}):
        limits[limit.device_id][limit.sensor] = limit
    return limits


def limits_of(device_id: int) -> dict[int, Row]:
    return enabled_limits([device_id])[device_id]


def template(template_id: int | None) -> MessageTemplate | None:
    return db.session.get(MessageTemplate, template_id) if template_id else None
