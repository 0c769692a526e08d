"""a trail no one can rewrite unseen: keyed hashes (the key id of each trail entry, signature and record
version, and the cutoff of the rows hashed before keys existed); on PostgreSQL the trail, the signatures
and the record versions refuse UPDATE and DELETE (a trigger, whatever the role; roles other than the
owner also lose the privileges)

Revision ID: 0035
Revises: 0034
Create Date: 2026-11-28 09:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0035'
down_revision = '0034'
branch_labels = None
depends_on = None

# Written once, never changed: the audit trail, the e-signatures, the frozen records, and the cutoff
# below which rows may carry unkeyed hashes.
APPEND_ONLY = ('operation_log', 'fda_signature', 'fda_record_version', 'hash_legacy_cutoff')

# restrict_violation (SQLSTATE 23001): drivers raise it as an integrity error, so a cascade that would
# touch these rows (deleting a platform's admin account) is answered like a foreign key refusal.
REFUSE = """
CREATE OR REPLACE FUNCTION refuse_trail_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: the table is append-only (21 CFR 11.10(e))', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$
"""


# Roles other than a table's owner (a separate application role, PUBLIC) lose UPDATE, DELETE and TRUNCATE
# on the append-only tables. A function, so an operator who grants the application role its rights
# after this migration runs it again: SELECT restrict_trail_grants();
RESTRICT_GRANTS = """
CREATE OR REPLACE FUNCTION restrict_trail_grants() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    granted record;
    revoked integer := 0;
BEGIN
    FOR granted IN
        SELECT DISTINCT g.grantee, g.table_name
        FROM information_schema.role_table_grants AS g
        JOIN pg_tables AS t ON t.schemaname = g.table_schema AND t.tablename = g.table_name
        WHERE g.table_schema = current_schema()
          AND g.table_name IN ('operation_log', 'fda_signature', 'fda_record_version', 'hash_legacy_cutoff')
          AND g.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
          AND g.grantee <> t.tableowner
    LOOP
        EXECUTE format(
            'REVOKE UPDATE, DELETE, TRUNCATE ON %I FROM %s',
            granted.table_name,
            CASE WHEN granted.grantee = 'PUBLIC' THEN 'PUBLIC' ELSE quote_ident(granted.grantee) END
        );
        revoked := revoked + 1;
    END LOOP;
    RETURN revoked;
END
$$
"""


def upgrade():
    for table in ('operation_log', 'fda_signature', 'fda_record_version'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('hash_key_id', sa.String(length=16), nullable=True))
    op.create_table('hash_legacy_cutoff',
    sa.Column('table_name', sa.String(length=64), nullable=False),
    sa.Column('last_id', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('table_name', name=op.f('pk_hash_legacy_cutoff'))
    )
    # The rows already written keep their plain SHA-256; every later one must carry a key id.
    for table in ('operation_log', 'fda_signature', 'fda_record_version'):
        op.execute(
            f"INSERT INTO hash_legacy_cutoff (table_name, last_id) SELECT '{table}', COALESCE(MAX(id), 0) FROM {table}"
        )
    if op.get_bind().dialect.name != 'postgresql':
        return
    op.execute(REFUSE)
    for table in APPEND_ONLY:
        op.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION refuse_trail_change()"
        )
    op.execute(RESTRICT_GRANTS)
    op.execute("SELECT restrict_trail_grants()")


def downgrade():
    if op.get_bind().dialect.name == 'postgresql':
        for table in APPEND_ONLY:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        op.execute("DROP FUNCTION IF EXISTS refuse_trail_change()")
        op.execute("DROP FUNCTION IF EXISTS restrict_trail_grants()")
    op.drop_table('hash_legacy_cutoff')
    for table in ('fda_record_version', 'fda_signature', 'operation_log'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('hash_key_id')
