from __future__ import annotations

from api.extensions.crud import Call, register_crud
from api.extensions.smorest import Blueprint
from api.project import services
from api.project.schemas import ProjectInputSchema, ProjectPageQuerySchema, ProjectSchema, ProjectUpdateSchema

blp = Blueprint("project", __name__, url_prefix="/api/base/BaseProject", description="Projects")

register_crud(
    blp,
    "Project",
    key="project.list",
    item=ProjectSchema,
    missing="Not a project of this account",
    id_name="project_id",
    page=Call(services.page, "Projects with their devices.", ProjectPageQuerySchema),
    insert=Call(services.save, "Add a project (name 2-20) with devices.", ProjectInputSchema),
    update=Call(services.save, "Rename a project or change its devices.", ProjectUpdateSchema),
    delete=Call(services.delete, "Delete a project (its devices stay)."),
)
