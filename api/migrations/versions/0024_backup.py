"""scheduled backup

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-24 10:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0024'
down_revision = '0023'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('backup_schedule',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=20), nullable=False),
    sa.Column('frequency', sa.Enum('daily', 'weekly', 'monthly', name='frequency', native_enum=False, length=20), nullable=False),
    sa.Column('range_days', sa.Integer(), nullable=False),
    sa.Column('keep_count', sa.Integer(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('next_run_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('locale', sa.String(length=5), nullable=False),
    sa.Column('last_file_id', sa.Integer(), nullable=True),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['account.id'], name=op.f('fk_backup_schedule_owner_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_backup_schedule_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_backup_schedule'))
    )
    with op.batch_alter_table('backup_schedule', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_backup_schedule_next_run_at'), ['next_run_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_backup_schedule_owner_account_id'), ['owner_account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_backup_schedule_platform_id'), ['platform_id'], unique=False)

    with op.batch_alter_table('export_file', schema=None) as batch_op:
        batch_op.add_column(sa.Column('backup_schedule_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_export_file_backup_schedule_id'), ['backup_schedule_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_export_file_backup_schedule_id_backup_schedule'), 'backup_schedule', ['backup_schedule_id'], ['id'], ondelete='SET NULL')


def downgrade():
    with op.batch_alter_table('export_file', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_export_file_backup_schedule_id_backup_schedule'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_export_file_backup_schedule_id'))
        batch_op.drop_column('backup_schedule_id')

    with op.batch_alter_table('backup_schedule', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_backup_schedule_platform_id'))
        batch_op.drop_index(batch_op.f('ix_backup_schedule_owner_account_id'))
        batch_op.drop_index(batch_op.f('ix_backup_schedule_next_run_at'))

    op.drop_table('backup_schedule')
