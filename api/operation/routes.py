"""System users and staff roles (/operation/consumer/list, /operation/consumer/role): the account
calls of business-domain section 7. `getAccountList/page` and `queryUserByCondition` are the
organisation area's member lists (api/organization); the operator's user list is `get/list`."""

from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.identity.staff import staff_scope
from api.operation import services
from api.operation.schemas import (
    ResetPasswordResultSchema,
    ResetPasswordSchema,
    StaffRoleSchema,
    SystemUserAddSchema,
    SystemUserIdSchema,
    SystemUserModifySchema,
    SystemUserQuerySchema,
    SystemUserSchema,
    UpgradeSchema,
    UserByRoleQuerySchema,
)

blp = Blueprint(
    "operation_users",
    __name__,
    url_prefix="/api/base/BaseAccount",
    description="System users of the operator's area (platform staff only)",
)
roles = Blueprint(
    "operation_roles", __name__, url_prefix="/api/base/BaseRole", description="Staff roles of the operator's area"
)
USERS = "operation.system.consumer"
ROLES = "operation.system.role"


def refused(status: int, description: str):
    return blp.alt_response(status, schema=ErrorEnvelopeSchema, description=description)


@blp.route("/get/list")
class SystemUserList(MethodView):
    @blp.requires(f"{USERS}.query")
    @blp.arguments(SystemUserQuerySchema)
    @blp.response(200, SystemUserSchema, page=True)
    @refused(403, "Not platform staff")
    def post(self, args):
        """Accounts the staff member runs (every platform for the operator), newest first."""
        return services.page(staff_scope(), args)


@blp.route("/queryUserByRole")
class SystemUsersByRole(MethodView):
    @blp.requires(f"{USERS}.query")
    @blp.arguments(UserByRoleQuerySchema)
    @blp.response(200, SystemUserSchema, page=True)
    @refused(403, "Not platform staff")
    def post(self, args):
        """Accounts holding a staff role."""
        return services.page(staff_scope(), args)


@blp.route("/sysAddUser")
class SystemUserAdd(MethodView):
    @blp.requires(f"{USERS}.add")
    @blp.arguments(SystemUserAddSchema)
    @blp.response(200, SystemUserSchema)
    @refused(403, "Not platform staff")
    @refused(422, "A field is invalid or already used")
    def post(self, args):
        """Create an account (the operator: on any platform, with a staff role if wanted)."""
        return services.add(staff_scope(), args)


@blp.route("/sysModifyUser")
class SystemUserModify(MethodView):
    @blp.requires(f"{USERS}.edit")
    @blp.arguments(SystemUserModifySchema)
    @blp.response(200, SystemUserSchema)
    @refused(403, "Not platform staff")
    @refused(404, "No such account within reach")
    def post(self, args):
        """Change the fields sent (staff roles: the operator only)."""
        return services.modify(staff_scope(), args)


@blp.route("/sysDeleteUser")
class SystemUserDelete(MethodView):
    @blp.requires(f"{USERS}.delete")
    @blp.arguments(SystemUserIdSchema)
    @blp.response(200)
    @refused(403, "Not platform staff")
    @refused(404, "No such account within reach")
    def post(self, args):
        """Delete (deletedFlag: cancelled and signed out everywhere; its records stay)."""
        services.delete(staff_scope(), args["id"])


@blp.route("/resetPasswordBySys")
class SystemUserResetPassword(MethodView):
    @blp.requires(f"{USERS}.edit")
    @blp.arguments(ResetPasswordSchema)
    @blp.response(200, ResetPasswordResultSchema)
    @refused(403, "Not platform staff")
    @refused(404, "No such account within reach")
    @refused(422, "The account is cancelled or has no phone or email to tell")
    def post(self, args):
        """Reset the password: nobody knows the new one; the user is told to set their own (Forgot
        password) and until then neither signs in nor signs records. Lifts the lock, signs the account
        out everywhere and is recorded in the user's trail."""
        return services.reset_password(staff_scope(), args)


@blp.route("/userTypeUpgrade")
class SystemUserUpgrade(MethodView):
    @blp.requires(f"{USERS}.edit")
    @blp.arguments(UpgradeSchema)
    @blp.response(200, SystemUserSchema)
    @refused(403, "Not platform staff")
    @refused(404, "No such account within reach")
    def put(self, args):
        """Personal -> enterprise account (business-domain section 6)."""
        return services.upgrade(staff_scope(), args)


@roles.route("/staffRoleList")
class StaffRoles(MethodView):
    @roles.requires(f"{ROLES}.query")
    @roles.response(200, StaffRoleSchema(many=True))
    @roles.alt_response(403, schema=ErrorEnvelopeSchema, description="Not platform staff")
    def get(self):
        """Staff roles with their operator-area keys (roles of organisations cannot grant these)."""
        return services.staff_roles(staff_scope())
