"""report evidence: device_history (a device's name and time zone over time, who and why; the ones in
force now seeded as valid since ever) and reading_conflict (a value received for a time that already
has a different reading: kept and reported, never dropped silently)

Revision ID: 0039
Revises: 0038
Create Date: 2026-11-28 08:50:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0039"
down_revision = "0038"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "device_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=15), nullable=True),
        sa.Column("time_zone", sa.String(length=64), nullable=False),
        sa.Column("valid_from", sa.DateTime(timezone=True), nullable=False),
        sa.Column("valid_to", sa.DateTime(timezone=True), nullable=True),
        sa.Column("changed_by", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["changed_by"], ["account.id"], name=op.f("fk_device_history_changed_by_account"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["device_id"], ["device.id"], name=op.f("fk_device_history_device_id_device"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_device_history")),
    )
    with op.batch_alter_table("device_history", schema=None) as batch_op:
        batch_op.create_index("ix_device_history_device", ["device_id", "valid_from"], unique=False)
    # The names and zones in force now, valid since ever (nothing older was kept); SQLite keeps UTC
    # times as naive text in the form SQLAlchemy writes them.
    since_ever = (
        "'1970-01-01 00:00:00.000000'" if op.get_bind().dialect.name == "sqlite" else "'1970-01-01 00:00:00+00'"
    )
    op.execute(
        "INSERT INTO device_history (device_id, name, time_zone, valid_from) "
        f"SELECT id, name, time_zone, {since_ever} FROM device WHERE owner_account_id IS NOT NULL"
    )

    op.create_table(
        "reading_conflict",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=False),
        sa.Column("sensor", sa.SmallInteger(), nullable=False),
        sa.Column("ts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("stored_value", sa.Float(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["device_id"], ["device.id"], name=op.f("fk_reading_conflict_device_id_device"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reading_conflict")),
        sa.UniqueConstraint(
            "device_id", "sensor", "ts", "value", name=op.f("uq_reading_conflict_device_id_sensor_ts_value")
        ),
    )
    with op.batch_alter_table("reading_conflict", schema=None) as batch_op:
        batch_op.create_index("ix_reading_conflict_device_ts", ["device_id", "ts"], unique=False)


def downgrade():
    with op.batch_alter_table("reading_conflict", schema=None) as batch_op:
        batch_op.drop_index("ix_reading_conflict_device_ts")
    op.drop_table("reading_conflict")
    with op.batch_alter_table("device_history", schema=None) as batch_op:
        batch_op.drop_index("ix_device_history_device")
    op.drop_table("device_history")
