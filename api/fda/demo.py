"""Demo FDA facts of `flask seed-demo`: demouser's FDA mode on, three endorsements and yesterday's
record of the Vaccine Fridge, signed by demouser as "Reviewed". Idempotent (found by name)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import select

from api.device.models import Device
from api.extensions.db import db, utcnow
from api.fda.models import AssignState, DataFile, Endorsement, FdaSetting, Signature, SignState, SubjectType
from api.fda.services import record_hash
from api.fda.signature_hash import seal_signature
from api.identity.models import Account

ENDORSEMENTS = (
    ("Reviewed", "Data reviewed for completeness"),
    ("Approved", "QA release of the batch record"),
    ("Responsible for", "Responsible for the storage"),
)
DEMO_FILE = "Vaccine Fridge daily record"


def seed_fda(owner: Account, device: Device) -> None:
    if db.session.get(FdaSetting, owner.id) is None:
        db.session.add(
            # Off: the demo's signed record shows FDA mode's evidence; turning the mode on (signed, on
            # /fda) makes every limit, push-setting and parameter change ask its reason.
            FdaSetting(account_id=owner.id, platform_id=owner.platform_id, enabled=False, changed_by=owner.id)
        )
    meanings = {}
    for name, description in ENDORSEMENTS:
        endorsement = db.session.scalar(
            select(Endorsement).where(Endorsement.owner_account_id == owner.id, Endorsement.name == name)
        )
        if endorsement is None:
            endorsement = Endorsement(
                platform_id=owner.platform_id, owner_account_id=owner.id, name=name, description=description
            )
            db.session.add(endorsement)
        meanings[name] = endorsement
    if db.session.scalar(
        select(DataFile).where(DataFile.owner_account_id == owner.id, DataFile.file_name == DEMO_FILE)
    ):
        db.session.commit()
        return
    end = utcnow().replace(minute=0, second=0, microsecond=0) - timedelta(hours=2)
    file = DataFile(
        platform_id=owner.platform_id,
        owner_account_id=owner.id,
        file_name=DEMO_FILE,
        subject_type=SubjectType.DEVICE,
        subject_id=device.id,
        collect_begin=end - timedelta(days=1),
        collect_end=end,
        time_zone=device.time_zone or "Asia/Shanghai",
        checker_account_id=owner.id,
        assign_state=AssignState.ASSIGNED,
        sign_state=SignState.SIGNED,
        verify_code=secrets.token_urlsafe(12),
    )
    db.session.add(file)
    db.session.flush()
    digest, count = record_hash(file)
    reviewed = meanings["Reviewed"]
    signature = Signature(
        platform_id=owner.platform_id,
        file_id=file.id,
        signer_account_id=owner.id,
        printed_name=owner.real_name or owner.user_name,
        user_name=owner.user_name,
        meaning=reviewed.name,
        meaning_description=reviewed.description,
        signed_at=utcnow().replace(microsecond=0),
        time_zone=file.time_zone,
        record_hash=digest,
        readings=count,
    )
    seal_signature(signature)
    db.session.add(signature)
    db.session.commit()
