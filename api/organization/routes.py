from __future__ import annotations

from flask.views import MethodView

from api.device.schemas import DeviceItemSchema
from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.organization import hierarchy, services
from api.organization.schemas import (
    AcceptInviteSchema,
    AccountBriefSchema,
    AddUserSchema,
    EmailQuerySchema,
    InviteResultSchema,
    InviteSchema,
    MemberPageQuerySchema,
    MemberSchema,
    MembershipQuerySchema,
    MembershipSchema,
    MoveMemberSchema,
    OrganizationDevicePageSchema,
    OrganizationDevicesSchema,
    OrganizationInsertSchema,
    OrganizationPlainSchema,
    OrganizationSchema,
    OrganizationUpdateSchema,
    PhoneQuerySchema,
    TransferCreatorSchema,
    UepQuerySchema,
    UserConditionSchema,
)

blp = Blueprint("organization", __name__, url_prefix="/api/base/BaseOrganization", description="Organisations")
members = Blueprint(
    "member", __name__, url_prefix="/api/base/BaseAccount", description="Members of organisations (sub-users)"
)
ORG, USERS = "organization.list", "consumer.list"


def missing(bp=blp):
    return bp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not an organisation of this account")


@blp.route("/tree")
class OrganizationTree(MethodView):
    @blp.requires(f"{ORG}.query")
    @blp.response(200, OrganizationSchema(many=True))
    def get(self):
        """The organisations the account may act in, as a tree with member and device counts."""
        return hierarchy.tree()


@blp.route("/insert")
class OrganizationInsert(MethodView):
    @blp.requires(f"{ORG}.add")
    @blp.arguments(OrganizationInsertSchema)
    @blp.response(200, OrganizationPlainSchema)
    @missing()
    def post(self, args):
        """Create an organisation (top-level, or under one the account may act in)."""
        return hierarchy.create(args["name"], args["parentId"])


@blp.route("/update")
class OrganizationUpdate(MethodView):
    @blp.requires(f"{ORG}.edit")
    @blp.arguments(OrganizationUpdateSchema)
    @blp.response(200, OrganizationPlainSchema)
    @missing()
    def put(self, args):
        """Rename an organisation or move it under another parent."""
        return hierarchy.update(args["id"], args["name"], args["parentId"])


@blp.route("/delete/<int:organization_id>")
class OrganizationDelete(MethodView):
    @blp.requires(f"{ORG}.delete")
    @blp.response(200)
    @missing()
    def delete(self, organization_id: int):
        """Delete an organisation without sub-organisations (its members leave it)."""
        hierarchy.delete(organization_id)


@blp.route("/transferCreator")
class TransferCreator(MethodView):
    @blp.requires(f"{ORG}.edit")
    @blp.arguments(TransferCreatorSchema)
    @blp.response(200, OrganizationPlainSchema)
    @missing()
    def put(self, args):
        """Hand the creator's identity of the whole tree to a member."""
        return hierarchy.transfer_creator(args["organizationId"], args["accountId"])


@blp.route("/bindDevice")
class BindDevices(MethodView):
    @blp.requires(f"{ORG}.edit")
    @blp.arguments(OrganizationDevicesSchema)
    @blp.response(200)
    @missing()
    def post(self, args):
        """Place the account's own devices in an organisation."""
        hierarchy.bind_devices(args["organizationId"], args["deviceIds"])


@blp.route("/unbindDevice")
class UnbindDevices(MethodView):
    @blp.requires(f"{ORG}.edit")
    @blp.arguments(OrganizationDevicesSchema)
    @blp.response(200)
    @missing()
    def post(self, args):
        """Take devices out of an organisation."""
        hierarchy.unbind_devices(args["organizationId"], args["deviceIds"])


@blp.route("/devicePage")
class OrganizationDevices(MethodView):
    @blp.requires(f"{ORG}.query")
    @blp.arguments(OrganizationDevicePageSchema)
    @blp.response(200, DeviceItemSchema, page=True)
    @missing()
    def post(self, args):
        """Devices of an organisation and its sub-organisations."""
        return hierarchy.device_page(args)


# ---- account calls (business-domain section 7) ----------------------------------------------------------


@members.route("/getAccountList/page")
class MemberPage(MethodView):
    @members.requires(f"{USERS}.query")
    @members.arguments(MemberPageQuerySchema)
    @members.response(200, MemberSchema, page=True)
    def post(self, args):
        """Members of the account's organisations (optionally of one organisation and below)."""
        return services.member_page(args)


@members.route("/queryUserByCondition")
class MemberQuery(MethodView):
    @members.requires(f"{USERS}.query")
    @members.arguments(UserConditionSchema)
    @members.response(200, MemberSchema, page=True)
    def post(self, args):
        """Members filtered by user name, phone, email, organisation or role."""
        return services.member_page(args)


@members.route("/queryAccountByUEP")
class AccountByUep(MethodView):
    @members.requires(f"{USERS}.add")
    @members.arguments(UepQuerySchema, location="query")
    @members.response(200, AccountBriefSchema)
    def get(self, args):
        """A registered account by exact user name, email or phone (null when none)."""
        return services.find_contact(keyword=args["keyword"])


@members.route("/getAccountInfoByPhone")
class AccountByPhone(MethodView):
    @members.requires(f"{USERS}.add")
    @members.arguments(PhoneQuerySchema, location="query")
    @members.response(200, AccountBriefSchema)
    def get(self, args):
        """A registered account by phone (null when none)."""
        return services.find_contact(phone=args["phone"])


@members.route("/getAccountInfoByEamil")
class AccountByEmail(MethodView):
    @members.requires(f"{USERS}.add")
    @members.arguments(EmailQuerySchema, location="query")
    @members.response(200, AccountBriefSchema)
    def get(self, args):
        """A registered account by email (null when none). The path's spelling is the spec's."""
        return services.find_contact(email=args["email"])


@members.route("/invite")
class Invite(MethodView):
    @members.requires(f"{USERS}.add")
    @members.arguments(InviteSchema)
    @members.response(200, InviteResultSchema)
    @missing(members)
    def post(self, args):
        """Invite by phone or email: registered accounts are added, others get an invitation."""
        return services.invite(args)


@members.route("/acceptInvite")
class AcceptInvite(MethodView):
    @members.requires()
    @members.arguments(AcceptInviteSchema)
    @members.response(200, MembershipSchema)
    def post(self, args):
        """Accept an organisation invitation with the token from its message."""
        return services.accept_invitation(args["token"])


@members.route("/organizationAddUser")
class AddUser(MethodView):
    @members.requires(f"{USERS}.add")
    @members.arguments(AddUserSchema)
    @members.response(200, MembershipSchema)
    @missing(members)
    def post(self, args):
        """Add a registered account to an organisation with a role."""
        if not args["looked_up"]:
            services.require_colleague(args["accountId"])
        return services.add_member(args["organizationId"], args["accountId"], args["roleId"])


@members.route("/deleteInOrganization")
class RemoveUser(MethodView):
    @members.requires(f"{USERS}.delete")
    @members.arguments(MembershipQuerySchema, location="query")
    @members.response(200)
    @missing(members)
    def delete(self, args):
        """Remove a member from an organisation."""
        services.remove_member(args["organizationId"], args["accountId"])


@members.route("/updateAccountOrganizationRel")
class MoveUser(MethodView):
    @members.requires(f"{USERS}.edit")
    @members.arguments(MoveMemberSchema)
    @members.response(200, MembershipSchema)
    @missing(members)
    def put(self, args):
        """Move a member to another organisation (and optionally give another role)."""
        return services.move_member(
            args["accountId"], args["organizationId"], args["newOrganizationId"], args["roleId"]
        )
