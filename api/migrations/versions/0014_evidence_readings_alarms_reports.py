"""evidence: received_at of readings, alarm dispositions, report hashes and versions, one home for
limits (sensor_settings limits moved to sensor_limit), outbox secret reference, included SMS / voice

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-24 03:15:00

"""
import json

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None

INCLUDED_SMS, INCLUDED_VOICE = 50, 10


def _limits_to_alarm_area():
    """Limits kept in device.sensor_settings move to sensor_limit (unless the sensor already has a
    row there: the alarm area's limits are what the alarms used), and leave sensor_settings."""
    bind = op.get_bind()
    devices = bind.execute(sa.text("SELECT id, sensor_settings FROM device")).all()
    for device_id, raw in devices:
        settings = json.loads(raw) if isinstance(raw, str) else (raw or {})
        changed = False
        for key, own in list(settings.items()):
            if not isinstance(own, dict) or ("upper" not in own and "lower" not in own):
                continue
            upper, lower = own.pop("upper", None), own.pop("lower", None)
            changed = True
            try:
                sensor = int(key)
            except ValueError:
                continue
            if upper is None and lower is None:
                continue
            taken = bind.execute(
                sa.text("SELECT 1 FROM sensor_limit WHERE device_id = :d AND sensor = :s"), {"d": device_id, "s": sensor}
            ).first()
            if taken is None:
                bind.execute(
                    sa.text(
                        "INSERT INTO sensor_limit (device_id, sensor, upper, lower, delay_minutes, enabled) "
                        "VALUES (:d, :s, :u, :l, 0, :e)"
                    ),
                    {"d": device_id, "s": sensor, "u": upper, "l": lower, "e": True},
                )
        if changed:
            value = "CAST(:v AS JSON)" if bind.dialect.name == "postgresql" else ":v"
            bind.execute(
                sa.text(f"UPDATE device SET sensor_settings = {value} WHERE id = :d"),
                {"v": json.dumps(settings), "d": device_id},
            )


def upgrade():
    with op.batch_alter_table('reading', schema=None) as batch_op:
        batch_op.add_column(sa.Column('received_at', sa.DateTime(timezone=True), nullable=True))

    op.create_table('alarm_disposition',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('alarm_id', sa.Integer(), nullable=False),
    sa.Column('state', sa.Enum('pending', 'agreed', 'rejected', 'on_hold', name='processstate', native_enum=False, length=20), nullable=False),
    sa.Column('result', sa.String(length=50), nullable=True),
    sa.Column('account_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], name=op.f('fk_alarm_disposition_account_id_account'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['alarm_id'], ['alarm.id'], name=op.f('fk_alarm_disposition_alarm_id_alarm'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_alarm_disposition'))
    )
    with op.batch_alter_table('alarm_disposition', schema=None) as batch_op:
        batch_op.create_index('ix_alarm_disposition_alarm', ['alarm_id', 'id'], unique=False)
    # Decisions taken before this table existed become its first rows.
    op.execute(
        "INSERT INTO alarm_disposition (alarm_id, state, result, account_id, created_at) "
        "SELECT id, process_state, result, processed_by, processed_at FROM alarm "
        "WHERE process_state != 'pending' AND processed_at IS NOT NULL"
    )

    with op.batch_alter_table('export_file', schema=None) as batch_op:
        batch_op.add_column(sa.Column('content_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='1', nullable=False))

    with op.batch_alter_table('outbound_message', schema=None) as batch_op:
        batch_op.add_column(sa.Column('secret_ref', sa.String(length=100), nullable=True))
    op.execute(
        "UPDATE outbound_message SET secret_ref = 'push_setting:' || "
        "(SELECT device_id FROM alarm WHERE alarm.id = outbound_message.alarm_id) "
        "WHERE channel = 'webhook' AND alarm_id IS NOT NULL"
    )

    with op.batch_alter_table('device_type', schema=None) as batch_op:
        batch_op.add_column(sa.Column('included_sms', sa.Integer(), server_default=str(INCLUDED_SMS), nullable=False))
        batch_op.add_column(sa.Column('included_voice', sa.Integer(), server_default=str(INCLUDED_VOICE), nullable=False))

    _limits_to_alarm_area()


def downgrade():
    with op.batch_alter_table('device_type', schema=None) as batch_op:
        batch_op.drop_column('included_voice')
        batch_op.drop_column('included_sms')
    with op.batch_alter_table('outbound_message', schema=None) as batch_op:
        batch_op.drop_column('secret_ref')
    with op.batch_alter_table('export_file', schema=None) as batch_op:
        batch_op.drop_column('version')
        batch_op.drop_column('content_hash')
    with op.batch_alter_table('alarm_disposition', schema=None) as batch_op:
        batch_op.drop_index('ix_alarm_disposition_alarm')
    op.drop_table('alarm_disposition')
    with op.batch_alter_table('reading', schema=None) as batch_op:
        batch_op.drop_column('received_at')
