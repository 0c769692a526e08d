"""The order state machine of a calibration application: ONE table of allowed moves.

The spec fixes one fact (console-shell section 4): a status above 6 means the order is cancelled
(and its certificate PDF is refused). The other values follow an ISO/IEC 17025 lab's flow: the lab
reviews the request, the customer pays (online through the payment area: its verified payment
confirms the order; or by bank transfer, the lab confirming it offline), the customer ships the
instruments with a tracking number, the lab receives them, calibrates, and confirms the calibration
(certificates are issued).
"""

from __future__ import annotations

import enum

from api.extensions.i18n import N_

SUBMITTED, CONFIRMED, SHIPPED, RECEIVED, CALIBRATING, COMPLETED, CANCELLED, REJECTED = range(1, 9)
LAST_ACTIVE = 6  # above: cancelled (by the customer's request) or rejected by the lab


class Actor(enum.StrEnum):
    CUSTOMER = "customer"
    LAB = "lab"
    PAYMENT = "payment"  # the payment area: a verified online payment of the order (api/calibration/payment.py)


class Action(enum.StrEnum):
    STATUS = "applicationStatus"  # the lab's status call
    TRACKING = "trackingNumber"  # the customer's shipment
    RESULT = "ResultInfo/insert"  # the first result recorded starts the calibration
    CONFIRM = "confirmCalibration"
    CANCEL = "cancel/check"  # the lab approves the customer's cancellation request
    PAID = "payment/notify"  # a provider's verified payment notification (or the payer's confirmPay)


STATUS_NAMES = {
    SUBMITTED: N_("Submitted"),
    CONFIRMED: N_("Confirmed, awaiting shipment"),
    SHIPPED: N_("Shipped to the lab"),
    RECEIVED: N_("Received by the lab"),
    CALIBRATING: N_("Calibrating"),
    COMPLETED: N_("Completed"),
    CANCELLED: N_("Cancelled"),
    REJECTED: N_("Rejected by the lab"),
}

# (from, to) -> ((who, through which calls), ...). Every other move is refused.
TRANSITIONS: dict[tuple[int, int], tuple[tuple[Actor, tuple[Action, ...]], ...]] = {
    # Paid: online (the payment area) or by bank transfer (the lab confirms it offline).
    (SUBMITTED, CONFIRMED): ((Actor.PAYMENT, (Action.PAID,)), (Actor.LAB, (Action.STATUS,))),
    (SUBMITTED, REJECTED): ((Actor.LAB, (Action.STATUS,)),),
    (CONFIRMED, SHIPPED): ((Actor.CUSTOMER, (Action.TRACKING,)),),
    (SHIPPED, RECEIVED): ((Actor.LAB, (Action.STATUS,)),),
    (RECEIVED, CALIBRATING): ((Actor.LAB, (Action.STATUS, Action.RESULT)),),
    (CALIBRATING, COMPLETED): ((Actor.LAB, (Action.CONFIRM,)),),
    (SUBMITTED, CANCELLED): ((Actor.LAB, (Action.CANCEL,)),),
    (CONFIRMED, CANCELLED): ((Actor.LAB, (Action.CANCEL,)),),
    (SHIPPED, CANCELLED): ((Actor.LAB, (Action.CANCEL,)),),
}
# A customer may ask to cancel while the instruments have not reached the lab.
CANCELLABLE = frozenset({SUBMITTED, CONFIRMED, SHIPPED})


def is_cancelled(status: int) -> bool:
    return status > LAST_ACTIVE


def allowed(current: int, target: int, actor: Actor, action: Action) -> bool:
    return any(who == actor and action in calls for who, calls in TRANSITIONS.get((current, target), ()))
