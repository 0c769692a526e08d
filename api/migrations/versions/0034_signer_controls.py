"""signatures only their owner can make: account.password_origin (own; staff: chosen by staff when
adding the account, signs nothing until changed; reset: reset by staff, nobody knows it, signs in again
only after the user set their own)

Revision ID: 0034
Revises: 0030
Create Date: 2026-11-28 06:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0034'
down_revision = '0033'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('password_origin', sa.String(length=10), server_default='own', nullable=False)
        )


def downgrade():
    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.drop_column('password_origin')
