"""sign-in throttle per account and requester; code guesses by other requesters (issue 15)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24 03:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('sign_in_throttle',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('subject', sa.String(length=80), nullable=False),
    sa.Column('requester', sa.String(length=64), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('locks', sa.Integer(), nullable=False),
    sa.Column('window_start', sa.DateTime(timezone=True), nullable=False),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('succeeded_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_sign_in_throttle_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sign_in_throttle')),
    sa.UniqueConstraint('platform_id', 'subject', 'requester', name=op.f('uq_sign_in_throttle_platform_id_subject_requester'))
    )
    with op.batch_alter_table('verification_code', schema=None) as batch_op:
        batch_op.add_column(sa.Column('foreign_attempts', sa.Integer(), server_default='0', nullable=False))


def downgrade():
    with op.batch_alter_table('verification_code', schema=None) as batch_op:
        batch_op.drop_column('foreign_attempts')
    op.drop_table('sign_in_throttle')
