"""Signing workflows (21 CFR 11.50; issue 45 finding 7): a data file is signed in the steps of its
sequence (api/fda/sequence.py), by default author, then reviewer, then approver.

- Step N is signed only after step N-1, by the person assigned to it, with one of the step's meanings.
- Each step is a different person: an account that signed (or is assigned) one step of a file cannot
  take another, and the file's creator cannot review or approve its own file.
- The record's channels are fixed at the first signature; the file is "in review" until the last
  step is signed, then "signed" (final; api/fda/frozen.py freezes it).
- The creator assigns each step (ahead, or when it comes); the current step's assignee is the file's
  checker, so the pages and the visibility rules of a one-step file keep working.
"""

from __future__ import annotations

from typing import Any

from flask import g
from flask_babel import gettext
from sqlalchemy import select

from api.extensions.db import db, utcnow
from api.extensions.i18n import N_, caller_zone
from api.extensions.smorest import ApiError
from api.fda import services
from api.fda.models import (
    AssignState,
    DataFile,
    Endorsement,
    Signature,
    SignedChannel,
    SigningStep,
    SignState,
    StepAssignment,
    StepRole,
)
from api.fda.sequence import configured_steps, file_steps, sequence_of
from api.fda.signature_hash import seal_signature
from api.identity.auth import require_account
from api.identity.models import Account
from api.tenancy import data_platform_id

ROLE_NAMES = {
    StepRole.AUTHOR.value: N_("Author"),
    StepRole.REVIEWER.value: N_("Reviewer"),
    StepRole.APPROVER.value: N_("Approver"),
}
# The creator of a file may author it, never review or approve it.
NOT_THE_CREATORS = frozenset({StepRole.REVIEWER.value, StepRole.APPROVER.value})


def role_name(role: str) -> str:
    return gettext(ROLE_NAMES[role]) if role in ROLE_NAMES else gettext("Signature")


def step_label(step: dict[str, Any]) -> str:
    return gettext("Step %(n)s (%(role)s)", n=step["step"], role=role_name(step["role"]))


def not_assigned() -> ApiError:
    return ApiError(gettext("This file is not assigned to you."), code=services.NOT_YOURS, http_status=403)


# ---- the state of a file ---------------------------------------------------------------------------------


def signatures_of(file: DataFile) -> list[Signature]:
    return list(db.session.scalars(select(Signature).where(Signature.file_id == file.id).order_by(Signature.step)))


def current_step(file: DataFile, signed: list[Signature]) -> dict[str, Any] | None:
    """The first step without a signature (None: every step is signed)."""
    done = {s.step for s in signed}
    return next((step for step in file_steps(file) if step["step"] not in done), None)


def assignees(file: DataFile, current: dict[str, Any] | None) -> dict[int, int]:
    """Step -> the account assigned to it; the current step's is the file's checker."""
    rows = db.session.scalars(select(StepAssignment).where(StepAssignment.file_id == file.id))
    out = {row.step: row.account_id for row in rows}
    if current is not None and file.checker_account_id is not None:
        out[current["step"]] = file.checker_account_id
    return out


def allowed_signers(file: DataFile, step: dict[str, Any]) -> set[int]:
    """Who may take a step: the step's people among the owner's possible checkers (all of them when the
    step names none); never the creator for a review or an approval."""
    candidates = {a.id for a in services.checker_candidates(file.owner_account_id)}
    allowed = candidates & set(step["signerIds"]) if step["signerIds"] else candidates
    if step["role"] in NOT_THE_CREATORS:
        allowed.discard(file.owner_account_id)
    return allowed


def step_meanings(file: DataFile, step: dict[str, Any]) -> list[Endorsement]:
    """The owner's endorsements a signer may choose at the step (all of them when it names none)."""
    stmt = select(Endorsement).where(
        Endorsement.owner_account_id == file.owner_account_id, Endorsement.platform_id == file.platform_id
    )
    if step["endorsementIds"]:
        stmt = stmt.where(Endorsement.id.in_(step["endorsementIds"]))
    return list(db.session.scalars(stmt.order_by(Endorsement.id)))


def _name(account_id: int | None) -> str | None:
    account = db.session.get(Account, account_id) if account_id else None
    return (account.real_name or account.user_name) if account else None


# ---- assigning and signing ------------------------------------------------------------------------------


def _other_steps_of(account_id: int, step_number: int, signed: list[Signature], assigned: dict[int, int]) -> int | None:
    """A step of the file other than this one that the account signed or is assigned to."""
    for signature in signed:
        if signature.signer_account_id == account_id and signature.step != step_number:
            return signature.step
    return next((n for n, who in assigned.items() if who == account_id and n != step_number), None)


def assign(args: dict) -> DataFile:
    """The creator assigns a step of its file (the current one unless `step` says which)."""
    file = services.owned_file(args["id"])
    services.require_enabled(file.owner_account_id)
    if file.sign_state == SignState.SIGNED:
        raise ApiError(gettext("A signed file cannot be changed."), code=services.SIGNED_ALREADY)
    signed = signatures_of(file)
    current = current_step(file, signed)
    steps = {s["step"]: s for s in file_steps(file)}
    number = args.get("step") or current["step"]
    if number not in steps:
        raise services.field_error("step", gettext("This file has no step %(n)s.", n=number))
    if number < current["step"]:
        raise services.field_error("step", gettext("%(step)s is signed already.", step=step_label(steps[number])))
    step, checker = steps[number], args["checkerId"]
    if checker not in {a.id for a in services.checker_candidates()}:
        raise services.field_error("checkerId", gettext("Choose yourself or a member of your organisations."))
    if checker == file.owner_account_id and step["role"] in NOT_THE_CREATORS:
        raise services.field_error("checkerId", gettext("The creator of a file cannot review or approve it."))
    if checker not in allowed_signers(file, step):
        raise services.field_error(
            "checkerId", gettext("This person may not sign %(step)s.", step=step_label(step).lower())
        )
    assigned = assignees(file, current)
    other = _other_steps_of(checker, number, signed, assigned)
    if other is not None:
        raise services.field_error(
            "checkerId",
            gettext("Each step is signed by a different person: this person has step %(n)s.", n=other),
        )
    row = db.session.scalar(
        select(StepAssignment).where(StepAssignment.file_id == file.id, StepAssignment.step == number)
    )
    if row is None:
        db.session.add(StepAssignment(file_id=file.id, step=number, account_id=checker))
    else:
        row.account_id = checker
    if number == current["step"]:
        file.checker_account_id = checker
        file.assign_state = AssignState.ASSIGNED
    db.session.commit()
    return file


def signable_step(file: DataFile, me: Account, wanted: int | None) -> tuple[dict[str, Any], list[Signature]]:
    """The step the caller signs now, or why not: out of order (a later step of theirs, or a `step`
    other than the current one), a second step of the same person, or not theirs at all."""
    if file.sign_state == SignState.SIGNED:
        raise ApiError(gettext("This file is already signed."), code=services.SIGNED_ALREADY)
    signed = signatures_of(file)
    current = current_step(file, signed)
    steps = {s["step"]: s for s in file_steps(file)}
    assigned = assignees(file, current)
    mine_later = next((n for n, who in sorted(assigned.items()) if who == me.id and n > current["step"]), None)
    later = wanted if wanted is not None and wanted > current["step"] else mine_later
    if later is not None and later in steps and assigned.get(current["step"]) != me.id:
        raise services.field_error(
            "step",
            gettext(
                "%(step)s can be signed only after %(before)s.",
                step=step_label(steps[later]),
                before=step_label(steps[later - 1]).lower(),
            ),
        )
    if wanted is not None and wanted != current["step"]:
        raise services.field_error(
            "step", gettext("Sign the current step: %(step)s.", step=step_label(current).lower())
        )
    if assigned.get(current["step"]) != me.id:
        raise not_assigned()
    if any(s.signer_account_id == me.id for s in signed):
        raise services.field_error(
            "checkUserName", gettext("Each step is signed by a different person: you signed this file already.")
        )
    if me.id not in allowed_signers(file, current):
        raise ApiError(
            gettext("You may not sign %(step)s.", step=step_label(current).lower()),
            code=services.NOT_YOURS,
            http_status=403,
        )
    return current, signed


def meanings(file_id: int) -> list[Endorsement]:
    """The meanings the caller may sign the file's current step with (the owner's, whoever signs)."""
    file = services.visible_file(file_id)
    step, _ = signable_step(file, require_account(), None)
    return step_meanings(file, step)


def sign(args: dict) -> DataFile:
    """Sign the current step of a file (not committed: api/fda/frozen.sign freezes the last one)."""
    me = require_account()
    file = services.visible_file(args["id"])
    # One signature at a time per file: a second request waits, then finds its step signed.
    db.session.refresh(file, with_for_update=True)
    step, signed = signable_step(file, me, args.get("step"))
    services.require_enabled(file.owner_account_id)
    endorsement = next((e for e in step_meanings(file, step) if e.id == args["endorsementId"]), None)
    if endorsement is None:
        raise services.field_error("endorsementId", gettext("Choose one of the meanings of this step."))
    services.confirm_signer(
        args["checkUserName"], args["checkPassword"], f"sign {file.file_name}", f"fda_data_file#{file.id}"
    )
    if args.get("reason"):
        g.audit_reason = args["reason"]
    if not signed:  # the first signature fixes the channels: every later step signs the same record
        live = services.live_channels(file)
        if not live:
            raise services.field_error("id", gettext("The device of this file no longer exists: it cannot be signed."))
        db.session.add_all(SignedChannel(file_id=file.id, device_id=d, sensor=s) for d, s in live)
    last = step["step"] == file_steps(file)[-1]["step"]
    file.sign_state = SignState.SIGNED if last else SignState.IN_REVIEW
    db.session.flush()
    digest, count = services.record_hash(file)
    signature = Signature(
        platform_id=file.platform_id,
        file_id=file.id,
        step=step["step"],
        role=step["role"],
        signer_account_id=me.id,
        printed_name=me.real_name or me.user_name,
        user_name=me.user_name,
        meaning=endorsement.name,
        meaning_description=endorsement.description,
        signed_at=utcnow().replace(microsecond=0),
        time_zone=caller_zone().key,
        record_hash=digest,
        readings=count,
    )
    seal_signature(signature)
    db.session.add(signature)
    if not last:  # the next step's assignee (if the creator chose one ahead) is the checker now
        following = assignees(file, None).get(step["step"] + 1)
        file.checker_account_id = following
        file.assign_state = AssignState.ASSIGNED if following else AssignState.UNASSIGNED
    db.session.flush()
    return file


# ---- what the pages and the PDF show ---------------------------------------------------------------------


def manifestation(signature: Signature) -> dict[str, Any]:
    """A signature as manifested (11.50): printed name, account id, date and time with zone, meaning."""
    return {
        "printedName": signature.printed_name,
        "userName": signature.user_name,
        "accountId": signature.signer_account_id,
        "signedAt": signature.signed_at,
        "signedAtText": services.local_text(signature.signed_at, signature.time_zone),
        "timeZone": signature.time_zone,
        "meaning": signature.meaning,
        "meaningDescription": signature.meaning_description,
    }


def steps_of(file: DataFile) -> list[dict[str, Any]]:
    """Each step of the file: role, state (signed / current / pending), who is assigned, the signature."""
    signed = signatures_of(file)
    by_step = {s.step: s for s in signed}
    current = current_step(file, signed)
    assigned = assignees(file, current)
    out = []
    for step in file_steps(file):
        signature = by_step.get(step["step"])
        state = "signed" if signature else "current" if current and step["step"] == current["step"] else "pending"
        out.append(
            {
                "step": step["step"],
                "role": step["role"],
                "roleName": role_name(step["role"]),
                "state": state,
                "assigneeId": assigned.get(step["step"]),
                "assignee": _name(assigned.get(step["step"])),
                "signature": manifestation(signature) if signature else None,
            }
        )
    return out


def present(file: DataFile, with_integrity: bool = False) -> dict[str, Any]:
    """A file as services.present shows it, with its steps and the next one (who signs it)."""
    shown = services.present(file, with_integrity)
    steps = steps_of(file)
    shown["steps"] = steps
    shown["nextStep"] = next((s for s in steps if s["state"] == "current"), None)
    return shown


# ---- the owner's sequence -------------------------------------------------------------------------------


def sequence() -> dict[str, Any]:
    me = require_account()
    steps = sequence_of(me.id)
    return {
        "configured": bool(configured_steps(me.id)),
        "steps": [{**s, "roleName": role_name(s["role"])} for s in steps],
    }


def save_sequence(args: dict) -> dict[str, Any]:
    """Replace the caller's signing sequence (files already created keep theirs)."""
    me = require_account()
    endorsements = set(
        db.session.scalars(
            select(Endorsement.id).where(
                Endorsement.owner_account_id == me.id, Endorsement.platform_id == data_platform_id()
            )
        )
    )
    candidates = {a.id for a in services.checker_candidates(me.id)}
    for index, step in enumerate(args["steps"]):
        if not set(step["endorsementIds"]) <= endorsements:
            raise services.field_error(
                f"steps.{index}.endorsementIds", gettext("Choose one of the account's endorsements.")
            )
        if not set(step["signerIds"]) <= candidates:
            raise services.field_error(
                f"steps.{index}.signerIds", gettext("Choose yourself or a member of your organisations.")
            )
        if step["role"] in NOT_THE_CREATORS and step["signerIds"] and set(step["signerIds"]) <= {me.id}:
            raise services.field_error(
                f"steps.{index}.signerIds", gettext("The creator of a file cannot review or approve it.")
            )
    for old in configured_steps(me.id):
        db.session.delete(old)
    db.session.flush()
    for position, step in enumerate(args["steps"], start=1):
        db.session.add(
            SigningStep(
                platform_id=data_platform_id(),
                owner_account_id=me.id,
                position=position,
                role=StepRole(step["role"]),
                endorsement_ids=sorted(set(step["endorsementIds"])),
                signer_ids=sorted(set(step["signerIds"])),
            )
        )
    db.session.commit()
    return sequence()
