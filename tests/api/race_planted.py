"""The api with a planted defect, for tests/api/test_races.py to prove the race probe sees one: the
free service per device and level checked and then inserted, as it was before free_service_use held it
(the check reads the paid free orders; nothing takes the rule when the order is created).

The window between the check and the insert is what 20 concurrent requests find by chance; here the
first two requests to pass the check wait for each other (a rendezvous on Redis, released by the
second arrival, at most 10 s), so the probe meets the interleaving on every run, not on a lucky one.
gunicorn serves it: `tests.api.race_planted:create_app()`."""

from __future__ import annotations

import os

from flask_babel import gettext
from sqlalchemy import select

import api
from api.billing import orders
from api.billing.models import Order, OrderDevice, PayStatus
from api.extensions.db import db
from api.extensions.smorest import ApiError
from api.jobs import redis_connection

KEY = os.environ.get("RACE_PLANT_KEY", "race-plant")


def checked_then_inserted(order, level, devices) -> None:
    if not level.get("free"):
        raise ApiError(gettext("This service level has no free service."), code=3104)
    used = db.session.scalar(
        select(OrderDevice.device_id)
        .join(Order, Order.id == OrderDevice.order_id)
        .where(
            OrderDevice.device_id.in_([d.id for d in devices]),
            Order.package_id == order.package_id,
            Order.level_id == order.level_id,
            Order.free_days > 0,
            Order.pay_status == PayStatus.PAID,
        )
        .limit(1)
    )
    if used is not None:
        raise orders.free_service_used()
    connection = redis_connection()
    if connection.incr(f"{KEY}:arrived") == 2:
        connection.rpush(f"{KEY}:go", *["go"] * 64)
    connection.blpop([f"{KEY}:go"], timeout=10)


def create_app():
    orders._free_service = checked_then_inserted
    orders._claim_free = lambda order: None
    return api.create_app()
