"""FDA controls (issue 45 findings 6 and 8): fda_signing_throttle counts an account's wrong electronic-
signature attempts and holds its signing lock; fda_off_request holds each request to turn FDA mode off
(the owner's, signed) and its approval by a second person (signed) or withdrawal

Revision ID: 0037
Revises: 0036
Create Date: 2026-11-28 09:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0037'
down_revision = '0036'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('fda_signing_throttle',
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('window_start', sa.DateTime(timezone=True), nullable=False),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_fda_signing_throttle_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_fda_signing_throttle_platform_id_platform')),
    sa.PrimaryKeyConstraint('account_id', name=op.f('pk_fda_signing_throttle'))
    )
    with op.batch_alter_table('fda_signing_throttle', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fda_signing_throttle_platform_id'), ['platform_id'], unique=False)
    op.create_table('fda_off_request',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('requested_by', sa.Integer(), nullable=True),
    sa.Column('requested_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('state', sa.String(length=10), nullable=False),
    sa.Column('decided_by', sa.Integer(), nullable=True),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('meaning', sa.String(length=200), nullable=True),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['account.id'], name=op.f('fk_fda_off_request_owner_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['requested_by'], ['account.id'], name=op.f('fk_fda_off_request_requested_by_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['decided_by'], ['account.id'], name=op.f('fk_fda_off_request_decided_by_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_fda_off_request_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_off_request'))
    )
    with op.batch_alter_table('fda_off_request', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fda_off_request_owner_account_id'), ['owner_account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_fda_off_request_platform_id'), ['platform_id'], unique=False)


def downgrade():
    with op.batch_alter_table('fda_off_request', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_fda_off_request_platform_id'))
        batch_op.drop_index(batch_op.f('ix_fda_off_request_owner_account_id'))
    op.drop_table('fda_off_request')
    with op.batch_alter_table('fda_signing_throttle', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_fda_signing_throttle_platform_id'))
    op.drop_table('fda_signing_throttle')
