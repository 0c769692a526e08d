"""refunds: the provider's id of an order's refund

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-24 11:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('billing_order', schema=None) as batch_op:
        batch_op.add_column(sa.Column('refund_id', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('billing_order', schema=None) as batch_op:
        batch_op.drop_column('refund_id')
