"""Calibration results: the readings the lab enters per item, and their corrections."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select

from api.calibration import states
from api.calibration.models import (
    Application,
    ApplicationItem,
    ResultInfo,
)
from api.calibration.services import move, not_found, refuse, require_active, visible
from api.calibration.states import Action, Actor
from api.extensions.db import db
from api.extensions.i18n import N_
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.tenancy import data_platform_id


def item_of_site(item_id: int) -> ApplicationItem:
    item = db.session.scalar(
        select(ApplicationItem)
        .join(Application)
        .where(ApplicationItem.id == item_id, Application.platform_id == data_platform_id())
    )
    if item is None:
        raise not_found()
    return item


def results_of(application_id: int) -> list[dict]:
    application = visible(application_id)
    return [item_results(item) for item in application.items]


def item_results(item: ApplicationItem) -> dict:
    return {"item": item, "results": item.results}


def _result_values(row: dict) -> dict:
    error = row.get("error")
    if error is None:
        error = round(row["reading"] - row["reference"], 6)
    return {
        "reference": row["reference"],
        "reading": row["reading"],
        "error": error,
        "uncertainty": row["uncertainty"],
        "passed": row["passed"],
    }


def insert_results(args: dict) -> dict:
    item = item_of_site(args["itemId"])
    application = item.application
    require_active(application)
    if application.status == states.RECEIVED:
        move(application, states.CALIBRATING, Actor.LAB, Action.RESULT)
    elif application.status != states.CALIBRATING:
        raise refuse(N_("Results are recorded once the lab has received the instruments."))
    taken = {r.point_no for r in item.results}
    account = require_account()
    for row in args["results"]:
        if row["pointNo"] in taken:
            raise ApiError(
                gettext("Point %(n)s already has a result: update it instead.", n=row["pointNo"]),
                code=422,
                data={"errors": {"pointNo": [gettext("Already recorded")]}},
            )
        taken.add(row["pointNo"])
        item.results.append(ResultInfo(point_no=row["pointNo"], recorded_by=account.id, **_result_values(row)))
    db.session.commit()
    return item_results(item)


def update_result(args: dict) -> ResultInfo:
    result = db.session.scalar(
        select(ResultInfo)
        .join(ApplicationItem)
        .join(Application)
        .where(ResultInfo.id == args["resultId"], Application.platform_id == data_platform_id())
    )
    if result is None:
        raise not_found()
    application = db.session.get(Application, db.session.get(ApplicationItem, result.item_id).application_id)
    require_active(application)
    if application.status != states.CALIBRATING:
        raise refuse(N_("Results can no longer change: the certificate is issued."))
    for key, value in _result_values(args).items():
        setattr(result, key, value)
    result.recorded_by = require_account().id
    db.session.commit()
    return result
