"""alarm action keys for existing roles

Alarm limits and push settings now have keys of their own (alarm.limit.*, alarm.push.*), and a route
key no longer grants its actions. Roles stored before keep what they could do: a role that could edit
devices may edit limits and push settings; one that could see devices may see the limits.

Revision ID: 0010
Revises: 0009
"""
from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

EDITORS = {"device.list", "device.list.edit"}
VIEWERS = {"device.list.query"}
EDIT_KEYS = ["alarm.limit.query", "alarm.limit.edit", "alarm.push.query", "alarm.push.edit"]
VIEW_KEYS = ["alarm.limit.query"]

role = sa.table("role", sa.column("id", sa.Integer), sa.column("permissions", sa.JSON))


def upgrade():
    connection = op.get_bind()
    for role_id, permissions in connection.execute(sa.select(role.c.id, role.c.permissions)).all():
        keys = list(permissions or [])
        added = EDIT_KEYS if EDITORS & set(keys) else VIEW_KEYS if VIEWERS & set(keys) else []
        new = keys + [k for k in added if k not in keys]
        if new != keys:
            connection.execute(role.update().where(role.c.id == role_id).values(permissions=new))


def downgrade():
    connection = op.get_bind()
    for role_id, permissions in connection.execute(sa.select(role.c.id, role.c.permissions)).all():
        keys = [k for k in (permissions or []) if not k.startswith("alarm.")]
        connection.execute(role.update().where(role.c.id == role_id).values(permissions=keys))
