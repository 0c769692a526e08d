"""The api as the load benchmark serves it: production settings, rate limits off (RATELIMIT_ENABLED=0),
so the figures measure the calls and not the limiter's refusals."""

from __future__ import annotations

import os

from api import create_app
from api.settings import config_from_env

app = create_app(config_from_env(), {"RATELIMIT_ENABLED": os.environ.get("RATELIMIT_ENABLED", "1") != "0"})
