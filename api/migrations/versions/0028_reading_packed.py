"""reading_packed: readings older than READING_PACK_AFTER_DAYS, one row per device, sensor and UTC day
(delta-coded times, exact values and receive delays as lz4-compressed arrays; api/telemetry/compaction.py)

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-24 17:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0028'
down_revision = '0027'
branch_labels = None
depends_on = None

ARRAYS = ('deltas', 'vals', 'delays')


def upgrade():
    op.create_table('reading_packed',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('sensor', sa.SmallInteger(), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('first_ts', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_ts', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deltas', sa.ARRAY(sa.BigInteger()).with_variant(sa.JSON(), 'sqlite'), nullable=False),
    sa.Column('vals', sa.ARRAY(sa.Float()).with_variant(sa.JSON(), 'sqlite'), nullable=False),
    sa.Column('delays', sa.ARRAY(sa.BigInteger()).with_variant(sa.JSON(), 'sqlite'), nullable=True),
    sa.PrimaryKeyConstraint('device_id', 'sensor', 'day', name=op.f('pk_reading_packed'))
    )
    bind = op.get_bind()
    if bind.dialect.name != 'postgresql':
        return
    # A day's arrays exceed the ~2 kB toast threshold, so PostgreSQL compresses them (EXTENDED is the
    # array default) and moves them out of line in ~2 kB chunks that fill pages well. lz4 when the
    # server has it (faster than pglz to decompress, and regular deltas shrink to almost nothing).
    choices = bind.execute(sa.text("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")).scalar()
    if choices and 'lz4' in choices:
        for column in ARRAYS:
            op.execute(f'ALTER TABLE reading_packed ALTER COLUMN {column} SET COMPRESSION lz4')


def downgrade():
    if op.get_bind().dialect.name == 'postgresql':
        # Packed days go back into `reading` first (the same decoding as api/telemetry/readings.py):
        # stepping back loses no reading. Months without a partition land in the default one.
        op.execute("""
            INSERT INTO reading (device_id, sensor, ts, value, received_at)
            SELECT p.device_id, p.sensor, u.ts, u.value, u.ts + u.delay * interval '1 microsecond'
            FROM reading_packed p CROSS JOIN LATERAL (
                SELECT (p.day::timestamp AT TIME ZONE 'UTC') + sum(x.delta::float8) OVER w * interval '1 microsecond'
                       AS ts,
                       x.value, CASE WHEN x.delay IS NOT NULL THEN sum(x.delay::float8) OVER w END AS delay
                FROM unnest(p.deltas, p.vals, p.delays) WITH ORDINALITY AS x (delta, value, delay, n)
                WINDOW w AS (ORDER BY x.n ROWS UNBOUNDED PRECEDING)
            ) u
            ON CONFLICT DO NOTHING""")
    op.drop_table('reading_packed')
