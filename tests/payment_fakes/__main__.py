"""`python -m tests.payment_fakes PORT`: the three fakes on PORT, PORT+1, PORT+2 for the browser
tests; prints the merchant configs as one JSON line, then serves until killed."""

from __future__ import annotations

import json
import sys
import threading

from tests.payment_fakes import AlipayFake, PayPalFake, WeChatPayFake


def main(port: int) -> None:
    wechat, alipay, paypal = WeChatPayFake(port), AlipayFake(port + 1), PayPalFake(port + 2)
    for fake in (wechat, alipay, paypal):
        fake.__enter__()
    configs = {
        "wechat": wechat.merchant_config(),
        "alipay": alipay.merchant_config(),
        "paypal": paypal.merchant_config(),
    }
    print(json.dumps(configs), flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main(int(sys.argv[1]))
