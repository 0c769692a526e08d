"""E-signatures and frozen record versions keyed (issue 45, finding 3): their hashes are HMAC-SHA256
with the installation's key (api/fda/signature_hash.py, api/fda/frozen.py), so a signature copied onto
another file with its hashes recomputed by the public algorithm is invalid, while rows hashed before
the keys existed still verify under the migration's cutoff."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import select, text

from api.audit.models import HashLegacyCutoff
from api.extensions import hashkeys
from api.extensions.db import db
from api.fda import frozen, signature_hash
from api.fda import services as fda_services
from api.fda.models import DataFile, RecordVersion, Signature, SignState
from tests.api.fda_helpers import REASON
from tests.api.org_helpers import ok
from tests.api.report_helpers import files_dir
from tests.api.test_fda import FDA, guids, sign, world
from tests.api.test_fda_frozen import verify as verify_page
from tests.api.trail_helpers import bypass_append_only

__all__ = ["files_dir", "guids", "world"]


class TestSignatureCopied:
    @pytest.mark.parametrize("claimed", ["keyed", "unkeyed"])
    def test_a_signature_copied_onto_another_file_with_both_hashes_recomputed_is_invalid(
        self, app, client, world, claimed
    ):
        e = world["e"]
        assert sign(client, e.members["admin"], world)["code"] == 0
        other = ok(
            client.post(
                f"{FDA}/ElectronicSignature/insert",
                json={
                    "fileName": "Another record",
                    "subjectType": "device",
                    "subjectId": world["device"],
                    "collectBegin": "2026-01-01T00:00:00+00:00",
                    "collectEnd": "2026-01-01T06:00:00+00:00",
                },
                headers={**e.owner, **REASON},
            )
        )["id"]
        with app.app_context():
            original = db.session.scalar(select(Signature).where(Signature.file_id == world["file"]))
            assert original.hash_key_id == hashkeys.current_key().key_id
            assert signature_hash.signature_valid(original)
            target = db.session.get(DataFile, other)
            digest, count = fda_services.record_hash(target)
            copy = Signature(
                platform_id=original.platform_id,
                file_id=other,
                signer_account_id=original.signer_account_id,
                printed_name=original.printed_name,
                user_name=original.user_name,
                meaning=original.meaning,
                meaning_description=original.meaning_description,
                signed_at=original.signed_at,
                time_zone=original.time_zone,
                record_hash=digest,
                readings=count,
            )
            copy.signature_hash = hashlib.sha256(signature_hash.signature_content(copy)).hexdigest()
            copy.hash_key_id = original.hash_key_id if claimed == "keyed" else None
            db.session.add(copy)
            target.sign_state = SignState.SIGNED
            db.session.commit()
        page = verify_page(app, client, other)
        assert page["integrity"]["intact"] is True  # the readings hash is what the forger recomputed
        assert page["integrity"]["signatureValid"] is False
        assert verify_page(app, client, world["file"])["integrity"]["signatureValid"] is True


class TestSignedBeforeKeys:
    def test_a_signature_and_version_hashed_before_the_keys_still_verify(self, app, client, world, files_dir):
        """Signed before migration 0035: plain SHA-256, no key id, under the cutoff: still valid."""
        assert sign(client, world["e"].members["admin"], world)["code"] == 0
        with app.app_context():
            signature = db.session.scalar(select(Signature).where(Signature.file_id == world["file"]))
            version = db.session.scalar(select(RecordVersion).where(RecordVersion.file_id == world["file"]))
            db.session.expunge_all()  # changed below by SQL only
            legacy_signature = hashlib.sha256(signature_hash.signature_content(signature)).hexdigest()
            signature.signature_hash = legacy_signature
            legacy_seal = hashlib.sha256(frozen.seal_content(version, signature)).hexdigest()
            bypass_append_only()
            db.session.execute(
                text("UPDATE fda_signature SET signature_hash = :h, hash_key_id = NULL WHERE id = :id"),
                {"h": legacy_signature, "id": signature.id},
            )
            db.session.execute(
                text("UPDATE fda_record_version SET seal_hash = :h, hash_key_id = NULL WHERE id = :id"),
                {"h": legacy_seal, "id": version.id},
            )
            db.session.commit()
        page = verify_page(app, client, world["file"])
        # No cutoff names them: unkeyed rows after the keys began are forgeries.
        assert page["integrity"]["signatureValid"] is False and page["versions"][0]["intact"] is False
        with app.app_context():
            db.session.add(HashLegacyCutoff(table_name="fda_signature", last_id=signature.id))
            db.session.add(HashLegacyCutoff(table_name="fda_record_version", last_id=version.id))
            db.session.commit()
        page = verify_page(app, client, world["file"])
        assert page["integrity"]["signatureValid"] is True and page["versions"][0]["intact"] is True
