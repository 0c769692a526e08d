from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.role.models import OrganizationType
from api.role.services import role_text


class RoleSchema(Schema):
    id = Integer()
    # The preset (system) roles read in the reader's language; a role someone named stays as named.
    roleName = ma.fields.Function(lambda r: role_text(r, r.role_name))
    roleType = ma.fields.Enum(OrganizationType, by_value=True, attribute="role_type")
    description = ma.fields.Function(lambda r: role_text(r, r.description), allow_none=True)
    permissions = ma.fields.List(ma.fields.String())
    preset = ma.fields.Boolean()
    gmtCreate = LocalDateTime(attribute="created_at")


class RoleInputSchema(Schema):
    roleName = ma.fields.String(required=True, validate=validate.Length(min=1, max=20))
    roleType = ma.fields.Enum(OrganizationType, by_value=True, load_default=OrganizationType.ENTERPRISE)
    description = ma.fields.String(load_default=None, validate=validate.Length(max=200))
    permissions = ma.fields.List(ma.fields.String(validate=validate.Length(max=60)), required=True)


class RoleUpdateSchema(RoleInputSchema):
    id = record_id()


class RolePageQuerySchema(PageQuerySchema):
    roleName = ma.fields.String(load_default=None, validate=validate.Length(max=20))


class OrganizationTypeQuerySchema(Schema):
    organizationType = ma.fields.Enum(OrganizationType, by_value=True, load_default=OrganizationType.ENTERPRISE)


class PermissionNodeSchema(Schema):
    key = ma.fields.String()
    action = ma.fields.String(allow_none=True)
    children = ma.fields.List(ma.fields.Nested(lambda: PermissionNodeSchema()))
