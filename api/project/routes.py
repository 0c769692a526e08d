from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.project import services
from api.project.schemas import ProjectInputSchema, ProjectPageQuerySchema, ProjectSchema, ProjectUpdateSchema

blp = Blueprint("project", __name__, url_prefix="/api/base/BaseProject", description="Projects")
KEY = "project.list"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not a project of this account")


@blp.route("/page")
class ProjectPage(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.arguments(ProjectPageQuerySchema)
    @blp.response(200, ProjectSchema, page=True)
    def post(self, args):
        """Projects with their devices."""
        return services.page(args)


@blp.route("/insert")
class ProjectInsert(MethodView):
    @blp.requires(f"{KEY}.add")
    @blp.arguments(ProjectInputSchema)
    @blp.response(200, ProjectSchema)
    def post(self, args):
        """Add a project (name 2-20) with devices."""
        return services.save(args)


@blp.route("/update")
class ProjectUpdate(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(ProjectUpdateSchema)
    @blp.response(200, ProjectSchema)
    @missing()
    def put(self, args):
        """Rename a project or change its devices."""
        return services.save(args)


@blp.route("/delete/<int:project_id>")
class ProjectDelete(MethodView):
    @blp.requires(f"{KEY}.delete")
    @blp.response(200)
    @missing()
    def delete(self, project_id: int):
        """Delete a project (its devices stay)."""
        services.delete(project_id)
