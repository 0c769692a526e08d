"""device_state: updated in place (HOT). Every upload rewrites its device's state row; with
ix_device_state_offline_at each update wrote a new index entry (and a new PK entry), and the dead row
versions piled up until a vacuum. Without it, and with half of each page left free (fillfactor 50),
PostgreSQL updates the row within its page and prunes old versions as it goes. The offline sweep,
once a minute, reads the table sequentially instead (a few milliseconds per 10,000 devices).

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-24 23:50:00

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '0029'
down_revision = '0028'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('device_state', schema=None) as batch_op:
        batch_op.drop_index('ix_device_state_offline_at')
    if op.get_bind().dialect.name == 'postgresql':
        # Applies to pages written from now on; existing ones fill up with new versions as before.
        op.execute('ALTER TABLE device_state SET (fillfactor = 50)')


def downgrade():
    if op.get_bind().dialect.name == 'postgresql':
        op.execute('ALTER TABLE device_state RESET (fillfactor)')
    with op.batch_alter_table('device_state', schema=None) as batch_op:
        batch_op.create_index('ix_device_state_offline_at', ['offline_at'], unique=False)
