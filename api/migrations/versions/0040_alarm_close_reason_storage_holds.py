"""alarm close reasons and storage alarm holds: alarm.close_reason (why an alarm closed when it was not
a recovery: the device disabled or scrapped, its asset switched off), and per cold storage the minutes
a defrost or an open door holds the affected probes' limit alarms, with the end of the window in force

Revision ID: 0040
Revises: 0039
Create Date: 2026-11-28 12:00:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0040"
down_revision = "0039"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("alarm", schema=None) as batch_op:
        batch_op.add_column(sa.Column("close_reason", sa.String(length=40), nullable=True))
    with op.batch_alter_table("cold_storage", schema=None) as batch_op:
        batch_op.add_column(sa.Column("defrost_hold_minutes", sa.Integer(), nullable=False, server_default="30"))
        batch_op.add_column(sa.Column("door_hold_minutes", sa.Integer(), nullable=False, server_default="5"))
        batch_op.add_column(sa.Column("defrost_hold_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("door_hold_until", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("cold_storage", schema=None) as batch_op:
        batch_op.drop_column("door_hold_until")
        batch_op.drop_column("defrost_hold_until")
        batch_op.drop_column("door_hold_minutes")
        batch_op.drop_column("defrost_hold_minutes")
    with op.batch_alter_table("alarm", schema=None) as batch_op:
        batch_op.drop_column("close_reason")
