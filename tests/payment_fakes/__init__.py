"""Local fakes of the payment providers that sign and verify as the real ones do, so the providers'
own SDKs (wechatpayv3, python-alipay-sdk, paypal-server-sdk) run their real code against them.

- WeChatPayFake: API v3. Checks each request's WECHATPAY2-SHA256-RSA2048 signature with the merchant's
  public key, signs every answer and every notification with a test platform certificate, encrypts
  notification resources and the certificate list with the APIv3 key (AEAD_AES_256_GCM).
- AlipayFake: RSA2. Checks the signature of gateway requests with the app's public key, signs query
  answers and asynchronous notifications with the fake Alipay key.
- PayPalFake: OAuth client credentials, checkout orders, capture, and verify-webhook-signature for
  the webhooks it signs itself.

Each can also deliver its notification to the notify URL over HTTP (the browser test's "pay" button).
WeChat's H5 cashier (/fake/h5/checkmweb) and Alipay's page / wap cashier pay on their "pay" link, then
send the browser back (redirect_url; return_url with Alipay's signed return fields); WeChat's OAuth
page (/connect/oauth2/authorize) sends it back to redirect_uri with a code.
Run `python -m tests.payment_fakes PORT` for the browser tests: it prints the merchant configs as JSON.
"""

from __future__ import annotations

from tests.payment_fakes.alipay import AlipayFake, alipay_text
from tests.payment_fakes.keys import new_key, rsa_verify
from tests.payment_fakes.paypal import PayPalFake
from tests.payment_fakes.wechat import WeChatPayFake

__all__ = ["AlipayFake", "PayPalFake", "WeChatPayFake", "alipay_text", "new_key", "rsa_verify"]
