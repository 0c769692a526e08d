"""alarm acknowledgement: who acknowledged an alarm, how and when; repeat-until-acknowledged push
settings; delivery receipts of outbox rows; provider callbacks already handled (issue 48)

Revision ID: 0044
Revises: 0043
Create Date: 2026-11-28 21:40:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0044"
down_revision = "0043"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("alarm", schema=None) as batch_op:
        batch_op.add_column(sa.Column("acknowledged_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("ack_via", sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column("ack_account_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("ack_by", sa.String(length=254), nullable=True))
        batch_op.create_foreign_key(
            "fk_alarm_ack_account_id_account", "account", ["ack_account_id"], ["id"], ondelete="SET NULL"
        )
    with op.batch_alter_table("push_setting", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("repeat_until_ack", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("outbound_message", schema=None) as batch_op:
        batch_op.add_column(sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "provider_event",
        sa.Column("event_id", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_provider_event")),
    )


def downgrade():
    op.drop_table("provider_event")
    with op.batch_alter_table("outbound_message", schema=None) as batch_op:
        batch_op.drop_column("delivered_at")
    with op.batch_alter_table("push_setting", schema=None) as batch_op:
        batch_op.drop_column("repeat_until_ack")
    with op.batch_alter_table("alarm", schema=None) as batch_op:
        batch_op.drop_constraint("fk_alarm_ack_account_id_account", type_="foreignkey")
        batch_op.drop_column("ack_by")
        batch_op.drop_column("ack_account_id")
        batch_op.drop_column("ack_via")
        batch_op.drop_column("acknowledged_at")
