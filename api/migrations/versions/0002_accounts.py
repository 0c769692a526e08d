"""accounts

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 21:55:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('account',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_name', sa.String(length=50), nullable=False),
    sa.Column('real_name', sa.String(length=20), nullable=True),
    sa.Column('phone', sa.String(length=20), nullable=True),
    sa.Column('email', sa.String(length=254), nullable=True),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('account_type', sa.Enum('enterprise', 'personal', name='accounttype', native_enum=False, length=20), nullable=False),
    sa.Column('staff_role', sa.Enum('operator', 'platform_admin', name='staffrole', native_enum=False, length=20), nullable=True),
    sa.Column('company_name', sa.String(length=50), nullable=True),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('temperature_unit', sa.String(length=1), nullable=False),
    sa.Column('prev_reset_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('cancelled', sa.Boolean(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_account_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_account')),
    sa.UniqueConstraint('platform_id', 'email', name=op.f('uq_account_platform_id_email')),
    sa.UniqueConstraint('platform_id', 'phone', name=op.f('uq_account_platform_id_phone')),
    sa.UniqueConstraint('platform_id', 'user_name', name=op.f('uq_account_platform_id_user_name'))
    )
    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_account_platform_id'), ['platform_id'], unique=False)


def downgrade():
    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_account_platform_id'))

    op.drop_table('account')
