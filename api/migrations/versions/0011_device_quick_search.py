"""device quick-search flag (issue 15)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 03:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('device', schema=None) as batch_op:
        batch_op.add_column(sa.Column('quick_search', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    with op.batch_alter_table('device', schema=None) as batch_op:
        batch_op.drop_column('quick_search')
