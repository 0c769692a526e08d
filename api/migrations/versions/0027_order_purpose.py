"""order purpose: what a billing order pays for (device service, a calibration application), and the
payment recorded in a calibration order's status history

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-24 13:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0027'
down_revision = '0026'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('billing_order', schema=None) as batch_op:
        batch_op.add_column(sa.Column('purpose', sa.String(length=20), server_default='service', nullable=False))
        batch_op.add_column(sa.Column('subject_id', sa.Integer(), nullable=True))
        batch_op.create_index('ix_billing_order_subject', ['purpose', 'subject_id'], unique=False)
    with op.batch_alter_table('calibration_status_history', schema=None) as batch_op:
        batch_op.add_column(sa.Column('payment', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('pay_type', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('order_code', sa.String(length=20), nullable=True))


def downgrade():
    with op.batch_alter_table('calibration_status_history', schema=None) as batch_op:
        batch_op.drop_column('order_code')
        batch_op.drop_column('pay_type')
        batch_op.drop_column('payment')
    with op.batch_alter_table('billing_order', schema=None) as batch_op:
        batch_op.drop_index('ix_billing_order_subject')
        batch_op.drop_column('subject_id')
        batch_op.drop_column('purpose')
