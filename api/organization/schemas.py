from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount
from api.identity.validators import LowerEmail, Phone
from api.organization.services import account_of_ticket
from api.role.services import role_text

NAME = validate.Length(min=2, max=50)  # organisation name 2-50
IDS = ma.fields.List(Integer(), required=True, validate=ItemCount(min=1, max=200))


class OrganizationSchema(Schema):
    id = Integer(attribute="organization.id")
    name = ma.fields.String(attribute="organization.name")
    parentId = Integer(attribute="organization.parent_id", allow_none=True)
    creatorId = Integer(attribute="organization.owner_account_id")
    creatorName = ma.fields.String(allow_none=True)
    memberCount = Integer()
    deviceCount = Integer()
    gmtCreate = LocalDateTime(attribute="organization.created_at")
    children = ma.fields.List(ma.fields.Nested(lambda: OrganizationSchema()))


class OrganizationPlainSchema(Schema):
    id = Integer()
    name = ma.fields.String()
    parentId = Integer(attribute="parent_id", allow_none=True)
    creatorId = Integer(attribute="owner_account_id")


class OrganizationInsertSchema(Schema):
    name = ma.fields.String(required=True, validate=NAME)
    parentId = Integer(load_default=None)


class OrganizationUpdateSchema(OrganizationInsertSchema):
    id = record_id()


class TransferCreatorSchema(Schema):
    organizationId = Integer(required=True)
    accountId = Integer(required=True)


class OrganizationDevicesSchema(Schema):
    organizationId = Integer(required=True)
    deviceIds = IDS


class OrganizationDevicePageSchema(PageQuerySchema):
    organizationId = Integer(required=True)


# ---- members (account calls of business-domain section 7) ---------------------------------------------


class MemberSchema(Schema):
    accountId = Integer(attribute="account.id")
    userName = ma.fields.String(attribute="account.user_name")
    realName = ma.fields.String(attribute="account.real_name", allow_none=True)
    phone = ma.fields.String(attribute="account.phone", allow_none=True)
    email = ma.fields.String(attribute="account.email", allow_none=True)
    organizationId = Integer(attribute="organization.id")
    organizationName = ma.fields.String(attribute="organization.name")
    roleId = ma.fields.Function(lambda row: row["role"].id if row["role"] else None)
    roleName = ma.fields.Function(lambda row: role_text(row["role"], row["role"].role_name) if row["role"] else None)
    gmtCreate = LocalDateTime(attribute="member.created_at")


class MemberPageQuerySchema(PageQuerySchema):
    organizationId = Integer(load_default=None)
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=50))


class UserConditionSchema(PageQuerySchema):
    organizationId = Integer(load_default=None)
    userName = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    phone = ma.fields.String(load_default=None, validate=validate.Length(max=20))
    email = ma.fields.String(load_default=None, validate=validate.Length(max=254))
    roleId = Integer(load_default=None)


class AccountBriefSchema(Schema):
    """What an invitation needs of a registered account found by its contact (managers only):
    never its id, user name or real name."""

    canInvite = ma.fields.Boolean(required=True, metadata={"description": "it can be added (it is not you)"})
    name = ma.fields.String(allow_none=True, metadata={"description": "masked: first character and **"})
    phone = ma.fields.String(allow_none=True, metadata={"description": "masked"})
    email = ma.fields.String(allow_none=True, metadata={"description": "masked"})
    ticket = ma.fields.String(
        allow_none=True, metadata={"description": "give it to organizationAddUser instead of accountId (15 minutes)"}
    )


class UepQuerySchema(Schema):
    keyword = ma.fields.String(required=True, validate=validate.Length(min=1, max=254))


class PhoneQuerySchema(Schema):
    phone = Phone(required=True)


class EmailQuerySchema(Schema):
    email = LowerEmail(required=True)


class InviteSchema(Schema):
    organizationId = Integer(required=True)
    roleId = Integer(load_default=None)
    phone = Phone(load_default=None)
    email = LowerEmail(load_default=None)
    inviterName = ma.fields.String(required=True, validate=validate.Length(min=2, max=20))

    @ma.validates_schema
    def one_contact(self, data, **kwargs):
        if bool(data.get("phone")) == bool(data.get("email")):
            raise ma.ValidationError(gettext("Enter either a phone number or an email address."), "phone")


class InviteResultSchema(Schema):
    added = ma.fields.Boolean(required=True, metadata={"description": "a registered account was added"})
    invited = ma.fields.Boolean(required=True, metadata={"description": "an invitation was sent"})


class AddUserSchema(Schema):
    organizationId = Integer(required=True)
    accountId = Integer(
        load_default=None, metadata={"description": "a member of another of your organisations; others by ticket"}
    )
    ticket = ma.fields.String(
        load_default=None,
        validate=validate.Length(max=500),
        metadata={"description": "from getAccountInfoByPhone / getAccountInfoByEamil / queryAccountByUEP"},
    )
    roleId = Integer(load_default=None)

    @ma.post_load
    def account_from_ticket(self, data, **kwargs):
        """Exactly one of accountId and ticket; the ticket becomes the account id it names. A bare
        accountId is only for a colleague already in one of the manager's organisations (moving
        people between departments): anyone else is added by the lookup's ticket."""
        if (data.get("accountId") is None) == (data.get("ticket") is None):
            raise ma.ValidationError(gettext("Give either an account or a ticket from the account lookup."), "ticket")
        data["looked_up"] = data.get("ticket") is not None
        if data["looked_up"]:
            data["accountId"] = account_of_ticket(data["ticket"])
            if data["accountId"] is None:
                message = gettext("The ticket is invalid or has expired, look the account up again.")
                raise ma.ValidationError(message, "ticket")
        return data


class MembershipQuerySchema(Schema):
    organizationId = Integer(required=True)
    accountId = Integer(required=True)


class MoveMemberSchema(Schema):
    accountId = Integer(required=True)
    organizationId = Integer(required=True, metadata={"description": "the member's organisation now"})
    newOrganizationId = Integer(required=True)
    roleId = Integer(load_default=None)


class MemberRoleSchema(Schema):
    organizationId = Integer(required=True)
    accountId = Integer(required=True)
    roleId = Integer(required=True)


class MembershipSchema(Schema):
    organizationId = Integer(attribute="organization_id")
    accountId = Integer(attribute="account_id")
    roleId = Integer(attribute="role_id", allow_none=True)


class AcceptInviteSchema(Schema):
    token = ma.fields.String(required=True, validate=validate.Length(min=10, max=100))
