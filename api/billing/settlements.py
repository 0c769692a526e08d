"""What an order pays for, and who is told when it is paid or refunded.

An order pays for device service (`SERVICE`, settled here: the devices' service is extended) or for
something another area sells (`Order.purpose` + `Order.subject_id`, e.g. a calibration application).
Such an area registers its settlement at start-up, as areas register their access rules, so billing
never imports it: `orders.settle` calls `on_paid` exactly once per order (inside the transaction that
marks the order paid), the refund calls `on_refunded` after the money went back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from api.billing.models import Order

SERVICE = "service"


@dataclass(frozen=True)
class Settlement:
    label: str  # N_() text naming what is paid for (the provider's subject line, the order lists)
    on_paid: Callable[[Order, datetime], None]
    on_refunded: Callable[[Order, datetime], None] | None = None
    return_path: Callable[[Order], str] | None = None  # where the payer goes back to after paying


_settlements: dict[str, Settlement] = {}


def register_settlement(
    purpose: str,
    label: str,
    on_paid: Callable[[Order, datetime], None],
    on_refunded: Callable[[Order, datetime], None] | None = None,
    return_path: Callable[[Order], str] | None = None,
) -> None:
    if purpose == SERVICE:
        raise ValueError("the service purpose is billing's own")
    _settlements[purpose] = Settlement(label, on_paid, on_refunded, return_path)


def settlement_of(purpose: str | None) -> Settlement | None:
    """The registered settlement of a purpose; None for device service (billing's own)."""
    if purpose in (None, SERVICE):
        return None
    found = _settlements.get(purpose)
    if found is None:
        raise LookupError(f"no settlement registered for orders of purpose {purpose!r}")
    return found


def return_path(order: Order) -> str:
    found = settlement_of(order.purpose)
    if found is None or found.return_path is None:
        return "/consumer/recharge"
    return found.return_path(order)
