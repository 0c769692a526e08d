"""The price of an order, in integer cents, computed here only (the browser's figures are never used).

A duration row costs serviceFee + dataFee per device, less its discount (percent off); an activity
takes its percent off that again; SMS / voice packs cost their fee less their discount, per device;
a coupon takes its fee off the total, never below zero. Percentages round half up to the cent.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def percent_off(amount: int, discount: int) -> int:
    """`amount` cents less `discount` percent, rounded half up (integers only: no float ever)."""
    return (amount * (100 - discount) + 50) // 100


@dataclass(frozen=True)
class PackChoice:
    kind: str
    name: str
    count: int
    fee: int
    discount: int


@dataclass(frozen=True)
class Quote:
    order_fee: int  # list price
    pay_fee: int  # due
    lines: list[dict] = field(default_factory=list)


def quote(
    devices: int,
    price: dict | None,
    packs: list[PackChoice] = (),  # type: ignore[assignment]
    activity_discount: int = 0,
    coupon_fee: int = 0,
) -> Quote:
    """price: a package duration row {months, serviceFee, dataFee, discount} (None: packs only)."""
    lines: list[dict] = []
    order_fee = due = 0
    if price is not None:
        unit = price["serviceFee"] + price["dataFee"]
        unit_due = percent_off(unit, price.get("discount", 0))
        if activity_discount:
            unit_due = percent_off(unit_due, activity_discount)
        lines.append({"item": "service", "months": price["months"], "unit": unit, "unitDue": unit_due, "qty": devices})
        order_fee += unit * devices
        due += unit_due * devices
    for pack in packs:
        unit_due = percent_off(pack.fee, pack.discount)
        lines.append({"item": pack.kind, "name": pack.name, "unit": pack.fee, "unitDue": unit_due, "qty": devices})
        order_fee += pack.fee * devices
        due += unit_due * devices
    if coupon_fee:
        off = min(coupon_fee, due)
        lines.append({"item": "coupon", "unit": -off, "unitDue": -off, "qty": 1})
        due -= off
    return Quote(order_fee=order_fee, pay_fee=due, lines=lines)
