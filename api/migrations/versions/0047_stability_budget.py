"""stability budget: stability profiles, a waybill's goods under a profile, storage lots with their
profile and disposition (issue 48)

Revision ID: 0047
Revises: 0046
Create Date: 2026-11-28 21:34:23.108853

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0047"
down_revision = "0046"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('stability_profile',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('range_low', sa.Float(), nullable=False),
    sa.Column('range_high', sa.Float(), nullable=False),
    sa.Column('bands', sa.JSON(), nullable=False),
    sa.Column('mkt_limit', sa.Float(), nullable=True),
    sa.Column('alert_percent', sa.Integer(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['account.id'], name=op.f('fk_stability_profile_owner_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_stability_profile_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_stability_profile'))
    )
    with op.batch_alter_table('stability_profile', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_stability_profile_owner_account_id'), ['owner_account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_stability_profile_platform_id'), ['platform_id'], unique=False)

    op.create_table('storage_lot',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('storage_id', sa.Integer(), nullable=False),
    sa.Column('product', sa.String(length=50), nullable=False),
    sa.Column('lot_number', sa.String(length=50), nullable=True),
    sa.Column('quantity', sa.Integer(), nullable=False),
    sa.Column('placed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('removed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('profile_id', sa.Integer(), nullable=True),
    sa.Column('alerted_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('alarm_id', sa.Integer(), nullable=True),
    sa.Column('disposition', sa.Enum('released', 'quarantined', 'rejected', name='lotdisposition', native_enum=False, length=20), nullable=True),
    sa.Column('disposition_reason', sa.String(length=200), nullable=True),
    sa.Column('disposed_by', sa.Integer(), nullable=True),
    sa.Column('disposed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['alarm_id'], ['alarm.id'], name=op.f('fk_storage_lot_alarm_id_alarm'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['disposed_by'], ['account.id'], name=op.f('fk_storage_lot_disposed_by_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_storage_lot_platform_id_platform')),
    sa.ForeignKeyConstraint(['profile_id'], ['stability_profile.id'], name=op.f('fk_storage_lot_profile_id_stability_profile'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['storage_id'], ['cold_storage.id'], name=op.f('fk_storage_lot_storage_id_cold_storage'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_storage_lot'))
    )
    with op.batch_alter_table('storage_lot', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_storage_lot_platform_id'), ['platform_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_storage_lot_profile_id'), ['profile_id'], unique=False)
        batch_op.create_index('ix_storage_lot_storage', ['storage_id', 'removed_at'], unique=False)

    op.create_table('waybill_budget',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('waybill_id', sa.Integer(), nullable=False),
    sa.Column('profile_id', sa.Integer(), nullable=False),
    sa.Column('alerted_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('alarm_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['alarm_id'], ['alarm.id'], name=op.f('fk_waybill_budget_alarm_id_alarm'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['profile_id'], ['stability_profile.id'], name=op.f('fk_waybill_budget_profile_id_stability_profile'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['waybill_id'], ['waybill.id'], name=op.f('fk_waybill_budget_waybill_id_waybill'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_waybill_budget')),
    sa.UniqueConstraint('waybill_id', name=op.f('uq_waybill_budget_waybill_id'))
    )
    with op.batch_alter_table('waybill_budget', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_waybill_budget_profile_id'), ['profile_id'], unique=False)



def downgrade():
    with op.batch_alter_table('waybill_budget', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_waybill_budget_profile_id'))

    op.drop_table('waybill_budget')
    with op.batch_alter_table('storage_lot', schema=None) as batch_op:
        batch_op.drop_index('ix_storage_lot_storage')
        batch_op.drop_index(batch_op.f('ix_storage_lot_profile_id'))
        batch_op.drop_index(batch_op.f('ix_storage_lot_platform_id'))

    op.drop_table('storage_lot')
    with op.batch_alter_table('stability_profile', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_stability_profile_platform_id'))
        batch_op.drop_index(batch_op.f('ix_stability_profile_owner_account_id'))

    op.drop_table('stability_profile')
