"""Projects: named groups of devices of an enterprise (the organisation creator's)."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, select

from api.access.reach import visible
from api.device.models import Device
from api.extensions.db import db, paginate
from api.extensions.smorest import ApiError
from api.organization.manager import manager_id
from api.project.models import Project, ProjectDevice
from api.tenancy import data_platform_id, scoped


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def _projects():

    return scoped(select(Project), Project).where(Project.owner_account_id == manager_id())


def _project(project_id: int) -> Project:
    project = db.session.scalar(_projects().where(Project.id == project_id))
    if project is None:
        raise not_found()
    return project


def visible_device_ids(device_ids: list[int]) -> list[int]:
    """The given devices, all of which the signed-in account must see (else nothing changes)."""
    found = set(
        db.session.scalars(
            visible(select(Device.id), Device).where(Device.id.in_(device_ids), Device.deleted.is_(False))
        )
    )
    if found != set(device_ids):
        raise ApiError(gettext("The device cannot be found, please confirm and re-enter"), code=3001)
    return list(dict.fromkeys(device_ids))


def page(args: dict) -> dict:
    stmt = _projects()
    if args.get("projectName"):
        stmt = stmt.where(Project.project_name.icontains(args["projectName"], autoescape=True))
    found = paginate(stmt, args, Project.id.desc())
    ids = [p.id for p in found["list"]]
    links: dict[int, list[int]] = {}
    for project_id, device_id in db.session.execute(
        select(ProjectDevice.project_id, ProjectDevice.device_id).where(ProjectDevice.project_id.in_(ids))
    ):
        links.setdefault(project_id, []).append(device_id)
    return {
        "list": [{"project": p, "deviceIds": links.get(p.id, [])} for p in found["list"]],
        "total": found["total"],
    }


def save(args: dict) -> dict:

    device_ids = visible_device_ids(args["deviceIds"]) if args["deviceIds"] else []
    if "id" in args:
        project = _project(args["id"])
    else:
        project = Project(platform_id=data_platform_id(), owner_account_id=manager_id())
        db.session.add(project)
    project.project_name = args["projectName"]
    db.session.flush()
    current = {
        link.device_id: link
        for link in db.session.scalars(select(ProjectDevice).where(ProjectDevice.project_id == project.id))
    }
    for device_id, link in current.items():
        if device_id not in device_ids:
            db.session.delete(link)
    for device_id in device_ids:
        if device_id not in current:
            db.session.add(ProjectDevice(project_id=project.id, device_id=device_id))
    db.session.commit()
    return {"project": project, "deviceIds": device_ids}


def delete(project_id: int) -> None:
    db.session.delete(_project(project_id))
    db.session.commit()


def device_count(project_id: int) -> int:
    return db.session.scalar(select(func.count()).where(ProjectDevice.project_id == project_id))
