"""guid lifecycle: a deleted device's GUID can be added again (the GUID is unique among live devices
only, so the deleted record keeps its history beside the new one), unused GUIDs can be voided (when,
why, by whom), and a reseller site can be switched off (closed_at)

Revision ID: 0042
Revises: 0040
Create Date: 2026-11-28 11:45:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0042"
down_revision = "0040"
branch_labels = None
depends_on = None

LIVE = "NOT deleted"


def upgrade():
    with op.batch_alter_table("device", schema=None) as batch_op:
        batch_op.drop_constraint("uq_device_guid", type_="unique")
        batch_op.add_column(sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("void_reason", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("voided_by", sa.Integer(), nullable=True))
        batch_op.create_index("ix_device_guid", ["guid"], unique=False)
        batch_op.create_index(
            "uq_device_guid_live",
            ["guid"],
            unique=True,
            postgresql_where=sa.text(LIVE),
            sqlite_where=sa.text(LIVE),
        )
    with op.batch_alter_table("platform", schema=None) as batch_op:
        batch_op.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("platform", schema=None) as batch_op:
        batch_op.drop_column("closed_at")
    with op.batch_alter_table("device", schema=None) as batch_op:
        batch_op.drop_index("uq_device_guid_live")
        batch_op.drop_index("ix_device_guid")
        batch_op.drop_column("voided_by")
        batch_op.drop_column("void_reason")
        batch_op.drop_column("voided_at")
        batch_op.create_unique_constraint("uq_device_guid", ["guid"])
