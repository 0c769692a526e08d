"""On-call schedules: /api/alarm/OnCallSchedule/{page,detail/{id},insert,update,delete/{id},who,people}
under `alarm.oncall.*` (scoped to the account's organisation creator, as projects are)."""

from __future__ import annotations

from api.extensions.crud import Action, Call, register_crud
from api.extensions.smorest import Blueprint
from api.oncall import services
from api.oncall.schemas import (
    OnCallNowSchema,
    OnCallPeopleQuerySchema,
    OnCallScheduleInputSchema,
    OnCallSchedulePageQuerySchema,
    OnCallScheduleSchema,
    OnCallScheduleUpdateSchema,
    OnCallWhoQuerySchema,
    PersonSchema,
)

blp = Blueprint("oncall", __name__, url_prefix="/api/alarm/OnCallSchedule", description="On-call schedules")

register_crud(
    blp,
    "OnCallSchedule",
    key="alarm.oncall",
    item=OnCallScheduleSchema,
    missing="Not a schedule of this account",
    id_name="schedule_id",
    page=Call(services.page, "On-call schedules with the person on call now.", OnCallSchedulePageQuerySchema),
    detail=Call(services.detail, "One schedule: rota, overrides, the person on call now."),
    insert=Call(services.save, "Add a schedule (zone, weekly rota, overrides).", OnCallScheduleInputSchema),
    update=Call(services.save, "Change a schedule as one object.", OnCallScheduleUpdateSchema),
    delete=Call(services.delete, "Delete a schedule (push-setting levels naming it lose that entry)."),
    actions=(
        Action(
            "Who",
            "/who",
            "get",
            "query",
            Call(
                services.who_at,
                "Who is on call now, or at `at`, and since when.",
                OnCallWhoQuerySchema,
                location="query",
            ),
            OnCallNowSchema,
        ),
        Action(
            "People",
            "/people",
            "get",
            "query",
            Call(
                lambda _args: services.people(), "The users a rota may name.", OnCallPeopleQuerySchema, location="query"
            ),
            PersonSchema(many=True),
            missing=False,
        ),
    ),
)
