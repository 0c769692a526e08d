"""frozen signed records (21 CFR 11.70): the channels a signed file covers, every rendered version of a
signed file (sealed PDF bytes, snapshot of what it printed, their hashes); the history of sensor limits
(valid from / to, who, why), seeded with the limits in force now as valid since ever

Revision ID: 0033
Revises: 0030
Create Date: 2026-11-28 06:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0033'
down_revision = '0032'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('fda_signed_channel',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('file_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('sensor', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['file_id'], ['fda_data_file.id'], name=op.f('fk_fda_signed_channel_file_id_fda_data_file'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_signed_channel'))
    )
    with op.batch_alter_table('fda_signed_channel', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fda_signed_channel_device_id'), ['device_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_fda_signed_channel_file_id'), ['file_id'], unique=False)

    op.create_table('fda_record_version',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('file_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('pdf', sa.LargeBinary(), nullable=False),
    sa.Column('pdf_hash', sa.String(length=64), nullable=False),
    sa.Column('snapshot', sa.JSON(), nullable=False),
    sa.Column('snapshot_hash', sa.String(length=64), nullable=False),
    sa.Column('seal_hash', sa.String(length=64), nullable=False),
    sa.Column('platform_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['created_by'], ['account.id'], name=op.f('fk_fda_record_version_created_by_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['file_id'], ['fda_data_file.id'], name=op.f('fk_fda_record_version_file_id_fda_data_file'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['platform_id'], ['platform.id'], name=op.f('fk_fda_record_version_platform_id_platform')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fda_record_version')),
    sa.UniqueConstraint('file_id', 'version', name=op.f('uq_fda_record_version_file_id_version'))
    )
    with op.batch_alter_table('fda_record_version', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fda_record_version_file_id'), ['file_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_fda_record_version_platform_id'), ['platform_id'], unique=False)

    op.create_table('sensor_limit_history',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('sensor', sa.Integer(), nullable=False),
    sa.Column('upper', sa.Float(), nullable=True),
    sa.Column('lower', sa.Float(), nullable=True),
    sa.Column('delay_minutes', sa.Integer(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('valid_from', sa.DateTime(timezone=True), nullable=False),
    sa.Column('valid_to', sa.DateTime(timezone=True), nullable=True),
    sa.Column('changed_by', sa.Integer(), nullable=True),
    sa.Column('reason', sa.String(length=200), nullable=True),
    sa.ForeignKeyConstraint(['changed_by'], ['account.id'], name=op.f('fk_sensor_limit_history_changed_by_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_sensor_limit_history_device_id_device'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sensor_limit_history'))
    )
    with op.batch_alter_table('sensor_limit_history', schema=None) as batch_op:
        batch_op.create_index('ix_sensor_limit_history_device', ['device_id', 'sensor', 'valid_from'], unique=False)
    # The limits in force now, valid since ever (nothing older was kept); SQLite keeps UTC times as
    # naive text in the form SQLAlchemy writes them.
    since_ever = "'1970-01-01 00:00:00.000000'" if op.get_bind().dialect.name == "sqlite" else "'1970-01-01 00:00:00+00'"
    op.execute(
        "INSERT INTO sensor_limit_history (device_id, sensor, upper, lower, delay_minutes, enabled, valid_from) "
        f"SELECT device_id, sensor, upper, lower, delay_minutes, enabled, {since_ever} FROM sensor_limit"
    )


def downgrade():
    with op.batch_alter_table('sensor_limit_history', schema=None) as batch_op:
        batch_op.drop_index('ix_sensor_limit_history_device')
    op.drop_table('sensor_limit_history')
    with op.batch_alter_table('fda_record_version', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_fda_record_version_platform_id'))
        batch_op.drop_index(batch_op.f('ix_fda_record_version_file_id'))
    op.drop_table('fda_record_version')
    with op.batch_alter_table('fda_signed_channel', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_fda_signed_channel_file_id'))
        batch_op.drop_index(batch_op.f('ix_fda_signed_channel_device_id'))
    op.drop_table('fda_signed_channel')
