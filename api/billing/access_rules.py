"""The billing area's object kinds: orders and invoice requests belong to the account that made them
(the gate requires their owner; nobody reaches them through a share or an organisation)."""

from __future__ import annotations

from api.access.gate import register_kind
from api.billing import invoices, orders


def register() -> None:
    register_kind("order", orders.load_order)
    register_kind("invoiceInfo", invoices.load_info)
    register_kind("invoiceRequest", invoices.load_request)
