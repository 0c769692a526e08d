"""waybill_share: wrong PIN tries counted per link, so a link locks after 10 wrong tries for 15
minutes whichever address they come from (issue 44: the per-address limit let the right PIN in at
once from another address). The owner sees the count, the last wrong try and the lock.

Revision ID: 0032
Revises: 0029
Create Date: 2026-11-28 06:00:00

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = '0032'
down_revision = '0030'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('waybill_share', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pin_failures', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('pin_failures_total', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('pin_failed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('pin_locked_until', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('waybill_share', schema=None) as batch_op:
        batch_op.drop_column('pin_locked_until')
        batch_op.drop_column('pin_failed_at')
        batch_op.drop_column('pin_failures_total')
        batch_op.drop_column('pin_failures')
