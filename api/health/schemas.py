import marshmallow as ma

from api.extensions.smorest import Schema


class HealthSchema(Schema):
    database = ma.fields.String(required=True, metadata={"description": "ok or down"})
    redis = ma.fields.String(required=True, metadata={"description": "ok or unavailable (jobs run in-process)"})
    cronHeartbeatAge = ma.fields.Float(allow_none=True, metadata={"description": "seconds since the last cron beat"})
