"""A trail no one can rewrite unseen (issue 45, finding 3): the chain and signature hashes are keyed
(HMAC with a key outside the database), the heads are sealed and exported to a write-once folder that
`flask audit verify` checks, and on PostgreSQL the application cannot UPDATE or DELETE the trail.

The tamper cases play someone with the database's superuser rights (tests/api/trail_helpers.py): the
application's own connection is refused outright (TestAppendOnly)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from sqlalchemy import exc, func, select, text

from api.audit import chain, head_seal, heads
from api.audit.jobs import verify_audit_chain
from api.audit.models import AuditChainHead, HashLegacyCutoff, OperationLog
from api.extensions import hashkeys
from api.extensions.db import db, utcnow
from api.fda.models import RecordVersion, Signature
from api.identity.models import StaffRole
from api.notify.models import OutboundMessage
from api.platform.models import Platform
from tests.api.account_helpers import auth, login, make_account
from tests.api.fda_helpers import REASON, fda_mode
from tests.api.org_helpers import ok
from tests.api.report_helpers import files_dir
from tests.api.test_audit_chain import run_verify, write_entries
from tests.api.test_fda import guids, sign, world
from tests.api.test_fda_frozen import verify as verify_page
from tests.api.trail_helpers import bypass_append_only

__all__ = ["files_dir", "guids", "world"]


@pytest.fixture(autouse=True)
def head_folder(app, tmp_path, monkeypatch):
    """Each test exports its heads into a folder of its own (the database is emptied between tests)."""
    folder = tmp_path / "audit-heads"
    monkeypatch.setitem(app.config, "AUDIT_HEAD_EXPORT_DIR", str(folder))
    return folder


def seal_heads(app) -> list[str]:
    result = app.test_cli_runner().invoke(args=["audit", "seal-heads"])
    assert result.exit_code == 0, result.output
    return [line.removeprefix("sealed ") for line in result.output.splitlines() if line.startswith("sealed ")]


def rewrite_chain(rows: list[OperationLog], hasher, key_id: str | None, *, keep: int | None = None) -> None:
    """As the database's superuser: every entry (the first one's user changed) hashed again with
    `hasher`, linked again, and the head moved to the last (`keep`: only the first `keep` entries stay)."""
    bypass_append_only()
    kept = rows if keep is None else rows[:keep]
    if keep is not None:
        db.session.execute(text("DELETE FROM operation_log WHERE id = ANY(:ids)"), {"ids": [r.id for r in rows[keep:]]})
    prev = chain.GENESIS
    for index, row in enumerate(kept):
        entry = db.session.get(OperationLog, row.id)
        db.session.expunge(entry)
        if index == 0 and keep is None:
            entry.user_name = "someone_else"
        entry.prev_hash, entry.entry_hash = prev, hasher(entry, prev)
        db.session.execute(
            text(
                "UPDATE operation_log SET user_name = :user, prev_hash = :prev, entry_hash = :hash, "
                "hash_key_id = :key WHERE id = :id"
            ),
            {"user": entry.user_name, "prev": prev, "hash": entry.entry_hash, "key": key_id, "id": row.id},
        )
        prev = entry.entry_hash
    db.session.execute(
        text("UPDATE audit_chain_head SET seq = :seq, last_hash = :hash WHERE platform_id = :platform"),
        {"seq": kept[-1].seq, "hash": prev, "platform": kept[0].platform_id},
    )
    db.session.commit()


class TestKeyedChain:
    def test_entries_carry_the_key_id_and_an_hmac_not_the_public_sha256(self, app, client):
        rows = write_entries(app, client)
        with app.app_context():
            key = hashkeys.current_key()
            assert key.key_id == hashkeys.key_id_of(app.config["AUDIT_HMAC_KEY"].encode())
            for row in rows:
                assert row.hash_key_id == key.key_id
                assert row.entry_hash == chain.digest(row, row.prev_hash)
                assert row.entry_hash != chain.legacy_digest(row, row.prev_hash)
        assert run_verify(app).exit_code == 0

    @pytest.mark.parametrize("claimed", ["keyed", "unkeyed"])
    def test_every_hash_recomputed_with_plain_sha256_is_a_break(self, app, client, claimed):
        """The finding: the public algorithm recomputed over the whole chain (head moved too) passed."""
        rows = write_entries(app, client)
        with app.app_context():
            key_id = hashkeys.current_key().key_id if claimed == "keyed" else None
            rewrite_chain(rows, chain.legacy_digest, key_id)
        result = run_verify(app)
        assert result.exit_code == 1, result.output
        problem = (
            "its content was changed"
            if claimed == "keyed"
            else "it was hashed without the installation's key (the keyed hashes had begun)"
        )
        assert f"BROKEN platform {rows[0].platform_id}: entry #1 (id {rows[0].id}): {problem}" in result.output

    def test_unkeyed_entries_from_before_the_keys_still_verify_and_none_after(self, app, client):
        rows = write_entries(app, client)
        with app.app_context():
            # As if the first three entries were written before migration 0035 (its cutoff names them).
            bypass_append_only()
            db.session.add(HashLegacyCutoff(table_name="operation_log", last_id=rows[2].id))
            prev = chain.GENESIS
            for index, row in enumerate(rows):
                entry = db.session.get(OperationLog, row.id)
                db.session.expunge(entry)
                legacy = index < 3
                digest = chain.legacy_digest(entry, prev) if legacy else chain.digest(entry, prev)
                db.session.execute(
                    text("UPDATE operation_log SET entry_hash = :h, prev_hash = :p, hash_key_id = :k WHERE id = :id"),
                    {"h": digest, "p": prev, "k": None if legacy else row.hash_key_id, "id": row.id},
                )
                prev = digest
            db.session.execute(text("UPDATE audit_chain_head SET last_hash = :h"), {"h": prev})
            db.session.commit()
        assert run_verify(app).exit_code == 0
        with app.app_context():
            # The same unkeyed hash on an entry after the cutoff is refused.
            bypass_append_only()
            db.session.execute(text("TRUNCATE hash_legacy_cutoff"))
            db.session.add(HashLegacyCutoff(table_name="operation_log", last_id=rows[1].id))
            db.session.commit()
        result = run_verify(app)
        assert result.exit_code == 1
        assert f"entry #{rows[2].seq} (id {rows[2].id}): it was hashed without the installation's key" in result.output

    def test_a_rotated_key_keeps_old_entries_verifiable_through_the_retired_key_file(
        self, app, client, tmp_path, monkeypatch
    ):
        rows = write_entries(app, client)
        old = tmp_path / "retired.key"
        old.write_text(app.config["AUDIT_HMAC_KEY"])
        monkeypatch.setitem(app.config, "AUDIT_HMAC_KEY", "a-new-key-after-rotation-0123456789")
        result = run_verify(app)
        assert result.exit_code == 1
        assert f"entry #1 (id {rows[0].id}): it names a hash key this installation does not hold" in result.output
        monkeypatch.setitem(app.config, "AUDIT_HMAC_RETIRED_KEY_FILES", [str(old)])
        assert run_verify(app).exit_code == 0
        # New entries are hashed with the new key and continue the same chain.
        login(client, "chain_owner")
        more = client.post(
            "/api/base/BaseOrganization/insert",
            json={"name": "After rotation"},
            headers=auth(login(client, "chain_owner")),
        )
        assert more.get_json()["code"] == 0
        with app.app_context():
            newest = db.session.scalar(select(OperationLog).order_by(OperationLog.seq.desc()).limit(1))
            assert newest.hash_key_id == hashkeys.key_id_of(b"a-new-key-after-rotation-0123456789")
            assert newest.hash_key_id != rows[0].hash_key_id
        assert run_verify(app).exit_code == 0

    def test_without_a_configured_key_one_is_generated_once_readable_by_the_owner_only(
        self, app, tmp_path, monkeypatch
    ):
        monkeypatch.setitem(app.config, "AUDIT_HMAC_KEY", "")
        monkeypatch.setitem(app.config, "FILES_DIR", tmp_path / "var" / "files")
        with app.app_context():
            first = hashkeys.current_key()
            path = tmp_path / "var" / "keys" / hashkeys.KEY_FILE_NAME
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
            assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
            assert hashkeys.current_key() == first and len(first.secret) == 64
            monkeypatch.setitem(app.config, "AUDIT_HMAC_KEY_FILE", str(path))
            assert hashkeys.current_key().key_id == first.key_id


class TestExportedHeads:
    def test_deleting_the_newest_entries_and_moving_the_head_back_is_caught(self, app, client, head_folder):
        rows = write_entries(app, client, count=5)
        [path] = seal_heads(app)
        with app.app_context():
            rewrite_chain(rows, chain.digest, hashkeys.current_key().key_id, keep=len(rows) - 2)
            # The database alone no longer shows it: the chain is shorter and the head agrees.
            assert [v.broken for v in chain.verify_all()] == [None]
        assert seal_heads(app) == []  # a head that went back is never sealed
        result = run_verify(app)
        assert result.exit_code == 1, result.output
        name = path.rsplit("/", 1)[-1]
        assert (
            f"BROKEN platform {rows[0].platform_id}: entry #{rows[-1].seq} missing: the exported head {name}"
            in result.output
        )

    def test_a_head_sealed_after_the_verification_began_is_not_held_against_its_snapshot(self, app, client):
        """The hourly check walks one snapshot for minutes while the heads go on being sealed: a head
        newer than the snapshot names entries the snapshot may lack, and must not alarm anyone."""
        rows = write_entries(app, client, count=3)
        with app.app_context():
            snapshot_began = utcnow()
        [path] = seal_heads(app)
        with app.app_context():
            # As the snapshot saw it: the newest entry not yet committed.
            rewrite_chain(rows, chain.digest, hashkeys.current_key().key_id, keep=len(rows) - 1)
            assert heads.check_exported(rows[0].platform_id, before=snapshot_began) is None
            assert heads.check_exported(rows[0].platform_id, every=True, before=snapshot_began) is None
            broken = heads.check_exported(rows[0].platform_id, before=utcnow())
            assert broken is not None and broken.problem.startswith(f"entry #{rows[-1].seq} missing")
            assert Path(path).name in broken.problem

    def test_every_hash_recomputed_with_the_key_itself_is_caught(self, app, client):
        """Even someone holding the key cannot rewrite what an exported head has fixed."""
        rows = write_entries(app, client)
        seal_heads(app)
        with app.app_context():
            rewrite_chain(rows, chain.digest, hashkeys.current_key().key_id)
            assert [v.broken for v in chain.verify_all()] == [None]
        result = run_verify(app)
        assert result.exit_code == 1
        assert f"entry #{rows[-1].seq} (id {rows[-1].id}) hashes otherwise than the exported head" in result.output

    def test_the_intact_chain_agrees_with_its_heads_and_only_moved_heads_are_sealed(self, app, client, head_folder):
        rows = write_entries(app, client, count=2)
        [first] = seal_heads(app)
        assert seal_heads(app) == []  # nothing moved
        write_entries(app, client, count=1)
        [second] = seal_heads(app)
        assert first != second
        result = run_verify(app)
        assert result.exit_code == 0, result.output
        assert "2 exported heads, the newest sealed and agreeing" in result.output
        every = app.test_cli_runner().invoke(args=["audit", "verify", "--every-head"])
        assert every.exit_code == 0 and "2 exported heads, each sealed and agreeing" in every.output
        document = json.loads(Path(second).read_text())
        statement = document["statement"]
        with app.app_context():
            head = db.session.get(AuditChainHead, rows[0].platform_id)
            assert (statement["seq"], statement["hash"]) == (head.seq, head.last_hash)
            assert statement["platform"] == rows[0].platform_id and statement["keyId"] == rows[0].hash_key_id
            assert head_seal.problem(head.platform_id, heads.canonical(statement), document["seal"]) is None

    def test_a_head_file_is_written_once_and_read_only(self, app, client):
        write_entries(app, client, count=1)
        [path] = seal_heads(app)
        exported = Path(path)
        assert stat.S_IMODE(exported.stat().st_mode) == 0o444
        with pytest.raises(FileExistsError):
            heads._write_once(exported, b"{}")
        assert json.loads(exported.read_bytes())["statement"]["seq"] >= 1

    def test_a_head_forged_with_another_sites_seal_or_altered_is_named(self, app, client, head_folder):
        rows = write_entries(app, client, count=2)
        [path] = seal_heads(app)
        document = json.loads(Path(path).read_text())
        assert document["seal"]["algorithm"] == head_seal.ALGORITHM and document["seal"]["timestampToken"]
        statement = {**document["statement"], "at": "2030-01-01T00:00:00.000000+00:00"}
        with app.app_context():
            other_site = db.session.scalar(select(Platform.id).where(Platform.slug == "junjia"))
            assert other_site != rows[0].platform_id
            forged = {"statement": statement, "seal": head_seal.sign(other_site, heads.canonical(statement))}
        folder = head_folder / str(rows[0].platform_id)
        # The newest file is always checked; an older one with --every-head (or once the newest fails).
        for name, args in (("999999999999999-forged.json", []), ("000000000000000-forged.json", ["--every-head"])):
            (folder / name).write_text(json.dumps(forged))
            result = app.test_cli_runner().invoke(args=["audit", "verify", *args])
            assert result.exit_code == 1
            assert (
                f"the exported head {name}: its seal does not verify (the signer is not this site's seal)"
                in result.output
            )
            (folder / name).unlink()
        altered = {**document, "statement": {**document["statement"], "hash": "0" * 64}}
        (folder / "999999999999999-altered.json").write_text(json.dumps(altered))
        result = run_verify(app)
        assert result.exit_code == 1
        assert "the exported head 999999999999999-altered.json: its seal does not verify" in result.output

    def test_a_chain_wiped_whole_is_caught_by_its_heads(self, app, client):
        rows = write_entries(app, client, count=2)
        seal_heads(app)
        with app.app_context():
            bypass_append_only()
            db.session.execute(text("DELETE FROM operation_log"))
            db.session.execute(text("DELETE FROM audit_chain_head"))
            db.session.commit()
        result = run_verify(app)
        assert result.exit_code == 1
        assert f"BROKEN platform {rows[0].platform_id}: entry #{rows[-1].seq} missing" in result.output


class TestAppendOnly:
    """On PostgreSQL the application's own connection cannot change or remove the trail."""

    @pytest.mark.parametrize(
        "statement",
        [
            "UPDATE operation_log SET user_name = 'someone_else'",
            "UPDATE operation_log SET entry_hash = NULL, seq = NULL",
            "DELETE FROM operation_log",
        ],
    )
    def test_update_and_delete_of_the_trail_are_refused(self, app, client, statement):
        rows = write_entries(app, client)
        with app.app_context():
            assert db.engine.dialect.name == "postgresql"
            with pytest.raises(exc.IntegrityError, match="append-only"):
                db.session.execute(text(statement))
            db.session.rollback()
            after = db.session.scalars(select(OperationLog).order_by(OperationLog.seq)).all()
            assert [(r.id, r.user_name, r.entry_hash) for r in after] == [
                (r.id, r.user_name, r.entry_hash) for r in rows
            ]
        assert run_verify(app).exit_code == 0

    def test_signatures_record_versions_and_the_cutoff_are_refused_too(self, app, client, world, files_dir):
        assert sign(client, world["e"].members["admin"], world)["code"] == 0
        with app.app_context():
            db.session.add(HashLegacyCutoff(table_name="fda_signature", last_id=0))
            db.session.commit()
            for statement in (
                "UPDATE fda_signature SET file_id = file_id",
                "DELETE FROM fda_signature",
                "UPDATE fda_record_version SET seal_hash = 'x'",
                "DELETE FROM fda_record_version",
                "UPDATE hash_legacy_cutoff SET last_id = 1000000",
                "DELETE FROM hash_legacy_cutoff",
            ):
                with pytest.raises(exc.IntegrityError, match="append-only"):
                    db.session.execute(text(statement))
                db.session.rollback()
            assert db.session.scalar(select(func.count()).select_from(Signature)) == 1
            assert db.session.scalar(select(func.count()).select_from(RecordVersion)) == 1
        page = verify_page(app, client, world["file"])
        assert page["integrity"]["signatureValid"] is True and page["versions"][0]["intact"] is True


class TestBreakAlarms:
    def test_a_break_alarms_the_customers_fda_contact_and_staff_exactly_once(self, app, client, head_folder):
        make_account(app, user_name="fda_owner", email="qa@customer.example")
        make_account(app, user_name="fda_off", email="nobody@customer.example")
        make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR, email="ops@example.com")
        fda_mode(app, user_name="fda_owner")
        for user_name in ("fda_owner", "fda_off"):
            headers = {**auth(login(client, user_name)), **REASON}  # FDA mode asks each change its reason
            ok(client.post("/api/base/BaseOrganization/insert", json={"name": f"{user_name} site"}, headers=headers))
        with app.app_context():
            assert verify_audit_chain() == []
            victim = db.session.scalar(select(OperationLog).order_by(OperationLog.seq).limit(1))
            bypass_append_only()
            db.session.execute(text("UPDATE operation_log SET path = '/elsewhere' WHERE id = :id"), {"id": victim.id})
            db.session.commit()
            [described] = verify_audit_chain()
            assert verify_audit_chain() == [described]  # found again, mailed once
            sent = db.session.scalars(select(OutboundMessage).order_by(OutboundMessage.id)).all()
            by_recipient = {m.recipient: m for m in sent}
            assert sorted(m.recipient for m in sent) == ["ops@example.com", "qa@customer.example"]
            customer = by_recipient["qa@customer.example"]
            assert customer.subject == "您的记录所在的审计追踪未通过完整性检查" and customer.lang == "zh-CN"
            assert customer.body.startswith(f"保存您记录的审计追踪未通过完整性检查：{described}。")
            assert "hash chain is broken" in by_recipient["ops@example.com"].body

    def test_a_rewind_caught_by_an_exported_head_alarms_the_customer_in_english_overseas(
        self, app, client, monkeypatch
    ):
        monkeypatch.setitem(app.config, "OVERSEAS", True)
        make_account(app, user_name="fda_owner", email="qa@customer.example")
        fda_mode(app, user_name="fda_owner")
        headers = {**auth(login(client, "fda_owner")), **REASON}  # FDA mode asks each change its reason
        for name in ("One", "Two", "Three"):
            ok(client.post("/api/base/BaseOrganization/insert", json={"name": name}, headers=headers))
        seal_heads(app)
        with app.app_context():
            rows = db.session.scalars(select(OperationLog).order_by(OperationLog.seq)).all()
            db.session.expunge_all()
            rewrite_chain(rows, chain.digest, hashkeys.current_key().key_id, keep=len(rows) - 1)
            [described] = verify_audit_chain()
            verify_audit_chain()
            [message] = db.session.scalars(select(OutboundMessage)).all()
        assert "missing: the exported head" in described
        assert message.recipient == "qa@customer.example" and message.lang == "en-US"
        assert message.subject == "Your records' audit trail failed its integrity check"
        assert message.body.startswith(
            f"The audit trail that holds your records failed its integrity check: {described}."
        )


def test_a_separate_application_role_has_no_update_or_delete_on_the_trail(app, client):
    """With the rights an application role is usually given (every table), restrict_trail_grants
    (migration 0035; run again after granting) takes UPDATE, DELETE and TRUNCATE back on the trail's
    tables, and the trigger refuses what is left. All inside one transaction, rolled back: the role
    is the cluster's, and leaves no trace."""
    rows = write_entries(app, client, count=1)
    role = f"trail_app_{os.getpid()}"
    with app.app_context():
        db.session.execute(text(f"CREATE ROLE {role}"))
        db.session.execute(text(f"GRANT USAGE ON SCHEMA public TO {role}"))
        rights = "SELECT, INSERT, UPDATE, DELETE, TRUNCATE"
        db.session.execute(text(f"GRANT {rights} ON ALL TABLES IN SCHEMA public TO {role}"))
        assert db.session.scalar(text("SELECT restrict_trail_grants()")) == 4
        db.session.execute(text(f"SET LOCAL ROLE {role}"))
        refused = ("UPDATE operation_log SET user_name = 'x'", "DELETE FROM operation_log", "TRUNCATE operation_log")
        for statement in refused:
            with pytest.raises(exc.ProgrammingError, match="permission denied"), db.session.begin_nested():
                db.session.execute(text(statement))
        # Its other tables keep their rights: the role is an application role, not a reader.
        with db.session.begin_nested():
            db.session.execute(text("UPDATE organization SET name = name"))
        assert db.session.scalar(select(func.count()).select_from(OperationLog)) == len(rows)
        db.session.rollback()
    assert run_verify(app).exit_code == 0
