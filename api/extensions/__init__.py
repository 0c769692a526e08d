"""Flask extensions, created once and bound in create_app."""

from api.extensions.db import db, migrate
from api.extensions.i18n import babel
from api.extensions.ratelimit import limiter
from api.extensions.smorest import api

__all__ = ["api", "babel", "db", "limiter", "migrate"]
