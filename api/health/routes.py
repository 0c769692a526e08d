from __future__ import annotations

from flask.views import MethodView
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from api.extensions.db import db
from api.extensions.smorest import Blueprint
from api.health.jobs import heartbeat_age
from api.health.schemas import HealthSchema
from api.jobs import redis_connection

blp = Blueprint("health", __name__, url_prefix="/api", description="Health of the api and its engines")


@blp.route("/health")
class Health(MethodView):
    @blp.public("load balancer health checks")
    @blp.response(200, HealthSchema)
    def get(self):
        """Answers on any host, for load balancers and `make run`'s readiness wait."""
        try:
            db.session.execute(text("SELECT 1"))
            database = "ok"
        except SQLAlchemyError:
            database = "down"
        redis_up = redis_connection() is not None
        return {
            "database": database,
            "redis": "ok" if redis_up else "unavailable",
            "cronHeartbeatAge": heartbeat_age() if redis_up else None,
        }
