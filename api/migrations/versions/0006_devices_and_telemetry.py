"""devices and telemetry

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-21 22:17:01.895585

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    # reading is range-partitioned by month on PostgreSQL (see api/telemetry/partitions.py).
    op.create_table('device_sample',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('ts', sa.DateTime(timezone=True), nullable=False),
    sa.Column('battery', sa.Float(), nullable=True),
    sa.Column('signal', sa.Float(), nullable=True),
    sa.Column('lat', sa.Float(), nullable=True),
    sa.Column('lng', sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint('device_id', 'ts', name=op.f('pk_device_sample'))
    )
    op.create_table('device_type',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('type_name', sa.String(length=50), nullable=False),
    sa.Column('type_code', sa.Integer(), nullable=False),
    sa.Column('type_series', sa.String(length=50), nullable=False),
    sa.Column('category', sa.Enum('cold_chain', 'cold_storage', 'freezer', name='category', native_enum=False, length=20), nullable=False),
    sa.Column('net_type', sa.String(length=20), nullable=False),
    sa.Column('type_status', sa.Enum('to_test', 'testing', 'published', name='typestatus', native_enum=False, length=20), nullable=False),
    sa.Column('supports_waybill', sa.Boolean(), nullable=False),
    sa.Column('supports_energy', sa.Boolean(), nullable=False),
    sa.Column('supports_gps', sa.Boolean(), nullable=False),
    sa.Column('default_interval_s', sa.Integer(), nullable=False),
    sa.Column('offline_after_intervals', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_type')),
    sa.UniqueConstraint('type_code', name=op.f('uq_device_type_type_code'))
    )
    op.create_table('param_unit',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('unit_name', sa.String(length=30), nullable=False),
    sa.Column('unit_code', sa.String(length=30), nullable=False),
    sa.Column('unit_classify', sa.String(length=30), nullable=False),
    sa.Column('basic_unit', sa.Boolean(), nullable=False),
    sa.Column('to_basic_formula', sa.String(length=100), nullable=False),
    sa.Column('from_basic_formula', sa.String(length=100), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_param_unit')),
    sa.UniqueConstraint('unit_code', name=op.f('uq_param_unit_unit_code'))
    )
    op.create_table('reading',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('sensor', sa.SmallInteger(), nullable=False),
    sa.Column('ts', sa.DateTime(timezone=True), nullable=False),
    sa.Column('value', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('device_id', 'sensor', 'ts', name=op.f('pk_reading')),
    postgresql_partition_by='RANGE (ts)'
    )
    op.create_table('reading_hourly',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('sensor', sa.SmallInteger(), nullable=False),
    sa.Column('bucket', sa.DateTime(timezone=True), nullable=False),
    sa.Column('min_value', sa.Float(), nullable=False),
    sa.Column('max_value', sa.Float(), nullable=False),
    sa.Column('sum_value', sa.Float(), nullable=False),
    sa.Column('count', sa.BigInteger(), nullable=False),
    sa.Column('first_ts', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_ts', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('device_id', 'sensor', 'bucket', name=op.f('pk_reading_hourly'))
    )
    op.create_table('device_param',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_type_id', sa.Integer(), nullable=False),
    sa.Column('param_key', sa.Integer(), nullable=False),
    sa.Column('param_name', sa.String(length=40), nullable=False),
    sa.Column('param_type', sa.String(length=20), nullable=False),
    sa.Column('probe_id', sa.Integer(), nullable=True),
    sa.Column('unit_id', sa.Integer(), nullable=True),
    sa.Column('precision', sa.Integer(), nullable=False),
    sa.Column('param_min', sa.Float(), nullable=True),
    sa.Column('param_max', sa.Float(), nullable=True),
    sa.Column('read_write', sa.Enum('R', 'W', 'RW', name='readwrite', native_enum=False), nullable=False),
    sa.Column('sort_no', sa.Integer(), nullable=False),
    sa.Column('default_value', sa.String(length=40), nullable=True),
    sa.ForeignKeyConstraint(['device_type_id'], ['device_type.id'], name=op.f('fk_device_param_device_type_id_device_type'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['unit_id'], ['param_unit.id'], name=op.f('fk_device_param_unit_id_param_unit')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_param')),
    sa.UniqueConstraint('device_type_id', 'param_key', name=op.f('uq_device_param_device_type_id_param_key'))
    )
    with op.batch_alter_table('device_param', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_device_param_device_type_id'), ['device_type_id'], unique=False)

    op.create_table('guid_batch',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('order_code', sa.String(length=20), nullable=False),
    sa.Column('num', sa.Integer(), nullable=False),
    sa.Column('device_type_id', sa.Integer(), nullable=False),
    sa.Column('device_tag', sa.String(length=50), nullable=True),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['device_type_id'], ['device_type.id'], name=op.f('fk_guid_batch_device_type_id_device_type')),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_guid_batch_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_guid_batch'))
    )
    op.create_table('device',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guid', sa.String(length=20), nullable=False),
    sa.Column('device_type_id', sa.Integer(), nullable=False),
    sa.Column('batch_id', sa.Integer(), nullable=True),
    sa.Column('credential_version', sa.Integer(), nullable=False),
    sa.Column('owner_account_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=15), nullable=True),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('remark', sa.String(length=120), nullable=True),
    sa.Column('interval_s', sa.Integer(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('scrapped_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('deleted', sa.Boolean(), nullable=False),
    sa.Column('focus', sa.Boolean(), nullable=False),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('service_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('data_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('sensor_settings', sa.JSON(), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['batch_id'], ['guid_batch.id'], name=op.f('fk_device_batch_id_guid_batch')),
    sa.ForeignKeyConstraint(['device_type_id'], ['device_type.id'], name=op.f('fk_device_device_type_id_device_type')),
    sa.ForeignKeyConstraint(['owner_account_id'], ['account.id'], name=op.f('fk_device_owner_account_id_account')),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_device_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device')),
    sa.UniqueConstraint('guid', name=op.f('uq_device_guid'))
    )
    with op.batch_alter_table('device', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_device_device_type_id'), ['device_type_id'], unique=False)
        batch_op.create_index('ix_device_owner_order', ['owner_account_id', 'focus', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_device_platform_id'), ['platform_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_device_service_expires_at'), ['service_expires_at'], unique=False)

    op.create_table('device_command',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('params', sa.JSON(), nullable=False),
    sa.Column('status', sa.Enum('pending', 'applied', 'failed', name='commandstatus', native_enum=False, length=20), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('acked_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('error', sa.String(length=200), nullable=True),
    sa.ForeignKeyConstraint(['created_by'], ['account.id'], name=op.f('fk_device_command_created_by_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_device_command_device_id_device'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_command'))
    )
    with op.batch_alter_table('device_command', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_device_command_device_id'), ['device_id'], unique=False)

    op.create_table('device_event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('action', sa.String(length=40), nullable=False),
    sa.Column('detail', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_device_event_account_id_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_device_event_device_id_device'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_event'))
    )
    with op.batch_alter_table('device_event', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_device_event_device_id'), ['device_id'], unique=False)

    op.create_table('device_state',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('last_data_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('offline_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('values', sa.JSON(), nullable=False),
    sa.Column('battery', sa.Float(), nullable=True),
    sa.Column('signal', sa.Float(), nullable=True),
    sa.Column('lat', sa.Float(), nullable=True),
    sa.Column('lng', sa.Float(), nullable=True),
    sa.Column('alarm_active', sa.Boolean(), nullable=False),
    sa.Column('fault', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_device_state_device_id_device'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('device_id', name=op.f('pk_device_state'))
    )
    with op.batch_alter_table('device_state', schema=None) as batch_op:
        batch_op.create_index('ix_device_state_offline_at', ['offline_at'], unique=False)

    op.create_table('maintenance_record',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.Enum('maintenance', 'warranty', name='recordkind', native_enum=False, length=20), nullable=False),
    sa.Column('report_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('start_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('end_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('person', sa.String(length=50), nullable=False),
    sa.Column('approver', sa.String(length=20), nullable=True),
    sa.Column('repairer', sa.String(length=50), nullable=True),
    sa.Column('reason', sa.Text(), nullable=True),
    sa.Column('content', sa.Text(), nullable=True),
    sa.Column('standard', sa.Text(), nullable=True),
    sa.Column('result', sa.Text(), nullable=True),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['created_by'], ['account.id'], name=op.f('fk_maintenance_record_created_by_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_maintenance_record_device_id_device'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_maintenance_record'))
    )
    with op.batch_alter_table('maintenance_record', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_maintenance_record_device_id'), ['device_id'], unique=False)


    if op.get_bind().dialect.name == "postgresql":
        from datetime import UTC, datetime

        from api.telemetry.partitions import ensure_partitions

        ensure_partitions(op.get_bind(), datetime.now(UTC))


def downgrade():
    with op.batch_alter_table('maintenance_record', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_maintenance_record_device_id'))

    op.drop_table('maintenance_record')
    with op.batch_alter_table('device_state', schema=None) as batch_op:
        batch_op.drop_index('ix_device_state_offline_at')

    op.drop_table('device_state')
    with op.batch_alter_table('device_event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_device_event_device_id'))

    op.drop_table('device_event')
    with op.batch_alter_table('device_command', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_device_command_device_id'))

    op.drop_table('device_command')
    with op.batch_alter_table('device', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_device_service_expires_at'))
        batch_op.drop_index(batch_op.f('ix_device_platform_id'))
        batch_op.drop_index('ix_device_owner_order')
        batch_op.drop_index(batch_op.f('ix_device_device_type_id'))

    op.drop_table('device')
    op.drop_table('guid_batch')
    with op.batch_alter_table('device_param', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_device_param_device_type_id'))

    op.drop_table('device_param')
    op.drop_table('reading_hourly')
    op.drop_table('reading')
    op.drop_table('param_unit')
    op.drop_table('device_type')
    op.drop_table('device_sample')
