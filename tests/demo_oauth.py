"""The demo's social sign-in provider: `python -m tests.demo_oauth PORT` serves the local OAuth fake
(tests/fakes.py: a consent page, code, token and user info, checked as WeChat checks them) that
`flask seed-demo` configures as the default site's WeChat app when DEMO_OAUTH_URL points here.
`make run` and the browser tests start it, so social sign-in can be tried without a real app."""

from __future__ import annotations

import sys
import threading

from api.account.demo import DEMO_OAUTH_CLIENT_ID, DEMO_OAUTH_CLIENT_SECRET
from tests.fakes import OAuthProvider


def main(port: int) -> None:
    provider = OAuthProvider(DEMO_OAUTH_CLIENT_ID, DEMO_OAUTH_CLIENT_SECRET)
    provider.port = port
    with provider:
        print(f"demo sign-in provider on {provider.url}", flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6100)
