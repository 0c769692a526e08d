from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.organization import services as organizations
from api.organization.schemas import MemberRoleSchema, MembershipSchema
from api.role import permissions, services
from api.role.schemas import (
    OrganizationTypeQuerySchema,
    PermissionNodeSchema,
    RoleInputSchema,
    RolePageQuerySchema,
    RoleSchema,
    RoleUpdateSchema,
)

blp = Blueprint("role", __name__, url_prefix="/api/base/BaseRole", description="Roles and permission keys")
ROLE = "consumer.role"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not a role of this account")


@blp.route("/permissionTree")
class PermissionTree(MethodView):
    @blp.requires(f"{ROLE}.query")
    @blp.response(200, PermissionNodeSchema(many=True))
    def get(self):
        """The permission-key tree roles grant from (business-domain section 6)."""
        return permissions.tree()


@blp.route("/page")
class RolePage(MethodView):
    @blp.requires(f"{ROLE}.query")
    @blp.arguments(RolePageQuerySchema)
    @blp.response(200, RoleSchema, page=True)
    def post(self, args):
        """The roles of the account's organisations."""
        return services.page(args)


@blp.route("/queryRoleByOrganizationType")
class RolesByType(MethodView):
    @blp.requires(f"{ROLE}.query")
    @blp.arguments(OrganizationTypeQuerySchema, location="query")
    @blp.response(200, RoleSchema(many=True))
    def get(self, args):
        """Roles that can be given in an organisation of a type (enterprise or personal)."""
        return services.by_organization_type(args["organizationType"])


@blp.route("/insert")
class RoleInsert(MethodView):
    @blp.requires(f"{ROLE}.add")
    @blp.arguments(RoleInputSchema)
    @blp.response(200, RoleSchema)
    def post(self, args):
        """Add a role with its permission keys."""
        return services.save(args)


@blp.route("/update")
class RoleUpdate(MethodView):
    @blp.requires(f"{ROLE}.edit")
    @blp.arguments(RoleUpdateSchema)
    @blp.response(200, RoleSchema)
    @missing()
    def put(self, args):
        """Change a role's name, description or permission keys."""
        return services.save(args)


@blp.route("/delete/<int:role_id>")
class RoleDelete(MethodView):
    @blp.requires(f"{ROLE}.delete")
    @blp.response(200)
    @missing()
    def delete(self, role_id: int):
        """Delete a role nobody holds."""
        services.delete(role_id)


@blp.route("/updateRoleInOrganization")
class MemberRole(MethodView):
    @blp.requires("consumer.list.edit")
    @blp.arguments(MemberRoleSchema)
    @blp.response(200, MembershipSchema)
    @missing()
    def put(self, args):
        """Give a member another role in an organisation."""
        return organizations.set_member_role(args["organizationId"], args["accountId"], args["roleId"])
