"""FDA mode's session rules: a session's last call, the idle sign-out minutes

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-24 10:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('account_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('fda_setting', schema=None) as batch_op:
        batch_op.add_column(sa.Column('idle_minutes', sa.Integer(), server_default='15', nullable=False))


def downgrade():
    with op.batch_alter_table('fda_setting', schema=None) as batch_op:
        batch_op.drop_column('idle_minutes')
    with op.batch_alter_table('account_session', schema=None) as batch_op:
        batch_op.drop_column('last_seen_at')
