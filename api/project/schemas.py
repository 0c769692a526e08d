from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount


class ProjectSchema(Schema):
    id = Integer(attribute="project.id")
    projectName = ma.fields.String(attribute="project.project_name")
    deviceIds = ma.fields.List(Integer())
    gmtCreate = LocalDateTime(attribute="project.created_at")


class ProjectInputSchema(Schema):
    projectName = ma.fields.String(required=True, validate=validate.Length(min=2, max=20))
    deviceIds = ma.fields.List(Integer(), load_default=list, validate=ItemCount(max=500))


class ProjectUpdateSchema(ProjectInputSchema):
    id = record_id()


class ProjectPageQuerySchema(PageQuerySchema):
    projectName = ma.fields.String(load_default=None, validate=validate.Length(max=20))
