"""help centre, provincial data interface; the platform's external links and cloud-control price

Revision ID: 0018
Revises: 0016
Create Date: 2026-11-24 06:12:18.251755

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('platform', schema=None) as batch_op:
        batch_op.add_column(sa.Column('plc_url', sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column('calibration_url', sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column('cloud_control_yearly_price', sa.Integer(), nullable=True))
    op.create_table('help_category',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('language', sa.String(length=5), nullable=False),
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('sort_order', sa.Integer(), nullable=False),
    sa.Column('published', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_help_category_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_help_category'))
    )
    with op.batch_alter_table('help_category', schema=None) as batch_op:
        batch_op.create_index('ix_help_category_site_language', ['platform_id', 'language', 'sort_order'], unique=False)

    op.create_table('data_connector',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('endpoint', sa.String(length=255), nullable=False),
    sa.Column('app_id', sa.String(length=64), nullable=False),
    sa.Column('secret', sa.String(length=128), nullable=False),
    sa.Column('interval_minutes', sa.Integer(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('cursor', sa.DateTime(timezone=True), nullable=True),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['owner_account_id'], ['account.id'], name=op.f('fk_data_connector_owner_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_data_connector_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_data_connector'))
    )
    with op.batch_alter_table('data_connector', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_data_connector_owner_account_id'), ['owner_account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_data_connector_platform_id'), ['platform_id'], unique=False)

    op.create_table('help_article',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('category_id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=100), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('sort_order', sa.Integer(), nullable=False),
    sa.Column('published', sa.Boolean(), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['category_id'], ['help_category.id'], name=op.f('fk_help_article_category_id_help_category'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['created_by'], ['account.id'], name=op.f('fk_help_article_created_by_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_help_article_platform_id_platform'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_help_article'))
    )
    with op.batch_alter_table('help_article', schema=None) as batch_op:
        batch_op.create_index('ix_help_article_category_order', ['category_id', 'sort_order'], unique=False)
        batch_op.create_index(batch_op.f('ix_help_article_platform_id'), ['platform_id'], unique=False)

    op.create_table('data_connector_delivery',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('connector_id', sa.Integer(), nullable=False),
    sa.Column('window_start', sa.DateTime(timezone=True), nullable=False),
    sa.Column('window_end', sa.DateTime(timezone=True), nullable=False),
    sa.Column('batch_no', sa.String(length=64), nullable=False),
    sa.Column('status', sa.Enum('pending', 'sending', 'accepted', 'refused', 'failed', name='deliverystatus', native_enum=False, length=20), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('record_count', sa.Integer(), nullable=True),
    sa.Column('remote_code', sa.String(length=32), nullable=True),
    sa.Column('remote_message', sa.String(length=500), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['connector_id'], ['data_connector.id'], name=op.f('fk_data_connector_delivery_connector_id_data_connector'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_data_connector_delivery')),
    sa.UniqueConstraint('batch_no', name=op.f('uq_data_connector_delivery_batch_no')),
    sa.UniqueConstraint('connector_id', 'window_start', name=op.f('uq_data_connector_delivery_connector_id_window_start'))
    )
    with op.batch_alter_table('data_connector_delivery', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_data_connector_delivery_connector_id'), ['connector_id'], unique=False)
        batch_op.create_index('ix_data_connector_delivery_due', ['status', 'next_attempt_at'], unique=False)

    op.create_table('data_connector_mapping',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('connector_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=True),
    sa.Column('storage_id', sa.Integer(), nullable=True),
    sa.Column('equipment_code', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['connector_id'], ['data_connector.id'], name=op.f('fk_data_connector_mapping_connector_id_data_connector'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_data_connector_mapping_device_id_device'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['storage_id'], ['cold_storage.id'], name=op.f('fk_data_connector_mapping_storage_id_cold_storage'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_data_connector_mapping')),
    sa.UniqueConstraint('connector_id', 'device_id', name=op.f('uq_data_connector_mapping_connector_id_device_id')),
    sa.UniqueConstraint('connector_id', 'equipment_code', name=op.f('uq_data_connector_mapping_connector_id_equipment_code')),
    sa.UniqueConstraint('connector_id', 'storage_id', name=op.f('uq_data_connector_mapping_connector_id_storage_id'))
    )


def downgrade():
    op.drop_table('data_connector_mapping')
    with op.batch_alter_table('data_connector_delivery', schema=None) as batch_op:
        batch_op.drop_index('ix_data_connector_delivery_due')
        batch_op.drop_index(batch_op.f('ix_data_connector_delivery_connector_id'))

    op.drop_table('data_connector_delivery')
    with op.batch_alter_table('help_article', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_help_article_platform_id'))
        batch_op.drop_index('ix_help_article_category_order')

    op.drop_table('help_article')
    with op.batch_alter_table('data_connector', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_data_connector_platform_id'))
        batch_op.drop_index(batch_op.f('ix_data_connector_owner_account_id'))

    op.drop_table('data_connector')
    with op.batch_alter_table('help_category', schema=None) as batch_op:
        batch_op.drop_index('ix_help_category_site_language')

    op.drop_table('help_category')
    with op.batch_alter_table('platform', schema=None) as batch_op:
        batch_op.drop_column('cloud_control_yearly_price')
        batch_op.drop_column('calibration_url')
        batch_op.drop_column('plc_url')
