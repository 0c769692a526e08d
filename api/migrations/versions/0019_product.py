"""product management: the back-office fields of device types, parameters and units; model codes,
SIM cards and GUID export records

Revision ID: 0019
Revises: 0016
Create Date: 2026-11-24 06:09:57

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('device_model_code',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_type_id', sa.Integer(), nullable=False),
    sa.Column('model_name', sa.String(length=50), nullable=False),
    sa.Column('model_code', sa.Integer(), nullable=False),
    sa.Column('model_type', sa.String(length=30), nullable=True),
    sa.Column('model_volume', sa.String(length=30), nullable=True),
    sa.Column('temperature_range', sa.String(length=50), nullable=True),
    sa.Column('voltage', sa.String(length=30), nullable=True),
    sa.Column('refrigeration_power', sa.String(length=30), nullable=True),
    sa.Column('defrost_power', sa.String(length=30), nullable=True),
    sa.Column('model_flag', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['device_type_id'], ['device_type.id'], name=op.f('fk_device_model_code_device_type_id_device_type'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_device_model_code')),
    sa.UniqueConstraint('device_type_id', 'model_code', name=op.f('uq_device_model_code_device_type_id_model_code'))
    )
    with op.batch_alter_table('device_model_code', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_device_model_code_device_type_id'), ['device_type_id'], unique=False)

    op.create_table('guid_export',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('batch_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('file_format', sa.String(length=10), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_guid_export_account_id_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['batch_id'], ['guid_batch.id'], name=op.f('fk_guid_export_batch_id_guid_batch'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_guid_export'))
    )
    with op.batch_alter_table('guid_export', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_guid_export_batch_id'), ['batch_id'], unique=False)

    op.create_table('sim_card',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('card_num', sa.String(length=15), nullable=False),
    sa.Column('icc_id', sa.String(length=30), nullable=False),
    sa.Column('operator', sa.String(length=30), nullable=True),
    sa.Column('open_time', sa.DateTime(timezone=True), nullable=True),
    sa.Column('active_time', sa.DateTime(timezone=True), nullable=True),
    sa.Column('expired_time', sa.DateTime(timezone=True), nullable=True),
    sa.Column('balance', sa.Integer(), nullable=False),
    sa.Column('last_online', sa.DateTime(timezone=True), nullable=True),
    sa.Column('use_state', sa.Enum('unused', 'in_use', 'suspended', 'cancelled', name='simusestate', native_enum=False, length=20), nullable=False),
    sa.Column('recharge_state', sa.Enum('not_recharged', 'recharged', 'failed', name='simrechargestate', native_enum=False, length=20), nullable=False),
    sa.Column('remark', sa.String(length=100), nullable=True),
    sa.Column('device_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_sim_card_device_id_device'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sim_card')),
    sa.UniqueConstraint('device_id', name=op.f('uq_sim_card_device_id')),
    sa.UniqueConstraint('icc_id', name=op.f('uq_sim_card_icc_id'))
    )
    op.create_table('data_api_key',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('key_prefix', sa.String(length=12), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('rate_per_minute', sa.Integer(), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_data_api_key_account_id_account'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['created_by'], ['account.id'], name=op.f('fk_data_api_key_created_by_account'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_data_api_key')),
    sa.UniqueConstraint('key_hash', name=op.f('uq_data_api_key_key_hash'))
    )
    with op.batch_alter_table('data_api_key', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_data_api_key_account_id'), ['account_id'], unique=False)

    with op.batch_alter_table('device_param', schema=None) as batch_op:
        batch_op.add_column(sa.Column('param_classify', sa.String(length=20), server_default='basic', nullable=False))
        batch_op.add_column(sa.Column('param_code', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('data_type', sa.String(length=20), server_default='number', nullable=False))
        batch_op.add_column(sa.Column('view_precision', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('min_param_key', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('max_param_key', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('step_length', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('enforce_send', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('ref_param_expression', sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column('bit_length', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('bit_list', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('reg_exp', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('reg_exp_tip', sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column('merge_group', sa.Integer(), nullable=True))

    with op.batch_alter_table('device_type', schema=None) as batch_op:
        batch_op.add_column(sa.Column('map_mode', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('connect_type', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('wifi_type', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('node_type', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('supports_phone', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('auto_push', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('batch_param', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('online_upgrade', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('cf_mode', sa.String(length=20), server_default='none', nullable=False))
        batch_op.add_column(sa.Column('manual_url', sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column('add_type', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('type_scenes', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('explanation', sa.String(length=200), nullable=True))

    with op.batch_alter_table('param_unit', schema=None) as batch_op:
        batch_op.add_column(sa.Column('locale_code', sa.String(length=10), server_default='en-US', nullable=False))
        batch_op.add_column(sa.Column('unit_pic', sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column('alarm_pic', sa.String(length=255), nullable=True))

    # Existing rows get empty lists, then the lists are required like the models say.
    op.execute("UPDATE device_param SET bit_list = '[]'")
    op.execute("UPDATE device_type SET type_scenes = '[]'")
    with op.batch_alter_table('device_param', schema=None) as batch_op:
        batch_op.alter_column('bit_list', existing_type=sa.JSON(), nullable=False)
    with op.batch_alter_table('device_type', schema=None) as batch_op:
        batch_op.alter_column('type_scenes', existing_type=sa.JSON(), nullable=False)



def downgrade():
    with op.batch_alter_table('param_unit', schema=None) as batch_op:
        batch_op.drop_column('alarm_pic')
        batch_op.drop_column('unit_pic')
        batch_op.drop_column('locale_code')

    with op.batch_alter_table('device_type', schema=None) as batch_op:
        batch_op.drop_column('explanation')
        batch_op.drop_column('type_scenes')
        batch_op.drop_column('add_type')
        batch_op.drop_column('manual_url')
        batch_op.drop_column('cf_mode')
        batch_op.drop_column('online_upgrade')
        batch_op.drop_column('batch_param')
        batch_op.drop_column('auto_push')
        batch_op.drop_column('supports_phone')
        batch_op.drop_column('node_type')
        batch_op.drop_column('wifi_type')
        batch_op.drop_column('connect_type')
        batch_op.drop_column('map_mode')

    with op.batch_alter_table('device_param', schema=None) as batch_op:
        batch_op.drop_column('merge_group')
        batch_op.drop_column('reg_exp_tip')
        batch_op.drop_column('reg_exp')
        batch_op.drop_column('bit_list')
        batch_op.drop_column('bit_length')
        batch_op.drop_column('ref_param_expression')
        batch_op.drop_column('enforce_send')
        batch_op.drop_column('step_length')
        batch_op.drop_column('max_param_key')
        batch_op.drop_column('min_param_key')
        batch_op.drop_column('view_precision')
        batch_op.drop_column('data_type')
        batch_op.drop_column('param_code')
        batch_op.drop_column('param_classify')

    op.drop_table('sim_card')
    with op.batch_alter_table('data_api_key', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_data_api_key_account_id'))

    op.drop_table('data_api_key')
    with op.batch_alter_table('guid_export', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_guid_export_batch_id'))

    op.drop_table('guid_export')
    with op.batch_alter_table('device_model_code', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_device_model_code_device_type_id'))

    op.drop_table('device_model_code')
