"""Currencies: the one place that says which currencies the catalogue prices in and which of them
each payment provider can charge. An order carries the currency of what it sells (its package or
packs, api/billing/orders.py; another area's price, api/billing/settlements.py); a provider is asked
to charge an order only in a currency it takes, and a notification is applied only when it names the
order's amount in the order's currency.

WeChat Pay and Alipay (domestic merchants) settle in CNY only: an order priced in USD would be charged
the same number of yuan. PayPal charges the order's own currency.
"""

from __future__ import annotations

from flask_babel import gettext

from api.billing.models import Provider
from api.extensions.i18n import N_
from api.extensions.smorest import ApiError

CURRENCIES = ("CNY", "USD", "EUR", "HKD")  # what a package or pack can be priced in
PROVIDER_CURRENCIES: dict[Provider, tuple[str, ...]] = {
    Provider.WECHAT: ("CNY",),
    Provider.ALIPAY: ("CNY",),
    Provider.PAYPAL: CURRENCIES,
}
PROVIDER_NAMES = {Provider.WECHAT: N_("WeChat Pay"), Provider.ALIPAY: N_("Alipay"), Provider.PAYPAL: N_("PayPal")}


def takes(provider: Provider, currency: str | None) -> bool:
    return currency in PROVIDER_CURRENCIES[provider]


def require_chargeable(provider: Provider, currency: str) -> None:
    """Refuse, before the provider is asked, to charge an order in a currency the provider cannot."""
    if not takes(provider, currency):
        raise ApiError(
            gettext(
                "%(provider)s cannot charge an order in %(currency)s (it charges only %(accepted)s): "
                "choose another payment method.",
                provider=gettext(PROVIDER_NAMES[provider]),
                currency=currency,
                accepted=", ".join(PROVIDER_CURRENCIES[provider]),
            ),
            code=3010,
        )
