"""calibration correction: a device's setting to show and export readings corrected by its probes' certificates

Revision ID: 0048
Revises: 0047
Create Date: 2026-11-28 22:45:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0048"
down_revision = "0047"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("device", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("calibration_correction", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade():
    with op.batch_alter_table("device", schema=None) as batch_op:
        batch_op.drop_column("calibration_correction")
